"""Winter adjustments: builds, disbands, and civil disorder for powers that order too few disbands.

A power with more supply centres than units may build that many units, each in an empty home
centre it owns (a fleet only on a coast, naming the coast on split-coast provinces); a power with
more units than centres disbands the difference. A power may not do both in one winter. Disbands
a power leaves unordered happen in civil disorder: the unit farthest from the power's supply
centres goes first (counting moves across any border, sea or land), fleets before armies at equal
distance, then in alphabetical order of province name. Which centres count is an edition choice:
the *owned* ones (2023, DPTG) or the *home* ones (1971, 1982).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from companion.diplomacy.geography import Map, Power, ProvinceId, UnitType
from companion.diplomacy.orders import Order, OrderKind
from companion.diplomacy.rules import Edition, OrderResult, RuleSettings, Unit


@dataclasses.dataclass(frozen=True)
class AdjustmentResult:
    """Every adjustment order's outcome, civil-disorder disbands and the units after winter."""

    results: tuple[OrderResult, ...]
    civil_disorder: tuple[Unit, ...]
    units: tuple[Unit, ...]


def adjustment_counts(
    game_map: Map, units: Sequence[Unit], owners: Mapping[ProvinceId, Power]
) -> dict[Power, int]:
    """Builds (positive) or disbands (negative) due, per power with units or centres."""
    counts: dict[Power, int] = {}
    for province, power in owners.items():
        if game_map.provinces[province].supply_centre:
            counts[power] = counts.get(power, 0) + 1
    for unit in units:
        counts[unit.power] = counts.get(unit.power, 0) - 1
    return counts


def adjudicate_adjustments(
    game_map: Map,
    units: Sequence[Unit],
    owners: Mapping[ProvinceId, Power],
    orders: Iterable[Order],
    rules: RuleSettings | None = None,
) -> AdjustmentResult:
    """Carry out builds and disbands; apply civil disorder to disbands left unordered."""
    rules = rules or RuleSettings()
    due = adjustment_counts(game_map, units, owners)
    left = dict(due)
    occupied = {u.province for u in units}
    final = list(units)
    results: list[OrderResult] = []
    built: set[ProvinceId] = set()
    for order in orders:
        power = order.power
        if power is None:
            results.append(
                OrderResult(order, False, "an adjustment order names its power", void=True)
            )
            continue
        if order.kind is OrderKind.BUILD:
            reason = _build_problem(
                game_map,
                order,
                power,
                owners,
                occupied | built,
                left.get(power, 0),
                due.get(power, 0),
            )
            if reason is None:
                left[power] -= 1
                built.add(order.province)
                final.append(Unit(power, order.unit_type, order.region))
                results.append(OrderResult(order, True, f"built in {order.region}"))
            else:
                results.append(OrderResult(order, False, reason, void=True))
        elif order.kind is OrderKind.DISBAND:
            unit = Unit(power, order.unit_type, order.region)
            if due.get(power, 0) >= 0:
                reason = f"{power} has no disbands to make"
            elif left[power] >= 0:
                reason = f"{power} has made all {-due[power]} of its disbands"
            elif unit not in final:
                reason = f"{power} has no {order.unit_type.noun} in {order.region}"
            else:
                reason = None
            if reason is None:
                left[power] += 1
                final.remove(unit)
                results.append(OrderResult(order, True, f"disbanded {order.region}"))
            else:
                results.append(OrderResult(order, False, reason, void=True))
        else:
            results.append(
                OrderResult(
                    order, False, "only builds and disbands are ordered in winter", void=True
                )
            )
    disorder: list[Unit] = []
    for power, count in sorted(left.items()):
        if count >= 0:
            continue
        for unit in civil_disorder_order(
            game_map, [u for u in final if u.power == power], owners, power, rules
        )[:-count]:
            final.remove(unit)
            disorder.append(unit)
    return AdjustmentResult(tuple(results), tuple(disorder), tuple(final))


def _build_problem(
    game_map: Map,
    order: Order,
    power: Power,
    owners: Mapping[ProvinceId, Power],
    taken: set[ProvinceId],
    left: int,
    due: int,
) -> str | None:
    province = order.province
    if due <= 0:
        return f"{power} has no builds to make"
    if province not in game_map.provinces or game_map.provinces[province].home_of != power:
        return f"{order.region} is not a home supply centre of {power}"
    if owners.get(province) != power:
        return f"{power} does not own {province}"
    if province in taken:
        return f"{province} is occupied"
    region = game_map.regions.get(order.region)
    if region is None or not region.terrain.holds(order.unit_type):
        if order.unit_type is UnitType.FLEET and len(game_map.province_regions[province]) > 1:
            return f"a fleet built in {province} needs a coast"
        return f"{order.unit_type.a_noun} cannot be built in {order.region}"
    if left <= 0:
        return f"{power} has made all {due} of its builds"
    return None


def civil_disorder_order(
    game_map: Map,
    units: Sequence[Unit],
    owners: Mapping[ProvinceId, Power],
    power: Power,
    rules: RuleSettings,
) -> list[Unit]:
    """The power's units in the order civil disorder disbands them."""
    if rules.edition in (Edition.E1971, Edition.E1982):
        targets: Iterable[ProvinceId] = game_map.home_centres(power)
    else:
        targets = [
            p
            for p, owner in owners.items()
            if owner == power and game_map.provinces[p].supply_centre
        ]
    distance = game_map.distances_to(targets)
    far = len(game_map.provinces) + 1

    def key(unit: Unit) -> tuple[int, int, str]:
        fleet_first = 0 if unit.unit_type is UnitType.FLEET else 1
        return (
            -distance.get(unit.province, far),
            fleet_first,
            game_map.provinces[unit.province].name,
        )

    return sorted(units, key=key)
