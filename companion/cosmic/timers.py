"""Cosmic Cluster's phase timers: the house rules a Cosmic Cluster table takes."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.errors import StateError

LEGACY_KEYS = frozenset({"support_range", "advance_claims_empty", "turn_limit"})
"""Keys that tables stored before Cosmic Cluster had timers of its own carry; ignored."""


@dataclasses.dataclass(frozen=True)
class Timers:
    """How long each phase lasts at the table, in seconds."""

    discussion_seconds: int = 240
    command_seconds: int = 180
    build_seconds: int = 120
    retreat_seconds: int = 60

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, int) or not 1 <= value <= 24 * 3600:
                raise StateError(f"{field.name} must be between 1 second and a day, not {value}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Timers:
        """Timers from a mapping; missing keys take their defaults, unknown keys are refused."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known - LEGACY_KEYS)
        if unknown:
            raise StateError(f"unknown house rule(s) for Cosmic Cluster: {', '.join(unknown)}")
        return cls(**{k: v for k, v in data.items() if k in known})
