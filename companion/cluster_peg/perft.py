"""Perft (P4.10): the number of move sequences of a given length from a position.

A won position has no moves (P5.3), so a sequence stops at a win; draws by repetition or by the
move limit are house rules of a game, not of a position, and are not applied here.
"""

from __future__ import annotations

from companion.cluster_peg import movegen
from companion.cluster_peg.board import Board
from companion.cluster_peg.goal import meets_goal
from companion.cluster_peg.position import Position


def perft(position: Position, depth: int) -> int:
    """How many sequences of ``depth`` legal moves start at ``position``."""
    if depth < 0:
        raise ValueError(f"perft depth is 0 or more, not {depth}")
    if position.winner() is not None:
        return 1 if depth == 0 else 0
    return _perft(position.board, position.pegs, position.to_move.value == "r", depth)


def _perft(board: Board, pegs: movegen.Pegs, red: bool, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return movegen.count(board, pegs, red)
    total = 0
    for move in movegen.generate(board, pegs, red):
        after = movegen.apply(pegs, move)
        # The mover may have won: then the sequence stops here (P5.3).
        tall, short = (after[0], after[1]) if red else (after[2], after[3])
        if (
            not (tall & board.shallow)
            and not (short & board.deep)
            and meets_goal(board, tall, short)
        ):
            continue
        total += _perft(board, after, not red, depth - 1)
    return total


def divide(position: Position, depth: int) -> dict[str, int]:
    """Perft split by first move (move text to count), for finding where two generators
    differ."""
    from companion.cluster_peg.moves import Move, after, legal_codes

    out = {}
    for code in legal_codes(position):
        out[Move.from_code(position.board, code).text()] = perft(after(position, code), depth - 1)
    return out
