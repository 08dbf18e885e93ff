"""Globular Cluster rulings G1: components and set-up (docs/rules-globular-cluster.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.errors import StateError
from companion.globular.errors import NotationError
from companion.globular.game import GlobularGame
from companion.globular.geometry import MITS
from companion.globular.settings import Settings
from companion.globular.stack import (
    GROUP_1,
    GROUP_2,
    GROUP_3,
    MARKERS,
    MITS_TILE,
    REMOVED,
    STARTING_LAYOUT,
    all_tiles,
    shuffled_stack,
    stack_tiles,
)
from companion.globular.state import COINS, TurnKind
from companion.globular.tiles import COLOURS, FACES, Colour, Crystal, Rank, Tile, TileKind
from tests.globular_helpers import new_game


def test_g1_1_tile_numbers_ace_is_1_and_a_null_has_none() -> None:
    assert [r.number for r in Rank] == [None, 1, 2, 3, 4, 5]
    assert [c.value for c in Colour] == ["red", "black", "blue", "green"]


@pytest.mark.parametrize("code", ["bk4", "gra", "rdn", "bl5", "grn", "bka"])
def test_g1_2_a_tile_is_known_by_its_code(code: str) -> None:
    assert Tile.parse(code).code() == code
    assert Tile.parse(code.upper()) == Tile.parse(code)
    assert eval(repr(Tile.parse(code))) == Tile.parse(code)


@pytest.mark.parametrize("code", ["bk6", "yl4", "bk", "bk44", "", "ace"])
def test_g1_2_anything_else_is_not_a_tile(code: str) -> None:
    with pytest.raises(NotationError, match=r"is not a tile: .*\(G8\.2\)"):
        Tile.parse(code)


def test_g1_3_every_tile_is_of_exactly_one_kind() -> None:
    assert Tile.parse("rda").kind is TileKind.SUPERNOVA
    for code in ("rdn", "bkn", "bln", "grn"):
        assert Tile.parse(code).kind is TileKind.NULL
    for code in ("bka", "bk2", "bk3", "bk4", "bk5"):
        assert Tile.parse(code).kind is TileKind.RESOURCE
    for code in ("bla", "bl2", "bl5", "gra", "gr3", "gr5"):
        assert Tile.parse(code).kind is TileKind.HABITABLE
    game = new_game()
    assert game.state.board[MITS].kind is TileKind.MITS


def test_g1_4_every_one_of_the_48_tiles_has_its_place() -> None:
    layout = Counter(tile for _, tile, _, _ in STARTING_LAYOUT)
    everything = (
        Counter(REMOVED) + Counter(MARKERS.values()) + layout + Counter([MITS_TILE])
    ) + stack_tiles(4)
    assert sum(everything.values()) == 48
    assert everything == all_tiles()
    assert len(REMOVED) == 12
    assert sum(stack_tiles(4).values()) == 28


def test_g1_4_the_starting_layout_is_the_mits_a_black_null_and_both_black_aces() -> None:
    game = new_game()
    board = game.state.board
    assert sorted(board[p].code for p in board) == ["bka", "bka", "bkn", "mits"]


@pytest.mark.parametrize(("players", "size"), [(2, 28), (3, 27), (4, 28)])
def test_g1_5_three_players_remove_group_2s_green_null(players: int, size: int) -> None:
    assert sum(stack_tiles(players).values()) == size
    assert len(new_game(players).state.stack) == size
    green_nulls = stack_tiles(players)[Tile.parse("grn")]
    assert green_nulls == (1 if players == 3 else 2)


def test_g1_6_each_player_has_12_coins_a_leader_two_stations_and_a_colour_of_their_own() -> None:
    game = new_game(4)
    for p in game.state.players:
        assert p.coins == {MITS: COINS} and COINS == 12
        assert p.leader == MITS
        assert p.stations_left == 2
    assert [p.colour for p in game.state.players] == list(COLOURS)
    with pytest.raises(StateError, match="colour of their own"):
        Settings((Colour.RED, Colour.RED))
    with pytest.raises(StateError, match="2 to 4 players"):
        Settings((Colour.RED,))


def test_g1_7_at_the_start_everything_stands_on_the_mits_with_no_points_and_no_crystals() -> None:
    for p in new_game(3).state.players:
        assert p.presence(MITS) == 15
        assert p.vp == 0 and not p.scores
        assert all(n == 0 for n in p.crystals.values())
        assert p.stations == []


def test_g1_8_the_companions_die_gives_each_face_with_chance_one_sixth() -> None:
    game = GlobularGame(Settings((Colour.RED, Colour.BLUE)), 2024)
    rolls = Counter(game.roll(i) for i in range(6000))
    assert set(rolls) == set(FACES)
    for face in FACES:
        assert 850 < rolls[face] < 1150  # 1000 expected; far outside 5 standard deviations
    assert [game.roll(i) for i in range(20)] == [game.roll(i) for i in range(20)]


def test_g1_9_pennies_are_caches_on_resource_tiles_and_improvements_on_habitable_ones() -> None:
    game = new_game()
    board = game.state.board
    for position in board:
        cell = board[position]
        expected = 1 if cell.code == "bka" else 0
        assert cell.pennies == expected
    assert Crystal.N1.label == "N/1"


def test_g1_10_seat_1_plays_first_and_play_passes_clockwise() -> None:
    game = new_game(3)
    seats = []
    for code in ("bl2", "gr2", "bk4", "gr2"):
        seats.append(game.state.turn.seat)
        game.play(f"draw {code}")
        legal = game.legal_placements()
        first = sorted(legal)[0]
        game.play(f"place {first} {legal[first][0]}")
        game.play("end")
    assert seats == [1, 2, 3, 1]
    assert game.state.turn.kind is TurnKind.NORMAL


def test_g3_12_and_g1_5_shuffles_keep_each_group_together() -> None:
    stack = shuffled_stack(4, random.Random(5))
    assert Counter(stack[:9]) == Counter(GROUP_3)
    assert Counter(stack[9:19]) == Counter(GROUP_2)
    assert Counter(stack[19:]) == Counter(GROUP_1)
