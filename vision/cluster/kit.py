"""The Cluster camera kit as data: the printed boards' geometry, the corner markers and the peg
colours (``kit/cluster-kit.json``). The printed sheets, the renderer of test pictures and the
reader all read this description and nothing of one another."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from importlib import resources

from companion.cluster_peg.board import BOARDS, Board

Point = tuple[float, float]


@dataclasses.dataclass(frozen=True)
class Kit:
    dictionary: str
    spacing: float
    """Millimetres between neighbouring holes."""
    hole_diameter: float
    bevel_diameter: float
    """The printed bevel around a deep hole."""
    shallow_ring: float
    """The thin printed ring around a shallow hole."""
    peg_diameter: float
    height_step: float
    """Millimetres a peg stands above the board per unit of height (P2.4)."""
    marker_side: float
    marker_cells: int
    """Cells across a marker, its black border included (ArUco's bits and border bits)."""
    sticker_side: float
    marker_inset: float
    margin: float
    markers: Mapping[str, tuple[int, ...]]
    """Per board (``"64"``, ``"46"``), its corner markers: top-left, top-right, bottom-right,
    bottom-left of the printed page."""
    colours: Mapping[str, tuple[int, int, int]]
    printed: Mapping[str, tuple[int, int, int]]

    def hole_mm(self, board: Board, hole: int) -> Point:
        """A hole's centre in the board frame (x along row a, y down the page)."""
        x, y = board.xy(hole)
        return x * self.spacing, -y * self.spacing

    def extent(self, board: Board) -> tuple[float, float, float, float]:
        """The holes' bounding box (x0, y0, x1, y1) in the board frame."""
        points = [self.hole_mm(board, h) for h in range(board.size)]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)

    def marker_centres(self, board: Board) -> dict[int, Point]:
        """Each corner marker's centre in the board frame."""
        x0, y0, x1, y1 = self.extent(board)
        d = self.margin / 2 + self.marker_inset
        corners = ((x0 - d, y0 - d), (x1 + d, y0 - d), (x1 + d, y1 + d), (x0 - d, y1 + d))
        return dict(zip(self.markers[board.name], corners, strict=True))

    def marker_corners(self, board: Board) -> dict[int, list[Point]]:
        """Each marker's four corners as the detector reports them (upright on the page:
        top-left, top-right, bottom-right, bottom-left)."""
        h = self.marker_side / 2
        return {
            marker: [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
            for marker, (x, y) in self.marker_centres(board).items()
        }

    def marker_borders(self, board: Board, count: int = 9) -> dict[int, list[Point]]:
        """Points along each marker's black border, half a cell in from its edge: ``count``
        along each side (every marker has this border, whatever its bits)."""
        h = self.marker_side / 2 * (1 - 1 / self.marker_cells)
        steps = [-h + 2 * h * i / (count - 1) for i in range(count)]
        return {
            marker: [
                *((x + t, y - h) for t in steps),
                *((x + t, y + h) for t in steps),
                *((x - h, y + t) for t in steps[1:-1]),
                *((x + h, y + t) for t in steps[1:-1]),
            ]
            for marker, (x, y) in self.marker_centres(board).items()
        }

    def sheet_box(self, board: Board) -> tuple[float, float, float, float]:
        """The printed board's outline (x0, y0, x1, y1): the holes, the margin, the markers."""
        x0, y0, x1, y1 = self.extent(board)
        d = self.margin / 2 + self.marker_inset + self.sticker_side / 2 + 2
        return x0 - d, y0 - d, x1 + d, y1 + d

    def board_of_marker(self, marker: int) -> Board | None:
        for name, ids in self.markers.items():
            if marker in ids:
                return BOARDS[name]
        return None


@functools.cache
def load_kit() -> Kit:
    text = resources.files("vision.cluster").joinpath("kit/cluster-kit.json").read_text("utf-8")
    data = json.loads(text)
    return Kit(
        dictionary=data["aruco"]["dictionary"],
        spacing=float(data["spacing"]),
        hole_diameter=float(data["hole"]["diameter"]),
        bevel_diameter=float(data["hole"]["bevel"]),
        shallow_ring=float(data["hole"]["shallow_ring"]),
        peg_diameter=float(data["peg"]["diameter"]),
        height_step=float(data["peg"]["height_step"]),
        marker_side=float(data["marker"]["side"]),
        marker_cells=int(data["aruco"]["marker_bits"]) + 2 * int(data["aruco"]["border_bits"]),
        sticker_side=float(data["marker"]["sticker"]),
        marker_inset=float(data["marker"]["inset"]),
        margin=float(data["margin"]),
        markers={name: tuple(b["markers"]) for name, b in data["boards"].items()},
        colours={name: tuple(rgb) for name, rgb in data["colours"].items()},
        printed={name: tuple(rgb) for name, rgb in data["printed"].items()},
    )
