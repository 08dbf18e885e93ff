"""K2 Table geometry: the grid, cells and their notation, neighbours, the playing surface.

K2.5 (an unaligned card) and K2.7 (the camera's field of view) are the camera's: see
tests/test_clustered_vision.py.
"""

from __future__ import annotations

import pytest
from clustered_helpers import game, played

from companion.clustered import Cell, NotationError, Placement, Refusal, SettingsError, Surface
from companion.clustered.cells import Direction
from companion.clustered.legality import neighbour_mask


def test_k2_1_the_start_card_is_at_0_0_and_one_card_per_cell() -> None:
    """K2.1: the (first) start card fixes the grid at (0, 0); at most one card per cell."""
    g = game("BO")
    assert g.layout.starts == (Cell(0, 0),)
    verdict = g.verdict(Placement.parse("B-wild 0,0"))
    assert verdict.refusal is Refusal.OCCUPIED


def test_k2_2_x_grows_east_and_y_north_and_two_start_cards_at_0_0_and_7_0() -> None:
    """K2.2: x east, y north; with two start cards the first at (0, 0), the second (7, 0)."""
    assert Cell(0, 0).neighbour(Direction.EAST) == Cell(1, 0)
    assert Cell(0, 0).neighbour(Direction.NORTH) == Cell(0, 1)
    assert game("BORGY").layout.starts == (Cell(0, 0), Cell(7, 0))


def test_k2_3_neighbours_are_north_east_south_west_in_that_order() -> None:
    """K2.3: the four neighbours, in the order reports list them."""
    assert Cell(3, -1).neighbours() == (Cell(3, 0), Cell(4, -1), Cell(3, -2), Cell(2, -1))
    assert [d.name for d in Direction] == ["NORTH", "EAST", "SOUTH", "WEST"]


def test_k2_3_cards_meeting_at_a_corner_are_not_neighbours() -> None:
    """K2.3: only these count, for placement (K4) and scoring (K6)."""
    g = played(["B-sq-so-1 1,0"])
    assert neighbour_mask(g.layout, Cell(2, 1)) is None
    assert g.verdict(Placement.parse("O-ci-ho-3 2,1")).refusal is Refusal.NO_NEIGHBOUR


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("3,-1", Cell(3, -1)),
        ("(3, -1)", Cell(3, -1)),
        ("+3 , -1", Cell(3, -1)),
        (" ( -12,+4 ) ", Cell(-12, 4)),
        ("0,0", Cell(0, 0)),
    ],
)
def test_k2_4_cell_notation_with_signs_spaces_and_parentheses(text: str, cell: Cell) -> None:
    """K2.4: ``x,y`` with optional signs, spaces around the comma, parentheses; canonical
    ``3,-1``."""
    assert Cell.parse(text) == cell
    assert Cell.parse(cell.text()) == cell
    assert Cell.parse("(3, -1)").text() == "3,-1"


@pytest.mark.parametrize("text", ["3", "3;-1", "(3,-1", "3,-1)", "a,b", "3.0,1", "3 -1"])
def test_k2_4_other_cell_text_is_refused(text: str) -> None:
    """K2.4: anything else is no cell."""
    with pytest.raises(NotationError, match="is not a cell"):
        Cell.parse(text)


def test_k2_4_a_typed_placement_is_a_card_white_space_and_a_cell() -> None:
    """K2.4: ``B-tr-da-3 2,-1``."""
    placement = Placement.parse("b-tr-da-3   (2, -1)")
    assert placement.text() == "B-tr-da-3 2,-1"
    assert Placement.parse(placement.text()) == placement
    with pytest.raises(NotationError, match="is not a placement"):
        Placement.parse("B-tr-da-3")
    with pytest.raises(NotationError, match="start card is never placed"):
        Placement.parse("start 1,0")


def test_k2_6_house_rule_surface_is_unbounded_by_default() -> None:
    """K2.6 (house rule ``surface``, default unbounded)."""
    g = game("B")
    assert g.settings.surface.unbounded
    assert g.verdict(Placement.parse("B-wild 1000,0")).refusal is Refusal.NO_NEIGHBOUR


def test_k2_6_no_card_is_placed_outside_the_surface() -> None:
    """K2.6: the surface as a set of cells, usually an inclusive rectangle."""
    g = game("B", surface="-1..1,-1..1")
    assert g.verdict(Placement.parse("B-wild 1,0")).legal
    g.play("B-wild 1,0")
    assert g.verdict(Placement.parse("B-wild 2,0")).refusal is Refusal.OFF_SURFACE
    assert Surface.parse(" -1..1 , -1..1 ; 2..3,0..0 ").text() == "-1..1,-1..1; 2..3,0..0"
    assert Cell(3, 0) in Surface.parse("-1..1,-1..1; 2..3,0..0")


def test_k2_6_the_surface_must_contain_the_start_cards() -> None:
    """K2.6: the surface contains the start card(s)."""
    with pytest.raises(SettingsError, match="does not hold the start card at 7,0"):
        game("BORGY", surface="-3..3,-3..3")
    with pytest.raises(SettingsError, match="is not a rectangle"):
        Surface.parse("the kitchen table")
