"""A Diplomacy map as data: provinces, the regions (coasts) inside them and the borders between.

A *province* is what a unit occupies and what a supply centre sits on (``spa``). A *region* is
where exactly a unit stands: the province itself, or one of its coasts for a fleet on a
split-coast province (``spa(nc)``). Borders join regions and say who may cross them: armies
(``land``), fleets (``sea``) or both (``coast``).

The standard map ships as CSV in ``maps/standard/`` (see the LICENSE there); :func:`load_csv_map`
reads any map in the same three-file layout, and :class:`Map` can be built from code too (the
Cosmic Cluster generates its own). Borders may be one-way (the Cosmic Cluster's Black Hole). A
province may be a *box*: any number of units may share it, a move into it always succeeds and
never dislodges or cuts support (Cosmic Cluster ruling C3.4).
"""

from __future__ import annotations

import csv
import dataclasses
import enum
from collections.abc import Iterable, Mapping
from importlib import resources

from companion.errors import CompanionError

ProvinceId = str
"""A province's short name, lower case (``spa``)."""

RegionId = str
"""A region: a province's short name, with a coast in brackets on split coasts (``spa(nc)``)."""

Power = str
"""A power's short name, upper case (``FRA``)."""


class MapError(CompanionError, ValueError):
    """Map data that does not describe a playable map."""


class UnitType(enum.Enum):
    """Army or fleet, written ``A`` or ``F``."""

    ARMY = "A"
    FLEET = "F"

    __hash__ = object.__hash__

    @property
    def noun(self) -> str:
        """``army`` or ``fleet``."""
        return "army" if self is UnitType.ARMY else "fleet"

    @property
    def a_noun(self) -> str:
        """``an army`` or ``a fleet``."""
        return "an army" if self is UnitType.ARMY else "a fleet"


class Terrain(enum.Enum):
    """A region's terrain: armies stand on land and coast, fleets on sea and coast."""

    LAND = "land"
    COAST = "coast"
    SEA = "sea"

    __hash__ = object.__hash__

    def holds(self, unit_type: UnitType) -> bool:
        """Whether a unit of this type may stand here."""
        if unit_type is UnitType.ARMY:
            return self is not Terrain.SEA
        return self is not Terrain.LAND


@dataclasses.dataclass(frozen=True)
class Province:
    """A province: ``home_of`` names the power whose home centre it is."""

    id: ProvinceId
    name: str
    supply_centre: bool = False
    home_of: Power | None = None
    box: bool = False


@dataclasses.dataclass(frozen=True)
class Region:
    """Where a unit stands: a province, or one coast of it."""

    id: RegionId
    province: ProvinceId
    coast: str | None
    terrain: Terrain


def region_province(region: RegionId) -> ProvinceId:
    """The province part of a region id: ``spa(nc)`` -> ``spa``."""
    cut = region.find("(")
    return region if cut < 0 else region[:cut]


class Map:
    """A map: provinces, regions, and who may cross each border.

    Adjacency is precomputed per unit type, region to regions, so that adjudication asks only
    dictionary questions.
    """

    def __init__(
        self,
        name: str,
        provinces: Iterable[Province],
        regions: Iterable[Region],
        borders: Iterable[tuple[RegionId, RegionId, Terrain]],
        one_way: Iterable[tuple[RegionId, RegionId, Terrain]] = (),
        aliases: Mapping[str, RegionId] | None = None,
    ) -> None:
        self.name = name
        self.aliases: dict[str, RegionId] = dict(aliases or {})
        """Other names of regions (old abbreviations), for :meth:`canonical`."""
        self.provinces: dict[ProvinceId, Province] = {}
        for province in provinces:
            if province.id in self.provinces:
                raise MapError(f"province {province.id!r} is listed twice")
            self.provinces[province.id] = province
        self.regions: dict[RegionId, Region] = {}
        self.province_regions: dict[ProvinceId, tuple[RegionId, ...]] = {}
        grouped: dict[ProvinceId, list[RegionId]] = {p: [] for p in self.provinces}
        for region in regions:
            if region.province not in self.provinces:
                raise MapError(f"region {region.id!r} is in unknown province {region.province!r}")
            if region.id in self.regions:
                raise MapError(f"region {region.id!r} is listed twice")
            self.regions[region.id] = region
            grouped[region.province].append(region.id)
        for province_id, ids in grouped.items():
            if not ids:
                raise MapError(f"province {province_id!r} has no region")
            self.province_regions[province_id] = tuple(ids)
        self.army_moves: dict[RegionId, frozenset[RegionId]] = {}
        self.fleet_moves: dict[RegionId, frozenset[RegionId]] = {}
        army: dict[RegionId, set[RegionId]] = {r: set() for r in self.regions}
        fleet: dict[RegionId, set[RegionId]] = {r: set() for r in self.regions}
        for first, second, terrain in borders:
            for end in (first, second):
                if end not in self.regions:
                    raise MapError(f"border {first}-{second} names unknown region {end!r}")
            if terrain is not Terrain.SEA:
                army[first].add(second)
                army[second].add(first)
            if terrain is not Terrain.LAND:
                fleet[first].add(second)
                fleet[second].add(first)
        for first, second, terrain in one_way:  # crossed from first to second only
            for end in (first, second):
                if end not in self.regions:
                    raise MapError(f"border {first}>{second} names unknown region {end!r}")
            if terrain is not Terrain.SEA:
                army[first].add(second)
            if terrain is not Terrain.LAND:
                fleet[first].add(second)
        self.army_moves = {r: frozenset(s) for r, s in army.items()}
        self.fleet_moves = {r: frozenset(s) for r, s in fleet.items()}
        # Province-level neighbours, for support reach, convoy routes and distances.
        self.army_reach: dict[RegionId, frozenset[ProvinceId]] = {
            r: frozenset(region_province(x) for x in s) for r, s in self.army_moves.items()
        }
        self.fleet_reach: dict[RegionId, frozenset[ProvinceId]] = {
            r: frozenset(region_province(x) for x in s) for r, s in self.fleet_moves.items()
        }
        neighbours: dict[ProvinceId, set[ProvinceId]] = {p: set() for p in self.provinces}
        sea_neighbours: dict[ProvinceId, set[ProvinceId]] = {p: set() for p in self.provinces}
        for region_id, region in self.regions.items():
            neighbours[region.province] |= self.army_reach[region_id]
            neighbours[region.province] |= self.fleet_reach[region_id]
            sea_neighbours[region.province] |= self.fleet_reach[region_id]
        self.neighbours: dict[ProvinceId, frozenset[ProvinceId]] = {
            p: frozenset(s - {p}) for p, s in neighbours.items()
        }
        self.sea_neighbours: dict[ProvinceId, frozenset[ProvinceId]] = {
            p: frozenset(s - {p}) for p, s in sea_neighbours.items()
        }
        self.boxes: frozenset[ProvinceId] = frozenset(p for p, v in self.provinces.items() if v.box)
        self.seas: frozenset[ProvinceId] = frozenset(
            p
            for p, ids in self.province_regions.items()
            if len(ids) == 1 and self.regions[ids[0]].terrain is Terrain.SEA
        )

    def __repr__(self) -> str:
        return f"<Map {self.name!r}: {len(self.provinces)} provinces>"

    def canonical(self, name: str) -> str:
        """The region id for a name the map also knows by another spelling (``tyh`` -> ``tys``)."""
        return self.aliases.get(name, name)

    def is_sea(self, province: ProvinceId) -> bool:
        """Whether the province is open sea (fleets there may convoy)."""
        return province in self.seas

    def can_move(self, unit_type: UnitType, source: RegionId, target: RegionId) -> bool:
        """Whether a unit of this type may move from one region to the other by itself."""
        moves = self.army_moves if unit_type is UnitType.ARMY else self.fleet_moves
        return target in moves.get(source, ())

    def can_reach(self, unit_type: UnitType, source: RegionId, province: ProvinceId) -> bool:
        """Whether the unit could move into some region of the province (support reach)."""
        reach = self.army_reach if unit_type is UnitType.ARMY else self.fleet_reach
        return province in reach.get(source, ())

    def home_centres(self, power: Power) -> tuple[ProvinceId, ...]:
        """The power's home supply centres, in map order."""
        return tuple(p.id for p in self.provinces.values() if p.home_of == power)

    @property
    def powers(self) -> tuple[Power, ...]:
        """Every power with a home centre, in order of first appearance."""
        seen: dict[Power, None] = {}
        for province in self.provinces.values():
            if province.home_of is not None:
                seen.setdefault(province.home_of, None)
        return tuple(seen)

    @property
    def supply_centres(self) -> tuple[ProvinceId, ...]:
        """Every supply centre, in map order."""
        return tuple(p.id for p in self.provinces.values() if p.supply_centre)

    def distances_to(self, targets: Iterable[ProvinceId]) -> Mapping[ProvinceId, int]:
        """Moves from every province to the nearest target, crossing any border (rule of 2023)."""
        result: dict[ProvinceId, int] = {}
        frontier = [t for t in targets if t in self.provinces]
        for target in frontier:
            result[target] = 0
        step = 0
        while frontier:
            step += 1
            nxt: list[ProvinceId] = []
            for province in frontier:
                for other in self.neighbours[province]:
                    if other not in result:
                        result[other] = step
                        nxt.append(other)
            frontier = nxt
        return result


def load_csv_map(name: str, rows: Mapping[str, str]) -> Map:
    """A map from the three CSV texts ``provinces``, ``regions`` and ``borders``."""

    def table(key: str) -> list[list[str]]:
        reader = csv.reader(rows[key].splitlines())
        lines = [[cell.strip() for cell in line] for line in reader if line]
        return lines[1:]

    provinces = []
    for short, full, centre in table("provinces"):
        home = centre if centre and centre != "neutral" else None
        provinces.append(Province(short, full, supply_centre=bool(centre), home_of=home))
    regions = []
    for province, coast, terrain in table("regions"):
        region_id = f"{province}({coast}c)" if coast else province
        regions.append(
            Region(region_id, province, f"{coast}c" if coast else None, Terrain(terrain))
        )
    borders = [(a, b, Terrain(t)) for a, b, t in table("borders")]
    return Map(name, provinces, regions, borders)


_STANDARD: Map | None = None

STANDARD_ALIASES = {"tyh": "tys", "mid": "mao", "nat": "nao", "lpl": "lvp", "nwe": "nwg"}
"""Older abbreviations (the Army/Fleet module's examples use them) for the map's own ids."""


def standard_map() -> Map:
    """The standard Diplomacy map (loaded once, from the package's CSV files)."""
    global _STANDARD
    if _STANDARD is None:
        folder = resources.files("companion.cosmic.diplomacy") / "maps" / "standard"
        texts = {
            k: (folder / f"{k}.csv").read_text("utf-8") for k in ("provinces", "regions", "borders")
        }
        _STANDARD = load_csv_map("standard", texts)
        _STANDARD.aliases.update(STANDARD_ALIASES)
    return _STANDARD
