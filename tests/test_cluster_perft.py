"""Cluster's move generator against an independent reading of the rulings (P4.10's perft).

The depth-3 counts from each setup are the ones ``docs/rules-cluster.md`` gives; each is checked
against ``cluster_reference``, which walks hole names by P1.6 with none of the engine's tables.
"""

from __future__ import annotations

import random

import cluster_reference as ref
import pytest
from cluster_helpers import random_position

from companion.cluster_peg.board import LARGE, SMALL
from companion.cluster_peg.moves import Move, after, legal_codes
from companion.cluster_peg.perft import divide, perft
from companion.cluster_peg.position import SETUP_TEXTS, Position, setup

PERFT = {
    "64A": [1, 29, 841, 33466],
    "64B": [1, 54, 2927, 183080],
    "46": [1, 30, 900, 31560],
}
"""Perft(0..3) from each setup: the table in docs/rules-cluster.md."""


@pytest.mark.parametrize("name", sorted(PERFT))
def test_p4_10_perft_from_each_setup_to_depth_3(name):
    start = setup(name)
    assert [perft(start, depth) for depth in range(4)] == PERFT[name]


@pytest.mark.parametrize("name", sorted(PERFT))
def test_p4_10_perft_to_depth_3_agrees_with_the_rulings_read_independently(name):
    board, pegs, mover = ref.parse(SETUP_TEXTS[name])
    assert ref.perft(board, pegs, mover, 3) == PERFT[name][3]


def test_p4_10_perft_of_random_middle_positions_agrees_with_the_reference():
    rng = random.Random(410)
    for board in (LARGE, SMALL):
        for _ in range(25):
            position = random_position(rng, board)
            if position.winner() is not None:
                continue
            reference = ref.perft(*ref.parse(position.text()), 2)
            assert perft(position, 2) == reference, position.text()


def test_p4_10_perft_stops_at_a_win():
    # Red wins with e7-d6, d2*d6 or d4*d6: sequences through them end there.
    near = "46 7/6/RrRrRr1/rRrRr1/6R/BbBbBb/bBbBbB1 r"
    start = Position.parse(near)
    winning = [c for c in legal_codes(start) if after(start, c).winner() is not None]
    assert sorted(Move.from_code(SMALL, c).text() for c in winning) == [
        "d2*d6",
        "d4*d6",
        "e7-d6",
    ]
    assert perft(start, 2) == sum(
        perft(after(start, c), 1) for c in legal_codes(start) if c not in winning
    )
    assert perft(start, 2) == ref.perft(*ref.parse(near), 2)


def test_divide_splits_perft_by_first_move():
    split = divide(setup("64B"), 2)
    assert sum(split.values()) == PERFT["64B"][2]
    assert next(iter(split)) == "c1-b1"
