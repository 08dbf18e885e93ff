"""Claims the rulebook (seeds/local-cluster-rules.txt) makes in so many words, checked against
the engine. Each docstring quotes the rulebook; where a ruling refines the sentence, it says so.
"""

from __future__ import annotations

import random

import pytest

from companion.local_cluster import (
    BuildPlan,
    Colour,
    Game,
    OutcomeStatus,
    Phase,
    UnitType,
    apply_builds,
    income_statement,
)
from companion.local_cluster.atoms import (
    CARRIER_CAPACITY,
    HOME_MINERALS,
    MINERAL_DIE,
    REPLENISH_COST,
)
from companion.local_cluster.generation import TILES_IN_BOX, generate_layout, tile_variant

RED, BLUE = Colour.RED, Colour.BLUE


# 2 Box contents ---------------------------------------------------------------------------


def test_rulebook_48_tiles_12_of_each_of_4_shapes():
    """2: 48x Sector Tiles (12 of each of the 4 shape variants)."""
    assert TILES_IN_BOX == 48
    shapes = [tile_variant(n) for n in range(1, 49)]
    assert sorted(set(shapes)) == [0, 1, 2, 3]
    assert all(shapes.count(v) == 12 for v in range(4))


def test_rulebook_mineral_die_faces():
    """2.2: a custom 6-sided die with Mineral values ranging from 1-4 with the distribution
    1/2/2/3/3/4."""
    assert MINERAL_DIE == (1, 2, 2, 3, 3, 4)


def test_rulebook_eight_empire_colours():
    """2.3: These come in 8 colors; Red, Green, Blue, Yellow, Aqua, Purple, Pink, and White."""
    assert [c.value for c in Colour] == [
        "red",
        "green",
        "blue",
        "yellow",
        "aqua",
        "purple",
        "pink",
        "white",
    ]


@pytest.mark.parametrize(
    ("kind", "cost", "strength"),
    [
        (UnitType.DESTROYER, 4, 2),
        (UnitType.BATTLESHIP, 8, 3),
        (UnitType.CARRIER, 16, 1),
    ],
)
def test_rulebook_unit_costs_and_strengths(kind, cost, strength):
    """2.4: The Destroyer ... costs only 4 Minerals ... Combat Strength of 2. The Battleship ...
    costs 8 ... Combat Strength of 3. ... costing a significant 16 Minerals ... A Carrier on
    its own has a Combat Strength of 1."""
    assert (kind.cost, kind.strength) == (cost, strength)


def test_rulebook_a_battleship_beats_a_lone_destroyer(board, play, pieces):
    """2.4: [the Battleship has] the advantage of being able to win in a 1-on-1 engagement
    with a lone enemy Destroyer due to its Combat Strength of 3."""
    state = board("line", units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    (combat,) = result.combats
    assert (combat.attack_strength, combat.defence_strength) == (3, 2)
    assert combat.attacker_won
    assert pieces(result.state)["S2"] == "red battleship"


def test_rulebook_a_lone_destroyer_does_not_beat_a_battleship(board, play):
    """2.4: (the same engagement the other way round: 2 against 3 holds)."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "battleship", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is OutcomeStatus.LOST


def test_rulebook_a_full_carrier_has_strength_4(board, play):
    """2.4: with its full docked Strike Craft complement it has an effective Combat Strength
    of 4."""
    state = board("line", units=[("red", "carrier", "S1", 3), ("blue", "battleship", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    assert result.combats[0].attack_strength == 4
    assert result.outcome_for(RED, "ADVANCE S1 S2").status is OutcomeStatus.WON


def test_rulebook_a_new_carrier_comes_with_3_craft(board, pieces):
    """2.4: When Carriers are first built, they come with 3 Strike Craft slotted into the 3
    spaces on top of the token."""
    state = board(
        "line",
        claims={s: "red" for s in ("S1", "S2", "S3", "S4", "S5")},
        minerals={s: 4 for s in ("S1", "S2", "S3", "S4", "S5")},
        turn=2,
        phase=Phase.BUILD,
    )
    after, _ = apply_builds(state, {RED: BuildPlan.parse("BUILD carrier S3")})
    assert pieces(after) == {"S3": "red carrier (3 docked)"}
    assert CARRIER_CAPACITY == 3


def test_rulebook_replenish_is_a_flat_4(board, pieces):
    """2.4: if a Carrier loses 1 or more of its Strike Craft complement it is allowed to
    replenish its fighters to 3 for a flat cost of 4 Minerals during the Build Phase."""
    state = board(
        "line",
        units=[("red", "carrier", "S1", 0)],
        claims={"S1": "red", "S2": "red", "S3": "red"},
        minerals={"S1": 2, "S2": 3, "S3": 2},
        turn=2,
        phase=Phase.BUILD,
    )
    assert REPLENISH_COST == 4
    assert income_statement(state, RED).net == 4
    after, _ = apply_builds(state, {RED: BuildPlan.parse("REPLENISH S1")})
    assert pieces(after) == {"S1": "red carrier (3 docked)"}


def test_rulebook_craft_may_join_friendly_units(board, play, craft_at):
    """2.4: Strike Craft are free to move into Sectors that do not have an enemy Unit
    present, INCLUDING Sectors that are already occupied by friendly Unit(s)."""
    state = board(
        "line",
        units=[
            ("red", "carrier", "S2", 3),
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S3"),
        ],
    )
    result = play(state, red="DEPLOY S2 S1 S3")
    assert craft_at(result.state) == {"S1": ["red"]}
    assert result.outcome_for(RED, "DEPLOY S2 S1 S3").status is OutcomeStatus.PARTIAL


# 3 Setting up -----------------------------------------------------------------------------


def test_rulebook_six_tiles_per_player_for_2_to_8_players():
    """1 and 3.1: a strategy board game for 2-8 players ... Deal out 6 Sector Tiles to each
    player."""
    for players in (2, 8):
        assert len(generate_layout(players, random.Random(players))) == 6 * players


def test_rulebook_home_has_two_minerals_and_a_destroyer():
    """3.2: Take 2 small triangular Mineral Tokens ... Take 1 hexagonal Destroyer Unit."""
    from companion.local_cluster.generation import random_setup

    state = random_setup(3, 4)
    assert HOME_MINERALS == 2
    for empire in state.empires:
        assert state.galaxy.minerals(empire.home) == 2
        assert state.claim_map[empire.home] is empire.colour
        home_unit = state.unit_at[empire.home]
        assert (home_unit.owner, home_unit.kind) == (empire.colour, UnitType.DESTROYER)


# 4.2 Command phase ------------------------------------------------------------------------


def test_rulebook_a_unit_without_orders_holds(board, play, pieces):
    """4.2: If a Unit is not given orders, it Holds by default."""
    state = board("line", units=[("red", "destroyer", "S1")])
    assert pieces(play(state).state) == {"S1": "red destroyer"}


def test_rulebook_impossible_or_malformed_orders_hold(board, play, pieces):
    """4.2: Any Unit given impossible or malformed orders Holds instead."""
    state = board("line", units=[("red", "destroyer", "S1"), ("red", "destroyer", "S3")])
    result = play(state, red="MOVE S1 S5\nADVANCE S3")
    assert {o.status for o in result.outcomes} == {OutcomeStatus.VOID}
    assert pieces(result.state) == pieces(state)


def test_rulebook_carriers_may_combine_recall_and_deploy(board, play, craft_at):
    """4.2: Units can only execute ONE order per turn, with the exception of Carriers, which
    can combine a Recall and Deploy order in the same turn."""
    state = board("line", units=[("red", "carrier", "S2", 2)], craft=[("S2", "S1")])
    result = play(state, red="RECALL S2 S1\nDEPLOY S2 S3 S3 S3")
    assert craft_at(result.state) == {"S3": ["red", "red", "red"]}


# 4.3 Action phase -------------------------------------------------------------------------


def test_rulebook_supports_do_not_chain(board, play):
    """4.3: Supporting a Unit that is supporting another unit DOES NOT cumulatively add the
    strength of all 3 Units."""
    state = board(
        "line",
        units=[
            ("red", "battleship", "S1"),
            ("red", "destroyer", "S2"),
            ("red", "destroyer", "S3"),
            ("blue", "battleship", "S4"),
        ],
    )
    result = play(state, red="SUPPORT S1 S2\nSUPPORT S2 S3", blue="ADVANCE S4 S3")
    assert result.combats[0].defence_strength == 4  # not 2 + 2 + 3


def test_rulebook_units_may_support_other_empires(board, play):
    """4.3: Units can Support and receive Support from any other Unit, including the Units of
    other Empires."""
    state = board(
        "line",
        units=[
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S2"),
            ("green", "destroyer", "S3"),
        ],
    )
    result = play(state, blue="ADVANCE S2 S3", red="SUPPORT S1 S2")
    assert result.outcome_for(BLUE, "ADVANCE S2 S3").status is OutcomeStatus.WON


def test_rulebook_strike_craft_cannot_capture_sectors(board, play, claimed):
    """4.3: Strike Craft cannot capture Sectors on their own."""
    state = board("line", units=[("red", "carrier", "S2", 3)], claims={"S3": "blue"})
    result = play(state, red="DEPLOY S2 S1 S3")
    assert claimed(result.state) == {"S3": "blue"}


def test_rulebook_advance_into_own_unit_fails(board, play):
    """4.3: Advance Orders that move into territory occupied by your own Units fail, and your
    Unit is forced to HOLD instead."""
    state = board("line", units=[("red", "destroyer", "S1"), ("red", "destroyer", "S2")])
    outcome = play(state, red="ADVANCE S1 S2").outcome_for(RED, "ADVANCE S1 S2")
    assert outcome.status is OutcomeStatus.FAILED


def test_rulebook_claim_fails_when_forced_into_combat(board, play, claimed):
    """4.3: If the Unit attempting to claim its current Sector has not been forced into
    Combat, remove any other Empire's Claim Token ... and replace it with one of your own."""
    state = board(
        "line",
        units=[("red", "battleship", "S2"), ("blue", "destroyer", "S3")],
        claims={"S1": "blue", "S2": "blue"},
    )
    result = play(state, red="CLAIM S2", blue="ADVANCE S3 S2")
    assert claimed(result.state)["S2"] == "blue"
    result = play(state, red="CLAIM S2")
    assert claimed(result.state)["S2"] == "red"


# 4.4 Resolution phase ---------------------------------------------------------------------


def test_rulebook_defender_wins_ties(board, play, pieces):
    """4.4: If the total Combat Strength of the Holding Unit and all of its supporting Units is
    greater than or equal to [the attack], nothing happens."""
    state = board("line", units=[("red", "carrier", "S1", 1), ("blue", "destroyer", "S2")])
    result = play(state, red="ADVANCE S1 S2")
    assert (result.combats[0].attack_strength, result.combats[0].defence_strength) == (2, 2)
    assert pieces(result.state) == pieces(state)


def test_rulebook_loser_retreats_or_is_destroyed(board, play, pieces):
    """4.4: force the Holding Unit to retreat to an adjacent Sector that doesn't already have
    a Unit occupying it. If there are no valid Sectors to retreat to, the Holding Unit is
    destroyed."""
    state = board(
        "line",
        units=[("red", "battleship", "S2"), ("blue", "destroyer", "S1")],
        claims={"S5": "blue"},
    )
    result = play(state, red="ADVANCE S2 S1")
    assert result.retreats[0].options == ()
    assert pieces(result.state) == {"S1": "red battleship"}


def test_rulebook_winner_takes_the_claim(board, play, claimed):
    """4.4: move the Advancing Empire's Unit into the target Sector, remove the Empire Claim
    Token from the target Sector and replace it with the Advancing Empire's Claim Token."""
    state = board(
        "line",
        units=[("red", "battleship", "S1"), ("blue", "destroyer", "S2")],
        claims={"S2": "blue"},
    )
    result = play(state, red="ADVANCE S1 S2")
    assert claimed(result.state) == {"S2": "red"}


def test_rulebook_units_are_not_damaged_by_combat(board, play):
    """4.4: Units are not permanently damaged by Combat."""
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "battleship", "S2")])
    first = play(state, red="ADVANCE S1 S2")
    second = play(first.state, red="ADVANCE S1 S2")
    assert [c.defence_strength for c in (*first.combats, *second.combats)] == [3, 3]


def test_rulebook_losers_craft_in_the_contested_sector_are_destroyed(board, play, craft_at):
    """4.4: If the loser of a Combat had any Strike Craft in the contested Sector, destroy the
    Strike Craft."""
    state = board(
        units=[
            ("red", "battleship", "S4"),
            ("red", "destroyer", "S1"),
            ("blue", "destroyer", "S5"),
            ("blue", "carrier", "S6", 1),
        ],
        craft=[("S6", "S5"), ("S6", "S9")],
    )
    result = play(state, red="ADVANCE S4 S5\nSUPPORT S1 S4")
    assert craft_at(result.state) == {"S9": ["blue"]}


# 4.5 Build phase --------------------------------------------------------------------------


def test_rulebook_build_phase_every_second_turn(board):
    """4.5: The Build Phase only happens at the end of every second turn!"""
    game = Game(board("line", units=[("red", "destroyer", "S1")], claims={"S1": "red"}))
    phases = []
    for _ in range(4):
        game.play({})
        phases.append(game.state.phase)
        if game.state.phase is Phase.BUILD:
            game.build({})
    assert phases == [Phase.ORDERS, Phase.BUILD, Phase.ORDERS, Phase.BUILD]


def test_rulebook_upkeep_per_unit(board):
    """4.5: subtracting 1 from your raw income for each Destroyer, subtracting 2 for each
    Battleship, and subtracting 3 for each Carrier."""
    assert [t.upkeep for t in UnitType] == [1, 2, 3]
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("red", "battleship", "S2"), ("red", "carrier", "S3")],
        claims={"S1": "red", "S2": "red", "S3": "red", "S4": "red", "S5": "red"},
        minerals={"S1": 4, "S2": 4, "S3": 4, "S4": 4, "S5": 4},
    )
    assert income_statement(state, RED).net == 20 - 6


def test_rulebook_stockpile_does_not_stack(board):
    """4.5: [Stockpile] This effect DOES NOT stack if used for multiple turns in a row."""
    state = board(
        "line",
        claims={"S1": "red"},
        minerals={"S1": 3},
        stockpiled=["red"],
        turn=2,
        phase=Phase.BUILD,
    )
    again, _ = apply_builds(state, {RED: BuildPlan(stockpile=True)})
    assert income_statement(again, RED).raw == 6


def test_rulebook_remaining_minerals_are_discarded(board):
    """4.5: Any remaining Minerals from this Build Phase are discarded, they DO NOT carry over
    into the next Build Phase."""
    state = board(
        "line",
        claims={"S1": "red", "S2": "red"},
        minerals={"S1": 4, "S2": 3},
        turn=2,
        phase=Phase.BUILD,
    )
    after, _ = apply_builds(state, {RED: BuildPlan()})
    assert income_statement(after, RED).raw == 7


# 5 Winning --------------------------------------------------------------------------------


def test_rulebook_first_to_control_every_sector_wins(board, play):
    """5.1: The game is won by the first Empire to take control of every Sector in the
    galaxy."""
    state = board(
        "line",
        units=[("red", "destroyer", "S2")],
        claims={"S1": "red", "S3": "red", "S4": "red", "S5": "red"},
    )
    result = play(state, red="CLAIM S2")
    assert (result.state.phase, result.state.winner) == (Phase.OVER, RED)
