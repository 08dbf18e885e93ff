"""K5 End of game: when it ends, who is skipped, counting turns, blocked tables, stopping."""

from __future__ import annotations

import pytest
from clustered_helpers import played

from companion.clustered import Player, Settings, Surface
from companion.clustered.settings import hand_size, turns_for
from companion.clustered.simulate import Table, simulate
from companion.errors import StateError


def test_k5_1_the_game_ends_when_nobody_has_a_card_left() -> None:
    """K5.1: no player has a card left in hand or deck; scoring is done once, on the record."""
    g = simulate(2, seed=7, settings=Settings(end_when_blocked=False))
    assert g.over and g.finished and g.current_seat() is None
    assert [g.turns_left(s) for s in g.seats] == [0, 0]
    assert len(g.turns) == 58
    with pytest.raises(StateError, match="the game is over"):
        g.play("B-wild 50,50")


def test_k5_2_k5_4_a_player_with_a_third_wild_card_has_one_turn_more_at_the_end() -> None:
    """K5.2, K5.4: seats A, B, C with 29, 30 and 29 cards play 29 rounds A B C and then one
    turn of B, 88 turns in all."""
    settings = Settings(extra_wild=("O",), end_when_blocked=False)
    g = Table([Player("B"), Player("O"), Player("R")], settings=settings, seed=3).play()
    seats = [turn.seat for turn in g.turns]
    assert len(seats) == 88
    assert seats[:87] == [1, 2, 3] * 29
    assert seats[87] == 2


def test_k5_3_a_deck_of_d_cards_gives_d_turns_and_the_hand_shrinks_at_the_end() -> None:
    """K5.3: D turns; min(5, D - t) cards before a turn when t turns are behind."""
    assert turns_for(29) == 29 and turns_for(30) == 30
    assert [hand_size(29, t) for t in (0, 24, 25, 26, 27, 28, 29)] == [5, 5, 4, 3, 2, 1, 0]


def test_k5_5_house_rule_end_when_blocked_ends_a_table_that_can_never_change() -> None:
    """K5.5 (house rule ``end_when_blocked``, default on): nothing any player could hold has
    a legal cell: the game ends and is scored."""
    g = played(["B-wild 1,0"], surface="0..1,0..0")
    assert g.over and g.finished and g.blocked()
    assert g.turns_left(1) == 28
    assert g.score_sheet().winners == ("B", "O")


def test_k5_5_off_every_remaining_turn_is_a_forced_discard_and_the_result_is_the_same() -> None:
    """K5.5: the result is the same as playing the discards out."""
    rules = Settings(surface=Surface.parse("0..1,0..0"))
    players = [Player("B"), Player("O")]
    blocked = Table(players, settings=rules, seed=2).play()
    out = Table(players, settings=rules.changed(end_when_blocked=False), seed=2).play()
    assert len(blocked.turns) == 1 and len(out.turns) == 58
    assert all(t.move.text().startswith("discard") for t in out.turns[1:])
    assert out.score_sheet() == blocked.score_sheet()


def test_k5_6_the_host_stops_a_game_early_unfinished_with_no_winner() -> None:
    """K5.6: the scores of the table as it stands, bonuses included, marked unfinished."""
    g = played(["B-sq-so-1 1,0", "O-sq-so-1 -1,0"], largest_bonuses=True)
    g.stop("the café is closing")
    sheet = g.score_sheet()
    assert g.over and not g.finished and sheet.finished is False
    assert sheet.winners == ()
    assert "Unfinished" in sheet.lines()[-1]
    with pytest.raises(StateError, match="already over"):
        g.stop()
    with pytest.raises(StateError, match="over"):
        g.play("B-wild 2,0")
