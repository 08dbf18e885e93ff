"""Game records: a game's settings, seed, setup and every step, as JSON that replays exactly.

The format is documented in ``docs/state-format.md`` and described by the JSON Schema shipped
as ``companion/local_cluster/schemas/local-cluster-record.schema.json``. Loading checks the
schema first (with :mod:`companion.records`, saying where a document goes wrong), then replays
every step and checks each one lands on the position the record says it did. This is the only
module of the game that checks a schema; the rules it replays stay standard library only.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

from companion.errors import CompanionError, RecordError
from companion.local_cluster.game import Game, Step
from companion.local_cluster.settings import HouseRules
from companion.local_cluster.state import State
from companion.records import MAX_RECORD_BYTES, RecordSchema, parse_json

FORMAT = "cluster-companion/local-cluster-record"
VERSION = 1
SCHEMA_FILE = "local-cluster-record.schema.json"
SCHEMA: Final = RecordSchema("companion.local_cluster.schemas", SCHEMA_FILE, "Local Cluster")

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "SCHEMA",
    "SCHEMA_FILE",
    "VERSION",
    "GameRecord",
    "schema",
]


def schema() -> dict[str, Any]:
    """The JSON Schema of a game record, as shipped with the package."""
    return SCHEMA.schema()


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A whole game as data: load with :meth:`from_json`, write with :meth:`to_json`."""

    rules: HouseRules
    seed: int | None
    setup: State
    steps: tuple[Step, ...]

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        return cls(game.initial.rules, game.seed, game.initial, tuple(game.steps))

    def to_dict(self) -> dict[str, Any]:
        setup = self.setup.to_dict()
        del setup["rules"]
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": "local-cluster",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "setup": setup,
            "steps": [step.to_dict() for step in self.steps],
        }

    def to_json(self) -> str:
        """Readable JSON (indented, keys sorted): the same record always gives the same text."""
        return json.dumps(self.to_dict(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"

    def replay(self, *, until: int | None = None) -> Game:
        """A game with every step (or the first ``until``) applied, each checked on the way."""
        game = Game(self.setup, seed=self.seed)
        for index, step in enumerate(self.steps[:until]):
            try:
                game.apply(step)
            except CompanionError as err:
                raise RecordError(
                    f"step {index + 1} ({step.kind} of turn {step.turn}) does not replay: {err}"
                ) from err
        return game

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Check ``data`` against the schema, then build the record (without replaying)."""
        SCHEMA.check(data)
        try:
            rules = HouseRules.from_dict(data["rules"])
            setup = State.from_dict({**data["setup"], "rules": data["rules"]})
        except CompanionError as err:
            raise RecordError(f"the record's setup is not a playable position: {err}") from err
        if setup.rules != rules:  # pragma: no cover - the same data built both
            raise RecordError("the record's rules and setup disagree")
        steps = tuple(
            Step(s["kind"], s["turn"], s["inputs"], s["result"], s["digest"]) for s in data["steps"]
        )
        return cls(rules, data["seed"], setup, steps)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Parse, check and build a record; RecordError says where it goes wrong."""
        return cls.from_dict(parse_json(text))

    @classmethod
    def load(cls, text: str | bytes) -> Game:
        """Parse, check and replay a record into a game ready to go on."""
        return cls.from_json(text).replay()
