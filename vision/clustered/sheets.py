"""``companion print-kit --game clustered OUTDIR``: the playable deck as printable sheets.

Every card of every colour of the default palette (27 attribute cards and three wild cards,
the third for K7.4), and the two start cards, each with its marker, drawn at 300 dpi on A4
sheets (true size when printed at 100 %), with thin cut lines; the sheets also go into one
``clustered-kit.pdf``. Cards are 64 mm squares: print on card stock and cut along the lines.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from companion.clustered.cards import START, Card, deck
from companion.clustered.settings import Palette
from vision.clustered.draw import bgr, card_face
from vision.clustered.kit import Kit, load_kit

CUT_LINE = (170, 170, 170)


def kit_cards(palette: Palette) -> list[tuple[Card, int]]:
    """Every printed card with its copy number (wild cards 0-2, start cards 0-1)."""
    out: list[tuple[Card, int]] = []
    for code in palette.codes:
        wild = 0
        for card in deck(code, 3):
            if card.is_wild:
                out.append((card, wild))
                wild += 1
            else:
                out.append((card, 0))
    out += [(START, 0), (START, 1)]
    return out


def write_kit(
    folder: Path, *, kit: Kit | None = None, palette: Palette | None = None
) -> list[Path]:
    """Write the sheets (PNG) and the PDF into ``folder``; the paths written, PDF last."""
    kit = kit or load_kit()
    palette = palette or Palette()
    folder.mkdir(parents=True, exist_ok=True)
    dpi = kit.sheet["dpi"]
    s = dpi / 25.4
    width, height = round(kit.sheet["width"] * s), round(kit.sheet["height"] * s)
    columns, rows = int(kit.sheet["columns"]), int(kit.sheet["rows"])
    side = round(kit.card_side * s)
    x0 = (width - columns * side) // 2
    y0 = (height - rows * side) // 2
    cards = kit_cards(palette)
    per_sheet = columns * rows
    written: list[Path] = []
    for number in range(math.ceil(len(cards) / per_sheet)):
        sheet = np.full((height, width, 3), 255, np.uint8)
        for slot, (card, copy) in enumerate(cards[number * per_sheet : (number + 1) * per_sheet]):
            row, column = divmod(slot, columns)
            face = card_face(kit, card, palette, s=s, copy=copy)
            x, y = x0 + column * side, y0 + row * side
            sheet[y : y + side, x : x + side] = face[:side, :side]
        for column in range(columns + 1):
            x = x0 + column * side
            cv2.line(sheet, (x, 0), (x, height), bgr(CUT_LINE), 1)
        for row in range(rows + 1):
            y = y0 + row * side
            cv2.line(sheet, (0, y), (width, y), bgr(CUT_LINE), 1)
        label = f"Clustered camera kit, sheet {number + 1}: print at 100 %, cards 64 mm"
        cv2.putText(sheet, label, (x0, y0 - 20), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (90, 90, 90), 2)
        path = folder / f"clustered-kit-{number + 1:02d}.png"
        cv2.imwrite(str(path), sheet, [cv2.IMWRITE_PNG_COMPRESSION, 6])
        written.append(path)
    import img2pdf

    pdf = folder / "clustered-kit.pdf"
    layout = img2pdf.get_fixed_dpi_layout_fun((dpi, dpi))
    pdf.write_bytes(img2pdf.convert([str(p) for p in written], layout_fun=layout))
    written.append(pdf)
    return written


KIT = write_kit
"""The registration's ``kit`` (a :data:`vision.readers.KitWriter`)."""
