"""Running one case of the DATC in its JSON form (``tests/data/datc/datc.json``) on the engine.

A case gives a phase (``Main``, ``Retreat`` or ``Build``), the orders written ``ENG: F nth -> pic``
and each order's expected result (``Succeeds``, ``Fails`` or null for "not checked"). Units not
listed in ``starting_state`` are read off the orders. A retreat case carries the movement phase
before it; a build case gives ``occupiers`` (who owns which centre, before the units listed claim
the centres they stand on) and the units expected to disband in civil disorder.

:func:`run_case` returns the mismatches as sentences; an empty list means the case passes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cosmic.diplomacy.adjustments import adjudicate_adjustments
from companion.cosmic.diplomacy.geography import Map, standard_map
from companion.cosmic.diplomacy.movement import MovementResult, adjudicate_movement
from companion.cosmic.diplomacy.orders import Order
from companion.cosmic.diplomacy.retreats import adjudicate_retreats
from companion.cosmic.diplomacy.rules import Edition, OrderResult, RuleSettings, Unit
from companion.errors import CompanionError


class CaseError(CompanionError, ValueError):
    """A DATC case that cannot be read."""


@dataclasses.dataclass(frozen=True)
class CaseOutcome:
    """What the engine did with a case, and where that differs from what the case expects."""

    results: tuple[OrderResult, ...]
    mismatches: tuple[str, ...]
    civil_disorder: tuple[Unit, ...] = ()


def parse_unit(text: str) -> Unit:
    """``"RUS: F stp(sc)"`` as a unit."""
    power, _, rest = text.partition(": ")
    kind, _, region = rest.partition(" ")
    if not power or kind not in ("A", "F") or not region:
        raise CaseError(f"not a unit position: {text!r}")
    order = Order.parse(f"{power}: {kind} {region} H")
    return Unit(power, order.unit_type, order.region)


def _units_for(orders: Sequence[Order], starting: Sequence[str] | None) -> list[Unit]:
    if starting is not None:
        return [parse_unit(text) for text in starting]
    units: dict[str, Unit] = {}
    for order in orders:
        assert order.power is not None
        units.setdefault(order.region, Unit(order.power, order.unit_type, order.region))
    return list(units.values())


def _compare(
    expected: Mapping[str, str | None],
    orders: Sequence[Order],
    results: Sequence[OrderResult],
    phase: str,
) -> list[str]:
    mismatches = []
    by_order: dict[Order, OrderResult] = {}
    for result in results:
        by_order.setdefault(result.order, result)
    for (text, want), order in zip(expected.items(), orders, strict=True):
        if want is None:
            continue
        found = by_order.get(order)
        if found is None:
            mismatches.append(f"{phase}: no result for {text!r}")
            continue
        got = "Succeeds" if found.succeeded else "Fails"
        if got != want:
            mismatches.append(f"{phase}: {text!r} expected {want}, got {got} ({found.reason})")
    return mismatches


def _movement(
    case: Mapping[str, Any], rules: RuleSettings, game_map: Map
) -> tuple[MovementResult, list[str]]:
    expected: Mapping[str, str | None] = case["orders"]
    orders = [Order.parse(text) for text in expected]
    units = _units_for(orders, case.get("starting_state"))
    outcome = adjudicate_movement(game_map, units, orders, rules)
    return outcome, _compare(expected, orders, outcome.results, "movement")


def run_case(case: Mapping[str, Any], game_map: Map | None = None) -> CaseOutcome:
    """Run one case; the edition is the case's own, the 2023 rulebook when it names none.

    A case the engine cannot even read (an unknown place, say) comes back as one mismatch."""
    try:
        return _run(case, game_map or standard_map())
    except CompanionError as error:
        return CaseOutcome((), (f"cannot run the case: {error}",))


def _run(case: Mapping[str, Any], game_map: Map) -> CaseOutcome:
    edition = case.get("edition")
    rules = RuleSettings(Edition(edition)) if edition else RuleSettings()
    phase = case["phase"]
    if phase == "Main":
        outcome, mismatches = _movement(case, rules, game_map)
        return CaseOutcome(outcome.results, tuple(mismatches))
    if phase == "Retreat":
        movement, mismatches = _movement(case["preceding_main_phase"], rules, game_map)
        expected = case["orders"]
        orders = [Order.parse(text) for text in expected]
        retreat = adjudicate_retreats(game_map, movement, orders)
        mismatches += _compare(expected, orders, retreat.results, "retreat")
        return CaseOutcome(movement.results + retreat.results, tuple(mismatches))
    if phase == "Build":
        units = [parse_unit(text) for text in case.get("starting_state", [])]
        owners = {p.id: p.home_of for p in game_map.provinces.values() if p.home_of is not None}
        owners.update(case.get("occupiers", {}))
        for unit in units:
            if game_map.provinces[unit.province].supply_centre:
                owners[unit.province] = unit.power
        expected = case["orders"]
        orders = [Order.parse(text) for text in expected]
        result = adjudicate_adjustments(game_map, units, owners, orders, rules)
        mismatches = _compare(expected, orders, result.results, "adjustment")
        for text in case.get("civil_disorder", []):
            unit = parse_unit(text)
            if unit not in result.civil_disorder:
                got = ", ".join(u.text() for u in result.civil_disorder) or "nothing"
                mismatches.append(f"civil disorder: expected {text} to disband, got {got}")
        return CaseOutcome(result.results, tuple(mismatches), result.civil_disorder)
    raise CaseError(f"unknown phase {phase!r} in case {case.get('name')!r}")
