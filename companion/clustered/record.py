"""Clustered game records: JSON that replays byte for byte.

The same conventions as the other games' records (``docs/state-format.md``): a ``format`` and
``version``, the ``game``, the settings (K7.1: stored with the game), the seats with their
colours, the first player, and every step with the digest of the position it led to. Loading
checks the shipped JSON Schema (``schemas/clustered-record.schema.json``) with the
``jsonschema`` library, then replays every step against its digest. The same game always gives
the same bytes: keys sorted, one-space indent, a final newline.

This module is the rules package's one edge: it reads the schema shipped with the package and
is the only one to import ``jsonschema``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import jsonschema

from companion.clustered.errors import NotationError, SettingsError
from companion.clustered.game import ClusteredGame, Player, Step, replay
from companion.clustered.settings import Settings
from companion.errors import RecordError, StateError

FORMAT = "cluster-companion/clustered-record"
VERSION = 1
GAME = "clustered"
SCHEMA_FILE = "clustered-record.schema.json"
MAX_RECORD_BYTES = 4 * 1024 * 1024


@functools.cache
def schema() -> dict[str, Any]:
    """The record's JSON Schema, as shipped with the package."""
    text = resources.files("companion.clustered.schemas").joinpath(SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    validator: jsonschema.protocols.Validator = cls(schema())
    return validator


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
    """RecordError naming the first place ``data`` breaks the schema (the shallowest, then in
    document order), or nothing."""
    errors = sorted(
        _validator().iter_errors(data),
        key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]),
    )
    if errors:
        error = errors[0]
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise RecordError(f"not a Clustered game record: at {where}: {error.message}")


def parse(text: str | bytes) -> dict[str, Any]:
    """The record's JSON, checked against the schema."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES // 2**20} MiB; refusing it")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"not JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    except UnicodeDecodeError as err:
        raise RecordError(f"not UTF-8 text: {err.reason} at byte {err.start}") from None
    check(data)
    assert isinstance(data, dict)
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
