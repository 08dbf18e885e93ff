"""Cluster rulings P4: turns, steps, jumps, the legal move list and refusals (P4.11)."""

from __future__ import annotations

import random

import cluster_reference as ref
import pytest
from cluster_helpers import drawn, positions, random_position
from hypothesis import given, settings

from companion.cluster_peg import movegen
from companion.cluster_peg.atoms import Colour, Peg
from companion.cluster_peg.board import LARGE, SMALL
from companion.cluster_peg.moves import (
    REFUSALS,
    Move,
    MoveError,
    check,
    legal_codes,
    legal_moves,
    play,
)
from companion.cluster_peg.position import Position, setup

LONE = """
h   B . B b B b B b
g  b B b B b B b B
f   . . . . . . . .
e  . . . . . . . .
d   . . . R b . . .
c  . . . . . . . .
b   R r R r R r R r
a  r R r R r R r .
"""

GAP = """
h   B b B b B b B b
g  b B b B b B b B
f   . . . . . . . .
e  . . . . . . . .
d   . . . . . . . .
c  . . . R . . . .
b   R r R r . r R r
a  r R r R r R r R
"""

RED_HAS_WON = """
g  b B b B b B .
f   B b B b B b
e  . . . . . . .
d   r R r R r R
c  R r R r R r .
b   . . . . . .
a  . . . . . . .
"""


def texts(position):
    return [m.text() for m in legal_moves(position)]


def refusal(position, text):
    with pytest.raises(MoveError) as caught:
        check(position, text)
    return caught.value.code, str(caught.value)


# P4.1 to P4.8 -----------------------------------------------------------------------------------


def test_p4_1_players_alternate_and_a_turn_is_one_move():
    start = setup("64B")
    after = play(start, "c1-b1")
    assert (start.to_move, after.to_move) == (Colour.RED, Colour.BLUE)
    assert play(after, "f1-g1").to_move is Colour.RED


def test_p4_1_moving_is_compulsory_there_is_no_pass():
    assert refusal(setup("64B"), "pass")[0] == "syntax"
    assert refusal(setup("64B"), "")[0] == "syntax"


def test_p4_2_a_step_goes_to_a_vacant_neighbour_in_any_of_the_six_directions():
    position = drawn(LONE)
    d4 = [m for m in texts(position) if m.startswith("d4")]
    assert d4 == ["d4-c4", "d4-c5", "d4-d3", "d4*d6", "d4-e4", "d4-e5"]


def test_p4_3_a_jump_passes_the_whole_run_of_pegs_of_any_colour_and_lands_beyond():
    start = setup("64B")
    # c3 north-west: d2 (blue), e2 (red), f1 (blue), then g1 is the first vacant hole.
    assert "c3*g1" in texts(start)
    after = play(start, "c3*g1")
    assert after.peg_at(LARGE.hole("g1")) is Peg.RED_SHORT
    assert after.peg_at(LARGE.hole("c3")) is None


def test_p4_4_a_run_that_reaches_the_edge_gives_no_jump_that_way():
    start = setup("64A")
    # a1: east a2..a8 are full to the edge; north-east over b1 to c2 is its only move.
    assert [m for m in texts(start) if m.startswith("a1")] == ["a1*c2"]


@settings(max_examples=60, deadline=None)
@given(positions())
def test_p4_4_a_peg_has_at_most_one_move_per_direction_so_at_most_six(position):
    by_origin: dict[str, list[str]] = {}
    for move in legal_moves(position):
        by_origin.setdefault(move.origin, []).append(move.destination)
    for origin, destinations in by_origin.items():
        hole = position.board.hole(origin)
        assert len(destinations) <= 6
        directions = [
            position.board.line_between(hole, position.board.hole(d))[0] for d in destinations
        ]
        assert len(set(directions)) == len(directions)


def test_p4_4_the_landing_hole_is_forced_a_jump_never_stops_early():
    start = setup("64B")
    assert refusal(start, "c3*f1")[0] == "occupied"  # stopping on a peg
    # c5 north-west: d4, e4, f3, then g3 is the first vacant hole; h2 lies past it.
    assert refusal(start, "c5*h2") == ("gap", "c5 to h2 jumps over the empty hole g3")


def test_p4_5_no_captures_a_move_changes_only_the_moving_pegs_hole():
    start = setup("64B")
    after = play(start, "c3*g1")
    changed = {
        start.board.names[h] for h in range(start.board.size) if start.peg_at(h) != after.peg_at(h)
    }
    assert changed == {"c3", "g1"}


def test_p4_6_one_jump_ends_the_turn_no_chained_jumps():
    start = setup("64B")
    assert refusal(start, "c3*g1*h1")[0] == "syntax"
    assert play(start, "c3*g1").to_move is Colour.BLUE


def test_p4_7_a_peg_may_go_straight_back():
    position = play(play(setup("64B"), "c3-b2"), "f1-g1")
    assert "b2-c3" in texts(position)


def test_p4_8_red_moves_first():
    for name in ("64A", "64B", "46"):
        assert setup(name).to_move is Colour.RED
    assert refusal(setup("64B"), "d1-b1")[0] == "not-yours"


# P4.9 -------------------------------------------------------------------------------------------


def test_p4_9_the_rulings_example_of_four_pegs_without_a_move():
    board = LARGE
    stuck = [board.hole(n) for n in ("a1", "a2", "b1", "b2")]
    needed = set(stuck)
    for hole in stuck:
        for _direction, line in board.lines[hole]:
            needed.update(line)
    assert len(needed) <= 32
    rest = [h for h in range(board.size) if h not in needed]
    holes = sorted(needed) + rest[: 32 - len(needed)]
    placement = {hole: list(Peg)[i % 4] for i, hole in enumerate(holes)}
    position = Position.from_placement(board, placement, Colour.RED)
    codes = movegen.generate(board, position.pegs, True) + movegen.generate(
        board, position.pegs, False
    )
    without = {h for h in holes if not any(movegen.origin_of(c) == h for c in codes)}
    assert set(stuck) <= without
    assert len(without) <= 4


@pytest.mark.parametrize("board", [LARGE, SMALL], ids=["64", "46"])
def test_p4_9_a_player_always_has_a_legal_move_and_at_most_4_pegs_are_stuck(board):
    rng = random.Random(49)
    for _ in range(3000):
        position = random_position(rng, board)
        occupied = position.occupied
        stuck = 0
        for hole in board.holes_of(occupied):
            if not movegen.destinations(board, occupied, hole):
                stuck += 1
        assert stuck <= 4
        for red in (True, False):
            assert movegen.count(board, position.pegs, red) > 0


# P4.10 ------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(positions())
def test_p4_10_the_legal_move_list_is_in_canonical_order_and_matches_the_rulings(position):
    board, pegs, mover = ref.parse(position.text())
    expected = ref.moves(board, pegs, mover) if position.winner() is None else []
    assert texts(position) == expected
    codes = legal_codes(position)
    assert codes == sorted(codes)


# P4.11 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "move", "code", "message"),
    [
        ("64B", "c1 to b1", "syntax", "'c1 to b1' is not a move"),
        ("64B", "c9-c10", "no-hole", "there is no hole c9 on the large board"),
        ("WON", "c1-b1", "game-over", "the game is over: Red has won"),
        ("64B", "a1-a2", "no-piece", "there is no peg in a1"),
        ("64B", "d1-b1", "not-yours", "the peg in d1 is Blue's; it is Red's turn"),
        ("64B", "c1-c2", "occupied", "c2 is taken by a Red tall peg"),
        ("64B", "c1-c1", "occupied", "c1 to c1 goes nowhere: the peg is already in c1"),
        ("64B", "c1-b3", "not-in-line", "c1 and b3 are not on one line"),
        ("GAP", "c4-c6", "gap", "c4 to c6 jumps over the empty hole c5"),
        ("GAP", "c4*c7", "gap", "c4 to c7 jumps over the empty holes c5 and c6"),
        ("64B", "c3-g1", "separator", "c3 to g1 is a jump: write c3*g1"),
        ("64B", "c1*b1", "separator", "c1 to b1 is a step: write c1-b1"),
    ],
)
def test_p4_11_an_illegal_move_is_refused_with_its_reason(position, move, code, message):
    start = {"GAP": drawn(GAP), "WON": drawn(RED_HAS_WON, "b")}.get(position) or setup(position)
    got_code, got_message = refusal(start, move)
    assert got_code == code
    assert got_message.startswith(message)


@pytest.mark.parametrize(
    ("position", "move", "code"),
    [
        ("WON", "i1-a1", "no-hole"),  # no-hole before game-over
        ("WON", "a1-a2", "game-over"),  # game-over before no-piece
        ("64B", "d1-c1", "not-yours"),  # not-yours before occupied
        ("64B", "c1-e5", "occupied"),  # occupied before not-in-line
        ("GAP", "c4*c6", "gap"),  # gap before separator, whichever separator
    ],
)
def test_p4_11_the_first_reason_in_the_rulings_order_is_given(position, move, code):
    start = {"GAP": drawn(GAP), "WON": drawn(RED_HAS_WON, "b")}.get(position) or setup(position)
    assert refusal(start, move)[0] == code


def test_p4_11_the_reasons_are_the_rulings_in_order():
    assert REFUSALS == (
        "syntax",
        "no-hole",
        "game-over",
        "no-piece",
        "not-yours",
        "occupied",
        "not-in-line",
        "gap",
        "separator",
    )


def test_p4_11_an_illegal_move_is_void_the_position_stays_as_it_was():
    start = setup("64B")
    text = start.text()
    with pytest.raises(MoveError):
        play(start, "c1-c2")
    assert start.text() == text


def test_moves_are_values_with_symmetric_notation():
    move = Move.parse(" C3*G1 ")
    assert move == Move("c3", "g1", jump=True)
    assert move.text() == "c3*g1"
    assert repr(move) == "Move.parse('c3*g1')"
    assert eval(repr(move)) == move
