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

from collections.abc import Mapping, Sequence
from typing import Any

from companion.clustered import record as records
from companion.clustered.errors import DeclarationError, IllegalPlacementError
from companion.clustered.game import ClusteredGame, Player, TurnResult
from companion.clustered.moves import Declaration, Placement
from companion.clustered.scoring import BONUS_WORDS, ScoreSheet
from companion.clustered.settings import Settings
from companion.clustered.text_view import describe, who
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


def show(record: str | bytes, until: int | None = None) -> list[str]:
    game = records.load(record, until=until)
    return describe(game)


def replay(record: str | bytes) -> list[str]:
    game = records.load(record)
    count = len(game.steps)
    return [
        f"replayed {count} step{'s' * (count != 1)}; position matches the record",
        "",
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
