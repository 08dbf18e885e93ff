"""Globular Cluster rulings G2: geometry, ticks and crossing costs."""

from __future__ import annotations

import pytest

from companion.globular.errors import NotationError, Refusal
from companion.globular.geometry import MITS, Direction, Position, faces, tick_cost
from companion.globular.placement import placement_refusal
from companion.globular.tiles import CORNERS, Corner, Tile
from tests.globular_helpers import FIGURE_2, P, figure_2, lay, new_game, play, put, start_actions

X = None  # impassable


def test_g2_1_right_is_the_mits_side_and_no_tile_lies_past_it() -> None:
    game = new_game()
    refusal = placement_refusal(game.state.board, P("n6"), Tile.parse("bl2"), Corner.BL)
    assert refusal is not None and refusal.ruling == "G3.6"
    assert MITS.step(Direction.RIGHT).q > MITS.q


def test_g2_2_positions_exist_where_q_plus_r_is_even() -> None:
    assert Position.at(0, 0) == MITS
    assert [q for q in range(-6, 1) if Position.at(q, -1).exists] == [-5, -3, -1]
    assert Position.at(-1, 0).exists is False
    assert Position.parse("l6") == Position.at(-1, -1)  # over the MITS's left half


@pytest.mark.parametrize(
    ("name", "q", "r"),
    [("m7", 0, 0), ("a1", -12, -6), ("m13", 0, 6), ("k7", -2, 0), ("l6", -1, -1), ("b2", -11, -5)],
)
def test_g2_3_names_are_a_column_letter_and_a_row_number(name: str, q: int, r: int) -> None:
    assert Position.parse(name) == Position.at(q, r)
    assert Position.at(q, r).name() == name
    assert Position.parse(name.upper()) == Position.at(q, r)


def test_g2_3_mits_is_m7_and_every_allowed_position_has_a_name() -> None:
    assert Position.parse("mits") == Position.parse("M7") == MITS
    for r in range(-6, 7):
        for q in range(-12, 1):
            position = Position.at(q, r)
            if position.exists:
                assert Position.parse(position.name()) == position


def test_g2_3_odd_rows_use_a_c_e_and_even_rows_b_d_f() -> None:
    assert [Position.at(q, 0).name()[0] for q in range(-12, 1, 2)] == list("acegikm")
    assert [Position.at(q, -1).name()[0] for q in range(-11, 0, 2)] == list("bdfhjl")
    assert Position.parse("k6").exists is False  # wrong parity: no position (G3.2 refuses it)
    assert Position.parse("o7").q == 2  # past the MITS: G3.6 refuses it


@pytest.mark.parametrize("text", ["m0", "m14", "7m", "mm", "", "k-1", "m07"])
def test_g2_3_other_text_names_no_position(text: str) -> None:
    with pytest.raises(NotationError, match=r"not a position.*\(G8\.2\)"):
        Position.parse(text)


def test_g2_4_the_six_neighbours_of_f6() -> None:
    assert [n.name() for n in P("f6").neighbours()] == ["d6", "h6", "e5", "g5", "e7", "g7"]
    assert P("f6").direction_to(P("h7")) is None  # no other positions touch


def test_g2_5_a_tiles_orientation_is_the_corner_of_its_tick() -> None:
    assert [c.value for c in CORNERS] == ["tl", "tr", "bl", "br"]
    assert Corner.parse("BR") is Corner.BR
    with pytest.raises(NotationError, match="not a corner"):
        Corner.parse("up")


@pytest.mark.parametrize(
    ("corner", "facing"),
    [
        ("tr", {"right", "up-right"}),
        ("tl", {"left", "up-left"}),
        ("br", {"right", "down-right"}),
        ("bl", {"left", "down-left"}),
    ],
)
def test_g2_6_a_tick_faces_the_neighbours_whose_shared_side_holds_its_corner(
    corner: str, facing: set[str]
) -> None:
    here = P("f6")
    assert {d.words for d in Direction if faces(here, Corner(corner), d)} == facing


def test_g2_6_a_tr_tick_does_not_face_the_up_left_neighbour() -> None:
    assert not faces(P("f6"), Corner.TR, Direction.UP_LEFT)


def test_g2_7_same_row_ticks_touching_across_the_seam_are_directly_adjacent() -> None:
    a, b = P("i7"), P("k7")
    assert tick_cost(a, Corner.TR, b, Corner.TL) == 4
    assert tick_cost(a, Corner.BR, b, Corner.BL) == 4
    assert tick_cost(a, Corner.TR, b, Corner.BL) == 2
    assert tick_cost(a, Corner.BR, b, Corner.TL) == 2


def test_g2_7_half_offset_ticks_are_always_offset() -> None:
    a = P("i7")
    up_right, down_right = P("j6"), P("j8")
    assert tick_cost(a, Corner.TR, up_right, Corner.BL) == 2
    assert tick_cost(a, Corner.BR, down_right, Corner.TL) == 2
    for ca in CORNERS:
        for cb in CORNERS:
            assert tick_cost(a, ca, up_right, cb) != 4
            assert tick_cost(a, ca, down_right, cb) != 4


def test_g2_8_costs_are_the_same_both_ways_and_for_a_leader() -> None:
    for b in P("i7").neighbours():
        for ca in CORNERS:
            for cb in CORNERS:
                assert tick_cost(P("i7"), ca, b, cb) == tick_cost(b, cb, P("i7"), ca)
    game = new_game()
    start_actions(game, "bl2", "j6 br")
    play(game, "move m7>k7 leader", "move m7>k7")
    assert game.state.turn.ap == 8


def test_g2_9_the_mits_costs_1_when_the_neighbours_tick_faces_it() -> None:
    board = new_game().state.board
    assert board.crossing(MITS, P("k7")) == 1
    assert board.crossing(MITS, P("l6")) == 1
    assert board.crossing(MITS, P("l8")) is X


def test_g2_10_a_supernova_is_never_entered_or_crossed() -> None:
    game = new_game()
    lay(game, "j6 rda bl")  # its bl would face i7 and its br faces l6's nothing
    lay(game, "i7 gra tr")
    assert game.state.board.crossing(P("j6"), P("i7")) is X
    assert game.state.board.crossing(P("i7"), P("j6")) is X


G2_11_RIGHT = {
    "tr": [4, 2, 1, 1],
    "br": [2, 4, 1, 1],
    "tl": [1, 1, X, X],
    "bl": [1, 1, X, X],
}


@pytest.mark.parametrize(("a_tick", "row"), G2_11_RIGHT.items())
def test_g2_11_the_cost_table_for_a_right_hand_neighbour(a_tick: str, row: list[int]) -> None:
    a, b = P("i7"), P("k7")
    got = [tick_cost(a, Corner(a_tick), b, Corner(bt)) for bt in ("tl", "bl", "tr", "br")]
    assert got == row


def test_g2_11_the_cost_table_for_diagonal_neighbours() -> None:
    a = P("i7")
    for up_right, pair in ((P("j6"), ("tr", "bl")), (P("j8"), ("br", "tl"))):
        for ca in CORNERS:
            for cb in CORNERS:
                both = (ca.value, cb.value) == pair
                one = ca.value == pair[0] or cb.value == pair[1]
                expected = 2 if both else 1 if one else X
                assert tick_cost(a, ca, up_right, cb) == expected, (up_right, ca, cb)


def test_g2_12_figure_1_the_starting_layout_and_its_crossings() -> None:
    board = new_game().state.board
    assert {p.name(): (board[p].code, board[p].corner) for p in board} == {
        "l6": ("bka", Corner.BR),
        "k7": ("bka", Corner.TR),
        "m7": ("mits", None),
        "l8": ("bkn", Corner.TL),
    }
    assert board[P("k7")].pennies == board[P("l6")].pennies == 1
    costs = {(a.name(), b.name()): c for a, b, c in board.crossings()}
    assert costs == {
        ("l6", "k7"): 1,
        ("l6", "m7"): 1,
        ("k7", "m7"): 1,
        ("k7", "l8"): 1,
        ("m7", "l8"): X,
    }


def test_g2_13_figure_2_each_placement_is_legal_in_its_order() -> None:
    game = new_game()
    for name, code, corner in FIGURE_2:
        refusal = placement_refusal(game.state.board, P(name), Tile.parse(code), Corner(corner))
        assert refusal is None, refusal
        lay(game, (name, code, corner))


FIGURE_2_CROSSINGS = (
    "k5-j6 1; k5-l6 x; h6-j6 4; h6-i7 1; j6-l6 x; j6-i7 2; j6-k7 x; l6-k7 1; l6-m7 1; i7-k7 1; "
    "i7-h8 1; i7-j8 x; k7-m7 1; k7-j8 x; k7-l8 1; m7-l8 x; h8-j8 2; j8-l8 1"
)


def test_g2_13_figure_2_every_crossing_costs_what_the_ruling_lists() -> None:
    game = new_game()
    figure_2(game)
    board = game.state.board
    expected = {}
    for item in FIGURE_2_CROSSINGS.split("; "):
        pair, cost = item.split()
        a, b = pair.split("-")
        expected[frozenset((a, b))] = None if cost == "x" else int(cost)
    got = {frozenset((a.name(), b.name())): c for a, b, c in board.crossings()}
    assert got == expected


@pytest.mark.parametrize(
    ("a", "b", "cost"),
    [("k5", "j6", 1), ("h6", "i7", 1), ("j8", "h8", 2), ("i7", "j6", 2), ("h6", "j6", 4)],
)
def test_g2_13_the_rulebooks_cost_examples_as_moves(a: str, b: str, cost: int) -> None:
    game = new_game()
    figure_2(game)
    start_actions(game, "bl4", "m5 bl")
    put(game, "red", {a: 1})
    game.play(f"move {a}>{b}")
    assert game.state.turn.ap == 10 - cost


def test_g2_13_an_impassable_crossing_is_refused_as_a_move() -> None:
    game = new_game()
    figure_2(game)
    start_actions(game, "bl4", "m5 bl")
    put(game, "red", {"k7": 1})
    with pytest.raises(Refusal, match=r"impassable.*\(G2\.8\)"):
        game.play("move k7>j8")
