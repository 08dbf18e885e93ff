"""Where the game's map puts each tile, fitted to the tiles found by their markers.

A tracked game's galaxy lays its sectors' tiles on a grid (ruling R2.1: a column, a row and a
quarter turn each), and the players lay the physical tiles on the cells the table screen
draws. When the tiles found in a picture lie on that map's cells (every one of them, at
least :data:`FOUND_LEAST`, or two turned as their cells say, or one and a face beside it,
or where its own turn puts another tile's cell, that only one missing tile of its variant
fits: :func:`fit_by_a_face`, :func:`guessed_by_its_turn`), a face whose marker
is hidden is named by the cell it lies on: what tells apart two hidden tiles of one variant,
whose faces differ only by the marker and the 6 mm label (see ``recognize._by_face``).
The way it lies is the map's too where the tiles found are turned as the map says (the
table screen draws each tile's top, and players lay the tiles so; one in five of them may
lie otherwise) and the face shows that way; a face that shows another way (a tile laid
turned otherwise), or a table whose tiles lie turned as players liked, is named by its
cell alone, and its outlines or slots must say the way. A table laid otherwise than its
map (a tile swapped, on another cell, or the map typed in without tiles) fits no grid, and
the map is not used at all; with only two tiles found, only where both lie as far apart
as their cells and turned as they say does it fit by chance.
"""

from __future__ import annotations

import cmath
import dataclasses
import math
from collections.abc import Mapping, Sequence

from companion.local_cluster.atoms import SectorId
from companion.local_cluster.galaxy import Tile
from vision.local_cluster.plane import wrap

Pose = tuple[tuple[float, float], float]

FOUND_LEAST = 3
"""Tiles found by their markers, all lying as the map says, before the map names a face..."""
FOUND_TURNED_LEAST = 2
"""...or this many, each turned as its cell turns it (the quarter turn the table screen draws):
two tiles fix the grid's pitch, turn and shift with no place left over to check, but their
turns check it. Two tiles swapped, or laid where the map puts other tiles, lie turned half
a turn or a quarter from what the grid so fitted says. (Issue 18's pictures drawn apart,
seeds 32-43 from 1 px/mm: of 129 read with the map, 15 showed only two markers, and their
hidden tiles' faces were looked for on free cells beside them alone.)"""
PITCH_RANGE = (0.97, 1.15)
"""The grid's pitch, as a share of the tile's side: tiles laid edge to edge, or with gaps
of up to some 20 mm."""
AGREE_CELLS = 0.15
"""A found tile agrees with the map when the fitted grid puts its cell within this many
cells of its marker's centre (20 mm for 130 mm tiles; issue 18's benchmark lays them
within 2.3 mm; a tile on another cell is 130 mm or more off)..."""
AGREE_DEGREES = 15.0
"""...and its marker lies square on the grid within this (some quarter turn of it); a tile
found is turned as its cell says when it is so within this (a tile a quarter turn wrong is
90 off; the benchmark turns them 3 at most)."""
ASTRAY_SHARE = 0.2
"""The map's turns are still taken where at most this share of the tiles found lies turned
otherwise than the map says (a player who laid one tile a quarter turn wrong; a face must
still show the map's way itself, :meth:`Fitted.turned_so`)."""
FACE_CELLS = 0.25
"""A face lies on a cell when its centre is within this many cells of the cell's centre."""
FACE_DEGREES = 15.0
"""A way a face may lie is the cell's when it turns as the cell says within this (the
other ways of a face are quarter turns apart)."""


@dataclasses.dataclass(frozen=True)
class Fitted:
    """The map fitted to the table plane: a grid cell's centre is ``scale * (column + i row)
    + shift`` (complex numbers, table mm), and a tile of ``turns`` quarter turns has its
    marker at ``turn + 90 * turns`` degrees."""

    scale: complex
    shift: complex
    turn: float
    cells: Mapping[tuple[int, int], tuple[SectorId, int]]
    turns_known: bool = True
    """Whether the tiles found are turned as their cells say (all but at most
    :data:`ASTRAY_SHARE` of them): the map then says the way of a face that shows it too."""

    def at(self, pose: Pose) -> tuple[SectorId, float] | None:
        """The sector the map lays where ``pose`` lies, and the turn its marker would have
        there; None off the map's cells or between them."""
        (x, y), _ = pose
        where = (complex(x, y) - self.shift) / self.scale
        cell = (round(where.real), round(where.imag))
        if abs(where - complex(*cell)) > FACE_CELLS or cell not in self.cells:
            return None
        sector, turns = self.cells[cell]
        return sector, wrap(self.turn + 90.0 * turns)

    def cell_of(self, sector: SectorId) -> Pose | None:
        """Where the map lays ``sector``: its cell's centre (table mm) and the turn its marker
        would have there; None when the map has no such sector."""
        for (column, row), (there, turns) in self.cells.items():
            if there == sector:
                centre = self.scale * complex(column, row) + self.shift
                return (centre.real, centre.imag), wrap(self.turn + 90.0 * turns)
        return None

    def lies_so(self, pose: Pose, sector: SectorId) -> bool:
        """Whether ``pose`` is where the map lays ``sector`` (within a face's reach)."""
        there = self.at(pose)
        return there is not None and there[0] == sector

    def turned_so(self, pose: Pose, sector: SectorId) -> bool:
        """Whether ``pose`` is where the map lays ``sector`` and turned as it turns it."""
        there = self.at(pose)
        return (
            there is not None
            and there[0] == sector
            and abs(wrap(pose[1] - there[1])) <= FACE_DEGREES
        )


def fit(
    cells: Mapping[SectorId, Tile], found: Sequence[tuple[SectorId, Pose]], side: float
) -> Fitted | None:
    """The map (``cells``: the galaxy's :class:`Tile` of each sector, its column, row and
    quarter turns) fitted to the tiles ``found`` by their markers (tile ``side`` in mm), or None
    unless at least :data:`FOUND_LEAST` lie on it (or :data:`FOUND_TURNED_LEAST`, each turned
    as its cell says) and every one of them lies on its cell, square on the grid."""
    pairs = [(cells[sector], pose) for sector, pose in found if sector in cells]
    if len(pairs) < FOUND_TURNED_LEAST or len(pairs) < len(found):
        return None
    grid = [complex(cell.column, cell.row) for cell, _ in pairs]
    table = [complex(*pose[0]) for _, pose in pairs]
    grid_mean = sum(grid) / len(grid)
    table_mean = sum(table) / len(table)
    spread = sum(abs(g - grid_mean) ** 2 for g in grid)
    if spread < 0.5:  # every tile found on one cell: no grid
        return None
    scale = (
        sum(
            (t - table_mean) * (g - grid_mean).conjugate() for g, t in zip(grid, table, strict=True)
        )
        / spread
    )
    low, high = PITCH_RANGE
    if not low * side <= abs(scale) <= high * side:
        return None
    shift = table_mean - scale * grid_mean
    turn = math.degrees(cmath.phase(scale))
    astray = 0
    for (cell, pose), g, t in zip(pairs, grid, table, strict=True):
        if abs(scale * g + shift - t) > AGREE_CELLS * abs(scale):
            return None
        if abs(wrap(4.0 * (pose[1] - turn)) / 4.0) > AGREE_DEGREES:
            return None  # not square on the grid
        astray += abs(wrap(pose[1] - 90.0 * cell.rotation - turn)) > AGREE_DEGREES
    if astray and len(pairs) < FOUND_LEAST:
        return None  # two tiles whose turns do not check the grid they fix
    turns_known = astray <= ASTRAY_SHARE * len(pairs)
    by_cell = _by_cell(cells)
    if by_cell is None:
        return None
    return Fitted(scale, shift, turn, by_cell, turns_known)


def fit_by_a_face(
    cells: Mapping[SectorId, Tile],
    found: Sequence[tuple[SectorId, Pose]],
    faces: Sequence[Sequence[tuple[SectorId, Pose]]],
    side: float,
) -> Fitted | None:
    """The map fitted to the one tile ``found`` by its marker and a face beside it (or where
    :func:`guessed_by_its_turn` lays a missing tile) whose marker is hidden, or None. Each
    of ``faces`` lists the missing tiles a face may be, each at the pose it would lie there
    (its variant's missing tiles, each way its outlines allow).
    A tile found and a face fix the grid as two tiles found do (:func:`fit`: the pitch in
    :data:`PITCH_RANGE`, both square on the grid, both turned as their cells say), and the
    face's variant checks it too: of the missing tiles of that variant, only one whose cell
    lies there, turned so, fits. So the map is taken only where every face and tile that fit
    give one grid. (Issue 18's pictures drawn apart, seeds 32-43 from 1 px/mm, read with the
    map: 18 found one tile alone, and 97 visible slots lay on their hidden tiles not placed;
    42/45's face beside S46 could be S40 or S47, and only S40's cell lies beside S46.)"""
    if len(found) != 1:
        return None
    ((own, _),) = found
    fits = [
        fitted
        for ways in faces
        for sector, pose in ways
        if sector != own and (fitted := fit(cells, [*found, (sector, pose)], side))
    ]
    if not fits or any(not _same_grid(fits[0], other) for other in fits[1:]):
        return None
    return fits[0]


def guessed_by_its_turn(
    cells: Mapping[SectorId, Tile], found: Sequence[tuple[SectorId, Pose]], side: float
) -> Fitted | None:
    """Where the map would lay the missing tiles if the one tile ``found`` by its marker is
    turned as its cell says and the grid's pitch is the tile's ``side``: only where to look
    for a face (:func:`fit_by_a_face` then fits the map to the tile and a face found so, and
    checks it), never a fit itself. None unless exactly one tile was found, on the map."""
    if len(found) != 1 or found[0][0] not in cells:
        return None
    ((sector, ((x, y), angle)),) = found
    cell = cells[sector]
    turn = wrap(angle - 90.0 * cell.rotation)
    scale = side * cmath.exp(1j * math.radians(turn))
    by_cell = _by_cell(cells)
    if by_cell is None:
        return None
    return Fitted(scale, complex(x, y) - scale * complex(cell.column, cell.row), turn, by_cell)


def _by_cell(
    cells: Mapping[SectorId, Tile],
) -> dict[tuple[int, int], tuple[SectorId, int]] | None:
    """The map's sector and quarter turns on each cell (column, row); None where two sectors
    lie on one cell: not a map of tiles."""
    by_cell = {(c.column, c.row): (sector, c.rotation) for sector, c in cells.items()}
    return None if len(by_cell) < len(cells) else by_cell


def _same_grid(one: Fitted, other: Fitted) -> bool:
    """Whether two fits lay every cell of the map within :data:`AGREE_CELLS` of each other,
    turned alike within :data:`AGREE_DEGREES`."""
    reach = AGREE_CELLS * abs(one.scale)
    return abs(wrap(one.turn - other.turn)) <= AGREE_DEGREES and all(
        abs((one.scale - other.scale) * complex(*cell) + one.shift - other.shift) <= reach
        for cell in one.cells
    )
