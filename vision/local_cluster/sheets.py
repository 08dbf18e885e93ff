"""``companion print-kit``: Local Cluster's whole camera kit on A4 sheets at true size (the
registration's ``kit``; docs/physical-kit.md says what to do with each sheet).

* ``faces-01.png`` ... ``faces-24.png``: the 48 tile faces, two a sheet, each with its marker
  printed in (so it cannot be stuck on turned), its background bled 2 mm past the cut line,
  and crop marks at its corners;
* ``tokens-<colour>-1.png`` (48 claims, 24 strike craft) and ``tokens-<colour>-2.png``
  (24 destroyers, 16 battleships, 8 carriers) for each of the eight colours, the box's counts
  (rulebook 2.3, 2.4), each token with its colour bled past a thin black cut line;
* ``tokens-minerals.png``: the 176 mineral tokens;
* ``calibration-card.png``: the card, with its cut line;
* ``kit.pdf``: all of them, one page each, at 300 dots per inch (img2pdf wraps the PNGs
  losslessly, so a printer at 100 % prints true millimetres).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import Colour, UnitType
from vision.local_cluster import printing
from vision.local_cluster.kit import Kit, SlotSpec, load_kit

Image = npt.NDArray[np.uint8]
DPI = 300
PX_PER_MM = DPI / 25.4
A4 = (210.0, 297.0)
MARGIN = 8.0
CROP_MARK = (2.0, 6.0)
"""Crop marks start this far beyond the bleed and are this long (mm)."""
BOX = {
    "claim": 48,
    UnitType.DESTROYER: 24,
    UnitType.BATTLESHIP: 16,
    UnitType.CARRIER: 8,
    "craft": 24,
}
"""Tokens of each colour in the box (rulebook 2.3 and 2.4)."""
MINERALS = 176


def _sheet(kit: Kit, caption: str) -> Image:
    sheet = np.full((round(A4[1] * PX_PER_MM), round(A4[0] * PX_PER_MM), 3), 255, np.uint8)
    printing.label(
        sheet, caption, (A4[0] / 2, MARGIN / 2 + 1), 2.6, kit.printed["ink"], PX_PER_MM, (0, 0)
    )
    return sheet


def _place(sheet: Image, patch: Image, centre: tuple[float, float], *, under: bool = False) -> None:
    """Put ``patch`` centred on ``centre`` (mm); ``under`` keeps what is already darker."""
    h, w = patch.shape[:2]
    x = round(centre[0] * PX_PER_MM - w / 2)
    y = round(centre[1] * PX_PER_MM - h / 2)
    roi = sheet[y : y + h, x : x + w]
    roi[:] = np.minimum(roi, patch) if under else patch


def _crop_marks(
    sheet: Image, kit: Kit, centre: tuple[float, float], *, up: bool, down: bool
) -> None:
    """Thin lines continuing the cut lines of a face beyond its bleed: to the left and
    right at every corner, and up or down where the sheet has room."""
    gap, length = CROP_MARK
    s = PX_PER_MM
    cx, cy = centre
    half = kit.tile_side / 2
    ink = kit.printed["ink"]
    start = kit.bleed + gap
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = cx + sx * half, cy + sy * half
            ways = [(sx, 0)] + ([(0, sy)] if (sy < 0 and up) or (sy > 0 and down) else [])
            for dx, dy in ways:
                a = (x + dx * start, y + dy * start)
                b = (x + dx * (start + length), y + dy * (start + length))
                cv2.line(
                    sheet,
                    (round(a[0] * s), round(a[1] * s)),
                    (round(b[0] * s), round(b[1] * s)),
                    printing.bgr(ink),
                    max(1, round(0.2 * s)),
                    cv2.LINE_AA,
                )


def face_sheets(kit: Kit) -> list[Image]:
    """Two tile faces a sheet, in sector order."""
    numbers = list(range(kit.sectors[0], kit.sectors[1] + 1))
    sheets = []
    pitch = kit.tile_side + 2 * kit.bleed + 6.0
    for start in range(0, len(numbers), 2):
        pair = numbers[start : start + 2]
        sheet = _sheet(
            kit,
            f"Local Cluster camera kit v{kit.version}: tile faces "
            + " and ".join(f"S{n}" for n in pair)
            + f". Print at 100 %; cut each {kit.tile_side:g} mm square along its crop marks.",
        )
        for i, number in enumerate(pair):
            centre = (A4[0] / 2, A4[1] / 2 + (i - 0.5) * pitch)
            _place(sheet, printing.face(kit, number, PX_PER_MM), centre)
            _crop_marks(sheet, kit, centre, up=False, down=i == len(pair) - 1)
        sheets.append(sheet)
    return sheets


def _grid(count: int, pitch: tuple[float, float], top: float) -> Iterator[tuple[float, float]]:
    across = int((A4[0] - 2 * MARGIN) // pitch[0])
    left = (A4[0] - across * pitch[0]) / 2 + pitch[0] / 2
    for i in range(count):
        yield (left + (i % across) * pitch[0], top + (i // across) * pitch[1] + pitch[1] / 2)


def _slot(kit: Kit, kind: str) -> SlotSpec:
    return next(s for s in kit.variants[0] if s.kind == kind)


def token_sheets(kit: Kit, colour: Colour) -> list[Image]:
    """One colour's tokens on two sheets: claims and strike craft; units."""
    rgb = kit.colours[colour.value]
    s = PX_PER_MM
    first = _sheet(
        kit,
        f"Local Cluster camera kit v{kit.version}: {colour.value} claims ({BOX['claim']}) and "
        f"strike craft ({BOX['craft']}). Print at 100 %; cut along the black lines.",
    )
    claim, _ = printing.token(kit, _slot(kit, "claim"), s, colour=rgb)
    for at in _grid(BOX["claim"], (31.0, 28.0), MARGIN + 4):
        _place(first, claim, at, under=True)
    craft, _ = printing.token(kit, _slot(kit, "craft"), s, colour=rgb)
    rows = -(-BOX["claim"] // int((A4[0] - 2 * MARGIN) // 31.0))
    for at in _grid(BOX["craft"], (13.5, 13.5), MARGIN + 8 + rows * 28.0):
        _place(first, craft, at, under=True)
    second = _sheet(
        kit,
        f"Local Cluster camera kit v{kit.version}: {colour.value} destroyers "
        f"({BOX[UnitType.DESTROYER]}), battleships ({BOX[UnitType.BATTLESHIP]}), carriers "
        f"({BOX[UnitType.CARRIER]}). Print at 100 %; cut along the black lines.",
    )
    units = [kind for kind in UnitType for _ in range(BOX[kind])]
    patches = {
        kind: printing.token(kit, _slot(kit, "unit"), s, colour=rgb, unit=kind)[0]
        for kind in UnitType
    }
    for kind, at in zip(units, _grid(len(units), (32.0, 30.5), MARGIN + 4), strict=True):
        _place(second, patches[kind], at, under=True)
    return [first, second]


def mineral_sheet(kit: Kit) -> Image:
    sheet = _sheet(
        kit,
        f"Local Cluster camera kit v{kit.version}: {MINERALS} mineral tokens. Print at 100 %; "
        "cut along the black lines.",
    )
    patch, _ = printing.token(kit, _slot(kit, "mineral"), PX_PER_MM, colour=kit.printed["mineral"])
    for at in _grid(MINERALS, (14.5, 13.5), MARGIN + 4):
        _place(sheet, patch, at, under=True)
    return sheet


def card_sheet(kit: Kit) -> Image:
    sheet = _sheet(
        kit,
        f"Local Cluster camera kit v{kit.version}: the calibration card. Print at 100 % on the "
        "paper and printer of the tokens; cut along the black line.",
    )
    card = np.ascontiguousarray(np.rot90(printing.card(kit, PX_PER_MM, margin=1.0)))
    _place(sheet, card, (A4[0] / 2, A4[1] / 2 + 2))
    return sheet


def sheets(kit: Kit) -> Iterator[tuple[str, Image]]:
    """Every sheet of the kit with its file name, one at a time."""
    for i, sheet in enumerate(face_sheets(kit)):
        yield f"faces-{i + 1:02d}.png", sheet
    for colour in Colour:
        for i, sheet in enumerate(token_sheets(kit, colour)):
            yield f"tokens-{colour.value}-{i + 1}.png", sheet
    yield "tokens-minerals.png", mineral_sheet(kit)
    yield "calibration-card.png", card_sheet(kit)


def write_kit(folder: Path, kit: Kit | None = None) -> list[Path]:
    """Write every sheet as PNG and all of them as ``kit.pdf``; the paths written."""
    import img2pdf

    kit = kit or load_kit()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, image in sheets(kit):
        path = folder / name
        ok, data = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 3])
        if not ok:  # pragma: no cover - encoding a plain array does not fail
            raise OSError(f"could not encode {name}")
        path.write_bytes(data.tobytes())
        written.append(path)
    pdf = folder / "kit.pdf"
    layout = img2pdf.get_fixed_dpi_layout_fun((DPI, DPI))
    pdf.write_bytes(img2pdf.convert([str(p) for p in written], layout_fun=layout))
    written.append(pdf)
    return written
