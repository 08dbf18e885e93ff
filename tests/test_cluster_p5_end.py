"""Cluster rulings P5: the goal, the win, draws, resignation and the swap house rule."""

from __future__ import annotations

import cluster_reference as ref
import pytest
from cluster_helpers import drawn, positions
from hypothesis import given, settings

from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.board import SMALL
from companion.cluster_peg.game import Game, Result
from companion.cluster_peg.moves import MoveError, after, legal_codes, legal_moves
from companion.cluster_peg.position import SETUPS, Position, PositionError, setup
from companion.cluster_peg.settings import HouseRules
from companion.errors import StateError

RED_HAS_WON = """
g  b B b B b B .
f   B b B b B b
e  . . . . . . .
d   r R r R r R
c  R r R r R r .
b   . . . . . .
a  . . . . . . .
"""

NEAR_WIN = """
g  b B b B b B .
f   B b B b B b
e  . . . . . . R
d   r R r R r .
c  R r R r R r .
b   . . . . . .
a  . . . . . . .
"""

CHAIN = """
g  b B b B b B .
f   B b B b B b
e  . . . . . . .
d   . . . . . .
c  . . . . . . .
b   r R r R r R
a  R r R r R r .
"""


def test_p5_1_the_goal_is_every_peg_at_height_2_in_one_group():
    won = drawn(RED_HAS_WON, "b")
    assert won.meets_goal(Colour.RED)
    assert not won.meets_goal(Colour.BLUE)
    assert won.winner() is Colour.RED


def test_p5_1_any_shape_counts_a_chain_as_well_as_a_cluster():
    # Rows a and b, tall in deep holes and short in shallow ones: a long two-row band.
    assert drawn(CHAIN, "b").meets_goal(Colour.RED)


def test_p5_1_a_peg_at_another_height_misses_the_goal():
    # The same block with c1's tall peg and c2's short one exchanged: heights 3 and 1.
    swapped = RED_HAS_WON.replace("c  R r R r R r .", "c  r R R r R r .")
    assert not drawn(swapped, "b").meets_goal(Colour.RED)


def test_p5_1_vacant_holes_and_opponent_pegs_never_join_a_group():
    # e7 holds Red's twelfth peg at height 2, touching only Blue's f6 and vacant holes.
    position = drawn(NEAR_WIN, "r")
    assert not position.meets_goal(Colour.RED)
    assert position.winner() is None


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_p5_2_nobody_meets_the_goal_at_a_setup(name):
    start = setup(name)
    assert not start.meets_goal(Colour.RED) and not start.meets_goal(Colour.BLUE)
    assert {start.height_at(h) for h in start.placement()} == {1, 3}


def test_p5_3_a_win_ends_the_game_at_once_and_leaves_no_legal_moves():
    game = Game(drawn(NEAR_WIN, "r"))
    game.play("e7-d6")
    assert game.result == Result(Colour.RED, "goal")
    assert game.legal_moves() == [] and legal_moves(game.position) == []
    assert sorted(SMALL.names[h] for h in game.winning_group()) == sorted(
        [f"c{n}" for n in range(1, 7)] + [f"d{n}" for n in range(1, 7)]
    )
    with pytest.raises(MoveError) as caught:
        game.play("f1-e1")
    assert caught.value.code == "game-over"


@settings(max_examples=80, deadline=None)
@given(positions())
def test_p5_4_a_move_cannot_change_whether_the_opponent_meets_the_goal(position):
    opponent = position.to_move.other
    before = position.meets_goal(opponent)
    for code in legal_codes(position):
        assert after(position, code).meets_goal(opponent) == before


def test_p5_4_the_engine_and_the_rulings_agree_on_the_goal():
    for text in (RED_HAS_WON, NEAR_WIN, CHAIN):
        position = drawn(text, "b")
        board, pegs, _ = ref.parse(position.text())
        for colour in Colour:
            assert position.meets_goal(colour) == ref.meets_goal(board, pegs, colour.value)


def test_p5_5_a_position_where_the_player_to_move_meets_the_goal_is_refused():
    with pytest.raises(PositionError) as caught:
        drawn(RED_HAS_WON, "r")
    assert caught.value.code == "unreachable"


def test_p5_5_if_only_the_player_not_to_move_meets_the_goal_they_have_won():
    game = Game(drawn(RED_HAS_WON, "b"))
    assert game.result == Result(Colour.RED, "goal")
    assert game.over


def test_p5_6_a_win_comes_before_a_draw_rule_on_the_same_move():
    game = Game(drawn(NEAR_WIN, "r"), HouseRules(turn_limit=1))
    game.play("e7-d6")
    assert game.result == Result(Colour.RED, "goal")


SHUFFLE = ["c1-b1", "f1-g1", "b1-c1", "g1-f1"]


def test_p5_7_the_third_occurrence_of_a_position_draws_at_once():
    game = Game(setup("64B"))
    for token in SHUFFLE:
        game.play(token)
    assert game.repetitions() == 2 and not game.over  # the start, counted once, and now
    for token in SHUFFLE[:3]:
        game.play(token)
    assert not game.over
    game.play(SHUFFLE[3])
    assert game.result == Result(None, "repetition")


@pytest.mark.parametrize(("repetition", "drawn_after"), [(2, 4), (3, 8), (0, None)])
def test_p5_7_repetition_is_a_house_rule_0_is_off(repetition, drawn_after):
    game = Game(setup("64B"), HouseRules(repetition=repetition))
    for number in range(1, 13):
        game.play(SHUFFLE[(number - 1) % 4])
        if game.over:
            break
    assert (number if game.over else None) == drawn_after


def test_p5_8_the_move_limit_draws_when_that_many_moves_have_been_played():
    assert HouseRules().turn_limit == 200
    game = Game(setup("64B"), HouseRules(turn_limit=3, repetition=0))
    game.play("c1-b1")
    game.play("f1-g1")
    assert not game.over
    game.play("b1-a1")
    assert game.result == Result(None, "turn-limit")


def test_p5_8_a_limit_of_0_means_none():
    game = Game(setup("64B"), HouseRules(turn_limit=0, repetition=0))
    for number in range(300):
        game.play(SHUFFLE[number % 4])
    assert not game.over


def test_p5_9_a_player_may_resign_at_any_time_on_their_turn_or_not():
    game = Game(setup("64B"))
    game.resign(Colour.BLUE)  # Red is to move
    assert game.result == Result(Colour.RED, "resignation")
    assert game.tokens == ["resign-b"]
    with pytest.raises(StateError, match="already over"):
        game.resign(Colour.RED)


def test_p5_10_an_agreed_draw_ends_the_game():
    game = Game(setup("46"))
    game.play("a1*a7")
    game.agree_draw()
    assert game.result == Result(None, "agreement")
    with pytest.raises(MoveError) as caught:
        game.play("f1-e1")
    assert caught.value.code == "game-over"


def test_p5_11_swap_blue_takes_over_reds_pegs_and_first_move():
    game = Game(setup("64B"), HouseRules(swap=True))
    assert not game.can_swap()  # not before Red's first move
    game.play("c3*g1")
    assert game.can_swap()
    before = game.position
    game.swap()
    # Nothing moves on the board; the players exchange colours; Blue moves next.
    assert game.position == before and game.position.to_move is Colour.BLUE
    assert game.swapped and game.player_of(Colour.RED) is Colour.BLUE
    assert game.tokens == ["c3*g1", "swap"]
    assert not game.can_swap()
    game.play(game.legal_moves()[0])
    with pytest.raises(StateError, match="only allowed instead of Blue's first move"):
        game.swap()


def test_p5_11_swap_is_off_by_default():
    game = Game(setup("64B"))
    game.play("c3*g1")
    assert not game.can_swap()
    with pytest.raises(StateError, match="house rule swap is off"):
        game.swap()


def test_undo_takes_back_the_last_token_with_its_result():
    game = Game(drawn(NEAR_WIN, "r"))
    game.play("e7-d6")
    assert game.undo() == "e7-d6"
    assert game.result is None and game.position == drawn(NEAR_WIN, "r")
    with pytest.raises(StateError, match="nothing has been played"):
        game.undo()


def test_a_game_cannot_start_from_an_unacceptable_position():
    position = drawn(RED_HAS_WON, "b")
    bad = Position(position.board, position.pegs, Colour.RED)
    with pytest.raises(PositionError, match="unreachable"):
        Game(bad)
