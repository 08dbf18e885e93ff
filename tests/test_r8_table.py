"""R8 Phase timing: the house-rule defaults the table service reads, and a seat that misses
the deadline (which the rules core settles)."""

from __future__ import annotations

import pytest

from companion.local_cluster import (
    BuildPlan,
    Colour,
    Game,
    HouseRules,
    Phase,
    StateError,
    apply_builds,
)

RED, BLUE = Colour.RED, Colour.BLUE


def test_r8_1_timing_defaults():
    """R8.1: Discussion: house rule discussion_seconds 240 ... Command: command_seconds 180 ...
    Build and retreat choices: 120 and 60 seconds."""
    rules = HouseRules()
    assert (
        rules.discussion_seconds,
        rules.command_seconds,
        rules.build_seconds,
        rules.retreat_seconds,
    ) == (240, 180, 120, 60)


def test_r8_1_discussion_default_is_within_the_rulebooks_three_to_five_minutes():
    """R8.1: discussion_seconds 240 (rulebook: 3-5 minutes)."""
    assert 3 * 60 <= HouseRules().discussion_seconds <= 5 * 60


def test_r8_1_missing_settings_take_the_defaults_and_unknown_ones_are_refused():
    """R8.1: house rules are settings with the defaults the rulings give."""
    assert HouseRules.from_dict({}) == HouseRules()
    assert HouseRules.from_dict(HouseRules().to_dict()) == HouseRules()
    with pytest.raises(StateError, match="unknown house rule"):
        HouseRules.from_dict({"chat_seconds": 30})


def test_r8_1_a_timer_is_at_least_a_second():
    """R8.1: the phase lengths are house rules (a positive number of seconds)."""
    with pytest.raises(StateError, match="command_seconds must be between 1 second and a day"):
        HouseRules(command_seconds=0)


def test_r8_2_a_silent_seat_holds_everywhere(board, play, pieces):
    """R8.2: A seat that submits nothing by the deadline: its units hold."""
    state = board(
        "line",
        units=[
            ("red", "destroyer", "S1"),
            ("blue", "battleship", "S2"),
            ("blue", "destroyer", "S4"),
        ],
    )
    result = play(state, red="ADVANCE S1 S2")
    assert result.outcomes_of(BLUE) == ()
    assert result.combats[0].defence_strength == 3
    assert pieces(result.state) == pieces(state)


def test_r8_2_a_silent_seat_builds_nothing(board, pieces):
    """R8.2: A seat that submits nothing by the deadline: ... it builds nothing."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1")],
        claims={"S1": "red", "S2": "red", "S4": "blue", "S5": "blue"},
        minerals={"S1": 3, "S2": 3, "S4": 4, "S5": 4},
        stockpiled=["blue"],
        turn=2,
        phase=Phase.BUILD,
    )
    after, _ = apply_builds(state, {RED: BuildPlan.parse("BUILD destroyer S2")})
    assert pieces(after) == {"S1": "red destroyer", "S2": "red destroyer"}
    assert not after.empire(BLUE).stockpiled  # building nothing is not stockpiling (R6.3)


def test_r8_2_a_game_goes_on_without_a_silent_seat(board):
    """R8.2: its units hold; it builds nothing (the game does not wait for it)."""
    game = Game(board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S5")]))
    game.play({RED: "ADVANCE S1 S2"})
    game.play({})
    assert game.state.phase is Phase.BUILD
    game.build({})
    assert (game.state.turn, game.state.phase) == (3, Phase.ORDERS)
