"""Globular Cluster rulings G4: turns, action points and every action."""

from __future__ import annotations

import pytest

from companion.globular.board import Colonist
from companion.globular.errors import Refusal
from companion.globular.game import GlobularGame
from companion.globular.geometry import MITS
from companion.globular.settings import Dice
from companion.globular.tiles import Colour, Crystal, Face, Tile
from tests.globular_helpers import (
    P,
    figure_2,
    give_crystals,
    lay,
    new_game,
    play,
    player,
    put,
    start_actions,
)


def ready(players: int = 2, *, dice: Dice = Dice.PHYSICAL) -> GlobularGame:
    """Figure 2's board, red to act with 10 AP (a blue 4 just placed at m5)."""
    game = new_game(players, dice=dice)
    figure_2(game)
    start_actions(game, "bl4", "m5 bl")
    return game


def refused(game: GlobularGame, line: str) -> Refusal:
    before = game.state.digest()
    with pytest.raises(Refusal) as caught:
        game.play(line)
    assert game.state.digest() == before  # a refused line changes nothing (G8.4)
    return caught.value


# G4.1, G4.2 -------------------------------------------------------------------------------------


def test_g4_2_a_turn_has_10_ap_and_an_action_costing_more_is_refused() -> None:
    game = ready()
    put(game, "red", {"i7": 1})
    play(game, "move m7>k7 x3", "move i7>j6")  # 3 + 2
    assert game.state.turn.ap == 5
    play(game, "move k7>l6 x3")
    assert game.state.turn.ap == 2
    refusal = refused(game, "move j6>h6")  # 4 AP
    assert refusal.ruling == "G4.2"
    assert refusal.reason == "move j6>h6 costs 4 AP but you have 2 left"


def test_g4_2_ap_left_are_lost_at_the_end_of_the_turn() -> None:
    game = ready()
    played = game.play("end")
    assert "10 AP unused" in played.said[-1]
    play(game, "draw gr2", "place g5 br")
    assert game.state.turn.ap == 10 and game.state.turn.seat == 2


def test_g4_2_actions_in_any_order_and_end_at_any_time() -> None:
    game = ready()
    put(game, "red", {"k7": 2})
    play(game, "mine k7 roll 4", "move m7>k7", "end")
    assert player(game, "red").crystals[Crystal.FOUR] == 1


def test_g4_1_each_turns_kind_and_what_it_holds() -> None:
    game = new_game()
    game.state.stack = [Tile.parse("bl2"), Tile.parse("rda"), Tile.parse("gr2")]
    kinds = []
    while not game.over:
        if game.state.turn.awaiting_draw:
            game.play(f"draw {game.state.stack[0]}")
        turn = game.state.turn
        kinds.append((turn.seat, turn.kind.value))
        if game.state.turn.to_place is not None:
            legal = game.legal_placements()
            first = sorted(legal)[0]
            game.play(f"place {first} {legal[first][0]}")
        game.play("end")
    assert kinds == [
        (1, "normal"),
        (2, "scoring"),  # blue drew the supernova
        (1, "scoring"),
        (2, "supernova"),
        (1, "normal"),  # the last tile
        (2, "end"),
        (1, "end"),
        (2, "final"),
        (1, "final"),
    ]


# G4.3, G4.4 -------------------------------------------------------------------------------------


def test_g4_3_the_leader_moves_like_a_coin_and_counts_three() -> None:
    game = ready()
    put(game, "red", {}, leader="k7")
    assert player(game, "red").presence(P("k7")) == 3
    game.play("move k7>i7 leader")
    assert game.state.turn.ap == 9 and player(game, "red").leader == P("i7")
    play(game, "improve i7 x2")  # one leader: members enough for two improvements (G4.10)
    assert game.state.board[P("i7")].pennies == 2


def test_g4_3_the_leader_is_three_members_when_mining() -> None:
    game = ready()
    lay(game, "j4 bk3 br")
    put(game, "red", {}, leader="k5")
    game.play("move k5>j4 leader")
    game.play("mine j4 x2 roll 2 3")
    assert player(game, "red").crystals[Crystal.T23] == 2


def test_g4_4_a_move_along_a_path_pays_each_crossing() -> None:
    game = ready()
    game.play("move m7>k7>i7>j6")  # 1 + 1 + 2
    assert game.state.turn.ap == 6
    assert player(game, "red").coins_at(P("j6")) == 1


def test_g4_4_several_coins_are_several_moves_each_paid() -> None:
    game = ready()
    played = game.play("move m7>k7>i7 x3")
    assert played.cost == 6 and player(game, "red").coins_at(P("i7")) == 3


def test_g4_4_members_move_onto_and_off_the_mits() -> None:
    game = ready()
    play(game, "move m7>k7", "move k7>m7")
    assert player(game, "red").coins_at(MITS) == 12


def test_g4_4_members_move_onto_and_across_a_colonized_tile() -> None:
    game = ready()
    game.state.board[P("i7")].colonist = Colonist(Colour.BLACK)
    game.state.board[P("i7")].pennies = 1
    game.play("move m7>k7>i7>h8")
    assert player(game, "red").coins_at(P("h8")) == 1


def test_g4_4_a_move_needs_a_member_of_yours_on_the_start_tile() -> None:
    game = ready()
    refusal = refused(game, "move k7>i7")
    assert (refusal.ruling, refusal.reason) == ("G4.4", "you have no coin at k7")
    refusal = refused(game, "move k7>i7 leader")
    assert (refusal.ruling, refusal.reason) == ("G4.4", "your leader is not at k7")
    put(game, "red", {"k7": 2})
    refusal = refused(game, "move k7>i7 x3")
    assert refusal.reason == "the 3rd coin: you have no coin at k7"


def test_g4_4_the_tiles_must_be_on_the_board_and_neighbours() -> None:
    game = ready()
    assert refused(game, "move m7>i7").reason == "m7 and i7 are not neighbours"
    assert refused(game, "move m7>n8").reason == "there is no tile at n8"
    assert refused(game, "move m7>n8").ruling == "G4.4"


def test_g4_4_moves_are_refused_in_the_order_of_g8_4() -> None:
    game = ready()
    lay(game, "g5 rda tr")
    # No member at h6, and g5 is a supernova: the supernova is named first (G2.10).
    assert refused(game, "move h6>g5").ruling == "G2.10"
    # No member at k7, and k7-j8 impassable: the crossing is named first (G2.8).
    assert refused(game, "move k7>j8").ruling == "G2.8"


# G4.5 ---------------------------------------------------------------------------------------


def test_g4_5_warp_from_the_mits_to_your_station_and_between_stations() -> None:
    game = ready()
    play(game, "station l8")  # 5 AP
    play(game, "warp m7>l8 x2")  # 2 AP: usable the turn it is built
    assert game.state.turn.ap == 3
    assert player(game, "red").coins_at(P("l8")) == 2


def test_g4_5_warp_station_to_station_costs_1_a_member() -> None:
    game = ready()
    red = player(game, "red")
    for name in ("l8", "h6"):
        red.stations.append(P(name))
        game.state.board[P(name)].station = Colour.RED
    put(game, "red", {"l8": 3}, leader="l8")
    play(game, "warp l8>h6 x3", "warp l8>h6 leader")
    assert game.state.turn.ap == 6 and player(game, "red").presence(P("h6")) == 6


def test_g4_5_never_to_the_mits_nor_with_another_players_station() -> None:
    game = ready()
    blue = player(game, "black")
    blue.stations.append(P("l8"))
    game.state.board[P("l8")].station = Colour.BLACK
    refusal = refused(game, "warp m7>l8")
    assert refusal.ruling == "G4.5" and "black's" in refusal.reason
    red = player(game, "red")
    red.stations.append(P("h6"))
    game.state.board[P("h6")].station = Colour.RED
    put(game, "red", {"h6": 1})
    assert refused(game, "warp h6>m7").reason == "a warp never goes to the MITS, only from it"
    assert refused(game, "warp k7>h6").ruling == "G4.5"  # k7 is neither MITS nor a station


# G4.6, G4.7, G4.8 -------------------------------------------------------------------------------


def test_g4_6_mining_removes_a_penny_and_records_the_crystal_rolled_for_3_ap() -> None:
    game = ready()
    put(game, "red", {"k7": 1})
    game.play("mine k7 roll 5")
    assert game.state.board[P("k7")].pennies == 0
    assert player(game, "red").crystals[Crystal.FIVE] == 1
    assert game.state.turn.ap == 7


def test_g4_6_only_a_resource_tile_with_a_penny_has_a_cache() -> None:
    game = ready()
    put(game, "red", {"k7": 2, "l8": 1, "i7": 1})
    assert refused(game, "mine l8 roll 4").ruling == "G4.6"  # the black null holds none
    assert refused(game, "mine i7 roll 4").ruling == "G4.6"
    game.play("mine k7 roll 4")
    assert refused(game, "mine k7 roll 4").reason == "no crystal cache is left at k7"


def test_g4_7_the_second_cache_needs_two_members() -> None:
    game = ready()
    lay(game, "j4 bk3 br")
    put(game, "red", {"j4": 1})
    refusal = refused(game, "mine j4 x2 roll 2 2")
    assert refusal.ruling == "G4.7"
    assert refusal.reason == "the 2nd cache this turn needs 2 members of yours at j4; you have 1"
    game.play("mine j4 roll 2")
    assert refused(game, "mine j4 roll 2").ruling == "G4.7"


def test_g4_7_at_most_two_caches_a_turn_from_one_tile() -> None:
    game = ready()
    lay(game, "j4 bk3 br")
    put(game, "red", {"j4": 3, "k7": 1})
    game.play("mine k7 roll 2")
    refusal = refused(game, "mine j4 roll 2")
    assert refusal.reason == "you mined at k7 this turn: both caches come from one tile"
    game2 = ready()
    lay(game2, "j4 bk3 br")
    put(game2, "red", {"j4": 3})
    game2.play("mine j4 x2 roll 2 2")
    assert refused(game2, "mine j4 roll 2").reason == "a player mines at most 2 caches a turn"


@pytest.mark.parametrize(
    ("face", "crystal"),
    [("n", "n1"), ("a", "n1"), ("2", "23"), ("3", "23"), ("4", "4"), ("5", "5")],
)
def test_g4_8_die_face_to_crystal_type(face: str, crystal: str) -> None:
    assert Face.parse(face).crystal is Crystal(crystal)
    game = ready()
    put(game, "red", {"k7": 1})
    game.play(f"mine k7 roll {face}")
    assert player(game, "red").crystals[Crystal(crystal)] == 1


def test_g4_8_house_rule_dice_companion_rolls_with_the_seed() -> None:
    game = ready(dice=Dice.COMPANION)
    put(game, "red", {"k7": 1})
    played = game.play("mine k7")
    face = game.roll(0)
    assert played.line.text() == f"mine k7 roll {face.value}"
    assert player(game, "red").crystals[face.crystal] == 1


# G4.9 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("held", [1, 4, 7])
def test_g4_9_a_single_may_be_taken(held: int) -> None:
    game = ready()
    give_crystals(game, "red", n1=1)
    give_crystals(game, "black", five=held)
    game.play("trade black give n1 take 5")
    assert player(game, "red").crystals[Crystal.FIVE] == 1
    assert player(game, "black").crystals[Crystal.FIVE] == held - 1
    assert player(game, "black").crystals[Crystal.N1] == 1
    assert game.state.turn.ap == 7


@pytest.mark.parametrize("held", [0, 2, 3, 5, 6])
def test_g4_9_pairs_and_triplets_can_be_neither_taken_nor_broken(held: int) -> None:
    game = ready()
    give_crystals(game, "red", n1=1)
    give_crystals(game, "black", five=held)
    assert refused(game, "trade black give n1 take 5").ruling == "G4.9"


def test_g4_9_the_crystal_given_may_come_out_of_a_set_and_complete_one() -> None:
    game = ready()
    give_crystals(game, "red", n1=3, five=2)
    give_crystals(game, "black", five=1)
    game.play("trade black give n1 take 5")
    red = player(game, "red")
    assert (red.crystals[Crystal.N1], red.crystals[Crystal.FIVE]) == (2, 3)


def test_g4_9_a_trade_gives_a_held_type_for_another_with_another_player() -> None:
    game = ready(3)
    give_crystals(game, "black", five=1)
    assert refused(game, "trade black give n1 take 5").reason == (
        "you hold no crystal of type N/1 to give"
    )
    give_crystals(game, "red", n1=1)
    assert refused(game, "trade red give n1 take 5").reason == "a trade is with another player"
    assert refused(game, "trade green give n1 take 5").reason == "nobody plays green in this game"
    assert refused(game, "trade black give 5 take 5").ruling == "G4.9"


# G4.10, G4.11 -----------------------------------------------------------------------------------


def test_g4_10_an_improvement_is_a_penny_for_2_ap_without_needing_the_majority() -> None:
    game = ready()
    put(game, "red", {"i7": 1})
    put(game, "black", {"i7": 5})
    game.play("improve i7")
    assert game.state.board[P("i7")].pennies == 1 and game.state.turn.ap == 8


def test_g4_10_two_improvements_per_tile_per_turn_the_second_needs_two_members() -> None:
    game = ready()
    put(game, "red", {"i7": 1, "j6": 2})
    assert refused(game, "improve i7 x2").ruling == "G4.10"
    play(game, "improve i7", "improve j6 x2")  # several tiles in one turn
    assert refused(game, "improve j6").reason == "j6 has had 2 improvements this turn, the most"


def test_g4_10_only_an_uncolonized_habitable_tile_is_improved() -> None:
    game = ready()
    put(game, "red", {"k7": 1, "i7": 1})
    assert refused(game, "improve k7").ruling == "G4.10"
    game.state.board[P("i7")].colonist = Colonist(Colour.BLACK)
    assert refused(game, "improve i7").reason == "i7 is colonized: it takes no more improvements"


def test_g4_11_no_tile_goes_past_value_9() -> None:
    game = ready()
    game.state.board[P("m5")].pennies = 5  # blue 4 + 5 = 9
    put(game, "red", {"m5": 1})
    refusal = refused(game, "improve m5")
    assert refusal.ruling == "G4.11" and "exceeds 9" in refusal.reason


@pytest.mark.parametrize(("value", "cap"), [(6, 5), (7, 4), (8, 3), (9, 2)])
def test_g4_11_caps_on_tiles_at_values_6_to_9(value: int, cap: int) -> None:
    game = ready()
    tiles = ["h4", "j4", "l4", "g5", "i5", "f6"]
    for name in tiles[:cap]:
        lay(game, f"{name} gr5 tr")
        game.state.board[P(name)].pennies = value - 5
    board = game.state.board
    board[P("m5")].pennies = value - 1 - 4  # blue 4, one below ``value``
    put(game, "red", {"m5": 1})
    assert refused(game, "improve m5").ruling == "G4.11"
    board[P(tiles[0])].pennies += 1 if value < 9 else 0  # one moves up: a place frees
    if value < 9:
        game.play("improve m5")
        assert game.state.board[P("m5")].value == value


def test_g4_11_colonized_tiles_count_towards_the_caps() -> None:
    game = ready()
    for name in ("h4", "j4"):
        lay(game, f"{name} gr5 tr")
        game.state.board[P(name)].pennies = 4
    game.state.board[P("h4")].colonist = Colonist(Colour.BLACK)
    game.state.board[P("m5")].pennies = 4
    put(game, "red", {"m5": 1})
    assert refused(game, "improve m5").ruling == "G4.11"


# G4.12 ---------------------------------------------------------------------------------------


def test_g4_12_colonizing_sets_a_coin_on_the_pennies_and_the_rest_leave_the_game() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1
    put(game, "red", {"i7": 3}, leader="i7")
    put(game, "black", {"i7": 2})
    played = game.play("colonize i7")
    red = player(game, "red")
    cell = game.state.board[P("i7")]
    assert cell.colonist == Colonist(Colour.RED, leader=False)
    assert red.coins_at(P("i7")) == 0 and red.leader is None and red.leader_out
    assert red.coins_out == 2 and red.colony == P("i7")
    assert game.state.turn.ap == 5
    assert played.said == ("colonized i7 with a coin; 2 coins and the leader left the game",)
    assert refused(game, "improve i7").ruling == "G4.10"


def test_g4_12_the_leader_is_the_colonist_when_named_or_alone() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1
    put(game, "red", {"i7": 2}, leader="i7")
    game.play("colonize i7 leader")
    red = player(game, "red")
    assert game.state.board[P("i7")].colonist == Colonist(Colour.RED, leader=True)
    assert red.leader is None and not red.leader_out and red.coins_out == 2
    assert refused(game, "move i7>k7 leader").reason == (
        "your leader is your colonist and never moves again"
    )
    game2 = ready()
    game2.state.board[P("i7")].pennies = 1
    put(game2, "red", {}, leader="i7")
    game2.play("colonize i7")
    assert game2.state.board[P("i7")].colonist == Colonist(Colour.RED, leader=True)


def test_g4_12_needs_an_improvement_the_majority_and_is_once_a_game() -> None:
    game = ready()
    put(game, "red", {"i7": 2, "j6": 3})
    assert refused(game, "colonize i7").reason == "i7 has no improvement yet: improve it first"
    game.state.board[P("i7")].pennies = 1
    game.state.board[P("j6")].pennies = 1
    put(game, "black", {"i7": 2})
    refusal = refused(game, "colonize i7")
    assert refusal.ruling == "G4.12" and "majority" in refusal.reason
    refusal = refused(game, "colonize i7 leader")
    assert refusal.ruling == "G4.12"
    game.play("colonize j6")
    game.state.turn.ap = 10
    put(game, "black", {"i7": 0})
    assert refused(game, "colonize i7").reason == "you colonized j6 already: once a game"


def test_g4_12_the_colonist_is_no_member_and_others_may_stay() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1
    put(game, "red", {"i7": 1})
    game.play("colonize i7")
    assert player(game, "red").presence(P("i7")) == 0
    put(game, "black", {"i7": 4})
    game.play("move m7>k7>i7")  # red's members may still come
    assert player(game, "red").coins_at(P("i7")) == 1


# G4.13 ---------------------------------------------------------------------------------------


def test_g4_13_a_station_on_a_null_tile_for_5_ap_without_members_there() -> None:
    game = ready()
    game.play("station h6")  # the red null; nobody there
    assert game.state.board[P("h6")].station is Colour.RED
    assert player(game, "red").stations == [P("h6")] and game.state.turn.ap == 5


def test_g4_13_a_station_on_a_mined_out_resource_tile_but_not_with_caches_left() -> None:
    game = ready()
    put(game, "red", {"k7": 1})
    assert refused(game, "station k7").ruling == "G4.13"
    game.play("mine k7 roll 2")
    game.play("station k7")
    assert game.state.board[P("k7")].station is Colour.RED


@pytest.mark.parametrize("name", ["m7", "i7", "m5"])
def test_g4_13_never_on_the_mits_or_a_habitable_tile(name: str) -> None:
    assert refused(ready(), f"station {name}").ruling == "G4.13"


def test_g4_13_never_on_a_supernova_one_per_tile_and_two_a_player() -> None:
    game = ready()
    lay(game, "g5 rda tr")
    assert refused(game, "station g5").ruling == "G4.13"
    game.state.board[P("l8")].station = Colour.BLACK
    assert refused(game, "station l8").reason == "l8 holds black's station already"
    red = player(game, "red")
    red.stations = [P("h6"), P("j8")]
    assert refused(game, "station h8").reason == "you have built both your stations"


# G4.14 ---------------------------------------------------------------------------------------


def test_g4_14_the_per_turn_limits_start_afresh_each_turn() -> None:
    game = ready()
    lay(game, "j4 bk3 br")
    put(game, "red", {"j4": 2, "i7": 2})
    play(game, "mine j4 x2 roll 2 2", "improve i7 x2", "end")
    play(game, "draw gr2", "place g5 br", "end")  # black's turn
    turn = game.state.turn
    assert (turn.mined, turn.mined_at, turn.improved) == (0, None, {})
    play(game, "draw gr4", "place g7 tr")
    play(game, "mine j4 roll 3", "improve i7 x2")
    assert game.state.board[P("j4")].pennies == 0


def test_g4_14_the_colonization_stays_once_a_game() -> None:
    game = ready()
    game.state.board[P("i7")].pennies = 1
    game.state.board[P("j6")].pennies = 1
    put(game, "red", {"i7": 1, "j6": 1})
    play(game, "colonize i7", "end", "draw gr2", "place g5 br", "end", "draw gr4", "place g7 tr")
    assert refused(game, "colonize j6").ruling == "G4.12"
