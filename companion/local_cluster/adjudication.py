"""The action and resolution phases of a turn (rulebook 4.3 and 4.4, rulings R4 and R5).

:func:`adjudicate` takes a position and every empire's order sheet and returns a
:class:`~companion.local_cluster.outcomes.TurnResult` that explains itself. Steps run in the
rulebook's
order: hold, move, support, recall, deploy, advance, claim; then combats; then the retreats
owed. The function is pure: the same position and orders always give the same result.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping

from companion.errors import StateError
from companion.local_cluster.atoms import CARRIER_CAPACITY, CRAFT_STRENGTH, Colour, SectorId, UnitId
from companion.local_cluster.orders import (
    ADVANCE,
    CLAIM,
    HOLD,
    MOVE,
    SUPPORT,
    Order,
    OrderKind,
    OrderSheet,
)
from companion.local_cluster.outcomes import (
    BOUNCED,
    CANCELLED,
    CUT,
    DONE,
    FAILED,
    LOST,
    PARTIAL,
    REPLACED,
    VOID,
    WON,
    ClaimChange,
    Combat,
    MoveKind,
    Movement,
    OrderOutcome,
    OutcomeStatus,
    StrengthPart,
    TurnResult,
)
from companion.local_cluster.retreats import apply_retreats
from companion.local_cluster.state import ORDERS, RETREATS, Craft, RetreatOwed, State, Unit
from companion.local_cluster.validation import Assignment, Entry, assign_orders

Orders = Mapping[Colour, OrderSheet | str]


def _sheet(value: OrderSheet | str) -> OrderSheet:
    return value if isinstance(value, OrderSheet) else OrderSheet.parse(value)


def adjudicate(state: State, orders: Orders) -> TurnResult:
    """Resolve one turn. Empires missing from ``orders`` hold everywhere (R3.3, R8.2)."""
    if state.phase is not ORDERS:
        raise StateError(f"the game is waiting for {state.phase.value}, not for orders")
    for colour in orders:
        empire = state.empire(colour)
        if empire.eliminated:
            raise StateError(f"{colour.title} has been eliminated and gives no orders")
    assignments = [
        assign_orders(state, colour, _sheet(orders.get(colour, OrderSheet())))
        for colour in state.active_colours
    ]
    return _Turn(state, assignments).run()


_MOVE_ARROW, _ADVANCE_ARROW, _DEPLOY_ARROW, _RECALL_ARROW = MoveKind

# One outcome per order line: tuple.__new__ skips the Python-level __new__ of the named tuple.
_outcome = functools.partial(tuple.__new__, OrderOutcome)
_new_combat = functools.partial(tuple.__new__, Combat)
_strength_part = functools.partial(tuple.__new__, StrengthPart)


def _count(targets: Iterable[SectorId]) -> dict[SectorId, int]:
    """How many orders go for each sector (a plain dict: cheaper than a Counter here)."""
    counts: dict[SectorId, int] = {}
    for target in targets:
        counts[target] = counts.get(target, 0) + 1
    return counts


def _name(unit: Unit) -> str:
    return f"{unit.owner.title} {unit.kind.noun}"


class _Turn:
    """The working board of one adjudication; used once, by :func:`adjudicate`."""

    def __init__(self, state: State, assignments: list[Assignment]) -> None:
        self.state = state
        self.galaxy = state.galaxy
        self.units: Mapping[UnitId, Unit] = state.unit_by_id  # read only: the units as they began
        self.position: dict[UnitId, SectorId] = {u.id: u.sector for u in state.units}
        self.at: dict[SectorId, UnitId] = {u.sector: u.id for u in state.units}
        self.docked: dict[UnitId, int] = {u.id: u.docked for u in state.units}
        self.changed: set[UnitId] = set()
        """Units whose sector or docked craft changed this turn."""
        self.craft: list[Craft] = list(state.craft)
        self.claims: dict[SectorId, Colour] = dict(state.claims)
        self.outcomes: dict[int, OrderOutcome] = {}
        """By seat, then line: ``seat << 32 | line`` sorts as (seat, line) and is cheaper."""
        self.seat_of = {e.colour: e.seat for e in state.empires}
        self.movements: list[Movement] = []
        self.claim_changes: list[ClaimChange] = []
        self.combats: list[Combat] = []
        self.dislodged: dict[UnitId, UnitId] = {}
        self.supported_by: dict[UnitId, list[UnitId]] = defaultdict(list)
        self.grouped: dict[OrderKind, list[tuple[UnitId, Entry, Order]]] = {}
        """The valid main orders by kind; each list by the unit's sector at the start."""
        self.recalls: list[tuple[UnitId, Entry, Order]] = []
        self.deploys: list[tuple[UnitId, Entry, Order]] = []
        for assignment in assignments:
            self._take(assignment)
        order, position = self.galaxy.order, self.position

        def by_sector(item: tuple[UnitId, Entry, Order]) -> int:
            return order[position[item[0]]]

        for items in (*self.grouped.values(), self.recalls, self.deploys):
            items.sort(key=by_sector)

    # Bookkeeping ----------------------------------------------------------------------------

    def _take(self, assignment: Assignment) -> None:
        colour = assignment.colour
        for entry in assignment.unplaced:
            self._report(colour, entry, VOID, f"void: {entry.void}")
        for entry, by_line in assignment.replaced:
            reason = f"line {by_line} gave this unit another order, which replaces this one"
            if entry.void is not None:
                reason += f" (this line was void anyway: {entry.void})"
            self._report(colour, entry, REPLACED, reason)
        grouped = self.grouped
        for slot, target in (
            (assignment.main, None),
            (assignment.recall, self.recalls),
            (assignment.deploy, self.deploys),
        ):
            for unit_id, entry in slot.items():
                order = entry.checked.order
                if order is None or entry.checked.void is not None or entry.line.error:
                    self._report(colour, entry, VOID, f"void, so the unit holds: {entry.void}")
                elif target is None:
                    kind = order.kind
                    if kind in grouped:
                        grouped[kind].append((unit_id, entry, order))
                    else:
                        grouped[kind] = [(unit_id, entry, order)]
                else:
                    target.append((unit_id, entry, order))

    def _report(
        self,
        colour: Colour,
        entry: Entry,
        status: OutcomeStatus,
        reason: str,
        combat: Combat | None = None,
    ) -> None:
        checked = entry.checked
        line = entry.line
        order = checked.order or line.order
        unit = checked.unit
        self.outcomes[self.seat_of[colour] << 32 | line.line] = _outcome(
            (
                colour,
                line.line,
                order.text() if order is not None else line.text,
                status,
                reason,
                order,
                None if unit is None else unit.id,
                combat,
            )
        )

    def _done(
        self,
        unit_id: UnitId,
        entry: Entry,
        status: OutcomeStatus,
        reason: str,
        combat: Combat | None = None,
    ) -> None:
        """The outcome of a valid order (its checked order and unit are set)."""
        order = entry.checked.order
        colour = self.units[unit_id].owner
        number = entry.line.line
        self.outcomes[self.seat_of[colour] << 32 | number] = _outcome(
            (colour, number, order.text(), status, reason, order, unit_id, combat)  # type: ignore[union-attr]
        )

    def _orders(self, kind: OrderKind) -> list[tuple[UnitId, Entry, Order]]:
        """The valid main orders of one kind, by the unit's sector at the start of the turn."""
        return self.grouped.get(kind, [])

    def _rivals(
        self, unit_id: UnitId, target: SectorId, orders: list[tuple[UnitId, Entry, Order]]
    ) -> str:
        """``Blue destroyer from S3 and Red battleship from S9``: the others going for target."""
        return " and ".join(
            f"{_name(self.units[u])} from {self.position[u]}"
            for u, _, o in orders
            if o.targets[0] == target and u != unit_id
        )

    def _claim(self, sector: SectorId, colour: Colour) -> None:
        before = self.claims.get(sector)
        if before is not colour:
            self.claims[sector] = colour
            self.claim_changes.append(ClaimChange(sector, before, colour))

    def _owned(self, carrier: UnitId) -> int:
        return self.docked[carrier] + sum(1 for c in self.craft if c.carrier == carrier)

    def _strength(self, unit_id: UnitId) -> int:
        return self.units[unit_id].kind.strength + self.docked[unit_id]

    # The steps ------------------------------------------------------------------------------

    def run(self) -> TurnResult:
        # Step 1, HOLD, moves nothing: a holding unit's outcome is written with the supports,
        # once it is known whether the unit was attacked.
        self._moves()
        self._supports()
        self._recalls()
        self._deploys()
        retreats = self._advances()
        self._claims()
        return self._result(retreats)

    def _moves(self) -> None:
        """Step 2, R4.2: into a sector empty at the start of the turn that no other MOVE targets."""
        moves = self._orders(MOVE)
        wanted = _count(order.targets[0] for _, _, order in moves)
        arrivals: list[tuple[UnitId, SectorId]] = []
        for unit_id, entry, order in moves:
            if wanted[order.targets[0]] > 1:
                others = self._rivals(unit_id, order.targets[0], moves)
                self._done(
                    unit_id,
                    entry,
                    BOUNCED,
                    f"bounced: {others} also moved to {order.targets[0]}, so every "
                    "move there failed and the units held (R4.2)",
                )
            else:
                arrivals.append((unit_id, order.targets[0]))
                self._done(unit_id, entry, DONE, f"moved to {order.targets[0]}")
        for unit_id, target in arrivals:
            origin = self.position[unit_id]
            del self.at[origin]
            self.at[target] = unit_id
            self.position[unit_id] = target
            self.changed.add(unit_id)
            self.movements.append(
                Movement(_MOVE_ARROW, self.units[unit_id].owner, unit_id, origin, target)
            )

    def _supports(self) -> None:
        """Step 3, R4.3: attach the supporter's strength to whoever stands in the target now."""
        self.supports: list[tuple[UnitId, Entry, UnitId]] = []
        for unit_id, entry, order in self._orders(SUPPORT):
            target_unit = self.at.get(order.targets[0])
            if target_unit is None:
                self._done(
                    unit_id,
                    entry,
                    VOID,
                    f"void: no unit stood in {order.targets[0]} after the moves, so there was "
                    "nobody to support (R4.3)",
                )
                continue
            self.supported_by[target_unit].append(unit_id)
            self.supports.append((unit_id, entry, target_unit))

    def _recalls(self) -> None:
        """Step 4, R4.4: bring craft of the same empire back docked, within capacity.

        Each sector a RECALL names is one craft wanted from there. First every recalling
        carrier takes back its own craft in the sectors it names; then the places still open
        take the empire's other craft there, the recalling carrier in the lowest-numbered
        sector first, each within its capacity (a carrier with no room leaves the craft to the
        next). So when several carriers recall the same craft, its own carrier takes it if it
        is one of them, else the lowest-numbered sector's that has room.
        """
        recalls = self.recalls  # by the carrier's sector, lowest first
        # Per recall, per sector named: the sector it came from, or why nothing came.
        got: list[list[str | None]] = [[None] * len(order.targets) for _, _, order in recalls]
        for n, (unit_id, _, order) in enumerate(recalls):
            for k, source in enumerate(order.targets):
                own = next(
                    (
                        i
                        for i, c in enumerate(self.craft)
                        if c.sector == source and c.carrier == unit_id
                    ),
                    None,
                )
                if own is not None:
                    self._dock(unit_id, own)
                    got[n][k] = ""
        for n, (unit_id, _, order) in enumerate(recalls):
            colour = self.units[unit_id].owner
            for k, source in enumerate(order.targets):
                if got[n][k] is not None:
                    continue
                mine = [
                    i for i, c in enumerate(self.craft) if c.sector == source and c.owner is colour
                ]
                if not mine:
                    got[n][k] = f"no craft of yours was left in {source} to recall"
                elif self._owned(unit_id) >= CARRIER_CAPACITY:
                    got[n][k] = (
                        f"the craft in {source} stayed out: this carrier already has "
                        f"{CARRIER_CAPACITY} craft"
                    )
                else:
                    self._dock(unit_id, min(mine, key=lambda i: self.craft[i].carrier))
                    got[n][k] = ""
        for (unit_id, entry, order), slots in zip(recalls, got, strict=True):
            colour = self.units[unit_id].owner
            here = self.position[unit_id]
            done: list[str] = []
            failed: list[str] = []
            for source, problem in zip(order.targets, slots, strict=True):
                if problem:
                    failed.append(problem)
                    continue
                done.append(source)
                self.movements.append(Movement(_RECALL_ARROW, colour, unit_id, source, here))
            self._craft_outcome(unit_id, entry, "recalled craft from", done, failed)

    def _dock(self, carrier: UnitId, index: int) -> None:
        """The craft at ``index`` of the board's craft comes back docked on ``carrier``."""
        del self.craft[index]
        self.docked[carrier] += 1
        self.changed.add(carrier)

    def _craft_outcome(
        self, unit_id: UnitId, entry: Entry, verb: str, done: list[str], failed: list[str]
    ) -> None:
        parts = []
        if done:
            parts.append(f"{verb} {', '.join(done)}")
        parts.extend(failed)
        status = DONE if not failed else PARTIAL if done else FAILED
        self._done(unit_id, entry, status, "; ".join(parts))

    def _deploys(self) -> None:
        """Step 5, R4.5: one docked craft per listed sector, into sectors free of other empires."""
        deploys = self.deploys
        empires_into: dict[SectorId, set[Colour]] = defaultdict(set)
        for unit_id, _, order in deploys:
            for target in order.targets:
                empires_into[target].add(self.units[unit_id].owner)
        for unit_id, entry, order in deploys:
            colour = self.units[unit_id].owner
            here = self.position[unit_id]
            done: list[str] = []
            failed: list[str] = []
            for target in order.targets:
                writers = empires_into[target]
                occupant = self.at.get(target)
                if len(writers) > 1:
                    rivals = sorted(writers - {colour}, key=lambda c: c.rank)
                    names = " and ".join(c.title for c in rivals)
                    failed.append(
                        f"{names} also deployed into {target}; deploys of two empires into one "
                        "sector all fail (R4.5)"
                    )
                elif self.docked[unit_id] == 0:
                    failed.append(f"no craft was left docked to send to {target}")
                elif occupant is not None and self.units[occupant].owner is not colour:
                    failed.append(f"{_name(self.units[occupant])} is in {target}")
                elif other := next(
                    (c for c in self.craft if c.sector == target and c.owner is not colour), None
                ):
                    failed.append(f"{other.owner.title} strike craft are in {target}")
                else:
                    self.docked[unit_id] -= 1
                    self.changed.add(unit_id)
                    self.craft.append(Craft(unit_id, colour, target))
                    done.append(target)
                    self.movements.append(Movement(_DEPLOY_ARROW, colour, unit_id, here, target))
                    continue
            self._craft_outcome(unit_id, entry, "deployed craft to", done, failed)

    def _advances(self) -> list[RetreatOwed]:
        """Step 6, R4.6, then the resolution phase (R5.1, R5.2) and the retreats owed (R5.3)."""
        live: list[tuple[UnitId, Entry, Order]] = []
        for unit_id, entry, order in self._orders(ADVANCE):
            occupant = self.at.get(order.targets[0])
            if occupant is not None and self.units[occupant].owner is self.units[unit_id].owner:
                self._done(
                    unit_id,
                    entry,
                    FAILED,
                    f"failed: your own {self.units[occupant].kind.noun} stands in "
                    f"{order.targets[0]}, so this unit held (R4.6)",
                )
            else:
                live.append((unit_id, entry, order))
        wanted = _count(order.targets[0] for _, _, order in live)
        single: list[tuple[UnitId, Entry, Order]] = []
        for unit_id, entry, order in live:
            if wanted[order.targets[0]] > 1:
                others = self._rivals(unit_id, order.targets[0], live)
                self._done(
                    unit_id,
                    entry,
                    BOUNCED,
                    f"bounced: {others} also advanced into {order.targets[0]}; every "
                    "advance there failed and nobody there was dislodged (R4.6)",
                )
            else:
                single.append((unit_id, entry, order))
        for unit_id, _, order in single:
            occupant = self.at.get(order.targets[0])
            if occupant is not None:
                self.dislodged[occupant] = unit_id
        going: list[tuple[UnitId, Entry, Order]] = []
        for unit_id, entry, order in single:
            if unit_id in self.dislodged:
                self._done(
                    unit_id,
                    entry,
                    CANCELLED,
                    f"cancelled: {self._dislodger(unit_id)} dislodged this unit, which cancels "
                    "its advance (R4.6)",
                )
            else:
                going.append((unit_id, entry, order))
        # All combats are judged on the same board before anybody moves (R5).
        fights: list[tuple[UnitId, Entry, Order, Combat]] = []
        empty: list[tuple[UnitId, Entry, Order]] = []
        for unit_id, entry, order in going:
            combat = self._combat(unit_id, order.targets[0])
            if combat is None:
                empty.append((unit_id, entry, order))
            else:
                fights.append((unit_id, entry, order, combat))
                self.combats.append(combat)
        claims_empty = self.state.rules.advance_claims_empty
        arrivals: list[tuple[UnitId, SectorId, bool]] = []
        for unit_id, entry, order in empty:
            arrivals.append((unit_id, order.targets[0], claims_empty))
            self._done(
                unit_id,
                entry,
                DONE,
                f"advanced into {order.targets[0]}"
                + (
                    " and claimed it"
                    if claims_empty
                    else " (at this table an advance into an empty sector does not claim it)"
                ),
            )
        losers: list[tuple[UnitId, Combat]] = []
        for unit_id, entry, order, combat in fights:
            attack, defence = combat.attack_strength, combat.defence_strength
            figures = f"{attack} against {defence}"
            if attack > defence:  # R5.2: a tie holds
                arrivals.append((unit_id, order.targets[0], True))
                beaten = (
                    _name(self.units[combat.defender_unit]) + " must retreat"
                    if combat.defender_unit is not None
                    else f"{combat.defender.title}'s strike craft there were destroyed"
                )
                self._done(
                    unit_id,
                    entry,
                    WON,
                    f"won {figures}: moved into {order.targets[0]} and claimed it; {beaten}",
                    combat,
                )
                if combat.defender_unit is not None:
                    losers.append((combat.defender_unit, combat))
                self.craft = [
                    c
                    for c in self.craft
                    if not (c.sector == order.targets[0] and c.owner is combat.defender)
                ]
            else:
                self._done(
                    unit_id,
                    entry,
                    LOST,
                    f"lost {figures}: {combat.defender.title} held {combat.sector} and this "
                    f"unit stayed in {self.position[unit_id]}",
                    combat,
                )
        for loser, _ in losers:
            del self.at[self.position[loser]]
        for unit_id, target, claims in arrivals:
            origin = self.position[unit_id]
            del self.at[origin]
            self.at[target] = unit_id
            self.position[unit_id] = target
            self.changed.add(unit_id)
            self.movements.append(
                Movement(_ADVANCE_ARROW, self.units[unit_id].owner, unit_id, origin, target)
            )
            if claims:
                self._claim(target, self.units[unit_id].owner)
        return [self._retreat(loser, combat) for loser, combat in losers]

    def _dislodger(self, unit_id: UnitId) -> str:
        attacker = self.dislodged[unit_id]
        return f"{_name(self.units[attacker])}'s advance from {self.position[attacker]}"

    def _combat(self, unit_id: UnitId, target: SectorId) -> Combat | None:
        """The combat an advance starts, or None when nobody else's unit or craft is there."""
        attacker = self.units[unit_id]
        colour = attacker.owner
        defender_id = self.at.get(target)
        enemy_craft = [c for c in self.craft if c.sector == target and c.owner is not colour]
        if defender_id is None and not enemy_craft:
            return None
        attack = [
            _strength_part(
                (f"{_name(attacker)} from {self.position[unit_id]}", self._strength(unit_id))
            )
        ]
        attack += self._support_parts(unit_id)
        defence: list[StrengthPart] = []
        if defender_id is not None:
            defender = self.units[defender_id]
            defender_colour = defender.owner
            defence.append(
                _strength_part((f"{_name(defender)} in {target}", self._strength(defender_id)))
            )
        else:
            defender_colour = min((c.owner for c in enemy_craft), key=lambda c: c.rank)
        own_craft = sum(1 for c in enemy_craft if c.owner is defender_colour)
        if own_craft:
            noun = "strike craft"
            defence.append(
                StrengthPart(
                    f"{own_craft} {defender_colour.title} {noun} in {target}",
                    own_craft * CRAFT_STRENGTH,
                )
            )
        if defender_id is not None:
            defence += self._support_parts(defender_id)
        return _new_combat(
            (
                target,
                colour,
                unit_id,
                self.position[unit_id],
                tuple(attack),
                defender_colour,
                defender_id,
                tuple(defence),
            )
        )

    def _support_parts(self, unit_id: UnitId) -> list[StrengthPart]:
        """The uncut supports of a unit (R5.1: dislodged supporters are cut)."""
        parts = []
        for supporter in self.supported_by.get(unit_id, ()):
            if supporter not in self.dislodged:
                who = f"{_name(self.units[supporter])} in {self.position[supporter]}"
                parts.append(_strength_part((f"support from {who}", self._strength(supporter))))
        return parts

    def _retreat(self, unit_id: UnitId, combat: Combat) -> RetreatOwed:
        """R5.3: adjacent sectors with no unit once winners moved in, not the attacker's origin."""
        unit = self.units[unit_id]
        sector = combat.sector
        options = sorted(
            (
                n
                for n in self.galaxy.neighbours[sector]
                if n != combat.attacker_from and n not in self.at
            ),
            key=self.galaxy.order.__getitem__,
        )
        return RetreatOwed(
            unit=unit_id,
            owner=unit.owner,
            kind=unit.kind,
            docked=self.docked[unit_id],
            sector=sector,
            attacker_from=combat.attacker_from,
            options=tuple(options),
        )

    def _claims(self) -> None:
        """Step 7, R4.7: a unit that was not dislodged claims its sector."""
        for unit_id, entry, _ in self._orders(CLAIM):
            if unit_id in self.dislodged:
                self._done(
                    unit_id,
                    entry,
                    CANCELLED,
                    f"cancelled: {self._dislodger(unit_id)} dislodged this unit, which cancels "
                    "its claim (R4.7)",
                )
                continue
            colour = self.units[unit_id].owner
            sector = self.position[unit_id]
            already = self.claims.get(sector) is colour
            self._claim(sector, colour)
            self._done(
                unit_id,
                entry,
                DONE,
                f"{sector} was already yours" if already else f"claimed {sector}",
            )
        self._report_supports_and_holds()

    def _report_supports_and_holds(self) -> None:
        combat_of: dict[UnitId | None, Combat] = {}
        for fight in self.combats:
            combat_of[fight.attacker_unit] = fight
            combat_of[fight.defender_unit] = fight
        for supporter, entry, target in self.supports:
            strength = self._strength(supporter)
            if supporter in self.dislodged:
                self._done(
                    supporter,
                    entry,
                    CUT,
                    f"cut: {self._dislodger(supporter)} dislodged this unit, so its support "
                    "did not count (R5.1)",
                )
                continue
            combat = combat_of.get(target)
            who = _name(self.units[target])
            if combat is None:
                reason = f"supported {who} with {strength}; it was not in combat"
            elif combat.attacker_unit == target:
                reason = f"added {strength} to {who}'s attack on {combat.sector}"
            else:
                reason = f"added {strength} to {who}'s defence of {combat.sector}"
            self._done(supporter, entry, DONE, reason)
        for unit_id, entry, _ in self._orders(HOLD):
            combat = combat_of.get(unit_id)
            if combat is None:
                reason = "held"
            else:
                attack, defence = combat.attack_strength, combat.defence_strength
                if attack > defence:
                    reason = (
                        f"lost {combat.sector} to {combat.attacker.title}'s attack, "
                        f"{defence} against {attack}; must retreat"
                    )
                else:
                    reason = (
                        f"held {combat.sector} against {combat.attacker.title}'s attack, "
                        f"{defence} against {attack}"
                    )
            self._done(unit_id, entry, DONE, reason, combat)

    # The result -----------------------------------------------------------------------------

    def _result(self, retreats: list[RetreatOwed]) -> TurnResult:
        losers = {r.unit for r in retreats}
        changed, position, docked = self.changed, self.position, self.docked
        units = tuple(
            Unit(unit.id, unit.owner, unit.kind, position[unit.id], docked[unit.id])
            if unit.id in changed
            else unit
            for unit in self.state.units  # in id order, as State keeps them
            if unit.id not in losers
        )
        state = self.state.replace(
            units=units,
            craft=self.craft,
            claims=self.claims if self.claim_changes else self.state.claims,
            phase=RETREATS,
            retreats=retreats,
            check=False,
        )
        aftermath: tuple[str, ...] = ()
        if not any(r.options for r in retreats):
            state, aftermath = apply_retreats(state, {})
        found = self.outcomes
        outcomes = tuple([found[key] for key in sorted(found)])
        return TurnResult(
            turn=self.state.turn,
            outcomes=outcomes,
            combats=tuple(self.combats),
            movements=tuple(self.movements),
            claims_changed=tuple(self.claim_changes),
            dislodged=tuple(sorted(self.dislodged)),
            retreats=tuple(retreats),
            state=state,
            aftermath=aftermath,
        )
