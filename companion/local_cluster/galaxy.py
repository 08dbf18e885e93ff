"""The map: sectors, their mineral values, the adjacency between them, and tile geometry.

Ruling R1: a galaxy is any connected undirected graph of sectors; tiles laid on a grid are one
way to get one (R2.1), a scan of the real table or typed-in data are others (R1.3).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import Any

from companion.local_cluster.atoms import SectorId, sector_sort_key
from companion.local_cluster.errors import GalaxyError

TILE_VARIANTS = 4
"""Sector tiles come in four shape variants (rulebook 2); only token slot positions differ."""


@dataclasses.dataclass(frozen=True)
class Tile:
    """Where a sector's tile lies on the table grid, for drawing: column, row, variant 0-3."""

    column: int
    row: int
    variant: int = 0
    rotation: int = 0
    """Quarter turns clockwise (0-3)."""

    def __post_init__(self) -> None:
        if not 0 <= self.variant < TILE_VARIANTS:
            raise GalaxyError(f"tile variant must be 0 to {TILE_VARIANTS - 1}, not {self.variant}")
        if not 0 <= self.rotation < 4:
            raise GalaxyError(f"tile rotation must be 0 to 3 quarter turns, not {self.rotation}")

    @property
    def cell(self) -> tuple[int, int]:
        return (self.column, self.row)


@dataclasses.dataclass(frozen=True)
class Sector:
    """One sector: its id, its mineral value (1-4) and, when known, its tile."""

    id: SectorId
    minerals: int
    tile: Tile | None = None


def _edge(a: SectorId, b: SectorId) -> tuple[SectorId, SectorId]:
    return (a, b) if sector_sort_key(a) <= sector_sort_key(b) else (b, a)


@dataclasses.dataclass(frozen=True)
class Galaxy:
    """A connected galaxy. Build one with :meth:`from_sectors` or :meth:`from_tiles`.

    ``sectors`` are kept in natural id order; ``edges`` are pairs in that order too, so two
    galaxies built from the same facts compare and serialise identically.
    """

    sectors: tuple[Sector, ...]
    edges: tuple[tuple[SectorId, SectorId], ...]

    @classmethod
    def from_sectors(
        cls, sectors: Iterable[Sector], edges: Iterable[tuple[SectorId, SectorId]]
    ) -> Galaxy:
        """A galaxy from entered or scanned data (R1.3), checked by :meth:`check`.

        Edge endpoints may be written in any case; they are stored with the sector's own id.
        """
        ordered = tuple(sorted(sectors, key=lambda s: sector_sort_key(s.id)))
        by_fold: dict[str, SectorId] = {}
        for sector in ordered:
            folded = sector.id.casefold()
            if folded in by_fold:
                raise GalaxyError(
                    f"sector id {sector.id!r} is used twice (ids are the same ignoring case: "
                    f"{by_fold[folded]!r})"
                )
            by_fold[folded] = sector.id
        pairs: set[tuple[SectorId, SectorId]] = set()
        for a, b in edges:
            try:
                ca, cb = by_fold[a.casefold()], by_fold[b.casefold()]
            except KeyError as err:
                raise GalaxyError(
                    f"adjacency {a}-{b} names sector {err.args[0]!r}, which is not in the galaxy"
                ) from None
            if ca == cb:
                raise GalaxyError(f"sector {ca} cannot be adjacent to itself")
            pairs.add(_edge(ca, cb))
        edge_list = tuple(
            sorted(pairs, key=lambda e: (sector_sort_key(e[0]), sector_sort_key(e[1])))
        )
        galaxy = cls(ordered, edge_list)
        galaxy.check()
        return galaxy

    @classmethod
    def from_tiles(cls, tiles: Mapping[SectorId, Tile], minerals: Mapping[SectorId, int]) -> Galaxy:
        """A galaxy of tiles on a square grid: tiles sharing an edge are adjacent (R1.1, R2.1)."""
        at_cell: dict[tuple[int, int], SectorId] = {}
        for sector_id, tile in tiles.items():
            if tile.cell in at_cell:
                raise GalaxyError(
                    f"tiles {at_cell[tile.cell]} and {sector_id} both lie at column "
                    f"{tile.column}, row {tile.row}"
                )
            at_cell[tile.cell] = sector_id
        edges = []
        for (column, row), sector_id in at_cell.items():
            for neighbour_cell in ((column + 1, row), (column, row + 1)):
                if neighbour_cell in at_cell:
                    edges.append((sector_id, at_cell[neighbour_cell]))
        missing = sorted(set(tiles) - set(minerals), key=sector_sort_key)
        if missing:
            raise GalaxyError(f"no mineral value given for {', '.join(missing)}")
        sectors = [Sector(sid, minerals[sid], tiles[sid]) for sid in tiles]
        return cls.from_sectors(sectors, edges)

    def check(self) -> None:
        """Raise GalaxyError unless this is a playable galaxy (R1.1-R1.3)."""
        if not self.sectors:
            raise GalaxyError("a galaxy needs at least one sector")
        for sector in self.sectors:
            if not sector.id or not all(c.isalnum() or c in "-_" for c in sector.id):
                raise GalaxyError(
                    f"sector id {sector.id!r} must be letters, digits, '-' or '_' (like S12)"
                )
            if not 1 <= sector.minerals <= 4:
                raise GalaxyError(
                    f"sector {sector.id} has mineral value {sector.minerals}; it must be 1 to 4"
                )
        ids = {s.id for s in self.sectors}
        for a, b in self.edges:
            if a not in ids or b not in ids:
                raise GalaxyError(f"adjacency {a}-{b} names a sector that is not in the galaxy")
        unreached = set(ids) - set(self._reachable_from(self.sectors[0].id))
        if unreached:
            names = ", ".join(sorted(unreached, key=sector_sort_key))
            raise GalaxyError(
                f"the galaxy is not connected: {names} cannot be reached from "
                f"{self.sectors[0].id}; every sector must share an edge with the rest"
            )

    def _reachable_from(self, start: SectorId) -> Iterator[SectorId]:
        seen = {start}
        frontier = [start]
        while frontier:
            current = frontier.pop()
            yield current
            for neighbour in self.neighbours[current]:
                if neighbour not in seen:
                    seen.add(neighbour)
                    frontier.append(neighbour)

    @cached_property
    def ids(self) -> tuple[SectorId, ...]:
        """Sector ids in natural order."""
        return tuple(s.id for s in self.sectors)

    @cached_property
    def by_id(self) -> Mapping[SectorId, Sector]:
        return {s.id: s for s in self.sectors}

    @cached_property
    def neighbours(self) -> Mapping[SectorId, frozenset[SectorId]]:
        found: dict[SectorId, set[SectorId]] = {s.id: set() for s in self.sectors}
        for a, b in self.edges:
            found[a].add(b)
            found[b].add(a)
        return {sid: frozenset(n) for sid, n in found.items()}

    @cached_property
    def _folded(self) -> Mapping[str, SectorId]:
        return {s.id.casefold(): s.id for s in self.sectors}

    @cached_property
    def order(self) -> Mapping[SectorId, int]:
        """Each sector's position in natural id order, for "lowest sector number" choices."""
        return {sid: index for index, sid in enumerate(self.ids)}

    def resolve(self, text: str) -> SectorId | None:
        """The sector named ``text`` ignoring case (R1.2), or None."""
        if text in self.by_id:  # already the sector's own id: the common case
            return text
        return self._folded.get(text.casefold())

    def adjacent(self, a: SectorId, b: SectorId) -> bool:
        return b in self.neighbours[a]

    def minerals(self, sector: SectorId) -> int:
        return self.by_id[sector].minerals

    def with_minerals(self, values: Mapping[SectorId, int]) -> Galaxy:
        """The same galaxy with some mineral values changed (a correction or a scan)."""
        sectors = [
            dataclasses.replace(s, minerals=values.get(s.id, s.minerals)) for s in self.sectors
        ]
        return Galaxy.from_sectors(sectors, self.edges)

    def to_dict(self) -> dict[str, Any]:
        sectors: list[dict[str, Any]] = []
        for s in self.sectors:
            entry: dict[str, Any] = {"id": s.id, "minerals": s.minerals}
            if s.tile is not None:
                entry["tile"] = {
                    "column": s.tile.column,
                    "row": s.tile.row,
                    "variant": s.tile.variant,
                    "rotation": s.tile.rotation,
                }
            sectors.append(entry)
        return {"sectors": sectors, "adjacency": [[a, b] for a, b in self.edges]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Galaxy:
        sectors = []
        for entry in data["sectors"]:
            tile = entry.get("tile")
            sectors.append(
                Sector(
                    entry["id"],
                    entry["minerals"],
                    None
                    if tile is None
                    else Tile(
                        tile["column"], tile["row"], tile["variant"], tile.get("rotation", 0)
                    ),
                )
            )
        return cls.from_sectors(sectors, [(a, b) for a, b in data["adjacency"]])
