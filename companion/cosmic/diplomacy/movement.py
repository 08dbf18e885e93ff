"""Movement-phase adjudication: supports, cuts, standoffs, head-to-head, circles and convoys.

The resolver is Lucas Kruijswijk's partial-information algorithm ("guess and check", from *The
Math of Adjudication*): every order is one decision (a move succeeds, a support is given, a
convoying fleet stays); a decision is computed from the decisions it depends on, and when those
form a cycle the first undecided decision of the cycle is guessed both ways. When both guesses
give the same answer that is the answer; when they differ the cycle is either a circular movement
(all its moves succeed) or a convoy paradox, settled by the Szykman rule of the 2023 rulebook:
the convoyed armies of the paradox do not move (and cut nothing).

Entry point: :func:`adjudicate_movement`. Orders are first checked against the board
(:func:`check_orders`); void orders fail with their reason and their units hold.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from companion.cosmic.diplomacy.geography import Map, ProvinceId, Terrain, UnitType, region_province
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.rules import Edition, OrderResult, RuleSettings, Unit
from companion.errors import CompanionError


class BoardError(CompanionError, ValueError):
    """A board the engine cannot adjudicate: a unit on a place the map does not have."""


_HOLD, _MOVE, _SUPPORT, _CONVOY = 0, 1, 2, 3
_LAND, _VIA_CONVOY, _EITHER = 0, 1, 2
_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


@dataclasses.dataclass(frozen=True)
class Dislodgement:
    """A unit driven out, and the province its attacker came from (None if convoyed there)."""

    unit: Unit
    attacker_from: ProvinceId | None


@dataclasses.dataclass(frozen=True)
class MovementResult:
    """Every order's outcome, the dislodged units, the standoffs and the units that stay."""

    results: tuple[OrderResult, ...]
    dislodged: tuple[Dislodgement, ...]
    contested: frozenset[ProvinceId]
    units: tuple[Unit, ...]

    def result_for(self, region: str) -> OrderResult:
        """The result of the order given to the unit in this region."""
        for result in self.results:
            if result.order.region == region and not result.void:
                return result
        for result in self.results:
            if result.order.region == region:
                return result
        raise KeyError(region)


@dataclasses.dataclass
class _Checked:
    """Orders matched to units: ``orders[i]`` for ``units[i]``, and the rejected ones."""

    units: list[Unit]
    orders: list[Order]
    void: dict[int, str]
    rejected: list[OrderResult]


def match_orders(units: Sequence[Unit], orders: Iterable[Order]) -> _Checked:
    """Give every unit its order (a hold when it has none); orders for no unit are rejected."""
    by_region: dict[str, int] = {}
    shared: dict[str, list[int]] = {}  # a box may hold several units
    for position, unit in enumerate(units):
        if unit.region in by_region:
            shared.setdefault(unit.region, [by_region[unit.region]]).append(position)
        else:
            by_region[unit.region] = position
    given: list[Order | None] = [None] * len(units)
    rejected: list[OrderResult] = []
    for order in orders:
        index: int | None = by_region.get(order.region)
        if order.region in shared:  # the first unit there of the order's power still unordered
            index = next(
                (
                    i
                    for i in shared[order.region]
                    if given[i] is None
                    and units[i].unit_type is order.unit_type
                    and order.power in (None, units[i].power)
                ),
                index,
            )
        if index is None:
            rejected.append(
                OrderResult(order, False, f"there is no unit in {order.region}", void=True)
            )
            continue
        unit = units[index]
        if order.power is not None and order.power != unit.power:
            reason = f"the unit in {order.region} belongs to {unit.power}"
            rejected.append(OrderResult(order, False, reason, void=True))
        elif order.unit_type is not unit.unit_type:
            reason = f"the unit in {order.region} is {unit.unit_type.a_noun}"
            rejected.append(OrderResult(order, False, reason, void=True))
        elif given[index] is not None:
            rejected.append(
                OrderResult(
                    order, False, f"the unit in {order.region} already has an order", void=True
                )
            )
        else:
            given[index] = order
    final = [
        order
        if order is not None
        else Order(unit.power, unit.unit_type, unit.region, OrderKind.HOLD)
        for unit, order in zip(units, given, strict=True)
    ]
    return _Checked(list(units), final, {}, rejected)


class _Resolver:
    """One movement phase, as index-based arrays; see the module docstring."""

    def __init__(
        self, game_map: Map, units: Sequence[Unit], orders: Sequence[Order], rules: RuleSettings
    ):
        self.map = game_map
        self.rules = rules
        count = len(units)
        self.units = units
        self.orders = orders
        self.void: dict[int, str] = {}
        regions = game_map.regions
        for unit in units:
            if unit.region not in regions:
                raise BoardError(f"{unit.text()} stands on {unit.region}, which is not on the map")
        self.power = [u.power for u in units]
        self.src = [regions[u.region].province for u in units]
        self.kind = [_HOLD] * count
        self.dst: list[ProvinceId] = [""] * count
        self.mode = [_LAND] * count
        self.convoyers: list[list[int]] = [[] for _ in range(count)]
        self.supports: list[list[int]] = [[] for _ in range(count)]
        self.moves_to: dict[ProvinceId, list[int]] = {}
        self.unit_at: dict[ProvinceId, int] = {}
        """The one unit of each province that is not a box."""
        self.in_box: dict[ProvinceId, list[int]] = {}
        """The units of each box (any number, C3.4), in board order."""
        boxes = game_map.boxes
        self.boxes = boxes
        for index, province in enumerate(self.src):
            if province in boxes:
                self.in_box.setdefault(province, []).append(index)
            else:
                self.unit_at[province] = index
        self.result = [False] * count
        self.state = [_UNRESOLVED] * count
        self.deps: list[int] = []
        self.guess_reads = 0
        self.broken: set[int] = set()
        self._sea_routes: dict[tuple[ProvinceId, ProvinceId], frozenset[ProvinceId]] = {}
        self._check()

    # -- order checks -----------------------------------------------------------------------

    def _check(self) -> None:
        game_map = self.map
        orders = self.orders
        kinds = [order.kind for order in orders]
        convoy_offers: dict[tuple[ProvinceId, ProvinceId], list[int]] = {}
        if OrderKind.CONVOY in kinds:
            for index, order in enumerate(orders):
                if order.kind is not OrderKind.CONVOY or order.target is None:
                    continue
                if order.other is None or self.units[index].unit_type is not UnitType.FLEET:
                    continue
                if game_map.is_sea(self.src[index]):
                    key = (region_province(order.other), region_province(order.target))
                    convoy_offers.setdefault(key, []).append(index)
        # Moves first: supports and convoys are matched against the moves that stand.
        move, hold, support, convoy = (
            OrderKind.MOVE,
            OrderKind.HOLD,
            OrderKind.SUPPORT,
            OrderKind.CONVOY,
        )
        own_kind = self.kind
        moves_to = self.moves_to
        later: list[int] = []
        for index, kind in enumerate(kinds):
            if kind is move:
                reason = self._check_move(index, orders[index], convoy_offers)
                if reason is not None:
                    self.void[index] = reason
                    continue
                own_kind[index] = _MOVE
                target = self.dst[index]
                if target in moves_to:
                    moves_to[target].append(index)
                else:
                    moves_to[target] = [index]
            elif kind is support:
                own_kind[index] = _SUPPORT
                later.append(index)
            elif kind is convoy:
                own_kind[index] = _CONVOY
                later.append(index)
            elif kind is not hold:
                self.void[index] = f"'{kind.value}' is not an order of a movement phase"
        for index in later:
            if own_kind[index] == _SUPPORT:
                reason = self._check_support(index, orders[index])
            else:
                reason = self._check_convoy(index, orders[index])
            if reason is not None:
                self.void[index] = reason
                own_kind[index] = _HOLD

    def _check_move(
        self, index: int, order: Order, offers: dict[tuple[ProvinceId, ProvinceId], list[int]]
    ) -> str | None:
        game_map = self.map
        unit = self.units[index]
        target = order.target
        assert target is not None
        region = game_map.regions.get(target)
        if region is None:
            return f"there is no place called {target}"
        province = region.province
        here = self.src[index]
        if province == here:
            return "a unit cannot move to where it is"
        if unit.unit_type is UnitType.FLEET:
            if region.terrain is Terrain.LAND:
                return f"a fleet cannot go to {target}"
            self.dst[index] = province
            if order.via_convoy:
                return "only armies are convoyed"
            if target in game_map.fleet_moves[unit.region]:
                return None
            return f"{unit.region} does not border {target}"
        if region.terrain is Terrain.SEA:
            return f"an army cannot go to {target}"
        if region.coast is not None:
            return "an army moves to a province, not to a coast"
        self.dst[index] = province
        adjacent = target in game_map.army_moves[unit.region]
        offered = offers.get((here, province))
        if offered is None and adjacent and not order.via_convoy:
            return None
        fleets = [f for f in offered or () if self._could_carry(f, here, province)]
        route = self._route_possible(here, province, fleets)
        edition = self.rules.edition
        if not adjacent or order.via_convoy:
            if not route and not self._fleets_could_carry(here, province):
                return f"no fleets stand between {unit.region} and {target} to convoy it"
            self.mode[index] = _VIA_CONVOY
            self.convoyers[index] = fleets
            return None
        if route and (edition is Edition.E1971 or any(self.power[f] == unit.power for f in fleets)):
            # Convoyed when the convoy works, over land otherwise.
            self.mode[index] = _EITHER
            self.convoyers[index] = fleets
        return None

    def _fleets_could_carry(self, start: ProvinceId, end: ProvinceId) -> bool:
        """Whether fleets stand on some all-sea route from start to end, whatever their orders."""
        fleets = [
            i
            for i, u in enumerate(self.units)
            if u.unit_type is UnitType.FLEET
            and self.map.is_sea(self.src[i])
            and self._could_carry(i, start, end)
        ]
        return self._route_possible(start, end, fleets)

    def _could_carry(self, fleet: int, start: ProvinceId, end: ProvinceId) -> bool:
        """Whether the fleet lies on some all-sea route from start to end (a legal convoy)."""
        key = (start, end)
        seas = self._sea_routes.get(key)
        if seas is None:
            seas = self._seas_between(start, end)
            self._sea_routes[key] = seas
        return self.src[fleet] in seas

    def _seas_between(self, start: ProvinceId, end: ProvinceId) -> frozenset[ProvinceId]:
        game_map = self.map
        sea = game_map.sea_neighbours

        def spread(origin: ProvinceId) -> set[ProvinceId]:
            seen = {p for p in sea[origin] if game_map.is_sea(p)}
            frontier = list(seen)
            while frontier:
                nxt = []
                for place in frontier:
                    for other in sea[place]:
                        if other not in seen and game_map.is_sea(other):
                            seen.add(other)
                            nxt.append(other)
                frontier = nxt
            return seen

        return frozenset(spread(start) & spread(end))

    def _route_possible(self, start: ProvinceId, end: ProvinceId, fleets: list[int]) -> bool:
        """Whether the fleets could form a chain of seas from start to end."""
        if not fleets:
            return False
        sea = self.map.sea_neighbours
        places = {self.src[f]: f for f in fleets}
        reached: set[ProvinceId] = set()
        frontier = [p for p in sea[start] if p in places]
        reached.update(frontier)
        while frontier:
            nxt = []
            for place in frontier:
                for other in sea[place]:
                    if other in places and other not in reached:
                        reached.add(other)
                        nxt.append(other)
            frontier = nxt
        return any(end in sea[p] for p in reached)

    def _supported(self, index: int, order: Order, province: ProvinceId) -> int:
        """The unit a support names (-1: none): the one unit of a province; in a box, where
        several may stand, a unit there of the named type whose order the support matches (a
        move to the support's target, or no move for a support to hold), the supporter's own
        power's first, then in board order; failing that the first of that type, so that the
        support is void with the reason it does not match."""
        if province not in self.boxes:
            return self.unit_at.get(province, -1)
        power = self.power[index]
        candidates = sorted(
            (
                i
                for i in self.in_box.get(province, ())
                if i != index and order.other_type in (None, self.units[i].unit_type)
            ),
            key=lambda i: self.power[i] != power,
        )
        target = None if order.target is None else region_province(order.target)
        for i in candidates:
            moving = self.kind[i] == _MOVE
            if (target is None and not moving) or (moving and self.dst[i] == target):
                return i
        return candidates[0] if candidates else -1

    def _check_support(self, index: int, order: Order) -> str | None:
        unit = self.units[index]
        assert order.other is not None
        other_province = region_province(order.other)
        helped = self._supported(index, order, other_province)
        if helped < 0 or helped == index:
            return f"there is no other unit in {order.other} to support"
        if order.target is None:
            if not self.map.can_reach(unit.unit_type, unit.region, other_province):
                return f"{unit.region} cannot reach {other_province}, so it cannot support there"
            if self.kind[helped] == _MOVE:
                return f"the unit in {other_province} was ordered to move, not to hold"
            self.dst[index] = other_province
            self.supports[helped].append(index)
            return None
        province = region_province(order.target)
        if province not in self.map.provinces:
            return f"there is no place called {order.target}"
        if province == unit.province:
            return "a unit cannot support a move into its own province"
        if not self.map.can_reach(unit.unit_type, unit.region, province):
            return f"{unit.region} cannot reach {province}, so it cannot support a move there"
        if self.kind[helped] != _MOVE or self.dst[helped] != province:
            return f"the unit in {other_province} was not ordered to {order.target}"
        if province != order.target and self.orders[helped].target != order.target:
            moving_to = self.orders[helped].target
            return f"the unit in {other_province} moves to {moving_to}, not {order.target}"
        self.dst[index] = province
        self.supports[helped].append(index)
        return None

    def _check_convoy(self, index: int, order: Order) -> str | None:
        unit = self.units[index]
        if unit.unit_type is not UnitType.FLEET:
            return "only fleets convoy"
        if not self.map.is_sea(unit.province):
            return "only a fleet at sea can convoy"
        if order.target is None or order.other is None:
            return "a convoy names the army's move"
        army = self.unit_at.get(region_province(order.other), -1)
        if army < 0 or self.units[army].unit_type is not UnitType.ARMY:
            return f"there is no army in {order.other} to convoy"
        if (
            self.kind[army] != _MOVE
            or self.dst[army] != region_province(order.target)
            or self.mode[army] == _LAND
        ):
            return f"the army in {order.other} was not ordered to be convoyed to {order.target}"
        return None

    # -- the decisions ---------------------------------------------------------------------

    def resolve(self, nr: int) -> bool:
        state = self.state[nr]
        if state == _RESOLVED:
            return self.result[nr]
        if state == _GUESSING:
            # Reading a guess: whoever reads it depends on it (counted, so that a decision
            # reading only guesses already listed is not taken as settled).
            self.guess_reads += 1
            if nr not in self.deps:
                self.deps.append(nr)
            return self.result[nr]
        deps = self.deps
        old = len(deps)
        reads = self.guess_reads
        self.result[nr] = False
        self.state[nr] = _GUESSING
        first = self._adjudicate(nr)
        if len(deps) == old and self.guess_reads == reads:
            if self.state[nr] != _RESOLVED:
                self.result[nr] = first
                self.state[nr] = _RESOLVED
            return first
        if len(deps) == old or deps[old] != nr:
            deps.append(nr)
            self.result[nr] = first
            return first
        for other in deps[old:]:
            self.state[other] = _UNRESOLVED
        del deps[old:]
        self.result[nr] = True
        self.state[nr] = _GUESSING
        second = self._adjudicate(nr)
        if first == second:
            for other in deps[old:]:
                self.state[other] = _UNRESOLVED
            del deps[old:]
            self.result[nr] = first
            self.state[nr] = _RESOLVED
            return first
        self._backup_rule(old)
        return self.resolve(nr)

    def _backup_rule(self, old: int) -> None:
        cycle = self.deps[old:]
        convoys = [i for i in cycle if self.kind[i] == _CONVOY]
        if convoys:
            # Szykman: the armies convoyed through the paradox do not move.
            for fleet in convoys:
                order = self.orders[fleet]
                assert order.other is not None
                army = self.unit_at.get(region_province(order.other), -1)
                if army >= 0:
                    self.broken.add(army)
        else:
            for i in cycle:
                if self.kind[i] == _MOVE:
                    self.result[i] = True
                    self.state[i] = _RESOLVED
        for i in cycle:
            if self.state[i] != _RESOLVED or convoys:
                self.state[i] = _UNRESOLVED
        del self.deps[old:]

    def _adjudicate(self, nr: int) -> bool:
        kind = self.kind[nr]
        if kind == _MOVE:
            return self._move_succeeds(nr)
        if kind == _SUPPORT:
            return self._support_given(nr)
        return not self.dislodged(nr)

    def _move_succeeds(self, nr: int) -> bool:
        dst = self.dst[nr]
        if not self.path(nr):
            return False
        if dst in self.boxes:
            return True
        attack = self.attack(nr)
        opponent = self.head_to_head(nr)
        if opponent >= 0:
            if attack <= self.defend(opponent):
                return False
        elif attack <= self.hold(dst):
            return False
        for other in self.moves_to[dst]:
            if other != nr and attack <= self.prevent(other):
                return False
        return True

    def _support_given(self, nr: int) -> bool:
        here = self.src[nr]
        if here in self.boxes:
            return True
        if self.dislodged(nr):
            return False
        power = self.power[nr]
        target = self.dst[nr]
        for attacker in self.moves_to.get(here, ()):
            if (
                self.power[attacker] != power
                and self.src[attacker] != target
                and self.path(attacker)
            ):
                return False
        return True

    def dislodged(self, nr: int) -> bool:
        here = self.src[nr]
        if here in self.boxes:
            return False
        if self.kind[nr] == _MOVE and self.resolve(nr):
            return False
        return any(self.resolve(m) for m in self.moves_to.get(here, ()))

    def convoyed(self, nr: int) -> bool:
        mode = self.mode[nr]
        if mode == _LAND:
            return False
        if mode == _VIA_CONVOY:
            return True
        return self._convoy_route(nr)

    def path(self, nr: int) -> bool:
        mode = self.mode[nr]
        if mode in (_LAND, _EITHER):
            return True
        return self._convoy_route(nr)

    def _convoy_route(self, nr: int) -> bool:
        if nr in self.broken:
            return False
        sea = self.map.sea_neighbours
        start, end = self.src[nr], self.dst[nr]
        places = {self.src[f]: f for f in self.convoyers[nr]}
        seen: set[ProvinceId] = set()
        frontier = [start]
        while frontier:
            nxt = []
            for place in frontier:
                for other in sea[place]:
                    if other in places and other not in seen:
                        seen.add(other)
                        if self.resolve(places[other]):
                            if end in sea[other]:
                                return True
                            nxt.append(other)
            frontier = nxt
        return False

    def head_to_head(self, nr: int) -> int:
        other = self.unit_at.get(self.dst[nr], -1)
        if other < 0 or self.kind[other] != _MOVE or self.dst[other] != self.src[nr]:
            return -1
        if self.convoyed(nr) or self.convoyed(other):
            return -1
        return other

    def _support_count(self, nr: int, excluded_power: str | None = None) -> int:
        count = 0
        for s in self.supports[nr]:
            if excluded_power is not None and self.power[s] == excluded_power:
                continue
            if self.resolve(s):
                count += 1
        return count

    def hold(self, province: ProvinceId) -> int:
        occupant = self.unit_at.get(province, -1)
        if occupant < 0:
            return 0
        if self.kind[occupant] == _MOVE:
            return 0 if self.resolve(occupant) else 1
        return 1 + self._support_count(occupant)

    def attack(self, nr: int) -> int:
        occupant = self.unit_at.get(self.dst[nr], -1)
        if occupant < 0:
            return 1 + self._support_count(nr)
        if self.kind[occupant] == _MOVE and self.head_to_head(nr) < 0 and self.resolve(occupant):
            return 1 + self._support_count(nr)
        if self.power[occupant] == self.power[nr]:
            return 0
        return 1 + self._support_count(nr, self.power[occupant])

    def defend(self, nr: int) -> int:
        return 1 + self._support_count(nr)

    def prevent(self, nr: int) -> int:
        if not self.path(nr):
            return 0
        opponent = self.head_to_head(nr)
        if opponent >= 0 and self.resolve(opponent):
            return 0
        return 1 + self._support_count(nr)

    # -- explanations --------------------------------------------------------------------

    def explain(self, nr: int) -> tuple[bool, str]:
        """The final outcome of unit ``nr``'s order and why, once everything is resolved."""
        if nr in self.void:
            return False, self.void[nr]
        kind = self.kind[nr]
        if kind == _MOVE:
            return self._explain_move(nr)
        if kind == _SUPPORT:
            if self.result[nr]:
                return True, "support given"
            if self.dislodged(nr):
                return False, "the supporting unit was dislodged"
            cutters = [
                self.src[a]
                for a in self.moves_to.get(self.src[nr], ())
                if self.power[a] != self.power[nr] and self.src[a] != self.dst[nr] and self.path(a)
            ]
            return False, f"support cut by the attack from {', '.join(sorted(cutters))}"
        if kind == _CONVOY:
            return (
                (True, "convoy in place")
                if self.result[nr]
                else (False, "the convoying fleet was dislodged")
            )
        if self.dislodged(nr):
            return False, "dislodged"
        return True, "held"

    def _explain_move(self, nr: int) -> tuple[bool, str]:
        dst = self.dst[nr]
        if self.result[nr]:
            if self.mode[nr] != _LAND and self.convoyed(nr):
                return True, f"convoyed to {dst}"
            return True, f"moved to {dst}"
        if not self.path(nr):
            if nr in self.broken:
                return False, "convoy paradox: the convoyed army does not move (Szykman rule)"
            return False, "no convoy route was left: a convoying fleet was dislodged"
        attack = self.attack(nr)
        occupant = self.unit_at.get(dst, -1)
        if attack == 0 and occupant >= 0 and self.power[occupant] == self.power[nr]:
            return False, f"a unit cannot dislodge a unit of its own power ({dst})"
        opponent = self.head_to_head(nr)
        if opponent >= 0 and attack <= self.defend(opponent):
            return (
                False,
                f"lost the head-to-head battle with {self.src[opponent]}"
                f" ({attack} against {self.defend(opponent)})",
            )
        if opponent < 0:
            hold = self.hold(dst)
            if attack <= hold:
                return False, f"bounced off {dst} (attack {attack} against hold {hold})"
        rivals = [self.src[o] for o in self.moves_to[dst] if o != nr and attack <= self.prevent(o)]
        return False, f"standoff in {dst} with {', '.join(sorted(rivals))} (attack {attack})"


def adjudicate_movement(
    game_map: Map,
    units: Sequence[Unit],
    orders: Iterable[Order],
    rules: RuleSettings | None = None,
) -> MovementResult:
    """Adjudicate one movement phase. Units without an order hold."""
    checked = match_orders(units, orders)
    resolver = _Resolver(game_map, checked.units, checked.orders, rules or RuleSettings())
    count = len(checked.units)
    for index in range(count):
        if resolver.kind[index] != _HOLD:
            resolver.resolve(index)
    results: list[OrderResult] = []
    dislodged: list[Dislodgement] = []
    after: list[Unit] = []
    kind, result, src, moves_to, void = (
        resolver.kind,
        resolver.result,
        resolver.src,
        resolver.moves_to,
        resolver.void,
    )
    orders_given = checked.orders
    for index, unit in enumerate(checked.units):
        order = orders_given[index]
        if kind[index] == _MOVE and result[index]:
            assert order.target is not None
            after.append(Unit(unit.power, unit.unit_type, order.target, unit.cargo))
            if resolver.mode[index] != _LAND and resolver.convoyed(index):
                reason = f"convoyed to {order.target}"
            else:
                reason = f"moved to {order.target}"
            results.append(OrderResult(order, True, reason))
            continue
        winner = -1
        here = src[index]
        if here not in resolver.boxes:
            for m in moves_to.get(here, ()):
                if result[m]:
                    winner = m
                    break
        if winner >= 0:
            origin = None if resolver.convoyed(winner) else src[winner]
            dislodged.append(Dislodgement(unit, origin))
        else:
            after.append(unit)
        if kind[index] == _HOLD and index not in void:
            reason = "dislodged" if winner >= 0 else "held"
            results.append(OrderResult(order, winner < 0, reason))
        else:
            succeeded, reason = resolver.explain(index)
            results.append(OrderResult(order, succeeded, reason, void=index in void))
    contested = set()
    for province, movers in resolver.moves_to.items():
        if province in resolver.boxes or any(resolver.result[m] for m in movers):
            continue
        if any(resolver.prevent(m) > 0 for m in movers):
            contested.add(province)
    return MovementResult(
        tuple(results) + tuple(checked.rejected),
        tuple(dislodged),
        frozenset(contested),
        tuple(after),
    )
