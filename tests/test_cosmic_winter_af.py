"""Ruling C5.3 with the A/F module: in Winter an army aboard a fleet is a unit of its own power.

It counts for that power, that power may disband it (``A x disband``, ``x`` the fleet's space:
the fleet stays), civil disorder may pick it, and a fleet disbanded takes its army along (module
section C.4). Seed 3 with two players: P1 at Antares, P2 at Capella, each starting with armies
on 1 and 4 and fleets on 5 and in orbit, and owning 1, 4, 5 and 8.
"""

from __future__ import annotations

import dataclasses
import random

from companion.cosmic.corrections import Correction
from companion.cosmic.diplomacy.adjustments import adjudicate_adjustments
from companion.cosmic.diplomacy.geography import UnitType
from companion.cosmic.diplomacy.orders import Order
from companion.cosmic.diplomacy.rules import Unit
from companion.cosmic.game import CosmicGame, Phase, Season
from companion.cosmic.record import load_record, record_json

A, F = UnitType.ARMY, UnitType.FLEET


def _game() -> CosmicGame:
    game = CosmicGame(3, 2)
    assert game.cluster.home_of("P1").key == "antares"
    assert game.cluster.home_of("P2").key == "capella"
    return game


def _winter(game: CosmicGame, aboard: dict[str, Unit], lost: tuple[str, ...] = ()) -> CosmicGame:
    """Winter 4001 with the starting units, except that the army standing on each key of
    ``aboard`` is instead aboard the fleet given for it, and the centres ``lost`` unowned."""
    units = [u for u in game.position.units if u.region not in aboard]
    carriers = {(f.power, f.region) for f in aboard.values()}
    units = [u for u in units if (u.power, u.region) not in carriers] + list(aboard.values())
    owners = {c: p for c, p in game.position.owners if c not in lost}
    game.position = dataclasses.replace(
        game.position,
        season=Season.WINTER,
        phase=Phase.ADJUSTMENTS,
        units=tuple(units),
        owners=tuple(sorted(owners.items())),
    )
    return game


OWN_AF = {"antares-1": Unit("P1", F, "antares-o", "P1")}
"""P1's army from antares-1 aboard P1's own fleet in orbit: an A/F of one power."""
P2_ON_P1 = {"capella-1": Unit("P1", F, "antares-o", "P2")}
"""P2's army from capella-1 aboard P1's fleet in Antares orbit: an international A/F."""


def _units(game: CosmicGame, power: str) -> list[str]:
    return sorted(u.text() for u in game.position.units if power in (u.power, u.cargo))


def _result(step_result: dict[str, object], index: int = 0) -> dict[str, object]:
    orders = step_result["orders"]
    assert isinstance(orders, list)
    result = orders[index]
    assert isinstance(result, dict)
    return result


# Counting ----------------------------------------------------------------------------------


def test_c5_3_an_army_aboard_counts_for_its_own_power() -> None:
    game = _winter(_game(), P2_ON_P1)
    # P1: four centres, four units (the fleet carrying P2's army is one of them); P2: four
    # centres, three units of its own and its army aboard P1's fleet.
    assert game.adjustments_due() == {"P1": 0, "P2": 0}


def test_c5_3_an_army_aboard_another_powers_fleet_is_disbanded_when_its_power_has_no_centres() -> (
    None
):
    game = _winter(_game(), P2_ON_P1, lost=("capella-1", "capella-4", "capella-5", "capella-8"))
    game.position = dataclasses.replace(
        game.position, units=tuple(u for u in game.position.units if u.power != "P2")
    )
    assert game.adjustments_due() == {"P1": 0, "P2": -1}
    step = game.play_adjustments({})
    assert step.result["civil_disorder"] == ["P2: A antares-o"]
    assert Unit("P1", F, "antares-o") in game.position.units
    assert _units(game, "P2") == []


def test_c5_3_own_af_counts_as_two_units() -> None:
    game = _winter(_game(), OWN_AF)
    assert game.adjustments_due() == {"P1": 0, "P2": 0}


def test_c5_3_an_own_af_made_in_the_year_leaves_no_build_in_winter() -> None:
    game = _game()
    game.play_orders({"P1": "TS1 A antares-1 B F antares-o"})
    assert ("P1", "antares-o", "P1") in {(u.power, u.region, u.cargo) for u in game.position.units}
    game.play_orders({})
    # Four centres, four units (an A/F is two): no Winter, straight on to Spring 4002.
    assert (game.position.year, game.position.season) == (4002, Season.SPRING)


# Disbands by order -------------------------------------------------------------------------


def test_c5_3_an_army_aboard_its_own_fleet_is_disbanded_and_the_fleet_stays() -> None:
    game = _winter(_game(), OWN_AF, lost=("antares-8",))
    assert game.adjustments_due()["P1"] == -1
    step = game.play_adjustments({"P1": "A antares-o disband"})
    assert _result(step.result) == {
        "power": "P1",
        "order": "P1: A antares-o disband",
        "succeeded": True,
        "reason": "disbanded the army aboard its own fleet in antares-o; the fleet stays",
    }
    assert step.result["civil_disorder"] == []
    assert _units(game, "P1") == ["P1: A antares-4", "P1: F antares-5", "P1: F antares-o"]


def test_c5_3_an_army_aboard_another_powers_fleet_is_disbanded_by_its_own_power() -> None:
    game = _winter(_game(), P2_ON_P1, lost=("capella-8",))
    assert game.adjustments_due() == {"P1": 0, "P2": -1}
    step = game.play_adjustments({"P2": "A antares-o disband"})
    assert _result(step.result)["reason"] == (
        "disbanded the army aboard P1's fleet in antares-o; the fleet stays"
    )
    assert Unit("P1", F, "antares-o") in game.position.units
    assert _units(game, "P2") == ["P2: A capella-4", "P2: F capella-5", "P2: F capella-o"]


def test_c5_3_disbanding_the_fleet_of_an_own_af_takes_its_army_as_a_second_disband() -> None:
    game = _winter(_game(), OWN_AF, lost=("antares-4", "antares-8"))
    assert game.adjustments_due()["P1"] == -2
    step = game.play_adjustments({"P1": "F antares-o disband"})
    assert _result(step.result)["reason"] == "disbanded antares-o with its army aboard"
    assert step.result["civil_disorder"] == []
    assert _units(game, "P1") == ["P1: A antares-4", "P1: F antares-5"]


def test_c5_3_the_fleet_of_an_own_af_is_not_disbanded_for_a_single_disband() -> None:
    game = _winter(_game(), OWN_AF, lost=("antares-8",))
    step = game.play_adjustments({"P1": "F antares-o disband"})
    result = _result(step.result)
    assert result["succeeded"] is False
    assert result["reason"] == (
        "the fleet in antares-o carries P1's own army, which would go with it: 2 units, and "
        "P1 has 1 disband left (to keep the fleet, disband the army aboard: A antares-o disband)"
    )
    # The disband is then made in civil disorder: the army aboard, farthest at sea.
    assert step.result["civil_disorder"] == ["P1: A antares-o"]


def test_c5_3_a_fleet_disbanded_with_a_foreign_army_counts_it_as_one_of_its_owners_disbands() -> (
    None
):
    game = _winter(_game(), P2_ON_P1, lost=("antares-8", "capella-8"))
    assert game.adjustments_due() == {"P1": -1, "P2": -1}
    step = game.play_adjustments({"P1": "F antares-o disband"})
    assert _result(step.result)["reason"] == (
        "disbanded antares-o with P2's army aboard (one of P2's disbands)"
    )
    assert step.result["civil_disorder"] == []  # P2 owes nothing more
    assert _units(game, "P2") == ["P2: A capella-4", "P2: F capella-5", "P2: F capella-o"]


def test_c5_3_a_fleet_disbanded_with_a_foreign_army_is_a_loss_beyond_a_count_that_is_met() -> None:
    game = _winter(_game(), P2_ON_P1, lost=("antares-8",))
    assert game.adjustments_due() == {"P1": -1, "P2": 0}
    step = game.play_adjustments({"P1": "F antares-o disband"})
    assert _result(step.result)["reason"] == (
        "disbanded antares-o with P2's army aboard (P2 had no disbands left to make: a loss "
        "beyond its count)"
    )
    assert _units(game, "P2") == ["P2: A capella-4", "P2: F capella-5", "P2: F capella-o"]


def test_c5_3_an_army_disbanded_by_its_power_and_its_fleet_by_the_other_whichever_comes_first() -> (
    None
):
    game = _winter(_game(), P2_ON_P1, lost=("antares-8", "capella-8"))
    position = game.position
    orders = [Order.parse("P2: A antares-o disband"), Order.parse("P1: F antares-o disband")]
    outcomes = [
        adjudicate_adjustments(game.map, position.units, position.owner_map, sequence)
        for sequence in (orders, orders[::-1])
    ]
    assert outcomes[0].units == outcomes[1].units
    assert {u.region for u in outcomes[0].units} >= {"capella-4", "capella-o"}
    assert "antares-o" not in {u.region for u in outcomes[0].units}
    assert all(r.succeeded for outcome in outcomes for r in outcome.results)
    assert outcomes[0].civil_disorder == outcomes[1].civil_disorder == ()


# Civil disorder ----------------------------------------------------------------------------


def test_c5_3_civil_disorder_disbands_an_army_aboard_before_its_fleet() -> None:
    game = _winter(_game(), OWN_AF, lost=("antares-8",))
    step = game.play_adjustments({})
    # The orbit is one move from the nearest owned centre, every other unit stands on one.
    assert step.result["civil_disorder"] == ["P1: A antares-o"]
    assert Unit("P1", F, "antares-o") in game.position.units


def test_c5_3_civil_disorder_disbands_the_army_then_the_fleet_of_an_own_af() -> None:
    game = _winter(_game(), OWN_AF, lost=("antares-4", "antares-8"))
    step = game.play_adjustments({})
    # At distance 1: the army aboard and its fleet (at sea, before armies), then A antares-4.
    assert step.result["civil_disorder"] == ["P1: A antares-o", "P1: F antares-o"]
    assert _units(game, "P1") == ["P1: A antares-4", "P1: F antares-5"]


def test_c5_3_civil_disorder_picks_an_army_aboard_another_powers_fleet() -> None:
    game = _winter(_game(), P2_ON_P1, lost=("capella-8",))
    step = game.play_adjustments({})
    # P2's army in Antares orbit is far from Capella; P1's fleet stays, empty.
    assert step.result["civil_disorder"] == ["P2: A antares-o"]
    assert Unit("P1", F, "antares-o") in game.position.units


def test_c5_3_civil_disorder_of_a_fleet_carrying_a_foreign_army_takes_the_army_too() -> None:
    # P1's starting units and a fifth: its fleet in the Capella box carrying P2's army.
    game = _winter(_game(), {"capella-1": Unit("P1", F, "capella-b", "P2")})
    assert game.adjustments_due() == {"P1": -1, "P2": 0}
    step = game.play_adjustments({})
    # P1's farthest unit is its fleet in the Capella box; P2's army goes with it.
    assert step.result["civil_disorder"] == ["P1: A/F capella-b (P2 army)"]
    assert _units(game, "P2") == ["P2: A capella-4", "P2: F capella-5", "P2: F capella-o"]


def test_c5_3_civil_disorder_with_armies_aboard_does_not_depend_on_the_order_of_units() -> None:
    game = _winter(
        _game(),
        {**OWN_AF, "capella-1": Unit("P2", F, "capella-o", "P2")},
        lost=("antares-4", "antares-8", "capella-8"),
    )
    position = game.position
    expected = adjudicate_adjustments(game.map, position.units, position.owner_map, [])
    assert [u.text() for u in expected.civil_disorder] == [
        "P1: A antares-o",
        "P1: F antares-o",
        "P2: A capella-o",
    ]
    rng = random.Random(5)
    for _ in range(20):
        units = list(position.units)
        rng.shuffle(units)
        again = adjudicate_adjustments(game.map, units, position.owner_map, [])
        assert again.civil_disorder == expected.civil_disorder
        assert sorted(again.units, key=repr) == sorted(expected.units, key=repr)


# Records -----------------------------------------------------------------------------------


def test_c5_3_a_winter_with_armies_aboard_replays_from_its_record() -> None:
    game = _game()
    game.play_orders({"P1": "TS1 A antares-1 B F antares-o"})  # an own A/F
    game.correct(Correction.parse("PLACE P1 A/F antares-b P2", "P2's army rode along"))
    game.correct(Correction.parse("REMOVE capella-1", "that army is the one aboard"))
    game.correct(Correction.parse("CLAIM antares-8 none", "P1 lost it"))
    game.play_orders({})
    assert game.position.phase is Phase.ADJUSTMENTS
    # P1: three centres, five units (the A/F is two, the fleet in the box one); P2: four
    # centres, three units of its own and its army in the box.
    assert game.adjustments_due() == {"P1": -2, "P2": 0}
    step = game.play_adjustments({"P1": "A antares-o disband\nF antares-b disband"})
    assert [r["succeeded"] for r in step.result["orders"]] == [True, True]
    assert _units(game, "P2") == ["P2: A capella-4", "P2: F capella-5", "P2: F capella-o"]
    text = record_json(game)
    replayed = load_record(text)
    assert replayed.position == game.position
    assert record_json(replayed) == text
