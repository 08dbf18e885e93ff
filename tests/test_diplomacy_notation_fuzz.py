"""Fuzz the Diplomacy and A/F order parsers: any text either parses to an order whose canonical
text parses back to the same order, or raises OrderSyntaxError; never anything else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cosmic.afnotation import AFOrder
from companion.cosmic.diplomacy.orders import Order
from companion.errors import OrderSyntaxError

WORDS = st.sampled_from(
    ["A", "F", "A/F", "F/F", "S", "C", "H", "B", "L", "D", "E", "->", "-", ":", "via", "Convoy",
     "build", "disband", "TS1", "TS2", "TS3", "ENG", "German", "P2", "lon", "bel", "spa(nc)",
     "Sol-1", "sol-o", "nth", "x", "(", ")", "/", "9"]
)  # fmt: skip
TEXTS = st.one_of(
    st.lists(WORDS, max_size=9).map(" ".join),
    st.text(max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_standard_orders_parse_or_say_where(text: str) -> None:
    try:
        order = Order.parse(text)
    except OrderSyntaxError as error:
        assert error.column >= 1
        return
    assert Order.parse(order.text()) == order


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_af_orders_parse_or_say_where(text: str) -> None:
    try:
        order = AFOrder.parse(text, "ENG")
    except OrderSyntaxError as error:
        assert error.column >= 1
        return
    assert AFOrder.parse(order.text()) == order
