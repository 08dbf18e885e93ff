"""R7 End: winning, elimination and the turn limit.

Maps (see conftest): "line" is S1-S2-S3-S4-S5; "grid" is

    S1 S2 S3
    S4 S5 S6
    S7 S8 S9
"""

from __future__ import annotations

import pytest

from companion.local_cluster import BuildPlan, Colour, HouseRules, Phase, StateError, apply_builds
from companion.local_cluster.ending import leaders, places, result_words
from companion.local_cluster.retreats import apply_retreats

RED, GREEN, BLUE = Colour.RED, Colour.GREEN, Colour.BLUE
ALL_BUT_S5 = {"S1": "red", "S2": "red", "S3": "red", "S4": "red"}


# R7.1 Win --------------------------------------------------------------------------------


def test_r7_1_claiming_every_sector_wins(board, play):
    """R7.1: The first empire to claim every sector wins; checked after each turn's claims."""
    state = board(
        "line",
        units=[("red", "destroyer", "S4"), ("blue", "destroyer", "S2")],
        claims=ALL_BUT_S5,
    )
    result = play(state, red="ADVANCE S4 S5")
    assert result.state.phase is Phase.OVER
    assert result.state.winner is RED
    assert result.state.ranking[0] is RED
    assert "Red claims every sector and wins the game (R7.1)" in result.aftermath


def test_r7_1_a_claim_order_can_win(board, play):
    """R7.1: checked after each turn's claims (step 7 included)."""
    state = board(
        "line",
        units=[("red", "destroyer", "S5"), ("blue", "destroyer", "S1")],
        claims={**ALL_BUT_S5, "S5": "blue"},
    )
    result = play(state, red="CLAIM S5")
    assert result.state.winner is RED


def test_r7_1_one_sector_short_is_no_win(board, play):
    """R7.1: ... claim *every* sector."""
    state = board("line", units=[("red", "destroyer", "S3")], claims=ALL_BUT_S5)
    result = play(state, red="HOLD S3")
    assert result.state.phase is Phase.ORDERS and result.state.winner is None


def test_r7_1_the_win_is_checked_once_retreats_are_done(board, play):
    """R7.1: checked after each turn's claims (a turn with retreats owed ends when they are
    chosen)."""
    state = board(
        [("S1", "S2"), ("S2", "S3"), ("S3", "S4"), ("S4", "S5"), ("S5", "S1")],
        units=[("red", "battleship", "S4"), ("blue", "destroyer", "S5")],
        claims=ALL_BUT_S5,
    )
    result = play(state, red="ADVANCE S4 S5")
    assert result.state.phase is Phase.RETREATS and result.state.winner is None
    after, _ = apply_retreats(result.state, {})
    assert after.phase is Phase.OVER and after.winner is RED


def test_r7_1_a_win_on_a_build_turn_ends_the_game_before_building(board, play):
    """R7.1: checked after each turn's claims (before the build phase of turn 2)."""
    state = board("line", units=[("red", "destroyer", "S4")], claims=ALL_BUT_S5, turn=2)
    result = play(state, red="ADVANCE S4 S5")
    assert result.state.phase is Phase.OVER and result.state.winner is RED


# R7.2 Elimination ------------------------------------------------------------------------


def test_r7_2_no_units_and_no_claims_is_eliminated(board, play):
    """R7.2: An empire with no units and no claims is eliminated."""
    state = board(
        "line",
        units=[("red", "battleship", "S4"), ("blue", "destroyer", "S5")],
        claims={"S1": "red"},
    )
    result = play(state, red="ADVANCE S4 S5")
    assert result.state.empire(BLUE).eliminated
    assert not result.state.empire(RED).eliminated
    assert "Blue has no units and no claims left: eliminated (R7.2)" in result.aftermath


def test_r7_2_an_eliminated_seat_only_watches(board, play):
    """R7.2: its seat becomes a spectator (no orders, no builds)."""
    state = board(
        "line",
        units=[("red", "battleship", "S4"), ("blue", "destroyer", "S5")],
        claims={"S1": "red"},
    )
    after = play(state, red="ADVANCE S4 S5").state
    assert after.active_colours == (RED,)
    with pytest.raises(StateError, match="Blue has been eliminated and gives no orders"):
        play(after, blue="HOLD S1")
    building = play(after, red="HOLD S5").state
    assert building.phase is Phase.BUILD
    with pytest.raises(StateError, match="Blue has been eliminated and builds nothing"):
        apply_builds(building, {BLUE: BuildPlan()})


@pytest.mark.parametrize(
    ("units", "claims"),
    [
        ([("red", "destroyer", "S1")], {"S3": "blue"}),  # claims, no units
        ([("red", "destroyer", "S1"), ("blue", "destroyer", "S3")], {}),  # units, no claims
    ],
)
def test_r7_2_units_or_claims_keep_an_empire_in(board, play, units, claims):
    """R7.2: An empire with no units *and* no claims is eliminated."""
    state = board("line", units=units, claims=claims)
    result = play(state)
    assert not result.state.empire(BLUE).eliminated


# R7.3 Turn limit -------------------------------------------------------------------------


def test_r7_3_no_turn_limit_by_default():
    """R7.3: house rule turn_limit (default none)."""
    assert HouseRules().turn_limit is None


def test_r7_3_the_game_ends_after_the_turn_limit(board, play):
    """R7.3: the table may end after N turns, ranking empires by sectors claimed, then by total
    mineral value claimed."""
    state = board(
        "line",
        units=[
            ("red", "destroyer", "S1"),
            ("green", "destroyer", "S3"),
            ("blue", "destroyer", "S5"),
        ],
        claims={"S1": "red", "S2": "red", "S3": "green", "S4": "blue", "S5": "blue"},
        minerals={"S1": 1, "S2": 1, "S3": 4, "S4": 2, "S5": 3},
        rules=HouseRules(turn_limit=1),
    )
    result = play(state)
    assert result.state.phase is Phase.OVER
    assert result.state.ranking == (BLUE, RED, GREEN)
    assert result.state.winner is BLUE


def test_r7_3_turn_limit_counts_turns_not_phases(board, play):
    """R7.3: the table may end after N turns (turn 2 ends the game, not its build phase)."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1")],
        claims={"S1": "red"},
        rules=HouseRules(turn_limit=2),
    )
    state = play(state).state
    assert (state.turn, state.phase) == (2, Phase.ORDERS)
    state = play(state).state
    assert state.phase is Phase.OVER


def test_r7_3_a_tie_at_the_top_has_no_single_winner(board, play):
    """R7.3 (where the engine had to choose): equal on sectors and minerals, the lower seat is
    listed first, and nobody is declared the winner."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S5")],
        claims={"S1": "red", "S5": "blue"},
        rules=HouseRules(turn_limit=1),
    )
    assert [e.seat for e in state.empires] == [1, 2]
    over = play(state).state
    assert over.ranking == (RED, BLUE)
    assert over.winner is None


def test_r7_3_a_shared_lead_shares_first_place_and_names_no_winner(board, play):
    """R7.3: empires equal on sectors claimed and on mineral value share their place; a lead
    shared at the turn limit is said as such, and no empire is said to win."""
    state = board(
        "line",
        units=[
            ("red", "destroyer", "S1"),
            ("green", "destroyer", "S3"),
            ("blue", "destroyer", "S5"),
        ],
        claims={"S1": "red", "S3": "green", "S5": "blue"},
        minerals={"S1": 2, "S3": 1, "S5": 2},
        rules=HouseRules(turn_limit=1),
    )
    over = play(state).state
    assert places(over) == ((1, RED), (1, BLUE), (3, GREEN))
    assert leaders(over) == (RED, BLUE)
    said = result_words(over)
    assert said == (
        "The turn limit is reached with the lead shared by Red and Blue (1 sector and 2 "
        "minerals each): no single winner (R7.3)."
    )
    assert "wins" not in said


def test_r7_3_a_single_leader_at_the_turn_limit_is_said_to_win(board, play):
    """R7.3: the empire ranked first on sectors, then minerals, alone, wins at the turn limit."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S5")],
        claims={"S1": "red", "S2": "red", "S5": "blue"},
        rules=HouseRules(turn_limit=1),
    )
    over = play(state).state
    assert places(over) == ((1, RED), (2, BLUE))
    assert result_words(over) == (
        "Red wins at the turn limit, leading on sectors claimed and mineral value (2 sectors "
        "and 2 minerals) (R7.3)."
    )


def test_r7_1_the_empire_claiming_every_sector_is_said_to_win(board, play):
    """R7.1: the first empire to claim every sector wins."""
    state = board(
        "line",
        units=[("red", "destroyer", "S4")],
        claims={"S1": "red", "S2": "red", "S3": "red", "S4": "red"},
    )
    over = play(state, red="ADVANCE S4 S5").state
    assert over.winner is RED
    assert result_words(over) == "Red claims every sector and wins the game (R7.1)."


def test_r7_3_turn_limit_is_at_least_one():
    """R7.3: the table may end after N turns (N >= 1)."""
    with pytest.raises(StateError, match="turn_limit must be at least 1"):
        HouseRules(turn_limit=0)
