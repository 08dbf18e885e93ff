"""R5 Resolution phase: combat strengths, the result, retreats and orphaned strike craft.

Maps (see conftest): "line" is S1-S2-S3-S4-S5; "grid" is

    S1 S2 S3
    S4 S5 S6
    S7 S8 S9
"""

from __future__ import annotations

import pytest

from companion.local_cluster import Colour, HouseRules, OutcomeStatus, Phase, StateError
from companion.local_cluster.retreats import apply_retreats

RED, GREEN, BLUE = Colour.RED, Colour.GREEN, Colour.BLUE
WON, LOST, CUT = OutcomeStatus.WON, OutcomeStatus.LOST, OutcomeStatus.CUT


# R5.1 Strengths --------------------------------------------------------------------------


def test_r5_1_attack_and_defence_add_up_every_part(board, play):
    """R5.1: Attack = advancing unit + its uncut supports. Defence = defending unit (if any) +
    the defender's own strike craft in that sector + the defending unit's uncut supports."""
    state = board(
        units=[
            ("red", "battleship", "S4"),
            ("red", "battleship", "S7"),
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S5"),
            ("blue", "destroyer", "S2"),
            ("blue", "carrier", "S6", 1),
        ],
        craft=[("S6", "S5"), ("S6", "S5")],
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S7 S4\nSUPPORT S1 S4", blue="SUPPORT S2 S5")
    (combat,) = result.combats
    assert [(p.source, p.amount) for p in combat.attack] == [
        ("Red battleship from S4", 3),
        ("support from Red destroyer in S1", 2),
        ("support from Red battleship in S7", 3),
    ]
    assert [(p.source, p.amount) for p in combat.defence] == [
        ("Blue destroyer in S5", 2),
        ("2 Blue strike craft in S5", 2),
        ("support from Blue destroyer in S2", 2),
    ]
    assert (combat.attack_strength, combat.defence_strength) == (8, 6)
    assert result.outcome_for(BLUE, "SUPPORT S2 S5").reason == (
        "added 2 to Blue destroyer's defence of S5"
    )


def test_r5_1_another_empires_craft_do_not_defend(board, play, craft_at):
    """R5.1: Defence = defending unit + the *defender's own* strike craft in that sector."""
    state = board(
        units=[
            ("red", "battleship", "S4"),
            ("blue", "destroyer", "S5"),
            ("green", "carrier", "S8", 2),
        ],
        craft=[("S8", "S5")],
    )
    result = play(state, red="ADVANCE S4 S5")
    assert result.combats[0].defence_strength == 2
    assert result.outcome_for(RED, "ADVANCE S4 S5").status is WON
    assert craft_at(result.state) == {"S5": ["green"]}


def test_r5_1_the_attackers_craft_in_the_target_do_not_attack(board, play):
    """R5.1: Attack = advancing unit + its uncut supports (nothing else)."""
    state = board(
        units=[
            ("red", "destroyer", "S4"),
            ("red", "carrier", "S2", 1),
            ("blue", "destroyer", "S5"),
        ],
        craft=[("S2", "S5"), ("S2", "S5")],
    )
    result = play(state, red="ADVANCE S4 S5")
    assert result.combats[0].attack_strength == 2
    assert result.outcome_for(RED, "ADVANCE S4 S5").status is LOST


def test_r5_1_a_dislodged_supporter_is_cut_from_the_attack(board, play, pieces):
    """R5.1: A support is cut when its supporter is dislodged (R4.6)."""
    state = board(
        units=[
            ("red", "destroyer", "S4"),
            ("red", "destroyer", "S7"),  # supports S4
            ("blue", "destroyer", "S5"),
            ("blue", "destroyer", "S8"),  # advances on the supporter
        ]
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S7 S4", blue="ADVANCE S8 S7")
    assert result.outcome_for(RED, "SUPPORT S7 S4").status is CUT
    attack = result.outcome_for(RED, "ADVANCE S4 S5")
    assert attack.status is LOST
    assert (attack.combat.attack_strength, attack.combat.defence_strength) == (2, 2)
    assert pieces(result.state) == pieces(state)


def test_r5_1_craft_of_two_empires_are_defended_by_the_first_colour(board, play, craft_at):
    """R5.1 (where the engine had to choose): in a sector holding only craft of several
    empires, the defender is the first of them in the rulebook's colour order, and only its
    craft defend and are destroyed."""
    state = board(
        units=[
            ("red", "destroyer", "S4"),
            ("green", "carrier", "S2", 2),
            ("blue", "carrier", "S6", 1),
        ],
        craft=[("S2", "S5"), ("S6", "S5"), ("S6", "S5")],
    )
    result = play(state, red="ADVANCE S4 S5")
    (combat,) = result.combats
    assert combat.defender is GREEN and combat.defence_strength == 1
    assert result.outcome_for(RED, "ADVANCE S4 S5").status is WON
    assert craft_at(result.state) == {"S5": ["blue", "blue"]}


# R5.2 Who wins ---------------------------------------------------------------------------


def test_r5_2_a_tie_holds(board, play, pieces, claimed):
    """R5.2: Defence >= attack: nothing moves."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S2")],
        claims={"S2": "blue"},
    )
    result = play(state, red="ADVANCE S1 S2")
    outcome = result.outcome_for(RED, "ADVANCE S1 S2")
    assert outcome.status is LOST
    assert outcome.reason == "lost 2 against 2: Blue held S2 and this unit stayed in S1"
    assert not result.combats[0].attacker_won
    assert pieces(result.state) == pieces(state)
    assert claimed(result.state) == {"S2": "blue"}
    assert result.retreats == ()


def test_r5_2_craft_that_hold_stay(board, play, craft_at, claimed):
    """R5.2: Defence >= attack: nothing moves (two craft alone hold off a destroyer)."""
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("blue", "carrier", "S3", 1)],
        craft=[("S3", "S2"), ("S3", "S2")],
    )
    result = play(state, red="ADVANCE S1 S2")
    assert (result.combats[0].attack_strength, result.combats[0].defence_strength) == (2, 2)
    assert craft_at(result.state) == {"S2": ["blue", "blue"]}
    assert claimed(result.state) == {}


def test_r5_2_holding_unit_is_told_it_held(board, play):
    """R5.2: Defence >= attack: nothing moves (and the defender hears the figures)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "battleship", "S2")])
    result = play(state, red="ADVANCE S1 S2", blue="HOLD S2")
    held = result.outcome_for(BLUE, "HOLD S2")
    assert held.reason == "held S2 against Red's attack, 3 against 2"


def test_r5_2_the_winner_moves_in_claims_and_the_loser_must_retreat(board, play, pieces, claimed):
    """R5.2: Otherwise the defending unit must retreat, ... and the attacker moves in and
    claims the sector."""
    state = board(
        "line",
        units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")],
        claims={"S2": "blue"},
    )
    result = play(state, red="ADVANCE S1 S2", blue="HOLD S2")
    outcome = result.outcome_for(RED, "ADVANCE S1 S2")
    assert outcome.status is WON
    assert (
        outcome.reason
        == "won 3 against 2: moved into S2 and claimed it; Blue destroyer must retreat"
    )
    assert "must retreat" in result.outcome_for(BLUE, "HOLD S2").reason
    assert pieces(result.state) == {"S2": "red battleship"}
    assert claimed(result.state) == {"S2": "red"}
    assert result.state.phase is Phase.RETREATS
    assert [(r.sector, r.options) for r in result.retreats] == [("S2", ("S3",))]


def test_r5_2_a_won_combat_claims_even_when_empty_advances_do_not(board, play, claimed):
    """R5.2: the attacker moves in and claims the sector (whatever advance_claims_empty says,
    which is about empty sectors only)."""
    state = board(
        "line",
        units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")],
        rules=HouseRules(advance_claims_empty=False),
    )
    result = play(state, red="ADVANCE S1 S2")
    assert claimed(result.state) == {"S2": "red"}


def test_r5_2_the_defenders_craft_in_the_sector_are_destroyed(board, play, craft_at):
    """R5.2: the defender's craft in that sector are destroyed."""
    state = board(
        units=[
            ("red", "battleship", "S4"),
            ("red", "destroyer", "S1"),
            ("blue", "carrier", "S5", 1),
        ],
        craft=[("S5", "S2"), ("S5", "S5")],
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S1 S4")
    assert (result.combats[0].attack_strength, result.combats[0].defence_strength) == (5, 3)
    assert craft_at(result.state) == {"S2": ["blue"]}


# R5.3 Retreats ---------------------------------------------------------------------------


def test_r5_3_the_loser_chooses_its_retreat(board, play, pieces):
    """R5.3: Retreats are chosen by the loser's owner, after all combats."""
    state = board(units=[("red", "battleship", "S4"), ("blue", "destroyer", "S5")])
    result = play(state, red="ADVANCE S4 S5")
    assert result.state.phase is Phase.RETREATS
    (owed,) = result.retreats
    assert (owed.owner, owed.sector, owed.options) == (BLUE, "S5", ("S2", "S6", "S8"))
    after, notes = apply_retreats(result.state, {owed.unit: "s8"})
    assert pieces(after) == {"S5": "red battleship", "S8": "blue destroyer"}
    assert notes[0] == "Blue destroyer from S5 retreated to S8"
    assert after.phase is Phase.ORDERS and after.turn == 2


def test_r5_3_retreat_never_to_attackers_origin(board, play):
    """R5.3: never the sector its attacker came from (though the attacker has left it)."""
    state = board("line", units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    assert result.retreats[0].attacker_from == "S1"
    assert "S1" not in result.retreats[0].options
    with pytest.raises(StateError, match="cannot retreat to S1; its options are S3"):
        apply_retreats(result.state, {result.retreats[0].unit: "S1"})


def test_r5_3_options_are_judged_once_every_winner_has_moved_in(board, play):
    """R5.3: among adjacent sectors that hold no unit once every winning attacker has moved
    in: S6 was just taken by Red, S2 was just left by Red, S8 holds Green."""
    state = board(
        units=[
            ("blue", "destroyer", "S5"),
            ("red", "battleship", "S4"),  # beats S5
            ("red", "destroyer", "S9"),  # advances into the empty S6
            ("red", "destroyer", "S2"),  # advances into the empty S3, leaving S2
            ("green", "destroyer", "S8"),
        ]
    )
    result = play(state, red="ADVANCE S4 S5\nADVANCE S9 S6\nADVANCE S2 S3")
    (owed,) = result.retreats
    assert owed.options == ("S2",)


def test_r5_3_no_option_means_destroyed(board, play, pieces):
    """R5.3: No option: the unit is destroyed."""
    state = board(
        "line",
        units=[("red", "battleship", "S4"), ("blue", "destroyer", "S5")],
        claims={"S1": "blue"},
    )
    result = play(state, red="ADVANCE S4 S5")
    assert result.retreats[0].options == ()
    assert result.state.phase is Phase.ORDERS  # nothing to choose: the turn is over
    assert pieces(result.state) == {"S5": "red battleship"}
    assert "Blue destroyer from S5 had nowhere to retreat and was destroyed (R5.3)" in (
        result.aftermath
    )


def test_r5_3_two_retreats_into_one_sector_are_both_destroyed(board, play, pieces):
    """R5.3: Two retreats into one sector: both are destroyed."""
    state = board(
        units=[
            ("blue", "destroyer", "S4"),
            ("blue", "destroyer", "S6"),
            ("red", "battleship", "S1"),
            ("red", "battleship", "S3"),
        ]
    )
    result = play(state, red="ADVANCE S1 S4\nADVANCE S3 S6")
    options = {r.sector: r.options for r in result.retreats}
    assert options == {"S4": ("S5", "S7"), "S6": ("S5", "S9")}
    ids = {r.sector: r.unit for r in result.retreats}
    after, notes = apply_retreats(result.state, {ids["S4"]: "S5", ids["S6"]: "S5"})
    assert pieces(after) == {"S4": "red battleship", "S6": "red battleship"}
    assert sum("both were destroyed" in note for note in notes) == 2


def test_r5_3_an_unchosen_retreat_goes_to_the_lowest_sector_number(board, play, pieces):
    """R5.3: A retreat not chosen before its deadline goes to the option with the lowest
    sector number (S9 before S10: numbers, not text)."""
    state = board(
        [("S1", "S2"), ("S2", "S10"), ("S2", "S9")],
        units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")],
    )
    result = play(state, red="ADVANCE S1 S2")
    assert result.retreats[0].options == ("S9", "S10")
    after, _ = apply_retreats(result.state, {})
    assert pieces(after)["S9"] == "blue destroyer"


def test_r5_3_a_retreating_carrier_keeps_its_docked_craft(board, play, pieces):
    """R5.3 with R4.8: the retreating unit is the same unit (a carrier keeps its craft)."""
    state = board(
        units=[
            ("red", "battleship", "S4"),
            ("red", "destroyer", "S1"),
            ("blue", "carrier", "S5", 3),
        ]
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S1 S4")
    after, _ = apply_retreats(result.state, {result.retreats[0].unit: "S6"})
    assert pieces(after)["S6"] == "blue carrier (3 docked)"


# R5.4 Orphaned strike craft --------------------------------------------------------------


def _carrier_trapped_in_s1(board, *, others):
    """Blue's carrier in S1 (nothing docked, one craft out in S2 next to Blue's destroyer) is
    beaten by Red's battleship from S4 and has nowhere to go."""
    return board(
        units=[
            ("blue", "carrier", "S1", 0),
            ("blue", "destroyer", "S2"),
            ("red", "battleship", "S4"),
            *others,
        ],
        craft=[("S1", "S2")],
    )


def test_r5_4_orphaned_craft_join_a_carrier_within_one_sector(board, play):
    """R5.4: its deployed craft pass to a carrier of their empire within one sector that has
    room (lowest sector number first)."""
    state = _carrier_trapped_in_s1(
        board, others=[("blue", "carrier", "S3", 1), ("blue", "carrier", "S5", 0)]
    )
    result = play(state, red="ADVANCE S4 S1")
    assert result.retreats[0].options == ()
    after = result.state
    (craft,) = after.craft
    assert craft.sector == "S2"
    assert craft.carrier == after.unit_at["S3"].id
    assert any("joined the carrier in S3 (R5.4)" in note for note in result.aftermath)


def test_r5_4_orphaned_craft_with_no_carrier_room_are_destroyed(board, play, craft_at):
    """R5.4: none with room: destroyed."""
    state = _carrier_trapped_in_s1(board, others=[("blue", "carrier", "S3", 3)])
    result = play(state, red="ADVANCE S4 S1")
    assert craft_at(result.state) == {}
    assert any("lost its carrier and was destroyed (R5.4)" in n for n in result.aftermath)


def test_r5_4_a_destroyed_carriers_docked_craft_go_with_it(board, play, craft_at):
    """R5.4: a destroyed carrier's docked craft go with it."""
    state = board(
        "line",
        units=[
            ("red", "battleship", "S4"),
            ("red", "destroyer", "S3"),
            ("blue", "carrier", "S5", 1),
        ],
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S3 S4")
    assert result.retreats[0].options == ()
    assert [u for u in result.state.units if u.owner is BLUE] == []
    assert craft_at(result.state) == {}


@pytest.mark.parametrize(("retreat", "kept"), [("S1", {"S1": ["blue"]}), ("S3", {})])
def test_r5_4_craft_more_than_one_sector_from_every_carrier_are_destroyed(
    board, play, craft_at, retreat, kept
):
    """R5.4: then every strike craft more than one sector away from every carrier of its
    empire is destroyed (the carrier retreats next to its craft, or away from it)."""
    state = board(
        units=[("blue", "carrier", "S2", 1), ("red", "battleship", "S5")], craft=[("S2", "S1")]
    )
    result = play(state, red="ADVANCE S5 S2")
    assert result.retreats[0].options == ("S1", "S3")
    assert craft_at(result.state) == {"S1": ["blue"]}  # nothing is cleaned up before retreats
    after, _ = apply_retreats(result.state, {result.retreats[0].unit: retreat})
    assert craft_at(after) == kept
