"""A lens that bows straight lines (issue 18): each tile's slots are placed at the size its
marker shows, fitted across the picture, and, where the markers show the lens bowing strongly,
carried through the bowing they show (:mod:`vision.local_cluster.lens`); the slots either
moves still read nothing wrong."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from vision_pictures import benchmark_picture, drawn_apart, render

from benchmarks.local_cluster_kit_renders import LcRender
from benchmarks.vision import boards
from benchmarks.vision_kit_renders import _Picture
from vision.local_cluster import lens
from vision.local_cluster import recognize as recognize_module
from vision.local_cluster.recognize import recognize
from vision.local_cluster.synthetic import Conditions, sample_state


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
    monkeypatch.setattr(lens, "measured", lambda *args: None)
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


@pytest.fixture(scope="module")
def bowed() -> LcRender:
    """Seed 32's picture 38 drawn apart: 1.93 px/mm, five tiles, a 72-degree lens of k1
    -0.064 (in this module's units a bowing of -0.0445 across the picture's half diagonal),
    S38 toward the picture's corner."""
    return drawn_apart(38, 32)


def _bowing(picture: Any, monkeypatch: pytest.MonkeyPatch) -> list[lens.Lens | None]:
    """Each bowing :func:`recognize` measures in reading ``picture``."""
    seen: list[lens.Lens | None] = []
    measure = lens.measured

    def spy(*args: Any) -> lens.Lens | None:
        seen.append(measure(*args))
        return seen[-1]

    monkeypatch.setattr(lens, "measured", spy)
    recognize(picture.image, expected=tuple(t.sector for t in picture.tiles))
    return seen


def test_the_lens_bowing_is_measured_from_the_markers(
    bowed: LcRender, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bowing that makes the card's markers and the tiles' square markers fit one plane
    best is the lens's own: -0.0445 drawn (k1 -0.064, focal 1321 px, half diagonal 1101 px),
    within 0.005."""
    (found,) = _bowing(bowed, monkeypatch)
    assert found is not None
    assert found.bow == pytest.approx(-0.064 * (1101.4 / 1321.3) ** 2, abs=0.005)


def test_a_straight_lens_is_not_bowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Our own renderer's camera bows nothing: its markers fit one plane as well straight
    as bowed either way, and every tile keeps the plane's placing."""
    conditions = Conditions(seed=1, noise=1.0, jpeg=90, width=2304, height=1296)
    picture = render(sample_state(5, 3), conditions)
    seen: list[lens.Lens | None] = []
    measure = lens.measured
    monkeypatch.setattr(lens, "measured", lambda *args: seen.append(measure(*args)))
    recognize(picture.image, expected=tuple(picture.tiles))
    assert seen == [None]


def test_the_far_slots_of_a_tile_in_a_strongly_bowing_lens_read_where_they_show(
    bowed: LcRender, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S38 lies toward the picture's corner: one scale across it puts four of its empty
    strike craft slots 1.5-2 mm off their printed rings, too faint to call empty; carried
    through the bowing the markers show, they read empty, and nothing reads wrong."""
    right, wrong = _read(bowed, "S38")
    assert wrong == []
    assert {"craft1", "craft2", "craft4", "craft6"} <= set(right)
    monkeypatch.setattr(lens, "measured", lambda *args: None)
    right, wrong = _read(bowed, "S38")
    assert wrong == []
    assert {"craft1", "craft2", "craft4", "craft6"}.isdisjoint(right)


@pytest.mark.parametrize("bow", [-0.08, -0.03, 0.03, 0.08])
def test_straightening_undoes_the_bowing(bow: float) -> None:
    """Across a 1080p frame to its corners, a point bowed and straightened again lies within
    a thousandth of a pixel of where it was."""
    seen = lens.Lens(bow, (959.5, 539.5), math.hypot(1920, 1080) / 2, np.eye(3))
    xs, ys = np.meshgrid(np.linspace(0, 1919, 9), np.linspace(0, 1079, 7))
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    assert np.abs(seen.straightened(seen.bowed(points)) - points).max() < 1e-3
