"""A tile's pose nudged to where its printed slot outlines show best.

A tile found on the grid (:mod:`grid_rescue`) is placed by a marker that shows only dimly or
in part, matched whole at steps of 1.2 mm and 2.5 degrees (its corners refined as the
detector's are only where that moves them little); a slot's printed outline is a 1.5 mm
line, and a pose half a millimetre off reads it at half its contrast, too little for an
empty reading (``slots.OUTLINE_SHARE``). The outlines themselves say where the tile lies:
every slot's outline is probed at the pose and at poses a little moved and turned, as the
picture's grey levels, against the tile just outside and inside it, and the pose where the
outlines show most is kept. A token over a slot hides its outline at every pose alike (its
contrast there counts as nothing), so only empty slots steer the pose; the outlines repeat no
closer than 18 mm, far beyond the few millimetres looked at."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from vision.local_cluster import tile_edges
from vision.local_cluster.kit import Kit
from vision.local_cluster.layout import outline_points

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
Pose = tuple[tuple[float, float], float]

REACH_MM = 1.5
REACH_DEG = 1.5
"""How far (mm, degrees) either way from the given pose a pose is looked for..."""
STEPS = ((0.75, 0.75), (0.375, 0.375), (0.2, 0.2))
"""...at these steps (mm, degrees): the first across the whole reach, the next one step
either way of the best of the one before."""
BESIDE = 1.5
"""The tile is probed this far (mm) outside and inside each outline."""


Probes = tuple[Matrix, npt.NDArray[np.intp]]


def fitted(
    gray: Image,
    kit: Kit,
    table_to_image: Matrix,
    variant: int,
    pose: Pose,
    probes: Probes | None = None,
) -> Pose:
    """The pose within ``REACH_MM`` and ``REACH_DEG`` of ``pose`` where the outlines of
    ``variant``'s slots show most, in ``gray`` (table mm, degrees); ``probes`` are
    ``outline_probes(kit, variant)``, when already made."""
    probes = outline_probes(kit, variant) if probes is None else probes
    best = pose
    for i, (mm, degrees) in enumerate(STEPS):
        (x, y), angle = best
        reach_mm, reach_deg = (REACH_MM, REACH_DEG) if i == 0 else (mm, degrees)
        moves = np.arange(-reach_mm, reach_mm + 1e-9, mm)
        turns = np.arange(-reach_deg, reach_deg + 1e-9, degrees)
        candidates = [
            ((x + dx, y + dy), angle + turn) for turn in turns for dx in moves for dy in moves
        ]
        shown = _shown(gray, table_to_image, probes, candidates)
        best = candidates[int(np.argmax(shown))]
    return best


def outline_probes(kit: Kit, variant: int, shapes: Collection[str] | None = None) -> Probes:
    """Every slot's outline (of the ``shapes`` given, or all), and the tile just outside and
    inside it (P x 2, tile mm), and which slot and which of the three each point is."""
    points, labels = [], []
    chosen = [s for s in kit.variants[variant] if shapes is None or s.shape in shapes]
    for s, slot in enumerate(chosen):
        for part, inradius in enumerate(
            (slot.inradius, slot.inradius + BESIDE, max(slot.inradius - BESIDE, 0.5))
        ):
            ring = outline_points(slot, inradius)
            points.append(ring)
            labels.append(np.full(len(ring), 3 * s + part, np.intp))
    return np.concatenate(points), np.concatenate(labels)


def _shown(
    gray: Image,
    table_to_image: Matrix,
    probes: Probes,
    poses: list[Pose],
) -> npt.NDArray[np.float64]:
    """How much the slots' outlines show at each pose: each outline's mean grey level above
    the mean of the tile outside and inside it, summed over the slots where it is above."""
    points, labels = probes
    sampled = tile_edges.sampled_at(gray, table_to_image, poses, points)
    # Each ring's mean over its points inside the picture, for every pose at once.
    member = np.zeros((len(labels), int(labels.max()) + 1))
    member[np.arange(len(labels)), labels] = 1.0
    inside = np.isfinite(sampled)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = (np.where(inside, sampled, 0.0) @ member) / (inside @ member)
    rings = means.reshape(len(poses), -1, 3)
    shows = rings[..., 0] - (rings[..., 1] + rings[..., 2]) / 2
    out: npt.NDArray[np.float64] = np.nan_to_num(np.maximum(shows, 0)).sum(axis=1)
    return out


def shown_at(gray: Image, table_to_image: Matrix, probes: Probes, pose: Pose) -> float:
    """How much the slot outlines of ``probes`` (:func:`outline_probes`) show at ``pose``, as
    :func:`fitted` weighs them."""
    return float(_shown(gray, table_to_image, probes, [pose])[0])
