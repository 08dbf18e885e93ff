"""The named atoms of Cluster: the two colours, the two peg kinds, a peg and its height (P2)."""

from __future__ import annotations

import enum


class Colour(enum.Enum):
    """The two players (P2.1): Red at the row-a end, Blue at the far end (P2.3)."""

    RED = "r"
    BLUE = "b"

    __hash__ = object.__hash__

    title: str
    """``Red``: the colour as a sentence names it."""
    other: Colour
    """The opponent."""

    @classmethod
    def parse(cls, text: str) -> Colour:
        """``r``, ``red``, ``b`` or ``blue`` in any case; ValueError otherwise."""
        word = text.strip().lower()
        for colour in cls:
            if word in (colour.value, colour.title.lower()):
                return colour
        raise ValueError(f"{text.strip()!r} is not a colour: say red or blue")


Colour.RED.title = "Red"
Colour.BLUE.title = "Blue"
Colour.RED.other = Colour.BLUE
Colour.BLUE.other = Colour.RED


class Kind(enum.Enum):
    """A peg's kind, which never changes (P2.4)."""

    TALL = "tall"
    SHORT = "short"

    __hash__ = object.__hash__

    length: int
    """Tall 2, short 1 (P2.4)."""


Kind.TALL.length = 2
Kind.SHORT.length = 1


class Peg(enum.Enum):
    """A colour and a kind, with the letter the position text uses for it (P6.4)."""

    RED_TALL = "R"
    RED_SHORT = "r"
    BLUE_TALL = "B"
    BLUE_SHORT = "b"

    __hash__ = object.__hash__

    colour: Colour
    kind: Kind
    index: int
    """0..3: the peg's bitboard in a position (red tall, red short, blue tall, blue short)."""

    @property
    def letter(self) -> str:
        return str(self.value)

    @classmethod
    def of(cls, colour: Colour, kind: Kind) -> Peg:
        return _PEGS[colour, kind]

    def describe(self) -> str:
        """``a Blue tall peg``."""
        return f"a {self.colour.title} {self.kind.value} peg"


_PEGS: dict[tuple[Colour, Kind], Peg] = {}
for _index, (_peg, _colour, _kind) in enumerate(
    (
        (Peg.RED_TALL, Colour.RED, Kind.TALL),
        (Peg.RED_SHORT, Colour.RED, Kind.SHORT),
        (Peg.BLUE_TALL, Colour.BLUE, Kind.TALL),
        (Peg.BLUE_SHORT, Colour.BLUE, Kind.SHORT),
    )
):
    _peg.colour = _colour
    _peg.kind = _kind
    _peg.index = _index
    _PEGS[_colour, _kind] = _peg

GOAL_HEIGHT = 2
"""The height every peg of a winner stands at (P5.1)."""


def height(kind: Kind, *, deep: bool) -> int:
    """A peg's height: its length, plus 1 in a shallow hole (P2.4).

    >>> height(Kind.TALL, deep=False), height(Kind.TALL, deep=True)
    (3, 2)
    >>> height(Kind.SHORT, deep=False), height(Kind.SHORT, deep=True)
    (2, 1)
    """
    return kind.length + (0 if deep else 1)


def kind_from_height(reading: int, *, deep: bool) -> Kind | None:
    """The kind a height read off a peg shows in a hole of this depth (P2.5), or None when
    the reading is impossible there (a misreading: reported, never guessed)."""
    for kind in Kind:
        if height(kind, deep=deep) == reading:
            return kind
    return None
