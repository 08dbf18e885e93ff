"""Clocks, injected like gpiozero's pin factories: the real one and one tests drive by hand."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Mapping
from typing import Any, Protocol

from companion.errors import StateError


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def wait(self, seconds: float, stop: threading.Event) -> bool:
        """Sleep up to ``seconds`` or until ``stop`` is set; True if stopped."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> float:
        return time.time()

    def wait(self, seconds: float, stop: threading.Event) -> bool:
        return stop.wait(seconds)


class FakeClock:
    """A clock that moves only when told to, so tests run whole games in milliseconds.

    It records every ``advance`` so a test can see how time went by.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self.history: list[float] = [start]

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        with self._lock:
            self._now += seconds
            self.history.append(self._now)
            return self._now

    def set(self, when: float) -> None:
        with self._lock:
            if when < self._now:
                raise ValueError("a clock does not go backwards")
            self._now = when
            self.history.append(when)

    def wait(self, seconds: float, stop: threading.Event) -> bool:
        # Tests call TableService.tick() themselves; a fake clock never sleeps.
        return stop.wait(0.001)


TURN_CLOCK_MODES = ("none", "turn", "player")


@dataclasses.dataclass(frozen=True)
class TurnClock:
    """How a turn-taking game's turns are timed: a house rule of the table.

    ``none``: no clock (the game's own durations, if any); ``turn``: every turn has
    ``seconds``; ``player``: each seat has ``seconds`` for the whole game, a chess clock that
    runs only during its own turns and stops while the table is paused.
    """

    mode: str = "none"
    seconds: int = 0

    def __post_init__(self) -> None:
        if self.mode not in TURN_CLOCK_MODES:
            raise StateError(
                f"a turn clock is one of {', '.join(TURN_CLOCK_MODES)}, not {self.mode!r}"
            )
        if self.mode != "none" and not 1 <= self.seconds <= 24 * 3600:
            raise StateError(f"a turn clock has 1 second to a day, not {self.seconds}")

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "seconds": self.seconds}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnClock:
        return cls(str(data.get("mode", "none")), int(data.get("seconds", 0)))

    def describe(self) -> str:
        if self.mode == "turn":
            return f"{_span(self.seconds)} a turn"
        if self.mode == "player":
            return f"{_span(self.seconds)} a player for the game (chess clock)"
        return "no clock"


def _span(seconds: int) -> str:
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"
