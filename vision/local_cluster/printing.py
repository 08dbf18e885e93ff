"""What the printer prints, drawn from the kit description at any resolution: tile faces,
tokens and the calibration card (docs/physical-kit.md).

``companion print-kit`` lays these out on A4 sheets (:mod:`vision.local_cluster.sheets`); the
renderer (:mod:`vision.local_cluster.synthetic`) photographs them. Nothing here is used by the
recognizer, which knows the kit only from its JSON description.

Images are B, G, R bytes; ``s`` is pixels per millimetre; shapes are drawn as filled polygons
with 1/16-pixel precision and anti-aliased edges, lines as the area between two outlines, so
every size is true at any resolution.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import CARRIER, UnitType
from vision.local_cluster.kit import RGB, Kit, Point, SlotSpec

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.uint8]
SHIFT = 4
FONT = cv2.FONT_HERSHEY_SIMPLEX


def bgr(rgb: Sequence[int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def shape_points(shape: str, centre: Point, inradius: float, turn: float = 0.0) -> list[Point]:
    """A slot or token outline by its *inradius* (so outlines offset evenly): ``triangle``
    (pointing up), ``hexagon`` (flat top) or ``circle``; turned ``turn`` degrees clockwise."""
    cx, cy = centre
    if shape == "triangle":
        angles, r = [-90.0, 30.0, 150.0], inradius * 2
    elif shape == "hexagon":
        angles, r = [0.0, 60.0, 120.0, 180.0, 240.0, 300.0], inradius / math.cos(math.pi / 6)
    else:
        count = max(24, min(180, round(inradius * 12)))
        angles, r = [i * 360 / count for i in range(count)], inradius
    return [
        (cx + r * math.cos(math.radians(a + turn)), cy + r * math.sin(math.radians(a + turn)))
        for a in angles
    ]


AA_INSET = 0.7
"""OpenCV's anti-aliased polygon fill covers this many pixels more than the polygon on every
side (a 54 mm square filled at 2 pixels a millimetre covered 54.7 mm, at 5 pixels 54.3 mm):
each polygon is drawn this much inside its outline, and its area is then true to a
fiftieth of a pixel."""


def _poly(points: Sequence[Point], s: float, origin: Point) -> npt.NDArray[np.int32]:
    # Pixel (i, j) covers [i, i + 1) mm * s: its centre is at i + 0.5.
    pts = np.array([((x - origin[0]) * s - 0.5, (y - origin[1]) * s - 0.5) for x, y in points])
    return np.round(_inset(pts, AA_INSET) * (1 << SHIFT)).astype(np.int32).reshape(-1, 1, 2)


def _inset(points: npt.NDArray[np.float64], by: float) -> npt.NDArray[np.float64]:
    """A convex polygon (N x 2) with every side moved ``by`` inwards (at most a third of the
    way to its centre, so a tiny dot stays a dot)."""
    edges = np.roll(points, -1, axis=0) - points  # side i runs from point i to point i + 1
    unit = edges / np.maximum(np.linalg.norm(edges, axis=1, keepdims=True), 1e-12)
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    middle = points.mean(axis=0)
    reach = ((middle - points) * normal).sum(axis=1)  # signed distance of the centre from each side
    if np.all(reach < 0):
        normal, reach = -normal, -reach
    by = min(by, float(reach.min()) / 3) if reach.min() > 0 else 0.0
    before = np.roll(normal, 1, axis=0)  # the side ending at point i
    mitre = (before + normal) / np.maximum(1.0 + (before * normal).sum(axis=1, keepdims=True), 1e-6)
    out: npt.NDArray[np.float64] = points + mitre * by
    return out


def fill(img: Image, points: Sequence[Point], rgb: Sequence[int], s: float, origin: Point) -> None:
    """Fill a polygon given in mm (``origin`` is the mm point at the image's top-left)."""
    cv2.fillPoly(img, [_poly(points, s, origin)], bgr(rgb), cv2.LINE_AA, SHIFT)


def fill_mask(mask: Mask, points: Sequence[Point], s: float, origin: Point) -> None:
    cv2.fillPoly(mask, [_poly(points, s, origin)], 255, cv2.LINE_AA, SHIFT)


def rectangle(
    img: Image, corner0: Point, corner1: Point, rgb: Sequence[int], s: float, origin: Point
) -> None:
    (x0, y0), (x1, y1) = corner0, corner1
    fill(img, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], rgb, s, origin)


def outline_line(
    img: Image,
    shape: str,
    centre: Point,
    inradius: float,
    width: float,
    line: RGB,
    inside: RGB,
    s: float,
    origin: Point,
) -> None:
    """A line ``width`` mm wide centred on an outline, with ``inside`` filling what it holds."""
    fill(img, shape_points(shape, centre, inradius + width / 2), line, s, origin)
    fill(img, shape_points(shape, centre, inradius - width / 2), inside, s, origin)


def marker_image(kit: Kit, marker: int, side_px: int) -> Image:
    """The ArUco marker ``marker`` as ``side_px`` square grey pixels, black border included."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, kit.dictionary))
    cells = 7  # 5 bits and one border cell each side
    big = cv2.aruco.generateImageMarker(dictionary, marker, cells * 64, borderBits=1)
    out: Image = cv2.resize(big, (side_px, side_px), interpolation=cv2.INTER_AREA)
    return out


def paste_marker(
    img: Image, kit: Kit, marker: int, centre: Point, side: float, s: float, origin: Point
) -> None:
    """The marker ``side`` mm square centred on ``centre``, edges on the pixel grid nearest
    to the true size."""
    px = round(side * s)
    x0 = round((centre[0] - origin[0]) * s - px / 2)
    y0 = round((centre[1] - origin[1]) * s - px / 2)
    img[y0 : y0 + px, x0 : x0 + px] = marker_image(kit, marker, px)[:, :, None]


def label(
    img: Image, text: str, at: Point, height: float, rgb: RGB, s: float, origin: Point
) -> None:
    """Text ``height`` mm tall centred on ``at``."""
    scale = height * s / 22.0
    thickness = max(1, round(height * s / 8))
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thickness)
    x = round((at[0] - origin[0]) * s - w / 2)
    y = round((at[1] - origin[1]) * s + h / 2)
    cv2.putText(img, text, (x, y), FONT, scale, bgr(rgb), thickness, cv2.LINE_AA)


# Tile faces ------------------------------------------------------------------------------------


def face(kit: Kit, number: int, s: float, *, bleed: float | None = None) -> Image:
    """The printed face of box tile ``number`` (sector S<number>): its background reaching
    ``bleed`` mm (default: the kit's) beyond the cut line, the edge line inside the cut line,
    the marker on its white square at the centre, every slot outline and the sector's label.
    The image's centre is the tile's centre."""
    bleed = kit.bleed if bleed is None else bleed
    half = kit.tile_side / 2 + bleed
    size = round(2 * half * s)
    origin = (-size / (2 * s), -size / (2 * s))
    img = np.empty((size, size, 3), np.uint8)
    img[:] = bgr(kit.printed["tile"])
    line, tile = kit.printed["slot_line"], kit.printed["tile"]
    edge = kit.tile_side / 2
    rectangle(img, (-edge, -edge), (edge, edge), line, s, origin)
    edge -= kit.line_width
    rectangle(img, (-edge, -edge), (edge, edge), tile, s, origin)
    w = kit.white_side / 2
    rectangle(img, (-w, -w), (w, w), kit.printed["paper"], s, origin)
    paste_marker(img, kit, number, (0.0, 0.0), kit.marker_side, s, origin)
    variant = kit.variant_of(number)
    for slot in kit.variants[variant]:
        outline_line(
            img, slot.shape, slot.centre, slot.inradius, kit.line_width, line, tile, s, origin
        )
    at, _box = kit.label_at(variant)
    label(img, f"S{number}", at, kit.label_height, line, s, origin)
    return img


# Tokens ----------------------------------------------------------------------------------------


def token(
    kit: Kit,
    slot: SlotSpec,
    s: float,
    *,
    colour: RGB,
    unit: UnitType | None = None,
) -> tuple[Image, float]:
    """The token for ``slot`` as printed, centred in a square image on paper: its shape at
    the kit's token scale in ``colour``, the colour reaching the kit's bleed beyond the cut
    line, the cut line (ink), and a unit's glyph. Also the image's half-size in mm."""
    spec = kit.token(slot)
    inner = spec.inradius
    half = (inner + kit.token_bleed) * (2 if spec.shape == "triangle" else 1.25) + 1
    size = round(2 * half * s)
    origin = (-size / (2 * s), -size / (2 * s))
    img = np.empty((size, size, 3), np.uint8)
    img[:] = bgr(kit.printed["paper"])
    fill(img, shape_points(spec.shape, (0, 0), inner + kit.token_bleed), colour, s, origin)
    ink = kit.printed["ink"]
    outline_line(img, spec.shape, (0, 0), inner, kit.token_cut_line, ink, colour, s, origin)
    if unit is not None:
        glyph = kit.glyph[unit.value]
        if unit is CARRIER:
            outer, hole = glyph["ring"][1], glyph["ring"][0]
            fill(img, shape_points("circle", (0, 0), inner * outer), ink, s, origin)
            fill(img, shape_points("circle", (0, 0), inner * hole), colour, s, origin)
        else:
            fill(img, shape_points("circle", (0, 0), inner * glyph["dot"]), ink, s, origin)
    return img, size / (2 * s)


# The calibration card --------------------------------------------------------------------------


def card(kit: Kit, s: float, *, margin: float = 0.0) -> Image:
    """The calibration card, ``margin`` mm of paper around its cut line; the image's top-left
    is the card's top-left corner less the margin."""
    spec = kit.card
    w, h = spec.size
    origin = (-margin, -margin)
    img = np.full((round((h + 2 * margin) * s), round((w + 2 * margin) * s), 3), 255, np.uint8)
    img[:] = bgr(kit.printed["paper"])
    c = spec.cut_line / 2
    ink = kit.printed["ink"]
    paper = kit.printed["paper"]
    rectangle(img, (-c, -c), (w + c, h + c), ink, s, origin)
    rectangle(img, (c, c), (w - c, h - c), paper, s, origin)
    for marker, (cx, cy) in spec.markers.items():
        half = spec.marker_frame / 2
        rectangle(
            img, (cx - half, cy - half), (cx + half, cy + half), kit.printed["tile"], s, origin
        )
        half = kit.white_side / 2
        rectangle(img, (cx - half, cy - half), (cx + half, cy + half), paper, s, origin)
        paste_marker(img, kit, marker, (cx, cy), spec.marker_side, s, origin)
    half = spec.swatch_side / 2
    probe = spec.probe_side / 2
    for name, (cx, cy) in spec.swatches.items():
        rgb = kit.colours.get(name) or kit.printed[name]
        rectangle(img, (cx - half, cy - half), (cx + half, cy + half), rgb, s, origin)
        rectangle(img, (cx - probe, cy - probe), (cx + probe, cy + probe), ink, s, origin)
    (x0, y0), (x1, y1) = spec.white
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rectangle(img, (cx - probe, cy - probe), (cx + probe, cy + probe), ink, s, origin)
    (x0, y0), (x1, y1) = spec.ink
    rectangle(img, (x0, y0), (x1, y1), ink, s, origin)
    return img
