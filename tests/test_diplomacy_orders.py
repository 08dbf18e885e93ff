"""Diplomacy order notation: parse and format round-trip, and errors that say where and what."""

from __future__ import annotations

import pytest

from companion.cosmic.diplomacy.geography import UnitType
from companion.cosmic.diplomacy.orders import Order, OrderKind, normalise_region
from companion.errors import OrderSyntaxError


@pytest.mark.parametrize(
    "text",
    [
        "ENG: F nth -> pic",
        "A par H",
        "FRA: A gas -> mar via Convoy",
        "ENG: F nth S A lon -> bel",
        "GER: A mun S A ber",
        "ENG: F nth C A lon -> bel",
        "RUS: F stp(nc) build",
        "FRA: A par disband",
    ],
)
def test_canonical_text_parses_back_to_the_same_order(text: str) -> None:
    order = Order.parse(text)
    assert Order.parse(order.text()) == order
    assert order.text() == text


def test_long_keywords_and_case_are_accepted() -> None:
    order = Order.parse("eng: f NTH Supports a Lon - Bel")
    assert order == Order.parse("ENG: F nth S A lon -> bel")
    assert order.kind is OrderKind.SUPPORT and order.other_type is UnitType.ARMY


def test_convoy_may_leave_out_the_army_letter() -> None:
    assert Order.parse("F nth convoys lon -> bel").other == "lon"


def test_build_may_come_first() -> None:
    assert Order.parse("RUS: Build F stp(sc)") == Order.parse("RUS: F stp(sc) build")


@pytest.mark.parametrize("written", ["spa(nc)", "SPA(NC)", "spa/nc", "spa(n)"])
def test_coasts_are_written_several_ways(written: str) -> None:
    assert normalise_region(written) == "spa(nc)"


@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        ("ENG: F nth S", 13, "a unit type (A or F)"),
        ("A lon -> ", 9, "a place"),
        ("A lon x bel", 7, "an order"),
        ("Q lon H", 1, "a unit type"),
        ("A lon -> bel via foo", 18, "'Convoy' after 'via'"),
        ("A lon H extra", 9, "the end of the order"),
    ],
)
def test_syntax_errors_name_the_column_and_what_was_expected(
    text: str, column: int, expected: str
) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        Order.parse(text)
    assert caught.value.column == column
    assert expected in caught.value.expected
