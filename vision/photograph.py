"""What every game's picture renderer shares (the synthetic tables of the tests and the
benchmarks): turning, a tilted camera's view of the table, and taking the picture: the light
(colour temperature, brightness falling off to one side, vignetting, shade, specular glare)
and the sensor (blur, shot and read noise, a Bayer filter, JPEG).

Only renderers import it; no recognizer does, so a reader is never checked against pictures
drawn with its own code.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
RGB = tuple[int, int, int]

MATS: dict[str, RGB] = {
    "wood": (150, 112, 78),
    "dark wood": (82, 56, 40),
    "green felt": (40, 92, 52),
    "grey": (128, 128, 124),
    "white cloth": (228, 228, 222),
    "black mat": (26, 26, 28),
    "blue mat": (40, 60, 112),
}
"""What the table is covered with (sRGB)."""
PAPERS: dict[str, RGB] = {
    "bright white": (255, 255, 255),
    "white": (246, 246, 242),
    "cream": (250, 244, 226),
    "recycled grey": (232, 232, 226),
}
"""The paper a kit is printed on (sRGB)."""
SKINS: tuple[RGB, ...] = (
    (236, 196, 174),
    (214, 168, 142),
    (176, 124, 96),
    (120, 80, 58),
    (84, 56, 42),
)
"""Hands of any tone (sRGB)."""


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


# Light and the sensor ----------------------------------------------------------------------------


def to_linear(rgb: Any) -> Any:
    """sRGB values (0-255) to linear light (0-1)."""
    v = np.asarray(rgb, np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: Any) -> Any:
    """Linear light (0-1, clipped) to sRGB values (0-255)."""
    v = np.clip(np.asarray(linear, np.float64), 0, 1)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055) * 255.0


_LINEAR_LUT = to_linear(np.arange(256)).astype(np.float32)
_SRGB_STEPS = 4096
_SRGB_LUT = np.clip(np.round(to_srgb(np.arange(_SRGB_STEPS) / (_SRGB_STEPS - 1))), 0, 255).astype(
    np.uint8
)


def image_to_linear(image: Image) -> Floats:
    out: Floats = _LINEAR_LUT[image]
    return out


def image_to_srgb(linear: Floats) -> Image:
    index = linear * (_SRGB_STEPS - 1)
    index += 0.5
    np.clip(index, 0, _SRGB_STEPS - 1, out=index)
    out: Image = _SRGB_LUT[index.astype(np.uint16)]
    return out


def kelvin_gains(kelvin: float) -> npt.NDArray[np.float64]:
    """Linear R, G, B of a light at ``kelvin`` relative to daylight (6500 K), largest 1."""

    def rgb(t: float) -> npt.NDArray[np.float64]:
        return np.asarray(to_linear(np.clip(blackbody_rgb(t), 1, 255)), np.float64)

    gains = rgb(kelvin) / rgb(6500)
    return np.asarray(gains / gains.max(), np.float64)


def second_lamp(kelvin: float) -> float:
    """A lamp of another colour than a table lit at ``kelvin``: a warm desk lamp (2700 K) in
    a room lit above 4000 K, else a daylight lamp (6500 K) over a warmly lit table."""
    return 2700.0 if kelvin > 4000 else 6500.0


def glare_field(
    rng: random.Random, size: tuple[int, int], *, count: int, strength: float
) -> Floats:
    """Specular light added per pixel of a ``size`` (height, width) picture, in units of paper
    white: ``count`` highlights, each a sharp core (the lamp's reflection) inside a wide halo,
    peaking at ``strength`` (up to 2: clipped)."""
    height, width = size
    field = np.zeros((height, width), np.float32)
    # A pixel's place, as a row of columns and a column of rows: what follows broadcasts them
    # to the whole picture (the same values as whole-picture grids, at a fraction of the work).
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    for _ in range(count):
        cx, cy = rng.uniform(0.15, 0.85) * width, rng.uniform(0.15, 0.85) * height
        core = rng.uniform(0.015, 0.05) * width
        stretch = rng.uniform(1.0, 2.5)
        angle = rng.uniform(0, math.pi)
        dx, dy = xs - cx, ys - cy
        u = dx * math.cos(angle) + dy * math.sin(angle)
        v = -dx * math.sin(angle) + dy * math.cos(angle)
        u /= stretch
        np.square(u, out=u)
        np.square(v, out=v)
        u += v
        d2 = u
        sharp = np.negative(d2)
        sharp /= 2 * core**2
        np.exp(sharp, out=sharp)
        sharp *= strength
        halo = np.negative(d2, out=v)
        halo /= 2 * (4 * core) ** 2
        np.exp(halo, out=halo)
        halo *= strength * 0.12
        sharp += halo
        field += sharp
    return field


class Shot(Protocol):
    """How a picture is lit and taken (each game's ``Conditions`` has these)."""

    @property
    def kelvin(self) -> float: ...
    @property
    def brightness(self) -> float: ...
    @property
    def gradient(self) -> float: ...
    @property
    def vignette(self) -> float: ...
    @property
    def blur(self) -> float: ...
    @property
    def noise(self) -> float: ...
    @property
    def bayer(self) -> bool: ...
    @property
    def jpeg(self) -> int | None: ...
    @property
    def seed(self) -> int: ...


def photograph(
    albedo: Image,
    *,
    gloss: Floats,
    shade: Floats,
    glare: Floats,
    paper: RGB,
    shot: Shot,
    rng: random.Random,
    glare_kelvin: float | None = None,
) -> Image:
    """Light the table (``albedo``: BGR as printed, in the picture's frame), then take the
    picture through the lens and the sensor.

    ``shade`` darkens (1: fully lit), ``glare`` (units of ``paper`` white) reflects off each
    pixel as much as its ``gloss`` (0 matte - 1 glossy), in the colour of a lamp at
    ``glare_kelvin`` (None: the light's own); the light has the shot's colour
    temperature, a falling-off ``gradient`` from a lamp to one side and a ``vignette``; the
    lens blurs; the sensor adds shot and read noise, through a Bayer filter if ``bayer``, and
    the picture may be saved as a JPEG."""
    height, width = albedo.shape[:2]
    linear = image_to_linear(albedo[:, :, ::-1])  # R, G, B
    light = kelvin_gains(shot.kelvin).astype(np.float32)
    # Where each pixel lies across and down the picture, as a row and a column broadcast to
    # the whole of it; whole-picture arrays are worked in place where the result is the same.
    xs = np.arange(width, dtype=np.float32)[None, :] / width - 0.5
    ys = np.arange(height, dtype=np.float32)[:, None] / height - 0.5
    direction = rng.uniform(0, 2 * math.pi)
    u = (xs * math.cos(direction) + ys * math.sin(direction)) + 0.5
    field = (1 - shot.gradient * np.clip(u, 0, 1)) * shade
    r2 = (xs**2 + ys**2) / 0.5
    field *= 1 - shot.vignette * r2
    lit = linear * field[:, :, None]
    lit *= light
    lamp = light if glare_kelvin is None else kelvin_gains(glare_kelvin).astype(np.float32)
    if np.any(glare):
        reflected = (glare * gloss)[:, :, None] * lamp
        reflected *= to_linear(paper).astype(np.float32)
        lit += reflected
    lit *= 0.7 * shot.brightness  # the exposure
    raw = lit
    if shot.blur > 0:
        raw = cv2.GaussianBlur(raw, (0, 0), shot.blur)
    noise_rng = np.random.default_rng(shot.seed)
    read = shot.noise / 255.0
    if shot.bayer:
        # One colour per pixel (R G / G B), shot and read noise, clipped, then demosaiced.
        mosaic = np.empty((height, width), np.float32)
        mosaic[0::2, 0::2] = raw[0::2, 0::2, 0]
        mosaic[0::2, 1::2] = raw[0::2, 1::2, 1]
        mosaic[1::2, 0::2] = raw[1::2, 0::2, 1]
        mosaic[1::2, 1::2] = raw[1::2, 1::2, 2]
        noise = np.sqrt(np.clip(mosaic, 0, None) * read * 0.02)
        mosaic = mosaic + noise_rng.normal(0, 1, mosaic.shape).astype(np.float32) * (
            read * 0.3 + noise
        )
        bayer = np.clip(mosaic * 65535, 0, 65535).astype(np.uint16)
        # OpenCV names Bayer patterns from the second row and column: R at (0, 0) is "BG".
        raw = cv2.cvtColor(bayer, cv2.COLOR_BayerBG2RGB).astype(np.float32) / 65535
    else:
        # Shot noise grows as the square root of the light; read noise is the same everywhere.
        spread = np.clip(raw, 0, None)
        spread *= read
        spread *= 0.02
        np.sqrt(spread, out=spread)
        spread += read * 0.3
        grain = noise_rng.normal(0, 1, raw.shape).astype(np.float32)
        grain *= spread
        raw += grain
    image: Image = np.ascontiguousarray(image_to_srgb(raw[:, :, ::-1]))
    if shot.jpeg is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            image = decoded
    return image
