"""The computer opponent: alpha-beta search on the bitboards, within a time limit.

A bot sees only the board (a :class:`~companion.cluster_peg.position.Position`), never who is
playing or anything said at the table, and always answers with one of the position's legal
moves. Its levels run from ``beginner`` (one move ahead, with a lot of noise in its judgement)
to ``expert`` (the deepest search the time allows). The time limit is real: the search deepens
one move at a time (iterative deepening) and stops when the clock says so, answering with the
best move of the deepest search it finished; the clock is checked every few dozen positions.
The time is a Raspberry Pi 4's: the search also stops after as many positions as a Pi 4
searches in that time (:data:`PI4_POSITIONS_PER_SECOND`), so a faster computer plays as well
as the Pi, and answers sooner, whatever else it is doing.

Equal moves are told apart by a small noise that depends on the position and the bot's seed,
so two bots with different seeds play different games, and one seed always the same game when
given the same depth.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import time
from collections.abc import Callable

from companion.cluster_peg import movegen
from companion.cluster_peg.board import Board
from companion.cluster_peg.evaluation import (
    CENTRE_COST,
    DETAIL,
    SCALE,
    balls,
    detail,
    half_rows,
    off_centre,
    shape,
    winning_moves,
)
from companion.cluster_peg.goal import connected
from companion.cluster_peg.moves import Move
from companion.cluster_peg.position import Position
from companion.errors import StateError

WIN = 1_000_000
"""The score of a won position (less the plies it takes, so the quicker win is preferred)."""
CHECK_EVERY = 64
"""Positions searched between looks at the clock."""
DEFAULT_SECONDS = 2.0
"""The default time a bot has for a move (a house rule; set for a Raspberry Pi 4)."""
PI4_POSITIONS_PER_SECOND = 10_000
"""The positions a Raspberry Pi 4 searches in a second, estimated: the expert searched 54,000
(``64B``) to 75,000 (``46``) a second on the benchmarks' machine, which runs Python about 5.6
times as fast as a Pi 4 (docs/benchmarks.md), so 9,600 to 13,400 on the Pi; rounded towards
the slower board, where the clock then still stops the Pi in time."""
TEMPO = SCALE // 2
"""The move in hand: at a leaf, the player to move is half a move nearer the goal than the
distances say (the first mover's advantage in a race, P3.2)."""
THREAT = SCALE
"""At a leaf, the player who just moved can win with their next move and the player to move
cannot win now: the player to move must spend a move on stopping it, if they can."""
THREATS = 3 * SCALE
"""The same, with winning moves to two or more holes: one move seldom stops them all."""


class Level(enum.Enum):
    """How well a bot plays: how far it looks ahead and how much noise clouds its judgement."""

    BEGINNER = "beginner"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"

    __hash__ = object.__hash__

    depth: int
    """The deepest search, in moves (both players'), time permitting."""
    noise: int
    """The size of the noise added to its judgement of a position (``SCALE`` per move)."""
    title: str
    explain: str

    @classmethod
    def parse(cls, text: str) -> Level:
        word = text.strip().lower()
        for level in cls:
            if word == level.value:
                return level
        names = ", ".join(level.value for level in cls)
        raise ValueError(f"{text.strip()!r} is not a level: choose one of {names}")


for _level, _depth, _noise, _explain in (
    (Level.BEGINNER, 1, 5 * SCALE, "looks one move ahead and often misjudges it"),
    (Level.EASY, 1, SCALE, "looks one move ahead"),
    (Level.MEDIUM, 2, 2, "looks at your best answer to each of its moves"),
    (Level.HARD, 3, 2, "looks three moves ahead"),
    (Level.EXPERT, 16, 2, "looks as many moves ahead as its time allows"),
):
    _level.depth = _depth
    _level.noise = _noise
    _level.title = _level.value.capitalize()
    _level.explain = _explain

STRONGEST = Level.EXPERT


@dataclasses.dataclass(frozen=True)
class Choice:
    """A bot's answer: the move, and how it got there (for benchmarks and logs)."""

    move: Move
    depth: int
    """The deepest search finished in time (0: no search was needed or none finished)."""
    score: int
    nodes: int
    seconds: float
    timed_out: bool
    """The search was cut short, by the clock or by the positions a Pi 4 searches in the time."""


class _OutOfTime(Exception):
    pass


EXACT, LOWER, UPPER = 0, 1, 2


class _Search:
    def __init__(
        self,
        board: Board,
        *,
        seed: int,
        noise: int,
        deadline: float,
        clock: Callable[[], float],
        positions: float = float("inf"),
    ) -> None:
        self.board = board
        self.seed = seed
        self.noise = noise
        self.deadline = deadline
        self.clock = clock
        self.positions = positions
        """The most positions to search (looked at with the clock)."""
        self.nodes = 0
        self.table: dict[tuple[tuple[int, int, int, int], bool], tuple[int, int, int, int]] = {}
        self.history = [0] * (1 << (2 * movegen.SHIFT))
        """Per move code, minus how often it cut the search short (sorting puts it first)."""
        self.shapes: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.killers: list[list[int]] = [[-1, -1] for _ in range(64)]
        """Per ply, the last two moves that cut the search short there (tried early)."""
        balls(board)  # build the distance tables outside the timed search
        half_rows(board)

    def side_shape(self, tall: int, short: int) -> tuple[int, int, int]:
        """A player's :func:`~.evaluation.shape` with the pegs' distance from the middle of
        the board added to its score (:data:`~.evaluation.CENTRE_COST`)."""
        score, need, main = shape(self.board, tall, short)
        return score + CENTRE_COST * off_centre(self.board, tall | short), need, main

    def leaf(self, pegs: tuple[int, int, int, int], red: bool, ply: int) -> int:
        rt, rs, bt, bs = pegs
        occupied = rt | rs | bt | bs
        board = self.board
        shapes = self.shapes
        # A player's shape depends on their own pegs only: siblings in the tree share the
        # other player's, so it is looked up rather than worked out again.
        red_shape = shapes.get((rt, rs))
        if red_shape is None:
            red_shape = shapes[rt, rs] = self.side_shape(rt, rs)
        blue_shape = shapes.get((bt, bs))
        if blue_shape is None:
            blue_shape = shapes[bt, bs] = self.side_shape(bt, bs)
        red_distance, need, main = red_shape
        if need and need.bit_count() <= DETAIL:
            red_distance += detail(board, rt, need, main, occupied)
        blue_distance, need, main = blue_shape
        if need and need.bit_count() <= DETAIL:
            blue_distance += detail(board, bt, need, main, occupied)
        mine, theirs = (red_distance, blue_distance) if red else (blue_distance, red_distance)
        # Wins in one move are found exactly (the distances only estimate): the player to
        # move wins with one; the other player's are threats to stop now.
        own, other = ((rt, rs), (bt, bs)) if red else ((bt, bs), (rt, rs))
        if winning_moves(board, own[0], own[1], occupied):
            return WIN - ply - 1
        score = theirs - mine + TEMPO
        threats = winning_moves(board, other[0], other[1], occupied)
        if threats:
            # One landing hole may be blocked; two or more rarely can be.
            landings = {move & movegen.LOW for move in threats}
            score -= THREAT if len(landings) == 1 else THREATS
        if self.noise:
            score += hash((self.seed, pegs)) % (self.noise + 1) * (1 if red else -1)
        return score

    def won(self, pegs: tuple[int, int, int, int], red: bool) -> bool:
        """Whether the player who just moved (``red``) meets the goal."""
        board = self.board
        tall, short = (pegs[0], pegs[1]) if red else (pegs[2], pegs[3])
        if tall & board.shallow or short & board.deep:
            return False
        return connected(board, tall | short)

    def ordered(self, moves: list[int], first: int | None, ply: int) -> list[int]:
        moves.sort(key=self.history.__getitem__)
        for killer in reversed(self.killers[ply]):
            if killer != first and killer in moves:
                moves.remove(killer)
                moves.insert(0, killer)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def negamax(
        self,
        pegs: tuple[int, int, int, int],
        red: bool,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and (
            self.nodes >= self.positions or self.clock() > self.deadline
        ):
            raise _OutOfTime
        if depth == 0:
            return self.leaf(pegs, red, ply)
        key = (pegs, red)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            entry_depth, entry_score, flag, first = entry
            if entry_depth >= depth:
                if flag == EXACT:
                    return entry_score
                if flag == LOWER and entry_score >= beta:
                    return entry_score
                if flag == UPPER and entry_score <= alpha:
                    return entry_score
        board = self.board
        moves = self.ordered(movegen.generate(board, pegs, red), first, ply)
        original_alpha = alpha
        best = -WIN * 2
        best_move = moves[0]
        apply = movegen.apply
        for searched, move in enumerate(moves):
            child = apply(pegs, move)
            if self.won(child, red):
                score = WIN - ply
            elif searched == 0 or depth == 1:
                score = -self.negamax(child, not red, depth - 1, -beta, -alpha, ply + 1)
            else:
                # Principal variation search: prove the move no better, cheaply; search it
                # again with the full window only when it is.
                score = -self.negamax(child, not red, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self.negamax(child, not red, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.history[move] -= depth * depth
                        killers = self.killers[ply]
                        if killers[0] != move:
                            killers[1], killers[0] = killers[0], move
                        break
        flag = EXACT
        if best <= original_alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        self.table[key] = (depth, best, flag, best_move)
        return best

    def root(
        self,
        pegs: tuple[int, int, int, int],
        red: bool,
        depth: int,
        moves: list[int],
        *,
        pie: bool = False,
    ) -> tuple[int, int, list[tuple[int, int]]]:
        """Search every root move to ``depth``: the best move, its score and each move's
        score (a bound for all but the best), best first.

        ``pie``: the opponent may swap after this move (P5.11), taking the position for
        themselves if it is better, so a move is worth minus the size of its score: the
        best leaves the sides most nearly even. Each move is searched only in the window
        of scores nearer even than the best so far (a move outside it is no better), and a
        move that leaves the other side the better one by as much as the best is worth a
        point more (it gives the opponent no reason to swap)."""
        alpha, beta = -WIN * 2, WIN * 2
        scored: list[tuple[int, int]] = []
        best_move, best = moves[0], -WIN * 2
        for move in moves:
            child = movegen.apply(pegs, move)
            if self.won(child, red):
                score = WIN
            elif pie:
                bound = -best // 2 + 1 if best > -WIN * 2 else WIN * 2
                exact = -self.negamax(child, not red, depth - 1, -bound, bound, 1)
                if -bound < exact < bound:
                    score = -2 * abs(exact) + (1 if exact <= 0 else 0)
                else:
                    score = -2 * bound  # no nearer even than the best
            else:
                score = -self.negamax(child, not red, depth - 1, -beta, -alpha, 1)
            scored.append((score, move))
            if score > best:
                best, best_move = score, move
                alpha = max(alpha, score)
        scored.sort(key=lambda pair: -pair[0])
        return best_move, best, scored


def choose(
    position: Position,
    *,
    level: Level = STRONGEST,
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
    pie: bool = False,
) -> Choice:
    """The bot's move in ``position`` (for the player to move), found within ``seconds`` of a
    Raspberry Pi 4's time: at most 85 % of it on the clock, and at most the positions a Pi 4
    searches in it (:data:`PI4_POSITIONS_PER_SECOND`).

    ``pie``: this is Red's first move and the opponent may swap after it (P5.11), so the bot
    looks for the move that leaves the two sides most nearly even."""
    if seconds <= 0:
        raise StateError(f"a bot needs some time to think, not {seconds} seconds")
    started = clock()
    board = position.board
    red = position.to_move.value == "r"
    if position.winner() is not None:
        raise StateError("the game is over: there is no move to choose")
    moves = movegen.generate(board, position.pegs, red)
    if not moves:  # pragma: no cover - P4.9: a player always has a move
        raise StateError("there is no legal move")
    search = _Search(
        board,
        seed=seed,
        noise=level.noise,
        deadline=started + seconds * 0.85,
        clock=clock,
        positions=seconds * PI4_POSITIONS_PER_SECOND,
    )
    best_move, best_score, finished = moves[0], 0, 0
    timed_out = False
    if len(moves) > 1:
        order = list(moves)
        for depth in range(1, level.depth + 1):
            try:
                move, score, scored = search.root(position.pegs, red, depth, order, pie=pie)
            except _OutOfTime:
                timed_out = True
                break
            best_move, best_score, finished = move, score, depth
            order = [m for _, m in scored]
            if score >= WIN - depth:
                break  # a forced win: look no further
    return Choice(
        Move.from_code(board, best_move),
        finished,
        best_score,
        search.nodes,
        clock() - started,
        timed_out,
    )


def judge(board: Board) -> Callable[[tuple[int, int, int, int], bool], int]:
    """The search's judgement of a position at a leaf, without noise: its score for the player
    to move (``red``), ``SCALE`` a move; a win in one move scores near :data:`WIN`. For probes
    that search in their own way (the benchmarks)."""
    search = _Search(board, seed=0, noise=0, deadline=float("inf"), clock=time.perf_counter)
    return lambda pegs, red: search.leaf(pegs, red, 0)


def should_swap(
    position: Position,
    *,
    level: Level = STRONGEST,
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> bool:
    """P5.11, for the bot playing Blue right after Red's first move: whether to take over
    Red's pegs, i.e. whether Red's side of ``position`` (Blue to move) is the better one."""
    if position.winner() is not None:
        return False
    return choose(position, level=level, seconds=seconds, seed=seed, clock=clock).score < 0


def random_seed(rng: random.Random) -> int:
    """A bot seed drawn from a recorded generator (so a table's games differ)."""
    return rng.randrange(2**31)
