"""Is an order possible? Ruling R3: which unit an order line belongs to, and why a void one is void.

:func:`check_order` answers for one order on a position, in a player's words; entry interfaces
use it to refuse a void order at once (R3.3). :func:`assign_orders` applies R3.2 to a whole
order sheet: the last line for a unit is its order, and a carrier may keep one RECALL and one
DEPLOY instead.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from companion.local_cluster.atoms import CARRIER, Colour, SectorId, UnitId
from companion.local_cluster.orders import (
    ADVANCE,
    CLAIM,
    DEPLOY,
    HOLD,
    MOVE,
    RECALL,
    SUPPORT,
    Order,
    OrderSheet,
    SheetLine,
)
from companion.local_cluster.settings import SupportRange
from companion.local_cluster.state import State, Unit


class Checked(NamedTuple):
    """An order checked against a position: the order with the galaxy's own sector ids, or
    the reason it is void. (A named tuple: the adjudicator makes one per order line.)"""

    order: Order | None
    unit: Unit | None
    void: str | None = None


_ADJACENT = SupportRange.ADJACENT


def _owner_words(unit: Unit, colour: Colour) -> str:
    return (
        f"your {unit.kind.noun}"
        if unit.owner is colour
        else f"{unit.owner.title}'s {unit.kind.noun}"
    )


def find_unit(state: State, colour: Colour, sector_text: str) -> tuple[Unit | None, str | None]:
    """The empire's unit in the named sector, or why there is none."""
    sector = state.galaxy.resolve(sector_text)
    if sector is None:
        return None, f"there is no sector {sector_text} in this galaxy"
    unit = state.unit_at.get(sector)
    if unit is None:
        if any(c.sector == sector and c.owner is colour for c in state.craft):
            return None, (
                f"only strike craft are in {sector}; craft take no orders of their own, "
                "they go where their carrier's DEPLOY and RECALL send them (R3.5)"
            )
        return None, f"you have no unit in {sector}"
    if unit.owner is not colour:
        return None, f"the unit in {sector} is {unit.owner.title}'s {unit.kind.noun}, not yours"
    return unit, None


def check_order(state: State, colour: Colour, order: Order) -> Checked:
    """Check one order for ``colour`` on ``state`` (R3.3, R3.4).

    Only what the position at the start of the turn decides is checked here; what depends on
    other orders (bounces, combats, supports whose target moved away) is the adjudicator's.
    """
    galaxy = state.galaxy
    unit = state.unit_at.get(order.sector)  # the common case: the galaxy's own id, own unit
    if unit is None or unit.owner is not colour:
        unit, problem = find_unit(state, colour, order.sector)
        if unit is None:
            return Checked(None, None, problem)
    kind = order.kind
    if kind is HOLD or kind is CLAIM:
        same = order.sector == unit.sector
        return _checked((order if same else Order(kind, unit.sector), unit, None))
    known = galaxy.by_id
    targets: tuple[SectorId, ...] = order.targets
    if order.sector == unit.sector and (
        targets[0] in known if len(targets) == 1 else all(t in known for t in targets)
    ):
        canonical = order
    else:
        resolved = []
        for text in order.targets:
            sector = galaxy.resolve(text)
            if sector is None:
                return Checked(None, unit, f"there is no sector {text} in this galaxy")
            resolved.append(sector)
        targets = tuple(resolved)
        canonical = Order(kind, unit.sector, targets)
    here = unit.sector
    near = galaxy.neighbours[here]
    if kind is MOVE or kind is ADVANCE:
        target = targets[0]
        if target not in near:
            return Checked(
                canonical, unit, f"{target} is not next to {here}; units go one sector at a time"
            )
        if unit.kind is CARRIER and state.craft_of(unit.id):
            out = ", ".join(c.sector for c in state.craft_of(unit.id))
            return Checked(
                canonical,
                unit,
                f"this carrier has strike craft out (in {out}); it can only move once it has "
                "recalled them all (R4.2)",
            )
        if kind is MOVE and target in state.unit_at:
            occupant = state.unit_at[target]
            return Checked(
                canonical,
                unit,
                f"{target} is occupied by {_owner_words(occupant, colour)}; MOVE only goes into "
                "an empty sector (ADVANCE to attack)",
            )
    elif kind is SUPPORT:
        target = targets[0]
        if target == here:
            return Checked(
                canonical, unit, "a unit cannot support itself; HOLD adds its own strength already"
            )
        if state.rules.support_range is _ADJACENT and target not in near:
            return Checked(
                canonical,
                unit,
                f"{target} is not next to {here}; support reaches adjacent sectors only",
            )
    elif kind in (DEPLOY, RECALL):
        if unit.kind is not CARRIER:
            return Checked(
                canonical,
                unit,
                f"only a carrier can {kind.value}; the unit in {here} is a {unit.kind.noun}",
            )
        if kind is DEPLOY:
            for target in targets:
                if not galaxy.adjacent(here, target):
                    return Checked(
                        canonical,
                        unit,
                        f"{target} is not next to {here}; craft deploy to adjacent sectors",
                    )
        else:
            wanted: dict[SectorId, int] = {}
            for source in targets:
                wanted[source] = wanted.get(source, 0) + 1
            for source, count in wanted.items():
                if source != here and not galaxy.adjacent(here, source):
                    return Checked(
                        canonical,
                        unit,
                        f"{source} is not next to {here}; a carrier recalls craft from its own "
                        "or an adjacent sector",
                    )
                present = sum(1 for c in state.craft if c.sector == source and c.owner is colour)
                if present < count:
                    have = "no" if present == 0 else f"only {present}"
                    return Checked(
                        canonical,
                        unit,
                        f"you have {have} strike craft in {source}"
                        + (f" but recall {count} from there" if present else " to recall"),
                    )
    return _checked((canonical, unit, None))


class Entry(NamedTuple):
    """One order line with its check, as it stands in a unit's order slot."""

    line: SheetLine
    checked: Checked

    @property
    def void(self) -> str | None:
        if self.line.error is not None:
            return str(self.line.error)
        return self.checked.void


class Assignment:
    """An order sheet split per unit (R3.2).

    ``main`` holds each unit's single order; a carrier may instead hold ``recall`` and/or
    ``deploy``. ``unplaced`` lines belong to no unit of the empire; ``replaced`` lines were
    overwritten by a later line for the same unit (with the replacing line's number).
    """

    __slots__ = ("colour", "deploy", "main", "recall", "replaced", "unplaced")

    def __init__(self, colour: Colour) -> None:
        self.colour = colour
        self.main: dict[UnitId, Entry] = {}
        self.recall: dict[UnitId, Entry] = {}
        self.deploy: dict[UnitId, Entry] = {}
        self.unplaced: list[Entry] = []
        self.replaced: list[tuple[Entry, int]] = []

    def entries(self) -> list[Entry]:
        """Every entry still standing, in line order."""
        standing = [*self.main.values(), *self.recall.values(), *self.deploy.values()]
        return sorted(standing, key=lambda e: e.line.line)


# The adjudicator builds these once per order line: tuple.__new__ skips the Python-level
# __new__ that NamedTuple generates, which is most of their cost.
_checked = functools.partial(tuple.__new__, Checked)
_entry = functools.partial(tuple.__new__, Entry)


def assign_orders(state: State, colour: Colour, sheet: OrderSheet) -> Assignment:
    """Give each line of ``sheet`` to the unit it names, the last line winning (R3.2)."""
    result = Assignment(colour)
    main = result.main
    for sheet_line in sheet.lines:
        if sheet_line.order is not None:
            checked = check_order(state, colour, sheet_line.order)
        else:
            unit = None
            if sheet_line.sector is not None:
                unit, _ = find_unit(state, colour, sheet_line.sector)
            checked = _checked((None, unit, None))
        entry = _entry((sheet_line, checked))
        unit = checked.unit
        if unit is None:
            result.unplaced.append(entry)
            continue
        uid = unit.id
        if unit.kind is not CARRIER:  # the common case: one slot only
            previous = main.pop(uid, None)
            if previous is not None:
                result.replaced.append((previous, sheet_line.line))
            main[uid] = entry
            continue
        # A carrier: RECALL and DEPLOY are halves that may stand together (R3.2).
        kind = sheet_line.kind
        clears: tuple[dict[UnitId, Entry], ...]
        if kind is RECALL:
            target, clears = result.recall, (main, result.recall)
        elif kind is DEPLOY:
            target, clears = result.deploy, (main, result.deploy)
        else:
            target, clears = main, (main, result.recall, result.deploy)
        for slot in clears:
            previous = slot.pop(uid, None)
            if previous is not None:
                result.replaced.append((previous, sheet_line.line))
        target[uid] = entry
    _check_deploy_counts(state, result)
    return result


def _check_deploy_counts(state: State, result: Assignment) -> None:
    """A DEPLOY may send no more craft than are docked, counting its own RECALL's craft."""
    for unit_id, entry in list(result.deploy.items()):
        order = entry.checked.order
        if entry.void is not None or order is None:
            continue
        unit = state.unit_by_id[unit_id]
        recall = result.recall.get(unit_id)
        coming = 0
        if recall is not None and recall.void is None and recall.checked.order is not None:
            coming = len(recall.checked.order.targets)
        if len(order.targets) > unit.docked + coming:
            docked = f"{unit.docked} craft docked" if unit.docked else "no craft docked"
            extra = f" and recalls {coming}" if coming else ""
            result.deploy[unit_id] = Entry(
                entry.line,
                Checked(
                    order,
                    unit,
                    f"this carrier has {docked}{extra}, so it cannot deploy {len(order.targets)}",
                ),
            )
