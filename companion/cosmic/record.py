"""Cosmic Cluster game records: rules, seed, players, setup and every step, as JSON that replays.

The same conventions as Local Cluster's records (``docs/state-format.md``): a ``format`` and
``version``, the ``game``, the setup position, steps with their inputs as text, a result for
readers, and the digest of the position each step led to. Loading checks the schema
(``companion/cosmic/schemas/cosmic-cluster-record.schema.json``, with :mod:`companion.records`),
that the setup is the one the seed generates, then replays every step against its digest. This
is the only module of the game that checks a schema; the rules stay standard library only.
"""

from __future__ import annotations

import json
from typing import Any, Final

from companion.cosmic.game import CosmicGame, CosmicSettings, Step
from companion.errors import CompanionError, RecordError
from companion.records import MAX_RECORD_BYTES, RecordSchema

FORMAT = "cluster-companion/cosmic-cluster-record"
VERSION = 1
SCHEMA_FILE = "cosmic-cluster-record.schema.json"
SCHEMA: Final = RecordSchema("companion.cosmic.schemas", SCHEMA_FILE, "Cosmic Cluster")

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "SCHEMA",
    "SCHEMA_FILE",
    "VERSION",
    "load_record",
    "record_dict",
    "record_json",
    "schema",
]


def schema() -> dict[str, Any]:
    """The JSON Schema of a Cosmic Cluster record, as shipped with the package."""
    return SCHEMA.schema()


def record_dict(game: CosmicGame) -> dict[str, Any]:
    """The game as a record document."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "cosmic-cluster",
        "rules": game.settings.to_dict(),
        "seed": game.seed,
        "players": len(game.powers),
        "setup": game.initial.to_dict(game.cluster),
        "steps": [step.to_dict() for step in game.steps],
    }


def record_json(game: CosmicGame) -> str:
    """Indented, keys sorted, final newline: the same game always gives the same bytes."""
    return json.dumps(record_dict(game), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_record(text: str | bytes, *, until: int | None = None) -> CosmicGame:
    """Parse, check and replay a record (its first ``until`` steps) into a game."""
    data = SCHEMA.load(text)
    settings = CosmicSettings(**data["rules"])
    try:
        game = CosmicGame(data["seed"], data["players"], settings)
    except CompanionError as err:  # pragma: no cover - the schema bounds the player count
        raise RecordError(f"the record's game cannot be set up: {err}") from err
    if game.initial.to_dict(game.cluster) != data["setup"]:
        raise RecordError("the record's setup is not the one its seed and player count generate")
    for index, raw in enumerate(data["steps"][:until]):
        step = Step(raw["kind"], raw["season"], raw["inputs"], raw["result"], raw["digest"])
        try:
            game.apply(step)
        except CompanionError as err:
            raise RecordError(
                f"step {index + 1} ({step.kind} of {step.season}) does not replay: {err}"
            ) from err
    return game
