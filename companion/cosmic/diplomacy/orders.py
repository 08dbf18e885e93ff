"""Diplomacy orders as values, in the usual notation, with symmetric parse and format.

``Order.parse("ENG: F nth Supports A lon -> bel")`` reads the forms players and the DATC write:

- hold: ``A par H`` (also ``Hold``, ``holds``)
- move: ``A par -> bur`` (also ``-``), optionally ``via Convoy``
- support: ``F nth S A lon -> bel`` / ``F nth S A lon`` (also ``Supports``)
- convoy: ``F nth C A lon -> bel`` (also ``Convoys``; the unit type may be left out)
- retreat phase: ``A par -> bur`` (retreat), ``A par disband`` (also ``D``)
- adjustments: ``A par build`` / ``Build A par``, ``A par disband`` / ``Remove A par``

Keywords are case-insensitive; places are written as region ids (``stp(nc)``) in any case. The
power prefix (``ENG:``) is optional. Text that breaks the grammar raises
:class:`~companion.errors.OrderSyntaxError` naming the column and what was expected there.
"""

from __future__ import annotations

import dataclasses
import enum
import re

from companion.cosmic.diplomacy.geography import Power, RegionId, UnitType, region_province
from companion.errors import OrderSyntaxError


class OrderKind(enum.Enum):
    """What an order asks its unit (or its power) to do."""

    HOLD = "H"
    MOVE = "->"
    SUPPORT = "S"
    CONVOY = "C"
    DISBAND = "disband"
    BUILD = "build"

    __hash__ = object.__hash__


@dataclasses.dataclass(frozen=True)
class Order:
    """One order. ``target`` is the destination of a move (or of the supported/convoyed move);
    ``other`` the supported or convoyed unit's region, ``other_type`` its type when written."""

    power: Power | None
    unit_type: UnitType
    region: RegionId
    kind: OrderKind
    target: RegionId | None = None
    other: RegionId | None = None
    other_type: UnitType | None = None
    via_convoy: bool = False

    @classmethod
    def parse(cls, text: str) -> Order:
        """Read one order; raise :class:`OrderSyntaxError` with the column on bad text."""
        return _Parser(text).order()

    @property
    def province(self) -> str:
        """The province of the ordered unit."""
        return region_province(self.region)

    def text(self) -> str:
        """The order in canonical notation (parses back to an equal order)."""
        head = f"{self.power}: " if self.power else ""
        unit = f"{self.unit_type.value} {self.region}"
        kind = self.kind
        if kind is OrderKind.HOLD:
            return f"{head}{unit} H"
        if kind is OrderKind.MOVE:
            via = " via Convoy" if self.via_convoy else ""
            return f"{head}{unit} -> {self.target}{via}"
        if kind in (OrderKind.DISBAND, OrderKind.BUILD):
            return f"{head}{unit} {kind.value}"
        other_type = f"{self.other_type.value} " if self.other_type else ""
        tail = f" -> {self.target}" if self.target else ""
        return f"{head}{unit} {kind.value} {other_type}{self.other}{tail}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Order.parse({self.text()!r})"


TOKEN = re.compile(
    r"\s*(->|-|:|[A-Za-z][A-Za-z0-9/]*(?:-[A-Za-z0-9](?![A-Za-z0-9]))?(?:\s*\(\s*[A-Za-z]+\s*\))?)"
)
"""Words may end in a one-character hyphenated suffix (``Sol-1``, ``Sol-O``: Cosmic Cluster's
spaces); any other hyphen is the move arrow, so ``lon-bel`` reads as ``lon -> bel``."""
_HOLD = {"h", "hold", "holds"}
_SUPPORT = {"s", "support", "supports"}
_CONVOY = {"c", "convoy", "convoys"}
_DISBAND = {"d", "disband", "disbands", "remove", "r"}
_BUILD = {"b", "build", "builds"}
_COAST = re.compile(r"^([a-z][a-z0-9-]*)\s*\(\s*([a-z]+)\s*\)$")


def normalise_region(word: str) -> RegionId:
    """``Spa(NC)``, ``spa(n)`` and ``spa/nc`` all become ``spa(nc)``; plain names lower case."""
    word = word.strip().lower().replace("/", "(", 1) + (")" if "/" in word else "")
    match = _COAST.match(word)
    if not match:
        return word
    name, coast = match.groups()
    if len(coast) == 1:
        coast += "c"
    return f"{name}({coast})"


class _Parser:
    """A tiny tokenizer-parser that remembers the column of every token."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, int]] = []
        position = 0
        stripped = text.rstrip()
        while position < len(stripped):
            match = TOKEN.match(stripped, position)
            if match is None or match.end() == position:
                column = (
                    position + 1 + (len(stripped[position:]) - len(stripped[position:].lstrip()))
                )
                self._fail("a word, '->' or ':'", stripped[column - 1], column)
                raise AssertionError  # unreachable: _fail raises
            self.tokens.append((match.group(1), match.start(1) + 1))
            position = match.end()
        self.index = 0

    def _fail(self, expected: str, found: str, column: int) -> None:
        raise OrderSyntaxError(expected, found=found, column=column, text=self.text)

    def _peek(self) -> str | None:
        return self.tokens[self.index][0] if self.index < len(self.tokens) else None

    def _next(self, expected: str) -> tuple[str, int]:
        if self.index >= len(self.tokens):
            self._fail(expected, "the end of the order", len(self.text.rstrip()) + 1)
        token = self.tokens[self.index]
        self.index += 1
        return token

    def _unit_type(self, expected: str = "a unit type (A or F)") -> UnitType:
        word, column = self._next(expected)
        if word.upper() not in ("A", "F"):
            self._fail(expected, repr(word), column)
        return UnitType(word.upper())

    def _place(self, expected: str = "a place (like 'bel' or 'spa(nc)')") -> RegionId:
        word, column = self._next(expected)
        if not word[0].isalpha() or word.lower() in _HOLD | _SUPPORT | _CONVOY:
            self._fail(expected, repr(word), column)
        return normalise_region(word)

    def _arrow(self) -> None:
        word, column = self._next("'->'")
        if word not in ("->", "-"):
            self._fail("'->'", repr(word), column)

    def order(self) -> Order:
        power: str | None = None
        if len(self.tokens) >= 2 and self.tokens[1][0] == ":":
            power = self._next("a power")[0].upper()
            self.index += 1
        first = self._peek()
        if (
            first is not None
            and first.lower() in _BUILD | _DISBAND
            and self.index + 1 < len(self.tokens)
        ):
            keyword = first.lower()
            self.index += 1
            unit_type = self._unit_type()
            region = self._place()
            kind = OrderKind.BUILD if keyword in _BUILD else OrderKind.DISBAND
            self._end()
            return Order(power, unit_type, region, kind)
        unit_type = self._unit_type()
        region = self._place()
        word, column = self._next("an order ('H', '->', 'S', 'C', 'build' or 'disband')")
        lower = word.lower()
        if lower in _HOLD:
            self._end()
            return Order(power, unit_type, region, OrderKind.HOLD)
        if lower in _DISBAND:
            self._end()
            return Order(power, unit_type, region, OrderKind.DISBAND)
        if lower in _BUILD:
            self._end()
            return Order(power, unit_type, region, OrderKind.BUILD)
        if word in ("->", "-"):
            destination = self._place()
            via = self._via()
            self._end()
            return Order(
                power, unit_type, region, OrderKind.MOVE, target=destination, via_convoy=via
            )
        if lower in _SUPPORT or lower in _CONVOY:
            kind = OrderKind.SUPPORT if lower in _SUPPORT else OrderKind.CONVOY
            other_type: UnitType | None = None
            peek = self._peek()
            if (peek is not None and peek.upper() in ("A", "F")) or kind is OrderKind.SUPPORT:
                other_type = self._unit_type()
            other = self._place()
            target: RegionId | None = None
            if self._peek() is not None:
                self._arrow()
                target = self._place()
            elif kind is OrderKind.CONVOY:
                self._arrow()
            self._end()
            return Order(
                power, unit_type, region, kind, target=target, other=other, other_type=other_type
            )
        self._fail("an order ('H', '->', 'S', 'C', 'build' or 'disband')", repr(word), column)
        raise AssertionError  # unreachable: _fail raises

    def _via(self) -> bool:
        peek = self._peek()
        if peek is None:
            return False
        word, column = self._next("'via Convoy' or the end of the order")
        if word.lower() != "via":
            self._fail("'via Convoy' or the end of the order", repr(word), column)
        word, column = self._next("'Convoy' after 'via'")
        if word.lower() != "convoy":
            self._fail("'Convoy' after 'via'", repr(word), column)
        return True

    def _end(self) -> None:
        if self.index < len(self.tokens):
            word, column = self.tokens[self.index]
            self._fail("the end of the order", repr(word), column)
