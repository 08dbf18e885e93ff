"""Globular Cluster game records: settings, seed and every line of every turn, as JSON that
replays byte for byte (G8.6).

A record is written with sorted keys and one-space indents, so the same game always gives the
same bytes. Loading checks the JSON Schema shipped in ``companion/globular/schemas/`` (with
``companion.records``, over the ``jsonschema`` library: the rules stay standard library only),
then replays every line from the seed, checking the companion's draws and rolls, each turn's
seat, kind and position digest, and the result.
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import CompanionError, RecordError
from companion.globular import GAME
from companion.globular.game import GlobularGame, replay
from companion.globular.scoring import standings
from companion.globular.settings import Settings, TieBreak
from companion.records import RecordSchema

FORMAT = "cluster-companion/globular-cluster-record"
VERSION = 1
SCHEMA_FILE = "globular-cluster-record.schema.json"
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""A whole game is some 40 turns of a few lines: anything near this size is not a record."""


SCHEMA = RecordSchema("companion.globular.schemas", SCHEMA_FILE, "Globular Cluster")


def schema() -> dict[str, Any]:
    """The record's JSON Schema, as shipped with the package."""
    return SCHEMA.schema()


def result_dict(game: GlobularGame) -> dict[str, Any] | None:
    """The final standings (G7.4), or None while the game goes on."""
    state = game.state
    if not state.over:
        return None
    places = standings(state, crystals_break_ties=game.settings.tiebreak is TieBreak.CRYSTALS)
    return {
        "vp": {p.colour.value: p.vp for p in state.players},
        "standings": [
            {"place": place, "colours": [state.player(s).colour.value for s in seats]}
            for place, seats in places
        ],
    }


def record_dict(game: GlobularGame) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "seed": game.seed,
        "settings": game.settings.to_dict(),
        "turns": [
            {
                "number": turn.number,
                "seat": turn.seat,
                "kind": turn.kind.value,
                "lines": [line.text() for line in turn.lines],
                "digest": game.digest(turn),
                "ended": turn.ended,
            }
            for turn in game.turns
        ],
        "result": result_dict(game),
    }


def record_json(game: GlobularGame) -> str:
    """Indented, keys sorted, final newline: the same game always gives the same bytes."""
    return json.dumps(record_dict(game), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def parse_record(text: str | bytes) -> dict[str, Any]:
    """The record's JSON, checked against its schema; RecordError says what is wrong."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES // 2**20} MiB; refusing it")
    data: dict[str, Any] = SCHEMA.load(text)
    return data


def load_record(text: str | bytes, *, until: int | None = None) -> GlobularGame:
    """Parse, check and replay a record (its first ``until`` turns) into a game."""
    data = parse_record(text)
    try:
        settings = Settings.from_dict(data["settings"])
    except CompanionError as err:
        raise RecordError(f"the record's settings: {err}") from None
    turns = data["turns"][:until]
    try:
        game = replay(settings, data["seed"], [turn["lines"] for turn in turns])
    except CompanionError as err:
        raise RecordError(f"the record does not replay: {err}") from None
    for index, (raw, turn) in enumerate(zip(turns, game.turns, strict=False), start=1):
        got = (turn.number, turn.seat, turn.kind.value, turn.ended)
        said = (raw["number"], raw["seat"], raw["kind"], raw["ended"])
        if got != said:
            raise RecordError(
                f"turn {index}: the record says number, seat, kind, ended = {said}, the replay "
                f"gives {got}"
            )
        if raw["digest"] != game.digest(turn):
            raise RecordError(f"turn {index}: the position does not match the record's digest")
    if len(game.turns) != len(turns) and until is None:
        raise RecordError(
            f"the record has {len(turns)} turns but its lines lead to {len(game.turns)}"
        )
    if until is None and data["result"] != result_dict(game):
        raise RecordError("the record's result is not the one its lines lead to")
    return game
