"""Scoring (K6) and the bonuses (K7.8 to K7.16).

Everything here reads a layout (and, for first-to-achieve bonuses, the order of the
placements); nothing changes it. A card scores for its colour, a wild card as an ordinary card
of its colour, a start card for nobody (K6.1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.clustered.cards import Card, ColourCode
from companion.clustered.cells import Cell

BONUS_POINTS = 2
FIRST_RECTANGLE = "first-rectangle"
FIRST_LINE = "first-line"
LARGEST_RECTANGLE = "largest-rectangle"
LONGEST_LINE = "longest-line"
FIRST_BONUSES = (FIRST_RECTANGLE, FIRST_LINE)
LARGEST_BONUSES = (LARGEST_RECTANGLE, LONGEST_LINE)
BONUS_WORDS = {
    FIRST_RECTANGLE: "first 2x3 rectangle",
    FIRST_LINE: "first line of 5",
    LARGEST_RECTANGLE: "largest rectangle",
    LONGEST_LINE: "longest line",
}
FIRST_LINE_LENGTH = 5
FIRST_RECTANGLE_AREA = 6


@dataclasses.dataclass(frozen=True)
class Line:
    """A maximal run of 3 or more cards of one player in a row or a column (K6.2)."""

    colour: ColourCode
    cells: tuple[Cell, ...]
    horizontal: bool

    @property
    def points(self) -> int:
        """One point a card (K6.3)."""
        return len(self.cells)

    def text(self) -> str:
        first, last = self.cells[0], self.cells[-1]
        if self.horizontal:
            return f"row {first.y}, x {first.x}..{last.x}"
        return f"column {first.x}, y {first.y}..{last.y}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "direction": "row" if self.horizontal else "column",
            "cells": [c.text() for c in self.cells],
            "points": self.points,
        }


@dataclasses.dataclass(frozen=True)
class Rectangle:
    """An axis-aligned block of cells, at least 2 by 2 (K6.5)."""

    x_min: int
    y_min: int
    width: int
    height: int

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def x_max(self) -> int:
        return self.x_min + self.width - 1

    @property
    def y_max(self) -> int:
        return self.y_min + self.height - 1

    def cells(self) -> tuple[Cell, ...]:
        return tuple(
            Cell(x, y)
            for y in range(self.y_max, self.y_min - 1, -1)
            for x in range(self.x_min, self.x_max + 1)
        )

    def text(self) -> str:
        return (
            f"{self.width}x{self.height} at x {self.x_min}..{self.x_max}, "
            f"y {self.y_min}..{self.y_max}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "x_min": self.x_min,
            "x_max": self.x_max,
            "y_min": self.y_min,
            "y_max": self.y_max,
            "width": self.width,
            "height": self.height,
            "area": self.area,
        }


@dataclasses.dataclass(frozen=True)
class Bonus:
    name: str
    points: int = BONUS_POINTS
    by_hand: bool = False
    """A first-to-achieve bonus the table said who earned (a layout scored without its
    record, K7.12)."""

    def text(self) -> str:
        hand = " (entered by hand)" if self.by_hand else ""
        return f"{BONUS_WORDS[self.name]} bonus{hand}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "points": self.points, "by_hand": self.by_hand}


@dataclasses.dataclass(frozen=True)
class PlayerScore:
    """One player's line of the score sheet (K6.10)."""

    colour: ColourCode
    rectangle: Rectangle | None
    lines: tuple[Line, ...]
    bonuses: tuple[Bonus, ...] = ()

    @property
    def rectangle_points(self) -> int:
        return 0 if self.rectangle is None else self.rectangle.area

    @property
    def row_points(self) -> int:
        return sum(line.points for line in self.lines if line.horizontal)

    @property
    def column_points(self) -> int:
        return sum(line.points for line in self.lines if not line.horizontal)

    @property
    def bonus_points(self) -> int:
        return sum(b.points for b in self.bonuses)

    @property
    def total(self) -> int:
        """K6.8: rectangle + horizontal lines + vertical lines + bonuses."""
        return self.rectangle_points + self.row_points + self.column_points + self.bonus_points

    def to_dict(self) -> dict[str, Any]:
        return {
            "colour": self.colour,
            "rectangle": None if self.rectangle is None else self.rectangle.to_dict(),
            "rectangle_cells": []
            if self.rectangle is None
            else [c.text() for c in self.rectangle.cells()],
            "lines": [line.to_dict() for line in self.lines],
            "bonuses": [b.to_dict() for b in self.bonuses],
            "rectangle_points": self.rectangle_points,
            "row_points": self.row_points,
            "column_points": self.column_points,
            "bonus_points": self.bonus_points,
            "total": self.total,
        }


@dataclasses.dataclass(frozen=True)
class ScoreSheet:
    """Every player's score (K6.10), in seat order, and the winners (K6.9)."""

    players: tuple[PlayerScore, ...]
    finished: bool = True
    """False for a game still being played or stopped early: no winner (K5.6)."""
    stopped: bool = False
    """The host stopped the game early (K5.6)."""

    def of(self, colour: ColourCode) -> PlayerScore:
        for player in self.players:
            if player.colour == colour:
                return player
        raise KeyError(colour)

    @property
    def winners(self) -> tuple[ColourCode, ...]:
        """K6.9: everybody with the highest score (a shared win); nobody when unfinished."""
        if not self.finished or not self.players:
            return ()
        best = max(p.total for p in self.players)
        return tuple(p.colour for p in self.players if p.total == best)

    def to_dict(self) -> dict[str, Any]:
        return {
            "finished": self.finished,
            "stopped": self.stopped,
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
        }

    def lines(self, names: Mapping[ColourCode, str] | None = None) -> list[str]:
        """The sheet as text: per player the rectangle, every line, each bonus, the total."""
        names = names or {}
        out = []
        for player in self.players:
            who = names.get(player.colour, player.colour)
            out.append(f"{who}: {player.total} points")
            if player.rectangle is None:
                out.append("  rectangle: none (0)")
            else:
                out.append(f"  rectangle: {player.rectangle.text()} ({player.rectangle.area})")
            for line in player.lines:
                out.append(f"  line: {line.text()} ({line.points})")
            for bonus in player.bonuses:
                out.append(f"  bonus: {bonus.text()} ({bonus.points})")
        if self.stopped:
            out.append("Unfinished: the host stopped the game, so nobody wins (K5.6).")
        elif not self.finished:
            out.append("The game goes on: nobody has won yet.")
        elif self.winners:
            won = " and ".join(names.get(c, c) for c in self.winners)
            shared = " share the win" if len(self.winners) > 1 else " wins"
            out.append(f"{won}{shared}.")
        return out


# Lines and rectangles ---------------------------------------------------------------------------


def _runs(values: Iterable[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive integers, as (first, last)."""
    runs: list[tuple[int, int]] = []
    for v in sorted(values):
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def lines_of(cells: Iterable[Cell], colour: ColourCode = "") -> tuple[Line, ...]:
    """K6.2: every run of 3 or more of these cells in a row, then in a column (rows from north
    to south, columns from west to east). ``cells`` are one player's cards' cells, so any other
    card, a start card or an empty cell ends a run."""
    rows: dict[int, list[int]] = {}
    columns: dict[int, list[int]] = {}
    for cell in cells:
        rows.setdefault(cell.y, []).append(cell.x)
        columns.setdefault(cell.x, []).append(cell.y)
    out: list[Line] = []
    for y in sorted(rows, reverse=True):
        for a, b in _runs(rows[y]):
            if b - a >= 2:
                out.append(Line(colour, tuple(Cell(x, y) for x in range(a, b + 1)), True))
    for x in sorted(columns):
        for a, b in _runs(columns[x]):
            if b - a >= 2:
                out.append(Line(colour, tuple(Cell(x, y) for y in range(b, a - 1, -1)), False))
    return tuple(out)


def largest_rectangle(cells: Iterable[Cell]) -> Rectangle | None:
    """K6.5 to K6.7: the largest block of these cells at least 2 by 2, or None; of equally
    large ones the one with the lowest bottom row, then the westmost, then the widest."""
    rows: dict[int, int] = {}
    owned = list(cells)
    if not owned:
        return None
    x0 = min(c.x for c in owned)
    for cell in owned:
        rows[cell.y] = rows.get(cell.y, 0) | 1 << (cell.x - x0)
    best: tuple[int, int, int, int] | None = None  # (-area, y_min, x_min, -width)
    found: Rectangle | None = None
    for bottom in sorted(rows):
        mask = rows[bottom]
        y = bottom + 1
        while y in rows:
            mask &= rows[y]
            if not mask:
                break
            height = y - bottom + 1
            for a, b in _bit_runs(mask):
                width = b - a + 1
                if width < 2:
                    continue
                key = (-width * height, bottom, a + x0, -width)
                if best is None or key < best:
                    best = key
                    found = Rectangle(a + x0, bottom, width, height)
            y += 1
    return found


def _bit_runs(mask: int) -> list[tuple[int, int]]:
    runs = []
    position = 0
    while mask:
        if mask & 1:
            start = position
            while mask & 1:
                mask >>= 1
                position += 1
            runs.append((start, position - 1))
        else:
            skip = (mask & -mask).bit_length() - 1
            mask >>= skip
            position += skip
    return runs


def card_points(cards: Mapping[Cell, Card], colour: ColourCode) -> dict[Cell, int]:
    """Per card of ``colour``, the points it earns (K6.4, K6.14: at most 3 without bonuses)."""
    cells = [c for c, card in cards.items() if card.colour == colour]
    points = dict.fromkeys(cells, 0)
    for line in lines_of(cells, colour):
        for cell in line.cells:
            points[cell] += 1
    rectangle = largest_rectangle(cells)
    if rectangle is not None:
        for cell in rectangle.cells():
            points[cell] += 1
    return points


# Bonuses ----------------------------------------------------------------------------------------


def largest_holders(
    features: Mapping[ColourCode, tuple[Rectangle | None, tuple[Line, ...]]],
) -> dict[str, ColourCode | None]:
    """K7.13 to K7.15: who holds each largest-feature bonus: the one player with the strictly
    greatest scoring feature, or nobody (a tie, or no such feature at all)."""
    sizes = {
        LARGEST_RECTANGLE: {c: (0 if r is None else r.area) for c, (r, _) in features.items()},
        LONGEST_LINE: {
            c: max((line.points for line in lines), default=0) for c, (_, lines) in features.items()
        },
    }
    holders: dict[str, ColourCode | None] = {}
    for bonus, by_colour in sizes.items():
        top = max(by_colour.values(), default=0)
        leaders = [c for c, size in by_colour.items() if size == top]
        holders[bonus] = leaders[0] if top > 0 and len(leaders) == 1 else None
    return holders


def completes(cards: Mapping[Cell, Card], cell: Cell) -> set[str]:
    """The first-to-achieve features (K7.8) the card in ``cell`` is part of among its owner's
    cards: a line of 5 or more through it, a 2x3 or 3x2 block holding it. A new feature always
    holds the card just placed, and every rectangle of 6 or more holds such a block (K7.8)."""
    colour = cards[cell].colour
    if colour is None:
        return set()

    def mine(x: int, y: int) -> bool:
        card = cards.get(Cell(x, y))
        return card is not None and card.colour == colour

    found = set()
    for dx, dy in ((1, 0), (0, 1)):
        length = 1
        for sign in (1, -1):
            step = 1
            while mine(cell.x + sign * dx * step, cell.y + sign * dy * step):
                length += 1
                step += 1
        if length >= FIRST_LINE_LENGTH:
            found.add(FIRST_LINE)
    for width, height in ((3, 2), (2, 3)):
        for left in range(cell.x - width + 1, cell.x + 1):
            for bottom in range(cell.y - height + 1, cell.y + 1):
                if all(
                    mine(x, y)
                    for x in range(left, left + width)
                    for y in range(bottom, bottom + height)
                ):
                    found.add(FIRST_RECTANGLE)
                    break
            if FIRST_RECTANGLE in found:
                break
    return found


def first_achievers(
    placements: Sequence[tuple[Cell, Card]], start_cards: Mapping[Cell, Card]
) -> dict[str, tuple[ColourCode, int] | None]:
    """K7.8 to K7.10: who earned each first-to-achieve bonus, and on which placement (its index
    in ``placements``, the record's accepted placements in order); None while nobody has."""
    cards = dict(start_cards)
    earned: dict[str, tuple[ColourCode, int] | None] = dict.fromkeys(FIRST_BONUSES)
    for index, (cell, card) in enumerate(placements):
        cards[cell] = card
        if card.colour is None or all(earned.values()):
            continue
        for bonus in completes(cards, cell):
            if earned[bonus] is None:
                earned[bonus] = (card.colour, index)
    return earned


def score(
    cards: Mapping[Cell, Card],
    colours: Sequence[ColourCode],
    *,
    first: Mapping[str, ColourCode | None] | None = None,
    first_by_hand: bool = False,
    largest_bonuses: bool = False,
    finished: bool = True,
    stopped: bool = False,
) -> ScoreSheet:
    """The score sheet of a layout (K6), in the order of ``colours`` (the seats).

    ``first`` holds the first-to-achieve bonuses' holders when that setting is on (from the
    record, :func:`first_achievers`, or entered by hand: ``first_by_hand``, K7.12);
    ``largest_bonuses`` adds K7.13's.
    """
    features = {}
    for colour in colours:
        cells = [c for c, card in cards.items() if card.colour == colour]
        features[colour] = (largest_rectangle(cells), lines_of(cells, colour))
    holders = largest_holders(features) if largest_bonuses else {}
    players = []
    for colour in colours:
        rectangle, lines = features[colour]
        bonuses = [
            Bonus(name, by_hand=first_by_hand)
            for name in FIRST_BONUSES
            if first is not None and first.get(name) == colour
        ]
        bonuses += [Bonus(name) for name in LARGEST_BONUSES if holders.get(name) == colour]
        players.append(PlayerScore(colour, rectangle, lines, tuple(bonuses)))
    return ScoreSheet(tuple(players), finished and not stopped, stopped)
