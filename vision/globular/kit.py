"""Globular Cluster's camera kit: one ArUco sticker per tile code, one for the MITS (G8.8).

Tiles with the same code are interchangeable (G1.2), so both piecepacks' copies of a tile carry
the same marker. A sticker goes in the middle of its tile's face, upright when the tick is in
the tile's top-left corner: the sticker's top-left corner points at the tick, so the marker's
turn tells the tick corner (G2.5). The MITS's sticker is upright, which orients the board
(G2.1). Everything is in millimetres; the reader and the sheets read sizes only from here.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from companion.globular.tiles import Colour, Rank, Tile

Image = npt.NDArray[np.uint8]

DICTIONARY = cv2.aruco.DICT_4X4_50
"""The marker family: 4x4 bits, large cells that read from a camera over the table."""
TILE_MM = 50.8
"""A piecepack tile's side: 2 inches."""
MARKER_MM = 20.0
"""A sticker's marker side (its black border included); a white margin of 3 mm around it."""
MITS_ID = 0
"""The MITS's marker."""

MARKER_IDS: dict[str, int] = {
    Tile(colour, rank).code(): number
    for number, (colour, rank) in enumerate(itertools.product(Colour, Rank), start=1)
}
"""Each tile code's marker (``rd`` null is 1, ..., green 5 is 24)."""
CODES: dict[int, str] = {number: code for code, number in MARKER_IDS.items()} | {MITS_ID: "mits"}
"""What each marker stands for: a tile code, or ``"mits"``."""


@cache
def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker(number: int, side_px: int) -> Image:
    """Marker ``number`` drawn ``side_px`` square, as B, G, R."""
    grey = cv2.aruco.generateImageMarker(dictionary(), number, side_px)
    drawn: Image = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    return drawn


DPI = 300
PX_PER_MM = DPI / 25.4
A4 = (210.0, 297.0)


def write_kit(folder: Path) -> list[Path]:
    """One A4 sheet at 300 dpi (print at 100%): two stickers of each tile code (one per
    piecepack) and one for the MITS, each labelled with its code, a black tip outside the
    corner that goes to the tick."""
    folder.mkdir(parents=True, exist_ok=True)
    sheet = np.full((round(A4[1] * PX_PER_MM), round(A4[0] * PX_PER_MM), 3), 255, np.uint8)
    side = round(MARKER_MM * PX_PER_MM)
    cell = round((MARKER_MM + 10) * PX_PER_MM)
    margin = round(10 * PX_PER_MM)
    columns = (sheet.shape[1] - 2 * margin) // cell
    stickers = [MITS_ID] + [n for n in sorted(CODES) if n != MITS_ID for _ in range(2)]
    for index, number in enumerate(stickers):
        row, column = divmod(index, columns)
        x, y = margin + column * cell, margin + row * cell
        sheet[y : y + side, x : x + side] = marker(number, side)
        tip = np.array([[x - 25, y - 25], [x - 5, y - 25], [x - 25, y - 5]], np.int32)
        cv2.fillPoly(sheet, [tip], (0, 0, 0))  # this corner goes to the tick
        cv2.putText(
            sheet, CODES[number], (x, y + side + 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 2
        )
    path = folder / "globular-cluster-stickers.png"
    if not cv2.imwrite(str(path), sheet):
        raise OSError(f"could not write {path}")
    return [path]
