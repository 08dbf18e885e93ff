"""R4 Action phase: hold, move, support, recall, deploy, advance, claim, in that order.

Maps (see conftest): "line" is S1-S2-S3-S4-S5; "grid" is

    S1 S2 S3
    S4 S5 S6
    S7 S8 S9
"""

from __future__ import annotations

import pytest

from companion.local_cluster import Colour, HouseRules, OutcomeStatus, StateError
from companion.local_cluster.economy import BuildPlan, check_plan

RED, GREEN, BLUE = Colour.RED, Colour.GREEN, Colour.BLUE
DONE, VOID, FAILED, PARTIAL = (
    OutcomeStatus.DONE,
    OutcomeStatus.VOID,
    OutcomeStatus.FAILED,
    OutcomeStatus.PARTIAL,
)
BOUNCED, CANCELLED, CUT = OutcomeStatus.BOUNCED, OutcomeStatus.CANCELLED, OutcomeStatus.CUT
WON, LOST = OutcomeStatus.WON, OutcomeStatus.LOST


# R4.1 One unit per sector; craft never take the slot ----------------------------------------


def test_r4_1_a_sector_holds_at_most_one_unit(board):
    """R4.1: A sector holds at most one unit."""
    with pytest.raises(StateError, match="a sector holds at most one unit"):
        board(units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S1")])


def test_r4_1_strike_craft_share_a_sector_with_a_unit(board, play, craft_at):
    """R4.1: strike craft never take that slot (rulebook: "without crowding")."""
    state = board(units=[("red", "carrier", "S1", 3), ("red", "destroyer", "S2")])
    result = play(state, red="DEPLOY S1 S2 S2")
    assert result.outcome_for(RED, "DEPLOY S1 S2 S2").status is DONE
    assert craft_at(result.state) == {"S2": ["red", "red"]}


def test_r4_1_move_ignores_another_empires_craft(board, play, pieces, craft_at):
    """R4.1: strike craft never take that slot, so MOVE ... ignore[s] craft of any empire."""
    state = board(
        units=[("red", "destroyer", "S5"), ("blue", "carrier", "S3", 2)], craft=[("S3", "S2")]
    )
    result = play(state, red="MOVE S5 S2")
    assert result.outcome_for(RED, "MOVE S5 S2").status is DONE
    assert result.combats == ()
    assert pieces(result.state)["S2"] == "red destroyer"
    assert craft_at(result.state) == {"S2": ["blue"]}


def test_r4_1_retreats_ignore_another_empires_craft(board, play):
    """R4.1: strike craft never take that slot, so ... retreats ... ignore craft of any
    empire."""
    state = board(
        "line",
        units=[
            ("red", "battleship", "S1"),
            ("blue", "destroyer", "S2"),
            ("green", "carrier", "S4", 2),
        ],
        craft=[("S4", "S3")],
    )
    result = play(state, red="ADVANCE S1 S2")
    assert result.retreats[0].options == ("S3",)


def test_r4_1_builds_ignore_another_empires_craft(board):
    """R4.1: strike craft never take that slot, so ... builds ignore craft of any empire."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "carrier", "S3", 2)],
        craft=[("S3", "S2")],
        claims={"S1": "red", "S2": "red"},
        minerals={"S1": 4, "S2": 4},
    )
    assert check_plan(state, RED, BuildPlan.parse("BUILD destroyer S2")) == []


# R4.2 MOVE -------------------------------------------------------------------------------


def test_r4_2_move_into_an_empty_sector(board, play, pieces):
    """R4.2: MOVE succeeds only into a sector that holds no unit at the start of the turn and
    that no other MOVE targets."""
    state = board("line", units=[("red", "destroyer", "S1")])
    result = play(state, red="MOVE S1 S2")
    outcome = result.outcome_for(RED, "MOVE S1 S2")
    assert outcome.status is DONE and outcome.reason == "moved to S2"
    assert pieces(result.state) == {"S2": "red destroyer"}


def test_r4_2_move_into_a_sector_occupied_at_the_start_fails_even_if_it_empties(
    board, play, pieces
):
    """R4.2: MOVE succeeds only into a sector that holds no unit at the start of the turn."""
    state = board("line", units=[("red", "destroyer", "S1"), ("red", "destroyer", "S2")])
    result = play(state, red="MOVE S1 S2\nMOVE S2 S3")
    outcome = result.outcome_for(RED, "MOVE S1 S2")
    assert outcome.status is VOID
    assert "S2 is occupied by your destroyer" in outcome.reason
    assert pieces(result.state) == {"S1": "red destroyer", "S3": "red destroyer"}


def test_r4_2_two_moves_into_one_sector_all_fail(board, play, pieces):
    """R4.2: Two or more MOVEs into one sector all fail (the units hold)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "battleship", "S3")])
    result = play(state, red="MOVE S1 S2", blue="MOVE S3 S2")
    red = result.outcome_for(RED, "MOVE S1 S2")
    assert red.status is BOUNCED
    assert "Blue battleship from S3 also moved to S2" in red.reason
    assert result.outcome_for(BLUE, "MOVE S3 S2").status is BOUNCED
    assert pieces(result.state) == {"S1": "red destroyer", "S3": "blue battleship"}
    assert result.combats == ()


def test_r4_2_three_moves_of_one_empire_into_one_sector_all_fail(board, play, pieces):
    """R4.2: Two or more MOVEs into one sector all fail (the units hold)."""
    state = board(
        units=[
            ("red", "destroyer", "S2"),
            ("red", "destroyer", "S4"),
            ("red", "destroyer", "S6"),
        ]
    )
    result = play(state, red="MOVE S2 S5\nMOVE S4 S5\nMOVE S6 S5")
    assert [o.status for o in result.outcomes] == [BOUNCED] * 3
    assert "S5" not in pieces(result.state)


def test_r4_2_move_never_claims(board, play, claimed):
    """R4.2: MOVE never claims."""
    state = board("line", units=[("red", "destroyer", "S1")], claims={"S1": "red", "S2": "blue"})
    result = play(state, red="MOVE S1 S2")
    assert result.claims_changed == ()
    assert claimed(result.state) == {"S1": "red", "S2": "blue"}


def test_r4_2_move_never_causes_combat(board, play, craft_at):
    """R4.2: MOVE never causes combat (another empire's craft stay, nobody fights)."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "carrier", "S3", 0)],
        craft=[("S3", "S2"), ("S3", "S2")],
    )
    result = play(state, red="MOVE S1 S2")
    assert result.combats == () and result.dislodged == ()
    assert craft_at(result.state) == {"S2": ["blue", "blue"]}


@pytest.mark.parametrize("kind", ["MOVE", "ADVANCE"])
def test_r4_2_carrier_with_craft_out_cannot_move_or_advance(board, play, pieces, kind):
    """R4.2: A carrier with any of its craft deployed cannot MOVE or ADVANCE."""
    state = board(units=[("red", "carrier", "S5", 2)], craft=[("S5", "S2")])
    result = play(state, red=f"{kind} S5 S4")
    outcome = result.outcome_for(RED, f"{kind} S5 S4")
    assert outcome.status is VOID
    assert "strike craft out (in S2)" in outcome.reason
    assert pieces(result.state) == {"S5": "red carrier (2 docked)"}


def test_r4_2_carrier_with_every_craft_docked_moves(board, play, pieces):
    """R4.2: only a carrier with craft deployed is stuck; a full one moves with its craft."""
    state = board(units=[("red", "carrier", "S5", 3)])
    result = play(state, red="MOVE S5 S4")
    assert pieces(result.state) == {"S4": "red carrier (3 docked)"}


# R4.3 SUPPORT ----------------------------------------------------------------------------


def test_r4_3_support_goes_to_the_unit_that_moved_into_the_target(board, play):
    """R4.3: SUPPORT attaches the supporter's strength to the unit standing in the target
    sector after moves (step 3)."""
    state = board(
        units=[
            ("red", "destroyer", "S2"),
            ("red", "battleship", "S4"),
            ("blue", "battleship", "S6"),
        ]
    )
    result = play(state, red="MOVE S2 S5\nSUPPORT S4 S5", blue="ADVANCE S6 S5")
    (combat,) = result.combats
    assert (combat.attack_strength, combat.defence_strength) == (3, 5)
    support = result.outcome_for(RED, "SUPPORT S4 S5")
    assert support.status is DONE
    assert "added 3 to Red destroyer's defence of S5" in support.reason


def test_r4_3_support_whose_target_moved_away_is_void(board, play):
    """R4.3: A SUPPORT whose target sector holds no unit is void (after moves)."""
    state = board(units=[("red", "destroyer", "S5"), ("red", "battleship", "S4")])
    result = play(state, red="MOVE S5 S6\nSUPPORT S4 S5")
    outcome = result.outcome_for(RED, "SUPPORT S4 S5")
    assert outcome.status is VOID
    assert "no unit stood in S5 after the moves" in outcome.reason


def test_r4_3_support_of_an_empty_sector_is_void(board, play):
    """R4.3: A SUPPORT whose target sector holds no unit is void."""
    state = board(
        units=[("red", "battleship", "S4"), ("red", "carrier", "S2", 2)], craft=[("S2", "S5")]
    )
    outcome = play(state, red="SUPPORT S4 S5").outcome_for(RED, "SUPPORT S4 S5")
    assert outcome.status is VOID and "nobody to support" in outcome.reason


def test_r4_3_support_counts_for_an_advancing_unit(board, play, pieces):
    """R4.3: It counts for that unit whether the unit defends or advances this turn."""
    state = board(
        units=[
            ("red", "destroyer", "S4"),
            ("red", "battleship", "S1"),
            ("blue", "destroyer", "S5"),
        ]
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S1 S4")
    (combat,) = result.combats
    assert (combat.attack_strength, combat.defence_strength) == (5, 2)
    assert [p.amount for p in combat.attack] == [2, 3]
    assert (
        "added 3 to Red destroyer's attack on S5" in result.outcome_for(RED, "SUPPORT S1 S4").reason
    )
    assert result.outcome_for(RED, "ADVANCE S4 S5").status is WON


def test_r4_3_support_counts_for_a_defending_unit(board, play):
    """R4.3: It counts for that unit whether the unit defends or advances this turn."""
    state = board(
        units=[
            ("red", "destroyer", "S5"),
            ("red", "destroyer", "S2"),
            ("blue", "battleship", "S4"),
        ]
    )
    result = play(state, red="SUPPORT S2 S5", blue="ADVANCE S4 S5")
    (combat,) = result.combats
    assert (combat.attack_strength, combat.defence_strength) == (3, 4)
    assert result.outcome_for(BLUE, "ADVANCE S4 S5").status is LOST


def test_r4_3_supports_do_not_chain(board, play):
    """R4.3: Supports do not chain: only the supporter's own strength is added."""
    state = board(
        units=[
            ("red", "destroyer", "S1"),  # supports the supporter in S2
            ("red", "destroyer", "S2"),  # supports S5
            ("red", "destroyer", "S5"),
            ("blue", "battleship", "S6"),
            ("blue", "destroyer", "S9"),
        ]
    )
    result = play(state, red="SUPPORT S1 S2\nSUPPORT S2 S5", blue="ADVANCE S6 S5\nSUPPORT S9 S6")
    (combat,) = result.combats
    assert [p.amount for p in combat.defence] == [2, 2]
    assert (combat.attack_strength, combat.defence_strength) == (5, 4)
    assert combat.attacker_won


def test_r4_3_supporting_another_empires_unit_is_allowed(board, play, pieces):
    """R4.3: Supporting another empire's unit is allowed."""
    state = board(
        units=[
            ("red", "destroyer", "S4"),
            ("blue", "destroyer", "S1"),
            ("green", "destroyer", "S5"),
        ]
    )
    result = play(state, red="ADVANCE S4 S5", blue="SUPPORT S1 S4")
    assert result.combats[0].attack_strength == 4
    assert result.outcome_for(BLUE, "SUPPORT S1 S4").status is DONE
    assert pieces(result.state)["S5"] == "red destroyer"


# R4.4 RECALL -----------------------------------------------------------------------------


def test_r4_4_recall_brings_craft_back_docked(board, play, pieces, craft_at):
    """R4.4: RECALL brings craft of the same empire from the listed sectors back docked."""
    state = board(units=[("red", "carrier", "S5", 1)], craft=[("S5", "S2"), ("S5", "S4")])
    result = play(state, red="RECALL S5 S2 S4")
    outcome = result.outcome_for(RED, "RECALL S5 S2 S4")
    assert outcome.status is DONE and outcome.reason == "recalled craft from S2, S4"
    assert pieces(result.state) == {"S5": "red carrier (3 docked)"}
    assert craft_at(result.state) == {}


def test_r4_4_craft_recalled_from_another_carrier_transfer(board, play):
    """R4.4: craft recalled from another carrier of the same empire transfer to the recalling
    carrier."""
    state = board(
        units=[("red", "carrier", "S4", 1), ("red", "carrier", "S6", 2)], craft=[("S6", "S5")]
    )
    result = play(state, red="RECALL S4 S5")
    assert result.outcome_for(RED, "RECALL S4 S5").status is DONE
    after = result.state
    left, right = after.unit_at["S4"], after.unit_at["S6"]
    assert (left.docked, after.craft_owned(left.id)) == (2, 2)
    assert (right.docked, after.craft_owned(right.id)) == (2, 2)


def test_r4_4_capacity_is_never_exceeded(board, play, craft_at):
    """R4.4: Each strike craft belongs to one carrier (its capacity is 3, docked plus
    deployed) ... capacity is never exceeded."""
    state = board(
        units=[("red", "carrier", "S4", 2), ("red", "carrier", "S6", 1)],
        craft=[("S4", "S7"), ("S6", "S5")],
    )
    result = play(state, red="RECALL S4 S5")
    outcome = result.outcome_for(RED, "RECALL S4 S5")
    assert outcome.status is FAILED
    assert "this carrier already has 3 craft" in outcome.reason
    assert craft_at(result.state) == {"S5": ["red"], "S7": ["red"]}
    assert result.state.craft_owned(result.state.unit_at["S6"].id) == 2


def test_r4_4_recall_fills_up_to_capacity_and_leaves_the_rest_out(board, play, craft_at):
    """R4.4: capacity is never exceeded."""
    state = board(
        units=[("red", "carrier", "S4", 2), ("red", "carrier", "S6", 0)],
        craft=[("S6", "S5"), ("S6", "S5")],
    )
    result = play(state, red="RECALL S4 S5 S5")
    outcome = result.outcome_for(RED, "RECALL S4 S5 S5")
    assert outcome.status is PARTIAL
    assert result.state.unit_at["S4"].docked == 3
    assert craft_at(result.state) == {"S5": ["red"]}


def test_r4_4_own_craft_come_back_before_a_sister_carriers(board, play):
    """R4.4: Each strike craft belongs to one carrier; RECALL brings the carrier's own craft
    (a full carrier can always take back its own)."""
    state = board(
        units=[("red", "carrier", "S4", 2), ("red", "carrier", "S6", 2)],
        craft=[("S4", "S5"), ("S6", "S5")],
    )
    result = play(state, red="RECALL S4 S5")
    assert result.outcome_for(RED, "RECALL S4 S5").status is DONE
    assert result.state.unit_at["S4"].docked == 3
    assert result.state.craft_owned(result.state.unit_at["S6"].id) == 3


def test_r4_4_two_carriers_recalling_one_craft(board, play, craft_at):
    """R4.4: When several carriers recall the same craft, its own carrier takes it if it is one
    of them; otherwise the recalling carrier in the lowest-numbered sector does."""
    state = board(
        units=[
            ("red", "carrier", "S4", 1),
            ("red", "carrier", "S6", 1),
            ("red", "carrier", "S2", 0),
        ],
        craft=[("S2", "S5")],
    )
    result = play(state, red="RECALL S6 S5\nRECALL S4 S5")
    assert result.outcome_for(RED, "RECALL S4 S5").status is DONE
    failed = result.outcome_for(RED, "RECALL S6 S5")
    assert failed.status is FAILED
    assert "no craft of yours was left in S5 to recall" in failed.reason
    assert result.state.unit_at["S4"].docked == 2
    assert craft_at(result.state) == {}


def test_r4_4_its_own_carrier_takes_a_craft_two_carriers_recall(board, play, craft_at):
    """R4.4: When several carriers recall the same craft, its own carrier takes it if it is one
    of them (the issue's case: the craft in S16 belongs to the carrier in S39, and S30, the
    lower-numbered sector, recalls it too)."""
    state = board(
        [("S16", "S30"), ("S16", "S39")],
        units=[("red", "carrier", "S39", 1), ("red", "carrier", "S30", 1)],
        craft=[("S39", "S16")],
    )
    result = play(state, red="RECALL S39 S16\nRECALL S30 S16")
    assert result.outcome_for(RED, "RECALL S39 S16").status is DONE
    lost = result.outcome_for(RED, "RECALL S30 S16")
    assert lost.status is FAILED
    assert "no craft of yours was left in S16 to recall" in lost.reason
    after = result.state
    assert (after.unit_at["S39"].docked, after.unit_at["S30"].docked) == (2, 1)
    assert craft_at(after) == {}


def test_r4_4_each_carrier_takes_its_own_craft_from_a_shared_sector(board, play, craft_at):
    """R4.4: its own carrier takes it: two carriers recalling one craft each from a sector
    holding one craft of each get their own back, whatever their sector numbers."""
    state = board(
        units=[("red", "carrier", "S4", 2), ("red", "carrier", "S6", 2)],
        craft=[("S6", "S5"), ("S4", "S5")],
    )
    result = play(state, red="RECALL S4 S5\nRECALL S6 S5")
    after = result.state
    assert after.craft == ()
    assert (after.unit_at["S4"].docked, after.unit_at["S6"].docked) == (3, 3)
    assert after.craft_owned(after.unit_at["S4"].id) == 3
    assert after.craft_owned(after.unit_at["S6"].id) == 3


def test_r4_4_a_craft_its_own_carrier_does_not_want_goes_to_the_lowest_sector(
    board, play, craft_at
):
    """R4.4: its own carrier takes the craft it names; a craft of that carrier that its RECALL
    leaves out is recalled by the other carriers like any other, the lowest-numbered sector's
    first."""
    state = board(
        units=[
            ("red", "carrier", "S6", 1),
            ("red", "carrier", "S4", 1),
            ("red", "carrier", "S8", 1),
        ],
        craft=[("S6", "S5"), ("S6", "S5")],
    )
    result = play(state, red="RECALL S8 S5\nRECALL S6 S5\nRECALL S4 S5")
    after = result.state
    assert result.outcome_for(RED, "RECALL S6 S5").status is DONE
    assert result.outcome_for(RED, "RECALL S4 S5").status is DONE
    assert result.outcome_for(RED, "RECALL S8 S5").status is FAILED
    assert [after.unit_at[s].docked for s in ("S4", "S6", "S8")] == [2, 2, 1]
    assert after.craft_owned(after.unit_at["S6"].id) == 2
    assert craft_at(after) == {}


def test_r4_4_a_full_carrier_leaves_the_craft_to_the_next_one(board, play, craft_at):
    """R4.4 with "capacity is never exceeded": when the lowest-numbered recalling carrier has no
    room, the next recalling carrier by sector number takes the craft (where the engine had to
    choose: see docs/rules.md)."""
    state = board(
        units=[
            ("red", "carrier", "S4", 3),
            ("red", "carrier", "S6", 1),
            ("red", "carrier", "S2", 0),
        ],
        craft=[("S2", "S5")],
    )
    result = play(state, red="RECALL S4 S5\nRECALL S6 S5")
    full = result.outcome_for(RED, "RECALL S4 S5")
    assert full.status is FAILED and "this carrier already has 3 craft" in full.reason
    assert result.outcome_for(RED, "RECALL S6 S5").status is DONE
    assert result.state.unit_at["S6"].docked == 2
    assert craft_at(result.state) == {}


def test_r4_4_another_empires_craft_cannot_be_recalled(board, play):
    """R4.4: RECALL brings craft of the same empire."""
    state = board(
        units=[("red", "carrier", "S4", 1), ("blue", "carrier", "S6", 2)], craft=[("S6", "S5")]
    )
    outcome = play(state, red="RECALL S4 S5").outcome_for(RED, "RECALL S4 S5")
    assert outcome.status is VOID
    assert "you have no strike craft in S5 to recall" in outcome.reason


def test_r4_4_a_carrier_owns_at_most_three_craft(board):
    """R4.4: its capacity is 3, docked plus deployed."""
    with pytest.raises(StateError, match="owns 4 strike craft"):
        board(units=[("red", "carrier", "S5", 3)], craft=[("S5", "S2")])


# R4.5 DEPLOY -----------------------------------------------------------------------------


def test_r4_5_deploy_sends_one_craft_per_listed_sector(board, play, pieces, craft_at):
    """R4.5: DEPLOY sends docked craft, one per listed sector, into adjacent sectors."""
    state = board(units=[("red", "carrier", "S5", 3)])
    result = play(state, red="DEPLOY S5 S2 S2 S4")
    outcome = result.outcome_for(RED, "DEPLOY S5 S2 S2 S4")
    assert outcome.status is DONE and outcome.reason == "deployed craft to S2, S2, S4"
    assert craft_at(result.state) == {"S2": ["red", "red"], "S4": ["red"]}
    assert pieces(result.state) == {"S5": "red carrier (0 docked)"}


def test_r4_5_craft_bound_for_an_enemy_unit_stay_docked(board, play, pieces, craft_at):
    """R4.5: into adjacent sectors that hold no unit or craft of another empire; a craft whose
    target fails stays docked."""
    state = board(units=[("red", "carrier", "S5", 3), ("blue", "destroyer", "S4")])
    result = play(state, red="DEPLOY S5 S2 S4")
    outcome = result.outcome_for(RED, "DEPLOY S5 S2 S4")
    assert outcome.status is PARTIAL
    assert "Blue destroyer is in S4" in outcome.reason
    assert craft_at(result.state) == {"S2": ["red"]}
    assert pieces(result.state)["S5"] == "red carrier (2 docked)"


def test_r4_5_craft_bound_for_enemy_craft_stay_docked(board, play, craft_at):
    """R4.5: into adjacent sectors that hold no unit or craft of another empire."""
    state = board(
        units=[("red", "carrier", "S5", 3), ("blue", "carrier", "S1", 2)], craft=[("S1", "S4")]
    )
    result = play(state, red="DEPLOY S5 S4")
    outcome = result.outcome_for(RED, "DEPLOY S5 S4")
    assert outcome.status is FAILED and "Blue strike craft are in S4" in outcome.reason
    assert craft_at(result.state) == {"S4": ["blue"]}


def test_r4_5_deploy_is_checked_after_moves(board, play, craft_at):
    """R4.5: (checked after moves and recalls): a unit that moved in blocks, one that moved
    out does not."""
    state = board(
        units=[
            ("red", "carrier", "S5", 3),
            ("blue", "destroyer", "S1"),  # moves into S4
            ("blue", "destroyer", "S6"),  # moves out to S9
        ]
    )
    result = play(state, red="DEPLOY S5 S4 S6", blue="MOVE S1 S4\nMOVE S6 S9")
    outcome = result.outcome_for(RED, "DEPLOY S5 S4 S6")
    assert outcome.status is PARTIAL and "Blue destroyer is in S4" in outcome.reason
    assert craft_at(result.state) == {"S6": ["red"]}


def test_r4_5_deploy_is_checked_after_recalls(board, play, craft_at):
    """R4.5: (checked after moves and recalls): craft recalled this turn no longer block."""
    state = board(
        units=[("red", "carrier", "S5", 3), ("blue", "carrier", "S1", 2)], craft=[("S1", "S4")]
    )
    result = play(state, red="DEPLOY S5 S4", blue="RECALL S1 S4")
    assert result.outcome_for(RED, "DEPLOY S5 S4").status is DONE
    assert craft_at(result.state) == {"S4": ["red"]}


def test_r4_5_deploys_of_two_empires_into_one_sector_all_fail(board, play, craft_at, pieces):
    """R4.5: Deploys of two or more empires into one sector in the same turn (as written) all
    fail."""
    state = board(units=[("red", "carrier", "S4", 3), ("blue", "carrier", "S6", 3)])
    result = play(state, red="DEPLOY S4 S5 S1", blue="DEPLOY S6 S5")
    red = result.outcome_for(RED, "DEPLOY S4 S5 S1")
    assert red.status is PARTIAL
    assert "Blue also deployed into S5" in red.reason
    assert result.outcome_for(BLUE, "DEPLOY S6 S5").status is FAILED
    assert craft_at(result.state) == {"S1": ["red"]}
    assert pieces(result.state)["S6"] == "blue carrier (3 docked)"


def test_r4_5_a_deploy_that_would_fail_anyway_still_blocks_as_written(board, play, craft_at):
    """R4.5: Deploys of two or more empires into one sector in the same turn (as written) all
    fail: Blue's deploy into Red's destroyer fails, and still spoils Red's."""
    state = board(
        units=[
            ("red", "carrier", "S4", 3),
            ("red", "destroyer", "S5"),
            ("blue", "carrier", "S6", 3),
        ]
    )
    result = play(state, red="DEPLOY S4 S5", blue="DEPLOY S6 S5")
    assert result.outcome_for(RED, "DEPLOY S4 S5").status is FAILED
    assert craft_at(result.state) == {}


def test_r4_5_two_carriers_of_one_empire_may_deploy_into_one_sector(board, play, craft_at):
    """R4.5: only deploys of two or more *empires* into one sector fail."""
    state = board(units=[("red", "carrier", "S4", 3), ("red", "carrier", "S6", 3)])
    result = play(state, red="DEPLOY S4 S5\nDEPLOY S6 S5")
    assert craft_at(result.state) == {"S5": ["red", "red"]}


def test_r4_5_cannot_deploy_more_craft_than_are_docked(board, play):
    """R4.5: DEPLOY sends docked craft."""
    state = board(units=[("red", "carrier", "S5", 1)])
    outcome = play(state, red="DEPLOY S5 S2 S4").outcome_for(RED, "DEPLOY S5 S2 S4")
    assert outcome.status is VOID
    assert "this carrier has 1 craft docked, so it cannot deploy 2" in outcome.reason


def test_r4_5_recalled_craft_can_deploy_the_same_turn(board, play, craft_at):
    """R4.5 with R3.2: recall (step 4) comes before deploy (step 5), so craft a carrier
    recalls are docked in time to deploy."""
    state = board(units=[("red", "carrier", "S5", 0)], craft=[("S5", "S2"), ("S5", "S2")])
    result = play(state, red="RECALL S5 S2 S2\nDEPLOY S5 S4 S6")
    assert result.outcome_for(RED, "DEPLOY S5 S4 S6").status is DONE
    assert craft_at(result.state) == {"S4": ["red"], "S6": ["red"]}


# R4.6 ADVANCE ----------------------------------------------------------------------------


def test_r4_6_advance_into_own_unit_fails_and_holds(board, play, pieces):
    """R4.6: into a sector holding the empire's own unit: fails, the unit holds."""
    state = board("line", units=[("red", "destroyer", "S1"), ("red", "battleship", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    outcome = result.outcome_for(RED, "ADVANCE S1 S2")
    assert outcome.status is FAILED
    assert "your own battleship stands in S2" in outcome.reason
    assert pieces(result.state) == {"S1": "red destroyer", "S2": "red battleship"}


def test_r4_6_advance_into_own_unit_does_not_count_as_an_advance(board, play, pieces):
    """R4.6: into a sector holding the empire's own unit: ... it does not count as an advance
    into that sector for the rules below (so Blue's lone advance dislodges and fights)."""
    state = board(
        "line",
        units=[
            ("red", "destroyer", "S1"),
            ("red", "destroyer", "S2"),
            ("blue", "battleship", "S3"),
        ],
    )
    result = play(state, red="ADVANCE S1 S2", blue="ADVANCE S3 S2")
    assert result.outcome_for(BLUE, "ADVANCE S3 S2").status is WON
    (combat,) = result.combats
    assert (combat.attack_strength, combat.defence_strength) == (3, 2)
    assert result.retreats[0].options == ()  # S1 is Red's, S3 the attacker's origin
    assert pieces(result.state) == {"S1": "red destroyer", "S2": "blue battleship"}


def test_r4_6_advance_is_judged_after_moves_own_unit_moved_in(board, play, pieces):
    """R4.6: ADVANCE is judged on the board as it stands after steps 1-5 (so a unit that
    MOVEd in is there)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("red", "destroyer", "S3")])
    result = play(state, red="ADVANCE S1 S2\nMOVE S3 S2")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is FAILED
    assert pieces(result.state) == {"S1": "red destroyer", "S2": "red destroyer"}


def test_r4_6_advance_is_judged_after_moves_enemy_moved_out(board, play, pieces, claimed):
    """R4.6: ADVANCE is judged on the board as it stands after steps 1-5."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")],
        claims={"S2": "blue"},
    )
    result = play(state, red="ADVANCE S1 S2", blue="MOVE S2 S3")
    assert result.combats == ()
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is DONE
    assert pieces(result.state) == {"S2": "red destroyer", "S3": "blue destroyer"}
    assert claimed(result.state) == {"S2": "red"}


def test_r4_6_advance_into_a_unit_that_moved_in_fights_it(board, play):
    """R4.6: judged after steps 1-5, so a unit that MOVEd in is there."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S3")])
    result = play(state, red="ADVANCE S1 S2", blue="MOVE S3 S2")
    (combat,) = result.combats
    assert combat.sector == "S2" and combat.defender is BLUE
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is LOST


def test_r4_6_two_advances_into_one_sector_all_fail(board, play, pieces, claimed):
    """R4.6: two or more advances (any empires) into one sector: all fail, nobody there is
    dislodged."""
    state = board(
        "line",
        units=[
            ("red", "battleship", "S1"),
            ("green", "destroyer", "S2"),
            ("blue", "battleship", "S3"),
        ],
    )
    result = play(state, red="ADVANCE S1 S2", blue="ADVANCE S3 S2", green="CLAIM S2")
    red = result.outcome_for(RED, "ADVANCE S1 S2")
    assert red.status is BOUNCED
    assert "Blue battleship from S3 also advanced into S2" in red.reason
    assert result.outcome_for(BLUE, "ADVANCE S3 S2").status is BOUNCED
    assert result.dislodged == () and result.combats == ()
    assert result.outcome_for(GREEN, "CLAIM S2").status is DONE
    assert claimed(result.state) == {"S2": "green"}
    assert pieces(result.state) == {
        "S1": "red battleship",
        "S2": "green destroyer",
        "S3": "blue battleship",
    }


def test_r4_6_two_advances_of_one_empire_into_an_empty_sector_both_fail(board, play, claimed):
    """R4.6: two or more advances (any empires) into one sector: all fail."""
    state = board(units=[("red", "destroyer", "S2"), ("red", "destroyer", "S4")])
    result = play(state, red="ADVANCE S2 S5\nADVANCE S4 S5")
    assert [o.status for o in result.outcomes] == [BOUNCED, BOUNCED]
    assert claimed(result.state) == {}


def test_r4_6_advances_bounce_as_written_not_as_resolved(board, play, pieces):
    """R4.6: ADVANCE is judged ... on the advance orders as written (not as they later
    resolve): Blue's advance is cancelled by Green, yet it still bounces Red's."""
    state = board(
        "line",
        units=[
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S3"),
            ("green", "battleship", "S4"),
        ],
    )
    result = play(state, red="ADVANCE S1 S2", blue="ADVANCE S3 S2", green="ADVANCE S4 S3")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is BOUNCED
    assert "S2" not in pieces(result.state)
    assert result.outcome_for(GREEN, "ADVANCE S4 S3").status is WON


def test_r4_6_a_dislodged_units_support_is_cut(board, play, pieces):
    """R4.6: that defender is dislodged: it holds, and its support ... [is] cancelled."""
    state = board(
        units=[
            ("blue", "destroyer", "S5"),
            ("blue", "battleship", "S6"),  # supports S5
            ("red", "destroyer", "S3"),  # advances on the supporter
            ("red", "battleship", "S4"),  # advances on S5
        ]
    )
    result = play(state, blue="SUPPORT S6 S5", red="ADVANCE S3 S6\nADVANCE S4 S5")
    support = result.outcome_for(BLUE, "SUPPORT S6 S5")
    assert support.status is CUT
    assert "Red destroyer's advance from S3 dislodged this unit" in support.reason
    on_s5 = result.outcome_for(RED, "ADVANCE S4 S5")
    assert on_s5.status is WON
    assert (on_s5.combat.attack_strength, on_s5.combat.defence_strength) == (3, 2)


def test_r4_6_being_dislodged_is_not_losing(board, play, pieces):
    """R4.6: Being dislodged is not losing (the supporter that held its own sector stays)."""
    state = board(
        units=[
            ("blue", "destroyer", "S5"),
            ("blue", "battleship", "S6"),
            ("red", "destroyer", "S3"),
            ("red", "battleship", "S4"),
        ]
    )
    result = play(state, blue="SUPPORT S6 S5", red="ADVANCE S3 S6\nADVANCE S4 S5")
    assert result.outcome_for(RED, "ADVANCE S3 S6").status is LOST
    assert pieces(result.state)["S6"] == "blue battleship"
    assert [r.sector for r in result.retreats] == ["S5"]


def test_r4_6_a_dislodged_units_claim_is_cancelled(board, play, claimed, pieces):
    """R4.6: that defender is dislodged: it holds, and its ... claim ... [is] cancelled."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")],
        claims={"S2": "red"},
    )
    result = play(state, red="ADVANCE S1 S2", blue="CLAIM S2")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is LOST
    claim = result.outcome_for(BLUE, "CLAIM S2")
    assert claim.status is CANCELLED and "dislodged this unit" in claim.reason
    assert claimed(result.state) == {"S2": "red"}
    assert pieces(result.state)["S2"] == "blue destroyer"


def test_r4_6_a_dislodged_carriers_deploy_stands(board, play, craft_at):
    """R4.6: its support, claim and advance are cancelled (its deploy and recall, resolved
    earlier, stand)."""
    state = board(units=[("blue", "carrier", "S5", 3), ("red", "battleship", "S4")])
    result = play(state, blue="DEPLOY S5 S2 S6", red="ADVANCE S4 S5")
    assert result.outcome_for(BLUE, "DEPLOY S5 S2 S6").status is DONE
    assert result.combats[0].defence_strength == 2  # the carrier kept 1 craft docked
    assert craft_at(result.state) == {"S2": ["blue"], "S6": ["blue"]}
    assert result.retreats[0].options == ("S2", "S6", "S8")


def test_r4_6_a_dislodged_carriers_recall_stands(board, play, pieces):
    """R4.6: (its deploy and recall, resolved earlier, stand)."""
    state = board(
        units=[("blue", "carrier", "S5", 1), ("red", "destroyer", "S4")],
        craft=[("S5", "S2"), ("S5", "S6")],
    )
    result = play(state, blue="RECALL S5 S2 S6", red="ADVANCE S4 S5")
    assert result.outcome_for(BLUE, "RECALL S5 S2 S6").status is DONE
    assert result.combats[0].defence_strength == 4
    assert pieces(result.state)["S5"] == "blue carrier (3 docked)"


def test_r4_6_head_to_head_both_stay(board, play, pieces, claimed):
    """R4.6: two units advancing into each other's sectors both stay, with no combat."""
    state = board(
        "line",
        units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")],
        claims={"S1": "red", "S2": "blue"},
    )
    result = play(state, red="ADVANCE S1 S2", blue="ADVANCE S2 S1")
    red = result.outcome_for(RED, "ADVANCE S1 S2")
    assert red.status is CANCELLED
    assert "Blue destroyer's advance from S2 dislodged this unit" in red.reason
    assert result.outcome_for(BLUE, "ADVANCE S2 S1").status is CANCELLED
    assert result.combats == ()
    assert pieces(result.state) == {"S1": "red battleship", "S2": "blue destroyer"}
    assert claimed(result.state) == {"S1": "red", "S2": "blue"}


def test_r4_6_a_ring_of_three_advances_all_stay(board, play, pieces):
    """R4.6: an advance whose own unit is dislodged is cancelled (each unit of the ring is
    advanced into)."""
    state = board(
        [("S1", "S2"), ("S2", "S3"), ("S3", "S1")],
        units=[
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S2"),
            ("green", "destroyer", "S3"),
        ],
    )
    result = play(state, red="ADVANCE S1 S2", blue="ADVANCE S2 S3", green="ADVANCE S3 S1")
    assert {o.status for o in result.outcomes} == {CANCELLED}
    assert result.combats == ()
    assert pieces(result.state) == pieces(state)


def test_r4_6_advancing_into_a_unit_cancels_its_advance(board, play, pieces, claimed):
    """R4.6: advancing into a unit cancels its advance (it stays and defends)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")])
    result = play(state, red="ADVANCE S1 S2", blue="ADVANCE S2 S3")
    assert result.outcome_for(BLUE, "ADVANCE S2 S3").status is CANCELLED
    (combat,) = result.combats
    assert (combat.sector, combat.defence_strength) == ("S2", 2)
    assert pieces(result.state) == {"S1": "red destroyer", "S2": "blue destroyer"}
    assert claimed(result.state) == {}


def test_r4_6_a_cancelled_advance_still_dislodges_as_written(board, play):
    """R4.6: ADVANCE is judged ... on the advance orders as written (not as they later
    resolve): Blue's advance on S1 is cancelled (Red advances into Blue), yet it still
    dislodges Red's supporter in S1, whose support is cut."""
    state = board(
        [("S1", "S2"), ("S2", "S3"), ("S3", "S1")],
        units=[("red", "destroyer", "S1"), ("red", "destroyer", "S2"), ("blue", "destroyer", "S3")],
    )
    result = play(state, red="SUPPORT S1 S2\nADVANCE S2 S3", blue="ADVANCE S3 S1")
    assert result.outcome_for(BLUE, "ADVANCE S3 S1").status is CANCELLED
    assert result.outcome_for(RED, "SUPPORT S1 S2").status is CUT
    attack = result.outcome_for(RED, "ADVANCE S2 S3")
    assert attack.status is LOST
    assert (attack.combat.attack_strength, attack.combat.defence_strength) == (2, 2)


def test_r4_6_advance_into_empty_sector_moves_in_and_claims(board, play, pieces, claimed):
    """R4.6: an advance that is not cancelled into a sector with no enemy unit or craft moves
    in and claims the sector (house rule advance_claims_empty, default on)."""
    state = board(
        "line", units=[("red", "destroyer", "S1")], claims={"S2": "blue"}, empires=["blue"]
    )
    result = play(state, red="ADVANCE S1 S2")
    outcome = result.outcome_for(RED, "ADVANCE S1 S2")
    assert outcome.status is DONE and outcome.reason == "advanced into S2 and claimed it"
    assert pieces(result.state) == {"S2": "red destroyer"}
    assert claimed(result.state) == {"S2": "red"}
    assert HouseRules().advance_claims_empty is True


def test_r4_6_house_rule_advance_into_empty_does_not_claim(board, play, pieces, claimed):
    """R4.6: house rule advance_claims_empty (when off, the unit moves in without claiming)."""
    state = board(
        "line", units=[("red", "destroyer", "S1")], rules=HouseRules(advance_claims_empty=False)
    )
    result = play(state, red="ADVANCE S1 S2")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is DONE
    assert pieces(result.state) == {"S2": "red destroyer"}
    assert claimed(result.state) == {}


def test_r4_6_own_craft_do_not_block_an_advance(board, play, pieces, claimed, craft_at):
    """R4.6: Own craft there do not block."""
    state = board(
        "line",
        units=[("red", "carrier", "S1", 2), ("red", "destroyer", "S3")],
        craft=[("S1", "S2")],
    )
    result = play(state, red="ADVANCE S3 S2")
    assert result.outcome_for(RED, "ADVANCE S3 S2").status is DONE
    assert result.combats == ()
    assert pieces(result.state)["S2"] == "red destroyer"
    assert claimed(result.state) == {"S2": "red"}
    assert craft_at(result.state) == {"S2": ["red"]}


def test_r4_6_enemy_craft_alone_are_a_defender(board, play, claimed, craft_at):
    """R4.6: if the target holds ... another empire's strike craft with no unit, that defender
    is dislodged ... an advance into a defended sector starts a combat (R5)."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "carrier", "S3", 2)],
        craft=[("S3", "S2")],
    )
    result = play(state, red="ADVANCE S1 S2")
    (combat,) = result.combats
    assert combat.defender is BLUE and combat.defender_unit is None
    assert (combat.attack_strength, combat.defence_strength) == (2, 1)
    outcome = result.outcome_for(RED, "ADVANCE S1 S2")
    assert outcome.status is WON
    assert "Blue's strike craft there were destroyed" in outcome.reason
    assert craft_at(result.state) == {}
    assert claimed(result.state) == {"S2": "red"}


def test_r4_6_craft_deployed_this_turn_defend_against_an_advance(board, play, claimed):
    """R4.6: ADVANCE is judged on the board as it stands after steps 1-5 (craft deployed in
    step 5 are there, and their empire defends the sector)."""
    state = board(
        units=[("red", "carrier", "S4", 3), ("blue", "destroyer", "S6")],
    )
    result = play(state, red="DEPLOY S4 S5 S5 S5", blue="ADVANCE S6 S5")
    (combat,) = result.combats
    assert (combat.defender, combat.attack_strength, combat.defence_strength) == (RED, 2, 3)
    assert result.outcome_for(BLUE, "ADVANCE S6 S5").status is LOST
    assert claimed(result.state) == {}


def test_r4_6_advance_into_a_defended_sector_starts_a_combat(board, play):
    """R4.6: an advance that is not cancelled into a defended sector starts a combat (R5)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    (combat,) = result.combats
    assert (combat.sector, combat.attacker, combat.defender) == ("S2", RED, BLUE)
    assert combat.attacker_from == "S1"
    assert result.dislodged == (2,)


# R4.7 CLAIM ------------------------------------------------------------------------------


def test_r4_7_claim_replaces_any_other_claim(board, play, claimed, pieces):
    """R4.7: CLAIM: the unit holds; at the end of the turn, if it was not dislodged, its
    empire's claim replaces any other claim on its sector."""
    state = board("line", units=[("red", "destroyer", "S2")], claims={"S2": "blue"})
    result = play(state, red="CLAIM S2")
    outcome = result.outcome_for(RED, "CLAIM S2")
    assert outcome.status is DONE and outcome.reason == "claimed S2"
    assert claimed(result.state) == {"S2": "red"}
    assert [(c.sector, c.before, c.after) for c in result.claims_changed] == [("S2", BLUE, RED)]
    assert pieces(result.state) == {"S2": "red destroyer"}


def test_r4_7_claim_of_an_own_sector_changes_nothing(board, play):
    """R4.7: its empire's claim replaces any other claim."""
    state = board("line", units=[("red", "destroyer", "S2")], claims={"S2": "red"})
    result = play(state, red="CLAIM S2")
    assert result.outcome_for(RED, "CLAIM S2").reason == "S2 was already yours"
    assert result.claims_changed == ()


def test_r4_7_claiming_unit_holds_and_defends(board, play, claimed):
    """R4.7: CLAIM: the unit holds (and so defends with its strength), but a unit that was
    dislodged does not claim."""
    state = board(
        units=[("red", "battleship", "S5"), ("blue", "destroyer", "S4")], claims={"S5": "blue"}
    )
    result = play(state, red="CLAIM S5", blue="ADVANCE S4 S5")
    assert result.combats[0].defence_strength == 3
    assert result.outcome_for(RED, "CLAIM S5").status is CANCELLED
    assert claimed(result.state) == {"S5": "blue"}


# R4.8 Strengths --------------------------------------------------------------------------


def test_r4_8_unit_strengths():
    """R4.8: Destroyer 2, battleship 3, craft 1; a carrier is 1 + its docked craft."""
    from companion.local_cluster import UnitType
    from companion.local_cluster.atoms import CRAFT_STRENGTH

    assert UnitType.DESTROYER.strength == 2
    assert UnitType.BATTLESHIP.strength == 3
    assert UnitType.CARRIER.strength == 1
    assert CRAFT_STRENGTH == 1


@pytest.mark.parametrize("docked", [0, 1, 2, 3])
def test_r4_8_carrier_strength_is_one_plus_docked_craft(board, play, docked):
    """R4.8: A carrier's combat strength is 1 + its docked craft."""
    state = board(units=[("red", "carrier", "S5", docked), ("blue", "battleship", "S4")])
    result = play(state, blue="ADVANCE S4 S5")
    assert result.combats[0].defence_strength == 1 + docked
    assert state.unit_at["S5"].strength == 1 + docked


def test_r4_8_deployed_craft_do_not_add_to_the_carrier(board, play):
    """R4.8: A carrier's combat strength is 1 + its *docked* craft."""
    state = board(
        units=[("red", "carrier", "S5", 1), ("blue", "destroyer", "S4")],
        craft=[("S5", "S2"), ("S5", "S6")],
    )
    result = play(state, blue="ADVANCE S4 S5")
    assert result.combats[0].defence_strength == 2
    assert result.outcome_for(BLUE, "ADVANCE S4 S5").status is LOST


def test_r4_8_attacking_carrier_strength(board, play):
    """R4.8: A carrier's combat strength is 1 + its docked craft (attacking too)."""
    state = board(units=[("red", "carrier", "S4", 3), ("blue", "battleship", "S5")])
    result = play(state, red="ADVANCE S4 S5")
    assert (result.combats[0].attack_strength, result.combats[0].defence_strength) == (4, 3)
    assert result.outcome_for(RED, "ADVANCE S4 S5").status is WON
