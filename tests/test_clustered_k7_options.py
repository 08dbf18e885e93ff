"""K7 Optional rules: every setting (K7.2) with its default, and the bonuses."""

from __future__ import annotations

import dataclasses

import pytest
from clustered_helpers import K720_ORDER, cards_of, game, played

from companion.clustered import Placement, Player, Settings, SettingsError, score
from companion.clustered.settings import turns_for
from companion.clustered.simulate import Table, simulate


def test_k7_1_settings_are_fixed_and_stored_with_the_game() -> None:
    """K7.1: chosen before the first placement, fixed for the game, stored in the record."""
    g = played(["B-sq-so-1 1,0"], quick_play=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.settings.quick_play = False  # type: ignore[misc]
    assert Settings.from_dict(g.settings.to_dict()) == g.settings


def test_k7_2_every_setting_and_its_default() -> None:
    """K7.2: the table of settings."""
    assert Settings().to_dict() == {
        "palette": [
            ["B", "blue"],
            ["O", "orange"],
            ["R", "red"],
            ["G", "green"],
            ["Y", "yellow"],
            ["P", "purple"],
            ["T", "teal"],
            ["M", "magenta"],
        ],
        "surface": "unbounded",
        "discard_check": "hand",
        "end_when_blocked": True,
        "current_player_card": False,
        "extra_wild": "none",
        "quick_play": False,
        "first_bonuses": False,
        "largest_bonuses": False,
        "start_cards": "auto",
    }


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("discard_check", "phone", "hand or table"),
        ("extra_wild", "X", "no colour 'X'"),
        ("start_cards", "3", "auto, 1 or 2"),
        ("quick_play", "maybe", "on or off"),
        ("surface", "0..-1,0..0", "is empty"),
        ("colour", "B", "no setting 'colour'"),
    ],
)
def test_k7_2_a_setting_out_of_range_is_refused_with_its_name(
    name: str, value: str, says: str
) -> None:
    with pytest.raises(SettingsError, match=says):
        Settings.from_dict({name: value})


def test_k7_3_current_player_card_changes_no_rule() -> None:
    """K7.3: the companion's turn display is what counts."""
    on = simulate(2, seed=4, settings=Settings(current_player_card=True))
    off = simulate(2, seed=4)
    assert [t.move for t in on.turns] == [t.move for t in off.turns]
    assert on.score_sheet() == off.score_sheet()


def test_k7_4_extra_wild_for_named_decks_or_all() -> None:
    """K7.4: the named decks (``all``: every deck) get their third wild card, 30 cards."""
    some = Settings(extra_wild=("O",))
    assert (some.deck_size("B"), some.deck_size("O")) == (29, 30)
    assert Settings(extra_wild="all").wilds("M") == 3
    assert Settings.from_dict({"extra_wild": "o, b"}).extra_wild == ("B", "O")


def test_k7_5_k7_6_k7_7_quick_play_turns_and_hands() -> None:
    """K7.5-K7.7: draw 7 discard 2; then draw 2 discard 1; 16 turns for 29 cards, 17 for 30;
    the hand holds 5 until the deck is empty, then 4, 3, 2, 1."""
    assert (turns_for(29, quick_play=True), turns_for(30, quick_play=True)) == (16, 17)
    g = game("B", quick_play=True)
    assert (g.turns_total(1), g.hand_size(1), g.deck_left(1)) == (16, 5, 22)
    table = Table([Player("B")], settings=Settings(quick_play=True), seed=9)
    sizes = []
    while table.game.current_seat() is not None:
        sizes.append(len(table.hands[1]))
        assert table.game.hand_size(1) == len(table.hands[1])
        table.play_turn()
    assert sizes == [5] * 12 + [4, 3, 2, 1]
    assert len(table.game.turns) == 16


def test_k7_7_quick_play_discards_are_not_recorded() -> None:
    """K7.7: free choices, neither checked nor recorded."""
    g = simulate(1, seed=2, settings=Settings(quick_play=True))
    assert all(step.kind == "place" for step in g.steps)
    assert len(g.could_hold(1)) == 29 - 16


def test_k7_8_k7_20_both_first_to_achieve_bonuses_on_one_placement() -> None:
    """K7.8, K7.10, K7.20: the last placement, 3,0, joins row 0 into a line of 5 and completes
    the 3x2 rectangle: Blue gets both. Blue 6 + 3 + 5 + 4 = 18; Orange 10."""
    g = played(K720_ORDER[:-1], first_bonuses=True)
    assert g.first_holders() == {"first-rectangle": None, "first-line": None}
    result = g.play(K720_ORDER[-1])
    assert result.earned == ("first-rectangle", "first-line")
    assert (
        g.layout.diagram()
        == cards_of("""
 y\\x -3 -2 -1  0  1  2  3  4  5
   1  .  O  O  .  B  B  B  O  .
   0  O  O  O  *  B  B  B  b  B
  -1  .  .  O  .  .  .  .  .  .
""").diagram()
    )
    sheet = g.score_sheet()
    assert (sheet.of("B").total, sheet.of("O").total) == (18, 10)
    assert [b.name for b in sheet.of("B").bonuses] == ["first-rectangle", "first-line"]


def test_k7_8_off_by_default() -> None:
    """K7.8 is a house rule, off by default: no bonus."""
    g = played(K720_ORDER)
    assert g.score_sheet().of("B").total == 14


def test_k7_9_first_is_the_earliest_placement_after_which_the_player_has_it() -> None:
    """K7.9: a feature appears only on its owner's placement; once made it is never lost."""
    g = played(K720_ORDER, first_bonuses=True)
    assert g.first_placements() == {"first-rectangle": 14, "first-line": 14}
    g2 = played(K720_ORDER, first_bonuses=True)
    g2.play("O-sq-ho-2 -2,-1")  # Orange's 2x3 block x -2..-1, y -1..1 comes later: no bonus
    assert g2.first_holders()["first-rectangle"] == "B"


def test_k7_10_two_features_of_one_kind_earn_the_bonus_once() -> None:
    """K7.10: a row and a column of 5 on one placement earn ``first-line`` once."""
    layout_order = [
        "B-sq-ho-1 1,0",
        "B-sq-ho-2 1,1",
        "B-sq-ho-3 1,2",
        "B-sq-da-3 1,3",
        "B-sq-da-1 2,3",
        "B-sq-da-2 2,1",
        "B-sq-so-2 3,1",
        "B-sq-so-1 3,2",
        "B-sq-so-3 4,2",
        "B-tr-so-3 4,3",
        "B-tr-ho-3 5,3",
        "B-tr-da-1 2,4",
        "B-tr-ho-1 3,4",
        "B-tr-ho-2 3,5",
    ]
    g = played(layout_order, colours="B", first_bonuses=True)
    result = g.play("B-wild 3,3")  # row 3, x 1..5 and column 3, y 1..5
    assert result.earned == ("first-line",)
    assert [b.name for b in g.score_sheet().of("B").bonuses] == ["first-line"]


def test_k7_11_an_undo_changes_the_holder() -> None:
    """K7.11: a host correction that changes the record changes the holder."""
    g = played(K720_ORDER, first_bonuses=True)
    g.undo("misread")
    assert g.first_holders() == {"first-rectangle": None, "first-line": None}


def test_k7_12_a_layout_without_its_record_takes_first_bonuses_by_hand() -> None:
    """K7.12: scored from one photo: everything else from the layout; each first-to-achieve
    bonus as the table says, marked entered by hand."""
    layout = cards_of("""
 y\\x -1  0  1  2  3
   1  O  O  O  B  O
   0  O  *  B  B  B
  -1  O  O  B  B  b
""")
    sheet = score(layout, ["B", "O"], first={"first-rectangle": "B"}, first_by_hand=True)
    bonus = sheet.of("B").bonuses[0]
    assert bonus.by_hand and bonus.text() == "first 2x3 rectangle bonus (entered by hand)"
    assert sheet.of("B").total == 17


def test_k7_13_k7_14_k7_21_largest_feature_bonuses_and_ties() -> None:
    """K7.13, K7.14, K7.21: Red and Green tie on a line of 5: nobody gets ``longest-line``,
    not even Blue with 4; Blue alone has a rectangle. Red 5, Green 5, Blue 10."""
    layout = cards_of("""
 y\\x  0  1  2  3  4  5
   0  *  R  R  R  R  R
  -1  .  G  G  G  G  G
  -2  .  B  B  B  B  .
  -3  .  B  B  .  .  .
""")
    sheet = score(layout, ["R", "G", "B"], largest_bonuses=True)
    assert [p.total for p in sheet.players] == [5, 5, 10]
    assert [b.name for b in sheet.of("B").bonuses] == ["largest-rectangle"]


def test_k7_13_only_scoring_features_count() -> None:
    """K7.13: at least 2x2, at least 3 long: when nobody has one, nobody gets the bonus."""
    layout = cards_of("""
 y\\x  0  1  2
   0  *  B  B
""")
    assert score(layout, ["B"], largest_bonuses=True).of("B").bonuses == ()


def test_k7_14_two_equal_features_of_one_player_are_no_tie() -> None:
    """K7.14, K7.21: Blue in K6.16 gets both bonuses."""
    layout = cards_of("""
 y\\x -3 -2 -1  0  1  2
   2  B  B  .  .  .  .
   1  B  B  .  .  O  O
   0  B  B  O  *  O  O
  -1  .  .  B  B  .  .
  -2  .  .  B  B  .  .
  -3  .  .  B  B  .  .
""")
    sheet = score(layout, ["B", "O"], largest_bonuses=True)
    assert [b.name for b in sheet.of("B").bonuses] == ["largest-rectangle", "longest-line"]


def test_k7_15_the_current_holder_during_play_or_nobody_while_tied() -> None:
    """K7.15: the strictly greatest feature holds the bonus; only the holder at the end
    scores."""
    g = played(K720_ORDER[:4], largest_bonuses=True)
    assert g.largest_holders() == {"largest-rectangle": None, "longest-line": None}
    g.play(K720_ORDER[4])
    g.play(K720_ORDER[5])
    g.play(K720_ORDER[6])  # Blue's 2x2
    assert g.largest_holders()["largest-rectangle"] == "B"
    g.play(K720_ORDER[7])  # Orange's 2x2: tied
    assert g.largest_holders()["largest-rectangle"] is None


def test_k7_16_one_player_may_collect_all_four_bonuses() -> None:
    """K7.16: all four, added to the total."""
    g = played(K720_ORDER, first_bonuses=True, largest_bonuses=True)
    blue = g.score_sheet().of("B")
    assert len(blue.bonuses) == 4 and blue.bonus_points == 8 and blue.total == 22


def test_k7_17_start_cards_auto_one_or_two() -> None:
    """K7.17: ``auto`` is 1 with 1 to 4 players, 2 with 5 to 8; 1 or 2 forces it."""
    assert [Settings().start_count(n) for n in range(1, 9)] == [1] * 4 + [2] * 4
    assert game("BORGY", start_cards=1).layout.starts == ((0, 0),)
    assert len(game("B", start_cards=2).layout.starts) == 2


def test_k7_18_two_start_cards_with_six_empty_cells_between_them() -> None:
    """K7.18: at (0, 0) and (7, 0); the cells between them are ordinary table."""
    g = game("BO", start_cards=2)
    assert g.layout.starts == ((0, 0), (7, 0))
    assert all((x, 0) not in g.layout for x in range(1, 7))
    g.play("B-sq-so-1 1,0")
    assert g.verdict(Placement.parse("O-sq-so-2 6,0")).legal


def test_k7_19_either_start_card_acts_wild_ends_runs_and_is_in_no_rectangle() -> None:
    """K7.19: every player may play next to either start card."""
    layout = cards_of("""
 y\\x  5  6  7  8  9
   1  B  B  .  B  B
   0  B  B  *  B  B
""")
    sheet = score(layout, ["B"])
    assert sheet.of("B").rectangle_points == 4
    assert sheet.of("B").row_points == 0
