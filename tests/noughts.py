"""Noughts and crosses: a tiny turn-taking game registered only in the tests.

It is the worked example of docs/architecture.md ("Adding a game"): a rules core, a table
session and one registration, played through the table service, the web pages and a panel
without any shared module naming it. Seat 1 plays X and moves first, seat 2 plays O; a move is
a cell, ``a1`` to ``c3`` (column, then row). A seat whose turn clock runs out loses.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from companion import games
from companion.errors import CompanionError, StateError
from companion.games import Game, Play
from companion.service.session import Previewing, Stage, StageKind, SubmissionError

NAME = "noughts"
MARKS = {1: "X", 2: "O"}
CELLS = tuple(f"{col}{row}" for row in "123" for col in "abc")
LINES = (
    *((f"a{r}", f"b{r}", f"c{r}") for r in "123"),
    *((f"{c}1", f"{c}2", f"{c}3") for c in "abc"),
    ("a1", "b2", "c3"),
    ("a3", "b2", "c1"),
)
MOVE = Stage("move", "Move", StageKind.TURN, "move", "green")


class CellError(CompanionError, ValueError):
    """A move that names no cell of the board."""


def parse_cell(text: str) -> str:
    cell = text.strip().lower()
    if cell not in CELLS:
        raise CellError(
            f"{text.strip()!r} is not a cell: write a column a-c and a row 1-3, e.g. b2"
        )
    return cell


@dataclasses.dataclass(frozen=True)
class Position:
    """The board (cell -> mark) and the moves that made it."""

    moves: tuple[str, ...] = ()
    forfeit: int | None = None
    """The seat that ran out of time, if one did."""

    @property
    def board(self) -> dict[str, str]:
        return {cell: MARKS[1 + i % 2] for i, cell in enumerate(self.moves)}

    @property
    def to_move(self) -> int:
        return 1 + len(self.moves) % 2

    def winner(self) -> int | None:
        if self.forfeit is not None:
            return 3 - self.forfeit
        board = self.board
        for line in LINES:
            marks = {board.get(cell) for cell in line}
            if len(marks) == 1 and None not in marks:
                return 1 if marks == {"X"} else 2
        return None

    @property
    def over(self) -> bool:
        return self.winner() is not None or len(self.moves) == 9

    def why_not(self, seat: int, cell: str) -> str | None:
        if self.over:
            return "the game is over"
        if seat != self.to_move:
            return f"it is {MARKS[self.to_move]}'s turn"
        if cell in self.board:
            return f"{cell} already holds {self.board[cell]}"
        return None

    def play(self, cell: str) -> Position:
        return dataclasses.replace(self, moves=(*self.moves, cell))

    def digest(self) -> str:
        text = json.dumps({"moves": list(self.moves), "forfeit": self.forfeit})
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class NoughtsSetup:
    game = NAME

    def __init__(self, players: int = 2) -> None:
        if players != 2:
            raise StateError(f"noughts and crosses is for 2 players, not {players}")
        self.players = players

    def choosing_order(self) -> list[int]:
        return []  # nothing to choose: the game starts when both seats have joined

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        raise SubmissionError(["there is nothing to choose in noughts and crosses"])

    def choices(self) -> dict[int, dict[str, Any]]:
        return {}

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> NoughtsSession:
        return NoughtsSession(Position())

    def to_dict(self) -> dict[str, Any]:
        return {"game": NAME, "players": self.players}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NoughtsSetup:
        return cls(int(data["players"]))

    def public(self) -> dict[str, Any]:
        return {}

    def durations(self) -> dict[Stage, int]:
        return {}


class NoughtsSession:
    game = NAME

    def __init__(self, position: Position, steps: list[dict[str, Any]] | None = None) -> None:
        self.position = position
        self.steps: list[dict[str, Any]] = steps or []

    def stage(self) -> Stage:
        return Stage.OVER if self.position.over else MOVE

    def turn(self) -> int:
        return len(self.position.moves) + 1

    def active_seats(self) -> set[int]:
        return {1, 2}

    def owing(self) -> set[int]:
        return set() if self.position.over else {self.position.to_move}

    def check_submission(self, seat: int, text: str) -> str:
        try:
            cell = parse_cell(text)
        except CellError as err:
            raise SubmissionError([str(err)]) from None
        reason = self.position.why_not(seat, cell)
        if reason:
            raise SubmissionError([f"{cell}: {reason}"])
        return cell

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        seat = self.position.to_move
        if seat not in submissions:  # the turn's clock ran out
            self.position = dataclasses.replace(self.position, forfeit=seat)
            self._step("forfeit", seat, None)
            return {"kind": "forfeit", "seat": seat}
        cell = self.check_submission(seat, submissions[seat])
        self.position = self.position.play(cell)
        self._step("move", seat, cell)
        return {"kind": "move", "seat": seat, "cell": cell, "mark": MARKS[seat]}

    def _step(self, kind: str, seat: int, cell: str | None) -> None:
        self.steps.append(
            {"kind": kind, "seat": seat, "cell": cell, "digest": self.position.digest()}
        )

    def correct(self, text: str, reason: str) -> dict[str, Any]:
        raise StateError("noughts and crosses takes no corrections; undo the last move instead")

    def undo(self) -> dict[str, Any]:
        position = self.position
        if position.forfeit is not None:
            self.position = dataclasses.replace(position, forfeit=None)
        elif position.moves:
            self.position = dataclasses.replace(position, moves=position.moves[:-1])
        else:
            raise StateError("there is no move to take back")
        self._step("undo", position.to_move, None)
        return {"text": "undo", "reason": "agreed at the table"}

    def durations(self) -> dict[Stage, int]:
        return {}

    def compare_scan(self, scan: object) -> dict[str, Any]:
        """A camera's reading: cell -> "X", "O", "" (empty) or "?" (unknown). The moves are the
        legal ones that explain it; a mark the tracked board lacks is a discrepancy."""
        assert isinstance(scan, dict)
        board = self.position.board
        seen = {cell: scan.get(cell, "?") for cell in CELLS}
        problems = [
            {"message": f"{cell}: expected {board.get(cell) or 'empty'}, saw {mark or 'empty'}"}
            for cell, mark in seen.items()
            if mark != "?"
            and mark != board.get(cell, "")
            and not (mark == MARKS[self.position.to_move] and cell not in board)
        ]
        new = [c for c, m in seen.items() if c not in board and m == MARKS[self.position.to_move]]
        unsure = [c for c, m in seen.items() if c not in board and m == "?"]
        moves = new if len(new) == 1 else ([] if new else unsure)
        if len(new) > 1:
            problems.append({"message": f"{len(new)} new marks at once: {', '.join(new)}"})
        return {
            "discrepancies": problems,
            "missing": [],
            "moves": moves if not self.position.over else [],
        }

    def step_count(self) -> int:
        return len(self.steps)

    def steps_since(self, count: int) -> list[dict[str, Any]]:
        return [dict(step) for step in self.steps[count:]]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "moves": list(self.position.moves),
            "forfeit": self.position.forfeit,
            "step_count": len(self.steps),
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any], steps: list[Mapping[str, Any]]) -> NoughtsSession:
        position = Position(tuple(data["moves"]), data.get("forfeit"))
        kept = [dict(step) for step in steps[: data["step_count"]]]
        return cls(position, kept)

    def record_json(self) -> str:
        record = {"format": "noughts", "version": 1, "game": NAME, "steps": self.steps}
        return json.dumps(record, indent=1, sort_keys=True) + "\n"

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "board": self.position.board,
            "moves": list(self.position.moves),
            "to_move": None if self.position.over else self.position.to_move,
        }
        if self.position.over:
            winner = self.position.winner()
            out["result"] = {"winner": winner, "draw": winner is None}
        return out

    def private(self, seat: int) -> dict[str, Any]:
        return {"mark": MARKS[seat]}


def _load_session(data: Mapping[str, Any], steps: list[Mapping[str, Any]]) -> NoughtsSession:
    return NoughtsSession.restore(data, steps)


GAME_INFO = Game(
    name=NAME,
    title="Noughts and Crosses",
    rules="noughts",
    play=Play.TURNS,
    players=(2, 2),
    stages=(MOVE,),
    new_setup=lambda new: NoughtsSetup(new.players),
    load_setup=NoughtsSetup.from_dict,
    load_session=_load_session,
    summary="Three in a row; a test-only game.",
)


def register() -> Game:
    """Register the game (tests call this; ``games.unregister(NAME)`` takes it away)."""
    return games.register(GAME_INFO)


@contextlib.contextmanager
def previewing(preview: Callable[[NoughtsSession, int, str], dict[str, Any]]) -> Iterator[None]:
    """Inside the block, every session of the game previews a draft with ``preview`` (the
    game itself does not: the service then only checks the draft). ``Previewing`` is a
    runtime-checkable protocol, an abstract base class that remembers its answer for each
    class; its memory is cleared on the way in and out, or a later test in the same process
    would still take these sessions to preview, and fail calling a method gone."""
    NoughtsSession.preview = preview
    Previewing._abc_caches_clear()
    try:
        yield
    finally:
        del NoughtsSession.preview
        Previewing._abc_caches_clear()
