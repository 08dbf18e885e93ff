"""Globular Cluster rulings G5 (majority), G6 (scoring rounds) and G7 (the end of the game)."""

from __future__ import annotations

import pytest

from companion.globular.board import Colonist
from companion.globular.errors import Refusal
from companion.globular.game import GlobularGame
from companion.globular.record import result_dict
from companion.globular.scoring import crystal_sets, majority, presences, score, standings
from companion.globular.settings import TieBreak
from companion.globular.state import TurnKind
from companion.globular.tiles import Colour, Crystal, Tile
from tests.globular_helpers import (
    P,
    figure_2,
    full_rectangle,
    give_crystals,
    new_game,
    play,
    player,
    put,
)


def ready(players: int = 2, *, stack: tuple[str, ...] = ("rda", "gr4", "bl3")) -> GlobularGame:
    """Figure 2's board with a short stack, red to draw."""
    game = new_game(players)
    figure_2(game)
    game.state.stack = [Tile.parse(code) for code in stack]
    return game


def place_first(game: GlobularGame) -> None:
    legal = game.legal_placements()
    if legal:
        first = sorted(legal)[0]
        game.play(f"place {first} {legal[first][0]}")


# G5 --------------------------------------------------------------------------------------------


def test_g5_1_presence_is_coins_plus_three_for_the_leader() -> None:
    game = ready()
    put(game, "red", {"i7": 2}, leader="i7")
    assert presences(game.state, P("i7")) == {Colour.RED: 5}


def test_g5_2_the_majority_beats_each_other_player_not_their_total() -> None:
    game = ready(3)
    put(game, "red", {"i7": 3})
    put(game, "black", {"i7": 2})
    put(game, "blue", {"i7": 2})
    assert majority(game.state, P("i7")) is Colour.RED


def test_g5_2_a_tie_for_the_most_gives_nobody_the_majority() -> None:
    game = ready(3)
    put(game, "red", {"i7": 1}, leader="i7")  # 4
    put(game, "black", {"i7": 4})
    assert majority(game.state, P("i7")) is None
    assert majority(game.state, P("j6")) is None  # nobody there


def test_g5_3_majority_is_judged_at_each_players_own_scoring() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1
    put(game, "red", {"i7": 2})
    game.play("draw rda")  # a scoring round: red's turn first
    red_score = game.play("end").scored
    assert red_score is not None and [h.position for h in red_score.tiles] == [P("i7")]
    put(game, "black", {"i7": 3})  # black now outnumbers red there
    black_score = game.play("end").scored
    assert black_score is not None and [h.position for h in black_score.tiles] == [P("i7")]


def test_g5_4_a_colonized_tile_scores_for_its_colonizer_only() -> None:
    game = ready()
    cell = game.state.board[P("i7")]
    cell.pennies = 2
    cell.colonist = Colonist(Colour.RED)
    player(game, "red").colony = P("i7")
    put(game, "black", {"i7": 6})
    red = score(game.state, 1, round_number=1, final=False)
    black = score(game.state, 2, round_number=1, final=False)
    assert [h.value for h in red.tiles] == [3]
    assert black.tiles == ()
    assert presences(game.state, P("i7")) == {Colour.BLACK: 6}  # the colonist is no presence


# G6 --------------------------------------------------------------------------------------------


def test_g6_1_drawing_a_supernova_starts_a_scoring_round_and_sets_it_aside() -> None:
    game = ready()
    played = game.play("draw rda")
    assert game.state.turn.kind is TurnKind.SCORING
    assert game.state.supernova == Tile.parse("rda")
    assert game.state.turn.to_place is None
    assert "scoring round begins" in played.said[-1]
    with pytest.raises(Refusal, match=r"no tile is placed in this turn \(scoring round\)"):
        game.play("place g5 tr")
    game.play("move m7>k7")  # 10 AP to spend


def test_g6_2_one_turn_each_in_seat_order_from_the_drawer_each_scores_alone() -> None:
    game = ready(3)
    play(game, "draw gr4")
    place_first(game)
    play(game, "end", "draw rda")  # black draws the supernova
    order = []
    for _ in range(3):
        turn = game.state.turn
        vp_before = {p.colour: p.vp for p in game.state.players}
        played = game.play("end")
        assert played.scored is not None
        changed = [p.colour for p in game.state.players if p.vp != vp_before[p.colour]]
        assert changed in ([], [game.state.player(turn.seat).colour])
        order.append((turn.seat, turn.kind))
    assert order == [(2, TurnKind.SCORING), (3, TurnKind.SCORING), (1, TurnKind.SCORING)]


def test_g6_2_a_tile_may_score_for_one_player_then_another_in_the_same_round() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1  # green ace + 1 = 2
    put(game, "red", {"i7": 1})
    game.play("draw rda")
    game.play("end")
    assert player(game, "red").vp == 2
    put(game, "black", {"k7": 2})
    game.play("move k7>i7 x2")  # black now holds i7
    game.play("end")
    assert player(game, "black").vp == 2


def test_g6_3_the_drawer_then_places_the_supernova_and_does_not_score() -> None:
    game = ready()
    play(game, "draw rda", "end", "end")
    turn = game.state.turn
    assert (turn.seat, turn.kind, turn.to_place) == (1, TurnKind.SUPERNOVA, Tile.parse("rda"))
    assert game.legal_placements()
    place_first(game)
    vp = player(game, "red").vp
    game.play("end")
    assert player(game, "red").vp == vp
    assert (game.state.turn.seat, game.state.turn.kind) == (2, TurnKind.NORMAL)


def test_g6_4_a_score_is_tile_values_held_plus_crystal_points() -> None:
    game = ready()
    board = game.state.board
    board[P("j6")].pennies = 2  # green 2 + 2 = 4
    put(game, "red", {"j6": 1, "i7": 1, "k5": 1})
    put(game, "black", {"i7": 1})  # a tie at i7: nobody scores it
    give_crystals(game, "red", n1=2, five=1)
    game.play("draw rda")
    scored = game.play("end").scored
    assert scored is not None
    assert [(h.position.name(), h.value) for h in scored.tiles] == [("k5", 2), ("j6", 4)]
    assert (scored.tile_points, scored.crystal_points, scored.total) == (6, 4, 10)
    assert player(game, "red").vp == 10


@pytest.mark.parametrize(
    ("count", "sets"),
    [
        (1, (0, 0, 1)),
        (2, (0, 1, 0)),
        (3, (1, 0, 0)),
        (4, (1, 0, 1)),
        (5, (1, 1, 0)),
        (6, (2, 0, 0)),
        (7, (2, 0, 1)),
    ],
)
def test_g6_5_crystals_of_a_type_split_into_triplets_then_a_pair_or_a_single(
    count: int, sets: tuple[int, int, int]
) -> None:
    split = crystal_sets(Crystal.FOUR, count)
    assert (split.triplets, split.pairs, split.singles) == sets


def test_g6_5_crystals_match_only_within_their_type() -> None:
    game = ready()
    give_crystals(game, "red", n1=1, t23=1, four=1, five=1)
    assert score(game.state, 1, round_number=1, final=False).crystal_points == 4


def test_g6_6_points_6_a_triplet_3_a_pair_1_a_single_and_crystals_score_again() -> None:
    game = ready()
    give_crystals(game, "red", four=5, five=1)  # 6 + 3 + 1
    play(game, "draw rda", "end")
    assert player(game, "red").vp == 10
    game.play("end")
    place_first(game)
    play(game, "end", "draw gr4")
    place_first(game)
    game.play("end")
    assert player(game, "red").crystals[Crystal.FOUR] == 5  # never spent


def test_g6_7_null_and_resource_tiles_supernovas_and_the_mits_score_nothing() -> None:
    game = ready()
    put(game, "red", {"h6": 3, "k7": 3, "l8": 3, "m7": 3})
    scored = score(game.state, 1, round_number=1, final=False)
    assert scored.tiles == () and scored.total == 0


# G7 --------------------------------------------------------------------------------------------


def run_out(game: GlobularGame) -> list[tuple[int, str]]:
    """Play every turn with nothing but the draw and placement: (seat, kind) of each."""
    kinds = []
    while not game.over:
        if game.state.turn.awaiting_draw:
            game.play(f"draw {game.state.stack[0]}")
        kinds.append((game.state.turn.seat, game.state.turn.kind.value))
        if game.state.turn.to_place is not None:
            place_first(game)
        game.play("end")
    return kinds


def test_g7_1_to_g7_3_after_the_last_tile_one_more_turn_each_then_the_final_round() -> None:
    game = ready(3, stack=("gr4", "bl3", "bk3", "gr2"))
    assert run_out(game) == [
        (1, "normal"),
        (2, "normal"),
        (3, "normal"),
        (1, "normal"),  # red places the last tile
        (2, "end"),
        (3, "end"),
        (1, "end"),
        (2, "final"),
        (3, "final"),
        (1, "final"),
    ]


def test_g7_1_a_last_supernova_scores_first_and_its_turn_is_the_last_tile_turn() -> None:
    game = ready(2, stack=("gr4", "rda"))
    assert run_out(game) == [
        (1, "normal"),
        (2, "scoring"),
        (1, "scoring"),
        (2, "supernova"),
        (1, "end"),
        (2, "end"),
        (1, "final"),
        (2, "final"),
    ]


def test_g7_1_a_last_tile_set_aside_makes_the_last_tile_turn_too() -> None:
    game = ready(2, stack=("gr4",))
    full_rectangle(game)
    assert run_out(game)[:2] == [(1, "normal"), (2, "end")]
    assert game.state.set_aside == [Tile.parse("gr4")]


def test_g7_2_the_last_turns_score_nothing() -> None:
    game = ready(2, stack=("gr4",))
    give_crystals(game, "red", five=3)
    play(game, "draw gr4")
    place_first(game)
    play(game, "end", "end", "end")  # red's last tile, black's and red's end turns
    assert [p.vp for p in game.state.players] == [0, 0]
    assert game.state.turn.kind is TurnKind.FINAL


def test_g7_3_the_final_round_scores_each_player_then_the_game_is_over() -> None:
    game = ready(2, stack=("gr4",))
    give_crystals(game, "red", five=3)
    play(game, "draw gr4")
    place_first(game)
    play(game, "end", "end", "end", "end", "end")
    assert game.over
    assert [p.vp for p in game.state.players] == [6, 0]  # red's triplet of fives
    with pytest.raises(Refusal, match=r"the game is over \(G7\.3\)"):
        game.play("end")
    assert game.state.rounds[-1].final


def test_g7_4_the_highest_total_wins_and_equal_totals_share_the_place() -> None:
    game = ready(3)
    for p, vp in zip(game.state.players, (12, 20, 12), strict=True):
        p.vp = vp
    assert standings(game.state, crystals_break_ties=False) == [(1, [2]), (2, [1, 3])]


def test_g7_4_house_rule_tiebreak_crystals_ranks_more_crystals_higher() -> None:
    game = new_game(3, tiebreak=TieBreak.CRYSTALS)
    for p, vp in zip(game.state.players, (12, 12, 12), strict=True):
        p.vp = vp
    give_crystals(game, "black", n1=2)
    give_crystals(game, "blue", n1=2)
    assert standings(game.state, crystals_break_ties=True) == [(1, [2, 3]), (3, [1])]
    game.state.over = True
    result = result_dict(game)
    assert result is not None
    assert result["standings"] == [
        {"place": 1, "colours": ["black", "blue"]},
        {"place": 3, "colours": ["red"]},
    ]


def test_g6_scoring_keeps_who_held_each_tile_for_the_round() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1
    put(game, "red", {"i7": 1})
    play(game, "draw rda", "end")
    held = dict(game.state.rounds[0].holdings)[1]
    assert {h.position.name(): (h.holder, h.value) for h in held}["i7"] == (Colour.RED, 2)
