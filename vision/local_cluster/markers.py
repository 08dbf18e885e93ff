"""Finding the kit's ArUco markers: at reduced resolution, looked for again when some are
missing (a second threshold window, an enlarged copy, and the detector's rejected quads read
cell by cell or, blurred, matched whole), their edges then located at full resolution
(docs/physical-kit.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.local_cluster.colour import median
from vision.local_cluster.kit import Kit

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

DETECT_WIDTH = 1920
"""Markers are looked for in a copy at most this wide; corners are refined at full size."""
LEAST_PERIMETER = 0.03
"""The first look skips outlines shorter than this share of the copy's longer side (a
marker 14 pixels a side at 1080p: 0.31 px/mm on the table, below what a scan can use);
the many shorter outlines of a busy board cost a quarter of the detector's time."""
SMALLEST_PERIMETER = 0.02
"""When a marker found is within ``NEAR_LEAST`` of that floor (markers of a board small in
the picture, or the far side of a tilted one), or none is, the first look is made again
down to this; and every later look goes down to it."""
NEAR_LEAST = 1.4


@dataclasses.dataclass(frozen=True)
class Marker:
    id: int
    corners: Matrix
    """4 x 2 image points, clockwise from the marker's top-left."""


@cache
def _detector(dictionary: str, window: int, perimeter: float) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # One adaptive-threshold pass (the default makes three) finds the kit's markers at 1080p
    # in half the time; a second window is tried only when the card is not found.
    params.adaptiveThreshWinSizeMin = window
    params.adaptiveThreshWinSizeMax = window
    params.minMarkerPerimeterRate = perimeter
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
    corners, ids, rejected = _detector(kit.dictionary, 5, LEAST_PERIMETER).detectMarkers(small)
    if not corners or _least_perimeter(corners) < NEAR_LEAST * LEAST_PERIMETER * max(small.shape):
        corners, ids, rejected = _detector(kit.dictionary, 5, SMALLEST_PERIMETER).detectMarkers(
            small
        )
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
        more, more_ids, more_rejected = _look(small, kit, scale, window)
        corners += more
        found_ids += more_ids
        candidates += more_rejected
    if short():
        for marker_id, quad in _rescued(small, candidates, kit, set(found_ids), corners):
            corners.append(quad)
            found_ids.append(marker_id)
    if not found_ids:
        return []
    quads = np.array(corners, dtype=np.float64)
    if factor != 1.0:
        quads = (quads + 0.5) / factor - 0.5
    edges = refine_corners(gray, quads)
    quads = centre_on_white(gray, edges, kit.white_side / kit.marker_side)
    quads = _card_as_tiles(quads, edges, [i in kit.card.markers for i in found_ids])
    best: dict[int, Marker] = {}
    for marker_id, quad in zip(found_ids, quads, strict=True):
        found = Marker(int(marker_id), quad)
        old = best.get(found.id)
        if old is None or _area(quad) > _area(old.corners):
            best[found.id] = found
    return list(best.values())


def _card_as_tiles(quads: Matrix, edges: Matrix, card: Sequence[bool]) -> Matrix:
    """The card's markers grown from their edges as much as the tile markers' bands grew
    theirs (the median). The card prints only 3 mm of tile around each marker's white
    square, then its white, which blur brings into the band's outer side and pushes its
    middle out (1-2.4 % too large at 1 px/mm); a tile's dark face goes on further. The card
    and the tiles must agree on the scale: the plane is fitted to both, and a card a few per
    cent off moved its swatches' copy a millimetre."""
    on_card = np.array(card, np.bool_)
    grown = np.all(quads != edges, axis=(1, 2)) & ~on_card
    if not on_card.any() or not grown.any():
        return quads

    def size(q: Matrix) -> npt.NDArray[np.float64]:
        """Each quad's mean distance from its centre (N x 4 x 2 -> N)."""
        out: npt.NDArray[np.float64] = np.linalg.norm(
            q - q.mean(axis=1, keepdims=True), axis=2
        ).mean(axis=1)
        return out

    grow = float(median(size(quads[grown]) / size(edges[grown])))
    out = quads.copy()
    centre = edges[on_card].mean(axis=1, keepdims=True)
    out[on_card] = centre + (edges[on_card] - centre) * grow
    return out


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
    and its bits are within RESCUE_MAX_BITS_WRONG of a tile marker not yet found. In a
    blurred picture the quads left are then matched whole (:func:`_matched`). When the
    detector found no marker at all, the first are matched whole (:func:`_first_seen`) and
    stand in for the ``known`` ones."""
    if not known and candidates:
        first = _first_seen(gray, candidates, kit, found)
        if not first:
            return []
        more = _rescued(gray, candidates, kit, found | {i for i, _ in first}, [q for _, q in first])
        return first + more
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
    quads = _shrunk(candidates, kit)
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
    sigma = edge_spread(gray, np.array(known, np.float64)) / EDGE_TO_SIGMA
    for marker_id, corners in _matched(gray, quads, size, kit, found | set(out), sigma, known):
        out.setdefault(marker_id, corners)
    return list(out.items())


def _shrunk(candidates: list[Matrix], kit: Kit) -> list[Matrix]:
    """Each candidate quad as it is and shrunk about its centre: blur can merge a small
    marker's black border with its white margin; the candidate is then the white square's
    blurred outline, and the marker lies inside it, a little smaller than the square/marker
    ratio says (the blur widens the outline)."""
    shrink = kit.marker_side / kit.white_side
    return [
        q.mean(axis=0) + (q - q.mean(axis=0)) * f
        for f in (1.0, shrink, shrink * 0.92, shrink * 0.85)
        for q in candidates
    ]


MATCH_BLUR = 0.2
"""Blurred markers (the blur's sigma at least this share of a cell) that the cells' centres
do not read are matched whole against every kit marker as blur would show it."""
MATCH_LEAST = 0.75
MATCH_MARGIN = 0.15
"""A match is taken only when its correlation is at least MATCH_LEAST and beats every other
kit marker's not found elsewhere in the picture (tile or card, any turn) by MATCH_MARGIN.
Over the 2,101 markers the detector found in issue 18's benchmark pictures below 1 px/mm,
matching named every one right, at 0.80 or more in 99 % and ahead by 0.20 or more in 99 %.
A marker found elsewhere is no rival (it cannot lie here too): blurred card markers look
alike, and picture 77's S30 matched at 0.81 was 0.14 ahead of one (four more tiles found
from 0.5 px/mm on eight sets of pictures, no wrong id)."""
MATCH_PX = 6
"""Pixels a cell, as quads and templates are compared."""
EDGE_TO_SIGMA = 2.56
"""A Gaussian blur's 10-90 % edge is this many sigmas wide."""
MARGIN_CELLS = 1
"""The marker's white square, as drawn around its templates (the kit's is 0.6 of a cell)."""
AROUND = 0.15
"""The printed tile beyond the white square, as drawn (paper white is 1)."""


@cache
def _templates(
    dictionary: str, marker_ids: tuple[int, ...], sigma_cells: float
) -> npt.NDArray[np.float32]:
    """Every marker of ``marker_ids`` in its four turns as a blur of ``sigma_cells`` cells
    shows it, its 7 x 7 cells at MATCH_PX pixels each: n x 4 x pixels, each row centred and
    of unit length (so a dot product is a correlation). Made once per blur (rounded to a
    tenth of a cell, so few are ever made: 1.5 MB each)."""
    bits, codes = _codes(dictionary, marker_ids)
    cells = bits + 2
    pad = MARGIN_CELLS + 1
    size = cells + 2 * pad
    out = np.zeros((len(codes), 4, (cells * MATCH_PX) ** 2))
    for i, code in enumerate(codes):
        grid = np.full((size, size), AROUND, np.float32)
        grid[1:-1, 1:-1] = 1.0
        grid[pad:-pad, pad:-pad] = 0.0
        grid[pad + 1 : -pad - 1, pad + 1 : -pad - 1] = code
        big = cv2.resize(grid, (size * MATCH_PX, size * MATCH_PX), interpolation=cv2.INTER_NEAREST)
        blurred = cv2.GaussianBlur(big, (0, 0), max(sigma_cells * MATCH_PX, 0.3))
        marker = blurred[pad * MATCH_PX : -pad * MATCH_PX, pad * MATCH_PX : -pad * MATCH_PX]
        for turn in range(4):
            out[i, turn] = np.rot90(marker, turn).ravel()
    out -= out.mean(axis=2, keepdims=True)
    out /= np.linalg.norm(out, axis=2, keepdims=True) + 1e-9
    return out.astype(np.float32)


def _matched(
    gray: Image,
    quads: list[Matrix],
    size: tuple[float, float],
    kit: Kit,
    found: set[int],
    sigma: float,
    known: Sequence[Matrix] = (),
) -> list[tuple[int, Matrix]]:
    """Markers not yet found among ``quads`` (the card's too), matched whole
    (:data:`MATCH_BLUR`) as blurred as ``sigma`` (pixels) and up to :data:`MATCH_MORE_BLUR`
    more, none where a marker already ``known`` rules it out (:func:`_beside`)."""
    everyone, bits = matchable(kit)
    side = (bits + 2) * MATCH_PX
    near = _centres_and_sides(known)
    out: dict[int, Matrix] = {}
    for quad in quads:
        area = _area(quad)
        if not size[0] <= area <= size[1] or not _squarish(quad) or not _beside(quad, near):
            continue
        cells = float(np.sqrt(area)) / (side / MATCH_PX)
        blur = round(sigma / cells, 1)
        if blur < MATCH_BLUR:
            continue
        blurs = [round(blur + more, 1) for more in MATCH_MORE_BLUR]
        match = _match(gray, quad, side, kit, everyone, found, blurs)
        if match is not None:
            marker_id, turn, _ = match
            out.setdefault(marker_id, np.roll(quad, turn, axis=0))
    return list(out.items())


MATCH_MORE_BLUR = (0.0, 0.1, 0.2)
"""Cells of blur tried beyond what the markers found show, in turn, until one marker matches
(the best of each over every blur was tried: more blur lifts a rival's score as much as the
right one's, and a marker matched at the measured blur fell short of the margin). Edges
are measured across a white band 4 mm wide (:func:`edge_spread`), which blur in a coarse
picture never lets reach white: the edge looks sharper than it is. Issue 18's pictures drawn
apart, picture 21 (0.58 px/mm, 1.18 px of blur): the two markers found measured 0.17 of a
cell, eight more matched their own markers at 0.51-0.69 so and at 0.74-0.85 two tenths
more."""
APART_SIDES = 2.0
SIDE_RATIO = 1.3
"""A marker matched whole lies at least APART_SIDES of the nearest marker already found from
it, and is within SIDE_RATIO of its size: tiles are 130 mm, their markers 46 mm, so two lie
2.8 sides apart at the least (less what a tilt of 30 degrees takes off), and neighbours in
a picture are near one size. (On 25 sets of issue 18's benchmark, a quad half the size of
the markers round it, between a marker's corner and a triangle, matched S3 at 0.78 and 0.22
ahead, with more blur tried.)"""


def matchable(kit: Kit) -> tuple[tuple[int, ...], int]:
    """Every marker a quad may be matched whole to (the tiles', then the card's), and the bits
    a side of each."""
    everyone = (*range(kit.sectors[0], kit.sectors[1] + 1), *sorted(kit.card.markers))
    return everyone, _codes(kit.dictionary, everyone)[0]


def stands_out(marker_id: int, best: float, second_best: float, found: set[int]) -> bool:
    """Whether a marker matched whole at ``best`` (its nearest rival at ``second_best``) is
    taken: not ``found`` elsewhere, at least :data:`MATCH_LEAST`, :data:`MATCH_MARGIN`
    ahead."""
    return marker_id not in found and best >= MATCH_LEAST and best - second_best >= MATCH_MARGIN


def _centres_and_sides(quads: Sequence[Matrix]) -> list[tuple[Matrix, float]]:
    """Each quad's centre and side (the square root of its area), pixels."""
    return [(q.mean(axis=0), float(np.sqrt(_area(q)))) for q in np.asarray(quads, np.float64)]


def _beside(quad: Matrix, near: Sequence[tuple[Matrix, float]]) -> bool:
    """Whether ``quad`` may be a marker beside the nearest of ``near`` (each marker's centre
    and side, pixels): :data:`APART_SIDES`, :data:`SIDE_RATIO`."""
    if not near:
        return True
    centre = quad.mean(axis=0)
    apart, side = min((float(np.linalg.norm(centre - c)), s) for c, s in near)
    ratio = float(np.sqrt(_area(quad))) / max(side, 1e-9)
    return apart >= APART_SIDES * side and 1 / SIDE_RATIO <= ratio <= SIDE_RATIO


def _match(
    gray: Image,
    quad: Matrix,
    side: int,
    kit: Kit,
    everyone: tuple[int, ...],
    found: set[int],
    blurs: Sequence[float],
) -> tuple[int, int, float] | None:
    """The marker of ``everyone`` inside ``quad`` (not one ``found`` elsewhere), the quarter
    turn to roll its corners by, and its correlation: matched whole at the first of
    ``blurs`` (cells) where one marker correlates at least :data:`MATCH_LEAST` and
    :data:`MATCH_MARGIN` ahead of every rival; None if at none."""
    values = _patch(gray, quad, side)
    if values is None:
        return None
    for blur in blurs:
        scores = _templates(kit.dictionary, everyone, blur) @ values
        first, best, second_best = standing(scores, everyone, found)
        if stands_out(everyone[first], best, second_best, found):
            return everyone[first], int(np.argmax(scores[first])), best
    return None


FIRST_BLURS = (0.2, 0.3, 0.4, 0.5)
"""When the detector finds no marker at all, nothing says how blurred the picture is: the
first markers are matched whole at each of these blurs (cells) in turn (:func:`_match`)."""
FIRST_LEAST = 2
"""...and taken only when at least this many are found, of one size within SIDE_RATIO and
APART_SIDES apart. (Issue 18's pictures drawn apart, pictures 6 and 10, 0.55-0.59 px/mm,
a busy mat and a dark one: the detector found none of 23 markers, nor the card's; so 19
tiles are found, none wrong. On 25 sets, none found that is not there.)"""
FIRST_LEAST_AREA = 300.0
"""Pixels: smaller quads are not looked at (a marker 17 pixels a side is 0.38 px/mm)."""


def _first_seen(
    gray: Image, candidates: list[Matrix], kit: Kit, found: set[int]
) -> list[tuple[int, Matrix]]:
    """The first markers of a picture where the detector found none, matched whole among its
    rejected ``candidates`` (:data:`FIRST_BLURS`, :data:`FIRST_LEAST`), surest first."""
    everyone, bits = matchable(kit)
    side = (bits + 2) * MATCH_PX
    matches: list[tuple[float, int, Matrix]] = []
    for quad in _shrunk(candidates, kit):
        if _area(quad) < FIRST_LEAST_AREA or not _squarish(quad):
            continue
        match = _match(gray, quad, side, kit, everyone, found, FIRST_BLURS)
        if match is not None:
            marker_id, turn, best = match
            matches.append((best, marker_id, np.roll(quad, turn, axis=0)))
    out: dict[int, Matrix] = {}
    for _, marker_id, quad in sorted(matches, key=lambda m: -m[0]):
        near = _centres_and_sides(list(out.values()))
        if marker_id not in out and all(
            float(np.linalg.norm(quad.mean(axis=0) - c)) >= APART_SIDES * s for c, s in near
        ):
            out[marker_id] = quad
    sides = {marker_id: float(np.sqrt(_area(q))) for marker_id, q in out.items()}
    middle = float(np.median(list(sides.values()))) if sides else 0.0
    kept = [
        (i, out[i]) for i, s in sides.items() if middle / SIDE_RATIO <= s <= middle * SIDE_RATIO
    ]
    return kept if len(kept) >= FIRST_LEAST else []


SQUARISH = 1.6
"""No side of a quad matched whole is more than this times another: a marker seen 30
degrees off vertical is 1.15, but the quads the detector rejects are rough (at 1.3, `hands`
13 picture 6 lost two of the card's markers and two tiles)."""


def _squarish(quad: Matrix) -> bool:
    """Whether no side of ``quad`` is more than :data:`SQUARISH` times another."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return bool(sides.max() <= SQUARISH * sides.min())


def _patch(gray: Image, quad: Matrix, side: int) -> npt.NDArray[np.float32] | None:
    """The picture inside ``quad``, ``side`` pixels a side, as one row of unit length about its
    mean (so a dot product with a template is a correlation); None for a flat patch."""
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    patch = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR)
    values = patch.astype(np.float32).ravel()
    values -= values.mean()
    length = float(np.linalg.norm(values))
    if length < 1e-6:
        return None
    out: npt.NDArray[np.float32] = values / length
    return out


def standing(
    scores: npt.NDArray[np.float32], everyone: Sequence[int], found: set[int]
) -> tuple[int, float, float]:
    """The best match among ``scores`` (index into ``everyone``), its score, and the best
    score of any other marker not found elsewhere: a marker found elsewhere is not here too
    (the quad may be that marker again), but it is no rival for the margin either."""
    best = scores.max(axis=1)
    order = np.argsort(-best, kind="stable")
    first = int(order[0])
    rivals = [i for i in order[1:] if everyone[i] not in found]
    return first, float(best[first]), float(best[rivals[0]]) if rivals else -1.0


def _look(
    small: Image, kit: Kit, scale: int, window: int
) -> tuple[list[Matrix], list[int], list[Matrix]]:
    """One more look, on the copy ``scale`` times its size with a threshold ``window``: the
    markers' quads, their ids and the quads the detector rejected, in the copy's pixels."""
    image = (
        small
        if scale == 1
        else cv2.resize(small, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    )
    found, ids, rejected = _detector(kit.dictionary, window, SMALLEST_PERIMETER).detectMarkers(
        image
    )
    quads = [(c.reshape(4, 2) + 0.5) / scale - 0.5 for c in found]
    return (
        quads,
        [] if ids is None else [int(i) for i in ids.ravel()],
        [(c.reshape(4, 2) + 0.5) / scale - 0.5 for c in rejected],
    )


def _least_perimeter(quads: Sequence[npt.NDArray[np.float32]]) -> float:
    """The shortest perimeter (pixels) among the detector's quads (each 1 x 4 x 2)."""
    q = np.array(quads, np.float64).reshape(-1, 4, 2)
    sides = np.sqrt(((q - np.roll(q, -1, axis=1)) ** 2).sum(axis=2))
    return float(sides.sum(axis=1).min())


def _area(quad: Matrix) -> float:
    x, y = quad[:, 0], quad[:, 1]
    xn, yn = x[[1, 2, 3, 0]], y[[1, 2, 3, 0]]
    return float(abs(np.dot(x, yn) - np.dot(y, xn)) / 2)


def _profiles(
    base: Matrix, normal: Matrix, cell: Matrix, tau: Matrix
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """``remap``'s x and y maps of profiles across the markers' edges: from each of the
    P points on each edge (``base``, M x 4 x P x 2), S samples ``tau`` cells along the edge's
    ``normal`` (M x 4 x 2; ``cell``, M x 4, pixels a cell). One profile a row (M 4 P x S).
    x and y apart: numpy broadcasting over a last axis of 2 was a millisecond here."""
    steps = cell[:, :, None, None] * tau  # M x 4 x 1 x S
    x = base[..., 0, None] + normal[:, :, None, None, 0] * steps
    y = base[..., 1, None] + normal[:, :, None, None, 1] * steps
    size = len(tau)
    return x.astype(np.float32).reshape(-1, size), y.astype(np.float32).reshape(-1, size)


SLANT = 0.15
"""A marker's cell across a side is measured along the sides beside it when they differ
from the side's own length by more than this share (:func:`_across_sides`). Everywhere,
a slight difference moved a card's markers enough to tip three coarse pictures of issue
18's benchmark (0.51-0.68 px/mm) over the card's glare check, 172 slots unread (and a
fourth back, 64 read)."""


def _sides(quads: Matrix) -> Matrix:
    """Each side's length (pixels, M x 4)."""
    out: Matrix = np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2)
    return out


def _across_sides(
    gray: Image, quads: Matrix, t: Matrix, tau: Matrix
) -> tuple[Matrix, Matrix, Matrix, Matrix]:
    """Grey levels along profiles across every side of every marker (M x 4 x 2 corners,
    clockwise): from the points ``t`` of the way along each side, ``tau`` cells outwards. The
    profiles (one a row, M 4 P x S), their base points (M x 4 x P x 2), the sides' outward
    normals (M x 4 x 2) and the cell across each side (pixels, M x 4)."""
    direction = np.roll(quads, -1, axis=1) - quads
    length = np.linalg.norm(direction, axis=2, keepdims=True)
    unit = direction / np.maximum(length, 1e-9)
    normal = np.stack([unit[..., 1], -unit[..., 0]], axis=2)  # outwards for clockwise quads
    # A cell across each side is the sides beside it over 7 when they differ from it by
    # more than SLANT: a marker seen at a slant is narrower one way than the other, and a
    # profile measured by its own side's length reaches past the black border into the
    # marker's bits (issue 18's pictures drawn apart, seed 11 picture 52: tilted 28
    # degrees, markers 40 pixels one way and 61 the other; a white bit beside the border
    # moved S10's edge a cell in, and the plane through the markers put S48's strike craft
    # 4 mm off them).
    own = length[..., 0] / 7.0
    across = (np.roll(length[..., 0], 1, axis=1) + np.roll(length[..., 0], -1, axis=1)) / 14.0
    cell = np.where(np.abs(across / np.maximum(own, 1e-9) - 1) > SLANT, across, own)
    base = quads[:, :, None, :] + direction[:, :, None, :] * t[None, None, :, None]
    values = cv2.remap(
        gray, *_profiles(base, normal, cell, tau), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float64)
    return values, base, normal, cell


EDGE_POINTS = 10
PROFILE_SAMPLES = 13


def refine_corners(gray: Image, quads: Matrix) -> Matrix:
    """Each marker's corners from its four edges located to a fraction of a pixel.

    Across each edge, between the black border and the white square, the grey level is
    sampled along short profiles; where a profile crosses half-way between its dark and
    bright ends is a point of the edge; a line is fitted to each edge's points and
    neighbouring lines meet at the corners. (The detector's own corners sit slightly inside
    the black border, which shrinks every marker by a few per cent.)
    """
    count = len(quads)
    tau = np.linspace(-0.6, 0.6, PROFILE_SAMPLES)
    values, base, normal, cell = _across_sides(
        gray, quads, np.linspace(0.15, 0.85, EDGE_POINTS), tau
    )
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
    corners, usable = _meeting(points, (contrast > 8).astype(np.float64))
    moved = (
        np.linalg.norm(corners - quads, axis=2).max(axis=1) < 1.5 * _sides(quads).max(axis=1) / 7
    )
    keep = usable & moved
    out = quads.copy()
    out[keep] = corners[keep]
    return out


BAND_SAMPLES = 17
BAND_MARGIN = 0.45
"""The white band's profiles reach this many cells beyond it on each side: into the black
border (a cell wide) and the printed tile around the white square (3 mm wide around the
card's markers, then the card's white)."""
BAND_MOVE = 0.35
"""The band's middle is taken only within this many cells of where the edges put it (under
a blur of 1.1 pixels at 1 px/mm they put a tile marker's band up to 0.15 cells out)."""


def centre_on_white(gray: Image, quads: Matrix, white: float) -> Matrix:
    """Each marker's corners from the middle of the white band around it (``white``: the
    white square's side in marker sides).

    A lens blurs light, and the camera then encodes it with a gamma: half-way between black
    and white in the picture's grey levels lies on the black side of the true edge, by more
    the softer the picture, so a marker located by its edges (:func:`refine_corners`) looks
    small, and every slot read by it lies that much too near its tile's centre (5 % for a
    blur of 1.3 pixels at 1 px/mm, blurred in light; issue 18's benchmark, which blurs
    partly in grey levels: 1-2.5 % at 1 px/mm, and a slot's outline at a tile's edge missed
    by 1.5 mm).
    The white band between the black border and the square's edge is dark on both sides, so
    its profile stays symmetric about its middle whatever the blur and the encoding: the
    middle of each side's band is the centroid of its light above the lighter of its ends,
    a line is fitted along each side, the four lines meet at the corners of a square
    ``(1 + white) / 2`` marker sides wide, and the marker's corners lie on its diagonals,
    ``2 / (1 + white)`` of the way out. A marker whose band does not show all round (a hand,
    a sleeve) keeps its corners.
    """
    count = len(quads)
    if count == 0:
        return quads
    band = (white - 1.0) * 7.0 / 2.0  # the band's width, cells
    tau = np.linspace(-BAND_MARGIN, band + BAND_MARGIN, BAND_SAMPLES)
    values, base, normal, cell = _across_sides(
        gray, quads, np.linspace(0.15, 0.85, EDGE_POINTS), tau
    )
    ends = np.maximum(values[:, :2].mean(axis=1), values[:, -2:].mean(axis=1))
    light = np.maximum(values - ends[:, None], 0.0)
    middle = (light * tau).sum(axis=1) / np.maximum(light.sum(axis=1), 1e-9)
    shows = (light.max(axis=1) > 8) & (np.abs(middle - band / 2) < BAND_MOVE)
    steps = middle.reshape(count, 4, EDGE_POINTS)
    points = base + normal[:, :, None, :] * (cell[:, :, None] * steps)[..., None]
    corners, usable = _meeting(points, shows.reshape(count, 4, EDGE_POINTS).astype(np.float64))
    # The band square's centre, where its diagonals meet; the marker's corners on them.
    a, b, c, d = (corners[:, k] for k in range(4))
    centre, ok = _crossing(a, c - a, b, d - b)
    inside = centre[:, None, :] + (corners - centre[:, None, :]) * (2.0 / (1.0 + white))
    moved = np.linalg.norm(inside - quads, axis=2).max(axis=1) < (
        1.5 * BAND_MOVE * _sides(quads).min(axis=1) / 7
    )
    keep = usable & ok & moved
    out = quads.copy()
    out[keep] = inside[keep]
    return out


def _meeting(points: Matrix, weight: Matrix) -> tuple[Matrix, npt.NDArray[np.bool_]]:
    """A line through each side's points (M x 4 x P x 2; weighted, M x 4 x P: a point of
    weight 0 counts nothing), and the corners where neighbouring lines meet (corner k where
    side k-1 meets side k); whether each marker's four lines were usable."""
    total = np.maximum(weight.sum(axis=2), 1e-9)
    centre = (points * weight[..., None]).sum(axis=2) / total[..., None]
    d = (points - centre[:, :, None, :]) * np.sqrt(weight)[..., None]
    sxx, syy = (d[..., 0] ** 2).sum(axis=2), (d[..., 1] ** 2).sum(axis=2)
    sxy = (d[..., 0] * d[..., 1]).sum(axis=2)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    along = np.stack([np.cos(angle), np.sin(angle)], axis=2)  # M x 4 x 2
    corners, crossed = _crossing(
        np.roll(centre, 1, axis=1), np.roll(along, 1, axis=1), centre, along
    )
    usable = ((weight > 0).sum(axis=2) >= 3).all(axis=1) & crossed.all(axis=1)
    return corners, usable


def _crossing(
    p1: Matrix, d1: Matrix, p2: Matrix, d2: Matrix
) -> tuple[Matrix, npt.NDArray[np.bool_]]:
    """Where the lines through ``p1`` along ``d1`` and through ``p2`` along ``d2`` cross
    (... x 2 each), and whether they do (not parallel)."""
    det = d1[..., 0] * (-d2[..., 1]) - d1[..., 1] * (-d2[..., 0])
    crossed = np.abs(det) >= 1e-6
    diff = p2 - p1
    s1 = (diff[..., 0] * (-d2[..., 1]) - diff[..., 1] * (-d2[..., 0])) / np.where(crossed, det, 1.0)
    out: Matrix = p1 + d1 * s1[..., None]
    return out, crossed


SPREAD_SAMPLES = 25


def edge_spread(gray: Image, quads: Matrix) -> float:
    """How wide (pixels) the markers' outer edges are from 10 % to 90 % of their step, the
    median over every edge: about 1 in a sharp picture, 2.6 times the blur's sigma in a soft
    one. Measured from inside the black border (0.9 of a cell) to the white square's middle."""
    if len(quads) == 0:
        return 0.0
    t = np.linspace(0.2, 0.8, 6)
    tau = np.linspace(-0.9, 0.55, SPREAD_SAMPLES)
    values, _, _, cell = _across_sides(gray, quads, t, tau)
    values = np.maximum.accumulate(values, axis=1)  # a step, rising outwards
    dark, bright = values[:, :1], values[:, -1:]
    span = np.maximum(bright - dark, 1e-6)
    scaled = (values - dark) / span
    step = (tau[1] - tau[0]) * np.repeat(cell.reshape(-1), len(t))
    rise = []
    for low, high in ((0.1, 0.9),):
        a = (scaled < low).sum(axis=1)
        b = (scaled < high).sum(axis=1)
        rise.append((b - a) * step)
    usable = span[:, 0] > 30
    if not usable.any():
        return 0.0
    return float(median(rise[0][usable]))
