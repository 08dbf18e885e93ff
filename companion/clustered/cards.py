"""Cards and their notation (K1).

A card is an attribute card (a colour, a shape, a fill and a number), a wild card of a colour,
or a start card (black, nobody's). Notation (K1.7, K1.8): ``B-tr-da-3``, ``B-wild``,
``start``; input is case-insensitive, output canonical, and parsing a canonical text then
formatting it gives it back (K1.8). Colour is no attribute (K1.1): it says whose card it is.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterable

from companion.clustered.errors import NotationError

ColourCode = str
"""A colour's one-letter code, uppercase (``"B"``); the palette names it (K1.5)."""


class Shape(enum.Enum):
    SQUARE = "sq"
    TRIANGLE = "tr"
    CIRCLE = "ci"

    @property
    def word(self) -> str:
        return self.name.lower()


class Fill(enum.Enum):
    HOLLOW = "ho"
    DASHED = "da"
    SOLID = "so"

    @property
    def word(self) -> str:
        return self.name.lower()


_SHAPES = {shape: index for index, shape in enumerate(Shape)}
_FILLS = {fill: index for index, fill in enumerate(Fill)}
NUMBERS = (1, 2, 3)
ATTRIBUTES = ("shape", "fill", "number")
"""The three attributes of K1.1, in the order reports name them."""


@dataclasses.dataclass(frozen=True)
class Card:
    """One card. Build them with :meth:`attribute`, :meth:`wild` or :data:`START`."""

    colour: ColourCode | None
    shape: Shape | None = None
    fill: Fill | None = None
    number: int | None = None
    is_wild: bool = False
    signature: int = dataclasses.field(default=-1, init=False, repr=False, compare=False)
    """The attribute combination as 0..26 (shape, fill, number); -1 for a wild or start card.
    Two cards of different colours may share one."""

    def __post_init__(self) -> None:
        attributes = (self.shape, self.fill, self.number)
        if self.shape is not None and self.fill is not None and self.number is not None:
            signature = _SHAPES[self.shape] * 9 + _FILLS[self.fill] * 3 + self.number - 1
            object.__setattr__(self, "signature", signature)
        if self.colour is None:
            if self.is_wild or any(a is not None for a in attributes):
                raise ValueError("a start card has no colour, no attributes and is not wild")
            return
        if not (len(self.colour) == 1 and "A" <= self.colour <= "Z"):
            raise ValueError(f"a colour code is one letter A-Z, not {self.colour!r}")
        if self.is_wild:
            if any(a is not None for a in attributes):
                raise ValueError("a wild card has no attributes")
        elif self.shape is None or self.fill is None or self.number not in NUMBERS:
            raise ValueError("an attribute card has a shape, a fill and a number 1 to 3")

    @classmethod
    def attribute(cls, colour: ColourCode, shape: Shape, fill: Fill, number: int) -> Card:
        return cls(colour, shape, fill, number)

    @classmethod
    def wild(cls, colour: ColourCode) -> Card:
        return cls(colour, is_wild=True)

    @property
    def is_start(self) -> bool:
        return self.colour is None

    @property
    def is_plain(self) -> bool:
        """An attribute card (neither wild nor start)."""
        return self.colour is not None and not self.is_wild

    def text(self) -> str:
        """The canonical notation (K1.8)."""
        if self.colour is None:
            return "start"
        if self.is_wild:
            return f"{self.colour}-wild"
        assert self.shape is not None and self.fill is not None
        return f"{self.colour}-{self.shape.value}-{self.fill.value}-{self.number}"

    def words(self) -> str:
        """The card in words: ``"blue card with three dashed triangles"`` needs the palette's
        names, so this says ``"three dashed triangles"``, ``"wild card"`` or ``"start card"``."""
        if self.colour is None:
            return "start card"
        if self.is_wild:
            return "wild card"
        assert self.shape is not None and self.fill is not None and self.number is not None
        count = ("one", "two", "three")[self.number - 1]
        plural = "s" if self.number > 1 else ""
        return f"{count} {self.fill.word} {self.shape.word}{plural}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Card.parse({self.text()!r})"

    @classmethod
    def parse(cls, text: str, codes: Iterable[ColourCode] | None = None) -> Card:
        """A card from its notation (K1.7), or NotationError quoting the text (K1.10).

        ``codes`` are the colour codes of the table's palette (K1.5); a code outside it is a
        notation error. Without ``codes`` any letter is a colour code.
        """
        found = _CARD.fullmatch(text.strip())
        if found is None:
            raise NotationError(
                f"{text!r} is not a card: write a card as colour-shape-fill-number "
                "(B-tr-da-3, shapes sq tr ci, fills ho da so, numbers 1-3), a wild card as "
                "B-wild, the start card as start (K1.7)"
            )
        if found["start"]:
            return START
        colour = found["colour"].upper()
        if codes is not None:
            allowed = sorted({c.upper() for c in codes})
            if colour not in allowed:
                raise NotationError(
                    f"{text!r} is not a card: there is no colour {colour!r} at this table "
                    f"(the colours are {' '.join(allowed)}) (K1.5)"
                )
        if found["wild"]:
            return cls.wild(colour)
        return cls.attribute(
            colour, Shape(found["shape"].lower()), Fill(found["fill"].lower()), int(found["n"])
        )


_CARD = re.compile(
    r"(?P<start>(?i:start))"
    r"|(?P<colour>[A-Za-z])-(?:(?P<wild>(?i:wild))"
    r"|(?P<shape>(?i:sq|tr|ci))-(?P<fill>(?i:ho|da|so))-(?P<n>[123]))"
)

START = Card(None)
"""A start card (K1.6): black, nobody's; one or two lie on the table from the start."""


def shared(a: Card, b: Card) -> tuple[str, ...]:
    """The attributes (of :data:`ATTRIBUTES`) two attribute cards have in common."""
    return tuple(
        name
        for name in ATTRIBUTES
        if getattr(a, name) is not None and getattr(a, name) == getattr(b, name)
    )


def compatible(a: Card, b: Card) -> bool:
    """K4.7: either card is wild or a start card, or they share two of the three
    attributes. Colour plays no part (K4.8)."""
    if not (a.is_plain and b.is_plain):
        return True
    return len(shared(a, b)) >= 2


def deck(colour: ColourCode, wilds: int = 2) -> tuple[Card, ...]:
    """A deck of one colour (K1.2, K1.3): the 27 attribute cards and ``wilds`` wild cards."""
    if not 0 <= wilds <= 3:
        raise ValueError(f"a deck holds at most 3 wild cards, not {wilds} (K1.3)")
    plain = tuple(
        Card.attribute(colour, shape, fill, number)
        for shape in Shape
        for fill in Fill
        for number in NUMBERS
    )
    return plain + (Card.wild(colour),) * wilds


def from_signature(colour: ColourCode, signature: int) -> Card:
    """The attribute card of ``colour`` whose :attr:`Card.signature` is ``signature``."""
    shape, rest = divmod(signature, 9)
    fill, number = divmod(rest, 3)
    return Card.attribute(colour, list(Shape)[shape], list(Fill)[fill], number + 1)


def _compatible_masks() -> tuple[int, ...]:
    cards = [from_signature("A", s) for s in range(27)]
    return tuple(
        sum(1 << other.signature for other in cards if compatible(card, other)) for card in cards
    )


COMPATIBLE_MASKS = _compatible_masks()
"""Per signature, the bit set of the signatures it may lie next to (K4.7)."""
ALL_SIGNATURES = (1 << 27) - 1
