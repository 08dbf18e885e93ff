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
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import cv2
import numpy as np

from vision.local_cluster.colour import median
from vision.local_cluster.kit import Kit
from vision.local_cluster.markers import (
    EDGE_TO_SIGMA,
    MATCH_MORE_BLUR,
    MATCH_PX,
    Image,
    Marker,
    Matrix,
    _area,
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

RESOLUTION = 1.0
"""Pixels a millimetre of the table, as a cell is looked at for a white square."""
SEARCH_MM = 9.0
"""How far (mm) from where the grid puts it a white square is looked for: a gap of up to
4 mm on either side of each tile and a few degrees of turn across a pitch of 130 mm."""
SQUARE_LEAST = 0.6
"""A white square shows where a drawn one (white square, the marker's black border, dark
tile round it, blurred as the picture is; the marker's bits left out) correlates at least
this well."""
NUDGES_MM = (-1.2, 0.0, 1.2)
TURNS_DEG = (-2.5, 0.0, 2.5)
"""The marker inside a white square is matched this far either way (mm, degrees)."""
REFINED_MOST_MM = 2.0
"""A matched marker's corners are refined no further than this (mm)."""
TILE_SHADE = 0.15
"""The printed tile round the white square, as drawn (paper white is 1)."""


def rescued(
    gray: Image,
    kit: Kit,
    table_to_image: Matrix,
    poses: Sequence[Pose],
    markers: Sequence[Marker],
    wanted: Collection[int],
) -> list[Marker]:
    """Markers of ``wanted`` tiles (ids not among ``markers``) found on the grid cells
    beside the tiles at ``poses`` (table mm, degrees), in ``gray``'s pixels."""
    found = {m.id for m in markers}
    wanted = {i for i in wanted if i not in found}
    if not wanted or not poses:
        return []
    quads = np.array([m.corners for m in markers], np.float64)
    sigma = edge_spread(gray, quads) / EDGE_TO_SIGMA
    px_per_mm = float(median(np.sqrt([_area(q) for q in quads]))) / kit.marker_side
    everyone, bits = matchable(kit)
    side = (bits + 2) * MATCH_PX
    blur_cells = round(sigma / (px_per_mm * kit.marker_side / (bits + 2)), 1)
    # As blurred as the markers found show, then more (markers.MATCH_MORE_BLUR).
    templates = [
        _templates(kit.dictionary, everyone, round(blur_cells + more, 1))
        for more in MATCH_MORE_BLUR
    ]
    square = _square(kit, sigma / px_per_mm * RESOLUTION, bits)
    out: dict[int, tuple[float, Marker]] = {}
    # Cell by cell beside the tiles found, then beside the tiles found so (a tile whose only
    # neighbours were missing too), until a round finds none.
    placed = list(poses)
    looked: list[tuple[float, float]] = []
    while True:
        cells = [
            (centre, angle)
            for centre, angle in free_cells(placed, kit.tile_side)
            if all(math.dist(centre, done) >= 0.3 * kit.tile_side for done in looked)
        ]
        more: list[Pose] = []
        for centre, angle in cells:
            looked.append(centre)
            at = _white_square(gray, table_to_image, centre, angle, kit, square)
            if at is None:
                continue
            best = _marker(gray, table_to_image, at, angle, kit, templates, side, everyone, found)
            if best is None:
                continue
            score, marker = best
            marker = _refined(gray, marker, kit, px_per_mm)
            if marker.id in wanted and score > out.get(marker.id, (-1.0, marker))[0]:
                more += [] if marker.id in out else [(at, angle)]
                out[marker.id] = (score, marker)
        if not more:
            return [marker for _, marker in out.values()]
        placed += more


def _refined(gray: Image, marker: Marker, kit: Kit, px_per_mm: float) -> Marker:
    """The marker's corners located as the detector's are (its edges, then the middle of its
    white band), unless that moves a corner more than ``REFINED_MOST_MM`` from where the
    match put it (something over part of the marker)."""
    edges = refine_corners(gray, marker.corners[None])
    quad = centre_on_white(gray, edges, kit.white_side / kit.marker_side)[0]
    moved = float(np.linalg.norm(quad - marker.corners, axis=1).max()) / px_per_mm
    if not np.all(np.isfinite(quad)) or moved > REFINED_MOST_MM:
        return marker
    return Marker(marker.id, quad)


def free_cells(poses: Sequence[Pose], tile_side: float) -> list[Pose]:
    """The grid cells beside the tiles at ``poses`` that no tile holds: each one's centre
    (table mm) and the turn of the tiles beside it (degrees, within a quarter turn)."""
    centres = np.array([c for c, _ in poses], np.float64)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    near = apart[(apart > 0.8 * tile_side) & (apart < 1.3 * tile_side)]
    pitch = float(median(near)) if len(near) else tile_side
    cells: list[tuple[np.ndarray, list[float]]] = []
    for (x, y), angle in poses:
        turn = math.radians(angle)
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
        near_turns = [first + ((t - first + 45.0) % 90.0 - 45.0) for t in turns]
        out.append(((float(spot[0]), float(spot[1])), float(np.mean(near_turns))))
    return out


def _square(kit: Kit, sigma_px: float, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """A marker's white square as drawn at ``RESOLUTION``, on the dark tile, blurred; and
    the mask that leaves out the marker's bits (which differ from marker to marker, and
    the more white cells a marker has, the less like any one drawing it looks)."""
    reach = kit.white_side / 2 + 3.0
    size = round(2 * reach * RESOLUTION)
    yy, xx = np.mgrid[0:size, 0:size]
    u = np.abs((xx + 0.5) / RESOLUTION - reach)
    v = np.abs((yy + 0.5) / RESOLUTION - reach)
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
) -> tuple[float, float] | None:
    """Where (table mm) a white square lies within ``SEARCH_MM`` of ``centre``, if one does."""
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
    scores = cv2.matchTemplate(patch, drawn, cv2.TM_CCOEFF_NORMED, mask=mask)
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
) -> tuple[float, Marker] | None:
    """The kit marker inside the white square at ``centre``, matched whole at the best of a
    few nudges and turns, if it stands out (its score and the marker): as blurred as the
    first of ``templates`` shows, else the next."""
    corners = np.array(kit.marker_corners(), np.float64)
    best: list[tuple[float, float, int, np.ndarray] | None] = [None] * len(templates)
    for dx in NUDGES_MM:
        for dy in NUDGES_MM:
            for turn in TURNS_DEG:
                pose = table_to_image @ _similarity((centre[0] + dx, centre[1] + dy), angle + turn)
                quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), pose).reshape(4, 2)
                values = _patch(gray, quad, side)
                if values is None:
                    continue
                for level, blurred in enumerate(templates):
                    scores = blurred @ values
                    first, top, second = standing(scores, everyone, found)
                    so_far = best[level]
                    if so_far is None or top > so_far[0]:
                        rolled = np.roll(quad, int(np.argmax(scores[first])), axis=0)
                        best[level] = (top, second, first, rolled)
    for at_blur in best:
        if at_blur is None:
            continue
        score, second, first, quad = at_blur
        if stands_out(everyone[first], score, second, found):
            return score, Marker(int(everyone[first]), quad)
    return None
