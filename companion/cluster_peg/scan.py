"""A camera's reading of a Cluster board, and the move it shows (P6.3).

The camera sees which holes hold a peg and of which colour; it does not see a peg's kind, which
the tracked position knows (so the heights come from tracking). A :class:`PegScan` holds one
:class:`HoleReading` per hole; a hole the camera could not read for sure is ``unknown`` and
never counts for or against anything.

:func:`compare` holds a scan against the tracked position. By P6.3 different legal moves leave
different occupancies, so a correct reading names at most one legal move: the change the
camera saw is explained by exactly one move whose two holes it read (entered), by several when
unknown holes hide the difference (asked about), or by none. One move that fits only through a
hole read as unknown is not entered: a peg knocked off under a hand looks the same, so the
camera says which hole to uncover. Or no move fits: an impossible change (two holes emptied, a
peg gone, a peg of the wrong colour...), reported and never entered.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cluster_peg import movegen
from companion.cluster_peg.atoms import Colour, Peg, kind_from_height
from companion.cluster_peg.board import BOARDS, Board
from companion.cluster_peg.moves import Move, after
from companion.cluster_peg.position import Position
from companion.errors import StateError


class Seen(enum.Enum):
    """What a camera makes of one hole."""

    EMPTY = "empty"
    RED = "red"
    BLUE = "blue"
    UNKNOWN = "unknown"

    __hash__ = object.__hash__

    @classmethod
    def of(cls, peg: Peg | None) -> Seen:
        if peg is None:
            return cls.EMPTY
        return cls.RED if peg.colour is Colour.RED else cls.BLUE


@dataclasses.dataclass(frozen=True)
class HoleReading:
    """One hole as read: what is there, how sure the reader is (0..1), and the height read off
    the peg's top when a reader can read it (P2.5), else None."""

    seen: Seen
    confidence: float = 1.0
    height: int | None = None


@dataclasses.dataclass(frozen=True)
class PegScan:
    """A reading of every hole of one board, in hole order."""

    board: str
    """``"64"`` or ``"46"``."""
    holes: tuple[HoleReading, ...]

    def __post_init__(self) -> None:
        board = BOARDS.get(self.board)
        if board is None:
            raise StateError(f"there is no board {self.board!r}: the boards are 64 and 46")
        if len(self.holes) != board.size:
            raise StateError(
                f"a reading of the {board.title} has {board.size} holes, not {len(self.holes)}"
            )

    @property
    def layout(self) -> Board:
        return BOARDS[self.board]

    def seen(self, name: str) -> Seen:
        return self.holes[self.layout.hole(name)].seen

    @classmethod
    def from_position(cls, position: Position, *, unknown: Sequence[str] = ()) -> PegScan:
        """What a perfect camera sees of a position (``unknown`` holes left unread)."""
        board = position.board
        hidden = {board.hole(name) for name in unknown}
        return cls(
            board.name,
            tuple(
                HoleReading(Seen.UNKNOWN, 0.0)
                if hole in hidden
                else HoleReading(Seen.of(position.peg_at(hole)))
                for hole in range(board.size)
            ),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PegScan:
        """From ``{"board": "64", "holes": {"a1": "red" | ["red", 0.9] | ..., ...}}``; holes
        left out are unknown."""
        board = BOARDS.get(str(data.get("board")))
        if board is None:
            raise StateError("a reading names its board: 64 or 46")
        given = data.get("holes") or {}
        readings = []
        for name in board.names:
            raw = given.get(name, "unknown")
            if isinstance(raw, str):
                readings.append(HoleReading(Seen(raw), 1.0 if raw != "unknown" else 0.0))
            else:
                readings.append(HoleReading(Seen(raw[0]), float(raw[1])))
        return cls(board.name, tuple(readings))

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "holes": {
                name: [reading.seen.value, round(reading.confidence, 3)]
                for name, reading in zip(self.layout.names, self.holes, strict=True)
            },
        }


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What a scan shows against the tracked position."""

    moves: tuple[str, ...]
    """The legal moves of the player to move that explain every hole read (P6.3)."""
    changed: tuple[str, ...]
    """Holes read otherwise than the tracked position has them."""
    discrepancies: tuple[tuple[str | None, str], ...]
    """(hole or None, message) for what no legal move explains, and height misreadings."""
    unknown: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The service's ``compare_scan`` answer."""
        return {
            "discrepancies": [
                {"hole": hole, "message": message} for hole, message in self.discrepancies
            ],
            "missing": list(self.unknown),
            "moves": list(self.moves),
        }


def compare(position: Position, scan: PegScan, *, moves_allowed: bool = True) -> Comparison:
    """Hold ``scan`` against ``position`` (see the module's description)."""
    board = position.board
    if scan.board != board.name:
        raise StateError(
            f"the reading is of the {scan.layout.title}, the game is on the {board.title}"
        )
    known = [
        (hole, reading)
        for hole, reading in enumerate(scan.holes)
        if reading.seen is not Seen.UNKNOWN
    ]
    unknown = tuple(board.names[h] for h, r in enumerate(scan.holes) if r.seen is Seen.UNKNOWN)
    changed = [h for h, r in known if r.seen is not Seen.of(position.peg_at(h))]
    problems: list[tuple[str | None, str]] = []
    if not changed:
        return Comparison((), (), tuple(_height_problems(position, known)), unknown)
    moves: list[str] = []
    if moves_allowed and position.winner() is None:
        red = position.to_move is Colour.RED
        for code in movegen.generate(board, position.pegs, red):
            if _explains(after(position, code), known):
                moves.append(Move.from_code(board, code).text())
    names = tuple(board.names[h] for h in changed)
    if len(moves) == 1 and (hidden := _unseen_ends(board, moves[0], scan)):
        # One move fits, but only because the camera could not read where it went (or came
        # from): a peg knocked off with a hand over the board looks the same. Not seen: wait.
        move = moves[0]
        message = (
            f"the camera cannot read {' and '.join(hidden)}: if {position.to_move.title} "
            f"played {move}, uncover {'it' if len(hidden) == 1 else 'them'} to let it see the move"
        )
        return Comparison((), names, ((hidden[0], message),), unknown)
    if moves:
        if len(moves) == 1:
            problems += _height_problems(after(position, Move.parse(moves[0]).code(board)), known)
        return Comparison(tuple(moves), names, tuple(problems), unknown)
    problems += [
        (
            board.names[h],
            f"{board.names[h]}: the game has {_words(Seen.of(position.peg_at(h)))}, the camera "
            f"sees {_words(scan.holes[h].seen)}",
        )
        for h in changed
    ]
    problems.append((None, _no_move_explains(position, known, changed, moves_allowed)))
    return Comparison((), names, tuple(problems), unknown)


def _unseen_ends(board: Board, move: str, scan: PegScan) -> list[str]:
    """The move's origin and destination holes that the camera read as unknown."""
    parsed = Move.parse(move)
    ends = (parsed.origin, parsed.destination)
    return [name for name in ends if scan.holes[board.hole(name)].seen is Seen.UNKNOWN]


def _explains(position: Position, known: list[tuple[int, HoleReading]]) -> bool:
    return all(reading.seen is Seen.of(position.peg_at(hole)) for hole, reading in known)


def _height_problems(
    position: Position, known: list[tuple[int, HoleReading]]
) -> list[tuple[str | None, str]]:
    """P2.5: a height read off a peg must fit the tracked peg's kind and its hole's depth."""
    out: list[tuple[str | None, str]] = []
    board = position.board
    for hole, reading in known:
        if reading.height is None:
            continue
        peg = position.peg_at(hole)
        name = board.names[hole]
        kind = kind_from_height(reading.height, deep=board.is_deep(hole))
        depth = "deep" if board.is_deep(hole) else "shallow"
        if kind is None:
            out.append((name, f"{name}: height {reading.height} cannot be read in a {depth} hole"))
        elif peg is not None and kind is not peg.kind:
            out.append(
                (
                    name,
                    f"{name}: the camera reads height {reading.height} ({kind.value} peg), "
                    f"the game has a {peg.kind.value} peg there",
                )
            )
    return out


def _words(seen: Seen) -> str:
    return {
        Seen.EMPTY: "an empty hole",
        Seen.RED: "a red peg",
        Seen.BLUE: "a blue peg",
        Seen.UNKNOWN: "nothing it can read",
    }[seen]


def _no_move_explains(
    position: Position,
    known: list[tuple[int, HoleReading]],
    changed: list[int],
    moves_allowed: bool,
) -> str:
    if not moves_allowed or position.winner() is not None:
        return "the game is over, yet the board changed: put the pegs back"
    other = position.with_to_move(position.to_move.other)
    board = position.board
    for code in movegen.generate(board, other.pegs, other.to_move is Colour.RED):
        if _explains(after(other, code), known):
            move = Move.from_code(board, code).text()
            return (
                f"that looks like {other.to_move.title}'s move {move}, but it is "
                f"{position.to_move.title}'s turn: put it back"
            )
    emptied = sum(1 for h in changed if position.peg_at(h) is not None)
    return (
        f"no legal move of {position.to_move.title} explains what the camera sees "
        f"({len(changed)} hole{'s' if len(changed) != 1 else ''} changed, {emptied} of them "
        "emptied): put the pegs back as the game has them, or correct the game"
    )
