"""Whether a tile's printed edge line shows where a pose puts it.

Just inside its cut line every tile face has a light edge line (``Kit.line_width``, 1.5 mm)
on its dark printed background. Where a pose puts a tile right, the line shows along the
parts of its sides nothing covers; where the pose is a few millimetres off across a side, the
line there falls on the dark face (or the gap beside the tile) and shows nowhere along it.
The slot outlines repeat every 18-20 mm across the face, so a pose moved by one row of them
still finds outlines where it expects them; its edge lines across the move it does not.

Each side is probed at positions a few millimetres apart: the line's middle against the face
just inside it, away from every slot's outline (:func:`probes`). A side shows when enough of
its positions show a line as light against the face as the tiles found by their own marker
show theirs, and more of them than show bare face where the line should be (:func:`shown`):
a row of slot outlines under a pose a row off shows a line at a few positions only."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.local_cluster.kit import Kit
from vision.local_cluster.plane import _similarities

Floats = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]

STEP = 3.0
"""Millimetres between the positions probed along a side."""
CORNER = 8.0
"""No position within this of a corner (tiles turned a few degrees meet there)."""
FACE_INSIDE = 2.5
"""The face is probed this far inside the edge line's inner edge."""
CLEAR = 3.5
"""No position whose probes lie within this of a slot's outline (its circumscribed circle)."""
SHARE = 0.5
"""A position shows the line when the line is at least this share of the found tiles'
typical contrast lighter than the face beside it..."""
LEAST = 4
"""...and a side shows when at least this many of its positions do (12 mm of line)..."""
ACROSS_LEAST = 6
"""...or, for a pose shown by a side across x and one across y only (:attr:`Shown.ACROSS`),
this many (18 mm). Four let a finger's edge along a side, or a neighbour's slot outlines
under it, show a line where a pose 20 mm off puts the side: priors of hidden tiles moved
3-20 mm four ways and turned, on eight sets of issue 18's benchmark (6,936 readings),
placed five tiles 20 mm off that read 6 slots wrong (one at 1.0); at six, none, and 2 of
440 tiles placed from their own prior are lost. No such pose shows all four sides."""
ABSENT = 0.25
"""...and more of them than show bare face where the line should be: a line no lighter
than the face beside it, nor than the found tiles' faces, by this share of their typical
contrast. A pose 18-20 mm off puts a side on a row of slot outlines (its own, or the
neighbour's), which shows a light line at a few positions and bare face between them; a
hand over the side shows neither."""


@dataclasses.dataclass(frozen=True)
class EdgeProbes:
    """Where one variant's edge line and the face beside it are probed (tile mm)."""

    line: Matrix
    """P x 2: the middle of the edge line at each position."""
    face: Matrix
    """P x 2: the face just inside it."""
    side: npt.NDArray[np.int64]
    """P: which side (0 +y, 1 +x, 2 -y, 3 -x): sides 0 and 2 lie across y, 1 and 3 across x."""


def probes(kit: Kit, variant: int | None) -> EdgeProbes:
    """The positions probed on ``variant``'s face, clear of its slots' outlines (every
    position, with ``variant`` None: where the slots lie is not known)."""
    half = kit.tile_side / 2
    along = np.arange(-half + CORNER, half - CORNER + 1e-9, STEP)
    normals = np.array([(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)])
    tangents = np.stack([-normals[:, 1], normals[:, 0]], axis=1)
    # S x A x 2: every side's positions, on the line's middle and on the face inside it.
    base = tangents[:, None, :] * along[None, :, None]
    line = (base + normals[:, None, :] * (half - kit.line_width / 2)).reshape(-1, 2)
    face = (base + normals[:, None, :] * (half - kit.line_width - FACE_INSIDE)).reshape(-1, 2)
    side = np.repeat(np.arange(4), len(along))
    if variant is None:
        return EdgeProbes(line, face, side.astype(np.int64))
    slots = kit.variants[variant]
    centres = np.array([s.centre for s in slots], np.float64)
    reach = np.array([s.radius for s in slots], np.float64) + CLEAR
    clear = np.ones(len(line), bool)
    for points in (line, face):
        apart = np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2) - reach
        clear &= apart.min(axis=1) >= 0
    return EdgeProbes(line[clear], face[clear], side[clear].astype(np.int64))


def levels(
    gray: npt.NDArray[np.uint8], to_image: Matrix, edge: EdgeProbes
) -> tuple[Floats, Floats]:
    """The picture's grey level on the edge line and on the face beside it at each probed
    position (NaN where a point lies outside the picture), for a tile whose frame
    ``to_image`` maps into it."""
    points = np.concatenate([edge.line, edge.face])
    where = cv2.perspectiveTransform(points.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    grey = sampled(gray, where)
    half = len(edge.line)
    return grey[:half], grey[half:]


def sampled_at(
    gray: npt.NDArray[np.uint8],
    table_to_image: Matrix,
    poses: Sequence[tuple[tuple[float, float], float]],
    points: Matrix,
) -> npt.NDArray[np.float64]:
    """The picture's grey level at ``points`` (P x 2, tile mm) of a tile at each of ``poses``
    (centre in table mm, turn in degrees): N x P, NaN outside the picture."""
    homs = table_to_image @ _similarities(poses)
    ones = np.concatenate([points, np.ones((len(points), 1))], axis=1)
    projected = homs @ ones.T  # N x 3 x P
    where = np.stack([projected[:, 0] / projected[:, 2], projected[:, 1] / projected[:, 2]], -1)
    return sampled(gray, where).astype(np.float64)


def sampled(gray: npt.NDArray[np.uint8], where: Matrix) -> Floats:
    """The picture's grey level at each point (``where``: any shape ending in 2, pixels),
    bilinear, NaN outside the picture: sampled from a float copy of only the part of the
    picture the points span."""
    shape = where.shape[:-1]
    height, width = gray.shape
    xs, ys = where[..., 0], where[..., 1]
    # (Both coordinates tested apart: numpy's all() over a last axis of two is slow.)
    finite = np.isfinite(xs) & np.isfinite(ys)
    if not finite.any():
        return np.full(shape, np.nan, np.float32)
    if finite.all():  # the usual case: plain minima and maxima, the same as masked ones
        low_x, low_y, high_x, high_y = xs.min(), ys.min(), xs.max(), ys.max()
    else:
        low_x, low_y = xs.min(where=finite, initial=np.inf), ys.min(where=finite, initial=np.inf)
        high_x = xs.max(where=finite, initial=-np.inf)
        high_y = ys.max(where=finite, initial=-np.inf)
    x0 = int(np.clip(np.floor(low_x), 0, width))
    y0 = int(np.clip(np.floor(low_y), 0, height))
    x1 = int(np.clip(np.floor(high_x) + 2, 0, width))
    y1 = int(np.clip(np.floor(high_y) + 2, 0, height))
    if x1 <= x0 or y1 <= y0:
        return np.full(shape, np.nan, np.float32)
    part = gray[y0:y1, x0:x1].astype(np.float32)
    # As a 2-D map, rows by the last axis: remap takes fewer than 32,767 points a row.
    rows = where.reshape(-1, shape[-1], 2) if len(shape) > 1 else where.reshape(1, -1, 2)
    out: Floats = cv2.remap(
        part,
        (rows[..., 0] - x0).astype(np.float32),
        (rows[..., 1] - y0).astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=np.nan,
    ).reshape(shape)
    return out


class Shown(enum.IntEnum):
    """How much of a tile's edge line shows where its pose puts it."""

    NONE = 0
    """Across x or across y, no side shows its line."""
    ACROSS = 1
    """A side across x and a side across y show theirs (at :data:`ACROSS_LEAST` positions
    each): the pose is right within about a millimetre both ways, unless it is off by a
    neighbour's edge line (tiles 3-5 mm apart)."""
    ALL = 2
    """All four sides show theirs: no neighbour's line lies on both sides at once."""


def shown(
    contrast: Floats,
    edge: EdgeProbes,
    typical: float,
    line: Floats | None = None,
    face: float | None = None,
) -> Shown:
    """How much of the edge line shows, given the ``typical`` contrast of the lines of the
    tiles found by their own marker (and, with ``line``, the grey level at each position on
    the line, and ``face``, the typical level of their faces: a side where more positions
    show bare face than show a line does not show, :data:`ABSENT`). A side shows at
    :data:`LEAST` positions where all four do, at :data:`ACROSS_LEAST` otherwise."""
    if typical <= 0:
        return Shown.NONE
    shows = np.bincount(edge.side[contrast >= SHARE * typical], minlength=4)
    more = np.ones(4, bool)
    if line is not None and face is not None:
        bare = (contrast < ABSENT * typical) & (line <= face + ABSENT * typical)
        more = shows > np.bincount(edge.side[bare], minlength=4)
    if (more & (shows >= LEAST)).all():
        return Shown.ALL
    sides = more & (shows >= ACROSS_LEAST)
    if (sides[0] or sides[2]) and (sides[1] or sides[3]):
        return Shown.ACROSS
    return Shown.NONE
