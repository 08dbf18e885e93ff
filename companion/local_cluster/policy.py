"""Built-in players: a simple greedy policy for the demo and a random one for tests.

Both are deterministic for a given :class:`random.Random`, so a demo or a property test that
fails can be replayed from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.local_cluster.atoms import CARRIER_CAPACITY, Colour, SectorId, UnitType
from companion.local_cluster.economy import Build, BuildPlan, check_plan, income_statement
from companion.local_cluster.state import State, Unit


def _sorted(state: State, sectors: set[SectorId] | frozenset[SectorId]) -> list[SectorId]:
    return sorted(sectors, key=state.galaxy.order.__getitem__)


def greedy_orders(state: State, colour: Colour, rng: random.Random) -> str:
    """Orders of a simple expansionist: attack where it outnumbers, grab empty sectors, claim
    where it stands, support a neighbour under threat, keep carriers' craft near."""
    lines: list[str] = []
    galaxy = state.galaxy
    taken: set[SectorId] = set()
    mine = state.units_of(colour)
    for unit in sorted(mine, key=lambda u: galaxy.order[u.sector]):
        here = unit.sector
        near = _sorted(state, galaxy.neighbours[here])
        if unit.kind is UnitType.CARRIER:
            out = state.craft_of(unit.id)
            if out:
                lines.append("RECALL " + here + " " + " ".join(c.sector for c in out[:3]))
                continue
            free = [n for n in near if n not in state.unit_at or state.unit_at[n].owner is colour]
            if unit.docked and free and rng.random() < 0.5:
                targets = [rng.choice(free) for _ in range(unit.docked)]
                lines.append("DEPLOY " + here + " " + " ".join(targets))
                continue
        if state.claim_map.get(here) is not colour:
            lines.append(f"CLAIM {here}")
            continue
        enemies = [n for n in near if n in state.unit_at and state.unit_at[n].owner is not colour]
        weak = [n for n in enemies if state.unit_at[n].strength < unit.strength]
        open_ = [
            n
            for n in near
            if n not in state.unit_at
            and n not in taken
            and state.claim_map.get(n) is not colour
            and not any(c.sector == n and c.owner is not colour for c in state.craft)
        ]
        if weak and rng.random() < 0.7:
            target = rng.choice(weak)
            taken.add(target)
            lines.append(f"ADVANCE {here} {target}")
        elif open_ and rng.random() < 0.8:
            target = rng.choice(open_)
            taken.add(target)
            lines.append(f"ADVANCE {here} {target}")
        elif enemies:
            friends = [n for n in near if n in state.unit_at and state.unit_at[n].owner is colour]
            if friends and rng.random() < 0.5:
                lines.append(f"SUPPORT {here} {rng.choice(friends)}")
            else:
                lines.append(f"HOLD {here}")
        else:
            lines.append(f"HOLD {here}")
    return "\n".join(lines)


def greedy_plan(state: State, colour: Colour, rng: random.Random) -> BuildPlan:
    """Spend the net income on units in free claimed sectors, or sometimes stockpile."""
    statement = income_statement(state, colour)
    if not statement.can_build:
        return BuildPlan()
    if not state.empire(colour).stockpiled and statement.net < 4 and rng.random() < 0.5:
        return BuildPlan(stockpile=True)
    budget = statement.net
    replenish = []
    for unit in state.units_of(colour):
        if (
            unit.kind is UnitType.CARRIER
            and state.craft_owned(unit.id) < CARRIER_CAPACITY
            and budget >= 4
        ):
            replenish.append(unit.sector)
            budget -= 4
    free = [s for s in state.sectors_of(colour) if s not in state.unit_at]
    rng.shuffle(free)
    builds = []
    for sector in free:
        affordable = [k for k in UnitType if k.cost <= budget]
        if not affordable:
            break
        kind = rng.choice(affordable)
        builds.append(Build(kind, sector))
        budget -= kind.cost
    plan = BuildPlan(tuple(builds), tuple(replenish))
    assert not check_plan(state, colour, plan), check_plan(state, colour, plan)
    return plan


_KINDS = ("HOLD", "MOVE", "ADVANCE", "SUPPORT", "DEPLOY", "RECALL", "CLAIM")


def random_orders(state: State, colour: Colour, rng: random.Random, *, junk: float = 0.05) -> str:
    """Random orders for every unit of ``colour``: mostly well-formed and possible, sometimes
    impossible, occasionally malformed (``junk``), sometimes two lines for one unit."""
    galaxy = state.galaxy
    lines: list[str] = []
    units: Sequence[Unit] = state.units_of(colour)
    for unit in units:
        here = unit.sector
        near = _sorted(state, galaxy.neighbours[here])
        for _ in range(1 if rng.random() < 0.9 else 2):
            roll = rng.random()
            if roll < junk:
                lines.append(rng.choice(["MOVE " + here, "HOLD", "ATTACK " + here, "DEPLOY %s ,"]))
                continue
            if roll < junk * 2:
                near = list(galaxy.ids)
            kind = rng.choice(_KINDS)
            if unit.kind is UnitType.CARRIER and rng.random() < 0.6:
                kind = rng.choice(("DEPLOY", "RECALL"))
            if kind in ("HOLD", "CLAIM"):
                lines.append(f"{kind} {here}")
            elif kind in ("MOVE", "ADVANCE", "SUPPORT"):
                lines.append(f"{kind} {here} {rng.choice(near)}")
            elif kind == "DEPLOY":
                count = rng.randint(1, 3)
                lines.append(f"DEPLOY {here} " + " ".join(rng.choice(near) for _ in range(count)))
            else:
                sources = sorted({c.sector for c in state.craft if c.owner is colour})
                pool = [s for s in sources if s == here or galaxy.adjacent(here, s)] or near
                count = rng.randint(1, 3)
                lines.append(f"RECALL {here} " + " ".join(rng.choice(pool) for _ in range(count)))
    rng.shuffle(lines)
    return "\n".join(lines)


def random_plan(state: State, colour: Colour, rng: random.Random) -> BuildPlan:
    """A random legal build plan (the greedy one, or nothing, or a stockpile when allowed)."""
    roll = rng.random()
    if roll < 0.15:
        return BuildPlan()
    if roll < 0.3 and income_statement(state, colour).can_build:
        return BuildPlan(stockpile=True)
    return greedy_plan(state, colour, rng)


def random_retreats(state: State, rng: random.Random) -> dict[int, SectorId]:
    """A random choice among each owed retreat's options, some left to the default."""
    return {
        owed.unit: rng.choice(owed.options)
        for owed in state.retreats
        if owed.options and rng.random() < 0.7
    }
