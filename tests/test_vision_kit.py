"""The printable kit (docs/physical-kit.md): what ``companion print-kit`` writes is what the
document and the kit description say, at true size."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.local_cluster.atoms import Colour, UnitType
from vision.local_cluster import printing
from vision.local_cluster.kit import load_kit
from vision.local_cluster.sheets import BOX, MINERALS, PX_PER_MM, face_sheets, token_sheets

KIT = load_kit()


@pytest.fixture(scope="module")
def kit_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.cli import main

    folder = tmp_path_factory.mktemp("kit")
    assert main(["print-kit", str(folder)]) == 0
    return folder


def test_print_kit_writes_every_sheet_and_one_pdf_of_them(kit_folder: Path) -> None:
    names = sorted(p.name for p in kit_folder.iterdir())
    faces = [n for n in names if n.startswith("faces-")]
    tokens = [n for n in names if n.startswith("tokens-")]
    assert len(faces) == 24 and len(tokens) == 2 * len(Colour) + 1
    assert "calibration-card.png" in names
    pdf = (kit_folder / "kit.pdf").read_bytes()
    pages = re.findall(rb"/Type\s*/Page\b", pdf)
    assert pdf.startswith(b"%PDF") and len(pages) == len(names) - 1


def test_every_face_carries_its_own_marker_at_true_size() -> None:
    """The marker is printed with the face, so it cannot be stuck on turned (issue 18)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, KIT.dictionary))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    seen: list[int] = []
    for sheet in face_sheets(KIT):
        small = cv2.resize(sheet, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        corners, ids, _ = detector.detectMarkers(small)
        seen += ids.ravel().tolist()
        for quad in corners:
            top = quad[0][1] - quad[0][0]
            assert abs(np.linalg.norm(top) * 4 / PX_PER_MM - KIT.marker_side) < 1.0
            assert abs(top[1]) < 2  # upright on the sheet, as the slots are
    assert sorted(seen) == list(range(KIT.sectors[0], KIT.sectors[1] + 1))


@pytest.mark.parametrize("s", [2.0, 3.0, 5.0, PX_PER_MM])
def test_a_printed_shape_covers_its_true_area_at_any_resolution(s: float) -> None:
    """OpenCV's anti-aliased fill covers 0.7 of a pixel more than the polygon on every side:
    a face's 54 mm white square covered 54.7 mm at 2 pixels a millimetre, 54.3 at 5, so the
    renderer drew every white square, outline and token that much too large, and the sheets
    too (0.12 mm at print resolution). Each shape is drawn that much inside its outline."""
    face = printing.face(KIT, 5, s, bleed=0)
    tile = float(printing.bgr(KIT.printed["tile"])[1])
    paper = float(printing.bgr(KIT.printed["paper"])[1])
    half = KIT.tile_side / 2
    # Across the white square above the marker, in the middle of the white band.
    y = half - (KIT.marker_side + KIT.white_side) / 4
    row = face[int(y * s)].astype(float)[:, 1]
    x0, x1 = int((half - 35) * s), int((half + 35) * s)
    white = np.clip((row[x0:x1] - tile) / (paper - tile), 0, 1).sum() / s
    assert abs(white - KIT.white_side) < 0.05


@pytest.mark.parametrize("number", [1, 13, 25, 37])
def test_a_face_prints_every_slot_outline_where_the_kit_says(number: int) -> None:
    s = 10.0
    face = printing.face(KIT, number, s, bleed=0)
    line = np.array(printing.bgr(KIT.printed["slot_line"]), float)
    tile = np.array(printing.bgr(KIT.printed["tile"]), float)
    half = KIT.tile_side / 2
    for slot in KIT.variants[KIT.variant_of(number)]:
        cx, cy = slot.centre
        at_centre = face[int((cy + half) * s), int((cx + half) * s)].astype(float)
        assert np.abs(at_centre - tile).max() < 2, slot.name
        # On the outline: straight below the centre for a triangle's base or a hexagon's
        # flat bottom, and for a circle.
        y = cy + slot.inradius
        on = face[round((y + half) * s), int((cx + half) * s)].astype(float)
        assert np.abs(on - line).max() < 2, slot.name


def test_tokens_come_in_the_boxs_numbers_at_their_printed_size() -> None:
    sheets = token_sheets(KIT, Colour.RED)
    body = sheets[0][round(8 * PX_PER_MM) :]  # below the caption
    mask = np.any(body < 200, axis=2).astype(np.uint8)  # printed, not paper
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    sizes = sorted(stats[1:, cv2.CC_STAT_WIDTH] / PX_PER_MM)
    assert count - 1 == BOX["claim"] + BOX["craft"]
    craft = KIT.token(next(s for s in KIT.variants[0] if s.kind == "craft"))
    claim = KIT.token(next(s for s in KIT.variants[0] if s.kind == "claim"))
    # The colour reaches the bleed beyond the cut line: a disc's width is its diameter and
    # two bleeds; a triangle's its side and two bleeds over cos 30.
    assert abs(sizes[0] - (2 * craft.radius + 2 * KIT.token_bleed)) < 0.5
    side = claim.radius * 3**0.5
    assert abs(sizes[-1] - (side + 2 * KIT.token_bleed / np.cos(np.pi / 6) * 1.5)) < 1.5
    assert sum(BOX[kind] for kind in UnitType) == 48
    assert MINERALS == 176


def test_the_glyphs_are_the_sizes_the_document_gives() -> None:
    unit = next(s for s in KIT.variants[0] if s.kind == "unit")
    s = 20.0
    image, half = printing.token(
        KIT, unit, s, colour=KIT.colours["white"], unit=UnitType.BATTLESHIP
    )
    ink = np.all(image.astype(int) < 40, axis=2)
    row = ink[round(half * s)]
    # The disc's width across the middle (the cut line at the token's edge is ink too).
    middle = row[round(half * s) - 200 : round(half * s) + 200]
    width = int(middle.sum()) / s
    assert abs(width - 2 * 0.62 * KIT.token(unit).inradius) < 0.3
