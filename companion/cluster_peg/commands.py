"""Cluster's part of the ``companion`` command (its registration's ``cli``).

``companion new GAME.json --game cluster [--setup 64B|64A|46 | --position TEXT] [--swap]
[--repetition N] [--turn-limit N] [--red NAME --blue NAME [--lots] [--seed S]]``, ``show`` and
``replay`` (``--turn N``: after that many tokens), and the verbs:

- ``companion move GAME.json MOVE [MOVE ...]``: play moves (``c3*g1``) in turn; ``swap`` too;
- ``companion bot GAME.json [--level L] [--seconds S] [--seed N]``: the computer plays the
  move of the player to move;
- ``companion moves GAME.json``: the legal moves, in canonical order (P4.10);
- ``companion resign GAME.json COLOUR`` and ``companion draw GAME.json`` (agreed, P5.9, P5.10);
- ``companion undo GAME.json``: take back the last token.

Every function takes the record's bytes and returns the new record text and the lines to print;
the shell (:mod:`companion.cli`) reads and writes the files.
"""

from __future__ import annotations

import argparse
import random
import secrets
from typing import Any

from companion.cluster_peg import bot
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.game import Game
from companion.cluster_peg.moves import MoveError
from companion.cluster_peg.position import (
    DEFAULT_SETUP,
    SETUP_TITLES,
    SETUPS,
    Position,
    PositionError,
    setup_name,
)
from companion.cluster_peg.record import load_record, record_json, record_text
from companion.cluster_peg.settings import HouseRules
from companion.commands import CommandError, GameCommands, Verb, VerbResult
from companion.errors import StateError


def describe(game: Game, players: dict[str, Any] | None = None) -> list[str]:
    """The position as a diagram, and what the game waits for."""
    position = game.position
    named = setup_name(game.start)
    start = SETUP_TITLES[named] if named else "an entered position"
    lines = [
        f"Cluster on the {position.board.title}, from {start}; "
        f"{game.moves_played} move{'s' * (game.moves_played != 1)} played.",
        "",
        *position.diagram().splitlines(),
        "",
        "Key: R red tall, r red short, B blue tall, b blue short, . empty; "
        "heights: tall 3 in a shallow hole, 2 in a deep one; short 2 and 1.",
        f"Position: {position.text()}",
    ]
    if game.swapped:
        lines.append("The players swapped after Red's first move (P5.11).")
    if game.result is not None:
        lines.append(game.result.text() + ".")
        return lines
    mover = position.to_move
    who = _player(mover, game, players)
    lines.append(
        f"{mover.title} to move{who}: {len(game.legal_moves())} legal moves"
        + (" (or swap)" if game.can_swap() else "")
        + " (companion moves GAME.json lists them)."
    )
    return lines


def _player(colour: Colour, game: Game, players: dict[str, Any] | None) -> str:
    if not players:
        return ""
    starter = game.player_of(colour)
    name = players.get(starter.title.lower())
    return f" ({name})" if name else ""


def new_game(
    *,
    start: Position,
    rules: HouseRules,
    players: dict[str, Any] | None = None,
) -> tuple[str, list[str]]:
    game = Game(start, rules)
    lines = [*describe(game, players), f"House rules: {rules.describe()}."]
    return record_json(game, players=players), lines


def _load(record: bytes) -> tuple[Game, dict[str, Any]]:
    return load_record(record)


def play_tokens(record: bytes, tokens: list[str]) -> tuple[str, list[str]]:
    """Play moves (and ``swap``) in turn; the first refused one stops everything, nothing is
    recorded."""
    game, players = _load(record)
    lines = []
    for token in tokens:
        mover = game.position.to_move
        try:
            if token.strip().lower() == "swap":
                game.swap()
                lines.append("Blue swaps: the players exchange colours; Blue moves next.")
                continue
            move = game.play(token)
        except MoveError as err:
            raise CommandError(
                f"{token.strip()}: {err} ({err.code}, P4.11); nothing recorded"
            ) from None
        except StateError as err:
            raise CommandError(f"{token.strip()}: {err}; nothing recorded") from None
        lines.append(f"{mover.title} plays {move.text()}.")
    return record_json(game, players=players), [*lines, "", *describe(game, players)]


def bot_move(
    record: bytes, *, level: bot.Level, seconds: float, seed: int
) -> tuple[str, list[str]]:
    game, players = _load(record)
    if game.over:
        raise CommandError(f"the game is over: {game.result.text() if game.result else ''}")
    mover = game.position.to_move
    if game.can_swap() and bot.should_swap(game.position, level=level, seconds=seconds, seed=seed):
        game.swap()
        said = f"The computer ({level.value}) swaps for Blue (P5.11)."
    else:
        pie = game.rules.swap and not game.tokens and mover is Colour.RED
        choice = bot.choose(game.position, level=level, seconds=seconds, seed=seed, pie=pie)
        game.play(choice.move)
        said = (
            f"The computer ({level.value}) plays {choice.move.text()} for {mover.title} "
            f"(searched {choice.depth} moves ahead, {choice.seconds:.2f} s)."
        )
    return record_json(game, players=players), [said, "", *describe(game, players)]


def list_moves(record: bytes) -> list[str]:
    game, _ = _load(record)
    if game.over:
        return [game.result.text() + "." if game.result else "The game is over."]
    moves = [m.text() for m in game.legal_moves()]
    lines = [f"{game.position.to_move.title} has {len(moves)} legal moves:"]
    for first in range(0, len(moves), 10):
        lines.append("  " + " ".join(moves[first : first + 10]))
    if game.can_swap():
        lines.append("  or swap (P5.11)")
    return lines


def end(record: bytes, how: str, colour: str | None = None) -> tuple[str, list[str]]:
    game, players = _load(record)
    try:
        if how == "resign":
            assert colour is not None
            game.resign(Colour.parse(colour))
        else:
            game.agree_draw()
    except (StateError, ValueError) as err:
        raise CommandError(str(err)) from None
    return record_json(game, players=players), describe(game, players)


def undo(record: bytes) -> tuple[str, list[str]]:
    game, players = _load(record)
    try:
        token = game.undo()
    except StateError as err:
        raise CommandError(str(err)) from None
    return record_json(game, players=players), [f"Took back {token}.", "", *describe(game, players)]


def show(record: bytes, turn: int | None) -> list[str]:
    game, players = _load(record)
    if turn is not None:
        if not 0 <= turn <= len(game.tokens):
            raise CommandError(f"--turn is 0 to {len(game.tokens)} for this record, not {turn}")
        game = Game.replay(game.start, game.tokens[:turn], game.rules)
    return describe(game, players)


def replay(record: bytes, turn: int | None) -> list[str]:
    game, players = _load(record)
    count = len(game.tokens)
    lines = [
        f"replayed {count} token{'s' * (count != 1)}; the result and the end position match "
        "the record",
        "",
    ]
    if turn is not None:
        return [*lines, *show(record, turn)]
    return [
        *lines,
        *describe(game, players),
        "",
        "Game record (P6.7):",
        *record_text(game).splitlines(),
    ]


# The game's commands ----------------------------------------------------------------------


def _tokens_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "tokens", metavar="MOVE", nargs="+", help="a move (b4-c4 a step, a1*c2 a jump) or swap"
    )


def _bot_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        type=bot.Level.parse,
        default=bot.STRONGEST,
        help=f"{', '.join(level.value for level in bot.Level)} (default {bot.STRONGEST.value})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=bot.DEFAULT_SECONDS,
        help=f"its time for the move (default {bot.DEFAULT_SECONDS:g})",
    )
    parser.add_argument("--seed", type=int, default=0, help="tells equal moves apart")


def _resign_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("colour", metavar="COLOUR", help="red or blue: who resigns")


def _none(parser: argparse.ArgumentParser) -> None:
    return None


def _recorded(text: str, lines: list[str], args: argparse.Namespace) -> VerbResult:
    return VerbResult([*lines, "", f"Recorded in {args.record}."], record=text)


class ClusterCommands(GameCommands):
    """``companion new|show|replay`` for Cluster records, and its verbs."""

    verbs = (
        Verb(
            "move",
            "Play moves in turn (b4-c4 a step, a1*c2 a jump; swap).",
            _tokens_arguments,
            lambda record, args: _recorded(*play_tokens(record, args.tokens), args),
        ),
        Verb(
            "bot",
            "The computer plays the move of the player to move.",
            _bot_arguments,
            lambda record, args: _recorded(
                *bot_move(record, level=args.level, seconds=args.seconds, seed=args.seed), args
            ),
        ),
        Verb(
            "moves",
            "List the legal moves of the player to move.",
            _none,
            lambda record, args: VerbResult(list_moves(record)),
        ),
        Verb(
            "resign",
            "A player resigns (at any time); the other wins.",
            _resign_arguments,
            lambda record, args: _recorded(*end(record, "resign", args.colour), args),
        ),
        Verb(
            "draw",
            "Record a draw both players agreed.",
            _none,
            lambda record, args: _recorded(*end(record, "draw"), args),
        ),
        Verb(
            "undo",
            "Take back the last move (or swap, resignation, draw).",
            _none,
            lambda record, args: _recorded(*undo(record), args),
        ),
    )

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        where = parser.add_mutually_exclusive_group()
        where.add_argument(
            "--setup",
            choices=sorted(SETUPS),
            default=DEFAULT_SETUP,
            type=str.upper,
            help=f"the board and start (default {DEFAULT_SETUP}: large board, interlocked)",
        )
        where.add_argument("--position", help="start from this position text (P6.4)")
        parser.add_argument(
            "--swap", action="store_true", help="allow Blue to swap after Red's first move"
        )
        parser.add_argument(
            "--repetition", type=int, default=HouseRules().repetition, help="0: off (default 3)"
        )
        parser.add_argument(
            "--turn-limit", type=int, default=HouseRules().turn_limit, help="0: none (default 200)"
        )
        parser.add_argument("--red", metavar="NAME", help="who plays Red (moves first)")
        parser.add_argument("--blue", metavar="NAME", help="who plays Blue")
        parser.add_argument(
            "--lots",
            action="store_true",
            help="draw lots for who plays Red between --red and --blue (P4.8)",
        )
        parser.add_argument("--seed", type=int, help="the lot's seed (default: random, printed)")

    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        try:
            start = Position.parse(args.position) if args.position else SETUPS[args.setup]
            rules = HouseRules(
                repetition=args.repetition, turn_limit=args.turn_limit, swap=args.swap
            )
        except (PositionError, StateError) as err:
            raise CommandError(str(err)) from None
        players: dict[str, Any] = {}
        lines: list[str] = []
        if args.red:
            players["red"] = args.red
        if args.blue:
            players["blue"] = args.blue
        if args.lots:
            if not (args.red and args.blue):
                raise CommandError("--lots draws between two names: give --red and --blue")
            seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
            if random.Random(seed).random() < 0.5:
                players["red"], players["blue"] = players["blue"], players["red"]
            players["by_lot"] = True
            lines.append(f"Lots drawn (seed {seed}): {players['red']} plays Red and moves first.")
        text, described = new_game(start=start, rules=rules, players=players or None)
        return text, [*lines, *described, "", f"Recorded in {args.record}."]

    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        return show(record, args.turn)

    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        return replay(record, args.turn)


COMMANDS = ClusterCommands()
"""What the registration's ``cli`` names."""
