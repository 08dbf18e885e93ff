"""The independent Local Cluster kit renderer: picture size, truth shape, repeatability, and
that its occlusion truth follows the hands and highlights it draws."""

from __future__ import annotations

import random

import numpy as np

from benchmarks.local_cluster_kit_renders import SLOT_NAMES, LcRender, render

SMALL = (640, 360)


def _picture(seed: int, *, hand: bool, glare: bool, tiles: int = 4) -> LcRender:
    """The picture of ``seed`` (found once among the first 200 to have a hand or not, glare
    or not, as asked), checked to be so."""
    r = render(random.Random(seed), size=SMALL, tiles=tiles)
    assert ("hand" in r.description) == hand and ("glare" in r.description) == glare
    return r


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
    r = _picture(13, hand=False, glare=False)
    assert all(t.marker_visible for t in r.tiles)
    assert not any(s.occluded for t in r.tiles for s in t.slots)


def test_without_hands_slots_are_occluded_only_by_glare() -> None:
    r = _picture(0, hand=False, glare=True)
    assert len(r.tiles) == 4 and all(t.marker_visible for t in r.tiles)
    assert [s.slot for t in r.tiles for s in t.slots if s.occluded]


def test_a_hand_over_a_tile_occludes_its_slots() -> None:
    r = _picture(3, hand=True, glare=False, tiles=2)
    assert not any(t.marker_visible for t in r.tiles)
    assert sum(s.occluded for t in r.tiles for s in t.slots) >= 12


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
