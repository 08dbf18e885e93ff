"""The table's grid (K2): cells, their notation and their neighbours.

The (first) start card is at (0, 0); x grows to the east, y to the north (K2.1, K2.2). Only
the four cells that share an edge are neighbours, listed north, east, south, west (K2.3).
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from companion.clustered.errors import NotationError


class Direction(enum.Enum):
    """Where a neighbour lies, in the order reports list them (K2.3)."""

    NORTH = (0, 1)
    EAST = (1, 0)
    SOUTH = (0, -1)
    WEST = (-1, 0)

    @property
    def where(self) -> str:
        """How a player says it, looking at the big screen (north at the top)."""
        return _WHERE[self]


_WHERE = {
    Direction.NORTH: "above it",
    Direction.EAST: "to its right",
    Direction.SOUTH: "below it",
    Direction.WEST: "to its left",
}


class Cell(NamedTuple):
    """A cell of the grid (K2.2)."""

    x: int
    y: int

    def text(self) -> str:
        """Canonical notation (K2.4): ``3,-1``."""
        return f"{self.x},{self.y}"

    def neighbour(self, direction: Direction) -> Cell:
        dx, dy = direction.value
        return Cell(self.x + dx, self.y + dy)

    def neighbours(self) -> tuple[Cell, Cell, Cell, Cell]:
        """North, east, south, west (K2.3)."""
        x, y = self
        return (Cell(x, y + 1), Cell(x + 1, y), Cell(x, y - 1), Cell(x - 1, y))

    @classmethod
    def parse(cls, text: str) -> Cell:
        """``x,y`` with optional signs, spaces around the comma and parentheses (K2.4)."""
        found = _CELL.fullmatch(text.strip())
        if found is None:
            raise NotationError(
                f"{text!r} is not a cell: write x,y with whole numbers, like 3,-1 or (3, -1) (K2.4)"
            )
        return cls(int(found["x"]), int(found["y"]))


_CELL = re.compile(r"(?P<open>\()?\s*(?P<x>[+-]?\d{1,6})\s*,\s*(?P<y>[+-]?\d{1,6})\s*(?(open)\))")

ORIGIN = Cell(0, 0)


def reading_order(cell: Cell) -> tuple[int, int]:
    """Sort key: rows from north to south, each from west to east (as diagrams are read)."""
    return (-cell.y, cell.x)
