"""The attachments a server runs (panels, camera) and the table they serve, which can change.

``companion serve`` starts the enabled attachments (``companion.service.attachments``) for one
table. The table in play changes while the server runs: the host makes a rematch from the host
page, or opens another table's host page and says "use the panels for this table". An
attachment serves one table for its whole life (the ``attach(service, table_id, section)``
contract has no "switch"), so :class:`AttachmentSet` follows the table by closing every running
attachment and attaching it again to the new table: pins and ports are released first and
claimed again, so the GPIO panel and the USB panel need nothing of their own to follow.

It follows

* every new table (the service's ``table_created`` event), once :meth:`follow_new_tables` runs;
* the host's choice (:meth:`follow`), which wins over a table created before the choice;

unless the config file pins a table (``[server] table``): then it serves that one only.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.service import TableService
    from companion.service.attachments import Attach, Attachment
    from companion.service.events import Subscription

log = logging.getLogger("web.attachments")


class AttachmentError(CompanionError, RuntimeError):
    """The attachments cannot do that now (pinned by the config file, none running)."""


class AttachmentSet:
    """The attachments of one server and the table they serve. Close it to stop them all.

    ``config`` is the whole config file (each attachment takes its own ``[name]`` section);
    ``demo`` starts the installed attachments whose section does not say ``enabled = false``;
    ``pinned`` means the config file named the table: it is never changed.
    """

    def __init__(
        self,
        service: TableService,
        config: Mapping[str, Any],
        *,
        demo: bool,
        pinned: bool = False,
    ) -> None:
        self.service = service
        self.config = config
        self.demo = demo
        self.pinned = pinned
        self.table_id: str | None = None
        """The table the attachments serve (None before :meth:`start`, or with no table)."""
        self.problems: dict[str, str] = {}
        """Attachments that could not attach to the table they should serve, with why."""
        self._lock = threading.RLock()
        self._chosen: list[tuple[str, Attach, dict[str, Any]]] = []
        self._running: list[tuple[str, Attachment]] = []
        self._known: set[str] = set()
        self._subscription: Subscription | None = None
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._closed = False

    # Starting ------------------------------------------------------------------------------------

    def start(self, table_id: str | None) -> list[str]:
        """Choose the attachments the config enables and attach them to ``table_id``.

        Raises :class:`~companion.cli.CommandError` for an enabled attachment that cannot
        start; a demo skips it with a note on standard error instead. Returns the names of
        those running.
        """
        from companion.cli import CommandError
        from companion.service import attachments as registry

        with self._lock:
            for entry in registry.available():
                section = dict(self.config.get(entry.name, {}))
                enabled = section.pop("enabled", None)
                if not (enabled is True or (self.demo and enabled is None)):
                    continue
                try:
                    attach = entry.load()
                    if (
                        enabled is None
                        and entry.name not in self.config
                        and not registry.starts_in_demo(attach)
                    ):
                        continue  # needs a device plugged in: only when its section is there
                    if table_id is not None:
                        self._running.append((entry.name, attach(self.service, table_id, section)))
                except Exception as err:
                    if not self.demo or enabled is True:
                        self.close()
                        raise CommandError(
                            f"attachment {entry.name!r} did not start: {err}"
                        ) from err
                    print(f"(attachment {entry.name!r} skipped: {err})", file=sys.stderr)
                    continue
                self._chosen.append((entry.name, attach, section))
            self.table_id = table_id
            self._known = set(self.service.table_ids())
            return self.running

    def follow_new_tables(self) -> None:
        """From now on, attach to each table created (unless pinned): a background thread."""
        with self._lock:
            if self.pinned or self._watcher is not None or self._closed:
                return
            self._subscription = self.service.subscribe()
            self._watcher = threading.Thread(
                target=self._watch, name="attachments-follow", daemon=True
            )
            self._watcher.start()

    def _watch(self) -> None:
        assert self._subscription is not None
        while not self._stop.is_set():
            event = self._subscription.get(timeout=0.1)
            if event is None or event.kind != "table_created":
                continue
            with self._lock:
                if self._closed or event.table in self._known:
                    continue  # the host chose a table after this one was made
                try:
                    self._switch(event.table, "a new table")
                except Exception:  # never let the watcher die: the server carries on
                    log.exception("attachments: cannot follow the new table %s", event.table)

    # Following -----------------------------------------------------------------------------------

    def follow(self, table_id: str) -> list[str]:
        """The host's choice: serve ``table_id`` from now on. Returns the names running.

        Refused (:class:`AttachmentError`) when the config file pins a table or when no
        attachment is enabled. An attachment that cannot attach to the new table is left off,
        named in :attr:`problems` and in the log; the others carry on.
        """
        with self._lock:
            if self._closed:
                raise AttachmentError("the server is stopping: its attachments are closed")
            if not self._chosen:
                raise AttachmentError("this server runs no panel or camera")
            if self.pinned:
                raise AttachmentError(
                    f"the server's config file pins the panels and camera to table "
                    f"{self.table_id} ([server] table); change it there and restart"
                )
            self.service.table(table_id)  # an unknown table is refused before anything closes
            self._switch(table_id, "the host's choice")
            return self.running

    def _switch(self, table_id: str, why: str) -> None:
        self._known = set(self.service.table_ids())
        if table_id == self.table_id and not self.problems:
            return
        self._close_running()
        self.problems = {}
        for name, attach, section in self._chosen:
            try:
                self._running.append((name, attach(self.service, table_id, section)))
            except Exception as err:
                self.problems[name] = str(err)
                log.warning("attachments: %s cannot serve table %s: %s", name, table_id, err)
        self.table_id = table_id
        log.info(
            "attachments: %s now serve table %s (%s)",
            ", ".join(self.running) or "none",
            table_id,
            why,
        )

    # Questions -----------------------------------------------------------------------------------

    @property
    def running(self) -> list[str]:
        """The names of the attachments running now, in the order they started."""
        with self._lock:
            return [name for name, _ in self._running]

    @property
    def chosen(self) -> list[str]:
        """The names of the attachments this server runs (whichever table they serve)."""
        with self._lock:
            return [name for name, _, _ in self._chosen]

    # Closing -------------------------------------------------------------------------------------

    def _close_running(self) -> None:
        for _name, attached in reversed(self._running):
            try:
                attached.close()
            except Exception:
                log.exception("attachments: %s did not close cleanly", _name)
        self._running = []

    def close(self) -> None:
        """Stop following and close every attachment (last started, first closed). Idempotent."""
        self._stop.set()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join(timeout=5)
        with self._lock:
            self._closed = True
            if self._subscription is not None:
                self._subscription.close()
            self._close_running()

    def __enter__(self) -> AttachmentSet:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
