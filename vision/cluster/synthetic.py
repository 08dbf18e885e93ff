"""Test pictures of a Cluster table: the printed board of the kit with pegs standing in its
holes, photographed, with the ground truth of every hole.

Written from the kit's description only (``kit/cluster-kit.json``: the sheet as printed, the peg
size and heights, the colours); it shares no code with :mod:`vision.cluster.recognize`. The
pegs are drawn as cylinders in 3D (a peg stands its height times the kit's height step above
the board, P2.4), so a tilted camera sees their sides and their tops shifted away from it, as a
real camera does. The photograph's conditions are those of the Local Cluster vision benchmark:
any rotation, up to 30 degrees of tilt, 2700-6500 K light, brightness 0.5-1.5, soft shadows,
a hand over the board half the time, blur, sensor noise and JPEG compression.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping

import cv2
import numpy as np
import numpy.typing as npt

from companion.cluster_peg.position import Position
from companion.cluster_peg.scan import Seen
from vision.cluster.kit import Kit, load_kit
from vision.cluster.sheets import draw_board
from vision.photograph import kelvin_gains, rodrigues

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

TABLE_RGB = (120, 96, 72)
SKIN_RGB = (214, 168, 142)
EXPOSURE = 0.62
PROBE_MM = 4.0
"""The disc around a hole's centre that must be in plain view for the hole to count as seen."""


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How the table is lit and photographed (the Local Cluster vision benchmark's ranges)."""

    width: int = 1920
    height: int = 1080
    rotation: float = 0.0
    tilt: float = 0.0
    """Degrees the camera looks away from straight down (0-30)."""
    tilt_direction: float = 0.0
    fill: float = 0.9
    kelvin: float = 6500.0
    brightness: float = 1.0
    blur: float = 0.0
    noise: float = 0.0
    jpeg: int | None = None
    shadow: float = 0.0
    hand: bool = False
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
            brightness=rng.uniform(0.5, 1.5),
            blur=rng.uniform(0, 1.2),
            noise=rng.uniform(0, 4),
            jpeg=rng.choice([None, 75, 85, 95]),
            shadow=rng.uniform(0, 0.4),
            hand=rng.random() < 0.5,
            seed=rng.randrange(2**31),
        )


@dataclasses.dataclass(frozen=True)
class HoleTruth:
    seen: Seen
    """What is in the hole (empty, red, blue)."""
    visible: bool
    """Whether the disc around its centre is in plain view (no hand, no other peg over it)."""


@dataclasses.dataclass(frozen=True)
class Rendered:
    image: Image
    holes: tuple[HoleTruth, ...]
    """In hole order."""
    conditions: Conditions
    board_to_image: Matrix
    """Homography from the board frame (mm, on the board's surface) to image pixels."""


class _Camera:
    """A pinhole camera over the board: world = board frame, z into the table."""

    def __init__(
        self, cond: Conditions, box: tuple[float, float, float, float], rng: random.Random
    ):
        x0, y0, x1, y1 = box
        centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
        distance = 2.0 * max(x1 - x0, y1 - y0)
        phi = math.radians(cond.tilt_direction)
        axis = np.array([math.cos(phi), math.sin(phi), 0.0])
        tilt = rodrigues(axis, math.radians(cond.tilt))
        roll = rodrigues(np.array([0.0, 0.0, 1.0]), math.radians(cond.rotation))
        axes = tilt @ roll  # the camera's x, y, z axes (columns) in the world
        self.rotation: Matrix = axes.T
        self.position: Matrix = centre - distance * axes[:, 2]
        corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float)
        raw = self._normalised(corners)
        low, high = raw.min(axis=0), raw.max(axis=0)
        span = high - low
        self.focal = min(cond.width / span[0], cond.height / span[1]) * cond.fill
        slack = np.array([cond.width, cond.height]) - span * self.focal
        self.offset = slack * np.array([rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)]) - (
            low * self.focal
        )

    def _normalised(self, points: Matrix) -> Matrix:
        cam = (points - self.position) @ self.rotation.T
        return np.asarray(cam[:, :2] / cam[:, 2:3], dtype=np.float64)

    def project(self, points: Matrix) -> Matrix:
        return np.asarray(self._normalised(points) * self.focal + self.offset, dtype=np.float64)

    def depth(self, point: Matrix) -> float:
        return float(np.linalg.norm(point - self.position))

    def plane_homography(self) -> Matrix:
        """Board frame (x, y, z = 0) to image pixels."""
        src = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], np.float64)
        dst = self.project(np.hstack([src, np.zeros((4, 1))]))
        return np.asarray(
            cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)),
            dtype=np.float64,
        )


def _bgr(rgb: tuple[float, ...]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _polygon(points: Matrix) -> npt.NDArray[np.int32]:
    return np.round(points * 16).astype(np.int32).reshape(-1, 1, 2)


def peg_height(kit: Kit, position: Position, hole: int) -> float:
    """How far the peg in ``hole`` stands above the board, in millimetres (P2.4)."""
    height = position.height_at(hole)
    return 0.0 if height is None else height * kit.height_step


def render(
    position: Position, conditions: Conditions | None = None, *, kit: Kit | None = None
) -> Rendered:
    """The table of ``position`` under ``conditions`` (see the module's description)."""
    kit = kit or load_kit()
    cond = conditions or Conditions()
    rng = random.Random(cond.seed)
    board = position.board
    box = kit.sheet_box(board)
    camera = _Camera(cond, box, rng)
    to_image = camera.plane_homography()

    # The printed board, warped onto the table.
    s = 4.0
    sheet = draw_board(kit, board, s, labels=True)
    sheet_to_board = np.array([[1 / s, 0, box[0]], [0, 1 / s, box[1]], [0, 0, 1]])
    photo = np.empty((cond.height, cond.width, 3), np.uint8)
    photo[:] = _bgr(TABLE_RGB)
    cv2.warpPerspective(
        sheet,
        to_image @ sheet_to_board,
        (cond.width, cond.height),
        dst=photo,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )

    # The pegs, far ones first, as cylinders; each also marks the pixels it covers.
    covered = np.zeros((cond.height, cond.width), np.int32)
    radius = kit.peg_diameter / 2
    ring = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 28, endpoint=False)]
    placed = []
    for hole, peg in position.placement().items():
        x, y = kit.hole_mm(board, hole)
        x += rng.uniform(-0.6, 0.6)
        y += rng.uniform(-0.6, 0.6)
        placed.append((hole, peg.colour, x, y, peg_height(kit, position, hole)))
    placed.sort(key=lambda p: -camera.depth(np.array([p[2], p[3], -p[4] / 2])))
    for hole, colour, x, y, height in placed:
        base = np.array([[x + radius * c, y + radius * sn, 0.0] for c, sn in ring])
        top = np.array([[x + radius * c, y + radius * sn, -height] for c, sn in ring])
        outline = cv2.convexHull(
            np.vstack([camera.project(base), camera.project(top)]).astype(np.float32)
        )
        rgb = kit.colours[colour.title.lower()]
        side = tuple(0.72 * c for c in rgb)
        cv2.fillPoly(photo, [_polygon(outline.reshape(-1, 2))], _bgr(side), cv2.LINE_AA, 4)
        cv2.fillPoly(covered, [np.round(outline.reshape(-1, 2)).astype(np.int32)], hole + 1)
        cap = camera.project(top)
        cv2.fillPoly(photo, [_polygon(cap)], _bgr(rgb), cv2.LINE_AA, 4)
        cv2.polylines(
            photo, [_polygon(cap)], True, _bgr(tuple(0.5 * c for c in rgb)), 1, cv2.LINE_AA, 4
        )

    # A hand over part of the board, above the pegs.
    hand = np.zeros((cond.height, cond.width), np.uint8)
    if cond.hand:
        target = kit.hole_mm(board, rng.randrange(board.size))
        for piece in _hand(rng, target):
            points = camera.project(np.array([[px, py, -60.0] for px, py in piece]))
            cv2.fillPoly(hand, [_polygon(points)], 255, cv2.LINE_8, 4)
        photo[hand > 0] = _bgr(SKIN_RGB)

    truths = []
    for hole in range(board.size):
        x, y = kit.hole_mm(board, hole)
        disc = camera.project(
            np.array([[x + PROBE_MM * c, y + PROBE_MM * sn, 0.0] for c, sn in ring])
        )
        mask = np.zeros((cond.height, cond.width), np.uint8)
        cv2.fillPoly(mask, [np.round(disc).astype(np.int32)], 1)
        inside = mask > 0
        over = covered[inside]
        hidden = bool(hand[inside].any()) or bool(np.any((over != 0) & (over != hole + 1)))
        truths.append(HoleTruth(Seen.of(position.peg_at(hole)), not hidden))

    image = _photograph(photo, cond, rng)
    return Rendered(image, tuple(truths), cond, to_image)


def _hand(rng: random.Random, at: tuple[float, float]) -> list[list[tuple[float, float]]]:
    """A hand's outline pieces in board mm: a palm, four fingers, a thumb and the arm."""
    angle = math.radians(rng.uniform(0, 360))
    ca, sa = math.cos(angle), math.sin(angle)
    pieces = []

    def ellipse(cx: float, cy: float, ax: float, ay: float, tilt: float = 0.0) -> None:
        ct, st = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
        pts = []
        for i in range(32):
            t = 2 * math.pi * i / 32
            x, y = ax * math.cos(t), ay * math.sin(t)
            x, y = x * ct - y * st + cx, x * st + y * ct + cy
            pts.append((x * ca - y * sa + at[0], x * sa + y * ca + at[1]))
        pieces.append(pts)

    ellipse(0, 0, 40, 45)
    for i, dx in enumerate((-22, -7, 8, 22)):
        length = (45, 52, 50, 40)[i]
        ellipse(dx, -36 - length / 2 + 6, 7, length / 2, (i - 1.5) * 5)
    ellipse(-40, 8, 8, 25, -50)
    ellipse(0, 95, 35, 62)
    return pieces


def _photograph(photo: Image, cond: Conditions, rng: random.Random) -> Image:
    """Light, shade, blur, noise and compress."""
    height, width = photo.shape[:2]
    linear = (photo.astype(np.float32) / 255.0) ** 2.2
    light = (kelvin_gains(cond.kelvin)[::-1] * EXPOSURE * cond.brightness).astype(np.float32)
    linear *= light
    if cond.shadow > 0:
        small = np.ones((max(2, height // 16), max(2, width // 16)), np.float32)
        sh, sw = small.shape
        axes = (int(rng.uniform(0.2, 0.5) * sw), int(rng.uniform(0.2, 0.5) * sh))
        centre = (int(rng.uniform(0, sw)), int(rng.uniform(0, sh)))
        cv2.ellipse(small, centre, axes, rng.uniform(0, 180), 0, 360, 1 - cond.shadow, -1)
        small = cv2.GaussianBlur(small, (0, 0), sw * 0.06)
        linear *= cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)[:, :, None]
    srgb = np.clip(linear, 0, 1) ** (1 / 2.2) * 255.0
    if cond.blur > 0:
        srgb = cv2.GaussianBlur(srgb, (0, 0), cond.blur)
    if cond.noise > 0:
        srgb = srgb + np.random.default_rng(cond.seed).normal(0, cond.noise, srgb.shape).astype(
            np.float32
        )
    image: Image = np.clip(srgb + 0.5, 0, 255).astype(np.uint8)
    if cond.jpeg is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            image = decoded
    return image


def truth_counts(rendered: Rendered) -> Mapping[str, int]:
    """How many holes of each kind the picture holds (for reports)."""
    out = {"visible": 0, "hidden": 0}
    for truth in rendered.holes:
        out["visible" if truth.visible else "hidden"] += 1
    return out
