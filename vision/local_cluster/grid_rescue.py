"""Tile markers looked for where the board's grid leaves room for a missing tile.

Tiles lie edge to edge on a square grid, so a tile whose marker the detector missed (too
blurred, too dark, at the edge of a vignette) lies one pitch from a tile that was found, on
a cell no found tile holds. For each such cell the marker's white square is looked for
first, a few millimetres either way (tiles are placed by hand, with gaps and a few degrees
of turn), leaving out the marker's bits, which differ from marker to marker: a cell that
shows none (the table, a hand, a card) costs one small template match.
Where one shows, the marker inside it is matched whole against every kit marker as the
picture's blur shows them, a millimetre and a few degrees either way, and taken only as
surely as a blurred marker the detector's quads show (``markers.MATCH_LEAST``,
``MATCH_MARGIN``), and only as a tile the table should have and that was not found.

A hand over part of a marker spoils both looks. Where either finds nothing, it looks again
leaving out the pixels that show something over the print (:mod:`occluders`), when at
least :data:`SHOWN_LEAST` of what it compares shows; and a marker matched on a free cell
is taken a little less surely than anywhere else (:data:`CELL_MATCH_LEAST`). A marker
matched so lies where one of the few nudges and turns put it, and its edges (a hand's
among them) may not say better: it is then fitted where it matches best on what shows of
it.

With no tile's marker found at all, there is no grid to look beside: the table is searched
for white squares first (:func:`_anywhere`), and the grid grows from the tiles found so.
And a tile a hand lifts off the grid lies on no cell: once the grid finds nothing more and
a tile is still missing, the table beside the board is searched so, once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Collection, Sequence

import cv2
import numpy as np

from vision.local_cluster import occluders
from vision.local_cluster.colour import median
from vision.local_cluster.kit import Kit
from vision.local_cluster.markers import (
    EDGE_TO_SIGMA,
    MATCH_LEAST,
    MATCH_MARGIN,
    MATCH_MORE_BLUR,
    MATCH_PX,
    Image,
    Marker,
    Matrix,
    _area,
    _codes,
    _patch,
    _templates,
    centre_on_white,
    edge_spread,
    matchable,
    refine_corners,
    standing,
    stands_out,
)
from vision.local_cluster.plane import _similarity

Pose = tuple[tuple[float, float], float]
_Rule = Callable[[int, float, float, set[int]], bool]
"""Whether a marker (its id) matched at a score, its nearest rival at another, stands out
given the markers found elsewhere: :func:`markers.stands_out`, :func:`_on_a_cell`."""

RESOLUTION = 1.0
"""Pixels a millimetre of the table, as a cell is looked at for a white square."""
SEARCH_MM = 9.0
"""How far (mm) from where the grid puts it a white square is looked for: a gap of up to
4 mm on either side of each tile and a few degrees of turn across a pitch of 130 mm."""
SQUARE_LEAST = 0.55
"""A white square shows where a drawn one (white square, the marker's black border, dark
tile round it, blurred as the picture is; the marker's bits left out) correlates at least
this well. (Issue 18's picture 21 drawn apart, 0.58 px/mm: sampled at ``RESOLUTION`` from
a picture of 0.54 px/mm, and blurred more than the markers' edges say, three tiles' squares
correlated 0.58-0.60, and were not looked in at 0.6. Only a marker matched inside names a
tile: at 0.55 no tile was found that is not on the table, over nine sets of issue 18's
renderer from 1 px/mm, three at 0.5-1 px/mm and three seeds of pictures drawn apart.)"""
NUDGES_MM = (-1.2, 0.0, 1.2)
TURNS_DEG = (-2.5, 0.0, 2.5)
"""The marker inside a white square is matched this far either way (mm, degrees)."""
REFINED_MOST_MM = 2.0
"""A matched marker's corners are refined no further than this (mm)."""
TILE_SHADE = 0.15
"""The printed tile round the white square, as drawn (paper white is 1)."""
CELL_MATCH_LEAST = 0.6
CELL_MATCH_MARGIN = 0.22
"""...or, inside a white square on a free cell of the grid (where a tile should lie), when it
correlates at least ``CELL_MATCH_LEAST`` and ``CELL_MATCH_MARGIN`` ahead of every other kit
marker not found: a hand over a corner of it, its shadow tinting the rest, still leaves the
marker named. Over 1,321 such looks (issue 18's three seeds drawn apart and its stills from
0.5 px/mm, nine sets of its renderer), the 86 whose best named a marker not on the table
were at most 0.10 ahead of the next. Taken so: 88 more visible slots right on the nine sets,
18 at 0.5-1 px/mm, 8 and 7 on seeds 1818 and 11 drawn apart (from 0.5 px/mm), none wrong. At
0.20 ahead, `hands` 13 picture 17's S37 (0.21 ahead) was found too, and a mineral under the
dark hand over half of it read empty at 0.05: a tile found so is mostly covered, and its
reader has only the uncovered slots to go on."""
ANYWHERE_TURN_DEG = 10.0
ANYWHERE_SCALE = 0.5
ANYWHERE_LEAST = 0.4
ANYWHERE_MM = 1500.0
ANYWHERE_BUSY = 12.0
ANYWHERE_MOST = 12
ANYWHERE_BESIDE = 1.5
"""With no tile's marker found to begin the grid from (a hand over the only tiles of a small
board), white squares are looked for anywhere on the table the picture shows (no farther
than ``ANYWHERE_MM`` from the card); once the grid finds nothing more with a tile still
missing (a tile a hand lifts off the grid), within ``ANYWHERE_BESIDE`` tile sides of the
tiles found, none of them. Where the table is not plain (grey levels varying by more than
``ANYWHERE_BUSY`` across a white square), at ``ANYWHERE_SCALE`` of :data:`RESOLUTION`, a
white square turned ``ANYWHERE_TURN_DEG`` at a time is matched, and the best
``ANYWHERE_MOST`` places where one correlates ``ANYWHERE_LEAST`` or more are looked in as a
grid cell is, turned as matched and half a step either way (their markers taken only as
surely as :data:`markers.MATCH_LEAST` asks). (Issue 18's pictures 3 and 57 drawn apart, 1.26
and 1.54 px/mm, two tiles each and a hand over both: one tile of each found so; seed 11's
picture 44, S30 lifted half a pitch off the grid. Seeds 11 and 12 drawn apart: 43 more
visible slots right from 0.5 px/mm, the nine sets 96, none wrong. On seeds 11 and 12 the
search ran in 55 of their 120 pictures, 16-339 ms each (median 91) on one core of the
benchmark machine; with what it found read, a picture took a median 2 ms more, 146 ms at the
90th percentile, 417 ms at most. The 1080p speed pictures have no tile missing.)"""
SHOWN_LEAST = 0.5
"""A marker or white square something lies over is matched on what shows of it, when at
least this share of it shows."""
NAMED_SHOWN_LEAST = 0.3
"""...and a tile's face already found, of a variant more than one missing tile is, named by
what shows of its marker among those tiles alone (:func:`named_in_part`), when at least this
share shows."""
NAMED_MATCH_LEAST = 0.5
NAMED_MATCH_MARGIN = 0.25
"""...as surely as :data:`markers.MATCH_LEAST` and :data:`markers.MATCH_MARGIN` ask, or at
least ``NAMED_MATCH_LEAST`` and ``NAMED_MATCH_MARGIN`` ahead of every other candidate: the
face already fits its outlines there, and only the few missing tiles of its variant are
candidates, so less of the marker need show. (Issue 18's benchmark, nine sets from 1 px/mm:
301 faces looked at so; where a tile lay, no marker but its own matched above 0.36 or 0.21
ahead, and where a face was fitted to the bare table, none above 0.45. 19 more faces named
and 64 more visible slots right, none wrong; seed 2026 picture 72: S16 under an arm, its
marker 0.57 and 0.37 ahead of S21's. On seed 12 of the pictures drawn apart, 19 more, at
0.99 px/mm.)"""
WHITE_CELLS_LEAST = 3
WHITE_CELLS_APART = 3
WHITE_CELL_LEVEL = 0.6
WHITE_CELLS_RING = 0.25
WHITE_CELLS_CONTRAST = 40.0
"""A face's marker under a dark sleeve (which no colour tells from the print) is named by
the cells that show white (at least ``WHITE_CELL_LEVEL`` of the way from the marker's
black to its white square's, which must differ by ``WHITE_CELLS_CONTRAST`` grey levels,
and ``WHITE_CELLS_RING`` of the square must show): :func:`_by_white_cells`."""
GROWN_PX = 2
"""Pixels either way a thing over the print is grown by: its blurred edge is part print."""
FIT_STEP_CELLS = 0.25
FIT_STEP_DEG = 3.0
FIT_STEP_SCALE = 0.03
FIT_ROUNDS = 4
FIT_MOVES = 6
"""A marker the grid matched whose edges do not locate it (:func:`_refined`) is fitted where
it matches best on what shows of it: moved by a quarter of a cell, turned by 3 degrees and
scaled by 3 % at a time while that matches better (at most ``FIT_MOVES`` times), then by
half as much, ``FIT_ROUNDS`` times. (Issue 18's benchmark, `hands` 13 picture 46: S37,
half under a dark sleeve, matched 2-3 mm and a few degrees off, and placed there a
mineral slot's outline fell on the sleeve's edge and read empty over its mineral.)"""


def rescued(
    image: Image,
    gray: Image,
    kit: Kit,
    table_to_image: Matrix,
    poses: Sequence[Pose],
    markers: Sequence[Marker],
    wanted: Collection[int],
) -> list[Marker]:
    """Markers of ``wanted`` tiles (ids not among ``markers``) found on the grid cells
    beside the tiles at ``poses`` (table mm, degrees), in the pixels of ``image`` (and of
    ``gray``, the same in grey); with no tile at ``poses``, first wherever the table shows a
    white square, and once the grid finds nothing more, wherever the table beside the tiles
    does (:func:`_anywhere`)."""
    found = {m.id for m in markers}
    wanted = {i for i in wanted if i not in found}
    if not wanted or not markers:
        return []
    quads = np.array([m.corners for m in markers], np.float64)
    everyone, bits = matchable(kit)
    side = (bits + 2) * MATCH_PX
    sigma, px_per_mm, templates = _as_blurred(gray, quads, kit, everyone)
    square = _square(kit, sigma / px_per_mm * RESOLUTION, bits)
    whites = occluders.whites(image, quads, kit)
    out: dict[int, tuple[float, Marker]] = {}
    # Cell by cell beside the tiles found, then beside the tiles found so (a tile whose only
    # neighbours were missing too), until a round finds none; then (or first, with no tile
    # found) wherever the table beside them shows a white square, once.
    placed = list(poses)
    looked: list[tuple[float, float]] = []
    searching, searched = not placed, False
    while True:
        if searching:
            cells = _anywhere(gray, table_to_image, kit, quads, sigma / px_per_mm, placed)
            rules: tuple[_Rule, ...] = (stands_out,)
            searched = True
        else:
            cells = [
                (centre, angle)
                for centre, angle in free_cells(placed, kit.tile_side)
                if all(math.dist(centre, done) >= 0.3 * kit.tile_side for done in looked)
            ]
            rules = (stands_out, _on_a_cell)
        more: list[Pose] = []
        for centre, angle in cells:
            looked.append(centre)
            near = cv2.perspectiveTransform(np.array([[centre]], np.float64), table_to_image)
            white = occluders.white_near(whites, near.reshape(2))
            over = _Over(image, white)
            at = _white_square(gray, table_to_image, centre, angle, kit, square, over)
            if at is None:
                continue
            best = _marker(
                gray, table_to_image, at, angle, kit, templates, side, everyone, found, over, rules
            )
            if best is None:
                continue
            score, marker, row = best
            marker = _refined(gray, marker, kit, px_per_mm) or Marker(
                marker.id, _fitted(gray, marker.corners, row, side, over)
            )
            if marker.id in wanted and score > out.get(marker.id, (-1.0, marker))[0]:
                more += [] if marker.id in out else [(at, angle)]
                out[marker.id] = (score, marker)
        searching = not more and not searched and bool(wanted - set(out))
        if not more and not searching:
            return [marker for _, marker in out.values()]
        placed += more


def _as_blurred(
    gray: Image, quads: Matrix, kit: Kit, ids: tuple[int, ...]
) -> tuple[float, float, list[np.ndarray]]:
    """The blur the markers at ``quads`` show (a Gaussian's sigma, pixels), their pixels a
    millimetre, and the templates of ``ids`` as blurred as they show it, then more
    (:data:`markers.MATCH_MORE_BLUR`)."""
    sigma = edge_spread(gray, quads) / EDGE_TO_SIGMA
    px_per_mm = float(median(np.sqrt([_area(q) for q in quads]))) / kit.marker_side
    bits = matchable(kit)[1]
    blur_cells = round(sigma / (px_per_mm * kit.marker_side / (bits + 2)), 1)
    templates = [
        _templates(kit.dictionary, ids, round(blur_cells + more, 1)) for more in MATCH_MORE_BLUR
    ]
    return sigma, px_per_mm, templates


def _refined(gray: Image, marker: Marker, kit: Kit, px_per_mm: float) -> Marker | None:
    """The marker's corners located as the detector's are (its edges, then the middle of its
    white band); None if that moves a corner more than ``REFINED_MOST_MM`` from where the
    match put it (something over part of the marker, or the match a few degrees off)."""
    edges = refine_corners(gray, marker.corners[None])
    quad = centre_on_white(gray, edges, kit.white_side / kit.marker_side)[0]
    moved = float(np.linalg.norm(quad - marker.corners, axis=1).max()) / px_per_mm
    if not np.all(np.isfinite(quad)) or moved > REFINED_MOST_MM:
        return None
    return Marker(marker.id, quad)


def free_cells(poses: Sequence[Pose], tile_side: float, along: float | None = None) -> list[Pose]:
    """The grid cells beside the tiles at ``poses`` that no tile holds: each one's centre
    (table mm) and the turn of the tiles beside it (degrees, within a quarter turn). Each
    tile steps a pitch to its sides along its own turn, or, given ``along``, along that turn
    (the quarter of it nearest the tile's own: :func:`grid_turn`)."""
    centres = np.array([c for c, _ in poses], np.float64)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    near = apart[(apart > 0.8 * tile_side) & (apart < 1.3 * tile_side)]
    pitch = float(median(near)) if len(near) else tile_side
    cells: list[tuple[np.ndarray, list[float]]] = []
    for (x, y), angle in poses:
        turn = math.radians(angle if along is None else angle + _quarter_off(along - angle))
        for k in range(4):
            a = turn + k * math.pi / 2
            spot = np.array([x + pitch * math.cos(a), y + pitch * math.sin(a)])
            if np.linalg.norm(centres - spot, axis=1).min() < 0.5 * pitch:
                continue
            for held, turns in cells:
                if np.linalg.norm(held - spot) < 0.3 * pitch:
                    turns.append(angle)
                    break
            else:
                cells.append((spot, [angle]))
    out: list[Pose] = []
    for spot, turns in cells:
        # The nearest quarter turn of each neighbour's angle to the first one's, averaged.
        first = turns[0]
        near_turns = [first + _quarter_off(t - first) for t in turns]
        out.append(((float(spot[0]), float(spot[1])), float(np.mean(near_turns))))
    return out


def grid_turn(poses: Sequence[Pose]) -> float:
    """The turn (degrees) of the grid the tiles at ``poses`` lie on: their turns averaged,
    each give or take the whole quarter turns that bring it nearest the first's."""
    first = poses[0][1]
    return first + float(np.mean([_quarter_off(angle - first) for _, angle in poses]))


def _quarter_off(degrees: float) -> float:
    """``degrees`` less the nearest whole quarter turn (-45 to 45)."""
    return (degrees + 45.0) % 90.0 - 45.0


def _anywhere(
    gray: Image,
    table_to_image: Matrix,
    kit: Kit,
    quads: Matrix,
    sigma_mm: float,
    beside: Sequence[Pose] = (),
) -> list[Pose]:
    """Where (table mm, degrees) white squares show on the table the picture holds, best
    first (at most :data:`ANYWHERE_MOST`), none where a marker already found lies: the
    table seen from above at :data:`RESOLUTION`, shrunk to :data:`ANYWHERE_SCALE` of it, and
    where it is not plain (:data:`ANYWHERE_BUSY`) matched with a white square as
    :func:`_white_square` matches one, turned :data:`ANYWHERE_TURN_DEG` at a time."""
    to_table = np.linalg.inv(table_to_image)
    h, w = gray.shape[:2]
    grid = np.mgrid[0 : w : w / 16, 0 : h : h / 9].reshape(2, -1).T
    # Points of the picture beyond the table's horizon map to the table's far side: only
    # those on the side of the markers found are the table.
    seen = np.asarray(quads, np.float64).mean(axis=1)
    side_of = np.sign((to_table @ np.c_[seen, np.ones(len(seen))].T)[2].mean())
    ahead = (to_table @ np.c_[grid, np.ones(len(grid))].T)[2] * side_of > 0
    spread = cv2.perspectiveTransform(grid[ahead].reshape(-1, 1, 2), to_table).reshape(-1, 2)
    if len(spread) < 2:
        return []
    low = np.maximum(spread.min(axis=0), -ANYWHERE_MM)
    high = np.minimum(spread.max(axis=0), ANYWHERE_MM)
    tiles = np.array([centre for centre, _ in beside], np.float64).reshape(-1, 2)
    if len(tiles):
        low = np.maximum(low, tiles.min(axis=0) - ANYWHERE_BESIDE * kit.tile_side)
        high = np.minimum(high, tiles.max(axis=0) + ANYWHERE_BESIDE * kit.tile_side)
    width, height = (np.ceil((high - low) * RESOLUTION)).astype(int)
    if width <= 0 or height <= 0:
        return []
    to_patch = np.array(
        [
            [1 / RESOLUTION, 0, low[0] + 0.5 / RESOLUTION],
            [0, 1 / RESOLUTION, low[1] + 0.5 / RESOLUTION],
            [0, 0, 1],
        ]
    )
    inside = np.full((h, w), 255, np.uint8)
    warp = table_to_image @ to_patch
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    patch = cv2.warpPerspective(gray, warp, (width, height), flags=flags).astype(np.float32)
    shown = cv2.warpPerspective(inside, warp, (width, height), flags=flags) == 255
    patch = cv2.resize(
        patch, None, fx=ANYWHERE_SCALE, fy=ANYWHERE_SCALE, interpolation=cv2.INTER_AREA
    )
    shown = (
        cv2.resize(
            shown.astype(np.uint8),
            (patch.shape[1], patch.shape[0]),
            interpolation=cv2.INTER_NEAREST,
        )
        > 0
    )
    height, width = patch.shape
    coarse = RESOLUTION * ANYWHERE_SCALE
    drawn, mask = _square(kit, math.hypot(sigma_mm * coarse, 0.5), matchable(kit)[1], coarse)
    window = (drawn.shape[1], drawn.shape[0])
    mean = cv2.boxFilter(patch, -1, window)
    variance = cv2.boxFilter(patch * patch, -1, window) - mean * mean
    busy = ((variance > ANYWHERE_BUSY**2) & shown).astype(np.uint8)
    centres = np.vstack([cv2.perspectiveTransform(seen[:, None], to_table).reshape(-1, 2), tiles])
    for k, (x, y) in enumerate((centres - low) * coarse):
        # No white square lies within a found tile, nor on the card round its markers.
        reach = (kit.tile_side / 2 if k >= len(seen) else kit.marker_side) * coarse
        cv2.circle(busy, (round(x), round(y)), round(reach), 0, -1)
    count, _, boxes, _ = cv2.connectedComponentsWithStats(busy)
    turned = [
        (float(turn), *_turned_square(drawn, mask, float(turn)))
        for turn in np.arange(0.0, 90.0, ANYWHERE_TURN_DEG)
    ]
    peaks: list[tuple[float, tuple[float, float], float]] = []
    for x, y, bw, bh, _ in boxes[1:count]:
        for turn, square, square_mask in turned:
            n = square.shape[0]
            x0, y0 = max(x - n // 2, 0), max(y - n // 2, 0)
            part = patch[y0 : min(y + bh + n // 2, height), x0 : min(x + bw + n // 2, width)]
            if part.shape[0] < n or part.shape[1] < n:
                continue
            scores = masked_match(part, square, square_mask)
            scores[~np.isfinite(scores)] = -1.0
            rows, cols = np.nonzero(
                (scores >= ANYWHERE_LEAST)
                & (scores >= cv2.dilate(scores, np.ones((5, 5), np.uint8)))
            )
            for row, col in zip(rows, cols, strict=True):
                at = low + (np.array([col + x0, row + y0]) + (n - 1) / 2 + 0.5) / coarse
                peaks.append((float(scores[row, col]), (float(at[0]), float(at[1])), turn))
    out: list[Pose] = []
    for _, at, turn in sorted(peaks, reverse=True):
        if len(out) == ANYWHERE_MOST:
            break
        apart = [math.dist(at, c) for c, _ in out] + [math.dist(at, c) for c in centres]
        if min(apart, default=math.inf) >= kit.marker_side:
            out.append((at, turn))
    # Each looked at turned as matched and half a step either way.
    half = ANYWHERE_TURN_DEG / 2
    return [(at, turn + more) for at, turn in out for more in (0.0, -half, half)]


def masked_match(image: np.ndarray, template: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``cv2.TM_CCOEFF_NORMED`` of ``template`` over its pixels in ``mask``, at each place in
    ``image`` (all float32). OpenCV 4.11, which the Raspberry Pi install takes (numpy 1:
    docs/dependencies.md), raises ``cv2.error`` ("the output array type must be explicitly
    specified") for a masked match whose result is one column wide but several rows high: an
    image as wide as the template. That match is made on both arrays transposed, which is the
    same correlation, and its result transposed back."""
    wide, high = image.shape[1] - template.shape[1] + 1, image.shape[0] - template.shape[0] + 1
    if wide == 1 and high > 1:
        return masked_match(image.T, template.T, mask.T).T
    out: np.ndarray = cv2.matchTemplate(image, template, cv2.TM_CCOEFF_NORMED, mask=mask)
    return out


def _turned_square(
    drawn: np.ndarray, mask: np.ndarray, turn: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_square`'s white square and mask turned by ``turn`` degrees (clockwise on the
    table, as :func:`_similarity` turns), on a canvas that holds it whole; the mask leaves
    out the canvas's corners."""
    n = drawn.shape[0]
    size = (
        math.ceil(n * (abs(math.cos(math.radians(turn))) + abs(math.sin(math.radians(turn))))) | 1
    )
    rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), -turn, 1.0)
    rot[:, 2] += (size - n) / 2
    square = cv2.warpAffine(
        drawn, rot, (size, size), flags=cv2.INTER_LINEAR, borderValue=TILE_SHADE
    )
    turned_mask = cv2.warpAffine(mask, rot, (size, size), flags=cv2.INTER_NEAREST, borderValue=0)
    return square, turned_mask


def _square(
    kit: Kit, sigma_px: float, bits: int, resolution: float = RESOLUTION
) -> tuple[np.ndarray, np.ndarray]:
    """A marker's white square as drawn at ``resolution`` (pixels a mm), on the dark tile,
    blurred; and the mask that leaves out the marker's bits (which differ from marker to
    marker, and the more white cells a marker has, the less like any one drawing it looks)."""
    reach = kit.white_side / 2 + 3.0
    size = round(2 * reach * resolution)
    yy, xx = np.mgrid[0:size, 0:size]
    u = np.abs((xx + 0.5) / resolution - reach)
    v = np.abs((yy + 0.5) / resolution - reach)
    far = np.maximum(u, v)
    cell = kit.marker_side / (bits + 2)
    out = np.full((size, size), TILE_SHADE, np.float32)
    out[far <= kit.white_side / 2] = 1.0
    out[far <= kit.marker_side / 2] = 0.0
    blurred: np.ndarray = cv2.GaussianBlur(out, (0, 0), max(sigma_px, 0.3))
    return blurred, (far > kit.marker_side / 2 - cell).astype(np.float32)


def _white_square(
    gray: Image,
    table_to_image: Matrix,
    centre: tuple[float, float],
    angle: float,
    kit: Kit,
    square: tuple[np.ndarray, np.ndarray],
    over: _Over,
) -> tuple[float, float] | None:
    """Where (table mm) a white square lies within ``SEARCH_MM`` of ``centre``, if one does:
    matched whole, else on what shows of it (``over``)."""
    drawn, mask = square
    reach = drawn.shape[0] / RESOLUTION / 2 + SEARCH_MM
    size = round(2 * reach * RESOLUTION)
    to_cell = np.array(
        [
            [1 / RESOLUTION, 0, -reach + 0.5 / RESOLUTION],
            [0, 1 / RESOLUTION, -reach + 0.5 / RESOLUTION],
            [0, 0, 1],
        ]
    )
    warp = table_to_image @ _similarity(centre, angle) @ to_cell
    patch = cv2.warpPerspective(
        gray,
        warp,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(np.float32)
    if float(patch.std()) < 1.0:
        return None
    scores = masked_match(patch, drawn, mask)
    _, best, _, (col, row) = cv2.minMaxLoc(scores)
    if best < SQUARE_LEAST:
        shown = over.shown(warp, size, inverse=True)
        if shown is None:
            return None
        scores = _in_part_scores(patch / 255.0, shown, drawn, mask)
        _, best, _, (col, row) = cv2.minMaxLoc(scores)
        if best < SQUARE_LEAST:
            return None
    shift = np.array([col, row]) / RESOLUTION - SEARCH_MM
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    x, y = np.array(centre) + rot @ shift
    return float(x), float(y)


def _marker(
    gray: Image,
    table_to_image: Matrix,
    centre: tuple[float, float],
    angle: float,
    kit: Kit,
    templates: Sequence[np.ndarray],
    side: int,
    everyone: tuple[int, ...],
    found: set[int],
    over: _Over,
    rules: Sequence[_Rule],
) -> tuple[float, Marker, np.ndarray] | None:
    """The kit marker inside the white square at ``centre``, matched whole at the best of a
    few nudges and turns, if it stands out (by the first of ``rules``, else the next): as
    blurred as the first of ``templates`` shows, else the next; if none does, matched so on
    what shows of it (``over``). Its score, the marker and its template (unturned, as
    blurred as it matched)."""
    corners = np.array(kit.marker_corners(), np.float64)
    quads = []
    for dx in NUDGES_MM:
        for dy in NUDGES_MM:
            for turn in TURNS_DEG:
                pose = table_to_image @ _similarity((centre[0] + dx, centre[1] + dy), angle + turn)
                quads.append(
                    cv2.perspectiveTransform(corners.reshape(-1, 1, 2), pose).reshape(4, 2)
                )
    whole = _best(gray, quads, templates, side, everyone, found, None)
    part: list[_Best | None] | None = None
    for rule in rules:
        taken = _taken(whole, everyone, found, rule)
        if taken is None:
            part = part or _best(gray, quads, templates, side, everyone, found, over)
            taken = _taken(part, everyone, found, rule)
        if taken is not None:
            score, marker, level = taken
            return score, marker, templates[level][everyone.index(marker.id), 0]
    return None


_Best = tuple[float, float, int, Matrix]
"""The best match at one blur: its score, the next marker's, which marker (its index among
those matched) and the quad it matched in, turned to the marker's first corner."""


def _best(
    gray: Image,
    quads: Sequence[Matrix],
    templates: Sequence[np.ndarray],
    side: int,
    everyone: tuple[int, ...],
    found: set[int],
    over: _Over | None,
) -> list[_Best | None]:
    """The marker best matched in any of ``quads``, as blurred as each of ``templates``:
    whole, or on what shows of it (``over``, when something lies over it)."""
    best: list[_Best | None] = [None] * len(templates)
    for quad in quads:
        if over is None:
            values = _patch(gray, quad, side)
            rows: Sequence[np.ndarray] | None = None if values is None else templates
        else:
            values, rows = _in_part(gray, quad, side, templates, over)
        if values is None or rows is None:
            continue
        for level, blurred in enumerate(rows):
            scores = blurred @ values
            first, top, second = standing(scores, everyone, found)
            so_far = best[level]
            if so_far is None or top > so_far[0]:
                rolled = np.roll(quad, int(np.argmax(scores[first])), axis=0)
                best[level] = (top, second, first, rolled)
    return best


def _taken(
    best: list[_Best | None],
    everyone: tuple[int, ...],
    found: set[int],
    rule: _Rule,
) -> tuple[float, Marker, int] | None:
    """The first of ``best`` (least blurred first) that stands out by ``rule``: its score,
    the marker, and the blur it matched at."""
    for level, at_blur in enumerate(best):
        if at_blur is None:
            continue
        score, second, first, quad = at_blur
        if rule(everyone[first], score, second, found):
            return score, Marker(int(everyone[first]), quad), level
    return None


def _on_a_cell(marker_id: int, best: float, second_best: float, found: set[int]) -> bool:
    """Whether a marker matched inside a free cell's white square stands out as surely as
    such a cell asks (:data:`CELL_MATCH_LEAST`, :data:`CELL_MATCH_MARGIN`)."""
    return (
        marker_id not in found
        and best >= CELL_MATCH_LEAST
        and best - second_best >= CELL_MATCH_MARGIN
    )


def _fitted(gray: Image, quad: Matrix, row: np.ndarray, side: int, over: _Over) -> Matrix:
    """The quad near ``quad`` where the marker (``row``: its template, unturned) correlates
    best on what shows of it, moved, turned and scaled by ever smaller steps: a marker
    something lies over (whose edges do not locate it, :func:`_refined`) lies within the
    few nudges and turns it was matched at, or is more turned than they reach."""
    centre = quad.mean(axis=0)
    cell = float(np.sqrt(_area(quad))) / (side / MATCH_PX)

    def placed(params: np.ndarray) -> Matrix:
        x, y, turn, scale = params
        c, s = math.cos(turn), math.sin(turn)
        rot = np.array([[c, -s], [s, c]]) * math.exp(scale)
        out: Matrix = centre + (quad - centre) @ rot.T + np.array([x, y])
        return out

    def score(params: np.ndarray) -> float:
        quad_at = placed(params)
        values, rows = _in_part(gray, quad_at, side, [row[None, None]], over, bare_too=True)
        return -1.0 if values is None or rows is None else float(rows[0][0, 0] @ values)

    params = np.zeros(4)
    best = score(params)
    steps = np.array(
        [FIT_STEP_CELLS * cell, FIT_STEP_CELLS * cell, math.radians(FIT_STEP_DEG), FIT_STEP_SCALE]
    )
    for _ in range(FIT_ROUNDS):
        for _ in range(FIT_MOVES):
            moved = False
            for k in range(4):
                for sign in (-1.0, 1.0):
                    trial = params.copy()
                    trial[k] += sign * steps[k]
                    at = score(trial)
                    if at > best:
                        best, params, moved = at, trial, True
            if not moved:
                break
        steps /= 2
    return placed(params)


@dataclasses.dataclass(frozen=True)
class _Over:
    """The picture in colour and the paper's white near a cell: what lies over the print
    there (:mod:`occluders`)."""

    image: Image
    white: occluders.Lab | None

    def shown(self, warp: Matrix, size: int, *, inverse: bool) -> np.ndarray | None:
        """1 where the print shows and 0 where something lies over it (grown by
        :data:`GROWN_PX`), on the ``size``-pixel patch ``warp`` takes the picture to (from
        the patch to the picture if ``inverse``); None when nothing does."""
        if self.white is None:
            return None
        flags = cv2.INTER_LINEAR | (cv2.WARP_INVERSE_MAP if inverse else 0)
        patch = cv2.warpPerspective(
            self.image, warp, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE
        )
        hidden = occluders.covered(patch, self.white).astype(np.uint8)
        if not hidden.any():
            return None
        grown = cv2.dilate(hidden, np.ones((2 * GROWN_PX + 1, 2 * GROWN_PX + 1), np.uint8))
        out: np.ndarray = (1 - grown).astype(np.float32)
        return out


def _in_part(
    gray: Image,
    quad: Matrix,
    side: int,
    templates: Sequence[np.ndarray],
    over: _Over,
    *,
    bare_too: bool = False,
    least: float | None = None,
) -> tuple[np.ndarray | None, list[np.ndarray] | None]:
    """The picture inside ``quad`` where the print shows, and ``templates`` there (each row
    centred and of unit length); None when less than ``least`` (:data:`SHOWN_LEAST`) of it
    shows, or something lies over none of it (unless ``bare_too``)."""
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    shown = over.shown(warp, side, inverse=False)
    if shown is None and bare_too:
        shown = np.ones((side, side), np.float32)
    if shown is None or float(shown.mean()) < (SHOWN_LEAST if least is None else least):
        return None, None
    keep = shown.ravel() > 0.5
    patch = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR)
    values = _centred(patch.astype(np.float32).ravel()[keep])
    if values is None:
        return None, None
    rows = []
    for blurred in templates:
        part = blurred[:, :, keep]
        part = part - part.mean(axis=2, keepdims=True)
        rows.append(part / (np.linalg.norm(part, axis=2, keepdims=True) + 1e-9))
    return values, rows


def _centred(values: np.ndarray) -> np.ndarray | None:
    """``values`` about their mean, of unit length; None if flat."""
    values = values - values.mean()
    length = float(np.linalg.norm(values))
    return None if length < 1e-6 else values / length


def _in_part_scores(
    patch: np.ndarray, shown: np.ndarray, drawn: np.ndarray, mask: np.ndarray
) -> np.ndarray:
    """``cv2.TM_CCOEFF_NORMED`` of ``drawn`` (its pixels in ``mask``) at each place in
    ``patch``, over the pixels ``shown`` only; -1 where less than :data:`SHOWN_LEAST` of
    the drawing shows."""

    def at(picture: np.ndarray, template: np.ndarray) -> np.ndarray:
        out: np.ndarray = cv2.matchTemplate(
            picture.astype(np.float32), template.astype(np.float32), cv2.TM_CCORR
        )
        return out

    seen = patch * shown
    drawing = drawn * mask
    count = at(shown, mask)
    sum_t, sum_tt = at(shown, drawing), at(shown, drawing * drawn)
    sum_p, sum_pp = at(seen, mask), at(seen * patch, mask)
    sum_pt = at(seen, drawing)
    n = np.maximum(count, 1e-6)
    spread = np.maximum(sum_pp - sum_p**2 / n, 0.0) * np.maximum(sum_tt - sum_t**2 / n, 0.0)
    scores = (sum_pt - sum_p * sum_t / n) / np.sqrt(np.maximum(spread, 1e-12))
    scores[(count < SHOWN_LEAST * float(mask.sum())) | (spread < 1e-12)] = -1.0
    out: np.ndarray = scores.astype(np.float32)
    return out


@dataclasses.dataclass(frozen=True)
class InPart:
    """A face named by what shows of its marker (:func:`named_in_part`)."""

    index: int
    """Which of the candidates it is."""
    way_too: bool
    """Whether the marker matched as surely as anywhere (:data:`markers.MATCH_LEAST`, and
    :data:`markers.MATCH_MARGIN` ahead of every other candidate, the same tile at its other
    ways too): it then says which way the face lies as surely as which tile it is. (Issue
    18's benchmark, `lamps` 67 picture 47, 1.07 px/mm: S24's face, its marker hidden whole,
    matched S4's marker at another way 0.52 and 0.47 ahead, enough to name a face, not to
    say the way.)"""


def named_in_part(
    image: Image,
    gray: Image,
    kit: Kit,
    markers: Sequence[Marker],
    candidates: Sequence[tuple[int, Matrix]],
) -> InPart | None:
    """Which of ``candidates`` (tiles the table should have and does not show, each with
    where its face would lie: tile mm -> pixels, marker upright; a tile may come more than
    once, at each way its face may lie) a face is, by what shows of its marker: the one
    whose marker, unturned (the face says which way it lies), matches what shows at least
    :data:`markers.MATCH_LEAST` and :data:`markers.MATCH_MARGIN` ahead of every other
    tile's (or :data:`NAMED_MATCH_LEAST` and :data:`NAMED_MATCH_MARGIN` ahead), at the best
    of a few nudges and turns, when at least :data:`NAMED_SHOWN_LEAST` of it shows; else the
    one its cells that show white name (:func:`_by_white_cells`); None if neither does."""
    quads = np.array([m.corners for m in markers], np.float64)
    if len(quads) == 0 or len(candidates) < 2:
        return None
    side = (matchable(kit)[1] + 2) * MATCH_PX
    ids = tuple(marker_id for marker_id, _ in candidates)
    levels = [blurred[:, :1] for blurred in _as_blurred(gray, quads, kit, ids)[2]]
    centre = cv2.perspectiveTransform(np.zeros((1, 1, 2)), candidates[0][1]).reshape(2)
    over = _Over(image, occluders.white_near(occluders.whites(image, quads, kit), centre))
    corners = np.array(kit.marker_corners(), np.float64)
    best = np.full((len(levels), len(ids)), -1.0)
    at_face = []
    for k, (_, to_image) in enumerate(candidates):
        at_face.append(cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_image).reshape(4, 2))
        own = [blurred[k : k + 1] for blurred in levels]
        for dx in NUDGES_MM:
            for dy in NUDGES_MM:
                for turn in TURNS_DEG:
                    pose = to_image @ _similarity((dx, dy), turn)
                    quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), pose).reshape(4, 2)
                    values, rows = _in_part(
                        gray, quad, side, own, over, bare_too=True, least=NAMED_SHOWN_LEAST
                    )
                    if values is None or rows is None:
                        continue
                    for level, row in enumerate(rows):
                        best[level, k] = max(best[level, k], float(row[0, 0] @ values))
    for scores in best:
        first = int(np.argmax(scores))
        top = float(scores[first])
        second = max(
            (float(v) for v, i in zip(scores, ids, strict=True) if i != ids[first]), default=-1.0
        )
        if (top >= MATCH_LEAST and top - second >= MATCH_MARGIN) or (
            top >= NAMED_MATCH_LEAST and top - second >= NAMED_MATCH_MARGIN
        ):
            return InPart(first, any(_ahead_of_all(row, first) for row in best))
    white = _by_white_cells(gray, kit, at_face, ids, over)
    return None if white is None else InPart(white, False)


def _ahead_of_all(scores: np.ndarray, k: int) -> bool:
    """Whether candidate ``k`` matched at least :data:`markers.MATCH_LEAST` and
    :data:`markers.MATCH_MARGIN` ahead of every other of ``scores``, its own tile at its
    other ways too."""
    others = np.delete(scores, k)
    second = float(others.max()) if len(others) else -1.0
    return bool(scores[k] >= MATCH_LEAST and scores[k] - second >= MATCH_MARGIN)


def _by_white_cells(
    gray: Image, kit: Kit, quads: Sequence[Matrix], ids: tuple[int, ...], over: _Over
) -> int | None:
    """Which of ``ids`` (its index) the marker is (each unturned at its own of ``quads``) by
    its cells that show white: a dark sleeve over a marker looks like its black, so a dark
    cell says nothing, but a white one (not something over the print: :mod:`occluders`) is
    a white bit. The one marker every white cell of which is white in it, with at least
    :data:`WHITE_CELLS_LEAST` of them, when every other has at least
    :data:`WHITE_CELLS_APART` cells white that it has black."""
    bits, codes = _codes(kit.dictionary, ids)
    drawn = np.zeros((len(ids), bits + 2, bits + 2), bool)
    drawn[:, 1:-1, 1:-1] = codes.astype(bool)
    against, agree = [], []
    for quad, own in zip(quads, drawn, strict=True):
        white = _white_cells(gray, kit, quad, bits + 2, over)
        if white is None:
            return None
        against.append(int((white & ~own).sum()))
        agree.append(int((white & own).sum()))
    order = np.argsort(against, kind="stable")
    first = int(order[0])
    if (
        against[first] == 0
        and agree[first] >= WHITE_CELLS_LEAST
        and all(against[other] >= WHITE_CELLS_APART for other in order[1:])
    ):
        return first
    return None


def _white_cells(gray: Image, kit: Kit, quad: Matrix, cells: int, over: _Over) -> np.ndarray | None:
    """Which of the ``cells`` x ``cells`` cells of the marker at ``quad`` show white (at
    their middle, at least :data:`WHITE_CELL_LEVEL` of the way from the marker's black to
    its white square's); None when too little of the square shows
    (:data:`WHITE_CELLS_RING`) or it is too dim (:data:`WHITE_CELLS_CONTRAST`)."""
    grown = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * (kit.white_side / kit.marker_side)
    ring_side = round(cells * MATCH_PX * kit.white_side / kit.marker_side)
    target = np.array([[0, 0], [ring_side, 0], [ring_side, ring_side], [0, ring_side]], np.float32)
    warp = cv2.getPerspectiveTransform(grown.astype(np.float32), target)
    around = cv2.warpPerspective(gray, warp, (ring_side, ring_side)).astype(np.float32)
    margin = (ring_side - cells * MATCH_PX) // 2
    within = slice(margin, margin + cells * MATCH_PX)
    inner = np.zeros(around.shape, bool)
    inner[within, within] = True
    shown = over.shown(warp, ring_side, inverse=False)
    visible = np.ones(around.shape, bool) if shown is None else shown > 0.5
    ring = around[~inner & visible]
    marker, seen = around[within, within], visible[within, within]
    if len(ring) < WHITE_CELLS_RING * (~inner).sum():
        return None
    white, black = float(np.percentile(ring, 90)), float(np.percentile(marker, 5))
    if white - black < WHITE_CELLS_CONTRAST:
        return None
    step = MATCH_PX
    middle = slice(step // 4, step - step // 4)
    out = np.zeros((cells, cells), bool)
    for row in range(cells):
        for col in range(cells):
            at = (slice(row * step, (row + 1) * step), slice(col * step, (col + 1) * step))
            if not seen[at].all():
                continue
            level = float(marker[at][middle, middle].mean())
            out[row, col] = level >= black + WHITE_CELL_LEVEL * (white - black)
    return out
