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


# R3.6 Impossible on the current board -----------------------------------------------------
#
# Judged on the position at the start of the turn and on the orders as written; such an order
# is void as a whole (for a carrier, only that half, R3.2), and entry refuses it at once (R3.3).


@pytest.mark.parametrize("occupant", ["red battleship", "blue destroyer"])
def test_r3_6_a_move_into_a_sector_holding_a_unit_is_void(board, play, pieces, occupant):
    """R3.6: a MOVE into a sector that holds a unit (any empire's) is impossible on the current
    board: void, and the unit holds."""
    colour, kind = occupant.split()
    state = board("line", units=[("red", "destroyer", "S1"), (colour, kind, "S2")])
    result = play(state, red="MOVE S1 S2")
    outcome = result.outcome_for(RED, "MOVE S1 S2")
    assert outcome.status is VOID
    assert "S2 is occupied by" in outcome.reason and "the unit holds" in outcome.reason
    assert_player_words(outcome.reason)
    assert pieces(result.state)["S1"] == "red destroyer"


def test_r3_6_a_move_is_judged_on_the_position_at_the_start_of_the_turn(board, play, pieces):
    """R3.6: judged on the position at the start of the turn: a MOVE into a sector whose unit
    moves out this very turn is still void."""
    state = board("line", units=[("red", "destroyer", "S1"), ("red", "battleship", "S2")])
    result = play(state, red="MOVE S1 S2\nMOVE S2 S3")
    assert result.outcome_for(RED, "MOVE S1 S2").status is VOID
    assert result.outcome_for(RED, "MOVE S2 S3").status is DONE
    assert pieces(result.state) == {"S1": "red destroyer", "S3": "red battleship"}


def test_r3_6_a_move_into_a_sector_holding_only_craft_is_possible(board, play, pieces):
    """R3.6 with R4.1: only a unit makes a MOVE impossible; craft of any empire do not."""
    state = board(
        units=[("red", "destroyer", "S5"), ("blue", "carrier", "S9", 1)], craft=[("S9", "S6")]
    )
    result = play(state, red="MOVE S5 S6")
    assert result.outcome_for(RED, "MOVE S5 S6").status is DONE
    assert pieces(result.state)["S6"] == "red destroyer"


def test_r3_6_a_recall_from_a_sector_without_own_craft_is_void(board, play, pieces):
    """R3.6: a RECALL that names a sector more times than that sector holds craft of the
    empire (once, with none there, included) is void."""
    state = board(units=[("red", "carrier", "S5", 1), ("red", "carrier", "S9", 1)])
    result = play(state, red="RECALL S5 S4")
    outcome = result.outcome_for(RED, "RECALL S5 S4")
    assert outcome.status is VOID
    assert "you have no strike craft in S4 to recall" in outcome.reason
    assert pieces(result.state)["S5"] == "red carrier (1 docked)"


def test_r3_6_another_empires_craft_do_not_make_a_recall_possible(board, play):
    """R3.6: counts only craft *of the empire* in the named sector."""
    state = board(
        units=[("red", "carrier", "S5", 1), ("blue", "carrier", "S3", 1)], craft=[("S3", "S6")]
    )
    outcome = play(state, red="RECALL S5 S6").outcome_for(RED, "RECALL S5 S6")
    assert outcome.status is VOID and "no strike craft in S6" in outcome.reason


def test_r3_6_a_sister_carriers_craft_make_a_recall_possible(board, play):
    """R3.6: craft of the empire count, whichever of its carriers they belong to (R4.4)."""
    state = board(
        units=[("red", "carrier", "S5", 1), ("red", "carrier", "S3", 1)], craft=[("S3", "S6")]
    )
    outcome = play(state, red="RECALL S5 S6").outcome_for(RED, "RECALL S5 S6")
    assert outcome.status is DONE


def test_r3_6_a_recall_naming_a_sector_too_often_is_void_as_a_whole(board, play, pieces, craft_at):
    """R3.6: a RECALL that names a sector more times than that sector holds craft of the empire
    is void as a whole: not even the craft that are there come back, nor those of the other
    sectors it names."""
    state = board(
        units=[("red", "carrier", "S5", 0)], craft=[("S5", "S2"), ("S5", "S4"), ("S5", "S4")]
    )
    result = play(state, red="RECALL S5 S4 S2 S2")
    outcome = result.outcome_for(RED, "RECALL S5 S4 S2 S2")
    assert outcome.status is VOID
    assert "you have only 1 strike craft in S2 but recall 2 from there" in outcome.reason
    assert pieces(result.state)["S5"] == "red carrier (0 docked)"
    assert craft_at(result.state) == {"S2": ["red"], "S4": ["red", "red"]}


def test_r3_6_a_recall_naming_exactly_the_craft_there_is_possible(board, play, pieces):
    """R3.6: *more* times than the sector holds craft: naming each craft once is possible."""
    state = board(units=[("red", "carrier", "S5", 0)], craft=[("S5", "S2"), ("S5", "S2")])
    result = play(state, red="RECALL S5 S2 S2")
    assert result.outcome_for(RED, "RECALL S5 S2 S2").status is DONE
    assert pieces(result.state)["S5"] == "red carrier (2 docked)"


def test_r3_6_a_recall_is_judged_on_the_position_at_the_start_of_the_turn(board, play):
    """R3.6: judged on the position at the start of the turn: craft a DEPLOY sends into a
    sector this turn (step 5, after recalls) do not make a RECALL from there possible."""
    state = board(units=[("red", "carrier", "S5", 2), ("red", "carrier", "S3", 1)])
    result = play(state, red="DEPLOY S3 S6\nRECALL S5 S6")
    assert result.outcome_for(RED, "RECALL S5 S6").status is VOID
    assert result.outcome_for(RED, "DEPLOY S3 S6").status is DONE


def test_r3_6_a_deploy_of_more_craft_than_are_docked_is_void_as_a_whole(
    board, play, pieces, craft_at
):
    """R3.6: a DEPLOY that lists more sectors than the carrier's docked craft is void as a
    whole: not even the docked craft go out."""
    state = board(units=[("red", "carrier", "S5", 2)])
    result = play(state, red="DEPLOY S5 S2 S4 S6")
    outcome = result.outcome_for(RED, "DEPLOY S5 S2 S4 S6")
    assert outcome.status is VOID
    assert "this carrier has 2 craft docked, so it cannot deploy 3" in outcome.reason
    assert pieces(result.state)["S5"] == "red carrier (2 docked)"
    assert craft_at(result.state) == {}


def test_r3_6_a_deploy_counts_the_craft_its_own_recall_names(board, play, craft_at):
    """R3.6: the carrier's docked craft plus the craft its own RECALL names."""
    state = board(units=[("red", "carrier", "S5", 1)], craft=[("S5", "S2"), ("S5", "S4")])
    result = play(state, red="RECALL S5 S2 S4\nDEPLOY S5 S6 S6 S8")
    assert result.outcome_for(RED, "DEPLOY S5 S6 S6 S8").status is DONE
    assert craft_at(result.state) == {"S6": ["red", "red"], "S8": ["red"]}
    too_many = play(state, red="RECALL S5 S2\nDEPLOY S5 S6 S6 S8")
    outcome = too_many.outcome_for(RED, "DEPLOY S5 S6 S6 S8")
    assert outcome.status is VOID
    assert "1 craft docked and recalls 1, so it cannot deploy 3" in outcome.reason
    assert too_many.outcome_for(RED, "RECALL S5 S2").status is DONE  # only that half (R3.2)


def test_r3_6_a_void_recall_adds_nothing_to_its_deploy(board, play, pieces, craft_at):
    """R3.6: the craft its own RECALL names count only when that RECALL is not void; the
    DEPLOY is then void too, and each half reports its own reason."""
    state = board(units=[("red", "carrier", "S5", 1)], craft=[("S5", "S2")])
    result = play(state, red="RECALL S5 S2 S4\nDEPLOY S5 S6 S8")
    assert result.outcome_for(RED, "RECALL S5 S2 S4").status is VOID
    deploy = result.outcome_for(RED, "DEPLOY S5 S6 S8")
    assert deploy.status is VOID
    assert "this carrier has 1 craft docked, so it cannot deploy 2" in deploy.reason
    assert pieces(result.state)["S5"] == "red carrier (1 docked)"
    assert craft_at(result.state) == {"S2": ["red"]}


def test_r3_6_a_replaced_recall_adds_nothing_to_the_deploy(board, play):
    """R3.6 with R3.2: only the RECALL that stands is the carrier's own RECALL."""
    state = board(units=[("red", "carrier", "S5", 0)], craft=[("S5", "S2"), ("S5", "S4")])
    result = play(state, red="RECALL S5 S2 S4\nRECALL S5 S2\nDEPLOY S5 S6 S8")
    assert result.outcome_for(RED, "RECALL S5 S2 S4").status is REPLACED
    deploy = result.outcome_for(RED, "DEPLOY S5 S6 S8")
    assert deploy.status is VOID and "recalls 1, so it cannot deploy 2" in deploy.reason


def test_r3_6_a_deploy_is_judged_on_the_orders_as_written(board, play, pieces, craft_at):
    """R3.6: judged on the orders as written: a DEPLOY counting a craft its RECALL names is
    not void when another carrier takes that craft (R4.4); the craft that never came back
    fails at step 5 and the others go out."""
    state = board(
        units=[("red", "carrier", "S5", 1), ("red", "carrier", "S3", 1)], craft=[("S3", "S2")]
    )
    result = play(state, red="RECALL S5 S2\nDEPLOY S5 S4 S8\nRECALL S3 S2")
    assert result.outcome_for(RED, "RECALL S3 S2").status is DONE  # its own carrier (R4.4)
    deploy = result.outcome_for(RED, "DEPLOY S5 S4 S8")
    assert deploy.status is OutcomeStatus.PARTIAL
    assert "no craft was left docked to send to S8" in deploy.reason
    assert craft_at(result.state) == {"S4": ["red"]}


def test_r3_6_entry_refuses_an_impossible_order_at_once(board):
    """R3.6 with R3.3: entry interfaces refuse such an order at once, with its reason, and
    accept the same sheet once it is possible."""
    from companion.local_cluster.game import Game
    from companion.local_cluster.session import LocalClusterSession
    from companion.service.session import SubmissionError

    state = board(
        units=[
            ("red", "carrier", "S5", 1),
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S4"),
        ],
        craft=[("S5", "S2")],
    )
    session = LocalClusterSession(Game(state, seed=1))
    with pytest.raises(SubmissionError) as refused:
        session.check_submission(1, "RECALL S5 S2 S2\nDEPLOY S5 S6 S8 S8")
    assert refused.value.reasons == (
        "line 1: you have only 1 strike craft in S2 but recall 2 from there",
        "line 2: this carrier has 1 craft docked, so it cannot deploy 3",
    )
    with pytest.raises(SubmissionError, match="S4 is occupied by Blue's destroyer"):
        session.check_submission(1, "MOVE S1 S4")
    assert session.check_submission(1, "recall s5 s2\ndeploy s5 s6 s8") == (
        "RECALL S5 S2\nDEPLOY S5 S6 S8"
    )


# R3.7 White space and the length of a line ------------------------------------------------


def test_r3_7_the_line_length_limit_is_at_least_200_characters():
    """R3.7: a line's length limit, if the engine has one, is at least 200 characters."""
    from companion.local_cluster.orders import MAX_LINE_LENGTH

    assert MAX_LINE_LENGTH >= 200
    text = "ADVANCE S20 " + "S35".rjust(MAX_LINE_LENGTH - len("ADVANCE S20 "))
    assert len(text) == MAX_LINE_LENGTH
    assert Order.parse(text) == Order.parse("ADVANCE S20 S35")


@pytest.mark.parametrize(
    "padded",
    [
        "ADVANCE S20 S35" + " " * 191,
        " " * 191 + "ADVANCE S20 S35",
        "\t" * 100 + "ADVANCE S20 S35" + " \t" * 100,
        "ADVANCE S20 S35" + "\u3000" * 300,
    ],
    ids=["trailing", "leading", "tabs-both-sides", "ideographic-space"],
)
def test_r3_7_white_space_around_a_line_is_ignored_before_the_length_limit(padded):
    """R3.7: white space around a line is ignored before any limit on a line's length is
    applied (an order padded past 200 characters is read, not void)."""
    assert len(padded) > 200
    assert Order.parse(padded) == Order.parse("ADVANCE S20 S35")
    sheet = OrderSheet.parse(f"HOLD S1\n{padded}\n")
    assert sheet.errors == ()
    assert sheet.orders == (Order.parse("HOLD S1"), Order.parse("ADVANCE S20 S35"))


def test_r3_7_a_padded_order_is_carried_out(board, play, pieces):
    """R3.7: the padded line `ADVANCE S20 S35` + 191 spaces is an order like any other."""
    state = board([("S20", "S35")], units=[("red", "destroyer", "S20")])
    text = "ADVANCE S20 S35" + " " * 191
    result = play(state, red=text)
    assert result.outcome_for(RED, "ADVANCE S20 S35").status is DONE
    assert pieces(result.state) == {"S35": "red destroyer"}


def test_r3_7_what_is_left_after_stripping_is_still_limited(board, play):
    """R3.7: the limit still holds for the line itself; the error names the column where the
    line went past it, counted in the line as written."""
    from companion.local_cluster.orders import MAX_LINE_LENGTH

    inner = "ADVANCE S20" + " " * MAX_LINE_LENGTH + "S35"
    with pytest.raises(OrderSyntaxError) as raised:
        Order.parse("    " + inner + "   ")
    error = raised.value
    assert f"a line of at most {MAX_LINE_LENGTH} characters" in str(error)
    assert error.column == 4 + MAX_LINE_LENGTH + 1
    state = board([("S20", "S35")], units=[("red", "destroyer", "S20")])
    (outcome,) = play(state, red=inner).outcomes
    assert outcome.status is VOID and "at most 200 characters" in outcome.reason
