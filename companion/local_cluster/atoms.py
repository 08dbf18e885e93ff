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

    title: str
    """The colour as a player writes it: ``Red`` (set once below: plain attributes are much
    faster than properties on enum members, and the adjudicator reads them constantly)."""

    @classmethod
    def parse(cls, text: str) -> Colour:
        """The colour named by ``text`` in any case; ValueError naming the choices otherwise."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(c.title for c in cls)
            raise ValueError(f"{text.strip()!r} is not an empire colour (one of {names})") from None

    rank: int
    """Position in the rulebook's list; used to order empires deterministically."""


for _index, _colour in enumerate(Colour):
    _colour.title = _colour.value.capitalize()
    _colour.rank = _index


class UnitType(enum.Enum):
    """The three military units that take a sector's unit slot (strike craft do not)."""

    DESTROYER = "destroyer"
    BATTLESHIP = "battleship"
    CARRIER = "carrier"

    __hash__ = object.__hash__  # see Colour

    strength: int
    """Combat strength of the unit itself (a carrier adds its docked craft, R4.8)."""
    cost: int
    """Minerals to build one (R6.5)."""
    upkeep: int
    """Minerals subtracted from raw income each build phase (R6.2)."""
    noun: str
    """``destroyer``: the type as it reads in a sentence."""
    title: str

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
for _type in UnitType:
    _type.strength = _STRENGTH[_type]
    _type.cost = _COST[_type]
    _type.upkeep = _UPKEEP[_type]
    _type.noun = _type.value
    _type.title = _type.value.capitalize()

# The atoms by name, as python-chess names its squares: reading a module constant is an order
# of magnitude faster than an enum member read off its class, and the adjudicator reads them
# for every order.
RED, GREEN, BLUE, YELLOW, AQUA, PURPLE, PINK, WHITE = Colour
DESTROYER, BATTLESHIP, CARRIER = UnitType

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
