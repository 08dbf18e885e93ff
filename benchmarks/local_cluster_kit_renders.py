"""Camera pictures of a Local Cluster table drawn from the kit document alone, to test the board
recognizer on pictures it was not tuned to.

The renderer is independent of the recognizer and of its own test pictures: it knows the kit from
``docs/physical-kit.md`` and the numbers in ``vision/local_cluster/kit/local-cluster-kit.json``
(slot centres, colours), and draws the tile faces, tokens and calibration card itself from that
geometry. Every condition is drawn at random per picture from ``rng``; the truth (what lies on
each slot, whether a hand or a highlight comes near it, whether each marker is in plain view) is
computed from the same scene the picture is drawn from.

The scene is in table millimetres: x to the right, y down, z *into* the table (a point ``h`` mm
above the table has ``z = -h``); a camera looking straight down has the identity rotation.

``python -m benchmarks.local_cluster_kit_renders --out DIR --count N [--seed S] [--size WxH]``
writes N PNGs and ``truth.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import random
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.kit_photography import (
    Camera,
    blackbody_bgr,
    encode,
    linear_bgr,
    look,
    luminance,
    to_linear_u16,
)
from companion.local_cluster.galaxy import Tile
from companion.local_cluster.generation import tile_variant

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Array = npt.NDArray[np.float64]
BGR = tuple[float, float, float]
RGB = tuple[int, int, int]

KIT_FILE = (
    Path(__file__).resolve().parent.parent
    / "vision"
    / "local_cluster"
    / "kit"
    / "local-cluster-kit.json"
)

# The kit, as docs/physical-kit.md gives it (millimetres) ------------------------------------------

TILE = 130.0
FACE_BLEED = 2.0
EDGE_LINE = 1.5
WHITE_SIDE = 54.0
MARKER_SIDE = 46.0
SLOT_LINE = 1.5
LABEL_HEIGHT = 6.0
TOKEN_SCALE = 0.94
TOKEN_BLEED = 1.0
TOKEN_CUT_LINE = 0.25
TOKEN_OFFSET = 3.0
TOKEN_TURN = 10.0
UNIT_INRADIUS = 14.0 * TOKEN_SCALE
GLYPHS = {"destroyer": (0.0, 0.34), "battleship": (0.0, 0.62), "carrier": (0.32, 0.62)}
CARD_SIZE = (270.0, 190.0)
CARD_MARKERS = {96: (36.0, 36.0), 97: (234.0, 36.0), 98: (234.0, 154.0), 99: (36.0, 154.0)}
CARD_MARKER_FRAME = 60.0
CARD_WHITE = ((72.0, 10.0), (198.0, 50.0))
CARD_INK = ((72.0, 140.0), (198.0, 180.0))
CARD_SWATCH = 24.0
CARD_PROBE = 10.0
CARD_CUT_LINE = 0.3
CARD_SWATCHES = {
    "red": (80.0, 76.0),
    "green": (107.0, 76.0),
    "blue": (134.0, 76.0),
    "yellow": (161.0, 76.0),
    "aqua": (188.0, 76.0),
    "purple": (80.0, 114.0),
    "pink": (107.0, 114.0),
    "white": (134.0, 114.0),
    "tile": (161.0, 114.0),
    "mineral": (188.0, 114.0),
}
SLOT_NAMES = (
    "claim",
    "unit",
    "mineral1",
    "mineral2",
    "mineral3",
    "mineral4",
    "craft1",
    "craft2",
    "craft3",
    "craft4",
    "craft5",
    "craft6",
)
UNITS = ("destroyer", "battleship", "carrier")

# Truth thresholds (the brief's) -------------------------------------------------------------------

NEAR_SLOT = 3.0
"""Millimetres: a hand or a highlight this near a slot's outline makes it occluded."""
SLOT_GLARE = 0.2
"""A highlight above this share of paper white near a slot makes it occluded."""
MARKER_GLARE = 0.5
"""A highlight above this share of paper white on a marker's white square hides the marker."""
COVER = 0.02
"""A picture pixel this much covered by a hand or arm counts as covered."""

# The world ----------------------------------------------------------------------------------------

MATS = ("wood", "green felt", "dark grey", "white cloth", "black", "red-brown", "busy pattern")
MAT_GLOSS = {
    "wood": 0.5,
    "green felt": 0.05,
    "dark grey": 0.2,
    "white cloth": 0.1,
    "black": 0.4,
    "red-brown": 0.3,
    "busy pattern": 0.15,
}
SKINS: tuple[RGB, ...] = (
    # sRGB, very light to very dark
    (252, 226, 210),
    (240, 200, 172),
    (226, 176, 140),
    (200, 142, 104),
    (168, 110, 76),
    (128, 82, 54),
    (92, 58, 40),
    (62, 40, 30),
)
CLOTHS: tuple[RGB, ...] = (
    (30, 30, 34),
    (40, 44, 70),
    (150, 30, 40),
    (40, 110, 60),
    (200, 200, 196),
    (60, 120, 190),
    (230, 180, 40),
    (90, 70, 60),
)
BOARDS: tuple[RGB, ...] = ((118, 120, 124), (150, 130, 100), (90, 88, 86), (190, 186, 176))
"""The greyboard or card the faces are glued on, seen where a face is glued off it."""
PAPER_GLOSS = 0.3
"""Glare on matt paper against on the faces' glossy dark toner (1)."""


@dataclasses.dataclass(frozen=True)
class SlotTruth:
    """One slot of one tile as the picture shows it."""

    slot: str
    """``'claim'``, ``'unit'``, ``'mineral1'``..``'mineral4'``, ``'craft1'``..``'craft6'``."""
    token: bool
    """A token lies on it."""
    colour: str | None
    """The empire colour (lower case) of a claim, unit or strike craft token, else None."""
    unit: str | None
    """``'destroyer'``, ``'battleship'`` or ``'carrier'`` for a unit token, else None."""
    occluded: bool
    """A hand or arm, or a highlight stronger than 0.2 of paper white (on the faces' dark toner),
    comes within 3 mm of the slot's outline."""


@dataclasses.dataclass(frozen=True)
class TileTruth:
    """One tile as the picture shows it."""

    sector: str
    """``'S1'``..``'S48'``."""
    marker_visible: bool
    """Nothing lies over any part of the marker's 54 mm white square and no highlight above 0.5
    of paper white (on toner) falls on it."""
    slots: tuple[SlotTruth, ...]
    """All 12 slots, in ``SLOT_NAMES`` order."""


@dataclasses.dataclass(frozen=True)
class LcRender:
    """A drawn picture with its truth."""

    image: Image
    """BGR, H x W x 3, after JPEG encoding and decoding when JPEG was drawn."""
    tiles: tuple[TileTruth, ...]
    px_per_mm: float
    """Picture pixels per table millimetre at the board's centre (geometric mean of the two
    directions)."""
    description: str
    """One line: the conditions drawn."""
    cells: Mapping[str, Tile] | None = None
    """Each tile's grid cell and quarter turns, as a game's map lays them (ruling R2.1): the
    tiles were laid there by hand, within 2 mm and 3 degrees."""


# The kit file -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Slot:
    name: str
    shape: str
    centre: tuple[float, float]
    radius: float


@dataclasses.dataclass(frozen=True)
class _Kit:
    variants: tuple[tuple[_Slot, ...], ...]
    colours: dict[str, RGB]
    tile: RGB
    line: RGB
    mineral: RGB
    ink: RGB
    paper: RGB


@functools.cache
def _kit() -> _Kit:
    data = json.loads(KIT_FILE.read_text())
    variants = []
    for v in sorted(data["variants"], key=lambda v: v["variant"]):
        by_name = {
            s["name"]: _Slot(
                s["name"],
                s["shape"],
                (float(s["centre"][0]), float(s["centre"][1])),
                float(s["radius"]),
            )
            for s in v["slots"]
        }
        variants.append(tuple(by_name[n] for n in SLOT_NAMES))
    printed = data["printed"]

    def rgb(v: Sequence[int]) -> RGB:
        return int(v[0]), int(v[1]), int(v[2])

    return _Kit(
        variants=tuple(variants),
        colours={k: rgb(v) for k, v in data["colours"].items()},
        tile=rgb(printed["tile"]),
        line=rgb(printed["slot_line"]),
        mineral=rgb(printed["mineral"]),
        ink=rgb(printed["ink"]),
        paper=rgb(printed["paper"]),
    )


# Colour -------------------------------------------------------------------------------------------


# Geometry -----------------------------------------------------------------------------------------


def _shape(shape: str, radius: float, grow: float = 0.0) -> Array:
    """A slot or token outline (N x 2, centred, y down) grown outward by ``grow`` mm.

    Triangles point up with circumradius ``radius``; hexagons have flat top and bottom and
    inradius ``radius``; circles have radius ``radius``. Polygons grow by their inradius."""
    if shape == "triangle":
        inr = radius / 2 + grow
        circ = 2 * inr
        a = np.radians([-90.0, 30.0, 150.0])
    elif shape == "hexagon":
        inr = radius + grow
        circ = inr / math.cos(math.pi / 6)
        a = np.radians(np.arange(6) * 60.0)
    else:
        circ = radius + grow
        a = np.linspace(0, 2 * math.pi, 72, endpoint=False)
    return np.stack([circ * np.cos(a), circ * np.sin(a)], axis=1)


def _rot(angle: float) -> Array:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


@dataclasses.dataclass(frozen=True)
class _Pose:
    """Local (mm) to table (mm): ``table = R(angle) @ local + (x, y)``."""

    x: float
    y: float
    angle: float

    def apply(self, pts: Array) -> Array:
        out: Array = pts @ _rot(self.angle).T + np.array([self.x, self.y])
        return out

    def then(self, inner: _Pose) -> _Pose:
        """The pose of a frame placed at ``inner`` within this one."""
        p = self.apply(np.array([[inner.x, inner.y]]))[0]
        return _Pose(float(p[0]), float(p[1]), self.angle + inner.angle)


def _square(side: float) -> Array:
    h = side / 2
    return np.array([[-h, -h], [h, -h], [h, h], [-h, h]])


def _poly_distance(a: Array, b: Array) -> float:
    """Least distance between two convex polygons; negative when they overlap."""
    best = math.inf
    for p, q in ((a, b), (b, a)):
        contour = q.astype(np.float32).reshape(-1, 1, 2)
        for pt in p:
            d = cv2.pointPolygonTest(contour, (float(pt[0]), float(pt[1])), True)
            best = min(best, -d)
    return best


# The scene ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Token:
    slot: str
    kind: str
    """``'claim'``, ``'unit'``, ``'mineral'``, ``'craft'``."""
    colour: str | None
    unit: str | None
    pose: _Pose
    """In the face's frame."""
    cut: float
    """Millimetres of colour left beyond the outline by the cut."""
    edge: float
    edge_light: bool
    shadow: float


@dataclasses.dataclass(frozen=True)
class _Tile:
    sector: int
    variant: int
    pose: _Pose
    """The card (greyboard) the face is glued on."""
    face: _Pose
    """The printed face, marker upright (contains the variant's turn by construction)."""
    cut: tuple[float, float, float, float]
    """The face's cut, mm outside its cut line on the left, top, right and bottom."""
    board: RGB
    tokens: tuple[_Token, ...]
    cell: Tile
    """The grid cell it was laid on and its quarter turns: the game's map (ruling R2.1)."""


@dataclasses.dataclass(frozen=True)
class _Glare:
    x: float
    y: float
    peak: float
    core: float
    halo: float
    core_share: float
    stretch: float
    angle: float
    colour: Floats

    def field(self, x: Array | Floats, y: Array | Floats) -> Floats:
        """Glare on glossy toner, in paper whites."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        dx, dy = x - self.x, y - self.y
        a = (dx * c + dy * s) / self.stretch
        b = -dx * s + dy * c
        d2 = a * a + b * b
        out: Floats = (
            self.peak
            * (
                self.core_share * np.exp(-d2 / (2 * self.core**2))
                + (1 - self.core_share) * np.exp(-d2 / (2 * self.halo**2))
            )
        ).astype(np.float32)
        return out


def _grid_cells(n: int, rng: random.Random) -> list[tuple[int, int]]:
    cells = [(0, 0)]
    while len(cells) < n:
        free = sorted(
            {(c[0] + dx, c[1] + dy) for c in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            - set(cells)
        )
        cells.append(rng.choice(free))
    return cells


def _tokens(variant: int, rng: random.Random) -> tuple[_Token, ...]:
    kit = _kit()
    slots = {s.name: s for s in kit.variants[variant]}
    colours = sorted(kit.colours)
    chosen: list[tuple[str, str, str | None, str | None]] = []
    if rng.random() < 0.5:
        chosen.append(("claim", "claim", rng.choice(colours), None))
    if rng.random() < 0.5:
        chosen.append(("unit", "unit", rng.choice(colours), rng.choice(UNITS)))
    for name in rng.sample([f"mineral{i}" for i in range(1, 5)], rng.randint(0, 4)):
        chosen.append((name, "mineral", None, None))
    craft_colours = rng.sample(colours, rng.choice((1, 2)))
    for name in rng.sample([f"craft{i}" for i in range(1, 7)], rng.randint(0, 6)):
        chosen.append((name, "craft", rng.choice(craft_colours), None))
    out = []
    for name, kind, colour, unit in chosen:
        centre = slots[name].centre
        r = TOKEN_OFFSET * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        out.append(
            _Token(
                slot=name,
                kind=kind,
                colour=colour,
                unit=unit,
                pose=_Pose(
                    centre[0] + r * math.cos(a),
                    centre[1] + r * math.sin(a),
                    math.radians(rng.uniform(-TOKEN_TURN, TOKEN_TURN)),
                ),
                cut=rng.uniform(0.0, TOKEN_BLEED),
                edge=rng.uniform(0.12, 0.3),
                edge_light=rng.random() < 0.6,
                shadow=rng.uniform(0.3, 1.0),
            )
        )
    return tuple(out)


def _layout(n: int, rng: random.Random) -> tuple[list[_Tile], _Pose]:
    """The tiles (connected on a square grid) and the card's pose (its centre)."""
    cells = _grid_cells(n, rng)
    sectors = rng.sample(range(1, 49), n)
    gap = rng.uniform(0.0, 4.0)
    pitch = TILE + gap
    placed: list[Array] = []
    tiles: list[_Tile] = []
    for cell, sector in zip(cells, sectors, strict=True):
        variant = tile_variant(sector)
        quarter = rng.randrange(4)
        scale = 1.0
        pose = _Pose(cell[0] * pitch, cell[1] * pitch, quarter * math.pi / 2)
        for attempt in range(30):
            if attempt < 8:
                pose = _Pose(
                    cell[0] * pitch + scale * rng.uniform(-2, 2),
                    cell[1] * pitch + scale * rng.uniform(-2, 2),
                    quarter * math.pi / 2 + scale * math.radians(rng.uniform(-3, 3)),
                )
                scale *= 0.6
            corners = pose.apply(_square(TILE))
            clash = [p for p in placed if _poly_distance(corners, p) < 0.1]
            if not clash:
                break
            # push away from the nearest clashing tile along the grid
            centre = np.mean(clash[0], axis=0)
            d = np.array([pose.x, pose.y]) - centre
            d = d / (np.linalg.norm(d) + 1e-9)
            pose = _Pose(pose.x + 0.5 * d[0], pose.y + 0.5 * d[1], pose.angle)
        placed.append(pose.apply(_square(TILE)))
        face = pose.then(
            _Pose(
                rng.uniform(-1, 1) / math.sqrt(2),
                rng.uniform(-1, 1) / math.sqrt(2),
                math.radians(rng.uniform(-1.5, 1.5)),
            )
        )
        tiles.append(
            _Tile(
                sector=sector,
                variant=variant,
                pose=pose,
                face=face,
                cut=(
                    rng.uniform(-0.4, 0.6),
                    rng.uniform(-0.4, 0.6),
                    rng.uniform(-0.4, 0.6),
                    rng.uniform(-0.4, 0.6),
                ),
                board=rng.choice(BOARDS),
                tokens=_tokens(variant, rng),
                cell=Tile(cell[0], cell[1], variant, quarter),
            )
        )
    # the card: beside the board, at any angle, 10-80 mm from the nearest tile
    centroid = np.mean([[t.pose.x, t.pose.y] for t in tiles], axis=0)
    card_angle = rng.uniform(0, 2 * math.pi)
    spacing = rng.uniform(10, 80)
    w, h = CARD_SIZE
    card_local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    direction = rng.uniform(0, 2 * math.pi)
    dv = np.array([math.cos(direction), math.sin(direction)])
    r = 2000.0
    while r > 0:
        c = centroid + r * dv
        corners = _Pose(float(c[0]), float(c[1]), card_angle).apply(card_local)
        if min(_poly_distance(corners, p) for p in placed) < spacing:
            r += 5.0
            break
        r -= 5.0
    c = centroid + r * dv
    return tiles, _Pose(float(c[0]), float(c[1]), card_angle)


# Drawing the printed things -----------------------------------------------------------------------


def _coverage(lo: float, hi: float, n: int) -> Floats:
    """How much of each pixel 0..n-1 (centres at integers) lies in [lo, hi] (pixel units)."""
    i = np.arange(n, dtype=np.float64)
    out: Floats = np.clip(np.minimum(i + 0.5, hi) - np.maximum(i - 0.5, lo), 0, 1).astype(
        np.float32
    )
    return out


def _fill_rect(canvas: Floats, x0: float, y0: float, x1: float, y1: float, colour: RGB) -> None:
    """Fill an axis-aligned rectangle (pixel units) with exact area anti-aliasing."""
    h, w = canvas.shape[:2]
    cx = _coverage(x0, x1, w)
    cy = _coverage(y0, y1, h)
    xs, ys = np.nonzero(cx)[0], np.nonzero(cy)[0]
    if len(xs) == 0 or len(ys) == 0:
        return
    sx, sy = slice(xs[0], xs[-1] + 1), slice(ys[0], ys[-1] + 1)
    m = np.outer(cy[sy], cx[sx])[..., None]
    col = np.array(colour[::-1], np.float32)
    canvas[sy, sx] = canvas[sy, sx] * (1 - m) + col * m


def _fill_bits(canvas: Floats, x0: float, y0: float, cell: float, bits: Image, colour: RGB) -> None:
    """Fill the cells of ``bits`` that are 0 (black) with exact area anti-aliasing."""
    h, w = canvas.shape[:2]
    n = bits.shape[0]
    ax = np.stack([_coverage(x0 + i * cell, x0 + (i + 1) * cell, w) for i in range(n)], axis=1)
    ay = np.stack([_coverage(y0 + i * cell, y0 + (i + 1) * cell, h) for i in range(n)], axis=1)
    black = (bits < 128).astype(np.float32)
    xs, ys = np.nonzero(ax.sum(axis=1))[0], np.nonzero(ay.sum(axis=1))[0]
    if len(xs) == 0 or len(ys) == 0:
        return
    sx, sy = slice(xs[0], xs[-1] + 1), slice(ys[0], ys[-1] + 1)
    m = (ay[sy] @ black @ ax[sx].T)[..., None]
    col = np.array(colour[::-1], np.float32)
    canvas[sy, sx] = canvas[sy, sx] * (1 - m) + col * m


@functools.cache
def _marker_bits(marker: int) -> Image:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_100)
    bits: Image = cv2.aruco.generateImageMarker(dictionary, marker, 7, borderBits=1)
    return bits


def _fill_poly(canvas: Floats | Image, pts: Array, colour: Sequence[float]) -> None:
    cv2.fillPoly(
        canvas,
        [np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)],
        tuple(float(c) for c in colour),
        lineType=cv2.LINE_AA,
        shift=4,
    )


def _marker_block(
    canvas: Floats, cx: float, cy: float, ppm: float, marker: int, paper: RGB, ink: RGB
) -> None:
    """The 54 mm white square and the 46 mm marker centred on (cx, cy) pixels."""
    hw, hm = WHITE_SIDE / 2 * ppm, MARKER_SIDE / 2 * ppm
    _fill_rect(canvas, cx - hw, cy - hw, cx + hw, cy + hw, paper)
    _fill_bits(canvas, cx - hm, cy - hm, MARKER_SIDE / 7 * ppm, _marker_bits(marker), ink)


def _draw_face(sector: int, ppm: float) -> Floats:
    """A tile face, marker upright, including its bleed: sRGB BGR floats, centre at the middle."""
    kit = _kit()
    size = math.ceil((TILE + 2 * FACE_BLEED) * ppm) + 2
    c = (size - 1) / 2
    canvas = np.empty((size, size, 3), np.float32)
    canvas[:] = np.array(kit.tile[::-1], np.float32)
    h = TILE / 2 * ppm
    _fill_rect(canvas, c - h, c - h, c + h, c + h, kit.line)
    e = (TILE / 2 - EDGE_LINE) * ppm
    _fill_rect(canvas, c - e, c - e, c + e, c + e, kit.tile)
    _marker_block(canvas, c, c, ppm, sector, kit.paper, kit.ink)
    bg = kit.tile[::-1]
    for slot in kit.variants[tile_variant(sector)]:
        centre = np.array(slot.centre)
        outer = (_shape(slot.shape, slot.radius, SLOT_LINE / 2) + centre) * ppm + c
        inner = (_shape(slot.shape, slot.radius, -SLOT_LINE / 2) + centre) * ppm + c
        _fill_poly(canvas, outer, kit.line[::-1])
        _fill_poly(canvas, inner, bg)
    # the label: 6 mm tall at (-45.5, 0) turned with the variant (the text itself upright)
    a = tile_variant(sector) * math.pi / 2
    lx, ly = _rot(a) @ np.array([-45.5, 0.0])
    text = f"S{sector}"
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = LABEL_HEIGHT * ppm / th
    thick = max(1, round(0.9 * ppm))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(c + lx * ppm - tw / 2), round(c + ly * ppm + th / 2))
    ink = np.zeros(canvas.shape[:2], np.uint8)
    cv2.putText(ink, text, org, font, scale, (255,), thick, cv2.LINE_AA)
    m = (ink.astype(np.float32) / 255.0)[..., None]
    canvas[:] = canvas * (1 - m) + np.array(kit.line[::-1], np.float32) * m
    return canvas


def _draw_card(ppm: float) -> Floats:
    """The calibration card, markers upright: sRGB BGR floats, origin at the top-left corner."""
    kit = _kit()
    w, h = math.ceil(CARD_SIZE[0] * ppm) + 1, math.ceil(CARD_SIZE[1] * ppm) + 1
    canvas = np.empty((h, w, 3), np.float32)
    canvas[:] = np.array(kit.paper[::-1], np.float32)

    def rect(x0: float, y0: float, x1: float, y1: float, colour: RGB) -> None:
        _fill_rect(canvas, x0 * ppm - 0.5, y0 * ppm - 0.5, x1 * ppm - 0.5, y1 * ppm - 0.5, colour)

    for marker, (mx, my) in CARD_MARKERS.items():
        f = CARD_MARKER_FRAME / 2
        rect(mx - f, my - f, mx + f, my + f, kit.tile)
        _marker_block(canvas, mx * ppm - 0.5, my * ppm - 0.5, ppm, marker, kit.paper, kit.ink)
    (wx0, wy0), (wx1, wy1) = CARD_WHITE
    p = CARD_PROBE / 2
    rect(
        (wx0 + wx1) / 2 - p, (wy0 + wy1) / 2 - p, (wx0 + wx1) / 2 + p, (wy0 + wy1) / 2 + p, kit.ink
    )
    for name, (sx, sy) in CARD_SWATCHES.items():
        colour = kit.colours.get(name) or {"tile": kit.tile, "mineral": kit.mineral}[name]
        s = CARD_SWATCH / 2
        rect(sx - s, sy - s, sx + s, sy + s, colour)
        rect(sx - p, sy - p, sx + p, sy + p, kit.ink)
    (ix0, iy0), (ix1, iy1) = CARD_INK
    rect(ix0, iy0, ix1, iy1, kit.ink)
    return canvas


class _Plane:
    """The table's printed things, drawn flat in table millimetres at ``ppm`` pixels a mm:
    premultiplied sRGB (BGR) and coverage (A), 0..255 floats, transparent where bare mat."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float, ppm: float) -> None:
        self.x0, self.y0, self.ppm = x0, y0, ppm
        w = math.ceil((x1 - x0) * ppm) + 1
        h = math.ceil((y1 - y0) * ppm) + 1
        self.rgba = np.zeros((h, w, 4), np.float32)

    def px(self, pts: Array) -> Array:
        out: Array = (pts - np.array([self.x0, self.y0])) * self.ppm
        return out

    def _roi(self, pts_px: Array, pad: float) -> tuple[slice, slice, int, int] | None:
        h, w = self.rgba.shape[:2]
        x0 = max(0, math.floor(pts_px[:, 0].min() - pad))
        y0 = max(0, math.floor(pts_px[:, 1].min() - pad))
        x1 = min(w, math.ceil(pts_px[:, 0].max() + pad) + 1)
        y1 = min(h, math.ceil(pts_px[:, 1].max() + pad) + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        return slice(y0, y1), slice(x0, x1), x0, y0

    def shadow(self, pts: Array, shift: Array, blur: float, strength: float) -> None:
        """A soft shadow of the outline ``pts`` (mm), moved by ``shift`` (mm): ``strength`` of
        the light taken off at its darkest."""
        p = self.px(pts + shift)
        sigma = max(blur * self.ppm, 0.5)
        roi = self._roi(p, 3 * sigma + 2)
        if roi is None:
            return
        sy, sx, x0, y0 = roi
        mask = np.zeros((sy.stop - sy.start, sx.stop - sx.start), np.float32)
        _fill_poly(mask, p - np.array([x0, y0]), (1.0,))
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        k = strength * mask
        part = self.rgba[sy, sx]
        part[..., :3] *= np.power(1 - k, 1 / 2.2)[..., None]
        part[..., 3] = part[..., 3] * (1 - k) + 255 * k

    def poly(self, pts: Array, colour: RGB) -> None:
        """An opaque anti-aliased polygon (mm) in an sRGB colour."""
        p = self.px(pts)
        _fill_poly(self.rgba, p, (colour[2], colour[1], colour[0], 255.0))

    def paste(
        self, image: Floats, centre_px: tuple[float, float], pose: _Pose, outline: Array
    ) -> None:
        """Lay ``image`` (BGR floats) with its pixel ``centre_px`` at ``pose`` (table), turned
        with it, cut along ``outline`` (mm, table)."""
        p = self.px(outline)
        roi = self._roi(p, 3)
        if roi is None:
            return
        sy, sx, x0, y0 = roi
        c, s = math.cos(pose.angle), math.sin(pose.angle)
        tx, ty = self.px(np.array([[pose.x, pose.y]]))[0] - np.array([x0, y0])
        m = np.array(
            [
                [c, -s, tx - (c * centre_px[0] - s * centre_px[1])],
                [s, c, ty - (s * centre_px[0] + c * centre_px[1])],
            ]
        )
        size = (sx.stop - sx.start, sy.stop - sy.start)
        warped = cv2.warpAffine(
            image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        mask = np.zeros((size[1], size[0]), np.float32)
        _fill_poly(mask, p - np.array([x0, y0]), (1.0,))
        part = self.rgba[sy, sx]
        part[..., :3] = part[..., :3] * (1 - mask[..., None]) + warped * mask[..., None]
        part[..., 3] = part[..., 3] * (1 - mask) + 255 * mask

    def linear(self) -> npt.NDArray[np.uint16]:
        """Premultiplied linear light (BGR) and coverage as 16 bits."""
        rgba8 = cv2.convertScaleAbs(self.rgba)
        out = np.empty(rgba8.shape, np.uint16)
        out[..., :3] = cv2.LUT(rgba8[..., :3], to_linear_u16())
        out[..., 3] = rgba8[..., 3].astype(np.uint16) * 257
        ys, xs = np.nonzero((rgba8[..., 3] > 0) & (rgba8[..., 3] < 255))
        if len(ys):
            a = self.rgba[ys, xs, 3:4] / 255.0
            straight = np.clip(self.rgba[ys, xs, :3] / a + 0.5, 0, 255).astype(np.uint8)
            out[ys, xs, :3] = np.round(to_linear_u16()[straight] * a).astype(np.uint16)
        return out


def _draw_token(plane: _Plane, tile: _Tile, token: _Token, light_shift: Array) -> None:
    kit = _kit()
    slot = {s.name: s for s in kit.variants[tile.variant]}[token.slot]
    pose = tile.face.then(token.pose)
    radius = slot.radius * TOKEN_SCALE
    colour = kit.mineral if token.colour is None else kit.colours[token.colour]

    def outline(grow: float) -> Array:
        return pose.apply(_shape(slot.shape, radius, grow))

    cut = outline(token.cut)
    plane.shadow(cut, light_shift * token.shadow, 0.25 + 0.3 * token.shadow, 0.55)
    if token.edge_light:
        edge = tuple(int(0.45 * v + 0.55 * w) for v, w in zip(colour, (228, 224, 214), strict=True))
    else:
        edge = tuple(int(0.55 * v) for v in colour)
    plane.poly(cut, (edge[0], edge[1], edge[2]))
    inner = token.cut - token.edge
    half = TOKEN_CUT_LINE / 2
    if inner > half:
        plane.poly(outline(inner), colour)
    if inner > -half:
        plane.poly(outline(min(half, inner)), kit.ink)
    plane.poly(outline(min(-half, inner)), colour)
    if token.unit is not None:
        hole, outer = GLYPHS[token.unit]
        plane.poly(pose.apply(_shape("circle", outer * UNIT_INRADIUS)), kit.ink)
        if hole > 0:
            plane.poly(pose.apply(_shape("circle", hole * UNIT_INRADIUS)), colour)


def _draw_plane(
    tiles: Sequence[_Tile], card: _Pose, light_shift: Array, ppm: float
) -> tuple[_Plane, Array]:
    """All the printed things; also the plane's extent (x0, y0, x1, y1)."""
    pts = np.concatenate(
        [t.pose.apply(_square(TILE + 12)) for t in tiles] + [_card_corners(card, 12)]
    )
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    plane = _Plane(float(x0), float(y0), float(x1), float(y1), ppm)
    # the boards' and the card's shadows on the mat (1.5-2 mm of board, the card thinner)
    for t in tiles:
        plane.shadow(t.pose.apply(_square(TILE)), light_shift * 1.8, 0.8, 0.5)
    plane.shadow(_card_corners(card, 0), light_shift * 0.5, 0.5, 0.45)
    card_img = _draw_card(ppm)
    w, h = CARD_SIZE
    plane.paste(card_img, ((w * ppm - 1) / 2, (h * ppm - 1) / 2), card, _card_corners(card, 0))
    # the card's cut line: 0-0.3 mm of it left on the card's edge
    kit = _kit()
    outer = _card_corners(card, 0)
    inner = _card_corners(card, -0.15)
    plane.poly(outer, kit.ink)
    plane.paste(card_img, ((w * ppm - 1) / 2, (h * ppm - 1) / 2), card, inner)
    for t in tiles:
        plane.poly(t.pose.apply(_square(TILE)), t.board)
        face = _draw_face(t.sector, ppm)
        c = (face.shape[0] - 1) / 2
        left, top, right, bottom = t.cut
        h2 = TILE / 2
        outline = np.array(
            [
                [-h2 - left, -h2 - top],
                [h2 + right, -h2 - top],
                [h2 + right, h2 + bottom],
                [-h2 - left, h2 + bottom],
            ]
        )
        plane.paste(face, (c, c), t.face, t.face.apply(outline))
        for token in t.tokens:
            _draw_token(plane, t, token, light_shift)
    return plane, np.array([x0, y0, x1, y1])


def _card_corners(card: _Pose, grow: float) -> Array:
    w, h = CARD_SIZE[0] / 2 + grow, CARD_SIZE[1] / 2 + grow
    return card.apply(np.array([[-w, -h], [w, -h], [w, h], [-w, h]]))


# The mat ------------------------------------------------------------------------------------------


def _value_noise(
    x: Floats, y: Floats, cell: float, nrng: np.random.Generator, span: Array
) -> Floats:
    """Smooth noise (about unit spread) over table mm, varying over ``cell`` mm."""
    x0, y0, x1, y1 = span
    gw, gh = int((x1 - x0) / cell) + 4, int((y1 - y0) / cell) + 4
    grid = nrng.standard_normal((gh, gw)).astype(np.float32)
    grid = cv2.GaussianBlur(grid, (0, 0), 0.7) * 2.0
    mx = ((x - x0) / cell + 1).astype(np.float32)
    my = ((y - y0) / cell + 1).astype(np.float32)
    out: Floats = cv2.remap(grid, mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)
    return out


def _mat(kind: str, x: Floats, y: Floats, rng: random.Random, nrng: np.random.Generator) -> Floats:
    """The mat's linear albedo (BGR) at table points."""
    span = np.array([x.min() - 10, y.min() - 10, x.max() + 10, y.max() + 10])
    fine = _value_noise(x, y, 1.2, nrng, span)

    def mix(a: Floats, b: Floats, t: Floats) -> Floats:
        out: Floats = a * (1 - t[..., None]) + b * t[..., None]
        return out

    def rgb(*v: float) -> Floats:
        return np.array(
            linear_bgr([min(255.0, max(0.0, c + rng.uniform(-12, 12))) for c in v]), np.float32
        )

    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        across = -x * math.sin(angle) + y * math.cos(angle)
        warp = 5 * _value_noise(x, y, 60, nrng, span) + 1.2 * _value_noise(x, y, 10, nrng, span)
        period = rng.uniform(4, 12)
        grain = 0.5 + 0.5 * np.sin(2 * math.pi * (across + warp) / period)
        plank = rng.uniform(90, 180)
        seam = np.abs(((across + 0.2 * warp) % plank) - plank / 2) > plank / 2 - 0.8
        light, dark = rgb(196, 150, 104), rgb(140, 94, 56)
        if rng.random() < 0.4:
            light, dark = light * 0.45, dark * 0.4
        t = np.clip(grain * 0.7 + 0.1 * fine + 0.15, 0, 1).astype(np.float32)
        out = mix(light, dark, t)
        out[seam] *= 0.45
        return out
    if kind == "busy pattern":
        palette = [
            rgb(
                *rng.choice(
                    (
                        (200, 40, 40),
                        (30, 120, 60),
                        (40, 70, 170),
                        (230, 200, 60),
                        (240, 240, 230),
                        (30, 30, 30),
                        (120, 60, 150),
                        (240, 130, 170),
                    )
                )
            )
            for _ in range(4)
        ]
        angle = rng.uniform(0, math.pi)
        u = x * math.cos(angle) + y * math.sin(angle)
        v = -x * math.sin(angle) + y * math.cos(angle)
        p1, p2 = rng.uniform(15, 60), rng.uniform(15, 60)
        index = (np.floor(u / p1) + 2 * np.floor(v / p2)).astype(np.int32) % 4
        blobs = _value_noise(x, y, rng.uniform(8, 25), nrng, span) > 0.6
        index = np.where(blobs, (index + 1) % 4, index)
        out = np.stack(palette)[index]
        stripes = np.abs(np.sin(math.pi * u / rng.uniform(4, 12))) > 0.9
        out[stripes] = palette[(rng.randrange(4))]
        out *= (1 + 0.05 * fine)[..., None]
        busy: Floats = out.astype(np.float32)
        return busy
    base = {
        "green felt": (40, 105, 60),
        "dark grey": (70, 70, 74),
        "white cloth": (225, 224, 218),
        "black": (22, 22, 24),
        "red-brown": (120, 54, 40),
    }[kind]
    colour = rgb(*base)
    spread = {"green felt": 0.08, "white cloth": 0.04}.get(kind, 0.05)
    texture = 1 + spread * fine + 0.5 * spread * _value_noise(x, y, 8, nrng, span)
    if kind == "white cloth":
        weave = 0.03 * np.sin(2 * math.pi * x / 1.3) * np.sin(2 * math.pi * y / 1.3)
        texture = texture + weave
    out = colour * texture[..., None]
    return out.astype(np.float32)


# Hands --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Capsule:
    a: Array
    """3D, world mm."""
    b: Array
    radius: float


@dataclasses.dataclass(frozen=True)
class _Hand:
    palm: Array
    """Outline, N x 3, world mm."""
    fingers: tuple[_Capsule, ...]
    arm: tuple[Array, Array, Array]
    """Axis points (N x 3) and half widths (N), and a flag per point: cloth (1) or skin (0)."""
    skin: int
    sleeve: RGB | None
    height: float


def _make_hand(
    rng: random.Random, over: Array, away: Array, sleeve: RGB | None, cam_height: float
) -> _Hand:
    """A hand with its palm over ``over`` (table mm), forearm running along ``away``."""
    h = rng.uniform(60.0, min(250.0, 0.45 * cam_height))
    back = away / np.linalg.norm(away)
    fwd = -back
    side = np.array([-fwd[1], fwd[0]])
    mirror = rng.choice((-1.0, 1.0))
    turn = math.radians(rng.uniform(-25, 25))

    def at(u: float, v: float, height: float) -> Array:
        """Hand frame: u across (to the thumb side when mirror is 1), v towards the fingers."""
        p = over + (mirror * u) * side + v * fwd
        return np.array([p[0], p[1], -height])

    tilt = rng.uniform(-0.25, 0.25)
    t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
    ex = np.sign(np.cos(t)) * np.abs(np.cos(t)) ** 0.6 * rng.uniform(40, 45)
    ey = np.sign(np.sin(t)) * np.abs(np.sin(t)) ** 0.7 * rng.uniform(47, 53)
    palm = np.stack(
        [at(float(u), float(v), h + tilt * float(u)) for u, v in zip(ex, ey, strict=True)]
    )
    fingers = []
    curl = rng.uniform(0, 40)
    for i, (base_u, length, spread) in enumerate(
        ((-28.0, 0.8, -12.0), (-9.0, 1.0, -4.0), (10.0, 0.95, 4.0), (28.0, 0.78, 12.0))
    ):
        ang = math.radians(spread * rng.uniform(0.5, 1.6)) + turn * 0.3
        ln = rng.uniform(50, 80) * (length if i != 1 else 1.0)
        ln = max(50.0, ln)
        rad = rng.uniform(18, 20) / 2
        a = at(base_u, 42.0, h + tilt * base_u)
        tip_h = max(8.0, h + tilt * base_u - curl * rng.uniform(0.6, 1.2))
        b = at(base_u + ln * math.sin(ang), 42.0 + ln * math.cos(ang), tip_h)
        fingers.append(_Capsule(a, b, rad))
    thumb_ang = math.radians(rng.uniform(35, 70))
    tl = rng.uniform(55, 70)
    ta = at(-38.0, -5.0, h - 5)
    tb = at(
        -38.0 - tl * math.sin(thumb_ang),
        -5.0 + tl * math.cos(thumb_ang),
        max(8.0, h - 5 - curl * 0.5),
    )
    fingers.append(_Capsule(ta, tb, rng.uniform(19, 21) / 2))
    # forearm: from the wrist, away, rising
    s = np.linspace(0, 1600, 60)
    rise = rng.uniform(0.1, 0.3)
    heights = np.minimum(np.minimum(h + rise * s, h + 120.0), 0.5 * cam_height)
    axis = np.stack(
        [at(0.0, float(-40 - si), float(hh)) for si, hh in zip(s, heights, strict=True)]
    )
    half = np.clip(30 + 0.06 * s, 30, 46)
    cuff = rng.uniform(30, 150)
    cloth = np.where((s > cuff) & (sleeve is not None), 1.0, 0.0)
    half = np.where(cloth > 0, half * 1.25, half)
    return _Hand(palm, tuple(fingers), (axis, half, cloth), rng.randrange(len(SKINS)), sleeve, h)


def _draw_hand(cam: Camera, hand: _Hand, ss: int) -> tuple[Image, Image]:
    """Skin and cloth masks (0/255 anti-aliased) at ``ss`` times the picture's size."""
    w, h = cam.width * ss, cam.height * ss
    skin = np.zeros((h, w), np.uint8)
    cloth = np.zeros((h, w), np.uint8)
    near = 0.08 * float(-cam.centre[2])

    def proj(p: Array) -> tuple[Array, Array]:
        uv, z = cam.project(p.reshape(-1, 3))
        return (uv + 0.5) * ss - 0.5, z

    def fill(mask: Image, pts: Array) -> None:
        pts = np.clip(pts, -4 * w, 5 * w)
        _fill_poly(mask, pts, (255,))

    uv, z = proj(hand.palm)
    if (z > near).all():
        fill(skin, uv)
    for cap in hand.fingers:
        (pa, pb), z = proj(np.stack([cap.a, cap.b]))
        if (z <= near).any():
            continue
        ra = cap.radius * cam.focal * ss / z[0]
        rb = cap.radius * cam.focal * ss / z[1]
        d = pb - pa
        n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
        fill(skin, np.stack([pa + ra * n, pb + rb * n, pb - rb * n, pa - ra * n]))
        for p, r in ((pa, ra), (pb, rb)):
            fill(
                skin,
                p
                + r
                * np.stack(
                    [
                        np.cos(np.linspace(0, 2 * math.pi, 24)),
                        np.sin(np.linspace(0, 2 * math.pi, 24)),
                    ],
                    axis=1,
                ),
            )
    axis, half, flag = hand.arm
    uv, z = proj(axis)
    keep = z > near
    if keep.sum() >= 2:
        last = int(np.nonzero(keep)[0][-1]) if keep.all() else int(np.argmin(keep)) - 1
        uv, z, half, flag = uv[: last + 1], z[: last + 1], half[: last + 1], flag[: last + 1]
        r = half * cam.focal * ss / z
        d = np.gradient(uv, axis=0)
        n = np.stack([-d[:, 1], d[:, 0]], axis=1) / (
            np.linalg.norm(d, axis=1, keepdims=True) + 1e-9
        )
        # run the last point far out so the arm leaves the frame
        if len(uv) >= 2:
            tail = uv[-1] + (uv[-1] - uv[-2]) / (np.linalg.norm(uv[-1] - uv[-2]) + 1e-9) * 4 * w
            uv = np.concatenate([uv, tail[None]])
            r = np.append(r, r[-1])
            n = np.concatenate([n, n[-1:]])
            flag = np.append(flag, flag[-1])
        for value, mask in ((0.0, skin), (1.0, cloth)):
            idx = np.nonzero(flag == value)[0]
            if len(idx) == 0:
                continue
            lo_i, hi_i = int(idx[0]), int(idx[-1])
            lo_i = max(0, lo_i - 1)
            sel = slice(lo_i, hi_i + 1)
            left = uv[sel] + r[sel, None] * n[sel]
            right = uv[sel] - r[sel, None] * n[sel]
            fill(mask, np.concatenate([left, right[::-1]]))
    skin = np.where(cloth > 0, np.minimum(skin, 255 - cloth), skin).astype(np.uint8)
    return skin, cloth


def _hand_shadow(hand: _Hand, light_dir: Array, grid: _Plane) -> None:
    """The hand's shadow on the table along the main light, into ``grid``'s coverage."""

    def onto(p: Array) -> Array:
        p = p.reshape(-1, 3)
        t = -p[:, 2] / -light_dir[2]
        out: Array = p[:, :2] - t[:, None] * light_dir[:2]
        return out

    mask = grid.rgba[..., 0]
    _fill_poly(mask, grid.px(onto(hand.palm)), (1.0,))
    for cap in hand.fingers:
        a, b = onto(np.stack([cap.a, cap.b]))
        d = b - a
        n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9) * cap.radius
        _fill_poly(mask, grid.px(np.stack([a + n, b + n, b - n, a - n])), (1.0,))
        for p in (a, b):
            t = np.linspace(0, 2 * math.pi, 16)
            _fill_poly(
                mask, grid.px(p + cap.radius * np.stack([np.cos(t), np.sin(t)], axis=1)), (1.0,)
            )
    axis, half, _ = hand.arm
    flat = onto(axis)
    d = np.gradient(flat, axis=0)
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) / (np.linalg.norm(d, axis=1, keepdims=True) + 1e-9)
    for i in range(len(flat) - 1):
        seg = np.stack(
            [
                flat[i] + half[i] * n[i],
                flat[i + 1] + half[i + 1] * n[i + 1],
                flat[i + 1] - half[i + 1] * n[i + 1],
                flat[i] - half[i] * n[i],
            ]
        )
        _fill_poly(mask, grid.px(seg), (1.0,))


# Rendering ----------------------------------------------------------------------------------------


def _place_camera(
    rng: random.Random, size: tuple[int, int], content: Array
) -> tuple[Camera, float, float]:
    """A camera seeing all of ``content`` (N x 2 table points) filling 55-95 % of the frame."""
    width, height = size
    centre = content.mean(axis=0)
    for _ in range(60):
        hfov = math.radians(rng.uniform(55, 75))
        focal = (width / 2) / math.tan(hfov / 2)
        k1 = rng.uniform(-0.08, 0.03)
        rotation = look(
            math.radians(rng.uniform(0, 30)),
            rng.uniform(0, 2 * math.pi),
            rng.uniform(0, 2 * math.pi),
        )
        fill = rng.uniform(0.55, 0.95)
        aim = centre.copy()
        dist = 1500.0
        cam = Camera(width, height, focal, k1, rotation, np.append(aim, 0.0) - dist * rotation[2])
        target_off = None
        for _ in range(8):
            uv = cam.project_table(content)
            lo, hi = uv.min(axis=0), uv.max(axis=0)
            now = max((hi[0] - lo[0]) / width, (hi[1] - lo[1]) / height)
            dist *= now / fill
            if target_off is None:
                slack = np.array([width, height]) * (
                    1 - (hi - lo) / np.array([width, height]) * fill / now
                )
                target_off = np.array(
                    [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)]
                ) * np.maximum(slack - 0.04 * np.array([width, height]), 0)
            mid = (lo + hi) / 2 - np.array([(width - 1) / 2, (height - 1) / 2])
            ppm = cam.scale_at(float(aim[0]), float(aim[1]))
            shift_px = mid - target_off
            # move the aim on the table so the content's box lands where wanted
            move = (shift_px[0] * rotation[0][:2] + shift_px[1] * rotation[1][:2]) / max(ppm, 1e-6)
            aim = aim + move * 0.9
            cam = Camera(
                width, height, focal, k1, rotation, np.append(aim, 0.0) - dist * rotation[2]
            )
        uv = cam.project_table(content)
        lo, hi = uv.min(axis=0), uv.max(axis=0)
        now = max((hi[0] - lo[0]) / width, (hi[1] - lo[1]) / height)
        inside = (
            lo[0] > 0.01 * width
            and lo[1] > 0.01 * height
            and hi[0] < 0.99 * width
            and hi[1] < 0.99 * height
        )
        if inside and 0.53 <= now <= 0.96:
            return cam, math.degrees(hfov), now
    raise RuntimeError("no camera placement found")


def _coarse_table(cam: Camera, step: int) -> tuple[Floats, Floats]:
    """Table coordinates at output pixels ``-step, 0, step, ...`` (both ways)."""
    us = np.arange(-step, cam.width + 2 * step, step, dtype=np.float64)
    vs = np.arange(-step, cam.height + 2 * step, step, dtype=np.float64)
    u, v = np.meshgrid(us, vs)
    x, y = cam.table_at(u, v)
    return x.astype(np.float32), y.astype(np.float32)


def _sample_grid(grid: Floats, step: int, rows: tuple[int, int], width: int, ss: int) -> Floats:
    """``grid`` (from ``_coarse_table``) interpolated at output rows ``rows``, ``ss`` samples a
    pixel each way (sample centres at ``(i + 0.5) / ss - 0.5``)."""
    r0, r1 = rows
    fu = ((np.arange(width * ss, dtype=np.float32) + 0.5) / ss - 0.5 + step) / step
    fv = ((np.arange(r0 * ss, r1 * ss, dtype=np.float32) + 0.5) / ss - 0.5 + step) / step
    mu = np.broadcast_to(fu[None, :], (len(fv), len(fu))).astype(np.float32)
    mv = np.broadcast_to(fv[:, None], (len(fv), len(fu))).astype(np.float32)
    out: Floats = cv2.remap(grid, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def _ramp(width: int, height: int, angle: float) -> Floats:
    """0 at one side of the picture to 1 at the other, along ``angle``."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    p = xx * math.cos(angle) + yy * math.sin(angle)
    out: Floats = ((p - p.min()) / max(float(p.max() - p.min()), 1.0)).astype(np.float32)
    return out


def render(
    rng: random.Random, *, size: tuple[int, int] = (1920, 1080), tiles: int | None = None
) -> LcRender:
    """Draw one picture of a Local Cluster table with its truth; every condition from ``rng``."""
    nrng = np.random.default_rng(rng.getrandbits(64))
    width, height = size
    _kit()
    n = tiles if tiles is not None else rng.randint(2, 12)
    if not 1 <= n <= 48:
        raise ValueError(f"tiles must be 1-48: {n!r}")
    words: list[str] = [f"{n} tiles"]

    # light ----------------------------------------------------------------------------------------
    k_main = rng.uniform(2700, 6500)
    second = rng.random() < 0.25
    k_second = 0.0
    if second:
        while not (k_main <= 4500 or k_main >= 4700):
            k_main = rng.uniform(2700, 6500)
        choices = [(2700.0, k_main - 2000.0)] if k_main - 2000 >= 2700 else []
        if k_main + 2000 <= 6500:
            choices.append((k_main + 2000.0, 6500.0))
        lo_k, hi_k = rng.choice(choices)
        k_second = rng.uniform(lo_k, hi_k)
    main_colour = np.array(blackbody_bgr(k_main), np.float32)
    elevation = math.radians(rng.uniform(35, 80))
    azimuth = rng.uniform(0, 2 * math.pi)
    light_dir = np.array(
        [
            math.cos(elevation) * math.cos(azimuth),
            math.cos(elevation) * math.sin(azimuth),
            -math.sin(elevation),
        ]
    )
    # a shadow of something 1 mm tall falls this far, away from the lamp
    light_shift = -np.array([math.cos(azimuth), math.sin(azimuth)]) / math.tan(elevation)
    ambient = rng.uniform(0.15, 0.4)
    words.append(f"lamp {k_main:.0f} K elev {math.degrees(elevation):.0f}")

    # the table ------------------------------------------------------------------------------------
    tile_list, card = _layout(n, rng)
    content = np.concatenate(
        [t.pose.apply(_square(TILE)) for t in tile_list] + [_card_corners(card, 0)]
    )
    cam, hfov, fill = _place_camera(rng, size, content)
    words.append(
        f"hfov {hfov:.0f} tilt {math.degrees(math.acos(min(1.0, cam.rotation[2][2]))):.0f}"
        f" k1 {cam.k1:+.3f} fill {fill:.2f}"
    )
    board_centre = np.mean([[t.pose.x, t.pose.y] for t in tile_list], axis=0)
    px_per_mm = cam.scale_at(float(board_centre[0]), float(board_centre[1]))
    max_ppm = max(cam.scale_at(float(p[0]), float(p[1])) for p in content)
    ext = content.max(axis=0) - content.min(axis=0) + 24
    ppm = min(8.0, max(4.0, 2.0 * max_ppm))
    ppm = max(4.0, min(ppm, math.sqrt(24e6 / float(ext[0] * ext[1]))))
    plane, _ = _draw_plane(tile_list, card, light_shift, ppm)
    plane16 = plane.linear()
    del plane

    # the picture's table coordinates, the plane resampled -----------------------------------------
    step = 8
    gx, gy = _coarse_table(cam, step)
    ss = 2
    albedo_c = np.empty((height, width, 3), np.float32)
    alpha = np.empty((height, width), np.float32)
    tx = np.empty((height, width), np.float32)
    ty = np.empty((height, width), np.float32)
    strip = 128
    x0p, y0p = _plane_origin(tile_list, card)
    for r0 in range(0, height, strip):
        r1 = min(height, r0 + strip)
        fx = (_sample_grid(gx, step, (r0, r1), width, ss) - x0p) * ppm
        fy = (_sample_grid(gy, step, (r0, r1), width, ss) - y0p) * ppm
        fine = cv2.remap(
            plane16,
            fx,
            fy,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        small = (
            cv2.resize(fine, (width, r1 - r0), interpolation=cv2.INTER_AREA).astype(np.float32)
            / 65535.0
        )
        albedo_c[r0:r1] = small[..., :3]
        alpha[r0:r1] = small[..., 3]
        tx[r0:r1] = _sample_grid(gx, step, (r0, r1), width, 1)
        ty[r0:r1] = _sample_grid(gy, step, (r0, r1), width, 1)
    del plane16

    mat_kind = rng.choice(MATS)
    mat = _mat(mat_kind, tx, ty, rng, nrng)
    words.append(f"mat {mat_kind}")
    albedo = albedo_c + (1 - alpha)[..., None] * mat
    # gloss: toner is glossy, the more the darker; paper is matt
    straight_l = luminance(albedo_c) / np.maximum(alpha, 1e-3)
    toner = np.clip(1 - np.power(np.clip(straight_l, 0, 1), 1 / 2.4), 0, 1)
    gloss = alpha * (PAPER_GLOSS + (1 - PAPER_GLOSS) * toner) + (1 - alpha) * MAT_GLOSS[mat_kind]
    del mat, albedo_c

    # lighting fields ------------------------------------------------------------------------------
    falloff = rng.uniform(0.0, 0.5)
    light = 1 - falloff * _ramp(width, height, rng.uniform(0, 2 * math.pi))
    words.append(f"falloff {falloff:.2f}")
    person = np.ones((height, width), np.float32)
    if rng.random() < 0.3:
        depth = rng.uniform(0.4, 0.75)
        lo, hi = content.min(axis=0), content.max(axis=0)
        edge_pt = np.array([rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1])])
        a_ax, b_ax = rng.uniform(150, 320), rng.uniform(250, 450)
        ang = rng.uniform(0, math.pi)
        soft = rng.uniform(30, 90)
        c, s = math.cos(ang), math.sin(ang)
        du, dv = tx - edge_pt[0], ty - edge_pt[1]
        d = np.sqrt(((du * c + dv * s) / a_ax) ** 2 + ((-du * s + dv * c) / b_ax) ** 2)
        inside = 1 / (1 + np.exp(-(1 - d) * min(a_ax, b_ax) / soft * 2.5))
        person = (1 - (1 - depth) * inside).astype(np.float32)
        words.append(f"person shadow {depth:.2f}")

    # hands ----------------------------------------------------------------------------------------
    hands: list[_Hand] = []
    if rng.random() < 0.4:
        sleeve_p = 0.15 / 0.4
        for _ in range(rng.randint(1, 2)):
            t = rng.choice(tile_list)
            over = np.array([t.pose.x, t.pose.y]) + np.array(
                [rng.uniform(-70, 70), rng.uniform(-70, 70)]
            )
            away = over - board_centre
            if np.linalg.norm(away) < 1:
                away = np.array([1.0, 0.0])
            a0 = math.atan2(away[1], away[0]) + math.radians(rng.uniform(-45, 45))
            sleeve = rng.choice(CLOTHS) if rng.random() < sleeve_p else None
            hands.append(
                _make_hand(
                    rng, over, np.array([math.cos(a0), math.sin(a0)]), sleeve, float(-cam.centre[2])
                )
            )
    shade = np.ones((height, width), np.float32)
    if hands:
        x_lo, y_lo = float(tx.min()) - 20, float(ty.min()) - 20
        x_hi, y_hi = float(tx.max()) + 20, float(ty.max()) + 20
        q = min(1.0, math.sqrt(4e6 / max((x_hi - x_lo) * (y_hi - y_lo), 1.0)))
        grid = _Plane(x_lo, y_lo, x_hi, y_hi, q)
        grid.rgba = np.zeros((*grid.rgba.shape[:2], 1), np.float32)
        for hand in hands:
            _hand_shadow(hand, light_dir, grid)
        sm = np.clip(grid.rgba[..., 0], 0, 1)
        mean_h = float(np.mean([hd.height for hd in hands]))
        sm = cv2.GaussianBlur(sm, (0, 0), max(0.7, (2 + 0.06 * mean_h) * q))
        shade = cv2.remap(
            sm,
            ((tx - x_lo) * q).astype(np.float32),
            ((ty - y_lo) * q).astype(np.float32),
            cv2.INTER_LINEAR,
        )
        shade = (1 - shade).astype(np.float32)

    direct = 1 - ambient
    illum = (light * person)[..., None] * (direct * shade + ambient)[..., None] * main_colour
    second_colour = np.zeros(3, np.float32)
    if second:
        second_colour = np.array(blackbody_bgr(k_second), np.float32)
        power = rng.uniform(0.3, 0.9)
        side = np.clip(0.1 + 1.1 * _ramp(width, height, rng.uniform(0, 2 * math.pi)), 0, 1)
        illum = illum + (power * side * person)[..., None] * second_colour
        words.append(f"second lamp {k_second:.0f} K x{power:.2f}")
    radiance = albedo * illum
    del albedo

    glares: list[_Glare] = []
    lo, hi = content.min(axis=0), content.max(axis=0)
    glare_colours = [main_colour] * rng.randint(0, 2) + ([second_colour] if second else [])
    for colour in glare_colours:
        glares.append(
            _Glare(
                x=rng.uniform(lo[0], hi[0]),
                y=rng.uniform(lo[1], hi[1]),
                peak=rng.uniform(0.3, 2.0),
                core=rng.uniform(4, 14),
                halo=rng.uniform(25, 80),
                core_share=rng.uniform(0.4, 0.75),
                stretch=rng.uniform(1.0, 2.0),
                angle=rng.uniform(0, math.pi),
                colour=colour,
            )
        )
    if glares:
        for g in glares:
            radiance += (g.field(tx, ty) * gloss)[..., None] * g.colour
        words.append("glare " + "/".join(f"{g.peak:.2f}" for g in glares))

    # hands over the table -------------------------------------------------------------------------
    cover = np.zeros((height, width), np.float32)
    for hand in hands:
        skin_m, cloth_m = _draw_hand(cam, hand, ss)
        skin_c = (
            cv2.resize(skin_m, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
            / 255
        )
        cloth_c = (
            cv2.resize(cloth_m, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
            / 255
        )
        both = np.clip(skin_c + cloth_c, 0, 1)
        inner = cv2.distanceTransform((both > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
        edge_px = 9 * cam.focal / max(float(-cam.centre[2]) - hand.height, 50.0)
        rounded = 0.45 + 0.6 * np.sqrt(np.clip(inner / max(edge_px, 1.0), 0, 1))
        lit = (light * person)[..., None] * main_colour + (
            illum
            - (light * person)[..., None] * (direct * shade + ambient)[..., None] * main_colour
        )
        skin_alb = np.array(linear_bgr(SKINS[hand.skin]), np.float32)
        hand_rad = lit * rounded[..., None] * skin_alb
        radiance = radiance * (1 - skin_c[..., None]) + hand_rad * skin_c[..., None]
        if hand.sleeve is not None:
            cloth_rad = lit * rounded[..., None] * np.array(linear_bgr(hand.sleeve), np.float32)
            radiance = radiance * (1 - cloth_c[..., None]) + cloth_rad * cloth_c[..., None]
        cover = np.maximum(cover, both)
        words.append(
            f"hand skin {hand.skin} at {hand.height:.0f} mm" + (" sleeve" if hand.sleeve else "")
        )

    # the camera -----------------------------------------------------------------------------------
    vignette = rng.uniform(0.0, 0.3)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xx - (width - 1) / 2) ** 2 + (yy - (height - 1) / 2) ** 2) / (
        ((width - 1) / 2) ** 2 + ((height - 1) / 2) ** 2
    )
    radiance *= (1 - vignette * r2)[..., None]
    blur = rng.uniform(0.0, 1.5)
    if blur > 0.05:
        radiance = cv2.GaussianBlur(radiance, (0, 0), blur)
    words.append(f"vignette {vignette:.2f} blur {blur:.2f}")
    if rng.random() < 0.6:
        means = radiance.reshape(-1, 3).mean(axis=0)
        gains = float(luminance(means[None, :])[0]) / np.maximum(means, 1e-6)
        words.append("grey-world balance")
    else:
        gains = 1 / np.array(blackbody_bgr(5500), np.float32)
        words.append("daylight balance")
    radiance *= gains.astype(np.float32)
    target = rng.uniform(0.85, 1.0)
    p99 = float(np.percentile(luminance(radiance[::4, ::4]), 99))
    radiance *= target / max(p99, 1e-6)
    radiance = np.clip(radiance, 0, 1)
    if rng.random() < 0.7:
        full_well = rng.uniform(300, 2500)
        read = rng.uniform(1, 4)
        mosaic = np.empty((height, width), np.float32)
        mosaic[0::2, 0::2] = radiance[0::2, 0::2, 2]
        mosaic[0::2, 1::2] = radiance[0::2, 1::2, 1]
        mosaic[1::2, 0::2] = radiance[1::2, 0::2, 1]
        mosaic[1::2, 1::2] = radiance[1::2, 1::2, 0]
        mosaic = mosaic + np.sqrt(mosaic / full_well) * nrng.standard_normal(mosaic.shape).astype(
            np.float32
        )
        coded = encode(np.clip(mosaic, 0, 1)) + read * nrng.standard_normal(mosaic.shape).astype(
            np.float32
        )
        raw = np.clip(coded + 0.5, 0, 255).astype(np.uint8)
        image = cv2.cvtColor(raw, cv2.COLOR_BayerBG2BGR)
        words.append(f"bayer noise {full_well:.0f}e read {read:.1f}")
    else:
        image = np.clip(encode(radiance) + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < 0.85:
        quality = rng.randint(55, 95)
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        words.append(f"jpeg {quality}")
    words.append(f"{px_per_mm:.2f} px/mm")

    # truth ----------------------------------------------------------------------------------------
    truths = tuple(_tile_truth(t, cam, cover, glares) for t in tile_list)
    cells = {f"S{t.sector}": t.cell for t in tile_list}
    return LcRender(
        image=image,
        tiles=truths,
        px_per_mm=px_per_mm,
        description=", ".join(words),
        cells=cells,
    )


def _plane_origin(tiles: Sequence[_Tile], card: _Pose) -> tuple[float, float]:
    pts = np.concatenate(
        [t.pose.apply(_square(TILE + 12)) for t in tiles] + [_card_corners(card, 12)]
    )
    lo = pts.min(axis=0)
    return float(lo[0]), float(lo[1])


def _covered(cam: Camera, outline: Array, cover: Floats) -> bool:
    """Any picture pixel inside ``outline`` (table mm) covered by a hand or arm."""
    uv = cam.project_table(outline)
    h, w = cover.shape
    x0 = max(0, math.floor(uv[:, 0].min()) - 1)
    y0 = max(0, math.floor(uv[:, 1].min()) - 1)
    x1 = min(w, math.ceil(uv[:, 0].max()) + 2)
    y1 = min(h, math.ceil(uv[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return False
    part = cover[y0:y1, x0:x1]
    if float(part.max()) <= COVER:
        return False
    mask = np.zeros(part.shape, np.uint8)
    cv2.fillPoly(
        mask,
        [np.round((uv - np.array([x0, y0])) * 16).astype(np.int32).reshape(-1, 1, 2)],
        (1,),
        lineType=cv2.LINE_8,
        shift=4,
    )
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    return bool((part[mask > 0] > COVER).any())


def _glare_max(outline: Array, glares: Sequence[_Glare]) -> float:
    """The strongest glare (on toner, in paper whites) inside a convex ``outline`` (mm)."""
    if not glares:
        return 0.0
    lo, hi = outline.min(axis=0), outline.max(axis=0)
    xs = np.arange(lo[0], hi[0] + 0.5, 0.5)
    ys = np.arange(lo[1], hi[1] + 0.5, 0.5)
    x, y = np.meshgrid(xs, ys)
    pts = np.stack([x.ravel(), y.ravel()], axis=1)
    edges = np.roll(outline, -1, axis=0) - outline
    cross = edges[None, :, 0] * (pts[:, None, 1] - outline[None, :, 1]) - edges[None, :, 1] * (
        pts[:, None, 0] - outline[None, :, 0]
    )
    inside = (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    pts = np.concatenate([pts[inside], outline])
    total = np.zeros(len(pts), np.float32)
    for g in glares:
        total += g.field(pts[:, 0], pts[:, 1])
    return float(total.max())


def _grown(shape: str, radius: float, by: float) -> Array:
    """The outline grown by ``by`` mm with round corners (its Minkowski sum with a disc)."""
    base = _shape(shape, radius)
    if shape == "circle":
        return _shape(shape, radius, by / math.cos(math.pi / 72))
    t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    disc = (by / math.cos(math.pi / 24)) * np.stack([np.cos(t), np.sin(t)], axis=1)
    pts = (base[:, None, :] + disc[None, :, :]).reshape(-1, 2)
    hull: Array = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    return hull


def _tile_truth(tile: _Tile, cam: Camera, cover: Floats, glares: Sequence[_Glare]) -> TileTruth:
    kit = _kit()
    white = tile.face.apply(_square(WHITE_SIDE))
    marker_visible = not _covered(cam, white, cover) and _glare_max(white, glares) <= MARKER_GLARE
    on = {tk.slot: tk for tk in tile.tokens}
    slots = []
    for slot in kit.variants[tile.variant]:
        near = tile.face.apply(_grown(slot.shape, slot.radius, NEAR_SLOT) + np.array(slot.centre))
        occluded = _covered(cam, near, cover) or _glare_max(near, glares) > SLOT_GLARE
        tk = on.get(slot.name)
        slots.append(
            SlotTruth(
                slot=slot.name,
                token=tk is not None,
                colour=tk.colour if tk is not None else None,
                unit=tk.unit if tk is not None else None,
                occluded=occluded,
            )
        )
    return TileTruth(sector=f"S{tile.sector}", marker_visible=marker_visible, slots=tuple(slots))


# Command line -------------------------------------------------------------------------------------


def _truth_json(r: LcRender, name: str) -> dict[str, object]:
    return {
        "file": name,
        "description": r.description,
        "px_per_mm": round(r.px_per_mm, 4),
        "tiles": [dataclasses.asdict(t) for t in r.tiles],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``--count`` pictures and ``truth.json`` to ``--out``."""
    parser = argparse.ArgumentParser(description="Draw camera pictures of a Local Cluster table.")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", default="1920x1080", help="WxH")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    truth = []
    for i in range(args.count):
        start = time.perf_counter()
        r = render(rng, size=(w, h))
        name = f"lc-{i:04d}.png"
        cv2.imwrite(str(args.out / name), r.image)
        truth.append(_truth_json(r, name))
        print(f"{name} {time.perf_counter() - start:.2f}s {r.description}")
    (args.out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
