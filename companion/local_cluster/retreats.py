"""Retreat choices and what follows them: rulings R5.3, R5.4 and the end-of-turn checks of R7."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from companion.errors import StateError
from companion.local_cluster.atoms import CARRIER, CARRIER_CAPACITY, Colour, SectorId, UnitId
from companion.local_cluster.ending import conclude_turn
from companion.local_cluster.state import RETREATS, Craft, State, Unit


def check_retreat(state: State, unit: UnitId, sector: SectorId) -> SectorId:
    """The canonical id of a legal retreat for ``unit``, or StateError saying why not."""
    for owed in state.retreats:
        if owed.unit == unit:
            chosen = state.galaxy.resolve(sector)
            if chosen is None or chosen not in owed.options:
                options = ", ".join(owed.options) or "none (it is destroyed)"
                raise StateError(
                    f"{owed.describe()} cannot retreat to {sector}; its options are {options}"
                )
            return chosen
    raise StateError(f"unit {unit} owes no retreat")


def apply_retreats(
    state: State, choices: Mapping[UnitId, SectorId]
) -> tuple[State, tuple[str, ...]]:
    """Apply retreat choices (missing ones go to the lowest-numbered option, R5.3), then the
    strike craft clean-up of R5.4 and the checks of R7. Returns the new state and, in words,
    what happened."""
    if state.phase is not RETREATS:
        raise StateError(f"no retreats are owed: the game is waiting for {state.phase.value}")
    if not state.retreats and not choices:
        # Nothing to retreat: only the far-craft rule of R5.4 can still apply.
        kept, far = _far_craft(state, state.units, state.craft)
        settled = state if not far else state.replace(craft=tuple(kept), check=False)
        settled, end_notes = conclude_turn(settled)
        return settled, (*far, *end_notes)
    owed_ids = {r.unit for r in state.retreats}
    for unit_id in choices:
        if unit_id not in owed_ids:
            raise StateError(f"unit {unit_id} owes no retreat")
    notes: list[str] = []
    destination: dict[UnitId, SectorId | None] = {}
    for owed in state.retreats:
        if owed.unit in choices:
            destination[owed.unit] = check_retreat(state, owed.unit, choices[owed.unit])
        else:
            destination[owed.unit] = owed.default
    crowded: dict[SectorId, int] = {}
    for target in destination.values():
        if target is not None:
            crowded[target] = crowded.get(target, 0) + 1
    units = list(state.units)
    destroyed: set[UnitId] = set()
    for owed in state.retreats:
        target = destination[owed.unit]
        if target is None:
            destroyed.add(owed.unit)
            notes.append(f"{owed.describe()} had nowhere to retreat and was destroyed (R5.3)")
        elif crowded[target] > 1:
            destroyed.add(owed.unit)
            notes.append(
                f"{owed.describe()} retreated into {target} with another unit; both were "
                "destroyed (R5.3)"
            )
        else:
            units.append(Unit(owed.unit, owed.owner, owed.kind, target, owed.docked))
            notes.append(f"{owed.describe()} retreated to {target}")
    carriers = {r.unit: r for r in state.retreats if r.kind is CARRIER}
    craft: list[Craft] | tuple[Craft, ...]
    if any(c.carrier in destroyed for c in state.craft):
        craft, craft_notes = _clean_up_craft(state, units, list(state.craft), destroyed, carriers)
    else:  # only the far-craft rule can remove craft, which keeps the rest in canonical order
        kept, craft_notes = _far_craft(state, units, state.craft)
        craft = tuple(kept)
    notes.extend(craft_notes)
    moved = len(units) > len(state.units)  # some retreated: their ids go back in order
    settled = state.replace(
        units=tuple(sorted(units, key=_unit_id)) if moved else state.units,
        craft=craft,  # a list when orphans changed carrier: re-sorted then
        retreats=(),
        check=False,
    )
    settled, end_notes = conclude_turn(settled)
    return settled, (*notes, *end_notes)


def _far_craft(
    state: State, units: Iterable[Unit], craft: Iterable[Craft]
) -> tuple[list[Craft], list[str]]:
    """R5.4's last rule: craft more than one sector from every carrier of their empire go."""
    neighbours = state.galaxy.neighbours
    reach: dict[Colour, set[SectorId]] = {}
    for unit in units:
        if unit.kind is CARRIER:
            near = reach.setdefault(unit.owner, set())
            near.add(unit.sector)
            near.update(neighbours[unit.sector])
    kept: list[Craft] = []
    notes: list[str] = []
    for c in craft:
        if c.sector in reach.get(c.owner, ()):
            kept.append(c)
        else:
            notes.append(
                f"a {c.owner.title} strike craft in {c.sector} was more than one sector from "
                f"every {c.owner.title} carrier and was destroyed (R5.4)"
            )
    return kept, notes


def _unit_id(unit: Unit) -> UnitId:
    return unit.id


def _clean_up_craft(
    state: State,
    units: list[Unit],
    craft: list[Craft],
    destroyed: set[UnitId],
    retreating_carriers: Mapping[UnitId, object],
) -> tuple[list[Craft], list[str]]:
    """R5.4: orphaned craft pass to a carrier within one sector with room, else are destroyed;
    then craft more than one sector from every carrier of their empire are destroyed."""
    galaxy = state.galaxy
    notes: list[str] = []
    carriers = [u for u in units if u.kind is CARRIER]
    owned = Counter({c.id: c.docked for c in carriers})
    for c in craft:
        owned[c.carrier] += 1
    kept: list[Craft] = []
    for c in craft:
        if c.carrier not in destroyed:
            kept.append(c)
            continue
        near = sorted(
            (
                u
                for u in carriers
                if u.owner is c.owner
                and (u.sector == c.sector or galaxy.adjacent(u.sector, c.sector))
                and owned[u.id] < CARRIER_CAPACITY
            ),
            key=lambda u: galaxy.order[u.sector],
        )
        if near:
            heir = near[0]
            owned[heir.id] += 1
            kept.append(Craft(heir.id, c.owner, c.sector))
            notes.append(
                f"a {c.owner.title} strike craft in {c.sector} lost its carrier and joined the "
                f"carrier in {heir.sector} (R5.4)"
            )
        else:
            notes.append(
                f"a {c.owner.title} strike craft in {c.sector} lost its carrier and was "
                "destroyed (R5.4)"
            )
    survivors, far = _far_craft(state, units, kept)
    return survivors, notes + far
