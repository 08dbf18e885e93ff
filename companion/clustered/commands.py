"""What the ``companion`` command does with a Clustered record, without any I/O.

Each function takes the record's text (and the typed move) and returns the new record's text,
if any, and the lines to print; the shell reads and writes the files (see
``companion/commands.py``'s ``GameCommands``, which :data:`COMMANDS` adapts these to).

* ``companion new GAME.json --game clustered --colours B,O [--names Ann,Bo] [--first 2]``
  and every setting of K7.2 as an option;
* ``companion place GAME.json B-tr-da-3 2,-1``: the current player's placement (K3.9);
* ``companion discard GAME.json B-tr-so-1 hand B-tr-da-2 ...``: a "no legal move"
  declaration (K3.13, K3.14; just ``discard`` with ``--discard-check table``);
* ``companion score GAME.json``: each player's score broken down (K6.10);
* ``companion undo GAME.json`` and ``companion stop GAME.json``: the host's (K3.12, K5.6).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.clustered import record as records
from companion.clustered.errors import DeclarationError
from companion.clustered.game import ClusteredGame, Player, TurnResult
from companion.clustered.legality import IllegalPlacementError
from companion.clustered.moves import Declaration, Placement
from companion.clustered.scoring import BONUS_WORDS, ScoreSheet
from companion.clustered.settings import Settings
from companion.clustered.text_view import describe, who
from companion.commands import GameCommands, Verb, VerbResult
from companion.errors import CompanionError, StateError

GAME = "clustered"


class ClusteredInputError(CompanionError, ValueError):
    """Command-line input that does not describe a Clustered game or move."""


def players_from(
    palette_codes: Sequence[str],
    *,
    players: int | None,
    colours: Sequence[str] | None,
    names: Sequence[str] | None,
) -> list[Player]:
    """Seats in clockwise order: the colours named, or the palette's first ``players``."""
    if colours is None:
        count = 2 if players is None else players
        if not 1 <= count <= 8:
            raise ClusteredInputError(f"Clustered is for 1 to 8 players, not {count} (K1.4)")
        colours = list(palette_codes[:count])
    elif players is not None and players != len(colours):
        raise ClusteredInputError(
            f"--players {players} but {len(colours)} colours named; name one colour a seat"
        )
    names = list(names or [])
    if len(names) > len(colours):
        raise ClusteredInputError(f"{len(names)} names for {len(colours)} seats")
    names += [""] * (len(colours) - len(names))
    return [Player(c.strip().upper(), n.strip()) for c, n in zip(colours, names, strict=True)]


def new_game(
    *,
    players: int | None = None,
    colours: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    first: int = 1,
    options: Mapping[str, Any] | None = None,
) -> tuple[str, list[str]]:
    """A new game's record text and the lines describing it."""
    settings = Settings.from_dict(dict(options or {}))
    codes = settings.palette.codes
    if colours is not None:
        colours = [settings.palette.code(c) for c in colours]
    seated = players_from(codes, players=players, colours=colours, names=names)
    game = ClusteredGame(seated, settings=settings, first_seat=first)
    lines = [
        f"New Clustered game: {len(seated)} player{'s' * (len(seated) != 1)}, "
        f"{len(game.layout.starts)} start card{'s' * (len(game.layout.starts) != 1)}.",
        *settings_lines(settings),
        "",
        *describe(game),
    ]
    return records.record_json(game), lines


def settings_lines(settings: Settings) -> list[str]:
    """The settings that differ from K7.2's defaults, in words."""
    defaults = Settings().to_dict()
    changed = {k: v for k, v in settings.to_dict().items() if defaults[k] != v}
    if not changed:
        return ["Settings: the defaults of K7.2."]
    shown = []
    for name, value in changed.items():
        if name == "palette":
            value = settings.palette.text()
        elif isinstance(value, bool):
            value = "on" if value else "off"
        shown.append(f"{name} {value}")
    return ["Settings: " + "; ".join(shown) + " (the rest as K7.2 says)."]


def _steps(count: int) -> str:
    return f"{count} step{'s' * (count != 1)}"


def _at(data: Mapping[str, Any], until: int | None) -> tuple[ClusteredGame, list[str]]:
    """The game after its first ``until`` steps (None: all) and a heading that says which.

    A step is a turn (a placement or a declaration) or the host's undo or stop."""
    count = len(data["steps"])
    if until is None:
        return records.game_from(data), []
    if not 0 <= until <= count:
        raise ClusteredInputError(
            f"--turn {until}: the record has {_steps(count)}; give 0 (the setup) to {count}"
        )
    label = "the setup" if until == 0 else f"step {until} of {count}"
    return records.game_from(data, until=until), [f"Position after {label}:", ""]


def show(record: str | bytes, until: int | None = None) -> list[str]:
    """The position now, or after the record's first ``until`` steps."""
    game, heading = _at(records.parse(record), until)
    return [*heading, *describe(game)]


def replay(record: str | bytes, until: int | None = None) -> list[str]:
    """Replay every step, then show the position now (or after ``until`` steps)."""
    data = records.parse(record)
    count = len(records.game_from(data).steps)
    game, heading = _at(data, until)
    return [
        f"replayed {_steps(count)}; position matches the record",
        "",
        *heading,
        *describe(game),
    ]


def _result_lines(game: ClusteredGame, result: TurnResult) -> list[str]:
    lines = [f"{who(game, result.seat)}: {result.move.text()}."]
    for bonus in result.earned:
        lines.append(f"  {BONUS_WORDS[bonus].capitalize()} bonus to {who(game, result.seat)}!")
    return lines


def place(record: str | bytes, text: str) -> tuple[str, list[str]]:
    """The current player's placement (K3.9); refused with its reason (K3.10, K4.10)."""
    game = records.load(record)
    try:
        placement = Placement.parse(text, game.codes)
        result = game.place(placement)
    except IllegalPlacementError as err:
        raise ClusteredInputError(f"refused: {err.verdict.message}") from None
    lines = _result_lines(game, result)
    return records.record_json(game), [*lines, "", *describe(game)]


def discard(record: str | bytes, text: str) -> tuple[str, list[str]]:
    """A "no legal move" declaration (K3.13 to K3.15); ``text`` follows the word discard."""
    game = records.load(record)
    declaration = Declaration.parse(f"discard {text}".strip(), game.codes)
    try:
        result = game.declare(declaration)
    except DeclarationError as err:
        raise ClusteredInputError(
            f"declaration refused ({err.code}): " + "; ".join(err.reasons)
        ) from None
    lines = [f"{who(game, result.seat)}: no legal move; a card is discarded face down."]
    return records.record_json(game), [*lines, "", *describe(game)]


def undo(record: str | bytes, reason: str = "") -> tuple[str, list[str]]:
    game = records.load(record)
    turn = game.undo(reason)
    lines = [f"Undone: {who(game, turn.seat)}'s {turn.move.text()} (K3.12)."]
    return records.record_json(game), [*lines, "", *describe(game)]


def stop(record: str | bytes, reason: str = "") -> tuple[str, list[str]]:
    game = records.load(record)
    game.stop(reason)
    return records.record_json(game), [*sheet_lines(game, game.score_sheet())]


def sheet_lines(game: ClusteredGame, sheet: ScoreSheet) -> list[str]:
    names = {p.colour: who(game, game.seat_of(p.colour)) for p in sheet.players}
    head = "Score sheet" + ("" if sheet.finished and game.over else " (the table as it stands)")
    return [f"{head}:", *sheet.lines(names)]


def score(record: str | bytes) -> list[str]:
    """Each player's score broken down: the rectangle, each line, each bonus (K6.10)."""
    game = records.load(record)
    lines = sheet_lines(game, game.score_sheet())
    if not game.over:
        lines.append("The game is not over: these are the scores of the table as it stands.")
    return lines


def require_game(record: str | bytes) -> None:
    """StateError unless the record says it is a Clustered game (cheap check first)."""
    data = records.parse(record)
    if data.get("game") != GAME:
        raise StateError("this is not a Clustered record")


# The ``companion`` shell's interface (companion/commands.py) -------------------------------------

SETTING_OPTIONS = (
    (
        "palette",
        "CODES",
        "the deck colours: 8 letters with names, like 'B=blue O=orange ...' (K1.5)",
    ),
    ("surface", "RECT", "the playing surface: unbounded or x1..x2,y1..y2 (K2.6)"),
    ("discard_check", "hand|table", "how a no-legal-move declaration is checked (K3.14)"),
    ("end_when_blocked", "on|off", "end a table nothing more fits on (K5.5; default on)"),
    ("current_player_card", "on|off", "the table passes the current player card (K7.3)"),
    ("extra_wild", "none|all|B,O", "decks with the third wild card (K7.4)"),
    ("quick_play", "on|off", "quick play: 7 cards, keep 5; draw 2, keep 5 (K7.5-K7.7)"),
    ("first_bonuses", "on|off", "first 2x3 rectangle and first line of 5 bonuses (K7.8)"),
    ("largest_bonuses", "on|off", "largest rectangle and longest line bonuses (K7.13)"),
    ("start_cards", "auto|1|2", "the number of start cards (K7.17)"),
)


def _words(values: Sequence[str]) -> str:
    return " ".join(values)


class ClusteredCommands(GameCommands):
    """``companion new|show|replay`` for Clustered records, and its verbs."""

    def __init__(self) -> None:
        self.verbs = (
            Verb(
                "place",
                "Play the current player's card: companion place GAME.json B-tr-da-3 2,-1.",
                self._move_arguments,
                lambda record, args: self._step(record, place, _words(args.move)),
            ),
            Verb(
                "discard",
                "Declare no legal move: companion discard GAME.json CARD hand CARD CARD ...",
                self._move_arguments,
                lambda record, args: self._step(record, discard, _words(args.move)),
            ),
            Verb(
                "score",
                "Print each player's score broken down: every line, the rectangle, each bonus.",
                lambda parser: None,
                lambda record, args: VerbResult(score(record)),
            ),
            Verb(
                "undo",
                "The host takes back the last accepted placement (K3.12).",
                self._reason_argument,
                lambda record, args: self._step(record, undo, args.reason),
            ),
            Verb(
                "stop",
                "The host stops the game early; the score as it stands, no winner (K5.6).",
                self._reason_argument,
                lambda record, args: self._step(record, stop, args.reason),
            ),
        )

    @staticmethod
    def _move_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "move",
            nargs=argparse.REMAINDER,
            help="the card and the cell, as in B-tr-da-3 2,-1 (a cell may start with a minus)",
        )

    @staticmethod
    def _reason_argument(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--reason", default="", help="why (kept in the record)")

    @staticmethod
    def _step(
        record: bytes, play: Callable[[bytes, str], tuple[str, list[str]]], text: str
    ) -> VerbResult:
        new, lines = play(record, text)
        return VerbResult(lines, record=new)

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--players", type=int, help="number of players, 1-8 (default 2)")
        parser.add_argument(
            "--colours", help="the seats' colours, clockwise (codes or names): B,O,R (K3.1)"
        )
        parser.add_argument("--names", help="the players' names in seat order: Ann,Bo")
        parser.add_argument(
            "--first", type=int, default=1, help="the seat that plays first (K3.3; default 1)"
        )
        for name, metavar, words in SETTING_OPTIONS:
            parser.add_argument(f"--{name.replace('_', '-')}", metavar=metavar, help=words)
        parser.add_argument(
            "--seed",
            type=int,
            help="accepted like every game's, and unused: the players shuffle their own decks "
            "(K3.4), so a Clustered record needs no seed",
        )

    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        options = {
            name: getattr(args, name)
            for name, _, _ in SETTING_OPTIONS
            if getattr(args, name, None) is not None
        }
        text, lines = new_game(
            players=args.players,
            colours=None if args.colours is None else args.colours.split(","),
            names=None if args.names is None else args.names.split(","),
            first=args.first,
            options=options,
        )
        return text, [*lines, "", f"Recorded in {args.record}."]

    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        return show(record, args.turn)

    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        return replay(record, args.turn)


COMMANDS = ClusteredCommands()
"""What the registration's ``cli`` names."""
