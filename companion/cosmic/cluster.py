"""The generated cluster (rulings C1, C2): sixteen systems on the jump-line graph GP(8,3).

:func:`generate_cluster` places the players' home systems, the Black Hole (adjacent to no home
when possible), the six minor systems and the remaining major systems at random from a recorded
seed, and builds the Diplomacy :class:`~companion.cosmic.diplomacy.geography.Map` of the result:

- a major planet has surface spaces ``Name-1`` .. ``Name-8`` (a ring, plus 1-5), a minor planet
  ``Name-1`` .. ``Name-3`` (each touching the others); surface spaces are coastal land that only
  armies cross between (C3.1-C3.3);
- every system but the Black Hole has an orbit ``Name-O`` touching all its surface spaces and its
  box ``Name-B``; boxes are joined along the jump-lines and hold any number of units (C3.4);
- the Black Hole is a box alone: entered from its three neighbours, left to any other box.

Supply centres: 1, 4, 5 on a major planet (and 8 on a home planet), 1 on a minor one. Powers are
``P1`` .. ``Pn`` in seat order; each starts with armies on 1 and 4 and fleets on 5 and in orbit.
"""

from __future__ import annotations

import dataclasses
import enum
import random

from companion.cosmic.diplomacy.geography import (
    Map,
    Power,
    Province,
    Region,
    RegionId,
    Terrain,
    UnitType,
)
from companion.cosmic.diplomacy.rules import Unit
from companion.errors import CompanionError

STAR_NAMES = (
    "Sol", "Vega", "Rigel", "Deneb", "Altair", "Sirius", "Procyon", "Antares",
    "Arcturus", "Capella", "Polaris", "Spica", "Mira", "Castor", "Pollux", "Bellatrix",
)  # fmt: skip
"""Position k of the graph carries name k (C1.3): outer ring o0..o7, then inner star i0..i7."""

MIN_PLAYERS, MAX_PLAYERS = 2, 9
MAJOR_SYSTEMS, MINOR_SYSTEMS = 9, 6


class ClusterError(CompanionError, ValueError):
    """A cluster that cannot be set up (a player count out of range, say)."""


class SystemKind(enum.Enum):
    HOME = "home"
    MAJOR = "major"
    MINOR = "minor"
    BLACK_HOLE = "black hole"

    __hash__ = object.__hash__


def jump_lines() -> tuple[tuple[int, int], ...]:
    """The 24 jump-lines of GP(8,3) between positions 0..15 (C1.1)."""
    lines = []
    for i in range(8):
        lines.append((i, (i + 1) % 8))
        lines.append((i, 8 + i))
        lines.append((8 + i, 8 + (i + 3) % 8))
    return tuple(lines)


@dataclasses.dataclass(frozen=True)
class System:
    """One system: its position on the graph, name, kind, and owner for a home system."""

    position: int
    name: str
    kind: SystemKind
    home_of: Power | None = None

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def surface(self) -> tuple[RegionId, ...]:
        count = {SystemKind.HOME: 8, SystemKind.MAJOR: 8, SystemKind.MINOR: 3}.get(self.kind, 0)
        return tuple(f"{self.key}-{k}" for k in range(1, count + 1))

    @property
    def centres(self) -> tuple[RegionId, ...]:
        if self.kind is SystemKind.HOME:
            numbers: tuple[int, ...] = (1, 4, 5, 8)
        elif self.kind is SystemKind.MAJOR:
            numbers = (1, 4, 5)
        elif self.kind is SystemKind.MINOR:
            numbers = (1,)
        else:
            numbers = ()
        return tuple(f"{self.key}-{k}" for k in numbers)

    @property
    def orbit(self) -> RegionId | None:
        return None if self.kind is SystemKind.BLACK_HOLE else f"{self.key}-o"

    @property
    def box(self) -> RegionId:
        return f"{self.key}-b"


@dataclasses.dataclass(frozen=True)
class Cluster:
    """A generated cluster: the seed, the systems by position, and its map."""

    seed: int
    players: int
    systems: tuple[System, ...]
    map: Map

    @property
    def powers(self) -> tuple[Power, ...]:
        return tuple(f"P{seat}" for seat in range(1, self.players + 1))

    def home_of(self, power: Power) -> System:
        return next(s for s in self.systems if s.home_of == power)

    def starting_units(self) -> list[Unit]:
        """Each power's four starting units (C2.5)."""
        units = []
        for power in self.powers:
            home = self.home_of(power)
            units.append(Unit(power, UnitType.ARMY, f"{home.key}-1"))
            units.append(Unit(power, UnitType.ARMY, f"{home.key}-4"))
            units.append(Unit(power, UnitType.FLEET, f"{home.key}-5"))
            assert home.orbit is not None
            units.append(Unit(power, UnitType.FLEET, home.orbit))
        return units

    def describe(self) -> str:
        """One line per system, for the table and the CLI."""
        neighbours: dict[int, list[int]] = {p: [] for p in range(16)}
        for a, b in jump_lines():
            neighbours[a].append(b)
            neighbours[b].append(a)
        lines = []
        for system in self.systems:
            owner = f" home of {system.home_of}" if system.home_of else ""
            jumps = ", ".join(self.systems[n].name for n in sorted(neighbours[system.position]))
            lines.append(f"{system.name:<10} {system.kind.value:<10}{owner:<13} jumps: {jumps}")
        return "\n".join(lines)


def generate_cluster(seed: int, players: int) -> Cluster:
    """Set up a cluster per rule 3 / ruling C1.2, deterministically from ``seed``."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ClusterError(f"Cosmic Cluster is for 2 to 9 players, not {players}")
    rng = random.Random(seed)
    lines = jump_lines()
    homes = rng.sample(range(16), players)
    rest = [p for p in range(16) if p not in homes]
    near = {b for a, b in lines if a in homes} | {a for a, b in lines if b in homes}
    far = [p for p in rest if p not in near]
    black_hole = rng.choice(far or rest)
    rest.remove(black_hole)
    rng.shuffle(rest)
    minors = set(rest[:MINOR_SYSTEMS])
    systems = []
    for position in range(16):
        if position in homes:
            kind, owner = SystemKind.HOME, f"P{homes.index(position) + 1}"
        elif position == black_hole:
            kind, owner = SystemKind.BLACK_HOLE, None
        elif position in minors:
            kind, owner = SystemKind.MINOR, None
        else:
            kind, owner = SystemKind.MAJOR, None
        systems.append(System(position, STAR_NAMES[position], kind, owner))
    return Cluster(seed, players, tuple(systems), build_map(tuple(systems)))


def build_map(systems: tuple[System, ...]) -> Map:
    """The Diplomacy map of a cluster (rulings C2, C3)."""
    provinces: list[Province] = []
    regions: list[Region] = []
    borders: list[tuple[RegionId, RegionId, Terrain]] = []
    one_way: list[tuple[RegionId, RegionId, Terrain]] = []

    def add(region: RegionId, label: str, terrain: Terrain, **kwargs: object) -> None:
        provinces.append(Province(region, label, **kwargs))  # type: ignore[arg-type]
        regions.append(Region(region, region, None, terrain))

    for system in systems:
        centres = set(system.centres)
        home_centres = centres if system.kind is SystemKind.HOME else set()
        for index, space in enumerate(system.surface, start=1):
            add(
                space,
                f"{system.name}-{index}",
                Terrain.COAST,
                supply_centre=space in centres,
                home_of=system.home_of if space in home_centres else None,
            )
        if system.orbit is not None:
            add(system.orbit, f"{system.name}-O", Terrain.SEA)
            for space in system.surface:
                borders.append((system.orbit, space, Terrain.SEA))
            borders.append((system.orbit, system.box, Terrain.SEA))
        add(system.box, f"{system.name}-B", Terrain.SEA, box=True)
        surface = system.surface
        if len(surface) == 8:
            for k in range(8):
                borders.append((surface[k], surface[(k + 1) % 8], Terrain.LAND))
            borders.append((surface[0], surface[4], Terrain.LAND))
        elif len(surface) == 3:
            borders.extend(
                [(surface[0], surface[1], Terrain.LAND), (surface[1], surface[2], Terrain.LAND)]
            )
            borders.append((surface[0], surface[2], Terrain.LAND))
    for a, b in jump_lines():
        borders.append((systems[a].box, systems[b].box, Terrain.SEA))
    for hole in (s for s in systems if s.kind is SystemKind.BLACK_HOLE):
        for other in systems:
            if other is not hole:
                one_way.append((hole.box, other.box, Terrain.SEA))
    return Map("cosmic cluster", provinces, regions, borders, one_way)
