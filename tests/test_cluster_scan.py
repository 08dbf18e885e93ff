"""A camera's reading of a Cluster board against the tracked position (P6.3, P2.5): the move it
shows, the candidates when holes are unknown, an impossible change reported and never entered."""

from __future__ import annotations

import dataclasses

import pytest
from cluster_helpers import played_positions
from hypothesis import given, settings

from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.moves import Move, after, legal_codes, play
from companion.cluster_peg.position import Position, setup
from companion.cluster_peg.scan import HoleReading, PegScan, Seen, compare
from companion.errors import StateError


@settings(max_examples=40, deadline=None)
@given(played_positions())
def test_p6_3_a_correct_reading_names_exactly_the_move_that_was_played(position):
    if position.winner() is not None:
        return
    for code in legal_codes(position)[:12]:
        moved = after(position, code)
        found = compare(position, PegScan.from_position(moved))
        assert len(found.moves) == 1
        assert found.discrepancies == ()
        assert play(position, found.moves[0]) == moved


def test_p6_3_nothing_changed_no_move_and_nothing_off():
    start = setup("64B")
    found = compare(start, PegScan.from_position(start, unknown=["c1", "d4"]))
    assert found.moves == () and found.discrepancies == () and found.unknown == ("c1", "d4")


def test_p6_3_unknown_holes_may_leave_several_candidates_which_are_asked_about():
    start = setup("64B")
    moved = play(start, "c3-b2")
    found = compare(start, PegScan.from_position(moved, unknown=["b2", "b3"]))
    assert found.moves == ("c3-b2", "c3-b3")
    assert found.changed == ("c3",)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: play(play(p, "c1-b1"), "f8-g8").with_to_move(Colour.RED), "no legal move"),
        (lambda p: Position(p.board, (p.pegs[0] & ~(1 << 17), *p.pegs[1:]), p.to_move), "no legal"),
        (lambda p: play(p.with_to_move(Colour.BLUE), "f8-g8"), "looks like Blue's move f8-g8"),
    ],
    ids=["two moves", "a peg gone", "out of turn"],
)
def test_p6_3_a_change_no_legal_move_explains_is_reported_never_a_move(change, words):
    start = setup("64B")
    found = compare(start, PegScan.from_position(change(start)))
    assert found.moves == ()
    assert any(words in message for _, message in found.discrepancies)


def test_p6_3_a_peg_of_the_wrong_colour_is_a_discrepancy():
    start = setup("64B")
    scan = PegScan.from_position(start)
    holes = list(scan.holes)
    holes[start.board.hole("c1")] = HoleReading(Seen.BLUE, 0.9)
    found = compare(start, dataclasses.replace(scan, holes=tuple(holes)))
    assert found.moves == () and found.changed == ("c1",)
    assert ("c1", "c1: the game has a red peg, the camera sees a blue peg") in found.discrepancies


def test_p2_5_a_height_read_off_a_peg_must_fit_its_kind_and_hole():
    start = setup("64B")
    scan = PegScan.from_position(start)
    holes = list(scan.holes)
    c1, c2 = start.board.hole("c1"), start.board.hole("c2")
    holes[c1] = HoleReading(Seen.RED, 1.0, height=3)  # 3 in a deep hole: a misreading
    holes[c2] = HoleReading(Seen.RED, 1.0, height=2)  # 2 in shallow c2: short, game has tall
    found = compare(start, dataclasses.replace(scan, holes=tuple(holes)))
    messages = [m for _, m in found.discrepancies]
    assert "c1: height 3 cannot be read in a deep hole" in messages
    assert "c2: the camera reads height 2 (short peg), the game has a tall peg there" in messages


def test_a_won_game_takes_no_moves_from_the_camera():
    near = Position.parse("46 7/6/RrRrRr1/rRrRr1/6R/BbBbBb/bBbBbB1 r")
    won = play(near, "e7-d6")
    blue_moved = after(won, Move.parse("f1-e1").code(won.board))
    found = compare(won, PegScan.from_position(blue_moved), moves_allowed=False)
    assert found.moves == ()
    assert any("the game is over" in m for _, m in found.discrepancies)


def test_a_scan_names_its_board_and_reads_from_plain_data():
    start = setup("46")
    scan = PegScan.from_position(start, unknown=["a7"])
    assert PegScan.from_dict(scan.to_dict()) == dataclasses.replace(
        scan,
        holes=tuple(HoleReading(r.seen, round(r.confidence, 3)) for r in scan.holes),
    )
    assert PegScan.from_dict({"board": "46", "holes": {"a1": "red"}}).seen("a2") is Seen.UNKNOWN
    with pytest.raises(StateError, match="46 holes, not 3"):
        PegScan("46", scan.holes[:3])
    with pytest.raises(StateError, match="the game is on the large board"):
        compare(setup("64B"), scan)


def test_p6_3_one_move_that_fits_only_through_an_unknown_hole_is_not_entered():
    """A peg knocked off under a hand looks like a move into the hidden hole: not seen, wait."""
    start = setup("64B")
    moved = play(start, "c3-b2")
    found = compare(start, PegScan.from_position(moved, unknown=["b2"]))
    assert found.moves == ()
    assert found.discrepancies == (
        ("b2", "the camera cannot read b2: if Red played c3-b2, uncover it to let it see the move"),
    )
    assert compare(start, PegScan.from_position(moved)).moves == ("c3-b2",)
