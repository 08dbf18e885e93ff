"""A scan of the physical board, and what it means for the game (issue 5).

The camera (package ``vision``) produces a :class:`BoardScan`: which tiles it saw where, which
of them share an edge (R1.1, from the tile outlines), and what lies in each token slot, every
reading with a confidence. This module is the rules side of it and does no I/O:

* :func:`galaxy_from_scan` turns the scan of a laid-out table into what setup needs: a galaxy
  (tiles, adjacency, minerals) and the homes already marked (R2.2);
* :func:`compare` / :func:`discrepancies` check a scan against the tracked state, in a
  player's words (``"S12: expected red battleship, saw red destroyer"``). A slot the camera
  could not read is *unread*, never a discrepancy; a tile it could not see is *missing*.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError
from companion.local_cluster.atoms import DESTROYER, Colour, SectorId, UnitType, sector_sort_key
from companion.local_cluster.errors import GalaxyError
from companion.local_cluster.galaxy import Galaxy, Sector, Tile
from companion.local_cluster.state import State


class ScanError(CompanionError, ValueError):
    """Scan data that is malformed (a bad ``--json`` file, a wrong field)."""


class SlotState(enum.Enum):
    """What a slot was seen to hold."""

    EMPTY = "empty"
    TOKEN = "token"
    UNKNOWN = "unknown"
    """Covered (a hand, a cup, glare) or unsure: no reading is given."""


@dataclasses.dataclass(frozen=True)
class SlotReading:
    """One slot's reading: ``claim``, ``unit``, ``mineral1``-``4`` or ``craft1``-``6``.

    ``colour`` is set for a claim, unit or strike-craft token; ``kind`` for a unit. The
    confidence (0-1) is the recognizer's; an UNKNOWN reading carries how close it came.
    """

    slot: str
    state: SlotState
    colour: Colour | None = None
    kind: UnitType | None = None
    confidence: float = 0.0

    @property
    def known(self) -> bool:
        return self.state is not SlotState.UNKNOWN

    def describe(self) -> str:
        """``red destroyer``, ``red``, ``mineral``, ``empty`` or ``unknown``."""
        if self.state is SlotState.UNKNOWN:
            return "unknown"
        if self.state is SlotState.EMPTY:
            return "empty"
        parts = [p for p in (self.colour and self.colour.value, self.kind and self.kind.value) if p]
        return " ".join(parts) or "token"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"slot": self.slot, "state": self.state.value}
        if self.colour is not None:
            out["colour"] = self.colour.value
        if self.kind is not None:
            out["kind"] = self.kind.value
        out["confidence"] = round(self.confidence, 3)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SlotReading:
        colour = data.get("colour")
        kind = data.get("kind")
        return cls(
            str(data["slot"]),
            SlotState(data["state"]),
            None if colour is None else Colour.parse(colour),
            None if kind is None else UnitType.parse(kind),
            float(data.get("confidence", 0.0)),
        )


@dataclasses.dataclass(frozen=True)
class TileReading:
    """A tile whose marker was seen: its sector, pose on the table and its slots.

    ``centre`` (mm) and ``angle`` (degrees) are in the table plane fixed by the calibration
    card; ``column``, ``row`` and ``rotation`` are the same pose snapped to the tile grid.
    """

    sector: SectorId
    variant: int
    column: int
    row: int
    rotation: int
    centre: tuple[float, float]
    angle: float
    confidence: float
    slots: tuple[SlotReading, ...]

    def slot(self, name: str) -> SlotReading | None:
        for reading in self.slots:
            if reading.slot == name:
                return reading
        return None

    def _kind(self, prefix: str) -> list[SlotReading]:
        return [s for s in self.slots if s.slot.startswith(prefix)]

    @property
    def minerals(self) -> int | None:
        """Mineral tokens seen (0-4), or None when a mineral slot could not be read."""
        found = self._kind("mineral")
        if not found or not all(s.known for s in found):
            return None
        return sum(s.state is SlotState.TOKEN for s in found)

    @property
    def craft(self) -> dict[Colour, int] | None:
        """Strike craft seen per colour, or None when a craft slot could not be read."""
        found = self._kind("craft")
        if not found or not all(s.known for s in found):
            return None
        counts: dict[Colour, int] = {}
        for s in found:
            if s.state is SlotState.TOKEN and s.colour is not None:
                counts[s.colour] = counts.get(s.colour, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "sector": self.sector,
            "variant": self.variant,
            "column": self.column,
            "row": self.row,
            "rotation": self.rotation,
            "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
            "angle": round(self.angle, 2),
            "confidence": round(self.confidence, 3),
            "slots": [s.to_dict() for s in self.slots],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TileReading:
        return cls(
            str(data["sector"]),
            int(data["variant"]),
            int(data["column"]),
            int(data["row"]),
            int(data["rotation"]),
            (float(data["centre"][0]), float(data["centre"][1])),
            float(data["angle"]),
            float(data["confidence"]),
            tuple(SlotReading.from_dict(s) for s in data["slots"]),
        )


@dataclasses.dataclass(frozen=True)
class BoardScan:
    """Everything one picture of the table showed. Tiles in natural sector order."""

    tiles: tuple[TileReading, ...]
    adjacency: tuple[tuple[SectorId, SectorId], ...]
    """Pairs of seen tiles whose outlines share an edge (R1.1), each pair in sector order."""
    notes: tuple[str, ...] = ()
    """What the recognizer wants a person to know (an unknown marker, a tile off the grid)."""

    def tile(self, sector: SectorId) -> TileReading | None:
        for tile in self.tiles:
            if tile.sector.casefold() == sector.casefold():
                return tile
        return None

    @property
    def sectors(self) -> tuple[SectorId, ...]:
        return tuple(t.sector for t in self.tiles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiles": [t.to_dict() for t in self.tiles],
            "adjacency": [[a, b] for a, b in self.adjacency],
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardScan:
        try:
            return cls(
                tuple(TileReading.from_dict(t) for t in data["tiles"]),
                tuple((str(a), str(b)) for a, b in data["adjacency"]),
                tuple(str(n) for n in data.get("notes", ())),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ScanError(f"not a board scan ({type(err).__name__}: {err})") from None


# Setup ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ScannedGalaxy:
    """What setup takes from a scan: the galaxy, the homes marked, and what was not read."""

    galaxy: Galaxy
    homes: dict[Colour, SectorId]
    """Sectors holding a claim and a destroyer of the same colour (R2.2)."""
    unread: tuple[str, ...]
    """Sectors whose minerals could not be read (given 1 for now), as ``"S4 minerals"``."""


def galaxy_from_scan(scan: BoardScan) -> ScannedGalaxy:
    """The galaxy of a scanned table: tiles as seen, adjacency from their outlines (R1.1),
    mineral values as counted (1-4; a sector showing 0 or unread minerals gets 1, to be
    rolled or entered as R2.2 says), and homes already marked."""
    if not scan.tiles:
        raise GalaxyError("the scan shows no tiles: is the camera pointed at the table?")
    left = min(t.column for t in scan.tiles)
    top = min(t.row for t in scan.tiles)
    sectors = []
    unread = []
    homes: dict[Colour, SectorId] = {}
    for t in sorted(scan.tiles, key=lambda t: sector_sort_key(t.sector)):
        minerals = t.minerals
        if minerals is None or not 1 <= minerals <= 4:
            unread.append(f"{t.sector} minerals")
            minerals = 1
        tile = Tile(t.column - left, t.row - top, t.variant, t.rotation % 4)
        sectors.append(Sector(t.sector, minerals, tile))
        claim, unit = t.slot("claim"), t.slot("unit")
        if (
            claim is not None
            and unit is not None
            and claim.colour is not None
            and unit.colour is claim.colour
            and unit.kind is DESTROYER
            and claim.colour not in homes
        ):
            homes[claim.colour] = t.sector
    galaxy = Galaxy.from_sectors(sectors, scan.adjacency)
    return ScannedGalaxy(galaxy, homes, tuple(unread))


# Comparing with the tracked state --------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Discrepancy:
    """One way the table differs from the tracked state; ``sector`` None for the whole board."""

    sector: SectorId | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"sector": self.sector, "text": self.text}


@dataclasses.dataclass(frozen=True)
class ScanReport:
    """A scan compared with the state: what differs, which tiles are missing, what was unread."""

    discrepancies: tuple[Discrepancy, ...]
    missing: tuple[SectorId, ...]
    """Sectors of the game whose tile marker was not seen (covered, or the tile is gone)."""
    unread: tuple[str, ...]
    """Slots that were seen but could not be read (``"S4 unit"``): not discrepancies."""


def _unit_text(colour: Colour | None, kind: UnitType | None) -> str:
    if colour is None or kind is None:
        return "no unit"
    return f"{colour.value} {kind.value}"


def _claim_text(colour: Colour | None) -> str:
    return "no claim" if colour is None else f"{colour.value} claim"


def _craft_text(counts: Mapping[Colour, int]) -> str:
    if not counts:
        return "no strike craft"
    return ", ".join(f"{n} {c.value}" for c, n in sorted(counts.items(), key=lambda i: i[0].rank))


def compare(scan: BoardScan, state: State) -> ScanReport:
    """Check every tile seen against the tracked state (see the module docstring)."""
    galaxy = state.galaxy
    found: list[Discrepancy] = []
    unread: list[str] = []
    claims = dict(state.claims)
    units = {u.sector: u for u in state.units}
    craft: dict[SectorId, dict[Colour, int]] = {}
    for c in state.craft:
        counts = craft.setdefault(c.sector, {})
        counts[c.owner] = counts.get(c.owner, 0) + 1
    seen: set[SectorId] = set()
    for tile in scan.tiles:
        sector = galaxy.resolve(tile.sector)
        if sector is None:
            found.append(Discrepancy(tile.sector, f"{tile.sector}: a tile not in this game"))
            continue
        seen.add(sector)

        def differs(text: str, sector: SectorId = sector) -> None:
            found.append(Discrepancy(sector, f"{sector}: {text}"))

        claim = tile.slot("claim")
        if claim is not None:
            if not claim.known:
                unread.append(f"{sector} claim")
            elif claim.colour is not claims.get(sector):
                differs(
                    f"expected {_claim_text(claims.get(sector))}, saw {_claim_text(claim.colour)}"
                )
        unit_slot = tile.slot("unit")
        if unit_slot is not None:
            unit = units.get(sector)
            expected = (None, None) if unit is None else (unit.owner, unit.kind)
            seen_unit = (unit_slot.colour, unit_slot.kind)
            if not unit_slot.known:
                unread.append(f"{sector} unit")
            elif seen_unit != expected:
                differs(f"expected {_unit_text(*expected)}, saw {_unit_text(*seen_unit)}")
        minerals = tile.minerals
        if minerals is None:
            if any(s.slot.startswith("mineral") for s in tile.slots):
                unread.append(f"{sector} minerals")
        elif minerals != galaxy.minerals(sector):
            differs(f"expected {galaxy.minerals(sector)} minerals, saw {minerals}")
        seen_craft = tile.craft
        if seen_craft is None:
            if any(s.slot.startswith("craft") for s in tile.slots):
                unread.append(f"{sector} strike craft")
        elif seen_craft != craft.get(sector, {}):
            wanted = craft.get(sector, {})
            differs(f"expected {_craft_text(wanted)} strike craft, saw {_craft_text(seen_craft)}")
    for a, b in scan.adjacency:
        sa, sb = galaxy.resolve(a), galaxy.resolve(b)
        if sa is not None and sb is not None and not galaxy.adjacent(sa, sb):
            found.append(
                Discrepancy(sa, f"{sa} and {sb}: their tiles share an edge, but not in the game")
            )
    scanned = {(galaxy.resolve(a), galaxy.resolve(b)) for a, b in scan.adjacency}
    for a, b in galaxy.edges:
        if a in seen and b in seen and (a, b) not in scanned and (b, a) not in scanned:
            found.append(
                Discrepancy(a, f"{a} and {b}: adjacent in the game, but their tiles do not touch")
            )
    found += turned_otherwise(scan, galaxy)
    missing = tuple(s for s in galaxy.ids if s not in seen)
    return ScanReport(tuple(found), missing, tuple(unread))


TURN_WORDS = {1: "a quarter turn clockwise", 2: "a half turn", 3: "a quarter turn anticlockwise"}


def turned_otherwise(scan: BoardScan, galaxy: Galaxy) -> list[Discrepancy]:
    """Tiles seen turned otherwise than the galaxy lays them (R2.1; the table screen draws
    each tile's top). The camera may look from any side, so each tile's quarter turn is
    taken against the galaxy's and set against the turn most of the tiles seen share; none
    is named unless at least 3 tiles are seen and more than half of them share it."""
    offsets: dict[SectorId, int] = {}
    for tile in scan.tiles:
        sector = galaxy.resolve(tile.sector)
        laid = galaxy.by_id[sector].tile if sector is not None else None
        if sector is not None and laid is not None:
            offsets[sector] = (tile.rotation - laid.rotation) % 4
    if len(offsets) < 3:
        return []
    common, count = Counter(offsets.values()).most_common(1)[0]
    if 2 * count <= len(offsets):
        return []
    return [
        Discrepancy(
            sector,
            f"{sector}: the tile lies {TURN_WORDS[(offset - common) % 4]} from the way the "
            "table screen draws it (its top goes to the light bar)",
        )
        for sector, offset in sorted(offsets.items(), key=lambda item: sector_sort_key(item[0]))
        if offset != common
    ]


def discrepancies(scan: BoardScan, state: State) -> list[Discrepancy]:
    """How the table differs from the tracked state; unread slots and missing tiles are not
    counted (see :func:`compare` for those)."""
    return list(compare(scan, state).discrepancies)
