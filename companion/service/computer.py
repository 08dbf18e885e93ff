"""Shared by every game: seats played by the computer, through the service like any player.

A game whose setup and session say which seats the computer plays (:class:`ComputerSeats`)
gets them played by :class:`ComputerPlayers`, a small driver outside the table's own code:

1. while the table is in its lobby, it joins each free computer seat (``service.join``, under
   the name the game gives it), so a game without setup choices starts when the people have
   joined;
2. when it is a computer seat's turn, it asks the session for a function that works out the
   move (:meth:`ComputerSeats.computer_move`, given the time left on the table's clock), runs
   it **outside** the service's lock (so screens and phones are served while it thinks), and
3. submits the answer with ``service.submit(..., final=True)`` under a request id made from the
   table's log position: the move is checked, stored and published like any player's, and a
   driver that stops half-way and starts again can never play a turn twice. If anything
   happened at the table while it thought (the host undid a move, paused, played for it), the
   answer is dropped and the turn looked at afresh.

:meth:`ComputerPlayers.play_pending` does one round for every table; tests call it directly
(with a fake clock), and :meth:`ComputerPlayers.start` runs it in a thread on every event of
the service's bus. ``companion serve`` starts it as the ``computer`` attachment.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.errors import CompanionError
from companion.service.session import StageKind

if TYPE_CHECKING:
    from companion.service.service import TableService

log = logging.getLogger("companion.computer")


@runtime_checkable
class ComputerSeats(Protocol):
    """A game setup or session with seats the computer plays."""

    def computer_seats(self) -> Mapping[int, str]:
        """Each seat the computer plays, with the name it joins under."""
        ...


@runtime_checkable
class ComputerMoves(Protocol):
    """A session that can work out the computer's move for a seat whose turn it is."""

    def computer_move(self, seat: int, *, seconds: float | None = None) -> Callable[[], str]:
        """A function returning the move's text, safe to call outside the service's lock
        (it works on a copy of the position); ``seconds``: the time left on the table's
        clock, if it has one."""
        ...


class ComputerPlayers:
    """Plays the computer's seats of every table (or only ``table_ids``) of a service."""

    def __init__(self, service: TableService, *, table_ids: set[str] | None = None) -> None:
        self.service = service
        self.table_ids = table_ids
        self.played = 0
        """Moves submitted so far (for logs and tests)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.closed = False

    # One round ------------------------------------------------------------------------------

    def play_pending(self) -> int:
        """Join free computer seats and play every computer seat whose turn it is; the number
        of moves submitted."""
        submitted = 0
        for table_id in self._tables():
            try:
                submitted += self._serve(table_id)
            except CompanionError as err:  # a refused join or move: say so, carry on
                log.warning("computer at table %s: %s", table_id, err)
        self.played += submitted
        return submitted

    def _tables(self) -> list[str]:
        ids = self.service.table_ids()
        return [t for t in ids if self.table_ids is None or t in self.table_ids]

    def _serve(self, table_id: str) -> int:
        service = self.service
        with service.lock:
            table = service.table(table_id)
            holder = table.session if table.session is not None else table.setup
            if not isinstance(holder, ComputerSeats):
                return 0
            seats = dict(holder.computer_seats())
            if not seats:
                return 0
            if table.stage.kind is StageKind.LOBBY:
                for seat, name in sorted(seats.items()):
                    if not table.seats[seat].joined:
                        service.join(table_id, seat, name)
                table = service.table(table_id)
            acting = table.acting()
            session = table.session
            if (
                acting not in seats
                or table.paused
                or not isinstance(session, ComputerMoves)
                or table.stage.kind is not StageKind.TURN
            ):
                return 0
            assert acting is not None
            seq = table.seq
            think = session.computer_move(acting, seconds=table.remaining(service.clock.now()))
        text = think()  # the long part, outside the lock
        with service.lock:
            table = service.table(table_id)
            if table.seq != seq or table.acting() != acting:
                return 0  # the table moved on while the computer thought: look again
            service.submit(table_id, acting, text, final=True, request_id=f"computer-{seq}")
        log.info("computer plays %s for seat %s at table %s", text, acting, table_id)
        return 1

    # In a thread ----------------------------------------------------------------------------

    def start(self) -> ComputerPlayers:
        """Play in a background thread: a round after every event, and once a second."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="computer", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        with self.service.subscribe(None) as events:
            while not self._stop.is_set():
                try:
                    self.play_pending()
                except CompanionError as err:  # pragma: no cover - logged, never fatal
                    log.warning("computer: %s", err)
                if self._stop.is_set():
                    break
                events.get(timeout=1.0)
                while events.get(timeout=0) is not None:
                    pass  # a burst of events: one round is enough

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


def attach(service: TableService, table_id: str, section: Mapping[str, Any]) -> ComputerPlayers:
    """The ``computer`` attachment: plays the computer's seats of every table of the server
    (not only ``table_id``: a table with a computer seat needs it wherever it is played).
    ``[computer]`` has no keys of its own."""
    from companion.service.attachments import ConfigError

    unknown = sorted(set(section))
    if unknown:
        raise ConfigError(f"[computer] has no key {unknown[0]!r}")
    return ComputerPlayers(service).start()
