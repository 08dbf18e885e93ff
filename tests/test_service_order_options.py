"""What a phone's order builder may offer: each unit's possible orders with their legal targets,
and a build phase's legal sectors, all decided by the rules core (the web shows them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.local_cluster import Colour, HouseRules, Phase, State
from companion.local_cluster.orders import OrderKind, OrderSheet
from companion.local_cluster.session import build_options, order_options
from companion.local_cluster.settings import SupportRange
from companion.local_cluster.validation import assign_orders


def _orders(state: State, colour: str = "red") -> dict[str, dict[str, dict[str, Any]]]:
    return {
        unit["sector"]: {o["kind"]: o for o in unit["orders"]}
        for unit in order_options(state, Colour.parse(colour))
    }


def test_move_offers_only_empty_neighbours_and_advance_every_neighbour(
    board: Callable[..., State],
) -> None:
    state = board("grid", units=[("red", "destroyer", "S5"), ("blue", "destroyer", "S2")])
    red = _orders(state)["S5"]
    assert red["MOVE"]["targets"] == ["S4", "S6", "S8"]
    assert red["ADVANCE"]["targets"] == ["S2", "S4", "S6", "S8"]
    assert red["HOLD"]["targets"] == [] and red["CLAIM"]["max"] == 0


def test_support_reaches_anywhere_only_under_that_house_rule(board: Callable[..., State]) -> None:
    near = board("line", units=[("red", "destroyer", "S1")])
    assert _orders(near)["S1"]["SUPPORT"]["targets"] == ["S2"]
    anywhere = board(
        "line",
        units=[("red", "destroyer", "S1")],
        rules=HouseRules(support_range=SupportRange.ANY),
    )
    assert _orders(anywhere)["S1"]["SUPPORT"]["targets"] == ["S2", "S3", "S4", "S5"]


def test_a_carrier_deploys_up_to_its_docked_craft_and_recalls_what_is_out(
    board: Callable[..., State],
) -> None:
    docked = board("line", units=[("red", "carrier", "S2", 2)])
    assert _orders(docked)["S2"]["DEPLOY"] == {
        "kind": "DEPLOY",
        "targets": ["S1", "S3"],
        "min": 1,
        "max": 2,
        "about": OrderKind.DEPLOY.summary(),  # what the kind does, for the order builder
    }
    assert "RECALL" not in _orders(docked)["S2"]
    out = board("line", units=[("red", "carrier", "S2", 1)], craft=[("S2", "S3"), ("S2", "S3")])
    options = _orders(out)["S2"]
    assert options["RECALL"]["targets"] == ["S3"] and options["RECALL"]["max"] == 2
    assert "MOVE" not in options  # a carrier with craft out cannot move (R4.2)


def test_a_carrier_that_can_recall_is_offered_a_deploy_beside_it_r3_2(
    board: Callable[..., State],
) -> None:
    """R3.2: a carrier may have one RECALL and one DEPLOY; the DEPLOY may send the craft the
    RECALL brings back as well as those docked."""
    state = board("line", units=[("red", "carrier", "S2", 1)], craft=[("S2", "S3"), ("S2", "S3")])
    (carrier,) = order_options(state, Colour.RED)
    assert carrier["deploy_with_recall"] == {
        "kind": "DEPLOY",
        "targets": ["S1", "S3"],
        "min": 1,
        "max": 3,
        "about": OrderKind.DEPLOY.summary(),
    }
    assert _orders(state)["S2"]["DEPLOY"]["max"] == 1  # alone, only the docked one


def test_a_carrier_with_every_craft_out_may_deploy_only_beside_a_recall(
    board: Callable[..., State],
) -> None:
    state = board("line", units=[("red", "carrier", "S2", 0)], craft=[("S2", "S1")])
    (carrier,) = order_options(state, Colour.RED)
    assert "DEPLOY" not in _orders(state)["S2"]
    assert carrier["deploy_with_recall"]["max"] == 1


def test_a_carrier_with_nothing_to_recall_has_no_pair_to_offer(
    board: Callable[..., State],
) -> None:
    state = board("line", units=[("red", "carrier", "S2", 2), ("red", "destroyer", "S4")])
    assert all("deploy_with_recall" not in unit for unit in order_options(state, Colour.RED))


def test_the_offered_pair_stands_together_when_submitted(board: Callable[..., State]) -> None:
    state = board("line", units=[("red", "carrier", "S2", 1)], craft=[("S2", "S3"), ("S2", "S3")])
    sheet = OrderSheet.parse("RECALL S2 S3 S3\nDEPLOY S2 S1 S1 S1")
    assignment = assign_orders(state, Colour.RED, sheet)
    assert [e.void for e in assignment.entries()] == [None, None]
    assert assignment.replaced == []


def test_only_the_empires_own_units_are_offered(board: Callable[..., State]) -> None:
    state = board("line", units=[("red", "destroyer", "S1"), ("blue", "destroyer", "S5")])
    assert list(_orders(state, "blue")) == ["S5"]


def test_build_options_name_claimed_sectors_without_a_unit_and_carriers_to_fill(
    board: Callable[..., State],
) -> None:
    state = board(
        "line",
        units=[("red", "destroyer", "S1"), ("red", "carrier", "S2", 1)],
        claims={"S1": "red", "S2": "red", "S3": "red"},
        minerals={"S3": 4},
        phase=Phase.BUILD,
        turn=2,
    )
    options = build_options(state, Colour.RED)
    assert options["sectors"] == ["S3"]
    assert options["replenish"] == ["S2"]
    assert options["net"] == 1 + 1 + 4 - 1 - 3
