"""Synthetic boards: a picture of the table drawn from a game state, with ground truth.

The renderer draws the kit as printed (tiles, marker stickers, tokens, the calibration card)
top-down on the table plane, then photographs it: perspective up to 30 degrees of tilt, any
rotation and scale, a colour temperature of 2700-6500 K, brightness 0.5-1.5, soft shadows, a
hand over part of the board, blur, sensor noise and JPEG compression. It reads only the kit
description; it shares no detection or colour code with :mod:`vision.local_cluster.recognize`.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import CARRIER, SectorId, UnitType
from companion.local_cluster.board_scan import SlotReading, SlotState
from companion.local_cluster.state import State
from vision.errors import VisionError
from vision.local_cluster.kit import Kit, Point, SlotSpec, load_kit

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

TABLE_RGB = (150, 112, 78)
SKIN_RGB = (214, 168, 142)
EXPOSURE = 0.62
"""Linear exposure at brightness 1: paper white sits well below clipping, as a camera's
auto-exposure would leave it."""


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How the table is lit and photographed."""

    width: int = 1920
    height: int = 1080
    rotation: float = 0.0
    """Degrees the board is turned in the picture."""
    tilt: float = 0.0
    """Degrees the camera looks away from straight down (0-30)."""
    tilt_direction: float = 0.0
    fill: float = 0.9
    """Share of the frame the board and card take up."""
    kelvin: float = 6500.0
    brightness: float = 1.0
    blur: float = 0.0
    """Gaussian blur sigma in pixels."""
    noise: float = 0.0
    """Sensor noise, standard deviation in 8-bit steps."""
    jpeg: int | None = None
    """JPEG quality the picture is saved with, if any."""
    shadow: float = 0.0
    """How much a soft shadow darkens (0-0.5)."""
    hand: bool = False
    seed: int = 0

    @classmethod
    def random(cls, rng: random.Random, *, width: int = 1920, height: int = 1080) -> Conditions:
        """Conditions drawn across the whole range the recognizer must cope with."""
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
            seed=rng.randrange(2**31),
        )


@dataclasses.dataclass(frozen=True)
class TileTruth:
    """What was drawn for one tile: whether its marker is uncovered, and each slot."""

    sector: SectorId
    marker_visible: bool
    slots: Mapping[str, SlotReading]
    occluded: frozenset[str]
    """Slots the hand covers (or comes within the slot's surround of)."""


@dataclasses.dataclass(frozen=True)
class Rendered:
    image: Image
    tiles: Mapping[SectorId, TileTruth]
    table_to_image: Matrix
    """Homography from table millimetres to image pixels."""
    conditions: Conditions


# Content ----------------------------------------------------------------------------------------


def _tile_contents(
    state: State, kit: Kit, sector: SectorId, variant: int, rng: random.Random
) -> dict[str, SlotReading]:
    """Ground truth: what lies in each slot of ``sector`` given the tracked state."""
    slots = kit.variants[variant]
    out: dict[str, SlotReading] = {s.name: SlotReading(s.name, SlotState.EMPTY) for s in slots}
    claims = dict(state.claims)
    if sector in claims:
        out["claim"] = SlotReading("claim", SlotState.TOKEN, claims[sector], None, 1.0)
    for unit in state.units:
        if unit.sector == sector:
            out["unit"] = SlotReading("unit", SlotState.TOKEN, unit.owner, unit.kind, 1.0)
    minerals = [s.name for s in slots if s.kind == "mineral"]
    for name in rng.sample(minerals, min(len(minerals), state.galaxy.minerals(sector))):
        out[name] = SlotReading(name, SlotState.TOKEN, None, None, 1.0)
    craft_slots = [s.name for s in slots if s.kind == "craft"]
    craft = sorted((c.owner for c in state.craft if c.sector == sector), key=lambda c: c.rank)
    if len(craft) > len(craft_slots):
        raise VisionError(f"{sector} has {len(craft)} strike craft; a tile shows at most 6")
    for name, colour in zip(rng.sample(craft_slots, len(craft)), craft, strict=False):
        out[name] = SlotReading(name, SlotState.TOKEN, colour, None, 1.0)
    return out


# Drawing --------------------------------------------------------------------------------------


def _bgr(rgb: Sequence[int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _poly(points: Sequence[Point], scale: float, offset: Point) -> npt.NDArray[np.int32]:
    pts = [((x + offset[0]) * scale * 16, (y + offset[1]) * scale * 16) for x, y in points]
    return np.array(pts, dtype=np.int32).reshape(-1, 1, 2)


def _fill(img: Image, points: Sequence[Point], colour: Sequence[int], s: float, o: Point) -> None:
    cv2.fillPoly(img, [_poly(points, s, o)], _bgr(colour), cv2.LINE_AA, 4)


def _circle(
    img: Image, centre: Point, r: float, colour: Sequence[int], s: float, o: Point, t: int = -1
) -> None:
    c = (round((centre[0] + o[0]) * s * 16), round((centre[1] + o[1]) * s * 16))
    thickness = t if t < 0 else max(1, round(t * s))
    cv2.circle(img, c, round(r * s * 16), _bgr(colour), thickness, cv2.LINE_AA, 4)


def _marker(kit: Kit, marker: int, side_px: int) -> Image:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, kit.dictionary))
    bits = 7
    cell = max(1, math.ceil(side_px / bits))
    raw = cv2.aruco.generateImageMarker(dictionary, marker, cell * bits, borderBits=1)
    out: Image = cv2.resize(raw, (side_px, side_px), interpolation=cv2.INTER_NEAREST)
    return out


def _paste_marker(img: Image, kit: Kit, marker: int, centre: Point, side: float, s: float) -> None:
    px = round(side * s)
    mark = _marker(kit, marker, px)
    x0 = round(centre[0] * s - px / 2)
    y0 = round(centre[1] * s - px / 2)
    img[y0 : y0 + px, x0 : x0 + px] = mark[:, :, None]


def _jitter(points: list[Point], rng: random.Random, amount: float) -> list[Point]:
    dx, dy = rng.uniform(-amount, amount), rng.uniform(-amount, amount)
    return [(x + dx, y + dy) for x, y in points]


def draw_token(
    img: Image,
    slot: SlotSpec,
    reading: SlotReading,
    kit: Kit,
    s: float,
    o: Point,
    rng: random.Random,
) -> None:
    """Draw the token a slot holds (tile frame mm, ``s`` px/mm, offset ``o``)."""
    if reading.state is not SlotState.TOKEN:
        return
    shrink = 0.94
    token = dataclasses.replace(slot, radius=slot.radius * shrink)
    points = _jitter(token.outline(), rng, 0.6)
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    if slot.kind == "mineral":
        _fill(img, points, kit.printed["mineral"], s, o)
        return
    assert reading.colour is not None
    colour = kit.colours[reading.colour.value]
    _fill(img, points, colour, s, o)
    if slot.kind == "unit" and reading.kind is not None:
        draw_glyph(img, (cx, cy), token.radius, reading.kind, colour, kit, s, o)


def draw_glyph(
    img: Image,
    centre: Point,
    r: float,
    kind: UnitType,
    colour: Sequence[int],
    kit: Kit,
    s: float,
    o: Point,
) -> None:
    """A unit's glyph: a small dot (destroyer), a large dot (battleship), a ring (carrier)."""
    ink = kit.printed["ink"]
    glyph = kit.glyph[kind.value]
    if kind is CARRIER:
        inner, outer = glyph["ring"]
        _circle(img, centre, r * outer, ink, s, o)
        _circle(img, centre, r * inner, colour, s, o)
    else:
        _circle(img, centre, r * glyph["dot"], ink, s, o)


def draw_tile(
    kit: Kit,
    number: int,
    contents: Mapping[str, SlotReading],
    s: float,
    rng: random.Random,
) -> Image:
    """One tile as printed and populated, top-down at ``s`` px/mm."""
    side = kit.tile_side
    px = round(side * s)
    img = np.empty((px, px, 3), np.uint8)
    img[:] = _bgr(kit.printed["tile"])
    o = (side / 2, side / 2)
    edge = [
        (-side / 2, -side / 2),
        (side / 2, -side / 2),
        (side / 2, side / 2),
        (-side / 2, side / 2),
    ]
    cv2.polylines(
        img,
        [_poly(edge, s, o)],
        True,
        _bgr(kit.printed["slot_line"]),
        max(1, round(s)),
        cv2.LINE_AA,
        4,
    )
    h = kit.sticker_side / 2
    _fill(img, [(-h, -h), (h, -h), (h, h), (-h, h)], kit.printed["paper"], s, o)
    _paste_marker(img, kit, number, o, kit.marker_side, s)
    variant = kit.variant_of(number)
    line = kit.printed["slot_line"]
    for slot in kit.variants[variant]:
        cv2.polylines(
            img,
            [_poly(slot.outline(), s, o)],
            True,
            _bgr(line),
            max(1, round(0.7 * s)),
            cv2.LINE_AA,
            4,
        )
    for slot in kit.variants[variant]:
        draw_token(img, slot, contents[slot.name], kit, s, o, rng)
    return img


def draw_card(kit: Kit, s: float) -> Image:
    """The calibration card, top-down at ``s`` px/mm."""
    card = kit.card
    w, h = card.size
    img = np.full((round(h * s), round(w * s), 3), 255, np.uint8)
    o = (0.0, 0.0)
    for marker, (cx, cy) in card.markers.items():
        for half, colour in (
            (card.marker_frame / 2, kit.printed["tile"]),
            (kit.sticker_side / 2, kit.printed["paper"]),
        ):
            square = [
                (cx - half, cy - half),
                (cx + half, cy - half),
                (cx + half, cy + half),
                (cx - half, cy + half),
            ]
            _fill(img, square, colour, s, o)
        _paste_marker(img, kit, marker, (cx, cy), card.marker_side, s)
    half = card.swatch_side / 2
    for name, (cx, cy) in card.swatches.items():
        rgb = kit.colours.get(name) or kit.printed[name]
        square = [
            (cx - half, cy - half),
            (cx + half, cy - half),
            (cx + half, cy + half),
            (cx - half, cy + half),
        ]
        _fill(img, square, rgb, s, o)
    (x0, y0), (x1, y1) = card.ink
    _fill(img, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], kit.printed["ink"], s, o)
    return img


def _rotation(angle: float) -> Matrix:
    a = math.radians(angle)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _paste(
    canvas: Image, patch: Image, centre: Point, angle: float, s: float, origin: Point
) -> None:
    """Paste a top-down patch (``s`` px/mm, centred on its middle) at ``centre`` mm turned by
    ``angle`` degrees clockwise, onto the canvas whose pixel (0, 0) is ``origin`` mm."""
    ph, pw = patch.shape[:2]
    r = _rotation(angle)
    t = np.array([(centre[0] - origin[0]) * s, (centre[1] - origin[1]) * s])
    m = np.hstack([r, (t - r @ np.array([pw / 2, ph / 2]))[:, None]])
    cv2.warpAffine(
        patch,
        m,
        (canvas.shape[1], canvas.shape[0]),
        dst=canvas,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )


def _hand(rng: random.Random, at: Point) -> list[list[Point]]:
    """A hand's outline pieces in table mm: a palm, four fingers and a thumb."""
    angle = rng.uniform(0, 360)
    r = _rotation(angle)
    pieces: list[list[Point]] = []

    def ellipse(cx: float, cy: float, ax: float, ay: float, tilt: float = 0.0) -> None:
        pts = []
        for i in range(32):
            t = 2 * math.pi * i / 32
            x, y = ax * math.cos(t), ay * math.sin(t)
            rt = _rotation(tilt)
            x, y = rt @ np.array([x, y])
            x, y = r @ np.array([x + cx, y + cy])
            pts.append((float(x + at[0]), float(y + at[1])))
        pieces.append(pts)

    ellipse(0, 0, 55, 62)
    for i, dx in enumerate((-30, -10, 10, 30)):
        length = (62, 72, 68, 55)[i]
        ellipse(dx * 1.0, -50 - length / 2 + 8, 9, length / 2, (i - 1.5) * 5)
    ellipse(-55, 10, 11, 34, -50)
    ellipse(0, 130, 48, 85)  # the wrist and arm, towards the edge of the table
    return pieces


def _kelvin_gains(kelvin: float) -> npt.NDArray[np.float64]:
    """Linear RGB gains of a light at ``kelvin`` relative to daylight, largest 1."""

    def rgb(t: float) -> npt.NDArray[np.float64]:
        t /= 100
        red = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
        green = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
        blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
        c = np.clip(np.array([red, green, blue]) / 255.0, 0.01, 1)
        return np.asarray(c**2.2, dtype=np.float64)

    gains = rgb(kelvin) / rgb(6500)
    return np.asarray(gains / gains.max(), dtype=np.float64)


def render(
    state: State,
    conditions: Conditions | None = None,
    *,
    kit: Kit | None = None,
) -> Rendered:
    """Draw the table of ``state`` under ``conditions``; see the module docstring."""
    kit = kit or load_kit()
    cond = conditions or Conditions()
    rng = random.Random(cond.seed)
    side = kit.tile_side
    poses: dict[SectorId, tuple[int, Point, float]] = {}
    for sector in state.galaxy.sectors:
        tile = sector.tile
        number = int(sector.id[1:]) if sector.id[1:].isdigit() else 0
        if tile is None or not kit.is_sector_marker(number):
            raise VisionError(f"{sector.id} has no printed tile to draw (tiles S1-S48 only)")
        centre = (tile.column * side + rng.uniform(-2, 2), tile.row * side + rng.uniform(-2, 2))
        poses[sector.id] = (number, centre, tile.rotation * 90 + rng.uniform(-2, 2))
    xs = [c[0] for _, c, _ in poses.values()]
    ys = [c[1] for _, c, _ in poses.values()]
    cw, ch = kit.card.size
    card_centre = (min(xs) - side / 2 - 40 - cw / 2, (min(ys) + max(ys)) / 2)
    card_angle = rng.uniform(-5, 5)
    x0 = card_centre[0] - cw / 2 - 30
    y0 = min(min(ys) - side / 2, card_centre[1] - ch / 2) - 30
    x1 = max(xs) + side / 2 + 30
    y1 = max(max(ys) + side / 2, card_centre[1] + ch / 2) + 30
    content = [
        np.array(centre) + _rotation(angle) @ np.array(corner)
        for _, centre, angle in poses.values()
        for corner in (
            (-side / 2, -side / 2),
            (side / 2, -side / 2),
            (side / 2, side / 2),
            (-side / 2, side / 2),
        )
    ]
    content += [
        np.array(card_centre) + _rotation(card_angle) @ np.array([dx * cw / 2, dy * ch / 2])
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    homography, px_per_mm = _camera(cond, np.array(content), rng)
    # Draw top-down at about 1.6 times the picture's own resolution.
    s = float(min(5.0, max(1.6, px_per_mm * 1.6)))
    canvas = np.empty((math.ceil((y1 - y0) * s), math.ceil((x1 - x0) * s), 3), np.uint8)
    canvas[:] = _bgr(TABLE_RGB)
    origin = (x0, y0)
    contents: dict[SectorId, dict[str, SlotReading]] = {}
    for sector_id, (number, centre, angle) in poses.items():
        contents[sector_id] = _tile_contents(state, kit, sector_id, kit.variant_of(number), rng)
        patch = draw_tile(kit, number, contents[sector_id], s, rng)
        _paste(canvas, patch, centre, angle, s, origin)
    _paste(canvas, draw_card(kit, s), card_centre, card_angle, s, origin)

    hand_mask = np.zeros(canvas.shape[:2], np.uint8)
    if cond.hand:
        target = poses[rng.choice(sorted(poses))][1]
        for piece in _hand(rng, target):
            shifted = [(x - x0, y - y0) for x, y in piece]
            cv2.fillPoly(hand_mask, [_poly(shifted, s, (0.0, 0.0))], 255, cv2.LINE_8, 4)
        canvas[hand_mask > 0] = _bgr(SKIN_RGB)

    truth = {}
    for sector_id, (number, centre, angle) in poses.items():
        r = _rotation(angle)

        def covered(point: Point, radius: float, r: Matrix = r, centre: Point = centre) -> bool:
            p = r @ np.array(point) + np.array(centre)
            cx, cy = (p[0] - x0) * s, (p[1] - y0) * s
            rad = radius * s
            xa, xb = max(0, int(cx - rad)), min(hand_mask.shape[1], int(cx + rad) + 2)
            ya, yb = max(0, int(cy - rad)), min(hand_mask.shape[0], int(cy + rad) + 2)
            return bool(hand_mask[ya:yb, xa:xb].any())

        slots = kit.variants[kit.variant_of(number)]
        occluded = frozenset(
            slot.name
            for slot in slots
            if cond.hand
            and covered(slot.centre, slot.radius / math.cos(math.radians(30)) + kit.ring[1] + 1)
        )
        visible = not (cond.hand and covered((0.0, 0.0), kit.sticker_side * 0.75))
        truth[sector_id] = TileTruth(sector_id, visible, contents[sector_id], occluded)

    to_image = homography @ np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
    photo = cv2.warpPerspective(
        canvas,
        to_image,
        (cond.width, cond.height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=_bgr(TABLE_RGB),
    )
    image = _photograph(photo, cond, rng)
    return Rendered(image, truth, homography, cond)


def _camera(cond: Conditions, content: Matrix, rng: random.Random) -> tuple[Matrix, float]:
    """Homography from table mm to image pixels for the conditions' camera, framing the
    ``content`` points (tile and card corners, mm) to fill ``cond.fill`` of the picture."""
    cx, cy = content.mean(axis=0)
    rot = _rotation(cond.rotation)
    d = math.radians(cond.tilt_direction)
    axis = np.array([math.cos(d), math.sin(d), 0.0])
    t = math.radians(cond.tilt)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    r3 = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
    distance = 2.0 * float(np.ptp(content, axis=0).max())

    def project(points: Matrix) -> Matrix:
        flat = (points - [cx, cy]) @ rot.T
        out = []
        for x, y in flat:
            p = r3 @ np.array([x, y, 0.0])
            z = distance + p[2]
            out.append((p[0] / z * distance, p[1] / z * distance))
        return np.array(out)

    proj = project(content)
    low = proj.min(axis=0)
    span = proj.max(axis=0) - low
    scale = min(cond.width / span[0], cond.height / span[1]) * cond.fill
    slack = np.array([cond.width, cond.height]) - span * scale
    shift = slack * np.array([rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)])
    square = np.array(
        [[cx - 100, cy - 100], [cx + 100, cy - 100], [cx + 100, cy + 100], [cx - 100, cy + 100]]
    )
    placed = (project(square) - low) * scale + shift
    h: Matrix = cv2.getPerspectiveTransform(square.astype(np.float32), placed.astype(np.float32))
    return h, float(scale)


def _photograph(photo: Image, cond: Conditions, rng: random.Random) -> Image:
    """Light, blur, noise and compress a top-down-warped picture."""
    height, width = photo.shape[:2]
    linear = (photo.astype(np.float32) / 255.0) ** 2.2
    gains = _kelvin_gains(cond.kelvin)[::-1]  # BGR order
    light = (gains * EXPOSURE * cond.brightness).astype(np.float32)
    linear *= light
    if cond.shadow > 0:
        small = np.ones((max(2, height // 16), max(2, width // 16)), np.float32)
        sh, sw = small.shape
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
        axes = (int(rng.uniform(0.2, 0.5) * sw), int(rng.uniform(0.2, 0.5) * sh))
        cv2.ellipse(
            small, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 1 - cond.shadow, -1
        )
        small = cv2.GaussianBlur(small, (0, 0), sw * 0.06)
        field = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
        linear *= field[:, :, None]
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


def sample_state(seed: int = 1, players: int = 8) -> State:
    """A busy random position to draw: a setup played for a few greedy turns."""
    from companion.local_cluster.game import Game
    from companion.local_cluster.generation import random_setup
    from companion.local_cluster.policy import greedy_orders, greedy_plan, random_retreats
    from companion.local_cluster.state import Phase

    state = random_setup(seed, players)
    game = Game(state)
    rng = random.Random(seed)
    for _ in range(12):
        s = game.state
        if s.phase is Phase.ORDERS:
            game.play(
                {e.colour: greedy_orders(s, e.colour, rng) for e in s.empires if not e.eliminated}
            )
        elif s.phase is Phase.RETREATS:
            game.retreat(random_retreats(s, rng))
        elif s.phase is Phase.BUILD:
            game.build(
                {e.colour: greedy_plan(s, e.colour, rng) for e in s.empires if not e.eliminated}
            )
        else:
            break
    return game.state


def slip(state: State, rng: random.Random) -> State:
    """The same position with one unit of another type (docked craft dropped): a player's
    slip, for demonstrating the table screen's discrepancies."""
    index = rng.randrange(len(state.units))
    unit = state.units[index]
    kind = rng.choice([k for k in UnitType if k is not unit.kind])
    units = list(state.units)
    units[index] = dataclasses.replace(unit, kind=kind, docked=0)
    return dataclasses.replace(state, units=tuple(units))


def describe(conditions: Conditions) -> dict[str, Any]:
    return dataclasses.asdict(conditions)
