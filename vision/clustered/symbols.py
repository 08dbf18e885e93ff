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

Image = npt.NDArray[np.uint8]
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


def find_starts(image: Image) -> list[Matrix]:
    """The black start cards' corners (one or two, the largest first)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    light = lab[:, :, 0].astype(np.float32)
    level = float(np.percentile(light, 95))
    dark = (light < level * 0.28).astype(np.uint8) * 255
    dark = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    candidates: list[tuple[float, Matrix]] = []
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
        candidates.append((area * solidity, np.asarray(quad, np.float64).reshape(4, 2)))
    candidates.sort(key=lambda c: -c[0])
    out = [_clockwise(q) for score, q in candidates[:2] if score >= 0.6 * candidates[0][0]]
    return out


def _clockwise(quad: Matrix) -> Matrix:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]
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
    top = flat[brightness >= np.percentile(brightness, 90)]
    return np.asarray(np.median(top, axis=0), np.float32)


def inkness(patch: Image, white: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """0 for paper, towards 1 for ink: how far the darkest channel falls below the white."""
    ratio = patch.astype(np.float32) / np.maximum(white, 1.0)
    out = 1.0 - np.clip(ratio.min(axis=2), 0.0, 1.0)
    return np.asarray(out, np.float32)


def is_paper(patch: Image, light: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Paper: bright, and as neutral as the light (the brown table and skin are not)."""
    ratio = patch.astype(np.float32) / np.maximum(light, 1.0)
    low, high = ratio.min(axis=2), ratio.max(axis=2)
    return np.asarray((low > 0.4) & (high < low * 1.22), np.bool_)


@dataclasses.dataclass
class Found:
    cell: Cell
    centre: Matrix
    """Pixels."""


MIN_PX_PER_MM = 1.4
"""Below this the symbols are too small in the picture to read: cards are found, not read."""


def read_plain(
    image: Image,
    *,
    card_side: float,
    inks: Inks,
) -> tuple[list[CardReading], list[Cell], list[str], Matrix | None]:
    """Every card of a marker-less deck: readings, the empty cells seen beside them, notes,
    and the grid (cells to pixels; its north is one of four, the start card having no top)."""
    quads = find_starts(image)
    if not quads:
        return (
            [],
            [],
            ["no start card found: it is the black card; lay it where the camera sees it"],
            None,
        )
    light = illuminant(image)
    pitch = card_side + 1.75
    grid = grid_from_quad(quads[0], card_side, pitch)
    starts = [Cell(0, 0)]
    found: dict[Cell, Found] = {Cell(0, 0): Found(Cell(0, 0), _apply(grid, np.zeros((1, 2)))[0])}
    notes: list[str] = []
    if len(quads) > 1:
        inverse = np.asarray(np.linalg.inv(grid), np.float64)
        other = _apply(inverse, quads[1].mean(axis=0)[None])[0]
        turns = {(7, 0): 0, (0, 7): 1, (-7, 0): 2, (0, -7): 3}
        at = (round(other[0]), round(other[1]))
        if at in turns and float(np.abs(other - np.array(at)).max()) < 1.5:
            quarter = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
            for _ in range(turns[at]):  # turn the grid so that the second lies east, at 7,0
                grid = grid @ quarter
            starts.append(Cell(7, 0))
            found[Cell(7, 0)] = Found(Cell(7, 0), quads[1].mean(axis=0))
        else:
            notes.append("two start cards that do not lie six cells apart on a row (K7.18)")
    empty: set[Cell] = set()
    frontier = list(starts)
    height, width = image.shape[:2]
    visited = set(starts)
    px = 64
    inner = slice(px // 5, px - px // 5)
    while frontier:
        next_ring: list[Cell] = []
        for cell in frontier:
            for near in cell.neighbours():
                if near in visited:
                    continue
                visited.add(near)
                centre_px = _apply(grid, np.array([[near.x, near.y]], np.float64))[0]
                if not (0 <= centre_px[0] < width and 0 <= centre_px[1] < height):
                    continue
                patch = straighten(image, grid, (near.x, near.y), 1.0, px)
                middle = patch[inner, inner]
                if float((middle >= 240).all(axis=2).mean()) > 0.2:
                    continue  # glare: neither a card nor an empty cell can be told
                paper = float(is_paper(middle, light).mean())
                ink = float((inkness(middle, light) > 0.45).mean())
                if paper < 0.45 or paper + ink < 0.8:
                    empty.add(near)
                    continue
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
                found[near] = Found(near, _apply(grid, centre_cell.reshape(1, 2))[0])
                next_ring.append(near)
        grid = _refit(grid, found)
        frontier = next_ring
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
        readings.append(read_card(patch, cell, offset, inks, light))
    return readings, sorted(empty - set(found)), notes, grid


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
) -> CardReading:
    """One straightened card (``PX_PER_MM``): its attributes, each with a margin."""
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
        shapes.append(_shape(area / box, area / hull))
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
