"""Moves: their notation (P6.2), the legal moves of a position (P4, P4.10) and refusals (P4.11).

A :class:`Move` is a value with symmetric parse and format (``Move.parse("b4-c4").text()``).
A move that breaks a rule is refused with :class:`MoveError`, whose ``code`` is the first
reason of P4.11 that applies and whose message says it in a player's words
(``c4 to c6 jumps over the empty hole c5``).
"""

from __future__ import annotations

import dataclasses
import re

from companion.cluster_peg import movegen
from companion.cluster_peg.board import Board, Hole, UnknownHoleError
from companion.cluster_peg.position import Position
from companion.errors import CompanionError

STEP = "-"
JUMP = "*"
_MOVE = re.compile(r"([a-z](?:0|[1-9][0-9]{0,2}))([-*])([a-z](?:0|[1-9][0-9]{0,2}))")

REFUSALS = (
    "syntax",
    "no-hole",
    "game-over",
    "no-piece",
    "not-yours",
    "occupied",
    "not-in-line",
    "gap",
    "separator",
)
"""The reasons of P4.11, in the order they are checked."""


class MoveError(CompanionError, ValueError):
    """A move refused by P4.11 (it is void: nothing changes); ``code`` is one of
    :data:`REFUSALS`, the message says why in a player's words."""

    def __init__(self, code: str, message: str, *, text: str = "") -> None:
        self.code = code
        self.reason = message
        self.text = text
        super().__init__(message)


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """A step (``b4-c4``) or a jump (``a1*c2``), by hole names in lower case (P6.2)."""

    origin: str
    destination: str
    jump: bool = False

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from its text (any case, surrounding spaces ignored); MoveError ``syntax``
        when it is not origin, ``-`` or ``*``, destination."""
        cleaned = text.strip().lower()
        found = _MOVE.fullmatch(cleaned)
        if found is None:
            raise MoveError(
                "syntax",
                f"{text.strip()!r} is not a move: write the peg's hole, - for a step or * for "
                "a jump, and the hole it goes to (b4-c4, a1*c2)",
                text=text,
            )
        origin, separator, destination = found.groups()
        return cls(origin, destination, separator == JUMP)

    def text(self) -> str:
        return f"{self.origin}{JUMP if self.jump else STEP}{self.destination}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse({self.text()!r})"

    @classmethod
    def from_code(cls, board: Board, move: int) -> Move:
        """The move a generator's code stands for, on ``board``."""
        origin = movegen.origin_of(move)
        destination = movegen.destination_of(move)
        return cls(board.names[origin], board.names[destination], movegen.is_jump(board, move))

    def code(self, board: Board) -> int:
        """The generator's code of this move on ``board`` (UnknownHoleError if off it)."""
        return movegen.code(board.hole(self.origin), board.hole(self.destination))


def legal_moves(position: Position) -> list[Move]:
    """Every legal move in canonical order (P4.10); none once the position is won (P5.3)."""
    if position.winner() is not None:
        return []
    board = position.board
    return [
        Move.from_code(board, move)
        for move in movegen.generate(board, position.pegs, position.to_move.value == "r")
    ]


def legal_codes(position: Position) -> list[int]:
    """The legal moves as generator codes, canonical order (none once won)."""
    if position.winner() is not None:
        return []
    return movegen.generate(position.board, position.pegs, position.to_move.value == "r")


def check(position: Position, move: Move | str) -> int:
    """The move's code if it is legal here; MoveError with the first reason of P4.11."""
    text = move if isinstance(move, str) else move.text()
    parsed = Move.parse(move) if isinstance(move, str) else move
    board = position.board
    try:
        origin = board.hole(parsed.origin)
        destination = board.hole(parsed.destination)
    except UnknownHoleError as err:
        raise MoveError("no-hole", str(err), text=text) from None
    winner = position.winner()
    if winner is not None:
        raise MoveError("game-over", f"the game is over: {winner.title} has won", text=text)
    return _check_holes(position, origin, destination, parsed.jump, text)


def _check_holes(position: Position, origin: Hole, destination: Hole, jump: bool, text: str) -> int:
    board = position.board
    names = board.names
    o, d = names[origin], names[destination]
    peg = position.peg_at(origin)
    if peg is None:
        raise MoveError("no-piece", f"there is no peg in {o}", text=text)
    mover = position.to_move
    if peg.colour is not mover:
        raise MoveError(
            "not-yours",
            f"the peg in {o} is {peg.colour.title}'s; it is {mover.title}'s turn",
            text=text,
        )
    there = position.peg_at(destination)
    if there is not None:
        if origin == destination:
            message = f"{o} to {d} goes nowhere: the peg is already in {d}"
        else:
            message = f"{d} is taken by {there.describe()}"
        raise MoveError("occupied", message, text=text)
    try:
        _direction, between = board.line_between(origin, destination)
    except ValueError:
        raise MoveError(
            "not-in-line",
            f"{o} and {d} are not on one line: a peg moves along its row or a diagonal",
            text=text,
        ) from None
    occupied = position.occupied
    empty = [names[h] for h in between if not occupied >> h & 1]
    if empty:
        holes = f"hole {empty[0]}" if len(empty) == 1 else "holes " + _and(empty)
        raise MoveError("gap", f"{o} to {d} jumps over the empty {holes}", text=text)
    really_jump = bool(between)
    if jump != really_jump:
        if really_jump:
            message = f"{o} to {d} is a jump: write {o}{JUMP}{d}"
        else:
            message = f"{o} to {d} is a step: write {o}{STEP}{d}"
        raise MoveError("separator", message, text=text)
    return movegen.code(origin, destination)


def _and(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]


def play(position: Position, move: Move | str) -> Position:
    """The position after a legal move (the other player to move); MoveError otherwise."""
    return after(position, check(position, move))


def after(position: Position, move: int) -> Position:
    """The position after a move given by its code (not checked)."""
    return Position(position.board, movegen.apply(position.pegs, move), position.to_move.other)
