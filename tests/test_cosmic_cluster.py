"""Cosmic Cluster: the generated cluster (C1, C2), movement on it (C3), seasons and victory (C5)."""

from __future__ import annotations

import dataclasses

import pytest

from companion.cosmic.afmodule import adjudicate_af_turn
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
