"""The two boards of Cluster: hole names, coordinates, depths, neighbours and lines (P1).

A hole is an index in *hole order* (P1.4: row a first, each row by number), so a set of holes
is an ``int`` bitboard and the neighbours and lines of every hole are tables built once. The
lines hold the bit masks move generation needs: along a line the hole indices only grow (E,
NE, NW) or only shrink (W, SE, SW), so the first vacant hole of a line is one bit operation.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
from typing import TypeAlias

from companion.errors import CompanionError

Hole: TypeAlias = int
"""A hole's index in hole order (P1.4) on its board: a1 is 0."""

ROW_LETTERS = "abcdefgh"
_NAME = re.compile(r"([a-z])(0|[1-9][0-9]{0,2})")


class UnknownHoleError(CompanionError, ValueError):
    """A hole name that is well formed but not on this board (P4.11 ``no-hole``)."""


class Direction(enum.Enum):
    """The six directions as Red sees the board (P1.5), in doubled-width steps (dx, dr)."""

    E = (2, 0)
    W = (-2, 0)
    NE = (1, 1)
    NW = (-1, 1)
    SE = (1, -1)
    SW = (-1, -1)

    __hash__ = object.__hash__

    @property
    def ascending(self) -> bool:
        """Whether hole indices grow along a line this way (E, NE, NW)."""
        dx, dr = self.value
        return dr > 0 or (dr == 0 and dx > 0)


@dataclasses.dataclass(frozen=True, eq=False)
class Board:
    """One board: its holes in hole order and every table about them.

    Build the two boards of the rulings with :data:`LARGE` and :data:`SMALL` (or
    :func:`board_named`); every position shares them.
    """

    name: str
    """``"64"`` or ``"46"``: the board field of the position text (P6.4)."""
    title: str
    row_lengths: tuple[int, ...]
    names: tuple[str, ...]
    """Hole names in hole order."""
    rows: tuple[int, ...]
    """Each hole's row index (a = 0)."""
    numbers: tuple[int, ...]
    """Each hole's number in its row (from 1)."""
    index: dict[str, Hole]
    deep: int
    """Bitboard of the deep (bevelled) holes (P1.9)."""
    shallow: int
    neighbours: tuple[int, ...]
    """Per hole, the bitboard of its neighbours (P1.5)."""
    neighbour_list: tuple[tuple[Hole, ...], ...]
    lines: tuple[tuple[tuple[Direction, tuple[Hole, ...]], ...], ...]
    """Per hole, each direction with a line that way and the line's holes, nearest first."""
    up_masks: tuple[tuple[int, ...], ...]
    """Per hole, the bit masks of its non-empty lines along which indices grow."""
    down_masks: tuple[tuple[int, ...], ...]
    """Per hole, the bit masks of its non-empty lines along which indices shrink."""
    all_holes: int
    """Bitboard of every hole."""
    mirror: tuple[Hole, ...]
    """Each hole's image under the player-swapping symmetry (P3.1)."""

    @property
    def size(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"board_named({self.name!r})"

    def hole(self, name: str) -> Hole:
        """The hole a name (any case, P1.4) names; UnknownHoleError if it is not here."""
        key = name.strip().lower()
        try:
            return self.index[key]
        except KeyError:
            raise UnknownHoleError(f"there is no hole {key} on the {self.title}") from None

    def is_deep(self, hole: Hole) -> bool:
        return bool(self.deep >> hole & 1)

    def xy(self, hole: Hole) -> tuple[float, float]:
        """The hole's centre in hole spacings (P1.3): x to Red's right, y away from Red."""
        row = self.rows[hole]
        x = 2 * (self.numbers[hole] - 1) + row % 2
        return x / 2, row * math.sqrt(3) / 2

    def doubled(self, hole: Hole) -> tuple[int, int]:
        """The doubled-width coordinates (x, r) of P1.3."""
        row = self.rows[hole]
        return 2 * (self.numbers[hole] - 1) + row % 2, row

    def line_between(self, origin: Hole, destination: Hole) -> tuple[Direction, tuple[Hole, ...]]:
        """The direction from origin to destination and the holes strictly between them, or
        ValueError when no line (a row or a diagonal, P1.8) joins them."""
        for direction, line in self.lines[origin]:
            if destination in line:
                return direction, line[: line.index(destination)]
        raise ValueError(f"{self.names[origin]} and {self.names[destination]} share no line")

    def holes_of(self, bits: int) -> list[Hole]:
        """The holes of a bitboard, in hole order."""
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    def bits_of(self, names: list[str] | tuple[str, ...]) -> int:
        bits = 0
        for name in names:
            bits |= 1 << self.hole(name)
        return bits


def _build(name: str, title: str, row_lengths: tuple[int, ...], mirror_half_turn: bool) -> Board:
    names: list[str] = []
    rows: list[int] = []
    numbers: list[int] = []
    at: dict[tuple[int, int], Hole] = {}
    for row, length in enumerate(row_lengths):
        for number in range(1, length + 1):
            at[2 * (number - 1) + row % 2, row] = len(names)
            names.append(f"{ROW_LETTERS[row]}{number}")
            rows.append(row)
            numbers.append(number)
    deep = shallow = 0
    for hole in range(len(names)):
        if (rows[hole] + numbers[hole]) % 2 == 1:
            deep |= 1 << hole
        else:
            shallow |= 1 << hole
    neighbours: list[int] = []
    neighbour_list: list[tuple[Hole, ...]] = []
    lines: list[tuple[tuple[Direction, tuple[Hole, ...]], ...]] = []
    up_masks: list[tuple[int, ...]] = []
    down_masks: list[tuple[int, ...]] = []
    for hole in range(len(names)):
        x, r = 2 * (numbers[hole] - 1) + rows[hole] % 2, rows[hole]
        hole_lines = []
        near = []
        ups: list[int] = []
        downs: list[int] = []
        for direction in Direction:
            dx, dr = direction.value
            line = []
            cx, cr = x + dx, r + dr
            while (cx, cr) in at:
                line.append(at[cx, cr])
                cx, cr = cx + dx, cr + dr
            if not line:
                continue
            hole_lines.append((direction, tuple(line)))
            near.append(line[0])
            mask = sum(1 << h for h in line)
            (ups if direction.ascending else downs).append(mask)
        lines.append(tuple(hole_lines))
        neighbour_list.append(tuple(sorted(near)))
        neighbours.append(sum(1 << h for h in near))
        up_masks.append(tuple(ups))
        down_masks.append(tuple(downs))
    last_row = len(row_lengths) - 1
    mirror = []
    for hole in range(len(names)):
        row, number = rows[hole], numbers[hole]
        if mirror_half_turn:
            image = (last_row - row, row_lengths[last_row - row] + 1 - number)
        else:
            image = (last_row - row, number)
        mirror.append(names.index(f"{ROW_LETTERS[image[0]]}{image[1]}"))
    return Board(
        name=name,
        title=title,
        row_lengths=row_lengths,
        names=tuple(names),
        rows=tuple(rows),
        numbers=tuple(numbers),
        index={n: i for i, n in enumerate(names)},
        deep=deep,
        shallow=shallow,
        neighbours=tuple(neighbours),
        neighbour_list=tuple(neighbour_list),
        lines=tuple(lines),
        up_masks=tuple(up_masks),
        down_masks=tuple(down_masks),
        all_holes=(1 << len(names)) - 1,
        mirror=tuple(mirror),
    )


LARGE = _build("64", "large board", (8,) * 8, mirror_half_turn=True)
"""The 64-hole board: rows a..h of 8 (P1.1); Blue's side is the half-turn of Red's (P3.1)."""
SMALL = _build("46", "small board", (7, 6, 7, 6, 7, 6, 7), mirror_half_turn=False)
"""The 46-hole board: rows a..g of 7 and 6 (P1.2); Blue's side is Red's reflected in row d."""
BOARDS = {LARGE.name: LARGE, SMALL.name: SMALL}


def board_named(name: str) -> Board:
    """``"64"`` or ``"46"``; ValueError naming the boards otherwise."""
    try:
        return BOARDS[name.strip()]
    except KeyError:
        raise ValueError(f"there is no board {name!r}: the boards are 64 and 46") from None


def is_hole_name(text: str) -> bool:
    """Whether ``text`` has the form of a hole name (a letter, a number without leading
    zeros), on any board; case is ignored (P1.4)."""
    return _NAME.fullmatch(text.strip().lower()) is not None
