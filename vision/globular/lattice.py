"""Where the stickers lie on the board's half-offset rows (G2.2), through the camera's view.

The MITS's sticker gives the board's directions and origin, and the stickers' size its scale;
that places a tile well near the MITS. A camera that does not look straight down shows the
far side of the board smaller than the near side, and the rows bent toward a vanishing point:
at 30 degrees of tilt, tiles five or six rows away came out between positions or on the wrong
one. So the stickers nearest the MITS, placed by its axes, fix a map from the board's rows to
the picture (an affine map from three of them, a homography from six on three rows or more),
which places the stickers farther out, which fix it again, out to the farthest. With the
MITS's sticker hidden, the tracked game's positions of the tiles seen give the first map
(:func:`from_tiles`).

Positions are in tiles from the MITS's centre: ``x`` along the rows (the MITS's top edge),
``y`` down them; a position ``(r, q)`` (q + r even) lies at ``x = q / 2``, ``y = r``.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence

import cv2
import numpy as np
import numpy.typing as npt

Points = npt.NDArray[np.float64]
Node = tuple[float, float]
"""A board position in tiles from the MITS: ``(q / 2, r)``."""
Matrix = npt.NDArray[np.float64]

OFF_GRID = 0.3
"""How far (in tiles) a sticker's centre may lie from its position's before it is not read."""
REACHES = (2.5, 5.0, 10.0, math.inf)
"""Tiles from the MITS within which the stickers fix the map, in turn: the nearest first,
where the MITS's own axes and the stickers' size place them best."""
TRIES = 300
"""Maps tried from three stickers when the MITS's is hidden."""
AGREEING = 4
"""The fewest stickers that must sit where the game has their tiles for the board to be placed
by them when the MITS's is hidden."""
AGREE = 0.25
"""Tiles: how near its code's position a sticker must lie to agree with a map."""
FIT_TOLERANCE = 0.15
"""Tiles: a sticker farther than this from where the map puts its position is left out of
the map's fit (a tile pushed off its position, or one placed wrong by the map before)."""


@dataclasses.dataclass(frozen=True)
class Lattice:
    """The board's rows as the picture shows them."""

    to_image: Matrix
    """3 x 3: board positions (tiles from the MITS, x along the rows, y down) to pixels."""

    def image_of(self, xy: Points) -> Points:
        """Pixels of board points (N x 2 tiles)."""
        return _apply(self.to_image, xy)

    def tiles_of(self, points: Points) -> Points:
        """Board points (tiles from the MITS) of pixels (N x 2)."""
        return _apply(np.asarray(np.linalg.inv(self.to_image), np.float64), points)

    def axes_at(self, xy: tuple[float, float]) -> tuple[Points, Points]:
        """The unit directions, in the picture, of the rows (x) and down them (y) at ``xy``."""
        x, y = xy
        ends = self.image_of(np.array([[x - 0.1, y], [x + 0.1, y], [x, y - 0.1], [x, y + 0.1]]))
        across, down = ends[1] - ends[0], ends[3] - ends[2]
        return across / float(np.linalg.norm(across)), down / float(np.linalg.norm(down))


def nearest(xy: tuple[float, float]) -> tuple[int, int, bool]:
    """The position ``(r, q)`` nearest a board point, and whether the point lies within
    :data:`OFF_GRID` of it."""
    x, y = xy
    r = round(y)
    q = 2 * round((2 * x - r) / 2) + r
    return r, q, abs(y - r) <= OFF_GRID and abs(2 * x - q) <= 2 * OFF_GRID


def fit(centres: Points, origin: Points, across: Points, down: Points, tile_px: float) -> Lattice:
    """The board's rows through the stickers' ``centres`` (pixels, N x 2), starting from the
    MITS's centre ``origin``, its unit axes ``across`` and ``down`` (pixels) and ``tile_px``
    pixels a tile (see the module docstring)."""
    start = Lattice(
        np.array(
            [
                [across[0] * tile_px, down[0] * tile_px, origin[0]],
                [across[1] * tile_px, down[1] * tile_px, origin[1]],
                [0.0, 0.0, 1.0],
            ]
        )
    )
    return _grown(start, centres, tile_px, (0.0, 0.0), [((0.0, 0.0), origin)])


def from_tiles(
    codes: Sequence[str], centres: Points, where: Mapping[str, Sequence[Node]], tile_px: float
) -> tuple[Lattice, int] | None:
    """The board's rows when the MITS's sticker is hidden, from the tiles the game has where
    it has them (``where``: each code's positions, in tiles): three stickers and their tiles'
    positions give a map (tried :data:`TRIES` times, three drawn at a time); the map that puts
    the most stickers on a position of their code's is grown outwards as :func:`fit` does. The
    map and how many stickers agreed with it, or None when fewer than :data:`AGREEING` (and
    half the stickers the game has positions for) do."""
    known = [i for i, code in enumerate(codes) if where.get(code)]
    if len(known) < AGREEING:
        return None
    rng = random.Random(len(known))  # the same picture is read the same way
    pairs = [(node, i) for i in known for node in where[codes[i]]]
    candidates = (
        np.array([node for node, _ in pairs], np.float64),
        centres[[i for _, i in pairs]],
        np.array([i for _, i in pairs], np.int64),
    )
    best: tuple[int, Matrix] | None = None
    for _ in range(TRIES):
        picked = rng.sample(known, 3)
        nodes = np.array([rng.choice(list(where[codes[i]])) for i in picked], np.float64)
        (ax, ay), (bx, by) = nodes[1] - nodes[0], nodes[2] - nodes[0]
        if abs(float(ax * by - ay * bx)) < 0.5:
            continue  # in a line: no map
        a = cv2.getAffineTransform(nodes.astype(np.float32), centres[picked].astype(np.float32))
        if float(np.linalg.det(a[:, :2])) <= 0:
            continue  # a mirrored board: a camera never sees one
        lattice = Lattice(np.vstack([a, [0.0, 0.0, 1.0]]).astype(np.float64))
        agreeing = _agreeing(lattice, candidates, tile_px)
        if best is None or agreeing > best[0]:
            best = (agreeing, lattice.to_image)
    if best is None or best[0] < max(AGREEING, len(known) / 2):
        return None
    lattice = Lattice(best[1])
    anchors = [
        (node, centres[i])
        for i in known
        for node in where[codes[i]]
        if _distance(lattice, node, centres[i]) < AGREE * tile_px
    ]
    middle = np.mean([node for node, _ in anchors], axis=0)
    grown = _grown(lattice, centres, tile_px, (float(middle[0]), float(middle[1])), anchors)
    return grown, _agreeing(grown, candidates, tile_px)


def _agreeing(
    lattice: Lattice, candidates: tuple[Points, Points, npt.NDArray[np.int64]], tile_px: float
) -> int:
    """How many stickers the map puts within :data:`AGREE` of a position of their code's
    (``candidates``: each sticker's positions, its centre alike, and which sticker)."""
    nodes, points, owners = candidates
    near = np.linalg.norm(lattice.image_of(nodes) - points, axis=1) < AGREE * tile_px
    return int(np.unique(owners[near]).size)


def _distance(lattice: Lattice, node: Node, point: Points) -> float:
    return float(np.linalg.norm(lattice.image_of(np.array([node]))[0] - point))


def _grown(
    lattice: Lattice,
    centres: Points,
    tile_px: float,
    around: Node,
    anchors: Sequence[tuple[Node, Points]],
) -> Lattice:
    """The map fitted again through the stickers within each of :data:`REACHES` tiles of
    ``around`` in turn, each on the position the map puts it nearest, and the ``anchors``
    (positions and their stickers' centres known otherwise)."""
    for reach in REACHES:
        nodes = [node for node, _ in anchors]
        near = [point for _, point in anchors]
        for centre, (x, y) in zip(centres, lattice.tiles_of(centres), strict=True):
            r, q, on = nearest((float(x), float(y)))
            if on and math.hypot(x - around[0], y - around[1]) <= reach:
                nodes.append((q / 2, float(r)))
                near.append(centre)
        fitted = _fitted(np.array(nodes), np.array(near), FIT_TOLERANCE * tile_px)
        if fitted is not None:
            lattice = Lattice(fitted)
    return lattice


def _fitted(nodes: Points, points: Points, tolerance: float) -> Matrix | None:
    """Board positions to pixels through ``nodes`` (tiles) and their stickers' ``points``,
    outliers left out: a homography from six on three rows and three columns or more, an
    affine map from three not in a line, else none."""
    rows, columns = len(set(nodes[:, 1])), len(set(nodes[:, 0]))
    if len(nodes) >= 6 and rows >= 3 and columns >= 3:
        h, _ = cv2.findHomography(nodes, points, cv2.RANSAC, tolerance)
        if h is not None and abs(float(np.linalg.det(h))) > 1e-12:
            return np.asarray(h, np.float64)
    centred = nodes - nodes.mean(axis=0)
    if len(nodes) >= 3 and np.linalg.matrix_rank(centred, tol=1e-6) == 2:
        a, _ = cv2.estimateAffine2D(
            nodes, points, method=cv2.RANSAC, ransacReprojThreshold=tolerance
        )
        if a is not None:
            return np.vstack([a, [0.0, 0.0, 1.0]]).astype(np.float64)
    return None


def _apply(h: Matrix, points: Points) -> Points:
    p = np.hstack([points, np.ones((len(points), 1))]) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], np.float64)
