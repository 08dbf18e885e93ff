"""Group commit: log entries applied in memory, made durable together, then published.

Committing an entry with ``synchronous=FULL`` waits for the disk (about 10 ms on an SD card),
and the service used to wait holding its lock, so eight seats sending their orders at once
waited for eight commits in a row. Here a command applies its entry and queues it under the
service's lock, then waits for it *outside* the lock: the first waiter writes every queued
entry in one transaction (one wait for the disk) while the next commands apply theirs, and
the next waiter writes those. No command returns and no event is published before its entry
is on disk, and entries reach the disk in the order they were applied (a crash loses a suffix
of unacknowledged entries, never a hole). If a write fails, every table with an entry that did
not reach the disk is rebuilt from disk by the service before the error goes up.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

from companion.service.events import Event, EventBus
from companion.service.storage import LogEntry, Storage, StorageError


@dataclasses.dataclass(frozen=True)
class Pending:
    """One applied entry waiting for the disk: with its steps, snapshot and events."""

    number: int
    table_id: str
    entry: LogEntry
    steps: list[tuple[int, dict[str, Any]]]
    snapshot: Mapping[str, Any] | None
    events: list[Event]


class Journal:
    """The queue of applied entries and who writes them next."""

    def __init__(self, storage: Storage, bus: EventBus) -> None:
        self.storage = storage
        self.bus = bus
        self.changed = threading.Condition()
        self.pending: list[Pending] = []
        self.issued = 0
        """The number of the latest entry queued."""
        self.durable = 0
        """Every entry up to this number is on disk (and its events published)."""
        self.writing = False
        self.failure: StorageError | None = None
        self.failed_tables: set[str] = set()
        """Tables with entries applied in memory that will never reach the disk."""
        self.lost: list[tuple[int, int, StorageError]] = []
        """Ranges of entry numbers (after, up to) that a failed write lost, with its error."""

    def add(
        self,
        table_id: str,
        entry: LogEntry,
        steps: list[tuple[int, dict[str, Any]]],
        snapshot: Mapping[str, Any] | None,
        events: list[Event],
    ) -> int:
        """Queue an applied entry (under the service's lock); its number, to wait for."""
        with self.changed:
            if self.failure is not None:
                self.failed_tables.add(table_id)
                raise self.failure
            self.issued += 1
            self.pending.append(Pending(self.issued, table_id, entry, steps, snapshot, events))
            return self.issued

    def wait(self, number: int) -> None:
        """Return once entry ``number`` is on disk and its events published: writing it (and
        everything queued with it) if nobody else is. Raises the write's StorageError."""
        while True:
            with self.changed:
                while True:
                    for after, upto, error in self.lost:
                        if after < number <= upto:
                            raise error
                    if self.durable >= number:
                        return
                    if self.failure is not None:
                        raise self.failure
                    if not self.writing:
                        break
                    self.changed.wait()
                batch, self.pending = self.pending, []
                self.writing = True
            self._write(batch)

    def _write(self, batch: list[Pending]) -> None:
        try:
            self.storage.append_many(
                (item.table_id, item.entry, item.steps, item.snapshot) for item in batch
            )
        except StorageError as err:
            with self.changed:
                self.failure = err
                self.lost.append((self.durable, self.issued, err))
                self.failed_tables |= {item.table_id for item in [*batch, *self.pending]}
                self.pending = []
                self.writing = False
                self.changed.notify_all()
            raise
        for item in batch:  # in the order they were applied, before anyone is answered
            for event in item.events:
                self.bus.publish(event)
        with self.changed:
            if batch:
                self.durable = batch[-1].number
            self.writing = False
            self.changed.notify_all()

    def take_failure(self) -> set[str]:
        """After a failed write: the tables to rebuild from disk; writing may start again."""
        with self.changed:
            tables, self.failed_tables = self.failed_tables, set()
            self.failure = None
            self.changed.notify_all()
            return tables
