"""Which way a triangle slot points, token or not (issue 18): a claim token covers the empty
outline that would say which way a face lies, but not its own shape."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.local_cluster import token_turn
from vision.local_cluster.kit import SlotSpec, load_kit

FACE = (54, 38, 34)  # the kit's face background #222636, as BGR
LINE = (144, 112, 104)  # the slot-line colour #687090
BLUE = (150, 60, 30)
PX_PER_MM = 1.2
CENTRE = 60.0  # where the slot's centre lies in the picture (px)


def _to_image(turn: float = 0.0) -> np.ndarray:
    """Tile mm to picture pixels: PX_PER_MM, the tile frame turned ``turn`` degrees
    clockwise, the slot's centre at (CENTRE, CENTRE)."""
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return np.array(
        [[PX_PER_MM * c, -PX_PER_MM * s, CENTRE], [PX_PER_MM * s, PX_PER_MM * c, CENTRE], [0, 0, 1]]
    )


def _drawn(
    token: SlotSpec | None, *, shift: tuple[float, float] = (0, 0), turn: float = 0.0
) -> np.ndarray:
    """A claim slot's outline on the face, and ``token`` (if any) on it, moved ``shift`` mm
    and turned ``turn`` degrees as a hand leaves a token; blurred a little, as a lens does."""
    image = np.full((120, 120, 3), FACE, np.uint8)
    claim = _claim()

    def px(points: list[tuple[float, float]], dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
        at = [(CENTRE + PX_PER_MM * (x + dx), CENTRE + PX_PER_MM * (y + dy)) for x, y in points]
        return np.round(np.array(at) * 16).astype(np.int32)

    cv2.polylines(image, [px(claim.outline())], True, LINE, 2, cv2.LINE_AA, shift=4)
    if token is not None:
        cv2.fillPoly(image, [px(token.outline(turn), *shift)], BLUE, cv2.LINE_AA, shift=4)
    return cv2.GaussianBlur(image, (0, 0), 0.8)


def _claim() -> SlotSpec:
    return SlotSpec("claim", "claim", "triangle", (0.0, 0.0), 16.0)


def _token(shape: str, radius: float) -> SlotSpec:
    return SlotSpec("claim", "claim", shape, (0.0, 0.0), radius)


def test_a_claim_token_points_up_its_tiles_frame() -> None:
    """A dark blue claim token on its slot (the kit's 0.94: a 15.04 mm circumradius) points
    up the frame it was placed in, and not up a frame a quarter or half turn from it: the
    turn a face lies at is told by a token as by an empty outline."""
    image = _drawn(_token("triangle", 15.04))
    up = token_turn.turn_scores(image, _to_image(), _claim())
    assert up is not None and token_turn.points_up(up)
    assert max(range(4), key=lambda k: up[k]) == 0
    for quarter in (90.0, 180.0, 270.0):
        assert not token_turn.points_up(token_turn.turn_scores(image, _to_image(quarter), _claim()))


@pytest.mark.parametrize(("shift", "turn"), [((3.0, 0.0), 0.0), ((-2.0, 2.0), 10.0)])
def test_a_claim_token_a_hand_left_off_still_points_up(
    shift: tuple[float, float], turn: float
) -> None:
    """Up to 3 mm off its slot's centre and 10 degrees turned (``docs/physical-kit.md``)."""
    image = _drawn(_token("triangle", 15.04), shift=shift, turn=turn)
    assert token_turn.points_up(token_turn.turn_scores(image, _to_image(), _claim()))


def test_an_empty_claim_outline_points_up_too() -> None:
    assert token_turn.points_up(token_turn.turn_scores(_drawn(None), _to_image(), _claim()))


def test_a_hexagon_points_no_way_a_triangle_does() -> None:
    """A unit token (a hexagon, 13.16 mm inradius) where a way puts the claim: no triangle
    shows, whichever way is asked."""
    image = np.full((120, 120, 3), FACE, np.uint8)
    hexagon = _token("hexagon", 13.16).outline()
    at = [(CENTRE + PX_PER_MM * x, CENTRE + PX_PER_MM * y) for x, y in hexagon]
    cv2.fillPoly(image, [np.round(np.array(at)).astype(np.int32)], BLUE)
    for quarter in (0.0, 90.0, 180.0, 270.0):
        scores = token_turn.turn_scores(image, _to_image(quarter), _claim())
        assert not token_turn.points_up(scores)


def test_a_plain_or_cut_off_window_shows_nothing() -> None:
    plain = np.full((120, 120, 3), FACE, np.uint8)
    assert token_turn.turn_scores(plain, _to_image(), _claim()) is None
    corner = np.array([[PX_PER_MM, 0, 5.0], [0, PX_PER_MM, 5.0], [0, 0, 1]])
    assert token_turn.turn_scores(_drawn(None), corner, _claim()) is None
    assert not token_turn.points_up(None)


def test_every_variants_triangles_are_a_claim_and_four_minerals() -> None:
    """What :func:`token_turn.slots_point_up` reads: each layout's triangle slots."""
    for variant in load_kit().variants:
        kinds = sorted(s.kind for s in variant if s.shape == "triangle")
        assert kinds == ["claim", "mineral", "mineral", "mineral", "mineral"]


def test_one_mineral_shows_the_way_only_where_no_other_points_another() -> None:
    """Seed 2026 picture 89's S30: one mineral triangle 0.91 up, the others under a hand
    (flat); a mineral pointing plainly down beside it would say the face is another way."""
    up = (0.91, 0.77, 0.65, 0.77)
    flat = (0.0, -0.01, 0.02, 0.03)
    down = (0.65, 0.77, 0.91, 0.77)
    assert token_turn._one_points_up([up, flat, flat])
    assert not token_turn._one_points_up([up, down])
    assert not token_turn._one_points_up([flat, flat])
    assert not token_turn._one_points_up([(0.55, 0.5, 0.3, 0.45)])  # 0.05 a quarter on
