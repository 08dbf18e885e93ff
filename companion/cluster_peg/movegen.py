"""Move generation on bitboards, for the game and for search (P4.2 to P4.4, P4.10).

A move here is an ``int`` code, ``origin << 6 | destination`` (both boards have at most 64
holes), so sorting codes sorts moves into the canonical order of P4.10: by origin, then by
destination, in hole order. Along every line the indices only grow or only shrink
(:mod:`.board`), so a line's first vacant hole (the step's or the jump's landing hole; a jump
never passes a vacant hole, P4.4) is the lowest or the highest set bit of ``vacant & line``.
"""

from __future__ import annotations

from companion.cluster_peg.board import Board, Hole

Pegs = tuple[int, int, int, int]
"""Bitboards of red tall, red short, blue tall, blue short."""

SHIFT = 6
LOW = (1 << SHIFT) - 1


def code(origin: Hole, destination: Hole) -> int:
    return origin << SHIFT | destination


def origin_of(move: int) -> Hole:
    return move >> SHIFT


def destination_of(move: int) -> Hole:
    return move & LOW


def destinations(board: Board, occupied: int, hole: Hole) -> list[Hole]:
    """The holes a peg in ``hole`` can move to, at most one per direction (P4.4)."""
    vacant = board.all_holes & ~occupied
    out = []
    for mask in board.up_masks[hole]:
        bits = vacant & mask
        if bits:
            out.append((bits & -bits).bit_length() - 1)
    for mask in board.down_masks[hole]:
        bits = vacant & mask
        if bits:
            out.append(bits.bit_length() - 1)
    return out


def generate(board: Board, pegs: Pegs, red_to_move: bool) -> list[int]:
    """Every legal move of the player to move, in canonical order (P4.10)."""
    rt, rs, bt, bs = pegs
    occupied = rt | rs | bt | bs
    vacant = board.all_holes & ~occupied
    own = (rt | rs) if red_to_move else (bt | bs)
    up_masks = board.up_masks
    down_masks = board.down_masks
    moves: list[int] = []
    append = moves.append
    while own:
        low = own & -own
        own ^= low
        hole = low.bit_length() - 1
        base = hole << SHIFT
        for mask in up_masks[hole]:
            bits = vacant & mask
            if bits:
                append(base | ((bits & -bits).bit_length() - 1))
        for mask in down_masks[hole]:
            bits = vacant & mask
            if bits:
                append(base | (bits.bit_length() - 1))
    moves.sort()
    return moves


def count(board: Board, pegs: Pegs, red_to_move: bool) -> int:
    """How many legal moves the player to move has (no list is built)."""
    rt, rs, bt, bs = pegs
    occupied = rt | rs | bt | bs
    vacant = board.all_holes & ~occupied
    own = (rt | rs) if red_to_move else (bt | bs)
    total = 0
    up_masks = board.up_masks
    down_masks = board.down_masks
    while own:
        low = own & -own
        own ^= low
        hole = low.bit_length() - 1
        for mask in up_masks[hole]:
            if vacant & mask:
                total += 1
        for mask in down_masks[hole]:
            if vacant & mask:
                total += 1
    return total


def apply(pegs: Pegs, move: int) -> Pegs:
    """The bitboards after a move (the moving peg changes hole; nothing else does, P4.5)."""
    rt, rs, bt, bs = pegs
    change = 1 << (move >> SHIFT) | 1 << (move & LOW)
    origin = 1 << (move >> SHIFT)
    if rt & origin:
        return rt ^ change, rs, bt, bs
    if rs & origin:
        return rt, rs ^ change, bt, bs
    if bt & origin:
        return rt, rs, bt ^ change, bs
    return rt, rs, bt, bs ^ change


def is_jump(board: Board, move: int) -> bool:
    """Whether a legal move is a jump (its landing hole is not a neighbour)."""
    return not board.neighbours[move >> SHIFT] >> (move & LOW) & 1
