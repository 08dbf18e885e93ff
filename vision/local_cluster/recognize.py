"""Reading a picture of the table: markers, the table plane, tiles, adjacency and every slot.

The pipeline (docs/physical-kit.md):

1. ArUco markers are found at reduced resolution and their corners refined at full resolution.
   When fewer tiles are found than the game has, the detector looks again, and then the quads
   it rejected are read once more, cell by cell (``_rescued``).
2. The calibration card's markers fix the table plane (millimetres); its white patch and
   swatches, seen in the same picture, are the colour references.
3. Each tile marker gives its tile's pose; tiles whose outlines share an edge are adjacent
   (ruling R1.1), and the poses are snapped to the tile grid.
4. Each tile is warped to a top-down patch, white-balanced against its own marker sticker,
   and each slot is compared with the card's swatches in Lab. A slot whose surround does not
   look like the printed tile (a hand, a cup, glare) is UNKNOWN, as is one whose colour is too
   far from every swatch or too close to two of them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import Colour, SectorId, UnitType, sector_sort_key
from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState, TileReading
from vision.errors import CardNotFound, ImageError
from vision.local_cluster.kit import Kit, SlotSpec, load_kit
from vision.readers import Quality

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

DETECT_WIDTH = 1920
"""Markers are looked for in a copy at most this wide; corners are refined at full size."""
PATCH_SCALE = 1.0
"""Pixels per millimetre of the top-down tile patches the slots are read from."""
CARD_SCALE = 2.0
MAX_PIXELS = 50_000_000

RING_MATCH = 30.0
"""A surround pixel looks like printed tile when this close to the swatch (lightness, and a
quarter of the hue difference)."""
RING_SHARE = 0.9
"""...and a slot counts as uncovered when this share of its surround does."""
FAR = 30.0
"""A slot whose colour is farther than this from every swatch is unknown."""
MARGIN = 8.0
"""...and so is one whose nearest swatch is not this much nearer than the next."""


def _lut() -> Floats:
    values = np.arange(256, dtype=np.float64) / 255.0
    linear = np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)
    return linear.astype(np.float32)


_LINEAR = _lut()


def linear(image: Image) -> Floats:
    """sRGB bytes to linear light (0-1)."""
    out: Floats = _LINEAR[image]
    return out


def _lab(rgb_linear: Floats) -> Floats:
    """Linear RGB (last axis R, G, B; white = 1) to CIE Lab."""
    shape = rgb_linear.shape
    flat = np.clip(rgb_linear.reshape(-1, 1, 3), 0, 4).astype(np.float32)
    out: Floats = cv2.cvtColor(flat, cv2.COLOR_LRGB2Lab).reshape(shape)
    return out


@dataclasses.dataclass(frozen=True)
class Marker:
    id: int
    corners: Matrix
    """4 x 2 image points, clockwise from the marker's top-left."""


@dataclasses.dataclass(frozen=True)
class TileFound:
    """A tile's marker and where its tile lies, for the debug picture."""

    sector: SectorId
    to_image: Matrix
    """Homography from the tile frame (mm) to image pixels."""
    reading: TileReading


@dataclasses.dataclass(frozen=True)
class Recognition:
    scan: BoardScan
    tiles: tuple[TileFound, ...]
    table_to_image: Matrix
    quality: Quality = Quality.GOOD
    notes: tuple[str, ...] = ()
    """About the picture as a whole (too small, no tiles)."""
    px_per_mm: float | None = None
    """Image pixels per table millimetre at the markers (the median marker)."""


# Markers ----------


@cache
def _detector(dictionary: str, window: int) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # One adaptive-threshold pass (the default makes three) finds the kit's markers at 1080p
    # in half the time; a second window is tried only when the card is not found.
    params.adaptiveThreshWinSizeMin = window
    params.adaptiveThreshWinSizeMax = window
    params.minMarkerPerimeterRate = 0.02
    # Bits are read from the middle of each cell only, with some error correction: blurred
    # small markers lose their cell edges first.
    params.perspectiveRemovePixelPerCell = 10
    params.perspectiveRemoveIgnoredMarginPerCell = 0.35
    params.errorCorrectionRate = 0.8
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)), params
    )


def find_markers(gray: Image, kit: Kit, expected: int | None = None) -> list[Marker]:
    """Markers in a grey picture: found in a copy at most DETECT_WIDTH wide, then their edges
    located at full resolution (:func:`refine_corners`). When the card is not found, or fewer
    than ``expected`` tile markers are, the detector looks again (see below)."""
    height, width = gray.shape
    factor = min(1.0, DETECT_WIDTH / max(width, height * 16 / 9))
    small = (
        gray
        if factor == 1.0
        else cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    )
    corners, ids, rejected = _detector(kit.dictionary, 5).detectMarkers(small)
    corners = [c.reshape(4, 2) for c in corners]
    found_ids = [] if ids is None else ids.ravel().tolist()
    candidates = [c.reshape(4, 2) for c in rejected]

    def short() -> bool:
        tiles_found = len({i for i in found_ids if kit.is_sector_marker(i)})
        return sum(i in kit.card.markers for i in set(found_ids)) < 2 or (
            expected is not None and tiles_found < expected
        )

    # Looking again, more carefully, only when something is missing: another threshold
    # window, then a copy twice the size (small blurred markers' bits read better there).
    for scale, window in ((1, 11), (2, 9)):
        if not short():
            break
        image = (
            small
            if scale == 1
            else cv2.resize(small, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        )
        more, more_ids, more_rejected = _detector(kit.dictionary, window).detectMarkers(image)
        if more_ids is not None:
            corners += [(c.reshape(4, 2) + 0.5) / scale - 0.5 for c in more]
            found_ids += more_ids.ravel().tolist()
        candidates += [(c.reshape(4, 2) + 0.5) / scale - 0.5 for c in more_rejected]
    if short():
        for marker_id, quad in _rescued(small, candidates, kit, set(found_ids), corners):
            corners.append(quad)
            found_ids.append(marker_id)
    if not found_ids:
        return []
    quads = np.array(corners, dtype=np.float64)
    if factor != 1.0:
        quads = (quads + 0.5) / factor - 0.5
    quads = refine_corners(gray, quads)
    best: dict[int, Marker] = {}
    for marker_id, quad in zip(found_ids, quads, strict=True):
        found = Marker(int(marker_id), quad)
        old = best.get(found.id)
        if old is None or _area(quad) > _area(old.corners):
            best[found.id] = found
    return list(best.values())


RESCUE_CELL_PX = 6
RESCUE_MAX_BITS_WRONG = 2
"""A candidate the detector rejected is taken as a missing tile marker only if at most this
many of its 25 bits differ: the kit's ids differ pairwise in at least 7 bits, in every
rotation (docs/physical-kit.md), so such a reading is still 5 bits from any other tile."""


@cache
def _codes(dictionary: str, marker_ids: tuple[int, ...]) -> tuple[int, npt.NDArray[np.uint8]]:
    """The bit grids of ``marker_ids`` (n x bits x bits) and the marker's bits per side."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    bits = int(d.markerSize)
    grids = [
        cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[i : i + 1], bits) for i in marker_ids
    ]
    return bits, np.array(grids, np.uint8)


def _rescued(
    gray: Image, candidates: list[Matrix], kit: Kit, found: set[int], known: list[Matrix]
) -> list[tuple[int, Matrix]]:
    """Tile markers among the quads the detector rejected, read more patiently.

    At the far edge of a tilted, blurred picture a marker's cells are two pixels wide, and
    the detector's one global threshold over the whole marker loses bits next to its black
    border. Here each cell is read at its centre and compared with the midpoint between the
    marker's darkest and lightest cells; a quad counts only if its border is dark throughout
    and its bits are within RESCUE_MAX_BITS_WRONG of a tile marker not yet found."""
    wanted = tuple(i for i in range(kit.sectors[0], kit.sectors[1] + 1) if i not in found)
    if not wanted or not candidates or not known:
        return []
    bits, codes = _codes(kit.dictionary, wanted)
    # As big as the markers found, give or take what a 30 degree tilt does to them.
    typical = float(np.median([_area(q) for q in known]))
    size = (max(16.0, typical / 3), typical * 3)
    cells = bits + 2
    side = cells * RESCUE_CELL_PX
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    lo, hi = RESCUE_CELL_PX // 3, RESCUE_CELL_PX - RESCUE_CELL_PX // 3
    # Blur can merge a small marker's black border with its white margin; the candidate is
    # then the sticker's blurred outline, and the marker lies inside it, a little smaller
    # than the sticker/marker ratio says (the blur widens the outline).
    shrink = kit.marker_side / kit.sticker_side
    quads = [
        q.mean(axis=0) + (q - q.mean(axis=0)) * f
        for f in (1.0, shrink, shrink * 0.92, shrink * 0.85)
        for q in candidates
    ]
    out: dict[int, Matrix] = {}
    for quad in quads:
        if not size[0] <= _area(quad) <= size[1]:
            continue
        for turn in range(4):
            corners = np.roll(quad, -turn, axis=0)
            warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
            patch = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR)
            means = patch.reshape(cells, RESCUE_CELL_PX, cells, RESCUE_CELL_PX)[
                :, lo:hi, :, lo:hi
            ].mean(axis=(1, 3))
            inner = means[1:-1, 1:-1]
            threshold = (float(inner.min()) + float(inner.max())) / 2
            border = np.concatenate([means[0], means[-1], means[1:-1, 0], means[1:-1, -1]])
            if float(inner.max()) - float(inner.min()) < 24 or border.max() >= threshold:
                break  # no marker in any orientation: neither test depends on the turn
            wrong = (codes != (inner > threshold)).sum(axis=(1, 2))
            best = int(np.argmin(wrong))
            if wrong[best] <= RESCUE_MAX_BITS_WRONG:
                out.setdefault(wanted[best], corners)
                break
    return list(out.items())


def _area(quad: Matrix) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


EDGE_POINTS = 10
PROFILE_SAMPLES = 13


def refine_corners(gray: Image, quads: Matrix) -> Matrix:
    """Each marker's corners from its four edges located to a fraction of a pixel.

    Across each edge, between the black border and the white sticker, the grey level is
    sampled along short profiles; where a profile crosses half-way between its dark and
    bright ends is a point of the edge; a line is fitted to each edge's points and
    neighbouring lines meet at the corners. (The detector's own corners sit slightly inside
    the black border, which shrinks every marker by a few per cent.)
    """
    count = len(quads)
    start = quads
    end = np.roll(quads, -1, axis=1)
    direction = end - start
    length = np.linalg.norm(direction, axis=2, keepdims=True)
    unit = direction / np.maximum(length, 1e-9)
    normal = np.stack([unit[..., 1], -unit[..., 0]], axis=2)  # outwards for clockwise quads
    cell = length[..., 0] / 7.0
    t = np.linspace(0.15, 0.85, EDGE_POINTS)
    tau = np.linspace(-0.6, 0.6, PROFILE_SAMPLES)
    base = start[:, :, None, :] + direction[:, :, None, :] * t[None, None, :, None]
    offsets = normal[:, :, None, None, :] * (cell[:, :, None, None, None] * tau[:, None])
    where = (base[:, :, :, None, :] + offsets).astype(np.float32)  # M x 4 x P x S x 2
    flat = where.reshape(-1, PROFILE_SAMPLES, 2)
    values = cv2.remap(
        gray,
        np.ascontiguousarray(flat[:, :, 0]),
        np.ascontiguousarray(flat[:, :, 1]),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(np.float64)
    dark = values[:, :2].mean(axis=1, keepdims=True)
    bright = values[:, -2:].mean(axis=1, keepdims=True)
    level = (dark + bright) / 2
    above = values >= level
    first = np.argmax(above, axis=1)
    first = np.clip(first, 1, PROFILE_SAMPLES - 1)
    rows = np.arange(len(values))
    v0, v1 = values[rows, first - 1], values[rows, first]
    fraction = np.clip((level[:, 0] - v0) / np.maximum(v1 - v0, 1e-6), 0, 1)
    crossing = (first - 1 + fraction).reshape(count, 4, EDGE_POINTS)
    steps = np.interp(crossing, np.arange(PROFILE_SAMPLES), tau)
    contrast = (bright - dark).reshape(count, 4, EDGE_POINTS)
    points = base + normal[:, :, None, :] * (cell[:, :, None] * steps)[..., None]
    # A line through each edge's points (weighted: profiles without contrast count nothing).
    weight = (contrast > 8).astype(np.float64)
    total = np.maximum(weight.sum(axis=2), 1e-9)
    centre = (points * weight[..., None]).sum(axis=2) / total[..., None]
    d = (points - centre[:, :, None, :]) * np.sqrt(weight)[..., None]
    sxx, syy = (d[..., 0] ** 2).sum(axis=2), (d[..., 1] ** 2).sum(axis=2)
    sxy = (d[..., 0] * d[..., 1]).sum(axis=2)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    along = np.stack([np.cos(angle), np.sin(angle)], axis=2)  # M x 4 x 2
    # Neighbouring edges meet at the corners: corner k is where edge k-1 meets edge k.
    p1, d1 = np.roll(centre, 1, axis=1), np.roll(along, 1, axis=1)
    p2, d2 = centre, along
    det = d1[..., 0] * (-d2[..., 1]) - d1[..., 1] * (-d2[..., 0])
    diff = p2 - p1
    s1 = (diff[..., 0] * (-d2[..., 1]) - diff[..., 1] * (-d2[..., 0])) / np.where(
        np.abs(det) < 1e-6, 1.0, det
    )
    corners = p1 + d1 * s1[..., None]
    usable = (weight.sum(axis=2) >= 3).all(axis=1) & (np.abs(det) >= 1e-6).all(axis=1)
    moved = np.linalg.norm(corners - quads, axis=2).max(axis=1) < cell.max(axis=1)
    keep = usable & moved
    out = quads.copy()
    out[keep] = corners[keep]
    return out


# Colour references ----------


@dataclasses.dataclass(frozen=True)
class References:
    """The card's swatches, white-balanced against its paper, in Lab."""

    swatches: dict[str, Floats]
    ink_l: float
    white: Floats
    """The card's paper in linear R, G, B: the light's colour."""

    def nearest(self, lab: Floats, names: Sequence[str]) -> tuple[str, float, float]:
        """The nearest swatch among ``names``, its distance and the next one's."""
        table = np.stack([self.swatches[n] for n in names])
        distances = np.sqrt(((table - lab) ** 2).sum(axis=1))
        order = np.argsort(distances)
        return names[int(order[0])], float(distances[order[0]]), float(distances[order[1]])


def _rect_mean(
    patch: Floats,
    rect: tuple[tuple[float, float], tuple[float, float]],
    scale: float,
    shrink: float,
) -> Floats:
    (x0, y0), (x1, y1) = rect
    a = patch[
        round((y0 + shrink) * scale) : round((y1 - shrink) * scale),
        round((x0 + shrink) * scale) : round((x1 - shrink) * scale),
    ]
    out: Floats = a.reshape(-1, 3).mean(axis=0)
    return out


def read_card(image: Image, card_to_image: Matrix, kit: Kit) -> References:
    card = kit.card
    w, h = card.size
    s = CARD_SCALE
    m = card_to_image @ np.diag([1 / s, 1 / s, 1.0])
    patch = cv2.warpPerspective(
        image, m, (round(w * s), round(h * s)), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    rgb = linear(patch)[:, :, ::-1]
    white = _rect_mean(rgb, card.white, s, 3.0)
    if float(white.min()) <= 0.01:
        raise CardNotFound("the calibration card's white patch is black: is the card covered?")
    half = card.swatch_side / 2
    swatches = {}
    for name, (cx, cy) in card.swatches.items():
        mean = _rect_mean(rgb, ((cx - half, cy - half), (cx + half, cy + half)), s, 4.0)
        swatches[name] = _lab((mean / white).astype(np.float32))
    ink = _lab((_rect_mean(rgb, card.ink, s, 3.0) / white).astype(np.float32))
    return References(swatches, float(ink[0]), white.astype(np.float32))


# Slot masks ----------


@dataclasses.dataclass(frozen=True)
class VariantMasks:
    """Where a tile variant's slots are looked at, as K sample points in the tile frame and
    averaging weights (one row per slot) over them."""

    slots: tuple[SlotSpec, ...]
    points: Matrix
    """K x 2 sample points (mm, tile frame)."""
    sticker: Matrix
    """M x 2 points on the marker sticker's white margin."""
    region: Floats
    """S x K: the token's colour (a unit's colour band, else inside the slot, ``margin`` in)."""
    ring: Floats
    """S x K: the slot's surround, which must look like printed tile."""
    centre: Floats
    middle: Floats
    """S x K: a unit's glyph probes (zero rows for other slots)."""
    allowed: Mask
    """S x N: which of :data:`REF_NAMES` a slot may hold."""
    ring_any: Mask
    """K: the sample points in any slot's surround."""
    weights: Floats
    """S x 3: how much L, a and b count in a slot's colour distance. A mineral is told from
    bare tile by its lightness: its small patch of hue is mostly what JPEG's halved colour
    resolution brings over from the tile around it."""


COLOURS = tuple(c.value for c in Colour)
REF_NAMES = (*COLOURS, "mineral", "tile")
GLYPH_RULES = {
    # (centre darker than, centre lighter than, middle darker than, middle lighter than):
    # how dark (0 the token's colour, 1 ink) the centre disc and the middle ring look once
    # blurred by the camera; between the rules' limits the glyph is unknown.
    UnitType.CARRIER: (0.0, 0.25, 0.3, 1.0),
    UnitType.DESTROYER: (0.35, 1.0, 0.0, 0.2),
    UnitType.BATTLESHIP: (0.45, 1.0, 0.3, 1.0),
}
_MASKS: dict[tuple[int, int], VariantMasks] = {}


def _masks(kit: Kit, variant: int) -> VariantMasks:
    key = (id(kit), variant)
    if key not in _MASKS:
        _MASKS[key] = _make_masks(kit, variant)
    return _MASKS[key]


def _rows(masks: list[Mask], union: Mask) -> Floats:
    flat = np.stack([m[union] for m in masks]).astype(np.float32)
    counts = flat.sum(axis=1, keepdims=True)
    out: Floats = flat / np.maximum(counts, 1)
    return out


def _make_masks(kit: Kit, variant: int) -> VariantMasks:
    s = PATCH_SCALE
    half = kit.tile_side / 2
    size = round(kit.tile_side * s)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64)
    x = (xs + 0.5) / s - half
    y = (ys + 0.5) / s - half
    empty = np.zeros((size, size), bool)
    region, ring, centre, middle, allowed = [], [], [], [], []
    slots = kit.variants[variant]
    for slot in slots:
        shape = np.zeros((size, size), np.uint8)
        pts = np.array([((px + half) * s, (py + half) * s) for px, py in slot.outline()])
        cv2.fillPoly(shape, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_8, 4)
        inside_dist = cv2.distanceTransform(shape, cv2.DIST_L2, 5) / s
        outside_dist = cv2.distanceTransform(255 - shape, cv2.DIST_L2, 5) / s
        ring.append((outside_dist >= kit.ring[0]) & (outside_dist <= kit.ring[1]))
        if slot.kind == "unit":
            r = np.hypot(x - slot.centre[0], y - slot.centre[1]) / (slot.radius * 0.94)
            g = kit.glyph
            region.append((r >= g["colour_band"][0]) & (r <= g["colour_band"][1]))
            centre.append(r <= g["centre_probe"])
            middle.append((r >= g["middle_probe"][0]) & (r <= g["middle_probe"][1]))
        else:
            region.append(inside_dist >= kit.margin)
            centre.append(empty)
            middle.append(empty)
        names = ("mineral", "tile") if slot.kind == "mineral" else (*COLOURS, "tile")
        allowed.append([n in names for n in REF_NAMES])
    union = np.zeros((size, size), bool)
    for mask in (*region, *ring, *centre, *middle):
        union |= mask
    # Every other pixel, as on a chequerboard, is plenty for the means and shares read here
    # (the patch is already finer than a 1080p picture of the table).
    union &= (xs.astype(int) + ys.astype(int)) % 2 == 0
    cheb = np.maximum(np.abs(x), np.abs(y))
    sticker = (cheb >= kit.marker_side / 2 + 1.0) & (cheb <= kit.sticker_side / 2 - 1.0)
    return VariantMasks(
        slots=slots,
        points=np.stack([x[union], y[union]], axis=1),
        sticker=np.stack([x[sticker], y[sticker]], axis=1),
        region=_rows(region, union),
        ring=_rows(ring, union),
        centre=_rows(centre, union),
        middle=_rows(middle, union),
        allowed=np.array(allowed, bool),
        ring_any=np.asarray(np.stack([m[union] for m in ring]).any(axis=0), bool),
        weights=np.array(
            [(1.0, 0.1, 0.1) if slot.kind == "mineral" else (1.0, 1.0, 1.0) for slot in slots],
            np.float32,
        ),
    )


# Reading slots ----------


def _confidence(d1: float, d2: float) -> float:
    return float(max(0.0, min(1.0, (d2 - d1) / (2 * MARGIN))) * max(0.0, 1.0 - d1 / (2 * FAR)))


def _glyph(centre: float, middle: float) -> tuple[UnitType | None, float]:
    """The unit type the glyph's darkness says, and how far inside its rule it is (0-1)."""
    for kind, (c_low, c_high, m_low, m_high) in GLYPH_RULES.items():
        if c_low <= centre <= c_high and m_low <= middle <= m_high:
            slack = min(centre - c_low, c_high - centre, middle - m_low, m_high - middle)
            return kind, min(1.0, 0.5 + 5 * slack)
    return None, 0.0


MINERAL_EMPTY, MINERAL_PRESENT = 0.12, 0.3
"""Where a mineral slot's lightness lies between bare tile (0) and a mineral token (1): below
the first it is empty, above the second it holds a token, between the two it is unknown. A
small token blurred by the camera is never as light as the card's large swatch."""


def _mineral(slot: SlotSpec, light: float, refs: References) -> SlotReading:
    low, high = float(refs.swatches["tile"][0]), float(refs.swatches["mineral"][0])
    where = (light - low) / max(high - low, 1.0)
    if where >= MINERAL_PRESENT:
        sure = min(1.0, 0.5 + (where - MINERAL_PRESENT))
        return SlotReading(slot.name, SlotState.TOKEN, confidence=sure)
    if where <= MINERAL_EMPTY:
        sure = min(1.0, 0.5 + (MINERAL_EMPTY - where))
        return SlotReading(slot.name, SlotState.EMPTY, confidence=sure)
    return SlotReading(slot.name, SlotState.UNKNOWN, confidence=0.0)


def read_slots(
    masks: VariantMasks, lab: Floats, refs: References, table: Floats
) -> list[tuple[SlotReading, ...]]:
    """Every slot of some tiles of one variant from their sampled pixels in Lab (T x K x 3)."""
    offset = (lab - refs.swatches["tile"]) ** 2
    # Lightness counts fully, hue a quarter: under warm light the printed tile's dark blue is
    # mostly noise once white-balanced, while a hand, a cup or glare is far lighter.
    unlike = ((offset[..., 0] + 0.25 * (offset[..., 1] + offset[..., 2])) > RING_MATCH**2).astype(
        np.float32
    )
    shares = 1.0 - unlike @ masks.ring.T  # T x S
    means = masks.region @ lab  # T x S x 3
    weights = masks.weights[None, :, None, :]
    distances = np.sqrt((weights * (means[:, :, None, :] - table[None, None]) ** 2).sum(axis=3))
    distances[:, ~masks.allowed] = np.inf
    order = np.argsort(distances, axis=2)[:, :, :2]
    nearest = np.take_along_axis(distances, order, axis=2).tolist()
    firsts = order[:, :, 0].tolist()
    share_list = shares.tolist()
    light = means[:, :, 0]
    light_list = light.tolist()
    glyphs: list[list[tuple[float, float] | None]] = [[None] * len(masks.slots) for _ in lab]
    for i, slot in enumerate(masks.slots):
        if slot.kind == "unit":
            span = np.maximum(light[:, i] - refs.ink_l, 1e-3)
            dark = np.clip((light[:, i, None] - lab[..., 0]) / span[:, None], 0, 1)  # T x K
            centre, middle = (dark @ masks.centre[i]).tolist(), (dark @ masks.middle[i]).tolist()
            for t in range(len(lab)):
                glyphs[t][i] = (centre[t], middle[t])
    return [
        tuple(
            _decide(
                slot,
                share_list[t][i],
                nearest[t][i],
                firsts[t][i],
                light_list[t][i],
                glyphs[t][i],
                refs,
            )
            for i, slot in enumerate(masks.slots)
        )
        for t in range(len(lab))
    ]


def _decide(
    slot: SlotSpec,
    share: float,
    nearest: list[float],
    best: int,
    light: float,
    glyph: tuple[float, float] | None,
    refs: References,
) -> SlotReading:
    """One slot's reading from its statistics (see the module docstring)."""
    if share < RING_SHARE:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=share)
    if slot.kind == "mineral":
        return _mineral(slot, light, refs)
    d1, d2 = nearest
    confidence = _confidence(d1, d2)
    name = REF_NAMES[best]
    if d1 > FAR or d2 - d1 < MARGIN:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=confidence)
    if name == "tile" and d2 - d1 < 2 * MARGIN:
        # a dark token (purple, blue) blurred into the tile around it looks nearly bare
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=confidence)
    if name == "tile":
        return SlotReading(slot.name, SlotState.EMPTY, confidence=confidence)
    if slot.kind != "unit":
        return SlotReading(slot.name, SlotState.TOKEN, Colour(name), None, confidence)
    if light - refs.ink_l < 12 or glyph is None:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=0.0)
    kind, sure = _glyph(*glyph)
    if kind is None:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=confidence)
    return SlotReading(slot.name, SlotState.TOKEN, Colour(name), kind, min(confidence, sure))


def _project(h: Matrix, points: Matrix) -> Matrix:
    p = points @ h[:, :2].T + h[:, 2]
    out: Matrix = p[:, :2] / p[:, 2:3]
    return out


def read_tiles(
    image: Image,
    tiles: Sequence[tuple[Matrix, int]],
    kit: Kit,
    refs: References,
    card_markers: Sequence[Matrix] = (),
) -> list[tuple[SlotReading, ...] | None]:
    """Every slot of every tile (``(tile frame -> image homography, variant)`` each), all
    sampled in one pass; None for a tile whose sticker cannot serve as its white."""
    if not tiles:
        return []
    strip = _masks(kit, 0).sticker  # the same strip on every tile and card marker
    stickers = [_project(h, strip) for h in (*card_markers, *(t[0] for t in tiles))]
    inner = [_project(h, _masks(kit, v).points) for h, v in tiles]
    counts = [len(p) for p in inner]
    where = np.concatenate([*stickers, *inner]).astype(np.float32)
    total = len(where)
    width = 1024  # remap wants maps under 32767 on a side
    padded = np.zeros((-(-total // width) * width, 2), np.float32)
    padded[:total] = where
    maps = padded.reshape(-1, width, 2)
    sampled = cv2.remap(
        image,
        np.ascontiguousarray(maps[:, :, 0]),
        np.ascontiguousarray(maps[:, :, 1]),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    ).reshape(-1, 3)[:total]
    rgb = _LINEAR[sampled][:, ::-1]
    # The light's colour comes from the card (a large patch, so reliable even where a warm
    # light leaves little blue); each sticker says how much light falls there. Blur and
    # compression darken a narrow white strip; the card's markers sit on stickers like the
    # tiles', so their strips say by how much.
    strips = len(stickers) * len(strip)
    level = np.percentile(
        rgb[:strips].reshape(len(stickers), len(strip), 3) / refs.white, 90, axis=1
    )
    brightness = level.mean(axis=1)
    cards = len(card_markers)
    strip_level = float(np.median(brightness[:cards])) if cards else 1.0
    whites = [refs.white * (b / strip_level) for b in brightness[cards:]]
    normalised = []
    at = strips
    for white, count in zip(whites, counts, strict=True):
        normalised.append(rgb[at : at + count] / np.maximum(white, 1e-3))
        at += count
    lab_all = _lab(np.concatenate(normalised).astype(np.float32))
    labs = []
    rings = []
    at = 0
    for (_, variant), count in zip(tiles, counts, strict=True):
        lab = lab_all[at : at + count]
        at += count
        labs.append(lab)
        rings.append(lab[_masks(kit, variant).ring_any])
    # The printed tile as it looks on the tiles themselves: blur spills a little of the
    # bright tokens and slot lines onto it, which moves a dark colour a long way in Lab, so
    # the card's swatch is not used for it. Most of every surround is bare tile.
    tile = np.median(np.concatenate(rings)[::4], axis=0)
    refs = dataclasses.replace(refs, swatches={**refs.swatches, "tile": tile})
    table = np.stack([refs.swatches[n] for n in REF_NAMES])
    out: list[tuple[SlotReading, ...] | None] = [None] * len(tiles)
    for variant in sorted({v for _, v in tiles}):
        which = [
            i
            for i, ((_, v), white) in enumerate(zip(tiles, whites, strict=True))
            if v == variant and float(white.min()) > 0.01
        ]
        if not which:
            continue
        read = read_slots(_masks(kit, variant), np.stack([labs[i] for i in which]), refs, table)
        for i, slots in zip(which, read, strict=True):
            out[i] = slots
    return out


# The board ----------


def _homography(src: Sequence[tuple[float, float]] | Matrix, dst: Matrix) -> Matrix:
    h, _ = cv2.findHomography(np.array(src, dtype=np.float64), dst.astype(np.float64))
    if h is None:
        raise CardNotFound("the calibration card's markers do not fix a plane")
    out: Matrix = h
    return out


PLANE_ROUNDS = 2


def _rigid(model: Matrix, points: Matrix) -> tuple[tuple[float, float], float]:
    """The turn and shift that best carry ``model`` (mm, centred) onto ``points`` (mm)."""
    centre = points.mean(axis=0)
    p = points - centre
    cross = float(np.sum(model[:, 0] * p[:, 1] - model[:, 1] * p[:, 0]))
    dot = float(np.sum(model[:, 0] * p[:, 0] + model[:, 1] * p[:, 1]))
    return (float(centre[0]), float(centre[1])), math.degrees(math.atan2(cross, dot))


def _placed(model: Matrix, pose: tuple[tuple[float, float], float]) -> Matrix:
    (cx, cy), angle = pose
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    out: Matrix = model @ rot.T + np.array([cx, cy])
    return out


def _rectifier(quads: Matrix) -> Matrix | None:
    """A homography from a metric copy of the table plane to the image, up to a similarity,
    from the markers alone: every marker is a square, so in the image its neighbouring edges
    and its diagonals must be the images of right angles. Each right angle is one linear
    equation on the image of the plane's dual conic of the circular points; its eigenvectors
    give the rectification (Liebowitz and Zisserman's metric rectification)."""
    if len(quads) < 3:
        return None
    pts = quads.reshape(-1, 2)
    mean = pts.mean(axis=0)
    spread = float(np.sqrt(((pts - mean) ** 2).sum(axis=1).mean())) or 1.0
    norm = np.array(
        [[1 / spread, 0, -mean[0] / spread], [0, 1 / spread, -mean[1] / spread], [0, 0, 1]]
    )
    q = (quads - mean) / spread
    h = np.concatenate([q, np.ones((*q.shape[:2], 1))], axis=2)  # M x 4 x 3

    def line(a: Matrix, b: Matrix) -> Matrix:
        crossed = np.cross(a, b)
        out: Matrix = crossed / np.linalg.norm(crossed[:, :2], axis=1, keepdims=True)
        return out

    edges = [line(h[:, k], h[:, (k + 1) % 4]) for k in range(4)]
    pairs = [(edges[0], edges[1]), (edges[1], edges[2]), (edges[2], edges[3]), (edges[3], edges[0])]
    pairs.append((line(h[:, 0], h[:, 2]), line(h[:, 1], h[:, 3])))
    rows = []
    for first, second in pairs:
        rows.append(
            np.stack(
                [
                    first[:, 0] * second[:, 0],
                    first[:, 0] * second[:, 1] + first[:, 1] * second[:, 0],
                    first[:, 1] * second[:, 1],
                    first[:, 0] * second[:, 2] + first[:, 2] * second[:, 0],
                    first[:, 1] * second[:, 2] + first[:, 2] * second[:, 1],
                    first[:, 2] * second[:, 2],
                ],
                axis=1,
            )
        )
    system = np.concatenate(rows)
    _, vectors6 = np.linalg.eigh(system.T @ system)  # the least-squares null vector
    a, b, c, d, e, f = vectors6[:, 0]
    conic = np.array([[a, b, d], [b, c, e], [d, e, f]])
    values, vectors = np.linalg.eigh(conic)
    order = np.argsort(np.abs(values))[::-1]
    values, vectors = values[order], vectors[:, order]
    if values[0] * values[1] <= 0:
        return None
    if values[0] < 0:
        values = -values
    rect = vectors @ np.diag([math.sqrt(values[0]), math.sqrt(values[1]), 1.0])
    out: Matrix = np.linalg.inv(norm) @ rect
    return out


def _plane(
    card: list[Marker], tiles: list[Marker], kit: Kit
) -> tuple[Matrix, list[tuple[tuple[float, float], float]]]:
    """The table plane (table mm -> image) and every tile's pose on it.

    The markers' squareness fixes the plane up to a similarity (:func:`_rectifier`); their
    known size fixes its scale and the card's markers where it lies. Each tile marker is then
    placed rigidly on that plane, and the plane is fitted once more to all markers together.
    """
    card_mm = np.array([p for m in card for p in kit.card_marker_corners(m.id)], np.float64)
    card_px = np.concatenate([m.corners for m in card])
    model = np.array(kit.marker_corners(), np.float64)
    size = float(np.sqrt((model**2).sum(axis=1).mean()))
    everything = [*card, *tiles]
    quads = np.array([m.corners for m in everything])
    plane = _homography(card_mm, card_px)
    rectifier = _rectifier(quads)
    if rectifier is not None:
        flat = cv2.perspectiveTransform(quads.reshape(-1, 1, 2), np.linalg.inv(rectifier))
        flat = flat.reshape(-1, 4, 2)
        if np.linalg.det(np.linalg.inv(rectifier)[:2, :2]) < 0:
            flat[..., 1] *= -1  # a mirror image: turn it the right way up
            rectifier = rectifier @ np.diag([1.0, -1.0, 1.0])
        sizes = np.sqrt(((flat - flat.mean(axis=1, keepdims=True)) ** 2).sum(axis=2).mean(axis=1))
        k = float(np.median(sizes)) / size
        card_flat = flat[: len(card)].reshape(-1, 2) / k
        (cx, cy), angle = _rigid(card_mm - card_mm.mean(axis=0), card_flat)
        # card_flat ~ R(angle) (card_mm - mean) + centre
        t = math.radians(angle)
        rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        shift = np.array([cx, cy]) - rot @ card_mm.mean(axis=0)
        to_flat = np.eye(3)
        to_flat[:2, :2] = rot * k
        to_flat[:2, 2] = shift * k
        candidate = rectifier @ to_flat
        if np.all(np.isfinite(candidate)):
            plane = candidate / candidate[2, 2]
    poses: list[tuple[tuple[float, float], float]] = []
    if not tiles:
        return plane, poses
    pixels = np.concatenate([m.corners for m in tiles]).reshape(-1, 1, 2)
    count = len(tiles)
    centres = np.zeros((count, 2))
    angles = np.zeros(count)
    for round_ in range(PLANE_ROUNDS):
        mm = cv2.perspectiveTransform(pixels, np.linalg.inv(plane)).reshape(count, 4, 2)
        centres = mm.mean(axis=1)
        rel = mm - centres[:, None, :]
        cross = (model[None, :, 0] * rel[..., 1] - model[None, :, 1] * rel[..., 0]).sum(axis=1)
        dot = (model[None, :, 0] * rel[..., 0] + model[None, :, 1] * rel[..., 1]).sum(axis=1)
        angles = np.arctan2(cross, dot)
        if round_ == PLANE_ROUNDS - 1:
            break
        cos, sin = np.cos(angles)[:, None], np.sin(angles)[:, None]
        placed = np.stack(
            [
                model[None, :, 0] * cos - model[None, :, 1] * sin + centres[:, None, 0],
                model[None, :, 0] * sin + model[None, :, 1] * cos + centres[:, None, 1],
            ],
            axis=2,
        )
        src = np.concatenate([card_mm, placed.reshape(-1, 2)])
        dst = np.concatenate([card_px, pixels.reshape(-1, 2)])
        plane = _homography(src, dst)
    poses = [
        ((float(c[0]), float(c[1])), math.degrees(float(a)))
        for c, a in zip(centres, angles, strict=True)
    ]
    return plane, poses


def _near_pairs(
    poses: Sequence[tuple[tuple[float, float], float]], side: float
) -> list[tuple[int, int]]:
    """Index pairs (i < j) of tiles whose centres are close enough to share an edge."""
    if len(poses) < 2:
        return []
    centres = np.array([c for c, _ in poses])
    apart = np.sqrt(((centres[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2))
    i, j = np.nonzero(np.triu(apart <= 1.6 * side, k=1))
    return list(zip(i.tolist(), j.tolist(), strict=True))


def _adjacent(
    a: tuple[tuple[float, float], float], b: tuple[tuple[float, float], float], side: float
) -> bool:
    """Whether two tile outlines share an edge segment (R1.1); touching corners do not."""
    (ax, ay), angle = a
    (bx, by), _ = b
    dx, dy = bx - ax, by - ay
    t = math.radians(angle)
    u = abs(dx * math.cos(t) + dy * math.sin(t))
    v = abs(-dx * math.sin(t) + dy * math.cos(t))
    along, across = max(u, v), min(u, v)
    return 0.85 * side <= along <= 1.15 * side and across <= 0.5 * side


def recognize(image: Image, *, kit: Kit | None = None, expected: int | None = None) -> Recognition:
    """Read a BGR picture of the table; CardNotFound without the calibration card.

    ``expected`` is how many tiles the table should have (the tracked game's sectors), when
    known: if fewer markers show, the detector looks again more carefully.
    """
    kit = kit or load_kit()
    if (
        not isinstance(image, np.ndarray)
        or image.ndim != 3
        or image.shape[2] != 3
        or image.dtype != np.uint8
    ):
        raise ImageError("expected a colour picture (height x width x 3 bytes)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(f"the picture has more than {MAX_PIXELS} pixels")
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    markers = find_markers(gray, kit, expected)
    card = [m for m in markers if m.id in kit.card.markers]
    if len(card) < 2:
        raise CardNotFound(
            "the calibration card is not in the picture (at least 2 of its 4 markers must show)"
        )
    notes: list[str] = []
    tile_markers: list[Marker] = []
    for marker in markers:
        if marker.id in kit.card.markers:
            continue
        if not kit.is_sector_marker(marker.id):
            notes.append(f"marker {marker.id} is not a tile of this kit")
            continue
        tile_markers.append(marker)
    table_to_image, poses = _plane(card, tile_markers, kit)
    refs = read_card(image, table_to_image, kit)
    found = list(zip(tile_markers, poses, strict=True))
    found.sort(key=lambda f: sector_sort_key(f"S{f[0].id}"))
    grid = _grid([pose for _, pose in found], kit.tile_side)
    tiles: list[TileFound] = []
    seen_cells: dict[tuple[int, int], str] = {}
    placed = [
        (table_to_image @ _similarity(centre, angle), kit.variant_of(marker.id))
        for marker, (centre, angle) in found
    ]
    card_markers = [table_to_image @ _similarity(kit.card.markers[m.id], 0.0) for m in card]
    readings = read_tiles(cv2.blur(image, (3, 3)), placed, kit, refs, card_markers)
    for (marker, (centre, angle)), (column, row, rotation), (to_image, variant), slots in zip(
        found, grid, placed, readings, strict=True
    ):
        sector = f"S{marker.id}"
        if slots is None:
            notes.append(f"{sector}: its marker sticker is too dark to read the tile by")
            slots = tuple(SlotReading(s.name, SlotState.UNKNOWN) for s in kit.variants[variant])
        if (column, row) in seen_cells:
            notes.append(f"{sector} lies on the same grid cell as {seen_cells[(column, row)]}")
        seen_cells[(column, row)] = sector
        reading = TileReading(sector, variant, column, row, rotation, centre, angle, 1.0, slots)
        tiles.append(TileFound(sector, to_image, reading))
    near = _near_pairs([pose for _, pose in found], kit.tile_side)
    edges = [
        (f"S{found[i][0].id}", f"S{found[j][0].id}")
        for i, j in near
        if _adjacent(found[i][1], found[j][1], kit.tile_side)
    ]
    scan = BoardScan(tuple(t.reading for t in tiles), tuple(edges), tuple(notes))
    px_per_mm = float(np.median([math.sqrt(_area(m.corners)) for m in markers])) / kit.marker_side
    quality, picture = _quality(px_per_mm, len(tiles))
    return Recognition(scan, tuple(tiles), table_to_image, quality, picture, px_per_mm)


SMALLEST_PX_PER_MM = 0.5
"""Below this many pixels per millimetre tiles go unfound: the picture is not usable."""
SLOTS_PX_PER_MM = 1.0
"""From this many pixels per millimetre on, every slot can be read."""


def _quality(px_per_mm: float, tiles: int) -> tuple[Quality, tuple[str, ...]]:
    if tiles == 0:
        return Quality.UNUSABLE, (
            "no tile markers in the picture, only the calibration card: is the board in view?",
        )
    if px_per_mm < SMALLEST_PX_PER_MM:
        return Quality.UNUSABLE, (
            f"the board is too small in the picture ({px_per_mm:.2f} pixels per mm; "
            f"{SMALLEST_PX_PER_MM} at least): tiles may be missing. Move the camera closer or "
            "use the still camera's full resolution",
        )
    if px_per_mm < SLOTS_PX_PER_MM:
        return Quality.COARSE, (
            f"the board is small in the picture ({px_per_mm:.2f} pixels per mm): small tokens "
            f"may be unknown; {SLOTS_PX_PER_MM} or more reads every slot (a full-resolution "
            "still, or the camera closer)",
        )
    return Quality.GOOD, ()


def _similarity(centre: tuple[float, float], angle: float) -> Matrix:
    t = math.radians(angle)
    return np.array(
        [[math.cos(t), -math.sin(t), centre[0]], [math.sin(t), math.cos(t), centre[1]], [0, 0, 1]]
    )


def _grid(
    poses: Sequence[tuple[tuple[float, float], float]], side: float
) -> list[tuple[int, int, int]]:
    """Snap tile poses to grid cells and quarter turns, the first tile at (0, 0)."""
    if not poses:
        return []
    vec = sum(
        complex(math.cos(math.radians(4 * a)), math.sin(math.radians(4 * a))) for _, a in poses
    )
    base = math.degrees(math.atan2(vec.imag, vec.real)) / 4
    t = math.radians(base)
    ox, oy = poses[0][0]
    out = []
    for (x, y), angle in poses:
        dx, dy = x - ox, y - oy
        u = dx * math.cos(t) + dy * math.sin(t)
        v = -dx * math.sin(t) + dy * math.cos(t)
        out.append((round(u / side), round(v / side), round((angle - base) / 90) % 4))
    return out


def scan_image(image: Image, *, kit: Kit | None = None, expected: int | None = None) -> BoardScan:
    return recognize(image, kit=kit, expected=expected).scan
