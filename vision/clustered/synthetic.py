"""Synthetic pictures of a Clustered table, with ground truth, for tests and the benchmark.

The renderer lays the cards of a layout as printed (:mod:`vision.clustered.draw`, from the kit
description only) on a table: each card turned a quarter turn any way (cards have no up),
a little off its cell and off square, with small gaps between cards. Then it photographs the
table under the same conditions as the Local Cluster vision benchmark: perspective up to 30
degrees of tilt, any rotation, warm to daylight light (2700-6500 K), brightness 0.5-1.5, a
soft shadow, a hand over part of the table, blur, sensor noise, JPEG, and glare (a bright
reflection that washes out what lies under it). It shares no code with the recognizer.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping

import cv2
import numpy as np
import numpy.typing as npt

from companion.clustered.cards import Card
from companion.clustered.cells import Cell
from companion.clustered.layout import Layout
from companion.clustered.settings import Palette
from vision.clustered.draw import bgr, card_face
from vision.clustered.kit import Kit, Point, load_kit
from vision.photograph import blackbody_rgb, camera, rotation

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

TABLE_RGB = (150, 112, 78)
SKIN_RGB = (214, 168, 142)
EXPOSURE = 0.62


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How the table is lit and photographed (the ranges of the Local Cluster benchmark, and
    glare)."""

    width: int = 1920
    height: int = 1080
    rotation: float = 0.0
    tilt: float = 0.0
    tilt_direction: float = 0.0
    fill: float = 0.9
    kelvin: float = 6500.0
    brightness: float = 1.0
    blur: float = 0.0
    noise: float = 0.0
    jpeg: int | None = None
    shadow: float = 0.0
    hand: bool = False
    glare: float = 0.0
    """How strong a bright reflection is (0-0.8); 0: none."""
    seed: int = 0

    @classmethod
    def random(cls, rng: random.Random, *, width: int = 1920, height: int = 1080) -> Conditions:
        return cls(
            width=width,
            height=height,
            rotation=rng.uniform(0, 360),
            tilt=rng.uniform(0, 30),
            tilt_direction=rng.uniform(0, 360),
            fill=rng.uniform(0.8, 0.95),
            kelvin=rng.uniform(2700, 6500),
            brightness=rng.uniform(0.5, 1.5),
            blur=rng.uniform(0, 1.2),
            noise=rng.uniform(0, 4),
            jpeg=rng.choice([None, 75, 85, 95]),
            shadow=rng.uniform(0, 0.4),
            hand=rng.random() < 0.5,
            glare=rng.choice([0.0, 0.0, rng.uniform(0.2, 0.8)]),
            seed=rng.randrange(2**31),
        )


@dataclasses.dataclass(frozen=True)
class CardTruth:
    """What was drawn in one cell."""

    cell: Cell
    card: Card
    centre: Point
    """Table millimetres (x east, y south) of the card's centre."""
    turn: int
    """Quarter turns the card lies turned (0-3)."""
    offset: Point
    """How far the centre lies from its cell's centre, in cells."""
    marker_visible: bool
    face_visible: bool
    """Nothing covers its symbols (no hand, no strong glare)."""

    @property
    def aligned(self) -> bool:
        """K2.5: the centre lies in the middle half of its cell."""
        return abs(self.offset[0]) <= 0.25 and abs(self.offset[1]) <= 0.25


@dataclasses.dataclass(frozen=True)
class Rendered:
    image: Image
    cards: Mapping[Cell, CardTruth]
    table_to_image: Matrix
    """Homography from table millimetres to image pixels."""
    pitch: float
    """Millimetres from one cell to the next."""
    px_per_mm: float
    conditions: Conditions


def _paste(canvas: Image, patch: Image, centre: Point, angle: float, s: float) -> None:
    """Paste a card (``s`` px/mm) at ``centre`` (canvas mm) turned ``angle`` degrees, warping
    only the region it covers."""
    ph, pw = patch.shape[:2]
    r = rotation(angle)
    c = np.array(centre) * s
    reach = math.hypot(pw, ph) / 2 + 2
    x0, y0 = max(0, int(c[0] - reach)), max(0, int(c[1] - reach))
    x1, y1 = (
        min(canvas.shape[1], int(c[0] + reach) + 1),
        min(canvas.shape[0], int(c[1] + reach) + 1),
    )
    if x0 >= x1 or y0 >= y1:
        return
    t = c - np.array([x0, y0])
    m = np.hstack([r, (t - r @ np.array([pw / 2, ph / 2]))[:, None]])
    roi = canvas[y0:y1, x0:x1]
    cv2.warpAffine(
        patch,
        m,
        (x1 - x0, y1 - y0),
        dst=roi,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )


def _hand(rng: random.Random, at: Point) -> list[list[Point]]:
    """A hand (palm, four fingers, thumb, wrist) in table mm, reaching in from a side."""
    r = rotation(rng.uniform(0, 360))
    pieces: list[list[Point]] = []

    def ellipse(cx: float, cy: float, ax: float, ay: float, tilt: float = 0.0) -> None:
        rt = rotation(tilt)
        pts = []
        for i in range(32):
            t = 2 * math.pi * i / 32
            x, y = rt @ np.array([ax * math.cos(t), ay * math.sin(t)])
            x, y = r @ np.array([x + cx, y + cy])
            pts.append((float(x + at[0]), float(y + at[1])))
        pieces.append(pts)

    ellipse(0, 0, 55, 62)
    for i, dx in enumerate((-30, -10, 10, 30)):
        length = (62, 72, 68, 55)[i]
        ellipse(dx, -50 - length / 2 + 8, 9, length / 2, (i - 1.5) * 5)
    ellipse(-55, 10, 11, 34, -50)
    ellipse(0, 130, 48, 85)
    return pieces


def _kelvin_gains(kelvin: float) -> npt.NDArray[np.float64]:
    """Linear RGB gains of a light at ``kelvin`` against daylight, the largest 1 (a 2.2 gamma)."""

    def rgb(t: float) -> npt.NDArray[np.float64]:
        c = np.clip(np.array(blackbody_rgb(t)) / 255.0, 0.01, 1)
        return np.asarray(c**2.2, dtype=np.float64)

    gains = rgb(kelvin) / rgb(6500)
    return np.asarray(gains / gains.max(), dtype=np.float64)


def _photograph(photo: Image, cond: Conditions, rng: random.Random) -> Image:
    """Light (colour temperature, brightness, shadow, glare), blur, noise and JPEG."""
    height, width = photo.shape[:2]
    linear = (photo.astype(np.float32) / 255.0) ** 2.2
    gains = _kelvin_gains(cond.kelvin)[::-1]
    linear *= (gains * EXPOSURE * cond.brightness).astype(np.float32)
    small_size = (max(2, width // 16), max(2, height // 16))
    if cond.shadow > 0:
        small = np.ones((small_size[1], small_size[0]), np.float32)
        centre = (int(rng.uniform(0, small_size[0])), int(rng.uniform(0, small_size[1])))
        axes = (
            int(rng.uniform(0.2, 0.5) * small_size[0]),
            int(rng.uniform(0.2, 0.5) * small_size[1]),
        )
        cv2.ellipse(small, centre, axes, rng.uniform(0, 180), 0, 360, 1 - cond.shadow, -1)
        small = cv2.GaussianBlur(small, (0, 0), small_size[0] * 0.06)
        linear *= cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)[:, :, None]
    if cond.glare > 0:
        small = np.zeros((small_size[1], small_size[0]), np.float32)
        centre = (
            int(rng.uniform(0.2, 0.8) * small_size[0]),
            int(rng.uniform(0.2, 0.8) * small_size[1]),
        )
        axes = (
            int(rng.uniform(0.03, 0.1) * small_size[0]),
            int(rng.uniform(0.02, 0.06) * small_size[0]),
        )
        cv2.ellipse(small, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        small = cv2.GaussianBlur(small, (0, 0), max(1.0, axes[0] * 0.5))
        field = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
        field = field / max(1e-6, float(field.max())) * cond.glare
        linear = linear + (1.2 - linear) * field[:, :, None]
    srgb = np.clip(linear, 0, 1) ** (1 / 2.2) * 255.0
    if cond.blur > 0:
        srgb = cv2.GaussianBlur(srgb, (0, 0), cond.blur)
    if cond.noise > 0:
        noise = np.random.default_rng(cond.seed).normal(0, cond.noise, srgb.shape)
        srgb = srgb + noise.astype(np.float32)
    image: Image = np.clip(srgb + 0.5, 0, 255).astype(np.uint8)
    if cond.jpeg is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            image = decoded
    return image


def render(
    layout: Layout,
    palette: Palette | None = None,
    conditions: Conditions | None = None,
    *,
    kit: Kit | None = None,
    plain: bool = False,
    unaligned: Mapping[Cell, Point] | None = None,
) -> Rendered:
    """Photograph ``layout`` (start cards included) under ``conditions``; ``plain`` draws a
    commercial-style deck without markers; ``unaligned`` moves some cards off their cells
    (offsets in cells)."""
    kit = kit or load_kit()
    palette = palette or Palette()
    cond = conditions or Conditions()
    rng = random.Random(cond.seed)
    side = kit.card_side
    pitch = side + rng.uniform(0.5, 3.0)
    placed: dict[Cell, tuple[Card, Point, float, int, Point]] = {}
    copies: dict[Card, int] = {}
    start_copy = 0
    for cell, card in layout.in_order():
        offset = (unaligned or {}).get(cell, (rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02)))
        centre = ((cell.x + offset[0]) * pitch, (-cell.y - offset[1]) * pitch)
        turn = 0 if card.is_start else rng.randrange(4)
        angle = turn * 90 + rng.uniform(-2.5, 2.5)
        if card.is_start:
            copy, start_copy = start_copy, start_copy + 1
        else:
            copy = copies.get(card, 0)
            copies[card] = copy + 1
        placed[cell] = (card, centre, angle, copy, offset)
    xs = [c[1][0] for c in placed.values()]
    ys = [c[1][1] for c in placed.values()]
    margin = side
    x0, y0 = min(xs) - margin, min(ys) - margin
    x1, y1 = max(xs) + margin, max(ys) + margin
    content = np.array(
        [
            [x0 + side / 2, y0 + side / 2],
            [x1 - side / 2, y0 + side / 2],
            [x1 - side / 2, y1 - side / 2],
            [x0 + side / 2, y1 - side / 2],
        ]
    )
    homography, px_per_mm = camera(
        content,
        rng,
        size=(cond.width, cond.height),
        turn=cond.rotation,
        tilt=cond.tilt,
        tilt_direction=cond.tilt_direction,
        fill=cond.fill,
        distance=2.0,
        slack=(0.3, 0.7),
    )
    s = float(min(6.0, max(2.0, px_per_mm * 1.8)))
    canvas = np.empty((math.ceil((y1 - y0) * s), math.ceil((x1 - x0) * s), 3), np.uint8)
    canvas[:] = bgr(TABLE_RGB)
    faces: dict[tuple[Card, int], Image] = {}
    for card, centre, angle, copy, _ in placed.values():
        face = faces.get((card, copy))
        if face is None:
            face = faces[(card, copy)] = card_face(kit, card, palette, s=s, plain=plain, copy=copy)
        _paste(canvas, face, (centre[0] - x0, centre[1] - y0), angle, s)
    hand_mask = np.zeros(canvas.shape[:2], np.uint8)
    if cond.hand:
        target = placed[rng.choice(sorted(placed))][1]
        for piece in _hand(rng, target):
            pts = np.array([((x - x0) * s * 16, (y - y0) * s * 16) for x, y in piece], np.int32)
            cv2.fillPoly(hand_mask, [pts.reshape(-1, 1, 2)], 255, cv2.LINE_8, 4)
        canvas[hand_mask > 0] = bgr(SKIN_RGB)
    to_image = homography @ np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
    photo = cv2.warpPerspective(
        canvas,
        to_image,
        (cond.width, cond.height),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=bgr(TABLE_RGB),
    )
    image = _photograph(photo, cond, rng)
    glare_mask = _glare_region(image, photo) if cond.glare > 0 else None
    truth: dict[Cell, CardTruth] = {}
    for cell, (card, centre, angle, _, offset) in placed.items():
        r = rotation(angle)

        def covered(point: Point, radius: float, r: Matrix = r, centre: Point = centre) -> bool:
            p = r @ np.array(point) + np.array(centre)
            cx, cy = (p[0] - x0) * s, (p[1] - y0) * s
            rad = radius * s
            xa, xb = max(0, int(cx - rad)), min(hand_mask.shape[1], int(cx + rad) + 2)
            ya, yb = max(0, int(cy - rad)), min(hand_mask.shape[0], int(cy + rad) + 2)
            if hand_mask[ya:yb, xa:xb].any():
                return True
            if glare_mask is None:
                return False
            q = to_image @ np.array([cx, cy, 1.0])
            u, v = int(q[0] / q[2]), int(q[1] / q[2])
            return bool(
                0 <= v < glare_mask.shape[0] and 0 <= u < glare_mask.shape[1] and glare_mask[v, u]
            )

        marker_at = kit.start_marker_centre if card.is_start else kit.marker_centre
        marker_visible = not covered(marker_at, kit.marker_side * 0.75 + kit.marker_quiet)
        face_visible = not covered((0.0, kit.row_y if not plain else kit.plain_row_y), side * 0.45)
        turn = round(angle / 90) % 4
        truth[cell] = CardTruth(cell, card, centre, turn, offset, marker_visible, face_visible)
    return Rendered(image, truth, homography, pitch, px_per_mm, cond)


def _glare_region(image: Image, before: Image) -> npt.NDArray[np.bool_]:
    """Where the reflection washed the picture out (ground truth for 'covered')."""
    bright = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) > 235
    return np.asarray(bright, dtype=np.bool_)
