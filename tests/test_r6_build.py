"""R6 Build phase: income, upkeep, stockpiling, replenishing, building and build plans.

Build positions use the "line" map S1-S2-S3-S4-S5 with the minerals each test gives.
"""

from __future__ import annotations

import pytest

from companion.local_cluster import (
    BuildPlan,
    BuildPlanError,
    Colour,
    Game,
    OrderSyntaxError,
    Phase,
    UnitType,
    apply_builds,
    income_statement,
)
from companion.local_cluster.atoms import REPLENISH_COST
from companion.local_cluster.economy import check_plan

RED, BLUE = Colour.RED, Colour.BLUE
MINERALS = {"S1": 3, "S2": 4, "S3": 1, "S4": 2, "S5": 2}


@pytest.fixture
def build_board(board):
    """A build phase on the line map (S1 3, S2 4, S3 1, S4 2, S5 2 minerals)."""

    def make(**kwargs):
        kwargs.setdefault("minerals", MINERALS)
        return board("line", turn=2, phase=Phase.BUILD, **kwargs)

    return make


# R6 timing -------------------------------------------------------------------------------


def test_r6_build_phase_after_every_second_turn(board):
    """R6: Build phase (after every second turn: turns 2, 4, 6, ...)."""
    game = Game(board("line", units=[("red", "destroyer", "S1")], claims={"S1": "red"}))
    build_after = []
    for _ in range(6):
        turn = game.state.turn
        game.play({})
        if game.state.phase is Phase.BUILD:
            build_after.append(turn)
            game.build({})
    assert build_after == [2, 4, 6]
    assert game.state.turn == 7 and game.state.phase is Phase.ORDERS


# R6.1 Raw income -------------------------------------------------------------------------


def test_r6_1_raw_income_is_the_sum_of_claimed_minerals(build_board):
    """R6.1: Raw income = sum of the mineral values of the empire's claimed sectors."""
    state = build_board(claims={"S1": "red", "S2": "red", "S3": "red", "S4": "blue"})
    statement = income_statement(state, RED)
    assert [(line.sector, line.amount) for line in statement.sectors] == [
        ("S1", 3),
        ("S2", 4),
        ("S3", 1),
    ]
    assert (statement.base, statement.raw, statement.doubled) == (8, 8, False)


def test_r6_1_raw_income_doubles_after_a_stockpile(build_board):
    """R6.1: doubled when the empire stockpiled at its previous build phase."""
    state = build_board(claims={"S1": "red", "S2": "red"}, stockpiled=["red"])
    statement = income_statement(state, RED)
    assert (statement.base, statement.stockpile_bonus, statement.raw) == (7, 7, 14)


def test_r6_1_income_is_never_more_than_doubled(build_board):
    """R6.1: doubled ... (never more than doubled): stockpiling twice in a row still only
    doubles the next income."""
    state = build_board(claims={"S1": "red", "S2": "red"}, stockpiled=["red"])
    after, _ = apply_builds(state, {RED: BuildPlan.parse("STOCKPILE")})
    assert after.empire(RED).stockpiled
    assert income_statement(after, RED).raw == 14


# R6.2 Net income and upkeep --------------------------------------------------------------


def test_r6_2_net_is_raw_minus_upkeep(build_board):
    """R6.2: Net = raw - upkeep (destroyer 1, battleship 2, carrier 3; craft 0)."""
    state = build_board(
        units=[
            ("red", "destroyer", "S1"),
            ("red", "battleship", "S2"),
            ("red", "carrier", "S3", 1),
        ],
        craft=[("S3", "S4"), ("S3", "S4")],
        claims={"S1": "red", "S2": "red", "S3": "red", "S4": "red", "S5": "red"},
    )
    statement = income_statement(state, RED)
    assert [(line.what, line.amount) for line in statement.upkeep] == [
        ("destroyer in S1 upkeep", -1),
        ("battleship in S2 upkeep", -2),
        ("carrier in S3 upkeep", -3),
    ]
    assert (statement.raw, statement.upkeep_total, statement.net) == (12, 6, 6)


@pytest.mark.parametrize("battleships", [2, 3])
def test_r6_2_no_builds_when_net_is_zero_or_less(build_board, battleships):
    """R6.2: Net <= 0: no builds."""
    sectors = ["S1", "S2", "S3"][:battleships]
    state = build_board(
        units=[("red", "battleship", s) for s in sectors],
        claims={"S4": "red", "S5": "red"},
    )
    statement = income_statement(state, RED)
    assert statement.net == 4 - 2 * battleships and not statement.can_build
    reasons = check_plan(state, RED, BuildPlan.parse("BUILD destroyer S4"))
    assert reasons == [f"your net income is {statement.net}, so you can build nothing (R6.2)"]


def test_r6_2_no_penalty_and_units_are_kept(build_board, pieces, claimed):
    """R6.2: Net <= 0: no builds, no penalty, units are kept."""
    state = build_board(
        units=[("red", "battleship", "S1"), ("red", "battleship", "S2")],
        claims={"S3": "red"},
    )
    assert income_statement(state, RED).net == -3
    after, _ = apply_builds(state, {RED: BuildPlan()})
    assert pieces(after) == pieces(state)
    assert claimed(after) == claimed(state)
    assert after.phase is Phase.ORDERS and after.turn == 3


# R6.3 Stockpile --------------------------------------------------------------------------


def test_r6_3_stockpile_builds_nothing_and_doubles_the_next_income(build_board, pieces):
    """R6.3: Stockpile (only when net > 0): the empire builds nothing this build phase and its
    next raw income doubles."""
    state = build_board(units=[("red", "destroyer", "S1")], claims={"S1": "red", "S2": "red"})
    after, notes = apply_builds(state, {RED: BuildPlan.parse("stockpile")})
    assert pieces(after) == pieces(state)
    assert after.empire(RED).stockpiled
    assert "Red stockpiled: its next raw income doubles (R6.3)" in notes
    assert income_statement(after, RED).raw == 14


def test_r6_3_stockpile_needs_a_positive_net(build_board):
    """R6.3: Stockpile (only when net > 0)."""
    state = build_board(units=[("red", "battleship", "S1")], claims={"S3": "red"})
    reasons = check_plan(state, RED, BuildPlan.parse("STOCKPILE"))
    assert reasons == [
        "your net income is -1; you can stockpile only with a positive net income (R6.3)"
    ]
    with pytest.raises(BuildPlanError, match="Red: your net income is -1"):
        apply_builds(state, {RED: BuildPlan(stockpile=True)})


def test_r6_3_not_stockpiling_loses_the_doubling(build_board):
    """R6.3: An empire that does not stockpile loses any doubling for the next build phase."""
    state = build_board(claims={"S1": "red", "S2": "red"}, stockpiled=["red"])
    after, _ = apply_builds(state, {RED: BuildPlan.parse("BUILD destroyer S1")})
    assert not after.empire(RED).stockpiled
    assert income_statement(after, RED).raw == 7


# R6.4 Replenish --------------------------------------------------------------------------


def test_r6_4_replenish_fills_the_carrier_to_three_owned(build_board, pieces):
    """R6.4: Replenish: for 4 minerals, a carrier that owns fewer than 3 craft gets new docked
    craft until it owns 3 (docked plus deployed)."""
    state = build_board(
        units=[("red", "carrier", "S1", 1)],
        craft=[("S1", "S2")],
        claims={"S1": "red", "S2": "red"},
    )
    assert income_statement(state, RED).net == 4
    after, notes = apply_builds(state, {RED: BuildPlan.parse("REPLENISH S1")})
    assert pieces(after) == {"S1": "red carrier (2 docked)"}
    assert after.craft_owned(after.unit_at["S1"].id) == 3
    assert "Red replenished the carrier in S1 with 1 craft" in notes


def test_r6_4_replenish_is_a_flat_four_however_many_are_missing(build_board, pieces):
    """R6.4: for 4 minerals ... until it owns 3."""
    state = build_board(units=[("red", "carrier", "S1", 0)], claims={"S1": "red", "S2": "red"})
    assert REPLENISH_COST == 4
    assert BuildPlan.parse("REPLENISH S1").cost() == 4
    after, _ = apply_builds(state, {RED: BuildPlan.parse("REPLENISH S1")})
    assert pieces(after) == {"S1": "red carrier (3 docked)"}


@pytest.mark.parametrize(
    ("plan", "reason"),
    [
        ("REPLENISH S1", "the carrier in S1 already has all 3 craft"),
        ("REPLENISH S2", "you have no carrier in S2 to replenish"),
        ("REPLENISH S3", "you have no carrier in S3 to replenish"),
        ("REPLENISH S4\nREPLENISH S4", "the carrier in S4 is replenished once"),
    ],
)
def test_r6_4_only_an_own_carrier_short_of_craft_is_replenished(build_board, plan, reason):
    """R6.4: a carrier that owns fewer than 3 craft gets new docked craft."""
    state = build_board(
        units=[
            ("red", "carrier", "S1", 3),
            ("red", "destroyer", "S2"),
            ("blue", "carrier", "S3", 0),
            ("red", "carrier", "S4", 0),
        ],
        claims={"S1": "red", "S2": "red", "S4": "red", "S5": "red"},
        minerals={"S1": 4, "S2": 4, "S3": 4, "S4": 4, "S5": 4},
    )
    assert any(reason in r for r in check_plan(state, RED, BuildPlan.parse(plan)))


# R6.5 Build ------------------------------------------------------------------------------


def test_r6_5_unit_costs():
    """R6.5: Build: destroyer 4, battleship 8, carrier 16."""
    assert [t.cost for t in UnitType] == [4, 8, 16]


def test_r6_5_build_in_claimed_sectors_without_a_unit(build_board, pieces):
    """R6.5: each in a claimed sector that holds no unit; a carrier comes with 3 docked
    craft."""
    state = build_board(
        units=[("red", "destroyer", "S1")],
        claims={"S1": "red", "S2": "red", "S3": "red", "S4": "red", "S5": "red"},
        stockpiled=["red"],
        minerals={"S1": 4, "S2": 4, "S3": 4, "S4": 4, "S5": 4},
    )
    assert income_statement(state, RED).net == 39
    plan = BuildPlan.parse("BUILD carrier S2\nBUILD battleship S3\nBUILD destroyer S4")
    after, notes = apply_builds(state, {RED: plan})
    assert pieces(after) == {
        "S1": "red destroyer",
        "S2": "red carrier (3 docked)",
        "S3": "red battleship",
        "S4": "red destroyer",
    }
    assert "Red built a carrier in S2" in notes
    assert sorted(u.id for u in after.units) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("plan", "reason"),
    [
        ("BUILD destroyer S3", "you can build only in your own claimed sectors, and S3 is not one"),
        ("BUILD destroyer S1", "S1 already holds a unit; build in a sector without one (R6.5)"),
        ("BUILD destroyer S2\nBUILD destroyer S2", "only one unit can be built in S2 (R6.5)"),
        ("BUILD destroyer S9", "there is no sector S9 in this galaxy"),
        (
            "BUILD battleship S2\nBUILD destroyer S4",
            "the plan costs 12 minerals but your net income is 10 (R6.5)",
        ),
    ],
)
def test_r6_5_build_refusals_in_player_words(build_board, plan, reason):
    """R6.5: each in a claimed sector that holds no unit; one unit per sector. The total may
    not exceed net."""
    state = build_board(
        units=[("red", "destroyer", "S1")],
        claims={"S1": "red", "S2": "red", "S4": "red", "S5": "red"},
        minerals={"S1": 3, "S2": 4, "S3": 1, "S4": 2, "S5": 2},
    )
    assert income_statement(state, RED).net == 10
    assert reason in check_plan(state, RED, BuildPlan.parse(plan))


def test_r6_5_spending_exactly_the_net_is_allowed(build_board):
    """R6.5: The total may not exceed net (it may equal it)."""
    state = build_board(claims={"S1": "red", "S2": "red", "S3": "red"})
    assert income_statement(state, RED).net == 8
    plan = BuildPlan.parse("BUILD destroyer S1\nBUILD destroyer S2")
    assert check_plan(state, RED, plan) == []
    over = BuildPlan.parse("BUILD battleship S1\nBUILD destroyer S2")
    assert check_plan(state, RED, over) == [
        "the plan costs 12 minerals but your net income is 8 (R6.5)"
    ]


def test_r6_5_leftovers_vanish(build_board):
    """R6.5: Leftovers vanish (the next build phase starts from the claims again)."""
    state = build_board(claims={"S1": "red", "S2": "red"})
    assert income_statement(state, RED).net == 7
    after, _ = apply_builds(state, {RED: BuildPlan.parse("BUILD destroyer S1")})
    statement = income_statement(after, RED)
    assert (statement.raw, statement.net) == (7, 6)


# R6.6 Build plans ------------------------------------------------------------------------


def test_r6_6_plan_grammar(build_board):
    """R6.6: A build plan is lines of BUILD destroyer|battleship|carrier s, REPLENISH s (the
    carrier in s) or the single line STOCKPILE."""
    plan = BuildPlan.parse(
        "build Destroyer s4\nREPLENISH S1  # the old carrier\n\nBUILD carrier S2"
    )
    assert [(b.kind, b.sector) for b in plan.builds] == [
        (UnitType.DESTROYER, "s4"),
        (UnitType.CARRIER, "S2"),
    ]
    assert plan.replenish == ("S1",)
    assert not plan.stockpile
    assert BuildPlan.parse(plan.text()) == plan
    assert BuildPlan.parse("STOCKPILE") == BuildPlan(stockpile=True)


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        ("BUILD tank S4", 1, 7, "a unit type: destroyer, battleship or carrier"),
        ("BUILD destroyer", 1, 16, "the sector to build in"),
        ("STOCKPILE now", 1, 11, "STOCKPILE stands alone"),
        ("BUILD destroyer S1\nSELL S2", 2, 1, "BUILD, REPLENISH or STOCKPILE"),
        ("REPLENISH S1 S2", 1, 14, "the carrier's sector, then the end of the line"),
    ],
)
def test_r6_6_malformed_plans_name_line_and_column(text, line, column, expected):
    """R6.6: A build plan is lines of BUILD ..., REPLENISH ... or STOCKPILE."""
    with pytest.raises(OrderSyntaxError) as caught:
        BuildPlan.parse(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert expected in caught.value.expected


def test_r6_6_replenishments_count_against_net(build_board):
    """R6.6: replenishments count against net like builds."""
    state = build_board(
        units=[("red", "carrier", "S1", 0)],
        claims={"S1": "red", "S2": "red", "S4": "red"},
    )
    assert income_statement(state, RED).net == 6
    plan = BuildPlan.parse("REPLENISH S1\nBUILD destroyer S2")
    assert plan.cost() == 8
    assert "the plan costs 8 minerals but your net income is 6 (R6.5)" in check_plan(
        state, RED, plan
    )


def test_r6_6_stockpile_cannot_be_combined(build_board):
    """R6.6: STOCKPILE cannot be combined with anything else."""
    state = build_board(claims={"S1": "red", "S2": "red"})
    plan = BuildPlan.parse("STOCKPILE\nBUILD destroyer S1")
    assert check_plan(state, RED, plan) == [
        "STOCKPILE means building nothing; it cannot be combined (R6.6)"
    ]


# R6.7 Private, simultaneous, every figure shown ------------------------------------------


def test_r6_7_statement_shows_every_figure(build_board):
    """R6.7: show every figure behind the income (sector by sector, upkeep by unit, stockpile
    bonus)."""
    state = build_board(
        units=[("red", "destroyer", "S1"), ("red", "carrier", "S2", 3)],
        claims={"S1": "red", "S2": "red"},
        stockpiled=["red"],
    )
    rows = [" ".join(line.split()) for line in income_statement(state, RED).lines()]
    assert rows == [
        "Red income statement",
        "S1 claimed +3",
        "S2 claimed +4",
        "minerals of 2 claimed sectors 7",
        "stockpile doubling (R6.1) +7",
        "raw income 14",
        "destroyer in S1 upkeep -1",
        "carrier in S2 upkeep -3",
        "net income 10",
    ]


def test_r6_7_statement_is_the_empires_own(build_board):
    """R6.7: show every figure ... to the empire's own player only."""
    state = build_board(
        units=[("red", "destroyer", "S1"), ("blue", "battleship", "S4")],
        claims={"S1": "red", "S4": "blue", "S5": "blue"},
    )
    red = income_statement(state, RED)
    assert red.colour is RED
    assert [line.sector for line in red.sectors] == ["S1"]
    assert [line.sector for line in red.upkeep] == ["S1"]
    assert "S4" not in "\n".join(red.lines()) and "S5" not in "\n".join(red.lines())


def test_r6_7_plans_are_simultaneous(build_board, pieces):
    """R6.7: Build choices are private and simultaneous: every plan is judged on the same
    position, and the order they arrive in does not matter."""
    state = build_board(claims={"S1": "red", "S2": "red", "S4": "blue", "S5": "blue"})
    red = BuildPlan.parse("BUILD destroyer S1")
    blue = BuildPlan.parse("BUILD destroyer S5")
    one, _ = apply_builds(state, {RED: red, BLUE: blue})
    other, _ = apply_builds(state, {BLUE: blue, RED: red})
    assert one == other
    assert pieces(one) == {"S1": "red destroyer", "S5": "blue destroyer"}


def test_r6_7_a_bad_plan_names_its_empire_and_every_reason(build_board):
    """R6.7 with R6.5: each empire hears what is wrong with its own plan."""
    state = build_board(claims={"S1": "red", "S4": "blue"})
    with pytest.raises(BuildPlanError) as caught:
        apply_builds(state, {RED: BuildPlan.parse("BUILD battleship S1\nBUILD destroyer S4")})
    assert caught.value.reasons == (
        "Red: you can build only in your own claimed sectors, and S4 is not one",
        "Red: the plan costs 12 minerals but your net income is 3 (R6.5)",
    )
