"""Card faces drawn from the kit description, top-down, as printed.

The printable sheets and the benchmark's renderer both draw cards here, from
``kit/clustered-kit.json`` only; the recognizer shares nothing with this module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.clustered.cards import Card, Fill, Shape
from companion.clustered.settings import Palette
from vision.clustered.kit import RGB, Kit, Point

Image = npt.NDArray[np.uint8]
SHIFT = 4
"""Sub-pixel bits for OpenCV's drawing functions."""


def bgr(rgb: Sequence[int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


class Canvas:
    """A square card image with drawing in the card's own millimetres (origin at the centre)."""

    def __init__(self, kit: Kit, s: float, background: RGB) -> None:
        self.kit = kit
        self.s = s
        side = round(kit.card_side * s)
        self.image: Image = np.empty((side, side, 3), np.uint8)
        self.image[:] = bgr(background)
        self.half = kit.card_side / 2

    def px(self, point: Point) -> tuple[int, int]:
        """Fixed-point pixel coordinates (``SHIFT`` bits) of a card point."""
        factor = self.s * (1 << SHIFT)
        return (round((point[0] + self.half) * factor), round((point[1] + self.half) * factor))

    def poly(self, points: Sequence[Point]) -> npt.NDArray[np.int32]:
        return np.array([self.px(p) for p in points], np.int32).reshape(-1, 1, 2)

    def fill(self, points: Sequence[Point], colour: RGB) -> None:
        cv2.fillPoly(self.image, [self.poly(points)], bgr(colour), cv2.LINE_AA, SHIFT)

    def outline(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        thickness = max(1, round(width * self.s))
        cv2.polylines(
            self.image, [self.poly(points)], True, bgr(colour), thickness, cv2.LINE_AA, SHIFT
        )

    def mask(self, points: Sequence[Point]) -> npt.NDArray[np.uint8]:
        out = np.zeros(self.image.shape[:2], np.uint8)
        cv2.fillPoly(out, [self.poly(points)], 255, cv2.LINE_AA, SHIFT)
        return out

    def blend(self, mask: npt.NDArray[np.uint8], colour: RGB) -> None:
        """Paint ``colour`` through an anti-aliased mask."""
        alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
        ink = np.array(bgr(colour), np.float32)
        mixed = self.image.astype(np.float32) * (1 - alpha) + ink * alpha
        self.image = mixed.round().astype(np.uint8)


def shape_points(shape: Shape, centre: Point, size: float) -> list[Point]:
    """A symbol's outline: a square, an upward triangle or a circle (as a polygon)."""
    cx, cy = centre
    if shape is Shape.SQUARE:
        h = size * 0.875 / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    if shape is Shape.TRIANGLE:
        height = size * math.sqrt(3) / 2
        top = cy - height / 2
        return [(cx, top), (cx + size / 2, top + height), (cx - size / 2, top + height)]
    r = size / 2
    return [
        (cx + r * math.cos(2 * math.pi * i / 72), cy + r * math.sin(2 * math.pi * i / 72))
        for i in range(72)
    ]


def _hatch(canvas: Canvas, spacing: float, width: float) -> npt.NDArray[np.uint8]:
    """Stripes at 45 degrees over the whole card (clipped by the caller)."""
    out = np.zeros(canvas.image.shape[:2], np.uint8)
    half = canvas.half
    thickness = max(1, round(width * canvas.s))
    offset = -2 * half
    while offset < 2 * half:
        a = canvas.px((offset - half, -half))
        b = canvas.px((offset + half, half))
        cv2.line(out, a, b, 255, thickness, cv2.LINE_AA, SHIFT)
        offset += spacing * math.sqrt(2)  # ``spacing`` apart across the stripes
    return out


def draw_symbol(canvas: Canvas, card: Card, centre: Point, size: float, ink: RGB) -> None:
    assert card.shape is not None and card.fill is not None
    points = shape_points(card.shape, centre, size)
    stroke = canvas.kit.stroke
    if card.fill is Fill.SOLID:
        canvas.fill(points, ink)
        return
    if card.fill is Fill.DASHED:
        inside = canvas.mask(points)
        stripes = _hatch(canvas, canvas.kit.hatch_spacing, canvas.kit.hatch_width)
        canvas.blend(np.minimum(inside, stripes), ink)
    canvas.outline(points, ink, stroke)


def star(centre: Point, outer: float, inner: float, points: int = 5) -> list[Point]:
    cx, cy = centre
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + math.pi * i / points
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def marker_image(kit: Kit, marker: int, side_px: int) -> Image:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, kit.dictionary))
    modules = 6  # a 4x4 marker and its one-module black border
    cell = max(1, math.ceil(side_px / modules))
    raw = cv2.aruco.generateImageMarker(dictionary, marker, cell * modules, borderBits=1)
    out: Image = cv2.resize(raw, (side_px, side_px), interpolation=cv2.INTER_AREA)
    return out


def paste_marker(canvas: Canvas, kit: Kit, marker: int, centre: Point) -> None:
    quiet = kit.marker_side / 2 + kit.marker_quiet
    cx, cy = centre
    canvas.fill(
        [
            (cx - quiet, cy - quiet),
            (cx + quiet, cy - quiet),
            (cx + quiet, cy + quiet),
            (cx - quiet, cy + quiet),
        ],
        kit.paper,
    )
    side_px = round(kit.marker_side * canvas.s)
    x0, y0 = (round((c - kit.marker_side / 2 + canvas.half) * canvas.s) for c in centre)
    canvas.image[y0 : y0 + side_px, x0 : x0 + side_px] = marker_image(kit, marker, side_px)[
        :, :, None
    ]


def card_face(
    kit: Kit,
    card: Card,
    palette: Palette,
    *,
    s: float,
    plain: bool = False,
    copy: int = 0,
) -> Image:
    """One card, top-down at ``s`` px/mm: the kit's design (with its marker), or ``plain``:
    a commercial-style card with larger symbols in the middle and no marker."""
    if card.is_start:
        canvas = Canvas(kit, s, kit.start_card)
        if not plain:
            paste_marker(canvas, kit, kit.marker_id(card, palette, copy), kit.start_marker_centre)
            canvas.fill(star((0.0, 24.0), 5.0, 2.2), kit.paper)  # the arrow's end: north is up
            canvas.fill([(-3.0, -26.0), (3.0, -26.0), (0.0, -30.5)], kit.paper)
        return canvas.image
    canvas = Canvas(kit, s, kit.paper)
    assert card.colour is not None
    ink = kit.ink(palette.name(card.colour))
    size = kit.plain_size if plain else kit.symbol_size
    row_y = kit.plain_row_y if plain else kit.row_y
    if card.is_wild:
        canvas.fill(star((0.0, row_y), size * 0.75, size * 0.32), ink)
        canvas.outline(star((0.0, row_y), size * 1.05, size * 0.45), ink, kit.stroke * 0.7)
    else:
        assert card.number is not None
        columns = kit.plain_columns if plain else kit.columns
        for x in columns[card.number]:
            draw_symbol(canvas, card, (x, row_y), size, ink)
    if not plain:
        paste_marker(canvas, kit, kit.marker_id(card, palette, copy), kit.marker_centre)
        h = kit.card_side / 2 - 5.0
        cv2.putText(
            canvas.image,
            card.colour,
            canvas_point(canvas, (h - 4.0, -h + 6.0)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.18 * s,
            bgr(ink),
            max(1, round(0.5 * s)),
            cv2.LINE_AA,
        )
    return canvas.image


def canvas_point(canvas: Canvas, point: Point) -> tuple[int, int]:
    return (round((point[0] + canvas.half) * canvas.s), round((point[1] + canvas.half) * canvas.s))
