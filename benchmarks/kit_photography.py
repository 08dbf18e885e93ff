"""What the renderers written apart from our cameras' readers share
(:mod:`benchmarks.cluster_kit_renders`, :mod:`benchmarks.local_cluster_kit_renders`): a
Planckian light's colour, sRGB and linear light, and a pinhole camera with radial lens
distortion over the table. Nothing here comes from ``vision/``."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float32]
BGR = tuple[float, float, float]


def blackbody_bgr(kelvin: float) -> BGR:
    """The colour of a blackbody at ``kelvin`` as linear sRGB (BGR order), luminance 1.

    The chromaticity is Kang et al.'s (2002) cubic approximation of the Planckian locus in CIE
    1931 xy (1667-25000 K); XYZ goes to linear sRGB by the IEC 61966-2-1 matrix.
    """
    t = min(max(kelvin, 1667.0), 25000.0)
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    big_x, big_y, big_z = x / y, 1.0, (1 - x - y) / y
    r = max(3.2406 * big_x - 1.5372 * big_y - 0.4986 * big_z, 0.0)
    g = max(-0.9689 * big_x + 1.8758 * big_y + 0.0415 * big_z, 0.0)
    b = max(0.0557 * big_x - 0.2040 * big_y + 1.0570 * big_z, 0.0)
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return b / lum, g / lum, r / lum


def linear(srgb: float) -> float:
    """One sRGB value (0..255) as linear light (0..1)."""
    c = srgb / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def linear_bgr(rgb: Sequence[float]) -> BGR:
    """An sRGB colour (R, G, B, 0..255) as linear light in BGR order."""
    return linear(rgb[2]), linear(rgb[1]), linear(rgb[0])


@functools.cache
def to_linear_u16() -> npt.NDArray[np.uint16]:
    """sRGB byte -> linear light as 16 bits."""
    return np.array([round(linear(v) * 65535) for v in range(256)], np.uint16)


@functools.cache
def srgb_curve() -> Floats:
    """Linear light in 4096 steps -> sRGB, 0..255 as floats."""
    c = np.arange(4096, dtype=np.float64) / 4095.0
    s = np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.power(c, 1 / 2.4) - 0.055)
    out: Floats = (s * 255.0).astype(np.float32)
    return out


def encode(light: Floats) -> Floats:
    """Linear light (clipped to 0..1) through the sRGB tone curve, as 0..255 floats."""
    idx = np.clip(light * 4095.0 + 0.5, 0, 4095).astype(np.int32)
    out: Floats = srgb_curve()[idx]
    return out


def luminance(bgr: Floats | Array) -> Floats:
    """The luminance of linear BGR light (... x 3)."""
    out: Floats = (0.0722 * bgr[..., 0] + 0.7152 * bgr[..., 1] + 0.2126 * bgr[..., 2]).astype(
        np.float32
    )
    return out


@dataclasses.dataclass(frozen=True)
class Camera:
    """A pinhole camera with one radial distortion term (on normalised coordinates) over the
    table: world millimetres with the table at z = 0 and z pointing into it (the camera at
    negative z)."""

    width: int
    height: int
    focal: float
    k1: float
    rotation: Array
    """World to camera; rows are the camera's x, y and viewing axes in the world."""
    centre: Array

    def project(self, points: Array) -> tuple[Array, Array]:
        """Pixel positions (N x 2) and depths (N) of world points (N x 3)."""
        pc = (points - self.centre) @ self.rotation.T
        z = pc[:, 2]
        safe = np.where(z > 1e-6, z, 1e-6)
        x, y = pc[:, 0] / safe, pc[:, 1] / safe
        f = 1 + self.k1 * (x * x + y * y)
        u = self.focal * x * f + (self.width - 1) / 2
        v = self.focal * y * f + (self.height - 1) / 2
        return np.stack([u, v], axis=1), z

    def rays(self, u: Array, v: Array) -> Array:
        """World directions (... x 3, not normalised, unit depth) through pixel positions."""
        xd = (u - (self.width - 1) / 2) / self.focal
        yd = (v - (self.height - 1) / 2) / self.focal
        xu, yu = xd, yd
        for _ in range(8):
            f = 1 + self.k1 * (xu * xu + yu * yu)
            xu, yu = xd / f, yd / f
        r = self.rotation
        out: Array = (
            xu[..., None] * r[0] + yu[..., None] * r[1] + np.ones_like(xu)[..., None] * r[2]
        )
        return out

    def project_table(self, xy: Array) -> Array:
        """Pixel positions of table points (N x 2, mm)."""
        pts = np.concatenate([xy, np.zeros((len(xy), 1))], axis=1)
        return self.project(pts)[0]

    def table_at(self, u: Array, v: Array) -> tuple[Array, Array]:
        """Table coordinates (mm) seen at pixel positions."""
        d = self.rays(u, v)
        t = -self.centre[2] / np.maximum(d[..., 2], 1e-6)
        return self.centre[0] + t * d[..., 0], self.centre[1] + t * d[..., 1]

    def scale_at(self, x: float, y: float) -> float:
        """Pixels per table millimetre at (x, y): the geometric mean of both directions."""
        p = self.project_table(
            np.array([[x, y], [x + 0.5, y], [x - 0.5, y], [x, y + 0.5], [x, y - 0.5]])
        )
        jx, jy = p[1] - p[2], p[3] - p[4]
        return math.sqrt(abs(jx[0] * jy[1] - jx[1] * jy[0]))


def look(tilt: float, azimuth: float, roll: float) -> Array:
    """A camera rotation: tilted ``tilt`` radians from straight down towards ``azimuth``,
    turned ``roll`` about its viewing axis."""
    forward = np.array(
        [math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)]
    )
    a = np.array([math.cos(roll), math.sin(roll), 0.0])
    x = a - (a @ forward) * forward
    x /= np.linalg.norm(x)
    y = np.cross(forward, x)
    return np.stack([x, y, forward])
