"""The table service: every table's commands, clocks and storage behind one lock.

Concurrency (see docs/architecture.md): request threads, the timer thread and GPIO or serial
callbacks all call in here; one :class:`threading.RLock` serialises every command and every
tick. A command is validated against the table in memory, applied, written to SQLite in one
transaction (``synchronous=FULL``), and only then acknowledged and published. If the write
fails, the table is rebuilt from disk, so memory never runs ahead of what is stored.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from companion import games
from companion.errors import CompanionError, RecordError, StateError
from companion.games import NewTable
from companion.service.clock import Clock, SystemClock, TurnClock
from companion.service.events import Event, EventBus, Subscription
from companion.service.journal import Journal
from companion.service.session import (
    GameSession,
    GameSetup,
    Previewing,
    ScanComparing,
    Stage,
    StageKind,
    SubmissionError,
)
from companion.service.storage import LogEntry, Storage, StorageError, Stored
from companion.service.table import Applied, Table

MAX_NAME = 40
MAX_REQUEST_ID = 64
MAX_TEXT = 20_000
MAX_EXTEND = 3600

HEARTBEAT_SECONDS = 5.0
"""How often a running server records that it is alive while a table's clock runs."""
HOST_LINK_SECONDS = 24 * 3600
"""How long an unused one-time host link stays good."""
OUTAGE_SECONDS = 15.0
"""A running server whose clock moved on by more than this between two looks was not running
(suspended, stopped, or its clock jumped): an outage. A shorter gap is a slow tick."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


hash_secret = _hash
"""What is stored of a secret (a host secret, a seat token, a host link's code)."""


def _game(data: Mapping[str, Any]) -> games.Game:
    """The registered game a stored setup or snapshot belongs to."""
    try:
        return games.get(str(data.get("game")))
    except games.UnknownGameError:
        raise StorageError(f"this version cannot play {data.get('game')!r} tables") from None


def _load_setup(data: Mapping[str, Any]) -> GameSetup:
    return _game(data).load_setup(data)


def _load_session(data: Mapping[str, Any], steps: list[Mapping[str, Any]]) -> GameSession:
    return _game(data).load_session(data, steps)


class TableService:
    """All tables of one database. Use as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        bus: EventBus | None = None,
        outage_seconds: float = OUTAGE_SECONDS,
        recover: bool = True,
    ) -> None:
        """Open every table of ``storage``. A table whose clock was running when the service
        last stopped is paused where it stood (see :meth:`_recover`): all at once, or with
        ``recover=False`` (a one-shot command) only the tables it touches, when it does."""
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.bus = bus or EventBus()
        self.lock = threading.RLock()
        self.tables: dict[str, Table] = {}
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None
        self.closed = False
        self.read_only = storage.read_only
        """Opened on a read-only storage (a reader beside the server): it never writes."""
        self.live = False
        """Keeping time for the tables (:meth:`start_timer`): it beats and watches for gaps."""
        self.outage_seconds = outage_seconds
        self.broken: dict[str, str] = {}
        """Tables that cannot be served, with why; the others carry on regardless."""
        self.scans: dict[str, dict[str, Any]] = {}
        """Each table's latest board scan compared with its state (memory only, not stored)."""
        self._journal = Journal(storage, self.bus)
        self._local = threading.local()
        with self._command():
            for table_id in storage.table_ids():
                try:
                    self.tables[table_id] = self._rebuild(table_id)
                except CompanionError as err:
                    self.broken[table_id] = str(err)
            self._alive = self.clock.now()
            self._beat_at: float | None = None
            self._recovering = False
            self._heartbeat = storage.heartbeat()
            self._unrecovered = set(self.tables)
            """Tables not yet looked at since the service opened (their outage not recorded)."""
            if recover:
                for table_id in list(self.tables):
                    self._recover(table_id, self._alive)

    # Life cycle ------------------------------------------------------------------------------

    def start_timer(self) -> None:
        """Tick every second in a background thread: deadlines, timer events, the heartbeat."""
        self.keep_time()
        if self._timer is None:
            self._timer = threading.Thread(target=self._run_timer, name="table-timer", daemon=True)
            self._timer.start()

    def keep_time(self) -> None:
        """Be the service that keeps the tables' time (the server): from now on it writes the
        heartbeat and treats a gap between two looks at the clock longer than
        :attr:`outage_seconds` as an outage. :meth:`start_timer` does this first; a test may
        call it and then :meth:`tick` by hand."""
        if self.read_only:
            raise StateError("a service opened for reading keeps no time")
        with self.lock:
            if not self.live:
                self.live = True
                self._alive = self.clock.now()

    def _run_timer(self) -> None:
        while not self.clock.wait(1.0, self._stop):
            try:
                self.tick()
            except CompanionError:  # pragma: no cover - logged by the caller's handler
                continue

    def close(self) -> None:
        if self.closed:
            return
        self._stop.set()
        if self._timer is not None:
            self._timer.join(timeout=5)
        with contextlib.suppress(StorageError):
            self._journal.wait(self._journal.issued)  # every applied entry reaches the disk
        with self.lock:
            if self.live:
                # The last moment it was running: a restart counts its outage from here.
                with contextlib.suppress(StorageError):
                    self.storage.beat(self.clock.now(), stopped=True)
            self.storage.close()
            self.closed = True

    def __enter__(self) -> TableService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def subscribe(self, table_id: str | None = None) -> Subscription:
        return self.bus.subscribe(table_id)

    # Rebuilding --------------------------------------------------------------------------------

    def _rebuild(self, table_id: str) -> Table:
        try:
            return self._rebuild_from(self.storage.load(table_id))
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, CompanionError):
                raise
            raise StorageError(
                f"table {table_id} cannot be rebuilt from its log ({type(err).__name__}: {err})"
            ) from None

    def _rebuild_from(self, stored: Stored) -> Table:
        if stored.snapshot is not None:
            table = Table.restore(
                stored.snapshot,
                list(stored.steps),
                stored.requests,
                _load_setup,
                _load_session,
            )
            entries = stored.entries
        else:
            first, *rest = stored.entries
            table = self._table_from(first)
            table.requests = dict(stored.requests)
            entries = tuple(rest)
        for entry in entries:
            table.apply(entry)
        table.last_at = max(table.last_at, stored.last_at)
        return table

    def _table_from(self, entry: LogEntry) -> Table:
        if entry.kind != "create" or entry.seq != 1:
            raise StorageError("a table's log must begin with its creation")
        data = entry.data
        table = Table(
            data["id"],
            data["name"],
            _load_setup(data["setup"]),
            data["host_hash"],
            entry.at,
            turn_clock=TurnClock.from_dict(data.get("turn_clock") or {}),
        )
        table.seq = 1
        return table

    # Outages ---------------------------------------------------------------------------------

    def _recover(self, table_id: str, now: float) -> None:
        """After the service was not running: stop the table's clock where it stood.

        Its last sign of life is its latest log entry or the server's last heartbeat,
        whichever is later. Deadlines that had passed by then are ended (the server was running
        at them); a clock still running is paused at that moment with the outage as its
        reason, so no stage ends while nothing was running and the stage keeps the time it had
        left. A reader (read-only) does the same in memory only, and only when the table's
        server is not running any more (no sign of life for :attr:`outage_seconds`).
        """
        self._unrecovered.discard(table_id)
        table = self.tables.get(table_id)
        if table is None:
            return
        beat = self._heartbeat
        alive = table.last_at if beat is None else max(beat.at, table.last_at)
        if self.read_only and now - alive <= self.outage_seconds:
            return  # its server is running it: show it as stored
        self._recovering = True
        try:
            self._guarded(table, functools.partial(self._outage, alive=alive, now=now))
        finally:
            self._recovering = False

    def _watch_clock(self, now: float) -> None:
        """Tell an outage of a running server (suspended, stopped, the clock jumped) from a
        slow tick: a gap since the last look longer than :attr:`outage_seconds`."""
        if not self.live:
            return
        since = self._alive
        self._alive = max(self._alive, now)
        if now - since > self.outage_seconds:
            for table in list(self.tables.values()):
                self._guarded(table, functools.partial(self._outage, alive=since, now=now))

    def _outage(self, table: Table, alive: float, now: float) -> None:
        """The service was not running from ``alive`` to ``now``: end the stages whose deadline
        had passed by ``alive``, then stop the clock at ``alive`` (a pause with the reason)."""
        self._catch_up(table, alive)
        if now > alive and table.clock_runs():
            reason = outage_reason(alive, now)
            data = {"reason": reason, "outage": {"from": alive, "to": now}}
            self._commit(table, "pause", data, at=alive)

    def _guarded(self, table: Table, action: Callable[[Table], None]) -> bool:
        """Run ``action`` on one table; a table that cannot go on is set aside, not the whole
        service."""
        try:
            action(table)
        except CompanionError as err:
            self.broken[table.id] = str(err)
            self.tables.pop(table.id, None)
            return False
        return True

    def _catch_up(self, table: Table, now: float) -> None:
        """End every stage whose deadline has passed, each at its own deadline (R8.2)."""
        while (
            table.deadline is not None
            and not table.paused
            and table.stage.playing
            and table.deadline <= now
        ):
            self._commit(table, "end", {"reason": "deadline"}, at=table.deadline)

    def _beat(self, now: float) -> None:
        """While a clock runs, record every few seconds that the server is running."""
        if not self.live or self.read_only:
            return
        if self._beat_at is not None and now - self._beat_at < HEARTBEAT_SECONDS:
            return
        if any(table.clock_runs() for table in self.tables.values()):
            self.storage.beat(now)
            self._beat_at = now

    # Committing ------------------------------------------------------------------------------

    def _commit(
        self,
        table: Table,
        kind: str,
        data: Mapping[str, Any],
        *,
        at: float | None = None,
        request_id: str | None = None,
    ) -> Applied:
        """Apply an entry, store it durably, then publish what it caused.

        A reader (read-only) applies it in memory only, and only while it recovers from an
        outage (its views then show the clocks stopped); any command is refused."""
        if self.read_only and not self._recovering:
            raise StorageError(f"{self.storage.path} is open for reading only")
        entry = LogEntry(
            table.seq + 1, self.clock.now() if at is None else at, kind, dict(data), request_id
        )
        try:
            applied = table.apply(entry)
        except CompanionError:
            self.tables[table.id] = self._rebuild(table.id)
            raise
        if self.read_only:
            return applied
        snapshot = table.snapshot() if applied.snapshot else None
        try:
            number = self._journal.add(table.id, entry, applied.steps, snapshot, applied.events)
        except StorageError:
            self.tables[table.id] = self._rebuild(table.id)
            raise
        self._local.last = number  # the command waits for it once it lets go of the lock
        return applied

    @contextlib.contextmanager
    def _command(self) -> Iterator[None]:
        """Hold the service's lock for a command (or a view, or a tick); on the way out of the
        outermost one, let go of the lock and wait until the entries it made are on disk and
        their events published (docs/architecture.md, "Group commit")."""
        depth = getattr(self._local, "depth", 0)
        try:
            with self.lock:
                self._local.depth = depth + 1
                try:
                    yield
                finally:
                    self._local.depth = depth
        finally:
            if depth == 0:
                self._settle()

    def _settle(self) -> None:
        number = getattr(self._local, "last", 0)
        if not number:
            return
        self._local.last = 0
        try:
            self._journal.wait(number)
        except StorageError:
            with self.lock:  # memory may not run ahead of the disk: rebuild what was lost
                for table_id in self._journal.take_failure():
                    try:
                        self.tables[table_id] = self._rebuild(table_id)
                    except CompanionError as err:
                        self.broken[table_id] = str(err)
                        self.tables.pop(table_id, None)
            raise

    def _table(self, table_id: str) -> Table:
        if self.closed:
            raise StateError("the table service has been closed")
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.broken:
                raise StateError(f"table {table_id} cannot be served: {self.broken[table_id]}")
            raise StateError(f"there is no table {table_id!r}")
        now = self.clock.now()
        if table_id in self._unrecovered:
            self._recover(table_id, now)
        if not self.read_only:
            self._watch_clock(now)
        if table_id not in self.tables:
            raise StateError(f"table {table_id} cannot be served: {self.broken[table_id]}")
        if not self.read_only:
            self._catch_up(table, now)
        return table

    # Tables ------------------------------------------------------------------------------------

    def create_table(
        self,
        name: str,
        players: int,
        *,
        game: str | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        board: Any = None,
        turn_clock: TurnClock | None = None,
    ) -> tuple[str, str]:
        """A new table in its lobby; returns (table id, host secret). Keep the secret.

        ``game`` is a registered game's name (default: the family's flagship); ``options`` are
        its house rules by name; ``board`` a board the host entered or scanned, in the game's
        own type; ``turn_clock`` times a turn-taking game's turns."""
        name = _clean_name(name, "table name")
        try:
            info = games.default() if game is None else games.get(game)
        except games.UnknownGameError as err:
            raise StateError(f"unknown game: {err}") from None
        low, high = info.players
        if not low <= players <= high:
            raise StateError(f"{info.title} is for {info.seats_text()}, not {players}")
        if seed is None:
            seed = secrets.randbelow(2**31)
        setup = info.new_setup(NewTable(players, seed, dict(options or {}), board))
        return self._new_table(name, setup, turn_clock=turn_clock)

    def import_record(self, record_json: str | bytes, name: str) -> tuple[str, str]:
        """A new table that carries on from a game record (checked and replayed first)."""
        raw = record_json.encode() if isinstance(record_json, str) else record_json
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as err:
            raise RecordError(f"this is not a game record: not JSON ({err})") from None
        if not isinstance(data, dict):
            raise RecordError("this is not a game record: the JSON is not an object")
        info = games.game_of_record(data)
        if info.import_record is None:
            raise StateError(f"{info.title} records cannot be carried on at a table")
        setup = info.import_record(raw)
        return self._new_table(_clean_name(name, "table name"), setup, start=True)

    def _new_table(
        self,
        name: str,
        setup: GameSetup,
        *,
        start: bool = False,
        turn_clock: TurnClock | None = None,
    ) -> tuple[str, str]:
        """Store a new table's first entry; ``start`` an imported game at once."""
        secret = secrets.token_urlsafe(16)
        with self._command():
            table_id = uuid.uuid4().hex[:10]
            at = self.clock.now()
            data: dict[str, Any] = {
                "id": table_id,
                "name": name,
                "setup": setup.to_dict(),
                "host_hash": _hash(secret),
            }
            if turn_clock is not None and turn_clock.mode != "none":
                data["turn_clock"] = turn_clock.to_dict()
            entry = LogEntry(1, at, "create", data)
            table = self._table_from(entry)
            self.storage.create_table(table_id, name, setup.game, at, entry)
            self.tables[table_id] = table
            self.bus.publish(Event("table_created", table_id, at, {"name": name}))
            if start:
                self._commit(table, "start", {})
        return table_id, secret

    def table_ids(self) -> list[str]:
        with self._command():
            return list(self.tables)

    def table(self, table_id: str) -> Table:
        """The live table (read it under :attr:`lock` if other threads are running)."""
        with self._command():
            return self._table(table_id)

    # Host links --------------------------------------------------------------------------------

    def new_host_secret(self, table_id: str) -> str:
        """A new host secret for the table (returned once; only its hash is stored): the old
        secret, its links and every browser that held it no longer open the host controls."""
        secret = secrets.token_urlsafe(16)
        with self._command():
            self._commit(self._table(table_id), "host_secret", {"host_hash": _hash(secret)})
        return secret

    def make_host_link(self, table_id: str) -> str:
        """A one-time host link's code for the table's current host secret (docs/web.md,
        "Host links"): it opens the host controls once, within :data:`HOST_LINK_SECONDS`, and
        is void once used or once the table has a new host secret."""
        code = secrets.token_urlsafe(16)
        with self._command():
            table = self._table(table_id)
            self.storage.add_host_link(
                table_id, _hash(code), table.host_hash, self.clock.now(), applied=True
            )
        return code

    def use_host_link(self, table_id: str, code: str) -> bool:
        """Spend a one-time host link: True if it was this table's, unused, still current."""
        with self._command():
            table = self._table(table_id)
            found = self.storage.host_link(_hash(code))
            if found is None:
                return False
            linked_table, host_hash, made_at, applied, used_at = found
            now = self.clock.now()
            if (
                linked_table != table_id
                or applied != 1
                or used_at is not None
                or not hmac.compare_digest(host_hash, table.host_hash)
                or not 0 <= now - made_at <= HOST_LINK_SECONDS
            ):
                return False
            return self.storage.use_host_link(_hash(code), now)

    def host_key(self, table_id: str) -> str:
        """The hash of the table's current host secret (what a host's session is bound to)."""
        with self._command():
            return self._table(table_id).host_hash

    def _apply_host_links(self) -> None:
        """Links ``companion table host-link`` left while this server runs: each gives its
        table the new host secret it carries."""
        for code_hash, table_id, host_hash in self.storage.host_links_to_apply():
            table = self.tables.get(table_id)
            if table is None:
                self.storage.host_link_applied(code_hash, refused=True)
                continue
            self._guarded(table, functools.partial(self._give_host_secret, host_hash=host_hash))
            self.storage.host_link_applied(code_hash)

    def _give_host_secret(self, table: Table, host_hash: str) -> None:
        self._commit(table, "host_secret", {"host_hash": host_hash})

    def check_host(self, table_id: str, secret: str) -> bool:
        with self._command():
            return hmac.compare_digest(self._table(table_id).host_hash, _hash(secret))

    def seat_for_token(self, table_id: str, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), or None."""
        with self._command():
            wanted = _hash(token)
            found = None
            for seat in self._table(table_id).seats.values():
                if seat.token_hash and hmac.compare_digest(seat.token_hash, wanted):
                    found = seat.number
            return found

    # Seats -------------------------------------------------------------------------------------

    def join(self, table_id: str, seat: int, name: str) -> str:
        """Take a free seat; returns the seat's secret token (the join link holds it)."""
        name = _clean_name(name, "player name")
        with self._command():
            table = self._table(table_id)
            record = table.require_seat(seat)
            if record.joined:
                raise StateError(f"seat {seat} is taken; the host can re-issue its link")
            token = secrets.token_urlsafe(16)
            self._commit(table, "join", {"seat": seat, "name": name, "token_hash": _hash(token)})
            return token

    def reissue(self, table_id: str, seat: int) -> str:
        """A new token for a seat (a new phone); the old one stops working."""
        with self._command():
            table = self._table(table_id)
            table.require_seat(seat)
            token = secrets.token_urlsafe(16)
            self._commit(table, "reissue", {"seat": seat, "token_hash": _hash(token)})
            return token

    def choose(self, table_id: str, seat: int, choice: Mapping[str, Any]) -> dict[str, Any]:
        """A seat's setup choice (Local Cluster: colour and home), in rulebook 3.2's order."""
        with self._command():
            table = self._table(table_id)
            record = table.require_seat(seat)
            if table.stage.kind is not StageKind.LOBBY:
                raise StateError("the game has started; choices are made before it starts")
            if not record.joined:
                raise StateError(f"seat {seat} has not joined yet")
            turn = table.next_to_choose()
            if turn != seat:
                raise StateError(f"it is seat {turn}'s turn to choose (rulebook 3.2)")
            taken = {n: s.choice for n, s in table.seats.items() if s.choice is not None}
            canonical = table.setup.check_choice(seat, choice, taken)
            self._commit(table, "choose", {"seat": seat, "choice": canonical})
            return canonical

    # Submissions -------------------------------------------------------------------------------

    def _playing_seat(self, table: Table, seat: int) -> None:
        record = table.require_seat(seat)
        if not record.joined:
            raise StateError(f"seat {seat} has not joined this table")
        session = table.require_session()
        if seat not in session.active_seats():
            raise StateError(f"seat {seat} has been eliminated and now only watches")

    def submit(
        self,
        table_id: str,
        seat: int,
        text: str,
        *,
        request_id: str | None = None,
        final: bool = False,
    ) -> str:
        """A submission for the current stage in the game's notation (orders, retreat choices,
        a build plan; in a turn-taking game the acting seat's move), replacing the seat's
        earlier one (the same text again is stored once). Returns the canonical text once it is
        durably stored.

        ``final`` plays a turn-taking game's move at once (the turn passes); otherwise the move
        waits for the seat's ready press ("done") or a correction."""
        _check_text(text)
        request_id = _scoped(seat, request_id)
        with self._command():
            table = self._table(table_id)
            if request_id is not None and request_id in table.requests:
                return str(table.requests[request_id].get("text", ""))  # what it stored then
            self._playing_seat(table, seat)
            if table.stage.kind not in (StageKind.SECRET, StageKind.TURN):
                raise StateError(_not_accepting(table))
            session = table.require_session()
            if seat not in session.owing():
                acting = table.acting()
                if acting is not None:
                    raise StateError(f"it is seat {acting}'s turn, not seat {seat}'s")
                raise StateError(
                    f"seat {seat} has nothing to submit in the {table.stage.title} phase"
                )
            canonical = session.check_submission(seat, text)
            if not final and table.submissions.get(seat) == canonical:
                return canonical  # the same submission again: stored once, nothing to tell
            data: dict[str, Any] = {"seat": seat, "text": canonical}
            if final and table.stage.kind is StageKind.TURN:
                data["final"] = True
            self._commit(table, "submit", data, request_id=request_id)
            return canonical

    def preview(self, table_id: str, seat: int, text: str) -> dict[str, Any]:
        """What the acting seat's draft move would do, stored nowhere: the session's
        ``preview(seat, text)`` when it has one (:class:`Previewing`), else the move checked
        (``{"text": canonical}``). SubmissionError with the game's reasons when it cannot be
        played; StateError when it is not this seat's turn."""
        _check_text(text)
        with self._command():
            table = self._table(table_id)
            self._playing_seat(table, seat)
            if table.stage.kind is not StageKind.TURN:
                raise StateError(f"there is no move to try in the {table.stage.title} phase")
            acting = table.acting()
            if acting != seat:
                raise StateError(f"it is seat {acting}'s turn, not seat {seat}'s")
            session = table.require_session()
            if isinstance(session, Previewing):
                return dict(session.preview(seat, text))
            return {"text": session.check_submission(seat, text)}

    def set_ready(
        self,
        table_id: str,
        seat: int,
        ready: bool = True,
        *,
        request_id: str | None = None,
        stage: Stage | str | None = None,
        turn: int | None = None,
    ) -> bool:
        """Mark a seat ready (in the command phase: its orders are final); may end the stage.

        ``stage`` (and ``turn``) are what the player saw when pressing: a press meant for
        another stage is refused rather than counted for this one, saying whether that stage
        has already ended or has not begun yet.
        """
        request_id = _scoped(seat, request_id)
        with self._command():
            table = self._table(table_id)
            if request_id is not None and request_id in table.requests:
                return bool(table.requests[request_id].get("ready", True))
            self._playing_seat(table, seat)
            if not table.stage.playing:
                raise StateError(_not_accepting(table))
            seen = stage.value if isinstance(stage, Stage) else stage
            if seen is not None and (
                seen != table.stage.value or (turn is not None and turn != table.turn)
            ):
                try:
                    title = table.game.stage(seen).title
                except games.UnknownGameError:
                    raise StateError(f"there is no phase called {seen!r}") from None
                if turn is not None and turn != table.turn:
                    title = f"{title} phase of turn {turn}"
                else:
                    title = f"{title} phase"
                when = "has not begun yet" if _not_begun(table, seen, turn) else "has already ended"
                raise StateError(f"the {title} {when}; it is now {table.stage.title}")
            if seat not in table.participants():
                acting = table.acting()
                if acting is not None:
                    raise StateError(f"it is seat {acting}'s turn, not seat {seat}'s")
                raise StateError(f"seat {seat} has nothing to do in the {table.stage.title} phase")
            if ready and table.stage.kind is StageKind.TURN and seat not in table.submissions:
                raise StateError(
                    f"seat {seat} has not entered a {table.stage.awaited or 'move'} yet: "
                    "enter it first, then press done"
                )
            if (seat in table.ready) is ready:
                return ready  # already so: nothing to store, nothing to tell
            self._commit(table, "ready", {"seat": seat, "ready": ready}, request_id=request_id)
            return ready

    # Host controls -----------------------------------------------------------------------------

    def pause(self, table_id: str) -> None:
        with self._command():
            table = self._running(table_id)
            if table.paused:
                raise StateError("the table is already paused")
            self._commit(table, "pause", {})

    def resume(self, table_id: str) -> None:
        with self._command():
            table = self._running(table_id)
            if not table.paused:
                raise StateError("the table is not paused")
            self._commit(table, "resume", {})

    def extend(self, table_id: str, seconds: float) -> None:
        if not 1 <= seconds <= MAX_EXTEND:
            raise StateError(f"extend by 1 to {MAX_EXTEND} seconds, not {seconds}")
        with self._command():
            self._commit(self._running(table_id), "extend", {"seconds": float(seconds)})

    def skip(self, table_id: str) -> None:
        """End the current stage now, as if its deadline had come."""
        with self._command():
            self._commit(self._running(table_id), "end", {"reason": "skip"})

    def correct(self, table_id: str, text: str, reason: str) -> None:
        """Correct the tracked position (in the game's own correction notation); recorded with
        its reason."""
        text, reason = text.strip(), reason.strip()  # white space first, as orders (R3.7)
        if not reason:
            raise StateError("say why: a correction needs a reason")
        if len(text) > 200 or len(reason) > 500:
            raise StateError("a correction is at most 200 characters, its reason at most 500")
        if not (text + reason).replace("\n", " ").isprintable():
            raise StateError("a correction and its reason are letters, digits and signs only")
        with self._command():
            table = self._running(table_id)
            self._dry_run(table, lambda s: s.correct(text, reason))
            self._commit(table, "correct", {"text": text, "reason": reason})

    def undo(self, table_id: str) -> None:
        with self._command():
            table = self._running(table_id)
            self._dry_run(table, lambda s: s.undo())
            self._commit(table, "undo", {})

    def _dry_run(self, table: Table, action: Callable[[GameSession], object]) -> None:
        """Try an action on a copy of the session so a refusal never touches the table."""
        session = table.require_session()
        copy = _load_session(session.snapshot(), [])
        action(copy)

    def _running(self, table_id: str) -> Table:
        table = self._table(table_id)
        if not table.stage.playing:
            if table.stage.kind is StageKind.OVER:
                raise StateError("the game is over; there is no phase to control")
            raise StateError(
                f"the game has not started ({table.stage.title}: seats are still joining); "
                "there is no phase to control"
            )
        return table

    # Time ----------------------------------------------------------------------------------------

    def tick(self) -> None:
        """Apply passed deadlines and publish a timer event for every running table."""
        if self.read_only:
            raise StateError("a service opened for reading keeps no time")
        with self._command():
            now = self.clock.now()
            for table_id in list(self._unrecovered):
                self._recover(table_id, now)
            self._watch_clock(now)
            for table in list(self.tables.values()):
                if not self._guarded(table, lambda t: self._catch_up(t, now)):
                    continue
                remaining = table.remaining(now)
                if remaining is not None and table.stage.playing:
                    self.bus.publish(
                        Event(
                            "tick",
                            table.id,
                            now,
                            {
                                "game_name": table.game.name,
                                "stage": table.stage.value,
                                "remaining": round(remaining, 3),
                                "paused": table.paused,
                            },
                        )
                    )
            self._beat(now)
            if self.live:
                with contextlib.suppress(StorageError):
                    self._apply_host_links()

    # The camera ----------------------------------------------------------------------------------

    def report_scan(self, table_id: str, scan: object) -> dict[str, Any]:
        """Compare a camera's reading of the board (in the game's own type) with the table's
        tracked position; keep and publish the result.

        The comparison itself is not stored: the latest shows in :meth:`view` as ``"scan"``.
        Before the game starts, or for a game that compares no scans, nothing is reported as
        off. In a turn-taking game the session may name the legal ``"moves"`` that explain
        what the camera saw: exactly one is entered (durably) as the acting seat's pending move,
        for the seat to confirm with its "done" press; several are listed for someone to choose.
        """
        with self._command():
            table = self._table(table_id)
            session = table.session
            result: dict[str, Any] = {"at": self.clock.now(), "discrepancies": [], "missing": []}
            if isinstance(session, ScanComparing):
                compared = session.compare_scan(scan)
                result["discrepancies"] = list(compared.get("discrepancies", []))
                result["missing"] = list(compared.get("missing", []))
                if "moves" in compared:
                    result["moves"] = [str(move) for move in compared["moves"]]
                    result["entered"] = self._enter_seen_move(table, result)
                    result["steps"] = session.step_count()  # they explain this position
            self.scans[table_id] = result
            self.bus.publish(Event("scan", table_id, result["at"], _scan_copy(result)))
            return _scan_copy(result)

    def _enter_seen_move(self, table: Table, result: dict[str, Any]) -> str | None:
        """The one move the camera saw, stored as the acting seat's pending move."""
        acting = table.acting()
        moves = result["moves"]
        if acting is None or len(moves) != 1:
            return None
        session = table.require_session()
        try:
            canonical = session.check_submission(acting, moves[0])
        except SubmissionError as err:
            result["discrepancies"].append(
                {"message": f"the camera saw {moves[0]}, which cannot be played: {err}"}
            )
            return None
        if table.submissions.get(acting) != canonical:
            self._commit(table, "submit", {"seat": acting, "text": canonical, "by": "camera"})
        return canonical

    # Views ---------------------------------------------------------------------------------------

    def view(self, table_id: str, seat: int | None = None) -> dict[str, Any]:
        """What a screen may show: public facts, plus a seat's own private ones when given.

        Pending submissions are never in the public part, only whether each seat submitted;
        but in a turn-taking stage the acting seat's pending move (one the camera saw on the
        board, or one waiting for its "done" press) is ``"pending"``: ``{"seat", "text"}``.
        """
        with self._command():
            table = self._table(table_id)
            now = self.clock.now()
            awaited = table.participants()
            out: dict[str, Any] = {
                "id": table.id,
                "name": table.name,
                "game_name": table.game.name,
                "game_title": table.game.title,
                "play": table.game.play.value,
                "stage": table.stage.value,
                "stage_info": table.stage.to_dict(),
                "acting": table.acting(),
                "turn_clock": table.turn_clock.to_dict(),
                "banks": {str(k): round(v, 3) for k, v in sorted(table.banks.items())},
                "hold_reason": table.hold_reason,
                "turn": table.turn,
                "paused": table.paused,
                # An imported game held paused since its start: the host starts it (resume).
                "waiting_to_start": table.paused and table.awaiting_start,
                "remaining": table.remaining(now),
                "deadline": table.deadline,
                "seats": [
                    {
                        "seat": s.number,
                        "name": s.name,
                        "joined": s.joined,
                        "choice": s.choice,
                        "ready": s.number in table.ready,
                        "submitted": s.number in table.submissions,
                        # The current stage waits for this seat (its ready counts): panels.
                        "awaited": s.number in awaited,
                    }
                    for s in table.seats.values()
                ],
                "next_to_choose": (
                    table.next_to_choose() if table.stage.kind is StageKind.LOBBY else None
                ),
                "last": table.last_summary,
                "scan": _scan_copy(scan) if (scan := self.scans.get(table.id)) else None,
                "pending": None,
            }
            acting = table.acting()
            if acting is not None and acting in table.submissions:
                out["pending"] = {"seat": acting, "text": table.submissions[acting]}
            if out["scan"] is not None and "steps" in out["scan"]:
                steps = table.session.step_count() if table.session is not None else -1
                if out["scan"].pop("steps") != steps:
                    # A move was played or taken back since: the candidates no longer apply.
                    out["scan"]["moves"], out["scan"]["entered"] = [], None
            if table.session is None:
                out["setup"] = table.setup.public()
            else:
                out["game"] = table.session.public()
            if seat is not None:
                table.require_seat(seat)
                private: dict[str, Any] = {"seat": seat}
                if table.session is not None and seat in table.session.active_seats():
                    private.update(table.session.private(seat))
                private["submission"] = table.submissions.get(seat)
                out["you"] = private
            return out

    def export(self, table_id: str) -> str:
        """The table's game record JSON (see docs/state-format.md)."""
        with self._command():
            return self._table(table_id).require_session().record_json()


def outage_reason(alive: float, now: float) -> str:
    """Why a clock was stopped after an outage, in the words the host and players see."""
    start, end = time.localtime(alive), time.localtime(now)
    same_day = start[:3] == end[:3]
    shown = "%H:%M:%S" if same_day else "%d %b %H:%M:%S"
    return (
        f"the server was not running from {time.strftime(shown, start)} to "
        f"{time.strftime(shown, end)} ({_duration(now - alive)}); the clock stopped with the "
        "time it had left"
    )


def _duration(seconds: float) -> str:
    whole = round(seconds)
    if whole < 1:
        return "under a second"
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s"
    return f"{secs} s"


def _check_text(text: str) -> None:
    """A submission's size and characters: text that could not even be shown (a lone surrogate,
    which only a hand-made JSON request can send) is refused, not kept."""
    if len(text) > MAX_TEXT:
        raise SubmissionError(
            [f"that is {len(text)} characters; a submission is at most {MAX_TEXT}"]
        )
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise SubmissionError(["that text has characters that are not letters, digits or signs"])


def _clean_name(name: str, what: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        raise StateError(f"the {what} is empty")
    if len(cleaned) > MAX_NAME or not cleaned.isprintable():
        raise StateError(f"the {what} must be up to {MAX_NAME} printable characters")
    return cleaned


def _scoped(seat: int, request_id: str | None) -> str | None:
    """A request id as stored: per seat, so two phones can never collide."""
    if request_id is None:
        return None
    if not (0 < len(request_id) <= MAX_REQUEST_ID) or not request_id.isprintable():
        raise StateError(f"a request id is 1 to {MAX_REQUEST_ID} printable characters")
    return f"{seat}:{request_id}"


def _not_accepting(table: Table) -> str:
    if table.stage.kind is StageKind.LOBBY:
        return "the game has not started yet"
    if table.stage.kind is StageKind.OVER:
        return "the game is over"
    return f"nothing is submitted in the {table.stage.title} phase"


def _not_begun(table: Table, seen: str, turn: int | None) -> bool:
    """Whether the stage a ready press was meant for comes after the table's current one: a
    later turn, or later in this turn (a discussion leads to the stage it discusses, and the
    game's own stages follow the order it registered them in)."""
    if turn is not None and turn != table.turn:
        return turn > table.turn
    if table.stage.kind is StageKind.DISCUSSION and table.session is not None:
        return seen == table.session.stage().value
    order = [stage.value for stage in table.game.stages]
    if seen in order and table.stage.value in order and turn is not None:
        return order.index(seen) > order.index(table.stage.value)
    return False


def _scan_copy(scan: dict[str, Any]) -> dict[str, Any]:
    """A scan result a caller may change without changing the service's own."""
    copy = {
        "at": scan["at"],
        "discrepancies": [dict(d) for d in scan["discrepancies"]],
        "missing": list(scan["missing"]),
    }
    if "moves" in scan:
        copy["moves"] = list(scan["moves"])
        copy["entered"] = scan["entered"]
        copy["steps"] = scan["steps"]
    return copy
