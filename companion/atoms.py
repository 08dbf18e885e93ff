"""The named atoms of Local Cluster: sector ids, empire colours and unit types."""

from __future__ import annotations

import enum
import re
from typing import TypeAlias

SectorId: TypeAlias = str
"""A sector's short id, as printed on its tile marker (``"S12"``); unique ignoring case."""

UnitId: TypeAlias = int
"""A unit's number, given when it is placed and never reused within a game."""


class Colour(enum.Enum):
    """The eight empire colours of rulebook 2.3, in the rulebook's order."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"
    AQUA = "aqua"
    PURPLE = "purple"
    PINK = "pink"
    WHITE = "white"

    # Members are singletons, so identity hashing is exact; Enum's default hashes the name
    # in Python code, which showed up in adjudication profiles (colours key many dicts).
    __hash__ = object.__hash__

    @property
    def title(self) -> str:
        """The colour as a player writes it: ``Red``."""
        return self.value.capitalize()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """The colour named by ``text`` in any case; ValueError naming the choices otherwise."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(c.title for c in cls)
            raise ValueError(f"{text.strip()!r} is not an empire colour (one of {names})") from None

    @property
    def rank(self) -> int:
        """Position in the rulebook's list; used to order empires deterministically."""
        return _COLOUR_RANK[self]


_COLOUR_RANK = {colour: index for index, colour in enumerate(Colour)}


class UnitType(enum.Enum):
    """The three military units that take a sector's unit slot (strike craft do not)."""

    DESTROYER = "destroyer"
    BATTLESHIP = "battleship"
    CARRIER = "carrier"

    __hash__ = object.__hash__  # see Colour

    @property
    def strength(self) -> int:
        """Combat strength of the unit itself (a carrier adds its docked craft, R4.8)."""
        return _STRENGTH[self]

    @property
    def cost(self) -> int:
        """Minerals to build one (R6.5)."""
        return _COST[self]

    @property
    def upkeep(self) -> int:
        """Minerals subtracted from raw income each build phase (R6.2)."""
        return _UPKEEP[self]

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @classmethod
    def parse(cls, text: str) -> UnitType:
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(t.value for t in cls)
            raise ValueError(f"{text.strip()!r} is not a unit type (one of {names})") from None


_STRENGTH = {UnitType.DESTROYER: 2, UnitType.BATTLESHIP: 3, UnitType.CARRIER: 1}
_COST = {UnitType.DESTROYER: 4, UnitType.BATTLESHIP: 8, UnitType.CARRIER: 16}
_UPKEEP = {UnitType.DESTROYER: 1, UnitType.BATTLESHIP: 2, UnitType.CARRIER: 3}

CRAFT_STRENGTH = 1
CARRIER_CAPACITY = 3
REPLENISH_COST = 4
HOME_MINERALS = 2
MINERAL_DIE = (1, 2, 2, 3, 3, 4)
"""Faces of the custom mineral die (rulebook 2.2, ruling R2.2)."""

_DIGITS = re.compile(r"(\d+)")


def sector_sort_key(sector: SectorId) -> tuple[tuple[int, str | int], ...]:
    """Natural order of sector ids: S2 before S10; "the lowest sector number" of R5.3."""
    parts = _DIGITS.split(sector.casefold())
    return tuple((1, int(p)) if p.isdigit() else (0, p) for p in parts if p != "")
