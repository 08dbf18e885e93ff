"""K4 Placement legality, with the examples of K4.11 one by one.

K4.11's table, Blue to play::

     y\\x       -1          0          1          2
       1        .          .      O-sq-da-2  O-sq-ho-2
       0     O-wild      start    B-sq-so-2      .
      -1        .        B-wild       .          .
"""

from __future__ import annotations

import pytest
from clustered_helpers import k411, played

from companion.clustered import IllegalPlacementError, Placement, Refusal


def verdict(text: str, **rules: object):  # type: ignore[no-untyped-def]
    return k411(**rules).verdict(Placement.parse(text))


def test_k4_11_the_table_of_the_examples() -> None:
    g = k411()
    assert g.current_seat() == 1 and g.colour(1) == "B"
    assert g.layout.diagram() == "\n".join(
        [
            "y\\x -1  0  1  2",
            "  1  .  .  O  O",
            "  0  o  *  B  .",
            " -1  .  b  .  .",
        ]
    )


def test_k4_1_k4_11_a_legal_placement_shares_two_attributes_with_each_neighbour() -> None:
    """K4.1, K4.11: ``B-sq-da-2 2,0`` is legal: square and 2 with west and north."""
    assert verdict("B-sq-da-2 2,0").legal


def test_k4_2_the_card_must_be_the_current_players_colour() -> None:
    """K4.2, K4.11: ``O-sq-da-1 2,0``: ``wrong-colour``."""
    v = verdict("O-sq-da-1 2,0")
    assert v.refusal is Refusal.WRONG_COLOUR
    assert v.message == (
        "O-sq-da-1 2,0: O-sq-da-1 is orange's, and this is blue's turn (wrong-colour, K4.2)"
    )


def test_k4_3_an_attribute_card_already_on_the_table_is_already_played() -> None:
    """K4.3, K4.11: ``B-sq-so-2 2,0``: ``already-played``."""
    v = verdict("B-sq-so-2 2,0")
    assert v.refusal is Refusal.ALREADY_PLAYED
    assert "already on the table at 1,0" in v.message


def test_k4_3_a_wild_card_only_while_fewer_than_the_deck_holds_are_played() -> None:
    """K4.3, K4.11: ``B-wild -1,-1`` legal; after Blue's second wild, ``already-played``;
    with a third wild card (K7.4) legal again."""
    assert verdict("B-wild -1,-1").legal
    g = k411()
    g.play("B-wild 2,0")
    g.play("O-sq-ho-1 2,2")
    v = g.verdict(Placement.parse("B-wild -1,-1"))
    assert v.refusal is Refusal.ALREADY_PLAYED
    assert "all 2 of blue's wild cards" in v.message
    g3 = k411(extra_wild="B")
    g3.play("B-wild 2,0")
    g3.play("O-sq-ho-1 2,2")
    assert g3.verdict(Placement.parse("B-wild -1,-1")).legal


def test_k4_3_a_discarded_card_is_already_played() -> None:
    """K4.3: a card among the player's discards the companion was told of."""
    g = played(["B-wild 1,0"], surface="0..1,0..0", end_when_blocked=False)
    hand = "O-sq-so-1 O-sq-so-2 O-sq-so-3 O-tr-so-1 O-wild"
    g.play(f"discard O-sq-so-1 hand {hand}")  # nothing fits anywhere: accepted
    g.play("discard B-sq-so-1 hand B-sq-so-1 B-sq-so-2 B-sq-so-3 B-tr-so-1 B-wild")
    v = g.verdict(Placement.parse("O-sq-so-1 5,5"))
    assert v.refusal is Refusal.ALREADY_PLAYED
    assert "O-sq-so-1 was discarded" in v.message


def test_k4_4_off_surface() -> None:
    """K4.4, K4.11: with ``surface`` -2..2, -2..2, ``B-sq-da-2 3,1`` is ``off-surface``."""
    v = verdict("B-sq-da-2 3,1", surface="-2..2,-2..2")
    assert v.refusal is Refusal.OFF_SURFACE
    assert "3,1 is off the playing surface (-2..2,-2..2)" in v.message


@pytest.mark.parametrize("text", ["B-sq-da-1 1,1", "B-sq-da-1 0,0"])
def test_k4_5_occupied_including_the_start_cards_cell(text: str) -> None:
    """K4.5, K4.11: ``B-sq-da-1 1,1`` and ``B-sq-da-1 0,0``: ``occupied``."""
    assert verdict(text).refusal is Refusal.OCCUPIED


def test_k4_6_no_neighbour_a_corner_is_not_enough() -> None:
    """K4.6, K4.11: ``B-ci-ho-1 3,2``: ``no-neighbour``; 2,1 touches it only at a corner."""
    assert verdict("B-ci-ho-1 3,2").refusal is Refusal.NO_NEIGHBOUR


def test_k4_6_a_start_card_counts_as_a_neighbour() -> None:
    """K4.6: a start card counts."""
    assert played([]).verdict(Placement.parse("B-ci-ho-1 0,1")).legal


def test_k4_7_mismatch_names_the_neighbour_and_what_is_shared() -> None:
    """K4.7, K4.11: ``B-ci-so-2 2,0``: ``mismatch`` 2,1 (shares only the number)."""
    v = verdict("B-ci-so-2 2,0")
    assert v.refusal is Refusal.MISMATCH
    assert [m.cell.text() for m in v.mismatches] == ["2,1"]
    assert v.mismatches[0].shared == ("number",)
    assert v.message == (
        "B-ci-so-2 2,0: it shares only number with the card above it (O-sq-ho-2 at 2,1) "
        "(mismatch, K4.7)"
    )


def test_k4_7_every_incompatible_neighbour_in_k2_3_order() -> None:
    """K4.7, K4.11: ``B-tr-da-1 2,0``: ``mismatch`` 2,1 and 1,0 (north, then west)."""
    v = verdict("B-tr-da-1 2,0")
    assert [m.cell.text() for m in v.mismatches] == ["2,1", "1,0"]
    assert "shares nothing with the card to its left (B-sq-so-2 at 1,0)" in v.message


def test_k4_7_the_issues_words_shares_only_fill_with_the_card_to_its_left() -> None:
    """K4.7: the reason in a player's words."""
    g = played(["B-sq-so-2 1,0", "O-ci-da-1 0,1"])
    v = g.verdict(Placement.parse("B-tr-so-3 2,0"))
    assert "shares only fill with the card to its left" in v.message


def test_k4_7_a_wild_card_goes_anywhere_beside_a_card() -> None:
    """K4.7, K4.11: ``B-wild 2,0``: legal, whatever its neighbours."""
    assert verdict("B-wild 2,0").legal


def test_k4_7_the_start_card_imposes_nothing() -> None:
    """K4.7, K4.11: ``B-sq-da-3 0,1``: legal (square and dashed with ``O-sq-da-2``)."""
    assert verdict("B-sq-da-3 0,1").legal


def test_k4_7_next_to_the_orange_wild_card() -> None:
    """K4.7, K4.11: ``B-tr-ho-3 -2,0``: legal; its only neighbour is the orange wild card."""
    assert verdict("B-tr-ho-3 -2,0").legal


def test_k4_8_colour_plays_no_part_and_three_shared_attributes_are_compatible() -> None:
    """K4.8: neighbours of any colour, the player's own included; three shared attributes."""
    g = played(["B-sq-so-2 1,0", "O-sq-so-2 2,0"])
    assert g.verdict(Placement.parse("B-sq-so-1 3,0")).legal
    assert g.verdict(Placement.parse("B-sq-ho-2 1,1")).legal


def test_k4_9_the_start_card_does_not_excuse_a_mismatch() -> None:
    """K4.9, K4.11: ``B-tr-ho-3 0,1``: ``mismatch`` 1,1; the start card to the south does
    not excuse it."""
    v = verdict("B-tr-ho-3 0,1")
    assert v.refusal is Refusal.MISMATCH
    assert [m.cell.text() for m in v.mismatches] == ["1,1"]


def test_k4_9_a_wild_neighbour_does_not_excuse_a_mismatch_with_another() -> None:
    """K4.9, K4.11: ``B-ci-ho-1 0,-2`` legal (only neighbour a wild card);
    ``B-ci-ho-1 1,-1``: ``mismatch`` 1,0 although its other neighbour is a wild card."""
    assert verdict("B-ci-ho-1 0,-2").legal
    v = verdict("B-ci-ho-1 1,-1")
    assert [m.cell.text() for m in v.mismatches] == ["1,0"]


def test_k4_9_cards_either_side_of_a_wild_do_not_constrain_each_other() -> None:
    """K4.9: only neighbours constrain each other."""
    g = played(["B-wild 1,0", "O-sq-so-1 2,0"])
    assert g.verdict(Placement.parse("B-tr-ho-3 1,1")).legal


@pytest.mark.parametrize(
    ("text", "rules", "refusal"),
    [
        ("O-sq-so-2 0,0", {}, Refusal.WRONG_COLOUR),
        ("B-sq-so-2 0,0", {}, Refusal.ALREADY_PLAYED),
        ("B-tr-ho-3 9,9", {"surface": "-2..2,-2..2"}, Refusal.OFF_SURFACE),
        ("B-tr-ho-3 1,1", {}, Refusal.OCCUPIED),
        ("B-tr-ho-3 5,5", {}, Refusal.NO_NEIGHBOUR),
    ],
)
def test_k4_10_the_first_broken_rule_is_the_reason(
    text: str, rules: dict[str, object], refusal: Refusal
) -> None:
    """K4.10: wrong-colour, already-played, off-surface, occupied, no-neighbour, mismatch."""
    assert verdict(text, **rules).refusal is refusal


def test_k3_10_k4_a_refused_placement_records_nothing_and_the_turn_goes_on() -> None:
    """K3.10: refused with its reason; nothing recorded; the turn goes on; no penalty."""
    g = k411()
    steps, layout = list(g.steps), g.layout
    with pytest.raises(IllegalPlacementError, match=r"mismatch, K4\.7") as caught:
        g.play("B-tr-da-1 2,0")
    assert caught.value.verdict.refusal is Refusal.MISMATCH
    assert (g.steps, g.layout, g.current_seat()) == (steps, layout, 1)
