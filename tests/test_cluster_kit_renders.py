"""The independent renderer of kit pictures (benchmarks/cluster_kit_renders.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from benchmarks.cluster_kit_renders import (
    Force,
    HoleTruth,
    _render,
    random_position,
    render,
)
from companion.cluster_peg.position import setup
from companion.cluster_peg.scan import Seen
from vision.cluster.kit import load_kit

SMALL = (640, 360)


def test_a_render_has_the_requested_size_and_one_truth_per_hole() -> None:
    position = setup("64B")
    drawn = render(position, random.Random(3), size=SMALL)
    assert drawn.image.shape == (360, 640, 3)
    assert drawn.image.dtype == np.uint8
    assert len(drawn.holes) == position.board.size
    assert all(isinstance(h, HoleTruth) for h in drawn.holes)
    assert [h.seen for h in drawn.holes] == [
        Seen.of(position.peg_at(hole)) for hole in range(position.board.size)
    ]
    assert drawn.description


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_straight_down_with_no_hands_or_glare_shows_every_hole(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng)
    calm = Force(tilt=0.0, hands=0, glares=0, shine=False)
    drawn = render(position, rng, size=SMALL, force=calm)
    assert all(h.visible and h.hidden_by is None for h in drawn.holes)


def test_visible_holes_have_no_reason_and_hidden_ones_have_one() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        drawn = render(random_position(rng), rng, size=SMALL)
        for h in drawn.holes:
            assert (h.hidden_by is None) == h.visible
            assert h.hidden_by in (None, "hand", "peg", "glare")


def test_a_hand_over_the_board_hides_the_holes_under_it() -> None:
    kit = load_kit()
    found_hidden = False
    for seed in range(6):
        rng = random.Random(100 + seed)
        position = random_position(rng)
        drawn, scene = _render(position, rng, SMALL, Force(hands=1, glares=0))
        tops = {peg.hole: peg.top for peg in scene.pegs}
        for hole, truth in enumerate(drawn.holes):
            x, y = kit.hole_mm(position.board, hole)
            for z in {0.0, tops.get(hole, 0.0)}:
                uv, _ = scene.camera.project(np.array([[x, y, z]]))
                u, v = (round(float(c)) for c in uv[0])
                if scene.hand_cover[v, u] > 128:
                    assert truth.hidden_by == "hand", (seed, hole)
                    found_hidden = True
            if truth.hidden_by == "hand":
                # some of the hand lies within the disc's reach in the picture
                near = scene.hand_cover[max(0, v - 40) : v + 40, max(0, u - 40) : u + 40]
                assert near.max() > 0
    assert found_hidden


def test_the_same_seed_gives_the_same_picture() -> None:
    position = setup("46")
    a = render(position, random.Random(11), size=SMALL)
    b = render(position, random.Random(11), size=SMALL)
    assert a.image.tobytes() == b.image.tobytes()
    assert a.holes == b.holes
    assert a.description == b.description
    c = render(position, random.Random(12), size=SMALL)
    assert c.image.tobytes() != a.image.tobytes()
