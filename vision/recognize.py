"""Reading a picture of the table: markers, the table plane, tiles, adjacency and every slot.

The pipeline (docs/physical-kit.md):

1. ArUco markers are found at reduced resolution and their corners refined at full resolution.
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

from companion.atoms import Colour, SectorId, UnitType, sector_sort_key
from companion.board_scan import BoardScan, SlotReading, SlotState, TileReading
from vision.errors import CardNotFound, ImageError
from vision.kit import Kit, SlotSpec, load_kit

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
"""A surround pixel looks like printed tile when within this CIE76 distance of the swatch."""
RING_SHARE = 0.8
"""...and a slot counts as uncovered when this share of its surround does."""
FAR = 30.0
"""A slot whose colour is farther than this from every swatch is unknown."""
MARGIN = 8.0
"""...and so is one whose nearest swatch is not this much nearer than the next."""
GLYPH_MARGIN = 0.25


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


# Markers ----------


@cache
def _detector(dictionary: str) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = 0.02
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.2
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
    return cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)), params
    )


def find_markers(gray: Image, kit: Kit) -> list[Marker]:
    """Markers in a grey picture, found in a copy at most DETECT_WIDTH wide; their corners
    are fitted to the marker's edges (contour refinement) and scaled back."""
    height, width = gray.shape
    factor = min(1.0, DETECT_WIDTH / max(width, height * 16 / 9))
    small = (
        gray
        if factor == 1.0
        else cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    )
    corners, ids, _ = _detector(kit.dictionary).detectMarkers(small)
    if ids is None:
        return []
    refined = np.array([c.reshape(4, 2) for c in corners], dtype=np.float64)
    if factor != 1.0:
        refined = (refined + 0.5) / factor - 0.5
    best: dict[int, Marker] = {}
    for marker_id, quad in zip(ids.ravel().tolist(), refined, strict=True):
        found = Marker(int(marker_id), quad)
        old = best.get(found.id)
        if old is None or cv2.contourArea(quad.astype(np.float32)) > cv2.contourArea(
            old.corners.astype(np.float32)
        ):
            best[found.id] = found
    return list(best.values())


# Colour references ----------


@dataclasses.dataclass(frozen=True)
class References:
    """The card's swatches, white-balanced against its paper, in Lab."""

    swatches: dict[str, Floats]
    ink_l: float

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
    return References(swatches, float(ink[0]))


# Slot masks ----------


@dataclasses.dataclass(frozen=True)
class SlotMasks:
    """Where one slot is looked at: positions in its variant's list of sampled pixels."""

    slot: SlotSpec
    inside: npt.NDArray[np.intp]
    ring: npt.NDArray[np.intp]
    band: npt.NDArray[np.intp] | None = None
    centre: npt.NDArray[np.intp] | None = None
    middle: npt.NDArray[np.intp] | None = None


@dataclasses.dataclass(frozen=True)
class VariantMasks:
    slots: tuple[SlotMasks, ...]
    sampled: npt.NDArray[np.intp]
    """Flat patch pixel indices read at all, in order."""
    sticker: npt.NDArray[np.intp]
    """Flat patch pixel indices of the marker sticker's white margin."""


_MASKS: dict[tuple[int, int], VariantMasks] = {}


def _masks(kit: Kit, variant: int) -> VariantMasks:
    """Each slot's masks on a tile patch, and the marker sticker's white margin."""
    key = (id(kit), variant)
    if key not in _MASKS:
        _MASKS[key] = _make_masks(kit, variant)
    return _MASKS[key]


def _make_masks(kit: Kit, variant: int) -> VariantMasks:
    s = PATCH_SCALE
    half = kit.tile_side / 2
    size = round(kit.tile_side * s)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64)
    x = (xs + 0.5) / s - half
    y = (ys + 0.5) / s - half
    raw: list[tuple[SlotSpec, list[Mask]]] = []
    for slot in kit.variants[variant]:
        shape = np.zeros((size, size), np.uint8)
        pts = np.array([((px + half) * s, (py + half) * s) for px, py in slot.outline()])
        cv2.fillPoly(shape, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_8, 4)
        inside_dist = cv2.distanceTransform(shape, cv2.DIST_L2, 5) / s
        outside_dist = cv2.distanceTransform(255 - shape, cv2.DIST_L2, 5) / s
        masks = [inside_dist >= kit.margin]
        masks.append((outside_dist >= kit.ring[0]) & (outside_dist <= kit.ring[1]))
        if slot.kind == "unit":
            r = np.hypot(x - slot.centre[0], y - slot.centre[1]) / (slot.radius * 0.94)
            g = kit.glyph
            masks.append((r >= g["colour_band"][0]) & (r <= g["colour_band"][1]))
            masks.append(r <= g["centre_probe"])
            masks.append((r >= g["middle_probe"][0]) & (r <= g["middle_probe"][1]))
        raw.append((slot, masks))
    union = np.zeros((size, size), bool)
    for _, masks in raw:
        for mask in masks:
            union |= mask
    sampled = np.flatnonzero(union)

    def where(mask: Mask) -> npt.NDArray[np.intp]:
        return np.searchsorted(sampled, np.flatnonzero(mask))

    slots = tuple(SlotMasks(slot, *(where(m) for m in masks)) for slot, masks in raw)
    cheb = np.maximum(np.abs(x), np.abs(y))
    sticker = (cheb >= kit.marker_side / 2 + 1.0) & (cheb <= kit.sticker_side / 2 - 1.0)
    return VariantMasks(slots, sampled, np.flatnonzero(sticker))


# Reading slots ----------


COLOURS = tuple(c.value for c in Colour)
GLYPHS = {  # (centre dark, middle dark)
    UnitType.DESTROYER: (1.0, 0.0),
    UnitType.BATTLESHIP: (1.0, 1.0),
    UnitType.CARRIER: (0.0, 1.0),
}


def _confidence(d1: float, d2: float) -> float:
    return float(max(0.0, min(1.0, (d2 - d1) / (2 * MARGIN))) * max(0.0, 1.0 - d1 / (2 * FAR)))


def read_slot(lab: Floats, tile_like: Mask, masks: SlotMasks, refs: References) -> SlotReading:
    """One slot from the sampled pixels of its tile (``lab``: K x 3; ``tile_like``: which of
    them look like the printed tile)."""
    slot = masks.slot
    matching = float(tile_like[masks.ring].mean()) if len(masks.ring) else 0.0
    if matching < RING_SHARE:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=matching)
    region = masks.band if masks.band is not None else masks.inside
    mean = lab[region].mean(axis=0)
    names = ("mineral", "tile") if slot.kind == "mineral" else (*COLOURS, "tile")
    name, d1, d2 = refs.nearest(mean, names)
    confidence = _confidence(d1, d2)
    if d1 > FAR or d2 - d1 < MARGIN:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=confidence)
    if name == "tile":
        return SlotReading(slot.name, SlotState.EMPTY, confidence=confidence)
    if slot.kind == "mineral":
        return SlotReading(slot.name, SlotState.TOKEN, confidence=confidence)
    colour = Colour(name)
    if slot.kind != "unit":
        return SlotReading(slot.name, SlotState.TOKEN, colour, None, confidence)
    assert masks.centre is not None and masks.middle is not None
    light = float(mean[0])
    threshold = (light + refs.ink_l) / 2
    if light - refs.ink_l < 12:
        return SlotReading(slot.name, SlotState.UNKNOWN, confidence=0.0)
    dark_centre = float(np.mean(lab[masks.centre, 0] < threshold))
    dark_middle = float(np.mean(lab[masks.middle, 0] < threshold))
    ranked = sorted(
        ((math.hypot(dark_centre - c, dark_middle - m), kind) for kind, (c, m) in GLYPHS.items()),
        key=lambda item: item[0],
    )
    (g1, kind), (g2, _) = ranked[0], ranked[1]
    if g1 > 0.5 or g2 - g1 < GLYPH_MARGIN:
        return SlotReading(
            slot.name, SlotState.UNKNOWN, confidence=min(confidence, max(0.0, g2 - g1))
        )
    return SlotReading(slot.name, SlotState.TOKEN, colour, kind, min(confidence, min(1.0, g2 - g1)))


def read_tile(
    image: Image, to_image: Matrix, kit: Kit, variant: int, refs: References
) -> tuple[SlotReading, ...] | None:
    """Each slot of one tile; None when its sticker cannot serve as the white reference."""
    s = PATCH_SCALE
    half = kit.tile_side / 2
    size = round(kit.tile_side * s)
    m = to_image @ np.array([[1 / s, 0, -half], [0, 1 / s, -half], [0, 0, 1]])
    patch = cv2.warpPerspective(
        image, m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    flat = cv2.blur(patch, (3, 3)).reshape(-1, 3)
    masks = _masks(kit, variant)
    white = np.median(_LINEAR[flat[masks.sticker]], axis=0)[::-1]
    if float(white.min()) <= 0.01:
        return None
    rgb = _LINEAR[flat[masks.sampled]][:, ::-1] / white
    lab = _lab(rgb.astype(np.float32))
    tile_like = np.sqrt(((lab - refs.swatches["tile"]) ** 2).sum(axis=1)) < RING_MATCH
    return tuple(read_slot(lab, tile_like, m_, refs) for m_ in masks.slots)


# The board ----------


def _homography(src: Sequence[tuple[float, float]] | Matrix, dst: Matrix) -> Matrix:
    h, _ = cv2.findHomography(np.array(src, dtype=np.float64), dst.astype(np.float64))
    if h is None:
        raise CardNotFound("the calibration card's markers do not fix a plane")
    out: Matrix = h
    return out


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


def _plane(
    card: list[Marker], tiles: list[Marker], kit: Kit
) -> tuple[Matrix, list[tuple[tuple[float, float], float]]]:
    """The table plane (table mm -> image) and every tile's pose on it.

    The card's markers give a first plane; each tile marker is then placed rigidly on it (its
    true size is known), and the plane is fitted again to all markers together, twice.
    """
    card_mm = np.array([p for m in card for p in kit.card_marker_corners(m.id)], np.float64)
    card_px = np.concatenate([m.corners for m in card])
    plane = _homography(card_mm, card_px)
    model = np.array(kit.marker_corners(), np.float64)
    poses: list[tuple[tuple[float, float], float]] = []
    for round_ in range(3):
        inverse = np.linalg.inv(plane)
        poses = []
        for m in tiles:
            mm = cv2.perspectiveTransform(m.corners.reshape(-1, 1, 2), inverse).reshape(4, 2)
            poses.append(_rigid(model, mm))
        if round_ == 2 or not tiles:
            break
        src = np.concatenate([card_mm, *(_placed(model, pose) for pose in poses)])
        dst = np.concatenate([card_px, *(m.corners for m in tiles)])
        plane = _homography(src, dst)
    return plane, poses


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


def recognize(image: Image, *, kit: Kit | None = None) -> Recognition:
    """Read a BGR picture of the table; CardNotFound without the calibration card."""
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
    markers = find_markers(gray, kit)
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
    for (marker, (centre, angle)), (column, row, rotation) in zip(found, grid, strict=True):
        sector = f"S{marker.id}"
        variant = kit.variant_of(marker.id)
        to_image = table_to_image @ _similarity(centre, angle)
        slots = read_tile(image, to_image, kit, variant, refs)
        if slots is None:
            notes.append(f"{sector}: its marker sticker is too dark to read the tile by")
            slots = tuple(SlotReading(s.name, SlotState.UNKNOWN) for s in kit.variants[variant])
        if (column, row) in seen_cells:
            notes.append(f"{sector} lies on the same grid cell as {seen_cells[(column, row)]}")
        seen_cells[(column, row)] = sector
        reading = TileReading(sector, variant, column, row, rotation, centre, angle, 1.0, slots)
        tiles.append(TileFound(sector, to_image, reading))
    edges = []
    for i, (ma, pa) in enumerate(found):
        for mb, pb in found[i + 1 :]:
            if _adjacent(pa, pb, kit.tile_side):
                edges.append((f"S{ma.id}", f"S{mb.id}"))
    scan = BoardScan(tuple(t.reading for t in tiles), tuple(edges), tuple(notes))
    return Recognition(scan, tuple(tiles), table_to_image)


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


def scan_image(image: Image, *, kit: Kit | None = None) -> BoardScan:
    return recognize(image, kit=kit).scan
