"""Clustered game records: JSON that replays byte for byte.

The same conventions as the other games' records (``docs/state-format.md``): a ``format`` and
``version``, the ``game``, the settings (K7.1: stored with the game), the seats with their
colours, the first player, and every step with the digest of the position it led to. Loading
checks the shipped JSON Schema (``schemas/clustered-record.schema.json``) with the
``jsonschema`` library, then replays every step against its digest. The same game always gives
the same bytes: keys sorted, one-space indent, a final newline.

This module is the rules package's one edge: it reads the schema shipped with the package
(through :mod:`companion.records`, which alone imports ``jsonschema``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.clustered.errors import NotationError, SettingsError
from companion.clustered.game import ClusteredGame, Player, Step, replay
from companion.clustered.settings import Settings
from companion.errors import RecordError, StateError
from companion.records import RecordSchema

FORMAT = "cluster-companion/clustered-record"
VERSION = 1
GAME = "clustered"
SCHEMA = RecordSchema("companion.clustered.schemas", "clustered-record.schema.json", "Clustered")
"""The record's JSON Schema (``schemas/clustered-record.schema.json``), checked by
``companion.records`` with the ``jsonschema`` library."""


def schema() -> dict[str, Any]:
    """The record's JSON Schema, as shipped with the package."""
    return SCHEMA.schema()


def record_dict(game: ClusteredGame) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "settings": game.settings.to_dict(),
        "players": [p.to_dict() for p in game.players],
        "first_seat": game.first_seat,
        "steps": [step.to_dict() for step in game.steps],
    }


def record_json(game: ClusteredGame) -> str:
    """Keys sorted, one-space indent, final newline: the same game gives the same bytes."""
    return json.dumps(record_dict(game), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def check(data: Any) -> None:
    """RecordError saying where ``data`` breaks the schema, or nothing."""
    SCHEMA.check(data)


def parse(text: str | bytes) -> dict[str, Any]:
    """The record's JSON, checked against the schema."""
    data: dict[str, Any] = SCHEMA.load(text)
    return data


def game_from(data: Mapping[str, Any], *, until: int | None = None) -> ClusteredGame:
    """Replay a checked record's data (its first ``until`` steps)."""
    try:
        settings = Settings.from_dict(data["settings"])
        players = [Player(p["colour"], p["name"]) for p in data["players"]]
        steps = [Step.from_dict(s) for s in data["steps"]][:until]
        return replay(players, steps, settings=settings, first_seat=data["first_seat"])
    except (SettingsError, NotationError, StateError) as err:
        raise RecordError(f"the record does not replay: {err}") from err


def load(text: str | bytes, *, until: int | None = None) -> ClusteredGame:
    """Parse, check and replay a record."""
    return game_from(parse(text), until=until)
