"""What the camera saw of a Clustered table, as data (standard library only).

The camera (``vision/clustered/``) turns a picture into a :class:`LayoutScan`: per card its
cell, what it could read of it and how sure it is, and the cells it saw empty. This module
compares a scan with the record (K3.9 to K3.11) and scores a scan as a layout (K7.12).
Unknown readings are never discrepancies; the companion never adopts a scan silently
(K3.11): it offers the placement that explains what it saw, and lists what disagrees.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.clustered.cards import NUMBERS, Card, ColourCode, Fill, Shape
from companion.clustered.cells import Cell, reading_order
from companion.clustered.game import ClusteredGame
from companion.clustered.layout import Layout
from companion.clustered.moves import Placement
from companion.clustered.scoring import ScoreSheet, score

ALIGNED = 0.25
"""K2.5: a card whose centre lies within a quarter card of its cell's edge is unaligned."""


@dataclasses.dataclass(frozen=True)
class CardReading:
    """One card the camera saw."""

    cell: Cell
    """The cell holding the card's centre (K2.5)."""
    card: Card | None
    """What card it is, or None when not every part of it could be read."""
    confidence: float
    source: str = "marker"
    """``marker`` (the kit's marker) or ``symbols`` (read from the printed symbols)."""
    colour: ColourCode | None = None
    shape: Shape | None = None
    fill: Fill | None = None
    number: int | None = None
    wild: bool | None = None
    start: bool = False
    offset: tuple[float, float] = (0.0, 0.0)
    """How far the centre lies from the cell's centre, in cells (east, north)."""

    @property
    def aligned(self) -> bool:
        return abs(self.offset[0]) <= ALIGNED and abs(self.offset[1]) <= ALIGNED

    def fits(self, card: Card) -> bool:
        """Whether ``card`` agrees with everything read (unknown parts agree with anything)."""
        if self.card is not None:
            return self.card == card
        if self.start:
            return card.is_start
        checks: list[tuple[object, object]] = [
            (self.colour, card.colour),
            (self.shape, card.shape),
            (self.fill, card.fill),
            (self.number, card.number),
            (self.wild, card.is_wild),
        ]
        return all(seen is None or seen == real for seen, real in checks)

    def words(self) -> str:
        if self.card is not None:
            return self.card.text()
        if self.start:
            return "start"
        parts = [
            self.colour or "?",
            self.shape.value if self.shape else "?",
            self.fill.value if self.fill else "?",
            str(self.number) if self.number else "?",
        ]
        return "-".join(parts) if not self.wild else f"{self.colour or '?'}-wild"

    def to_dict(self) -> dict[str, Any]:
        return {
            "cell": self.cell.text(),
            "card": None if self.card is None else self.card.text(),
            "read": self.words(),
            "confidence": round(self.confidence, 3),
            "source": self.source,
            "offset": [round(self.offset[0], 3), round(self.offset[1], 3)],
            "aligned": self.aligned,
        }


@dataclasses.dataclass(frozen=True)
class LayoutScan:
    """A picture of the table read: the cards and the empty cells seen beside them."""

    cards: tuple[CardReading, ...]
    empty: tuple[Cell, ...] = ()
    """Cells beside the cards that the camera saw clearly and found empty."""
    notes: tuple[str, ...] = ()

    def at(self, cell: Cell) -> CardReading | None:
        for reading in self.cards:
            if reading.cell == cell:
                return reading
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": [r.to_dict() for r in sorted(self.cards, key=lambda r: reading_order(r.cell))],
            "empty": [c.text() for c in sorted(self.empty, key=reading_order)],
            "notes": list(self.notes),
        }


def candidates(reading: CardReading, cards: Sequence[Card]) -> list[Card]:
    """The cards of ``cards`` that agree with a reading, in the given order."""
    return [card for card in dict.fromkeys(cards) if reading.fits(card)]


def compare(scan: LayoutScan, game: ClusteredGame) -> dict[str, Any]:
    """K3.9 to K3.11: the scan against the record. ``moves`` are the legal placements that
    explain one new card in an empty cell (one when it was read with certainty; several, to
    choose from, when some of it was unsure); ``discrepancies`` everything else that
    disagrees, in a player's words; ``missing`` the tracked cards the camera did not see."""
    problems: list[dict[str, Any]] = []
    layout = game.layout
    seen_cells = {r.cell for r in scan.cards}
    unaligned = [r for r in scan.cards if not r.aligned]
    for reading in unaligned:
        problems.append(
            {
                "cell": reading.cell.text(),
                "kind": "unaligned",
                "message": f"the card near {reading.cell.text()} is not straight in its cell: "
                "straighten it (K2.5)",
            }
        )
    for reading in sorted(scan.cards, key=lambda r: reading_order(r.cell)):
        tracked = layout.get(reading.cell)
        if tracked is None or not reading.aligned:
            continue
        if not reading.fits(tracked):
            problems.append(
                {
                    "cell": reading.cell.text(),
                    "kind": "differs",
                    "message": f"{reading.cell.text()}: the record has {tracked.text()}, the "
                    f"camera sees {reading.words()} (K3.11)",
                }
            )
    for cell in sorted(scan.empty, key=reading_order):
        if cell in layout:
            problems.append(
                {
                    "cell": cell.text(),
                    "kind": "gone",
                    "message": f"{cell.text()}: the record has {layout[cell].text()}, but the "
                    "cell is empty: was it moved or taken away? (K3.11)",
                }
            )
    new = [r for r in scan.cards if r.cell not in layout and r.aligned]
    moves: list[str] = []
    if len(new) > 1:
        cells = ", ".join(r.cell.text() for r in sorted(new, key=lambda r: reading_order(r.cell)))
        problems.append(
            {
                "kind": "several",
                "message": f"{len(new)} new cards at once ({cells}): one card a turn (K3.9)",
            }
        )
    elif len(new) == 1 and not unaligned:
        moves, problem = _explain(new[0], game)
        if problem is not None:
            problems.append(problem)
    missing = sorted(
        (c for c in layout if c not in seen_cells and c not in scan.empty), key=reading_order
    )
    return {
        "discrepancies": problems,
        "missing": [c.text() for c in missing],
        "moves": moves,
    }


def _explain(reading: CardReading, game: ClusteredGame) -> tuple[list[str], dict[str, Any] | None]:
    """The legal placements one new card can be (the acting seat's cards that fit what was
    read), or a discrepancy saying why it cannot be played."""
    seat = game.current_seat()
    cell = reading.cell
    if seat is None:
        return [], {
            "cell": cell.text(),
            "kind": "over",
            "message": f"the game is over: a new card at {cell.text()} cannot be played (K5.1)",
        }
    possible = candidates(reading, game.could_hold(seat))
    if not possible:
        return [], {
            "cell": cell.text(),
            "kind": "not-yours",
            "message": f"{cell.text()}: the camera sees {reading.words()}, which "
            f"{game.name(seat)} cannot play now (K4.2, K4.3)",
        }
    legal = [c for c in possible if game.verdict(Placement(c, cell), seat).legal]
    if not legal:
        verdict = game.verdict(Placement(possible[0], cell), seat)
        return [], {"cell": cell.text(), "kind": "illegal", "message": verdict.message}
    return [Placement(c, cell).text() for c in legal], None


# Scoring a picture (K7.12) ----------------------------------------------------------------------


def scored_layout(scan: LayoutScan) -> tuple[Layout, list[Cell]]:
    """The layout a scan shows for scoring, and the cells whose owner could not be read.
    Scoring needs only each card's colour (K6.1): a card whose colour was read counts for it
    even when its symbols were unsure."""
    cards: dict[Cell, Card] = {}
    unknown: list[Cell] = []
    for reading in scan.cards:
        if reading.start or (reading.card is not None and reading.card.is_start):
            cards[reading.cell] = Card(None)
        elif reading.card is not None:
            cards[reading.cell] = reading.card
        elif reading.colour is not None:
            cards[reading.cell] = Card.attribute(
                reading.colour, Shape.SQUARE, Fill.HOLLOW, NUMBERS[0]
            )
        else:
            unknown.append(reading.cell)
    return Layout(cards), sorted(unknown, key=reading_order)


def score_scan(
    scan: LayoutScan,
    colours: Sequence[ColourCode],
    *,
    first: Mapping[str, ColourCode | None] | None = None,
    largest_bonuses: bool = False,
) -> tuple[ScoreSheet, list[Cell]]:
    """K7.12: a layout scored from one picture, without its record: the first-to-achieve
    bonuses as the table says (marked as entered by hand); the cells it could not read."""
    layout, unknown = scored_layout(scan)
    sheet = score(
        layout,
        colours,
        first=first,
        first_by_hand=True,
        largest_bonuses=largest_bonuses,
    )
    return sheet, unknown
