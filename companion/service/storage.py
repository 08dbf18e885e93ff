"""Durable storage in one SQLite file: per table an append-only log plus per-turn snapshots.

* WAL journal, ``synchronous=FULL``: a commit is on disk before :meth:`Storage.append` returns,
  so the service acknowledges a submission only once it would survive a pulled plug.
* The log and the recorded game steps are append-only (triggers refuse UPDATE and DELETE).
* The schema is versioned (``PRAGMA user_version``) and migrated forward at open.
* A file that is not ours, is damaged, or was written by a newer version is refused with a
  clear :class:`StorageError` and never written to.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from companion.errors import CompanionError

APPLICATION_ID = 0x434C4343  # "CLCC": Cluster Companion
DEFAULT_PATH = Path("var/companion.db")
ENVIRONMENT_VARIABLE = "COMPANION_DB"
PRIVATE = 0o600
"""The mode of the database, its -wal and -shm files and its lock: its owner's only."""

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, their logs, snapshots and recorded game steps.
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE log (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        at REAL NOT NULL,
        kind TEXT NOT NULL,
        request_id TEXT,
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    CREATE UNIQUE INDEX log_request ON log (table_id, request_id) WHERE request_id IS NOT NULL;
    CREATE TABLE snapshots (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    CREATE TABLE steps (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TRIGGER log_append_only_update BEFORE UPDATE ON log
        BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
    CREATE TRIGGER log_append_only_delete BEFORE DELETE ON log
        BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
    CREATE TRIGGER steps_append_only_update BEFORE UPDATE ON steps
        BEGIN SELECT RAISE(ABORT, 'recorded game steps are append-only'); END;
    CREATE TRIGGER steps_append_only_delete BEFORE DELETE ON steps
        BEGIN SELECT RAISE(ABORT, 'recorded game steps are append-only'); END;
    """,
    # 2: the running server's heartbeat (docs/architecture.md, "Outages"): the last moment it
    # was known to be running, so a restart can tell how long it was down; and one-time host
    # links (docs/web.md, "Host links"): `companion table host-link` leaves one here, the
    # server applies it (a new host secret for the table) and the host's browser uses it once.
    """
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at REAL NOT NULL,
        pid INTEGER NOT NULL,
        stopped INTEGER NOT NULL DEFAULT 0,
        url TEXT
    );
    CREATE TABLE host_links (
        code_hash TEXT PRIMARY KEY,
        table_id TEXT NOT NULL REFERENCES tables(id),
        host_hash TEXT NOT NULL,
        made_at REAL NOT NULL,
        applied INTEGER NOT NULL DEFAULT 0,
        used_at REAL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(CompanionError, RuntimeError):
    """The database cannot be used; the message says which file and why."""


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One accepted command of a table's log."""

    seq: int
    at: float
    kind: str
    data: Mapping[str, Any]
    request_id: str | None = None


@dataclasses.dataclass(frozen=True)
class Stored:
    """What is on disk for one table: its latest snapshot, the log after it, its game steps."""

    table_id: str
    snapshot: Mapping[str, Any] | None
    snapshot_seq: int
    entries: tuple[LogEntry, ...]
    steps: tuple[Mapping[str, Any], ...]
    requests: Mapping[str, Mapping[str, Any]]
    """Every request id in the log, with what its entry stored."""
    last_at: float
    """When the table's latest log entry was made."""


@dataclasses.dataclass(frozen=True)
class Heartbeat:
    """The last moment a server running the database was known to be alive."""

    at: float
    pid: int
    stopped: bool
    """It stopped cleanly (its last beat was written on the way out)."""


class DatabaseInUse(StorageError):
    """Another process holds the database's writer lock (see :func:`writer_lock`)."""

    def __init__(self, path: Path, pid: int | None) -> None:
        self.pid = pid
        who = "a running companion" + (f" (pid {pid})" if pid else "")
        super().__init__(
            f"the table database {path} is in use by {who}; stop it or use its host page"
        )


@contextlib.contextmanager
def writer_lock(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Hold ``<db>.lock`` exclusively while writing the database at ``path``.

    One process writes a table database: the server while it runs, or one ``companion table``
    command. A second writer gets :class:`DatabaseInUse` naming the holder's pid at once.
    ``flock`` is released by the kernel if the holder dies; the file is removed on release
    (while still locked, and a taker checks it locked the file that is still there).
    """
    lock_path = Path(f"{os.fspath(path)}.lock")
    fd = _take_lock(Path(path), lock_path)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield lock_path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock_path)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _take_lock(path: Path, lock_path: Path) -> int:
    while True:
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, PRIVATE)
        except OSError as err:
            raise StorageError(f"cannot open {lock_path}: {err.strerror or err}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _lock_holder(fd)
            os.close(fd)
            raise DatabaseInUse(path, holder) from None
        with contextlib.suppress(OSError):
            os.fchmod(fd, PRIVATE)
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(lock_path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # its holder removed it as we opened it: take the new one


def _lock_holder(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _make_private(path: Path) -> None:
    """The database and its companion files readable by their owner only (a database made by
    an older version was 0644)."""
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}.lock")):
        try:
            if each.stat().st_mode & 0o077:
                os.chmod(each, PRIVATE)
        except OSError:
            continue


def leave_host_link(
    path: str | os.PathLike[str], table_id: str, code_hash: str, host_hash: str, at: float
) -> None:
    """Leave a host link for the server that holds the database's writer lock to apply (the
    one write beside a running server: one row in ``host_links``, never the log)."""
    with contextlib.closing(Storage(path, read_only=True)) as looking:
        if looking.schema_version < 2:
            raise StorageError(f"{path} is older than host links; restart its server first")
    try:
        connection = sqlite3.connect(os.fspath(path), timeout=10, isolation_level=None)
    except sqlite3.Error as err:
        raise StorageError(f"cannot open {path}: {err}") from None
    try:
        connection.execute(
            "INSERT INTO host_links (code_hash, table_id, host_hash, made_at, applied) "
            "VALUES (?, ?, ?, ?, 0)",
            (code_hash, table_id, host_hash, at),
        )
    except sqlite3.Error as err:
        raise StorageError(f"cannot write to {path}: {err}") from None
    finally:
        connection.close()


def host_link_state(path: str | os.PathLike[str], code_hash: str) -> int | None:
    """Whether the server applied a link left for it: 1 applied, -1 refused, 0 not yet."""
    with contextlib.closing(Storage(path, read_only=True)) as looking:
        found = looking.host_link(code_hash)
    return None if found is None else found[3]


def take_back_host_link(path: str | os.PathLike[str], code_hash: str) -> bool:
    """Withdraw a link the server has not applied; False if it applied it meanwhile."""
    connection = sqlite3.connect(os.fspath(path), timeout=10, isolation_level=None)
    try:
        done = connection.execute(
            "DELETE FROM host_links WHERE code_hash = ? AND applied = 0", (code_hash,)
        )
        return done.rowcount == 1
    finally:
        connection.close()


def default_path() -> Path:
    """The database path: ``$COMPANION_DB`` if set, else ``./var/companion.db``."""
    return Path(os.environ.get(ENVIRONMENT_VARIABLE) or DEFAULT_PATH)


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _with_io(method: _Method) -> _Method:
    """Run a :class:`Storage` method holding its connection's lock."""

    @functools.wraps(method)
    def locked(self: Storage, *args: Any, **kwargs: Any) -> Any:
        with self.io:
            return method(self, *args, **kwargs)

    return cast(_Method, locked)


class Storage:
    """One open database. Not thread-safe by itself: the service serialises every call.

    ``read_only`` opens an existing database for reading only (``companion table list``,
    ``export``): nothing is created, migrated or written, so a reader can never disturb the
    server that writes it (every write raises :class:`StorageError`).
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.io = threading.RLock()
        """Held around every use of the connection: the service's group commit writes from
        whichever thread leads it, while other threads read or write under the service lock."""
        self._connection: sqlite3.Connection | None = None
        self.schema_version = 0
        self._open()

    # Opening ---------------------------------------------------------------------------------

    def _open(self) -> None:
        try:
            self._open_file()
        except OSError as err:
            raise StorageError(f"cannot open {self.path}: {err.strerror or err}") from None

    def _open_file(self) -> None:
        where = str(self.path)
        if self.path.exists() and self.path.is_dir():
            raise StorageError(f"{where} is a folder, not a database file")
        if self.read_only:
            self._open_read_only()
            return
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise StorageError(
                    f"cannot open {where}: its folder {self.path.parent} cannot be made "
                    f"({err.strerror or err})"
                ) from None
            # Made for its owner only before SQLite opens it; SQLite gives the -wal and -shm
            # files the database's own mode (pending orders and hashes are inside).
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE))
        elif not self._looks_like_sqlite():
            raise StorageError(
                f"{where} is not an SQLite database (it may be damaged or another kind of "
                "file); it was left untouched. Move it away or choose another --db path."
            )
        try:
            connection = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise StorageError(f"cannot open {where}: {err}") from None
        try:
            self._check_identity(connection, fresh)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
            self._migrate(connection)
            self.schema_version = SCHEMA_VERSION
            _make_private(self.path)
        except sqlite3.DatabaseError as err:
            connection.close()
            raise StorageError(
                f"{where} is damaged or not a database ({err}); it was left untouched"
            ) from None
        except StorageError:
            connection.close()
            raise
        self._connection = connection

    def _open_read_only(self) -> None:
        where = str(self.path)
        if not self.path.exists() or self.path.stat().st_size == 0:
            raise StorageError(f"{where} holds no tables yet")
        if not self._looks_like_sqlite():
            raise StorageError(
                f"{where} is not an SQLite database (it may be damaged or another kind of "
                "file); it was left untouched. Move it away or choose another --db path."
            )
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            connection = sqlite3.connect(
                uri, uri=True, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise StorageError(f"cannot open {where}: {err}") from None
        try:
            self._check_identity(connection, fresh=False)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as err:
            connection.close()
            raise StorageError(
                f"{where} is damaged or not a database ({err}); it was left untouched"
            ) from None
        except StorageError:
            connection.close()
            raise
        if version == 0:
            connection.close()
            raise StorageError(f"{where} holds no tables yet")
        self.schema_version = version
        self._connection = connection

    def _looks_like_sqlite(self) -> bool:
        with self.path.open("rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"

    def _check_identity(self, connection: sqlite3.Connection, fresh: bool) -> None:
        where = str(self.path)
        app_id = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        names = [r[0] for r in connection.execute("SELECT name FROM sqlite_master")]
        if app_id == 0 and not names and version == 0:
            return  # empty: ours to set up
        if app_id != APPLICATION_ID:
            shown = ", ".join(sorted(names)[:5]) or "nothing"
            raise StorageError(
                f"{where} is an SQLite database of another program (it holds {shown}); "
                "it was left untouched. Choose another --db path."
            )
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"{where} was written by a newer Cluster Companion (schema {version}, this one "
                f"knows up to {SCHEMA_VERSION}); upgrade before using it. It was left untouched."
            )
        problems = connection.execute("PRAGMA quick_check").fetchall()
        if problems != [("ok",)]:
            first = "; ".join(str(p[0]) for p in problems[:3])
            raise StorageError(f"{where} is damaged ({first}); it was left untouched")

    def _migrate(self, connection: sqlite3.Connection) -> None:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, SCHEMA_VERSION):
            connection.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(MIGRATIONS[number]):
                    connection.execute(statement)
                connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
                connection.execute(f"PRAGMA user_version={number + 1}")
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    @property
    def connection(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StorageError(f"{self.path} is closed")
        return self._connection

    @_with_io
    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Writing ---------------------------------------------------------------------------------

    @_with_io
    def create_table(self, table_id: str, name: str, game: str, at: float, first: LogEntry) -> None:
        """Add a table and its first log entry in one transaction."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, name, game, created_at) VALUES (?, ?, ?, ?)",
                (table_id, name, game, at),
            )
            self._insert_entry(db, table_id, first)

    @_with_io
    def append(
        self,
        table_id: str,
        entry: LogEntry,
        *,
        steps: Iterable[tuple[int, Mapping[str, Any]]] = (),
        snapshot: Mapping[str, Any] | None = None,
    ) -> None:
        """Append one log entry, with the game steps and snapshot it produced, atomically."""
        self.append_many([(table_id, entry, steps, snapshot)])

    @_with_io
    def append_many(
        self,
        items: Iterable[
            tuple[str, LogEntry, Iterable[tuple[int, Mapping[str, Any]]], Mapping[str, Any] | None]
        ],
    ) -> None:
        """Append several entries (of any tables), each with its steps and snapshot, in one
        transaction: one commit on disk for them all (the service's group commit)."""
        with self._transaction() as db:
            for table_id, entry, steps, snapshot in items:
                self._insert_entry(db, table_id, entry)
                for number, step in steps:
                    db.execute(
                        "INSERT INTO steps (table_id, n, data) VALUES (?, ?, ?)",
                        (table_id, number, _dump(step)),
                    )
                if snapshot is not None:
                    db.execute(
                        "INSERT INTO snapshots (table_id, seq, data) VALUES (?, ?, ?)",
                        (table_id, entry.seq, _dump(snapshot)),
                    )

    @staticmethod
    def _insert_entry(db: sqlite3.Connection, table_id: str, entry: LogEntry) -> None:
        db.execute(
            "INSERT INTO log (table_id, seq, at, kind, request_id, data) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, entry.seq, entry.at, entry.kind, entry.request_id, _dump(entry.data)),
        )

    @_with_io
    def beat(self, at: float, *, stopped: bool = False, url: str | None = None) -> None:
        """Record that the server is running at ``at`` (or, ``stopped``, stopping cleanly);
        ``url``: the address its site is served at (kept until another is given)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO heartbeat (id, at, pid, stopped, url) VALUES (1, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET at = excluded.at, pid = excluded.pid, "
                "stopped = excluded.stopped, url = COALESCE(excluded.url, heartbeat.url)",
                (at, os.getpid(), int(stopped), url),
            )

    @_with_io
    def server_url(self) -> str | None:
        """The address the last server served its site at, if one said."""
        if self.schema_version < 2:
            return None
        row = self.connection.execute("SELECT url FROM heartbeat").fetchone()
        return None if row is None else row[0]

    # Host links ------------------------------------------------------------------------------

    @_with_io
    def add_host_link(
        self, table_id: str, code_hash: str, host_hash: str, at: float, *, applied: bool
    ) -> None:
        """A one-time host link; ``applied``: its host secret is already the table's."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO host_links (code_hash, table_id, host_hash, made_at, applied) "
                "VALUES (?, ?, ?, ?, ?)",
                (code_hash, table_id, host_hash, at, int(applied)),
            )

    @_with_io
    def host_links_to_apply(self) -> list[tuple[str, str, str]]:
        """Links ``companion table host-link`` left for the server: (code hash, table, host
        hash), oldest first."""
        rows = self.connection.execute(
            "SELECT code_hash, table_id, host_hash FROM host_links WHERE applied = 0 "
            "ORDER BY made_at"
        )
        return [(r[0], r[1], r[2]) for r in rows]

    @_with_io
    def host_link_applied(self, code_hash: str, *, refused: bool = False) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE host_links SET applied = ? WHERE code_hash = ?",
                (-1 if refused else 1, code_hash),
            )

    @_with_io
    def host_link(self, code_hash: str) -> tuple[str, str, float, int, float | None] | None:
        """(table, host hash, made at, applied, used at) of a link, or None."""
        row = self.connection.execute(
            "SELECT table_id, host_hash, made_at, applied, used_at FROM host_links "
            "WHERE code_hash = ?",
            (code_hash,),
        ).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3], row[4])

    @_with_io
    def use_host_link(self, code_hash: str, at: float) -> bool:
        """Spend a link; False if it was spent already."""
        with self._transaction() as db:
            done = db.execute(
                "UPDATE host_links SET used_at = ? WHERE code_hash = ? AND used_at IS NULL",
                (at, code_hash),
            )
            return done.rowcount == 1

    @_with_io
    def heartbeat(self) -> Heartbeat | None:
        """The last recorded heartbeat, or None (never written, or a database from before it
        existed, read without migrating)."""
        if self.schema_version < 2:
            return None
        row = self.connection.execute("SELECT at, pid, stopped FROM heartbeat").fetchone()
        return None if row is None else Heartbeat(float(row[0]), int(row[1]), bool(row[2]))

    def _transaction(self) -> _Transaction:
        return _Transaction(self)

    # Reading ---------------------------------------------------------------------------------

    @_with_io
    def table_ids(self) -> list[str]:
        rows = self.connection.execute("SELECT id FROM tables ORDER BY created_at, id")
        return [r[0] for r in rows]

    @_with_io
    def load(self, table_id: str) -> Stored:
        db = self.connection
        row = db.execute(
            "SELECT seq, data FROM snapshots WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        snapshot = None if row is None else json.loads(row[1])
        after = -1 if row is None else row[0]
        entries = tuple(
            LogEntry(seq, at, kind, json.loads(data), request_id)
            for seq, at, kind, request_id, data in db.execute(
                "SELECT seq, at, kind, request_id, data FROM log WHERE table_id = ? AND seq > ? "
                "ORDER BY seq",
                (table_id, after),
            )
        )
        steps = tuple(
            json.loads(data)
            for (data,) in db.execute(
                "SELECT data FROM steps WHERE table_id = ? ORDER BY n", (table_id,)
            )
        )
        requests = {
            r[0]: json.loads(r[1])
            for r in db.execute(
                "SELECT request_id, data FROM log WHERE table_id = ? AND request_id IS NOT NULL",
                (table_id,),
            )
        }
        (last_at,) = db.execute(
            "SELECT at FROM log WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table_id,)
        ).fetchone()
        return Stored(table_id, snapshot, after, entries, steps, requests, float(last_at))

    @_with_io
    def entries(self, table_id: str) -> list[LogEntry]:
        """The whole log of a table, in order."""
        return [
            LogEntry(seq, at, kind, json.loads(data), request_id)
            for seq, at, kind, request_id, data in self.connection.execute(
                "SELECT seq, at, kind, request_id, data FROM log WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        ]


class _Transaction:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def __enter__(self) -> sqlite3.Connection:
        if self.storage.read_only:
            raise StorageError(f"{self.storage.path} is open for reading only")
        db = self.storage.connection
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StorageError(f"cannot write to {self.storage.path}: {err}") from None
        return db

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        db = self.storage.connection
        if kind is None:
            try:
                db.execute("COMMIT")
                return
            except sqlite3.Error as err:
                db.execute("ROLLBACK")
                raise StorageError(f"cannot write to {self.storage.path}: {err}") from None
        db.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise StorageError(f"cannot write to {self.storage.path}: {error}") from None


def _dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (triggers keep their inner semicolons)."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.strip().splitlines():
        current.append(line)
        joined = "\n".join(current).strip()
        if joined.endswith(";") and sqlite3.complete_statement(joined):
            statements.append(joined)
            current = []
    if "\n".join(current).strip():
        statements.append("\n".join(current).strip())
    return statements
