"""Recognition on rendered boards: tiles, adjacency (R1.1), slots, occlusion and lighting."""

from __future__ import annotations

import random

import pytest

from companion.local_cluster.state import State
from vision.local_cluster.recognize import recognize
from vision.local_cluster.synthetic import Conditions, Rendered, render, sample_state


@pytest.fixture(scope="module")
def state() -> State:
    return sample_state(3)


def _wrong(rendered: Rendered, state: State) -> tuple[list[str], list[str], list[str]]:
    """(wrong visible slots, unknown visible slots, confidently wrong occluded slots)."""
    scan = recognize(rendered.image).scan
    wrong, unknown, occluded_wrong = [], [], []
    for sector, truth in rendered.tiles.items():
        tile = scan.tile(sector)
        if tile is None:
            continue
        for reading in tile.slots:
            expected = truth.slots[reading.slot]
            same = (reading.state, reading.colour, reading.kind) == (
                expected.state,
                expected.colour,
                expected.kind,
            )
            if reading.slot in truth.occluded:
                if reading.known and not same:
                    occluded_wrong.append(f"{sector} {reading.slot}")
            elif not reading.known:
                unknown.append(f"{sector} {reading.slot}")
            elif not same:
                wrong.append(f"{sector} {reading.slot}: {reading.describe()}")
    return wrong, unknown, occluded_wrong


def test_every_tile_and_shared_edge_is_read_from_a_clear_picture(state: State) -> None:
    scan = recognize(render(state, Conditions(seed=1)).image).scan
    assert sorted(scan.sectors) == sorted(state.galaxy.ids)
    assert set(scan.adjacency) == set(state.galaxy.edges)


@pytest.mark.parametrize("kelvin", [2700, 6500])
def test_colours_hold_under_warm_and_cool_light(state: State, kelvin: float) -> None:
    rendered = render(state, Conditions(kelvin=kelvin, seed=2, noise=2))
    wrong, unknown, _ = _wrong(rendered, state)
    assert wrong == []
    assert len(unknown) <= 3


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(16))
def test_random_conditions_never_give_a_confident_wrong_reading(state: State, seed: int) -> None:
    conditions = Conditions.random(random.Random(seed))
    rendered = render(state, conditions)
    wrong, _, occluded_wrong = _wrong(rendered, state)
    assert wrong == []
    assert occluded_wrong == []


def test_a_hand_over_a_marker_reports_that_tile_missing(state: State) -> None:
    for seed in range(20):
        rendered = render(state, Conditions(hand=True, seed=seed))
        hidden = [s for s, t in rendered.tiles.items() if not t.marker_visible]
        if hidden:
            break
    scan = recognize(rendered.image).scan
    assert hidden
    assert any(scan.tile(sector) is None for sector in hidden)


def test_a_covered_slot_is_unknown_not_guessed(state: State) -> None:
    for seed in range(20):
        rendered = render(state, Conditions(hand=True, seed=seed))
        if any(t.occluded and t.marker_visible for t in rendered.tiles.values()):
            break
    _, _, occluded_wrong = _wrong(rendered, state)
    assert occluded_wrong == []


def test_r1_1_tiles_sharing_an_edge_are_adjacent_and_touching_corners_are_not() -> None:
    """R1.1: two sectors are adjacent when their tiles share an edge segment; touching corners
    are not adjacency."""
    from vision.local_cluster.recognize import _adjacent

    side = 130.0
    here = ((0.0, 0.0), 3.0)
    assert _adjacent(here, ((131.0, 4.0), 1.0), side)  # beside, a little off
    assert _adjacent(here, ((2.0, -129.0), 0.0), side)  # above
    assert not _adjacent(here, ((130.0, 130.0), 0.0), side)  # corner to corner
    assert not _adjacent(here, ((260.0, 0.0), 0.0), side)  # a gap of a whole tile


def test_a_scan_gives_setup_the_games_own_galaxy(state: State) -> None:
    from companion.local_cluster.board_scan import galaxy_from_scan

    scanned = galaxy_from_scan(recognize(render(state, Conditions(seed=6)).image).scan)
    assert scanned.galaxy.edges == state.galaxy.edges
    assert {s.id: s.minerals for s in scanned.galaxy.sectors} == {
        s.id: s.minerals for s in state.galaxy.sectors
    }
    assert scanned.unread == ()
