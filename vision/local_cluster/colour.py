"""Colour: linear light, CIE Lab, and the calibration card's references seen in the same
picture (its white paper is the light's colour; its swatches are what each token looks like
under that light, whatever printer made them)."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CardNotFound
from vision.local_cluster.kit import Kit

Image = npt.NDArray[np.uint8]
Indices = npt.NDArray[np.intp]
G = TypeVar("G", bound=np.generic)
Floats = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]

CARD_SCALE = 1.0
"""Pixels per millimetre of the card's top-down copy."""
PROBE_INSET = 2.0
"""Swatches and their black squares are read this far (mm) inside their edges: blur."""
CARD_GLARE_MOST = 1.0
"""Glare adding more than this share of paper white to a swatch (as bright again as the
paper): the card is unusable. Below it, glare even across a swatch is taken off exactly
(its black square says how much; uneven glare is caught by ``SWATCH_SPREAD``). It was
0.15: issue 18's benchmark, picture 5, had a highlight's halo lift the card's swatches by
0.08-0.24, evenly, and read no colour on the whole board; read with it taken off, none of
its claims or units is wrong. Then 0.3: seed 19's picture 2 lifted the card's swatches by
0.23-0.41 and hands 29's picture 23 by 0.25-0.69, evenly, and no claim or unit of either
board was read; taken off, none of their tokens reads wrong. Beyond the paper's own white
the card clips: seed 7's picture 25 (lifts of 0.66-1.04, its white patch clipped pure
white) read its tile swatch 49 Lab from the tiles at 1.1."""
SWATCH_SPREAD = 0.25
"""A swatch whose four sides (the medians of the ring around its black square, side by
side) differ in luminance by more than this share, and ``SWATCH_SPREAD_LEAST``, is under
glare too uneven to take off (a gradient is not: the black square at the swatch's centre
sees its middle). Medians of whole sides, not the spread of single pixels: noise and the
blurred edge of the black square spread a dark swatch's pixels without any glare, and a
card copy a millimetre off under blur makes sides differ by up to a fifth (issue 18's
benchmark: 0.1 called glare-free 1 px/mm pictures glared, and read no colours in them)."""
SWATCH_SPREAD_LEAST = 0.03
"""...and more than this share of paper white (noise on a dark swatch)."""
COVERED_DARKER = 20.0
"""A swatch reading more than this darker (L*) than the kit prints it is covered (a hand, a
sleeve, a shadow): glare only ever lightens, and the card's paper sets the light. Issue
18's benchmark, seed 7's picture 10: an arm across the card read its white swatch 87
darker, pink 60, red and purple 28-30, and so red's uneven sides called the card glared
("move the lamp"); no swatch of the benchmark's other pictures read more than 8 darker. A
swatch covered whole shows even sides and no lift: nothing else would have refused it."""
DARK_CHANNEL = 0.01
"""A channel of the card's white patch this dark (linear) leaves nothing to balance colours
by: the card is covered, or the light lacks that colour..."""
COLOURED_LIGHT = 5.0
"""...the light, where another channel is more than this many times brighter (a 1900 K
candle's light shows the white patch orange: seen as "the white patch is black: is the card
covered?" before)."""
COVERED_PATCH = (
    "something dark covers the calibration card's white patch (a hand, a sleeve?): its "
    "colours cannot be used, and the tiles are read as without the card; clear the card"
)
"""Said when the white patch reads black in every channel while the card's markers show:
the tiles are read as with no card in the picture (each tile in its own white square's
light, against the kit's printed colours, from ``recognize.SQUARES_LEAST_PX_PER_MM``).
Issue 18's pictures drawn apart, seed 39 picture 9 (1.24 px/mm): an arm's dark sleeve over
the patch, three of the card's markers showing, refused whole before ("the white patch is
black: is the card covered?"), its four tiles' 20 visible slots lost."""
TOO_DARK = (
    "the picture is too dark to read: the calibration card's paper shows almost no light "
    "anywhere; light the table, or lengthen the exposure"
)
"""...unless the card's brightest hundredth (its paper round the markers among it) is as
dark: then the whole picture is (a 1.1 px/mm picture at a tenth of its light: the card's
markers found, no tile's; "something covers the white patch" would mislead)."""
CLIPPED = 250
"""An 8-bit channel this bright is clipped (glare, or overexposed)."""


def _lut() -> Floats:
    values = np.arange(256, dtype=np.float64) / 255.0
    linear = np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)
    return linear.astype(np.float32)


LINEAR = _lut()
"""sRGB byte -> linear light (0-1)."""
PAPER = 1.0
"""The description's paper, (255, 255, 255): linear 1."""


def linear_rgb(bgr: Image, white: Floats | None = None) -> Floats:
    """Linear R, G, B (float32, last axis) of 8-bit B, G, R pixels (any shape x 3): the
    same values as ``LINEAR[bgr[..., ::-1]]``, or with ``white`` (R, G, B) as
    ``LINEAR[bgr[..., ::-1]] / white``, in a fifth of the time (OpenCV's table look-up, one
    table per channel with ``white``, then its channel swap; numpy's indexing through a
    reversed view was 1.7 ms of a 1080p scan's sampled points)."""
    table: npt.NDArray[np.floating]
    if white is None:
        table = LINEAR.reshape(256, 1)
    else:
        table = (LINEAR[:, None] / np.asarray(white, np.float32)[::-1]).reshape(256, 1, 3)
    flat = cv2.LUT(np.ascontiguousarray(bgr).reshape(-1, 1, 3), table)
    out: Floats = cv2.cvtColor(flat, cv2.COLOR_BGR2RGB).reshape(bgr.shape)
    return out


def lab(rgb_linear: Floats) -> Floats:
    """Linear R, G, B (last axis; white = 1) to CIE Lab."""
    shape = rgb_linear.shape
    # One row, not one column: OpenCV converts row by row, and a column of 100,000 one-pixel
    # rows took 12 of a 1080p scan's 20 ms in ``slots.light`` (a row: 1 ms).
    flat = np.clip(rgb_linear.reshape(1, -1, 3), 0, 4).astype(np.float32)
    out: Floats = cv2.cvtColor(flat, cv2.COLOR_LRGB2Lab).reshape(shape)
    return out


def linear_from_lab(values: Floats) -> Floats:
    """CIE Lab (last axis) back to linear R, G, B (white = 1): :func:`lab` undone."""
    shape = values.shape
    flat = np.ascontiguousarray(values, np.float32).reshape(1, -1, 3)
    out: Floats = cv2.cvtColor(flat, cv2.COLOR_Lab2LRGB).reshape(shape)
    return out


@dataclasses.dataclass(frozen=True)
class Card:
    """What the card shows: its paper's colour (the light), its swatches, its ink."""

    white: Floats
    """The card's paper in linear R, G, B."""
    swatches: dict[str, Floats]
    """Each swatch in Lab, white-balanced against the paper."""
    ink: float
    """The ink bar's lightness (L*), white-balanced."""
    tile_luminance: float
    """The tile-background swatch's luminance relative to the card's paper: the tiles,
    printed alike, say from theirs how much light falls on them."""
    glare: bool = False
    """Light reflected off the card's dark parts: its swatches cannot be trusted."""
    notes: tuple[str, ...] = ()
    part_covered: tuple[str, ...] = ()
    """The swatches something covers in part (:data:`COVERED_DARKER`, and uneven): the card's
    colours are not used, as under glare (``recognize.SQUARES_LEAST_PX_PER_MM``). (A swatch
    covered whole stands at its printed colour.)"""


def median(values: npt.NDArray[np.floating], axis: int = 0) -> npt.NDArray[np.floating]:
    """``np.median(values, axis)`` without its checks (NaNs, subclasses), which took most of
    the time of the card's 62 small medians at 1080p: the same values."""
    n = values.shape[axis]
    k = n // 2
    if n % 2:
        out: npt.NDArray[np.floating] = np.take(np.partition(values, k, axis=axis), k, axis=axis)
        return out
    part = np.partition(values, (k - 1, k), axis=axis)
    out = (np.take(part, k - 1, axis=axis) + np.take(part, k, axis=axis)) / 2
    return out


def percentile(
    values: npt.NDArray[np.floating], q: float, axis: int = 0
) -> npt.NDArray[np.floating]:
    """``np.percentile(values, q, axis)`` (its default, linear method) without its checks:
    the same values, for the per-tile percentiles of a scan."""
    n = values.shape[axis]
    at = q / 100 * (n - 1)
    lo = int(np.floor(at))
    hi = min(lo + 1, n - 1)
    t = at - lo
    part = np.partition(values, (lo, hi) if hi != lo else lo, axis=axis)
    a, b = np.take(part, lo, axis=axis), np.take(part, hi, axis=axis)
    out: npt.NDArray[np.floating] = b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t
    return out


def _region(
    linear: npt.NDArray[G], centre: tuple[float, float], outer: float, inner: float = -1.0
) -> npt.NDArray[G]:
    """The card copy's pixels (linear R, G, B) whose Chebyshev distance from ``centre`` (mm)
    is at most ``outer`` and more than ``inner``: a square, or a square ring."""
    s = CARD_SCALE
    cx, cy = centre
    y0, y1 = max(0, round((cy - outer) * s)), round((cy + outer) * s)
    x0, x1 = max(0, round((cx - outer) * s)), round((cx + outer) * s)
    block = linear[y0:y1, x0:x1]
    ys = (np.arange(y0, y0 + block.shape[0]) + 0.5) / s - cy
    xs = (np.arange(x0, x0 + block.shape[1]) + 0.5) / s - cx
    cheb = np.maximum(np.abs(ys)[:, None], np.abs(xs)[None, :])
    out: npt.NDArray[G] = block[cheb > inner]
    return out


def _side_boxes(
    centre: tuple[float, float], outer: float, inner: float
) -> tuple[tuple[float, float, float, float], ...]:
    """The four sides (top, bottom, left, right; x0, y0, x1, y1 in mm) of the square ring
    between ``inner`` and ``outer`` around ``centre``: a swatch's sides, whose median
    luminances must agree (``SWATCH_SPREAD``)."""
    cx, cy = centre
    return (
        (cx - outer, cy - outer, cx + outer, cy - inner),
        (cx - outer, cy + inner, cx + outer, cy + outer),
        (cx - outer, cy - inner, cx - inner, cy + inner),
        (cx + inner, cy - inner, cx + outer, cy + inner),
    )


@dataclasses.dataclass(frozen=True)
class _SwatchPixels:
    """Flat indices into the card copy of each swatch's pixels, one array per swatch: its
    ring (:func:`_region` between the black square and the edge), its black square, and its
    ring's four sides (top, bottom, left, right: :func:`_side_boxes`)."""

    rings: tuple[Indices, ...]
    blacks: tuple[Indices, ...]
    sides: tuple[tuple[Indices, ...], ...]


@cache
def _swatch_pixels(
    centres: tuple[tuple[float, float], ...],
    outer: float,
    inner: float,
    probe: float,
    shape: tuple[int, int],
) -> _SwatchPixels:
    """Which pixels :func:`_region` and :func:`_side_boxes` cover, as indices (the same
    pixels in the same order), for every swatch of a card copy of ``shape``."""
    grid = np.arange(shape[0] * shape[1]).reshape(shape)
    index = grid[..., None]  # _region reads its pixels' last axis
    rings = tuple(_region(index, at, outer, inner)[:, 0] for at in centres)
    blacks = tuple(_region(index, at, probe)[:, 0] for at in centres)
    s = CARD_SCALE
    sides = []
    for boxes in zip(*(_side_boxes(at, outer, inner) for at in centres), strict=True):
        sides.append(
            tuple(
                grid[
                    max(0, round(y0 * s)) : round(y1 * s), max(0, round(x0 * s)) : round(x1 * s)
                ].ravel()
                for x0, y0, x1, y1 in boxes
            )
        )
    return _SwatchPixels(rings, blacks, tuple(sides))


def _medians(values: npt.NDArray[np.floating], where: tuple[Indices, ...]) -> Floats:
    """The median of ``values`` (flat, or flat x channels) at each index array: one
    partition when they are all as long (:func:`median`'s values either way)."""
    if len({len(w) for w in where}) == 1:
        out: Floats = median(values[np.stack(where)], axis=1)
        return out
    return np.stack([median(values[w]) for w in where])


def _centre(rect: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float]:
    (x0, y0), (x1, y1) = rect
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def read_card(image: Image, card_to_image: Matrix, kit: Kit) -> Card:
    """The card's references; CardNotFound when the light is too coloured to balance by
    (``COLOURED_LIGHT``). A white patch black in every channel is covered: the kit's
    printed card stands in, marked glared (``COVERED_PATCH``).

    Glare adds the light's own colour to whatever it falls on, the same on a swatch and on
    the black square printed at its centre: the black square says how much, and it is taken
    off (docs/physical-kit.md, "The calibration card"), in the light's own colour: only the
    black square's luminance above the ink's counts. (Taken off channel by channel, the
    square's own colour went too: in a small, blurred JPEG picture the swatch's colour
    bleeds into its black square, chroma more than luminance, and purple swatches read
    brown, nearer the purple tokens to blue than to purple.)
    """
    spec = kit.card
    w, h = spec.size
    s = CARD_SCALE
    m = (
        card_to_image
        @ np.diag([1 / s, 1 / s, 1.0])
        @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    )
    patch = cv2.warpPerspective(
        image, m, (round(w * s), round(h * s)), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    # Linear light and luminance of the whole copy at once (region by region, the same
    # pixels were converted up to six times).
    rgb = linear_rgb(patch)
    lum = luminance(rgb)
    ink = LINEAR[np.array(kit.printed["ink"], np.uint8)] / PAPER
    probe = spec.probe_side / 2 - PROBE_INSET
    (x0, y0), (x1, y1) = spec.white
    centre = _centre(spec.white)
    paper_half = min(x1 - x0, y1 - y0) / 2 - 4.0
    paper = _region(rgb, centre, paper_half, spec.probe_side / 2 + 2.0)
    paper_black = median(_region(rgb, centre, probe))
    seen_white = median(paper)
    if float(seen_white.min()) <= DARK_CHANNEL:
        if float(seen_white.max()) <= COLOURED_LIGHT * DARK_CHANNEL:
            if float(np.percentile(lum, 99)) <= COLOURED_LIGHT * DARK_CHANNEL:
                raise CardNotFound(TOO_DARK)
            # Something dark over the patch (a sleeve): the card's markers show, so the
            # tiles are read as without the card (COVERED_PATCH).
            return dataclasses.replace(nominal_card(kit), glare=True, notes=(COVERED_PATCH,))
        channel = ("red", "green", "blue")[int(np.argmin(seen_white))]
        raise CardNotFound(
            f"the light is too coloured to read the board by: the calibration card's white "
            f"patch shows almost no {channel} (a candle, a sodium or coloured lamp? or "
            "something coloured over the patch); light the table with whiter light, or clear "
            "the card"
        )
    white = ((seen_white - paper_black) / (1 - ink)).astype(np.float32)
    notes = []
    if float(white.min()) <= 0.005:
        # Glare brighter than the paper, or something over the patch and its black square:
        # the light level is all that is left.
        return dataclasses.replace(
            nominal_card(kit),
            white=seen_white.astype(np.float32),
            glare=True,
            notes=(
                "the calibration card's white patch reads no lighter than the black square "
                "on it: glare washes it out, or something covers it; its colours cannot be "
                "used; move the lamp, or clear the card",
            ),
        )
    if (paper >= LINEAR[CLIPPED]).mean() > 0.01:
        notes.append(
            "the calibration card's white is overexposed: colours may be off; dim the light "
            "or shorten the exposure"
        )
    glare = float(luminance(paper_black / white - ink)) > CARD_GLARE_MOST
    uneven: list[str] = []  # swatches whose sides differ: glare, or a cover's edge
    half = spec.swatch_side / 2
    names = list(spec.swatches)
    linear = np.zeros((len(names) + 1, 3), np.float32)
    # Every swatch's medians at once (the swatches are alike: one partition for each kind
    # of region instead of sixty small ones); the same values as region by region.
    where = _swatch_pixels(
        tuple(spec.swatches[name] for name in names),
        half - PROBE_INSET,
        spec.probe_side / 2 + PROBE_INSET,
        probe,
        (rgb.shape[0], rgb.shape[1]),
    )
    flat_rgb, flat_lum = rgb.reshape(-1, 3), lum.reshape(-1)
    colours = _medians(flat_rgb, where.rings)
    blacks = _medians(flat_rgb, where.blacks)
    sides_of = np.stack([_medians(flat_lum, side) for side in where.sides], axis=1)
    for i in range(len(names)):
        black, colour = blacks[i], colours[i]
        lift = float(luminance(black / white - ink))
        linear[i] = np.maximum(colour / white - max(lift, 0.0), 0)
        sides = sides_of[i].astype(np.float32)
        sides /= float(luminance(white))
        if lift > CARD_GLARE_MOST:
            glare = True
        elif (
            float(sides.max() - sides.min())
            > SWATCH_SPREAD * float(sides.mean()) + SWATCH_SPREAD_LEAST
        ):
            uneven.append(names[i])
    linear[-1] = ink
    labs = lab(linear)
    swatches = {name: labs[i] for i, name in enumerate(names)}
    printed = nominal_card(kit).swatches
    covered = tuple(n for n in names if swatches[n][0] < printed[n][0] - COVERED_DARKER)
    # A swatch half covered has uneven sides too: that is the cover's edge, not glare. What
    # a covered swatch shows is the cover: it stands at its printed colour.
    glare = glare or any(n not in covered for n in uneven)
    swatches |= {n: printed[n] for n in covered}
    halves = tuple(n for n in uneven if n in covered)
    if glare:
        notes.append(
            "glare on the calibration card, or something on it (too much, or too uneven, to "
            "take off): its colours cannot be used; move the lamp, or clear the card"
        )
    if covered:
        names_of = f"{', '.join(covered)} swatch{'es' if len(covered) > 1 else ''}"
        notes.append(
            f"something covers the calibration card ({names_of}: a hand, a card, a "
            "shadow?): "
            + (
                "its colours cannot be used; clear the card"
                if halves
                else "their printed colours stand in for them; clear the card"
            )
        )
    # The tile swatch (L* 15 as printed) cannot read 20 darker: its luminance is its own.
    tile = float(luminance(linear[names.index("tile")]))
    return Card(white, swatches, float(labs[-1][0]), tile, glare, tuple(notes), halves)


def luminance(rgb_linear: Floats) -> Floats:
    """Relative luminance (Y) of linear R, G, B (last axis)."""
    out: Floats = rgb_linear @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    return out


def nominal_card(kit: Kit) -> Card:
    """The card as the kit describes its print (sRGB on white paper): references for
    lightness when the card in the picture cannot be trusted."""
    paper = LINEAR[np.array(kit.printed["paper"], np.uint8)]
    names = list(kit.card.swatches)
    rgbs = [kit.colours.get(name) or kit.printed[name] for name in names] + [kit.printed["ink"]]
    # Every swatch and the ink in one conversion (read_card asks for this on every picture).
    linear = (LINEAR[np.array(rgbs, np.uint8)] / paper).astype(np.float32)
    labs = lab(linear)
    swatches = {name: labs[i] for i, name in enumerate(names)}
    tile = float(luminance(linear[names.index("tile")]))
    return Card(paper.astype(np.float32), swatches, float(labs[-1][0]), tile)
