"""Events the service publishes to its subscribers: the web site, the panels, the camera loop.

Subscribers get :class:`Event` values on their own queue, so a slow subscriber never holds up
the service or another subscriber (a full queue drops that subscriber's oldest event).
"""

from __future__ import annotations

import dataclasses
import queue
import re
import threading
from collections.abc import Mapping
from typing import Any

EVENT_KINDS = frozenset(
    {
        "table_created",
        "seat_joined",
        "seat_chose",
        "phase",
        "tick",
        "ready",
        "submitted",
        "results",
        "retreats_done",
        "build_summary",
        "correction",
        "undo",
        "paused",
        "resumed",
        "extended",
        "game_over",
        "scan",  # a camera scan of the board (web: the table screen lists its discrepancies)
    }
)
"""The service's own kinds. A game's stage summaries add kinds of their own (``"move"``),
each a lowercase identifier: what a stage's ``resolve`` said happened."""


_GAME_KIND = re.compile(r"[a-z][a-z_]{0,39}")


@dataclasses.dataclass(frozen=True)
class Event:
    """Something that happened at a table. ``data`` never holds a seat's pending orders."""

    kind: str
    table: str
    at: float
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS and not _GAME_KIND.fullmatch(self.kind):
            raise ValueError(f"unknown event kind {self.kind!r}")


class Subscription:
    """One subscriber's queue of events. Close it (or use ``with``) to stop receiving."""

    def __init__(self, bus: EventBus, table: str | None, maxsize: int) -> None:
        self._bus = bus
        self.table = table
        self.queue: queue.Queue[Event] = queue.Queue(maxsize)
        self.dropped = 0
        self.closed = False

    def put(self, event: Event) -> None:
        while True:
            try:
                self.queue.put_nowait(event)
                return
            except queue.Full:
                try:
                    self.queue.get_nowait()
                    self.dropped += 1
                except queue.Empty:  # pragma: no cover - raced with a reader
                    pass

    def get(self, timeout: float | None = None) -> Event | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[Event]:
        found = []
        while True:
            try:
                found.append(self.queue.get_nowait())
            except queue.Empty:
                return found

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._bus._remove(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EventBus:
    """Fan-out of events to subscriptions, each for one table or for all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: list[Subscription] = []

    def subscribe(self, table: str | None = None, *, maxsize: int = 1000) -> Subscription:
        subscription = Subscription(self, table, maxsize)
        with self._lock:
            self._subscriptions.append(subscription)
        return subscription

    def _remove(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)

    def publish(self, event: Event) -> None:
        with self._lock:
            targets = [s for s in self._subscriptions if s.table in (None, event.table)]
        for subscription in targets:
            subscription.put(event)
