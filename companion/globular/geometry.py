"""The pseudo-hex pattern: positions, their names, neighbours, and what ticks cost (G2).

A position is ``(q, r)`` (G2.2): ``r`` the row counted downwards from the MITS's row, ``q`` the
tile's left edge in half tiles from the MITS's left edge; it exists iff ``q + r`` is even. A
tile at ``(q, r)`` covers ``q <= x <= q + 2`` and ``r <= y <= r + 1`` (x to the right, y
downwards, in half tiles and rows), so its corner points are ``(q, r)`` top-left, ``(q + 2, r)``
top-right, ``(q, r + 1)`` bottom-left and ``(q + 2, r + 1)`` bottom-right. Whether a tick faces
a neighbour (G2.6) and whether two ticks are directly adjacent (G2.7) are read from those points,
so the cost table of G2.11 is derived here, not typed in (the tests check it against G2.11).
"""

from __future__ import annotations

import enum
import functools
import re
from typing import NamedTuple

from companion.globular.errors import NotationError
from companion.globular.tiles import Corner

FIRST_LETTER_Q = -12
"""The column letter ``a`` is q = -12 (G2.3); ``m`` is 0, the MITS's column."""
FIRST_ROW_R = -6
"""Row number 1 is r = -6 (G2.3); row 7 is the MITS's row."""
ROWS = 13

_NAME = re.compile(r"([a-z])([0-9]{1,2})")


class Position(NamedTuple):
    """A place of the pattern (or, with ``q + r`` odd, a name that is no place: G2.3).

    A named tuple ``(r, q)``: it orders by rows top to bottom, then left to right, and hashes
    and compares as fast as a tuple (positions are dictionary keys everywhere)."""

    r: int
    q: int

    @classmethod
    def at(cls, q: int, r: int) -> Position:
        return cls(r, q)

    @classmethod
    def parse(cls, text: str) -> Position:
        """A name (``k7``, ``l6``; ``mits`` is ``m7``), case-insensitive (G2.3, G8.2).

        Letters after ``m`` name positions right of the MITS and a letter of the wrong parity
        for its row names no place: both parse, and the rules refuse them (G3.6, G3.2)."""
        word = text.strip().lower()
        if word == "mits":
            return MITS
        match = _NAME.fullmatch(word)
        if match is not None:
            row = int(match.group(2))
            if 1 <= row <= ROWS and match.group(2)[0] != "0":
                return cls(row - 1 + FIRST_ROW_R, ord(match.group(1)) - ord("a") + FIRST_LETTER_Q)
        raise NotationError(
            f"{text!r} is not a position: a position is a column letter and a row number 1 to "
            "13 (k7, l6; mits is m7)",
            text=text,
        )

    def name(self) -> str:
        """``m7`` for the MITS; positions too far out for a name are written ``(q,r)``."""
        column = self.q - FIRST_LETTER_Q
        row = self.r - FIRST_ROW_R + 1
        if 0 <= column < 26 and 1 <= row <= ROWS:
            return f"{chr(ord('a') + column)}{row}"
        return f"({self.q},{self.r})"

    def __str__(self) -> str:
        return self.name()

    def __repr__(self) -> str:
        return f"Position.parse({self.name()!r})"

    @property
    def exists(self) -> bool:
        """Whether this is a place of the half-offset pattern (G2.2)."""
        return (self.q + self.r) % 2 == 0

    def step(self, direction: Direction) -> Position:
        dq, dr = direction.value
        return Position(self.r + dr, self.q + dq)

    def neighbours(self) -> tuple[Position, ...]:
        """The six neighbours (G2.4): left, right, up-left, up-right, down-left, down-right."""
        return _neighbours(self)

    def direction_to(self, other: Position) -> Direction | None:
        """The direction in which ``other`` is a neighbour, or None when it is not one."""
        return _DIRECTIONS.get((other.q - self.q, other.r - self.r))

    def corner_point(self, corner: Corner) -> tuple[int, int]:
        """The corner's point as (x, y) in half tiles and rows."""
        dx = 2 if corner in (Corner.TR, Corner.BR) else 0
        dy = 1 if corner in (Corner.BL, Corner.BR) else 0
        return (self.q + dx, self.r + dy)


class Direction(enum.Enum):
    """From a tile to one of its six neighbours (G2.4), as (dq, dr)."""

    LEFT = (-2, 0)
    RIGHT = (2, 0)
    UP_LEFT = (-1, -1)
    UP_RIGHT = (1, -1)
    DOWN_LEFT = (-1, 1)
    DOWN_RIGHT = (1, 1)

    @property
    def opposite(self) -> Direction:
        dq, dr = self.value
        return Direction((-dq, -dr))

    @property
    def words(self) -> str:
        return self.name.lower().replace("_", "-")


_DIRECTIONS = {d.value: d for d in Direction}


@functools.cache
def _neighbours(position: Position) -> tuple[Position, ...]:
    return tuple(position.step(d) for d in Direction)


MITS = Position(0, 0)
"""The MITS, ``m7`` (G2.2, G2.3)."""


def shared_boundary(a: Position, direction: Direction) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two ends of the stretch of boundary ``a`` shares with its neighbour that way."""
    q, r = a.q, a.r
    if direction is Direction.RIGHT:
        return (q + 2, r), (q + 2, r + 1)
    if direction is Direction.LEFT:
        return (q, r), (q, r + 1)
    if direction is Direction.UP_RIGHT:
        return (q + 1, r), (q + 2, r)
    if direction is Direction.UP_LEFT:
        return (q, r), (q + 1, r)
    if direction is Direction.DOWN_RIGHT:
        return (q + 1, r + 1), (q + 2, r + 1)
    return (q, r + 1), (q + 1, r + 1)  # DOWN_LEFT


def faces(position: Position, corner: Corner, direction: Direction) -> bool:
    """Whether a tick in ``corner`` faces the neighbour that way (G2.6): its corner point lies
    on the stretch of boundary the two tiles share, ends included (the stretch is straight, and
    either vertical or horizontal, so a point on its line between its ends is on it)."""
    (x1, y1), (x2, y2) = shared_boundary(position, direction)
    x, y = position.corner_point(corner)
    return min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2)


def tick_cost(a: Position, a_corner: Corner, b: Position, b_corner: Corner) -> int | None:
    """AP to cross between neighbours ``a`` and ``b`` from their ticks alone (G2.7, G2.8):
    4 when both face the crossing at the same point, 2 when both face it offset, 1 when
    exactly one faces it, None (impassable) when neither does."""
    direction = a.direction_to(b)
    if direction is None:
        raise ValueError(f"{a.name()} and {b.name()} are not neighbours")
    a_faces = faces(a, a_corner, direction)
    b_faces = faces(b, b_corner, direction.opposite)
    if a_faces and b_faces:
        return 4 if a.corner_point(a_corner) == b.corner_point(b_corner) else 2
    if a_faces or b_faces:
        return 1
    return None
