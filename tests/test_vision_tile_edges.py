"""A tile's printed edge line, probed where a pose puts it (issue 18): how a tile placed from
the camera's prior is checked against the picture when its slots cannot say."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from vision_pictures import render

from vision.local_cluster import tile_edges
from vision.local_cluster.kit import load_kit
from vision.local_cluster.plane import _similarities, _similarity
from vision.local_cluster.recognize import recognize
from vision.local_cluster.synthetic import Conditions, sample_state
from vision.local_cluster.tile_edges import Shown

KIT = load_kit()


@pytest.mark.parametrize("variant", range(len(KIT.variants)))
def test_every_side_is_probed_clear_of_the_slots_and_the_corners(variant: int) -> None:
    edge = tile_edges.probes(KIT, variant)
    half = KIT.tile_side / 2
    assert set(np.bincount(edge.side, minlength=4) >= tile_edges.LEAST) == {True}
    for slot in KIT.variants[variant]:
        for points in (edge.line, edge.face):
            apart = np.hypot(*(points - np.array(slot.centre)).T) - slot.radius
            assert apart.min() >= tile_edges.CLEAR
    assert np.abs(edge.line).max() == pytest.approx(half - KIT.line_width / 2)
    along = np.where(edge.side % 2 == 0, edge.line[:, 0], edge.line[:, 1])
    assert np.abs(along).max() <= half - tile_edges.CORNER


def test_a_tiles_edge_line_shows_all_round_only_where_its_pose_is_right() -> None:
    """Found by its marker, every tile's edge line shows along all four sides; the same tile
    posed 5 mm off shows at most one side across the move (the neighbour's line, 3-5 mm
    beyond), and 20 mm off (a row of slot outlines) none across it."""
    conditions = Conditions(seed=3, noise=1.0, jpeg=90, width=2304, height=1296, tile_gap=3.0)
    picture = render(sample_state(5, 3), conditions)
    found = recognize(picture.image, expected=list(picture.tiles))
    gray = cv2.cvtColor(picture.image, cv2.COLOR_BGR2GRAY)

    def contrasts(to_image: npt.NDArray[np.float64], variant: int) -> npt.NDArray[np.float32]:
        line, face = tile_edges.levels(gray, to_image, tile_edges.probes(KIT, variant))
        return line - face

    contrasts_of = {t.sector: contrasts(t.to_image, t.reading.variant) for t in found.tiles}
    typical = float(np.median([np.nanmedian(c) for c in contrasts_of.values()]))
    assert typical > 10
    moved = {
        dx: {
            t.sector: tile_edges.shown(
                contrasts(
                    t.to_image @ np.array([[1, 0, dx], [0, 1, 0], [0, 0, 1]], np.float64),
                    t.reading.variant,
                ),
                tile_edges.probes(KIT, t.reading.variant),
                typical,
            )
            for t in found.tiles
        }
        for dx in (0.0, 5.0, 20.0)
    }
    assert set(moved[0.0].values()) == {Shown.ALL}
    assert Shown.ALL not in set(moved[5.0].values())
    assert set(moved[20.0].values()) == {Shown.NONE}


def test_every_pose_is_turned_and_moved_as_its_own_similarity_says() -> None:
    """``tile_edges.sampled_at`` makes the poses' matrices all at once: the same numbers,
    bit for bit, as one ``_similarity`` a pose (numpy floats and quarter turns among them)."""
    poses = [
        ((0.0, 0.0), 0.0),
        ((12.5, -3.25), 33.3),
        ((np.float64(-40.1), np.float64(7.0)), np.float64(-90.0)),
        ((1e3, 2e3), 179.99),
        ((5.0, 5.0), 450.0),
    ]
    one_by_one = np.stack([_similarity(centre, angle) for centre, angle in poses])
    assert np.array_equal(_similarities(poses), one_by_one)


def test_points_off_the_picture_plane_read_nan_and_leave_the_others_as_they_were() -> None:
    """A point whose place is not finite (a pose turned out of the camera's plane) reads NaN;
    the others read what they read alone."""
    gray = np.random.default_rng(7).integers(0, 256, (120, 160), dtype=np.uint8)
    where = np.array(
        [[[10.2, 20.7], [np.nan, 5.0], [150.5, 100.25]], [[3.0, np.inf], [60.0, 60.0], [0.5, 0.5]]]
    )
    finite = np.isfinite(where).all(axis=-1)
    read = tile_edges.sampled(gray, where)
    assert np.isnan(read[~finite]).all()
    assert np.array_equal(read[finite], tile_edges.sampled(gray, where[finite]))
    assert read[1, 1] == gray[60, 60]  # a whole pixel reads its own grey
