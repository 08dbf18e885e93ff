"""The table plane and the tiles on it: a homography from table millimetres to the picture
from the markers' squareness and the card, each tile's pose, the tile grid and which tiles
share an edge (ruling R1.1)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CardNotFound
from vision.local_cluster.colour import median
from vision.local_cluster.kit import Kit
from vision.local_cluster.markers import Marker

Matrix = npt.NDArray[np.float64]


def _homography(src: Sequence[tuple[float, float]] | Matrix, dst: Matrix) -> Matrix:
    h, _ = cv2.findHomography(np.array(src, dtype=np.float64), dst.astype(np.float64))
    if h is None:
        raise CardNotFound("the calibration card's markers do not fix a plane")
    out: Matrix = h
    return out


PLANE_ROUNDS = 2


def _rigid(model: Matrix, points: Matrix) -> tuple[tuple[float, float], float]:
    """The turn and shift that best carry ``model`` (mm, centred) onto ``points`` (mm)."""
    centre = points.mean(axis=0)
    p = points - centre
    cross = float(np.sum(model[:, 0] * p[:, 1] - model[:, 1] * p[:, 0]))
    dot = float(np.sum(model[:, 0] * p[:, 0] + model[:, 1] * p[:, 1]))
    return (float(centre[0]), float(centre[1])), math.degrees(math.atan2(cross, dot))


def _placed(model: Matrix, pose: tuple[tuple[float, float], float]) -> Matrix:
    (cx, cy), angle = pose
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    out: Matrix = model @ rot.T + np.array([cx, cy])
    return out


def markers_placed(
    model: Matrix, centres: npt.NDArray[np.float64], angles: npt.NDArray[np.float64]
) -> Matrix:
    """The corners of ``model`` (a marker's, centred; K x 2) placed at each of N poses
    (``centres`` N x 2 mm, ``angles`` N radians): N * K x 2, pose by pose."""
    cos, sin = np.cos(angles)[:, None], np.sin(angles)[:, None]
    placed = np.stack(
        [
            model[None, :, 0] * cos - model[None, :, 1] * sin + centres[:, None, 0],
            model[None, :, 0] * sin + model[None, :, 1] * cos + centres[:, None, 1],
        ],
        axis=2,
    )
    out: Matrix = placed.reshape(-1, 2)
    return out


def _rectifier(quads: Matrix) -> Matrix | None:
    """A homography from a metric copy of the table plane to the image, up to a similarity,
    from the markers alone: every marker is a square, so in the image its neighbouring edges
    and its diagonals must be the images of right angles. Each right angle is one linear
    equation on the image of the plane's dual conic of the circular points; its eigenvectors
    give the rectification (Liebowitz and Zisserman's metric rectification)."""
    if len(quads) < 3:
        return None
    pts = quads.reshape(-1, 2)
    mean = pts.mean(axis=0)
    spread = float(np.sqrt(((pts - mean) ** 2).sum(axis=1).mean())) or 1.0
    norm = np.array(
        [[1 / spread, 0, -mean[0] / spread], [0, 1 / spread, -mean[1] / spread], [0, 0, 1]]
    )
    q = (quads - mean) / spread
    h = np.concatenate([q, np.ones((*q.shape[:2], 1))], axis=2)  # M x 4 x 3

    # Each marker's four edges (corner k to k + 1) and its two diagonals (0 to 2, 1 to 3) as
    # lines, all markers at once: M x 6 x 3.
    first = np.concatenate([h, h[:, :2]], axis=1)
    second = np.concatenate([np.roll(h, -1, axis=1), h[:, 2:]], axis=1)
    lines = np.stack(
        [
            first[..., 1] * second[..., 2] - first[..., 2] * second[..., 1],
            first[..., 2] * second[..., 0] - first[..., 0] * second[..., 2],
            first[..., 0] * second[..., 1] - first[..., 1] * second[..., 0],
        ],
        axis=2,
    )
    lines /= np.sqrt(lines[..., 0] ** 2 + lines[..., 1] ** 2)[..., None]
    # The right angles: each edge with the next, and the two diagonals.
    one = lines[:, [0, 1, 2, 3, 4]].reshape(-1, 3)
    two = lines[:, [1, 2, 3, 0, 5]].reshape(-1, 3)
    system = np.stack(
        [
            one[:, 0] * two[:, 0],
            one[:, 0] * two[:, 1] + one[:, 1] * two[:, 0],
            one[:, 1] * two[:, 1],
            one[:, 0] * two[:, 2] + one[:, 2] * two[:, 0],
            one[:, 1] * two[:, 2] + one[:, 2] * two[:, 1],
            one[:, 2] * two[:, 2],
        ],
        axis=1,
    )
    _, vectors6 = np.linalg.eigh(system.T @ system)  # the least-squares null vector
    a, b, c, d, e, f = vectors6[:, 0]
    conic = np.array([[a, b, d], [b, c, e], [d, e, f]])
    values, vectors = np.linalg.eigh(conic)
    order = np.argsort(np.abs(values), kind="stable")[::-1]
    values, vectors = values[order], vectors[:, order]
    if values[0] * values[1] <= 0:
        return None
    if values[0] < 0:
        values = -values
    rect = vectors @ np.diag([math.sqrt(values[0]), math.sqrt(values[1]), 1.0])
    out: Matrix = np.linalg.inv(norm) @ rect
    return out


def _plane(
    card: list[Marker], tiles: list[Marker], kit: Kit
) -> tuple[Matrix, list[tuple[tuple[float, float], float]]]:
    """The table plane (table mm -> image) and every tile's pose on it.

    The markers' squareness fixes the plane up to a similarity (:func:`_rectifier`); their
    known size fixes its scale and the card's markers where it lies. Each tile marker is then
    placed rigidly on that plane, and the plane is fitted once more to all markers together.
    Without the card's markers the first tile's marker lies at the table's origin, unturned.
    """
    model = np.array(kit.marker_corners(), np.float64)
    if card:
        card_mm = np.array([p for m in card for p in kit.card_marker_corners(m.id)], np.float64)
        card_px = np.concatenate([m.corners for m in card])
        everything = [*card, *tiles]
        anchors = len(card)
    else:
        card_mm, card_px = model, tiles[0].corners.astype(np.float64)
        everything, anchors = list(tiles), 1
    size = marker_size(kit)
    quads = np.array([m.corners for m in everything])
    plane: Matrix | None = None
    rectifier = _rectifier(quads)
    if rectifier is not None:
        flat = cv2.perspectiveTransform(quads.reshape(-1, 1, 2), np.linalg.inv(rectifier))
        flat = flat.reshape(-1, 4, 2)
        if np.linalg.det(np.linalg.inv(rectifier)[:2, :2]) < 0:
            flat[..., 1] *= -1  # a mirror image: turn it the right way up
            rectifier = rectifier @ np.diag([1.0, -1.0, 1.0])
        sizes = _spread(flat)
        k = float(median(sizes)) / size
        card_flat = flat[:anchors].reshape(-1, 2) / k
        (cx, cy), angle = _rigid(card_mm - card_mm.mean(axis=0), card_flat)
        # card_flat ~ R(angle) (card_mm - mean) + centre
        t = math.radians(angle)
        rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        shift = np.array([cx, cy]) - rot @ card_mm.mean(axis=0)
        to_flat = np.eye(3)
        to_flat[:2, :2] = rot * k
        to_flat[:2, 2] = shift * k
        candidate = rectifier @ to_flat
        if np.all(np.isfinite(candidate)):
            plane = candidate / candidate[2, 2]
    if plane is None:
        # The markers too few or too nearly in line for their squareness to say: the card's
        # (or the first tile's) alone.
        plane = _homography(card_mm, card_px)
    poses: list[tuple[tuple[float, float], float]] = []
    if not tiles:
        return plane, poses
    pixels = np.concatenate([m.corners for m in tiles]).reshape(-1, 1, 2)
    count = len(tiles)
    centres = np.zeros((count, 2))
    angles = np.zeros(count)
    for round_ in range(PLANE_ROUNDS):
        mm = cv2.perspectiveTransform(pixels, np.linalg.inv(plane)).reshape(count, 4, 2)
        centres = mm.mean(axis=1)
        rel = mm - centres[:, None, :]
        cross = (model[None, :, 0] * rel[..., 1] - model[None, :, 1] * rel[..., 0]).sum(axis=1)
        dot = (model[None, :, 0] * rel[..., 0] + model[None, :, 1] * rel[..., 1]).sum(axis=1)
        angles = np.arctan2(cross, dot)
        if round_ == PLANE_ROUNDS - 1:
            break
        src = np.concatenate([card_mm, markers_placed(model, centres, angles)])
        dst = np.concatenate([card_px, pixels.reshape(-1, 2)])
        plane = _homography(src, dst)
    poses = [
        ((float(c[0]), float(c[1])), math.degrees(float(a)))
        for c, a in zip(centres, angles, strict=True)
    ]
    return plane, poses


def marker_size(kit: Kit) -> float:
    """The printed tile marker's size as :func:`sizes_on_plane` measures it (mm)."""
    model = np.array(kit.marker_corners(), np.float64)
    return float(np.sqrt((model**2).sum(axis=1).mean()))


def sizes_on_plane(plane: Matrix, markers: Sequence[Marker]) -> npt.NDArray[np.float64]:
    """Each marker's size on the table plane (``plane``: table mm -> image), in mm: its
    corners' mean distance from their centre, carried onto the plane."""
    corners = np.array([m.corners.reshape(4, 2) for m in markers], np.float64)  # N x 4 x 2
    flat = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), np.linalg.inv(plane))
    return _spread(flat.reshape(-1, 4, 2))


def _spread(quads: Matrix) -> npt.NDArray[np.float64]:
    """Each quad's size (N x 4 x 2 -> N): its corners' root mean square distance from their
    centre."""
    out: npt.NDArray[np.float64] = np.sqrt(
        ((quads - quads.mean(axis=1, keepdims=True)) ** 2).sum(axis=2).mean(axis=1)
    )
    return out


def _near_pairs(
    poses: Sequence[tuple[tuple[float, float], float]], side: float
) -> list[tuple[int, int]]:
    """Index pairs (i < j) of tiles whose centres are close enough to share an edge."""
    if len(poses) < 2:
        return []
    centres = np.array([c for c, _ in poses])
    apart = np.sqrt(((centres[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2))
    i, j = np.nonzero(np.triu(apart <= 1.6 * side, k=1))
    return list(zip(i.tolist(), j.tolist(), strict=True))


def _adjacent(
    a: tuple[tuple[float, float], float], b: tuple[tuple[float, float], float], side: float
) -> bool:
    """Whether two tile outlines share an edge segment (R1.1); touching corners do not."""
    return bool(_adjacent_pairs([a, b], [(0, 1)], side)[0])


def _adjacent_pairs(
    poses: Sequence[tuple[tuple[float, float], float]],
    pairs: Sequence[tuple[int, int]],
    side: float,
) -> npt.NDArray[np.bool_]:
    """:func:`_adjacent` for each index pair into ``poses``, all at once (a scan's hundred
    or so near pairs one by one took half a millisecond)."""
    if not pairs:
        return np.zeros(0, np.bool_)
    centres = np.array([c for c, _ in poses], np.float64)
    angles = np.radians(np.array([a for _, a in poses], np.float64))
    i, j = np.array(pairs, np.intp).T
    dx, dy = (centres[j] - centres[i]).T
    cos, sin = np.cos(angles[i]), np.sin(angles[i])
    u = np.abs(dx * cos + dy * sin)
    v = np.abs(-dx * sin + dy * cos)
    along, across = np.maximum(u, v), np.minimum(u, v)
    out: npt.NDArray[np.bool_] = (
        (0.85 * side <= along) & (along <= 1.15 * side) & (across <= 0.5 * side)
    )
    return out


def _similarity(centre: tuple[float, float], angle: float, scale: float = 1.0) -> Matrix:
    t = math.radians(angle)
    c, s = scale * math.cos(t), scale * math.sin(t)
    return np.array([[c, -s, centre[0]], [s, c, centre[1]], [0, 0, 1]])


def _similarities(poses: Sequence[tuple[tuple[float, float], float]]) -> Matrix:
    """:func:`_similarity` of every pose (N x 3 x 3), each entry filled in for all poses at
    once: the same numbers, without a small array made a pose."""
    turns = [math.radians(angle) for _, angle in poses]
    cos = np.array([math.cos(t) for t in turns])
    sin = np.array([math.sin(t) for t in turns])
    out = np.zeros((len(poses), 3, 3))
    out[:, 0, 0] = out[:, 1, 1] = cos
    out[:, 0, 1], out[:, 1, 0] = -sin, sin
    out[:, :2, 2] = [centre for centre, _ in poses]
    out[:, 2, 2] = 1.0
    return out


def _grid(
    poses: Sequence[tuple[tuple[float, float], float]], side: float
) -> list[tuple[int, int, int]]:
    """Snap tile poses to grid cells and quarter turns, the first tile at (0, 0)."""
    if not poses:
        return []
    vec = sum(
        complex(math.cos(math.radians(4 * a)), math.sin(math.radians(4 * a))) for _, a in poses
    )
    base = math.degrees(math.atan2(vec.imag, vec.real)) / 4
    t = math.radians(base)
    ox, oy = poses[0][0]
    out = []
    for (x, y), angle in poses:
        dx, dy = x - ox, y - oy
        u = dx * math.cos(t) + dy * math.sin(t)
        v = -dx * math.sin(t) + dy * math.cos(t)
        out.append((round(u / side), round(v / side), round((angle - base) / 90) % 4))
    return out


def wrap(degrees: float) -> float:
    """An angle in degrees, brought into [-180, 180)."""
    return (degrees + 180.0) % 360.0 - 180.0
