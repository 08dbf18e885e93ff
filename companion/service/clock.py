"""Clocks, injected like gpiozero's pin factories: the real one and one tests drive by hand."""

from __future__ import annotations

import threading
import time
from typing import Protocol


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
