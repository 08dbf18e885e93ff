"""A position: the board, four bitboards of pegs and the player to move (P6.4 to P6.6, P3).

The text form is one line, ``<board> <rows> <to move>`` (P6.4), unique for a position (P6.5),
so equal texts are the same position. A text that breaks P6.6 is refused with
:class:`PositionError`, whose ``code`` is the ruling's reason (``syntax``, ``row-count``,
``row-length``, ``piece-count``, ``unreachable``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from companion.cluster_peg.atoms import Colour, Peg
from companion.cluster_peg.board import BOARDS, LARGE, SMALL, Board, Hole
from companion.cluster_peg.goal import meets_goal
from companion.errors import CompanionError

PEGS_PER_KIND = {LARGE.name: 8, SMALL.name: 6}
"""P2.2: 8 tall and 8 short pegs a player on the large board, 6 and 6 on the small one."""


class PositionError(CompanionError, ValueError):
    """A position text refused by P6.6; ``code`` is the ruling's reason for it."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"{message} ({code}, P6.6)")


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    """Where every peg is and who moves next. Positions are values: equal when equal."""

    board: Board
    pegs: tuple[int, int, int, int]
    """Bitboards of red tall, red short, blue tall, blue short (``Peg.index`` order)."""
    to_move: Colour

    # Reading ------------------------------------------------------------------------------

    @property
    def occupied(self) -> int:
        rt, rs, bt, bs = self.pegs
        return rt | rs | bt | bs

    def of(self, colour: Colour) -> int:
        """The bitboard of a player's pegs."""
        if colour is Colour.RED:
            return self.pegs[0] | self.pegs[1]
        return self.pegs[2] | self.pegs[3]

    def tall_short(self, colour: Colour) -> tuple[int, int]:
        if colour is Colour.RED:
            return self.pegs[0], self.pegs[1]
        return self.pegs[2], self.pegs[3]

    def peg_at(self, hole: Hole) -> Peg | None:
        bit = 1 << hole
        for peg in Peg:
            if self.pegs[peg.index] & bit:
                return peg
        return None

    def height_at(self, hole: Hole) -> int | None:
        """The height of the peg in a hole (P2.4), or None when it is vacant."""
        peg = self.peg_at(hole)
        if peg is None:
            return None
        return peg.kind.length + (0 if self.board.is_deep(hole) else 1)

    def placement(self) -> dict[Hole, Peg]:
        """Every occupied hole with its peg, in hole order."""
        return {
            hole: peg for hole in range(self.board.size) if (peg := self.peg_at(hole)) is not None
        }

    def meets_goal(self, colour: Colour) -> bool:
        """Whether ``colour`` meets the goal of P5.1 here."""
        tall, short = self.tall_short(colour)
        return meets_goal(self.board, tall, short)

    def winner(self) -> Colour | None:
        """The player who has won (P5.3): the one not to move, when they meet the goal."""
        mover = self.to_move.other
        return mover if self.meets_goal(mover) else None

    # Changing -----------------------------------------------------------------------------

    def with_to_move(self, colour: Colour) -> Position:
        return Position(self.board, self.pegs, colour)

    def mirrored(self) -> Position:
        """The position seen from the other side: the board's player-swapping symmetry (P3.1),
        colours exchanged, the other player to move."""
        mirror = self.board.mirror
        flipped = [0, 0, 0, 0]
        for index, bits in enumerate(self.pegs):
            image = 0
            for hole in self.board.holes_of(bits):
                image |= 1 << mirror[hole]
            flipped[index ^ 2] = image  # red tall <-> blue tall, red short <-> blue short
        rt, rs, bt, bs = flipped
        return Position(self.board, (rt, rs, bt, bs), self.to_move.other)

    @classmethod
    def from_placement(
        cls, board: Board, placement: Mapping[Hole, Peg], to_move: Colour = Colour.RED
    ) -> Position:
        """A position from pegs by hole; not checked (use :func:`check_position`)."""
        pegs = [0, 0, 0, 0]
        for hole, peg in placement.items():
            pegs[peg.index] |= 1 << hole
        rt, rs, bt, bs = pegs
        return cls(board, (rt, rs, bt, bs), to_move)

    # Text ---------------------------------------------------------------------------------

    def text(self) -> str:
        """The position text of P6.4 (``64 8/8/rRrRrRrR/... r``)."""
        rows = []
        hole = 0
        for length in self.board.row_lengths:
            out = []
            vacant = 0
            for _ in range(length):
                peg = self.peg_at(hole)
                hole += 1
                if peg is None:
                    vacant += 1
                    continue
                if vacant:
                    out.append(str(vacant))
                    vacant = 0
                out.append(peg.letter)
            if vacant:
                out.append(str(vacant))
            rows.append("".join(out))
        return f"{self.board.name} {'/'.join(rows)} {self.to_move.value}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Position.parse({self.text()!r})"

    @classmethod
    def parse(cls, text: str) -> Position:
        """A position from its text, checked by P6.6 (PositionError with the first reason)."""
        position = _parse_unchecked(text)
        problem = position_problem(position)
        if problem is not None:
            raise problem
        return position

    def diagram(self) -> str:
        """The board as rows of letters, row a at the bottom (as the rulings draw it)."""
        lines = []
        for row in reversed(range(len(self.board.row_lengths))):
            cells = []
            for hole in range(self.board.size):
                if self.board.rows[hole] == row:
                    peg = self.peg_at(hole)
                    cells.append(peg.letter if peg is not None else ".")
            indent = "  " if row % 2 else " "
            lines.append(f"{'abcdefgh'[row]}{indent}{' '.join(cells)}")
        width = max(self.board.row_lengths)
        lines.append("   " + " ".join(str(n) for n in range(1, width + 1)))
        return "\n".join(lines)


def _parse_unchecked(text: str) -> Position:
    fields = text.split()
    if len(fields) != 3:
        raise PositionError(
            "syntax",
            f"a position text has three fields (board, rows, to move), not {len(fields)}",
        )
    board_name, rows_text, mover = fields
    board = BOARDS.get(board_name)
    if board is None:
        raise PositionError("syntax", f"there is no board {board_name!r}: the boards are 64, 46")
    rows = rows_text.split("/")
    parsed_rows: list[list[Peg | None]] = []
    for number, row in enumerate(rows, start=1):
        cells: list[Peg | None] = []
        previous_digit = False
        for char in row:
            if char in "RrBb":
                cells.append(Peg(char))
                previous_digit = False
            elif char in "123456789":
                if previous_digit:
                    raise PositionError(
                        "syntax", f"row {number} ({row!r}) has two digits side by side"
                    )
                cells.extend([None] * int(char))
                previous_digit = True
            else:
                raise PositionError(
                    "syntax",
                    f"row {number} ({row!r}) has {char!r}; rows hold R r B b and digits 1-9",
                )
        parsed_rows.append(cells)
    if mover not in ("r", "b"):
        raise PositionError("syntax", f"the player to move is r or b, not {mover!r}")
    if len(rows) != len(board.row_lengths):
        raise PositionError(
            "row-count",
            f"the {board.title} has {len(board.row_lengths)} rows; this text has {len(rows)}",
        )
    pegs = [0, 0, 0, 0]
    hole = 0
    for number, (cells, length) in enumerate(zip(parsed_rows, board.row_lengths, strict=True)):
        if len(cells) != length:
            raise PositionError(
                "row-length",
                f"row {'abcdefgh'[number]} has {length} holes; {rows[number]!r} makes {len(cells)}",
            )
        for cell in cells:
            if cell is not None:
                pegs[cell.index] |= 1 << hole
            hole += 1
    rt, rs, bt, bs = pegs
    return Position(board, (rt, rs, bt, bs), Colour(mover))


def position_problem(position: Position) -> PositionError | None:
    """Why a placement cannot be accepted (``piece-count`` or ``unreachable``, P6.6), as
    data; None when it is acceptable. A position that is wrong is reported, not raised."""
    wanted = PEGS_PER_KIND[position.board.name]
    for peg in Peg:
        count = position.pegs[peg.index].bit_count()
        if count != wanted:
            return PositionError(
                "piece-count",
                f"{peg.colour.title} has {count} {peg.kind.value} pegs; each player has "
                f"{wanted} tall and {wanted} short on the {position.board.title}",
            )
    if position.meets_goal(position.to_move):
        return PositionError(
            "unreachable",
            f"{position.to_move.title} is to move but already meets the goal, which cannot "
            "happen in play (P5.5)",
        )
    return None


SETUP_TEXTS = {
    "64A": "64 rRrRrRrR/RrRrRrRr/8/8/8/8/bBbBbBbB/BbBbBbBb r",
    "64B": "64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/8/8 r",
    "46": "46 rRrRrR1/RrRrRr/7/6/7/BbBbBb/bBbBbB1 r",
}
"""The setups of P3.5, by name."""

SETUP_TITLES = {
    "64A": "64A (large board, ends)",
    "64B": "64B (large board, interlocked)",
    "46": "46 (small board)",
}
DEFAULT_SETUP = "64B"
"""P3.3: the interlocked large-board setup is the default."""

SETUPS = {name: Position.parse(text) for name, text in SETUP_TEXTS.items()}


def setup(name: str) -> Position:
    """The start position of a setup (``64A``, ``64B``, ``46``; P3); ValueError otherwise."""
    key = name.strip().upper()
    if key not in SETUPS:
        raise ValueError(f"there is no setup {name!r}: the setups are {', '.join(SETUPS)}")
    return SETUPS[key]


def setup_name(position: Position) -> str | None:
    """The name of the setup a position is, if it is one."""
    for name, start in SETUPS.items():
        if start == position:
            return name
    return None


__all__ = [
    "DEFAULT_SETUP",
    "SETUPS",
    "SETUP_TEXTS",
    "Position",
    "PositionError",
    "position_problem",
    "setup",
    "setup_name",
]
