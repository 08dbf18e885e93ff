"""K8 Solo play: one seat under all the rules, and the personal best's profile and verdicts.

Where a best is kept is the service's business: tests/test_clustered_service.py plays solo
games through the table service and checks the best it keeps.
"""

from __future__ import annotations

from clustered_helpers import played

from companion.clustered import Player, Settings
from companion.clustered.simulate import simulate
from companion.clustered.solo import (
    Profile,
    SoloResult,
    Standing,
    announcement,
    best_of,
    counts,
    judge,
    name_key,
    profile_of,
)

BLUE_K720 = [
    "B-sq-so-1 1,0",
    "B-sq-so-2 2,0",
    "B-sq-da-1 1,1",
    "B-sq-da-2 2,1",
    "B-sq-da-3 3,1",
    "B-sq-so-3 3,0",
    "B-wild 4,0",
    "B-tr-ho-1 5,0",
]
"""Blue's cards of K7.20 alone, placed so that each stays beside a card."""


def result(total: int, at: float, name: str = "Ann") -> SoloResult:
    return SoloResult(name, profile_of(simulate(1, turns=0)), total, at, {})


def test_k8_1_a_solo_game_is_one_seat_with_one_start_card_ending_when_cards_are_gone() -> None:
    """K8.1: one seat under all the rules; ``auto`` gives one start card; the game ends when
    the player's cards are gone."""
    g = simulate(1, seed=11, settings=Settings(end_when_blocked=False))
    assert g.layout.starts == ((0, 0),)
    assert g.finished and len(g.turns) == 29


def test_k8_2_solo_bonuses_when_earned_and_whenever_the_player_has_the_feature() -> None:
    """K8.2: first-to-achieve bonuses when earned; largest-feature bonuses whenever the player
    has that feature (nobody can tie)."""
    g = played(BLUE_K720, colours="B", first_bonuses=True, largest_bonuses=True)
    sheet = g.score_sheet()
    assert [b.name for b in sheet.of("B").bonuses] == [
        "first-rectangle",
        "first-line",
        "largest-rectangle",
        "longest-line",
    ]
    assert played(BLUE_K720[:1], colours="B", largest_bonuses=True).largest_holders() == {
        "largest-rectangle": None,
        "longest-line": None,
    }


def test_k8_3_the_profile_and_names_compared_ignoring_case_and_spaces() -> None:
    """K8.3: per player name (case and surrounding spaces ignored) and per profile: wild cards,
    quick play, both bonuses, surface and start cards."""
    assert name_key("  Ann  Lee ") == name_key("ann lee")
    plain = profile_of(played([], colours="B"))
    assert plain == Profile(2, False, False, False, "unbounded", 1)
    varied = profile_of(
        played(
            [],
            colours="B",
            extra_wild="all",
            quick_play=True,
            first_bonuses=True,
            largest_bonuses=True,
            surface="-3..8,-3..3",
            start_cards=2,
        )
    )
    assert varied == Profile(3, True, True, True, "-3..8,-3..3", 2)
    assert varied.key() != plain.key()
    assert profile_of(played([], colours="B", start_cards="1")) == plain  # auto is 1 solo


def test_k8_3_the_best_is_the_highest_total() -> None:
    """K8.3: the best is the highest total of a finished solo game."""
    assert best_of([result(30, 1.0), result(41, 2.0), result(35, 3.0)]) == result(41, 2.0)
    assert best_of([]) is None


def test_k8_4_strictly_greater_is_a_new_best_equal_matches_and_the_earlier_stays() -> None:
    """K8.4: strictly greater becomes the new best; an equal total matches it and the earlier
    game stays the best; the first finished game sets the best."""
    first = result(40, 1.0)
    assert judge(None, 12) is Standing.FIRST
    assert judge(first, 41) is Standing.NEW_BEST
    assert judge(first, 40) is Standing.MATCHED
    assert judge(first, 39) is Standing.BELOW
    assert best_of([result(40, 2.0), first]) == first
    assert "new personal best (it was 40)" in announcement(first, 41)
    assert "matching the personal best" in announcement(first, 40)


def test_k8_5_unfinished_and_multi_seat_games_never_set_a_best() -> None:
    """K8.5: unfinished games and games with more than one seat."""
    solo = simulate(1, seed=3)
    assert counts(solo)
    stopped = played(BLUE_K720[:2], colours="B")
    stopped.stop("bedtime")
    assert not counts(stopped)
    assert not counts(simulate([Player("B"), Player("O")], seed=3))
    assert not counts(played(BLUE_K720[:2], colours="B"))  # not over yet


def test_k8_6_the_result_against_the_best_in_words() -> None:
    """K8.6: the profile's best when a solo game starts, the result against it at the end."""
    assert announcement(None, 33) == "33 points: the first personal best under this profile"
    assert announcement(result(40, 1.0), 30) == "30 points; the personal best is 40"
