"""What a unit may be ordered to do: the legal targets an order builder offers, and a random
legal order set (for benchmarks and property tests).

Only geography is checked here (a move to a bordering region, a support into a province the
supporter could move to, a convoy by a fleet at sea); whether the order *succeeds* is the
adjudicator's business.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from companion.cosmic.diplomacy.geography import Map, ProvinceId, RegionId, UnitType
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.rules import Unit


@dataclasses.dataclass(frozen=True)
class UnitOptions:
    """The order kinds open to one unit and their targets, sorted."""

    unit: Unit
    moves: tuple[RegionId, ...]
    support_holds: tuple[RegionId, ...]
    """Regions of the units this one may support to hold."""
    support_moves: tuple[tuple[RegionId, RegionId], ...]
    """(unit's region, destination region) pairs this one may support."""
    convoys: tuple[tuple[RegionId, RegionId], ...]
    """(army's region, destination province) pairs this fleet may convoy (next to it)."""

    @property
    def kinds(self) -> tuple[OrderKind, ...]:
        kinds = [OrderKind.HOLD]
        if self.moves:
            kinds.append(OrderKind.MOVE)
        if self.support_holds or self.support_moves:
            kinds.append(OrderKind.SUPPORT)
        if self.convoys:
            kinds.append(OrderKind.CONVOY)
        return tuple(kinds)


def move_targets(game_map: Map, unit: Unit) -> tuple[RegionId, ...]:
    """Regions the unit may move to by itself."""
    moves = game_map.army_moves if unit.unit_type is UnitType.ARMY else game_map.fleet_moves
    return tuple(sorted(moves[unit.region]))


def unit_options(game_map: Map, units: Sequence[Unit], unit: Unit) -> UnitOptions:
    """Everything the unit may be ordered to do in a movement phase."""
    reach = game_map.army_reach if unit.unit_type is UnitType.ARMY else game_map.fleet_reach
    can_reach: frozenset[ProvinceId] = reach[unit.region]
    holds = []
    supports = []
    for other in units:
        if other is unit or other.region == unit.region:
            continue
        if other.province in can_reach:
            holds.append(other.region)
        for target in move_targets(game_map, other):
            province = game_map.regions[target].province
            if province in can_reach and province != unit.province:
                supports.append((other.region, target))
    convoys = []
    if unit.unit_type is UnitType.FLEET and game_map.is_sea(unit.province):
        for other in units:
            if (
                other.unit_type is UnitType.ARMY
                and other.province in game_map.sea_neighbours[unit.province]
            ):
                for province in sorted(game_map.sea_neighbours[unit.province]):
                    if province != other.province and not game_map.is_sea(province):
                        convoys.append((other.region, province))
    return UnitOptions(
        unit,
        move_targets(game_map, unit),
        tuple(sorted(holds)),
        tuple(sorted(supports)),
        tuple(convoys),
    )


def random_orders(game_map: Map, units: Sequence[Unit], rng: random.Random) -> list[Order]:
    """One legal order per unit: about half move, a third support another unit's actual order
    (when it can reach), the rest hold; fleets at sea next to an army sometimes convoy it."""
    orders: dict[RegionId, Order] = {}
    supporters = []
    for unit in units:
        moves = move_targets(game_map, unit)
        roll = rng.random()
        if roll < 0.5 and moves:
            target = rng.choice(moves)
            orders[unit.region] = Order(
                unit.power, unit.unit_type, unit.region, OrderKind.MOVE, target=target
            )
        else:
            orders[unit.region] = Order(unit.power, unit.unit_type, unit.region, OrderKind.HOLD)
            if roll < 0.85:
                supporters.append(unit)
    for unit in supporters:
        reach = game_map.army_reach if unit.unit_type is UnitType.ARMY else game_map.fleet_reach
        can_reach = reach[unit.region]
        choices = []
        for other in units:
            if other is unit or orders[other.region].kind is OrderKind.SUPPORT:
                continue
            given = orders[other.region]
            if given.kind is OrderKind.MOVE:
                assert given.target is not None
                province = game_map.regions[given.target].province
                if province in can_reach and province != unit.province:
                    choices.append(_support(units, unit, other.region, given.target))
            elif other.province in can_reach:
                choices.append(_support(units, unit, other.region, None))
        if choices:
            orders[unit.region] = rng.choice(choices)
    return [orders[unit.region] for unit in units]


def _support(units: Sequence[Unit], unit: Unit, other: RegionId, target: RegionId | None) -> Order:
    other_type = next(u.unit_type for u in units if u.region == other)
    return Order(
        unit.power,
        unit.unit_type,
        unit.region,
        OrderKind.SUPPORT,
        target=target,
        other=other,
        other_type=other_type,
    )


def starting_units(game_map: Map) -> list[Unit]:
    """The standard map's 22 starting units (1901), in power order."""
    placement = {
        "AUS": ["A vie", "A bud", "F tri"],
        "ENG": ["F lon", "F edi", "A lvp"],
        "FRA": ["F bre", "A par", "A mar"],
        "GER": ["F kie", "A ber", "A mun"],
        "ITA": ["F nap", "A rom", "A ven"],
        "RUS": ["A war", "A mos", "F sev", "F stp(sc)"],
        "TUR": ["F ank", "A con", "A smy"],
    }
    units = []
    for power, places in placement.items():
        for place in places:
            kind, region = place.split()
            units.append(Unit(power, UnitType(kind), region))
    missing = [u.region for u in units if u.region not in game_map.regions]
    if missing:
        raise ValueError(f"not the standard map: no {', '.join(missing)}")
    return units
