"""A lens that bows straight lines (issue 18): each tile's slots are placed at the size its
marker shows, fitted across the picture, and the slots that size moves still read nothing
wrong."""

from __future__ import annotations

import pytest
from vision_pictures import benchmark_picture, drawn_apart

from benchmarks.local_cluster_kit_renders import LcRender
from benchmarks.vision import boards
from benchmarks.vision_kit_renders import _Picture
from vision.local_cluster import recognize as recognize_module
from vision.local_cluster.recognize import recognize


@pytest.fixture(scope="module")
def picture_2() -> LcRender:
    """2.76 px/mm, a lens that bows lines (k1 -0.045), S9 near the picture's corner."""
    return drawn_apart(2)


def _read(picture: LcRender, sector: str) -> tuple[list[str], list[str]]:
    """Tile ``sector``'s visible slots read right, and any slot read wrong."""
    truth = _Picture(picture)
    found = recognize(picture.image, expected=tuple(truth.tiles))
    tile = found.scan.tile(sector)
    assert tile is not None
    want = truth.tiles[sector]
    right = [
        r.slot for r in tile.slots if r.known and want.drawn(r) and r.slot not in want.occluded
    ]
    wrong = [f"{r.slot} {r.describe()}" for r in tile.slots if r.known and not want.drawn(r)]
    return right, wrong


def test_a_tile_near_the_corner_of_a_bowing_lens_is_read_at_its_own_size(
    picture_2: LcRender, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Picture 2 drawn apart from the recognizer (``python -m benchmarks.vision_kit_renders``):
    one plane through every marker puts S9's outermost strike craft 1-1.5 mm outside where
    they show; at the size the fit across the lens gives its marker, all twelve of its slots
    read right. At the plane's size three empty craft outlines show too faintly to read."""
    right, wrong = _read(picture_2, "S9")
    assert wrong == []
    assert len(right) == 12
    monkeypatch.setattr(recognize_module, "_marker_scales", lambda *args: {})
    right, wrong = _read(picture_2, "S9")
    assert wrong == []
    assert {"craft1", "craft5", "craft6"}.isdisjoint(right)


def test_a_body_nearer_a_tokens_colour_than_bare_tile_is_never_empty() -> None:
    """`lamps` 53 picture 26 (0.94 px/mm): S43's purple battleship on a dark tile lies 21.8
    from purple and less than 10 nearer it than bare tile, its hue 16.0 from the tile's, at
    the edge of the empty test; with the sizes fitted it read empty. A body nearer a token's
    colour than bare tile is no bare tile: unknown."""
    picture, sectors = benchmark_picture(boards(27, 53, "lamps")[26])
    assert picture.tiles["S43"].slots["unit"].describe() == "purple battleship"
    tile = recognize(picture.image, expected=sectors).scan.tile("S43")
    assert tile is not None
    assert {s.slot: s.describe() for s in tile.slots}["unit"] in ("unknown", "purple battleship")
