"""The goal (P5.1): every peg of a player at height 2, all in one group of their own pegs.

Pure functions of a board and a player's two bitboards (tall, short), so the game, the search
and the camera share them.
"""

from __future__ import annotations

from companion.cluster_peg.board import Board


def at_goal_height(board: Board, tall: int, short: int) -> bool:
    """Every tall peg in a deep hole and every short peg in a shallow one (height 2, P2.4)."""
    return not (tall & board.shallow) and not (short & board.deep)


def wrong_height(board: Board, tall: int, short: int) -> int:
    """The bitboard of a player's pegs that are not at height 2."""
    return (tall & board.shallow) | (short & board.deep)


def group_of(board: Board, pegs: int, start: int) -> int:
    """The bitboard of the group (P5.1) of ``pegs`` that holds the hole ``start``."""
    neighbours = board.neighbours
    group = frontier = 1 << start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        grown = neighbours[low.bit_length() - 1] & pegs & ~group
        group |= grown
        frontier |= grown
    return group


def groups(board: Board, pegs: int) -> list[int]:
    """The groups of a set of pegs, each a bitboard, ordered by their first hole."""
    out = []
    left = pegs
    while left:
        low = left & -left
        group = group_of(board, pegs, low.bit_length() - 1)
        out.append(group)
        left &= ~group
    return out


def connected(board: Board, pegs: int) -> bool:
    """Whether the pegs form one group (no pegs at all is not a group)."""
    if not pegs:
        return False
    low = pegs & -pegs
    return group_of(board, pegs, low.bit_length() - 1) == pegs


def meets_goal(board: Board, tall: int, short: int) -> bool:
    """P5.1: all at height 2 and one group of the player's own pegs (any shape)."""
    return at_goal_height(board, tall, short) and connected(board, tall | short)
