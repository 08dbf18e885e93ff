"""Cluster's printable kit (``companion print-kit --game cluster``): both boards at true size.

Each board is an A4 landscape page at 300 dots per inch: every hole at its place (spacing from
the kit), deep holes with their bevel printed as a grey ring, shallow holes with a thin ring,
the rows and numbers in the margins, and an ArUco marker on a white sticker square at each
corner. ``kit.pdf`` holds both pages (img2pdf, lossless, at 300 dpi: print at 100 % for true
millimetres). Glue a page on card or wood and drill the holes (deep ones deeper), or lay it
beside a bought board to calibrate the camera.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from companion.cluster_peg.board import BOARDS, Board
from vision.cluster.kit import Kit, load_kit

Image = npt.NDArray[np.uint8]
DPI = 300
PX_PER_MM = DPI / 25.4
PAGE = (297.0, 210.0)
"""A4 landscape, millimetres."""


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _at(point: tuple[float, float], origin: tuple[float, float], s: float) -> tuple[int, int]:
    return round((point[0] - origin[0]) * s * 16), round((point[1] - origin[1]) * s * 16)


def marker_image(kit: Kit, marker: int, side_px: int) -> Image:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, kit.dictionary))
    cells = 7  # 5 x 5 bits and a one-cell border
    raw = cv2.aruco.generateImageMarker(
        dictionary, marker, cells * max(1, side_px // cells + 1), borderBits=1
    )
    out: Image = cv2.resize(raw, (side_px, side_px), interpolation=cv2.INTER_NEAREST)
    return out


def draw_board(kit: Kit, board: Board, s: float, *, labels: bool = True) -> Image:
    """The printed board, top-down at ``s`` pixels a millimetre, covering ``kit.sheet_box``."""
    x0, y0, x1, y1 = kit.sheet_box(board)
    origin = (x0, y0)
    img = np.empty((round((y1 - y0) * s), round((x1 - x0) * s), 3), np.uint8)
    img[:] = _bgr(kit.printed["paper"])
    ink = _bgr(kit.printed["ink"])
    line = max(1, round(0.35 * s))
    for hole in range(board.size):
        centre = _at(kit.hole_mm(board, hole), origin, s)
        if board.is_deep(hole):
            radius = round(kit.bevel_diameter / 2 * s * 16)
            cv2.circle(img, centre, radius, _bgr(kit.printed["bevel"]), -1, cv2.LINE_AA, 4)
        else:
            radius = round(kit.shallow_ring / 2 * s * 16)
            cv2.circle(img, centre, radius, _bgr(kit.printed["ring"]), line, cv2.LINE_AA, 4)
        radius = round(kit.hole_diameter / 2 * s * 16)
        cv2.circle(img, centre, radius, _bgr(kit.printed["hole"]), -1, cv2.LINE_AA, 4)
    if labels:
        font = cv2.FONT_HERSHEY_SIMPLEX
        size = 0.16 * s
        ex0, ey0, ex1, ey1 = kit.extent(board)
        for row in range(len(board.row_lengths)):
            first = next(h for h in range(board.size) if board.rows[h] == row)
            x, y = kit.hole_mm(board, first)
            at = _at((ex0 - kit.spacing * 0.9, y + 1.6), origin, s)
            cv2.putText(
                img,
                "abcdefgh"[row],
                (at[0] // 16, at[1] // 16),
                font,
                size,
                ink,
                max(1, round(0.3 * s)),
                cv2.LINE_AA,
            )
        for number in range(1, max(board.row_lengths) + 1):
            x, _ = kit.hole_mm(board, number - 1)
            at = _at((x - 1.4, ey1 + kit.spacing * 0.75), origin, s)
            cv2.putText(
                img,
                str(number),
                (at[0] // 16, at[1] // 16),
                font,
                size,
                ink,
                max(1, round(0.3 * s)),
                cv2.LINE_AA,
            )
        title = f"Cluster {board.name}-hole board: deep holes have the grey bevel"
        at = _at(((ex0 + ex1) / 2 - 55, ey0 - kit.spacing * 0.8), origin, s)
        cv2.putText(
            img,
            title,
            (at[0] // 16, at[1] // 16),
            font,
            0.12 * s,
            ink,
            max(1, round(0.2 * s)),
            cv2.LINE_AA,
        )
    for marker, (cx, cy) in kit.marker_centres(board).items():
        half = kit.sticker_side / 2
        top_left = _at((cx - half, cy - half), origin, s)
        bottom_right = _at((cx + half, cy + half), origin, s)
        cv2.rectangle(img, top_left, bottom_right, (255, 255, 255), -1, cv2.LINE_AA, 4)
        side_px = round(kit.marker_side * s)
        mark = marker_image(kit, marker, side_px)
        left = round((cx - x0) * s - side_px / 2)
        top = round((cy - y0) * s - side_px / 2)
        img[top : top + side_px, left : left + side_px] = mark[:, :, None]
    return img


def page(kit: Kit, board: Board) -> Image:
    """An A4 landscape page with the board at true size in its middle."""
    sheet = np.full((round(PAGE[1] * PX_PER_MM), round(PAGE[0] * PX_PER_MM), 3), 255, np.uint8)
    drawn = draw_board(kit, board, PX_PER_MM)
    top = (sheet.shape[0] - drawn.shape[0]) // 2
    left = (sheet.shape[1] - drawn.shape[1]) // 2
    if top < 0 or left < 0:  # pragma: no cover - the kit is laid out to fit A4
        raise ValueError(f"the {board.title} does not fit an A4 page")
    sheet[top : top + drawn.shape[0], left : left + drawn.shape[1]] = drawn
    return sheet


def write_kit(folder: Path, kit: Kit | None = None) -> list[Path]:
    """Write both boards as PNG pages and together as ``kit.pdf``; the paths written."""
    import img2pdf

    kit = kit or load_kit()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ("64", "46"):
        path = folder / f"cluster-board-{name}.png"
        ok, data = cv2.imencode(".png", page(kit, BOARDS[name]))
        if not ok:  # pragma: no cover - encoding a plain array does not fail
            raise OSError(f"could not encode {path.name}")
        path.write_bytes(data.tobytes())
        written.append(path)
    pdf = folder / "kit.pdf"
    layout = img2pdf.get_fixed_dpi_layout_fun((DPI, DPI))
    pdf.write_bytes(img2pdf.convert([str(p) for p in written], layout_fun=layout))
    written.append(pdf)
    return written
