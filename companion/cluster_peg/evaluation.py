"""How far each player is from the goal (P5.1): the computer players' measure of a position.

:func:`distance` estimates the moves a player still needs: every peg not at height 2 must move,
and so must every peg outside the player's largest group (one move may do both); pegs far from
the group need more moves, and every extra group is one more gap to close. It is an estimate,
cheap enough to compute at every leaf of a search (bitboards, precomputed distance balls).
"""

from __future__ import annotations

import functools

from companion.cluster_peg.board import Board

SCALE = 12
"""Distances are whole numbers: ``SCALE`` per move a player still needs."""
GROUP_COST = 2
"""Each group beyond the first (half a move)."""
FAR_COST = 4
"""Each step a peg outside the main group lies beyond the group's neighbours."""
DETAIL = 6
"""With at most this many pegs still to move, each is checked for a good move now (the
end of a race is decided by such details; earlier the check costs more than it tells)."""
BRIDGE_COST = 4
"""Each hole between a group and the main group, while some peg must move anyway."""
STUCK_COST = 6
"""A peg that must move but cannot reach a good hole in one move (half a move more)."""
CENTRE_COST = 1
"""The computer opponent's taste for the middle of the board: this much (a twelfth of a move)
for each row a peg stands from the middle row (:func:`off_centre`). It is no part of the
distance. A side a move behind in a race (P3.2) can only win by getting in the other's way,
and a peg at the back of the board is in nobody's way: with it the strongest level won 72 of
100 games as Blue against the greedy player at 0.2 s of the benchmarks' machine's clock a move
on ``46`` (48 without), 94 on ``64B`` (86); at the default 2 s of a Pi 4, 74 and 93."""


@functools.cache
def balls(board: Board) -> tuple[tuple[int, ...], ...]:
    """Per hole, the bitboards of the holes within 1, 2, 3 ... steps (index k: within k)."""
    out = []
    for hole in range(board.size):
        rings = [1 << hole]
        reached = 1 << hole
        while reached != board.all_holes:
            grown = reached
            bits = reached
            while bits:
                low = bits & -bits
                bits ^= low
                grown |= board.neighbours[low.bit_length() - 1]
            if grown == reached:
                break
            reached = grown
            rings.append(reached)
        out.append(tuple(rings))
    return tuple(out)


@functools.cache
def half_rows(board: Board) -> tuple[int, ...]:
    """Per hole, how many half rows it lies from the board's middle row (P1.2: row d of the
    small board; on the large board the middle falls between rows d and e, each half a row
    from it)."""
    last = len(board.row_lengths) - 1
    return tuple(abs(2 * row - last) for row in board.rows)


def off_centre(board: Board, pegs: int) -> int:
    """The rows a player's pegs stand from the middle of the board, summed (half rows
    rounded down): each side of the small board's setup ``46`` scores 30, a peg on row d 0."""
    table = half_rows(board)
    total = 0
    while pegs:
        low = pegs & -pegs
        pegs ^= low
        total += table[low.bit_length() - 1]
    return total // 2


def distance(board: Board, tall: int, short: int, occupied: int) -> int:
    """The estimated moves (times :data:`SCALE`) a player needs to meet the goal; 0 exactly
    when they meet it. ``occupied`` is every peg on the board (both players')."""
    score, need, main = shape(board, tall, short)
    if need and need.bit_count() <= DETAIL:
        score += detail(board, tall, need, main, occupied)
    return score


def shape(board: Board, tall: int, short: int) -> tuple[int, int, int]:
    """The part of :func:`distance` that depends on the player's own pegs alone: the score,
    the pegs that must move and the main group.

    Every peg not at height 2 must move once. The pegs at height 2 stay where they are if
    they can: the largest group of them is the *main* group, and each other group of them
    either moves (a move a peg) or is joined to the main group by pegs that land in the holes
    between (half a move a hole while some peg must move anyway, since it may land there).
    """
    pegs = tall | short
    wrong = (tall & board.shallow) | (short & board.deep)
    done = pegs & ~wrong
    neighbours = board.neighbours
    main = 0
    main_size = 0
    others: list[int] = []
    left = done
    while left:
        low = left & -left
        group = frontier = low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grown = neighbours[bit.bit_length() - 1] & done & ~group
            group |= grown
            frontier |= grown
        left &= ~group
        size = group.bit_count()
        if size > main_size:
            if main:
                others.append(main)
            main, main_size = group, size
        else:
            others.append(group)
    score = wrong.bit_count() * SCALE
    need = wrong
    table = balls(board)
    if main:
        bridge = BRIDGE_COST if wrong else SCALE
        for group in others:
            holes = gap(table, group, main)
            score += min(group.bit_count() * SCALE, holes * bridge + GROUP_COST)
            need |= group
    # Pegs far from the player's largest group (of any height) need more than one move.
    whole = _largest_group(board, pegs)
    bits = pegs & ~whole
    while bits:
        low = bits & -bits
        bits ^= low
        rings = table[low.bit_length() - 1]
        for steps in range(3, len(rings)):
            if rings[steps] & whole:
                score += (steps - 2) * FAR_COST
                break
    return score, need, main


def _largest_group(board: Board, pegs: int) -> int:
    neighbours = board.neighbours
    best = 0
    best_size = 0
    left = pegs
    while left:
        low = left & -left
        group = frontier = low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grown = neighbours[bit.bit_length() - 1] & pegs & ~group
            group |= grown
            frontier |= grown
        left &= ~group
        size = group.bit_count()
        if size > best_size:
            best, best_size = group, size
        if best_size * 2 >= left.bit_count() + best_size and size == best_size:
            break
    return best


def gap(table: tuple[tuple[int, ...], ...], group: int, main: int) -> int:
    """The fewest holes between a group and the nearest peg of ``main`` (0 when they touch)."""
    best = 99
    bits = group
    while bits:
        low = bits & -bits
        bits ^= low
        rings = table[low.bit_length() - 1]
        for steps in range(1, min(best + 1, len(rings))):
            if rings[steps] & main:
                best = steps - 1
                break
    return best


def detail(board: Board, tall: int, need: int, main: int, occupied: int) -> int:
    """Near the goal: a peg that must move but has no move now to a hole of its goal height
    beside the main group needs more than one move, the more the farther it is."""
    neighbours = board.neighbours
    vacant = board.all_holes & ~occupied
    table = balls(board)
    up_masks = board.up_masks
    down_masks = board.down_masks
    deep = board.deep
    score = 0
    bits = need
    while bits:
        low = bits & -bits
        bits ^= low
        hole = low.bit_length() - 1
        wanted = deep if tall & low else board.shallow
        others = main & ~low
        fixed = False
        for mask in up_masks[hole]:
            reach = vacant & mask
            if reach:
                landing = reach & -reach
                if landing & wanted and neighbours[landing.bit_length() - 1] & others:
                    fixed = True
                    break
        if not fixed:
            for mask in down_masks[hole]:
                reach = vacant & mask
                if reach:
                    landing_hole = reach.bit_length() - 1
                    if wanted >> landing_hole & 1 and neighbours[landing_hole] & others:
                        fixed = True
                        break
        if fixed:
            continue
        score += STUCK_COST
        rings = table[hole]
        for steps in range(2, len(rings)):
            if rings[steps] & others:
                score += (steps - 2) * FAR_COST
                break
    return score


def evaluate(board: Board, pegs: tuple[int, int, int, int], red_to_move: bool) -> int:
    """The position from the player to move's side: the opponent's distance minus theirs."""
    rt, rs, bt, bs = pegs
    occupied = rt | rs | bt | bs
    red = distance(board, rt, rs, occupied)
    blue = distance(board, bt, bs, occupied)
    return blue - red if red_to_move else red - blue


def winning_moves(board: Board, tall: int, short: int, occupied: int) -> list[int]:
    """The player's moves that meet the goal at once (move codes, :mod:`.movegen`), found
    exactly: only a player with at most one peg off height 2 can have one (a move changes
    one peg's height), and the moved peg must land at height 2 beside the rest."""
    wrong = (tall & board.shallow) | (short & board.deep)
    if wrong & (wrong - 1):
        return []
    pegs = tall | short
    movers = wrong or pegs
    vacant = board.all_holes & ~occupied
    neighbours = board.neighbours
    up_masks = board.up_masks
    down_masks = board.down_masks
    deep = board.deep
    out: list[int] = []
    while movers:
        low = movers & -movers
        movers ^= low
        hole = low.bit_length() - 1
        wanted = deep if tall & low else board.shallow
        rest = pegs ^ low
        landings = []
        for mask in up_masks[hole]:
            reach = vacant & mask
            if reach:
                landings.append((reach & -reach).bit_length() - 1)
        for mask in down_masks[hole]:
            reach = vacant & mask
            if reach:
                landings.append(reach.bit_length() - 1)
        for landing in landings:
            if (
                wanted >> landing & 1
                and neighbours[landing] & rest
                and _joined(neighbours, rest | 1 << landing)
            ):
                out.append(hole << 6 | landing)
    return out


def _joined(neighbours: tuple[int, ...], pegs: int) -> bool:
    group = frontier = pegs & -pegs
    while frontier:
        bit = frontier & -frontier
        frontier ^= bit
        grown = neighbours[bit.bit_length() - 1] & pegs & ~group
        group |= grown
        frontier |= grown
    return group == pegs
