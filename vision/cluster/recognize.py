"""Reading a picture of a Cluster board: which holes hold a peg, and of which colour.

1. The corner markers (ArUco, from the kit) say which board it is and, from their corners'
   printed places, give the homography from the board's surface (mm) to the picture.
2. The paper around the holes, sampled on a band outside them, gives the white balance.
3. Each hole is read on a small disc around its centre on the board's surface. A peg covers
   that disc (its side or its top, however the camera is tilted); an empty hole shows its dark
   pit. Every pixel of the disc is classed (dark pit, red, blue, anything else) on the balanced
   colour; the hole takes the class most pixels agree on, with the share that agrees as its
   confidence. A hand, the paper, a bevel seen off-centre or a mix of classes is ``unknown``:
   unknown is never a guess.
4. Each hole is held against the ring around it (:data:`RING_MM`): a peg's colour that runs
   on over the ring is a hand or a finger, not a peg (:data:`SAME_SHARE`), and so is one that
   runs on unbroken past where any peg reaches (:data:`REACH_MM`); a pit not darker
   than half the paper there, or with a side of the ring as dark as itself, is a dark hand or its
   edge (:data:`PIT_SHARE`, :data:`PIT_EDGE`); and a peg's colour is unknown where the paper
   there shows a lamp's light of another colour (:data:`TINT_SHARE`).
5. A lamp of another colour whose light reaches the whole board leaves the paper white but
   tints a glossy black, and a pit may read blue: a blue that is little more than the light
   the corner markers' black gives back (:data:`BEYOND_BLACK`), or a faint blue of a daylight
   lamp's hue (:data:`FAINT_BLUE`, :data:`LAMP_GREEN`), is unknown.

Shares nothing with :mod:`vision.cluster.synthetic` but the kit's description.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import numpy.typing as npt

from companion.cluster_peg.board import BOARDS, Board
from companion.cluster_peg.scan import HoleReading, PegScan, Seen
from vision.cluster.kit import Kit, load_kit
from vision.errors import VisionError
from vision.readers import Quality

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

SAMPLE_MM = 2.6
"""The radius of the disc read around a hole's centre (smaller than a peg and a pit)."""
AGREE = 0.75
"""The share of a disc's pixels that must agree for a hole to be read at all."""
SATURATION = 0.5
"""How much of a pixel's light must be its colour (not grey) to be a peg's: the kit's pegs are
nearly pure colours, skin (pinkish when a cream paper sets the white) is not."""
CHROMA = 0.15
"""How strong a pixel's colour must be, against the paper's white, to be a peg's: in the dark
(a hand's shadow, a dim corner) 8-bit values and JPEG leave too few steps to judge a hue."""
CLIPPED = 250
"""An 8-bit channel this bright is clipped (glare, or overexposed)."""
COARSE_PX_PER_MM = 1.6
"""Below this the pits and pegs are only a few pixels across."""
RING_MM = 10.5
"""The radius of the ring of paper read around a hole: beyond its bevel (8.5 mm), short of
the next hole's (13.5 mm along a row)."""
PIT_SHARE = 0.5
"""An empty hole's pit is darker than this share of the paper around it (the brighter half of
the ring at :data:`RING_MM`); a pit in any light is a tenth to a third of it. A dark hand, or
its shadow, over a hole is about as dark all round: unknown, not empty."""
PIT_EDGE = 1.1
"""...and so is one where the darkest quarter of that ring is no lighter than this many times
the hole: the dark runs on past the hole on one side, the edge of a dark hand over it. A
pit's dark ends at its bevel, and nothing at the ring, a peg's side or its shadow, is as
dark as a pit (1.22 times it at the least, over 13,772 pits read empty in 900 pictures of
five sets)."""
SAME_AROUND = 0.1
"""A point of the ring within this share of the paper's level of a hole's value, in every
channel, looks like the hole."""
SAME_SHARE = 0.4
"""A hole read as a peg's colour is unknown when this share of the ring around it (at
:data:`RING_MM`) shows that colour too, by class or within ``SAME_AROUND`` of the paper's
level of the hole's value in every channel. A peg is 9 mm across and the ring 21 mm: its own
side, leaning away from a tilted camera, and a neighbour's cover a few of the ring's 16
points (6 at the most for a peg in plain view, in 900 pictures of five sets); a finger or a
hand over the hole, far more. Skin against a bluish paper is as red as a peg to the colour
test: 36 holes under a hand read red in 200 pictures drawn apart from this reader
(``--kit-renders``); 1 with this test, a fingertip, left to :data:`REACH_MM`."""
REACH_MM = 17.0
REACH_POINTS = 24
"""The radius of a second ring, and its points: beyond the farthest a peg in its hole reaches
in the picture (its 4.5 mm top leant 18 mm x tan 30 degrees: 15 mm) and short of the nearest
edge of a neighbour's top (22 - 4.5 mm)."""
REACH_NEAR, REACH_RUN = 0.3, 0.3
"""A hole read as a peg's colour is unknown when that colour lies on :data:`REACH_NEAR` of the
ring at :data:`RING_MM` and runs on unbroken over :data:`REACH_RUN` of the ring at
:data:`REACH_MM`: a finger reaching over the hole, where no peg, its own or a
neighbour's, reaches. A pale fingertip over an empty hole covered 6 of the near ring's 16
points, as many as a peg's own side can, and read red against a cyan-balanced paper (the
pictures drawn apart from this reader, picture 59); on the far ring it ran over 11 of 24."""
TINT_SHARE = 0.3
"""A hole read as a peg's colour is unknown when the paper around it shows light of a colour
its own could come from: more than this share of the hole's colour (linear light, the grey
part taken away), or a channel clipped there. A highlight of the table's own light adds white
and leaves the paper white; a second lamp of another colour (a daylight lamp over a warm
table) lights the paper, and more still the glossier pits, in its own colour, and an empty
pit under it read blue (the camera benchmark with every highlight from such a lamp: 49 holes
read wrong in 60 pictures; 3 with this check)."""
BLACK_BRIGHTEST = 0.3
"""A corner marker's black border is the light the board's printed black gives back: the lamp's
light on a glossy print (a pit, a marker). A border brighter than this share of the paper's
white (linear light) is in a highlight itself, and left out."""
BEYOND_BLACK = 0.12
"""A hole read blue is unknown when, with the light of the markers' black taken off (per
channel, weighted to the nearer markers), its blue is less than this share of the paper's
white, or less than :data:`SATURATION` of what is left: all but a trace of its colour was the
light any glossy black shows there."""
FAINT_BLUE = 0.22
LAMP_GREEN = 0.185
"""...and when its blue is faint, less than :data:`FAINT_BLUE` of the paper's white, and greener
than the kit's blue, its green more than :data:`LAMP_GREEN` of its blue (the kit's blue has
0.15 in any light the paper balances): a daylight lamp's light, over a warm table, on a glossy
pit where the markers are out of its reach."""


class BoardNotFound(VisionError, LookupError):
    """Not enough corner markers of one board in the picture."""


@dataclasses.dataclass(frozen=True)
class Found:
    """What the recognizer made of a picture."""

    scan: PegScan
    quality: Quality
    notes: tuple[str, ...]
    px_per_mm: float
    board_to_image: Matrix
    markers: tuple[int, ...]


def _detector(kit: Kit) -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, kit.dictionary))
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


def find_board(frame: Image, kit: Kit | None = None) -> tuple[Board, Matrix, tuple[int, ...]]:
    """The board in the picture and its homography (board mm to pixels), from its markers."""
    kit = kit or load_kit()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector(kit).detectMarkers(gray)
    seen: dict[str, dict[int, Matrix]] = {}
    for quad, marker in zip(corners, [] if ids is None else ids.flatten(), strict=False):
        board = kit.board_of_marker(int(marker))
        if board is not None:
            seen.setdefault(board.name, {})[int(marker)] = quad.reshape(4, 2)
    if not seen:
        raise BoardNotFound("no Cluster board in the picture: its corner markers are not seen")
    name = max(seen, key=lambda n: len(seen[n]))
    found = seen[name]
    board = BOARDS[name]
    if len(found) < 2:
        raise BoardNotFound(
            f"only {len(found)} of the {board.title}'s 4 corner markers is seen: keep the "
            "corners in view and uncovered"
        )
    printed = kit.marker_corners(board)
    src = np.array([p for m in sorted(found) for p in printed[m]], np.float32)
    dst = np.array([p for m in sorted(found) for p in found[m]], np.float32)
    homography, _ = cv2.findHomography(src, dst, cv2.RANSAC, 4.0)
    if homography is None:
        raise BoardNotFound("the board's markers do not fit together; is the sheet flat?")
    return board, np.asarray(homography, dtype=np.float64), tuple(sorted(found))


def _map(homography: Matrix, points: Matrix) -> Matrix:
    mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)
    return np.asarray(mapped.reshape(-1, 2), dtype=np.float64)


def _sample(frame: Image, pixels: Matrix) -> npt.NDArray[np.float32]:
    """Bilinear samples of the frame at pixel positions (N x 2): N x 3 floats, B, G, R."""
    xs = pixels[:, 0].astype(np.float32).reshape(1, -1)
    ys = pixels[:, 1].astype(np.float32).reshape(1, -1)
    out = cv2.remap(frame, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.asarray(out.reshape(-1, 3), dtype=np.float32)


def _disc(radius: float, steps: int = 7) -> Matrix:
    grid = np.linspace(-radius, radius, steps)
    points = [(x, y) for x in grid for y in grid if x * x + y * y <= radius * radius * 1.02]
    return np.array(points, np.float64)


def _paper(frame: Image, kit: Kit, board: Board, homography: Matrix) -> npt.NDArray[np.float32]:
    """The paper's colour (B, G, R) from a band around the holes, away from labels and pegs."""
    x0, y0, x1, y1 = kit.extent(board)
    d = kit.margin / 2 + 2
    band = []
    for t in np.linspace(0.1, 0.9, 24):
        band.append((x0 + (x1 - x0) * t, y0 - d))
        band.append((x0 + (x1 - x0) * t, y1 + d * 0.55))
        band.append((x1 + d * 0.8, y0 + (y1 - y0) * t))
    samples = _sample(frame, _map(homography, np.array(band, np.float64)))
    chroma = samples.max(axis=1) - samples.min(axis=1)
    keep = samples[(chroma < 0.35 * samples.max(axis=1) + 8)]
    if len(keep) < 8:
        keep = samples
    order = np.argsort(keep.sum(axis=1), kind="stable")
    top = keep[order[len(order) // 3 :]]  # the brighter two thirds: paper, not labels
    return np.asarray(np.median(top, axis=0), dtype=np.float32)


def _ring(radius: float, count: int = 16) -> Matrix:
    angles = np.linspace(0, 2 * math.pi, count, endpoint=False)
    return np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius


def _around(raw: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The brighter half of a ring's samples (8-bit B, G, R): the paper around a hole, not a
    peg's side or a hand's shadow over part of the ring."""
    return np.asarray(
        raw[np.argsort(raw.sum(axis=1), kind="stable")[len(raw) // 2 :]], dtype=np.float32
    )


def _tinted(
    paper: npt.NDArray[np.float32],
    gains: npt.NDArray[np.float32],
    white: npt.NDArray[np.float32],
    level: float,
    pixels: npt.NDArray[np.float32],
) -> bool:
    """Whether the ``paper`` around a hole (the median of :func:`_around`, 8-bit, not
    balanced) whose balanced pixels are ``pixels`` shows light of a colour the hole's could
    come from (:data:`TINT_SHARE`); ``white`` is the board's paper, balanced, in linear light,
    and ``level`` its mean 8-bit value (a paper clipped all over, overexposed, says nothing of
    glare)."""
    if paper.max() >= CLIPPED and paper.mean() > level:
        return True
    tint = np.maximum(_linear(paper * gains) - white, 0)
    own = _linear(np.median(pixels, axis=0))
    return float(tint.max() - tint.min()) > TINT_SHARE * float(own.max() - own.min())


def _around_holes(
    frame: Image, homography: Matrix, centres: Matrix, offsets: Matrix
) -> npt.NDArray[np.float32]:
    """Samples of the frame (B, G, R) at ``offsets`` (mm) around each hole's centre:
    holes x offsets x 3."""
    points = (centres[:, None, :] + offsets[None]).reshape(-1, 2)
    return _sample(frame, _map(homography, points)).reshape(len(centres), len(offsets), 3)


def _unlike_around(
    best: npt.NDArray[np.intp],
    discs: npt.NDArray[np.float32],
    rings: npt.NDArray[np.float32],
    reach: npt.NDArray[np.float32],
    paper: npt.NDArray[np.float32],
) -> npt.NDArray[np.bool_]:
    """Per hole, whether one read as class ``best`` (1 pit, 2 red, 3 blue; ``discs`` its
    pixels, balanced) is too like what lies around it (``rings``: the samples at
    :data:`RING_MM`, balanced) to be read so: a pit no darker than :data:`PIT_SHARE` of the
    paper there, or with a side of the ring as dark as itself (:data:`PIT_EDGE`); a peg's
    colour on :data:`SAME_SHARE` of the ring, or running on over the ring at :data:`REACH_MM`
    (``reach``, balanced) as a finger does (:data:`REACH_NEAR`, :data:`REACH_RUN`)."""
    own = np.median(discs, axis=1)
    level = own.mean(axis=1)
    levels = rings.mean(axis=2)
    order = np.argsort(levels, axis=1, kind="stable")
    half, quarter = rings.shape[1] // 2, rings.shape[1] // 4
    brighter = np.take_along_axis(rings, order[:, half:, None], axis=1)
    paper_there = np.median(brighter, axis=1).mean(axis=1)
    darkest = np.median(np.take_along_axis(levels, order[:, :quarter], axis=1), axis=1)
    pit = (level > PIT_SHARE * paper_there) | (darkest < PIT_EDGE * level)
    like = _like(rings, own, best, paper).mean(axis=1)
    finger = (like >= REACH_NEAR) & (_longest_run(_like(reach, own, best, paper)) >= REACH_RUN)
    out: npt.NDArray[np.bool_] = np.where(best == 1, pit, (like >= SAME_SHARE) | finger)
    return out


def _like(
    rings: npt.NDArray[np.float32],
    own: npt.NDArray[np.float32],
    best: npt.NDArray[np.intp],
    paper: npt.NDArray[np.float32],
) -> npt.NDArray[np.bool_]:
    """Per hole and ring point, whether the point shows the hole's class ``best`` or lies
    within :data:`SAME_AROUND` of the paper's level of its value ``own`` in every channel."""
    near = np.abs(rings - own[:, None, :]).max(axis=2) < SAME_AROUND * float(paper.mean())
    classes = _classify(rings.reshape(-1, 3), paper).reshape(rings.shape[:2])
    out: npt.NDArray[np.bool_] = (classes == best[:, None]) | near
    return out


def _longest_run(points: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """Per ring (rows of ``points``), the longest unbroken run of true points round it, as a
    share of the ring."""
    count = points.shape[1]
    twice = np.concatenate([points, points], axis=1).astype(np.int64)
    run = np.zeros(len(points), np.int64)
    longest = np.zeros(len(points), np.int64)
    for step in range(2 * count):
        run = (run + 1) * twice[:, step]
        longest = np.maximum(longest, run)
    out: npt.NDArray[np.float64] = np.minimum(longest, count) / count
    return out


def _blacks(
    frame: Image,
    kit: Kit,
    board: Board,
    homography: Matrix,
    markers: tuple[int, ...],
    gains: npt.NDArray[np.float32],
    white: float,
) -> tuple[Matrix, npt.NDArray[np.float32]]:
    """The light of the board's printed black, balanced and linear, at each marker found whose
    border is not in a highlight (:data:`BLACK_BRIGHTEST`): their centres (mm) and colours."""
    centres, blacks = [], []
    borders, middles = kit.marker_borders(board), kit.marker_centres(board)
    for marker in markers:
        samples = _sample(frame, _map(homography, np.array(borders[marker], np.float64)))
        black = np.median(_linear((samples * gains).astype(np.float32)), axis=0)
        if float(black.max()) <= BLACK_BRIGHTEST * white:
            centres.append(middles[marker])
            blacks.append(black)
    return np.array(centres, np.float64).reshape(-1, 2), np.array(blacks, np.float32).reshape(-1, 3)


def _lamp_blue(
    discs: npt.NDArray[np.float32],
    centres: Matrix,
    blacks: tuple[Matrix, npt.NDArray[np.float32]],
    white: float,
) -> npt.NDArray[np.bool_]:
    """Per hole (``discs``: its balanced pixels, holes x pixels x 3; ``centres`` in mm),
    whether its colour, read blue, is a lamp's light on a glossy black: nothing much left
    beyond the light of the markers' black (:data:`BEYOND_BLACK`), or a faint blue greener than
    the kit's (:data:`FAINT_BLUE`, :data:`LAMP_GREEN`). ``white``: the paper, linear."""
    own = _linear(np.median(discs, axis=1).astype(np.float32))
    low = own.min(axis=1)
    blue, green = own[:, 0] - low, own[:, 1] - low
    out: npt.NDArray[np.bool_] = (blue < FAINT_BLUE * white) & (green > LAMP_GREEN * blue)
    where, black = blacks
    if len(where):
        far = np.linalg.norm(centres[:, None, :] - where[None], axis=2)
        weights = 1 / np.maximum(far, 1.0) ** 2
        near = (weights @ black) / weights.sum(axis=1, keepdims=True)
        rest = np.maximum(own - near, 0)
        least = rest.min(axis=1)
        beyond = rest[:, 0] - least
        out |= (beyond < BEYOND_BLACK * white) | (beyond < SATURATION * (beyond + least))
    return out


def _linear(srgb: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """sRGB values (0-255) as linear light (0-1)."""
    v = np.clip(srgb, 0, 255) / 255.0
    out = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    return np.asarray(out, dtype=np.float32)


def _classify(
    pixels: npt.NDArray[np.float32], paper: npt.NDArray[np.float32]
) -> npt.NDArray[np.int8]:
    """Per pixel: 0 other, 1 dark pit, 2 red, 3 blue (B, G, R pixels balanced so paper is
    neutral).

    Colour is judged in linear light with the grey part taken away (what is left above the
    smallest channel): a highlight adds white light, which pales a peg but does not turn its
    hue. A pixel is a peg's colour only when most of its light is that colour (SATURATION) and
    the colour is strong against the paper's white (CHROMA): skin, reddish under a warm lamp
    and with its hue pushed towards red when a cream paper sets the white, is mostly grey, and
    in a hand's shadow too dark to judge; the kit's pegs are nearly pure colours."""
    b, g, r = pixels[:, 0], pixels[:, 1], pixels[:, 2]
    level = float(paper.mean())
    value = (r + g + b) / 3 / max(level, 1.0)
    spread = (np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)) / max(level, 1.0)
    lb, lg, lr = (_linear(c) for c in (b, g, r))
    white = max(float(_linear(np.array([level], np.float32))[0]), 1e-3)
    low = np.minimum(np.minimum(lr, lg), lb)
    cr, cg, cb = lr - low, lg - low, lb - low
    top = np.maximum(np.maximum(cr, cg), cb)
    chroma = top / white
    saturated = (chroma > CHROMA) & (top > SATURATION * (top + low))
    red = saturated & (cg < 0.12 * cr) & (cb < 0.2 * cr)
    blue = saturated & (cr < 0.12 * cb) & (cg < 0.4 * cb)
    dark = (value < 0.30) & ((spread < 0.12) | (value < 0.12)) & ~red & ~blue
    out = np.zeros(len(pixels), np.int8)
    out[dark] = 1
    out[red] = 2
    out[blue] = 3
    return out


CLASSES = {1: Seen.EMPTY, 2: Seen.RED, 3: Seen.BLUE}


def recognize(frame: Image, *, kit: Kit | None = None) -> Found:
    """Read every hole of the board in ``frame`` (BoardNotFound when there is no board)."""
    kit = kit or load_kit()
    board, homography, markers = find_board(frame, kit)
    paper = _paper(frame, kit, board, homography)
    gains = (np.float32(paper.mean()) / np.maximum(paper, 1.0)).astype(np.float32)
    disc = _disc(SAMPLE_MM)
    ring = _ring(RING_MM)
    balanced = (paper * gains).astype(np.float32)
    white = _linear(balanced)
    centres = np.array([kit.hole_mm(board, hole) for hole in range(board.size)], np.float64)
    discs = _around_holes(frame, homography, centres, disc) * gains
    rings = _around_holes(frame, homography, centres, ring)
    classes = _classify(discs.reshape(-1, 3), balanced).reshape(board.size, -1)
    counts = np.stack([np.bincount(c, minlength=4) for c in classes])
    best = np.argmax(counts, axis=1)
    shares = counts[np.arange(board.size), best] / classes.shape[1]
    reach = _around_holes(frame, homography, centres, _ring(REACH_MM, REACH_POINTS)) * gains
    unlike = _unlike_around(best, discs, rings * gains, reach, balanced)
    paper_white = max(float(white.mean()), 1e-3)
    blacks = _blacks(frame, kit, board, homography, markers, gains, paper_white)
    unlike |= (best == 3) & _lamp_blue(discs, centres, blacks, paper_white)
    readings = []
    for hole in range(board.size):
        kind, share = int(best[hole]), float(shares[hole])
        if kind == 0 or share < AGREE:
            readings.append(HoleReading(Seen.UNKNOWN, share if kind == 0 else 1 - share))
        elif unlike[hole] or (
            kind in (2, 3)
            and _tinted(
                np.median(_around(rings[hole]), axis=0),
                gains,
                white,
                float(paper.mean()),
                discs[hole],
            )
        ):
            readings.append(HoleReading(Seen.UNKNOWN, 0.0))
        else:
            readings.append(HoleReading(CLASSES[kind], share))
    scale = _px_per_mm(homography, kit, board)
    notes: list[str] = []
    quality = Quality.GOOD
    if len(markers) < 4:
        notes.append(f"{4 - len(markers)} corner marker(s) hidden: the holes' places are less sure")
    if scale < COARSE_PX_PER_MM:
        quality = Quality.COARSE
        notes.append(
            f"the board is small in the picture ({scale:.1f} px/mm): move the camera closer"
        )
    unknown = sum(1 for r in readings if r.seen is Seen.UNKNOWN)
    if unknown:
        notes.append(f"{unknown} hole(s) could not be read (covered, or in deep shadow)")
    return Found(
        PegScan(board.name, tuple(readings)), quality, tuple(notes), scale, homography, markers
    )


def _px_per_mm(homography: Matrix, kit: Kit, board: Board) -> float:
    x0, y0, x1, y1 = kit.extent(board)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pts = _map(homography, np.array([[cx, cy], [cx + 10, cy], [cx, cy + 10]], np.float64))
    return (math.dist(pts[0], pts[1]) + math.dist(pts[0], pts[2])) / 20
