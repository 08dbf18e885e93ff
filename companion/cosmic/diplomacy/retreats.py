"""Retreat phase: where each dislodged unit may go, and what becomes of the retreat orders.

A dislodged unit may retreat to a region it could move to by itself (never by convoy) that is
empty after movement, was not left empty by a standoff, and is not the province its attacker
came from (unless that attacker was convoyed). Two or more retreats to one province all fail
and those units are disbanded; a unit without a valid retreat order is disbanded. A box (Cosmic
Cluster) always takes any number of retreating units.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from companion.cosmic.diplomacy.geography import Map, RegionId, region_province
from companion.cosmic.diplomacy.movement import Dislodgement, MovementResult
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.rules import OrderResult, Unit


@dataclasses.dataclass(frozen=True)
class RetreatResult:
    """Every retreat order's outcome, the units that retreated and the ones disbanded."""

    results: tuple[OrderResult, ...]
    retreated: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]
    units: tuple[Unit, ...]


def retreat_options(
    game_map: Map, movement: MovementResult, dislodgement: Dislodgement
) -> tuple[RegionId, ...]:
    """The regions this dislodged unit may retreat to, sorted."""
    unit = dislodgement.unit
    occupied = {u.province for u in movement.units}
    moves = game_map.army_moves if unit.unit_type.value == "A" else game_map.fleet_moves
    options = []
    for region in moves[unit.region]:
        province = region_province(region)
        if game_map.provinces[province].box:
            options.append(region)
            continue
        if (
            province in occupied
            or province in movement.contested
            or province == dislodgement.attacker_from
        ):
            continue
        options.append(region)
    return tuple(sorted(options))


def adjudicate_retreats(
    game_map: Map, movement: MovementResult, orders: Iterable[Order]
) -> RetreatResult:
    """Carry out the retreat orders; dislodged units without a valid one are disbanded."""
    by_region = {d.unit.region: d for d in movement.dislodged}
    chosen: dict[RegionId, tuple[Order, RegionId | None]] = {}
    results: list[OrderResult] = []
    for order in orders:
        dislodged = by_region.get(order.region)
        if dislodged is None:
            results.append(
                OrderResult(order, False, f"no dislodged unit in {order.region}", void=True)
            )
            continue
        unit = dislodged.unit
        if order.power is not None and order.power != unit.power:
            results.append(
                OrderResult(
                    order, False, f"the unit in {order.region} belongs to {unit.power}", void=True
                )
            )
            continue
        if order.unit_type is not unit.unit_type or order.region in chosen:
            reason = (
                "wrong unit type"
                if order.unit_type is not unit.unit_type
                else "the unit already has an order"
            )
            results.append(OrderResult(order, False, reason, void=True))
            continue
        if order.kind is OrderKind.DISBAND:
            chosen[order.region] = (order, None)
        elif order.kind is OrderKind.MOVE and order.target is not None:
            if order.via_convoy:
                results.append(OrderResult(order, False, "a retreat cannot be convoyed", void=True))
                continue
            if order.target not in retreat_options(game_map, movement, dislodged):
                results.append(
                    OrderResult(
                        order, False, f"{order.target} is not open to this retreat", void=True
                    )
                )
                continue
            chosen[order.region] = (order, order.target)
        else:
            word = "hold" if order.kind is OrderKind.HOLD else order.kind.name.lower()
            results.append(
                OrderResult(
                    order,
                    False,
                    f"a dislodged unit cannot {word}; it retreats or disbands",
                    void=True,
                )
            )
    targets: dict[str, int] = {}
    for _, target in chosen.values():
        if target is not None and not game_map.provinces[region_province(target)].box:
            targets[region_province(target)] = targets.get(region_province(target), 0) + 1
    retreated: list[Unit] = []
    disbanded: list[Unit] = []
    for region, dislodged in by_region.items():
        unit = dislodged.unit
        if region not in chosen:
            disbanded.append(unit)
            continue
        order, target = chosen[region]
        if target is None:
            results.append(OrderResult(order, True, "disbanded as ordered"))
            disbanded.append(unit)
        elif targets.get(region_province(target), 0) > 1:
            results.append(
                OrderResult(
                    order,
                    False,
                    f"several units retreated to {region_province(target)}: all disband",
                )
            )
            disbanded.append(unit)
        else:
            results.append(OrderResult(order, True, f"retreated to {target}"))
            retreated.append(dataclasses.replace(unit, region=target))
    return RetreatResult(
        tuple(results), tuple(retreated), tuple(disbanded), movement.units + tuple(retreated)
    )
