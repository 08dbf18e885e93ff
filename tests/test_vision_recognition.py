"""Recognition on rendered boards (issue 18): tiles, adjacency (R1.1), slots, and no
confident mistake under hands, sleeves, glare, dark printing, tokens placed by hand, small or
blurred pictures."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from threadpoolctl import threadpool_info, threadpool_limits
from vision_pictures import benchmark_picture, drawn_apart, render

from benchmarks.local_cluster_kit_renders import LcRender
from benchmarks.vision import Board, boards, clear_prior, turned_by_players, without_craft
from benchmarks.vision_kit_renders import _Picture
from companion.local_cluster.atoms import Colour, SectorId, UnitType
from companion.local_cluster.board_scan import SlotReading, SlotState
from companion.local_cluster.state import Craft, State
from vision.errors import CardNotFound
from vision.local_cluster import colour, face_fit, slots
from vision.local_cluster import layout as layout_module
from vision.local_cluster import recognize as recognize_module
from vision.local_cluster.kit import load_kit
from vision.local_cluster.layout import COVER_REACH, layout, zone_inradius
from vision.local_cluster.recognize import FINE_PX_PER_MM, Recognition, recognize
from vision.local_cluster.synthetic import Conditions, Rendered, sample_state
from vision.photograph import photograph
from vision.readers import Quality

CLEAR = Conditions(seed=1, noise=1.0, jpeg=90)
"""A 1080p picture of a small board (about 0.94 pixels per mm), nothing in the way."""
FINE = dataclasses.replace(CLEAR, width=2304, height=1296)
"""The same a little finer (about 1.12 pixels per mm): where every slot must be read."""


@pytest.fixture(scope="module")
def state() -> State:
    return sample_state(3)


@pytest.fixture(scope="module")
def small() -> State:
    """A 3-player board: 18 tiles, about 0.94 px/mm in a 1080p picture."""
    return sample_state(5, 3)


@dataclasses.dataclass
class Tally:
    wrong: list[str]
    """Visible slots read as something they are not."""
    unknown: list[str]
    occluded_wrong: list[str]
    right: int
    visible: int


def _tally(rendered: Rendered, found: Recognition | None = None) -> Tally:
    found = found or recognize(rendered.image, expected=list(rendered.tiles))
    tally = Tally([], [], [], 0, 0)
    for sector, truth in rendered.tiles.items():
        tile = found.scan.tile(sector)
        if tile is None:
            continue
        for reading in tile.slots:
            want = truth.slots[reading.slot]
            same = truth.drawn(reading)
            where = f"{sector} {reading.slot}: {want.describe()} read {reading.describe()}"
            if reading.slot in truth.occluded:
                if reading.known and not same:
                    tally.occluded_wrong.append(where)
                continue
            tally.visible += 1
            if not reading.known:
                tally.unknown.append(where)
            elif not same:
                tally.wrong.append(where)
            else:
                tally.right += 1
    return tally


def _unknown_without_a_wrong_reading(rendered: Rendered, kind: str, read: str) -> list[str]:
    """``rendered`` reads nothing confidently wrong; its visible ``kind`` slots left unknown
    whose truth was ``read`` ("empty read", "token read")."""
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []
    return [u for u in tally.unknown if kind in u and read in u]


def test_every_tile_and_shared_edge_is_read_from_a_clear_picture(state: State) -> None:
    """R1.1: tiles whose outlines share an edge are adjacent."""
    scan = recognize(render(state, CLEAR).image).scan
    assert sorted(scan.sectors) == sorted(state.galaxy.ids)
    assert set(scan.adjacency) == set(state.galaxy.edges)


def test_a_clear_picture_at_a_pixel_per_mm_reads_every_slot(small: State) -> None:
    rendered = render(small, FINE)
    assert rendered.px_per_mm >= 1.0
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.unknown == []


def test_a_picture_is_read_with_numpy_on_one_blas_thread(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenBLAS's threads, left spinning after the slots' matrix products, doubled the CPU
    time of the next frame's marker detection (vision/blas.py): a scan holds them to one."""
    threads_seen: list[int] = []
    measure = slots.measure

    def spying(*args: Any, **kwargs: Any) -> Any:
        threads_seen.append(max(i["num_threads"] for i in threadpool_info()))
        return measure(*args, **kwargs)

    monkeypatch.setattr(recognize_module, "measure", spying)
    with threadpool_limits(limits=2, user_api="blas"):
        outside = max(i["num_threads"] for i in threadpool_info())
        if outside < 2:
            pytest.skip("this machine's BLAS runs on one thread anyway")
        recognize(render(small, CLEAR).image)
        assert max(i["num_threads"] for i in threadpool_info()) == outside
    assert threads_seen and set(threads_seen) == {1}


@pytest.mark.parametrize("kelvin", [2700, 6500])
def test_warm_and_cool_light_give_no_wrong_colour(small: State, kelvin: float) -> None:
    tally = _tally(render(small, dataclasses.replace(FINE, kelvin=kelvin, noise=2)))
    assert tally.wrong == [] and tally.occluded_wrong == []


@pytest.mark.parametrize("kelvin", [2700, 6500])
def test_warm_and_cool_light_read_99_percent_of_slots(small: State, kelvin: float) -> None:
    """Under 2700 K white balance amplifies the blue channel's noise: 214 of 216 slots read
    right (an empty unit and an empty strike craft unknown, never wrong). 212 while the
    covered check counted every variant's ring by variant 0's points: one noisy point in an
    11-point ring counted as two of 22 and covered two mineral tokens (issue 18)."""
    tally = _tally(render(small, dataclasses.replace(FINE, kelvin=kelvin, noise=2)))
    assert tally.right >= 0.99 * tally.visible, tally.unknown


def test_an_empty_strike_craft_slot_is_judged_by_the_bare_tile_around_it(small: State) -> None:
    """Warm light with white balance shifts a dark tile's hue from place to place: an empty
    slot's inside is compared in hue with its own surround as well as with the board's bare
    tile, the nearer counting (10 of the 108 empty strike-craft slots here were unknown when
    only the board's counted; issue 18's benchmark, 84 more slots read right, none wrong)."""
    craft = _unknown_without_a_wrong_reading(
        render(small, dataclasses.replace(FINE, kelvin=2700, noise=2)), " craft", "empty read"
    )
    assert len(craft) <= 3, craft


def test_an_empty_slot_in_a_picture_noisy_in_hue_may_lie_as_far_as_its_noise(
    small: State,
) -> None:
    """Warm light with a noisy, demosaiced sensor: the bare tile's own hue noise widens how
    far in hue an empty slot's inside may lie (twice the bare points' median distance, at
    most 16; 7 of the 108 empty strike-craft slots here were unknown at the fixed 11)."""
    noisy = dataclasses.replace(FINE, kelvin=3000, noise=3.5, bayer=True)
    craft = _unknown_without_a_wrong_reading(render(small, noisy), " craft", "empty read")
    assert len(craft) <= 4, craft


@pytest.mark.parametrize(
    "warm",
    [
        {"kelvin": 2700, "noise": 2, "jpeg": 60},
        {"kelvin": 2700, "noise": 3.5, "bayer": True, "jpeg": 60, "brightness": 0.6},
    ],
)
def test_strike_craft_of_every_colour_under_warm_light_are_never_read_empty(
    small: State, warm: dict[str, object]
) -> None:
    """The guard on the two rules above: strike craft of all eight colours, four on every
    tile, dropped up to 3 mm off-centre and turned, under 2700 K light with JPEG 60 (and a
    noisy, demosaiced, dim picture), are read right or unknown, never empty (nor another
    colour)."""
    rendered = _craft_of_every_colour(small, warm)
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []
    tokens = sum(
        s.state is SlotState.TOKEN and n.startswith("craft")
        for t in rendered.tiles.values()
        for n, s in t.slots.items()
    )
    assert tokens == 4 * len(small.galaxy.ids)


def _craft_of_every_colour(small: State, light: dict[str, object]) -> Rendered:
    """``small`` with four strike craft on every tile, the eight colours in turn, dropped up
    to 3 mm off-centre and turned 10 degrees, photographed under ``light``."""
    colours = itertools.cycle(list(Colour))
    crafty = dataclasses.replace(
        small, craft=tuple(Craft(1, next(colours), s) for s in small.galaxy.ids for _ in range(4))
    )
    placed = dataclasses.replace(FINE, token_offset=3.0, token_turn=10.0)
    return render(crafty, dataclasses.replace(placed, **light))  # type: ignore[arg-type]


def test_a_token_of_unmistakable_colour_is_read_through_warm_jpegs_spread(small: State) -> None:
    """Warm light with JPEG 60 spreads a small token's own colour beyond ``UNEVEN`` (12): of
    the 72 strike craft above, 18 were unknown for that alone, each within 12 of its own
    swatch and 20 nearer to it than to the next. A body whose colour is that plain may spread
    more (``UNEVEN_PLAIN``, 18 then, 22 now); one straddling an edge has the mean of two
    colours. Now 1."""
    tally = _tally(_craft_of_every_colour(small, {"kelvin": 2700, "noise": 2, "jpeg": 60}))
    assert tally.wrong == [] and tally.occluded_wrong == []
    craft = [u for u in tally.unknown if " craft" in u and "empty read" not in u]
    assert len(craft) <= 2, craft


def _read_drawn_apart(
    index: int, seed: int, sector: str
) -> tuple[Recognition, dict[str, SlotReading]]:
    """Picture ``index`` of issue 18's pictures drawn apart on ``seed``, read alone: nothing
    in it read wrong, visible or occluded, and ``sector``'s readings by slot."""
    picture = drawn_apart(index, seed)
    truth = _Picture(picture)
    found = recognize(picture.image, expected=tuple(truth.tiles))
    assert truth.misread(found.scan) == []
    tile = found.scan.tile(sector)
    assert tile is not None
    return found, {r.slot: r for r in tile.slots}


def test_a_neighbours_strike_craft_at_the_edge_of_an_empty_slot_is_not_read_there() -> None:
    """Issue 18's pictures drawn apart, seed 23 picture 34 (1.17 px/mm): S36's red strike
    craft in craft3, by a hand's fingers, lies off-centre toward craft2, which is empty.
    craft2's body at its likeliest candidate was half that token and half tile (spread
    20.6, 13.4 from the card's red) and read red at 0.72 through the allowance for a plain
    colour's spread (``UNEVEN_PLAIN``), while the slot's inside, its centre, looked nearly
    bare (27 from bare tile in hue, 0.29 of the way to a light token). A spread that wide
    is now allowed only where the inside is plainly no bare tile either
    (``PLAIN_INSIDE``): craft2 is unknown, and nothing in the picture is read wrong."""
    read = _read_drawn_apart(34, 23, "S36")[1]
    assert read["craft2"].state is SlotState.UNKNOWN


def test_a_fingertip_the_colour_of_a_token_on_a_tile_it_hides_is_not_read() -> None:
    """Issue 18's pictures drawn apart, seed 27 picture 49 (1.42 px/mm, 2,883 K): a pale
    hand lies over S47's marker, and one fingertip over craft3 (a yellow strike craft, the
    slot occluded) reads (96, 2, 9) in Lab, 5.8 from the card's white. The slot sits inside
    the craft grid, its surround all on the side away from the finger, and it was read white
    at 0.88. On a tile whose marker does not show whole, a colour as near a twentieth of
    what hides the marker (its median (95, 2, 9)) as its own swatch is unknown
    (``HIDING_LEAST``, ``HIDING_LIKE``); the white craft beside it, 9 from the hand's median
    and 6 from white, are still read, and nothing in the picture is read wrong."""
    read = _read_drawn_apart(49, 27, "S47")[1]
    assert read["craft3"].state is SlotState.UNKNOWN
    assert read["craft2"].colour is read["craft4"].colour is Colour.WHITE


def test_a_fingertip_lighter_than_the_hand_hiding_the_tile_is_not_read_a_token() -> None:
    """Issue 18's pictures drawn apart, seed 40 picture 40 (1.30 px/mm, no card to read): a
    pink hand lies over S13's marker, and the tip of one finger, lighter than the rest of
    the hand, over craft1 (empty, occluded), whose surround lies on the far side; the slot
    read white at 0.84, the body (97, 3, -1) 7.7 from white and 19 from the hand's median
    colour. A token as near a twentieth of what hides the marker as its own swatch is
    unknown (``HIDING_LIKE``): craft1 is, and nothing in the picture is read wrong."""
    read = _read_drawn_apart(40, 40, "S13")[1]
    assert read["craft1"].state is SlotState.UNKNOWN


def test_a_fingertip_over_a_mineral_slot_and_its_ring_is_not_read_a_token() -> None:
    """Issue 18's pictures drawn apart, seed 28 picture 14 (1.78 px/mm): a pale fingertip
    lies over S29's empty mineral4 (occluded) and 15 % of its ring, its skin near the
    card's mineral grey, and the slot read as a token at 0.73: a ring's points on the way
    from bare tile to the slot's body were all taken for the body's own blurred edge. The
    ring lies beyond where a token may reach, and blur takes only a faint share of a
    token's colour there; the whole of it is something lying over the slot and beyond
    (``HALO_MOST``). mineral4 is unknown, and nothing in the picture is read wrong."""
    read = _read_drawn_apart(14, 28, "S29")[1]
    assert read["mineral4"].state is SlotState.UNKNOWN


def test_a_glared_card_just_under_1_px_per_mm_leaves_the_printed_colours_to_read() -> None:
    """Issue 18's pictures drawn apart, seed 25 picture 0 (a cyan cast: grey-world balance
    over a red-brown mat; two highlights, one over the card): drawn at 1.03 px/mm, its
    markers measure 0.985. Under 1 px/mm no token's colour was read without the card, and
    every colour token on the board was unknown; from 0.95 (``SQUARES_LEAST_PX_PER_MM``)
    they are read against the kit's printed colours, each tile in its own square's light,
    and nothing in the picture is read wrong."""
    found, read = _read_drawn_apart(0, 25, "S20")
    assert found.px_per_mm is not None and found.px_per_mm < 1.0
    assert any("tokens are read against the kit's printed colours" in n for n in found.notes)
    assert [read[f"craft{i}"].colour for i in (1, 3, 5, 6)] == [Colour.RED] * 4


@pytest.mark.parametrize(("index", "seed", "sector"), [(1, 36, "S42"), (25, 37, "S30")])
def test_a_dark_battleship_whose_glyph_is_darker_than_bare_tile_is_not_read_empty(
    index: int, seed: int, sector: str
) -> None:
    """Issue 18's pictures drawn apart, seed 36 picture 1 and seed 37 picture 25 (0.93 and
    0.92 px/mm, a dark tile each): a purple battleship in the unit slot, its body and its
    black disc averaging near bare tile's lightness and hue (the body 34 from the card's
    purple: no colour), read empty at 0.54 and 0.64 with the slot's outline showing round
    the token. The disc's centre was 25.5 and 19.3 darker than bare tile, darker than any
    shadow leaves it (``Bare.darker``, 16): ink, not an empty slot. The unit is unknown,
    and nothing in either picture is read wrong."""
    read = _read_drawn_apart(index, seed, sector)[1]
    assert read["unit"].state is SlotState.UNKNOWN


@pytest.mark.parametrize("slot", ["mineral1", "mineral3"])
def test_a_finger_ending_in_a_slot_at_the_tiles_edge_runs_on_past_it(slot: str) -> None:
    """Issue 18's pictures drawn apart, seed 55 picture 13 (1.04 px/mm): the palest hand's
    fingers come in over S8's edge and end in its empty mineral1 and mineral3 (occluded),
    which read as tokens at 0.05 and 0.46. Those slots' zones reach the tile's edge, where
    no surround is looked at, so nothing said they were covered. A token ends within its
    zone; the circle just beyond it (``KindProbes.guard``, on the tile) showed the body's
    colour at 0.37 and 0.38 of its points (7 of 19, 3 of 8): a finger runs on
    (``slots.GUARD_SHARE``). Both are unknown, and nothing in the picture is read wrong."""
    read = _read_drawn_apart(13, 55, "S8")[1]
    assert read[slot].state is SlotState.UNKNOWN


@pytest.mark.parametrize(
    ("index", "seed", "sector", "slot"),
    [
        (15, 68, "S6", "mineral4"),
        (14, 63, "S6", "craft4"),
        (32, 47, "S47", "mineral3"),
        (1, 69, "S12", "mineral4"),
    ],
)
def test_a_hand_come_in_over_the_tiles_edge_is_no_token(
    index: int, seed: int, sector: str, slot: str
) -> None:
    """Issue 18's pictures drawn apart, the four slots read wrong under a hand there were
    (each occluded): seed 68 picture 15 (1.06 px/mm), the palest skin's fingertip over S6's
    empty mineral4, read as a token at 1.00; seed 63 picture 14 (0.85 px/mm), an arm over
    S6's green strike craft in craft4, read white at 0.05; seed 47 picture 32 (1.34 px/mm)
    and seed 69 picture 1 (1.29 px/mm), fingers over the empty mineral3 of S47 and mineral4
    of S12, tiles whose markers the hand hides, read as tokens at 0.77 and 0.05. Each slot
    lies by the tile's edge, where its guard runs off the face and nothing else is looked
    at, and a yellow light made one finger the card's own mineral grey. Past the cut beside
    each slot, 0.5-1.0 of the points showed the body's colour, 0.58-0.91 of those just
    inside the cut across from them, and at most 0.08 of those past the cut elsewhere round
    the tile (``slots.BEYOND_SHARE``): each is unknown, and nothing in the four pictures is
    read wrong."""
    read = _read_drawn_apart(index, seed, sector)[1]
    assert read[slot].state is SlotState.UNKNOWN


@pytest.mark.parametrize(
    ("index", "seed", "sector", "slot"),
    [(17, 32, "S25", "mineral1"), (20, 32, "S36", "mineral4"), (20, 32, "S9", "mineral1")],
)
def test_a_table_the_colour_of_a_token_beside_the_tiles_edge_is_no_hand(
    index: int, seed: int, sector: str, slot: str
) -> None:
    """The guard on the rule above: issue 18's pictures drawn apart, seed 32 pictures 17 and
    20 (1.21 and 1.30 px/mm), mineral tokens by a tile's edge on a light grey cloth and on a
    mat's white stripe. Past the cut beside each, every point showed the token's colour, and
    round a tile among others little of the table shows elsewhere (0.04-0.17 of the points
    there). Just inside the cut lie the edge line and bare tile, which no token covers
    there: each is still read as a token."""
    read = _read_drawn_apart(index, seed, sector)[1]
    assert read[slot].state is SlotState.TOKEN


@pytest.mark.parametrize(
    ("index", "seed", "sector", "slot"), [(11, 57, "S23", "craft3"), (51, 53, "S7", "mineral4")]
)
def test_a_token_lit_more_than_the_shade_round_its_slot_is_not_read(
    index: int, seed: int, sector: str, slot: str
) -> None:
    """Issue 18's pictures drawn apart: seed 57 picture 11 (1.45 px/mm), a pink strike craft
    on S23, its surround at 0.19 of bare tile (a person's shadow over a tile printed dark),
    read white at 0.85: made up for as that shade, its red channel came to 2.9 times the
    card's white. Seed 53 picture 51 (1.17 px/mm): a pale fingertip, lit from above, over
    S7's empty mineral4 at the tile's edge, whose surround lies in the hand's shadow (0.53
    of bare tile), read as a token at 1.00. Neither lay in the shade its surround shows,
    beyond the shade its tile's slots show at the median (``slots.OVER_WHITE``): each is
    unknown, and nothing in either picture is read wrong."""
    read = _read_drawn_apart(index, seed, sector)[1]
    assert read[slot].state is SlotState.UNKNOWN


def test_a_token_made_up_past_white_on_a_tile_in_deep_shade_is_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, held-out seed 0 picture 17 (1.26 px/mm): a pale
    hand's fingers over S37's marker and white square, its light borrowed from the tiles
    beside it, and every slot's surround at 0.17-0.26 of that. Its two pink strike craft,
    made up for as that shade, came to 2.2-3.1 times the card's white and read white at
    0.81-0.82. Measured against the tile's median shade (0.21: ``slots.OVER_WHITE``) they
    were not over it. No print is that much darker than the kit's
    (``slots.SHADE_PRINTED_LEAST``): both are unknown, and nothing is read wrong."""
    read = _read_drawn_apart(17, 0, "S37")[1]
    assert read["craft3"].state is SlotState.UNKNOWN
    assert read["craft5"].state is SlotState.UNKNOWN
    monkeypatch.setattr(slots, "SHADE_PRINTED_LEAST", 0.0)
    picture = drawn_apart(17, 0)
    truth = _Picture(picture)
    found = recognize(picture.image, expected=tuple(truth.tiles))
    assert {"S37 craft3: white", "S37 craft5: white"} <= set(truth.misread(found.scan))


def test_a_light_token_in_another_lamps_warm_pool_is_not_read_by_the_cards_light() -> None:
    """Issue 18's pictures drawn apart, held-out seed 9 picture 39 (0.97 px/mm): the card in
    a 4,705 K light, S14's pink strike craft in the warm pool of a 2,701 K second lamp; two
    read red at 0.52 and 0.66 (b* 22-29 where pink prints -10). The pool tints the dark tile
    round them in hue alone, so each surround's points were all foreign to bare tile and
    ``slots.tinted`` counted none of them: it saw no tint. Beside a body that light, its
    surround mostly off bare tile (``slots.TINT_SURROUND``), what is off it in hue alone is
    the light's tint (``slots.HUE_ONLY_BODY``, as ``measure`` takes it): read so, both lie
    nearer pink than red, and are unknown. Nothing in the picture is read wrong."""
    read = _read_drawn_apart(39, 9, "S14")[1]
    assert read["craft3"].colour is not Colour.RED
    assert read["craft4"].colour is not Colour.RED


def test_a_body_between_two_token_colours_far_from_both_is_not_read() -> None:
    """Issue 18's pictures drawn apart, seed 48 picture 18 (0.84 px/mm): a pale fingertip
    over S35's yellow strike craft (occluded) left its body 27 from the card's white, a third
    of the way from white to yellow and 5 off the line between them, and it read white at
    0.43 (``FAR_CLEAR`` reads a body up to 28 from its swatch when no other is near). A
    token is one colour: a body that far off its swatch and toward another token's is part
    of something else (``slots.BETWEEN_OFF``). The craft is unknown, and nothing in the
    picture is read wrong."""
    read = _read_drawn_apart(18, 48, "S35")[1]
    assert read["craft3"].state is SlotState.UNKNOWN


def test_an_empty_mineral_slot_darker_inside_than_its_outline_is_not_a_token() -> None:
    """Issue 18's pictures drawn apart, seed 49 picture 26 (0.88 px/mm, blurred): the slot
    lines print far lighter than S34's dark face, and its empty mineral2's small inside,
    blurred, lay 0.6 of the way to the mineral grey; it read as a token. A mineral token is
    lighter than the slot-line colour, so its inside is at least as light as its outline's
    ring; this inside was 17.7 darker than the ring, and below 1 px/mm more than 12 is the
    outline blurred in (``slots.MINERAL_UNDER_LINE``). The slot is unknown, its neighbour's
    token is still read, and nothing in the picture is read wrong."""
    read = _read_drawn_apart(26, 49, "S34")[1]
    assert read["mineral2"].state is SlotState.UNKNOWN
    assert read["mineral4"].state is SlotState.TOKEN


def test_tokens_dropped_by_hand_off_centre_and_turned_are_read(small: State) -> None:
    """Tokens up to 3 mm off their slot's centre and turned up to 10 degrees (issue 18)."""
    placed = dataclasses.replace(CLEAR, token_offset=3.0, token_turn=10.0, seed=2)
    tally = _tally(render(small, placed))
    assert tally.wrong == []
    assert tally.right >= 0.99 * tally.visible, tally.unknown


def test_strike_craft_next_to_strike_craft_are_read(small: State) -> None:
    """Each strike-craft slot is read on its own, whatever its neighbours hold (issue 18)."""
    rendered = render(small, dataclasses.replace(CLEAR, token_offset=3.0, seed=3))
    tally = _tally(rendered)
    craft = [w for w in tally.wrong + tally.unknown if " craft" in w]
    assert craft == []


def test_dark_printing_does_not_make_dark_tokens_empty(small: State) -> None:
    """A tile background printed far darker than the kit says, under dim light: dark units
    and strike craft are never read as empty (issue 18)."""
    dark = dataclasses.replace(CLEAR, dark_tiles=0.45, brightness=0.6, seed=4)
    tally = _tally(render(small, dark))
    assert tally.wrong == []
    assert tally.right >= 0.97 * tally.visible


def _first(state: State, make: object, wanted: object, seeds: int = 30) -> Rendered:
    for seed in range(seeds):
        rendered = render(state, make(seed))  # type: ignore[operator]
        if wanted(rendered):  # type: ignore[operator]
            return rendered
    raise AssertionError("no picture of the kind wanted in the seeds tried")


def test_a_hand_over_a_marker_reports_that_tile_missing(state: State) -> None:
    rendered = _first(
        state,
        lambda seed: Conditions(hands=1, seed=seed),
        lambda r: any(not t.marker_visible for t in r.tiles.values()),
    )
    hidden = [s for s, t in rendered.tiles.items() if not t.marker_visible]
    scan = recognize(rendered.image).scan
    assert any(scan.tile(sector) is None for sector in hidden)


def test_a_covered_slot_is_unknown_not_guessed(small: State) -> None:
    rendered = _first(
        small,
        lambda seed: dataclasses.replace(CLEAR, hands=2, sleeves=3, seed=seed),
        lambda r: sum(len(t.occluded) for t in r.tiles.values()) >= 10,
    )
    assert _tally(rendered).occluded_wrong == []


def test_a_dark_sleeve_over_an_empty_slot_is_not_read_as_empty(small: State) -> None:
    """A card sleeve of the tile's own colour hides the slot's outline: unknown (issue 18)."""

    def sleeved(rendered: Rendered) -> bool:
        return any(
            truth.slots[name].state is SlotState.EMPTY
            for truth in rendered.tiles.values()
            for name in truth.occluded - truth.glared
        )

    rendered = _first(small, lambda seed: dataclasses.replace(CLEAR, sleeves=3, seed=seed), sleeved)
    found = recognize(rendered.image)
    for sector, truth in rendered.tiles.items():
        tile = found.scan.tile(sector)
        for name in truth.occluded - truth.glared:
            reading = None if tile is None else tile.slot(name)
            want = truth.slots[name]
            if reading is not None and reading.known:
                assert (reading.state, reading.colour, reading.kind) == (
                    want.state,
                    want.colour,
                    want.kind,
                )


@pytest.mark.parametrize("index", [23, 83])
def test_a_soft_card_without_glare_is_not_called_glared(index: int) -> None:
    """Blur, Bayer demosaicing and a card copy a little off spread a swatch's sides without
    any glare: its colours are still read (issue 18's benchmark, pictures 23 and 83: 0.82
    px/mm with 1.15 px of blur, 1.0 px/mm with 0.47). The copy is where the markers' white
    bands put the card. Located by their edges alone, the markers looked 2-4 % small in a
    soft picture, the copy lay a millimetre off, and 11 of the 46 glare-free pictures of
    seed 2026 lost their colours (23 among them); 5 now, none of 1 px/mm or more. The card's
    own bands lie beside its white within 3 mm, which blur brings in: centred on them, its
    markers looked 1-2.4 % large, and 83 and 115 (1.0 and 1.18 px/mm) lost their colours; so
    the card's markers grow from their edges as much as the tiles' did."""
    board = boards(index + 1)[index]
    assert board.conditions.glare == 0
    rendered = benchmark_picture(board)[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert not any("glare" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def _beside_units(rendered: Rendered, found: Recognition, near: float, far: float) -> Any:
    """The picture with a skin-coloured bar beside every tile's unit slot, ``near`` to
    ``far`` mm beyond the slot's zone on the side towards the tile's centre (a fingertip,
    a pencil), drawn through each found tile's homography."""
    kit = load_kit()
    image = rendered.image.copy()
    for tile in found.tiles:
        spec = next(s for s in kit.variants[tile.reading.variant] if s.name == "unit")
        zone = zone_inradius(kit, spec)
        x, y = spec.centre
        side = 1.0 if y < 0 else -1.0
        bar = np.array(
            [
                [x - 14, y + side * (zone + near)],
                [x + 14, y + side * (zone + near)],
                [x + 14, y + side * (zone + far)],
                [x - 14, y + side * (zone + far)],
            ]
        )
        corners = cv2.perspectiveTransform(bar.reshape(-1, 1, 2), tile.to_image).reshape(-1, 2)
        cv2.fillPoly(image, [np.round(corners).astype(np.int32)], (110, 150, 205), cv2.LINE_AA)
    return image


def _units_read(rendered: Rendered, image: Any) -> tuple[int, int, list[str]]:
    """How many unit slots read right and unknown in ``image``, and which read wrong."""
    found = recognize(image, expected=list(rendered.tiles))
    right = unknown = 0
    wrong = []
    for tile in found.scan.tiles:
        reading = next(r for r in tile.slots if r.slot == "unit")
        want = rendered.tiles[tile.sector].slots["unit"]
        if not reading.known:
            unknown += 1
        elif (reading.state, reading.colour, reading.kind) == (want.state, want.colour, want.kind):
            right += 1
        else:
            wrong.append(f"{tile.sector}: {want.describe()} read {reading.describe()}")
    return right, unknown, wrong


def test_something_beside_a_slot_but_clear_of_the_bare_tile_nearest_it_leaves_it_read(
    small: State,
) -> None:
    """Whatever lies over a slot crosses the bare tile nearest its zone first: only that
    ring (``COVER_REACH`` mm wide) says whether the slot is covered. A fingertip 5-12 mm
    beyond a unit's zone left all 18 units unknown when the whole 7 mm surround counted
    (issue 18's benchmark: 138 more slots right alone, 188 with the prior, none wrong)."""
    rendered = render(small, FINE)
    found = recognize(rendered.image, expected=list(rendered.tiles))
    image = _beside_units(rendered, found, COVER_REACH + 1.2, 12.0)
    right, unknown, wrong = _units_read(rendered, image)
    assert wrong == []
    assert (right, unknown) == (len(small.galaxy.ids), 0)


def test_something_at_the_edge_of_a_slots_zone_makes_it_unknown(small: State) -> None:
    """The guard on the rule above: the same bar from 1 mm beyond the zone, in the ring
    nearest it, makes every unit holding a token unknown (it may reach where a token lies).
    An empty unit slot whose outline shows whole is read empty (``OUTLINE_WHOLE``): what
    lay over it would hide its outline there."""
    rendered = render(small, FINE)
    found = recognize(rendered.image, expected=list(rendered.tiles))
    right, unknown, wrong = _units_read(rendered, _beside_units(rendered, found, 1.0, 12.0))
    empty = sum(t.slots["unit"].state is SlotState.EMPTY for t in rendered.tiles.values())
    assert wrong == []
    assert 0 < empty < len(small.galaxy.ids)
    assert (right, unknown) == (empty, len(small.galaxy.ids) - empty)


def test_a_hands_edge_by_an_empty_mineral_slot_is_no_mineral() -> None:
    """A light patch of skin hue inside a mineral outline is not read as the mineral grey
    (issue 18's benchmark, picture 21: S20's mineral1 had read as a token at 0.73)."""
    _covered_slots_not_read_as(without_craft(21), [("S20", "mineral1")], SlotState.TOKEN)


def _covered_slots_not_read_as(
    board: Board, where: list[tuple[str, str]], state: SlotState
) -> None:
    """Issue 18's benchmark picture ``board``, read alone: each (sector, slot) of ``where``,
    something over it, is not read as ``state``, and nothing in the picture is read wrong."""
    rendered = benchmark_picture(board)[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    for sector, slot in where:
        assert slot in rendered.tiles[sector].occluded
        tile = found.scan.tile(sector)
        assert tile is not None
        assert next(r for r in tile.slots if r.slot == slot).state is not state
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_a_fingers_edge_over_an_empty_mineral_slot_is_too_red_for_a_mineral() -> None:
    """Within the mineral grey's hue limit, but redder than it as only skin is: a finger's
    edge half over an empty slot is not a mineral (issue 18's second set of pictures, seed
    7, picture 4: S22's mineral3 and S47's mineral4 read as tokens at 0.77 and 0.69, their
    rings hemmed in on the side the finger lay)."""
    _covered_slots_not_read_as(
        without_craft(4, seed=7), [("S22", "mineral3"), ("S47", "mineral4")], SlotState.TOKEN
    )


def test_a_dark_arm_over_a_mineral_on_a_tile_whose_marker_it_hides_is_not_read_empty() -> None:
    """Issue 18's benchmark, `warm` 83 picture 15 (0.87 px/mm): a dark arm in warm light
    over S46's marker and its mineral3 token looks like the dark tile in colour, so the
    slot's ring and surround pass for bare tile; the arm's texture and the print beside it
    lifted the slot's outline to 0.54 of the board's mineral outlines, over the 0.45 a
    mineral's outline needs, and the slot read "empty" at 0.54. On a tile whose marker
    does not show whole a mineral's outline must show 0.6 of the board's
    (``OUTLINE_SHARE_HIDDEN``)."""
    _covered_slots_not_read_as(boards(16, 83, "warm")[15], [("S46", "mineral3")], SlotState.EMPTY)


def test_a_fingertip_as_light_as_a_mineral_is_too_red_for_one() -> None:
    """Issue 18's benchmark, `lamps` 53 picture 5 (1.13 px/mm): a fingertip over S3's empty
    mineral3, at 0.95 of the mineral grey's lightness and within its hue, 12.1 redder than
    the grey for each whole grey it shows. Warm-lit tokens come as red (up to 17.3), but
    at ``GREY_REDDER`` 13 this fingertip read as a mineral at 1.0: it stays unknown."""
    _covered_slots_not_read_as(boards(6, 53, "lamps")[5], [("S3", "mineral3")], SlotState.TOKEN)


def _read_with(small: State, monkeypatch: pytest.MonkeyPatch, kind: str, made: Any) -> set[str]:
    """How every ``kind`` slot of a clean picture reads when what was measured of it is
    replaced by the fields ``made(refs, measured)`` gives. Past the tile's cut nothing
    looks like a body made up so (what was measured there was measured against the slot's
    real colour: an empty slot by a neighbouring tile's face of its own tile's colour)."""
    measure = slots.measure

    def changed(layouts: Any, lit: Any, refs: slots.References, *rest: Any) -> Any:
        return [
            dataclasses.replace(m, beyond_like=np.zeros_like(m.beyond_like), **made(refs, m))
            if m.kind.kind == kind
            else m
            for m in measure(layouts, lit, refs, *rest)
        ]

    monkeypatch.setattr(recognize_module, "measure", changed)
    found = recognize(render(small, FINE).image, expected=small.galaxy.ids)
    return {r.describe() for t in found.scan.tiles for r in t.slots if r.slot.startswith(kind)}


def _half_grey(redder: float) -> Any:
    """A mineral slot's inside half bare tile and half a patch as light as the card's
    mineral grey, ``redder`` than it in a* and as much yellower in b*."""

    def made(refs: slots.References, m: slots.Measured) -> dict[str, Any]:
        grey, tile = refs.swatches["mineral"], refs.tile
        patch = grey + np.array([0.0, redder, redder], np.float32)
        span = float(grey[0] - tile[0]) / refs.light_span
        return {
            "colour": np.broadcast_to((patch + tile) / 2, m.colour.shape).copy(),
            "lightness": np.full(m.lightness.shape, 0.5 * span, np.float32),
            "spread": np.full(m.spread.shape, 2.0, np.float32),
        }

    return made


def test_a_light_fingertip_half_over_an_empty_mineral_slot_is_too_red_for_a_mineral(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half over the slot, the lightest skin (sRGB 236, 196, 174: 12 redder than the mineral
    grey in a*, 13 yellower) and the dark tile beside it come to 8 redder than the grey,
    inside a fixed limit of 9, and half the grey's lightness, where a mineral reads: the
    redness a mineral may show grows with how much of it shows (``GREY_REDDER`` for each
    whole grey), so the patch is unknown. The grey itself, half showing, still reads."""
    assert _read_with(small, monkeypatch, "mineral", _half_grey(12.0)) == {"unknown"}
    assert _read_with(small, monkeypatch, "mineral", _half_grey(0.0)) == {"token"}


def _whitish(redder: float) -> Any:
    """A slot's inside an even patch ``redder`` than the card's white in a* and as much
    yellower, 12 darker."""

    def made(refs: slots.References, m: slots.Measured) -> dict[str, Any]:
        patch = refs.swatches["white"] + np.array([-12.0, redder, redder], np.float32)
        distances = np.sqrt(((patch - refs.table()) ** 2).sum(axis=1))
        first, second = np.sort(distances)[:2]
        return _even_body(m, patch, int(np.argmin(distances)), first, second, hue=30.0)

    return made


def _even_body(
    m: slots.Measured, colour: Any, nearest: int, first: float, second: float, *, hue: float
) -> dict[str, Any]:
    """Every slot's body an even patch of ``colour``, ``first`` from its nearest swatch
    (``nearest``, an index of ``slots.NAMES``) and ``second`` from the next, ``hue`` from
    bare tile's and as light as the lightest token."""
    return {
        "colour": np.broadcast_to(colour, m.colour.shape).copy(),
        "spread": np.full(m.spread.shape, 2.0, np.float32),
        "nearest": np.full(m.nearest.shape, nearest),
        "d1": np.full(m.d1.shape, first, np.float32),
        "d2": np.full(m.d2.shape, second, np.float32),
        "hue": np.full(m.hue.shape, hue, np.float32),
        "lightness": np.full(m.lightness.shape, 1.0, np.float32),
    }


def test_the_lightest_skin_over_a_claim_slot_is_too_red_for_a_white_token(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lightest skin the renderer draws (sRGB 236, 196, 174) lies 21 from the card's
    white in Lab, inside ``FAR``, and far from every other swatch: a fingertip over a slot
    whose ring it misses read as a white token (issue 18's benchmark, picture 104: a white
    strike craft). It is 12 redder than white; a white token is at most ``WHITE_REDDER``
    redder than its swatch (1,127 read on three sets of pictures: at most 4). White itself,
    a shade darker, still reads."""
    assert _read_with(small, monkeypatch, "claim", _whitish(12.0)) == {"unknown"}
    assert _read_with(small, monkeypatch, "claim", _whitish(0.0)) == {"white"}


def test_a_fingertip_over_an_empty_craft_slot_is_too_red_for_a_white_token(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18's benchmark, hands set 71, picture 26: a fingertip over an empty strike-craft
    slot, the rest of its surround bare tile, read as a white strike craft, 8.9 redder than
    the card's white (``GREY_REDDER``, a mineral's limit, allowed 9). A white token is at
    most ``WHITE_REDDER`` (6) redder; one 4 redder, as the reddest read, still reads."""
    assert _read_with(small, monkeypatch, "craft", _whitish(8.9)) == {"unknown"}
    assert _read_with(small, monkeypatch, "craft", _whitish(4.0)) == {"white"}


def _off_pink(far: float, nearer: float) -> Any:
    """Every slot's body in pink's lightness and hue, but measured ``far`` from the card's
    pink and ``nearer`` it than any other swatch."""

    def made(refs: slots.References, m: slots.Measured) -> dict[str, Any]:
        pink = slots.NAMES.index("pink")
        return _even_body(m, refs.swatches["pink"], pink, far, far + nearer, hue=40.0)

    return made


def test_a_token_plainly_nearest_one_swatch_is_read_a_little_further_off_it(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pink and a yellow strike craft on a tile drawn apart from the recognizer (issue
    18, seed 1818 picture 4) lay 24.1 and 25.8 from their swatches, 19 and 34 nearer them
    than the next, and went unknown at ``FAR`` (24). A body up to ``FAR_CLEAR`` (28) off its
    swatch is read when it is ``FAR_CLEAR_MARGIN`` (18) nearer it than any other; one only
    ``MARGIN`` nearer, or further than 28, stays unknown. (The card's reading alone: the
    picture's pink tokens lie near such a body, and the reading against the kit's printed
    colours would read it pink, ``slots.PRINTED_ANCHOR``.)"""
    monkeypatch.setattr(slots, "PRINTED_ANCHOR", 0.0)
    assert _read_with(small, monkeypatch, "craft", _off_pink(26.0, 20.0)) == {"pink"}
    assert _read_with(small, monkeypatch, "craft", _off_pink(26.0, 12.0)) == {"unknown"}
    assert _read_with(small, monkeypatch, "craft", _off_pink(29.0, 30.0)) == {"unknown"}
    assert _read_with(small, monkeypatch, "craft", _off_pink(23.0, 12.0)) == {"pink"}


def test_a_glyph_faint_in_a_coarse_picture_names_no_unit() -> None:
    """Issue 18's benchmark, warm set 73, picture 23 (0.62 px/mm): a blue carrier whose light
    hole blur had filled read as a battleship, its centre 8.7 and its middle ring 10.0 darker
    than the token. In a picture too coarse for small things a glyph's ink must be
    ``GLYPH_LEAST_COARSE`` (11) darker; in a fine picture ``GLYPH_LEAST`` (10) still does."""
    centre, middle = np.array([8.7], np.float32), np.array([10.0], np.float32)
    fine, _ = slots._glyphs(centre, middle)
    coarse, _ = slots._glyphs(centre, middle, coarse=True)
    assert slots._UNITS[int(fine[0])] is UnitType.BATTLESHIP
    assert int(coarse[0]) == -1
    clear, _ = slots._glyphs(centre * 1.2, middle * 1.2, coarse=True)
    assert slots._UNITS[int(clear[0])] is UnitType.BATTLESHIP


def test_a_battleships_ring_that_blur_lightens_on_a_light_token_is_still_ink() -> None:
    """``GLYPH_INKED``: on a white battleship at about 1 px/mm (picture 9 drawn apart from the
    recognizer, S13) the disc's centre read 84 darker than the token and its middle ring 53,
    0.63 of it, short of ``GLYPH_DARK``: unknown. Ink 30 or more darker than its token
    counts the other part as ink from 0.45 as dark (no destroyer's ring nor carrier's hole
    read over 0.23 of ink that dark); fainter ink keeps 0.65."""
    glyphs = np.array([84.4, 15.0, 60.0, 84.4], np.float32), np.array([52.8, 8.0, 14.0, 35.0])
    kinds, _ = slots._glyphs(glyphs[0], glyphs[1].astype(np.float32))
    read = [slots._UNITS[k].value if k >= 0 else "unknown" for k in kinds.tolist()]
    assert read == ["battleship", "unknown", "destroyer", "unknown"]
    drawn = drawn_apart(9)
    truth = _Picture(drawn)
    tile = recognize(drawn.image, expected=tuple(truth.tiles)).scan.tile("S13")
    assert tile is not None
    assert {r.slot: r.describe() for r in tile.slots}["unit"] == "white battleship"


def test_glare_makes_what_it_covers_unknown_never_something(small: State) -> None:
    """A strong highlight over the board: no reading under it is wrong (issue 18)."""
    rendered = _first(
        small,
        lambda seed: dataclasses.replace(CLEAR, glare=2, glare_strength=2.0, seed=seed),
        lambda r: sum(len(t.glared) for t in r.tiles.values()) >= 4,
    )
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_glare_varying_across_a_dark_tile_is_taken_off_where_it_falls(small: State) -> None:
    """A broad highlight over dark-printed tiles lifts one side of a tile more than the other.
    Taking the tile's median lift off everywhere left its dim side below black (hue gone
    wild: surrounds "covered", a blue claim read aqua); only the least lift the tile's field
    shows comes off the whole tile, the rest slot by slot (issue 18's benchmark, pictures 36
    and 39: 67 % of slots right here before, 90 % after)."""
    glared = dataclasses.replace(FINE, glare=1, glare_strength=0.6, dark_tiles=0.6, seed=6)
    tally = _tally(render(small, glared))
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.88 * tally.visible, tally.unknown


@pytest.mark.slow
def test_a_face_on_its_map_cell_with_no_edge_line_showing_is_placed_by_its_outlines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 41 picture 7 (1.12 px/mm), read with the game's
    map: a hand over S20 and its marker, and over its edge line on every side. The map names
    the face on S20's cell, and its slot outlines show where the fitted pose puts them
    (``CARRIED_EMPTIES`` empty, one not a strike craft's): placed, its three visible slots
    read right and nothing in the picture wrong. Asked for its edge line as before, it is not
    placed."""
    picture = drawn_apart(7, 41)
    truth = _Picture(picture)
    assert not truth.tiles["S20"].marker_visible
    cells = turned_by_players(picture.cells, "turns 41 7")  # type: ignore[arg-type]
    found = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert truth.misread(found.scan) == []
    assert _shown_known(found, truth, "S20") == (3, 3)
    monkeypatch.setattr(recognize_module, "_outlines_show", lambda *_, **__: False)
    again = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert "S20" not in again.scan.sectors


@pytest.mark.slow
def test_a_face_on_its_map_cell_with_no_edge_line_showing_is_placed_by_three_sure_tokens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 36 picture 7 (1.15 px/mm), read with the game's
    map: a hand and glare over S26, its marker not found, its edge line hidden. Looked for
    from the free cell beside the tiles found, along its neighbour's turn, the map names
    the face on S26's cell; one outline reads empty, not three, but three minerals read a
    token at least ``MAP_TOKEN_SURE`` surely: placed, seven of its ten visible slots read
    right and nothing in the picture wrong. Without the sure tokens, it is not placed.
    (Looked for from the map's cell, as it now is, three outlines read empty and nine of
    its slots read right: ``face_fit.MAP_CELL_FIRST``.)"""
    picture = drawn_apart(7, 36)
    truth = _Picture(picture)
    cells = turned_by_players(picture.cells, "turns 36 7")  # type: ignore[arg-type]
    found = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert truth.misread(found.scan) == []
    assert _shown_known(found, truth, "S26") == (9, 10)
    monkeypatch.setattr(face_fit, "MAP_CELL_FIRST", False)
    monkeypatch.setattr(face_fit, "ALONG_THE_GRID", False)
    found = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert truth.misread(found.scan) == []
    assert _shown_known(found, truth, "S26") == (7, 10)
    monkeypatch.setattr(recognize_module, "MAP_TOKENS", 99)
    again = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert "S26" not in again.scan.sectors


@pytest.mark.slow
def test_a_hidden_tile_under_a_pale_arm_is_read_slot_by_slot_not_called_glared() -> None:
    """Issue 18's pictures drawn apart, seed 35 picture 7 (1.01 px/mm), read with the game's
    map: a pale arm over S10, its marker and nine tenths of its bare field hidden (the
    field's tenth percentile 0.82 of its borrowed light above the print, as light as glare
    over the whole tile). Named by the map at its face, it read "glare over the tile",
    nothing read, and was not kept; judged slot by slot, as a tile whose square is hidden
    is (``GLARE_TILE_MOST``), it is placed, all eight of its visible slots read right
    (seven before a coloured token beside the arm was no longer doubted for it,
    ``slots.HIDDEN_SURROUND_KINDS``), and nothing in the picture reads wrong."""
    picture = drawn_apart(7, 35)
    truth = _Picture(picture)
    cells = turned_by_players(picture.cells, "turns 35 7")  # type: ignore[arg-type]
    found = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert truth.misread(found.scan) == []
    assert not any(note.startswith("S10: glare over the tile") for note in found.scan.notes)
    assert _shown_known(found, truth, "S10") == (8, 8)


@pytest.mark.slow
def test_a_tile_found_by_its_marker_under_glare_borrows_its_light_and_is_read_slot_by_slot() -> (
    None
):
    """Issue 18's pictures drawn apart, seed 40 picture 22 (1.10 px/mm): a highlight over the
    whole of S33, its marker found. Glare over its field lies over its white square too, and
    S33 read "glare over the tile", none of its ten visible slots read. While other tiles'
    squares show, it is read as a tile whose square is hidden (``GLARE_TILE_MOST``): its
    light borrowed from theirs, each slot judged by the glare it gets. Nine of its ten
    visible slots are then right, and nothing in the picture reads wrong."""
    picture = drawn_apart(22, 40)
    truth = _Picture(picture)
    assert truth.tiles["S33"].marker_visible
    found = recognize(picture.image, expected=tuple(truth.tiles))
    assert truth.misread(found.scan) == []
    assert not any(note.startswith("S33: glare over the tile") for note in found.scan.notes)
    assert _shown_known(found, truth, "S33") == (9, 10)


@pytest.mark.slow
def test_too_few_clear_empty_outlines_on_marker_found_tiles_are_counted_on_every_tile() -> None:
    """Issue 18's pictures drawn apart, seed 40 picture 31 (1.27 px/mm): a sleeved hand over
    S10 and S39, only S43's marker showing, and S43 shows two slots that look empty and
    clear. Fewer than ``OUTLINES_LEAST`` gave the board no outline contrast, and every slot
    that could read empty was unknown (13 of the 18 visible slots on the two tiles placed
    right); counted on every tile read, all 18 are right and nothing reads wrong."""
    picture = drawn_apart(31, 40)
    truth = _Picture(picture)
    assert [s for s, t in truth.tiles.items() if t.marker_visible] == ["S43"]
    found = recognize(picture.image, expected=tuple(truth.tiles))
    assert truth.misread(found.scan) == []
    shown = [
        r for t in found.scan.tiles for r in t.slots if r.slot not in truth.tiles[t.sector].occluded
    ]
    assert found.scan.sectors == ("S39", "S43")
    assert (sum(r.known for r in shown), len(shown)) == (18, 18)


@pytest.mark.slow
def test_faces_refused_do_not_lower_the_outline_contrast_tiles_found_by_their_marker_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 36 picture 17 (1.40 px/mm), with the map: only
    S43's marker shows, and one slot on it looks empty and clear (its claim, its outline
    33.3 lighter than the slot). Counted on every tile read, the faces tried under the hand
    add two mineral slots at 9.8 and 7.8 (a face then refused: it shows no outline where it
    looks for one), and their median alone would let an outline at 4.9 pass for an empty
    slot's. The board's outline contrast is never below what the tiles found by their
    marker show; S43's visible slots are all read right, and nothing reads wrong."""
    picture = drawn_apart(17, 36)
    truth = _Picture(picture)
    assert [s for s, t in truth.tiles.items() if t.marker_visible] == ["S43"]
    outlines: list[float] = []
    decide = recognize_module.decide

    def spy(*args: Any, **kwargs: Any) -> Any:
        outlines.append(args[3].outline)
        return decide(*args, **kwargs)

    monkeypatch.setattr(recognize_module, "decide", spy)
    cells = turned_by_players(picture.cells, "turns 36 17")  # type: ignore[arg-type]
    found = recognize(picture.image, expected=tuple(truth.tiles), cells=cells)
    assert truth.misread(found.scan) == []
    assert outlines and min(outlines) >= 33.0
    assert _shown_known(found, truth, "S43") == (10, 10)


def _shown_known(found: Recognition, truth: _Picture, sector: str) -> tuple[int, int]:
    """How many of ``sector``'s slots no hand or glare hides ``found`` reads, of how many."""
    tile = found.scan.tile(sector)
    assert tile is not None
    shown = [r for r in tile.slots if r.slot not in truth.tiles[sector].occluded]
    return sum(r.known for r in shown), len(shown)


def _read_unknown_with_its_prior(board: Board, sector: str, slot: str) -> None:
    """Issue 18's benchmark picture ``board``, read with the prior the camera would hold (its
    own reading of the same table just before, nothing over it): ``sector``'s ``slot`` is
    unknown, and nothing in the picture is read wrong."""
    rendered = benchmark_picture(board)[0]
    prior = clear_prior(board)
    assert prior is not None
    found = recognize(rendered.image, expected=list(rendered.tiles), prior=prior)
    tile = found.scan.tile(sector)
    assert tile is not None
    assert next(r for r in tile.slots if r.slot == slot).state is SlotState.UNKNOWN
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_glare_taken_off_a_whole_tile_beyond_what_falls_by_a_slot_is_given_back(
    small: State,
) -> None:
    """A highlight falling off across a tile: the glare taken off the whole tile (its field's
    low percentile) was more than fell by the slots near its far edge, and the shortfall was
    then divided out as shade, which turned the dark tile a saturated blue (a ring at L* 15,
    a* 52, b* -71 where bare tile is 17, 4, -13: every point foreign). What the surround
    lacks, up to what was taken, is now given back first: 176 of 211 visible slots right
    before, 192 now (issue 18's benchmark: 151 more from 1 px/mm)."""
    glared = dataclasses.replace(FINE, glare=1, glare_strength=0.6, dark_tiles=0.6, seed=1)
    tally = _tally(render(small, glared))
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.88 * tally.visible, (tally.right, tally.visible, tally.unknown)


def test_a_tile_under_a_lamps_broad_halo_is_read_slot_by_slot(small: State) -> None:
    """A halo lifting a whole tile's bare field by 0.14-0.2 of paper white: with glare taken
    off where it falls (and given back where less falls), its slots read; the tile is no
    longer refused whole. 168 of 194 visible slots right before, 187 now (issue 18's
    benchmark: 144 more from 1 px/mm, none wrong)."""
    halo = dataclasses.replace(FINE, glare=1, glare_strength=1.0, seed=1)
    tally = _tally(render(small, halo))
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.95 * tally.visible, (tally.right, tally.visible, tally.unknown)


def test_slots_under_more_glare_than_a_fifth_of_paper_white_are_unknown_where_it_falls(
    small: State,
) -> None:
    """Under a highlight at twice paper white, glare is judged slot by slot: the slots it
    lifts by more than a fifth of paper white all told (``GLARE_ALL_MOST``) are unknown,
    the rest of their tiles read, and nothing anywhere is read wrong. (Refusing tiles whole
    above 0.2 left 137-141 of 150 visible slots right here.) The renderer hides a slot
    under glare above a fifth of paper white anywhere over its zone; where the rest of the
    surround lies under less, the plane that follows the veil (``VEIL_ABOVE``) reads it,
    right: 46 of the 66 such slots are unknown (56 before the plane followed veils)."""
    bright = dataclasses.replace(FINE, glare=1, glare_strength=2.0, seed=6)
    rendered = render(small, bright)
    found = recognize(rendered.image, expected=list(rendered.tiles))
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.98 * tally.visible, (tally.right, tally.visible, tally.unknown)
    glared = unknown = 0
    for sector, truth in rendered.tiles.items():
        tile = found.scan.tile(sector)
        assert tile is not None
        glared += len(truth.glared)
        unknown += sum(1 for r in tile.slots if r.slot in truth.glared and not r.known)
    assert glared >= 40 and unknown >= 0.65 * glared, (unknown, glared)


def test_a_highlights_veil_over_a_surround_is_followed_and_its_slots_read() -> None:
    """Issue 18's benchmark picture 78 (1080p, 1.17 px/mm): a highlight's veil lifts S22's
    strike-craft slots and their surrounds evenly, to L* 45 where bare tile reads 18 (some
    0.12 of paper white). Each surround point counted at most three times bare tile, the
    plane took off a third of it, every ring read lighter than bare tile, and all six
    empty slots were unknown ("covered"). The plane now follows a smooth veil up."""
    rendered = benchmark_picture(boards(79)[78])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    tile = found.scan.tile("S22")
    assert tile is not None
    craft = [r.describe() for r in tile.slots if r.slot.startswith("craft")]
    assert craft == ["empty"] * 6, craft
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_a_surrounds_plane_follows_a_veil_but_not_a_bright_object_on_one_side() -> None:
    """The plane through a slot's surround (``slots.surround_planes``): under an even veil
    of 0.12 of paper white over a tile whose bare print is 0.025, it shows the veil; with
    paper white over a fifth to a third of the surround, on one side, instead, it takes
    off no more than the cap at three times bare tile allows (``LEVEL_CLIP``): the
    object's points do not move the surround's median."""
    kit = load_kit()
    lay = layout(kit, 0)
    bare = 0.025
    at = lay.points[lay.bare]
    veil = np.full((1, len(at)), bare + 0.12, np.float32)
    for kind in lay.kinds:
        planes = slots.surround_planes(veil, kind.plane, bare)
        assert np.allclose(planes[0, :, 0], bare + 0.12, atol=0.005), kind.kind
    unit = next(k for k in lay.kinds if k.kind == "unit")
    around = unit.plane[0].any(axis=0)
    centre = np.array(kit.variants[0][unit.positions[0]].centre)
    reach = at[around, 0].max() - centre[0]
    for side in (0.7, 0.5, 0.3):
        over = around & (at[:, 0] > centre[0] + side * reach)
        assert 0.2 < over.sum() / around.sum() < 0.35
        white = np.where(over, np.float32(1.0), np.float32(bare))[None, :]
        level = slots.surround_planes(white, unit.plane, bare)[0, 0, 0]
        capped = np.where(over, np.float32(slots.LEVEL_CLIP * bare), np.float32(bare))
        assert level == pytest.approx(float(capped @ unit.plane[0, 0]), abs=1e-4)
        assert level < bare + 0.03, level


def test_a_surrounds_plane_is_the_same_whichever_surrounds_it_looks_at_again() -> None:
    """``surround_planes`` looks again (at the veil's median) only at surrounds with a point
    above the cap: over tiles lit evenly, under a veil, and with bright objects in corners,
    its planes are those of looking again at every surround (within float32's rounding)."""
    kit = load_kit()
    lay = layout(kit, 0)
    bare = 0.025
    rng = np.random.default_rng(18)
    count = 40
    seen = rng.normal(bare, 0.003, (count, len(lay.bare))).astype(np.float32)
    seen[10:20] += np.float32(0.12)  # a veil over whole tiles
    spots = rng.random(seen.shape) < 0.05
    seen[20:] = np.where(spots[20:], np.float32(1.0), seen[20:])  # bright specks
    seen[30:, :150] += np.float32(0.2)  # a veil over part of each
    least, above = np.float32(slots.LEVEL_CLIP * bare), np.float32(slots.VEIL_ABOVE * bare)
    for kind in lay.kinds:
        planes = slots.surround_planes(seen, kind.plane, bare)
        for s, plane in enumerate(kind.plane):
            around = plane.any(axis=0)
            points = seen[:, around]
            caps = np.maximum(np.median(points, axis=1) + above, least)
            every = np.minimum(points, caps[:, None]) @ plane[:, around].T
            assert np.allclose(planes[:, s], every, rtol=1e-5, atol=1e-6), (kind.kind, s)
    assert (seen > least).any() and not (seen[:10] > least).any()


def test_a_slot_under_more_glare_than_a_fifth_of_paper_white_all_told_is_unknown() -> None:
    """Issue 18's benchmark picture 43, read with the camera's prior: S4's craft6 lies under
    a highlight (glare over 0.2 of paper white at the slot), on a tile whose field is lifted
    less than half of it. Its surround's plane, each point capped at three times bare tile,
    showed too little glare to refuse it, and it read as a purple strike craft (at 0.05);
    the surround's median, with what was taken off the tile, now makes it unknown."""
    _read_unknown_with_its_prior(without_craft(43), "S4", "craft6")


def test_a_ring_is_covered_only_beyond_what_the_pictures_own_noise_puts_there() -> None:
    """Where 4 % of bare points lie beyond the bare-tile limits (warm light, JPEG, a
    highlight's veil), two such points in a ring of 20 are noise one time in five; a ring
    is covered only by more foreign points than the noise gives one time in a thousand. In
    a clean picture two still cover it (and two fifths of any ring always do:
    ``COVERED_ANYWAY``)."""
    sizes = np.array([8, 20, 40])
    assert slots._least_foreign(sizes, 0.0).tolist() == [2, 2, 2]
    assert slots._least_foreign(sizes, 0.0005).tolist() == [2, 2, 2]
    assert slots._least_foreign(sizes, 0.04).tolist() == [4, 5, 7]


def test_two_foreign_points_in_a_small_ring_are_noise_in_a_warm_jpeg_picture() -> None:
    """Issue 18's benchmark, picture 104 (3,134 K, JPEG 60, 1.22 px/mm): a strike-craft
    slot's ring nearest its zone is 8-10 points, and the picture's noise put two to four
    foreign points in many of them, fewer than it makes likely in a ring that size. A fifth
    of a ring covered it anyway, and 19 visible empty craft slots were unknown (read without
    the camera's prior); two fifths do now (``COVERED_ANYWAY``), and 5 are."""
    craft = _unknown_without_a_wrong_reading(
        benchmark_picture(boards(105)[104])[0], " craft", "empty read"
    )
    assert len(craft) <= 6, craft


def test_slots_in_a_warm_noisy_picture_are_read_through_its_noise(small: State) -> None:
    """Warm light with JPEG 65 and a highlight: a few bare points of every ring lie beyond
    the limits, and before the picture's own noise was weighed, 18 visible slots were
    unknown and 198 of 216 right; now 204, none wrong."""
    warm = dataclasses.replace(
        FINE, kelvin=2900, jpeg=65, noise=3.5, bayer=True, glare=1, glare_strength=0.5, seed=6
    )
    tally = _tally(render(small, warm))
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 202, (tally.right, tally.visible, tally.unknown)


def test_a_hand_over_a_slot_and_one_side_of_it_leaves_it_unknown_however_clear_its_ring() -> None:
    """Issue 18's benchmark picture 104, read with the camera's prior: a hand lies over
    S24's craft1 and the tile beside it, but the 8 points of its ring nearest the zone held
    one foreign point (noise, in this picture). Once glare was given back (above), the skin
    read as a white strike craft; the whole surround, 42 % foreign (38 % beyond the
    picture's noise), makes it unknown."""
    _read_unknown_with_its_prior(without_craft(104), "S24", "craft1")


def _read_alone_as_drawn(index: int, sector: str, name: str) -> SlotReading:
    """Seed 2026's benchmark picture ``index`` read alone: nothing in it read wrong, and
    ``sector``'s slot ``name``, which nothing covers, read as it was drawn (not unknown)."""
    picture, sectors = benchmark_picture(boards(index + 1)[index])
    found = recognize(picture.image, expected=sectors)
    tally = _tally(picture, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    tile = found.scan.tile(sector)
    assert tile is not None
    reading = next(r for r in tile.slots if r.slot == name)
    truth = picture.tiles[sector]
    assert name not in truth.occluded
    assert reading.known and truth.drawn(reading), reading
    return reading


def test_a_slots_surround_is_covered_only_beyond_the_pictures_own_noise() -> None:
    """Issue 18's benchmark, seed 2026 picture 104 read alone (3,134 K, JPEG 60, 1.22
    px/mm): the picture's noise puts 3.9 % of bare points beyond the bare-tile limits, and
    33 % of the surround of S25's mineral1, a token no hand is near, was foreign. Counted
    with the noise, that covered it (``SURROUND_COVERED``, 30 %), and it was unknown;
    beyond the noise it is not, and the token is read."""
    assert _read_alone_as_drawn(104, "S25", "mineral1").state is SlotState.TOKEN


def test_an_empty_slot_whose_outline_shows_whole_beside_a_hand_is_read_empty() -> None:
    """Issue 18's benchmark, seed 2026 picture 78 read alone (1080p, 1.17 px/mm): a hand
    lies over S31's claim, unit and minerals, and 42 % of the surround of craft6 beside
    them is foreign (``SURROUND_COVERED``, 30 %), but its ring is clear and every side of
    its outline shows: it was unknown, and is read empty (``OUTLINE_WHOLE``)."""
    reading = _read_alone_as_drawn(78, "S31", "craft6")
    assert reading.state is SlotState.EMPTY


def test_an_empty_slot_whose_outline_shows_whole_by_a_thumb_over_its_ring_is_read_empty() -> None:
    """Issue 18's benchmark, seed 2026 picture 100 read alone (1.49 px/mm): the tip of a
    hand's thumb reaches over the strike-craft slots beside S44's empty craft3 and craft4,
    38 % of the ring nearest each one's zone, and both were unknown (``COVERED_SHARE``,
    6 %). Each outline shows on every side at 1.2 times the board's: nothing lies over
    either slot, and both are read empty, no surer than ``OUTLINED_SURE``."""
    for slot in ("craft3", "craft4"):
        reading = _read_alone_as_drawn(100, "S44", slot)
        assert reading.state is SlotState.EMPTY, slot
        assert reading.confidence <= slots.OUTLINED_SURE


def test_a_plainly_red_token_is_read_through_warm_lights_spread() -> None:
    """Issue 18's benchmark, seed 2026 picture 43 read alone (2,985 K, JPEG 70, dark tiles,
    1.01 px/mm): S6's red claim, nothing over it, spread 18.8 in Lab and lay 12.7 from the
    card's red, far nearer it than any other swatch. A body that plain could spread 18
    within 12 of its swatch (``UNEVEN_PLAIN``), and it was unknown; now 22 within 18
    (``PLAIN_FAR``) and 15 nearer it than the next (``PLAIN_MARGIN``): it is read, and
    nothing in the picture is read wrong."""
    assert _read_alone_as_drawn(43, "S6", "claim").colour is Colour.RED


def test_a_mineral_token_bluer_than_the_grey_in_warm_light_is_read() -> None:
    """Issue 18's benchmark, seed 2026 picture 83 read alone (2,719 K, JPEG 70, dark tiles,
    1.0 px/mm): S27's mineral3, a token nothing covers, lay 20.9 off every mix of the card's
    mineral grey and bare tile in hue, bluer toward the tile. It was unknown at 18
    (``MINERAL_HUE``); at 22 it is read, and nothing in the picture is read wrong."""
    assert _read_alone_as_drawn(83, "S27", "mineral3").state is SlotState.TOKEN


def test_the_cards_swatches_lose_only_the_glare_their_black_squares_show_not_their_colour() -> None:
    """A 1080p frame of an 8-player board (0.6 px/mm), 3,030 K, JPEG 60: each swatch's
    colour bleeds into the black square at its centre, and taken off channel by channel it
    took the swatch's colour with it. The purple swatch read (29, 21, 11) in Lab, brown,
    and five purple destroyers read blue at 0.49-0.57. Found on a second set of the
    benchmark's pictures (seed 7, picture 29); the glare is now taken off in the light's
    own colour."""
    board = without_craft(29, seed=7)
    rendered = benchmark_picture(board)[0]
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 40, (tally.right, tally.visible)


def test_a_highlights_even_halo_on_the_card_is_taken_off_and_colours_read() -> None:
    """A halo lifting the card's swatches by up to a quarter of paper white, evenly across
    each: the black squares say how much, so colours are read, and none wrong (issue 18's
    benchmark, picture 5: no claim or unit had been read on the whole board)."""
    board = without_craft(5)
    rendered = benchmark_picture(board)[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert not any("calibration card" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.95 * tally.visible, tally.unknown


def test_a_second_lamps_highlight_takes_that_lamps_colour() -> None:
    """The benchmark's ``lamps`` set (docs/benchmarks.md): highlights from a 2700 K desk lamp
    over a table lit at 6500 K are orange on white paper; from the one lamp, white."""
    black = np.zeros((8, 8, 3), np.uint8)
    ones = np.ones((8, 8), np.float32)
    shot = Conditions(kelvin=6500.0)
    seen = {
        lamp: photograph(
            black,
            gloss=ones,
            shade=ones,
            glare=ones * 0.5,
            paper=(255, 255, 255),
            shot=shot,
            rng=random.Random(1),
            glare_kelvin=lamp,
        )[4, 4].astype(int)
        for lamp in (None, 2700.0)
    }
    blue, _, red = seen[None]
    assert abs(red - blue) <= 2
    blue, _, red = seen[2700.0]
    assert red - blue > 60


def _tiles_under_a_highlight(
    glare_colour: npt.NDArray[np.float32], glare: list[float]
) -> tuple[Any, ...]:
    """``recognize._glare_colour``'s arguments for tiles of variant 0 printed alike, each in
    its own light, each with ``glare`` (a share of paper white) of a highlight of
    ``glare_colour`` (3, or one for each tile) over its field."""
    lay = layout(load_kit(), 0)
    count = len(glare)
    printed = np.array([0.030, 0.022, 0.018], np.float32)
    tile_luminance = float(colour.luminance(printed[None])[0])
    levels = np.linspace(0.7, 1.1, count).astype(np.float32)
    part = np.repeat((printed * levels[:, None])[:, None, :], len(lay.points), axis=1)
    colours = np.broadcast_to(glare_colour, (count, 3))
    part = part + np.array(glare, np.float32)[:, None, None] * colours[:, None, :]
    lows = colour.luminance(part[:, lay.field_at]).min(axis=1)
    lift = np.maximum(lows - tile_luminance * levels, 0).astype(np.float32)
    hidden = np.zeros(count, bool)
    return {0: part}, {0: lay}, [np.arange(count)], levels, lift, hidden, tile_luminance


def _desk_lamp() -> npt.NDArray[np.float32]:
    """A 2700 K lamp's colour on a picture balanced for daylight, of luminance 1."""
    warm = np.array([1.8, 0.84, 0.25], np.float32)
    out: npt.NDArray[np.float32] = warm / colour.luminance(warm[None])[0]
    return out


def _glare_as_grey(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glare taken off as grey, as where its colour cannot be read: what stands behind a
    second lamp's highlight when ``recognize._glare_colour`` does not."""
    monkeypatch.setattr(
        recognize_module, "_glare_colour", lambda *args: (np.ones(3, np.float32), args[4])
    )


def test_a_highlight_is_taken_off_in_its_lamps_colour() -> None:
    """A highlight is the lamp's reflection: what the tiles it lifts show beyond their bare
    print, as the tiles without it show the print, is the lamp's colour."""
    tiles = _tiles_under_a_highlight(_desk_lamp(), [0.0, 0.0, 0.001, 0.0, 0.05, 0.08, 0.0, 0.12])
    glare_colour, grey = recognize_module._glare_colour(*tiles)
    assert np.allclose(glare_colour, _desk_lamp(), atol=0.02), glare_colour
    assert np.allclose(grey, 0, atol=1e-6)


def test_a_highlights_colour_is_not_guessed_without_a_tile_free_of_it() -> None:
    tiles = _tiles_under_a_highlight(_desk_lamp(), [0.05, 0.06, 0.05, 0.07])
    glare_colour, _ = recognize_module._glare_colour(*tiles)
    assert np.array_equal(glare_colour, np.ones(3, np.float32))


def test_a_highlights_colour_is_not_guessed_from_tiles_that_disagree() -> None:
    """The dark tiles of a warm picture at JPEG 60 under a faint highlight showed anything
    from 0.1 to 3.2 of blue beyond their print: noise, not a lamp's colour."""
    rng = np.random.default_rng(1)
    noise = rng.uniform(0.1, 3.2, (8, 3)).astype(np.float32)
    noise /= colour.luminance(noise)[:, None]
    tiles = _tiles_under_a_highlight(noise, [0.0, 0.0, 0.0, 0.04, 0.05, 0.06, 0.04, 0.05])
    glare_colour, _ = recognize_module._glare_colour(*tiles)
    assert np.array_equal(glare_colour, np.ones(3, np.float32))


def test_a_highlight_nearly_of_the_pictures_own_light_is_taken_off_as_grey() -> None:
    near = np.array([1.2, 0.97, 0.7], np.float32)
    near /= colour.luminance(near[None])[0]
    tiles = _tiles_under_a_highlight(near, [0.0, 0.0, 0.001, 0.0, 0.05, 0.08, 0.0, 0.12])
    glare_colour, _ = recognize_module._glare_colour(*tiles)
    assert np.array_equal(glare_colour, np.ones(3, np.float32))


def test_empty_slots_under_a_second_lamps_highlight_read_empty() -> None:
    """Issue 18's ``lamps`` 67, picture 5 (4608 x 2592, a 2700 K highlight over a table lit
    at 5360 K): taken off as grey, the highlight left the tiles under it far redder and
    yellower than bare tile, and the ring round each of their empty strike-craft slots
    looked covered. 29 visible slots on the tiles found were unknown; taken off in the
    lamp's colour, 4."""
    rendered = benchmark_picture(boards(6, seed=67, harsh="lamps")[5])[0]
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert len(tally.unknown) <= 5, tally.unknown


def test_a_card_under_the_same_highlight_as_the_board_reads_no_colour() -> None:
    """Issue 18's ``lamps`` 53, picture 37 (0.90 px/mm, a daylight lamp's highlight over a
    2870 K table): with the highlight taken off the tiles in its colour, their bare print
    matched the card's tile swatch, which lay under the same highlight, and a yellow strike
    craft read white. As grey the two disagree (32 apart): the card's colours are not the
    board's, and no colour is read."""
    rendered = benchmark_picture(boards(38, seed=53, harsh="lamps")[37])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("do not match the board's" in note for note in found.notes), found.notes
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_a_hand_beside_a_slot_is_not_taken_off_as_a_warm_highlight() -> None:
    """Issue 18's ``lamps`` 59, picture 28 (1.05 px/mm, a 2700 K highlight over a daylit
    table, a hand): taken off in the lamp's colour slot by slot, the arm beside S44's third
    mineral looked like bare tile, and the token, in the arm's shadow, read empty. Skin is
    red in any light: a highlight redder than the light is taken off as grey around each
    slot, and the slot is unknown."""
    rendered = benchmark_picture(boards(29, seed=59, harsh="lamps")[28])[0]
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_random_conditions_never_give_a_confident_wrong_reading(state: State, seed: int) -> None:
    rendered = render(state, Conditions.random(random.Random(seed)))
    tally = _tally(rendered)
    assert tally.wrong == []
    assert tally.occluded_wrong == []


def test_a_picture_too_small_says_so(state: State) -> None:
    """Below half a pixel per millimetre: unusable, with a note saying what to do."""
    rendered = render(state, dataclasses.replace(CLEAR, fill=0.6))
    found = recognize(rendered.image)
    assert found.px_per_mm is not None and found.px_per_mm < 0.5
    assert found.quality is Quality.UNUSABLE
    assert any("too small" in note and "closer" in note for note in found.notes)
    assert _tally(rendered, found).wrong == []


def test_a_board_just_under_half_a_pixel_a_millimetre_is_never_called_usable() -> None:
    """The markers' median scale lies within about 5 % of the board's own: issue 18's
    benchmark picture 49 (a whole 8-player board at 0.492 px/mm) measured 0.504 and was
    called coarse, exit 0. Measured under 0.53 a picture is unusable."""
    rendered = benchmark_picture(boards(50)[49])[0]
    assert rendered.px_per_mm < 0.5
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert found.px_per_mm is not None and found.px_per_mm > 0.5
    assert found.quality is Quality.UNUSABLE
    assert any("too small" in note and "closer" in note for note in found.notes)


def test_below_half_a_pixel_a_millimetre_no_tokens_colour_is_read(small: State) -> None:
    """Below ``SMALLEST_PX_PER_MM`` a unit's body is a few pixels across, all of them near
    its edge (issue 18's benchmark read a yellow destroyer white at 0.37 px/mm in warm JPEG
    60): the tiles are found, the picture is called unusable, and no claim or unit is read
    by its colour (this clear picture read 28 of them, all right, before; a person moves the
    camera closer, or the attachment takes a still)."""
    rendered = render(small, dataclasses.replace(CLEAR, width=800, height=450))
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert found.px_per_mm is not None and found.px_per_mm < 0.45
    assert found.quality is Quality.UNUSABLE and len(found.scan.tiles) == len(rendered.tiles)
    assert not any(
        slot.state is SlotState.TOKEN and slot.colour is not None
        for tile in found.scan.tiles
        for slot in tile.slots
    )


def test_a_mineral_token_bluer_towards_its_tile_is_still_a_mineral() -> None:
    """JPEG keeps colour at half the resolution of light: a mineral token on a dark blue tile
    takes the tile's blue (the card's grey swatch sits on white). Issue 18's benchmark,
    picture 43 (2985 K, JPEG 70, 1.01 px/mm): mineral tokens lay 18-25 bluer than the
    card's grey, and 15 of the 60 visible were unknown for their hue alone. A mineral may
    lie anywhere between the grey's hue and bare tile's; now 7. A hand is red, off that
    line (``test_a_hands_edge_by_an_empty_mineral_slot_is_no_mineral`` and those after it)."""
    minerals = _unknown_without_a_wrong_reading(
        benchmark_picture(boards(44)[43])[0], " mineral", "token read"
    )
    assert len(minerals) <= 8, minerals


def test_an_empty_mineral_slots_outline_is_judged_against_the_minerals_own() -> None:
    """A mineral slot's triangle shows its outline less than a craft slot's ring or a claim's
    outline do (seed 2026's pictures from 1 px/mm: a median 0.93 of the board's outline
    contrast, against 1.02-1.06), and in a blurred picture less still; judged against the
    board's, empty minerals went unknown for an outline under 0.6 of it (issue 18's
    benchmark, picture 51, 3264 x 1836 at 1.09 px/mm with 0.9 px of blur: 0.87 of the
    board's on its empty minerals; 5 unknown). Judged against the minerals' own outlines (at
    most the board's): 2."""
    minerals = _unknown_without_a_wrong_reading(
        benchmark_picture(boards(52)[51])[0], " mineral", "empty read"
    )
    assert len(minerals) <= 2, minerals


def test_a_hand_over_a_mineral_token_is_not_read_as_an_empty_slot() -> None:
    """An empty mineral slot is bare tile and its light outline blurred together, its hue on
    the line from the card's white (or grey) through bare tile's. Issue 18's warm set,
    picture 2 (2700 K, JPEG 60, 0.84 px/mm): the edge of a hand over S19's mineral token,
    (a*, b*) 27 off that line and too few of its ring's points to call it covered, read
    empty at 0.05. Every empty mineral read right on the five sets lay within 23.5."""
    rendered = benchmark_picture(boards(3, seed=17, harsh="warm")[2])[0]
    assert "mineral2" in rendered.tiles["S19"].occluded
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_in_a_coarse_picture_a_blurred_carriers_hole_is_no_battleships_disc() -> None:
    """Blur darkens a carrier's light hole (and a destroyer's light ring) towards a
    battleship's disc. Issue 18's benchmark, seed 23, picture 25 (0.62 px/mm, 1 px of
    blur): a purple carrier's hole came to 0.71 as dark as its ring and read as a battleship
    at 0.51. Below ``FINE_PX_PER_MM`` a disc needs both at least 0.8 as dark (every other
    disc read there on seed 23 had its centre at 0.95 or more; some middles at 0.65-0.71,
    now unknown too)."""
    board = boards(26, seed=23)[25]
    rendered = benchmark_picture(board)[0]
    tally = _tally(rendered)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_a_card_whose_colours_the_board_does_not_share_reads_no_colours() -> None:
    """JPEG keeps colour at half the resolution of light: in a coarse picture each of the
    card's small swatches takes colour from the card's white around it, a dark one most.
    Issue 18's benchmark, seed 7, picture 29 (0.62 px/mm, 3030 K, JPEG 60): the card's
    tile swatch read 37 from the tiles' own bare colour, its purple lay half-way to blue,
    and a purple claim read blue at 0.59. The card's tile swatch and the tiles are the same
    ink: farther apart than ``CARD_TILE_APART`` (30), no token's colour is read in a picture
    this coarse, and a note says so (every picture of 1 px/mm or more on five sets lay
    within 28; one that does not is read as without the card, below)."""
    board = boards(30, seed=7)[29]
    rendered = benchmark_picture(board)[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("colours do not match" in note and "closer" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_a_card_the_board_does_not_match_in_a_fine_picture_leaves_colours_to_the_squares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark, seed 107's picture 8 (1.32 px/mm): a lamp's highlight and an
    overexposed card leave its tile swatch 49 from the tiles. From
    ``SQUARES_LEAST_PX_PER_MM`` the board is read again as without the card, against the
    kit's printed colours, each tile in the light of its white square: 514 of 532 visible
    slots right, none wrong, where with no colours 440 were."""
    rendered = benchmark_picture(boards(9, seed=107)[8])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("colours do not match" in note and "lamp" in note for note in found.notes)
    assert any("its own white square" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.95 * tally.visible, tally.unknown
    monkeypatch.setattr(recognize_module, "SQUARES_LEAST_PX_PER_MM", 99.0)
    without = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("colours are not read" in note for note in without.notes)
    assert _tally(rendered, without).right < 0.85 * tally.visible


def _swatch_covered(rendered: Rendered, found: Recognition, name: str) -> Rendered:
    """``rendered`` with a dark grey card (a sleeve) laid over the card's ``name`` swatch
    and a millimetre around it, black square and all."""
    kit = load_kit()
    half = kit.card.swatch_side / 2 + 1.0
    x, y = kit.card.swatches[name]
    square = [
        [x - half, y - half],
        [x + half, y - half],
        [x + half, y + half],
        [x - half, y + half],
    ]
    corners = cv2.perspectiveTransform(np.array([square], np.float64), found.table_to_image)[0]
    image = rendered.image.copy()
    cv2.fillPoly(image, [np.round(corners).astype(np.int32)], (42, 38, 40))
    return dataclasses.replace(rendered, image=image)


def test_a_swatch_covered_whole_stands_at_its_printed_colour(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sleeve over the card's mineral swatch shows even sides and no glare on its black
    square, so nothing refused it: the mineral grey read as the sleeve's dark grey, and 31
    empty mineral slots read "token". A swatch more than ``COVERED_DARKER`` darker than
    printed is covered (glare only lightens): its printed colour stands in for it, and a
    note says so. The same sleeve over each of the ten swatches in turn, and in three other
    colours, on this board and an 8-player one: 62 wrong readings before, none now, and
    300 slots fewer right than on the clear pictures, where 1,016 were."""
    rendered = render(small, FINE)
    covered = _swatch_covered(
        rendered, recognize(rendered.image, expected=list(rendered.tiles)), "mineral"
    )
    found = recognize(covered.image, expected=list(rendered.tiles))
    assert any("covers the calibration card (mineral swatch" in note for note in found.notes)
    tally = _tally(covered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right == tally.visible, tally.unknown
    monkeypatch.setattr(colour, "COVERED_DARKER", float("inf"))
    tally = _tally(covered)
    assert len(tally.wrong) == 31 and all("empty read token" in w for w in tally.wrong)


def _sleeve_over_white_patch(state: State, bgr: tuple[int, int, int]) -> Rendered:
    """``state`` drawn at :data:`FINE`, a sleeve of colour ``bgr`` laid over the card's white
    patch and the black square on it (2 mm past the patch each way)."""
    rendered = render(state, FINE)
    found = recognize(rendered.image, expected=list(rendered.tiles))
    (x0, y0), (x1, y1) = load_kit().card.white
    patch = [[x0 - 2, y0 - 2], [x1 + 2, y0 - 2], [x1 + 2, y1 + 2], [x0 - 2, y1 + 2]]
    corners = cv2.perspectiveTransform(np.array([patch], np.float64), found.table_to_image)[0]
    image = rendered.image.copy()
    cv2.fillPoly(image, [np.round(corners).astype(np.int32)], bgr)
    return dataclasses.replace(rendered, image=image)


def test_a_sleeve_over_the_cards_white_patch_is_named_with_glare_and_reads_nothing_wrong(
    small: State,
) -> None:
    """A grey sleeve over the card's white patch and the black square on it: the two read
    alike, as when glare washes the patch out, and the note said only "glare" ("move the
    lamp"). It names both causes now, and nothing is read wrong (the tokens' colours are read
    against the kit's printed ones, each tile in its own white square's light)."""
    sleeved = _sleeve_over_white_patch(small, (150, 150, 150))
    covered = recognize(sleeved.image, expected=list(sleeved.tiles))
    assert any(
        "glare washes it out, or something covers it" in note and "clear the card" in note
        for note in covered.notes
    )
    tally = _tally(sleeved, covered)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right > 0.8 * tally.visible, tally.unknown


def test_a_black_sleeve_over_the_cards_white_patch_reads_the_tiles_as_without_the_card(
    small: State,
) -> None:
    """A black sleeve over the card's white patch (issue 18's pictures drawn apart, seed 39
    picture 9: an arm's dark sleeve there, three of the card's markers showing) refused the
    whole picture: "the white patch is black: is the card covered?", every tile lost. The
    card's markers show, so the tiles are read as with no card in the picture, and a note
    says what covers the card (``colour.COVERED_PATCH``); nothing is read wrong."""
    sleeved = _sleeve_over_white_patch(small, (12, 10, 10))
    covered = recognize(sleeved.image, expected=list(sleeved.tiles))
    assert colour.COVERED_PATCH in covered.notes
    assert "its own white square" in " ".join(covered.notes)
    tally = _tally(sleeved, covered)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right > 0.8 * tally.visible, tally.unknown


def test_a_picture_too_dark_is_refused_by_name_not_read_as_a_covered_card(small: State) -> None:
    """At a tenth of its light (brightest pixel 24 of 255) the card's markers are still
    found, no tile's, and the white patch reads black: not a sleeve over it (the card's
    paper round its markers is as dark), so the picture is refused by what is wrong."""
    rendered = render(small, FINE)
    dark = np.clip(rendered.image.astype(np.float32) * 0.1, 0, 255).astype(np.uint8)
    with pytest.raises(CardNotFound, match=r"too dark to read.*light the table"):
        recognize(dark, expected=list(rendered.tiles))


def test_an_arm_across_the_card_is_named_not_called_glare() -> None:
    """Issue 18's benchmark, seed 7, picture 10 (no highlight anywhere): an arm lies across
    the card, over its red, purple, pink and white swatches, and red's uneven sides (the
    arm's edge) called the card glared: "move the lamp". The covered swatches read 28-87
    darker than printed: the note names them and what covers them, and as with glare the
    card's colours are not used (a swatch half covered is neither its colour nor the
    cover's): in this 1.1 px/mm picture the tokens are read against the kit's printed
    colours instead (``SQUARES_LEAST_PX_PER_MM``), 30 more slots right, none wrong."""
    board = boards(11, seed=7)[10]
    assert board.conditions.glare == 0
    rendered = benchmark_picture(board)[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    card_notes = [note for note in found.notes if "calibration card" in note]
    assert card_notes[0] == (
        "something covers the calibration card (red, purple, pink, white swatches: a hand, a "
        "card, a shadow?): its colours cannot be used; clear the card"
    )
    assert "its own white square" in card_notes[1]
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_a_square_the_colour_of_a_claim_over_its_slot_and_ring_covers_it(
    small: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A red square 30 mm across laid centred on every tile's claim slot (a chip, a card)
    covers the slot and two-fifths of its ring. A token's own colour blurred into its ring
    does not cover it (``HALO_OFF``), and the square is that colour exactly: five claims
    read red at 0.05-0.15, one of them a pink claim. No blur fills two-fifths of a ring
    (``COVERED_ANYWAY``): every claim under a square is unknown. (Squares of seven colours,
    30 and 40 mm, on two boards: 33 claims read as the square before, none now; the
    benchmark's sets lose 1 slot of 16,098 from 1 px/mm.) Nor does blur bring the whole of
    a token's colour into its ring (``HALO_MOST``): each rule alone leaves them unknown.
    (Without both, seven claims read red since the square's blurred edge, of bare tile's
    lightness and off its hue, no longer covers a body as light as red: ``HUE_ONLY_BODY``.)"""
    rendered = render(small, FINE)
    found = recognize(rendered.image, expected=list(rendered.tiles))
    kit = load_kit()
    image = rendered.image.copy()
    for tile in found.tiles:
        x, y = next(s for s in kit.variants[tile.reading.variant] if s.name == "claim").centre
        square = [[x - 15, y - 15], [x + 15, y - 15], [x + 15, y + 15], [x - 15, y + 15]]
        corners = cv2.perspectiveTransform(np.array([square], np.float64), tile.to_image)[0]
        cv2.fillPoly(image, [np.round(corners).astype(np.int32)], (40, 40, 190))

    def claims_read() -> list[str]:
        covered = recognize(image, expected=list(rendered.tiles))
        return [
            f"{tile.sector} {reading.describe()}"
            for tile in covered.scan.tiles
            for reading in tile.slots
            if reading.slot == "claim" and reading.known
        ]

    assert claims_read() == []
    monkeypatch.setattr(slots, "COVERED_ANYWAY", float("inf"))
    assert claims_read() == []
    monkeypatch.setattr(slots, "HALO_MOST", float("inf"))
    assert len(claims_read()) == 7 and all(c.endswith(" red") for c in claims_read())


def test_light_too_coloured_to_balance_is_named_not_called_a_covered_card(small: State) -> None:
    """Under a 1900 K candle's light the card's white patch shows almost no blue: nothing to
    balance colours by, and the scan is refused as before, but it said "the white patch is
    black: is the card covered?". It names the light now (``COLOURED_LIGHT``); at 2700 K the
    board reads."""
    with pytest.raises(CardNotFound, match=r"too coloured.*almost no blue.*whiter light"):
        recognize(render(small, dataclasses.replace(FINE, kelvin=1900)).image)
    warm = render(small, dataclasses.replace(FINE, kelvin=2700))
    assert _tally(warm).wrong == []


def test_a_picture_too_small_for_any_marker_says_so_not_just_no_card(state: State) -> None:
    rendered = render(state, dataclasses.replace(CLEAR, fill=0.33))
    assert rendered.px_per_mm < 0.25
    with pytest.raises(CardNotFound, match=r"too small or too blurred.*closer"):
        recognize(rendered.image)


def test_a_blurred_picture_says_so(small: State) -> None:
    found = recognize(render(small, dataclasses.replace(CLEAR, blur=2.5)).image)
    assert found.quality is not Quality.GOOD
    assert any("blurred" in note or "soft" in note for note in found.notes)


def test_a_board_at_1080p_is_coarse_and_says_a_still_reads_more(state: State) -> None:
    found = recognize(render(state, CLEAR).image)
    assert found.quality is Quality.COARSE
    assert any("still" in note for note in found.notes)


def test_expected_tiles_that_are_missing_are_named(small: State) -> None:
    rendered = render(small, CLEAR)
    found = recognize(rendered.image, expected=[*rendered.tiles, "S48"])
    assert any("not found: S48" in note for note in found.notes)


def test_r1_1_tiles_sharing_an_edge_are_adjacent_and_touching_corners_are_not() -> None:
    """R1.1: two sectors are adjacent when their tiles share an edge segment; touching corners
    are not adjacency."""
    from vision.local_cluster.plane import _adjacent

    side = 130.0
    here = ((0.0, 0.0), 3.0)
    assert _adjacent(here, ((131.0, 4.0), 1.0), side)  # beside, a little off
    assert _adjacent(here, ((2.0, -129.0), 0.0), side)  # above
    assert not _adjacent(here, ((130.0, 130.0), 0.0), side)  # corner to corner
    assert not _adjacent(here, ((260.0, 0.0), 0.0), side)  # a gap of a whole tile


def test_a_scan_gives_setup_the_games_own_galaxy(small: State) -> None:
    from companion.local_cluster.board_scan import galaxy_from_scan

    scanned = galaxy_from_scan(recognize(render(small, CLEAR).image).scan)
    assert scanned.galaxy.edges == small.galaxy.edges
    assert {s.id: s.minerals for s in scanned.galaxy.sectors} == {
        s.id: s.minerals for s in small.galaxy.sectors
    }
    assert scanned.unread == ()


def test_a_coarse_layout_drops_only_the_small_slots_probes() -> None:
    kit = load_kit()
    for variant in range(len(kit.variants)):
        full = layout(kit, variant)
        coarse = layout(kit, variant, coarse=True)
        assert {k.kind for k in coarse.kinds} == {"claim", "unit"}
        assert [name for _, name in coarse.skipped] == [
            s.name for s in kit.variants[variant] if s.kind in ("mineral", "craft")
        ]
        assert len(coarse.points) < 0.6 * len(full.points)
        for name in ("strip", "field", "bare"):
            assert (coarse.points[getattr(coarse, name)] == full.points[getattr(full, name)]).all()
        for a, b in zip(coarse.kinds, full.kinds[:2], strict=True):
            for name in ("region", "outline", "beside"):
                assert (coarse.points[getattr(a, name)] == full.points[getattr(b, name)]).all()
            assert (a.plane == b.plane).all()


def test_a_layout_is_the_same_whatever_order_a_sort_leaves_ties_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A slot's surround is the bare points deepest beside it, and on the kit's lattice many
    lie equally deep. numpy's default sort leaves ties in an order of its own, which moved
    between numpy 1 (the Raspberry Pi's, from apt) and numpy 2: variant 1's strike craft
    surrounds differed, a slot's light plane by up to 0.35, and a lit craft read white at
    0.85 on the Pi that reads unknown here. The layout sorts stably, so a sort that breaks
    ties the other way (what another machine's may do) lays out every variant alike."""
    kit = load_kit()
    real = np.argsort

    def ties_reversed(values: np.ndarray, *args: object, kind: str | None = None) -> np.ndarray:
        if kind == "stable":
            return real(values, *args, kind=kind)  # type: ignore[call-overload,no-any-return]
        flipped = np.asarray(values)[..., ::-1]
        order = real(flipped, *args, kind="stable")  # type: ignore[call-overload]
        return np.asarray(flipped.shape[-1] - 1 - order)

    for variant in range(len(kit.variants)):
        for extra in (0.0, 0.5, 1.0):
            here = layout_module._layout(kit, variant, extra)
            with monkeypatch.context() as patched:
                patched.setattr(layout_module.np, "argsort", ties_reversed)
                there = layout_module._layout(kit, variant, extra)
            for a, b in zip(here.kinds, there.kinds, strict=True):
                assert (a.surround == b.surround).all(), (variant, extra, a.kind)
                assert (a.plane == b.plane).all(), (variant, extra, a.kind)
                assert (a.inner == b.inner).all(), (variant, extra, a.kind)


def test_a_coarse_picture_reads_the_same_without_the_small_slots_probes(
    state: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below FINE_PX_PER_MM minerals and strike craft are unknown whatever they show, so
    they are not sampled at all; everything else reads exactly as with the full layout."""
    picture = render(state, dataclasses.replace(CLEAR, hands=1, glare=1, seed=4)).image
    fast = recognize(picture)
    assert fast.px_per_mm is not None and fast.px_per_mm < FINE_PX_PER_MM
    monkeypatch.setattr(
        recognize_module, "layout", lambda kit, v, extra=0.0, coarse=False: layout(kit, v, extra)
    )
    assert recognize(picture).scan == fast.scan
    for tile in fast.scan.tiles:
        for reading in tile.slots:
            if reading.slot.startswith(("mineral", "craft")):
                assert reading.state is SlotState.UNKNOWN


def test_a_hand_beside_a_slot_over_its_rings_sparse_points_makes_its_reading_unsure() -> None:
    """Issue 18's benchmark picture 27, read with the camera's prior: a hand hides S4's
    marker and lies over its mineral3 slot and a sixth of the slot's surround, between the
    points of the ring nearest the zone; the skin, lit up as shade is made up for, read as
    a mineral at 1.0 on the placed tile. A reading is now no surer than its whole surround
    is clear: at 0.44 it is no reading on a placed tile."""
    _read_unknown_with_its_prior(boards(28)[27], "S4", "mineral3")


@pytest.mark.parametrize(
    ("index", "sector", "slot"),
    [(82, "S15", "claim"), (18, "S45", "mineral4")],
)
def test_a_dark_sleeve_over_part_of_a_slot_hides_its_outline_there_whatever_a_token_shows(
    index: int, sector: str, slot: str
) -> None:
    """A dark sleeve passes for bare tile. Over most of a pink claim (issue 18's benchmark,
    picture 82), the sliver of the token left showing lay on the outline and lifted its mean
    contrast to 0.65 of the board's, and the claim read empty at 0.62; over half a mineral
    (picture 18), 0.64, empty at 0.58. Along its least side the outline showed -0.12 and
    0.10 of the board's contrast; an empty slot's outline must show 0.2 along every side."""
    _covered_slots_not_read_as(boards(index + 1)[index], [(sector, slot)], SlotState.EMPTY)


@pytest.fixture(scope="module")
def warm_jpeg(small: State) -> Rendered:
    """``small`` at 2700 K with JPEG 60 and noise: the light that spreads colours most."""
    return render(small, dataclasses.replace(FINE, kelvin=2700, jpeg=60, noise=3.0, seed=4))


def test_a_whole_mineral_token_is_read_through_warm_jpegs_spread(warm_jpeg: Rendered) -> None:
    """Warm light with JPEG 60 spreads the mineral grey: 6 of the mineral tokens here were
    unknown for a spread beyond 10 alone. A mineral token may spread up to
    ``MINERAL_UNEVEN`` (20). Now none."""
    minerals = _unknown_without_a_wrong_reading(warm_jpeg, " mineral", "token read")
    assert len(minerals) <= 1, minerals


def test_a_mineral_token_part_way_to_the_grey_is_read_through_warm_jpegs_spread() -> None:
    """Issue 18's benchmark, the warm set of seed 17, picture 8 (2700 K, JPEG 60, 2.03 px/mm):
    10 mineral tokens passed every other test of a token but spread 10-20, under 0.8 of the
    way to the grey, and were unknown. Over the 25 sets nothing but a token passed those
    other tests, whatever its spread. Now none, nothing read wrong."""
    rendered = benchmark_picture(boards(9, seed=17, harsh="warm")[8])[0]
    minerals = _unknown_without_a_wrong_reading(rendered, " mineral", "token read")
    assert len(minerals) <= 1, minerals


def test_an_empty_strike_craft_slot_ringed_by_its_outline_reads_empty_under_warm_jpeg_light(
    warm_jpeg: Rendered,
) -> None:
    """JPEG keeps colour at half the resolution of light: in a 2700 K picture at JPEG 60
    the light outline's blue bleeds into an empty strike-craft slot's small dark inside, up
    to 2.7 times as far in hue as bare tile elsewhere (issue 18's benchmark). A craft
    slot's inside may lie 1.5 times as far: of the 108 empty craft slots here 41 are
    unknown without it, 11 with it."""
    craft = _unknown_without_a_wrong_reading(warm_jpeg, " craft", "empty read")
    assert len(craft) <= 12, craft


def test_an_empty_craft_slot_whose_body_is_plainly_bare_tile_reads_empty_in_warm_light() -> None:
    """Issue 18's benchmark, picture 55 (2790 K, JPEG 80, 1.14 px/mm): 19 of the 99 visible
    empty strike-craft slots lay 1.5-2.2 times the hue limit from bare tile (the light
    outline's blue bled into their small insides) and were unknown. Each body was nearest
    bare tile and 57-75 from every token's swatch: nothing there looks like a token, and
    such a slot may lie 2.5 times as far (``EMPTY_HUE_BARE``). Now none."""
    craft = _unknown_without_a_wrong_reading(
        benchmark_picture(boards(56)[55])[0], " craft", "empty read"
    )
    assert len(craft) <= 2, craft


@pytest.mark.parametrize(
    ("index", "sector", "slot", "colour"),
    [(6, "S42", "craft4", Colour.BLUE), (2, "S43", "craft5", Colour.PURPLE)],
)
def test_a_slot_whose_body_is_a_tokens_colour_is_never_read_empty(
    index: int, sector: str, slot: str, colour: Colour
) -> None:
    """Blue strike craft dropped 3 mm off-centre in a blurred 2700 K JPEG 60 picture
    (0.92 px/mm): one's inside lay 21 from bare tile in hue, within what a craft slot's
    inside may (above), its body plainly blue (19 from the blue swatch, 38 from the next)
    but too uneven to read as a token; it read empty at 0.52. A slot whose body is nearer a
    token's colour than any other, and near enough, is not empty (issue 18's warm set of
    pictures, every tile holding three to six dark strike craft; picture 6). Nor one whose
    body lies between two token colours, as long as bare tile is clearly farther (picture
    2, 0.84 px/mm: a purple craft's body 13 from purple and 20 from blue, 35 from bare tile,
    read empty at 0.52)."""
    board = boards(index + 1, seed=17, harsh="warm")[index]
    conditions = board.conditions
    state = sample_state(board.state_seed, board.players)
    colours = itertools.cycle([Colour.BLUE, Colour.PURPLE, Colour.RED, Colour.GREEN])
    state = dataclasses.replace(
        state,
        craft=tuple(
            Craft(1, next(colours), s)
            for s in state.galaxy.ids
            for _ in range(random.Random(s).randint(3, 6))
        ),
    )
    rendered = render(state, conditions)
    found = recognize(rendered.image, expected=list(rendered.tiles))
    tile = found.scan.tile(sector)
    assert tile is not None
    assert rendered.tiles[sector].slots[slot].colour is colour
    assert next(r for r in tile.slots if r.slot == slot).state is not SlotState.EMPTY
    tally = _tally(rendered, found)
    empties = [w for w in tally.wrong if w.endswith("read empty")]
    assert empties == []


def test_an_empty_mineral_slot_whose_thin_outline_shows_faintly_reads_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark picture 42 (1.21 px/mm): S8's empty mineral3 slot shows its
    triangle's outline at about half the contrast of the board's mineral outlines. No
    mineral token is dark, and what passes for bare tile over a mineral slot (a dark sleeve,
    a shadow) shows none of its outline: at ``OUTLINE_SHARE_KIND``'s 0.45 the slot reads
    empty; at the 0.6 every kind needed until 2026-12-01 (and a mineral still needs on a tile
    whose marker does not show whole), unknown."""
    sector, name = "S8", "mineral3"
    rendered = benchmark_picture(boards(43)[42])[0]
    want = rendered.tiles[sector].slots[name]
    assert want.state is SlotState.EMPTY and name not in rendered.tiles[sector].occluded

    def reading() -> SlotState:
        found = recognize(rendered.image, expected=list(rendered.tiles))
        tile = found.scan.tile(sector)
        assert tile is not None
        return next(s for s in tile.slots if s.slot == name).state

    assert reading() is SlotState.EMPTY
    monkeypatch.setattr(slots, "OUTLINE_SHARE_KIND", {"mineral": 0.6})
    assert reading() is SlotState.UNKNOWN


def _read(rendered: Rendered, sector: str, name: str) -> str:
    found = recognize(rendered.image, expected=list(rendered.tiles))
    tile = found.scan.tile(sector)
    assert tile is not None
    return next(s for s in tile.slots if s.slot == name).describe()


def test_a_token_whose_colour_jpeg_smears_into_the_tile_is_read_by_its_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark picture 43 (1.01 px/mm, 2,985 K, JPEG 70, dark tiles): S6's red
    strike craft 2 spreads 12.7 in Lab, beyond ``UNEVEN``, and lies 21.6 from red (beyond
    ``PLAIN_FAR``, so not plain either). Part of that spread runs toward the tile around
    it, JPEG's smear of the red's edge; across that line it spreads 7.8, and its mean lies
    8.5 from a mix of red and bare tile (``SMEARED_OFF``): read red. Judged by its whole
    spread, unknown. (Picture 104's red S3 claim, pinned here before, 15 from red, is now
    plain as well.) Read by the card alone: against the kit's printed red, in the light of
    the tile's own white square, it lies near enough to be plain."""
    sector, name, want = "S6", "craft2", "red"
    rendered = benchmark_picture(boards(44)[43])[0]
    assert rendered.tiles[sector].slots[name].describe() == want
    assert name not in rendered.tiles[sector].occluded
    monkeypatch.setattr(recognize_module, "_filled", lambda first, second: first)
    assert _read(rendered, sector, name) == want
    monkeypatch.setattr(slots, "SMEARED_OFF", -1.0)
    assert _read(rendered, sector, name) == "unknown"


def test_a_red_whose_yellow_jpeg_took_is_not_read_pink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18's warm set, picture 15 (2700 K, JPEG 60), every tile holding three to six
    dark strike craft (the dark-craft check, ``boards(dark=True)``): S44's red craft3 comes
    out of JPEG at b* -10 for the swatch's 36, nearest pink (22 from it) and spreading only
    10.6 across the line to bare tile. Its mean lies 21 off every mix of pink and tile, so
    it is no pink token smeared into the tile: the card leaves it unknown, and against the
    kit's printed colours it reads red, a red token read in the picture lying near it
    (``slots.PRINTED_ANCHOR``; unknown without). Without that limit it read pink at 0.47."""
    rendered = benchmark_picture(boards(16, seed=17, harsh="warm", dark=True)[15])[0]
    assert rendered.tiles["S44"].slots["craft3"].describe() == "red"
    assert _read(rendered, "S44", "craft3") == "red"
    monkeypatch.setattr(slots, "PRINTED_ANCHOR", 0.0)
    assert _read(rendered, "S44", "craft3") == "unknown"
    monkeypatch.setattr(slots, "SMEARED_OFF", 99.0)
    assert _read(rendered, "S44", "craft3") == "pink"


@pytest.mark.parametrize(("seed", "harsh", "index"), [(19, None, 2), (29, "hands", 23)])
def test_even_glare_on_the_card_is_taken_off_up_to_the_papers_own_white(
    seed: int, harsh: str | None, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18's benchmark, seed 19's picture 2 and hands 29's picture 23: a lamp's halo
    lies over the card and lifts its swatches by 0.23-0.41 and 0.25-0.69 of paper white,
    evenly (their sides agree), and at ``CARD_GLARE_MOST`` 0.3 the card was refused as
    glared: no claim or unit on either board was read (312 of 395 and 252 of 315 visible
    slots right). Each black square says how much glare its swatch has, and that is taken
    off up to as bright again as the paper: 394 and 307 right, nothing read wrong. (A card
    refused now leaves colours to the tiles' white squares and the kit's printed colours,
    ``SQUARES_LEAST_PX_PER_MM``; that is turned off here, to see the card's part.)"""
    rendered = benchmark_picture(boards(index + 1, seed=seed, harsh=harsh)[index])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert not any("calibration card" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.97 * tally.visible, tally.unknown
    monkeypatch.setattr(colour, "CARD_GLARE_MOST", 0.3)
    monkeypatch.setattr(recognize_module, "SQUARES_LEAST_PX_PER_MM", 99.0)
    before = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("glare on the calibration card" in note for note in before.notes)
    assert _tally(rendered, before).right < 0.81 * tally.visible


def test_glare_brighter_than_the_paper_on_the_card_refuses_its_colours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark, seed 7's picture 25: a highlight over the card lifts its
    swatches by 0.66-1.04 of paper white and clips its white patch in every channel, so the
    patch says nothing of the light's colour. Beyond ``CARD_GLARE_MOST`` (as bright again as
    the paper) the card is refused as glared ("move the lamp"), and nothing reads wrong;
    read anyway, its tile swatch lay 49 Lab from the tiles, and the note sent the player
    closer with the camera."""
    rendered = benchmark_picture(boards(26, seed=7)[25])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    card_notes = [note for note in found.notes if "calibration card" in note]
    assert any("glare on the calibration card" in note for note in card_notes)
    assert not any("colours do not match" in note for note in card_notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    monkeypatch.setattr(colour, "CARD_GLARE_MOST", 1.1)
    read_anyway = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("colours do not match" in note for note in read_anyway.notes)


def test_a_refused_card_leaves_colours_to_the_tiles_white_squares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark, seed 7's picture 25 (1.1 px/mm), the card refused as glared
    (above): its swatches say nothing, but each tile's white square is printed on the
    tokens' paper and shows the light's colour. Read against the kit's printed colours in
    that light, 42 more of its slots read right and none wrong
    (``SQUARES_LEAST_PX_PER_MM``); without it, no claim's colour is read."""
    rendered = benchmark_picture(boards(26, seed=7)[25])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("each tile in the light of its own white square" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    monkeypatch.setattr(recognize_module, "SQUARES_LEAST_PX_PER_MM", 99.0)
    without = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("no token colour is read" in note for note in without.notes)
    assert _tally(rendered, without).right <= tally.right - 40


def test_without_the_card_a_coarse_picture_reads_no_colour() -> None:
    """Issue 18's benchmark, seed 11's picture 38 (0.53 px/mm, 1.2 px of blur), its card
    glared: below ``SQUARES_LEAST_PX_PER_MM`` no colour is read without the card. (Read
    against the kit's printed colours anyway, its blurred pink claims read white at 0.8
    until the markers' blur was matched more closely; on 25 sets, 6 slots read wrong at
    0.51-0.61 px/mm so: the card's own swatches share a picture's blur and printer, the
    printed colours do not.)"""
    rendered = benchmark_picture(boards(39, seed=11)[38])[0]
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("no token colour is read" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert not any(s.known and s.colour for t in found.scan.tiles for s in t.slots)


def test_each_tiles_light_is_its_white_squares_whitest_points_colour() -> None:
    """Without the card, each tile's light comes from its own white square: the square's
    whitest quarter (blur mixes its edges with the black marker and the dark tile), scaled to
    luminance 1, for two lamps of different colours light a board unevenly; a tile whose
    square is hidden (placed from the prior) takes the median of the others'."""
    lay = layout(load_kit(), 0)
    tints = np.array([[1.1, 1.0, 0.8], [1.0, 1.0, 1.0], [0.9, 1.0, 1.2], [0.2, 0.2, 0.2]])
    part = np.full((4, len(lay.points), 3), 0.05, np.float32)
    strip = np.arange(len(lay.points))[lay.strip_at]
    shades = np.linspace(0.2, 1.0, len(strip), dtype=np.float32)
    part[:, strip] = shades[None, :, None] * tints[:, None, :]
    hidden = np.array([False, False, False, True])
    never = np.full(3, 10.0, np.float32)
    got, clipped = recognize_module._squares_light(
        {0: part}, {0: lay}, [np.arange(4)], hidden, never
    )
    want = tints[:3] / colour.luminance(tints[:3].astype(np.float32))[:, None]
    assert np.allclose(got[:3], want, atol=1e-3)
    middle = np.median(want, axis=0).astype(np.float32)
    assert np.allclose(got[3], middle / colour.luminance(middle), atol=1e-3)
    assert not clipped.any()


def test_a_channel_is_clipped_when_every_white_square_shown_reaches_the_clip() -> None:
    """``SQUARE_CLIPPED``: a channel in which every tile's square found by its marker reads
    at the picture's clip (a warm lamp, a daylight-balanced picture: red at 255) is clipped;
    one a single square shows below it is not, and a hidden tile's square is not asked."""
    lay = layout(load_kit(), 0)
    strip = np.arange(len(lay.points))[lay.strip_at]
    part = np.full((3, len(lay.points), 3), 0.05, np.float32)
    part[:, strip] = [1.0, 0.8, 0.6]
    part[1, strip, 1] = 0.9
    part[2, strip] = 0.2  # hidden: a hand over it
    clip_at = np.array([1.0, 0.9, 0.6], np.float32)
    hidden = np.array([False, False, True])
    _, clipped = recognize_module._squares_light(
        {0: part}, {0: lay}, [np.arange(3)], hidden, clip_at
    )
    assert clipped.tolist() == [True, False, True]


def test_colours_read_over_a_square_clipped_in_red_are_the_prints_as_clipped() -> None:
    """``recognize._clip_gain`` and ``_as_clipped``: a tile's light read from a square
    clipped in red is short of the light's red by the gain the dark tile shows in red beyond
    its print (never clipped), over what it shows in green and blue. Each printed colour is
    then its print with that gain in red, and at most the square's own red: the mineral grey
    reads redder, yellow and white at the paper's red; a channel not clipped is left as
    printed. With the gain taken back out (``_unclipped``) the tile reads as printed."""
    card = colour.nominal_card(load_kit())
    printed_tile = colour.linear_from_lab(card.swatches["tile"])
    seen_tile = colour.lab((printed_tile * np.array([1.5, 1.0, 1.0])).astype(np.float32))
    clipped = np.array([True, False, False])
    gain = recognize_module._clip_gain(card.swatches["tile"], seen_tile, clipped)
    assert np.allclose(gain, [1.5, 1.0, 1.0], atol=0.01)
    assert np.allclose(
        recognize_module._unclipped(seen_tile, gain), card.swatches["tile"], atol=0.1
    )
    got = recognize_module._as_clipped(card.swatches, gain)
    assert np.allclose(got["tile"], card.swatches["tile"])
    grey = colour.linear_from_lab(card.swatches["mineral"])
    want = colour.lab(np.minimum(grey * np.array([1.5, 1.0, 1.0]), 1.0).astype(np.float32))
    assert np.allclose(got["mineral"], want, atol=0.05)
    assert got["mineral"][1] - card.swatches["mineral"][1] > 8
    for name in ("yellow", "white"):
        assert colour.linear_from_lab(got[name])[0] == pytest.approx(1.0, abs=0.01)
    # Gains under 1 (the tile no redder than printed) leave the colours as printed.
    flat = recognize_module._clip_gain(card.swatches["tile"], card.swatches["tile"], clipped)
    assert np.allclose(flat, 1.0)
    as_printed = recognize_module._as_clipped(card.swatches, flat)
    for name, value in card.swatches.items():
        assert np.allclose(as_printed[name], value, atol=0.05), name


def test_a_card_whose_white_patch_is_covered_leaves_each_tile_its_own_white_square() -> None:
    """Picture 28 of the tables drawn apart (1.60 px/mm): an arm lies over the calibration
    card's white patch. Its colours cannot be used, and the tokens are read against the
    kit's printed colours, each tile in the light of its white square. That light was
    taken over the card's white as read: the arm, darker than paper, and every token read
    1.5-2 times too light (S40's pink strike craft L* 79 against the print's 68), 24
    visible slots unknown. Each square is now its tile's white: one unknown, none wrong."""
    drawn = drawn_apart(28)
    truth = _Picture(drawn)
    found = recognize(drawn.image, expected=tuple(truth.tiles))
    assert any("white patch reads no lighter than the black square" in n for n in found.notes)
    s40 = found.scan.tile("S40")
    s23 = found.scan.tile("S23")
    assert s40 is not None and s23 is not None
    assert [r.describe() for r in s40.slots if r.slot.startswith("craft")] == ["pink"] * 6
    crafts = {r.slot: r.describe() for r in s23.slots}
    assert [crafts[f"craft{n}"] for n in (1, 2, 4)] == ["purple"] * 3
    tally = _tally(truth, found)  # type: ignore[arg-type]
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert len(tally.unknown) <= 1, tally.unknown


def test_mineral_tokens_under_squares_clipped_in_red_are_read() -> None:
    """Picture 56 of the tables drawn apart (1.21 px/mm, a 2,800 K lamp, a daylight-balanced
    picture, the card's white overexposed): every tile's white square is red at 255, so
    its light read less red than the lamp, and each mineral token, a* 12-15 against the
    printed grey's -1, was unknown (the eight a hand leaves clear). Against the printed
    colours as the clipped squares show them (``_as_clipped``) all eight read, and nothing
    wrong; a note says the squares are overexposed."""
    drawn = drawn_apart(56)
    truth = _Picture(drawn)
    found = recognize(drawn.image, expected=tuple(truth.tiles))
    minerals = [
        (tile.sector, r.slot, r.describe())
        for tile in found.scan.tiles
        for r in tile.slots
        if r.slot.startswith("mineral")
        and truth.tiles[tile.sector].slots[r.slot].state is SlotState.TOKEN
        and r.slot not in truth.tiles[tile.sector].occluded
    ]
    assert len(minerals) == 8 and {read for _, _, read in minerals} == {"token"}, minerals
    assert "the tiles' white squares are overexposed (red at the picture's brightest)" in (
        " ".join(found.notes)
    )
    tally = _tally(truth, found)  # type: ignore[arg-type]
    assert tally.wrong == [] and tally.occluded_wrong == []


@pytest.mark.parametrize(
    ("seed", "index", "channels", "least_right"),
    [(33, 16, "blue", 44), (39, 58, "red and blue", 12)],
)
def test_tiles_white_squares_clipped_still_read_colours(
    seed: int, index: int, channels: str, least_right: int
) -> None:
    """Two tables drawn apart (33/16 at 1.03 px/mm, 39/58 at 1.76), the card unusable and
    every tile's white square overexposed in some channels: the bare tile, read in the
    squares' light, lay 42 and 30 from its print, so no colour was read ("light the board
    evenly, with whiter light", which misleads: the light is too bright) and 46 and 10
    visible slots were unknown. That distance is what clipping does: with the gain the tile
    shows in the clipped channels taken back out (``_unclipped``) it reads 5 and 2 from its
    print, and the colours are read as the clipped squares show them. None is wrong."""
    drawn = drawn_apart(index, seed)
    truth = _Picture(drawn)
    found = recognize(drawn.image, expected=tuple(truth.tiles))
    said = " ".join(found.notes)
    assert f"the tiles' white squares are overexposed ({channels} at the picture's" in said
    assert "bare print reads" not in said
    tally = _tally(truth, found)  # type: ignore[arg-type]
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= least_right, tally.unknown


def test_squares_clipped_past_telling_the_colours_apart_read_no_colour() -> None:
    """3/35 of the tables drawn apart (a held-out seed): the squares clipped in red and
    green by gains of 32 and 11, which would bring the bare tile back to its print, but
    leave the printed aqua and pink as they would show 10 apart (``CLIPPED_COLOURS_APART``).
    The tile is held to its print as read, and no colour is read: with the gain taken out,
    a pink strike craft read purple at 0.66."""
    card = colour.nominal_card(load_kit())
    assert recognize_module._told_apart(card.swatches)
    gain = np.array([31.9, 10.8, 1.0], np.float32)
    assert not recognize_module._told_apart(recognize_module._as_clipped(card.swatches, gain))
    drawn = drawn_apart(35, 3)
    truth = _Picture(drawn)
    found = recognize(drawn.image, expected=tuple(truth.tiles))
    assert any(n.endswith("dim the light or shorten the exposure") for n in found.notes)
    tally = _tally(truth, found)  # type: ignore[arg-type]
    assert tally.wrong == [] and tally.occluded_wrong == []


def test_tiles_overexposed_and_far_from_their_print_say_to_dim_the_light() -> None:
    """37/4 of the tables drawn apart (2.72 px/mm): the squares clipped in green and blue, the
    bare tile 31 from its print even with the clip taken out. No colour is read, and the
    note says what to do about a light too bright, not "with whiter light"."""
    drawn = drawn_apart(4, 37)
    found = recognize(drawn.image, expected=tuple(_Picture(drawn).tiles))
    mismatch = [n for n in found.notes if "bare print reads" in n]
    assert len(mismatch) == 1 and mismatch[0].endswith("dim the light or shorten the exposure")


def _card_painted_over(rendered: Rendered) -> Rendered:
    """The picture with the calibration card (and 10 mm round it) painted in the table's
    colour beside it: a table whose card is out of the picture."""
    found = recognize(rendered.image, expected=list(rendered.tiles))
    w, h = load_kit().card.size
    inner = np.array([[-10, -10], [w + 10, -10], [w + 10, h + 10], [-10, h + 10]], np.float64)
    outer = inner + np.array([[-25, -25], [25, -25], [25, 25], [-25, 25]])
    image = rendered.image.copy()
    masks = []
    for corners in (inner, outer):
        at = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), found.table_to_image)
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [at.reshape(-1, 2).astype(np.int32)], 255)
        masks.append(mask > 0)
    image[masks[0]] = np.median(image[masks[1] & ~masks[0]], axis=0).astype(np.uint8)
    return dataclasses.replace(rendered, image=image)


def test_a_table_without_the_card_is_read_by_its_tiles_white_squares() -> None:
    """A fine picture (1 px/mm or more by its tiles' markers) without the calibration card is
    read, not refused: the table plane from the tiles' markers, each tile's light from its
    white square, colours against the kit's printed ones (``SQUARES_LEAST_PX_PER_MM``), and
    a note asks for the card. Issue 18's benchmark, seed 2026's picture 8 (1.94 px/mm) with
    its card painted over: nothing read wrong, and most slots right."""
    rendered = _card_painted_over(benchmark_picture(boards(9)[8])[0])
    found = recognize(rendered.image, expected=list(rendered.tiles))
    assert any("calibration card is not in the picture" in note for note in found.notes)
    tally = _tally(rendered, found)
    assert tally.wrong == [] and tally.occluded_wrong == []
    assert tally.right >= 0.9 * tally.visible, tally.unknown


def test_without_the_card_a_picture_under_1_px_per_mm_places_its_tiles_reading_no_token() -> None:
    """Below ``SQUARES_LEAST_PX_PER_MM`` no token is read without the card: seed 2026's
    picture 3 (0.68 px/mm) with its card painted over places every tile it places with the
    card (ids and who borders whom; the cells are counted from another corner without the
    card's frame), every slot unknown, and says why. Only a picture with no tile marker
    either is refused."""
    rendered = benchmark_picture(boards(4)[3])[0]
    with_card = recognize(rendered.image, expected=list(rendered.tiles)).scan
    without = recognize(_card_painted_over(rendered).image, expected=list(rendered.tiles))
    assert [t.sector for t in without.scan.tiles] == [t.sector for t in with_card.tiles]
    assert set(without.scan.adjacency) == set(with_card.adjacency)
    assert all(not slot.known for tile in without.scan.tiles for slot in tile.slots)
    assert any("no token is read without it" in note for note in without.notes)
    assert without.quality is Quality.COARSE


@pytest.mark.parametrize(
    ("seed", "harsh", "dark", "index", "sector", "slot", "limit", "read_as"),
    [
        (59, "lamps", False, 31, "S13", "unit", "PRINTED_FAR", "aqua destroyer"),
        (17, "warm", True, 15, "S21", "craft6", "PRINTED_BARE", "empty"),
    ],
)
def test_against_printed_colours_a_token_must_lie_nearer_them(
    seed: int,
    harsh: str,
    dark: bool,
    index: int,
    sector: str,
    slot: str,
    limit: str,
    read_as: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Against the kit's printed colours (no card: ``slots.PRINTED_FAR``, ``PRINTED_BARE``) a
    printer and a light the card would have shown move a token off its print. Issue 18's
    benchmark with the card painted over: ``lamps`` 59's picture 31, a green destroyer 21.3
    from aqua's print, read aqua under ``FAR``; ``warm`` 17's picture 15 with dark strike
    craft, a blue one whose body lay 37.8 from blue's print and nearer bare tile, read empty.
    Both unknown. (Under ``lamps`` 59's highlight, taken off in its lamp's colour now, the
    green destroyer is unknown without the limit too: the limit is pinned with the glare
    taken off as grey, for a highlight whose colour cannot be read.)"""
    rendered = _card_painted_over(
        benchmark_picture(boards(index + 1, seed=seed, harsh=harsh, dark=dark)[index])[0]
    )
    assert _read(rendered, sector, slot) == "unknown"
    _glare_as_grey(monkeypatch)
    assert _read(rendered, sector, slot) == "unknown"
    monkeypatch.setattr(slots, limit, {"PRINTED_FAR": slots.FAR, "PRINTED_BARE": 0.0}[limit])
    assert _read(rendered, sector, slot) == read_as


def _read_by_print(index: int, seed: int) -> tuple[LcRender, _Picture, Recognition]:
    """Issue 18's picture drawn apart ``index`` of ``seed``, read alone: its card's colours
    refused, so tokens are read against the kit's printed colours, and nothing read wrong."""
    picture = drawn_apart(index, seed)
    truth = _Picture(picture)
    found = recognize(picture.image, expected=tuple(truth.tiles))
    assert any("its colours cannot be used" in note for note in found.notes)
    assert truth.misread(found.scan) == []
    return picture, truth, found


@pytest.mark.slow
def test_against_printed_colours_an_empty_strike_craft_plainly_nearer_bare_tile_is_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 33 picture 16 (1.03 px/mm): the card's tile
    swatch reads 37 from the tiles, so its colours are refused and tokens are read against
    the kit's printed ones. Sixteen empty strike craft, whose small bodies take in their
    outlines' blur, lay 17-22 from bare tile and 34-38 from every print: not
    ``PRINTED_BARE`` from every print, unknown (44 of the 60 visible slots read). Plainly
    nearer bare tile than any print (``slots.PRINTED_CRAFT_BARE``, ``PRINTED_CRAFT_MARGIN``),
    fifteen of them read empty: 59 read, nothing wrong."""
    picture, truth, found = _read_by_print(16, 33)
    assert sum(_shown_known(found, truth, sector)[0] for sector in truth.tiles) == 59
    monkeypatch.setattr(slots, "PRINTED_CRAFT_BARE", slots.PRINTED_BARE)
    again = recognize(picture.image, expected=tuple(truth.tiles))
    assert sum(_shown_known(again, truth, sector)[0] for sector in truth.tiles) == 44


def test_against_printed_colours_a_token_far_nearer_its_print_than_any_other_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 40 picture 26 (1.13 px/mm): glare on the card,
    so tokens are read against the kit's printed colours. S1's yellow strike craft beside a
    hand lie beyond ``PRINTED_FAR`` from yellow's print but 46 nearer it than any other
    colour (``slots.PRINTED_FAR_CLEAR``, ``PRINTED_FAR_CLEAR_MARGIN``): three read yellow,
    and nothing in the picture reads wrong. Held to ``PRINTED_FAR``, those three are unknown."""
    picture, truth, found = _read_by_print(26, 40)
    tile = found.scan.tile(SectorId("S1"))
    assert tile is not None
    yellow = [s.slot for s in tile.slots if s.slot.startswith("craft") and s.describe() == "yellow"]
    assert len(yellow) == 3
    monkeypatch.setattr(slots, "PRINTED_FAR_CLEAR", slots.PRINTED_FAR)
    again = recognize(picture.image, expected=tuple(truth.tiles)).scan.tile(SectorId("S1"))
    assert again is not None
    assert all(not s.known for s in again.slots if s.slot in yellow)


def test_against_printed_colours_a_token_near_a_read_token_of_its_colour_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 37 picture 20 (2.14 px/mm): a second lamp over
    the card, whose colours are refused, so tokens are read against the kit's printed
    colours. Of S16's blue strike craft one lies within ``PRINTED_FAR`` of blue's print, and
    four lie 18-21 from it but within ``slots.PRINTED_ANCHOR`` of a token read blue, nearer
    it than any token read as another colour: the picture shows what blue looks like in its
    light. Those four read blue, and nothing in the picture reads wrong; with no such reach,
    they are unknown."""
    picture, truth, found = _read_by_print(20, 37)
    tile = found.scan.tile(SectorId("S16"))
    assert tile is not None
    blue = [s.slot for s in tile.slots if s.slot.startswith("craft") and s.describe() == "blue"]
    assert len(blue) == 5
    monkeypatch.setattr(slots, "PRINTED_ANCHOR", 0.0)
    again = recognize(picture.image, expected=tuple(truth.tiles)).scan.tile(SectorId("S16"))
    assert again is not None
    assert [s.slot for s in again.slots if s.describe() == "blue"] == ["craft2"]


def test_on_a_hidden_tile_a_coloured_token_beside_a_hand_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's pictures drawn apart, seed 43 picture 11 (1.31 px/mm): a hand over S24's
    marker. Its aqua strike craft3 and craft4 lie 2 from aqua's print and 37 nearer it than
    any other colour, with a seventh of their surround foreign: a mineral so read would be
    doubted (``slots.HIDDEN_SURROUND``), a coloured token is not
    (``HIDDEN_SURROUND_KINDS``), and both read aqua, nothing in the picture wrong. Doubted
    as a mineral is, both are unknown."""
    picture = drawn_apart(11, 43)
    truth = _Picture(picture)
    found = recognize(picture.image, expected=tuple(truth.tiles))
    assert not truth.tiles[SectorId("S24")].marker_visible
    assert truth.misread(found.scan) == []
    tile = found.scan.tile(SectorId("S24"))
    assert tile is not None
    aqua = {s.slot for s in tile.slots if s.describe() == "aqua"}
    assert {"craft3", "craft4"} <= aqua
    monkeypatch.setattr(slots, "HIDDEN_SURROUND_KINDS", ("mineral", "craft", "unit", "claim"))
    again = recognize(picture.image, expected=tuple(truth.tiles)).scan.tile(SectorId("S24"))
    assert again is not None
    assert {s.slot for s in again.slots if s.describe() == "aqua"} == aqua - {"craft3", "craft4"}


@pytest.mark.parametrize(
    ("seed", "index", "read_as"),
    [
        (59, 31, {"aqua carrier", "white carrier", "aqua"}),
        (59, 39, {"purple carrier"}),
        (53, 26, {"white"}),
    ],
)
def test_a_colour_that_a_lamp_of_another_colour_tints_is_unknown(
    seed: int, index: int, read_as: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18's ``lamps`` set (docs/benchmarks.md): a warm table under a daylight lamp,
    its highlight blue-white. Picture 31 (1.47 px/mm) read two green tokens aqua and a
    yellow carrier white, picture 39 (0.54 px/mm) a red carrier purple, and seed 53's
    picture 26 (0.94 px/mm) a yellow claim white, at 0.51-0.59: the
    glare was taken off as if of the table's light. Read again with the light around each
    slot taken off channel by channel (``slots.tinted``), each is nearer another swatch, or
    nearly as near it, or far from its own: unknown, and nothing reads wrong. With the
    highlight now taken off in the lamp's colour (``recognize._glare_colour``) none of them
    reads wrong even without that check; the check stands behind it, for a highlight whose
    colour cannot be read."""
    rendered = benchmark_picture(boards(index + 1, seed=seed, harsh="lamps")[index])[0]
    tally = _tally(rendered, recognize(rendered.image, expected=list(rendered.tiles)))
    assert tally.wrong == [] and tally.occluded_wrong == []
    monkeypatch.setattr(slots, "tinted", lambda *args: np.zeros(len(args[4]), bool))
    # The lightness check (``LIGHTNESS_FAR``) also leaves seed 53's white claim unknown, and
    # the card's hues (``HUE_SHIFT_MOST``: its purple swatch turned by blur) picture 39's
    # red carrier.
    monkeypatch.setattr(slots, "LIGHTNESS_FAR", 100.0)
    monkeypatch.setattr(recognize_module, "_hues_off", lambda *args: frozenset())
    tally = _tally(rendered, recognize(rendered.image, expected=list(rendered.tiles)))
    assert tally.wrong == []
    _glare_as_grey(monkeypatch)
    tally = _tally(rendered, recognize(rendered.image, expected=list(rendered.tiles)))
    assert {wrong.split(" read ")[-1] for wrong in tally.wrong} >= read_as, tally.wrong


@pytest.mark.parametrize(
    ("index", "sector", "name", "want", "read_as"),
    [(8, "S24", "unit", "green carrier", "aqua carrier"), (28, "S4", "craft5", "green", "aqua")],
)
def test_a_smeared_token_in_a_coarse_picture_lies_near_its_swatch(
    index: int, sector: str, name: str, want: str, read_as: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18's benchmark, a held-out warm set (seed 73: 2700 K, JPEG 60). Picture 8 (0.64
    px/mm): S24's green carrier, a few pixels across, comes out of JPEG mixed with the tile
    whole, 22.2 from aqua and spreading as a smeared token does; picture 28 (0.93 px/mm):
    S4's green craft5, 19.7 from aqua. Coarser than a pixel per millimetre a smeared body
    must lie within ``SMEARED_FAR_COARSE`` of its swatch: unknown. Within ``FAR``, as from
    a pixel per millimetre, each read aqua at 0.54-0.59."""
    rendered = benchmark_picture(boards(index + 1, seed=73, harsh="warm")[index])[0]
    assert rendered.px_per_mm < recognize_module.COARSE_PX_PER_MM
    assert rendered.tiles[sector].slots[name].describe() == want
    assert _read(rendered, sector, name) == "unknown"
    monkeypatch.setattr(slots, "SMEARED_FAR_COARSE", slots.FAR)
    assert _read(rendered, sector, name) == read_as


def test_a_token_of_one_swatchs_lightness_and_anothers_hue_is_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark, a held-out ``lamps`` set (seed 97), picture 29 (1.41 px/mm): a
    daylight lamp's highlight on S3's red carrier alone, on a dark tile under a warm light,
    leaves its body with red's lightness and pink's hue, 23.6 below the card's pink in L*
    and 23.9 from it in all: within ``FAR``, it read "pink carrier" at 0.50. Farther than
    ``LIGHTNESS_FAR`` from its swatch's lightness: unknown. (The highlight, taken off in
    the lamp's colour now, leaves it unknown without that check too; the check stands
    behind it, for a highlight whose colour cannot be read.)"""
    rendered = benchmark_picture(boards(30, seed=97, harsh="lamps")[29])[0]
    assert rendered.px_per_mm >= 1.0
    assert rendered.tiles["S3"].slots["unit"].describe() == "red carrier"
    assert _read(rendered, "S3", "unit") == "unknown"
    monkeypatch.setattr(slots, "LIGHTNESS_FAR", slots.FAR)
    assert _read(rendered, "S3", "unit") == "unknown"
    _glare_as_grey(monkeypatch)
    assert _read(rendered, "S3", "unit") == "pink carrier"


def test_a_slot_darker_than_any_shadow_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18's benchmark, a held-out warm set (seed 73), picture 20 (0.96 px/mm): a dark
    hand lies over S14, placed from the prior, and its mineral1 slot's surround is at 0.05
    of bare tile's light. No hand's shadow is that deep (``SHADOW_DEEPEST``): unknown. Made
    up for as a shadow, the empty slot read "token" at 0.93 (what the hand shows there,
    made up for, is also far lighter than the card's white: ``OVER_WHITE`` leaves it
    unknown as well, and so does the hand come in over the tile's edge, ``BEYOND_SHARE``;
    both are set aside here)."""
    board = boards(21, seed=73, harsh="warm")[20]
    _read_unknown_with_its_prior(board, "S14", "mineral1")
    monkeypatch.setattr(slots, "SHADOW_DEEPEST", 0.0)
    monkeypatch.setattr(slots, "OVER_WHITE", float("inf"))
    monkeypatch.setattr(slots, "BEYOND_SHARE", float("inf"))
    rendered = benchmark_picture(board)[0]
    assert rendered.tiles["S14"].slots["mineral1"].describe() == "empty"
    found = recognize(rendered.image, expected=list(rendered.tiles), prior=clear_prior(board))
    tile = found.scan.tile("S14")
    assert tile is not None
    assert next(r for r in tile.slots if r.slot == "mineral1").describe() == "token"


def test_a_note_the_tiles_read_twice_give_is_said_once() -> None:
    """The tiles may be read twice (a card that cannot be used after all, a highlight taken
    off as grey), and each reading adds what it needs said: the picture's notes say each
    thing once, in the order first said."""
    twice = ("the calibration card is not in the picture", "a", "b", "a")
    quality, notes = recognize_module.judge(1.5, 0.5, 4, (), twice)
    assert quality is Quality.GOOD
    assert notes == ("the calibration card is not in the picture", "a", "b")
