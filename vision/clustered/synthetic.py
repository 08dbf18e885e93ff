"""Synthetic pictures of a Clustered table, with ground truth, for tests and the benchmark.

The renderer lays the cards of a layout as printed (:mod:`vision.clustered.draw`, from the kit
description only) on a table: each card turned a quarter turn any way (cards have no up),
a little off its cell and off square, with small gaps between cards. Then it photographs the
table through the shared :mod:`vision.photograph`, under the conditions of the Local Cluster
vision benchmark (issue 18), as the other games' renderers do: any rotation, up to 30 degrees
of tilt, 2700-6500 K light falling off to one side with vignetting, brightness 0.55-1.4, a soft
shadow, up to two hands of any skin tone with their shadows, specular highlights that wash out
what they fall on, the cards printed on papers of four whites on mats of seven colours, blur,
shot and read noise through a Bayer filter, and JPEG 60-95. It shares no code with the
recognizer.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.clustered.cards import Card
from companion.clustered.cells import Cell
from companion.clustered.layout import Layout
from companion.clustered.settings import Palette
from vision.clustered.draw import bgr, card_face
from vision.clustered.kit import Kit, Point, load_kit
from vision.photograph import MATS, PAPERS, SKINS, camera, glare_field, photograph, rotation

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

GLARE_HIDES = 0.5
"""Reflected light (units of paper white) beyond which what lies under it is washed out."""
GLOSS = {"mat": 0.15, "card": 0.35, "skin": 0.3}
"""How much of a highlight each surface reflects."""


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How the table is made up, lit and photographed: the Local Cluster vision benchmark's
    ranges (issue 18), which :meth:`random` draws from."""

    width: int = 1920
    height: int = 1080
    rotation: float = 0.0
    tilt: float = 0.0
    """Degrees the camera looks away from straight down (0-30)."""
    tilt_direction: float = 0.0
    fill: float = 0.9
    kelvin: float = 6500.0
    brightness: float = 1.0
    gradient: float = 0.0
    """How much darker the far side of the picture is (0-0.5), a lamp off to one side."""
    vignette: float = 0.0
    glare: int = 0
    """Specular highlights in the picture (0-2)."""
    glare_strength: float = 1.0
    """A highlight's peak, in units of paper white (up to 2: clipped)."""
    blur: float = 0.0
    noise: float = 0.0
    """Read noise in 8-bit steps (shot noise grows with it)."""
    jpeg: int | None = None
    bayer: bool = False
    """Photographed through a Bayer colour filter and demosaiced."""
    shadow: float = 0.0
    """A soft shadow (someone leaning over the table) darkening up to this much (0-0.4)."""
    hands: int = 0
    hand_shadow: float = 0.4
    """How dark the hands' shadows are (0-0.6)."""
    mat: str = "wood"
    paper: str = "bright white"
    """The paper the cards are printed on."""
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
            brightness=rng.uniform(0.55, 1.4),
            gradient=rng.uniform(0, 0.45),
            vignette=rng.uniform(0, 0.35),
            glare=rng.choice([0, 0, 1, 1, 2]),
            glare_strength=rng.uniform(0.3, 2.0),
            blur=rng.uniform(0, 1.3),
            noise=rng.uniform(0.5, 4.0),
            jpeg=rng.choice([None, 60, 70, 80, 90, 95]),
            bayer=rng.random() < 0.7,
            shadow=rng.uniform(0, 0.4),
            hands=rng.choice([0, 0, 1, 1, 2]),
            hand_shadow=rng.uniform(0.2, 0.6),
            mat=rng.choice(sorted(MATS)),
            paper=rng.choice(sorted(PAPERS)),
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


def _paste(
    canvas: npt.NDArray[Any], patch: npt.NDArray[Any], centre: Point, angle: float, s: float
) -> None:
    """Paste a card (``s`` px/mm; its face, or a map of it such as its gloss) at ``centre``
    (canvas mm) turned ``angle`` degrees, warping only the region it covers."""
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
    paper = PAPERS[cond.paper]
    printed = dataclasses.replace(kit, paper=paper)
    shape = (math.ceil((y1 - y0) * s), math.ceil((x1 - x0) * s))
    canvas = np.empty((*shape, 3), np.uint8)
    canvas[:] = bgr(MATS[cond.mat])
    gloss = np.full(shape, GLOSS["mat"], np.float32)
    faces: dict[tuple[Card, int], Image] = {}
    for card, centre, angle, copy, _ in placed.values():
        face = faces.get((card, copy))
        if face is None:
            face = card_face(printed, card, palette, s=s, plain=plain, copy=copy)
            faces[(card, copy)] = face
        at = (centre[0] - x0, centre[1] - y0)
        _paste(canvas, face, at, angle, s)
        _paste(gloss, np.full(face.shape[:2], GLOSS["card"], np.float32), at, angle, s)
    # Hands over the cards, each with its shadow a little to one side.
    shade = np.ones(shape, np.float32)
    hand_mask = np.zeros(shape, np.uint8)
    for _ in range(cond.hands):
        target = placed[rng.choice(sorted(placed))][1]
        pieces = _hand(rng, target)
        skin = rng.choice(SKINS)
        drop = (rng.uniform(-20, 20), rng.uniform(-20, 20))
        one = np.zeros(shape, np.uint8)
        fallen = np.zeros(shape, np.uint8)
        for piece in pieces:
            pts = np.array([((x - x0) * s * 16, (y - y0) * s * 16) for x, y in piece], np.int32)
            cv2.fillPoly(one, [pts.reshape(-1, 1, 2)], 255, cv2.LINE_8, 4)
            dropped = np.array(
                [((x + drop[0] - x0) * s * 16, (y + drop[1] - y0) * s * 16) for x, y in piece],
                np.int32,
            )
            cv2.fillPoly(fallen, [dropped.reshape(-1, 1, 2)], 255, cv2.LINE_8, 4)
        soft = cv2.GaussianBlur(fallen.astype(np.float32) / 255, (0, 0), 6.0 * s)
        shade *= 1 - cond.hand_shadow * soft
        canvas[one > 0] = bgr(skin)
        gloss[one > 0] = GLOSS["skin"]
        shade[one > 0] = 1.0
        hand_mask |= one
    to_image = homography @ np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
    size = (cond.width, cond.height)
    photo = cv2.warpPerspective(
        canvas,
        to_image,
        size,
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=bgr(MATS[cond.mat]),
    )
    gloss_photo = cv2.warpPerspective(
        gloss, to_image, size, flags=cv2.INTER_LINEAR, borderValue=GLOSS["mat"]
    )
    shade_photo = cv2.warpPerspective(shade, to_image, size, flags=cv2.INTER_LINEAR, borderValue=1)
    if cond.shadow > 0:
        small = np.ones((max(2, cond.height // 16), max(2, cond.width // 16)), np.float32)
        sh, sw = small.shape
        axes = (int(rng.uniform(0.2, 0.5) * sw), int(rng.uniform(0.2, 0.5) * sh))
        middle = (int(rng.uniform(0, sw)), int(rng.uniform(0, sh)))
        cv2.ellipse(small, middle, axes, rng.uniform(0, 180), 0, 360, 1 - cond.shadow, -1)
        small = cv2.GaussianBlur(small, (0, 0), sw * 0.06)
        shade_photo *= cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    glare = glare_field(
        rng, (cond.height, cond.width), count=cond.glare, strength=cond.glare_strength
    )
    shine = glare * gloss_photo
    image = photograph(
        photo, gloss=gloss_photo, shade=shade_photo, glare=glare, paper=paper, shot=cond, rng=rng
    )
    ring = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 8, endpoint=False)]
    truth: dict[Cell, CardTruth] = {}
    for cell, (card, centre, angle, _, offset) in placed.items():
        r = rotation(angle)

        def covered(point: Point, radius: float, r: Matrix = r, centre: Point = centre) -> bool:
            """A hand over the disc, or a highlight washing out any of it."""
            p = r @ np.array(point) + np.array(centre)
            cx, cy = (p[0] - x0) * s, (p[1] - y0) * s
            rad = radius * s
            xa, xb = max(0, int(cx - rad)), min(hand_mask.shape[1], int(cx + rad) + 2)
            ya, yb = max(0, int(cy - rad)), min(hand_mask.shape[0], int(cy + rad) + 2)
            if hand_mask[ya:yb, xa:xb].any():
                return True
            for dx, dy in [(0.0, 0.0), *ring]:
                q = to_image @ np.array([cx + dx * rad, cy + dy * rad, 1.0])
                u, v = int(q[0] / q[2]), int(q[1] / q[2])
                if (
                    0 <= v < shine.shape[0]
                    and 0 <= u < shine.shape[1]
                    and shine[v, u] > GLARE_HIDES
                ):
                    return True
            return False

        marker_at = kit.start_marker_centre if card.is_start else kit.marker_centre
        marker_visible = not covered(marker_at, kit.marker_side * 0.75 + kit.marker_quiet)
        face_visible = not covered((0.0, kit.row_y if not plain else kit.plain_row_y), side * 0.45)
        turn = round(angle / 90) % 4
        truth[cell] = CardTruth(cell, card, centre, turn, offset, marker_visible, face_visible)
    return Rendered(image, truth, homography, pitch, px_per_mm, cond)
