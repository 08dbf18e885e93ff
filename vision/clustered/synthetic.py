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

import numpy as np
import numpy.typing as npt

from companion.clustered.cards import Card
from companion.clustered.cells import Cell
from companion.clustered.layout import Layout
from companion.clustered.settings import Palette
from vision.clustered.draw import bgr, card_face
from vision.clustered.kit import Kit, Point, load_kit
from vision.photograph import MATS, PAPERS, camera, rotation
from vision.tabletop import (
    PATTERNED,
    Laid,
    Lighting,
    PatternedCloth,
    drawn_lighting,
    lay_cloth,
    lay_hands,
    paste,
    take,
)

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

GLARE_HIDES = 0.5
"""Reflected light (units of paper white) beyond which what lies under it is washed out."""
GLOSS = {"mat": 0.15, "card": 0.35, "skin": 0.3}
"""How much of a highlight each surface reflects."""


@dataclasses.dataclass(frozen=True)
class Conditions(Lighting):
    """How the table is made up, lit and photographed: the Local Cluster vision benchmark's
    ranges (issue 18), which :meth:`random` draws from."""

    width: int = 1920
    height: int = 1080
    rotation: float = 0.0
    tilt: float = 0.0
    """Degrees the camera looks away from straight down (0-30)."""
    tilt_direction: float = 0.0
    fill: float = 0.9
    mat: str = "wood"
    """A flat colour of :data:`MATS`, or :data:`PATTERNED` (never drawn at random)."""
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
            **drawn_lighting(rng),
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
    cloth = None
    if cond.mat == PATTERNED:  # drawn from its own stream: the rest is as on a plain mat
        cloth = PatternedCloth.draw(random.Random(f"cloth {cond.seed}"))
        lay_cloth(canvas, cloth, s, (x0, y0))
    else:
        canvas[:] = bgr(MATS[cond.mat])
    gloss = np.full(shape, GLOSS["mat"], np.float32)
    faces: dict[tuple[Card, int], Image] = {}
    for card, centre, angle, copy, _ in placed.values():
        face = faces.get((card, copy))
        if face is None:
            face = card_face(printed, card, palette, s=s, plain=plain, copy=copy)
            faces[(card, copy)] = face
        at = (centre[0] - x0, centre[1] - y0)
        paste(canvas, face, at, angle, s)
        paste(gloss, np.full(face.shape[:2], GLOSS["card"], np.float32), at, angle, s)
    # Hands over the cards, each with its shadow a little to one side.
    shade, hand_mask = lay_hands(
        rng,
        cond.hands,
        [placed[cell][1] for cell in sorted(placed)],
        canvas,
        gloss,
        s,
        (x0, y0),
        shadow=cond.hand_shadow,
        skin_gloss=GLOSS["skin"],
    )
    beyond = (0, 0, 0) if cloth is not None else bgr(MATS[cond.mat])
    laid = Laid(canvas, gloss, shade, s, (x0, y0), beyond, GLOSS["mat"], cloth)
    image, shine, to_image = take(laid, homography, cond, paper, rng)
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
