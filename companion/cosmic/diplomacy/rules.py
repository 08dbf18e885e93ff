"""Shared atoms of the Diplomacy engine: units, rule editions and per-order outcomes."""

from __future__ import annotations

import dataclasses
import enum
from typing import NamedTuple

from companion.cosmic.diplomacy.geography import Power, RegionId, UnitType, region_province
from companion.cosmic.diplomacy.orders import Order


class Edition(enum.Enum):
    """Which rulebook settles the cases the editions disagree on (see docs/cosmic-cluster.md).

    - convoy to an adjacent province: in 2023 only when ordered ``via Convoy``; in 1982 and
      DPTG when a fleet of the army's own power convoys it on a possible route; in 1971
      whenever a route of convoying fleets exists (and over land when that convoy fails).
    - civil-disorder disbands: distance to the nearest *owned* supply centre (2023, DPTG) or to
      the nearest *home* supply centre (1971, 1982).
    """

    E1971 = "1971"
    E1982 = "1982"
    E2023 = "2023"
    DPTG = "dptg"

    __hash__ = object.__hash__


@dataclasses.dataclass(frozen=True)
class RuleSettings:
    """The rule choices of one game; the 2023 rulebook unless told otherwise."""

    edition: Edition = Edition.E2023


@dataclasses.dataclass(frozen=True)
class Unit:
    """A unit on the board."""

    power: Power
    unit_type: UnitType
    region: RegionId
    cargo: Power | None = None
    """For an Army/Fleet (Cosmic Cluster's A/F module): the power of the army aboard the fleet."""

    @property
    def province(self) -> str:
        return region_province(self.region)

    def text(self) -> str:
        if self.cargo is not None:
            owner = "" if self.cargo == self.power else f" ({self.cargo} army)"
            return f"{self.power}: A/F {self.region}{owner}"
        return f"{self.power}: {self.unit_type.value} {self.region}"

    def __str__(self) -> str:
        return self.text()


class OrderResult(NamedTuple):
    """What became of one order: ``succeeded`` and the reason in a player's words.

    ``void`` is true for orders that could not be carried out at all (they are read as holds).
    Immutable like the dataclasses here, but a named tuple: a phase makes one per unit, and a
    tuple is built several times faster than a frozen dataclass (see docs/benchmarks.md).
    """

    order: Order
    succeeded: bool
    reason: str
    void: bool = False

    def text(self) -> str:
        verdict = "succeeds" if self.succeeded else "fails"
        return f"{self.order.text()}: {verdict} ({self.reason})"
