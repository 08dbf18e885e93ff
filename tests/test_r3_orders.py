"""R3 Orders: the grammar, one order per unit, void orders, reach, and strike craft."""

from __future__ import annotations

import pytest

from companion.local_cluster import (
    Colour,
    HouseRules,
    Order,
    OrderKind,
    OrderSheet,
    OrderSyntaxError,
    OutcomeStatus,
    SupportRange,
)
from companion.local_cluster.validation import check_order

RED, BLUE = Colour.RED, Colour.BLUE
DONE, VOID, REPLACED = OutcomeStatus.DONE, OutcomeStatus.VOID, OutcomeStatus.REPLACED


def assert_player_words(reason: str) -> None:
    """A reason a player reads: a sentence, not a Python value or a traceback."""
    assert reason.strip()
    for leak in ("None", "Unit(", "Order(", "Error", "Traceback", "{", "<"):
        assert leak not in reason, f"{leak!r} in {reason!r}"


# R3.1 Grammar -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "HOLD S1",
        "MOVE S1 S2",
        "ADVANCE S1 S2",
        "SUPPORT S1 S2",
        "DEPLOY S1 S2",
        "DEPLOY S1 S2 S3 S4",
        "RECALL S1 S2 S3",
        "CLAIM S1",
    ],
)
def test_r3_1_every_order_of_the_grammar_round_trips(text):
    """R3.1: HOLD s, MOVE s t, ADVANCE s t, SUPPORT s t, DEPLOY s t1 [t2 [t3]],
    RECALL s f1 [f2 [f3]], CLAIM s."""
    order = Order.parse(text)
    assert order.text() == text
    assert Order.parse(order.text()) == order
    assert eval(repr(order), {"Order": Order}) == order


def test_r3_1_keywords_are_case_insensitive():
    """R3.1: case-insensitive keywords and sector ids."""
    assert Order.parse("advance s4 s7") == Order(OrderKind.ADVANCE, "s4", ("s7",))
    assert Order.parse("Claim S1").kind is OrderKind.CLAIM


def test_r3_1_sector_ids_are_case_insensitive_on_the_board(board, play, pieces):
    """R3.1: case-insensitive keywords and sector ids."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="advance s1 s2")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is DONE
    assert pieces(result.state) == {"S2": "red destroyer"}


def test_r3_1_any_whitespace_separates_words():
    """R3.1: whitespace-separated."""
    assert Order.parse("  MOVE\tS1    S2  ") == Order(OrderKind.MOVE, "S1", ("S2",))


def test_r3_1_a_sector_may_repeat_in_deploy_and_recall():
    """R3.1: A sector may repeat in DEPLOY/RECALL (two craft to one sector)."""
    assert Order.parse("DEPLOY S5 S2 S2 S4").targets == ("S2", "S2", "S4")
    assert Order.parse("RECALL S5 S2 S2").targets == ("S2", "S2")


def test_r3_1_one_order_a_line():
    """R3.1: one order a line."""
    with pytest.raises(OrderSyntaxError, match="one order on one line"):
        Order.parse("HOLD S1\nHOLD S2")
    sheet = OrderSheet.parse("HOLD S1\n\n# a comment\nMOVE S2 S3  # and another\n")
    assert sheet.orders == (Order.parse("HOLD S1"), Order.parse("MOVE S2 S3"))


def test_r3_1_unknown_keyword_names_line_column_and_the_choices():
    """R3.1: a syntax error names the line and column and what was expected."""
    with pytest.raises(OrderSyntaxError) as caught:
        Order.parse("ADVANCD S1 S2")
    error = caught.value
    assert (error.line, error.column, error.found) == (1, 1, "'ADVANCD'")
    assert "HOLD, MOVE, ADVANCE, SUPPORT, DEPLOY, RECALL or CLAIM" in error.expected
    assert "did you mean ADVANCE?" in error.expected


def test_r3_1_missing_target_is_reported_at_the_end_of_the_line():
    """R3.1: ADVANCE s t takes two sectors."""
    with pytest.raises(OrderSyntaxError) as caught:
        Order.parse("ADVANCE S1")
    assert caught.value.column == 11
    assert caught.value.found == "the end of the line"
    assert "ADVANCE takes two sectors" in caught.value.expected


def test_r3_1_extra_sector_is_reported_where_it_stands():
    """R3.1: HOLD s names one sector only."""
    with pytest.raises(OrderSyntaxError) as caught:
        Order.parse("HOLD S1 S2")
    assert (caught.value.column, caught.value.found) == (9, "'S2'")


def test_r3_1_deploy_takes_at_most_three_targets():
    """R3.1: DEPLOY s t1 [t2 [t3]]."""
    with pytest.raises(OrderSyntaxError, match="column 20"):
        Order.parse("DEPLOY S1 S2 S3 S4 S5")


def test_r3_1_a_sector_id_is_letters_and_digits():
    """R3.1: sector ids (like S4)."""
    with pytest.raises(OrderSyntaxError) as caught:
        Order.parse("MOVE S1 S2!")
    assert caught.value.column == 9 and "sector id" in caught.value.expected


def test_r3_1_sheet_errors_carry_their_line_number():
    """R3.1: one order a line; a syntax error names the line."""
    sheet = OrderSheet.parse("HOLD S1\nMOVE S2\n")
    assert [e.line for e in sheet.errors] == [2]
    assert str(sheet.errors[0]).startswith("line 2, column 8: expected the target sector")


# R3.2 One order per unit ------------------------------------------------------------------


def test_r3_2_last_line_for_a_unit_is_its_order(board, play, pieces):
    """R3.2: in order text given all at once, the last line for a unit is its order."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="ADVANCE S1 S2\nHOLD S1")
    replaced = result.outcome_for(RED, "ADVANCE S1 S2")
    assert replaced.status is REPLACED
    assert "line 2 gave this unit another order" in replaced.reason
    assert result.outcome_for(RED, "HOLD S1").status is DONE
    assert pieces(result.state) == {"S1": "red destroyer"}


def test_r3_2_a_void_last_line_still_replaces(board, play, pieces):
    """R3.2: the last line for a unit is its order, void or not."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="ADVANCE S1 S2\nMOVE S1 S3")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is REPLACED
    assert result.outcome_for(RED, "MOVE S1 S3").status is VOID
    assert pieces(result.state) == {"S1": "red destroyer"}


def test_r3_2_a_malformed_last_line_still_replaces(board, play, pieces):
    """R3.2: the last line for a unit (the unit in the line's first sector) is its order,
    void or not."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="ADVANCE S1 S2\nADVANCE S1")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is REPLACED
    assert result.outcome_for(RED, "ADVANCE S1").status is VOID
    assert pieces(result.state) == {"S1": "red destroyer"}


def test_r3_2_a_misspelt_last_line_still_replaces(board, play, pieces):
    """R3.2: the last line for a unit (the unit in the line's first sector) is its order,
    void or not. "ADVANCD S1 S2" names S1 first, so it is the order of the unit in S1."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="ADVANCE S1 S2\nADVANCD S1 S2")
    assert result.outcome_for(RED, "ADVANCD S1 S2").status is VOID
    assert pieces(result.state) == {"S1": "red destroyer"}


def test_r3_2_case_does_not_hide_the_same_unit(board, play):
    """R3.2: the unit in the line's first sector (ids ignore case, R1.2)."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="ADVANCE S1 S2\nhold s1")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is REPLACED


def test_r3_2_carrier_may_recall_and_deploy_in_one_turn(board, play, craft_at):
    """R3.2: a carrier may have one RECALL and one DEPLOY instead."""
    state = board(units=[("red", "carrier", "S5", 2)], craft=[("S5", "S2")])
    result = play(state, red="RECALL S5 S2\nDEPLOY S5 S4 S6 S8")
    assert result.outcome_for(RED, "RECALL S5 S2").status is DONE
    assert result.outcome_for(RED, "DEPLOY S5 S4 S6 S8").status is DONE
    assert craft_at(result.state) == {"S4": ["red"], "S6": ["red"], "S8": ["red"]}


def test_r3_2_void_carrier_half_voids_only_that_half(board, play, pieces, craft_at):
    """R3.2: for a carrier a void RECALL or DEPLOY voids only that half."""
    state = board(units=[("red", "carrier", "S5", 2)], craft=[("S5", "S2")])
    result = play(state, red="RECALL S5 S2\nDEPLOY S5 S9")
    assert result.outcome_for(RED, "RECALL S5 S2").status is DONE
    deploy = result.outcome_for(RED, "DEPLOY S5 S9")
    assert deploy.status is VOID and "S9 is not next to S5" in deploy.reason
    assert pieces(result.state) == {"S5": "red carrier (3 docked)"}
    assert craft_at(result.state) == {}


def test_r3_2_void_recall_leaves_the_deploy_standing(board, play, craft_at):
    """R3.2: for a carrier a void RECALL or DEPLOY voids only that half."""
    state = board(units=[("red", "carrier", "S5", 2)], craft=[("S5", "S2")])
    result = play(state, red="RECALL S5 S9\nDEPLOY S5 S4")
    assert result.outcome_for(RED, "RECALL S5 S9").status is VOID
    assert result.outcome_for(RED, "DEPLOY S5 S4").status is DONE
    assert craft_at(result.state) == {"S2": ["red"], "S4": ["red"]}


def test_r3_2_malformed_carrier_half_voids_only_that_half(board, play, craft_at):
    """R3.2: for a carrier a void RECALL or DEPLOY voids only that half (a DEPLOY line with no
    target is still the carrier's DEPLOY)."""
    state = board(units=[("red", "carrier", "S5", 2)], craft=[("S5", "S2")])
    result = play(state, red="RECALL S5 S2\nDEPLOY S5")
    assert result.outcome_for(RED, "RECALL S5 S2").status is DONE
    assert result.outcome_for(RED, "DEPLOY S5").status is VOID
    assert craft_at(result.state) == {}


def test_r3_2_second_deploy_replaces_the_first(board, play, craft_at):
    """R3.2: one RECALL and one DEPLOY; a second order for the same unit replaces the first."""
    state = board(units=[("red", "carrier", "S5", 3)])
    result = play(state, red="DEPLOY S5 S4\nDEPLOY S5 S6")
    assert result.outcome_for(RED, "DEPLOY S5 S4").status is REPLACED
    assert craft_at(result.state) == {"S6": ["red"]}


def test_r3_2_a_single_order_replaces_both_carrier_halves(board, play, craft_at):
    """R3.2: One order per unit; a carrier may have one RECALL and one DEPLOY *instead*."""
    state = board(units=[("red", "carrier", "S5", 2)], craft=[("S5", "S2")])
    result = play(state, red="RECALL S5 S2\nDEPLOY S5 S4\nHOLD S5")
    assert result.outcome_for(RED, "RECALL S5 S2").status is REPLACED
    assert result.outcome_for(RED, "DEPLOY S5 S4").status is REPLACED
    assert craft_at(result.state) == {"S2": ["red"]}


def test_r3_2_a_carrier_half_replaces_an_earlier_single_order(board, play, craft_at):
    """R3.2: A second order for the same unit replaces the first."""
    state = board(units=[("red", "carrier", "S5", 3)])
    result = play(state, red="HOLD S5\nDEPLOY S5 S4")
    assert result.outcome_for(RED, "HOLD S5").status is REPLACED
    assert craft_at(result.state) == {"S4": ["red"]}


# R3.3 Void orders -------------------------------------------------------------------------


def test_r3_3_a_unit_with_no_order_holds(board, play, pieces):
    """R3.3: A unit with no order holds (and defends with its strength)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")])
    result = play(state, red="ADVANCE S1 S2", blue="")
    assert result.combats[0].defence_strength == 2
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is OutcomeStatus.LOST
    assert pieces(result.state) == {"S1": "red destroyer", "S2": "blue destroyer"}


def test_r3_3_malformed_order_is_void_and_the_unit_holds(board, play, pieces):
    """R3.3: An order that is malformed is void: the unit holds, and the reason is reported
    to its owner."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="MOVE S1")
    outcome = result.outcome_for(RED, "MOVE S1")
    assert outcome.status is VOID
    assert "line 1, column 8: expected the target sector" in outcome.reason
    assert "the unit holds" in outcome.reason
    assert pieces(result.state) == {"S1": "red destroyer"}


def test_r3_3_an_order_for_another_empires_unit_is_void(board, play, pieces):
    """R3.3: An order that names a unit the empire does not own is void ... the reason is
    reported to its owner."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")])
    result = play(state, red="MOVE S2 S3")
    outcome = result.outcome_for(RED, "MOVE S2 S3")
    assert outcome.empire is RED and outcome.status is VOID
    assert "the unit in S2 is Blue's destroyer, not yours" in outcome.reason
    assert_player_words(outcome.reason)
    assert pieces(result.state)["S2"] == "blue destroyer"


def test_r3_3_an_order_for_an_empty_sector_is_void(board, play):
    """R3.3: names a unit the empire does not own."""
    state = board("line", units=[("red", "destroyer", "S1")])
    outcome = play(state, red="HOLD S3").outcome_for(RED, "HOLD S3")
    assert outcome.status is VOID and "you have no unit in S3" in outcome.reason


def test_r3_3_an_unknown_sector_is_void(board, play):
    """R3.3: impossible on the current board."""
    state = board("line", units=[("red", "destroyer", "S1")])
    outcome = play(state, red="MOVE S1 S99").outcome_for(RED, "MOVE S1 S99")
    assert outcome.status is VOID
    assert "there is no sector S99 in this galaxy" in outcome.reason


def test_r3_3_entry_rejects_a_void_order_at_once_with_its_reason(board):
    """R3.3: entry interfaces reject it at once with that reason."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S3")])
    checked = check_order(state, RED, Order.parse("ADVANCE S1 S3"))
    assert checked.void == "S3 is not next to S1; units go one sector at a time"
    assert_player_words(checked.void)
    fine = check_order(state, RED, Order.parse("advance s1 s2"))
    assert fine.void is None and fine.order == Order.parse("ADVANCE S1 S2")
    assert fine.unit is not None and fine.unit.sector == "S1"


def test_r3_3_a_void_advance_bounces_nobody(board, play, pieces):
    """R3.3: a void order ... the unit holds (so a void ADVANCE is no advance, and Blue's
    advance into the same sector is not bounced by it)."""
    state = board(
        units=[("red", "carrier", "S4", 2), ("blue", "destroyer", "S6")], craft=[("S4", "S7")]
    )
    result = play(state, red="ADVANCE S4 S5", blue="ADVANCE S6 S5")
    assert result.outcome_for(RED, "ADVANCE S4 S5").status is VOID
    assert result.outcome_for(BLUE, "ADVANCE S6 S5").status is DONE
    assert pieces(result.state)["S5"] == "blue destroyer"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("MOVE S1 S3", "S3 is not next to S1"),
        ("DEPLOY S1 S2", "only a carrier can DEPLOY"),
        ("RECALL S1 S2", "only a carrier can RECALL"),
        ("SUPPORT S1 S1", "a unit cannot support itself"),
        ("MOVE S1 S2", "S2 is occupied by Blue's destroyer"),
        ("HOLD S2", "not yours"),
    ],
)
def test_r3_3_every_void_reason_is_in_player_words(board, play, text, words):
    """R3.3: the reason is reported to its owner."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")])
    outcome = play(state, red=text).outcome_for(RED, text)
    assert outcome.status is VOID
    assert words in outcome.reason
    assert_player_words(outcome.reason)


# R3.4 Reach ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["MOVE", "ADVANCE", "SUPPORT"])
def test_r3_4_targets_must_be_adjacent(board, play, kind):
    """R3.4: MOVE, ADVANCE, SUPPORT targets ... must be adjacent to s."""
    state = board(units=[("red", "destroyer", "S1"), ("red", "destroyer", "S5")])
    outcome = play(state, red=f"{kind} S1 S5").outcome_for(RED, f"{kind} S1 S5")
    assert outcome.status is VOID
    assert "S5 is not next to S1" in outcome.reason


def test_r3_4_deploy_targets_must_be_adjacent(board, play):
    """R3.4: DEPLOY targets must be adjacent to s."""
    state = board(units=[("red", "carrier", "S1", 3)])
    outcome = play(state, red="DEPLOY S1 S2 S5").outcome_for(RED, "DEPLOY S1 S2 S5")
    assert outcome.status is VOID
    assert "S5 is not next to S1; craft deploy to adjacent sectors" in outcome.reason


def test_r3_4_recall_sources_must_be_adjacent(board, play):
    """R3.4: RECALL sources must be adjacent to s or s itself."""
    state = board(
        units=[("red", "carrier", "S1", 1), ("red", "carrier", "S9", 1)], craft=[("S9", "S6")]
    )
    outcome = play(state, red="RECALL S1 S6").outcome_for(RED, "RECALL S1 S6")
    assert outcome.status is VOID and "S6 is not next to S1" in outcome.reason


def test_r3_4_recall_from_the_carriers_own_sector(board, play, pieces, craft_at):
    """R3.4: RECALL sources must be adjacent to s or s itself."""
    state = board(
        units=[("red", "carrier", "S1", 1), ("red", "carrier", "S2", 1)],
        craft=[("S2", "S1")],
    )
    result = play(state, red="RECALL S1 S1")
    assert result.outcome_for(RED, "RECALL S1 S1").status is DONE
    assert pieces(result.state)["S1"] == "red carrier (2 docked)"
    assert craft_at(result.state) == {}


def test_r3_4_support_range_any_reaches_every_sector(board, play):
    """R3.4: house rule support_range: adjacent (default) or any."""
    rules = HouseRules(support_range=SupportRange.ANY)
    state = board(
        units=[
            ("red", "destroyer", "S1"),
            ("red", "battleship", "S9"),
            ("blue", "destroyer", "S2"),
        ],
        rules=rules,
    )
    result = play(state, red="ADVANCE S1 S2\nSUPPORT S9 S1")
    assert result.outcome_for(RED, "SUPPORT S9 S1").status is DONE
    assert result.combats[0].attack_strength == 5
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is OutcomeStatus.WON


def test_r3_4_support_range_defaults_to_adjacent():
    """R3.4: support_range: adjacent (default)."""
    assert HouseRules().support_range is SupportRange.ADJACENT


# R3.5 Strike craft take no orders ---------------------------------------------------------


@pytest.mark.parametrize("text", ["HOLD S2", "MOVE S2 S3", "ADVANCE S2 S3", "CLAIM S2"])
def test_r3_5_strike_craft_take_no_orders(board, play, craft_at, text):
    """R3.5: Strike craft take no orders; they act through their carrier's DEPLOY and RECALL."""
    state = board(units=[("red", "carrier", "S1", 2)], craft=[("S1", "S2")])
    outcome = play(state, red=text).outcome_for(RED, text)
    assert outcome.status is VOID
    assert "craft take no orders of their own" in outcome.reason
    assert craft_at(play(state, red=text).state) == {"S2": ["red"]}


def test_r3_5_craft_move_through_their_carrier(board, play, craft_at):
    """R3.5: they act through their carrier's DEPLOY and RECALL."""
    state = board(units=[("red", "carrier", "S1", 2)], craft=[("S1", "S2")])
    result = play(state, red="RECALL S1 S2\nDEPLOY S1 S4")
    assert craft_at(result.state) == {"S4": ["red"]}
