"""What a player does on a turn, as text both ways (K2.4, K3.5, K3.14).

* A placement: a card, white space, a cell: ``B-tr-da-3 2,-1`` (K2.4).
* A "no legal move" declaration (K3.13, K3.14): with the ``hand`` check, the card to discard
  and the whole hand, ``discard B-tr-so-1 hand B-tr-da-2 B-sq-da-3 B-ci-so-3 B-ci-ho-2
  B-tr-so-1``; with the ``table`` check, just ``discard``.
* Once accepted, a declaration becomes a :class:`Discard`, the only part of it kept (the rest
  of an entered hand is not stored, K3.15): ``discard B-tr-so-1`` or ``discard``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from companion.clustered.cards import Card, ColourCode
from companion.clustered.cells import Cell
from companion.clustered.errors import NotationError


@dataclasses.dataclass(frozen=True)
class Placement:
    card: Card
    cell: Cell

    def __post_init__(self) -> None:
        if self.card.is_start:
            raise NotationError("a start card is never placed (K4.2)")

    def text(self) -> str:
        return f"{self.card.text()} {self.cell.text()}"

    def __repr__(self) -> str:
        return f"Placement.parse({self.text()!r})"

    @classmethod
    def parse(cls, text: str, codes: Iterable[ColourCode] | None = None) -> Placement:
        parts = text.strip().split(None, 1)
        if len(parts) != 2:
            raise NotationError(
                f"{text!r} is not a placement: write the card, a space and the cell, like "
                "B-tr-da-3 2,-1 (K2.4)"
            )
        card = Card.parse(parts[0], codes)
        if card.is_start:
            raise NotationError(f"{text!r}: a start card is never placed (K4.2)")
        return cls(card, Cell.parse(parts[1]))


@dataclasses.dataclass(frozen=True)
class Discard:
    """A forced discard (K3.5): the card, or None when the table names no discards."""

    card: Card | None = None

    def text(self) -> str:
        return "discard" if self.card is None else f"discard {self.card.text()}"

    def __repr__(self) -> str:
        return f"Discard.parse({self.text()!r})"

    @classmethod
    def parse(cls, text: str, codes: Iterable[ColourCode] | None = None) -> Discard:
        found = re.fullmatch(r"(?i:discard)(?:\s+(\S+))?", text.strip())
        if found is None:
            raise NotationError(f"{text!r} is not a discard: write discard or discard CARD")
        return cls(None if found[1] is None else Card.parse(found[1], codes))


@dataclasses.dataclass(frozen=True)
class Declaration:
    """A "no legal move" declaration as entered on a phone or at the table screen."""

    discard: Card | None = None
    hand: tuple[Card, ...] | None = None

    def text(self) -> str:
        out = "discard" if self.discard is None else f"discard {self.discard.text()}"
        if self.hand is not None:
            out += " hand " + " ".join(card.text() for card in self.hand)
        return out

    def move(self) -> Discard:
        """What is kept of it once accepted (K3.15)."""
        return Discard(self.discard)

    @classmethod
    def parse(cls, text: str, codes: Iterable[ColourCode] | None = None) -> Declaration:
        words = text.split()
        if not words or words[0].lower() != "discard":
            raise NotationError(f"{text!r} is not a declaration: it starts with discard")
        rest = words[1:]
        discard = None
        if rest and rest[0].lower() != "hand":
            discard = Card.parse(rest[0], codes)
            rest = rest[1:]
        hand = None
        if rest:
            if rest[0].lower() != "hand":
                raise NotationError(
                    f"{text!r}: after the card to discard comes 'hand' and your whole hand, "
                    "like discard B-tr-so-1 hand B-tr-da-2 B-sq-da-3 B-tr-so-1 (K3.14)"
                )
            hand = tuple(Card.parse(word, codes) for word in rest[1:])
        return cls(discard, hand)


def parse_turn(text: str, codes: Iterable[ColourCode] | None = None) -> Placement | Declaration:
    """A placement or a declaration, whichever the text is."""
    if text.strip().lower().startswith("discard"):
        return Declaration.parse(text, codes)
    return Placement.parse(text, codes)
