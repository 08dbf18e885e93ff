"""A tile whose marker a hand hides whole, with no earlier scan to place it, found by its
printed face (issue 18): only as the one tile of its variant the table should have and does
not show, only where its edge line and its slots show it, and never at two places."""

from __future__ import annotations

import random

import numpy as np
import pytest

from benchmarks.local_cluster_kit_renders import LcRender, render
from benchmarks.vision_kit_renders import FRAME, SEED, _Picture
from companion.local_cluster.board_scan import SlotReading, SlotState
from vision.local_cluster import recognize as recognize_module
from vision.local_cluster import tile_edges
from vision.local_cluster.kit import load_kit
from vision.local_cluster.recognize import recognize


def _drawn_apart(index: int) -> LcRender:
    """Picture ``index`` of the benchmark drawn apart from the recognizer
    (``python -m benchmarks.vision_kit_renders``, 1920 x 1080 frames)."""
    rng = random.Random(SEED)
    for _ in range(index):
        rng.getrandbits(64)
    return render(random.Random(rng.getrandbits(64)), size=FRAME)


@pytest.fixture(scope="module")
def picture_4() -> LcRender:
    """1.06 px/mm, a lamp's glare, a hand over S10's marker (nine of its slots show)."""
    return _drawn_apart(4)


def test_a_tile_whose_marker_a_hand_hides_whole_is_placed_by_its_face(
    picture_4: LcRender,
) -> None:
    """S10 is the one tile the table should have that no marker shows. Its edge line shows
    across x and y on a free cell beside the tiles found, and of the sixteen ways a face
    may lie there (four variants, four quarter turns), variant 0's triangles and hexagons at
    one turn show 1.6 times as much as any other way's: S10's variant. Five of its visible
    slots read right (and a mineral slot by the hand), none wrong (it went unread before, as
    it still does without ``expected``)."""
    truth = _Picture(picture_4)
    expected = tuple(truth.tiles)
    found = recognize(picture_4.image, expected=expected)
    tile = next(t for t in found.tiles if t.sector == "S10")
    assert tile.by_face and not tile.carried
    want = truth.tiles["S10"]
    shown = [r for r in tile.reading.slots if r.slot not in want.occluded]
    right = [r for r in shown if r.known and want.drawn(r)]
    wrong = [r.describe() for r in tile.reading.slots if r.known and not want.drawn(r)]
    assert wrong == []
    assert len(right) >= 5
    assert any(
        n.startswith("S10: its marker is hidden; placed where a face") for n in found.scan.notes
    )
    assert recognize(picture_4.image).scan.tile("S10") is None


def test_a_face_is_not_named_when_another_missing_tile_is_of_its_variant(
    picture_4: LcRender,
) -> None:
    """Told the table also holds S11 (variant 0, like S10, and not in the picture), the face
    could be either tile's: neither is placed."""
    expected = (*_Picture(picture_4).tiles, "S11")
    found = recognize(picture_4.image, expected=expected)
    assert found.scan.tile("S10") is None and found.scan.tile("S11") is None


def _slots(**read: float) -> tuple[SlotReading, ...]:
    """Variant 0's slots, those named read empty at the confidence given, the rest unknown."""
    return tuple(
        SlotReading(s.name, SlotState.EMPTY, confidence=read[s.name])
        if s.name in read
        else SlotReading(s.name, SlotState.UNKNOWN)
        for s in load_kit().variants[0]
    )


def test_a_face_needs_an_empty_triangle_or_hexagon_as_well_as_its_edge_line() -> None:
    """The edge line is alike on all four sides, and a strike-craft circle alike under every
    variant that puts one there: they say where a tile lies, not which way its slots lie.
    A face is kept only with its edge line across x and y, three empty outlines, and among
    them a triangle or a hexagon read at least FACE_TURN_SURE (`hands` 29 picture 14: a
    tile of another variant taken for S10 at a quarter turn on five craft circles and a
    mineral read empty at 0.22)."""
    across, every = tile_edges.Shown.ACROSS, tile_edges.Shown.ALL
    with_mineral = _slots(mineral1=0.6, craft1=0.9, craft2=0.9)
    assert recognize_module._face_right(with_mineral, across)
    assert recognize_module._face_right(with_mineral, every)
    assert not recognize_module._face_right(with_mineral, tile_edges.Shown.NONE)
    assert not recognize_module._face_right(with_mineral, None)
    assert not recognize_module._face_right(_slots(craft1=1, craft2=1, craft3=1, craft4=1), every)
    assert not recognize_module._face_right(_slots(mineral3=0.22, craft1=1, craft2=1), every)
    assert not recognize_module._face_right(_slots(unit=0.98), every)


def test_a_tile_whose_face_shows_at_two_places_is_placed_at_neither() -> None:
    """Two free cells show a face like S10's: nothing says which holds it, so neither is
    read, and a note says why."""
    one = ("S10", ((0.0, 130.0), 0.0), True)
    other = ("S10", ((130.0, 0.0), 0.0), True)
    found = ("S1", ((0.0, 0.0), 0.0), False)
    kept = [(*t, np.eye(3), 0, _slots()) for t in (found, one, other)]
    notes: list[str] = []
    left = recognize_module._one_face_each(kept, [one, other], notes)
    assert [k[0] for k in left] == ["S1"]
    assert notes == ["S10: its marker is hidden and 2 places show a face like its tile's: not read"]
