"""R2 Setup: galaxy generation, population and recorded randomness."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from companion.local_cluster import Colour, Galaxy, Game, GameRecord, Sector, StateError, UnitType
from companion.local_cluster.generation import (
    SeatChoice,
    generate_layout,
    layout_galaxy,
    populate,
    random_setup,
)

RED, GREEN, BLUE = Colour.RED, Colour.GREEN, Colour.BLUE


class DieWatcher(random.Random):
    """A seeded generator that remembers every sequence it was asked to choose from."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: list[tuple[object, ...]] = []

    def choice(self, seq):
        self.asked.append(tuple(seq))
        return super().choice(seq)


def _line(count: int) -> Galaxy:
    ids = [f"S{n}" for n in range(1, count + 1)]
    return Galaxy.from_sectors([Sector(s, 1) for s in ids], list(pairwise(ids)))


# R2.1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_r2_1_six_tiles_per_player_each_touching_an_edge(players):
    """R2.1: tiles are laid on a square grid one at a time, each sharing an edge with a laid
    tile, 6 per player."""
    placements = generate_layout(players, random.Random(players))
    assert len(placements) == 6 * players
    laid: set[tuple[int, int]] = set()
    for placement in placements:
        column, row = placement.tile.cell
        if laid:
            touching = {(column + 1, row), (column - 1, row), (column, row + 1), (column, row - 1)}
            assert touching & laid, f"{placement.sector} touches no laid tile along an edge"
        assert placement.tile.cell not in laid
        laid.add(placement.tile.cell)


def test_r2_1_seats_take_turns_laying_tiles():
    """R2.1: seats taking turns as in rulebook 3.1 (round after round, the same seat order)."""
    placements = generate_layout(3, random.Random(7))
    assert [p.seat for p in placements] == [1, 2, 3] * 6


def test_r2_1_first_tile_starts_the_galaxy_alone():
    """R2.1 / rulebook 3.1: the first tile is placed by itself as the starting point."""
    placements = generate_layout(2, random.Random(3))
    assert placements[0].tile.cell == (0, 0)


def test_r2_1_tiles_come_from_the_box_of_48_with_their_marker_numbers():
    """R2.1 with R1.2: the box has 48 tiles; ids are the tile marker numbers S1..S48."""
    placements = generate_layout(8, random.Random(11))
    numbers = sorted(int(p.sector[1:]) for p in placements)
    assert numbers == list(range(1, 49))


def test_r2_1_the_laid_table_is_a_connected_galaxy():
    """R2.1 with R1.1: the laid tiles make a galaxy in which edge-sharing tiles are adjacent."""
    placements = generate_layout(4, random.Random(5))
    galaxy = layout_galaxy(placements)
    assert len(galaxy.ids) == 24
    cells = {p.sector: p.tile.cell for p in placements}
    for a, b in galaxy.edges:
        (ca, ra), (cb, rb) = cells[a], cells[b]
        assert abs(ca - cb) + abs(ra - rb) == 1


@pytest.mark.parametrize("players", [0, 1, 9])
def test_r2_1_two_to_eight_players(players):
    """R2.1 / rulebook 1: Local Cluster is for 2-8 players."""
    with pytest.raises(StateError, match="2 to 8 players"):
        generate_layout(players, random.Random(1))


# R2.2 -------------------------------------------------------------------------------------


def test_r2_2_home_gets_claim_two_minerals_and_a_destroyer():
    """R2.2: home sector = claim + 2 minerals + 1 destroyer."""
    galaxy = _line(6)
    state = populate(
        galaxy, [SeatChoice(1, RED, "S1"), SeatChoice(2, BLUE, "s6")], random.Random(1)
    )
    assert dict(state.claims) == {"S1": RED, "S6": BLUE}
    assert state.galaxy.minerals("S1") == 2 and state.galaxy.minerals("S6") == 2
    assert [(u.owner, u.kind, u.sector) for u in state.units] == [
        (RED, UnitType.DESTROYER, "S1"),
        (BLUE, UnitType.DESTROYER, "S6"),
    ]
    assert [e.home for e in state.empires] == ["S1", "S6"]


def test_r2_2_every_other_sector_rolls_the_mineral_die():
    """R2.2: every other sector rolls the mineral die (faces 1,2,2,3,3,4)."""
    rng = DieWatcher(4)
    state = populate(_line(8), [SeatChoice(1, RED, "S1"), SeatChoice(2, BLUE, "S8")], rng)
    assert rng.asked == [(1, 2, 2, 3, 3, 4)] * 6
    assert all(1 <= state.galaxy.minerals(s) <= 4 for s in state.galaxy.ids)


def test_r2_2_die_rolls_give_the_die_distribution():
    """R2.2: the die's faces are 1,2,2,3,3,4 (so 2 and 3 come up twice as often as 1 or 4)."""
    state = populate(
        _line(48), [SeatChoice(1, RED, "S1"), SeatChoice(2, BLUE, "S48")], random.Random(0)
    )
    rolled = [state.galaxy.minerals(s) for s in state.galaxy.ids if s not in ("S1", "S48")]
    assert set(rolled) <= {1, 2, 3, 4}
    assert rolled.count(2) + rolled.count(3) > rolled.count(1) + rolled.count(4)


def test_r2_2_each_colour_once():
    """R2.2: colour choice (8 colours, each once)."""
    with pytest.raises(StateError, match="one empire only"):
        populate(_line(4), [SeatChoice(1, RED, "S1"), SeatChoice(2, RED, "S4")], random.Random(1))


def test_r2_2_eight_colours_in_the_rulebook_order():
    """R2.2 / rulebook 2.3: Red, Green, Blue, Yellow, Aqua, Purple, Pink and White."""
    assert [c.title for c in Colour] == [
        "Red",
        "Green",
        "Blue",
        "Yellow",
        "Aqua",
        "Purple",
        "Pink",
        "White",
    ]


def test_r2_2_homes_may_be_adjacent():
    """R2.2: Homes may be adjacent."""
    state = populate(
        _line(4), [SeatChoice(1, RED, "S2"), SeatChoice(2, BLUE, "S3")], random.Random(1)
    )
    assert state.galaxy.adjacent("S2", "S3")
    assert dict(state.claims) == {"S2": RED, "S3": BLUE}


def test_r2_2_two_empires_cannot_share_a_home():
    """R2.2: each seat chooses its own home sector."""
    with pytest.raises(StateError, match="already Red's home"):
        populate(_line(4), [SeatChoice(1, RED, "S2"), SeatChoice(2, BLUE, "S2")], random.Random(1))


def test_r2_2_a_physical_table_may_enter_its_real_values():
    """R2.2: A physical table may instead enter or scan the real values."""
    galaxy = Galaxy.from_sectors(
        [Sector("S1", 4), Sector("S2", 3), Sector("S3", 1)], [("S1", "S2"), ("S2", "S3")]
    )
    choices = [SeatChoice(1, RED, "S1"), SeatChoice(2, BLUE, "S3")]
    state = populate(galaxy, choices, None, roll_minerals=False)
    assert [state.galaxy.minerals(s) for s in ("S1", "S2", "S3")] == [2, 3, 2]


def test_r2_2_the_last_seat_to_lay_a_tile_chooses_first():
    """R2.2: population follows rulebook 3.2 seat order: starting with the last player to
    place a tile, then on round the table the other way."""
    state = random_setup(21, 3, colours=[RED, GREEN, BLUE])
    seats = {e.seat: e.colour for e in state.empires}
    assert seats == {3: RED, 2: GREEN, 1: BLUE}
    assert generate_layout(3, random.Random(21))[-1].seat == 3


# R2.3 -------------------------------------------------------------------------------------


def test_r2_3_the_same_seed_gives_the_same_setup():
    """R2.3: randomness comes from a seeded generator ... so a game replays exactly."""
    assert random_setup(99, 5).to_json() == random_setup(99, 5).to_json()
    assert random_setup(99, 5).to_json() != random_setup(100, 5).to_json()


def test_r2_3_a_recorded_game_replays_to_the_same_position():
    """R2.3: randomness comes from a seeded generator recorded in the game, so a game replays
    exactly."""
    game = Game(random_setup(8, 2), seed=8)
    red, blue = (e.colour for e in game.state.empires)
    red_home, blue_home = (e.home for e in game.state.empires)
    game.play({red: f"CLAIM {red_home}", blue: f"HOLD {blue_home}"})
    game.play({})
    game.build({})
    text = GameRecord.of(game).to_json()
    record = GameRecord.from_json(text)
    assert record.seed == 8
    assert record.replay().state == game.state
    assert GameRecord.from_json(text).to_json() == text
