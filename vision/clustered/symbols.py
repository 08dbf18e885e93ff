"""Reading a commercial deck, which has no markers: cards from the paper they are printed on,
their attributes from their printed symbols.

1. The start card is the black square among white cards; its corners give a first grid.
2. Cells are visited outwards from it: a cell whose middle is paper-white holds a card, and
   the centroid of its ink (the symbols sit in the middle of the card) is the card's centre;
   the grid is refitted to those centres as they are found.
3. Each card is straightened and read: the ink is what differs from the card's own white;
   its pieces are the symbols (how many: the number), each piece's outline gives the shape
   (how much of its bounding rectangle it fills: a square all of it, a circle pi/4, a
   triangle half; a star, the wild card, is not convex), the ink inside it the fill, and the
   ink's hue against the card's white the colour. Each attribute comes with a margin; one
   too close to call is unknown, and so is a card covered by a hand or washed out by glare.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.clustered.cards import Fill, Shape
from companion.clustered.cells import Cell
from companion.clustered.scan import CardReading
from companion.clustered.settings import SECOND_START

Image = npt.NDArray[np.uint8]
Ratios = npt.NDArray[np.floating]
Matrix = npt.NDArray[np.float64]

PX_PER_MM = 4.0
"""Resolution of a straightened card."""
PAPER_MIDDLE = 0.55
"""Share of a cell's middle that must be paper-white for it to hold a card."""


@dataclasses.dataclass(frozen=True)
class Inks:
    """The palette's inks as printed (RGB) and the card paper's white."""

    colours: dict[str, tuple[int, int, int]]
    paper: tuple[int, int, int]


def _apply(h: Matrix, points: Matrix) -> Matrix:
    p = np.hstack([points, np.ones((len(points), 1))]) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], np.float64)


def find_start(image: Image) -> Matrix | None:
    """The black start card's four corners (image pixels), or None."""
    found = find_starts(image)
    return found[0] if found else None


def find_starts(image: Image, *, card_sized: bool = True) -> list[Matrix]:
    """The black start cards' corners (one or two, the largest first): dark squares, under
    0.28 of the paper's lightness or, where nothing is (a dark cloth joins the card through
    the gaps between the cards), under 0.16 or 0.1. With ``card_sized``, none smaller than a
    third of the usual card found in the picture (the cloth showing between four cards is
    such a square); without, the largest of any size."""
    return _find_starts(_lightness(image), card_sized=card_sized)


def _lightness(image: Image) -> npt.NDArray[np.float32]:
    """L* of every pixel (0-255)."""
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0], np.float32)


def _find_starts(light: npt.NDArray[np.float32], *, card_sized: bool = True) -> list[Matrix]:
    paper = float(np.percentile(light, 95))
    cards = [size for size, _ in _squares(light > paper * 0.6)] if card_sized else []
    least = float(np.median(cards)) / 3 if len(cards) >= 5 else 0.0
    for darkness in (START_DARKNESS, 0.16, 0.1):
        found = [(size, q) for size, q in _squares(light < paper * darkness) if size >= least]
        if found:
            found.sort(key=lambda c: -c[0])
            return [_clockwise(q) for size, q in found[:2] if size >= 0.6 * found[0][0]]
    return []


def _squares(mask: npt.NDArray[np.bool_]) -> list[tuple[float, Matrix]]:
    """The solid, square patches of a mask (area over 150 pixels), each with its size (area
    times solidity) and its four corners."""
    opened = cv2.morphologyEx(
        mask.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out: list[tuple[float, Matrix]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 150:
            continue
        (_cx, _cy), (w, h), _ = cv2.minAreaRect(contour)
        if min(w, h) <= 0 or max(w, h) / min(w, h) > 1.5:
            continue
        hull = cv2.convexHull(contour)
        solidity = area / max(1.0, cv2.contourArea(hull))
        if solidity < 0.85:
            continue
        quad = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(quad) != 4:
            quad = cv2.boxPoints(cv2.minAreaRect(contour)).reshape(-1, 1, 2)
        out.append((area * solidity, np.asarray(quad, np.float64).reshape(4, 2)))
    return out


START_DARKNESS = 0.28
PALE_CLOTH = 0.75
"""A cloth whose middle lightness is above this share of the paper's cannot be told from the
cards by their paper (a white cloth: 0.86-0.94 in the benchmark's pictures; wood and grey
0.47-0.60, green felt 0.27-0.35)."""


def _cloth(light: npt.NDArray[np.float32]) -> tuple[float, float]:
    """The cloth around the table, from the picture's outer tenth (``light``: its
    :func:`_lightness`): its median lightness as a share of the bright paper's (the picture's
    95th percentile), and the share of it as dark as the start card."""
    h, w = light.shape
    edge = np.ones(light.shape, np.bool_)
    edge[h // 10 : h - h // 10, w // 10 : w - w // 10] = False
    paper = max(float(np.percentile(light, 95)), 1.0)
    ring = light[edge]
    return float(np.median(ring)) / paper, float((ring < paper * START_DARKNESS).mean())


def _clockwise(quad: Matrix) -> Matrix:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles, kind="stable")]
    return np.asarray(ordered, np.float64)


def grid_from_quad(quad: Matrix, side: float, pitch: float) -> Matrix:
    """Grid cells -> pixels, from the start card's corners (its top taken as north)."""
    h = side / pitch / 2
    cells = np.array([[-h, h], [h, h], [h, -h], [-h, -h]], np.float64)
    m = cv2.getPerspectiveTransform(cells.astype(np.float32), quad.astype(np.float32))
    return np.asarray(m, np.float64)


def straighten(
    image: Image, grid: Matrix, centre: tuple[float, float], cells: float, px: int
) -> Image:
    """The square of ``cells`` cells around a grid point, straightened to ``px`` pixels."""
    cx, cy = centre
    h = cells / 2
    corners = np.array([[cx - h, cy + h], [cx + h, cy + h], [cx + h, cy - h], [cx - h, cy - h]])
    src = _apply(grid, corners).astype(np.float32)
    dst = np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    out: Image = cv2.warpPerspective(
        image, m, (px, px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return out


def illuminant(image: Image) -> npt.NDArray[np.float32]:
    """The light's colour as the card paper shows it: the brightest hundredth of the picture
    (paper is the brightest thing on the table), per channel."""
    flat = image.reshape(-1, 3)[::7].astype(np.float32)
    flat = flat[flat.max(axis=1) < 245]  # not glare, not clipped
    if len(flat) == 0:
        return np.full(3, 255.0, np.float32)
    brightness = flat.sum(axis=1)
    top = flat[brightness >= np.percentile(brightness, 97)]
    return np.asarray(np.median(top, axis=0), np.float32)


def paper_white(patch: Image) -> npt.NDArray[np.float32]:
    """A card's own white: the brightest tenth of its straightened picture, per channel."""
    flat = patch.reshape(-1, 3).astype(np.float32)
    brightness = flat.sum(axis=1)
    # np.percentile(brightness, 90) and np.median, done by hand: a third of the time, the
    # same white (the level falls between two whole brightnesses, or on one).
    at = 0.9 * (len(brightness) - 1)
    low = int(at)
    high = min(low + 1, len(brightness) - 1)
    ranked = np.partition(brightness, (low, high))
    level = ranked[low] if at == low else (ranked[low] + ranked[high]) / 2
    top = np.sort(flat[brightness >= level], axis=0)
    middle = len(top) // 2
    if len(top) % 2:
        return np.asarray(top[middle], np.float32)
    return np.asarray((top[middle - 1] + top[middle]) / 2, np.float32)


def inkness(patch: Image, white: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """0 for paper, towards 1 for ink: how far the darkest channel falls below the white."""
    ratio = patch.astype(np.float32) / np.maximum(white, 1.0)
    out = 1.0 - np.clip(_darkest(ratio), 0.0, 1.0)
    return np.asarray(out, np.float32)


def _darkest(ratio: Ratios) -> Ratios:
    """The smallest of the three channels (``ratio.min(axis=2)``, which numpy does slowly
    along so short an axis: this is a sixteenth of the time)."""
    return np.minimum(np.minimum(ratio[..., 0], ratio[..., 1]), ratio[..., 2])


def _brightest(ratio: Ratios) -> Ratios:
    return np.maximum(np.maximum(ratio[..., 0], ratio[..., 1]), ratio[..., 2])


def shows_ink(patch: Image) -> bool:
    """Whether a pale patch shows the ink of a card's face (see :data:`MIN_CARD_INK`), against
    its own white, not the picture's: a cloth as pale as the paper shows none."""
    return float((inkness(patch, paper_white(patch)) > 0.45).mean()) >= MIN_CARD_INK


def is_paper(patch: Image, light: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Paper: bright, and as neutral as the light (the brown table and skin are not)."""
    ratio = patch.astype(np.float32) / np.maximum(light, 1.0)
    low, high = _darkest(ratio), _brightest(ratio)
    return np.asarray((low > 0.4) & (high < low * 1.22), np.bool_)


@dataclasses.dataclass
class Found:
    cell: Cell
    centre: Matrix
    """Pixels."""


SCALE_TOLERANCE = (0.75, 1.35)
"""How far a symbol's size, straightened by the grid, may be from the deck's (blur and a
triangle's or square's turn within the card included) before the grid is taken not to fit
the card: a grid drifted a third of a cell, or compressed, at the table's far edge reads
symbols half as large again, or a piece of the card beside."""
STAR_EXTENT = 2.1
"""The wild card's star, across, in symbol sizes (its points reach 1.05 sizes out)."""
MIN_PX_PER_MM = 1.4
"""Below this the symbols are too small in the picture to read: cards are found, not read."""
MIN_CARD_INK = 0.006
"""A cell is taken for a card only when this share of its middle is ink against its own
white: every card shows symbols there (the fewest seen on a card in the benchmark: 0.016),
a grey or lamp-warmed cloth that passes for paper shows none (under 0.003 in 90 % of its
cells). Neither a card nor an empty cell: the search goes no further through it."""


def read_plain(
    image: Image,
    *,
    card_side: float,
    inks: Inks,
    symbol_side: float | None = None,
    most: int | None = None,
    light: npt.NDArray[np.float32] | None = None,
) -> tuple[list[CardReading], list[Cell], list[str], Matrix | None]:
    """Every card of a marker-less deck: readings, the empty cells seen beside them, notes,
    and the grid (cells to pixels; its north is one of four, the start card having no top).
    With ``symbol_side`` (the deck's symbol size, mm) a card whose symbols, straightened by
    the grid, are not that size is unknown: the grid does not fit it (:func:`read_card`).
    With ``most`` (the most cards the table can hold, start cards included), finding more
    cells that look like cards gives nothing but a note: the cards cannot be told from the
    cloth, and the search would otherwise run on over the whole of it. ``light`` is the
    light's colour when already known (:func:`illuminant`)."""
    lightness = _lightness(image)
    pale, dark = _cloth(lightness)
    if pale > PALE_CLOTH:
        return [], [], [PALE_NOTE], None
    quads = _find_starts(lightness)
    if not quads:
        if dark > 0.5:
            note = (
                "no start card found: the cloth around the cards is as dark as the black start "
                "card, which cannot be told from it; lay the cards on a paler cloth"
            )
        else:
            note = "no start card found: it is the black card; lay it where the camera sees it"
        return [], [], [note], None
    light = illuminant(image) if light is None else light
    pitch = card_side + 1.75
    grid = grid_from_quad(quads[0], card_side, pitch)
    notes: list[str] = []
    start = Cell(0, 0)
    flood = Flood({start: Found(start, _apply(grid, np.zeros((1, 2)))[0])}, set(), {start}, grid)
    if not flood.spread(image, [start], light, most):
        return [], [], [_too_many(most or 0)], None
    starts = [start]
    if len(quads) > 1:
        # Placed on the grid fitted to the whole table: the first card alone misjudges the
        # cell's size by a sixth under a steep tilt (the second, seven cells out, at 5.8).
        turns = _second_start_turns(flood.grid, quads[1])
        if turns is None:
            notes.append("two start cards that do not lie six cells apart on a row (K7.18)")
        else:  # turn the grid so that the second lies east, at 7,0, and read on from it
            flood = flood.turned(turns)
            second = SECOND_START
            starts.append(second)
            flood.found[second] = Found(second, quads[1].mean(axis=0))
            flood.empty.discard(second)
            flood.visited.add(second)
            if not flood.spread(image, [second], light, most):
                return [], [], [_too_many(most or 0)], None
    found, empty, grid = flood.found, flood.empty, flood.grid
    cell_px = float(
        np.linalg.norm(_apply(grid, np.array([[1.0, 0.0]]))[0] - _apply(grid, np.zeros((1, 2)))[0])
    )
    sharp = cell_px / pitch >= MIN_PX_PER_MM
    if not sharp:
        notes.append(
            f"the cards are {cell_px / pitch:.1f} pixels a millimetre in the picture; their "
            f"symbols are read from {MIN_PX_PER_MM} up: a full-resolution still, or the camera "
            "closer, reads them"
        )
    readings = []
    inverse = np.asarray(np.linalg.inv(grid), np.float64)
    for cell, item in sorted(found.items(), key=lambda kv: (-kv[0].y, kv[0].x)):
        if cell in starts:
            readings.append(CardReading(cell, None, 1.0, "symbols", start=True))
            continue
        at = _apply(inverse, item.centre.reshape(1, 2))[0]
        offset = (float(at[0] - cell.x), float(at[1] - cell.y))
        if not sharp:
            readings.append(CardReading(cell, None, 0.0, "symbols", offset=offset))
            continue
        patch = straighten(
            image,
            grid,
            (float(at[0]), float(at[1])),
            card_side / pitch,
            round(card_side * PX_PER_MM),
        )
        readings.append(read_card(patch, cell, offset, inks, light, symbol_side=symbol_side))
    return readings, sorted(empty - set(found)), notes, grid


QUARTER = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
"""A quarter turn of the grid: on ``grid @ QUARTER`` the cell (x, y) is named (y, -x)."""
SECOND_START_TURNS = {
    (SECOND_START.x, 0): 0,
    (0, SECOND_START.x): 1,
    (-SECOND_START.x, 0): 2,
    (0, -SECOND_START.x): 3,
}
"""Where the second start card may lie from the first (K7.18: 7,0 on the table, any of four
in a picture of a marker-less start card), and the quarter turns of the grid that bring it
there."""


def _second_start_turns(grid: Matrix, quad: Matrix) -> int | None:
    """Quarter turns that bring the second start card to 7,0, or None when it lies elsewhere
    (more than 0.6 of a cell from any of :data:`SECOND_START_TURNS`)."""
    other = _apply(np.asarray(np.linalg.inv(grid), np.float64), quad.mean(axis=0)[None])[0]
    at = (round(other[0]), round(other[1]))
    if at not in SECOND_START_TURNS or float(np.abs(other - np.array(at)).max()) >= 0.6:
        return None
    return SECOND_START_TURNS[at]


@dataclasses.dataclass
class Flood:
    """The search for cards, ring by ring outwards from the start cards: the cards found
    (their cells and centres in pixels), the empty cells seen beside them, the cells looked
    at, and the grid, fitted again to the cards after each ring."""

    found: dict[Cell, Found]
    empty: set[Cell]
    visited: set[Cell]
    grid: Matrix

    def turned(self, turns: int) -> Flood:
        """The same search on the grid turned ``turns`` quarter turns (cells renamed)."""
        grid = self.grid

        def name(cell: Cell) -> Cell:
            for _ in range(turns):
                cell = Cell(cell.y, -cell.x)
            return cell

        for _ in range(turns):
            grid = grid @ QUARTER
        return Flood(
            {name(c): Found(name(c), f.centre) for c, f in self.found.items()},
            {name(c) for c in self.empty},
            {name(c) for c in self.visited},
            grid,
        )

    def spread(
        self, image: Image, frontier: list[Cell], light: npt.NDArray[np.float32], most: int | None
    ) -> bool:
        """Search on from ``frontier``; False when more than ``most`` cells look like cards."""
        height, width = image.shape[:2]
        px = 64
        inner = slice(px // 5, px - px // 5)
        while frontier:
            next_ring: list[Cell] = []
            for cell in frontier:
                for near in cell.neighbours():
                    if near in self.visited:
                        continue
                    self.visited.add(near)
                    centre_px = _apply(self.grid, np.array([[near.x, near.y]], np.float64))[0]
                    if not (0 <= centre_px[0] < width and 0 <= centre_px[1] < height):
                        continue
                    patch = straighten(image, self.grid, (near.x, near.y), 1.0, px)
                    middle = patch[inner, inner]
                    if float((middle >= 240).all(axis=2).mean()) > 0.2:
                        continue  # glare: neither a card nor an empty cell can be told
                    paper = float(is_paper(middle, light).mean())
                    ink = float((inkness(middle, light) > 0.45).mean())
                    if paper < 0.45 or paper + ink < 0.8:
                        self.empty.add(near)
                        continue
                    if not shows_ink(middle):
                        continue  # pale and blank: a cloth as pale as the paper, or washed out
                    weights = np.clip(inkness(patch, light) - 0.3, 0, None)
                    weights[: px // 8] = 0
                    weights[-(px // 8) :] = 0
                    weights[:, : px // 8] = 0
                    weights[:, -(px // 8) :] = 0
                    centre_cell = np.array([near.x, near.y], np.float64)
                    if float(weights.sum()) > 1e-3:
                        ys, xs = np.mgrid[0:px, 0:px]
                        mx = float((xs * weights).sum() / weights.sum()) / px - 0.5
                        my = float((ys * weights).sum() / weights.sum()) / px - 0.5
                        centre_cell += np.array([mx, -my])
                    self.found[near] = Found(near, _apply(self.grid, centre_cell.reshape(1, 2))[0])
                    next_ring.append(near)
                    if most is not None and len(self.found) > most:
                        return False
            self.grid = _refit(self.grid, self.found)
            frontier = next_ring
        return True


def _too_many(most: int) -> str:
    return (
        f"more than {most} patches look like cards, more than the decks hold: the cards could "
        "not be told from the cloth around them; lay them on a cloth neither as pale as their "
        "paper nor as dark as the black start card"
    )


PALE_NOTE = (
    "the cloth around the cards is as pale as their paper, so a deck without markers cannot be "
    "told from it; lay the cards on a darker cloth"
)


def _refit(grid: Matrix, found: dict[Cell, Found]) -> Matrix:
    if len(found) < 6:
        return grid
    src = np.array([[c.x, c.y] for c in found], np.float64)
    dst = np.array([f.centre for f in found.values()], np.float64)
    cell_px = float(
        np.linalg.norm(_apply(grid, np.array([[1.0, 0.0]]))[0] - _apply(grid, np.zeros((1, 2)))[0])
    )
    h, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 0.2 * cell_px)
    if h is None or inliers is None or int(inliers.sum()) < 5:
        return grid
    return np.asarray(h, np.float64)


def read_card(
    patch: Image,
    cell: Cell,
    offset: tuple[float, float],
    inks: Inks,
    light: npt.NDArray[np.float32],
    *,
    symbol_side: float | None = None,
) -> CardReading:
    """One straightened card (``PX_PER_MM``): its attributes, each with a margin.

    The card is straightened by the grid, so its symbols measure the grid where it lies:
    with ``symbol_side`` given, a symbol more than :data:`SCALE_TOLERANCE` off the deck's
    size (the star reaches :data:`STAR_EXTENT` sizes) says the grid has drifted there (the
    patch is part of a card, or spans two), and the card is unknown rather than named from
    whatever the patch shows."""
    white = paper_white(patch)
    ink = inkness(patch, white)
    unknown = CardReading(cell, None, 0.0, "symbols", offset=offset)
    if float(white.min()) < 50 or float((patch >= 245).all(axis=2).mean()) > 0.02:
        return unknown  # too dark, or washed out by glare
    if float(is_paper(patch, light).mean()) < 0.55:
        return unknown  # covered (a hand) or not a card
    mask = (ink > 0.35).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    border = round(2.5 * PX_PER_MM)
    mask[:border, :] = 0
    mask[-border:, :] = 0
    mask[:, :border] = 0
    mask[:, -border:] = 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    symbol_area = (14.0 * PX_PER_MM) ** 2
    pieces = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] > 0.12 * symbol_area]
    if not 1 <= len(pieces) <= 3:
        return unknown
    shapes: list[tuple[str, float]] = []
    fills: list[tuple[Fill | None, float]] = []
    symbols = np.zeros(mask.shape, np.uint8)
    reach = round(2.4 * PX_PER_MM)  # past the outline's stroke (1.6-1.8 mm) and its blur
    for index in pieces:
        piece = (labels == index).astype(np.uint8)
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outline = max(contours, key=cv2.contourArea)
        filled = np.zeros_like(piece)
        cv2.drawContours(filled, [outline], -1, 1, -1)
        area = float(filled.sum())
        rect = cv2.minAreaRect(outline)
        box = max(1.0, rect[1][0] * rect[1][1])
        if max(rect[1]) > 1.4 * max(1.0, min(rect[1])):
            return unknown  # symbols run together: not one symbol
        hull = max(1.0, float(cv2.contourArea(cv2.convexHull(outline))))
        seen = _shape(area / box, area / hull)
        if symbol_side is not None:
            extent = symbol_side * (STAR_EXTENT if seen[0] == "star" else 1.0) * PX_PER_MM
            low, high = SCALE_TOLERANCE
            if not low <= max(rect[1]) / extent <= high:
                return unknown  # the grid's scale is wrong here: not this card as a whole
        shapes.append(seen)
        symbols |= filled
        inner = cv2.erode(filled, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
        if inner.sum() < 20:
            fills.append((None, 0.0))
            continue
        fills.append(_fill(float(ink[inner > 0].mean())))
    names = {name for name, _ in shapes}
    shape_name = names.pop() if len(names) == 1 else None
    shape_margin = min(m for _, m in shapes)
    colour, colour_margin = _colour(patch, ink * symbols, white, inks)
    if shape_name == "star":
        if len(pieces) != 1 or colour is None:
            return CardReading(cell, None, 0.0, "symbols", colour=colour, wild=True, offset=offset)
        from companion.clustered.cards import Card

        confidence = min(shape_margin, colour_margin)
        return CardReading(
            cell, Card.wild(colour), confidence, "symbols", colour=colour, wild=True, offset=offset
        )
    shape = {"square": Shape.SQUARE, "circle": Shape.CIRCLE, "triangle": Shape.TRIANGLE}.get(
        shape_name or ""
    )
    fill_kinds = {f for f, _ in fills}
    fill = fill_kinds.pop() if len(fill_kinds) == 1 else None
    fill_margin = min(m for _, m in fills)
    number = len(pieces)
    from companion.clustered.cards import Card

    card = None
    confidence = 0.0
    if shape is not None and fill is not None and colour is not None:
        card = Card.attribute(colour, shape, fill, number)
        confidence = min(shape_margin, fill_margin, colour_margin)
    return CardReading(
        cell,
        card,
        confidence,
        "symbols",
        colour=colour,
        shape=shape,
        fill=fill,
        number=number,
        wild=False,
        offset=offset,
    )


def _shape(box_share: float, solidity: float) -> tuple[str, float]:
    """A symbol's shape from how much of its rectangle and of its hull it fills."""
    if 0.4 <= solidity < 0.72 and 0.3 <= box_share < 0.6:
        return ("star", min(1.0, (0.72 - solidity) * 5))
    if solidity < 0.85:
        return ("?", 0.0)
    centres = {"triangle": 0.5, "circle": math.pi / 4, "square": 0.97}
    ranked = sorted(centres, key=lambda k: abs(centres[k] - box_share))
    best, second = ranked[0], ranked[1]
    margin = abs(centres[second] - box_share) - abs(centres[best] - box_share)
    return (best if margin > 0.04 else "?", min(1.0, margin * 6))


def _fill(level: float) -> tuple[Fill | None, float]:
    """Hollow (little ink inside), dashed (stripes: some), solid (all)."""
    bands = ((Fill.HOLLOW, 0.0, 0.16), (Fill.DASHED, 0.3, 0.62), (Fill.SOLID, 0.78, 1.0))
    for fill, low, high in bands:
        if low <= level <= high:
            edge = min(level - low if low > 0 else 1.0, high - level if high < 1 else 1.0)
            return fill, min(1.0, 0.5 + edge * 5)
    return None, 0.0


def _hue(rgb: Sequence[float], white: Sequence[float]) -> tuple[float, float]:
    """Hue angle (degrees) and chroma of a colour against a white, in Lab."""
    pixel = np.clip(np.array(rgb, np.float32) / np.maximum(np.array(white, np.float32), 1), 0, 1)
    lab = cv2.cvtColor(pixel.reshape(1, 1, 3), cv2.COLOR_RGB2LAB)[0, 0]
    a, b = float(lab[1]), float(lab[2])
    return math.degrees(math.atan2(b, a)) % 360, math.hypot(a, b)


def _colour(
    patch: Image, ink: npt.NDArray[np.float32], white: npt.NDArray[np.float32], inks: Inks
) -> tuple[str | None, float]:
    """The ink's colour by its hue against the card's white; None when too close to call."""
    strong = ink > 0.5
    if int(strong.sum()) < 30:
        return None, 0.0
    bgr = np.median(patch[strong].astype(np.float32), axis=0)
    seen_hue, chroma = _hue(bgr[::-1].tolist(), white[::-1].tolist())
    if chroma < 12:
        return None, 0.0
    paper = inks.paper
    distances = []
    for code, rgb in inks.colours.items():
        hue, _ = _hue(rgb, paper)
        d = abs((seen_hue - hue + 180) % 360 - 180)
        distances.append((d, code))
    distances.sort()
    (best_d, best), (second_d, _) = distances[0], distances[1]
    margin = second_d - best_d
    if best_d > 20 or margin < 12:
        return None, 0.0
    return best, min(1.0, margin / 25)
