"""The table screen draws each tile's quarter turn (ruling R2.1), the way the camera expects
the tile to lie: a bar along the edge its face's top points to."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from companion.local_cluster.atoms import SectorId
from companion.local_cluster.galaxy import Galaxy, Tile
from vision.photograph import rotation
from web.games.local_cluster import board_svg, key_items

SVG = "{http://www.w3.org/2000/svg}"


def _galaxy() -> Galaxy:
    tiles = {
        SectorId("S1"): Tile(0, 0, 0, 0),
        SectorId("S14"): Tile(1, 0, 1, 1),
        SectorId("S27"): Tile(1, 1, 2, 2),
        SectorId("S40"): Tile(0, 1, 3, 3),
    }
    return Galaxy.from_tiles(tiles, {sid: 2 for sid in tiles})


def _centre(rect: ET.Element) -> tuple[float, float]:
    x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
    return x + float(rect.attrib["width"]) / 2, y + float(rect.attrib["height"]) / 2


def test_r2_1_the_screen_draws_the_top_of_each_tile_where_its_quarter_turn_puts_it() -> None:
    galaxy = _galaxy()
    root = ET.fromstring(str(board_svg(None, galaxy.to_dict())))
    drawn = 0
    for group in root.iter(f"{SVG}g"):
        sector = group.attrib.get("data-sector")
        if sector is None:
            continue
        tile = next(r for r in group.iter(f"{SVG}rect") if r.attrib.get("class") == "tile")
        tops = [r for r in group.iter(f"{SVG}rect") if r.attrib.get("class") == "tile-top"]
        assert len(tops) == 1
        (tx, ty), (bx, by) = _centre(tile), _centre(tops[0])
        half = float(tile.attrib["width"]) / 2
        # The camera's renderer turns a face's frame by rotation(90 * turns) (y down, as on
        # the screen), so the face's top, (0, -1) in its own frame, points here on the table.
        turns = galaxy.by_id[SectorId(sector)].tile.rotation  # type: ignore[union-attr]
        up = rotation(90.0 * turns) @ np.array([0.0, -1.0])
        outward = np.array([bx - tx, by - ty]) / half
        assert np.allclose(outward / np.linalg.norm(outward), up, atol=1e-9), sector
        assert 0.8 < np.linalg.norm(outward) < 1.0, "the bar lies inside the tile, at its edge"
        drawn += 1
    assert drawn == 4
    assert any(symbol == "━" for symbol, _ in key_items())


def test_r2_1_a_galaxy_without_tiles_draws_no_tops_and_its_key_says_none() -> None:
    galaxy = _galaxy().to_dict()
    for sector in galaxy["sectors"]:
        del sector["tile"]
    assert 'class="tile-top"' not in str(board_svg(None, galaxy))
    some = _galaxy().to_dict()
    del some["sectors"][0]["tile"]  # drawn on a plain grid: no turn of the table's to show
    assert 'class="tile-top"' not in str(board_svg(None, some))
    assert all(symbol != "━" for symbol, _ in key_items(tiles=False))
