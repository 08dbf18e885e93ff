"""The house rules of Cluster (P5.7, P5.8, P5.11), one frozen value with the rulings' defaults."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.errors import StateError

MAX_TURN_LIMIT = 10_000
MAX_REPETITION = 100


@dataclasses.dataclass(frozen=True)
class HouseRules:
    """The settings a table chooses; stored with every record (P6.7)."""

    repetition: int = 3
    """P5.7: the game is drawn when a position occurs this many times (0: off)."""
    turn_limit: int = 200
    """P5.8: the game is drawn when this many moves have been played in all (0: none)."""
    swap: bool = False
    """P5.11: after Red's first move, Blue may take over Red's pegs and that move."""

    def __post_init__(self) -> None:
        if not isinstance(self.repetition, int) or isinstance(self.repetition, bool):
            raise StateError(f"repetition is a whole number, not {self.repetition!r}")
        if self.repetition != 0 and not 2 <= self.repetition <= MAX_REPETITION:
            raise StateError(
                f"repetition is 0 (off) or 2 to {MAX_REPETITION} occurrences, not {self.repetition}"
            )
        if not isinstance(self.turn_limit, int) or isinstance(self.turn_limit, bool):
            raise StateError(f"the turn limit is a whole number, not {self.turn_limit!r}")
        if not 0 <= self.turn_limit <= MAX_TURN_LIMIT:
            raise StateError(
                f"the turn limit is 0 (none) to {MAX_TURN_LIMIT} moves, not {self.turn_limit}"
            )
        if not isinstance(self.swap, bool):
            raise StateError(f"swap is true or false, not {self.swap!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"repetition": self.repetition, "turn_limit": self.turn_limit, "swap": self.swap}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        unknown = sorted(set(data) - {"repetition", "turn_limit", "swap"})
        if unknown:
            raise StateError(f"Cluster has no house rule {unknown[0]!r}")
        return cls(**dict(data))

    def describe(self) -> str:
        """The rules in words, for a table's summary."""
        repetition = (
            f"a draw when a position occurs {self.repetition} times"
            if self.repetition
            else "no draw by repetition"
        )
        limit = f"a draw after {self.turn_limit} moves" if self.turn_limit else "no move limit"
        swap = "swap allowed after Red's first move" if self.swap else "no swap"
        return f"{repetition}; {limit}; {swap}"
