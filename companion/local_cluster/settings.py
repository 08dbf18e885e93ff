"""House rules: the settings a table may change, with the defaults of the rulings."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from companion.errors import StateError


class SupportRange(enum.Enum):
    """How far a SUPPORT may reach (ruling R3.4)."""

    ADJACENT = "adjacent"
    ANY = "any"


@dataclasses.dataclass(frozen=True)
class HouseRules:
    """Every house rule of the rulings, defaulting to the value the rulings give.

    The timing rules (R8) are used by the table service, not by the rules core.
    """

    support_range: SupportRange = SupportRange.ADJACENT
    """R3.4: SUPPORT targets must be adjacent (default) or may be anywhere."""
    advance_claims_empty: bool = True
    """R4.6: an uncontested ADVANCE into an empty sector claims it."""
    turn_limit: int | None = None
    """R7.3: end the game after this many turns, ranking by sectors then minerals."""
    discussion_seconds: int = 240
    """R8.1: length of the discussion phase."""
    command_seconds: int = 180
    """R8.1: length of the command phase."""
    build_seconds: int = 120
    """R8.1: length of the build phase."""
    retreat_seconds: int = 60
    """R8.1: time to choose retreats."""

    def __post_init__(self) -> None:
        if self.turn_limit is not None and self.turn_limit < 1:
            raise StateError(f"turn_limit must be at least 1 turn, not {self.turn_limit}")
        for name in ("discussion_seconds", "command_seconds", "build_seconds", "retreat_seconds"):
            value = getattr(self, name)
            if not 1 <= value <= 24 * 3600:
                raise StateError(f"{name} must be between 1 second and a day, not {value}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "support_range": self.support_range.value,
            "advance_claims_empty": self.advance_claims_empty,
            "turn_limit": self.turn_limit,
            "discussion_seconds": self.discussion_seconds,
            "command_seconds": self.command_seconds,
            "build_seconds": self.build_seconds,
            "retreat_seconds": self.retreat_seconds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """Settings from a mapping; missing keys take their defaults, unknown keys are refused."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise StateError(f"unknown house rule(s): {', '.join(unknown)}")
        values = dict(data)
        if "support_range" in values:
            try:
                values["support_range"] = SupportRange(values["support_range"])
            except ValueError:
                raise StateError(
                    f"support_range must be 'adjacent' or 'any', not {values['support_range']!r}"
                ) from None
        return cls(**values)
