"""A game's settings: the players' colours in seat order and the house rules (G1.6, G1.10,
G3.13, G4.8, G7.4)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from companion.errors import StateError
from companion.globular.tiles import Colour

MIN_PLAYERS = 2
MAX_PLAYERS = 4


class Dice(enum.Enum):
    """House rule ``dice`` (G4.8): who rolls for a mine."""

    COMPANION = "companion"
    """The companion rolls with the game's seeded generator and shows the face (default)."""
    PHYSICAL = "physical"
    """The player rolls their own die and the face is entered (G8.3)."""


class StackKeeper(enum.Enum):
    """Who keeps the stack of tiles (G3.13)."""

    COMPANION = "companion"
    """The companion shuffles each group with the game's seeded generator and draws (default)."""
    PHYSICAL = "physical"
    """The tiles are drawn at the table and each drawn tile is entered (``draw``)."""


class TieBreak(enum.Enum):
    """House rule ``tiebreak`` (G7.4)."""

    NONE = "none"
    """Equal totals share the place (default)."""
    CRYSTALS = "crystals"
    """Among equal totals, more crystals held ranks higher; still equal: shared."""


@dataclasses.dataclass(frozen=True)
class Settings:
    colours: tuple[Colour, ...]
    """Seat 1's colour first (G1.10)."""
    dice: Dice = Dice.COMPANION
    stack: StackKeeper = StackKeeper.COMPANION
    tiebreak: TieBreak = TieBreak.NONE

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.colours) <= MAX_PLAYERS:
            raise StateError(
                f"Globular Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                f"not {len(self.colours)}"
            )
        if len(set(self.colours)) != len(self.colours):
            raise StateError("each player has a colour of their own (G1.6)")

    @property
    def players(self) -> int:
        return len(self.colours)

    def house_rules(self) -> dict[str, str]:
        return {"dice": self.dice.value, "stack": self.stack.value, "tiebreak": self.tiebreak.value}

    def to_dict(self) -> dict[str, Any]:
        return {"colours": [c.value for c in self.colours], **self.house_rules()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        try:
            return cls(
                tuple(Colour.parse(str(c)) for c in data["colours"]),
                Dice(data.get("dice", Dice.COMPANION.value)),
                StackKeeper(data.get("stack", StackKeeper.COMPANION.value)),
                TieBreak(data.get("tiebreak", TieBreak.NONE.value)),
            )
        except (KeyError, ValueError) as err:
            raise StateError(f"these are not Globular Cluster settings: {err}") from None
