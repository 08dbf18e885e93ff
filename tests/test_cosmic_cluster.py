"""Cosmic Cluster: the generated cluster (C1, C2), movement on it (C3), seasons and victory (C5)."""

from __future__ import annotations

import dataclasses

import pytest

from companion.cosmic.afmodule import AFTurnResult, adjudicate_af_turn, af_retreat_options
from companion.cosmic.afnotation import AFOrder
from companion.cosmic.cluster import (
    ClusterError,
    SystemKind,
    generate_cluster,
    jump_lines,
)
from companion.cosmic.diplomacy.geography import UnitType
from companion.cosmic.diplomacy.rules import Unit
from companion.cosmic.game import (
    CentreChange,
    ChangeReason,
    CosmicError,
    CosmicGame,
    Phase,
    Season,
    retreat_turn,
)


def test_c1_1_the_jump_line_graph_is_cubic_with_24_lines() -> None:
    lines = jump_lines()
    assert len(lines) == 24
    degree = {p: 0 for p in range(16)}
    for a, b in lines:
        degree[a] += 1
        degree[b] += 1
    assert set(degree.values()) == {3}


def test_c1_2_the_same_seed_gives_the_same_cluster() -> None:
    assert generate_cluster(3, 5).systems == generate_cluster(3, 5).systems
    assert generate_cluster(3, 5).systems != generate_cluster(4, 5).systems


@pytest.mark.parametrize("players", range(2, 10))
def test_c1_2_nine_major_six_minor_one_black_hole_for_2_to_9_players(players: int) -> None:
    cluster = generate_cluster(11, players)
    kinds = [s.kind for s in cluster.systems]
    assert kinds.count(SystemKind.HOME) == players
    assert kinds.count(SystemKind.HOME) + kinds.count(SystemKind.MAJOR) == 9
    assert kinds.count(SystemKind.MINOR) == 6
    assert kinds.count(SystemKind.BLACK_HOLE) == 1


@pytest.mark.parametrize("players", [1, 10])
def test_c1_2_player_counts_outside_2_to_9_are_refused(players: int) -> None:
    with pytest.raises(ClusterError, match="2 to 9 players"):
        generate_cluster(1, players)


@pytest.mark.parametrize("seed", range(20))
def test_c1_2_the_black_hole_is_next_to_no_home_when_that_is_possible(seed: int) -> None:
    cluster = generate_cluster(seed, 2)  # with two homes there is always room
    hole = next(s.position for s in cluster.systems if s.kind is SystemKind.BLACK_HOLE)
    homes = {s.position for s in cluster.systems if s.kind is SystemKind.HOME}
    assert not any({a, b} & {hole} and {a, b} & homes for a, b in jump_lines())


def test_c2_centres_and_starting_units() -> None:
    cluster = generate_cluster(3, 5)
    home = cluster.home_of("P1")
    assert home.centres == tuple(f"{home.key}-{k}" for k in (1, 4, 5, 8))
    assert len(cluster.map.supply_centres) == 5 * 4 + 4 * 3 + 6
    units = [u.text() for u in cluster.starting_units() if u.power == "P1"]
    key = home.key
    assert units == [f"P1: A {key}-1", f"P1: A {key}-4", f"P1: F {key}-5", f"P1: F {key}-o"]


def test_c2_1_major_planet_is_a_ring_with_the_extra_border_1_5() -> None:
    cluster = generate_cluster(3, 5)
    key = cluster.home_of("P1").key
    assert sorted(cluster.map.army_moves[f"{key}-1"]) == [f"{key}-2", f"{key}-5", f"{key}-8"]


def test_c2_4_the_black_hole_is_entered_from_three_boxes_and_left_to_all() -> None:
    cluster = generate_cluster(3, 5)
    hole = next(s for s in cluster.systems if s.kind is SystemKind.BLACK_HOLE)
    entries = [r for r, moves in cluster.map.fleet_moves.items() if hole.box in moves]
    assert len(entries) == 3
    assert len(cluster.map.fleet_moves[hole.box]) == 15


def test_c3_armies_stay_on_their_planet_and_fleets_never_cross_surface_to_surface() -> None:
    cluster = generate_cluster(3, 5)
    key = cluster.home_of("P1").key
    assert f"{key}-o" not in cluster.map.army_moves[f"{key}-1"]
    assert f"{key}-2" not in cluster.map.fleet_moves[f"{key}-1"]
    assert sorted(cluster.map.fleet_moves[f"{key}-1"]) == [f"{key}-o"]


def test_c3_4_boxes_hold_any_number_of_units_without_standoff() -> None:
    cluster = generate_cluster(3, 2)
    home = cluster.home_of("P1")
    assert home.orbit is not None
    neighbour = sorted(r for r in cluster.map.fleet_moves[home.box] if r.endswith("-b"))[0]
    units = [
        Unit("P1", UnitType.FLEET, home.orbit),
        Unit("P2", UnitType.FLEET, neighbour),
        Unit("P2", UnitType.FLEET, home.box),
    ]
    orders = [
        AFOrder.parse(f"P1: F {home.orbit} -> {home.box}"),
        AFOrder.parse(f"P2: F {neighbour} -> {home.box}"),
    ]
    turn = adjudicate_af_turn(cluster.map, units, orders)
    assert all(r.succeeded for r in turn.results)
    assert [u.region for u in turn.units] == [home.box] * 3
    assert turn.dislodged == ()


def test_c5_1_the_first_year_is_4001_spring() -> None:
    game = CosmicGame(3, 5)
    assert (game.position.year, game.position.season, game.position.phase) == (
        4001,
        Season.SPRING,
        Phase.ORDERS,
    )


def test_orders_in_the_wrong_phase_are_refused_and_change_nothing() -> None:
    game = CosmicGame(3, 5)
    with pytest.raises(CosmicError, match="waits for orders"):
        game.play_adjustments({})
    with pytest.raises(CosmicError, match="no power 'P7'"):
        game.play_orders({"P7": "A x-1 H"})
    assert game.steps == [] and game.position == game.initial


def _occupy(game: CosmicGame, power: str, centre: str) -> None:
    units = [u for u in game.position.units if u.region != centre]
    units.append(Unit(power, UnitType.ARMY, centre))
    game.position = dataclasses.replace(game.position, units=tuple(units))


def test_c5_2_spring_raid_makes_an_occupied_foreign_centre_unowned() -> None:
    game = CosmicGame(3, 5)
    centre = f"{game.cluster.home_of('P2').key}-8"
    _occupy(game, "P1", centre)
    step = game.play_orders({})
    assert centre not in game.position.owner_map
    assert any("spring raid" in note for note in step.result["notes"])


def test_c5_2_ownership_changes_only_after_fall() -> None:
    game = CosmicGame(3, 5)
    neutral = next(c for s in game.cluster.systems if s.kind is SystemKind.MINOR for c in s.centres)
    _occupy(game, "P1", neutral)
    game.play_orders({})
    assert neutral not in game.position.owner_map
    game.play_orders({})
    assert game.position.owner_map[neutral] == "P1"


def test_a_spring_raid_is_listed_as_a_centre_change_with_its_reason() -> None:
    game = CosmicGame(3, 5)
    centre = f"{game.cluster.home_of('P2').key}-8"
    _occupy(game, "P1", centre)
    step = game.play_orders({})
    assert step.result["centres"] == [
        {"centre": centre, "before": "P2", "after": None, "why": "spring raid"}
    ]
    assert game.centre_changes() == [CentreChange(centre, "P2", None, ChangeReason.SPRING_RAID)]


def test_fall_ownership_is_listed_as_a_centre_change_from_the_old_owner() -> None:
    game = CosmicGame(3, 5)
    neutral = next(c for s in game.cluster.systems if s.kind is SystemKind.MINOR for c in s.centres)
    _occupy(game, "P1", neutral)
    assert game.play_orders({}).result["centres"] == []  # a neutral centre: no raid
    step = game.play_orders({})
    assert step.result["centres"] == [
        {"centre": neutral, "before": None, "after": "P1", "why": "fall ownership"}
    ]
    assert game.position.season is Season.SPRING  # 5 centres, 5 units: no Winter
    game.play_orders({})
    assert game.centre_changes() == []  # the latest season changed nothing


def test_c5_4_two_players_reaching_18_together_both_win() -> None:
    game = CosmicGame(5, 9)
    centres = sorted(game.map.supply_centres)
    owners = {c: ("P1" if i % 2 else "P2") for i, c in enumerate(centres[:34])}
    fall = dataclasses.replace(
        game.position,
        season=Season.FALL,
        owners=tuple(sorted(owners.items())),
        units=(
            Unit("P1", UnitType.ARMY, centres[34]),
            Unit("P2", UnitType.ARMY, centres[35]),
        ),
    )
    game.position = fall
    step = game.play_orders({})
    assert game.position.phase is Phase.OVER
    assert game.position.winners == ("P1", "P2")
    assert "win" in step.result["notes"][-1]


def test_c5_3_missing_disbands_are_made_in_civil_disorder() -> None:
    game = CosmicGame(3, 2)
    home = game.cluster.home_of("P1")
    owners = dict(game.position.owners)
    for centre in home.centres[1:]:
        del owners[centre]
    game.position = dataclasses.replace(
        game.position,
        season=Season.WINTER,
        phase=Phase.ADJUSTMENTS,
        owners=tuple(sorted(owners.items())),
    )
    assert game.adjustments_due()["P1"] == -3
    step = game.play_adjustments({})
    assert len(step.result["civil_disorder"]) == 3
    assert (game.position.year, game.position.season) == (4002, Season.SPRING)


def _fight(game: CosmicGame) -> str:
    """P1's armies on P2's planet attack P2's army on 1 (with support): returns that space."""
    key = game.cluster.home_of("P2").key
    units = [u for u in game.position.units if u.power != "P1"]
    units += [Unit("P1", UnitType.ARMY, f"{key}-2"), Unit("P1", UnitType.ARMY, f"{key}-8")]
    game.position = dataclasses.replace(game.position, units=tuple(units))
    game.play_orders({"P1": f"A {key}-2 -> {key}-1\nA {key}-8 S A {key}-2 -> {key}-1"})
    return f"{key}-1"


def test_a_dislodged_unit_without_a_retreat_order_is_disbanded() -> None:
    game = CosmicGame(3, 2)
    space = _fight(game)
    assert game.position.phase is Phase.RETREATS
    assert [x.unit.region for x in game.position.lifted] == [space]
    step = game.play_retreats({})
    assert step.result["disbanded"] == [f"P2: A {space}"]
    assert game.position.phase is Phase.ORDERS and game.position.season is Season.FALL


def test_a_retreat_to_an_occupied_space_fails_and_a_disband_order_disbands() -> None:
    game = CosmicGame(3, 2)
    space = _fight(game)
    key = space.removesuffix("-1")
    step = game.play_retreats({"P2": f"A {space} -> {key}-5"})
    assert step.result["orders"][0]["succeeded"] is False  # P2's fleet stands on 5
    game = CosmicGame(3, 2)
    _fight(game)
    step = game.play_retreats({"P2": f"A {space} disband"})
    assert step.result["orders"][0]["reason"] == "disbanded as ordered"


# C3.5 Support into and out of system boxes ----------------------------------------------------
#
# Seed 0 with 2 players: Castor is a neutral major system; castor-o touches castor-1..8 and
# castor-b; castor-b is joined to sirius-b, polaris-b and arcturus-b (the Black Hole).

BOX_CLUSTER = generate_cluster(0, 2)


def _units(*texts: str) -> list[Unit]:
    """``"P1: F castor-b"``, ``"P2: A/F castor-o"`` (own army) or ``"P2: A/F castor-o P1"``."""
    units = []
    for text in texts:
        power, rest = text.split(": ")
        kind, region, *cargo = rest.split()
        if kind == "A/F":
            units.append(Unit(power, UnitType.FLEET, region, cargo[0] if cargo else power))
        else:
            units.append(Unit(power, UnitType(kind), region))
    return units


def _turn(units: list[Unit], *orders: str) -> tuple[dict[str, tuple[bool, str]], AFTurnResult]:
    turn = adjudicate_af_turn(BOX_CLUSTER.map, units, [AFOrder.parse(o) for o in orders])
    return {r.order.written: (r.succeeded, r.reason) for r in turn.results}, turn


def test_c3_5_a_unit_in_a_box_can_be_supported_in_its_move_out_of_it() -> None:
    """C3.5: support follows Diplomacy; a unit standing in a box can be supported in its move
    out of it (the issue's case: the A/F in the orbit is dislodged)."""
    units = _units("P1: F castor-b", "P1: F castor-5", "P2: A/F castor-o")
    results, turn = _turn(
        units, "P1: F castor-b -> castor-o", "P1: F castor-5 S F castor-b -> castor-o"
    )
    assert results["P1: F castor-5 S F castor-b -> castor-o"] == (True, "support given")
    assert results["P1: F castor-b -> castor-o"] == (True, "moved to castor-o")
    assert [(x.unit.text(), x.attacker_from) for x in turn.dislodged] == [
        ("P2: A/F castor-o", "castor-b")
    ]


def test_c3_5_an_unsupported_move_out_of_a_box_bounces() -> None:
    """C3.5 (the control case): without the support, attack 1 against hold 1 bounces."""
    units = _units("P1: F castor-b", "P1: F castor-5", "P2: A/F castor-o")
    results, turn = _turn(units, "P1: F castor-b -> castor-o")
    assert results["P1: F castor-b -> castor-o"][0] is False
    assert turn.dislodged == ()


def test_c3_5_the_supported_unit_is_found_among_several_in_a_box() -> None:
    """C3.5: a box may hold several units of several powers; the support goes to the one whose
    order it matches (here P2's fleet, not P1's holding one, which comes first on the board)."""
    units = _units("P1: F castor-b", "P2: F castor-b", "P2: F castor-5", "P1: A/F castor-o")
    results, turn = _turn(
        units,
        "P1: F castor-b H",
        "P2: F castor-b -> castor-o",
        "P2: F castor-5 S F castor-b -> castor-o",
    )
    assert results["P2: F castor-5 S F castor-b -> castor-o"] == (True, "support given")
    assert results["P2: F castor-b -> castor-o"] == (True, "moved to castor-o")
    assert [x.unit.text() for x in turn.dislodged] == ["P1: A/F castor-o"]


def test_c3_5_a_unit_in_a_box_can_be_supported_to_hold_and_nothing_changes() -> None:
    """C3.5: supporting into a box is legal and changes nothing (a unit in a box is never
    dislodged anyway, C3.4)."""
    units = _units("P1: F castor-b", "P1: F castor-o", "P2: F sirius-b")
    results, turn = _turn(units, "P1: F castor-o S F castor-b", "P2: F sirius-b -> castor-b")
    assert results["P1: F castor-o S F castor-b"] == (True, "support given")
    assert results["P2: F sirius-b -> castor-b"] == (True, "moved to castor-b")
    assert turn.dislodged == ()


def test_c3_5_support_of_a_move_into_a_box_is_legal_and_changes_nothing() -> None:
    """C3.5: supporting into a box is legal (the supporter can move there) and changes
    nothing: the move succeeds as it would alone, and nobody in the box is dislodged."""
    units = _units("P1: F sirius-b", "P1: F castor-o", "P2: F castor-b")
    results, turn = _turn(
        units, "P1: F sirius-b -> castor-b", "P1: F castor-o S F sirius-b -> castor-b"
    )
    assert results["P1: F castor-o S F sirius-b -> castor-b"] == (True, "support given")
    assert results["P1: F sirius-b -> castor-b"] == (True, "moved to castor-b")
    assert turn.dislodged == ()
    assert sorted(u.text() for u in turn.units) == [
        "P1: F castor-b",
        "P1: F castor-o",
        "P2: F castor-b",
    ]


def test_c3_5_the_supporter_must_be_able_to_move_where_the_support_is_given() -> None:
    """C3.5: the supporter must be able to move to the space where the support is given: a
    fleet on castor-5 reaches castor-o but not castor-b, so its support into the box is void,
    and so is an army's support of the box's move into the orbit."""
    units = _units("P1: F sirius-b", "P1: F castor-5", "P1: A castor-4", "P1: F castor-b")
    results, _ = _turn(
        units,
        "P1: F castor-5 S F sirius-b -> castor-b",
        "P1: A castor-4 S F castor-b -> castor-o",
    )
    supported, why = results["P1: F castor-5 S F sirius-b -> castor-b"]
    assert not supported and "castor-5 cannot reach castor-b" in why
    supported, why = results["P1: A castor-4 S F castor-b -> castor-o"]
    assert not supported and "castor-4 cannot reach castor-o" in why


def test_c3_5_a_support_naming_nobody_in_the_box_is_void() -> None:
    """C3.5: the support still needs the unit it names: an empty box has none to support."""
    results, _ = _turn(_units("P1: F castor-o"), "P1: F castor-o S F castor-b")
    supported, why = results["P1: F castor-o S F castor-b"]
    assert not supported and "there is no other unit in castor-b to support" in why


# C4.2 A/Fs exist only in orbits and boxes ---------------------------------------------------


def _dislodged_af_game() -> CosmicGame:
    """Seed 0, 2 players: P1's supported fleet from castor-b dislodges P2's A/F in castor-o,
    whose planet castor-1..8 is empty, so only C4.2 keeps the A/F off its surface."""
    game = CosmicGame(0, 2)
    units = _units("P1: F castor-b", "P1: F castor-5", "P2: A/F castor-o")
    game.position = dataclasses.replace(game.position, units=tuple(units))
    game.play_orders({"P1": "F castor-b -> castor-o\nF castor-5 S F castor-b -> castor-o"})
    assert game.position.phase is Phase.RETREATS
    return game


def test_c4_2_a_dislodged_af_retreats_only_to_sea() -> None:
    """C4.2: A/Fs exist only in orbits and boxes, so a dislodged A/F in an orbit is offered no
    space on its planet's surface (only the box: C3.4 always takes a retreat)."""
    game = _dislodged_af_game()
    (lifted,) = game.position.lifted
    options = af_retreat_options(game.map, retreat_turn(game.position), lifted)
    assert options == ("castor-b",)
    assert game.position.to_dict(game.cluster)["retreats"][0]["options"] == ["castor-b"]


def test_c4_2_a_retreat_of_an_af_onto_the_surface_fails_and_it_disbands() -> None:
    """C4.2: a retreat order naming a surface space is not open to an A/F: it is disbanded."""
    game = _dislodged_af_game()
    step = game.play_retreats({"P2": "F castor-o -> castor-1"})
    (order,) = step.result["orders"]
    assert order["succeeded"] is False and "not open to this retreat" in order["reason"]
    assert step.result["disbanded"] == ["P2: A/F castor-o"]
    assert not any(u.region.startswith("castor-") and u.power == "P2" for u in game.position.units)


def test_c4_2_a_dislodged_fleet_without_an_army_may_still_retreat_to_the_surface() -> None:
    """C4.2 concerns A/Fs only: a plain fleet in an orbit may still retreat onto its planet
    (a surface space is coastal land, C3.1)."""
    game = CosmicGame(0, 2)
    units = _units("P1: F castor-b", "P1: F castor-5", "P2: F castor-o")
    game.position = dataclasses.replace(game.position, units=tuple(units))
    game.play_orders({"P1": "F castor-b -> castor-o\nF castor-5 S F castor-b -> castor-o"})
    (lifted,) = game.position.lifted
    options = af_retreat_options(game.map, retreat_turn(game.position), lifted)
    assert "castor-1" in options and "castor-b" in options and "castor-5" not in options


def test_c4_2_an_af_retreat_is_written_in_af_notation() -> None:
    """C4.2 with the module's notation: `A/F castor-o -> castor-b` is the A/F's retreat, as
    `A/F` is the notation of its movement orders (and `F castor-o -> castor-b` still works)."""
    for written in ("A/F castor-o -> castor-b", "P2: A/F castor-o -> castor-b"):
        game = _dislodged_af_game()
        step = game.play_retreats({"P2": written})
        assert step.result["syntax_errors"] == []
        (order,) = step.result["orders"]
        assert order["succeeded"] is True and order["reason"] == "retreated to castor-b"
        assert Unit("P2", UnitType.FLEET, "castor-b", "P2") in game.position.units
    game = _dislodged_af_game()
    game.play_retreats({"P2": "F castor-o -> castor-b"})
    assert Unit("P2", UnitType.FLEET, "castor-b", "P2") in game.position.units


def test_c4_2_an_af_may_be_disbanded_in_af_notation() -> None:
    """C4.2: `A/F castor-o disband` disbands the dislodged A/F, army and all."""
    game = _dislodged_af_game()
    step = game.play_retreats({"P2": "A/F castor-o disband"})
    assert step.result["orders"][0]["reason"] == "disbanded as ordered"
    assert step.result["disbanded"] == ["P2: A/F castor-o"]


def test_c4_2_af_notation_for_a_fleet_without_an_army_is_refused() -> None:
    """`A/F x` names a fleet with an army aboard: for a plain fleet the line is refused with
    the reason, and the fleet (with no valid retreat) disbands."""
    game = CosmicGame(0, 2)
    units = _units("P1: F castor-b", "P1: F castor-5", "P2: F castor-o")
    game.position = dataclasses.replace(game.position, units=tuple(units))
    game.play_orders({"P1": "F castor-b -> castor-o\nF castor-5 S F castor-b -> castor-o"})
    step = game.play_retreats({"P2": "A/F castor-o -> castor-b"})
    (error,) = step.result["syntax_errors"]
    assert "there is no A/F in castor-o" in error["error"]
    assert step.result["disbanded"] == ["P2: F castor-o"]


def test_c4_2_the_table_accepts_an_af_retreat_in_af_notation() -> None:
    """The table service's check of a retreat submission reads `A/F` too, and refuses a
    surface space with the options it offers."""
    from companion.cosmic.session import CosmicClusterSession
    from companion.service.session import SubmissionError

    game = _dislodged_af_game()
    session = CosmicClusterSession(game)
    seat = 2
    assert session.check_submission(seat, "A/F castor-o -> castor-b") == "F castor-o -> castor-b"
    with pytest.raises(SubmissionError, match="retreat to one of castor-b"):
        session.check_submission(seat, "A/F castor-o -> castor-1")
