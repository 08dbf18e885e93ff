"""Which quarter turn a triangle slot's print shows, token or not.

A claim slot's outline is a triangle pointing up its tile's frame, and a claim token, its
shape at 0.94 of the slot's size, lies inside it pointing the same way (give or take the
10 degrees and 3 mm a hand leaves it off): outline and token together are a filled
triangle against the face, whichever colour the token is. The four ways a face may lie put
the claim slot in the same place, each pointing up its own frame, so the triangle the
picture shows says which way is right even when a token covers the empty outline that would
otherwise say it (:func:`recognize._points_up`).

How far each point near the slot lies from the face's colour (CIELAB, the window's median:
the face covers most of it) is correlated with a filled triangle at each quarter turn,
moved and turned as far as a token may lie off; the turn that correlates best, by a
margin, is the one shown.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.local_cluster.kit import SlotSpec

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
Scores = tuple[float, float, float, float]

WINDOW = 1.45
"""Half the sampled window's side, in circumradii of the slot."""
STEP = 1.0
"""The sampled points' spacing (mm) about a claim slot, and in proportion about a smaller
triangle: a claim's triangle is 27.7 mm a side."""
CLAIM_RADIUS = 16.0
"""A claim slot's circumradius (mm), which ``STEP`` is for."""
OUTLINE_OUT = 0.75
"""The slot outline reaches this far (mm) outside the slot's own outline."""
SOFT = 1.0
"""Over this width (mm) the triangle's edge falls from inside to outside."""
SHIFTS = (-2.0, 0.0, 2.0)
"""How far (mm, along x and y) the triangle is moved: a token may lie 3 mm off, within
about a millimetre of one of these."""
TURNS = (-7.0, 0.0, 7.0)
"""How far (degrees) the triangle is turned: a token may lie turned 10 degrees, within 3.5
of one of these."""

TURN_FIT = 0.3
"""A claim's triangle pointing up must correlate at least this well..."""
TURN_SIDE = 0.05
"""...this much better than one a quarter turn either way..."""
TURN_HALF = 0.12
"""...and this much better than one a half turn on. (Issue 18's renderer, nine sets, every
way of every face tried or named from 1 px/mm, 1,671: 139 of the 486 right ways pointed up
so, none of the 1,185 wrong ones; the nearest of these to passing correlated 0.28 up, 0.26
a quarter turn on and 0.22 a half turn on.)"""
MINERALS_FIT = 0.45
"""The four mineral triangles (12 mm a side, 12 pixels at 1 px/mm), their scores averaged,
must correlate at least this well pointing up, and as much better than the other turns as
a claim. (The same ways: 137 right ones pointed up so, none of the wrong ones; at 0.3, as
for a claim, 2 wrong ones did.)"""
ONE_MINERAL_FIT = 0.5
"""One mineral's triangle alone will do where it correlates at least this well pointing up,
:data:`ONE_MINERAL_SIDE` better than a quarter turn either way and :data:`ONE_MINERAL_HALF`
better than a half turn on, and no other mineral points another way so. (The same ways: 21
right ones more, none of the wrong ones; at 0.45, 0.07 and 0.13, three wrong ones did.)"""
ONE_MINERAL_SIDE = 0.08
ONE_MINERAL_HALF = 0.15


@functools.cache
def _bank(radius: float) -> tuple[Matrix, Matrix]:
    """The window's sample points about the slot's centre (P x 2, mm), and for each quarter
    turn and each way a token may lie off, a filled triangle over them (4 x K x P, each row
    less its mean and of unit length, so that a dot product is a correlation)."""
    half = WINDOW * radius
    ticks = np.arange(-half, half + 1e-9, STEP * radius / CLAIM_RADIUS)
    gx, gy = np.meshgrid(ticks, ticks)
    x, y = gx.ravel(), gy.ravel()
    inradius = radius / 2 + OUTLINE_OUT
    rows = []
    for quarter in range(4):
        for turn in TURNS:
            normals = [math.radians(a + 90.0 * quarter + turn) for a in (90.0, 210.0, 330.0)]
            for dx in SHIFTS:
                for dy in SHIFTS:
                    u, v = x - dx, y - dy
                    inside = np.max([u * math.cos(n) + v * math.sin(n) for n in normals], axis=0)
                    mask = np.clip(0.5 - (inside - inradius) / SOFT, 0.0, 1.0)
                    mask -= mask.mean()
                    rows.append(mask / np.linalg.norm(mask))
    bank = np.array(rows).reshape(4, len(rows) // 4, len(x))
    return np.stack([x, y], axis=1), bank


def turn_scores(image: Image, to_image: Matrix, slot: SlotSpec) -> Scores | None:
    """For each quarter turn (0, 90, 180, 270 degrees clockwise in the tile frame
    ``to_image`` maps to the picture), how well a filled triangle pointing that way from
    ``slot``'s centre fits how far the picture lies from the face's colour there (the best
    Pearson correlation over the shifts and turns a token may lie off by); None where the
    window leaves the picture or shows one colour only."""
    points, bank = _bank(slot.radius)
    tile = points + np.array(slot.centre)
    at = cv2.perspectiveTransform(tile[None].astype(np.float64), to_image)[0]
    h, w = image.shape[:2]
    x0, y0 = np.floor(at.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(at.max(axis=0)).astype(int) + 3
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    crop = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2Lab).astype(np.float32)
    map_x = (at[:, 0] - x0).astype(np.float32).reshape(1, -1)
    map_y = (at[:, 1] - y0).astype(np.float32).reshape(1, -1)
    lab = cv2.remap(crop, map_x, map_y, cv2.INTER_LINEAR)[0].astype(np.float64)
    off = np.linalg.norm(lab - np.median(lab, axis=0), axis=1)
    off -= off.mean()
    spread = float(np.linalg.norm(off))
    if spread < 1e-6:
        return None
    best = (bank @ (off / spread)).max(axis=1)
    return (float(best[0]), float(best[1]), float(best[2]), float(best[3]))


def points_up(
    scores: Scores | None, fit: float = TURN_FIT, side: float = TURN_SIDE, half: float = TURN_HALF
) -> bool:
    """Whether :func:`turn_scores` show a triangle pointing up, plainly."""
    if scores is None:
        return False
    up, right, down, left = scores
    return up >= fit and up - max(right, left) >= side and up - down >= half


def _one_points_up(shown: Sequence[Scores]) -> bool:
    """Whether one of the minerals' ``shown`` scores points up plainly, and none another way."""
    plain = (ONE_MINERAL_FIT, ONE_MINERAL_SIDE, ONE_MINERAL_HALF)
    # A mineral's scores read from another quarter turn on, as if that way were up.
    turned = [cast(Scores, s[quarter:] + s[:quarter]) for s in shown for quarter in (1, 2, 3)]
    return any(points_up(s, *plain) for s in shown) and not any(
        points_up(s, *plain) for s in turned
    )


def slots_point_up(image: Image, to_image: Matrix, slots: Sequence[SlotSpec]) -> bool:
    """Whether a tile's triangle slots ``slots``, placed by ``to_image``, point up its frame:
    the claim's triangle plainly, or the minerals' together, or one mineral's more plainly
    still (:func:`_one_points_up`)."""
    claim = [turn_scores(image, to_image, s) for s in slots if s.kind == "claim"]
    if any(points_up(c) for c in claim):
        return True
    minerals = [turn_scores(image, to_image, s) for s in slots if s.kind == "mineral"]
    shown = [m for m in minerals if m is not None]
    if not shown:
        return False
    mean = np.mean(shown, axis=0)
    together = (float(mean[0]), float(mean[1]), float(mean[2]), float(mean[3]))
    return points_up(together, MINERALS_FIT) or _one_points_up(shown)
