"""The Diplomacy engine beyond the DATC: explained results, retreat options, adjustments, the
order builder's options, and boxes (Cosmic Cluster ruling C3.4) on a small hand-made map."""

from __future__ import annotations

import random

from companion.cosmic.diplomacy.adjustments import adjudicate_adjustments, adjustment_counts
from companion.cosmic.diplomacy.geography import (
    Map,
    Province,
    Region,
    Terrain,
    UnitType,
    standard_map,
)
from companion.cosmic.diplomacy.movement import adjudicate_movement
from companion.cosmic.diplomacy.options import random_orders, starting_units, unit_options
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.retreats import adjudicate_retreats, retreat_options
from companion.cosmic.diplomacy.rules import Unit

STANDARD = standard_map()


def units(*texts: str) -> list[Unit]:
    out = []
    for text in texts:
        power, rest = text.split(": ")
        kind, region = rest.split()
        out.append(Unit(power, UnitType(kind), region))
    return out


def orders(*texts: str) -> list[Order]:
    return [Order.parse(t) for t in texts]


def test_every_unit_gets_a_result_and_a_reason() -> None:
    board = units("FRA: A par", "GER: A mun", "ENG: F lon")
    result = adjudicate_movement(STANDARD, board, orders("FRA: A par -> bur", "GER: A mun -> bur"))
    texts = [r.text() for r in result.results]
    assert texts == [
        "FRA: A par -> bur: fails (standoff in bur with mun (attack 1))",
        "GER: A mun -> bur: fails (standoff in bur with par (attack 1))",
        "ENG: F lon H: succeeds (held)",
    ]
    assert result.contested == {"bur"}


def test_an_order_for_no_unit_is_void_with_its_reason() -> None:
    result = adjudicate_movement(STANDARD, units("FRA: A par"), orders("FRA: A bre -> pic"))
    rejected = [r for r in result.results if r.void]
    assert [r.reason for r in rejected] == ["there is no unit in bre"]


def test_ordering_another_powers_unit_is_void() -> None:
    result = adjudicate_movement(STANDARD, units("FRA: A par"), orders("GER: A par -> bur"))
    assert any(r.void and "belongs to FRA" in r.reason for r in result.results)


def test_dislodged_unit_may_not_retreat_to_the_attackers_origin_or_a_standoff() -> None:
    board = units("FRA: A bur", "GER: A mun", "GER: A ruh", "ITA: A pie", "AUS: A tyr")
    movement = adjudicate_movement(
        STANDARD,
        board,
        orders(
            "GER: A mun -> bur",
            "GER: A ruh S A mun -> bur",
            "ITA: A pie -> mar",
            "AUS: A tyr -> mar",
        ),
    )
    (dislodged,) = movement.dislodged
    assert dislodged.attacker_from == "mun"
    options = retreat_options(STANDARD, movement, dislodged)
    assert "mun" not in options and "mar" not in options and "ruh" not in options
    assert set(options) == {"bel", "gas", "par", "pic"}
    retreat = adjudicate_retreats(STANDARD, movement, orders("FRA: A bur -> par"))
    assert [r.text() for r in retreat.results] == ["FRA: A bur -> par: succeeds (retreated to par)"]


def test_a_dislodged_unit_without_an_order_is_disbanded() -> None:
    board = units("FRA: A bur", "GER: A mun", "GER: A ruh")
    movement = adjudicate_movement(
        STANDARD, board, orders("GER: A mun -> bur", "GER: A ruh S A mun -> bur")
    )
    retreat = adjudicate_retreats(STANDARD, movement, [])
    assert retreat.disbanded == (Unit("FRA", UnitType.ARMY, "bur"),)


def test_adjustment_counts_are_centres_minus_units() -> None:
    owners = {"par": "FRA", "bre": "FRA", "mar": "FRA", "spa": "FRA"}
    assert adjustment_counts(STANDARD, units("FRA: A par"), owners) == {"FRA": 3}


def test_civil_disorder_disbands_the_farthest_unit_first() -> None:
    owners = {"par": "FRA"}
    result = adjudicate_adjustments(STANDARD, units("FRA: A bur", "FRA: A mos"), owners, [])
    assert result.civil_disorder == (Unit("FRA", UnitType.ARMY, "mos"),)


def test_order_builder_options_list_moves_supports_and_convoys() -> None:
    board = units("ENG: F nth", "ENG: A yor", "FRA: A bel")
    options = unit_options(STANDARD, board, board[0])
    assert "bel" in options.moves and "lon" in options.moves
    assert ("yor", "lon") in options.support_moves
    assert "bel" in options.support_holds
    assert ("yor", "nwy") in options.convoys
    assert options.kinds == (OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY)


def test_random_orders_are_legal_for_every_unit() -> None:
    start = starting_units(STANDARD)
    assert len(start) == 22
    rng = random.Random(7)
    for _ in range(50):
        given = random_orders(STANDARD, start, rng)
        result = adjudicate_movement(STANDARD, start, given)
        assert len(given) == 22
        assert not [r for r in result.results if r.void and r.order.kind is OrderKind.MOVE]


def _boxed_map() -> Map:
    provinces = [Province("a", "A"), Province("b", "B"), Province("x", "Box", box=True)]
    regions = [
        Region("a", "a", None, Terrain.SEA),
        Region("b", "b", None, Terrain.SEA),
        Region("x", "x", None, Terrain.SEA),
    ]
    borders = [("a", "x", Terrain.SEA), ("b", "x", Terrain.SEA), ("a", "b", Terrain.SEA)]
    return Map("boxed", provinces, regions, borders)


def test_moves_into_a_box_always_succeed_and_dislodge_no_one() -> None:
    game_map = _boxed_map()
    board = units("P1: F a", "P2: F b", "P3: F x")
    result = adjudicate_movement(game_map, board, orders("P1: F a -> x", "P2: F b -> x"))
    assert all(r.succeeded for r in result.results)
    assert result.dislodged == ()
    assert sorted(u.region for u in result.units) == ["x", "x", "x"]


def test_random_phases_keep_every_unit_and_one_unit_a_province() -> None:
    """Property: whatever legal orders are given, each unit ends moved, held or dislodged, and no
    two units share a province; a dislodged unit's province was entered by a successful move."""
    rng = random.Random(2026)
    start = starting_units(STANDARD)
    for _ in range(300):
        result = adjudicate_movement(STANDARD, start, random_orders(STANDARD, start, rng))
        assert len(result.units) + len(result.dislodged) == len(start)
        provinces = [u.province for u in result.units]
        assert len(provinces) == len(set(provinces))
        for dislodgement in result.dislodged:
            assert dislodgement.unit.province in provinces
