"""A calibration card in another light than the tiles (issue 18): a second lamp, or a
highlight's warm halo over the card alone, turns its swatches off the tokens' colours. Where
the card leaves slots unknown, each tile's own white square and the kit's printed colours
may read them; a slot the card reads keeps its reading."""

from __future__ import annotations

from typing import Any

import pytest
from vision_pictures import drawn_apart, read_right, render

from benchmarks.local_cluster_kit_renders import LcRender
from benchmarks.vision_kit_renders import _Picture
from companion.local_cluster.atoms import Colour
from companion.local_cluster.board_scan import SlotReading, SlotState
from vision.local_cluster import recognize as recognize_module
from vision.local_cluster.recognize import recognize
from vision.local_cluster.synthetic import Conditions, sample_state

EMPTY = SlotReading("craft1", SlotState.EMPTY, confidence=0.9)
UNKNOWN = SlotReading("craft1", SlotState.UNKNOWN)
RED = SlotReading("craft1", SlotState.TOKEN, Colour.RED, confidence=0.8)


@pytest.fixture(scope="module")
def picture_30() -> LcRender:
    """Seed 39's picture 30 drawn apart (1.53 px/mm): a highlight's warm halo over the card,
    which reads its red swatch 43 (Lab) from the red strike craft on the tiles and its
    purple swatch as near the purple craft as its blue."""
    return drawn_apart(30, 39)


def test_tokens_the_card_in_another_light_leaves_unknown_are_read_by_the_tiles_squares(
    picture_30: LcRender, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S7's purple strike craft and S42's red read right, each tile in the light of its own
    white square against the kit's printed colours; by the card alone they are unknown."""
    purple = ["craft1", "craft3", "craft4", "craft5", "craft6"]
    red = ["craft2", "craft3", "craft4", "craft5"]
    right, wrong = read_right(picture_30)
    assert wrong == []
    assert set(purple) <= set(right["S7"])
    assert set(red) <= set(right["S42"])
    monkeypatch.setattr(recognize_module, "_filled", lambda first, second: first)
    right, wrong = read_right(picture_30)
    assert wrong == []
    assert set(purple).isdisjoint(right["S7"])
    assert set(red).isdisjoint(right["S42"])


def test_a_slot_the_card_reads_keeps_its_reading() -> None:
    filled = recognize_module._filled
    assert filled((EMPTY,), (RED,)) == (EMPTY,)
    assert filled((UNKNOWN,), (RED,)) == (RED,)
    assert filled((UNKNOWN,), (UNKNOWN,)) == (UNKNOWN,)
    assert filled("glare over the tile", (RED,)) == "glare over the tile"
    assert filled((UNKNOWN,), "glare over the tile") == (UNKNOWN,)


def test_the_squares_are_read_only_where_the_card_leaves_a_slot_unknown(
    picture_30: LcRender, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 3-player board at about 1.3 px/mm, every slot read by the card: one reading. Seed
    39's picture 30, slots left unknown: a second, without the card."""
    known = recognize_module._all_known
    assert known([(EMPTY, RED), "glare over the tile"])
    assert not known([(EMPTY, UNKNOWN)])
    read = recognize_module.read_tiles
    cards: list[bool] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        cards.append(args[3].glare)
        return read(*args, **kwargs)

    monkeypatch.setattr(recognize_module, "read_tiles", counted)
    state = sample_state(7, 3)
    clear = render(state, Conditions(width=1920, height=1080, seed=11, tilt=15, blur=0.5))
    found = recognize(clear.image, expected=state.galaxy.ids)
    assert all(s.known for t in found.scan.tiles for s in t.slots)
    assert cards == [False]
    cards.clear()
    recognize(picture_30.image, expected=tuple(_Picture(picture_30).tiles))
    assert cards == [False, True]
