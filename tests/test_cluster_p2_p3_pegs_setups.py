"""Cluster rulings P2 (players and pegs) and P3 (setups)."""

from __future__ import annotations

import pytest

from companion.cluster_peg.atoms import Colour, Kind, Peg, height, kind_from_height
from companion.cluster_peg.board import LARGE, SMALL
from companion.cluster_peg.game import Game
from companion.cluster_peg.moves import legal_moves, play
from companion.cluster_peg.position import (
    DEFAULT_SETUP,
    SETUP_TEXTS,
    SETUPS,
    Position,
    setup,
    setup_name,
)


def placed(position, colour, kind):
    return sorted(
        position.board.names[h]
        for h in position.board.holes_of(position.pegs[Peg.of(colour, kind).index])
    )


def rows_of(position, colour):
    return {position.board.names[h][0] for h in position.board.holes_of(position.of(colour))}


# P2 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "each"), [("64A", 8), ("64B", 8), ("46", 6)])
def test_p2_2_each_player_has_8_tall_and_8_short_or_6_and_6(name, each):
    start = setup(name)
    for peg in Peg:
        assert start.pegs[peg.index].bit_count() == each


def test_p2_2_pegs_are_never_captured_or_added():
    game = Game(setup("64B"))
    for _ in range(60):
        before = [bits.bit_count() for bits in game.position.pegs]
        game.play(game.legal_moves()[len(game.tokens) * 7 % len(game.legal_moves())])
        assert [bits.bit_count() for bits in game.position.pegs] == before
        if game.over:
            break


def test_p2_3_red_sits_at_the_row_a_end_and_blue_at_the_far_end():
    assert rows_of(setup("64A"), Colour.RED) == {"a", "b"}
    assert rows_of(setup("64A"), Colour.BLUE) == {"g", "h"}
    assert rows_of(setup("46"), Colour.BLUE) == {"f", "g"}


def test_p2_4_height_is_length_plus_one_in_a_shallow_hole():
    assert height(Kind.TALL, deep=False) == 3
    assert height(Kind.TALL, deep=True) == 2
    assert height(Kind.SHORT, deep=False) == 2
    assert height(Kind.SHORT, deep=True) == 1
    start = setup("64B")
    c1, c2 = LARGE.hole("c1"), LARGE.hole("c2")  # short in deep c1, tall in shallow c2
    assert (start.height_at(c1), start.height_at(c2), start.height_at(0)) == (1, 3, None)


@pytest.mark.parametrize(
    ("reading", "deep", "kind"),
    [
        (1, True, Kind.SHORT),
        (2, True, Kind.TALL),
        (2, False, Kind.SHORT),
        (3, False, Kind.TALL),
        (3, True, None),  # misreadings: reported, never guessed
        (1, False, None),
        (0, True, None),
        (4, False, None),
    ],
)
def test_p2_5_a_height_read_and_the_holes_depth_fix_the_kind(reading, deep, kind):
    assert kind_from_height(reading, deep=deep) is kind


def test_p2_6_height_never_limits_movement_short_jumps_tall_and_tall_jumps_short():
    # A short red peg jumps a tall blue one, a tall red one jumps a short blue one.
    position = Position.parse("46 rRrRrR1/RrRr2/r1R4/Bb4/7/BbBbBb/bBbB3 r")
    heights = [position.height_at(SMALL.hole(h)) for h in ("c1", "c3", "d1", "d2")]
    assert heights == [1, 2, 3, 1]
    assert play(position, "c1*e2").text() == "46 rRrRrR1/RrRr2/2R4/Bb4/1r5/BbBbBb/bBbB3 b"
    assert play(position, "c3*e2").text() == "46 rRrRrR1/RrRr2/r6/Bb4/1R5/BbBbBb/bBbB3 b"


# P3 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SETUP_TEXTS))
def test_p3_1_every_setup_puts_tall_in_shallow_and_short_in_deep(name):
    start = setup(name)
    board = start.board
    for hole, peg in start.placement().items():
        assert board.is_deep(hole) == (peg.kind is Kind.SHORT)
        assert start.height_at(hole) == (1 if peg.kind is Kind.SHORT else 3)


@pytest.mark.parametrize("name", list(SETUP_TEXTS))
def test_p3_1_blues_pegs_are_the_image_of_reds_under_the_boards_symmetry(name):
    start = setup(name)
    # Mirroring swaps colours and the player to move; the pegs come back where they were.
    assert start.mirrored().with_to_move(Colour.RED) == start


def test_p3_2_setup_64a_ends():
    start = setup("64A")
    assert rows_of(start, Colour.RED) == {"a", "b"}
    assert rows_of(start, Colour.BLUE) == {"g", "h"}
    assert start.occupied.bit_count() == 32


def test_p3_3_setup_64b_interlocked_is_the_default():
    start = setup("64B")
    assert DEFAULT_SETUP == "64B"
    assert Game().start == start
    assert rows_of(start, Colour.RED) == {"c", "e"}
    assert rows_of(start, Colour.BLUE) == {"d", "f"}
    # Long jumps over mixed pegs from the first move: c3 over d2, e2 and f1 to g1.
    assert "c3*g1" in [m.text() for m in legal_moves(start)]


def test_p3_4_setup_46_leaves_a7_and_g7_empty():
    start = setup("46")
    assert placed(start, Colour.RED, Kind.TALL) == ["a2", "a4", "a6", "b1", "b3", "b5"]
    assert placed(start, Colour.RED, Kind.SHORT) == ["a1", "a3", "a5", "b2", "b4", "b6"]
    assert rows_of(start, Colour.BLUE) == {"f", "g"}
    assert start.peg_at(SMALL.hole("a7")) is None and start.peg_at(SMALL.hole("g7")) is None


MAPS = {
    "64A": """\
h   B b B b B b B b
g  b B b B b B b B
f   . . . . . . . .
e  . . . . . . . .
d   . . . . . . . .
c  . . . . . . . .
b   R r R r R r R r
a  r R r R r R r R""",
    "64B": """\
h   . . . . . . . .
g  . . . . . . . .
f   B b B b B b B b
e  r R r R r R r R
d   B b B b B b B b
c  r R r R r R r R
b   . . . . . . . .
a  . . . . . . . .""",
    "46": """\
g  b B b B b B .
f   B b B b B b
e  . . . . . . .
d   . . . . . .
c  . . . . . . .
b   R r R r R r
a  r R r R r R .""",
}


@pytest.mark.parametrize("name", list(MAPS))
def test_p3_5_the_setup_maps_and_their_texts(name):
    start = Position.parse(SETUP_TEXTS[name])
    drawn = "\n".join(
        f"{line[0]} {line[1:]}" for line in start.diagram().splitlines()[:-1]
    )  # the rulings' maps indent one more column
    assert drawn == MAPS[name]
    assert start.text() == SETUP_TEXTS[name]
    assert setup_name(start) == name
    assert start.to_move is Colour.RED


def test_p3_6_the_only_setups_are_64a_64b_and_46():
    assert sorted(SETUPS) == ["46", "64A", "64B"]
    with pytest.raises(ValueError, match="the setups are 64A, 64B, 46"):
        setup("diamond")
    assert setup("64b") is SETUPS["64B"]
