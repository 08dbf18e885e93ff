"""A tile whose marker is hidden whole, found by its printed face.

A hand over a tile's marker leaves nothing that names the tile. But when the table should
hold a tile that was not found (``companion scan --expect``, or the tracked game with no
earlier scan of that tile) and it is the only such tile of its variant, the face says which
it is (of more, what shows of its marker may: ``grid_rescue.named_in_part``). It lies on a
free grid cell beside the tiles found, or, where the game's map is known, on the cell the map
lays it (beyond another hidden tile it lies beside none found); each such cell is looked at:

1. its **edge line** (a 1.5 mm light line just inside the cut, alike on all four sides) says
   where the tile lies, give or take its gap and turn: the pose where the line shows most
   lighter than the face just inside it, a few millimetres and degrees either way of where
   the grid puts it. Moved across a side, the line there falls on the face; the side opposite
   loses it too, so only the tile's own place shows it all round. A face where the line
   shows must be no lighter than the found tiles' faces along a quarter of the line at
   least (a wood table's grain shows "lines" all round; a hand lies over part of a face);
2. its **slot outlines** (1.5 mm lines) say which variant it is and which way it lies: each
   variant at each quarter turn (16 ways) is fitted (:mod:`outline_fit`), and the way whose
   triangle and hexagon outlines show most is kept, only when they show clearly more than
   any other way's. Every variant's triangles point up its own frame and its hexagons have
   flat tops, so a variant turned a quarter is no other variant.

What is found so is only a candidate: the caller names it only as the one missing tile of
its variant, reads its slots, and keeps it only where its edge line and its slots show it,
and where no other cell shows the same.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision.local_cluster import outline_fit, tile_edges
from vision.local_cluster.grid_rescue import free_cells, grid_turn
from vision.local_cluster.kit import Kit
from vision.local_cluster.plane import _similarity
from vision.local_cluster.tile_edges import Shown

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
Pose = tuple[tuple[float, float], float]

SAME_CELL = 0.5
"""A map's cell within this share of a tile's side of a free cell is that cell..."""
MAP_CELL_FIRST = True
"""...and a tile there is looked for from the map's cell, not the free cell: the map is
fitted to every tile found at once, a free cell lies a pitch from one tile found and takes
its turn from the tiles beside it. (Issue 18's pictures drawn apart, seeds 32-43 from 1
px/mm, with the map: 7 more visible slots right than from the free cell, none wrong. Seed
38 picture 46's S6: the free cell turned 153 degrees, the tile 146.7, past
:data:`REACH_DEG`; the map's cell 147.5.)"""
SAME_SPOT = 0.3
"""A free cell stepped to along the grid's turn is the one stepped to along a neighbour's
own turn within this share of a tile's side of it..."""
ALONG_THE_GRID = True
"""...and where the map lays no tile there, the tile is looked for from both: the second's
fit is kept where its edge line shows more and it lies elsewhere than the first's (two fits
a coarse step apart found the same line, and the first keeps it). A tile laid a few degrees
off its neighbours can put the cell along its own turn 10 mm or more astray. (Issue 18's
pictures drawn apart, seeds 32-43 from 1 px/mm: 25 more visible slots right read alone,
none wrong; held-out seeds 0-31 from 0.95 px/mm, 6 more. Seed 40 picture 45's S16: the
cell along its neighbour's turn 12.6 mm from its face, along the grid's 5.9 mm. With the
better fit kept however near the first, fits 0.2-0.4 mm apart flipped the outline fits of
two faces, seed 2026 picture 89's S30 and `lamps` 67 picture 47's S24, one each way.)"""
REACH_MM = 7.0
"""How far (mm) either way of where the grid puts it a tile is looked for: a gap of up to 4
mm each side of each tile, and a few degrees of turn across a pitch of 130 mm..."""
REACH_DEG = 4.5
"""...and how far turned (degrees)..."""
STEP_MM = 1.0
STEP_DEG = 1.5
"""...at these steps, then half a millimetre and half a degree either way of the best."""
FACE_DARK_SHARE = 0.25
"""A cell's face just inside its edge line must be, along at least this share of the line,
no lighter than the found tiles' faces (give or take their line's contrast): a wood table
lit or grained like a line is lighter all round, a tile's face under a hand only where the
hand lies. (Issue 18's benchmark, seed 2026 picture 101, 1.6 px/mm: a hand over the upper
half of S16 and its marker; its face along the line was, at the median, 2.6 levels lighter
than allowed, and the tile went unfound with nine of its slots showing. Asked of half the
line before; a quarter, a sixth or a third find the same tiles on the nine sets.)"""
LAYOUT_MARGIN = 1.3
"""The variant and quarter turn whose slot outlines show most is the tile's only when they
show at least this many times as much as every other's; else those that come nearer are
its :attr:`Face.others` too. (Issue 18's benchmark, nine sets from 1 px/mm: a face short of
it was dropped before; kept with the ways that come near, and the missing tiles of all of
them its candidates, 43 more visible slots right, none wrong; 28 once the tile left over is
placed only where it is left at one face, ``recognize._by_face``. `hands` 13 picture 10:
S20 under a hand, its layout 1.23 times another's.)"""
ALIKE_MM = 5.0
"""Slots this near are in the same place (:func:`_alike`): a variant's slots a quarter turn
on lie within 3.5 mm of another's (a triangle's centre moves as it turns to point up its
own frame), and 31 mm or more from every other variant's at any other turn."""
TURNED = ("triangle", "hexagon")
"""...counting only the outlines a quarter turn changes: a strike-craft slot's circle shows
alike under every variant that puts a circle there."""


@dataclasses.dataclass(frozen=True)
class Face:
    """Where a tile's face shows on a free grid cell."""

    pose: Pose
    """Its centre (table mm) and turn (degrees), as ``variant``'s slots lie."""
    variant: int
    """Which of the four variants the tile is: the one whose slots, at ``pose``, lie where
    the outlines show (the triangles of every variant point up its own frame, and the
    hexagons have flat tops, so a variant turned a quarter is no other variant)."""
    others: tuple[tuple[int, Pose], ...] = ()
    """The other ways (variant, pose) the tile may lie, when the outlines do not say: the
    other variants whose slots lie where ``variant``'s do, each at its own turn (which way a
    triangle points and whether a hexagon's top is flat is a millimetre or two of outline,
    which a coarse or blurred picture may not show: :data:`LAYOUT_MARGIN` short of it), and
    any other way whose outlines show within :data:`LAYOUT_MARGIN` of the best (a sleeve
    over part of the face). Empty when the outlines say."""


def faces(
    gray: Image,
    kit: Kit,
    table_to_image: Matrix,
    poses: Sequence[Pose],
    typical: float,
    face_level: float,
    also: Sequence[Pose] = (),
    *,
    beside: bool = True,
) -> list[Face]:
    """The tile faces on the free grid cells beside the tiles at ``poses`` and at the cells
    ``also`` names (the game's map's cells of the tiles missing, which may lie beyond another
    hidden tile), given the ``typical`` contrast of the found tiles' edge lines against their
    faces, and how light those faces are (``face_level``). With ``beside`` False, only the
    cells of ``also`` not beside those tiles (the free cells were looked at already)."""
    if typical <= 0 or not poses:
        return []
    every = tile_edges.probes(kit, None)
    variants = range(len(kit.variants))
    outlines = [outline_fit.outline_probes(kit, v) for v in variants]
    turned = [outline_fit.outline_probes(kit, v, TURNED) for v in variants]
    out = []
    free = free_cells(poses, kit.tile_side)
    along = ALONG_THE_GRID and beside  # the free cells' other spots, where they are looked at
    squared = free_cells(poses, kit.tile_side, grid_turn(poses)) if along else []
    held = [centre for centre, _ in [*poses, *free]]
    cells = ([_starts(cell, squared, also, kit.tile_side) for cell in free] if beside else []) + [
        [cell]
        for cell in also
        if all(math.dist(cell[0], centre) >= SAME_CELL * kit.tile_side for centre in held)
    ]
    for starts in cells:
        pose, score = _edge_fitted(gray, table_to_image, every, typical, starts[0])
        for start in starts[1:]:
            other, other_score = _edge_fitted(gray, table_to_image, every, typical, start)
            if other_score > score and not _same_fit(pose, other):
                pose, score = other, other_score
        line, face = tile_edges.levels(gray, table_to_image @ _similarity(*pose), every)
        if tile_edges.shown(line - face, every, typical, line, face_level) is Shown.NONE:
            continue
        if not float(np.nanpercentile(face, FACE_DARK_SHARE * 100)) <= face_level + typical:
            continue  # a table lit or grained like a line, lighter than any tile's face
        (x, y), angle = pose
        hypotheses = [
            (v, ((x, y), angle + 90.0 * quarter)) for v in variants for quarter in range(4)
        ]
        fits = [
            outline_fit.fitted(gray, kit, table_to_image, v, turn, outlines[v])
            for v, turn in hypotheses
        ]
        shows = np.array(
            [
                outline_fit.shown_at(gray, table_to_image, turned[v], fit)
                for (v, _), fit in zip(hypotheses, fits, strict=True)
            ]
        )
        first = int(np.argmax(shows))
        alike = [
            k
            for k, (variant, turn) in enumerate(hypotheses)
            if k != first and _alike(kit, hypotheses[first], (variant, turn))
        ]
        best = float(shows[first])
        if best <= 0:
            continue
        rivals = [
            k
            for k in range(len(hypotheses))
            if k != first and k not in alike and LAYOUT_MARGIN * float(shows[k]) > best
        ]
        sure = best >= LAYOUT_MARGIN * max((float(shows[k]) for k in alike), default=0.0)
        ways = (() if sure else tuple((hypotheses[k][0], fits[k]) for k in alike)) + tuple(
            (hypotheses[k][0], fits[k]) for k in rivals
        )
        out.append(Face(fits[first], hypotheses[first][0], ways))
    return out


def _starts(
    cell: Pose, squared: Sequence[Pose], also: Sequence[Pose], tile_side: float
) -> list[Pose]:
    """Where a tile on the free ``cell`` is looked for from: the game's map's cell that lies
    on it (:data:`MAP_CELL_FIRST`), or else the cell itself, then the same cell along the
    grid (one of ``squared``: :data:`ALONG_THE_GRID`)."""
    if MAP_CELL_FIRST:
        for mapped in also:
            if math.dist(mapped[0], cell[0]) < SAME_CELL * tile_side:
                return [mapped]
    near = [other for other in squared if math.dist(other[0], cell[0]) < SAME_SPOT * tile_side]
    return [cell, *near[:1]]


def _same_fit(one: Pose, other: Pose) -> bool:
    """Whether two edge-line fits found the same line: within a coarse step of each other
    in place and in turn (:data:`STEP_MM`, :data:`STEP_DEG`)."""
    return math.dist(one[0], other[0]) <= STEP_MM and abs(one[1] - other[1]) <= STEP_DEG


def _alike(kit: Kit, one: tuple[int, Pose], other: tuple[int, Pose]) -> bool:
    """Whether two variants at two turns (of one centre) put their slots in the same places
    (within :data:`ALIKE_MM`): every variant's slots are a quarter turn of another's."""
    (variant, (_, angle)), (other_variant, (_, other_angle)) = one, other

    def centres(v: int, turn: float) -> np.ndarray:
        rot = _similarity((0.0, 0.0), turn)[:2, :2]
        out: np.ndarray = np.array([slot.centre for slot in kit.variants[v]], np.float64) @ rot.T
        return out

    a, b = centres(variant, angle), centres(other_variant, other_angle)
    apart = np.linalg.norm(a[:, None] - b[None], axis=2)
    return bool(len(a) == len(b) and apart.min(axis=1).max() <= ALIKE_MM)


def _edge_fitted(
    gray: Image,
    table_to_image: Matrix,
    edge: tile_edges.EdgeProbes,
    typical: float,
    cell: Pose,
) -> tuple[Pose, float]:
    """The pose near ``cell`` where the edge line shows most (each position's line lighter
    than the face beside it, up to ``typical``), and how much it shows there. Moved across
    x, the sides across x lose or find their line and the sides across y only slide along
    theirs: at each turn, the move across x is fitted to the first, the move across y to the
    second."""
    (x, y), angle = cell
    moves = np.arange(-REACH_MM, REACH_MM + 1e-9, STEP_MM)
    turns = np.arange(-REACH_DEG, REACH_DEG + 1e-9, STEP_DEG)
    across_x = edge.side % 2 == 1
    best: tuple[float, Pose] | None = None
    for turn in turns:
        t = math.radians(angle + turn)
        ux, uy = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
        total, centre = 0.0, np.array([x, y])
        for axis, sides in ((ux, across_x), (uy, ~across_x)):
            part = tile_edges.EdgeProbes(edge.line[sides], edge.face[sides], edge.side[sides])
            candidates = [((x + m * axis[0], y + m * axis[1]), angle + turn) for m in moves]
            scores = _edge_scores(gray, table_to_image, part, typical, candidates)
            at = int(np.argmax(scores))
            total += float(scores[at])
            centre = centre + moves[at] * axis
        if best is None or total > best[0]:
            best = (total, ((float(centre[0]), float(centre[1])), float(angle + turn)))
    assert best is not None
    (x, y), angle = best[1]
    fine = np.array([-0.5, 0.0, 0.5])
    candidates = [((x + dx, y + dy), angle + dt) for dt in fine for dx in fine for dy in fine]
    scores = _edge_scores(gray, table_to_image, edge, typical, candidates)
    at = int(np.argmax(scores))
    return candidates[at], float(scores[at])


def _edge_scores(
    gray: Image,
    table_to_image: Matrix,
    edge: tile_edges.EdgeProbes,
    typical: float,
    poses: list[Pose],
) -> npt.NDArray[np.float64]:
    """For each pose, how much of the edge line shows: each position's line lighter than the
    face beside it, as a share of ``typical`` (0 to 1), summed."""
    points = np.concatenate([edge.line, edge.face])
    grey = tile_edges.sampled_at(gray, table_to_image, poses, points)
    half = len(edge.line)
    contrast = np.nan_to_num(grey[:, :half] - grey[:, half:])
    out: npt.NDArray[np.float64] = np.clip(contrast / typical, 0.0, 1.0).sum(axis=1)
    return out
