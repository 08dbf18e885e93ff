"""The cards on the table: which card lies in which cell (K2), start cards included.

A :class:`Layout` is a value: placing a card gives a new layout. It also reads and writes the
rulings' diagrams (K6.11): rows from north to south, ``.`` empty, ``*`` a start card, an
uppercase letter a card of that colour, a lowercase letter a wild card of that colour.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from companion.clustered.cards import START, Card, ColourCode, Fill, Shape
from companion.clustered.cells import Cell, reading_order
from companion.clustered.errors import NotationError


class Layout(Mapping[Cell, Card]):
    """Cards by cell; every start card is in it from the start (K1.6)."""

    __slots__ = ("_cards",)

    def __init__(self, cards: Mapping[Cell, Card] | None = None) -> None:
        self._cards: dict[Cell, Card] = dict(cards or {})

    @classmethod
    def starting(cls, start_cells: tuple[Cell, ...]) -> Layout:
        return cls(dict.fromkeys(start_cells, START))

    def __getitem__(self, cell: Cell) -> Card:
        return self._cards[cell]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Layout):
            return self._cards == other._cards
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._cards.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"Cell({c.x}, {c.y}): {card!r}" for c, card in self.in_order())
        return f"Layout({{{inner}}})"

    def placed(self, cell: Cell, card: Card) -> Layout:
        """A new layout with ``card`` in ``cell`` (legality is :mod:`.legality`'s business)."""
        cards = dict(self._cards)
        cards[cell] = card
        return Layout(cards)

    def removed(self, cell: Cell) -> Layout:
        cards = dict(self._cards)
        del cards[cell]
        return Layout(cards)

    def in_order(self) -> list[tuple[Cell, Card]]:
        """Every (cell, card) in reading order (north to south, west to east)."""
        return sorted(self._cards.items(), key=lambda item: reading_order(item[0]))

    @property
    def starts(self) -> tuple[Cell, ...]:
        return tuple(sorted((c for c, card in self._cards.items() if card.is_start)))

    def cells_of(self, colour: ColourCode) -> frozenset[Cell]:
        """The cells holding cards of ``colour`` (a wild card counts as its colour, K6.1)."""
        return frozenset(c for c, card in self._cards.items() if card.colour == colour)

    def colours(self) -> list[ColourCode]:
        return sorted({card.colour for card in self._cards.values() if card.colour is not None})

    def bounds(self) -> tuple[int, int, int, int]:
        """``(x_min, x_max, y_min, y_max)`` of the cards (0, 0, 0, 0 when empty)."""
        if not self._cards:
            return (0, 0, 0, 0)
        xs = [c.x for c in self._cards]
        ys = [c.y for c in self._cards]
        return (min(xs), max(xs), min(ys), max(ys))

    def transformed(self, move: Callable[[Cell], Cell]) -> Layout:
        """The whole layout moved cell by cell (a rotation or a mirror image)."""
        return Layout({move(cell): card for cell, card in self._cards.items()})

    # Diagrams (K6.11) ----------------------------------------------------------------------------

    def diagram(self, *, header: bool = True) -> str:
        """The layout as a K6.11 diagram, with the ``y\\x`` header by default."""
        if not self._cards:
            return ""
        x_min, x_max, y_min, y_max = self.bounds()
        width = max(len(str(v)) for v in (x_min, x_max, y_min, y_max)) + 1
        lines = []
        if header:
            lines.append(
                "y\\x".rjust(width) + "".join(str(x).rjust(width) for x in range(x_min, x_max + 1))
            )
        for y in range(y_max, y_min - 1, -1):
            row = "".join(
                _symbol(self._cards.get(Cell(x, y))).rjust(width) for x in range(x_min, x_max + 1)
            )
            lines.append((str(y).rjust(width) if header else "") + row)
        return "\n".join(line.rstrip() for line in lines)

    @classmethod
    def from_diagram(cls, text: str) -> Layout:
        """A layout from a K6.11 diagram with its ``y\\x`` header line (as in the rulings).

        Diagrams say only whose each card is: an uppercase letter becomes an attribute card of
        that colour (three hollow squares: scoring ignores attributes), a lowercase one a wild
        card of that colour.
        """
        rows = [line for line in text.strip("\n").splitlines() if line.strip()]
        head = rows[0].split()
        if not head or head[0] != "y\\x":
            raise NotationError("a diagram starts with a 'y\\x' header line of x values")
        xs = [int(v) for v in head[1:]]
        cards: dict[Cell, Card] = {}
        for row in rows[1:]:
            items = row.split()
            y, symbols = int(items[0]), items[1:]
            if len(symbols) != len(xs):
                raise NotationError(
                    f"diagram row {row.strip()!r} has {len(symbols)} cells, the header {len(xs)}"
                )
            for x, symbol in zip(xs, symbols, strict=True):
                card = _card(symbol)
                if card is not None:
                    cards[Cell(x, y)] = card
        return cls(cards)


def _symbol(card: Card | None) -> str:
    if card is None:
        return "."
    if card.colour is None:
        return "*"
    return card.colour.lower() if card.is_wild else card.colour


def _card(symbol: str) -> Card | None:
    if symbol == ".":
        return None
    if symbol == "*":
        return START
    if not re.fullmatch(r"[A-Za-z]", symbol):
        raise NotationError(f"{symbol!r} is not a diagram symbol (. * or a letter, K6.11)")
    if symbol.islower():
        return Card.wild(symbol.upper())
    return Card.attribute(symbol, Shape.SQUARE, Fill.HOLLOW, 3)


# Rotations and mirror images of the whole table (the score does not change, K6) -----------------

TRANSFORMS: dict[str, Callable[[Cell], Cell]] = {
    "identity": lambda c: c,
    "rotate90": lambda c: Cell(-c.y, c.x),
    "rotate180": lambda c: Cell(-c.x, -c.y),
    "rotate270": lambda c: Cell(c.y, -c.x),
    "mirror_x": lambda c: Cell(-c.x, c.y),
    "mirror_y": lambda c: Cell(c.x, -c.y),
    "mirror_diagonal": lambda c: Cell(c.y, c.x),
    "mirror_antidiagonal": lambda c: Cell(-c.y, -c.x),
}
"""The eight symmetries of the square grid."""
