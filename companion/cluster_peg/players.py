"""Players for matches, tests and benchmarks: a random mover, a one-ply greedy player and the
bot, all behind one small interface (``choose(position) -> Move``), and :func:`play_match`.

Each takes its randomness from a seeded :class:`random.Random`, so a match is repeatable.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from typing import Protocol

from companion.cluster_peg import movegen
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.board import Board
from companion.cluster_peg.bot import DEFAULT_SECONDS, STRONGEST, Level, choose, should_swap
from companion.cluster_peg.evaluation import evaluate
from companion.cluster_peg.game import Game, Result
from companion.cluster_peg.goal import groups, meets_goal
from companion.cluster_peg.moves import Move
from companion.cluster_peg.position import Position
from companion.cluster_peg.settings import HouseRules


class Player(Protocol):
    name: str

    def choose(self, position: Position) -> Move: ...


class RandomPlayer:
    """Any legal move, uniformly at random."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, position: Position) -> Move:
        red = position.to_move is Colour.RED
        codes = movegen.generate(position.board, position.pegs, red)
        return Move.from_code(position.board, self.rng.choice(codes))


class GreedyPlayer:
    """One move ahead, for itself alone: a winning move if there is one, else the move after
    which it has the most pegs at height 2, then the fewest groups (P5.1's two conditions,
    counted); ties at random. It never looks at what the opponent could do."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, position: Position) -> Move:
        red = position.to_move is Colour.RED
        _, best = self.best_moves(position.board, position.pegs, red)
        return Move.from_code(position.board, self.rng.choice(best))

    @staticmethod
    def best_moves(
        board: Board, pegs: tuple[int, int, int, int], red: bool
    ) -> tuple[bool, list[int]]:
        """The moves the greedy player chooses among (move codes), and whether it wins with
        them: its first winning move alone, or every move tied for the best count."""
        best: list[int] = []
        best_score: tuple[int, int] | None = None
        for code in movegen.generate(board, pegs, red):
            after = movegen.apply(pegs, code)
            tall, short = (after[0], after[1]) if red else (after[2], after[3])
            if meets_goal(board, tall, short):
                return True, [code]
            at_two = (tall & board.deep).bit_count() + (short & board.shallow).bit_count()
            score = (at_two, -len(groups(board, tall | short)))
            if best_score is None or score > best_score:
                best, best_score = [code], score
            elif score == best_score:
                best.append(code)
        return False, best


class EvaluatingPlayer:
    """One move ahead with the bot's own evaluation (its distance from the goal against the
    opponent's): the strongest one-move player, a yardstick for what search adds."""

    name = "one-ply evaluator"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, position: Position) -> Move:
        board = position.board
        red = position.to_move is Colour.RED
        best: list[int] = []
        best_score = None
        for code in movegen.generate(board, position.pegs, red):
            after = movegen.apply(position.pegs, code)
            tall, short = (after[0], after[1]) if red else (after[2], after[3])
            if meets_goal(board, tall, short):
                return Move.from_code(board, code)
            score = evaluate(board, after, red)
            if best_score is None or score > best_score:
                best, best_score = [code], score
            elif score == best_score:
                best.append(code)
        return Move.from_code(board, self.rng.choice(best))


class BotPlayer:
    """The computer opponent at a level, with its time for a move."""

    def __init__(
        self,
        level: Level = STRONGEST,
        *,
        seconds: float = DEFAULT_SECONDS,
        seed: int = 0,
    ) -> None:
        self.level = level
        self.seconds = seconds
        self.seed = seed
        self.name = f"bot {level.value}"
        self.times: list[float] = []
        self.depths: list[int] = []

    def choose(self, position: Position, *, pie: bool = False) -> Move:
        choice = choose(position, level=self.level, seconds=self.seconds, seed=self.seed, pie=pie)
        self.times.append(choice.seconds)
        self.depths.append(choice.depth)
        return choice.move

    def swaps(self, position: Position) -> bool:
        """P5.11: whether to swap after Red's first move (timed like a move)."""
        began = time.perf_counter()
        answer = should_swap(position, level=self.level, seconds=self.seconds, seed=self.seed)
        self.times.append(time.perf_counter() - began)
        return answer


@dataclasses.dataclass(frozen=True)
class MatchResult:
    result: Result | None
    moves: int
    swapped: bool
    seconds: dict[str, float]
    """Time each side spent choosing, by colour name (``red``, ``blue``)."""


def play_match(
    start: Position,
    red: Player,
    blue: Player,
    *,
    rules: HouseRules | None = None,
    swap_if: Callable[[Position], bool] | None = None,
) -> MatchResult:
    """One game from ``start``: ``red`` makes the first move. With the swap house rule on
    (P5.11), Blue's player is asked after Red's first move whether to swap: ``swap_if`` if
    given, else the player's own ``swaps(position)`` if it has one (a bot), else never; a
    bot playing Red then chooses its first move knowing a swap may follow. After a swap the
    players exchange colours: ``red``'s player plays Blue."""
    game = Game(start, rules)
    players = {Colour.RED: red, Colour.BLUE: blue}
    spent = {Colour.RED: 0.0, Colour.BLUE: 0.0}
    pie_first = game.rules.swap and start.to_move is Colour.RED
    while not game.over:
        if game.can_swap():
            chooser = players[Colour.BLUE]
            asked = swap_if or getattr(chooser, "swaps", None)
            began = time.perf_counter()
            swapping = bool(asked(game.position)) if asked is not None else False
            spent[Colour.BLUE] += time.perf_counter() - began
            if swapping:
                game.swap()
                players = {Colour.RED: blue, Colour.BLUE: red}
                continue
        colour = game.position.to_move
        player = players[colour]
        began = time.perf_counter()
        if pie_first and not game.tokens and isinstance(player, BotPlayer):
            move = player.choose(game.position, pie=True)
        else:
            move = player.choose(game.position)
        spent[colour] += time.perf_counter() - began
        game.play(move)
    return MatchResult(
        game.result,
        game.moves_played,
        game.swapped,
        {colour.title.lower(): seconds for colour, seconds in spent.items()},
    )
