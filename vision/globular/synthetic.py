"""Synthetic pictures of a Globular Cluster board, with ground truth, for tests and the benchmark.

The renderer lays the board's tiles as a table has them (G2.2: rows one tile high, each row
shifted half a tile), each a little off its place and a few degrees off square with small gaps
between, its sticker in the middle of its face turned to its tick (docs/physical-kit.md,
"Globular Cluster"), and pennies, stations and colonists on the tiles. Then it photographs the
table through the shared :mod:`vision.photograph`, under the conditions of the Local Cluster
vision benchmark (issue 18), as the other games' renderers do: any rotation, up to 30 degrees of
tilt seen from as close as the board is wide, 2700-6500 K light falling off to one side with
vignetting, brightness 0.55-1.4, a soft shadow, up to two hands of any skin tone with their
shadows, specular highlights that wash out what they fall on, four paper whites for the
stickers, seven mats or a patterned cloth, blur, shot and read noise through a Bayer filter, and
JPEG 60-95. It shares no code with the reader: the stickers' markers come from the kit.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping

import cv2
import numpy as np
import numpy.typing as npt

from companion.globular.board import Cell
from companion.globular.geometry import Position
from companion.globular.state import State
from companion.globular.tiles import Colour, Corner
from vision.globular.kit import MARKER_IDS, MARKER_MM, MITS_ID, TILE_MM, marker
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
Point = tuple[float, float]

QUIET_MM = 3.0
"""The sticker's white margin around its marker."""
PENNY_MM = 19.0
"""A penny's diameter."""
GLARE_HIDES = 0.5
"""Reflected light (units of paper white) beyond which what lies under it is washed out."""
GLOSS = {"mat": 0.15, "tile": 0.25, "sticker": 0.4, "penny": 0.7, "skin": 0.3}
"""How much of a highlight each surface reflects."""
TILE_FACES: dict[Colour | None, tuple[int, int, int]] = {
    Colour.RED: (196, 64, 58),
    Colour.BLACK: (58, 56, 54),
    Colour.BLUE: (52, 86, 160),
    Colour.GREEN: (56, 128, 74),
    None: (214, 200, 170),
}
"""A tile face's colour by its suit (sRGB); ``None`` the MITS."""
TURNS = (Corner.TL, Corner.TR, Corner.BR, Corner.BL)
"""The tick corner of a sticker turned 0, 1, 2 or 3 quarters clockwise (the marker's top left
at the tick)."""


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
    distance: float = 1.2
    """How far above the board the camera is, in board widths (0.8-2: the nearer, the more a
    tilt shows the far side smaller)."""
    fill: float = 0.85
    mat: str = "wood"
    """A flat colour of :data:`MATS`, or :data:`PATTERNED`."""
    paper: str = "bright white"
    """The paper the stickers are printed on."""
    askew: float = 3.0
    """Degrees a tile may lie turned off its row (each drawn up to this either way)."""
    seed: int = 0

    @classmethod
    def random(cls, rng: random.Random, *, width: int = 1920, height: int = 1080) -> Conditions:
        return cls(
            width=width,
            height=height,
            rotation=rng.uniform(0, 360),
            tilt=rng.uniform(0, 30),
            tilt_direction=rng.uniform(0, 360),
            distance=rng.uniform(0.8, 2.0),
            fill=rng.uniform(0.7, 0.95),
            **drawn_lighting(rng),
            mat=rng.choice([*sorted(MATS), PATTERNED]),
            paper=rng.choice(sorted(PAPERS)),
            askew=rng.uniform(0, 4),
            seed=rng.randrange(2**31),
        )


@dataclasses.dataclass(frozen=True)
class TileTruth:
    """What was drawn at one position."""

    position: Position
    code: str
    corner: Corner | None
    sticker_visible: bool
    """Nothing covers the sticker's marker (no hand, penny or piece, no strong glare)."""


@dataclasses.dataclass(frozen=True)
class Rendered:
    image: Image
    tiles: Mapping[Position, TileTruth]
    table_to_image: Matrix
    """Homography from table millimetres to image pixels."""
    px_per_mm: float
    conditions: Conditions


def _face(cell: Cell, s: float, paper: tuple[int, int, int]) -> Image:
    """A tile's face, ``s`` pixels a millimetre, with its sticker turned to its tick (BGR)."""
    side = round(TILE_MM * s)
    colour = TILE_FACES[None if cell.tile is None else cell.tile.colour]
    face = np.empty((side, side, 3), np.uint8)
    face[:] = colour[::-1]
    edge = max(1, round(0.8 * s))
    cv2.rectangle(face, (0, 0), (side - 1, side - 1), (40, 40, 40), edge)
    if cell.tile is not None:  # the piecepack's printed grid, under the sticker
        ink = tuple(min(255, c + 70) for c in colour[::-1])
        cv2.line(face, (side // 2, edge), (side // 2, side - edge), ink, edge)
        cv2.line(face, (edge, side // 2), (side - edge, side // 2), ink, edge)
    marker_px = round(MARKER_MM * s)
    sticker_px = round((MARKER_MM + 2 * QUIET_MM) * s)
    at = (side - sticker_px) // 2
    face[at : at + sticker_px, at : at + sticker_px] = paper[::-1]
    number = MITS_ID if cell.tile is None else MARKER_IDS[cell.code]
    turns = 0 if cell.corner is None else TURNS.index(cell.corner)
    drawn = np.rot90(marker(number, marker_px), -turns)
    inner = (side - marker_px) // 2
    face[inner : inner + marker_px, inner : inner + marker_px] = drawn
    return face


def render(state: State, conditions: Conditions | None = None) -> Rendered:
    """Photograph the board of ``state`` under ``conditions``."""
    cond = conditions or Conditions()
    rng = random.Random(cond.seed)
    gap = rng.uniform(0.3, 2.0)
    pitch = TILE_MM + gap
    placed: dict[Position, tuple[Cell, Point, float]] = {}
    for position in sorted(state.board):
        centre = (
            position.q / 2 * pitch + rng.uniform(-1.0, 1.0),
            position.r * pitch + rng.uniform(-1.0, 1.0),
        )
        placed[position] = (state.board[position], centre, rng.uniform(-cond.askew, cond.askew))
    xs = [c[1][0] for c in placed.values()]
    ys = [c[1][1] for c in placed.values()]
    margin = TILE_MM
    x0, y0 = min(xs) - margin, min(ys) - margin
    x1, y1 = max(xs) + margin, max(ys) + margin
    half = TILE_MM / 2
    content = np.array(
        [
            [x0 + half, y0 + half],
            [x1 - half, y0 + half],
            [x1 - half, y1 - half],
            [x0 + half, y1 - half],
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
        distance=cond.distance,
        slack=(0.3, 0.7),
    )
    s = float(min(8.0, max(2.0, px_per_mm * 1.8)))
    paper = PAPERS[cond.paper]
    shape = (math.ceil((y1 - y0) * s), math.ceil((x1 - x0) * s))
    canvas = np.empty((*shape, 3), np.uint8)
    cloth = None
    if cond.mat == PATTERNED:
        cloth = PatternedCloth.draw(random.Random(f"cloth {cond.seed}"))
        lay_cloth(canvas, cloth, s, (x0, y0))
    else:
        canvas[:] = MATS[cond.mat][::-1]
    gloss = np.full(shape, GLOSS["mat"], np.float32)
    cover = np.zeros(shape, np.uint8)  # 255 where a penny, a piece or a hand lies
    for cell, centre, angle in placed.values():
        at = (centre[0] - x0, centre[1] - y0)
        face = _face(cell, s, paper)
        paste(canvas, face, at, angle, s)
        shine = np.full(face.shape[:2], GLOSS["tile"], np.float32)
        sticker = round((MARKER_MM + 2 * QUIET_MM) * s)
        inner = (face.shape[0] - sticker) // 2
        shine[inner : inner + sticker, inner : inner + sticker] = GLOSS["sticker"]
        paste(gloss, shine, at, angle, s)
    # Pennies, stations and colonists on the tiles, where players put them: in the corners
    # around the sticker, now and then over its edge.
    for cell, centre, angle in placed.values():
        things = cell.pennies + (cell.station is not None) + (cell.colonist is not None)
        for index in range(things):
            a = math.radians(angle + 45 + 90 * rng.randrange(4) + rng.uniform(-25, 25))
            reach = rng.uniform(19, 26)
            cx = centre[0] - x0 + reach * math.cos(a)
            cy = centre[1] - y0 + reach * math.sin(a)
            is_piece = index >= cell.pennies
            radius = (7.0 if is_piece else PENNY_MM / 2) * s
            colour = TILE_FACES[rng.choice(list(Colour))][::-1] if is_piece else (60, 110, 176)
            ring = (int(cx * s * 16), int(cy * s * 16))
            cv2.circle(canvas, ring, int(radius * 16), colour, -1, cv2.LINE_AA, 4)
            cv2.circle(
                canvas, ring, int(radius * 16), (30, 50, 90), max(1, round(s * 0.5)), cv2.LINE_AA, 4
            )
            cv2.circle(gloss, ring, int(radius * 16), GLOSS["penny"], -1, cv2.LINE_8, 4)
            cv2.circle(cover, ring, int(radius * 16), 255, -1, cv2.LINE_8, 4)
    shade, hands = lay_hands(
        rng,
        cond.hands,
        [placed[position][1] for position in sorted(placed)],
        canvas,
        gloss,
        s,
        (x0, y0),
        shadow=cond.hand_shadow,
        skin_gloss=GLOSS["skin"],
    )
    cover |= hands
    beyond = (0, 0, 0) if cloth is not None else MATS[cond.mat][::-1]
    laid = Laid(canvas, gloss, shade, s, (x0, y0), beyond, GLOSS["mat"], cloth)
    image, shine, _ = take(laid, homography, cond, paper, rng)
    truth: dict[Position, TileTruth] = {}
    for position, (cell, centre, angle) in placed.items():
        r = rotation(angle)
        corners = [
            r @ np.array([dx, dy]) + np.array(centre)
            for dx in (-MARKER_MM / 2, MARKER_MM / 2)
            for dy in (-MARKER_MM / 2, MARKER_MM / 2)
        ]
        points = [np.array(centre), *corners]
        covered = False
        for p in points:
            cx, cy = int((p[0] - x0) * s), int((p[1] - y0) * s)
            if 0 <= cy < shape[0] and 0 <= cx < shape[1] and cover[cy, cx]:
                covered = True
        box = np.array([[(p[0] - x0) * s, (p[1] - y0) * s] for p in corners], np.float64)
        lo, hi = box.min(axis=0).astype(int), box.max(axis=0).astype(int) + 1
        if cover[max(0, lo[1]) : hi[1], max(0, lo[0]) : hi[0]].any():
            covered = True
        for p in points:
            q = homography @ np.array([p[0], p[1], 1.0])
            col, row = int(q[0] / q[2]), int(q[1] / q[2])
            inside_picture = 0 <= row < cond.height and 0 <= col < cond.width
            if inside_picture and shine[row, col] > GLARE_HIDES:
                covered = True
        truth[position] = TileTruth(position, cell.code, cell.corner, not covered)
    return Rendered(image, truth, homography, px_per_mm, cond)
