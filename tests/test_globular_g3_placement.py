"""Globular Cluster rulings G3: placing a tile."""

from __future__ import annotations

import pytest

from companion.globular.errors import Refusal
from companion.globular.game import GlobularGame
from companion.globular.geometry import Position
from companion.globular.placement import holes, legal_placements, placement_refusal
from companion.globular.settings import Settings, StackKeeper
from companion.globular.stack import GROUP_3
from companion.globular.state import TurnKind
from companion.globular.tiles import CORNERS, Colour, Corner, Tile
from tests.globular_helpers import P, figure_2, full_rectangle, lay, new_game, play, put


def refusal_at(game: GlobularGame, name: str, code: str = "bl2", corner: str = "tr") -> str | None:
    found = placement_refusal(game.state.board, P(name), Tile.parse(code), Corner(corner))
    return None if found is None else found.ruling


def test_g3_1_the_drawn_tile_is_placed_before_any_action() -> None:
    game = new_game()
    with pytest.raises(Refusal, match=r"starts with drawing.*\(G3\.1\)"):
        game.play("move m7>k7")
    game.play("draw bl2")
    with pytest.raises(Refusal, match=r"place the blue 2 first.*\(G3\.1\)"):
        game.play("move m7>k7")
    game.play("place j6 br")
    game.play("move m7>k7")


def test_g3_1_the_player_may_not_decline_the_tile() -> None:
    game = new_game()
    game.play("draw bl2")
    with pytest.raises(Refusal, match=r"cannot be declined \(G3\.1\)"):
        game.play("end")
    with pytest.raises(Refusal, match=r"has been drawn already \(G3\.1\)"):
        game.play("draw gr2")


def test_g3_2_a_tile_may_not_overlap_another_or_lie_off_the_pattern() -> None:
    game = new_game()
    assert refusal_at(game, "k7") == "G3.2"
    assert refusal_at(game, "k6") == "G3.2"
    game.play("draw bl2")
    with pytest.raises(Refusal, match=r"k6 is not a place in the half-offset rows"):
        game.play("place k6 tr")


def test_g3_3_a_tile_must_touch_the_board() -> None:
    game = new_game()
    assert refusal_at(game, "e7") == "G3.3"
    assert refusal_at(game, "j8", corner="tl") is None  # touches l8 and k7


def test_g3_4_a_single_enclosed_position_is_a_hole() -> None:
    game = new_game()
    figure_2(game)
    lay(game, "e7 gr2 tr", "f6 gr2 br")
    assert holes(set(game.state.board.cells)) == []
    refusal = placement_refusal(game.state.board, P("f8"), Tile.parse("bl2"), Corner.TR)
    assert refusal is not None and refusal.ruling == "G3.4"
    assert "hole at g7" in refusal.reason


def test_g3_4_a_larger_pocket_sealed_off_is_a_hole() -> None:
    game = new_game()
    figure_2(game)
    lay(game, "e7 gr2 tr", "f6 gr2 br", "d8 gr2 tr", "e9 gr2 tr")
    assert refusal_at(game, "g9") == "G3.4"
    refusal = placement_refusal(game.state.board, P("g9"), Tile.parse("bl2"), Corner.TR)
    assert refusal is not None and "hole at g7, f8" in refusal.reason


def test_g3_4_a_bay_open_to_the_outside_is_not_a_hole() -> None:
    game = new_game()
    figure_2(game)
    lay(game, "e7 gr2 tr")
    assert refusal_at(game, "f6", corner="br") is None  # g7 stays open through f8


def test_g3_4_positions_right_of_the_mits_count_as_empty() -> None:
    game = new_game()
    lay(game, "k5 gr2 br")
    # m5 then has tiles up-left (l4), left (k5) and down-left (l6); its other three sides lie
    # right of the MITS, which count as empty: it is open to the outside, not a hole.
    assert refusal_at(game, "l4", corner="bl") is None
    lay(game, "l4 gr2 bl")
    assert holes(set(game.state.board.cells)) == []


def test_g3_5_seven_rows_are_the_most() -> None:
    game = new_game()
    lay(game, "k5 gr2 br", "l4 gr2 bl", "k3 gr2 br")
    assert refusal_at(game, "l2", corner="bl") is None  # rows 2 to 8: 7 rows
    lay(game, "l2 gr2 bl")
    assert refusal_at(game, "k1", corner="br") == "G3.5"  # 8 rows


def test_g3_5_seven_rows_allow_12_half_tiles_of_width_not_13() -> None:
    game = new_game()
    lay(game, "k5 gr2 br", "l4 gr2 bl", "k3 gr2 br", "l2 gr2 bl")
    lay(game, "i7 gr2 tr", "g7 gr2 tr", "e7 gr2 tr")
    assert refusal_at(game, "c7") is None  # 6 tiles wide, 7 rows
    lay(game, "c7 gr2 tr")
    refusal = placement_refusal(game.state.board, P("b8"), Tile.parse("bl2"), Corner.TR)
    assert refusal is not None and refusal.ruling == "G3.5"
    assert "6.5 tiles wide and 7 rows high" in refusal.reason


def test_g3_5_six_rows_allow_14_half_tiles_of_width_not_15() -> None:
    game = new_game()
    lay(game, "i7 gr2 tr", "g7 gr2 tr", "e7 gr2 tr", "c7 gr2 tr")
    assert refusal_at(game, "a7") is None  # 7 tiles wide, 3 rows
    lay(game, "a7 gr2 tr")
    board = game.state.board
    too_wide = placement_refusal(board, Position.at(-13, -1), Tile.parse("bl2"), Corner.TR)
    assert too_wide is not None and too_wide.ruling == "G3.5"
    lay(game, "l4 gr2 bl", "k5 gr2 br")
    assert refusal_at(game, "k3", corner="br") is None  # 6 rows, 14 wide
    lay(game, "k3 gr2 br")
    assert refusal_at(game, "l2", corner="bl") == "G3.5"  # 7 rows, 14 wide


def test_g3_6_no_tile_past_the_mits_right_edge() -> None:
    game = new_game()
    assert refusal_at(game, "n6") == "G3.6"
    assert refusal_at(game, "o7") == "G3.6"
    assert refusal_at(game, "m5", corner="bl") is None  # column m itself is allowed


def test_g3_7_any_of_the_four_corners_may_be_chosen() -> None:
    game = new_game()
    legal = legal_placements(game.state.board, Tile.parse("bl2"))
    assert legal[P("j8")] == CORNERS


def test_g3_8_a_tile_must_be_connected_to_the_mits_now() -> None:
    game = new_game()
    assert refusal_at(game, "k5", corner="tl") == "G3.8"  # its tick faces only empty space
    assert refusal_at(game, "k5", corner="br") is None
    game.play("draw bl2")
    with pytest.raises(Refusal, match=r"cannot be reached from the MITS \(G3\.8\)"):
        game.play("place k5 tl")


def test_g3_8_stations_do_not_make_a_tile_reachable() -> None:
    game = new_game()
    game.state.board[P("l8")].station = Colour.RED
    game.state.players[0].stations.append(P("l8"))
    assert refusal_at(game, "k9", corner="tl") == "G3.8"


def test_g3_9_a_supernova_is_placed_without_the_reachability_test() -> None:
    game = new_game()
    assert refusal_at(game, "k5", code="rda", corner="tl") is None
    assert refusal_at(game, "k6", code="rda") == "G3.2"


def test_g3_10_a_tile_that_fits_nowhere_is_set_aside_and_the_turn_goes_on() -> None:
    game = new_game()
    full_rectangle(game)
    played = game.play("draw bl2")
    assert game.state.set_aside == [Tile.parse("bl2")]
    assert game.state.turn.to_place is None
    assert any("set aside" in s for s in played.said)
    with pytest.raises(Refusal, match=r"\(G3\.10\)"):
        game.play("place a1 tr")
    game.play("move m7>k7")
    assert game.state.turn.ap == 9


def test_g3_10_a_supernova_that_cannot_be_placed_in_its_turn_is_set_aside() -> None:
    game = new_game()
    game.play("draw rda")
    game.play("end")  # red scores, then blue
    full_rectangle(game)
    game.play("end")
    assert game.state.turn.kind is TurnKind.SUPERNOVA and game.state.turn.seat == 1
    assert game.state.supernova is None
    assert game.state.set_aside == [Tile.parse("rda")]
    game.play("end")
    assert game.state.turn.kind is TurnKind.NORMAL


@pytest.mark.parametrize(("code", "pennies"), [("bk2", 2), ("bk3", 3), ("bk4", 4), ("bl2", 0)])
def test_g3_11_a_resource_tile_receives_pennies_equal_to_its_number(
    code: str, pennies: int
) -> None:
    game = new_game()
    play(game, f"draw {code}", "place j8 tl")
    assert game.state.board[P("j8")].pennies == pennies


def test_g3_12_the_companions_stack_deals_group_3_first() -> None:
    game = GlobularGame(Settings((Colour.RED, Colour.BLUE)), 99)
    drawn = game.state.turn.drawn
    assert drawn in GROUP_3
    assert game.turns[0].lines[0].text() == f"draw {drawn}"


def test_g3_13_a_code_with_no_tile_left_in_the_stack_is_refused() -> None:
    game = new_game()
    with pytest.raises(Refusal, match=r"no black 5 \(bk5\) left in the stack \(G3\.13\)"):
        game.play("draw bk5")
    play(game, "draw gra", "place i7 tr", "end")
    with pytest.raises(Refusal, match=r"no green ace"):
        game.play("draw gra")


def test_g3_13_when_the_companion_keeps_the_stack_nobody_else_draws() -> None:
    game = new_game(stack=StackKeeper.COMPANION)
    with pytest.raises(Refusal, match=r"draws each tile itself \(G3\.13\)"):
        game.play("draw bl2")
    put(game, "red", {})
