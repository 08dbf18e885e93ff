"""What the table service needs from a game, and nothing more.

The service (seats, phases, timers, storage) is the same for every game of the family; a game
plugs in through two small interfaces: a :class:`GameSetup` while seats choose, then a
:class:`GameSession` while the game runs. Submissions are text in the game's own notation
(orders, build plans, retreat choices), validated by the game with its own reasons.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, runtime_checkable

from companion.errors import CompanionError


class StageKind(enum.Enum):
    """What the service does in a stage; the game names its own stages of each kind."""

    LOBBY = "lobby"
    """Seats join and make their setup choices."""
    DISCUSSION = "discussion"
    """Players talk; nothing is submitted; every ready press ends it early."""
    SECRET = "secret"
    """Every owing seat submits in secret; ends at its deadline or when all are ready."""
    TURN = "turn"
    """One seat acts; its move (a final submission, or its ready press on a pending one)
    ends the stage."""
    OVER = "over"
    """The game has ended."""


LIGHTS = ("dim white", "blue", "green", "red", "amber", "magenta", "cyan", "white")
"""The phase LED colours a stage may ask for (:data:`Stage.light`)."""


@dataclasses.dataclass(frozen=True)
class Stage:
    """A stage of a table: the service's own (:attr:`LOBBY`, :attr:`DISCUSSION`, :attr:`OVER`)
    or one a game declares in its registration. Stored by its :attr:`value`."""

    value: str
    """The name stored in the log and snapshots (``"command"``, ``"turn"``...)."""
    title: str
    """What screens call it (``"Orders"``)."""
    kind: StageKind
    awaited: str = ""
    """What a seat owes in it, for lights and screens (``"orders"``, ``"move"``)."""
    light: str = "green"
    """The phase LED's colour, one of :data:`LIGHTS`."""
    discussed: bool = False
    """A DISCUSSION stage comes before each one (Local Cluster's R8.1)."""

    LOBBY: ClassVar[Stage]
    DISCUSSION: ClassVar[Stage]
    OVER: ClassVar[Stage]

    def __post_init__(self) -> None:
        if self.light not in LIGHTS:
            raise ValueError(f"stage {self.value!r}: light {self.light!r} is not one of {LIGHTS}")

    @property
    def playing(self) -> bool:
        """Whether the game is under way (not joining, not over)."""
        return self.kind not in (StageKind.LOBBY, StageKind.OVER)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for views: every screen and panel learns the stage from this."""
        return {
            "value": self.value,
            "title": self.title,
            "kind": self.kind.value,
            "awaited": self.awaited,
            "light": self.light,
            "discussed": self.discussed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stage:
        return cls(
            str(data["value"]),
            str(data["title"]),
            StageKind(data["kind"]),
            str(data.get("awaited", "")),
            str(data.get("light", "green")),
            bool(data.get("discussed", False)),
        )


Stage.LOBBY = Stage("lobby", "Joining", StageKind.LOBBY, "setup choice", "dim white")
Stage.DISCUSSION = Stage("discussion", "Discussion", StageKind.DISCUSSION, "", "blue")
Stage.OVER = Stage("over", "Game over", StageKind.OVER, "", "magenta")
SERVICE_STAGES = (Stage.LOBBY, Stage.DISCUSSION, Stage.OVER)


class SubmissionError(CompanionError, ValueError):
    """A submission the game refuses; ``reasons`` are in the player's words, one per problem."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = tuple(reasons)
        super().__init__("; ".join(reasons))


class GameSetup(Protocol):
    """A game between creation and start: the seats choose, then it starts."""

    game: str
    players: int

    def choosing_order(self) -> list[int]:
        """Seats in the order they choose (rulebook 3.2: the last to lay a tile first)."""
        ...

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        """The choice in canonical form, or SubmissionError."""
        ...

    def choices(self) -> dict[int, dict[str, Any]]:
        """Choices made before the table existed (an imported game); usually empty."""
        ...

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> GameSession: ...

    def to_dict(self) -> dict[str, Any]: ...

    def public(self) -> dict[str, Any]:
        """What everybody may see before the start (the map to choose homes on)."""
        ...

    def durations(self) -> dict[Stage, int]: ...


class GameSession(Protocol):
    """A running game."""

    game: str

    def stage(self) -> Stage:
        """What the game itself waits for: one of its registered stages, or Stage.OVER."""
        ...

    def turn(self) -> int: ...

    def active_seats(self) -> set[int]:
        """Seats still playing."""
        ...

    def owing(self) -> set[int]:
        """Seats that have something to submit in the current stage; in a turn-taking
        stage, exactly the seat whose turn it is."""
        ...

    def check_submission(self, seat: int, text: str) -> str:
        """The submission in canonical form, or SubmissionError with every reason.

        The service has already refused text longer than ``MAX_TEXT`` for every game."""
        ...

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        """Carry out the stage (missing seats take the defaults); a public summary."""
        ...

    def correct(self, text: str, reason: str) -> dict[str, Any]: ...

    def undo(self) -> dict[str, Any]: ...

    def durations(self) -> dict[Stage, int]:
        """Seconds each stage lasts; a stage left out has no clock of its own."""
        ...

    def step_count(self) -> int: ...

    def steps_since(self, count: int) -> list[dict[str, Any]]: ...

    def snapshot(self) -> dict[str, Any]: ...

    def record_json(self) -> str: ...

    def public(self) -> dict[str, Any]:
        """The position as everybody may see it."""
        ...

    def private(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see (its income statement, its retreats owed...)."""
        ...


@runtime_checkable
class ScanComparing(Protocol):
    """A session that can compare a camera's reading of the board with its position."""

    def compare_scan(self, scan: object) -> dict[str, Any]:
        """``{"discrepancies": [...], "missing": [...]}``, each discrepancy a plain dict
        with a ``message`` in the player's words."""
        ...


@runtime_checkable
class Previewing(Protocol):
    """A session that can say what a draft move would do, without playing or storing it."""

    def preview(self, seat: int, text: str) -> dict[str, Any]:
        """What the draft would do, for the seat's phone: at least ``"text"`` (the draft as the
        game reads it) and ``"says"`` (one line in the player's words: "2 action points
        left"); SubmissionError with every reason when it cannot be played."""
        ...
