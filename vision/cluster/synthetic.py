"""Test pictures of a Cluster table: the printed board of the kit with pegs standing in its
holes, photographed, with the ground truth of every hole.

Written from the kit's description only (``kit/cluster-kit.json``: the sheet as printed, the peg
size and heights, the colours); it shares no code with :mod:`vision.cluster.recognize`. The
pegs are drawn as cylinders in 3D (a peg stands its height times the kit's height step above
the board, P2.4), so a tilted camera sees their sides and their tops shifted away from it, as a
real camera does. The photograph's conditions are those of the Local Cluster vision benchmark
(issue 18), taken through the shared :mod:`vision.photograph`: any rotation, up to 30 degrees
of tilt, 2700-6500 K light falling off to one side with vignetting, brightness 0.55-1.4, a soft
shadow, up to two hands of any skin tone with their shadows, specular highlights that wash out
what they fall on (strongest on the glossy pegs), the board printed on papers of four whites
on mats of seven colours, blur, shot and read noise through a Bayer filter, and JPEG 60-95.
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
from vision.photograph import MATS, PAPERS, SKINS, glare_field, photograph, rodrigues

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

PROBE_MM = 4.0
"""The disc around a hole's centre that must be in plain view for the hole to count as seen."""
GLARE_HIDES = 0.5
"""Reflected light (units of paper white) over a hole's disc beyond which it is washed out:
not in plain view."""
GLOSS = {"mat": 0.15, "paper": 0.35, "peg": 0.6, "skin": 0.3}
"""How much of a highlight each surface reflects."""


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How the table is made up, lit and photographed: the Local Cluster vision benchmark's
    ranges (issue 18), which :meth:`random` draws from."""

    width: int = 1920
    height: int = 1080
    rotation: float = 0.0
    tilt: float = 0.0
    """Degrees the camera looks away from straight down (0-30)."""
    tilt_direction: float = 0.0
    fill: float = 0.9
    kelvin: float = 6500.0
    brightness: float = 1.0
    gradient: float = 0.0
    """How much darker the far side of the picture is (0-0.5), a lamp off to one side."""
    vignette: float = 0.0
    glare: int = 0
    """Specular highlights in the picture (0-2)."""
    glare_strength: float = 1.0
    """A highlight's peak, in units of paper white (up to 2: clipped)."""
    glare_kelvin: float | None = None
    """The colour of the lamp that lights the highlights (None: the light's own, ``kelvin``)."""
    blur: float = 0.0
    noise: float = 0.0
    """Read noise in 8-bit steps (shot noise grows with it)."""
    jpeg: int | None = None
    bayer: bool = False
    """Photographed through a Bayer colour filter and demosaiced."""
    shadow: float = 0.0
    """A soft shadow (someone leaning over the table) darkening up to this much (0-0.4)."""
    hands: int = 0
    hand_shadow: float = 0.4
    """How dark the hands' shadows are (0-0.6)."""
    mat: str = "wood"
    paper: str = "bright white"
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
            brightness=rng.uniform(0.55, 1.4),
            gradient=rng.uniform(0, 0.45),
            vignette=rng.uniform(0, 0.35),
            glare=rng.choice([0, 0, 1, 1, 2]),
            glare_strength=rng.uniform(0.3, 2.0),
            blur=rng.uniform(0, 1.3),
            noise=rng.uniform(0.5, 4.0),
            jpeg=rng.choice([None, 60, 70, 80, 90, 95]),
            bayer=rng.random() < 0.7,
            shadow=rng.uniform(0, 0.4),
            hands=rng.choice([0, 0, 1, 1, 2]),
            hand_shadow=rng.uniform(0.2, 0.6),
            mat=rng.choice(sorted(MATS)),
            paper=rng.choice(sorted(PAPERS)),
            seed=rng.randrange(2**31),
        )


@dataclasses.dataclass(frozen=True)
class HoleTruth:
    seen: Seen
    """What is in the hole (empty, red, blue)."""
    visible: bool
    """Whether the disc around its centre is in plain view (no hand, no other peg over it, not
    washed out by a highlight)."""
    hidden_by: str | None = None
    """What hides it: ``"hand"``, ``"peg"`` (another one, seen from the side) or ``"glare"``."""


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
    size = (cond.width, cond.height)

    # The printed board on its paper, warped onto the table.
    s = 4.0
    paper = PAPERS[cond.paper]
    printed = dataclasses.replace(kit, printed={**kit.printed, "paper": paper})
    sheet = draw_board(printed, board, s, labels=True)
    sheet_to_board = np.array([[1 / s, 0, box[0]], [0, 1 / s, box[1]], [0, 0, 1]])
    photo = np.empty((cond.height, cond.width, 3), np.uint8)
    photo[:] = _bgr(MATS[cond.mat])
    cv2.warpPerspective(
        sheet,
        to_image @ sheet_to_board,
        size,
        dst=photo,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    gloss = np.full((cond.height, cond.width), GLOSS["mat"], np.float32)
    sheet_mask = np.full(sheet.shape[:2], GLOSS["paper"], np.float32)
    cv2.warpPerspective(
        sheet_mask,
        to_image @ sheet_to_board,
        size,
        dst=gloss,
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
        cv2.fillPoly(gloss, [_polygon(outline.reshape(-1, 2))], GLOSS["peg"], cv2.LINE_AA, 4)
        cap = camera.project(top)
        cv2.fillPoly(photo, [_polygon(cap)], _bgr(rgb), cv2.LINE_AA, 4)
        cv2.polylines(
            photo, [_polygon(cap)], True, _bgr(tuple(0.5 * c for c in rgb)), 1, cv2.LINE_AA, 4
        )

    # Shade: someone leaning over the table, then hands above the pegs with their shadows.
    shade = np.ones((cond.height, cond.width), np.float32)
    if cond.shadow > 0:
        small = np.ones((max(2, cond.height // 16), max(2, cond.width // 16)), np.float32)
        sh, sw = small.shape
        axes = (int(rng.uniform(0.2, 0.5) * sw), int(rng.uniform(0.2, 0.5) * sh))
        centre = (int(rng.uniform(0, sw)), int(rng.uniform(0, sh)))
        cv2.ellipse(small, centre, axes, rng.uniform(0, 180), 0, 360, 1 - cond.shadow, -1)
        small = cv2.GaussianBlur(small, (0, 0), sw * 0.06)
        shade *= cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    hand = np.zeros((cond.height, cond.width), np.uint8)
    for _ in range(cond.hands):
        target = kit.hole_mm(board, rng.randrange(board.size))
        pieces = _hand(rng, target)
        skin = rng.choice(SKINS)
        drop = (rng.uniform(-20, 20), rng.uniform(-20, 20))
        fallen = np.zeros((cond.height, cond.width), np.uint8)
        one = np.zeros((cond.height, cond.width), np.uint8)
        for piece in pieces:
            above = camera.project(np.array([[px, py, -60.0] for px, py in piece]))
            cv2.fillPoly(one, [_polygon(above)], 255, cv2.LINE_8, 4)
            below = camera.project(
                np.array([[px + drop[0], py + drop[1], 0.0] for px, py in piece])
            )
            cv2.fillPoly(fallen, [_polygon(below)], 255, cv2.LINE_8, 4)
        soft = cv2.GaussianBlur(fallen.astype(np.float32) / 255, (0, 0), 6.0)
        shade *= 1 - cond.hand_shadow * soft
        photo[one > 0] = _bgr(skin)
        gloss[one > 0] = GLOSS["skin"]
        shade[one > 0] = 1.0
        hand |= one

    glare = glare_field(
        rng, (cond.height, cond.width), count=cond.glare, strength=cond.glare_strength
    )
    shine = glare * gloss
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
        hidden_by = (
            "hand"
            if hand[inside].any()
            else "peg"
            if np.any((over != 0) & (over != hole + 1))
            else "glare"
            if shine[inside].max(initial=0.0) > GLARE_HIDES
            else None
        )
        truths.append(HoleTruth(Seen.of(position.peg_at(hole)), hidden_by is None, hidden_by))

    image = photograph(
        photo,
        gloss=gloss,
        shade=shade,
        glare=glare,
        paper=paper,
        shot=cond,
        rng=rng,
        glare_kelvin=cond.glare_kelvin,
    )
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


def truth_counts(rendered: Rendered) -> Mapping[str, int]:
    """How many holes of each kind the picture holds (for reports)."""
    out = {"visible": 0, "hidden": 0}
    for truth in rendered.holes:
        out["visible" if truth.visible else "hidden"] += 1
    return out
