"""Races (P3.2): the fewest moves a player needs with the opponent's pegs standing, counted
exactly (``companion/cluster_peg/race.py``), and checked against a plain breadth-first count."""

from __future__ import annotations

import random

import pytest
from cluster_helpers import drawn

from companion.cluster_peg import movegen
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.board import Board
from companion.cluster_peg.game import Game
from companion.cluster_peg.goal import meets_goal, wrong_height
from companion.cluster_peg.position import Position, setup
from companion.cluster_peg.race import race_distance, race_margins

# Red's pegs all at height 2; e7 stands apart from the rest, one step from d6 (a deep hole).
NEAR_WIN = """
g  b B b B b B .
f   B b B b B b
e  . . . . . . R
d   r R r R r .
c  R r R r R r .
b   . . . . . .
a  . . . . . . .
"""


def fewest_moves(board: Board, tall: int, short: int, others: int, most: int) -> int | None:
    """The fewest moves of the player's own pegs to the goal (P5.1), the pegs in ``others``
    standing: every sequence of up to ``most`` moves, breadth first. None beyond ``most``."""
    frontier = {(tall, short)}
    seen = set(frontier)
    for depth in range(most + 1):
        if any(meets_goal(board, t, s) for t, s in frontier):
            return depth
        following = set()
        for t, s in frontier:
            occupied = t | s | others
            for hole in range(board.size):
                bit = 1 << hole
                if not (t | s) & bit:
                    continue
                for landing in movegen.destinations(board, occupied, hole):
                    into = 1 << landing
                    after = (t & ~bit | into, s) if t & bit else (t, s & ~bit | into)
                    if after not in seen:
                        seen.add(after)
                        following.add(after)
        frontier = following
    return None


def _red(position: Position) -> tuple[int, int, int]:
    tall, short = position.tall_short(Colour.RED)
    blue_tall, blue_short = position.tall_short(Colour.BLUE)
    return tall, short, blue_tall | blue_short


@pytest.mark.parametrize(("name", "moves"), [("46", 12), ("64A", 16)])
def test_p3_2_each_side_of_a_race_setup_can_finish_in_the_fewest_moves(name, moves):
    # P3.2: from the camps, neither side need meet the other: each can put every peg at
    # height 2, one move a peg, and end in one group.
    start = setup(name)
    for colour, other in ((Colour.RED, Colour.BLUE), (Colour.BLUE, Colour.RED)):
        tall, short = start.tall_short(colour)
        their_tall, their_short = start.tall_short(other)
        assert race_distance(start.board, tall, short, their_tall | their_short) == moves


def test_p3_2_a_group_apart_costs_a_move_even_with_every_height_right():
    position = drawn(NEAR_WIN)
    tall, short, others = _red(position)
    assert wrong_height(position.board, tall, short) == 0
    assert race_distance(position.board, tall, short, others) == 1  # a lower bound: no spare
    assert race_distance(position.board, tall, short, others, spare=2) == 1
    assert fewest_moves(position.board, tall, short, others, 2) == 1


def test_p3_2_a_peg_in_the_landing_hole_costs_the_race_more_moves():
    # A blue peg in d6 takes the hole e7 would step into: Red must go round it.
    blocked = drawn(
        NEAR_WIN.replace("d   r R r R r .", "d   r R r R r B").replace(
            "g  b B b B b B .", "g  b B b B b . ."
        )
    )
    tall, short, others = _red(blocked)
    exact = fewest_moves(blocked.board, tall, short, others, 3)
    assert exact is not None and exact > 1
    assert race_distance(blocked.board, tall, short, others, spare=3) == exact


@pytest.mark.parametrize("seed", range(6))
def test_p3_2_race_distance_is_the_fewest_moves_counted_one_by_one(seed):
    # From NEAR_WIN, Red's pegs make one or two moves of their own at random; the count with
    # spare moves agrees with trying every sequence of up to three moves.
    rng = random.Random(seed)
    position = drawn(NEAR_WIN)
    for _ in range(1 + seed % 2):
        codes = movegen.generate(position.board, position.pegs, True)
        after = movegen.apply(position.pegs, rng.choice(codes))
        position = Position(position.board, after, Colour.RED)
    tall, short, others = _red(position)
    need = wrong_height(position.board, tall, short).bit_count()
    exact = fewest_moves(position.board, tall, short, others, 3)
    counted = race_distance(position.board, tall, short, others, spare=max(0, 3 - need))
    if exact is None:
        assert counted is not None and counted > 3
    else:
        assert counted == exact


def test_p3_2_race_margins_weigh_every_legal_move_in_canonical_order():
    # After Red's first move from 46, Blue to move: each move's margin is Red's count less
    # Blue's. Blue's move that puts a peg at height 2 beside its camp keeps the race even (Red
    # is then still a move ahead, with Red to move); one that wastes a move loses one.
    game = Game(setup("46"))
    game.play("b6-c6")
    position = game.position
    margins = race_margins(position, spare=1)
    assert [code for code, _ in margins] == movegen.generate(position.board, position.pegs, False)
    known = dict(margins)
    assert max(margin for margin in known.values() if margin is not None) == 0
    board = position.board
    # f6 (tall, shallow) into e6 (deep): height 2 beside the camp. Into e7 (shallow): height
    # 3 still, a move wasted.
    assert known[movegen.code(board.hole("f6"), board.hole("e6"))] == 0
    assert known[movegen.code(board.hole("f6"), board.hole("e7"))] == -1
