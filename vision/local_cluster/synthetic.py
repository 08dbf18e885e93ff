"""Synthetic pictures of a Local Cluster table, with ground truth, for tests, the benchmark
and the simulated camera.

Written from docs/physical-kit.md and the kit description, not from the recognizer: it
photographs what ``companion print-kit`` prints (:mod:`vision.local_cluster.printing`) as a
person would make and use it, and shares nothing with :mod:`vision.local_cluster.recognize`.

The table, in millimetres: a mat (wood, felt, cloth, a black or blue mat, with texture); each
tile a cardboard square laid on the state's grid with gaps and a few degrees of turn, its face
print glued a little off and cut a little off its line, printed on the kit's paper by a
printer with its own colour response (and, now and then, a background printed much darker);
tokens dropped by hand in their slots, off-centre and turned, cut a little off their line, a
card-stock thickness showing as a side edge and a contact shadow; the calibration card beside
the board. Over it: hands (skin of any tone) with their shadows, dark card sleeves lying
across tiles.

The photograph: a perspective camera up to 30 degrees off vertical, a light of 2700-6500 K,
brightness, a gradient and vignetting, specular highlights (a sharp core and a wide halo,
strongest on glossy sleeves), lens blur, a Bayer sensor with shot and read noise and its
demosaicing, a tone curve, and JPEG at quality 60-95.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import SectorId, UnitType
from companion.local_cluster.board_scan import SlotReading, SlotState
from companion.local_cluster.state import State
from vision.errors import VisionError
from vision.local_cluster import printing
from vision.local_cluster.kit import RGB, Kit, Point, SlotSpec, load_kit
from vision.photograph import (
    MATS,
    PAPERS,
    SKINS,
    camera,
    glare_field,
    photograph,
    rotation,
    to_linear,
    to_srgb,
)

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]

SLEEVES: tuple[RGB, ...] = (
    (18, 18, 20),
    (26, 30, 58),
    (48, 50, 56),
    (66, 20, 30),
    (22, 48, 30),
    (34, 38, 54),  # the tile's own dark blue-grey
)
BOARD_EDGES: tuple[RGB, ...] = ((200, 196, 186), (60, 58, 56), (232, 230, 224))
CARD_GAP = (25.0, 70.0)
ZONE = 3.0
"""A slot's ground-truth zone: its outline widened by this (mm), where a token may lie."""
GLARE_OCCLUDES = 0.2
"""Glare adding more than this share of paper white over a slot's zone makes it covered."""
GLARE_HIDES_MARKER = 0.6


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How the table is made up, lit and photographed; :meth:`random` draws them all."""

    width: int = 1920
    height: int = 1080
    fill: float = 0.9
    """Share of the frame the board and card take up (the resolution follows)."""
    rotation: float = 0.0
    tilt: float = 0.0
    """Degrees the camera looks away from straight down (0-30)."""
    tilt_direction: float = 0.0
    kelvin: float = 5000.0
    brightness: float = 1.0
    gradient: float = 0.0
    """How much darker the far side of the picture is (0-0.5), a lamp off to one side."""
    vignette: float = 0.0
    glare: int = 0
    """Specular highlights in the picture (0-2)."""
    glare_strength: float = 1.0
    """A highlight's peak, in units of paper white (up to 2: clipped)."""
    glare_kelvin: float | None = None
    """The colour temperature of the lamp the highlights come from: None for the light's own
    (one lamp); another, for a second lamp of another colour (a desk lamp in a daylit room)."""
    blur: float = 0.0
    """Lens blur, Gaussian sigma in pixels."""
    noise: float = 0.0
    """Read noise in 8-bit steps (shot noise grows with it)."""
    jpeg: int | None = None
    bayer: bool = False
    """Photographed through a Bayer colour filter and demosaiced."""
    shadow: float = 0.0
    """How dark the hands' shadows are (0-0.6)."""
    hands: int = 0
    sleeves: int = 0
    mat: str = "wood"
    paper: str = "bright white"
    printer: float = 0.0
    """How far the printer's colours stray from the description (0-1)."""
    dark_tiles: float = 1.0
    """The tile background as printed, relative to the description (linear light)."""
    tile_gap: float = 1.0
    """Up to this many mm between neighbouring tiles."""
    tile_turn: float = 1.0
    face_offset: float = 0.5
    """How far (mm) and, in degrees twice this, how turned a face print is glued on its tile."""
    token_offset: float = 0.0
    """Tokens lie up to this far (mm) from their slot's centre."""
    token_turn: float = 0.0
    cut: float = 0.2
    """Cutting error (mm) of tokens and faces."""
    seed: int = 0

    @classmethod
    def random(
        cls,
        rng: random.Random,
        *,
        width: int = 1920,
        height: int = 1080,
        fill: tuple[float, float] = (0.8, 0.95),
    ) -> Conditions:
        """Conditions drawn across the whole range the recognizer must cope with (issue 18)."""
        glare = rng.choice([0, 0, 1, 1, 2])
        return cls(
            width=width,
            height=height,
            fill=rng.uniform(*fill),
            rotation=rng.uniform(0, 360),
            tilt=rng.uniform(0, 30),
            tilt_direction=rng.uniform(0, 360),
            kelvin=rng.uniform(2700, 6500),
            brightness=rng.uniform(0.55, 1.4),
            gradient=rng.uniform(0, 0.45),
            vignette=rng.uniform(0, 0.35),
            glare=glare,
            glare_strength=rng.uniform(0.3, 2.0),
            blur=rng.uniform(0, 1.3),
            noise=rng.uniform(0.5, 4.0),
            jpeg=rng.choice([None, 60, 70, 80, 90, 95]),
            bayer=rng.random() < 0.7,
            shadow=rng.uniform(0.2, 0.6),
            hands=rng.choice([0, 0, 1, 1, 2]),
            sleeves=rng.choice([0, 0, 1, 2, 3]),
            mat=rng.choice(sorted(MATS)),
            paper=rng.choice(sorted(PAPERS)),
            printer=rng.uniform(0, 1),
            dark_tiles=rng.choice([1.0, 1.0, rng.uniform(0.45, 1.35)]),
            tile_gap=rng.uniform(0, 4),
            tile_turn=rng.uniform(0, 3),
            face_offset=rng.uniform(0, 1.5),
            token_offset=rng.uniform(0, 3.0),
            token_turn=rng.uniform(0, 10),
            cut=rng.uniform(0, 0.6),
            seed=rng.randrange(2**31),
        )


@dataclasses.dataclass(frozen=True)
class TileTruth:
    """What was drawn for one tile."""

    sector: SectorId
    marker_visible: bool
    """No hand or sleeve over its marker, and no glare that washes it out."""
    slots: Mapping[str, SlotReading]
    occluded: frozenset[str]
    """Slots with a hand, a sleeve or strong glare within their zone (outline + 3 mm)."""
    glared: frozenset[str]
    """Of those, the ones covered by glare only."""

    def drawn(self, reading: SlotReading) -> bool:
        """Whether ``reading`` says what was drawn in its slot: empty, or the token's colour
        and unit type (its sureness aside)."""
        want = self.slots[reading.slot]
        return (reading.state, reading.colour, reading.kind) == (
            want.state,
            want.colour,
            want.kind,
        )


@dataclasses.dataclass(frozen=True)
class Rendered:
    image: Image
    tiles: Mapping[SectorId, TileTruth]
    table_to_image: Matrix
    """Homography from table millimetres to image pixels."""
    px_per_mm: float
    """Image pixels per table millimetre at the board's centre."""
    conditions: Conditions


# Colour ----------------------------------------------------------------------------------------


class Printer:
    """A printer and paper: nominal sRGB in, the colour that lands on the paper out."""

    def __init__(self, paper: RGB, stray: float, rng: random.Random, *, tile: float = 1.0) -> None:
        self.paper = to_linear(paper)
        # Each channel's ink prints a little lighter or darker, more so for stray printers.
        self.gamma = 1.0 + np.array([rng.uniform(-0.12, 0.15) for _ in range(3)]) * stray
        self.density = 1.0 + rng.uniform(-0.1, 0.1) * stray
        self.tile = tile

    def __call__(self, rgb: Sequence[int], *, tile: bool = False) -> RGB:
        linear = to_linear(rgb)
        out = self.paper * np.clip(linear * self.density, 0, 1) ** self.gamma
        if tile:
            out = out * self.tile
        srgb = to_srgb(out)
        return (round(float(srgb[0])), round(float(srgb[1])), round(float(srgb[2])))

    def kit(self, kit: Kit) -> Kit:
        """The kit as this printer prints it (its colours changed, nothing else)."""
        colours = {k: self(v) for k, v in kit.colours.items()}
        printed = {k: self(v, tile=k == "tile") for k, v in kit.printed.items()}
        return dataclasses.replace(kit, colours=colours, printed=printed)


# Layout ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Token:
    slot: SlotSpec
    reading: SlotReading
    offset: Point
    turn: float
    cut: float


@dataclasses.dataclass(frozen=True)
class _Tile:
    sector: SectorId
    number: int
    board: tuple[Point, float]
    """The cardboard square's centre and turn on the table."""
    face: tuple[Point, float]
    """The face print's centre and turn (slots and tokens are in its frame)."""
    cut: tuple[float, float, float, float]
    tokens: tuple[_Token, ...]


def _to_table(pose: tuple[Point, float], point: Point) -> Point:
    (cx, cy), angle = pose
    x, y = rotation(angle) @ np.array(point)
    return (float(x + cx), float(y + cy))


def _contents(
    state: State, kit: Kit, sector: SectorId, variant: int, rng: random.Random
) -> dict[str, SlotReading]:
    """Ground truth: what lies in each slot of ``sector`` given the state."""
    slots = kit.variants[variant]
    out: dict[str, SlotReading] = {s.name: SlotReading(s.name, SlotState.EMPTY) for s in slots}
    claims = dict(state.claims)
    if sector in claims:
        out["claim"] = SlotReading("claim", SlotState.TOKEN, claims[sector], None, 1.0)
    for unit in state.units:
        if unit.sector == sector:
            out["unit"] = SlotReading("unit", SlotState.TOKEN, unit.owner, unit.kind, 1.0)
    minerals = [s.name for s in slots if s.kind == "mineral"]
    for name in rng.sample(minerals, min(len(minerals), state.galaxy.minerals(sector))):
        out[name] = SlotReading(name, SlotState.TOKEN, None, None, 1.0)
    craft_slots = [s.name for s in slots if s.kind == "craft"]
    craft = sorted((c.owner for c in state.craft if c.sector == sector), key=lambda c: c.rank)
    if len(craft) > len(craft_slots):
        raise VisionError(f"{sector} has {len(craft)} strike craft; a tile shows at most 6")
    for name, colour in zip(rng.sample(craft_slots, len(craft)), craft, strict=False):
        out[name] = SlotReading(name, SlotState.TOKEN, colour, None, 1.0)
    return out


def _layout(
    state: State, kit: Kit, cond: Conditions, rng: random.Random
) -> tuple[list[_Tile], dict[SectorId, dict[str, SlotReading]]]:
    side = kit.tile_side
    pitch = side + cond.tile_gap / 2
    tiles = []
    truth = {}
    for sector in state.galaxy.sectors:
        tile = sector.tile
        number = int(sector.id[1:]) if sector.id[1:].isdigit() else 0
        if tile is None or not kit.is_sector_marker(number):
            raise VisionError(f"{sector.id} has no printed tile to draw (tiles S1-S48 only)")
        jitter = cond.tile_gap / 2
        centre = (
            tile.column * pitch + rng.uniform(-jitter, jitter),
            tile.row * pitch + rng.uniform(-jitter, jitter),
        )
        board = (centre, tile.rotation * 90 + rng.uniform(-cond.tile_turn, cond.tile_turn))
        shift = rotation(board[1]) @ np.array(
            [rng.uniform(-1, 1) * cond.face_offset, rng.uniform(-1, 1) * cond.face_offset]
        )
        face = (
            (centre[0] + float(shift[0]), centre[1] + float(shift[1])),
            board[1] + rng.uniform(-2, 2) * cond.face_offset,
        )
        variant = kit.variant_of(number)
        contents = _contents(state, kit, sector.id, variant, rng)
        truth[sector.id] = contents
        tokens = []
        for slot in kit.variants[variant]:
            reading = contents[slot.name]
            if reading.state is not SlotState.TOKEN:
                continue
            careful = rng.random() < 0.3
            r = 0.0 if careful else cond.token_offset * math.sqrt(rng.random())
            a = rng.uniform(0, 2 * math.pi)
            turn = 0.0 if careful else rng.uniform(-cond.token_turn, cond.token_turn)
            tokens.append(
                _Token(
                    slot,
                    reading,
                    (r * math.cos(a), r * math.sin(a)),
                    turn,
                    rng.uniform(-cond.cut, cond.cut),
                )
            )
        cut = tuple(rng.uniform(-cond.cut, cond.cut) for _ in range(4))
        tiles.append(_Tile(sector.id, number, board, face, cut, tuple(tokens)))  # type: ignore[arg-type]
    return tiles, truth


# Drawing on the table canvas -------------------------------------------------------------------


class _Canvas:
    """The table seen from straight above at ``s`` px/mm, from ``origin`` (mm) on: printed
    colours (sRGB), how glossy each point is, and what covers the board."""

    def __init__(
        self, origin: Point, size: tuple[int, int], s: float, mat: RGB, rng: random.Random
    ) -> None:
        self.origin = origin
        self.s = s
        height, width = size
        # The mat: its colour, a slow mottling and a grain (made small, then enlarged).
        noise = np.random.default_rng(rng.randrange(2**31))
        slow = noise.normal(0, 0.06, (max(2, height // 40), max(2, width // 40)))
        grain = noise.normal(0, 0.03, (max(2, height // 3), max(2, width // 3)))
        texture = cv2.resize(slow.astype(np.float32), (grain.shape[1], grain.shape[0]))
        texture = cv2.resize(1 + texture + grain.astype(np.float32), (width, height))
        base = np.array(printing.bgr(mat), np.float32)
        self.image = cv2.merge([cv2.convertScaleAbs(texture, alpha=float(c)) for c in base])
        self.gloss = np.full((height, width), 0.15, np.float32)
        self.cover = np.zeros((height, width), np.uint8)
        """255 where a hand or a sleeve lies."""

    def pixel(self, point: Point) -> tuple[float, float]:
        return ((point[0] - self.origin[0]) * self.s, (point[1] - self.origin[1]) * self.s)

    def place(
        self,
        patch: Image,
        alpha: npt.NDArray[np.uint8],
        centre: Point,
        angle: float,
        patch_s: float,
        *,
        gloss: float | None = None,
    ) -> None:
        """Lay ``patch`` (drawn at ``patch_s`` px/mm, its centre its middle) with its opacity
        ``alpha`` at ``centre`` (mm) turned ``angle`` degrees."""
        ph, pw = patch.shape[:2]
        k = self.s / patch_s
        r = rotation(angle) * k
        cx, cy = self.pixel(centre)
        # canvas = r @ (p - patch_centre) + centre, with pixel centres at +0.5
        t = np.array([cx - 0.5, cy - 0.5]) - r @ np.array([pw / 2 - 0.5, ph / 2 - 0.5])
        m = np.hstack([r, t[:, None]])
        reach = math.hypot(pw, ph) * k / 2 + 2
        x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
        x1 = min(self.image.shape[1], int(cx + reach) + 1)
        y1 = min(self.image.shape[0], int(cy + reach) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        m[:, 2] -= (x0, y0)
        size = (x1 - x0, y1 - y0)
        flags = cv2.INTER_AREA if k < 0.7 else cv2.INTER_LINEAR
        if k < 0.7:
            patch = cv2.resize(patch, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            alpha = cv2.resize(alpha, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            m[:, :2] /= k
            flags = cv2.INTER_LINEAR
        warped = cv2.warpAffine(patch, m, size, flags=flags, borderMode=cv2.BORDER_CONSTANT)
        a = cv2.warpAffine(alpha, m, size, flags=flags, borderMode=cv2.BORDER_CONSTANT)
        weight = (a.astype(np.float32) / 255.0)[:, :, None]
        roi = self.image[y0:y1, x0:x1]
        roi[:] = (roi * (1 - weight) + warped * weight + 0.5).astype(np.uint8)
        if gloss is not None:
            g = self.gloss[y0:y1, x0:x1]
            g[:] = g * (1 - weight[:, :, 0]) + gloss * weight[:, :, 0]

    def polygon(self, points: Sequence[Point], rgb: RGB, *, gloss: float, cover: bool) -> None:
        pts = np.array([self.pixel(p) for p in points]) - 0.5
        found = _roi_mask(pts, self.cover.shape)
        if found is None:
            return
        rows, cols, mask = found
        weight = mask.astype(np.float32) / 255
        roi = self.image[rows, cols]
        colour = np.array(printing.bgr(rgb), np.float32)
        roi[:] = (roi * (1 - weight[:, :, None]) + colour * weight[:, :, None] + 0.5).astype(
            np.uint8
        )
        g = self.gloss[rows, cols]
        g[:] = g * (1 - weight) + gloss * weight
        if cover:
            self.cover[rows, cols] |= (mask > 127).astype(np.uint8) * 255


def _roi_mask(
    points_px: npt.NDArray[np.float64], shape: tuple[int, int], line: int = cv2.LINE_AA
) -> tuple[slice, slice, npt.NDArray[np.uint8]] | None:
    """A polygon (pixel coordinates) filled into a mask just big enough to hold it: the
    rows and columns it covers and the mask; None when it lies outside ``shape``."""
    x0 = max(0, math.floor(points_px[:, 0].min()) - 1)
    y0 = max(0, math.floor(points_px[:, 1].min()) - 1)
    x1 = min(shape[1], math.ceil(points_px[:, 0].max()) + 2)
    y1 = min(shape[0], math.ceil(points_px[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    poly = np.round((points_px - [x0, y0]) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(mask, [poly], 255, line, 4)
    return slice(y0, y1), slice(x0, x1), mask


def _square(half: float) -> list[Point]:
    return [(-half, -half), (half, -half), (half, half), (-half, half)]


def _face_patch(kit: Kit, tile: _Tile, s: float) -> tuple[Image, npt.NDArray[np.uint8]]:
    """The face as cut out: its print with bleed, and the cut shape (each edge cut a little
    inside or outside its line) as opacity."""
    image = printing.face(kit, tile.number, s)
    alpha = np.zeros(image.shape[:2], np.uint8)
    half = kit.tile_side / 2
    left, top, right, bottom = tile.cut
    size = image.shape[0]
    origin = (-size / (2 * s), -size / (2 * s))
    printing.fill_mask(
        alpha,
        [
            (-half - left, -half - top),
            (half + right, -half - top),
            (half + right, half + bottom),
            (-half - left, half + bottom),
        ],
        s,
        origin,
    )
    return image, alpha


def _token_patch(
    kit: Kit, token: _Token, s: float, side: RGB
) -> tuple[Image, npt.NDArray[np.uint8], float]:
    """A token as cut out, centred: its print and opacity, and its half-size (mm)."""
    reading = token.reading
    rgb = kit.printed["mineral"] if reading.colour is None else kit.colours[reading.colour.value]
    image, half = printing.token(kit, token.slot, s, colour=rgb, unit=reading.kind)
    spec = kit.token(token.slot)
    alpha = np.zeros(image.shape[:2], np.uint8)
    origin = (-half, -half)
    printing.fill_mask(
        alpha, printing.shape_points(spec.shape, (0, 0), spec.inradius + token.cut), s, origin
    )
    return image, alpha, half


def _hand(rng: random.Random, at: Point, reach: float) -> list[list[Point]]:
    """A hand reaching over the board from outside it: palm, fingers, thumb and forearm."""
    angle = rng.uniform(0, 360)
    r = rotation(angle)
    size = rng.uniform(0.85, 1.15)
    pieces: list[list[Point]] = []

    def ellipse(cx: float, cy: float, ax: float, ay: float, tilt: float = 0.0) -> None:
        rt = rotation(tilt)
        pts = []
        for i in range(40):
            t = 2 * math.pi * i / 40
            p = r @ (rt @ np.array([ax * math.cos(t), ay * math.sin(t)]) + np.array([cx, cy]))
            pts.append((float(p[0] * size + at[0]), float(p[1] * size + at[1])))
        pieces.append(pts)

    ellipse(0, 0, 44, 52)
    for i, dx in enumerate((-27, -9, 9, 27)):
        length = (60, 72, 68, 54)[i]
        ellipse(dx, -46 - length / 2 + 10, 8.5, length / 2, (i - 1.5) * rng.uniform(2, 8))
    ellipse(-48, 6, 11, 32, -40)
    ellipse(0, 60 + reach / 2, 36, reach / 2 + 20)
    return pieces


# Photographing ---------------------------------------------------------------------------------


def _px_per_mm(h: Matrix, at: Point) -> float:
    pts = np.array([[at, (at[0] + 1, at[1]), (at[0], at[1] + 1)]], np.float64)
    p = cv2.perspectiveTransform(pts, h)[0]
    (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
    return float(math.sqrt(abs(ax * by - ay * bx)))


def render(
    state: State, conditions: Conditions | None = None, *, kit: Kit | None = None
) -> Rendered:
    """Photograph the table of ``state`` under ``conditions``; see the module docstring."""
    nominal = kit or load_kit()
    cond = conditions or Conditions()
    rng = random.Random(cond.seed)
    printer = Printer(PAPERS[cond.paper], cond.printer, rng, tile=cond.dark_tiles)
    kit = printer.kit(nominal)
    tiles, contents = _layout(state, kit, cond, rng)
    side = kit.tile_side

    # Where the card lies: beside the board, on a side drawn at random.
    centres = np.array([t.board[0] for t in tiles])
    low, high = centres.min(axis=0) - side / 2, centres.max(axis=0) + side / 2
    cw, ch = kit.card.size
    where = rng.randrange(4)
    gap = rng.uniform(*CARD_GAP)
    mid = (low + high) / 2
    offsets = {
        0: (low[0] - gap - cw / 2, mid[1] + rng.uniform(-1, 1) * (high[1] - low[1] - ch) / 2),
        1: (high[0] + gap + cw / 2, mid[1] + rng.uniform(-1, 1) * (high[1] - low[1] - ch) / 2),
        2: (mid[0] + rng.uniform(-1, 1) * max(0, high[0] - low[0] - cw) / 2, low[1] - gap - ch / 2),
        3: (
            mid[0] + rng.uniform(-1, 1) * max(0, high[0] - low[0] - cw) / 2,
            high[1] + gap + ch / 2,
        ),
    }
    card_centre = (float(offsets[where][0]), float(offsets[where][1]))
    card_angle = rng.uniform(-15, 15)
    corners = [_to_table((t.board[0], t.board[1]), c) for t in tiles for c in _square(side / 2)] + [
        _to_table((card_centre, card_angle), (x * cw / 2, y * ch / 2))
        for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    content = np.array(corners)
    h, _ = camera(
        content,
        rng,
        size=(cond.width, cond.height),
        turn=cond.rotation,
        tilt=cond.tilt,
        tilt_direction=cond.tilt_direction,
        fill=cond.fill,
        distance=1.6,
        slack=(0.2, 0.8),
    )
    board_px = _px_per_mm(h, (float(mid[0]), float(mid[1])))
    sharpest = max(_px_per_mm(h, (float(p[0]), float(p[1]))) for p in content)

    # The canvas: what the camera sees of the table, top-down, about twice as fine.
    s = float(min(5.0, max(2.0, 1.5 * sharpest)))
    inverse = np.linalg.inv(h)
    frame = np.array(
        [[[0, 0], [cond.width, 0], [cond.width, cond.height], [0, cond.height]]], np.float64
    )
    seen = cv2.perspectiveTransform(frame, inverse)[0]
    lo = np.maximum(seen.min(axis=0), content.min(axis=0) - 300) - 5
    hi = np.minimum(seen.max(axis=0), content.max(axis=0) + 300) + 5
    origin = (float(lo[0]), float(lo[1]))
    size = (math.ceil((hi[1] - lo[1]) * s), math.ceil((hi[0] - lo[0]) * s))
    canvas = _Canvas(origin, size, s, MATS[cond.mat], rng)

    board_edge = rng.choice(BOARD_EDGES)
    for tile in tiles:
        canvas.polygon(
            [_to_table(tile.board, c) for c in _square(side / 2)],
            board_edge,
            gloss=0.1,
            cover=False,
        )
        image, alpha = _face_patch(kit, tile, s)
        canvas.place(image, alpha, tile.face[0], tile.face[1], s, gloss=0.35)
    # Tokens: a contact shadow, the card-stock edge towards the camera, then the token.
    towards = (
        rotation(-cond.tilt_direction)
        @ np.array([1.0, 0.0])
        * math.tan(math.radians(cond.tilt))
        * 1.0
    )
    side_colour = rng.choice([(225, 222, 212), (90, 88, 84)])
    for tile in tiles:
        for token in tile.tokens:
            image, alpha, _ = _token_patch(kit, token, s, side_colour)
            centre = _to_table(
                tile.face,
                (token.slot.centre[0] + token.offset[0], token.slot.centre[1] + token.offset[1]),
            )
            angle = tile.face[1] + token.turn
            shadow = cv2.GaussianBlur(alpha, (0, 0), 0.8 * s)
            dark = np.zeros_like(image)
            canvas.place(
                dark, (shadow * 0.45).astype(np.uint8), (centre[0] + 0.4, centre[1] + 0.4), angle, s
            )
            edge = np.empty_like(image)
            edge[:] = printing.bgr(side_colour)
            canvas.place(edge, alpha, (centre[0] - towards[0], centre[1] - towards[1]), angle, s)
            canvas.place(image, alpha, centre, angle, s, gloss=0.35)
    card_image = printing.card(kit, s)
    card_alpha = np.full(card_image.shape[:2], 255, np.uint8)
    canvas.place(card_image, card_alpha, card_centre, card_angle, s, gloss=0.35)

    # Occluders: dark card sleeves lying across tiles, then hands with their shadows.
    for _ in range(cond.sleeves):
        tile = rng.choice(tiles)
        at = _to_table(tile.face, (rng.uniform(-60, 60), rng.uniform(-60, 60)))
        turn = rng.uniform(0, 180)
        rect = [
            _to_table((at, turn), (x * 33, y * 45.5))
            for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        canvas.polygon(rect, rng.choice(SLEEVES), gloss=1.0, cover=True)
    shadow_field = np.ones(canvas.cover.shape, np.float32)
    for _ in range(cond.hands):
        target = _to_table(rng.choice(tiles).face, (rng.uniform(-50, 50), rng.uniform(-50, 50)))
        pieces = _hand(rng, target, rng.uniform(200, 350))
        skin = rng.choice(SKINS)
        drop = (rng.uniform(-30, 30), rng.uniform(-30, 30))
        mask = np.zeros(canvas.cover.shape, np.uint8)
        for piece in pieces:
            pts = np.array([canvas.pixel((x + drop[0], y + drop[1])) for x, y in piece]) - 0.5
            cv2.fillPoly(
                mask, [np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)], 255, cv2.LINE_AA, 4
            )
        small = cv2.resize(mask, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
        soft = cv2.GaussianBlur(small.astype(np.float32) / 255, (0, 0), s)
        soft = cv2.resize(soft, (mask.shape[1], mask.shape[0]), interpolation=cv2.INTER_LINEAR)
        shadow_field *= 1 - cond.shadow * soft
        for piece in pieces:
            canvas.polygon(piece, skin, gloss=0.3, cover=True)

    # The photograph.
    to_image = h @ np.array(
        [[1 / s, 0, origin[0] + 0.5 / s], [0, 1 / s, origin[1] + 0.5 / s], [0, 0, 1]]
    )
    shrink = s / max(board_px, 1e-6)
    albedo = canvas.image
    if shrink > 1.5:
        albedo = cv2.GaussianBlur(albedo, (0, 0), 0.35 * shrink)
    warp_size = (cond.width, cond.height)
    mat = printing.bgr(MATS[cond.mat])
    photo = cv2.warpPerspective(
        albedo,
        to_image,
        warp_size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=mat,
    )
    gloss = cv2.warpPerspective(
        canvas.gloss,
        to_image,
        warp_size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.15,
    )
    shade = cv2.warpPerspective(
        shadow_field,
        to_image,
        warp_size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=1.0,
    )
    glare = glare_field(
        rng, (cond.height, cond.width), count=cond.glare, strength=cond.glare_strength
    )
    image = photograph(
        photo,
        gloss=gloss,
        shade=shade,
        glare=glare,
        paper=PAPERS[cond.paper],
        shot=cond,
        rng=rng,
        glare_kelvin=cond.glare_kelvin,
    )

    truth = _truth(kit, tiles, contents, canvas, glare * gloss, to_image, h, cond)
    return Rendered(image, truth, h, board_px, cond)


def _truth(
    kit: Kit,
    tiles: Sequence[_Tile],
    contents: Mapping[SectorId, Mapping[str, SlotReading]],
    canvas: _Canvas,
    glare: Floats,
    to_image: Matrix,
    h: Matrix,
    cond: Conditions,
) -> dict[SectorId, TileTruth]:
    out = {}
    height, width = glare.shape

    def zone_hit(points: Sequence[Point]) -> tuple[bool, float]:
        """Whether anything covers the polygon (table mm), and the most glare inside it."""
        pts = np.array([canvas.pixel(p) for p in points]) - 0.5
        found = _roi_mask(pts, canvas.cover.shape, cv2.LINE_8)
        covered = found is not None and bool((canvas.cover[found[0], found[1]][found[2] > 0]).any())
        img_pts = cv2.perspectiveTransform(np.array([points], np.float64), h)[0]
        found = _roi_mask(img_pts, (height, width), cv2.LINE_8)
        if found is None:
            return covered, 0.0
        inside = glare[found[0], found[1]][found[2] > 0]
        return covered, float(inside.max()) if inside.size else 0.0

    for tile in tiles:
        half = kit.marker_side / 2
        covered, shine = zone_hit([_to_table(tile.face, p) for p in _square(half)])
        visible = not covered and shine < GLARE_HIDES_MARKER
        occluded, glared = set(), set()
        for slot in kit.variants[kit.variant_of(tile.number)]:
            ring = printing.shape_points(slot.shape, slot.centre, slot.inradius + ZONE)
            covered, shine = zone_hit([_to_table(tile.face, p) for p in ring])
            if covered or shine > GLARE_OCCLUDES:
                occluded.add(slot.name)
                if not covered:
                    glared.add(slot.name)
        out[tile.sector] = TileTruth(
            tile.sector, visible, contents[tile.sector], frozenset(occluded), frozenset(glared)
        )
    return out


def sample_state(seed: int = 1, players: int = 8) -> State:
    """A busy random position to draw: a setup played for a few greedy turns."""
    from companion.local_cluster.game import Game
    from companion.local_cluster.generation import random_setup
    from companion.local_cluster.policy import greedy_orders, greedy_plan, random_retreats
    from companion.local_cluster.state import Phase

    state = random_setup(seed, players)
    game = Game(state)
    rng = random.Random(seed)
    for _ in range(12):
        s = game.state
        if s.phase is Phase.ORDERS:
            game.play(
                {e.colour: greedy_orders(s, e.colour, rng) for e in s.empires if not e.eliminated}
            )
        elif s.phase is Phase.RETREATS:
            game.retreat(random_retreats(s, rng))
        elif s.phase is Phase.BUILD:
            game.build(
                {e.colour: greedy_plan(s, e.colour, rng) for e in s.empires if not e.eliminated}
            )
        else:
            break
    return game.state


def slip(state: State, rng: random.Random) -> State:
    """The same position with one unit of another type (docked craft dropped): a player's
    slip, for demonstrating the table screen's discrepancies."""
    index = rng.randrange(len(state.units))
    unit = state.units[index]
    kind = rng.choice([k for k in UnitType if k is not unit.kind])
    units = list(state.units)
    units[index] = dataclasses.replace(unit, kind=kind, docked=0)
    return dataclasses.replace(state, units=tuple(units))


def describe(conditions: Conditions) -> dict[str, Any]:
    return dataclasses.asdict(conditions)
