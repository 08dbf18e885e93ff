"""Printable kit sheets at true size: tile marker stickers, token stickers, the card.

Each sheet is an A4 PNG at 300 dots per inch; ``kit.pdf`` holds them all (img2pdf wraps the
PNGs losslessly at that resolution, so a printer at 100% scale prints true millimetres).
"""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import Colour, UnitType
from companion.local_cluster.board_scan import SlotReading, SlotState
from vision.local_cluster.kit import Kit, SlotSpec, load_kit
from vision.local_cluster.synthetic import draw_card, draw_token

Image = npt.NDArray[np.uint8]
DPI = 300
PX_PER_MM = DPI / 25.4
A4 = (210.0, 297.0)


def _sheet() -> Image:
    return np.full((round(A4[1] * PX_PER_MM), round(A4[0] * PX_PER_MM), 3), 255, np.uint8)


def _place(sheet: Image, patch: Image, x_mm: float, y_mm: float) -> None:
    x, y = round(x_mm * PX_PER_MM), round(y_mm * PX_PER_MM)
    sheet[y : y + patch.shape[0], x : x + patch.shape[1]] = patch


def marker_sheets(kit: Kit) -> list[Image]:
    """Tile marker stickers: the marker on its white square, the sector id beneath."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, kit.dictionary))
    side = kit.sticker_side
    # Stickers 2 mm apart in rows 12 mm apart (room for the label), inside 8 mm / 15 mm margins.
    per_row = int((A4[0] - 2 * 8 + 2) // (side + 2))
    rows = int((A4[1] - 2 * 15 + 12) // (side + 12))
    sheets = []
    numbers = list(range(kit.sectors[0], kit.sectors[1] + 1))
    for start in range(0, len(numbers), per_row * rows):
        sheet = _sheet()
        for i, n in enumerate(numbers[start : start + per_row * rows]):
            x = 8 + (i % per_row) * (side + 2)
            y = 15 + (i // per_row) * (side + 12)
            px = round(kit.marker_side * PX_PER_MM)
            marker = cv2.aruco.generateImageMarker(dictionary, n, px, borderBits=1)
            margin = (side - kit.marker_side) / 2
            _place(sheet, np.repeat(marker[:, :, None], 3, axis=2), x + margin, y + margin)
            box = (round(x * PX_PER_MM), round(y * PX_PER_MM))
            end = (round((x + side) * PX_PER_MM), round((y + side) * PX_PER_MM))
            cv2.rectangle(sheet, box, end, (200, 200, 200), 1)
            cv2.putText(
                sheet,
                f"S{n}  (variant {kit.variant_of(n)})",
                (box[0], end[1] + round(6 * PX_PER_MM)),
                cv2.FONT_HERSHEY_SIMPLEX,
                1.2,
                (0, 0, 0),
                2,
                cv2.LINE_AA,
            )
        sheets.append(sheet)
    return sheets


def token_sheet(kit: Kit) -> Image:
    """Per colour: a claim, the three unit glyphs, six strike craft; then mineral tokens."""
    sheet = _sheet()
    rng = random.Random(0)
    s = PX_PER_MM
    claim = SlotSpec("claim", "claim", "triangle", (0.0, 0.0), 16)
    unit = SlotSpec("unit", "unit", "hexagon", (0.0, 0.0), 14)
    craft = SlotSpec("craft", "craft", "circle", (0.0, 0.0), 5)
    mineral = SlotSpec("mineral", "mineral", "triangle", (0.0, 0.0), 6.9)
    for row, colour in enumerate(Colour):
        y = 22 + row * 32
        tokens = [(claim, SlotReading("claim", SlotState.TOKEN, colour), 20.0)]
        tokens += [
            (unit, SlotReading("unit", SlotState.TOKEN, colour, kind), 55.0 + 34 * i)
            for i, kind in enumerate(UnitType)
        ]
        tokens += [
            (craft, SlotReading("craft", SlotState.TOKEN, colour), 160.0 + 12 * i) for i in range(4)
        ]
        for spec, reading, x in tokens:
            draw_token(sheet, spec, reading, kit, s, (x, y), rng)
    for i in range(12):
        draw_token(
            sheet, mineral, SlotReading("m", SlotState.TOKEN), kit, s, (20.0 + 15 * i, 285.0), rng
        )
    return sheet


def write_kit(folder: Path, kit: Kit | None = None) -> list[Path]:
    """Write every sheet as PNG and all of them as ``kit.pdf``; the paths written."""
    import img2pdf

    kit = kit or load_kit()
    folder.mkdir(parents=True, exist_ok=True)
    sheets = [(f"markers-{i + 1}.png", sheet) for i, sheet in enumerate(marker_sheets(kit))]
    sheets.append(("tokens.png", token_sheet(kit)))
    card = _sheet()
    _place(card, np.ascontiguousarray(np.rot90(draw_card(kit, PX_PER_MM))), 15, 15)
    sheets.append(("calibration-card.png", card))
    written = []
    for name, image in sheets:
        path = folder / name
        ok, data = cv2.imencode(".png", image)
        if not ok:  # pragma: no cover - encoding a plain array does not fail
            raise OSError(f"could not encode {name}")
        path.write_bytes(data.tobytes())
        written.append(path)
    pdf = folder / "kit.pdf"
    layout = img2pdf.get_fixed_dpi_layout_fun((DPI, DPI))
    pdf.write_bytes(img2pdf.convert([str(p) for p in written], layout_fun=layout))
    written.append(pdf)
    return written
