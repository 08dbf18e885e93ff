"""Races (P3.2): how many moves a player needs with the opponent's pegs standing still.

Every peg off height 2 must move at least once (a move changes one peg's height), so a player
with ``k`` such pegs needs at least ``k`` moves, exactly ``k`` when there is a *perfect race*: an
order in which each of those pegs makes one move, into a hole of its goal depth, after which
the pegs form one group. :func:`race_distance` counts the fewest moves exactly, up to a number
of *spare* moves beyond ``k`` (a peg sent round a block, or brought back), by a depth-first
search over the player's own moves (the moves that join the most pegs first, every failed
position remembered, groups that can no longer be joined cut off), within a budget.

:func:`race_margins` weighs each move of the player to move in a race: how many more moves the
opponent then needs than the mover. With the opponent to move next, the mover is ahead only
at a margin of 1 or more (the first to finish wins, P5.3). The benchmark uses it to ask whether
a block could have beaten a race (``benchmarks/cluster_peg.py``); the count is the race's
alone: it does not see the moves each player could make to stop the other later.
"""

from __future__ import annotations

from companion.cluster_peg import movegen
from companion.cluster_peg.board import Board
from companion.cluster_peg.evaluation import balls, gap
from companion.cluster_peg.goal import connected, groups, wrong_height
from companion.cluster_peg.position import Position

BUDGET = 400
"""Positions a race search looks at before it gives up (and says it does not know)."""


class _OutOfBudget(Exception):
    pass


def race_distance(
    board: Board,
    tall: int,
    short: int,
    others: int,
    *,
    spare: int = 0,
    budget: int = BUDGET,
) -> int | None:
    """The fewest moves the player needs to meet the goal with the opponent's pegs (``others``)
    standing still, tried up to ``spare`` moves beyond the pegs off height 2 (a move that
    fixes no height: a block to go round, a peg to bring back). When that is not enough, one
    more than the most tried (a lower bound); ``None`` when the search ran out of ``budget``
    positions first."""
    need = wrong_height(board, tall, short).bit_count()
    search = _RaceSearch(board, others, budget)
    try:
        for extra in range(spare + 1):
            if search.finish(tall, short, extra):
                return need + extra
    except _OutOfBudget:
        return None
    return need + spare + 1


def race_margins(
    position: Position, *, spare: int = 2, budget: int = BUDGET
) -> list[tuple[int, int | None]]:
    """For each legal move of the player to move (generator codes, canonical order): the
    opponent's :func:`race_distance` less the mover's after it, each counted with the other's
    pegs standing and up to ``spare`` spare moves; ``None`` when either count is unknown."""
    board = position.board
    red = position.to_move.value == "r"
    out: list[tuple[int, int | None]] = []
    for move in movegen.generate(board, position.pegs, red):
        after = movegen.apply(position.pegs, move)
        mine, theirs = ((0, 1), (2, 3)) if red else ((2, 3), (0, 1))
        tall, short = after[mine[0]], after[mine[1]]
        their_tall, their_short = after[theirs[0]], after[theirs[1]]
        own = race_distance(
            board, tall, short, their_tall | their_short, spare=spare, budget=budget
        )
        other = race_distance(
            board, their_tall, their_short, tall | short, spare=spare, budget=budget
        )
        out.append((move, None if own is None or other is None else other - own))
    return out


class _RaceSearch:
    def __init__(self, board: Board, others: int, budget: int) -> None:
        self.board = board
        self.others = others
        self.budget = budget
        self.failed: set[tuple[int, int, int]] = set()
        self.table = balls(board)

    def finish(self, tall: int, short: int, spare: int) -> bool:
        """Whether the goal can be met by moving each peg off height 2 once, into a hole of
        its goal depth, plus at most ``spare`` other moves of any peg."""
        key = (tall, short, spare)
        if key in self.failed:
            return False
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        board = self.board
        wrong = wrong_height(board, tall, short)
        pegs = tall | short
        if not wrong and connected(board, pegs):
            return True
        vacant = board.all_holes & ~(pegs | self.others)
        placed = pegs & ~wrong
        if self._cut_off(placed, vacant | wrong, wrong.bit_count(), spare):
            self.failed.add(key)
            return False
        fixing = self._moves(tall, wrong, vacant, placed)
        for hole, landing, is_tall in fixing:
            if self.finish(*_moved(tall, short, hole, landing, is_tall), spare):
                return True
        if spare:
            # Any other move is spare: one, or two for a peg moved off height 2 (the move
            # that puts it back is paid with it), so a race of ``k`` pegs off height 2 and
            # ``spare`` spare moves is exactly ``k + spare`` moves long.
            occupied = board.all_holes & ~vacant
            bits = pegs
            while bits:
                low = bits & -bits
                bits ^= low
                hole = low.bit_length() - 1
                is_tall = bool(tall & low)
                goal_depth = board.deep if is_tall else board.shallow
                for landing in movegen.destinations(board, occupied, hole):
                    if wrong & low and goal_depth >> landing & 1:
                        continue  # a fixing move, tried above
                    cost = 2 if placed & low and not goal_depth >> landing & 1 else 1
                    if cost <= spare and self.finish(
                        *_moved(tall, short, hole, landing, is_tall), spare - cost
                    ):
                        return True
        self.failed.add(key)
        return False

    def _moves(
        self, tall: int, wrong: int, vacant: int, placed: int
    ) -> list[tuple[int, int, bool]]:
        """Every move of a peg off height 2 into a hole of its goal depth, those that leave
        the fewest groups of placed pegs (then touch the most) first."""
        board = self.board
        neighbours = board.neighbours
        ranked = []
        bits = wrong
        while bits:
            low = bits & -bits
            bits ^= low
            hole = low.bit_length() - 1
            is_tall = bool(tall & low)
            wanted = board.deep if is_tall else board.shallow
            for landing in movegen.destinations(board, board.all_holes & ~vacant, hole):
                if wanted >> landing & 1:
                    after = placed | 1 << landing
                    ranked.append(
                        (
                            len(groups(board, after)),
                            -(neighbours[landing] & placed).bit_count(),
                            hole,
                            landing,
                            is_tall,
                        )
                    )
        ranked.sort()
        return [(hole, landing, is_tall) for _, _, hole, landing, is_tall in ranked]

    def _cut_off(self, placed: int, open_holes: int, moves_left: int, spare: int) -> bool:
        """Whether the placed pegs can no longer be joined: a group farther from every other
        group than the moves left can bridge, or, with no spare move (so placed pegs never
        move again), a group with no hole beside it that a peg could still land in."""
        board = self.board
        found = groups(board, placed)
        if len(found) <= 1:
            return False
        neighbours = board.neighbours
        for group in found:
            around = 0
            bits = group
            while bits:
                low = bits & -bits
                bits ^= low
                around |= neighbours[low.bit_length() - 1]
            if not spare and not around & open_holes:
                return True
            if gap(self.table, group, placed & ~group) > moves_left + spare:
                return True
        return False


def _moved(tall: int, short: int, hole: int, landing: int, is_tall: bool) -> tuple[int, int]:
    bit, into = 1 << hole, 1 << landing
    if is_tall:
        return tall & ~bit | into, short
    return tall, short & ~bit | into
