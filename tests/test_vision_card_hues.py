"""A card swatch whose hue blur has turned, in a coarse picture (issue 18): a token nearest
it, or next nearest it, is unknown, never read as the other colour."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from vision_pictures import benchmark_picture

from benchmarks.vision import boards
from companion.local_cluster.atoms import Colour, UnitType
from companion.local_cluster.board_scan import SlotState
from vision.local_cluster import recognize as recognize_module
from vision.local_cluster.colour import nominal_card
from vision.local_cluster.kit import load_kit
from vision.local_cluster.recognize import recognize
from vision.local_cluster.slots import HUE_SHIFT_MOST


def _turned(lab: np.ndarray, degrees: float) -> np.ndarray:
    """``lab`` with its hue (a*, b*) turned ``degrees``."""
    t = math.radians(degrees)
    a, b = float(lab[1]), float(lab[2])
    return np.array(
        [lab[0], a * math.cos(t) - b * math.sin(t), a * math.sin(t) + b * math.cos(t)],
        np.float32,
    )


def test_a_swatch_read_more_than_hue_shift_most_off_its_print_is_unsure() -> None:
    kit = load_kit()
    card = nominal_card(kit)
    assert recognize_module._hues_off(card, kit) == frozenset()
    swatches = dict(card.swatches)
    swatches["purple"] = _turned(swatches["purple"], HUE_SHIFT_MOST + 5)
    swatches["blue"] = _turned(swatches["blue"], -(HUE_SHIFT_MOST - 5))
    turned = dataclasses.replace(card, swatches=swatches)
    assert recognize_module._hues_off(turned, kit) == frozenset({"purple"})


def test_a_purple_destroyer_by_a_card_whose_purple_blur_has_turned_is_not_read_blue() -> None:
    """Issue 18's benchmark, `warm` 83 picture 8 (0.59 px/mm): the card's small purple
    swatch reads 36 degrees off its print, at chroma 27 for 70, blurred into the white and
    the black probe round it; S30's purple destroyer, a 28 mm hexagon, lay 18 from the blue
    swatch and 36 from that purple, and read blue at 0.62. Now it is unknown."""
    board = boards(9, 83, "warm")[8]
    picture, sectors = benchmark_picture(board)
    assert picture.px_per_mm < 0.85
    drawn = picture.tiles["S30"].slots["unit"]
    assert (drawn.state, drawn.colour, drawn.kind) == (
        SlotState.TOKEN,
        Colour.PURPLE,
        UnitType.DESTROYER,
    )
    found = recognize(picture.image, expected=sectors)
    unit = next(s for s in found.scan.tile("S30").slots if s.slot == "unit")
    assert unit.state is SlotState.UNKNOWN
