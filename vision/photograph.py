"""What every game's picture renderer shares (the synthetic tables of the tests and the
benchmarks): turning, a tilted camera's view of the table, and the colour of the light.

Only renderers import it; no recognizer does, so a reader is never checked against pictures
drawn with its own code.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]


def rotation(angle: float) -> Matrix:
    """The 2x2 matrix that turns a point ``angle`` degrees (counter-clockwise, y up)."""
    a = math.radians(angle)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def rodrigues(axis: Matrix, angle: float) -> Matrix:
    """The 3x3 matrix that turns ``angle`` radians about the unit vector ``axis``."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.asarray(np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k))


def camera(
    content: Matrix,
    rng: random.Random,
    *,
    size: tuple[int, int],
    turn: float,
    tilt: float,
    tilt_direction: float,
    fill: float,
    distance: float,
    slack: tuple[float, float],
) -> tuple[Matrix, float]:
    """Homography from table millimetres to image pixels, and its scale (pixels a millimetre at
    the middle), for a camera ``distance`` times the content's larger extent above the middle of
    ``content`` (points in table mm), turned ``turn`` degrees and looking ``tilt`` degrees away
    from straight down toward ``tilt_direction``; the content fills ``fill`` of the ``size``
    (width, height) picture, placed at random within ``slack`` (the share of the spare room
    left of it and above it, drawn from ``rng``)."""
    width, height = size
    cx, cy = content.mean(axis=0)
    rot = rotation(turn)
    d = math.radians(tilt_direction)
    r3 = rodrigues(np.array([math.cos(d), math.sin(d), 0.0]), math.radians(tilt))
    far = distance * float(np.ptp(content, axis=0).max())

    def project(points: Matrix) -> Matrix:
        flat = (points - [cx, cy]) @ rot.T
        lifted = np.hstack([flat, np.zeros((len(flat), 1))]) @ r3.T
        z = far + lifted[:, 2:3]
        return np.asarray(lifted[:, :2] / z * far, dtype=np.float64)

    proj = project(content)
    low = proj.min(axis=0)
    span = proj.max(axis=0) - low
    scale = min(width / span[0], height / span[1]) * fill
    spare = np.array([width, height]) - span * scale
    shift = spare * np.array([rng.uniform(*slack), rng.uniform(*slack)])
    square = np.array(
        [[cx - 100, cy - 100], [cx + 100, cy - 100], [cx + 100, cy + 100], [cx - 100, cy + 100]]
    )
    placed = (project(square) - low) * scale + shift
    h: Matrix = cv2.getPerspectiveTransform(square.astype(np.float32), placed.astype(np.float32))
    return np.asarray(h, dtype=np.float64), float(scale)


def blackbody_rgb(kelvin: float) -> tuple[float, float, float]:
    """The sRGB colour (0-255) of a light at ``kelvin`` (the usual black-body approximation)."""
    t = kelvin / 100
    red = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    green = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
    return (red, green, blue)


def kelvin_gains(kelvin: float) -> npt.NDArray[np.float64]:
    """Linear R, G, B gains of a light at ``kelvin`` against daylight (6500 K), the largest 1
    (linear as a 2.2 gamma)."""

    def linear(t: float) -> npt.NDArray[np.float64]:
        c = np.clip(np.array(blackbody_rgb(t)) / 255.0, 0.01, 1)
        return np.asarray(c**2.2, dtype=np.float64)

    gains = linear(kelvin) / linear(6500)
    return np.asarray(gains / gains.max(), dtype=np.float64)
