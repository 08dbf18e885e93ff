"""Winter adjustments: builds, disbands, and civil disorder for powers that order too few disbands.

A power with more supply centres than units may build that many units, each in an empty home
centre it owns (a fleet only on a coast, naming the coast on split-coast provinces); a power with
more units than centres disbands the difference. A power may not do both in one winter. Disbands
a power leaves unordered happen in civil disorder: the unit farthest from the power's supply
centres goes first (counting moves across any border, sea or land), fleets before armies at equal
distance, then in alphabetical order of province name. Which centres count is an edition choice:
the *owned* ones (2023, DPTG) or the *home* ones (1971, 1982).

An army aboard a fleet (an A/F of Cosmic Cluster's Army/Fleet module: the fleet's ``cargo``) is a
unit of its own power (ruling C5.3), counted for that power and disbanded by it as ``A x
disband``, ``x`` the fleet's sea space; the fleet stays, empty. A fleet disbanded takes the army
aboard with it (module section C.4): two units when the army is its own power's; another power's
army counts as one of that power's disbands when, after its own orders, it still has disbands
to make, and is otherwise lost beyond its count. Civil disorder is chosen for every power at
once from the units left after the orders; an army aboard is at sea there: it goes with the
fleets at its distance, before any fleet in its space. The standard map has no A/Fs, so none of
this changes standard Diplomacy (docs/cosmic-cluster.md, "Where the engine had to choose").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from companion.cosmic.diplomacy.geography import Map, Power, ProvinceId, Terrain, UnitType
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.rules import Edition, OrderResult, RuleSettings, Unit


@dataclasses.dataclass(frozen=True)
class AdjustmentResult:
    """Every adjustment order's outcome, civil-disorder disbands and the units after winter.

    An army aboard a fleet that civil disorder disbands is listed as an army in the fleet's space
    (``P2: A vega-o``); a fleet is listed with the army it took along (``P1: A/F vega-o``)."""

    results: tuple[OrderResult, ...]
    civil_disorder: tuple[Unit, ...]
    units: tuple[Unit, ...]


def adjustment_counts(
    game_map: Map, units: Sequence[Unit], owners: Mapping[ProvinceId, Power]
) -> dict[Power, int]:
    """Builds (positive) or disbands (negative) due, per power with units or centres; an army
    aboard a fleet counts for its own power."""
    counts: dict[Power, int] = {}
    for province, power in owners.items():
        if game_map.provinces[province].supply_centre:
            counts[power] = counts.get(power, 0) + 1
    for unit in units:
        counts[unit.power] = counts.get(unit.power, 0) - 1
        if unit.cargo is not None:
            counts[unit.cargo] = counts.get(unit.cargo, 0) - 1
    return counts


def winter_units(units: Sequence[Unit], power: Power) -> list[Unit]:
    """The units ``power`` may disband: its own (a fleet with whatever army it carries), then
    each of its armies aboard a fleet, written as an army in the fleet's space (``A vega-o``)."""
    own = [u for u in units if u.power == power]
    return own + [Unit(power, UnitType.ARMY, u.region) for u in units if u.cargo == power]


def is_aboard(game_map: Map, unit: Unit) -> bool:
    """Whether ``unit`` (as :func:`winter_units` writes it) is an army aboard a fleet."""
    region = game_map.regions.get(unit.region)
    return unit.unit_type is UnitType.ARMY and region is not None and region.terrain is Terrain.SEA


def carrier(units: Sequence[Unit], power: Power, region: str) -> Unit | None:
    """The fleet in ``region`` whose army ``A region disband`` by ``power`` disbands: one
    carrying the power's army, its own fleet first, then by the fleet's power."""
    carriers = [u for u in units if u.region == region and u.cargo == power]
    return min(carriers, key=lambda u: (u.power != power, u.power)) if carriers else None


def adjudicate_adjustments(
    game_map: Map,
    units: Sequence[Unit],
    owners: Mapping[ProvinceId, Power],
    orders: Iterable[Order],
    rules: RuleSettings | None = None,
) -> AdjustmentResult:
    """Carry out builds and disbands; apply civil disorder to disbands left unordered.

    Orders are carried out in the order given, except that the disband of a fleet where a fleet
    carries an army waits for all the others: a power's own disband of its army aboard another's
    fleet then stands whichever order the lines come in (standard Diplomacy is unaffected)."""
    return _Winter(game_map, units, owners, rules or RuleSettings()).run(list(orders))


class _Winter:
    """One Winter's bookkeeping: the units, and the builds or disbands each power has left."""

    def __init__(
        self,
        game_map: Map,
        units: Sequence[Unit],
        owners: Mapping[ProvinceId, Power],
        rules: RuleSettings,
    ) -> None:
        self.map = game_map
        self.owners = owners
        self.rules = rules
        self.due = adjustment_counts(game_map, units, owners)
        self.left = dict(self.due)
        self.occupied = {u.province for u in units}
        self.final = list(units)
        self.built: set[ProvinceId] = set()

    def run(self, orders: list[Order]) -> AdjustmentResult:
        results: dict[int, OrderResult] = {}
        laden = {u.region for u in self.final if u.cargo is not None}
        fleets = [
            i
            for i, o in enumerate(orders)
            if o.kind is OrderKind.DISBAND and o.unit_type is UnitType.FLEET and o.region in laden
        ]
        for index, order in enumerate(orders):
            if index not in fleets:
                results[index] = self._one(order)
        lost: list[tuple[int, Power]] = []
        for index in fleets:
            results[index], owner = self._disband_fleet(orders[index])
            if owner is not None:
                lost.append((index, owner))
        for index, owner in lost:
            result = results[index]
            if self.left.get(owner, 0) < 0:
                self.left[owner] += 1
                why = f"one of {owner}'s disbands"
            else:
                why = f"{owner} had no disbands left to make: a loss beyond its count"
            results[index] = result._replace(reason=f"{result.reason} ({why})")
        disorder = self._civil_disorder()
        return AdjustmentResult(
            tuple(results[i] for i in range(len(orders))), tuple(disorder), tuple(self.final)
        )

    def _one(self, order: Order) -> OrderResult:
        power = order.power
        if power is None:
            return OrderResult(order, False, "an adjustment order names its power", void=True)
        if order.kind is OrderKind.BUILD:
            return self._build(order, power)
        if order.kind is OrderKind.DISBAND and order.unit_type is UnitType.FLEET:
            return self._disband_fleet(order)[0]  # a lost army is only aboard a laden fleet
        if order.kind is OrderKind.DISBAND:
            return self._disband_army(order, power)
        return OrderResult(
            order, False, "only builds and disbands are ordered in winter", void=True
        )

    def _build(self, order: Order, power: Power) -> OrderResult:
        reason = _build_problem(
            self.map,
            order,
            power,
            self.owners,
            self.occupied | self.built,
            self.left.get(power, 0),
            self.due.get(power, 0),
        )
        if reason is not None:
            return OrderResult(order, False, reason, void=True)
        self.left[power] -= 1
        self.built.add(order.province)
        self.final.append(Unit(power, order.unit_type, order.region))
        return OrderResult(order, True, f"built in {order.region}")

    def _disband_problem(self, order: Order, power: Power) -> str | None:
        if self.due.get(power, 0) >= 0:
            return f"{power} has no disbands to make"
        if self.left[power] >= 0:
            return f"{power} has made all {-self.due[power]} of its disbands"
        return None

    def _disband_army(self, order: Order, power: Power) -> OrderResult:
        reason = self._disband_problem(order, power)
        if reason is not None:
            return OrderResult(order, False, reason, void=True)
        unit = Unit(power, UnitType.ARMY, order.region)
        if unit in self.final:
            self.final.remove(unit)
            self.left[power] += 1
            return OrderResult(order, True, f"disbanded {order.region}")
        fleet = self._carrier(power, order.region)
        if fleet is None:
            return OrderResult(order, False, f"{power} has no army in {order.region}", void=True)
        self.left[power] += 1
        whose = "its own fleet" if fleet.power == power else f"{fleet.power}'s fleet"
        return OrderResult(
            order, True, f"disbanded the army aboard {whose} in {order.region}; the fleet stays"
        )

    def _carrier(self, power: Power, region: str) -> Unit | None:
        """Take ``power``'s army off a fleet in ``region`` (its own fleet first, then by the
        fleet's power) and give back that fleet as it was; None if no fleet there carries one."""
        fleet = carrier(self.final, power, region)
        if fleet is not None:
            self.final[self.final.index(fleet)] = dataclasses.replace(fleet, cargo=None)
        return fleet

    def _disband_fleet(self, order: Order) -> tuple[OrderResult, Power | None]:
        """The fleet's disband, and the power of another's army lost with it (if any)."""
        power = order.power
        if power is None:
            return self._one(order), None
        reason = self._disband_problem(order, power)
        if reason is not None:
            return OrderResult(order, False, reason, void=True), None
        fleets = [
            u
            for u in self.final
            if u.power == power and u.unit_type is UnitType.FLEET and u.region == order.region
        ]
        if not fleets:
            return OrderResult(
                order, False, f"{power} has no fleet in {order.region}", void=True
            ), None
        # In a box with several: an empty fleet first, then one carrying the power's own army.
        fleet = min(fleets, key=lambda u: (u.cargo is not None, u.cargo != power, u.cargo or ""))
        if fleet.cargo == power and self.left[power] > -2:
            return (
                OrderResult(
                    order,
                    False,
                    f"the fleet in {order.region} carries {power}'s own army, which would go with "
                    f"it: 2 units, and {power} has 1 disband left (to keep the fleet, disband the "
                    f"army aboard: A {order.region} disband)",
                    void=True,
                ),
                None,
            )
        self.final.remove(fleet)
        if fleet.cargo == power:
            self.left[power] += 2
            return OrderResult(order, True, f"disbanded {order.region} with its army aboard"), None
        self.left[power] += 1
        if fleet.cargo is None:
            return OrderResult(order, True, f"disbanded {order.region}"), None
        text = f"disbanded {order.region} with {fleet.cargo}'s army aboard"
        return OrderResult(order, True, text), fleet.cargo

    def _civil_disorder(self) -> list[Unit]:
        """Each power's missing disbands, all chosen from the units left after the orders."""
        picks: list[Unit] = []
        for power, count in sorted(self.left.items()):
            if count < 0:
                units = winter_units(self.final, power)
                picks += civil_disorder_order(self.map, units, self.owners, power, self.rules)[
                    :-count
                ]
        gone: dict[int, Unit] = {}
        for index, unit in enumerate(picks):  # armies aboard first: a fleet takes its army
            if is_aboard(self.map, unit) and self._carrier(unit.power, unit.region) is not None:
                gone[index] = unit
        for index, unit in enumerate(picks):
            if index in gone:
                continue
            if unit not in self.final:
                unit = dataclasses.replace(unit, cargo=None)
            if unit in self.final:
                self.final.remove(unit)
                gone[index] = unit
        return [gone[i] for i in sorted(gone)]


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
    """The power's units in the order civil disorder disbands them (``units`` as
    :func:`winter_units` gives them: an army aboard a fleet is at sea, so it goes with the fleets
    at its distance, before any fleet in its space, and an A/F's fleet never before its army)."""
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

    def key(unit: Unit) -> tuple[int, int, str, int, str]:
        aboard = is_aboard(game_map, unit)
        fleet_first = 0 if unit.unit_type is UnitType.FLEET or aboard else 1
        return (
            -distance.get(unit.province, far),
            fleet_first,
            game_map.provinces[unit.province].name,
            0 if aboard else 1,
            unit.cargo or "",
        )

    return sorted(units, key=key)
