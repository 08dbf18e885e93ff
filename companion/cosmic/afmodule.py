"""One movement turn under the Overby Standard Army/Fleet module (ruling C4), on any map.

An A/F is a fleet with an army aboard (:attr:`Unit.cargo` names the army's power). The turn
runs the module's time scales in order:

- TS1, board or land. An army boards a fleet in a bordering sea space (a foreign fleet only
  when both powers order the boarding, or one orders it and the other a Fast Ferry of that army
  by that fleet). An army aboard lands on a bordering coastal space if it is empty; into an
  occupied one only with its fleet's support, which dislodges the occupant at once. Two landings
  on one space both fail (the armies stay aboard). A fleet that supports a landing may not order
  in TS2.
- TS2, standard orders, adjudicated by the Diplomacy engine. There are no convoys but the Fast
  Ferry (``F y F/F A x -> z``: one fleet carries an army across). A ferry that fails leaves the
  army aboard its fleet (a new A/F) unless the fleet or the army was dislodged. A Fast Ferry
  ordered for an army already aboard lands it after TS2 if its A/F did not move and the space is
  empty and was not stood off. An A/F is one unit of strength 1, moved by its fleet's owner.
- TS3, disembark or embark, then moves. An army aboard goes to a bordering empty coastal space
  (one left empty by a standoff counts); an army on land boards a bordering fleet. Then fleets and
  A/Fs that existed at the start of TS3 may move into a bordering empty sea space (several into one
  all fail; a box always takes them). No supports.
- TS4, retreats (:func:`adjudicate_af_retreats`): units dislodged in TS1 choose first.

International A/Fs (C4.3): the fleet moves only by its owner's orders. For the army, its own
power's order is tried first, then the fleet owner's, each only if it fits where the A/F is; if
neither fits, the army stays aboard.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from companion.cosmic.afnotation import AFKind, AFOrder
from companion.cosmic.diplomacy.geography import Map, Power, ProvinceId, RegionId, Terrain, UnitType
from companion.cosmic.diplomacy.movement import MovementResult, adjudicate_movement
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.rules import OrderResult, RuleSettings, Unit


@dataclasses.dataclass(frozen=True)
class AFResult:
    """What became of one A/F-module order, and why."""

    order: AFOrder
    succeeded: bool
    reason: str

    def text(self) -> str:
        return f"{self.order.text()}: {'succeeds' if self.succeeded else 'fails'} ({self.reason})"


@dataclasses.dataclass(frozen=True)
class Lifted:
    """A unit dislodged in TS1 or TS2, off the board until its retreat in TS4."""

    unit: Unit
    attacker_from: ProvinceId | None
    time_scale: int


@dataclasses.dataclass(frozen=True)
class AFTurnResult:
    """The whole turn: every order's result, TS2's movement, the board after TS3."""

    results: tuple[AFResult, ...]
    movement: MovementResult
    units: tuple[Unit, ...]
    dislodged: tuple[Lifted, ...]
    contested: frozenset[ProvinceId]

    def unit_at(self, region: RegionId) -> Unit | None:
        return next((u for u in self.units if u.region == region), None)


class _Board:
    """The units during the turn; boxes may hold several."""

    def __init__(self, game_map: Map, units: Sequence[Unit]) -> None:
        self.map = game_map
        self.units = list(units)

    def at(
        self,
        region: RegionId,
        unit_type: UnitType | None = None,
        power: Power | None = None,
        skip: Sequence[Unit] = (),
    ) -> Unit | None:
        """A unit in the region's province (of ``power`` first, when a box holds several)."""
        province = self.map.regions[region].province if region in self.map.regions else region
        found = [
            unit
            for unit in self.units
            if self.map.regions[unit.region].province == province
            and (unit_type is None or unit.unit_type is unit_type)
            and all(unit is not s for s in skip)
        ]
        for unit in found:
            if unit.power == power:
                return unit
        return found[0] if found else None

    def occupied(self, region: RegionId) -> bool:
        province = self.map.regions[region].province
        return not self.map.provinces[province].box and self.at(region) is not None

    def replace(self, old: Unit, new: Unit | None) -> None:
        index = self.units.index(old)
        if new is None:
            del self.units[index]
        else:
            self.units[index] = new


def _canonical(game_map: Map, order: AFOrder) -> AFOrder:
    """The order with every place under the map's own id (old abbreviations resolved)."""
    if not game_map.aliases:
        return order
    name = game_map.canonical

    def place(value: RegionId | None) -> RegionId | None:
        return None if value is None else name(value)

    standard = order.standard
    if standard is not None:
        standard = dataclasses.replace(
            standard,
            region=name(standard.region),
            target=place(standard.target),
            other=place(standard.other),
        )
    return dataclasses.replace(
        order,
        army=place(order.army),
        fleet=place(order.fleet),
        target=place(order.target),
        standard=standard,
    )


def _borders(game_map: Map, sea: RegionId, other: RegionId) -> bool:
    """Whether the sea space borders the other space (any coast of it, for an army's space)."""
    moves = game_map.fleet_moves.get(sea, frozenset())
    if other in moves:
        return True
    region = game_map.regions.get(other)
    return region is not None and any(
        r in moves for r in game_map.province_regions[region.province]
    )


def _coastal(game_map: Map, region: RegionId) -> bool:
    found = game_map.regions.get(region)
    return found is not None and found.terrain is not Terrain.SEA


class _Turn:
    def __init__(
        self, game_map: Map, units: Sequence[Unit], orders: Sequence[AFOrder], rules: RuleSettings
    ) -> None:
        self.map = game_map
        self.board = _Board(game_map, units)
        self.written = list(orders)
        self.orders = [_canonical(game_map, order) for order in orders]
        self.rules = rules
        self.results: dict[int, AFResult] = {}
        self.lifted: list[Lifted] = []
        self.pinned: set[RegionId] = set()

    def done(self, index: int, succeeded: bool, reason: str) -> None:
        self.results.setdefault(index, AFResult(self.written[index], succeeded, reason))

    def of(self, scale: int, *kinds: AFKind) -> list[int]:
        return [
            i
            for i, o in enumerate(self.orders)
            if o.time_scale == scale and o.kind in kinds and i not in self.results
        ]

    def consents(self, army: RegionId, fleet: RegionId) -> set[Power]:
        """Powers that ordered this army aboard this fleet (a boarding, an embark or a ferry)."""
        agreed = set()
        for order in self.orders:
            if order.power is None:
                continue
            if order.kind in (AFKind.BOARD, AFKind.EMBARK, AFKind.FAST_FERRY) and (
                order.army == army and order.fleet == fleet
            ):
                agreed.add(order.power)
        return agreed

    # -- TS1 ----------------------------------------------------------------------------------

    def ts1(self) -> None:
        self._boardings(1, AFKind.BOARD)
        self._landings()

    def _boardings(self, scale: int, kind: AFKind) -> set[RegionId]:
        """Boardings (TS1) or embarkations (TS3); returns the fleets that took an army."""
        pairs: dict[tuple[RegionId, RegionId], list[int]] = {}
        for index in self.of(scale, kind):
            order = self.orders[index]
            assert order.army is not None and order.fleet is not None
            pairs.setdefault((order.army, order.fleet), []).append(index)
        plans: dict[tuple[RegionId, RegionId], tuple[Unit, Unit]] = {}
        for (army_at, fleet_at), indices in pairs.items():
            army = self.board.at(army_at, UnitType.ARMY)
            fleet = self.board.at(fleet_at, UnitType.FLEET)
            reason = None
            if army is None or army.region != army_at:
                reason = f"there is no army in {army_at}"
            elif fleet is None or fleet.region != fleet_at:
                reason = f"there is no fleet in {fleet_at}"
            elif fleet.cargo is not None:
                reason = f"the fleet in {fleet_at} already carries an army"
            elif not _borders(self.map, fleet_at, army_at):
                reason = f"{army_at} does not border {fleet_at}"
            elif fleet_at in self.pinned:
                reason = f"the fleet in {fleet_at} supported a landing"
            else:
                missing = {army.power, fleet.power} - self.consents(army_at, fleet_at)
                if missing:
                    reason = f"{' and '.join(sorted(missing))} did not order it aboard"
            if reason is not None:
                for index in indices:
                    self.done(index, False, reason)
                continue
            assert army is not None and fleet is not None
            plans[(army_at, fleet_at)] = (army, fleet)
        fleets_taken: dict[RegionId, int] = {}
        armies_moving: dict[RegionId, int] = {}
        for army_at, fleet_at in plans:
            fleets_taken[fleet_at] = fleets_taken.get(fleet_at, 0) + 1
            armies_moving[army_at] = armies_moving.get(army_at, 0) + 1
        boarded: set[RegionId] = set()
        for (army_at, fleet_at), (army, fleet) in plans.items():
            indices = pairs[(army_at, fleet_at)]
            if fleets_taken[fleet_at] > 1 or armies_moving[army_at] > 1:
                for index in indices:
                    self.done(index, False, "several boardings of one fleet or by one army")
                continue
            self.board.replace(army, None)
            self.board.replace(fleet, dataclasses.replace(fleet, cargo=army.power))
            boarded.add(fleet_at)
            for index in indices:
                self.done(index, True, f"the army from {army_at} is aboard the fleet in {fleet_at}")
        return boarded

    def _army_order(self, af: Unit, indices: list[int]) -> list[int]:
        """The army orders that fit this A/F: its own power's first, then its fleet owner's."""
        fitting = [i for i in indices if self.orders[i].fleet == af.region]
        own = [i for i in fitting if self.orders[i].power == af.cargo]
        fleet_owner = [i for i in fitting if self.orders[i].power == af.power and i not in own]
        for index in fitting:
            if index not in own and index not in fleet_owner:
                self.done(index, False, f"neither the army nor the fleet in {af.region} is yours")
        return own + fleet_owner

    def _landings(self) -> None:
        lands = self.of(1, AFKind.LAND)
        supports = self.of(1, AFKind.SUPPORT_LANDING)
        support_for: dict[tuple[RegionId, RegionId], int] = {}
        for index in supports:
            order = self.orders[index]
            assert order.fleet is not None and order.target is not None
            fleet = self.board.at(order.fleet, UnitType.FLEET)
            if fleet is None or fleet.cargo is None or fleet.region != order.fleet:
                self.done(index, False, f"there is no A/F in {order.fleet}")
            elif fleet.power != order.power:
                self.done(index, False, f"the fleet in {order.fleet} is not yours")
            else:
                support_for[(order.fleet, order.target)] = index
                self.pinned.add(order.fleet)
        chosen: dict[RegionId, tuple[Unit, int]] = {}
        for af in [u for u in self.board.units if u.cargo is not None]:
            candidates = self._army_order(
                af, [i for i in lands if self.orders[i].fleet == af.region]
            )
            if not candidates:
                continue
            first, *others = candidates
            for index in others:
                self.done(index, False, "another order for this army came first")
            chosen[af.region] = (af, first)
        for index in lands:
            order = self.orders[index]
            if index not in self.results and all(i != index for _, i in chosen.values()):
                self.done(index, False, f"there is no A/F in {order.fleet}")
        targets: dict[ProvinceId, int] = {}
        for _, index in chosen.values():
            target = self.orders[index].target
            assert target is not None
            if target in self.map.regions:
                province = self.map.regions[target].province
                targets[province] = targets.get(province, 0) + 1
        for af, index in chosen.values():
            order = self.orders[index]
            target = order.target
            assert target is not None and af.cargo is not None
            if not _coastal(self.map, target) or not _borders(self.map, af.region, target):
                self.done(index, False, f"{af.region} does not border the coastal space {target}")
                continue
            if targets[self.map.regions[target].province] > 1:
                self.done(index, False, f"landings on {target} bounced; the army stays aboard")
                continue
            occupant = self.board.at(target)
            support = support_for.get((af.region, target))
            if occupant is not None:
                if support is None:
                    self.done(index, False, f"{target} is occupied and the fleet did not support")
                    continue
                if occupant.power == af.cargo:
                    self.done(index, False, "a landing cannot dislodge its own power's unit")
                    continue
                self.board.replace(occupant, None)
                self.lifted.append(Lifted(occupant, af.province, 1))
            self.board.replace(af, dataclasses.replace(af, cargo=None))
            self.board.units.append(
                Unit(af.cargo, UnitType.ARMY, self.map.regions[target].province)
            )
            self.done(index, True, f"landed on {target}" + (", dislodging" if occupant else ""))
            if support is not None:
                self.done(support, True, "the landing succeeded")
        for index in supports:
            self.done(index, False, "the landing it supported failed")

    # -- TS2 ----------------------------------------------------------------------------------

    def ts2(self) -> MovementResult:
        engine: list[Order] = []
        source: dict[int, int] = {}  # engine order position -> A/F order index
        ferries_aboard: list[tuple[int, Unit]] = []
        ferries_land: list[tuple[int, Unit, Unit]] = []
        ordered: list[Unit] = []
        for index in self.of(2, AFKind.FAST_FERRY):
            order = self.orders[index]
            assert order.army and order.fleet and order.target
            fleet = self.board.at(order.fleet, UnitType.FLEET)
            if fleet is None or fleet.region != order.fleet:
                self.done(index, False, f"there is no fleet in {order.fleet}")
                continue
            if fleet.cargo is not None and order.army == order.fleet:
                if order.power in (fleet.cargo, fleet.power):
                    ferries_aboard.append((index, fleet))
                else:
                    self.done(
                        index, False, f"neither the army nor the fleet in {fleet.region} is yours"
                    )
                continue
            army = self.board.at(order.army, UnitType.ARMY)
            if army is None or army.region != order.army:
                if fleet.cargo is not None and order.power in (fleet.cargo, fleet.power):
                    ferries_aboard.append((index, fleet))  # boarded in TS1, written from land
                else:
                    self.done(index, False, f"there is no army in {order.army}")
                continue
            missing = {army.power, fleet.power} - self.consents(order.army, order.fleet)
            if order.power != army.power and order.power != fleet.power:
                self.done(index, False, "neither the army nor the fleet is yours")
            elif missing:
                self.done(index, False, f"{' and '.join(sorted(missing))} did not order the ferry")
            elif fleet.region in self.pinned:
                self.done(index, False, f"the fleet in {fleet.region} supported a landing")
            elif not (
                _borders(self.map, fleet.region, army.region) and _coastal(self.map, order.target)
            ):
                self.done(
                    index, False, "a Fast Ferry goes from a space next to the fleet to another"
                )
            elif not _borders(self.map, fleet.region, order.target):
                self.done(index, False, f"{order.target} does not border {fleet.region}")
            elif any(army is u or fleet is u for u in ordered):
                self.done(index, False, "the army or the fleet already has a TS2 order")
            else:
                ordered += [army, fleet]
                source[len(engine)] = index
                engine.append(
                    Order(
                        army.power,
                        UnitType.ARMY,
                        army.region,
                        OrderKind.MOVE,
                        target=order.target,
                        via_convoy=True,
                    )
                )
                engine.append(
                    Order(
                        fleet.power,
                        UnitType.FLEET,
                        fleet.region,
                        OrderKind.CONVOY,
                        target=order.target,
                        other=army.region,
                        other_type=UnitType.ARMY,
                    )
                )
                ferries_land.append((index, army, fleet))
        for index in self.of(2, AFKind.STANDARD):
            order = self.orders[index]
            standard = order.standard
            assert standard is not None
            # In a box, where several units may stand, the writer's own not yet ordered first.
            unit = self.board.at(
                standard.region, standard.unit_type, order.power, ordered
            ) or self.board.at(standard.region, standard.unit_type, order.power)
            if unit is None or unit.region != standard.region:
                self.done(
                    index, False, f"there is no {standard.unit_type.noun} in {standard.region}"
                )
            elif unit.power != order.power:
                if unit.cargo == order.power:
                    self.done(
                        index, False, f"the A/F moves by its fleet owner's ({unit.power}) orders"
                    )
                else:
                    self.done(
                        index, False, f"the unit in {standard.region} belongs to {unit.power}"
                    )
            elif order.fleet is not None and unit.cargo is None:
                self.done(index, False, f"there is no A/F in {standard.region}: no army is aboard")
            elif unit.region in self.pinned:
                self.done(index, False, "a fleet that supported a landing may not order in TS2")
            elif standard.kind is OrderKind.CONVOY:
                self.done(index, False, "no convoys with the A/F module: use a Fast Ferry (F/F)")
            elif any(unit is u for u in ordered):
                self.done(index, False, f"the unit in {unit.region} already has a TS2 order")
            elif (
                standard.kind is OrderKind.MOVE
                and unit.cargo is not None
                and (standard.target is None or _coastal(self.map, standard.target))
            ):
                self.done(index, False, "an A/F stays at sea: its army lands with L, D or F/F")
            else:
                ordered.append(unit)
                source[len(engine)] = index
                engine.append(dataclasses.replace(standard, power=unit.power))
        movement = adjudicate_movement(self.map, self.board.units, engine, self.rules)
        by_order = {r.order: r for r in movement.results}
        for position, index in source.items():
            result = by_order.get(engine[position])
            if result is not None and index not in [i for i, _, _ in ferries_land]:
                self.done(index, result.succeeded, result.reason)
        self.board.units = list(movement.units)
        self.lifted.extend(Lifted(d.unit, d.attacker_from, 2) for d in movement.dislodged)
        dislodged = {d.unit for d in movement.dislodged}
        for index, army, fleet in ferries_land:
            result = by_order[engine[next(p for p, i in source.items() if i == index)]]
            if result.succeeded:
                self.done(index, True, f"ferried to {self.orders[index].target}")
            elif army in dislodged or fleet in dislodged:
                self.done(index, False, f"{result.reason}; a unit of the ferry was dislodged")
            else:
                self.board.replace(army, None)
                self.board.replace(fleet, dataclasses.replace(fleet, cargo=army.power))
                self.done(
                    index, False, f"{result.reason}; the army stays aboard: A/F {fleet.region}"
                )
        for index, af in ferries_aboard:
            target = self.orders[index].target
            assert target is not None and af.cargo is not None
            now = next(
                (u for u in self.board.units if u.region == af.region and u.cargo is not None), None
            )
            if now is None:
                self.done(index, False, "the A/F moved or was dislodged: the army goes with it")
            elif not _borders(self.map, af.region, target) or not _coastal(self.map, target):
                self.done(index, False, f"{target} does not border {af.region}")
            elif (
                self.board.occupied(target)
                or self.map.regions[target].province in movement.contested
            ):
                self.done(
                    index, False, f"{target} is tenanted or stood off: A/F {af.region} remains"
                )
            else:
                self.board.replace(now, dataclasses.replace(now, cargo=None))
                self.board.units.append(
                    Unit(af.cargo, UnitType.ARMY, self.map.regions[target].province)
                )
                self.done(index, True, f"ferried to {target} from the A/F")
        return movement

    # -- TS3 ----------------------------------------------------------------------------------

    def ts3(self) -> None:
        disembarks = self.of(3, AFKind.DISEMBARK, AFKind.DISEMBARK_TO_FLEET)
        plans: dict[RegionId, tuple[Unit, int]] = {}
        for af in [u for u in self.board.units if u.cargo is not None]:
            candidates = self._army_order(
                af, [i for i in disembarks if self.orders[i].fleet == af.region]
            )
            for index in candidates:
                target = self.orders[index].target
                assert target is not None
                reason = self._disembark_problem(af, index)
                if reason is None and af.region not in plans:
                    plans[af.region] = (af, index)
                else:
                    self.done(index, False, reason or "another order for this army came first")
        for index in disembarks:
            if index not in self.results and all(i != index for _, i in plans.values()):
                self.done(index, False, f"there is no A/F in {self.orders[index].fleet}")
        counts: dict[str, int] = {}
        for _, index in plans.values():
            target = self.orders[index].target
            assert target is not None
            counts[target] = counts.get(target, 0) + 1
        for af, index in plans.values():
            order = self.orders[index]
            target = order.target
            assert target is not None and af.cargo is not None
            if counts[target] > 1:
                self.done(index, False, f"several armies made for {target}: they stay aboard")
                continue
            if order.kind is AFKind.DISEMBARK:
                self.board.replace(af, dataclasses.replace(af, cargo=None))
                self.board.units.append(
                    Unit(af.cargo, UnitType.ARMY, self.map.regions[target].province)
                )
                self.done(index, True, f"disembarked on {target}")
            else:
                other = self.board.at(target, UnitType.FLEET)
                assert other is not None
                self.board.replace(af, dataclasses.replace(af, cargo=None))
                self.board.replace(other, dataclasses.replace(other, cargo=af.cargo))
                self.done(index, True, f"moved aboard the fleet in {target}")
        new = self._boardings(3, AFKind.EMBARK)
        self._ts3_moves(new)

    def _disembark_problem(self, af: Unit, index: int) -> str | None:
        order = self.orders[index]
        target = order.target
        assert target is not None
        if target not in self.map.regions or not _borders(self.map, af.region, target):
            return f"{target} does not border {af.region}"
        if order.kind is AFKind.DISEMBARK:
            if not _coastal(self.map, target):
                return f"{target} is not a coastal space"
            if self.board.occupied(target):
                return f"{target} is occupied"
            return None
        other = self.board.at(target, UnitType.FLEET)
        if other is None or other.region != target:
            return f"there is no fleet in {target}"
        if other.cargo is not None:
            return f"the fleet in {target} already carries an army"
        if other.power != af.cargo:
            return f"the fleet in {target} is not {af.cargo}'s"
        return None

    def _ts3_moves(self, new: set[RegionId]) -> None:
        moves: list[tuple[int, Unit, RegionId]] = []
        for index in self.of(3, AFKind.STANDARD):
            order = self.orders[index]
            standard = order.standard
            assert standard is not None and standard.target is not None
            taken = [u for _, u, _ in moves]
            unit = self.board.at(standard.region, UnitType.FLEET, order.power, taken)
            target = standard.target
            if unit is None or unit.region != standard.region:
                self.done(index, False, f"there is no fleet in {standard.region}")
            elif unit.power != order.power:
                self.done(index, False, f"the fleet in {unit.region} belongs to {unit.power}")
            elif unit.region in new:
                self.done(index, False, "an A/F formed in TS3 may not move in the same turn")
            elif (
                target not in self.map.regions
                or self.map.regions[target].terrain is not Terrain.SEA
            ):
                self.done(index, False, f"TS3 moves go to sea spaces only, not {target}")
            elif target not in self.map.fleet_moves[unit.region]:
                self.done(index, False, f"{unit.region} does not border {target}")
            elif self.board.occupied(target):
                self.done(index, False, f"{target} is not empty")
            else:
                moves.append((index, unit, target))
        counts: dict[str, int] = {}
        for _, _, target in moves:
            counts[target] = counts.get(target, 0) + 1
        for index, unit, target in moves:
            if counts[target] > 1 and not self.map.provinces[self.map.regions[target].province].box:
                self.done(index, False, f"several units made for {target}: none moves")
                continue
            self.board.replace(unit, dataclasses.replace(unit, region=target))
            self.done(index, True, f"moved to {target}")


def adjudicate_af_turn(
    game_map: Map,
    units: Sequence[Unit],
    orders: Sequence[AFOrder],
    rules: RuleSettings | None = None,
) -> AFTurnResult:
    """Adjudicate time scales 1 to 3 of one movement turn; the retreats (TS4) come after."""
    turn = _Turn(game_map, units, orders, rules or RuleSettings())
    for index, order in enumerate(turn.orders):
        if order.power is None:
            turn.done(index, False, "an A/F-module order names the power that gives it")
    turn.ts1()
    movement = turn.ts2()
    turn.ts3()
    results = tuple(
        turn.results.get(i, AFResult(o, False, "not carried out"))
        for i, o in enumerate(turn.written)
    )
    return AFTurnResult(
        results, movement, tuple(turn.board.units), tuple(turn.lifted), movement.contested
    )


def af_retreat_options(game_map: Map, turn: AFTurnResult, lifted: Lifted) -> tuple[RegionId, ...]:
    """Where a lifted unit may retreat in TS4 (never onto a fleet; an A/F only to sea, C4.2)."""
    unit = lifted.unit
    occupied = {game_map.regions[u.region].province for u in turn.units}
    moves = game_map.army_moves if unit.unit_type is UnitType.ARMY else game_map.fleet_moves
    options = []
    for region in moves[unit.region]:
        if unit.cargo is not None and game_map.regions[region].terrain is not Terrain.SEA:
            continue  # C4.2: A/Fs exist only in orbits and boxes
        province = game_map.regions[region].province
        if game_map.provinces[province].box or (
            province not in occupied
            and province not in turn.contested
            and province != lifted.attacker_from
        ):
            options.append(region)
    return tuple(sorted(options))


def af_named_problem(dislodged: Sequence[Lifted], order: Order) -> str | None:
    """Why a retreat order written for an A/F (``A/F x ...``) names none: the dislodged fleet
    in x carries no army. None when it does, or when no unit was dislodged there (the
    retreat's own check says so)."""
    lifted = next((x for x in dislodged if x.unit.region == order.region), None)
    if lifted is None or lifted.unit.cargo is not None:
        return None
    return f"there is no A/F in {order.region}: the dislodged fleet there carries no army"


@dataclasses.dataclass(frozen=True)
class AFRetreatResult:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]


def adjudicate_af_retreats(
    game_map: Map, turn: AFTurnResult, orders: Sequence[Order]
) -> AFRetreatResult:
    """TS4: retreats of the lifted units, TS1's first; without a valid order a unit disbands."""
    board = list(turn.units)
    results: list[OrderResult] = []
    disbanded: list[Unit] = []
    wanted: dict[RegionId, Order] = {}
    for order in orders:
        lifted = next((x for x in turn.dislodged if x.unit.region == order.region), None)
        if lifted is None or (order.power is not None and order.power != lifted.unit.power):
            results.append(
                OrderResult(
                    order, False, f"no dislodged unit of yours in {order.region}", void=True
                )
            )
        elif order.region in wanted:
            results.append(
                OrderResult(order, False, "the unit already has a retreat order", void=True)
            )
        else:
            wanted[order.region] = order
    for scale in (1, 2):
        group = [x for x in turn.dislodged if x.time_scale == scale]
        taken = {game_map.regions[u.region].province for u in board}
        plans: dict[Unit, RegionId | None] = {}
        for lifted in group:
            given = wanted.get(lifted.unit.region)
            if given is None:
                plans[lifted.unit] = None
                continue
            if given.kind is OrderKind.DISBAND:
                results.append(OrderResult(given, True, "disbanded as ordered"))
                plans[lifted.unit] = None
                continue
            target = given.target
            options = af_retreat_options(game_map, turn, lifted)
            if given.kind is not OrderKind.MOVE or target not in options:
                results.append(
                    OrderResult(given, False, f"{target} is not open to this retreat", void=True)
                )
                plans[lifted.unit] = None
                continue
            if (
                game_map.regions[target].province in taken
                and not game_map.provinces[game_map.regions[target].province].box
            ):
                results.append(OrderResult(given, False, f"{target} was taken by a retreat of TS1"))
                plans[lifted.unit] = None
                continue
            plans[lifted.unit] = target
        counts: dict[ProvinceId, int] = {}
        for target in plans.values():
            if target is not None and not game_map.provinces[game_map.regions[target].province].box:
                province = game_map.regions[target].province
                counts[province] = counts.get(province, 0) + 1
        for unit, target in plans.items():
            if target is None:
                disbanded.append(unit)
                continue
            given = wanted.get(unit.region)
            assert given is not None
            if counts.get(game_map.regions[target].province, 0) > 1:
                results.append(
                    OrderResult(given, False, f"several units retreated to {target}: all disband")
                )
                disbanded.append(unit)
            else:
                board.append(dataclasses.replace(unit, region=target))
                results.append(OrderResult(given, True, f"retreated to {target}"))
    return AFRetreatResult(tuple(results), tuple(board), tuple(disbanded))
