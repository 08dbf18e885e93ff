"""Colour conversion on the 1080p path (issue 18's speed target)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.local_cluster.colour import (
    CARD_SCALE,
    LINEAR,
    PROBE_INSET,
    _region,
    _side_boxes,
    _swatch_pixels,
    lab,
    linear_rgb,
    median,
    percentile,
)
from vision.local_cluster.kit import load_kit


def test_lab_of_many_points_converts_them_as_one_row_not_one_column(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 1080p scan converts about 115,000 sample points to Lab at once; laid out as a
    column of one-pixel rows OpenCV took 12 times as long as one row (12 of ``slots.light``'s
    20 ms). What OpenCV is handed is checked, not the time it takes (a CPU-time ratio here
    failed under load)."""
    points = np.random.default_rng(18).random((115_000, 3), dtype=np.float32)
    row = np.ascontiguousarray(points.reshape(1, -1, 3))
    expected = cv2.cvtColor(row, cv2.COLOR_LRGB2Lab).reshape(-1, 3)
    shapes = []
    convert = cv2.cvtColor

    def recorded(image: npt.NDArray[np.float32], code: int) -> npt.NDArray[np.float32]:
        shapes.append(image.shape)
        out: npt.NDArray[np.float32] = convert(image, code)
        return out

    monkeypatch.setattr(cv2, "cvtColor", recorded)
    np.testing.assert_allclose(lab(points), expected, atol=1e-3)
    assert shapes == [(1, 115_000, 3)]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([np.float32, np.float64]).flatmap(
        lambda dtype: arrays(
            dtype,
            st.tuples(st.integers(1, 4), st.integers(1, 40)),
            elements=st.floats(0, 4, width=32),
        )
    ),
    st.sampled_from([0, 10, 50, 90, 100]),
    st.sampled_from([0, 1]),
)
def test_the_scans_median_and_percentile_are_numpys(
    values: npt.NDArray[np.floating], q: int, axis: int
) -> None:
    """The card's and the tiles' medians and percentiles skip numpy's checks for speed; the
    values must stay numpy's, to the bit and in the same type."""
    for ours, theirs in (
        (median(values, axis=axis), np.median(values, axis=axis)),
        (percentile(values, q, axis=axis), np.percentile(values, q, axis=axis)),
    ):
        assert ours.dtype == theirs.dtype
        assert np.array_equal(ours, theirs)


@settings(max_examples=40, deadline=None)
@given(arrays(np.uint8, st.tuples(st.integers(1, 30), st.integers(1, 30), st.just(3))))
def test_linear_light_of_bgr_pixels_is_the_lookup_tables(pixels: npt.NDArray[np.uint8]) -> None:
    """The sampled points and the card are made linear with OpenCV's table look-up (speed);
    the values must stay those of ``LINEAR`` indexed in R, G, B order, to the bit."""
    ours = linear_rgb(pixels)
    assert ours.dtype == np.float32
    assert np.array_equal(ours, LINEAR[pixels[..., ::-1]])
    assert np.array_equal(linear_rgb(pixels.reshape(-1, 3)), LINEAR[pixels.reshape(-1, 3)[:, ::-1]])
    white = np.array([0.9, 0.7, 0.45], np.float32)
    assert np.array_equal(linear_rgb(pixels, white), LINEAR[pixels[..., ::-1]] / white)


def test_the_cards_swatches_are_read_from_the_same_pixels_all_at_once() -> None:
    """``read_card`` takes every swatch's medians in one partition (speed), through index
    arrays; they must pick the very pixels, in the same order, that reading each swatch's
    ring, black square and four sides region by region picks."""
    spec = load_kit().card
    copy = np.random.default_rng(18).random(
        (round(spec.size[1] * CARD_SCALE), round(spec.size[0] * CARD_SCALE), 3), dtype=np.float32
    )
    lum = copy.sum(axis=2)
    outer, inner = spec.swatch_side / 2 - PROBE_INSET, spec.probe_side / 2 + PROBE_INSET
    probe = spec.probe_side / 2 - PROBE_INSET
    centres = tuple(spec.swatches.values())
    where = _swatch_pixels(centres, outer, inner, probe, lum.shape)
    flat = copy.reshape(-1, 3)
    for i, at in enumerate(centres):
        assert np.array_equal(flat[where.rings[i]], _region(copy, at, outer, inner))
        assert np.array_equal(flat[where.blacks[i]], _region(copy, at, probe))
        for side, (x0, y0, x1, y1) in zip(where.sides, _side_boxes(at, outer, inner), strict=True):
            s = CARD_SCALE
            block = lum[round(y0 * s) : round(y1 * s), round(x0 * s) : round(x1 * s)]
            assert np.array_equal(lum.reshape(-1)[side[i]], block.ravel())
            assert float(median(lum.reshape(-1)[side[i]])) == float(median(block.ravel()))
