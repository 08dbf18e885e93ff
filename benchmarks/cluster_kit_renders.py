"""Camera pictures of the Cluster kit's printed board with pegs standing in it, drawn from
physics and from how phone and Pi cameras behave, to test the camera reader on pictures it was
not tuned to.

This renderer is independent of the reader and of the reader's own test pictures: it reads only
the kit's description (:mod:`vision.cluster.kit`), the printed sheet (:mod:`vision.cluster.sheets`)
and the rules core. Every condition is drawn at random per picture from ``rng``; the truth of each
hole (what stands in it, and whether it is in plain view) is computed from the same 3D scene.

The scene is in the board frame of the kit, millimetres: x along row a, y down the printed page,
z *into* the table (so a point ``h`` mm above the surface has ``z = -h``); with these axes an
OpenCV camera looking straight down has the identity rotation, and pictures are never mirrored.

``python -m benchmarks.cluster_kit_renders --out DIR --count N [--seed S]`` writes N PNGs and
``truth.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.kit_photography import (
    BGR,
    Camera,
    blackbody_bgr,
    linear_bgr,
    look,
    luminance,
    srgb_curve,
    to_linear_u16,
)
from companion.cluster_peg.board import Board
from companion.cluster_peg.moves import after, legal_codes
from companion.cluster_peg.position import SETUPS, Position
from companion.cluster_peg.scan import Seen
from vision.cluster.kit import Kit, load_kit
from vision.cluster.sheets import draw_board

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Array = npt.NDArray[np.float64]

DISC_RADIUS = 4.0
"""Millimetres: the disc around a hole's centre that must be in plain view."""
GLARE_LIMIT = 0.5
"""A disc is washed out where specular light adds more than this much of the paper's white."""
HAND_LIMIT = 4.0 / 255.0
"""Hand coverage above this (of one pixel) counts as covering."""

MATS = ("wood", "green felt", "dark grey", "white cloth", "black", "red-brown", "patterned cloth")
PAPERS: dict[str, BGR] = {
    # linear multipliers, BGR, on the sheet as printed on white
    "white": (1.0, 1.0, 1.0),
    "cream": (0.80, 0.95, 1.0),
    "recycled grey": (0.80, 0.83, 0.84),
    "bright white": (1.0, 0.99, 0.95),
}
SKINS: tuple[tuple[int, int, int], ...] = (
    # sRGB, RGB order: very light to very dark
    (250, 222, 204),
    (238, 196, 168),
    (222, 170, 136),
    (196, 136, 100),
    (160, 104, 72),
    (122, 76, 50),
    (88, 54, 36),
    (60, 38, 28),
)
PEG_GLOSS = 1.5
"""Gloss of the pegs' plastic against the paper's (the paper is 1)."""
MAT_GLOSS = 0.25


@dataclasses.dataclass(frozen=True)
class HoleTruth:
    """One hole as the picture shows it."""

    seen: Seen
    """EMPTY, RED or BLUE: what is in the hole."""
    visible: bool
    """The 4 mm disc around the hole's centre (on the surface when empty, on the peg's top when
    a peg stands there) is in plain view: no hand, arm or other peg in front of it and not
    washed out by a highlight."""
    hidden_by: str | None
    """None, ``'hand'``, ``'peg'`` or ``'glare'``."""


@dataclasses.dataclass(frozen=True)
class KitRender:
    """A drawn picture with its truth."""

    image: Image
    """BGR, H x W x 3, after JPEG encoding and decoding when JPEG was drawn."""
    holes: tuple[HoleTruth, ...]
    """One per hole, in hole index order."""
    description: str
    """One line: the conditions drawn."""


# Colour ---------------------------------------------------------------------------------------


@functools.cache
def _to_srgb_u8() -> Image:
    """Linear light quantised to 4096 steps -> sRGB byte."""
    out: Image = np.clip(np.round(srgb_curve()), 0, 255).astype(np.uint8)
    return out


# The scene ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Light:
    colour: BGR
    """Linear, luminance 1."""
    power: float
    direction: Array
    """Unit vector towards the lamp (world; up is -z)."""
    kelvin: float
    elevation: float
    azimuth: float


@dataclasses.dataclass(frozen=True)
class _Glare:
    x: float
    y: float
    peak: float
    core: float
    halo: float
    core_share: float
    colour: BGR


@dataclasses.dataclass(frozen=True)
class _Peg:
    hole: int
    x: float
    y: float
    base: float
    """z of the board's surface at the peg (negative when the sheet is lifted)."""
    top: float
    """z of the peg's top."""
    albedo: BGR


@dataclasses.dataclass(frozen=True)
class _Scene:
    kit: Kit
    board: Board
    camera: Camera
    box: tuple[float, float, float, float]
    """The sheet's outline in the board frame, with its paper border."""
    curl_edge: int
    """0..3: left, top, right, bottom; the edge that lifts."""
    curl_lift: float
    curl_reach: float
    main: _Light
    second: _Light | None
    ambient: float
    falloff: tuple[float, float, float]
    """Main light intensity 1 - a * clip((p - p0) / span) along its azimuth: (a, p0, span)."""
    glares: tuple[_Glare, ...]
    paper_white: float
    """Luminance of the paper under the unshadowed main light, no falloff."""
    shininess: float
    specular: float
    chamfer: float

    def lift(self, x: Array, y: Array) -> Array:
        """Millimetres the sheet stands off the table at (x, y)."""
        x0, y0, x1, y1 = self.box
        if self.curl_lift <= 0:
            return np.zeros_like(x)
        inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
        into = (x - x0, y - y0, x1 - x, y1 - y)[self.curl_edge]
        t = np.clip(1 - into / self.curl_reach, 0, 1)
        lifted: Array = np.where(inside, self.curl_lift * t * t, 0.0)
        return lifted

    def main_intensity(self, x: Array, y: Array) -> Array:
        a, p0, span = self.falloff
        p = x * math.cos(self.main.azimuth) + y * math.sin(self.main.azimuth)
        # the lamp stands towards +p: the far side (small p) is darker
        out: Array = 1 - a * np.clip((p0 + span - p) / span, 0, 1)
        return out

    def second_intensity(self, x: Array, y: Array) -> Array:
        if self.second is None:
            return np.zeros_like(x)
        p = x * math.cos(self.second.azimuth) + y * math.sin(self.second.azimuth)
        cx = (self.box[0] + self.box[2]) / 2
        cy = (self.box[1] + self.box[3]) / 2
        pc = cx * math.cos(self.second.azimuth) + cy * math.sin(self.second.azimuth)
        out: Array = self.second.power * np.clip(0.6 + (p - pc) / 250.0, 0.15, 1.4)
        return out

    def glare(self, x: Array, y: Array) -> Array:
        """Specular light from the lamps' reflections, as a share of the paper's white."""
        total = np.zeros_like(x)
        for g in self.glares:
            d2 = (x - g.x) ** 2 + (y - g.y) ** 2
            total = total + g.peak * (
                g.core_share * np.exp(-d2 / (2 * g.core**2))
                + (1 - g.core_share) * np.exp(-d2 / (2 * g.halo**2))
            )
        return total

    def glare_bgr(self, x: Array, y: Array) -> Array:
        """The glare's radiance (... x 3) on the paper."""
        out = np.zeros((*x.shape, 3))
        for g in self.glares:
            d2 = (x - g.x) ** 2 + (y - g.y) ** 2
            share = g.peak * (
                g.core_share * np.exp(-d2 / (2 * g.core**2))
                + (1 - g.core_share) * np.exp(-d2 / (2 * g.halo**2))
            )
            out += share[..., None] * np.array(g.colour) * self.paper_white
        return out

    def lights(self) -> list[_Light]:
        return [self.main] if self.second is None else [self.main, self.second]


def _top_normals(radial: Array, rho: Array, radius: float, chamfer: float) -> Array:
    """Normals (... x 3) on a peg's top: flat, turning over a rounded edge near the rim."""
    t = np.clip((rho - (radius - chamfer)) / chamfer, 0, 1)
    angle = t * (math.pi / 4)
    up = np.array([0.0, 0.0, -1.0])
    out: Array = np.cos(angle)[..., None] * up + np.sin(angle)[..., None] * radial
    return out


def _peg_specular(scene: _Scene, normals: Array, view: Array, xy: Array, top: Array) -> Array:
    """Specular radiance (... x 3) on a peg's surface: Phong from each lamp and, on the top,
    the lamps' glare reflected as on the paper but glossier."""
    out = np.zeros(normals.shape)
    for light in scene.lights():
        nl = normals @ light.direction
        reflected = 2 * nl[..., None] * normals - light.direction
        rv = np.clip(np.sum(reflected * view, axis=-1), 0, 1)
        term = np.where(nl > 0, scene.specular * light.power * rv**scene.shininess, 0.0)
        out += term[..., None] * np.array(light.colour)
    if scene.glares:
        out += (
            (PEG_GLOSS * top)[..., None]
            * scene.glare_bgr(xy[..., 0], xy[..., 1])
            * np.clip(-normals[..., 2], 0, 1)[..., None]
        )
    return out


# Drawing the scene ----------------------------------------------------------------------------


@functools.cache
def _printed(board_name: str, s: int) -> Image:
    from companion.cluster_peg.board import BOARDS

    return draw_board(load_kit(), BOARDS[board_name], float(s))


def _noise(shape: tuple[int, int], cell: float, nrng: np.random.Generator) -> Floats:
    """Smooth noise, mean 0 and about unit spread, varying over ``cell`` pixels."""
    h, w = shape
    gh, gw = max(2, int(h / cell) + 3), max(2, int(w / cell) + 3)
    coarse = nrng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(coarse, (int(gw * cell), int(gh * cell)), interpolation=cv2.INTER_CUBIC)
    out: Floats = big[:h, :w]
    return out


def _mat(
    kind: str, shape: tuple[int, int], mm: float, rng: random.Random, nrng: np.random.Generator
) -> Floats:
    """A table mat's linear albedo (BGR) on a grid of ``mm`` millimetres a pixel."""
    h, w = shape

    def colour(rgb: Sequence[float]) -> Floats:
        return np.array(linear_bgr(rgb), np.float32)

    def jitter(rgb: Sequence[float], by: float) -> list[float]:
        return [min(255.0, max(0.0, c + rng.uniform(-by, by))) for c in rgb]

    fine = _noise(shape, 1.5, nrng)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) * mm
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = 6 * _noise(shape, 60 / mm, nrng) + 1.5 * _noise(shape, 12 / mm, nrng)
        period = rng.uniform(8, 25)
        rings = 0.5 + 0.5 * np.sin(2 * math.pi * (across + warp) / period)
        # fine streaks along the grain: a random profile across it
        profile = np.cumsum(nrng.standard_normal(4096)) * 0.05
        profile = profile - np.convolve(profile, np.ones(64) / 64, mode="same")
        at = np.clip(((across + 0.5 * warp) / 0.7) % 4000, 0, 4095).astype(np.int32)
        grain = np.clip(0.35 * rings + 0.5 * profile[at].astype(np.float32) + 0.3, 0, 1)
        plank = rng.uniform(90, 160)
        seams = np.abs(((across + 0.3 * warp) % plank) - plank / 2) > plank / 2 - 1.0
        light, dark = jitter((200, 156, 108), 25), jitter((122, 80, 46), 20)
        t = np.clip(grain**2 + 0.05 * fine, 0, 1)[..., None]
        img = colour(light) * (1 - t) + colour(dark) * t
        img = img * (1 - 0.55 * seams[..., None])
    elif kind == "patterned cloth":
        base = [rng.uniform(40, 240) for _ in range(3)]
        img = np.empty((h, w, 3), np.float32)
        img[:] = colour(base)
        palette: list[tuple[float, ...]] = [
            (200, 40, 40),
            (40, 80, 200),
            (240, 240, 230),
            (30, 30, 30),
            (230, 190, 40),
        ]
        palette += [tuple(rng.uniform(0, 255) for _ in range(3)) for _ in range(3)]
        period = rng.uniform(25, 70) / mm
        if rng.random() < 0.5:  # stripes
            for i in range(int(max(h, w) / period) + 2):
                c = colour(rng.choice(palette))
                x0 = int(i * period)
                img[:, x0 : x0 + max(1, int(period * rng.uniform(0.2, 0.5)))] = c
        else:  # checks
            for i in range(0, h, max(1, int(period))):
                for j in range(0, w, max(1, int(period))):
                    if (i // max(1, int(period)) + j // max(1, int(period))) % 2:
                        img[i : i + int(period), j : j + int(period)] = colour(rng.choice(palette))
        for _ in range(int(h * w * mm * mm / 4000)):  # dots and rings, some peg-sized
            dot = tuple(float(v) for v in colour(rng.choice(palette)))
            r = max(1, int(rng.uniform(4, 25) / mm))
            centre = (rng.randrange(w), rng.randrange(h))
            cv2.circle(img, centre, r, dot, -1 if rng.random() < 0.6 else max(1, r // 4))
        img = img * (1 + 0.05 * fine[..., None])
    else:
        nominal = {
            "green felt": (40, 112, 62),
            "dark grey": (64, 64, 66),
            "white cloth": (236, 234, 228),
            "black": (20, 20, 22),
            "red-brown": (122, 54, 38),
        }[kind]
        img = np.empty((h, w, 3), np.float32)
        img[:] = colour(jitter(nominal, 12))
        folds = _noise(shape, 80 / mm, nrng)
        grain = 0.08 if kind == "green felt" else 0.04
        img = img * (1 + grain * fine[..., None] + 0.07 * folds[..., None])
    out: Floats = np.clip(img, 0, 1).astype(np.float32)
    return out


def _capsule(a: tuple[float, float], b: tuple[float, float], half: float) -> Array:
    """A capsule's outline (N x 2) from a to b, ``half`` wide each side."""
    ax, ay = a
    bx, by = b
    angle = math.atan2(by - ay, bx - ax)
    pts = [
        (bx + half * math.cos(angle + t), by + half * math.sin(angle + t))
        for t in np.linspace(-math.pi / 2, math.pi / 2, 10)
    ]
    pts += [
        (ax + half * math.cos(angle + t), ay + half * math.sin(angle + t))
        for t in np.linspace(math.pi / 2, 3 * math.pi / 2, 10)
    ]
    return np.array(pts)


def _densify(poly: Array, step: float) -> Array:
    """A closed polygon with extra points so no edge is longer than ``step``."""
    out = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        n = max(1, math.ceil(float(np.linalg.norm(b - a)) / step))
        for k in range(n):
            out.append(a + (b - a) * k / n)
    return np.array(out)


@dataclasses.dataclass(frozen=True)
class _Hand:
    parts: tuple[Array, ...]
    """Outlines in the world (N x 3), palm, fingers, thumb and forearm."""
    skin: BGR
    height: float
    halves: tuple[float, ...]
    """Each part's half width (mm), for its rounded shading."""


def _make_hand(scene: _Scene, rng: random.Random) -> _Hand:
    """A hand over the board: palm, four fingers and a thumb, the forearm running off the frame."""
    x0, y0, x1, y1 = scene.box
    hx = rng.uniform(x0 - 20, x1 + 20)
    hy = rng.uniform(y0 - 20, y1 + 20)
    height = rng.uniform(60, 250)
    angle = rng.uniform(0, 2 * math.pi)
    side = rng.choice((-1.0, 1.0))
    palm_w, palm_l = rng.uniform(78, 92) / 2, rng.uniform(92, 108) / 2
    width = rng.uniform(18, 20)
    parts2d: list[Array] = [
        np.array(
            [
                (palm_w * math.cos(t) * (1 - 0.12 * math.sin(t)), palm_l * math.sin(t))
                for t in np.linspace(0, 2 * math.pi, 40, endpoint=False)
            ]
        )
    ]
    for i, spread in enumerate((-14.0, -4.5, 4.5, 14.0)):
        length = (
            rng.uniform(58, 72),
            rng.uniform(66, 80),
            rng.uniform(58, 72),
            rng.uniform(50, 60),
        )[i] * rng.uniform(0.75, 1.0)
        a = math.radians(90 + side * spread + rng.uniform(-8, 8))
        base = (side * (-palm_w * 0.72 + i * palm_w * 0.48), palm_l * 0.8)
        tip = (base[0] + length * math.cos(a), base[1] + length * math.sin(a))
        parts2d.append(_capsule(base, tip, width / 2))
    spread = math.radians(rng.uniform(40, 80))  # the thumb, outward and forward
    base = (-side * palm_w * 0.75, -palm_l * 0.15)
    length = rng.uniform(50, 65)
    tip = (base[0] - side * length * math.sin(spread), base[1] + length * math.cos(spread))
    parts2d.append(_capsule(base, tip, rng.uniform(20, 22) / 2))
    slope = rng.uniform(0.05, 0.25)
    # the elbow is higher than the hand, but the arm stays well below the camera
    most = max(0.0, 0.55 * -float(scene.camera.centre[2]) - height)
    ca, sa = math.cos(angle), math.sin(angle)

    def world(p: Array) -> Array:
        u, v = p[:, 0], p[:, 1]
        rise = np.minimum(slope * np.clip(-(v + palm_l * 0.7), 0, None), most)
        return np.stack([hx + u * ca - v * sa, hy + u * sa + v * ca, -(height + rise)], axis=1)

    # the forearm: long enough to leave the frame (or come close to the camera)
    cam = scene.camera
    reach = 150.0
    for reach in np.arange(150.0, 2000.0, 25.0):
        end = world(np.array([[0.0, -palm_l * 0.7 - reach]]))
        uv, depth = cam.project(end)
        off = (
            uv[0, 0] < -150
            or uv[0, 0] > cam.width + 150
            or uv[0, 1] < -150
            or uv[0, 1] > cam.height + 150
        )
        if off or depth[0] < 80:
            break
    wrist, elbow = rng.uniform(54, 64) / 2, rng.uniform(68, 80) / 2
    arm = np.array(
        [
            (-wrist, -palm_l * 0.6),
            (wrist, -palm_l * 0.6),
            (elbow, -palm_l * 0.7 - reach),
            (-elbow, -palm_l * 0.7 - reach),
        ]
    )
    parts2d.append(_densify(arm, 20.0))
    skin = linear_bgr([min(255, max(0, c + rng.uniform(-8, 8))) for c in rng.choice(SKINS)])
    halves = (palm_w * 0.6,) + (width / 2,) * 5 + (elbow * 0.8,)
    return _Hand(tuple(world(p) for p in parts2d), skin, height, halves)


def _fill(mask: Image, pts: Array, shift: int = 3) -> None:
    cv2.fillPoly(mask, [np.round(pts * (1 << shift)).astype(np.int32)], 255, cv2.LINE_AA, shift)


def _draw_pit(
    tex: Image,
    centre: tuple[float, float],
    radius: float,
    toward: tuple[float, float],
    shift: float,
    wall: tuple[int, int, int],
    floor: tuple[int, int, int],
) -> None:
    """An empty hole's pit on the sheet's texture (pixels): the wall away from the light lit, the
    near wall and the floor in shadow."""
    cx, cy = centre
    r = math.ceil(radius) + 2
    x0, y0 = int(cx) - r, int(cy) - r
    if x0 < 0 or y0 < 0 or x0 + 2 * r + 1 > tex.shape[1] or y0 + 2 * r + 1 > tex.shape[0]:
        return
    yy, xx = np.mgrid[y0 : y0 + 2 * r + 1, x0 : x0 + 2 * r + 1].astype(np.float32)
    d_hole = np.hypot(xx - cx, yy - cy)
    d_shift = np.hypot(xx - cx - toward[0] * shift, yy - cy - toward[1] * shift)
    inside = np.clip(radius - d_hole + 0.5, 0, 1)
    lit = np.clip(d_shift - radius + 0.5, 0, 1) * inside
    depth = np.clip(1 - d_hole / radius, 0, 1)  # darker down the wall
    roi = tex[y0 : y0 + 2 * r + 1, x0 : x0 + 2 * r + 1].astype(np.float32)
    wall_c = np.array(wall, np.float32) * (1 - 0.6 * depth)[..., None]
    floor_c = np.array(floor, np.float32)
    new = roi * (1 - inside[..., None]) + inside[..., None] * (
        floor_c * (1 - lit[..., None]) + wall_c * lit[..., None]
    )
    tex[y0 : y0 + 2 * r + 1, x0 : x0 + 2 * r + 1] = np.clip(new, 0, 255).astype(np.uint8)


def _draw_camera(
    kit: Kit,
    board: Board,
    box: tuple[float, float, float, float],
    size: tuple[int, int],
    rng: random.Random,
    tilt_deg: float | None = None,
) -> tuple[Camera, dict[str, float]]:
    """A camera that sees all four markers and every hole (pegs' tops included)."""
    width, height = size
    x0, y0, x1, y1 = box
    corners = np.array([(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)], float)
    markers = []
    half = kit.marker_side / 2
    for mx, my in kit.marker_centres(board).values():
        markers += [(mx - half, my - half, 0), (mx + half, my - half, 0)]
        markers += [(mx + half, my + half, 0), (mx - half, my + half, 0)]
    holes = [kit.hole_mm(board, h) for h in range(board.size)]
    needed = np.array(markers + [(x, y, -20.0) for x, y in holes], float)
    for _ in range(400):
        hfov = math.radians(rng.uniform(55, 75))
        focal = (width / 2) / math.tan(hfov / 2)
        fill = rng.uniform(0.45, 0.95)
        tilt = math.radians(rng.uniform(0, 30))
        if tilt_deg is not None:
            tilt = math.radians(tilt_deg)
        azimuth = rng.uniform(0, 2 * math.pi)
        roll = rng.uniform(0, 2 * math.pi)
        k1 = rng.uniform(-0.08, 0.03)
        rotation = look(tilt, azimuth, roll)
        target = np.array(
            [
                (x0 + x1) / 2 + rng.uniform(-0.15, 0.15) * (x1 - x0),
                (y0 + y1) / 2 + rng.uniform(-0.15, 0.15) * (y1 - y0),
                0.0,
            ]
        )
        distance = max(x1 - x0, y1 - y0) * focal / (fill * min(width, height))
        camera = Camera(width, height, focal, k1, rotation, target - distance * rotation[2])
        for _ in range(3):  # scale the distance so the sheet's longest side fills as drawn
            uv, _depth = camera.project(corners)
            sides = np.linalg.norm(uv - np.roll(uv, 1, axis=0), axis=1)
            distance *= float(sides.max()) / (fill * min(width, height))
            camera = dataclasses.replace(camera, centre=target - distance * rotation[2])
        uv, depth = camera.project(needed)
        margin = 4
        if (
            np.all(depth > 50)
            and np.all(uv[:, 0] >= margin)
            and np.all(uv[:, 0] <= width - 1 - margin)
            and np.all(uv[:, 1] >= margin)
            and np.all(uv[:, 1] <= height - 1 - margin)
        ):
            return camera, {
                "hfov": math.degrees(hfov),
                "fill": fill,
                "tilt": math.degrees(tilt),
                "roll": math.degrees(roll),
                "k1": k1,
                "distance": distance,
            }
    raise RuntimeError("no camera placement kept the markers in the frame")  # pragma: no cover


def _plastic(nominal: Sequence[int], rng: random.Random) -> list[float]:
    """A picture's batch of one colour's plastic (sRGB, RGB order)."""
    batch = [c + rng.uniform(-25, 25) for c in nominal]
    if rng.random() < 0.1:
        factor = rng.choice((rng.uniform(0.6, 0.8), rng.uniform(1.15, 1.3)))
        batch = [c * factor for c in batch]
    return [min(255.0, max(0.0, c)) for c in batch]


def _ray_cylinder(origin: Array, direction: Array, peg: _Peg, radius: float) -> tuple[Array, Array]:
    """Entry parameters (t) of rays into a peg's side wall (inf where missed) and top."""
    ox, oy = origin[..., 0] - peg.x, origin[..., 1] - peg.y
    dx, dy, dz = direction[..., 0], direction[..., 1], direction[..., 2]
    a = dx * dx + dy * dy
    b = 2 * (ox * dx + oy * dy)
    c = ox * ox + oy * oy - radius * radius
    disc = b * b - 4 * a * c
    root = np.sqrt(np.clip(disc, 0, None))
    t_side = (-b - root) / (2 * a)
    z_side = origin[..., 2] + t_side * dz
    side_ok = (disc > 0) & (z_side >= peg.top) & (z_side <= peg.base) & (t_side > 0)
    t_top = (peg.top - origin[..., 2]) / dz
    px, py = ox + t_top * dx, oy + t_top * dy
    top_ok = (px * px + py * py <= radius * radius) & (t_top > 0)
    return np.where(side_ok, t_side, np.inf), np.where(top_ok, t_top, np.inf)


def _segment_hits_peg(start: Array, points: Array, peg: _Peg, radius: float) -> Array:
    """Whether the segment from ``start`` to each point passes through the peg's solid."""
    d = points - start
    ox, oy = start[0] - peg.x, start[1] - peg.y
    dx, dy, dz = d[:, 0], d[:, 1], d[:, 2]
    a = np.maximum(dx * dx + dy * dy, 1e-12)
    b = 2 * (ox * dx + oy * dy)
    c = ox * ox + oy * oy - radius * radius
    disc = b * b - 4 * a * c
    root = np.sqrt(np.clip(disc, 0, None))
    t0, t1 = (-b - root) / (2 * a), (-b + root) / (2 * a)
    tz0, tz1 = (peg.top - start[2]) / dz, (peg.base - start[2]) / dz
    lo = np.maximum(np.maximum(t0, tz0), 0.0)
    hi = np.minimum(np.minimum(t1, tz1), 1 - 1e-6)
    hit: Array = (disc > 0) & (lo < hi)
    return hit


@dataclasses.dataclass(frozen=True)
class Force:
    """Conditions held fixed instead of drawn (for tests); None draws as usual."""

    tilt: float | None = None
    """Degrees from straight down."""
    hands: int | None = None
    glares: int | None = None
    shine: bool | None = None
    """False: the pegs' plastic has no highlights of its own."""


@dataclasses.dataclass(frozen=True)
class _Drawn:
    """What a test may check a picture against."""

    camera: Camera
    hand_cover: Image
    pegs: tuple[_Peg, ...]


def render(
    position: Position,
    rng: random.Random,
    *,
    size: tuple[int, int] = (1920, 1080),
    force: Force | None = None,
) -> KitRender:
    """A camera picture of ``position`` on the kit's printed board, with its truth per hole."""
    return _render(position, rng, size, force or Force())[0]


def _render(
    position: Position, rng: random.Random, size: tuple[int, int], force: Force
) -> tuple[KitRender, _Drawn]:
    """A camera picture of ``position`` on the kit's printed board, with its truth per hole."""
    kit = load_kit()
    board = position.board
    width, height = size
    nrng = np.random.default_rng(rng.getrandbits(63))
    words: list[str] = [f"board {board.name}"]

    # The sheet, its paper and its lie on the table.
    pad = [rng.uniform(0, 12) for _ in range(4)]
    sx0, sy0, sx1, sy1 = kit.sheet_box(board)
    box = (sx0 - pad[0], sy0 - pad[1], sx1 + pad[2], sy1 + pad[3])
    camera, cam = _draw_camera(kit, board, box, size, rng, force.tilt)
    words.append(
        f"camera hfov {cam['hfov']:.0f}deg fill {cam['fill']:.2f} tilt {cam['tilt']:.0f}deg "
        f"roll {cam['roll']:.0f}deg k1 {cam['k1']:+.3f} at {cam['distance']:.0f} mm"
    )
    paper = rng.choice(sorted(PAPERS))
    mat = rng.choice(MATS)
    curl = rng.uniform(0, 3) if rng.random() < 0.5 else 0.0
    curl_edge = rng.randrange(4)
    words.append(f"paper {paper}, mat {mat}, curl {curl:.1f} mm")

    # Light.
    kelvin = rng.uniform(2700, 6500)
    elevation = math.radians(rng.uniform(35, 80))
    azimuth = rng.uniform(0, 2 * math.pi)

    def light(k: float, el: float, az: float, power: float) -> _Light:
        direction = np.array(
            [math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)]
        )
        return _Light(blackbody_bgr(k), power, direction, k, el, az)

    main = light(kelvin, elevation, azimuth, 1.0)
    second = None
    if rng.random() < 0.3:
        choices = [
            k
            for k in (kelvin - rng.uniform(2000, 3500), kelvin + rng.uniform(2000, 3500))
            if 2000 <= k <= 9000
        ]
        k2 = rng.choice(choices)
        second = light(
            k2,
            math.radians(rng.uniform(25, 70)),
            rng.uniform(0, 2 * math.pi),
            rng.uniform(0.35, 0.8),
        )
    ambient = rng.uniform(0.3, 0.5)
    fall = rng.uniform(0, 0.5)
    ca, sa = math.cos(azimuth), math.sin(azimuth)
    projected = [x * ca + y * sa for x in (box[0], box[2]) for y in (box[1], box[3])]
    span = (max(projected) - min(projected)) * rng.uniform(1.0, 2.0)
    vignette = rng.uniform(0, 0.3)
    words.append(
        f"light {kelvin:.0f} K elevation {math.degrees(elevation):.0f}deg ambient {ambient:.2f} "
        f"falloff {fall:.2f} vignette {vignette:.2f}"
        + (f", second lamp {second.kelvin:.0f} K power {second.power:.2f}" if second else "")
    )
    paper_albedo = np.array(linear_bgr(kit.printed["paper"])) * np.array(PAPERS[paper])
    paper_white = float(luminance(paper_albedo) * (ambient + (1 - ambient) * math.sin(elevation)))
    glares = []
    glare_count = rng.choice((0, 0, 1, 1, 2))
    if force.glares is not None:
        glare_count = force.glares
    for _ in range(glare_count):
        lamp = second if second is not None and rng.random() < 0.4 else main
        glares.append(
            _Glare(
                rng.uniform(box[0], box[2]),
                rng.uniform(box[1], box[3]),
                rng.uniform(0.3, 2.0),
                rng.uniform(3, 10),
                rng.uniform(25, 70),
                rng.uniform(0.75, 0.92),
                lamp.colour,
            )
        )
    words.append(
        "glare " + (", ".join(f"{g.peak:.2f} at ({g.x:.0f},{g.y:.0f})" for g in glares) or "none")
    )
    scene = _Scene(
        kit,
        board,
        camera,
        box,
        curl_edge,
        curl,
        rng.uniform(30, 80),
        main,
        second,
        ambient,
        (fall, min(projected), span),
        tuple(glares),
        paper_white,
        rng.uniform(25, 70),
        rng.uniform(0.25, 0.6) * (0.0 if force.shine is False else 1.0),
        rng.uniform(0.5, 1.0),
    )

    # Pegs.
    radius = kit.peg_diameter / 2
    batches = {
        Seen.RED: _plastic(kit.colours["red"], rng),
        Seen.BLUE: _plastic(kit.colours["blue"], rng),
    }
    pegs: list[_Peg] = []
    seen: list[Seen] = []
    for hole in range(board.size):
        peg_here = position.peg_at(hole)
        kind = Seen.of(peg_here)
        seen.append(kind)
        if peg_here is None:
            continue
        x, y = kit.hole_mm(board, hole)
        base = -float(scene.lift(np.array(x), np.array(y)))
        h = (position.height_at(hole) or 0) * kit.height_step
        rgb = [min(255.0, max(0.0, c + rng.uniform(-8, 8))) for c in batches[kind]]
        pegs.append(_Peg(hole, x, y, base, base - h, linear_bgr(rgb)))

    # Hands.
    hands: list[_Hand] = []
    hand_rng = random.Random(rng.getrandbits(64))  # the hands do not shift later draws
    hand_count = (1 if rng.random() < 0.75 else 2) if rng.random() < 0.35 else 0
    if force.hands is not None:
        hand_count = force.hands
    if hand_count:
        for _ in range(hand_count):
            hands.append(_make_hand(scene, hand_rng))
    words.append(
        "hands "
        + (
            ", ".join(f"{h.height:.0f} mm up skin {luminance(np.array(h.skin)):.2f}" for h in hands)
            or "none"
        )
    )

    # Where each pixel's ray meets the table (or the sheet on it).
    step = 4
    gw, gh = -(-width // step), -(-height // step)
    gu = (np.arange(gw) * step + (step - 1) / 2).astype(np.float64)
    gv = (np.arange(gh) * step + (step - 1) / 2).astype(np.float64)
    uu, vv = np.meshgrid(gu, gv)
    dirs = camera.rays(uu, vv)
    o = camera.centre
    plane_z = np.zeros(uu.shape)
    for _ in range(3):
        t = (plane_z - o[2]) / dirs[..., 2]
        px, py = o[0] + t * dirs[..., 0], o[1] + t * dirs[..., 1]
        plane_z = -scene.lift(px, py)
    coarse_x, coarse_y = px.astype(np.float32), py.astype(np.float32)

    def upscale(a: Floats, factor: int) -> Floats:
        big = cv2.resize(a, (gw * factor, gh * factor), interpolation=cv2.INTER_LINEAR)
        out: Floats = big[: height * factor // step, : width * factor // step]
        return out

    map_x, map_y = upscale(coarse_x, step), upscale(coarse_y, step)

    # The sheet's texture: printed, pits drawn, as linear 16-bit, warped at 2x then averaged.
    mm_per_px = float(
        np.median(np.hypot(np.diff(coarse_x, axis=1), np.diff(coarse_y, axis=1))) / step
    )
    s = int(min(12, max(4, math.ceil(2 / mm_per_px))))
    printed = _printed(board.name, s)
    paper_srgb = tuple(int(c) for c in reversed(kit.printed["paper"]))
    pads = [round(p * s) for p in pad]
    tex = cv2.copyMakeBorder(
        printed, pads[1], pads[3], pads[0], pads[2], cv2.BORDER_CONSTANT, value=paper_srgb
    )
    tex_x0, tex_y0 = sx0 - pads[0] / s, sy0 - pads[1] / s
    toward = (ca, sa)
    wall_rgb = [rng.uniform(150, 200), rng.uniform(120, 160), rng.uniform(90, 120)]
    lit = min(1.0, math.cos(elevation) / max(0.3, math.sin(elevation)) * 0.8)
    wall = (int(wall_rgb[2] * lit), int(wall_rgb[1] * lit), int(wall_rgb[0] * lit))
    floor = (int(wall_rgb[2] * 0.12), int(wall_rgb[1] * 0.12), int(wall_rgb[0] * 0.12))
    pit_depth = rng.uniform(6, 12)
    for hole in range(board.size):
        if seen[hole] is not Seen.EMPTY:
            continue
        hx, hy = kit.hole_mm(board, hole)
        centre = ((hx - tex_x0) * s - 0.5, (hy - tex_y0) * s - 0.5)
        shift = min(kit.hole_diameter * 0.45, 1.2 + 0.25 * pit_depth / math.tan(elevation)) * s
        _draw_pit(tex, centre, kit.hole_diameter / 2 * s, toward, shift, wall, floor)
    lut = to_linear_u16()
    tex16 = np.empty((*tex.shape[:2], 4), np.uint16)
    tex16[..., :3] = lut[tex]
    tex16[..., 3] = 65535
    big_x = (upscale(coarse_x, 2 * step) - tex_x0) * s - 0.5
    big_y = (upscale(coarse_y, 2 * step) - tex_y0) * s - 0.5
    warped = cv2.remap(
        tex16,
        big_x,
        big_y,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    del big_x, big_y
    sheet = cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    sheet *= 1 / 65535
    alpha = sheet[..., 3:4]
    sheet_rgb = sheet[..., :3] * np.array(PAPERS[paper], np.float32)

    # The table: mat texture and shadows on the plane, on a grid around what the camera sees.
    rx0, rx1 = float(np.percentile(coarse_x, 0.5)) - 40, float(np.percentile(coarse_x, 99.5)) + 40
    ry0, ry1 = float(np.percentile(coarse_y, 0.5)) - 40, float(np.percentile(coarse_y, 99.5)) + 40
    rx0, ry0 = max(rx0, box[0] - 1500), max(ry0, box[1] - 1500)
    rx1, ry1 = min(rx1, box[2] + 1500), min(ry1, box[3] + 1500)
    mat_mm = max(1.0, max(rx1 - rx0, ry1 - ry0) / 900)
    mat_tex = _mat(
        mat, (int((ry1 - ry0) / mat_mm) + 1, int((rx1 - rx0) / mat_mm) + 1), mat_mm, rng, nrng
    )
    mat_img = cv2.remap(
        mat_tex,
        (map_x - rx0) / mat_mm - 0.5,
        (map_y - ry0) / mat_mm - 0.5,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    albedo = sheet_rgb + (1 - alpha) * mat_img
    del mat_img, sheet_rgb, warped

    sh_mm = max(0.5, max(rx1 - rx0, ry1 - ry0) / 1800)
    sh_shape = (int((ry1 - ry0) / sh_mm) + 1, int((rx1 - rx0) / sh_mm) + 1)
    cot = 1 / math.tan(elevation)

    def to_sh(x: float | Array, y: float | Array) -> tuple[Array, Array]:
        return (np.asarray(x) - rx0) / sh_mm - 0.5, (np.asarray(y) - ry0) / sh_mm - 0.5

    shadow = np.ones(sh_shape, np.float32)
    for peg in pegs:
        h = peg.base - peg.top
        a = to_sh(peg.x, peg.y)
        b = to_sh(peg.x - h * cot * ca, peg.y - h * cot * sa)
        sh16 = 16
        cv2.line(
            shadow,
            (int(a[0] * sh16), int(a[1] * sh16)),
            (int(b[0] * sh16), int(b[1] * sh16)),
            0.0,
            max(1, round(kit.peg_diameter / sh_mm)),
            cv2.LINE_AA,
            4,
        )
    sigma = max(0.5, 0.8 / sh_mm)
    shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
    if hands:
        hand_shadow = np.zeros(sh_shape, np.uint8)
        for hand in hands:
            for part in hand.parts:
                hz = -part[:, 2]
                sx, sy = to_sh(part[:, 0] - hz * cot * ca, part[:, 1] - hz * cot * sa)
                _fill(hand_shadow, np.stack([sx, sy], axis=1))
        # the lamp is not a point: the penumbra widens with the height
        soft = max(hand.height for hand in hands) * rng.uniform(0.03, 0.08) / sh_mm
        hand_lit = 1 - cv2.GaussianBlur(hand_shadow, (0, 0), soft).astype(np.float32) / 255
        shadow = np.minimum(shadow, hand_lit)
    sh_x, sh_y = to_sh(map_x.astype(np.float64), map_y.astype(np.float64))
    shadow_img = cv2.remap(
        shadow,
        sh_x.astype(np.float32),
        sh_y.astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )

    # Light on the plane.
    mx, my = map_x.astype(np.float64), map_y.astype(np.float64)
    main_i = scene.main_intensity(mx, my).astype(np.float32)
    direct = (ambient + (1 - ambient) * math.sin(elevation) * shadow_img) * main_i
    irradiance = direct[..., None] * np.array(main.colour, np.float32)
    if second is not None:
        sec = (scene.second_intensity(mx, my) * math.sin(second.elevation)).astype(np.float32)
        irradiance += sec[..., None] * np.array(second.colour, np.float32)
    radiance = albedo * irradiance
    del albedo, irradiance
    if glares:
        gloss = MAT_GLOSS + (1 - MAT_GLOSS) * alpha
        g = scene.glare_bgr(mx, my).astype(np.float32)
        radiance += g * gloss
    del mx, my

    # Pegs, the farthest first.
    up = np.array([0.0, 0.0, -1.0])
    order = sorted(pegs, key=lambda p: -float(np.linalg.norm(np.array([p.x, p.y, p.top]) - o)))
    for peg in order:
        ring = np.array(
            [
                (peg.x + radius * math.cos(t), peg.y + radius * math.sin(t), z)
                for t in np.linspace(0, 2 * math.pi, 24, endpoint=False)
                for z in (peg.top, peg.base)
            ]
        )
        uv, _ = camera.project(ring)
        u0, v0 = max(0, int(uv[:, 0].min()) - 2), max(0, int(uv[:, 1].min()) - 2)
        u1, v1 = min(width, int(uv[:, 0].max()) + 3), min(height, int(uv[:, 1].max()) + 3)
        if u1 <= u0 or v1 <= v0:
            continue
        su = np.arange(u0, u1, 0.5) - 0.25
        sv = np.arange(v0, v1, 0.5) - 0.25
        suu, svv = np.meshgrid(su, sv)
        d = camera.rays(suu, svv)
        t_side, t_top = _ray_cylinder(o, d, peg, radius)
        t_hit = np.minimum(t_side, t_top)
        hit = np.isfinite(t_hit)
        if not hit.any():
            continue
        th = np.where(hit, t_hit, 0.0)
        p = o + th[..., None] * d
        rel = p[..., :2] - np.array([peg.x, peg.y])
        rho = np.hypot(rel[..., 0], rel[..., 1])
        radial = np.zeros(p.shape)
        radial[..., :2] = rel / np.maximum(rho, 1e-9)[..., None]
        on_top = t_top <= t_side
        top_n = _top_normals(radial, rho, radius, scene.chamfer)
        below = p[..., 2] - peg.top  # mm below the top edge
        angle = math.pi / 2 - (math.pi / 4) * np.clip(1 - below / scene.chamfer, 0, 1)
        side_n = np.cos(angle)[..., None] * up + np.sin(angle)[..., None] * radial
        normals = np.where(on_top[..., None], top_n, side_n)
        view = -d / np.linalg.norm(d, axis=-1, keepdims=True)
        sx, sy = to_sh(peg.x, peg.y)
        # the peg's own side away from the lamp is its own shade; other shadows at its foot
        shade_here = float(cv2.getRectSubPix(shadow, (1, 1), (float(sx), float(sy)))[0, 0])
        hand_here = shade_here if shade_here < 0.6 else 1.0
        intensity = float(scene.main_intensity(np.array(peg.x), np.array(peg.y)))
        lamb = np.clip(normals @ main.direction, 0, None)
        diffuse = (ambient + (1 - ambient) * lamb * hand_here)[..., None] * (
            intensity * np.array(main.colour)
        )
        if second is not None:
            l2 = np.clip(normals @ second.direction, 0, None)
            diffuse = diffuse + (
                l2 * float(scene.second_intensity(np.array(peg.x), np.array(peg.y)))
            )[..., None] * np.array(second.colour)
        spec = _peg_specular(scene, normals, view, p[..., :2], on_top.astype(float))
        colour = np.array(peg.albedo) * diffuse + spec * (0.3 + 0.7 * hand_here)
        colour = np.where(hit[..., None], colour, 0.0)
        hh, ww = v1 - v0, u1 - u0
        cov = hit.reshape(hh, 2, ww, 2).mean(axis=(1, 3)).astype(np.float32)
        col = colour.reshape(hh, 2, ww, 2, 3).mean(axis=(1, 3)).astype(np.float32)
        radiance[v0:v1, u0:u1] = radiance[v0:v1, u0:u1] * (1 - cov[..., None]) + col

    # Hands, lowest first, in front of everything below them.
    hand_cov = np.zeros((height, width), np.uint8)
    for hand in sorted(hands, key=lambda h: -h.height):
        mask = np.zeros((height, width), np.uint8)
        shade = np.zeros((height, width), np.float32)
        for part, half in zip(hand.parts, hand.halves, strict=True):
            uv, depth = camera.project(part)
            if not np.all(depth > 1):
                continue
            u0, v0 = max(0, int(uv[:, 0].min()) - 2), max(0, int(uv[:, 1].min()) - 2)
            u1 = min(width, int(uv[:, 0].max()) + 3)
            v1 = min(height, int(uv[:, 1].max()) + 3)
            if u1 <= u0 or v1 <= v0:
                continue
            local = np.zeros((v1 - v0, u1 - u0), np.uint8)
            _fill(local, uv - np.array([u0, v0]))
            mask[v0:v1, u0:u1] = np.maximum(mask[v0:v1, u0:u1], local)
            # rounded like a limb: darker towards the part's outline
            dist = cv2.distanceTransform((local > 127).astype(np.uint8), cv2.DIST_L2, 5)
            half_px = half * camera.focal / max(float(np.median(depth)), 1.0)
            profile = np.sqrt(np.clip(dist / half_px, 0, 1)).astype(np.float32)
            shade[v0:v1, u0:u1] = np.maximum(shade[v0:v1, u0:u1], profile)
        if not mask.any():
            continue
        shade = 0.45 + 0.55 * shade
        shade *= 1 + 0.04 * _noise((height, width), 6.0, nrng)
        light_on = (
            (ambient + (1 - ambient) * math.sin(elevation) * shade)[..., None]
            * np.array(main.colour, np.float32)
            * float(np.mean(main_i))
        )
        if second is not None:
            light_on = light_on + (second.power * math.sin(second.elevation) * 0.8 * shade)[
                ..., None
            ] * np.array(second.colour, np.float32)
        skin = np.array(hand.skin, np.float32) * light_on + 0.025 * (shade**6)[..., None] * (
            np.array(main.colour, np.float32)
        )
        cover = (mask.astype(np.float32) / 255)[..., None]
        radiance = radiance * (1 - cover) + skin * cover
        hand_cov = np.maximum(hand_cov, mask)
    del main_i, shadow_img

    # Optics: vignetting, defocus, motion.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xx - (width - 1) / 2) ** 2 + (yy - (height - 1) / 2) ** 2) / (
        ((width - 1) / 2) ** 2 + ((height - 1) / 2) ** 2
    )
    radiance *= (1 - vignette * r2)[..., None]
    del xx, yy, r2
    blur = rng.uniform(0, 1.5)
    if blur > 0.3:
        radiance = cv2.GaussianBlur(radiance, (0, 0), blur)
    motion = ""
    if rng.random() < 0.1:
        length = rng.uniform(2, 6)
        streak = rng.uniform(0, math.pi)
        k = math.ceil(length) * 2 + 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        cv2.line(
            kernel,
            (
                round((c - length / 2 * math.cos(streak)) * 16),
                round((c - length / 2 * math.sin(streak)) * 16),
            ),
            (
                round((c + length / 2 * math.cos(streak)) * 16),
                round((c + length / 2 * math.sin(streak)) * 16),
            ),
            1.0,
            1,
            cv2.LINE_AA,
            4,
        )
        kernel /= kernel.sum()
        radiance = cv2.filter2D(radiance, -1, kernel)
        motion = f", motion {length:.1f} px"

    # The sensor: white balance, exposure, clipping, noise, Bayer, tone curve, JPEG.
    sample = radiance[::4, ::4].reshape(-1, 3)
    awb = rng.random() < 0.6
    if awb:
        means = sample.mean(axis=0)
        gains = (float(luminance(means)) / np.maximum(means, 1e-6)).astype(np.float32)
    else:
        gains = np.ones(3, np.float32)
    target = rng.uniform(0.85, 1.0)
    exposure = target / max(float(np.percentile(luminance(sample * gains), 99)), 1e-6)
    raw = np.minimum(radiance * np.float32(exposure), 1.0)
    del radiance
    read = rng.uniform(1, 4) / 255
    shot = rng.uniform(1 / 10000, 1 / 1500)
    bayer = rng.random() < 0.7
    if bayer:
        mosaic = np.empty((height, width), np.float32)
        mosaic[0::2, 0::2] = raw[0::2, 0::2, 2]
        mosaic[0::2, 1::2] = raw[0::2, 1::2, 1]
        mosaic[1::2, 0::2] = raw[1::2, 0::2, 1]
        mosaic[1::2, 1::2] = raw[1::2, 1::2, 0]
        mosaic += np.sqrt(shot * mosaic + read * read) * nrng.standard_normal(
            mosaic.shape, np.float32
        )
        m16 = np.clip(mosaic * 65535, 0, 65535).astype(np.uint16)
        raw = cv2.cvtColor(m16, cv2.COLOR_BayerBG2BGR).astype(np.float32) * (1 / 65535)
    else:
        raw += np.sqrt(shot * raw + read * read) * nrng.standard_normal(raw.shape, np.float32)
    balanced = np.clip(raw * gains, 0, 1)
    image: Image = _to_srgb_u8()[(balanced * 4095 + 0.5).astype(np.int32)]
    del raw, balanced
    jpeg = ""
    if rng.random() < 0.85:
        quality = rng.randint(55, 95)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:  # pragma: no cover - encoding a plain array does not fail
            raise OSError("could not encode the picture as JPEG")
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if decoded is None:  # pragma: no cover - our own JPEG decodes
            raise OSError("could not decode the picture's JPEG")
        image = np.asarray(decoded, np.uint8)
        jpeg = f", jpeg q{quality}"
    words.append(
        f"sensor {'bayer' if bayer else 'rgb'} read {read * 255:.1f}/255, "
        f"{'grey-world' if awb else 'daylight'} balance, exposure p99 {target:.2f}, "
        f"blur {blur if blur > 0.3 else 0:.1f} px{motion}{jpeg}"
    )

    holes = _truth(scene, pegs, seen, hand_cov)
    return KitRender(image, holes, "; ".join(words)), _Drawn(camera, hand_cov, tuple(pegs))


def _truth(
    scene: _Scene, pegs: list[_Peg], seen: list[Seen], hand_cov: Image
) -> tuple[HoleTruth, ...]:
    """Each hole's truth from the 3D scene: the disc on the surface and on a peg's top tested
    against the hands' masks, against other pegs between it and the camera, and for glare."""
    kit, board, camera = scene.kit, scene.board, scene.camera
    radius = kit.peg_diameter / 2
    height, width = hand_cov.shape
    angles = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    rim = np.stack([np.cos(angles), np.sin(angles)], axis=1) * DISC_RADIUS
    inner = np.concatenate(
        [np.zeros((1, 2)), rim * 0.5, rim * 0.25, rim[::2] * 0.75, rim]
    )  # the disc, sampled
    by_hole = {peg.hole: peg for peg in pegs}
    covering = (hand_cov > HAND_LIMIT * 255).astype(np.uint8)
    covering = cv2.dilate(covering, np.ones((3, 3), np.uint8))
    out = []
    for hole in range(board.size):
        x, y = kit.hole_mm(board, hole)
        surface = -float(scene.lift(np.array(x), np.array(y)))
        peg = by_hole.get(hole)
        discs = [surface] if peg is None else [surface, peg.top]
        hidden: str | None = None
        # hands: any part of the projected disc under any part of a hand or arm
        for z in discs:
            pts = np.column_stack([x + rim[:, 0], y + rim[:, 1], np.full(len(rim), z)])
            uv, _ = camera.project(pts)
            u0, v0 = max(0, int(uv[:, 0].min()) - 1), max(0, int(uv[:, 1].min()) - 1)
            u1, v1 = min(width, int(uv[:, 0].max()) + 2), min(height, int(uv[:, 1].max()) + 2)
            local = np.zeros((max(1, v1 - v0), max(1, u1 - u0)), np.uint8)
            shifted = (uv - np.array([u0, v0])) * 16
            cv2.fillConvexPoly(local, np.round(shifted).astype(np.int32), 1, cv2.LINE_8, 4)
            if np.any(local & covering[v0:v1, u0:u1]):
                hidden = "hand"
        # pegs: the disc that shows (the top when a peg stands here) seen past other pegs
        z_seen = discs[-1]
        pts = np.column_stack([x + inner[:, 0], y + inner[:, 1], np.full(len(inner), z_seen)])
        if hidden is None:
            for other in pegs:
                if other.hole != hole and np.any(
                    _segment_hits_peg(camera.centre, pts, other, radius + 0.1)
                ):
                    hidden = "peg"
                    break
        if hidden is None and _washed_out(scene, pts, (x, y), peg is not None):
            hidden = "glare"
        out.append(HoleTruth(seen[hole], hidden is None, hidden))
    return tuple(out)


def _washed_out(scene: _Scene, pts: Array, centre: tuple[float, float], on_peg: bool) -> bool:
    """Whether specular light adds more than half the paper's white anywhere on the disc."""
    if not on_peg:
        return bool(scene.glares) and float(np.max(scene.glare(pts[:, 0], pts[:, 1]))) > (
            GLARE_LIMIT
        )
    radius = scene.kit.peg_diameter / 2
    rel = pts[:, :2] - np.array(centre)
    rho = np.hypot(rel[:, 0], rel[:, 1])
    radial = np.zeros(pts.shape)
    radial[:, :2] = rel / np.maximum(rho, 1e-9)[:, None]
    normals = _top_normals(radial, rho, radius, scene.chamfer)
    view = scene.camera.centre - pts
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    spec = _peg_specular(scene, normals, view, pts[:, :2], np.ones(len(pts)))
    return float(np.max(luminance(spec))) / scene.paper_white > GLARE_LIMIT


# The command ----------------------------------------------------------------------------------


def random_position(rng: random.Random) -> Position:
    """A setup and 0-40 random legal moves from it."""
    position = SETUPS[rng.choice(sorted(SETUPS))]
    for _ in range(rng.randint(0, 40)):
        codes = legal_codes(position)
        if not codes:
            break
        position = after(position, rng.choice(codes))
    return position


def write_set(
    out: Path, count: int, seed: int = 0, *, log: Callable[[str], None] | None = None
) -> list[Path]:
    """Write ``count`` pictures and ``truth.json`` to ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    pictures = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        position = random_position(rng)
        start = time.perf_counter()
        drawn = render(position, rng)
        took = time.perf_counter() - start
        name = f"kit-{seed}-{i:03d}.png"
        path = out / name
        ok, data = cv2.imencode(".png", drawn.image)
        if not ok:  # pragma: no cover - encoding a plain array does not fail
            raise OSError(f"could not encode {name}")
        path.write_bytes(data.tobytes())
        written.append(path)
        pictures.append(
            {
                "file": name,
                "position": position.text(),
                "description": drawn.description,
                "holes": [
                    {
                        "hole": position.board.names[h],
                        "seen": t.seen.value,
                        "visible": t.visible,
                        "hidden_by": t.hidden_by,
                    }
                    for h, t in enumerate(drawn.holes)
                ],
            }
        )
        if log is not None:
            log(f"{name}: {took:.2f} s; {drawn.description}")
    truth = out / "truth.json"
    truth.write_text(json.dumps({"seed": seed, "pictures": pictures}, indent=1), "utf-8")
    written.append(truth)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    write_set(args.out, args.count, args.seed, log=print)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
