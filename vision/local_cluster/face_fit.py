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
from vision.local_cluster.grid_rescue import free_cells
from vision.local_cluster.kit import Kit
from vision.local_cluster.plane import _similarity
from vision.local_cluster.tile_edges import Shown

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
Pose = tuple[tuple[float, float], float]

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
    held = [centre for centre, _ in [*poses, *free]]
    cells = (free if beside else []) + [
        cell
        for cell in also
        if all(math.dist(cell[0], centre) >= 0.5 * kit.tile_side for centre in held)
    ]
    for cell in cells:
        pose = _edge_fitted(gray, table_to_image, every, typical, cell)
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
) -> Pose:
    """The pose near ``cell`` where the edge line shows most (each position's line lighter
    than the face beside it, up to ``typical``). Moved across x, the sides across x lose or
    find their line and the sides across y only slide along theirs: at each turn, the move
    across x is fitted to the first, the move across y to the second."""
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
    return candidates[int(np.argmax(scores))]


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
