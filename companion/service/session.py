"""What the table service needs from a game, and nothing more.

The service (seats, phases, timers, storage) is the same for every game of the family; a game
plugs in through two small interfaces: a :class:`GameSetup` while seats choose, then a
:class:`GameSession` while the game runs. Submissions are text in the game's own notation
(orders, build plans, retreat choices), validated by the game with its own reasons.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Protocol

from companion.errors import CompanionError


class Stage(enum.Enum):
    """Where a table is. DISCUSSION comes before every COMMAND; the game decides the rest."""

    LOBBY = "lobby"
    DISCUSSION = "discussion"
    COMMAND = "command"
    RETREATS = "retreats"
    BUILD = "build"
    OVER = "over"

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    Stage.LOBBY: "Joining",
    Stage.DISCUSSION: "Discussion",
    Stage.COMMAND: "Orders",
    Stage.RETREATS: "Retreats",
    Stage.BUILD: "Build",
    Stage.OVER: "Game over",
}


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
        """COMMAND, RETREATS, BUILD or OVER: what the game itself waits for."""
        ...

    def turn(self) -> int: ...

    def active_seats(self) -> set[int]:
        """Seats still playing."""
        ...

    def owing(self) -> set[int]:
        """Seats that have something to submit in the current stage."""
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

    def durations(self) -> dict[Stage, int]: ...

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
