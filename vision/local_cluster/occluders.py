"""What lies over part of a marker: a hand, a sleeve, a highlight.

A marker is printed in black on white, so in the picture its every pixel is the paper's
white (as the light tints it) or darker in proportion: a pixel whose colour is off that
line, or which is far lighter than the paper, shows something over the print. Those
pixels are left out when a marker that shows only in part is matched (:mod:`grid_rescue`);
what a dark sleeve covers shows as black and is not told apart, so the marker simply
matches less well there.

The paper's white is the white square round the markers the detector found, nearest first
(a lamp warms one end of a table).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.local_cluster.kit import Kit

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
Lab = npt.NDArray[np.float64]

OFF_WHITE = 12.0
"""A pixel whose a*, b* lie farther than this from the paper's white (scaled to the pixel's
lightness: a grey pixel of the print carries the tint in proportion) is not the print.
Skin lay about 21 off in the pictures looked at (issue 18's picture 27 drawn apart). Under
a 2,700 K lamp the paper is as orange as skin and a hand is not told apart (`warm` 83
picture 11): its marker then simply matches less well, as under a dark sleeve."""
LIT = 0.4
"""...among pixels at least this share as light as the paper's white (the printed tile round
a marker is dark and coloured; something as dark over the print is not told apart)..."""
LIGHTER = 1.4
"""...nor is a pixel lighter than this many times the paper's white (a highlight, a hand
lit from above a dim table)."""
NEAREST = 3
"""The paper's white is the median of the nearest this many markers' white squares."""
RING_POINTS = 48
"""Points sampled round each marker's white square, half-way across it."""


def whites(image: Image, quads: Matrix, kit: Kit) -> list[tuple[Matrix, Lab]]:
    """Each marker's centre (pixels) and its white square's colour (L*, a*, b*, the median of
    :data:`RING_POINTS` half-way across it)."""
    grow = (kit.white_side + kit.marker_side) / 2 / kit.marker_side
    t = np.linspace(0.0, 4.0, RING_POINTS, endpoint=False)
    out = []
    for quad in np.asarray(quads, np.float64):
        centre = quad.mean(axis=0)
        ring = centre + (quad - centre) * grow
        corner = np.floor(t).astype(int) % 4
        share = (t - np.floor(t))[:, None]
        points = ring[corner] * (1 - share) + ring[(corner + 1) % 4] * share
        colours = _lab_at(image, points)
        if len(colours):
            out.append((centre, np.median(colours, axis=0)))
    return out


def white_near(whites_: list[tuple[Matrix, Lab]], at: Matrix) -> Lab | None:
    """The paper's white near ``at`` (pixels): the median of the :data:`NEAREST` markers'."""
    if not whites_:
        return None
    order = sorted(whites_, key=lambda w: float(np.linalg.norm(w[0] - at)))
    out: Lab = np.median(np.array([lab for _, lab in order[:NEAREST]]), axis=0)
    return out


def covered(patch: Image, white: Lab) -> npt.NDArray[np.bool_]:
    """Which pixels of the colour ``patch`` show something over the print, given the paper's
    ``white`` (L*, a*, b*)."""
    lab = cv2.cvtColor(patch.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    light = lab[..., 0]
    share = np.clip(light / max(float(white[0]), 1.0), 0.0, 1.0)
    off = np.hypot(lab[..., 1] - white[1] * share, lab[..., 2] - white[2] * share)
    lit = light > LIT * white[0]
    out: npt.NDArray[np.bool_] = (lit & (off > OFF_WHITE)) | (light > LIGHTER * white[0])
    return out


def _lab_at(image: Image, points: Matrix) -> Lab:
    """The picture's colour (L*, a*, b*) at each of ``points`` (pixels) inside it."""
    h, w = image.shape[:2]
    xy = np.round(points).astype(int)
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    bgr = image[xy[inside, 1], xy[inside, 0]].reshape(-1, 1, 3)
    if len(bgr) == 0:
        return np.zeros((0, 3))
    lab = cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    out: Lab = lab.reshape(-1, 3).astype(np.float64)
    return out
