"""Cluster game records: the text of P6.7, and JSON with a shipped JSON Schema.

The JSON record holds the house rules, the start position, every token played (moves, swap,
resignation, agreed draw), the result and the end position. Loading checks the schema
(:class:`companion.records.RecordSchema`, the ``jsonschema`` library: only this module imports
it, so the rules stay standard library),
replays every token and compares the result and end position with what the record says, so
``record_json(load_record(text)) == text`` for every record this module wrote.
"""

from __future__ import annotations

import json
from typing import Any

from companion.cluster_peg.game import SPECIAL_TOKENS, Game
from companion.cluster_peg.moves import MoveError
from companion.cluster_peg.position import Position, PositionError, setup_name
from companion.cluster_peg.settings import HouseRules
from companion.errors import RecordError, StateError
from companion.records import RecordSchema

FORMAT = "cluster-companion/cluster-record"
VERSION = 1
GAME = "cluster"
SCHEMA_PACKAGE = "companion.cluster_peg.schemas"
SCHEMA_FILE = "cluster-record.schema.json"
MAX_RECORD_BYTES = 4 * 1024 * 1024
TOKENS_PER_LINE = 10


SCHEMA = RecordSchema(SCHEMA_PACKAGE, SCHEMA_FILE, "Cluster")


def schema() -> dict[str, Any]:
    """The record's JSON Schema, as shipped with the package."""
    return SCHEMA.schema()


def record_dict(game: Game, *, players: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as a record document (``players``: names by colour, and ``by_lot``)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "rules": game.rules.to_dict(),
        "setup": setup_name(game.start),
        "start": game.start.text(),
        "tokens": list(game.tokens),
        "result": None if game.result is None else game.result.to_dict(),
        "end": game.position.text(),
    }
    if players:
        data["players"] = dict(players)
    return data


def record_json(game: Game, *, players: dict[str, Any] | None = None) -> str:
    """Indented, keys sorted, final newline: the same game always gives the same bytes."""
    return json.dumps(record_dict(game, players=players), indent=1, sort_keys=True) + "\n"


def load_record(text: str | bytes) -> tuple[Game, dict[str, Any]]:
    """Parse, check and replay a record: the game and the record's ``players`` (or {})."""
    data = parse_record(text)
    return replay_record(data), dict(data.get("players") or {})


def parse_record(text: str | bytes) -> dict[str, Any]:
    """The record's JSON, checked against the schema (RecordError saying where if not)."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES // 2**20} MiB; refusing it")
    data: dict[str, Any] = SCHEMA.load(text)
    return data


def replay_record(data: dict[str, Any]) -> Game:
    """Replay a schema-checked record, checking its setup, result and end position."""
    try:
        start = Position.parse(data["start"])
    except PositionError as err:
        raise RecordError(f"the record's start position is refused: {err}") from None
    if data.get("setup") is not None and setup_name(start) != data["setup"]:
        raise RecordError(f"the record's start position is not the setup {data['setup']}")
    try:
        rules = HouseRules.from_dict(data["rules"])
        game = Game.replay(start, data["tokens"], rules)
    except (MoveError, StateError) as err:
        raise RecordError(f"the record does not replay: {err}") from None
    result = None if game.result is None else game.result.to_dict()
    if result != data["result"]:
        raise RecordError(
            f"the record says the result is {data['result']}; replaying gives {result}"
        )
    if game.position.text() != data["end"]:
        raise RecordError(
            f"the record's end position is {data['end']!r}; replaying gives "
            f"{game.position.text()!r}"
        )
    return game


def record_text(game: Game) -> str:
    """The game record of P6.7: the start position on the first line, then the tokens,
    ten to a line, in lower case."""
    lines = [game.start.text()]
    tokens = game.tokens
    for first in range(0, len(tokens), TOKENS_PER_LINE):
        lines.append(" ".join(tokens[first : first + TOKENS_PER_LINE]))
    return "\n".join(lines) + "\n"


def parse_record_text(text: str, rules: HouseRules | None = None) -> Game:
    """A game from the text of P6.7 (any case; tokens separated by spaces or line breaks);
    the first refused token stops it with its reason (RecordError)."""
    lines = text.strip().splitlines()
    if not lines:
        raise RecordError("an empty game record: its first line is the start position")
    try:
        start = Position.parse(lines[0])
    except PositionError as err:
        raise RecordError(f"line 1: {err}") from None
    tokens = " ".join(lines[1:]).split()
    try:
        return Game.replay(start, tokens, rules)
    except (MoveError, StateError) as err:
        raise RecordError(str(err)) from None


__all__ = [
    "FORMAT",
    "GAME",
    "SPECIAL_TOKENS",
    "load_record",
    "parse_record",
    "parse_record_text",
    "record_dict",
    "record_json",
    "record_text",
    "replay_record",
    "schema",
]
