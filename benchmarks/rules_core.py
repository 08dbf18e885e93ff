"""Benchmarks of the rules core: adjudicating a crowded turn, and a whole random game.

* :func:`busy_position` plays a seeded 8-player game on the full 48-sector galaxy with the
  greedy policy until the board is crowded (40+ units, several carriers, some with strike
  craft deployed and some with craft docked), deterministically.
* :func:`mixed_orders` gives every unit on that board an order, covering all seven kinds
  (HOLD, MOVE, ADVANCE, SUPPORT, DEPLOY, RECALL, CLAIM), every one of them possible.
* :func:`bench_adjudication` times :func:`companion.adjudicate` on that position with
  pre-parsed order sheets, with the order text parsed each time, and through
  :meth:`companion.Game.play` (which also keeps the game record and its digests).
* :func:`bench_full_game` plays a 100-turn, 8-player game with the random policy, retreats
  and build phases included, and reports its wall time and turns per second (median of 3).
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from benchmarks.timing import Timing, measure
from companion.local_cluster.adjudication import adjudicate
from companion.local_cluster.atoms import CARRIER_CAPACITY, Colour, SectorId, UnitType
from companion.local_cluster.game import Game
from companion.local_cluster.generation import random_setup
from companion.local_cluster.orders import OrderKind, OrderSheet
from companion.local_cluster.policy import (
    greedy_orders,
    greedy_plan,
    random_orders,
    random_plan,
    random_retreats,
)
from companion.local_cluster.state import Phase, State, Unit

TARGET_TURNS_PER_SECOND = 2000.0
"""The adjudication speed the rules core should reach on the busy position (pre-parsed)."""

PLAYERS = 8
FIRST_SEED = 1
MAX_SEEDS = 50
MAX_TURNS = 60


@dataclass(frozen=True)
class Position:
    """A benchmark position and where it came from."""

    state: State
    seed: int
    turn: int

    def describe(self) -> dict[str, Any]:
        state = self.state
        carriers = [u for u in state.units if u.kind is UnitType.CARRIER]
        kinds = Counter(u.kind.value for u in state.units)
        return {
            "seed": self.seed,
            "turn": self.turn,
            "sectors": len(state.galaxy.ids),
            "empires": len(state.active_colours),
            "units": len(state.units),
            "unit_kinds": dict(sorted(kinds.items())),
            "carriers": len(carriers),
            "carriers_with_craft_out": sum(1 for c in carriers if state.craft_of(c.id)),
            "carriers_with_craft_docked": sum(1 for c in carriers if c.docked),
            "deployed_craft": len(state.craft),
            "empty_sectors": len(state.galaxy.ids) - len(state.units),
        }


def _busy_enough(state: State) -> bool:
    carriers = [u for u in state.units if u.kind is UnitType.CARRIER]
    return (
        len(state.units) >= 40
        and len(carriers) >= 3
        and sum(1 for c in carriers if state.craft_of(c.id)) >= 2
        and sum(1 for c in carriers if c.docked) >= 2
        and len(state.galaxy.ids) - len(state.units) >= 4
        and len(state.active_colours) == PLAYERS
    )


@functools.cache
def busy_position() -> Position:
    """The first crowded position (see the module docstring) of greedy games, seeds from
    FIRST_SEED upwards, whose :func:`mixed_orders` cover every order kind. Deterministic, so
    it is searched once per process."""
    for seed in range(FIRST_SEED, FIRST_SEED + MAX_SEEDS):
        rng = random.Random(seed)
        game = Game(random_setup(seed, PLAYERS), seed=seed)
        while not game.over and game.state.turn <= MAX_TURNS:
            state = game.state
            if state.phase is Phase.ORDERS:
                if _busy_enough(state):
                    orders = mixed_orders(state, seed)
                    kinds = {o.kind for sheet in orders.values() for o in sheet.orders}
                    if kinds == set(OrderKind):
                        return Position(state, seed, state.turn)
                game.play({c: greedy_orders(state, c, rng) for c in state.active_colours})
            elif state.phase is Phase.RETREATS:
                game.retreat(random_retreats(state, rng))
            elif state.phase is Phase.BUILD:
                game.build({c: greedy_plan(state, c, rng) for c in state.active_colours})
    raise RuntimeError("no seed gave a busy enough position; change the search bounds")


_ROTATION = (
    OrderKind.ADVANCE,
    OrderKind.SUPPORT,
    OrderKind.CLAIM,
    OrderKind.HOLD,
    OrderKind.ADVANCE,
    OrderKind.SUPPORT,
)


def _deploy_targets(state: State, unit: Unit) -> list[SectorId]:
    """Adjacent sectors holding no unit or craft of another empire (R4.5)."""
    out = []
    for sector in sorted(state.galaxy.neighbours[unit.sector], key=state.galaxy.order.__getitem__):
        occupant = state.unit_at.get(sector)
        if occupant is not None and occupant.owner is not unit.owner:
            continue
        if any(c.sector == sector and c.owner is not unit.owner for c in state.craft):
            continue
        out.append(sector)
    return out


def _carrier_orders(state: State, unit: Unit) -> list[str]:
    """RECALL the carrier's deployed craft within reach, DEPLOY its docked ones."""
    galaxy = state.galaxy
    here = unit.sector
    lines = []
    sources = [
        c.sector
        for c in state.craft_of(unit.id)
        if c.sector == here or galaxy.adjacent(here, c.sector)
    ]
    if sources:
        lines.append(f"RECALL {here} " + " ".join(sources[:CARRIER_CAPACITY]))
    targets = _deploy_targets(state, unit)
    if unit.docked and targets:
        chosen = [targets[i % len(targets)] for i in range(unit.docked)]
        lines.append(f"DEPLOY {here} " + " ".join(chosen))
    return lines


def _movers(state: State, salt: int) -> dict[SectorId, SectorId]:
    """Which units MOVE, and where: every third unit (from ``salt``) with an empty neighbour
    that no other MOVE takes, at least one. Carriers move only with no craft out (R4.2)."""
    galaxy = state.galaxy
    moves: dict[SectorId, SectorId] = {}
    candidates: list[tuple[Unit, SectorId]] = []
    for unit in sorted(state.units, key=lambda u: galaxy.order[u.sector]):
        if unit.kind is UnitType.CARRIER:
            continue
        near = sorted(galaxy.neighbours[unit.sector], key=galaxy.order.__getitem__)
        empty = [s for s in near if s not in state.unit_at and s not in moves.values()]
        if empty:
            candidates.append((unit, empty[0]))
            if (salt + len(candidates)) % 3 == 0:
                moves[unit.sector] = empty[0]
    if not moves and candidates:
        unit, target = candidates[0]
        moves[unit.sector] = target
    return moves


def _unit_order(state: State, unit: Unit, index: int, moves: Mapping[SectorId, SectorId]) -> str:
    """ADVANCE, SUPPORT, CLAIM or HOLD by rotation, each only when possible as written."""
    here = unit.sector
    if here in moves:
        return f"MOVE {here} {moves[here]}"
    galaxy = state.galaxy
    near = sorted(galaxy.neighbours[here], key=galaxy.order.__getitem__)
    enemies = [
        s
        for s in near
        if (s in state.unit_at and state.unit_at[s].owner is not unit.owner)
        or (
            s not in state.unit_at
            and any(c.sector == s and c.owner is not unit.owner for c in state.craft)
        )
    ]
    targets = enemies or [s for s in near if s not in state.unit_at]
    # Support only units that stay put, so no SUPPORT turns void at adjudication (R4.3).
    supportable = [s for s in near if s in state.unit_at and s not in moves]
    start = index % len(_ROTATION)
    for kind in _ROTATION[start:] + _ROTATION[:start]:
        if kind is OrderKind.ADVANCE and targets:
            return f"ADVANCE {here} {targets[index % len(targets)]}"
        if kind is OrderKind.SUPPORT and supportable:
            return f"SUPPORT {here} {supportable[index % len(supportable)]}"
        if kind is OrderKind.CLAIM:
            return f"CLAIM {here}"
        if kind is OrderKind.HOLD:
            break
    return f"HOLD {here}"


def mixed_orders(state: State, salt: int = 0) -> dict[Colour, OrderSheet]:
    """An order for every unit of every empire, each possible on ``state`` as written, that
    together cover HOLD, MOVE, ADVANCE, SUPPORT, DEPLOY, RECALL and CLAIM: carriers RECALL
    their deployed craft and DEPLOY their docked ones; every third unit that can MOVEs; the
    others ADVANCE, SUPPORT, CLAIM or HOLD in rotation."""
    moves = _movers(state, salt)
    sheets: dict[Colour, OrderSheet] = {}
    index = salt
    for colour in state.active_colours:
        lines: list[str] = []
        for unit in state.units_of(colour):
            carrier_lines = _carrier_orders(state, unit) if unit.kind is UnitType.CARRIER else []
            lines += carrier_lines or [_unit_order(state, unit, index, moves)]
            index += 1
        sheets[colour] = OrderSheet.parse("\n".join(lines))
    return sheets


def order_texts(orders: Mapping[Colour, OrderSheet]) -> dict[Colour, str]:
    return {colour: sheet.text() for colour, sheet in orders.items()}


def bench_adjudication(position: Position, *, quick: bool = False) -> dict[str, Any]:
    """Turns adjudicated per second on the busy position, three ways (see module docstring)."""
    state = position.state
    sheets = mixed_orders(state, position.seed)
    texts = order_texts(sheets)
    result = adjudicate(state, sheets)
    statuses = Counter(o.status.value for o in result.outcomes)
    kinds = Counter(o.kind.value for sheet in sheets.values() for o in sheet.orders)
    number, repeats = (10, 3) if quick else (200, 7)
    timings: dict[str, Timing] = {
        "preparsed": measure(lambda: adjudicate(state, sheets), number=number, repeats=repeats),
        "with_parsing": measure(lambda: adjudicate(state, texts), number=number, repeats=repeats),
        "game_play": measure(
            lambda: Game(state).play(texts), number=max(1, number // 2), repeats=repeats
        ),
    }
    return {
        "position": position.describe(),
        "orders": {
            "lines": sum(len(sheet) for sheet in sheets.values()),
            "kinds": dict(sorted(kinds.items())),
            "outcomes": dict(sorted(statuses.items())),
            "combats": len(result.combats),
            "retreats_owed": len(result.retreats),
        },
        "timings": {name: timing.to_dict() for name, timing in timings.items()},
    }


def _play_full_game(turns: int, players: int, seed: int) -> tuple[Game, Counter[str], float, float]:
    """One whole game: the game, its step counts, wall time and time inside Game calls."""
    rng = random.Random(seed)
    engine = 0.0
    steps: Counter[str] = Counter()
    start = time.perf_counter()
    game = Game(random_setup(seed, players), seed=seed)
    while not game.over and game.state.turn <= turns:
        state = game.state
        if state.phase is Phase.ORDERS:
            orders = {c: random_orders(state, c, rng) for c in state.active_colours}
            t0 = time.perf_counter()
            game.play(orders)
            engine += time.perf_counter() - t0
            steps["orders"] += 1
        elif state.phase is Phase.RETREATS:
            choices = random_retreats(state, rng)
            t0 = time.perf_counter()
            game.retreat(choices)
            engine += time.perf_counter() - t0
            steps["retreats"] += 1
        elif state.phase is Phase.BUILD:
            plans = {c: random_plan(state, c, rng) for c in state.active_colours}
            t0 = time.perf_counter()
            game.build(plans)
            engine += time.perf_counter() - t0
            steps["builds"] += 1
    return game, steps, time.perf_counter() - start, engine


def bench_full_game(
    *, turns: int = 100, players: int = PLAYERS, seed: int = 2026, repeats: int = 3
) -> dict[str, Any]:
    """Play a whole game with the random policy ``repeats`` times (the same game each time)
    and keep the median. The wall time includes the policy's own work (setup, choosing
    orders, plans and retreats); ``engine_s`` only the Game calls (adjudication, retreats,
    builds, record keeping)."""
    runs = [_play_full_game(turns, players, seed) for _ in range(repeats)]
    game, steps, _, _ = runs[0]
    walls = [wall for _, _, wall, _ in runs]
    engines = [engine for _, _, _, engine in runs]
    wall, engine = statistics.median(walls), statistics.median(engines)
    played = steps["orders"]
    final = game.state
    return {
        "seed": seed,
        "players": players,
        "turn_limit": turns,
        "turns_played": played,
        "steps": dict(sorted(steps.items())),
        "ended": "won" if final.winner is not None else "turn limit",
        "final_units": len(final.units),
        "final_empires": len(final.active_colours),
        "repeats": repeats,
        "wall_s": wall,
        "wall_s_runs": walls,
        "engine_s": engine,
        "engine_s_runs": engines,
        "turns_per_second": played / wall if wall > 0 else float("inf"),
        "engine_turns_per_second": played / engine if engine > 0 else float("inf"),
    }
