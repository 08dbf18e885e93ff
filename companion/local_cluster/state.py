"""The position: who owns which sectors, where every unit and strike craft stands.

A :class:`State` is a frozen value. Every step of the game (a turn's adjudication, retreat
choices, a build phase, a host's correction) returns a new one, so the same record always
replays to the same state (R2.3).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from companion.errors import StateError
from companion.local_cluster.atoms import (
    CARRIER,
    CARRIER_CAPACITY,
    Colour,
    SectorId,
    UnitId,
    UnitType,
)
from companion.local_cluster.galaxy import Galaxy
from companion.local_cluster.settings import HouseRules


class Phase(enum.Enum):
    """What the game waits for next."""

    ORDERS = "orders"
    """Every empire's orders for the current turn."""
    RETREATS = "retreats"
    """Retreat choices owed after the turn's combats (R5.3)."""
    BUILD = "build"
    """Build plans, after every second turn (R6)."""
    OVER = "over"
    """Somebody won (R7.1) or the turn limit was reached (R7.3)."""


ORDERS, RETREATS, BUILD, OVER = Phase
"""The phases by name (fast to read; see atoms.DESTROYER)."""


@dataclasses.dataclass(frozen=True)
class Unit:
    """A destroyer, battleship or carrier. ``docked`` counts a carrier's craft aboard."""

    id: UnitId
    owner: Colour
    kind: UnitType
    sector: SectorId
    docked: int = 0

    def __post_init__(self) -> None:
        if self.kind is not CARRIER and self.docked:
            raise StateError(f"only a carrier carries strike craft, not a {self.kind.value}")
        if not 0 <= self.docked <= CARRIER_CAPACITY:
            raise StateError(f"a carrier holds 0 to {CARRIER_CAPACITY} craft, not {self.docked}")

    @property
    def strength(self) -> int:
        """Combat strength: the unit's own, plus docked craft for a carrier (R4.8)."""
        return self.kind.strength + self.docked

    def describe(self) -> str:
        """``Red battleship in S4``."""
        return f"{self.owner.title} {self.kind.noun} in {self.sector}"


@dataclasses.dataclass(frozen=True)
class Craft:
    """One deployed strike craft: the carrier it belongs to (R4.4) and where it is."""

    carrier: UnitId
    owner: Colour
    sector: SectorId


@dataclasses.dataclass(frozen=True)
class Empire:
    """A player's empire: its colour, the seat playing it, and its build-phase flags."""

    colour: Colour
    seat: int
    home: SectorId
    stockpiled: bool = False
    """It stockpiled at its last build phase, so its next raw income doubles (R6.3)."""
    eliminated: bool = False
    """No units and no claims (R7.2): its seat now only watches."""


@dataclasses.dataclass(frozen=True)
class RetreatOwed:
    """A unit that lost a combat and must leave ``sector`` (R5.3)."""

    unit: UnitId
    owner: Colour
    kind: UnitType
    docked: int
    sector: SectorId
    attacker_from: SectorId
    options: tuple[SectorId, ...]
    """Sectors it may retreat to, lowest number first; empty means it is destroyed."""

    def describe(self) -> str:
        return f"{self.owner.title} {self.kind.noun} from {self.sector}"

    @property
    def default(self) -> SectorId | None:
        """Where it goes when its owner does not choose in time: the lowest number (R5.3)."""
        return self.options[0] if self.options else None


def _unit_id(unit: Unit) -> UnitId:
    return unit.id


def _sort_claims(
    galaxy: Galaxy, claims: Mapping[SectorId, Colour]
) -> tuple[tuple[SectorId, Colour], ...]:
    """Claims in sector order; a claim on an unknown sector goes last (check() refuses it)."""
    ordered = tuple((s, claims[s]) for s in galaxy.ids if s in claims)
    if len(ordered) != len(claims):
        known = set(galaxy.ids)
        ordered += tuple(sorted((s, c) for s, c in claims.items() if s not in known))
    return ordered


def _sort_craft(galaxy: Galaxy, craft: Iterable[Craft]) -> tuple[Craft, ...]:
    order = galaxy.order
    return tuple(sorted(craft, key=lambda c: (c.carrier, order.get(c.sector, -1), c.sector)))


@dataclasses.dataclass(frozen=True)
class State:
    """A whole position. Make changed copies with :meth:`replace`, which keeps it canonical."""

    galaxy: Galaxy
    rules: HouseRules
    turn: int
    """The turn being played (1 first); in BUILD or RETREATS, the turn that just resolved."""
    phase: Phase
    empires: tuple[Empire, ...]
    units: tuple[Unit, ...]
    craft: tuple[Craft, ...]
    claims: tuple[tuple[SectorId, Colour], ...]
    next_unit_id: UnitId
    retreats: tuple[RetreatOwed, ...] = ()
    winner: Colour | None = None
    ranking: tuple[Colour, ...] = ()
    """Set when the game is over: best first (R7.1 winner first, or R7.3 ranking)."""

    @classmethod
    def create(
        cls,
        *,
        galaxy: Galaxy,
        rules: HouseRules,
        empires: Iterable[Empire],
        units: Iterable[Unit],
        craft: Iterable[Craft] = (),
        claims: Mapping[SectorId, Colour] | tuple[tuple[SectorId, Colour], ...],
        turn: int = 1,
        phase: Phase = Phase.ORDERS,
        next_unit_id: UnitId | None = None,
        retreats: Iterable[RetreatOwed] = (),
        winner: Colour | None = None,
        ranking: Iterable[Colour] = (),
        check: bool = True,
    ) -> State:
        """A state in canonical order, checked for the invariants every position keeps.

        The engine's own steps pass ``check=False`` (their results are checked by the property
        tests); anything built from outside data is checked.
        """
        # The engine's own steps (check=False) hand over tuples already in canonical order;
        # everything else is sorted here.
        trusted = not check
        unit_tuple = (
            units if trusted and isinstance(units, tuple) else tuple(sorted(units, key=_unit_id))
        )
        state = cls(
            galaxy=galaxy,
            rules=rules,
            turn=turn,
            phase=phase,
            empires=(
                empires
                if trusted and isinstance(empires, tuple)
                else tuple(sorted(empires, key=lambda e: e.seat))
            ),
            units=unit_tuple,
            craft=craft if trusted and isinstance(craft, tuple) else _sort_craft(galaxy, craft),
            claims=(
                claims
                if trusted and isinstance(claims, tuple)
                else _sort_claims(galaxy, dict(claims))
            ),
            next_unit_id=(
                next_unit_id
                if next_unit_id is not None
                else max((u.id for u in unit_tuple), default=0) + 1
            ),
            retreats=tuple(retreats),
            winner=winner,
            ranking=tuple(ranking),
        )
        if check:
            state.check()
        return state

    def replace(self, *, check: bool = True, **changes: Any) -> State:
        """A copy with some fields changed, re-canonicalised and (unless told not to) checked."""
        if not check:
            return self._trusted(changes)
        fields: dict[str, Any] = {
            "galaxy": self.galaxy,
            "rules": self.rules,
            "turn": self.turn,
            "phase": self.phase,
            "empires": self.empires,
            "units": self.units,
            "craft": self.craft,
            "claims": self.claims,
            "next_unit_id": self.next_unit_id,
            "retreats": self.retreats,
            "winner": self.winner,
            "ranking": self.ranking,
        }
        fields.update(changes)
        return State.create(**fields, check=check)

    def _trusted(self, changes: dict[str, Any]) -> State:
        """:meth:`replace` for the engine's own steps: what :meth:`create` does with
        ``check=False``, without its keyword round trip (a turn makes several states)."""
        values = {name: getattr(self, name) for name in _FIELDS}
        values.update(changes)
        galaxy = values["galaxy"]
        if type(values["units"]) is not tuple:
            values["units"] = tuple(sorted(values["units"], key=_unit_id))
        if type(values["empires"]) is not tuple:
            values["empires"] = tuple(sorted(values["empires"], key=lambda e: e.seat))
        if type(values["craft"]) is not tuple:
            values["craft"] = _sort_craft(galaxy, values["craft"])
        if type(values["claims"]) is not tuple:
            values["claims"] = _sort_claims(galaxy, dict(values["claims"]))
        if values["next_unit_id"] is None:
            values["next_unit_id"] = max((u.id for u in values["units"]), default=0) + 1
        if type(values["retreats"]) is not tuple:
            values["retreats"] = tuple(values["retreats"])
        if type(values["ranking"]) is not tuple:
            values["ranking"] = tuple(values["ranking"])
        state = object.__new__(State)
        state.__dict__.update(values)  # a frozen dataclass: fields are set once, here
        return state

    def check(self) -> None:
        """Raise StateError if the position breaks an invariant of the rules."""
        sectors = set(self.galaxy.ids)
        colours = [e.colour for e in self.empires]
        if len(set(colours)) != len(colours):
            raise StateError("two empires have the same colour")
        if not 1 <= len(self.empires) <= 8:
            raise StateError(f"a game has 1 to 8 empires, not {len(self.empires)}")
        known = set(colours)
        occupied: dict[SectorId, Unit] = {}
        for unit in self.units:
            if unit.sector not in sectors:
                raise StateError(f"unit {unit.id} stands in {unit.sector}, not a sector here")
            if unit.owner not in known:
                raise StateError(f"unit {unit.id} belongs to {unit.owner.title}, not in the game")
            if unit.sector in occupied:
                raise StateError(
                    f"{unit.describe()} and {occupied[unit.sector].describe()} share a sector; "
                    "a sector holds at most one unit (R4.1)"
                )
            occupied[unit.sector] = unit
            if unit.id >= self.next_unit_id:
                raise StateError(f"unit {unit.id} has an id at or past next_unit_id")
        carriers = {u.id: u for u in self.units if u.kind is CARRIER}
        for retreat in self.retreats:
            if retreat.unit in self.unit_by_id:
                raise StateError(f"unit {retreat.unit} is both on the board and retreating")
            if retreat.kind is CARRIER:
                carriers[retreat.unit] = Unit(
                    retreat.unit, retreat.owner, retreat.kind, retreat.sector, retreat.docked
                )
        owned: dict[UnitId, int] = {cid: c.docked for cid, c in carriers.items()}
        for craft in self.craft:
            if craft.sector not in sectors:
                raise StateError(f"a strike craft is in {craft.sector}, not a sector here")
            carrier = carriers.get(craft.carrier)
            if carrier is None or carrier.owner is not craft.owner:
                raise StateError(
                    f"a {craft.owner.title} strike craft in {craft.sector} belongs to no "
                    f"{craft.owner.title} carrier"
                )
            owned[craft.carrier] += 1
        for cid, count in owned.items():
            if count > CARRIER_CAPACITY:
                raise StateError(
                    f"{carriers[cid].describe()} owns {count} strike craft; at most "
                    f"{CARRIER_CAPACITY} (R4.4)"
                )
        for sector, colour in self.claims:
            if sector not in sectors:
                raise StateError(f"a claim names {sector}, not a sector here")
            if colour not in known:
                raise StateError(f"{sector} is claimed by {colour.title}, not in the game")
        if len(dict(self.claims)) != len(self.claims):
            raise StateError("a sector is claimed twice")

    # Look-ups -------------------------------------------------------------------------------

    @cached_property
    def unit_at(self) -> Mapping[SectorId, Unit]:
        return {u.sector: u for u in self.units}

    @cached_property
    def unit_by_id(self) -> Mapping[UnitId, Unit]:
        return {u.id: u for u in self.units}

    @cached_property
    def claim_map(self) -> Mapping[SectorId, Colour]:
        return dict(self.claims)

    @cached_property
    def empire_map(self) -> Mapping[Colour, Empire]:
        return {e.colour: e for e in self.empires}

    def empire(self, colour: Colour) -> Empire:
        try:
            return self.empire_map[colour]
        except KeyError:
            raise StateError(f"{colour.title} is not playing in this game") from None

    @property
    def active_colours(self) -> tuple[Colour, ...]:
        """Empires still in the game, in seat order."""
        return tuple(e.colour for e in self.empires if not e.eliminated)

    def units_of(self, colour: Colour) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.owner is colour)

    def craft_of(self, carrier: UnitId) -> tuple[Craft, ...]:
        """The deployed craft of one carrier."""
        return tuple(c for c in self.craft if c.carrier == carrier)

    def craft_owned(self, carrier: UnitId) -> int:
        """Docked plus deployed craft of a carrier (R4.4)."""
        unit = self.unit_by_id[carrier]
        return unit.docked + sum(1 for c in self.craft if c.carrier == carrier)

    def sectors_of(self, colour: Colour) -> tuple[SectorId, ...]:
        return tuple(s for s, c in self.claims if c is colour)

    # Serialisation --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data in canonical order (see docs/state-format.md)."""
        return {
            "turn": self.turn,
            "phase": self.phase.value,
            "rules": self.rules.to_dict(),
            "galaxy": self.galaxy.to_dict(),
            "empires": [
                {
                    "colour": e.colour.value,
                    "seat": e.seat,
                    "home": e.home,
                    "stockpiled": e.stockpiled,
                    "eliminated": e.eliminated,
                }
                for e in self.empires
            ],
            "units": [
                {
                    "id": u.id,
                    "owner": u.owner.value,
                    "type": u.kind.value,
                    "sector": u.sector,
                    "docked": u.docked,
                }
                for u in self.units
            ],
            "craft": [
                {"carrier": c.carrier, "owner": c.owner.value, "sector": c.sector}
                for c in self.craft
            ],
            "claims": {sector: colour.value for sector, colour in self.claims},
            "next_unit_id": self.next_unit_id,
            "retreats": [
                {
                    "unit": r.unit,
                    "owner": r.owner.value,
                    "type": r.kind.value,
                    "docked": r.docked,
                    "sector": r.sector,
                    "attacker_from": r.attacker_from,
                    "options": list(r.options),
                }
                for r in self.retreats
            ],
            "winner": None if self.winner is None else self.winner.value,
            "ranking": [c.value for c in self.ranking],
        }

    def to_json(self) -> str:
        """Canonical JSON: the same state always gives the same bytes."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        return cls.create(
            galaxy=Galaxy.from_dict(data["galaxy"]),
            rules=HouseRules.from_dict(data["rules"]),
            turn=data["turn"],
            phase=Phase(data["phase"]),
            empires=[
                Empire(Colour(e["colour"]), e["seat"], e["home"], e["stockpiled"], e["eliminated"])
                for e in data["empires"]
            ],
            units=[
                Unit(u["id"], Colour(u["owner"]), UnitType(u["type"]), u["sector"], u["docked"])
                for u in data["units"]
            ],
            craft=[Craft(c["carrier"], Colour(c["owner"]), c["sector"]) for c in data["craft"]],
            claims={s: Colour(c) for s, c in data["claims"].items()},
            next_unit_id=data["next_unit_id"],
            retreats=[
                RetreatOwed(
                    r["unit"],
                    Colour(r["owner"]),
                    UnitType(r["type"]),
                    r["docked"],
                    r["sector"],
                    r["attacker_from"],
                    tuple(r["options"]),
                )
                for r in data["retreats"]
            ],
            winner=None if data["winner"] is None else Colour(data["winner"]),
            ranking=[Colour(c) for c in data["ranking"]],
        )


_FIELDS = tuple(field.name for field in dataclasses.fields(State))
"""State's fields, in order (what :meth:`State.replace` copies)."""
