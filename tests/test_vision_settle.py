"""Settled frames and majority readings: a moving hand must not produce a scan."""

from __future__ import annotations

import numpy as np

from companion.local_cluster.atoms import Colour
from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState, TileReading
from vision.local_cluster.combine import majority
from vision.settle import settled


def _tile(colour: Colour | None) -> TileReading:
    claim = (
        SlotReading("claim", SlotState.EMPTY, confidence=0.9)
        if colour is None
        else SlotReading("claim", SlotState.TOKEN, colour, confidence=0.9)
    )
    return TileReading("S1", 0, 0, 0, 0, (0.0, 0.0), 0.0, 1.0, (claim,))


def test_still_frames_are_settled_and_a_moving_hand_is_not() -> None:
    still = np.full((90, 160, 3), 100, np.uint8)
    moved = still.copy()
    moved[20:70, 40:120] = 220  # a hand came in
    assert settled([still, still.copy(), still.copy()])
    assert not settled([still, moved, still])


def test_a_slot_reading_counts_only_when_most_frames_agree() -> None:
    red, blue = _tile(Colour.RED), _tile(Colour.BLUE)
    agreed = majority([BoardScan((red,), ()), BoardScan((red,), ()), BoardScan((blue,), ())])
    slot = agreed.tiles[0].slot("claim")
    assert slot is not None and slot.colour is Colour.RED
    split = majority([BoardScan((red,), ()), BoardScan((blue,), ()), BoardScan((), ())])
    assert split.tiles[0].slot("claim") == SlotReading("claim", SlotState.UNKNOWN)


def test_a_tile_seen_in_too_few_frames_is_left_out() -> None:
    red = _tile(Colour.RED)
    assert majority([BoardScan((red,), ()), BoardScan((), ()), BoardScan((), ())]).tiles == ()


def test_a_value_is_agreed_only_by_more_than_half_of_the_frames() -> None:
    from vision.settle import agreed

    assert agreed(["red", "red", "blue"], 3) == "red"
    assert agreed(["red", "blue"], 3) is None  # the third frame could not tell
    assert agreed(["red", "red"], 4) is None
    assert agreed([], 1) is None
