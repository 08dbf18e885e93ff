"""Reading the kit's cards by their markers: each marker names its card (``Kit.card_of``) and,
with its four corners, where the card's centre is; the start card's marker fixes the grid, and
a homography from grid cells to the picture, refitted as more cards are placed on it, gives
every card its cell (K2.1, K2.5).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.clustered.cards import Card
from companion.clustered.cells import Cell
from companion.clustered.settings import Palette
from vision.clustered.kit import Kit

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

NOMINAL_GAP = 1.75
"""Millimetres between cards laid side by side, for the first guess of the grid's pitch."""
SQUARISH = 2.0
"""No side of a card's marker seen is more than this times another. A marker seen 30 degrees
off vertical is about 1.15; over 3,736 real markers in 32 benchmark pictures (1080p, mats
plain and patterned) and 962 in four stills the most was 1.5. A stripe of a patterned cloth
that decoded as a marker was 7.8 (2026-12-04)."""


@dataclasses.dataclass(frozen=True)
class Marker:
    id: int
    corners: Matrix
    """4 x 2, image pixels, in ArUco's order (the printed marker's top left first)."""

    @property
    def side_px(self) -> float:
        return float(np.mean(self.sides_px))

    @property
    def sides_px(self) -> npt.NDArray[np.float64]:
        """The quad's four sides' lengths, in pixels."""
        return np.asarray(np.linalg.norm(np.roll(self.corners, -1, axis=0) - self.corners, axis=1))

    @property
    def squarish(self) -> bool:
        """Whether no side is more than :data:`SQUARISH` times another."""
        sides = self.sides_px
        return bool(sides.max() <= SQUARISH * sides.min())


@dataclasses.dataclass(frozen=True)
class Seen:
    """One card found by its marker."""

    marker: Marker
    card: Card
    centre: Matrix
    """The card's centre in the picture (pixels)."""
    card_to_image: Matrix
    """The card's own millimetres (as printed) to pixels, from its marker's corners."""


def detector(*, small: bool = False) -> cv2.aruco.ArucoDetector:
    """An ArUco detector for the kit's dictionary, tuned for small markers when ``small``."""
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = 0.006 if small else 0.01
    params.polygonalApproxAccuracyRate = 0.05
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 3
    params.adaptiveThreshWinSizeMin = 7  # two thresholding passes (7, 17): as many markers as
    params.adaptiveThreshWinSizeMax = 17  # the default three, in two thirds of the time
    params.adaptiveThreshWinSizeStep = 10
    if small:
        params.adaptiveThreshWinSizeMin = 3
        params.adaptiveThreshWinSizeMax = 13
        params.adaptiveThreshWinSizeStep = 5
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.25
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect(gray: Image, *, small: bool = False) -> list[Marker]:
    corners, ids, _ = detector(small=small).detectMarkers(gray)
    if ids is None:
        return []
    return [
        Marker(int(i), np.asarray(c, np.float64).reshape(4, 2))
        for i, c in zip(ids.ravel(), corners, strict=True)
    ]


def card_pose(kit: Kit, marker: Marker, card: Card) -> Seen:
    """Where the card lies, from its marker: an affine fit of the printed corners to the seen
    ones (a marker is too small for its perspective to be worth extrapolating)."""
    printed = np.array(kit.marker_corners(card), np.float64)
    a = np.hstack([printed, np.ones((4, 1))])
    solution, *_ = np.linalg.lstsq(a, marker.corners, rcond=None)
    h = np.vstack([solution.T, [0.0, 0.0, 1.0]])
    centre = _apply(h, np.zeros((1, 2)))[0]
    return Seen(marker, card, centre, np.asarray(h, np.float64))


def _apply(h: Matrix, points: Matrix) -> Matrix:
    p = np.hstack([points, np.ones((len(points), 1))]) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], np.float64)


def seen_cards(
    kit: Kit, markers: Sequence[Marker], palette: Palette
) -> tuple[list[Seen], list[str]]:
    """The cards the markers name (an unknown id, or an attribute card seen twice, is left out
    with a note: a misread marker must never become a card)."""
    notes = []
    found: list[Seen] = []
    by_id: dict[int, list[Marker]] = {}
    if markers:
        typical = float(np.median([m.side_px for m in markers]))
        # Every marker is printed the same size and square: one far smaller or larger is a
        # pattern in a symbol that happened to decode, and one far from square a stripe of a
        # patterned cloth; neither is a card.
        markers = [m for m in markers if 0.6 * typical <= m.side_px <= 1.7 * typical and m.squarish]
    for marker in markers:
        by_id.setdefault(marker.id, []).append(marker)
    for marker_id, group in sorted(by_id.items()):
        card = kit.card_of(marker_id, palette)
        if card is None:
            notes.append(f"a marker ({marker_id}) that is not in the kit was ignored")
            continue
        if len(group) > 1:
            notes.append(
                f"marker {marker_id} ({card.text()}) was seen {len(group)} times; "
                "every reading of it was ignored"
            )
            continue
        found.append(card_pose(kit, group[0], card))
    return found, notes


@dataclasses.dataclass(frozen=True)
class Grid:
    """Grid cells (x east, y north; the first start card at 0, 0) to picture pixels."""

    to_image: Matrix

    def from_image(self, points: Matrix) -> Matrix:
        return _apply(np.asarray(np.linalg.inv(self.to_image), np.float64), points)

    def image_of(self, points: Matrix) -> Matrix:
        return _apply(self.to_image, points)

    def cell_px(self) -> float:
        """About how many pixels a cell is across (at the grid's origin)."""
        p = self.image_of(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def grid_from_start(kit: Kit, start: Seen) -> Grid:
    """The grid as the start card alone says it: its centre is cell 0,0, its printed top north,
    cells a card and a nominal gap apart."""
    pitch = kit.card_side + NOMINAL_GAP
    scale = np.array([[pitch, 0, 0], [0, -pitch, 0], [0, 0, 1]], np.float64)
    return Grid(start.card_to_image @ scale)


def order_starts(kit: Kit, starts: list[Seen]) -> tuple[list[Seen], list[str]]:
    """K7.18: with two start cards, the western one (as the first's grid sees it) first."""
    if len(starts) < 2:
        return starts, []
    a, b = starts[:2]
    grid = grid_from_start(kit, a)
    where = grid.from_image(b.centre.reshape(1, 2))[0]
    if abs(where[1]) > 1.5 or not 5.0 <= abs(where[0]) <= 9.5:
        return [a], [
            "the two start cards do not lie on one row six cells apart (K7.18); the grid "
            "follows one of them"
        ]
    return ([a, b] if where[0] > 0 else [b, a]), []


def start_anchors(kit: Kit, starts: Sequence[Seen]) -> tuple[Grid, list[tuple[Cell, Matrix]]]:
    """The first grid and the start cards' centres, from their markers."""
    anchors = [(Cell(0, 0), starts[0].centre)]
    if len(starts) > 1:
        anchors.append((Cell(7, 0), starts[1].centre))
    return grid_from_start(kit, starts[0]), anchors


def fit_grid(
    cards: Sequence[Seen], grid: Grid, anchors: Sequence[tuple[Cell, Matrix]]
) -> tuple[Grid, dict[int, Cell]]:
    """Place every card on the grid: start from the start card's own grid, take the cards
    that lie clearly in a cell near it, refit, and grow outwards, so that a far card is placed
    only once the grid around it is known. Returns the grid and each card's cell (by index)."""
    points = np.array([c.centre for c in cards]) if cards else np.zeros((0, 2))
    trusted: dict[int, Cell] = {}
    radius = 2.0
    for _ in range(60):
        at = grid.from_image(points) if len(points) else np.zeros((0, 2))
        for i, (gx, gy) in enumerate(at):
            cell = Cell(round(gx), round(gy))
            near = max(abs(gx), abs(gy)) <= radius
            if near and max(abs(gx - cell.x), abs(gy - cell.y)) < 0.3:
                trusted[i] = cell
        src = [[float(c.x), float(c.y)] for c in trusted.values()]
        dst = [cards[i].centre.tolist() for i in trusted]
        for cell, centre in anchors:
            src.append([float(cell.x), float(cell.y)])
            dst.append(centre.tolist())
        if len(src) >= 5:
            h, inliers = cv2.findHomography(
                np.array(src, np.float64),
                np.array(dst, np.float64),
                cv2.RANSAC,
                0.25 * grid.cell_px(),
            )
            if h is not None and inliers is not None and int(inliers.sum()) >= 4:
                grid = Grid(np.asarray(h, np.float64))
                kept = inliers.ravel()[: len(trusted)]
                trusted = {i: c for (i, c), ok in zip(trusted.items(), kept, strict=True) if ok}
        far = float(np.abs(at).max()) if len(at) else 0.0
        if radius > far + 1:
            break
        radius += 1.5
    at = grid.from_image(points) if len(points) else np.zeros((0, 2))
    final = {i: Cell(round(gx), round(gy)) for i, (gx, gy) in enumerate(at)}
    return grid, final


def fit_to_layout(
    cards: Sequence[Seen], grid: Grid, cells: dict[int, Cell], tracked: Mapping[Card, Cell]
) -> tuple[Grid, dict[int, Cell]]:
    """When the tracked layout is known, the grid that puts the most cards where it says.

    A card's marker names it with certainty, so where the layout has it is a cell the
    picture shows (``tracked``: the cards the layout holds once). Growing the grid from the
    start card can go wrong as a whole (the start card's marker hidden and its black square
    taken for the grid, or turned): a grid fitted through these pairs (RANSAC, so a card
    moved on the table is an outlier) replaces it when it agrees with more cards; a card
    that is not tracked (the new one) is placed by whichever grid wins."""
    pairs = [(i, tracked[c.card]) for i, c in enumerate(cards) if c.card in tracked]
    if len(pairs) < 6:
        return grid, cells

    def agreeing(found: dict[int, Cell]) -> int:
        return sum(1 for i, cell in pairs if found.get(i) == cell)

    src = np.array([[float(cell.x), float(cell.y)] for _, cell in pairs], np.float64)
    dst = np.array([cards[i].centre for i, _ in pairs], np.float64)
    h, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 0.25 * grid.cell_px())
    if h is None or inliers is None or int(inliers.sum()) < max(6, len(pairs) // 2):
        return grid, cells
    fitted = Grid(np.asarray(h, np.float64))
    at = fitted.from_image(np.array([c.centre for c in cards], np.float64))
    placed = {i: Cell(round(gx), round(gy)) for i, (gx, gy) in enumerate(at)}
    return (fitted, placed) if agreeing(placed) > agreeing(cells) else (grid, cells)


def offsets(
    grid: Grid, cards: Sequence[Seen], cells: dict[int, Cell]
) -> dict[int, tuple[float, float]]:
    """How far each card's centre lies from its cell's centre, in cells (K2.5)."""
    if not cards:
        return {}
    points = grid.from_image(np.array([c.centre for c in cards]))
    return {
        i: (float(points[i][0] - cell.x), float(points[i][1] - cell.y)) for i, cell in cells.items()
    }


def angle_of(seen: Seen) -> float:
    c = seen.marker.corners
    return math.degrees(math.atan2(c[1][1] - c[0][1], c[1][0] - c[0][0]))
