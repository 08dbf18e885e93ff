"""What the game renderers share in laying out a table before it is photographed
(:mod:`vision.photograph`): pasting a piece turned onto the canvas, hands reaching over the
table with their shadows, a busy patterned cloth under the pieces and beyond them, and the
soft shadow of someone leaning over the table.

A canvas is the table from ``origin`` (millimetres) at ``s`` pixels a millimetre; only
renderers import this module, no recognizer does.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.photograph import (
    RGB,
    SKINS,
    Floats,
    Image,
    Matrix,
    Shot,
    glare_field,
    photograph,
    rotation,
)

Point = tuple[float, float]

PATTERNED = "patterned cloth"
"""A mat kind drawn by :class:`PatternedCloth`, not a flat colour: renderers take it only
where a picture asks for it by name, so that the pictures drawn at random stay as they were."""
PATTERN_INKS: tuple[RGB, ...] = (
    (200, 40, 40),
    (30, 120, 60),
    (40, 70, 170),
    (230, 200, 60),
    (240, 240, 230),
    (30, 30, 30),
    (120, 60, 150),
    (240, 130, 170),
)
"""What a patterned cloth is printed with (sRGB): black and white among them, as a marker's.
The inks and the pattern are those of the busy mat of the benchmark renderer written apart
from the readers that first showed a reader a pattern taken for a marker; that renderer
keeps its own copy, since it shares no code with this module."""


@dataclasses.dataclass(frozen=True)
class PatternedCloth:
    """A busy tablecloth, as a function of the table's millimetres: four inks of
    :data:`PATTERN_INKS` in blocks 15-60 mm across on a turned grid, blotches 8-25 mm across
    of the next ink over them, and fine stripes 4-12 mm apart, whose black and white edges
    are what a marker detector may decode. The same cloth is drawn wherever it is looked at
    (under the cards, and in the picture beyond them)."""

    inks: Image
    """4 x 3, BGR bytes."""
    angle: float
    block: tuple[float, float]
    blotches: Floats
    """Noise on a grid of :attr:`blotch` millimetres from :data:`CLOTH_REACH` mm west and north."""
    blotch: float
    stripe: float
    stripe_ink: int

    @classmethod
    def draw(cls, rng: random.Random) -> PatternedCloth:
        inks = np.array([rng.choice(PATTERN_INKS)[::-1] for _ in range(4)], np.uint8)  # BGR
        angle = rng.uniform(0, math.pi)
        block = (rng.uniform(15, 60), rng.uniform(15, 60))
        blotch = rng.uniform(8, 25)
        cells = int(2 * CLOTH_REACH / blotch) + 4
        noise = np.random.default_rng(rng.randrange(2**32)).standard_normal((cells, cells))
        return cls(
            inks,
            angle,
            block,
            noise.astype(np.float32),
            blotch,
            rng.uniform(4, 12),
            rng.randrange(4),
        )

    def at(self, x: Floats, y: Floats) -> Image:
        """The cloth (BGR) at table points ``x``, ``y`` (millimetres, any shape alike)."""
        u = x * math.cos(self.angle) + y * math.sin(self.angle)
        v = -x * math.sin(self.angle) + y * math.cos(self.angle)
        index = (np.floor(u / self.block[0]) + 2 * np.floor(v / self.block[1])).astype(np.int32) % 4
        # remap takes maps under 32767 a side: the points in rows of 4096.
        flat = [np.asarray((c.ravel() + CLOTH_REACH) / self.blotch, np.float32) for c in (x, y)]
        pad = -len(flat[0]) % 4096
        rows = [np.pad(c, (0, pad)).reshape(-1, 4096) for c in flat]
        noise = (
            cv2.remap(
                self.blotches, rows[0], rows[1], cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT
            )
            .ravel()[: len(flat[0])]
            .reshape(x.shape)
        )
        index = np.where(noise > 0.6, (index + 1) % 4, index)
        index[np.abs(np.sin(math.pi * u / self.stripe)) > 0.9] = self.stripe_ink
        cloth: Image = self.inks[index]
        return cloth


CLOTH_REACH = 3000.0
"""Millimetres from the table's origin a :class:`PatternedCloth` reaches each way before
it repeats (mirrored)."""


def hand_outline(rng: random.Random, at: tuple[float, float]) -> list[list[tuple[float, float]]]:
    """A hand (palm, four fingers, thumb, wrist) in table mm, reaching in from a side."""
    r = rotation(rng.uniform(0, 360))
    pieces: list[list[tuple[float, float]]] = []

    def ellipse(cx: float, cy: float, ax: float, ay: float, tilt: float = 0.0) -> None:
        rt = rotation(tilt)
        pts = []
        for i in range(32):
            t = 2 * math.pi * i / 32
            x, y = rt @ np.array([ax * math.cos(t), ay * math.sin(t)])
            x, y = r @ np.array([x + cx, y + cy])
            pts.append((float(x + at[0]), float(y + at[1])))
        pieces.append(pts)

    ellipse(0, 0, 55, 62)
    for i, dx in enumerate((-30, -10, 10, 30)):
        length = (62, 72, 68, 55)[i]
        ellipse(dx, -50 - length / 2 + 8, 9, length / 2, (i - 1.5) * 5)
    ellipse(-55, 10, 11, 34, -50)
    ellipse(0, 130, 48, 85)
    return pieces


def paste(
    canvas: npt.NDArray[Any], patch: npt.NDArray[Any], centre: Point, angle: float, s: float
) -> None:
    """Paste a piece (``s`` px/mm; its face, or a map of it such as its gloss) at ``centre``
    (canvas mm) turned ``angle`` degrees, warping only the region it covers."""
    ph, pw = patch.shape[:2]
    r = rotation(angle)
    c = np.array(centre) * s
    reach = math.hypot(pw, ph) / 2 + 2
    x0, y0 = max(0, int(c[0] - reach)), max(0, int(c[1] - reach))
    x1, y1 = (
        min(canvas.shape[1], int(c[0] + reach) + 1),
        min(canvas.shape[0], int(c[1] + reach) + 1),
    )
    if x0 >= x1 or y0 >= y1:
        return
    t = c - np.array([x0, y0])
    m = np.hstack([r, (t - r @ np.array([pw / 2, ph / 2]))[:, None]])
    roi = canvas[y0:y1, x0:x1]
    cv2.warpAffine(
        patch,
        m,
        (x1 - x0, y1 - y0),
        dst=roi,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )


def lay_cloth(canvas: Image, cloth: PatternedCloth, s: float, origin: Point) -> None:
    """Cover the canvas with the cloth."""
    rows, columns = np.mgrid[0 : canvas.shape[0], 0 : canvas.shape[1]].astype(np.float32)
    canvas[:] = cloth.at(columns / s + origin[0], rows / s + origin[1])


def cloth_beyond(
    photo: Image, cloth: PatternedCloth, shape: tuple[int, int], to_image: Matrix, table: Matrix
) -> None:
    """Show the cloth in ``photo`` where the camera sees past the canvas (``shape`` pixels,
    warped by ``to_image`` with a black border); ``table`` maps table millimetres to the
    photo's pixels."""
    size = (photo.shape[1], photo.shape[0])
    inside = cv2.warpPerspective(
        np.ones(shape, np.float32), to_image, size, flags=cv2.INTER_LINEAR, borderValue=0
    )
    beyond = inside < 1
    v, u = np.nonzero(beyond)
    points = cv2.perspectiveTransform(
        np.stack([u, v], axis=-1).astype(np.float64)[None], np.linalg.inv(table)
    )[0].astype(np.float32)
    seen = cloth.at(points[:, 0], points[:, 1]) * (1 - inside[beyond][:, None])
    photo[beyond] = np.clip(photo[beyond] + seen, 0, 255).astype(np.uint8)


def lay_hands(
    rng: random.Random,
    count: int,
    targets: Sequence[Point],
    canvas: Image,
    gloss: Floats,
    s: float,
    origin: Point,
    *,
    shadow: float,
    skin_gloss: float,
) -> tuple[Floats, npt.NDArray[np.uint8]]:
    """``count`` hands, each reaching toward one of ``targets`` (table mm) in a skin of
    :data:`SKINS`, painted onto the canvas and its gloss; the shade they cast (each shadow
    ``shadow`` deep, a little to one side) and where they lie (255)."""
    shape = canvas.shape[:2]
    shade = np.ones(shape, np.float32)
    mask = np.zeros(shape, np.uint8)
    x0, y0 = origin
    for _ in range(count):
        target = rng.choice(targets)
        pieces = hand_outline(rng, target)
        skin = rng.choice(SKINS)
        drop = (rng.uniform(-20, 20), rng.uniform(-20, 20))
        one = np.zeros(shape, np.uint8)
        fallen = np.zeros(shape, np.uint8)
        for piece in pieces:
            pts = np.array([((x - x0) * s * 16, (y - y0) * s * 16) for x, y in piece], np.int32)
            cv2.fillPoly(one, [pts.reshape(-1, 1, 2)], 255, cv2.LINE_8, 4)
            dropped = np.array(
                [((x + drop[0] - x0) * s * 16, (y + drop[1] - y0) * s * 16) for x, y in piece],
                np.int32,
            )
            cv2.fillPoly(fallen, [dropped.reshape(-1, 1, 2)], 255, cv2.LINE_8, 4)
        soft = cv2.GaussianBlur(fallen.astype(np.float32) / 255, (0, 0), 6.0 * s)
        shade *= 1 - shadow * soft
        canvas[one > 0] = skin[::-1]
        gloss[one > 0] = skin_gloss
        shade[one > 0] = 1.0
        mask |= one
    return shade, mask


def leaning_shadow(rng: random.Random, size: tuple[int, int], strength: float) -> Floats:
    """The soft shadow of someone leaning over the table, over a ``size`` (width, height)
    picture: a blurred ellipse darkening up to ``strength``."""
    width, height = size
    small = np.ones((max(2, height // 16), max(2, width // 16)), np.float32)
    sh, sw = small.shape
    axes = (int(rng.uniform(0.2, 0.5) * sw), int(rng.uniform(0.2, 0.5) * sh))
    middle = (int(rng.uniform(0, sw)), int(rng.uniform(0, sh)))
    cv2.ellipse(small, middle, axes, rng.uniform(0, 180), 0, 360, 1 - strength, -1)
    small = cv2.GaussianBlur(small, (0, 0), sw * 0.06)
    field: Floats = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    return field


@dataclasses.dataclass(frozen=True)
class Lighting:
    """How a table is lit and its picture taken, over the camera benchmarks' ranges (issue
    18): each renderer's ``Conditions`` adds how its table is laid and framed."""

    kelvin: float = 6500.0
    brightness: float = 1.0
    gradient: float = 0.0
    """How much darker the far side of the picture is (0-0.5), a lamp off to one side."""
    vignette: float = 0.0
    glare: int = 0
    """Specular highlights in the picture (0-2)."""
    glare_strength: float = 1.0
    """A highlight's peak, in units of paper white (up to 2: clipped)."""
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


def drawn_lighting(rng: random.Random) -> dict[str, Any]:
    """:class:`Lighting`'s fields drawn at random over their ranges, in this order (a renderer
    passes them on as keywords, between the draws of its own fields)."""
    return {
        "kelvin": rng.uniform(2700, 6500),
        "brightness": rng.uniform(0.55, 1.4),
        "gradient": rng.uniform(0, 0.45),
        "vignette": rng.uniform(0, 0.35),
        "glare": rng.choice([0, 0, 1, 1, 2]),
        "glare_strength": rng.uniform(0.3, 2.0),
        "blur": rng.uniform(0, 1.3),
        "noise": rng.uniform(0.5, 4.0),
        "jpeg": rng.choice([None, 60, 70, 80, 90, 95]),
        "bayer": rng.random() < 0.7,
        "shadow": rng.uniform(0, 0.4),
        "hands": rng.choice([0, 0, 1, 1, 2]),
        "hand_shadow": rng.uniform(0.2, 0.6),
    }


class Scene(Shot, Protocol):
    """How a picture is framed and what falls on the table besides (each game's
    ``Conditions`` has these)."""

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def shadow(self) -> float: ...
    @property
    def glare(self) -> int: ...
    @property
    def glare_strength(self) -> float: ...


@dataclasses.dataclass(frozen=True)
class Laid:
    """A table laid on a canvas, ready to be photographed."""

    canvas: Image
    """BGR as printed, ``s`` pixels a millimetre from ``origin`` (table mm)."""
    gloss: Floats
    shade: Floats
    s: float
    origin: Point
    mat: tuple[int, int, int]
    """BGR beyond the canvas: a plain mat's colour (black under a cloth, not shown)."""
    mat_gloss: float
    cloth: PatternedCloth | None = None
    """The patterned cloth, if the table has one (beyond the canvas too)."""


def take(
    laid: Laid, homography: Matrix, scene: Scene, paper: RGB, rng: random.Random
) -> tuple[Image, Floats, Matrix]:
    """Photograph the laid table through the camera's ``homography`` (table mm to pixels):
    the picture, the glare reflected at each pixel (units of paper white) and the canvas's
    map to the picture."""
    x0, y0 = laid.origin
    s = laid.s
    to_image = homography @ np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
    size = (scene.width, scene.height)
    photo = cv2.warpPerspective(
        laid.canvas,
        to_image,
        size,
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0) if laid.cloth is not None else laid.mat,
    )
    if laid.cloth is not None:
        cloth_beyond(photo, laid.cloth, laid.canvas.shape[:2], to_image, homography)
    gloss = cv2.warpPerspective(
        laid.gloss, to_image, size, flags=cv2.INTER_LINEAR, borderValue=laid.mat_gloss
    )
    shade = cv2.warpPerspective(laid.shade, to_image, size, flags=cv2.INTER_LINEAR, borderValue=1)
    if scene.shadow > 0:
        shade *= leaning_shadow(rng, size, scene.shadow)
    glare = glare_field(
        rng, (scene.height, scene.width), count=scene.glare, strength=scene.glare_strength
    )
    shine: Floats = glare * gloss
    image = photograph(
        photo, gloss=gloss, shade=shade, glare=glare, paper=paper, shot=scene, rng=rng
    )
    return image, shine, to_image
