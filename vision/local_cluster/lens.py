"""The lens's bowing, as the markers show it, and each tile carried through it.

One plane (a homography from the table to the picture) places a straight-lined camera's
view exactly; a lens that bows straight lines moves each point toward (or away from) the
picture's centre by a share that grows with the square of its distance from it. Across one
tile that bowing is uneven: near the picture's corner a barrel lens shrinks a tile more along
the line to the centre than across it, and a tile placed at one scale (the plane's, or its
marker's) puts its far slots a millimetre or two off their printed circles (issue 18's
pictures drawn apart, seeds 32-37: all 19 clean empty slots refused for their outline with no
hand on the table lay in pictures of lens k1 -0.050 to -0.071; in seed 32's picture 38 S38's
craft slots lay 1.5-2 mm outside where one scale put them).

The bowing is taken as one term, ``p = c + (q - c) (1 + bow * |q - c|**2 / reach**2)``, ``q``
where a straight-lined lens would show the point, ``c`` the picture's centre and ``reach``
half its diagonal. It is measured from the markers themselves: the card's markers lie where
the card prints them and each tile's marker is a square of the kit's size, so the bowing
taken off every marker corner first makes them fit one plane best (:func:`measured`). Each
tile is then placed by the homography that best carries its face, at :data:`GRID` points
across it, through that plane and the bowing (:meth:`Lens.placed`)."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CardNotFound
from vision.local_cluster.kit import Kit
from vision.local_cluster.markers import Marker
from vision.local_cluster.plane import markers_placed

Matrix = npt.NDArray[np.float64]
Pose = tuple[tuple[float, float], float]

BOW_STEP = 0.01
"""The misfit is measured at bowings twice this apart, from none outward while it falls;
then this either side of the lowest, and the parabola's lowest point through those three is
taken..."""
BOW_MOST = 0.08
"""...within this much either way (the lenses issue 18's pictures drawn apart are drawn
with bow -0.062 to +0.02 at most, in these units)..."""
BOW_LEAST = 0.025
"""...and the tiles are placed through it only from this much. Below it the far slots of a
tile move a few tenths of a pixel, and readings on the edge of their tests changed either
way at random (issue 18's pictures drawn apart, seeds 32-37, from 0.01 in an earlier version
of the search: 13 pictures gained a slot or more and 11 lost; from 0.025: 10 gained, 6 lost
one each; docs/benchmarks.md)."""
BOW_SURE = 1.5
"""...and only where the markers fit this many times better bowed so than straight: where
they fit nearly as well either way, their corners are too noisy to say (a coarse picture)."""
LENS_MARKERS = 4
"""Tile markers needed to measure the bowing (with the card's): fewer say too little about
how the picture's corners differ from its centre."""
Plane = Callable[[list[Marker], list[Marker], Kit], tuple[Matrix, list[Pose]]]
GRID = np.array([(x, y) for x in (-0.5, 0.0, 0.5) for y in (-0.5, 0.0, 0.5)], np.float64)
"""Where a tile's face is carried through the bowing, in tile sides from its centre."""


@dataclasses.dataclass(frozen=True)
class Lens:
    """A picture's bowing and the table plane as a straight-lined lens would show it."""

    bow: float
    centre: tuple[float, float]
    reach: float
    plane: Matrix
    """Table mm -> the picture as a straight-lined lens would show it."""

    def bowed(self, points: Matrix) -> Matrix:
        """Where the lens shows points (N x 2) a straight-lined lens would show there."""
        off = points - self.centre
        rho2 = (off**2).sum(axis=1, keepdims=True) / self.reach**2
        out: Matrix = self.centre + off * (1 + self.bow * rho2)
        return out

    def straightened(self, points: Matrix) -> Matrix:
        """Where a straight-lined lens would show points (N x 2) this lens shows there."""
        return _straightened(points, self.bow, self.centre, self.reach)

    def placed(self, to_image: Matrix, side: float) -> Matrix:
        """A tile's map to the picture (tile frame mm -> pixels) carried through the bowing:
        ``to_image`` says where the tile lies (its centre, turn and size, as the plane
        places it at its marker), and the result carries its face, ``side`` mm across, to
        where this lens shows it."""
        model = GRID * (side / 4)  # the tile's middle, where its marker shows its place
        seen = cv2.perspectiveTransform(model.reshape(-1, 1, 2), to_image).reshape(-1, 2)
        flat = cv2.perspectiveTransform(
            self.straightened(seen).reshape(-1, 1, 2), np.linalg.inv(self.plane)
        ).reshape(-1, 2)
        # The similarity that carries the tile's middle onto the straightened table.
        m, f = model - model.mean(axis=0), flat - flat.mean(axis=0)
        dot = float((m * f).sum())
        cross = float((m[:, 0] * f[:, 1] - m[:, 1] * f[:, 0]).sum())
        norm = float((m**2).sum())
        a, b = dot / norm, cross / norm
        shift = flat.mean(axis=0) - np.array([[a, -b], [b, a]]) @ model.mean(axis=0)
        on_table = np.array([[a, -b, shift[0]], [b, a, shift[1]], [0.0, 0.0, 1.0]])
        face = GRID * side
        shown = self.bowed(
            cv2.perspectiveTransform(face.reshape(-1, 1, 2), self.plane @ on_table).reshape(-1, 2)
        )
        out, _ = cv2.findHomography(face, shown)
        return to_image if out is None else out


def _straightened(points: Matrix, bow: float, centre: tuple[float, float], reach: float) -> Matrix:
    """The bowing taken off ``points`` (N x 2), by eight rounds of fixed point: within
    :data:`BOW_MOST` each leaves a fifth or less of the one before's error."""
    off = points - centre
    straight = off
    for _ in range(8):
        rho2 = (straight**2).sum(axis=1, keepdims=True) / reach**2
        straight = off / (1 + bow * rho2)
    out: Matrix = straight + centre
    return out


def measured(
    card: Sequence[Marker],
    tiles: Sequence[Marker],
    kit: Kit,
    shape: tuple[int, ...],
    plane: Plane,
) -> Lens | None:
    """The picture's bowing as its markers show it (``plane`` fits the table plane and the
    tiles' poses to markers, as :func:`plane._plane` does), or None where too few markers
    show to say, they fit nearly as well unbowed, or the bowing is too slight to matter.

    For each bowing tried, every marker corner is straightened and the plane and poses
    fitted to them again; the misfit is the median of how far the fitted plane puts each
    corner from where it shows (squared), so a marker a hand half covers does not steer it.
    The bowing where the misfit is least is found as :data:`BOW_STEP` says."""
    if len(tiles) < LENS_MARKERS or not card:
        return None
    height, width = shape[:2]
    centre = ((width - 1) / 2, (height - 1) / 2)
    reach = math.hypot(width, height) / 2
    model = np.array(kit.marker_corners(), np.float64)
    card_mm = np.array([p for m in card for p in kit.card_marker_corners(m.id)], np.float64)
    everything = [*card, *tiles]
    shown = np.concatenate([m.corners.reshape(-1, 2) for m in everything]).astype(np.float64)

    @functools.cache
    def fit(bow: float) -> tuple[Matrix, Matrix]:
        flat = _straightened(shown, bow, centre, reach).reshape(-1, 4, 2)
        straight = [
            dataclasses.replace(m, corners=quad.reshape(m.corners.shape))
            for m, quad in zip(everything, flat, strict=True)
        ]
        try:
            table_to_flat, poses = plane(straight[: len(card)], straight[len(card) :], kit)
        except CardNotFound:
            return np.full(flat.size, np.inf), np.eye(3)
        centres = np.array([xy for xy, _ in poses], np.float64)
        angles = np.radians([angle for _, angle in poses])
        mm = np.concatenate([card_mm, markers_placed(model, centres, angles)])
        put = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), table_to_flat).reshape(-1, 2)
        return (put - flat.reshape(-1, 2)).ravel(), table_to_flat

    def misfit(bow: float) -> float:
        off = fit(bow)[0].reshape(-1, 2)
        return float(np.median((off**2).sum(axis=1)))

    # The misfit falls toward one lowest point: none, or a bowing one way. Where neither
    # neighbour of none fits better, the lowest point lies nearer than BOW_LEAST.
    stride = 2 * BOW_STEP
    best = min((-stride, 0.0, stride), key=misfit)
    if best == 0.0:
        return None
    while misfit(best + math.copysign(stride, best)) < misfit(best):
        best += math.copysign(stride, best)
        if abs(best) > BOW_MOST:
            return None  # no lowest point within reach: the markers say nothing of a lens
    less, none, more = (misfit(best + d) for d in (-BOW_STEP, 0.0, BOW_STEP))
    curve = less + more - 2 * none
    bow = best + (
        float(np.clip((less - more) / (2 * curve), -1, 1)) * BOW_STEP if curve > 0 else 0.0
    )
    if abs(bow) < BOW_LEAST or not misfit(0.0) >= BOW_SURE * misfit(bow):
        return None
    return Lens(bow, centre, reach, fit(bow)[1])
