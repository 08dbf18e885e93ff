"""The computer opponent: legal moves only, the time limit, its levels, its view of the game."""

from __future__ import annotations

import random

import pytest
from cluster_helpers import drawn, played_positions
from hypothesis import given, settings

from companion.cluster_peg import bot, movegen
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.bot import Level, choose
from companion.cluster_peg.evaluation import (
    CENTRE_COST,
    SCALE,
    distance,
    off_centre,
    winning_moves,
)
from companion.cluster_peg.game import Game
from companion.cluster_peg.moves import Move, legal_moves
from companion.cluster_peg.players import (
    BotPlayer,
    EvaluatingPlayer,
    GreedyPlayer,
    RandomPlayer,
    play_match,
)
from companion.cluster_peg.position import Position, setup
from companion.cluster_peg.settings import HouseRules
from companion.errors import StateError

NEAR_WIN = """
g  b B b B b B .
f   B b B b B b
e  . . . . . . R
d   r R r R r .
c  R r R r R r .
b   . . . . . .
a  . . . . . . .
"""


class SteppingClock:
    """A clock that moves on by ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


@settings(max_examples=25, deadline=None)
@given(played_positions())
def test_the_bot_only_ever_plays_legal_moves(position):
    if position.winner() is not None:
        return
    for level in (Level.BEGINNER, Level.MEDIUM):
        choice = choose(position, level=level, seconds=5)
        assert choice.move in legal_moves(position)


@pytest.mark.parametrize("level", list(Level))
def test_every_level_answers_from_every_setup(level):
    for name in ("64A", "64B", "46"):
        choice = choose(setup(name), level=level, seconds=5)
        assert choice.move in legal_moves(setup(name))
        assert 1 <= choice.depth <= level.depth


def test_the_time_limit_is_real_the_search_stops_and_answers_with_a_legal_move():
    # Each read of the clock says another 10 ms went by: a 0.5 s limit allows some 50 reads,
    # far too few for the expert to look four moves ahead from the interlocked setup.
    clock = SteppingClock(0.01)
    choice = choose(setup("64B"), level=Level.EXPERT, seconds=0.5, clock=clock)
    assert choice.timed_out
    assert choice.depth < Level.EXPERT.depth
    assert choice.move in legal_moves(setup("64B"))
    assert choice.seconds <= 0.5
    assert choice.nodes <= clock.reads * bot.CHECK_EVERY


def test_the_time_limit_holds_on_the_real_clock():
    # Unlimited, the expert thinks here for seconds; the slack is for a machine busy with
    # other tests (CI runs two at once on two cores), not for the search.
    position = setup("64B")
    for seconds in (0.05, 0.2):
        choice = choose(position, level=Level.EXPERT, seconds=seconds)
        assert choice.seconds < seconds + 0.45
        assert choice.move in legal_moves(position)


def test_the_time_is_a_raspberry_pi_4s_the_search_stops_at_the_positions_a_pi_searches():
    # A clock that never moves (a machine infinitely fast): the search stops all the same,
    # after as many positions as a Pi 4 searches in the time, and plays the same move
    # whatever the clock says, so a busy or a fast machine plays as the Pi would.
    limit = 0.5 * bot.PI4_POSITIONS_PER_SECOND
    frozen = choose(setup("64B"), level=Level.EXPERT, seconds=0.5, seed=4, clock=lambda: 0.0)
    assert frozen.timed_out
    assert limit <= frozen.nodes < limit + bot.CHECK_EVERY
    moving = choose(
        setup("64B"), level=Level.EXPERT, seconds=0.5, seed=4, clock=SteppingClock(0.001)
    )
    assert (moving.move, moving.nodes, moving.depth) == (frozen.move, frozen.nodes, frozen.depth)


def test_judge_scores_a_position_as_the_searchs_leaves_do():
    # For probes that search in their own way: the score is the player to move's.
    start = setup("46")
    judged = bot.judge(start.board)
    red, blue = judged(start.pegs, True), judged(start.pegs, False)
    assert red == blue == bot.TEMPO  # the sides are mirror images: only the move in hand
    assert judged(start.pegs, True) == red  # no noise


def test_a_bot_needs_some_time():
    with pytest.raises(StateError, match="some time"):
        choose(setup("46"), seconds=0)


def test_a_bot_takes_a_win_when_there_is_one():
    for level in Level:
        choice = choose(drawn(NEAR_WIN, "r"), level=level, seconds=5)
        assert choice.move.text() in ("e7-d6", "d2*d6", "d4*d6")


def test_a_bot_has_nothing_to_choose_once_the_game_is_won():
    game = Game(drawn(NEAR_WIN, "r"))
    game.play("e7-d6")
    with pytest.raises(StateError, match="over"):
        choose(game.position)


def test_a_bot_with_the_same_seed_and_depth_plays_the_same_move():
    position = setup("64B")
    first = choose(position, level=Level.HARD, seconds=30, seed=7)
    again = choose(position, level=Level.HARD, seconds=30, seed=7)
    assert first.move == again.move and first.nodes == again.nodes


def test_the_bot_sees_only_the_board():
    # choose() takes a position and nothing else about the game: the same board gives the
    # same move whatever was played before it.
    game_a = Game(setup("64B"))
    for token in ("c1-b1", "f1-g1", "b1-c1", "g1-f1"):
        game_a.play(token)
    assert game_a.position == setup("64B")
    a = choose(game_a.position, level=Level.HARD, seconds=30, seed=3)
    b = choose(setup("64B"), level=Level.HARD, seconds=30, seed=3)
    assert a.move == b.move


def test_levels_parse_and_run_from_beginner_to_expert():
    assert [level.value for level in Level] == ["beginner", "easy", "medium", "hard", "expert"]
    assert Level.parse(" Expert ") is Level.EXPERT
    assert [level.depth for level in Level] == sorted(level.depth for level in Level)
    with pytest.raises(ValueError, match="choose one of beginner"):
        Level.parse("grandmaster")


def test_distance_is_zero_exactly_at_the_goal():
    won = Game(drawn(NEAR_WIN, "r"))
    before = won.position
    won.play("e7-d6")
    after = won.position
    assert distance(after.board, after.pegs[0], after.pegs[1], after.occupied) == 0
    assert distance(before.board, before.pegs[0], before.pegs[1], before.occupied) > 0
    start = setup("46")
    assert distance(start.board, start.pegs[0], start.pegs[1], start.occupied) >= 12 * 12


@pytest.mark.parametrize("name", ["64B", "46"])
def test_the_strongest_level_beats_a_random_mover_from_both_colours(name):
    for seed, bot_red in ((1, True), (2, False)):
        strongest = BotPlayer(Level.EXPERT, seconds=1.0, seed=seed)
        other = RandomPlayer(random.Random(seed))
        red, blue = (strongest, other) if bot_red else (other, strongest)
        result = play_match(setup(name), red, blue).result
        assert result is not None and result.winner is (Colour.RED if bot_red else Colour.BLUE)


def test_greedy_players_take_a_win_and_otherwise_a_legal_move():
    for player in (GreedyPlayer(random.Random(1)), EvaluatingPlayer(random.Random(1))):
        assert player.choose(drawn(NEAR_WIN, "r")).text() in ("e7-d6", "d2*d6", "d4*d6")
        assert player.choose(setup("64B")) in legal_moves(setup("64B"))


def test_a_match_with_swap_exchanges_the_players():
    red = GreedyPlayer(random.Random(5))
    blue = GreedyPlayer(random.Random(6))
    outcome = play_match(
        setup("46"), red, blue, rules=HouseRules(swap=True), swap_if=lambda position: True
    )
    assert outcome.swapped


# From a game the expert (Blue) lost to the greedy player on 46 (seed 1972): Red to move has
# one peg left to place and a good hole beside the group in reach (Red won with a6-a5).
ONE_MOVE_FROM_THE_GOAL = "46 1r3R1/1RrRrR/1rRr1r1/BR4/1b1b1b1/bBbBb1/1B2BB1 r"


def test_a_player_one_move_from_the_goal_with_the_move_in_hand_wins_at_the_leaf():
    position = Position.parse(ONE_MOVE_FROM_THE_GOAL)
    occupied = position.occupied
    assert distance(position.board, *position.tall_short(Colour.RED), occupied) == SCALE
    search = bot._Search(position.board, seed=0, noise=0, deadline=float("inf"), clock=lambda: 0.0)
    # The search's horizon no longer hides the win: the leaf scores it, one ply on.
    assert search.leaf(position.pegs, True, 3) == bot.WIN - 4
    # The same distances with the other player to move are a race, not a win: the move in
    # hand counts half a move, the threat a move.
    blue_view = search.leaf(position.pegs, False, 3)
    assert -bot.WIN // 2 < blue_view < 0


def _wins_by_playing(position):
    """The legal moves after which the mover has won, found by playing each."""
    texts = set()
    for move in legal_moves(position):
        after = Game(position)
        after.play(move)
        if after.over and after.result is not None and after.result.winner is position.to_move:
            texts.add(move.text())
    return texts


def _wins_found(position):
    tall, short = position.tall_short(position.to_move)
    codes = winning_moves(position.board, tall, short, position.occupied)
    return {Move.from_code(position.board, code).text() for code in codes}


def test_p5_1_the_search_finds_wins_in_one_move_exactly():
    # The wins the search sees at its leaves are exactly the legal moves after which the
    # mover meets the goal (P5.1, P5.3).
    near = drawn(NEAR_WIN, "r")
    assert _wins_found(near) == _wins_by_playing(near) == {"e7-d6", "d2*d6", "d4*d6"}
    one_move = Position.parse(ONE_MOVE_FROM_THE_GOAL)
    assert _wins_found(one_move) == _wins_by_playing(one_move) != set()
    assert _wins_found(setup("46")) == _wins_found(setup("64B")) == set()


@settings(max_examples=25, deadline=None)
@given(played_positions())
def test_p5_1_wins_in_one_move_found_exactly_in_played_positions(position):
    if position.winner() is None:
        assert _wins_found(position) == _wins_by_playing(position)


def test_p5_11_the_expert_counts_the_first_movers_tempo_and_swaps_after_a2xc3_on_46():
    # 46 is a race from two camps (P3.2, self-play): after Red's a2*c3 Red is a move ahead.
    # On the same search budget (a clock that moves 20 ms a read) the expert used to keep
    # Blue; counting the move in hand, it takes Red's side.
    game = Game(setup("46"))
    game.play("a2*c3")
    assert bot.should_swap(game.position, seconds=1.0, clock=SteppingClock(0.02))


@pytest.mark.parametrize("name", ["46", "64A"])
def test_p5_11_under_swap_reds_first_move_leaves_the_sides_most_nearly_even(name):
    # The windowed search for the most even first move finds a move exactly as even as the
    # best found by searching every move in full, preferring the one that leaves Blue no
    # reason to swap (Red's side not the better one).
    start = setup(name)
    moves = movegen.generate(start.board, start.pegs, True)

    def search():
        return bot._Search(start.board, seed=0, noise=0, deadline=float("inf"), clock=lambda: 0)

    full = search()
    exact = {
        move: -full.negamax(movegen.apply(start.pegs, move), False, 1, -bot.WIN, bot.WIN, 1)
        for move in moves
    }
    wanted = max(-2 * abs(score) + (score <= 0) for score in exact.values())
    chosen, score, _ = search().root(start.pegs, True, 2, list(moves), pie=True)
    assert score == wanted == -2 * abs(exact[chosen]) + (exact[chosen] <= 0)


@pytest.mark.parametrize(("name", "rows"), [("46", 30), ("64A", 48), ("64B", 16)])
def test_p3_1_both_sides_of_every_setup_stand_as_far_from_the_middle(name, rows):
    # The board's symmetry (P3.1) maps each row to one as far from the middle: the bot's
    # taste for the middle favours neither side at the start.
    start = setup(name)
    red, blue = start.of(Colour.RED), start.of(Colour.BLUE)
    assert off_centre(start.board, red) == off_centre(start.board, blue) == rows


def test_p3_2_of_two_moves_as_near_the_goal_the_bot_prefers_the_one_nearer_the_middle():
    # 46 is a race (P3.2): Blue, a move behind, wins only by getting in Red's way, which a
    # peg at the back of the board never does. f2-e2 and g6-g7 each bring a peg to height 2
    # beside the others; f2-e2 brings it a row nearer the middle.
    game = Game(setup("46"))
    game.play("a2*c3")
    search = bot._Search(
        game.position.board, seed=0, noise=0, deadline=float("inf"), clock=lambda: 0.0
    )
    red_view = {}
    for text in ("f2-e2", "g6-g7"):
        after = Game(game.position)
        after.play(text)
        position = after.position
        blue = position.tall_short(Colour.BLUE)
        red_view[text] = (
            distance(position.board, *blue, position.occupied),
            search.leaf(position.pegs, True, 1),
        )
    assert red_view["f2-e2"][0] == red_view["g6-g7"][0]
    assert red_view["g6-g7"][1] - red_view["f2-e2"][1] == CENTRE_COST > 0
