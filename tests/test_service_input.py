"""The table service refuses bad input with a clear message and changes nothing; its SQLite
storage refuses files that are not its own and never writes to them (issue 3).

Every refusal is checked against the table's log length and its public view before and after.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError, StateError
from companion.local_cluster.galaxy import Galaxy, Sector
from companion.service import FakeClock, Storage, TableService
from companion.service.session import SubmissionError
from companion.service.storage import APPLICATION_ID, SCHEMA_VERSION, LogEntry, StorageError

FORK_EDGES = [("S1", "S2"), ("S2", "S3"), ("S3", "S4"), ("S4", "S5"), ("S4", "S6")]
FORK_MINERALS = {"S1": 2, "S2": 4, "S3": 4, "S4": 2, "S5": 1, "S6": 1}


def fork_galaxy() -> Galaxy:
    return Galaxy.from_sectors([Sector(s, m) for s, m in FORK_MINERALS.items()], FORK_EDGES)


def line_galaxy(length: int) -> Galaxy:
    ids = [f"S{n}" for n in range(1, length + 1)]
    return Galaxy.from_sectors([Sector(s, 1) for s in ids], list(itertools.pairwise(ids)))


def lobby(service: TableService, *, join: tuple[int, ...] = (1, 2)) -> str:
    table_id, _ = service.create_table(
        "t", 2, board=fork_galaxy(), options={"roll_minerals": False}, seed=3
    )
    for seat in join:
        service.join(table_id, seat, f"P{seat}")
    return table_id


def started(service: TableService) -> str:
    """Red (seat 1) at S1 and blue (seat 2) at S4, in turn 1's discussion."""
    table_id = lobby(service)
    service.choose(table_id, 2, {"colour": "blue", "home": "S4"})
    service.choose(table_id, 1, {"colour": "red", "home": "S1"})
    return table_id


def in_command(service: TableService) -> str:
    table_id = started(service)
    service.skip(table_id)
    return table_id


def in_build(service: TableService) -> str:
    table_id = started(service)
    for order in ("ADVANCE S1 S2", "ADVANCE S2 S3"):
        service.skip(table_id)
        service.submit(table_id, 1, order)
        service.skip(table_id)
    assert service.view(table_id)["stage"] == "build"
    return table_id


@contextlib.contextmanager
def unchanged(service: TableService, table_id: str) -> Iterator[None]:
    """The block changes neither the table's log nor any view of it."""
    log = service.storage.entries(table_id)
    views = [service.view(table_id), *(service.view(table_id, seat) for seat in (1, 2))]
    yield
    assert service.storage.entries(table_id) == log
    assert [service.view(table_id), *(service.view(table_id, seat) for seat in (1, 2))] == views


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# Unknown tables and seats ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.view("nope"),
        lambda s: s.join("nope", 1, "Ann"),
        lambda s: s.choose("nope", 1, {"colour": "red", "home": "S1"}),
        lambda s: s.submit("nope", 1, "HOLD S1"),
        lambda s: s.set_ready("nope", 1),
        lambda s: s.pause("nope"),
        lambda s: s.extend("nope", 30),
        lambda s: s.skip("nope"),
        lambda s: s.correct("nope", "REMOVE S1", "why"),
        lambda s: s.undo("nope"),
        lambda s: s.export("nope"),
    ],
)
def test_an_unknown_table_is_refused(service, call):
    table_id = in_command(service)
    with unchanged(service, table_id), pytest.raises(StateError, match="there is no table 'nope'"):
        call(service)
    assert service.table_ids() == [table_id]


@pytest.mark.parametrize("seat", [0, 9, -1])
@pytest.mark.parametrize(
    "call",
    [
        lambda s, t, n: s.join(t, n, "Ann"),
        lambda s, t, n: s.submit(t, n, "HOLD S1"),
        lambda s, t, n: s.set_ready(t, n),
        lambda s, t, n: s.view(t, n),
        lambda s, t, n: s.reissue(t, n),
    ],
    ids=["join", "submit", "set_ready", "view", "reissue"],
)
def test_an_unknown_seat_is_refused(service, seat, call):
    table_id = in_command(service)
    with (
        unchanged(service, table_id),
        pytest.raises(StateError, match=f"seats 1 to 2; there is no seat {seat}"),
    ):
        call(service, table_id, seat)


@pytest.mark.parametrize("seat", [0, 9, -1])
def test_an_unknown_seat_cannot_choose(service, seat):
    table_id = lobby(service)
    with unchanged(service, table_id), pytest.raises(StateError, match=f"no seat {seat}"):
        service.choose(table_id, seat, {"colour": "red", "home": "S1"})


def test_a_seat_that_has_not_joined_cannot_choose_or_submit(service):
    table_id = lobby(service, join=(1,))
    with unchanged(service, table_id):
        with pytest.raises(StateError, match="seat 2 has not joined"):
            service.choose(table_id, 2, {"colour": "blue", "home": "S4"})
        with pytest.raises(StateError, match="seat 2 has not joined"):
            service.submit(table_id, 2, "HOLD S4")
        with pytest.raises(StateError, match="seat 2 has not joined"):
            service.set_ready(table_id, 2)


def test_a_taken_seat_cannot_be_joined_again(service):
    table_id = lobby(service)
    with unchanged(service, table_id), pytest.raises(StateError, match="seat 1 is taken"):
        service.join(table_id, 1, "Mallory")


@pytest.mark.parametrize("players", [0, 1, 9])
def test_a_table_has_2_to_8_seats(service, players):
    """BUG: with an entered galaxy (``galaxy=``), create_table accepts any number of seats and
    stores the table; it can never start: with 0 seats nobody ever chooses; with 1 seat its
    choice fails in populate ("Local Cluster is for 2 to 8 players, not 1"); with 9 seats the
    eight colours run out before seat 1 chooses. The table stays in its lobby for ever. A
    generated galaxy refuses these at once (next test)."""
    with pytest.raises(StateError, match="2 to 8 players"):
        service.create_table(
            "t", players, board=line_galaxy(10), options={"roll_minerals": False}, seed=1
        )
    assert service.table_ids() == []


@pytest.mark.parametrize("players", [0, 1, 9])
def test_a_generated_table_has_2_to_8_seats(service, players):
    with pytest.raises(StateError, match="2 to 8 players"):
        service.create_table("t", players, seed=1)
    assert service.table_ids() == []


# Wrong phase and late submissions ---------------------------------------------------------------


def test_orders_in_the_lobby_are_refused(service):
    table_id = lobby(service)
    with unchanged(service, table_id):
        with pytest.raises(StateError, match="the game has not started yet"):
            service.submit(table_id, 1, "HOLD S1")
        with pytest.raises(StateError, match="the game has not started yet"):
            service.set_ready(table_id, 1)


def test_orders_in_the_discussion_are_refused(service):
    table_id = started(service)
    with (
        unchanged(service, table_id),
        pytest.raises(StateError, match="nothing is submitted in the Discussion phase"),
    ):
        service.submit(table_id, 1, "HOLD S1")


def test_a_build_plan_in_the_command_phase_is_refused(service):
    table_id = in_command(service)
    with unchanged(service, table_id), pytest.raises(SubmissionError) as refused:
        service.submit(table_id, 1, "BUILD destroyer S1")
    assert "order keyword" in refused.value.reasons[0]
    assert "'BUILD'" in refused.value.reasons[0]


def test_orders_in_the_build_phase_are_refused(service):
    table_id = in_build(service)
    with unchanged(service, table_id), pytest.raises(SubmissionError, match="BUILD"):
        service.submit(table_id, 1, "HOLD S3")


def test_a_seat_that_cannot_build_has_nothing_to_submit_in_the_build_phase(service):
    table_id = in_build(service)
    service.correct(table_id, "CLAIM S4 none", "blue lost its claim")  # blue's net is now -1
    with (
        unchanged(service, table_id),
        pytest.raises(StateError, match="seat 2 has nothing to submit in the Build phase"),
    ):
        service.submit(table_id, 2, "STOCKPILE")


def test_a_late_submission_is_refused_after_the_service_catches_up(service, clock):
    table_id = in_command(service)
    deadline = service.view(table_id)["deadline"]
    clock.advance(180 + 5)  # no tick yet
    with pytest.raises(StateError, match="nothing is submitted in the Discussion phase"):
        service.submit(table_id, 1, "ADVANCE S1 S2")
    log = service.storage.entries(table_id)
    last = (log[-1].kind, log[-1].at, dict(log[-1].data))
    assert last == ("end", deadline, {"reason": "deadline"})
    assert "submit" not in [e.kind for e in log]
    view = service.view(table_id)
    assert (view["stage"], view["turn"]) == ("discussion", 2)
    assert view["game"]["state"]["units"][0]["sector"] == "S1"  # red held (R8.2)


def test_a_late_ready_lands_in_the_phase_the_service_caught_up_to(service, clock):
    table_id = in_command(service)
    service.submit(table_id, 1, "ADVANCE S1 S2")
    clock.advance(10_000)
    service.set_ready(table_id, 1)  # lands in a later phase, not the passed one
    log = service.storage.entries(table_id)
    assert log[-1].kind == "ready"
    assert [e.kind for e in log].count("end") >= 3
    assert service.view(table_id)["game"]["state"]["units"][0]["sector"] == "S2"


def test_an_eliminated_seat_can_no_longer_submit(service):
    table_id = started(service)
    service.correct(table_id, "REMOVE S4", "blue left")
    service.correct(table_id, "CLAIM S4 none", "blue left")
    service.skip(table_id)
    service.skip(table_id)  # blue has nothing left: eliminated; red does not own everything
    assert service.view(table_id)["game"]["state"]["empires"][1]["eliminated"] is True
    with unchanged(service, table_id), pytest.raises(StateError, match="eliminated"):
        service.submit(table_id, 2, "HOLD S4")


# Oversize and malformed input ------------------------------------------------------------------


def test_an_oversize_submission_is_refused(service):
    table_id = in_command(service)
    with unchanged(service, table_id), pytest.raises(SubmissionError) as refused:
        service.submit(table_id, 1, "HOLD S1\n" * 2501)  # 20008 characters
    assert refused.value.reasons == ("that is 20008 characters; a submission is at most 20000",)


def test_a_submission_of_exactly_20000_characters_is_accepted(service):
    table_id = in_command(service)
    text = "HOLD S1\n" * 2500  # the last line for a unit is its order (R3.2)
    assert len(text) == 20_000
    assert service.submit(table_id, 1, text) == "HOLD S1"


def test_an_oversize_correction_or_reason_is_refused(service):
    table_id = started(service)
    with unchanged(service, table_id):
        with pytest.raises(StateError, match="at most 200 characters"):
            service.correct(table_id, "REMOVE S4" + " x" * 100, "why")
        with pytest.raises(StateError, match="reason at most 500"):
            service.correct(table_id, "REMOVE S4", "x" * 501)


def test_a_correction_padded_with_white_space_is_taken_stripped(service):
    """White space is stripped before the length check, as for order lines (R3.7)."""
    table_id = started(service)
    service.correct(table_id, "  REMOVE S4" + " " * 300 + "\n", "  a token fell off  ")
    last = service.storage.entries(table_id)[-1]
    assert last.kind == "correct"
    assert last.data == {"text": "REMOVE S4", "reason": "a token fell off"}


def test_garbage_orders_are_refused_with_every_reason(service):
    table_id = in_command(service)
    with unchanged(service, table_id), pytest.raises(SubmissionError) as refused:
        service.submit(table_id, 1, "FLY S1 S2\nHOLD S9\n\x00\x01")
    assert len(refused.value.reasons) >= 2
    assert all(reason.startswith("line ") for reason in refused.value.reasons)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "the player name is empty"),
        ("   \t ", "the player name is empty"),
        ("x" * 41, "up to 40 printable characters"),
        ("Ann\x00", "up to 40 printable characters"),
        ("Ann\u200b", "up to 40 printable characters"),
    ],
)
def test_an_empty_or_overlong_player_name_is_refused(service, name, words):
    table_id = lobby(service, join=(1,))
    with unchanged(service, table_id), pytest.raises(StateError, match=words):
        service.join(table_id, 2, name)


def test_a_40_character_name_is_accepted_and_spaces_are_tidied(service):
    table_id = lobby(service, join=(1,))
    service.join(table_id, 2, "  " + "y" * 20 + "   " + "z" * 19 + " ")
    assert service.view(table_id)["seats"][1]["name"] == "y" * 20 + " " + "z" * 19


@pytest.mark.parametrize("name", ["", "  ", "t" * 41, "bad\nname\x07"])
def test_an_empty_or_overlong_table_name_is_refused(service, name):
    with pytest.raises(StateError, match="table name"):
        service.create_table(name, 2, seed=1)
    assert service.table_ids() == []
    assert service.storage.table_ids() == []


@pytest.mark.parametrize("request_id", ["", "r" * 65, "bell\a"])
def test_a_bad_request_id_is_refused(service, request_id):
    table_id = in_command(service)
    with unchanged(service, table_id):
        with pytest.raises(StateError, match="a request id is 1 to 64 printable characters"):
            service.submit(table_id, 1, "HOLD S1", request_id=request_id)
        with pytest.raises(StateError, match="a request id is 1 to 64 printable characters"):
            service.set_ready(table_id, 1, request_id=request_id)


def test_a_duplicate_request_id_is_idempotent(service):
    table_id = in_command(service)
    first = service.submit(table_id, 1, "ADVANCE S1 S2", request_id="r" * 64)
    with unchanged(service, table_id):
        again = service.submit(table_id, 1, "ADVANCE S1 S2", request_id="r" * 64)
    assert first == again == "ADVANCE S1 S2"
    # Stored per seat ("1:..."), so another seat's phone can never collide with it.
    assert [e.request_id for e in service.storage.entries(table_id)].count("1:" + "r" * 64) == 1


def test_the_same_request_id_from_another_seat_is_a_new_submission(service):
    table_id = in_command(service)
    service.submit(table_id, 1, "ADVANCE S1 S2", request_id="tap-1")
    second = service.submit(table_id, 2, "HOLD S4", request_id="tap-1")
    assert second == "HOLD S4"
    assert service.view(table_id, seat=2)["you"]["submission"] == "HOLD S4"
    service.set_ready(table_id, 2, request_id="press-1")
    with unchanged(service, table_id):
        assert service.set_ready(table_id, 2, request_id="press-1") is True


def test_a_duplicate_request_id_is_idempotent_after_a_restart(tmp_path, clock):
    with TableService(Storage(tmp_path / "t.db"), clock=clock) as service:
        table_id = in_command(service)
        service.submit(table_id, 1, "ADVANCE S1 S2", request_id="abc")
    with (
        TableService(Storage(tmp_path / "t.db"), clock=clock) as again,
        unchanged(again, table_id),
    ):
        assert again.submit(table_id, 1, "ADVANCE S1 S2", request_id="abc") == "ADVANCE S1 S2"


def test_a_refused_submission_changes_nothing_and_keeps_the_earlier_one(service):
    table_id = in_command(service)
    service.submit(table_id, 1, "ADVANCE S1 S2")
    with unchanged(service, table_id), pytest.raises(SubmissionError):
        service.submit(table_id, 1, "ADVANCE S1 S3")
    assert service.view(table_id, 1)["you"]["submission"] == "ADVANCE S1 S2"


def test_a_closed_service_refuses_everything(tmp_path, clock):
    service = TableService(Storage(tmp_path / "t.db"), clock=clock)
    table_id = started(service)
    service.close()
    with pytest.raises(StateError, match="closed"):
        service.view(table_id)
    with pytest.raises(StateError, match="closed"):
        service.submit(table_id, 1, "HOLD S1")
    service.close()  # twice is fine


# Storage: files that are not ours ----------------------------------------------------------------


def _refused(path: Path, words: str) -> None:
    before = sha256(path)
    with pytest.raises(StorageError, match=words) as refused:
        Storage(path)
    assert str(path) in str(refused.value)
    assert "untouched" in str(refused.value)
    assert sha256(path) == before


def test_a_file_of_random_bytes_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "random.db"
    path.write_bytes(random.Random(1).randbytes(8192))
    _refused(path, "is not an SQLite database")


def test_a_damaged_sqlite_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "damaged.db"
    path.write_bytes(b"SQLite format 3\x00" + random.Random(2).randbytes(8192))
    _refused(path, "damaged")


def test_a_damaged_database_of_ours_is_refused_and_left_untouched(tmp_path, clock):
    path = tmp_path / "ours.db"
    with TableService(Storage(path), clock=clock) as service:
        for n in range(30):
            service.create_table(f"table {n}", 2, seed=n)
    data = bytearray(path.read_bytes())
    for index in range(2 * 4096, len(data) - 100, 997):
        data[index] ^= 0xFF
    path.write_bytes(bytes(data))
    _refused(path, "damaged")


def test_an_sqlite_file_of_another_program_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        other.execute("INSERT INTO users (name) VALUES ('ann')")
        other.commit()
    _refused(path, "another program .*users")


def test_a_database_of_a_newer_version_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "newer.db"
    with contextlib.closing(sqlite3.connect(path)) as newer:
        newer.execute(f"PRAGMA application_id={APPLICATION_ID}")
        newer.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
        newer.execute("CREATE TABLE tables_v2 (id TEXT)")
        newer.commit()
    _refused(path, f"newer Cluster Companion \\(schema {SCHEMA_VERSION + 1}")


def test_a_directory_path_is_refused(tmp_path):
    folder = tmp_path / "folder.db"
    folder.mkdir()
    with pytest.raises(StorageError, match="is a folder, not a database file"):
        Storage(folder)
    assert list(folder.iterdir()) == []


def test_a_refused_file_stops_the_service_before_it_starts(tmp_path):
    path = tmp_path / "random.db"
    path.write_bytes(b"not a database at all\n" * 100)
    before = sha256(path)
    with pytest.raises(StorageError):
        TableService(Storage(path), clock=FakeClock())
    assert sha256(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["random.db"]


# Storage: our own files --------------------------------------------------------------------------


def _pragma(path: Path, name: str) -> Any:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(f"PRAGMA {name}").fetchone()[0]


def test_a_fresh_file_is_migrated_to_the_current_schema(tmp_path):
    path = tmp_path / "sub" / "dir" / "fresh.db"
    with Storage(path) as storage:
        db = storage.connection
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"tables", "log", "snapshots", "steps"} <= names
    assert _pragma(path, "user_version") == SCHEMA_VERSION
    assert _pragma(path, "journal_mode") == "wal"


def test_an_empty_file_is_set_up_as_a_new_database(tmp_path):
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    with Storage(path) as storage:
        assert storage.table_ids() == []
    assert _pragma(path, "application_id") == APPLICATION_ID


def test_reopening_our_own_file_keeps_it(tmp_path, clock):
    path = tmp_path / "t.db"
    with TableService(Storage(path), clock=clock) as service:
        table_id = started(service)
        log = service.storage.entries(table_id)
    with Storage(path) as storage:
        assert storage.entries(table_id) == log
        assert storage.table_ids() == [table_id]


def test_the_log_is_append_only(tmp_path, clock):
    path = tmp_path / "t.db"
    with TableService(Storage(path), clock=clock) as service:
        table_id = started(service)
        db = service.storage.connection
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE log SET kind = 'forged' WHERE table_id = ?", (table_id,))
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("DELETE FROM log WHERE table_id = ?", (table_id,))
        log = service.storage.entries(table_id)
    with contextlib.closing(sqlite3.connect(path)) as other:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            other.execute("DELETE FROM log")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            other.execute("UPDATE log SET data = '{}'")
    with Storage(path) as storage:
        assert storage.entries(table_id) == log


def test_recorded_game_steps_are_append_only(tmp_path, clock):
    with TableService(Storage(tmp_path / "t.db"), clock=clock) as service:
        table_id = started(service)
        service.correct(table_id, "CLAIM S2 red", "why")
        db = service.storage.connection
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("DELETE FROM steps")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE steps SET data = '{}'")


def test_a_log_entry_with_a_taken_sequence_number_is_refused_whole(tmp_path, clock):
    with TableService(Storage(tmp_path / "t.db"), clock=clock) as service:
        table_id = started(service)
        log = service.storage.entries(table_id)
        with pytest.raises(StorageError, match="cannot write"):
            service.storage.append(
                table_id,
                LogEntry(log[-1].seq, 0.0, "ready", {"seat": 1}),
                steps=[(99, {"kind": "forged"})],
            )
        assert service.storage.entries(table_id) == log
        count = service.storage.connection.execute("SELECT COUNT(*) FROM steps").fetchone()
        assert count[0] == 0


def test_a_refused_file_is_never_written_even_by_a_second_attempt(tmp_path):
    path = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE users (id)")
        other.commit()
    before = sha256(path)
    for _ in range(2):
        with pytest.raises(StorageError):
            Storage(path)
    assert sha256(path) == before
    assert _pragma(path, "application_id") == 0
    assert _pragma(path, "journal_mode") == "delete"


def test_storage_errors_are_companion_errors():
    assert issubclass(StorageError, CompanionError)
    assert issubclass(StorageError, RuntimeError)


def test_a_seat_token_finds_its_seat_and_a_reissued_link_retires_the_old_one(service):
    table_id, _ = service.create_table(
        "Tokens", 2, board=fork_galaxy(), options={"roll_minerals": False}
    )
    first = service.join(table_id, 1, "Ann")
    second = service.join(table_id, 2, "Bo")
    assert service.seat_for_token(table_id, first) == 1
    assert service.seat_for_token(table_id, second) == 2
    assert service.seat_for_token(table_id, first + "x") is None
    assert service.seat_for_token(table_id, "") is None
    fresh = service.reissue(table_id, 1)
    assert service.seat_for_token(table_id, fresh) == 1
    assert service.seat_for_token(table_id, first) is None
