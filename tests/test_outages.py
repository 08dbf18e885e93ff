"""Issue 11: outages must not play the game (docs/architecture.md, "Outages").

When the server was not running (a power cut, a reboot, Ctrl+C on ``make run``), no phase
ends: a table comes back in the phase it was in, paused with the time it had left and the
outage as the reason the host and the players see. A running server tells an outage (it was
suspended, or its clock jumped) from a slow tick by the gap between two looks at the clock.
Trials with a real ``companion serve`` stopped by SIGTERM and by SIGKILL, for a Local Cluster
table and for a turn-taking game on a chess clock; and a database written before the change
still rebuilds every table as it was.
"""

from __future__ import annotations

import json
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import noughts
import pytest
from live_server import Browser, ServerProcess

from companion import games
from companion.local_cluster.settings import HouseRules
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import TurnClock
from companion.service.service import HEARTBEAT_SECONDS, OUTAGE_SECONDS
from companion.service.storage import LogEntry

SCHEMA1 = Path(__file__).parent / "data" / "schema1"


@pytest.fixture(autouse=True)
def noughts_registered() -> Iterator[games.Game]:
    yield noughts.register()
    games.unregister(noughts.NAME)


def started(service: TableService, *, discussion: int = 240, seed: int = 11) -> str:
    """A 2-seat Local Cluster table in turn 1's discussion, its clock running."""
    rules = HouseRules(discussion_seconds=discussion, command_seconds=discussion)
    table_id, _ = service.create_table("Friday", 2, seed=seed, options=rules.to_dict())
    return seat_and_choose(service, table_id)


def seat_and_choose(service: TableService, table_id: str) -> str:
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    sectors = [s["id"] for s in service.view(table_id)["setup"]["galaxy"]["sectors"]]
    service.choose(table_id, 2, {"colour": "blue", "home": sectors[0]})
    service.choose(table_id, 1, {"colour": "red", "home": sectors[-1]})
    return table_id


def run_for(service: TableService, clock: FakeClock, seconds: int) -> None:
    """What the timer thread does: a tick every second."""
    for _ in range(seconds):
        clock.advance(1)
        service.tick()


def entries_after(storage: Storage, table_id: str, seq: int) -> list[LogEntry]:
    return [entry for entry in storage.entries(table_id) if entry.seq > seq]


# The running service: outage or slow tick -------------------------------------------------


def test_a_slow_tick_is_not_an_outage_the_deadline_ends_at_its_own_time(tmp_path: Path) -> None:
    clock = FakeClock()
    with TableService(Storage(tmp_path / "t.db"), clock=clock) as service:
        table_id = started(service, discussion=240)
        service.keep_time()  # what start_timer() does, without the thread
        run_for(service, clock, 235)
        clock.advance(OUTAGE_SECONDS - 1)  # the next tick comes late, past the deadline
        service.tick()
        view = service.view(table_id)
        assert (view["stage"], view["paused"]) == ("command", False)
        (ended,) = [e for e in service.storage.entries(table_id) if e.kind == "end"]
        assert ended.at == clock.history[0] + 240


def test_a_gap_longer_than_the_outage_limit_stops_the_clock_at_the_last_look(
    tmp_path: Path,
) -> None:
    """The machine slept (a laptop's lid), or the process was stopped, or the clock jumped:
    the clock stops at the service's last look, with the time it had left."""
    clock = FakeClock()
    with TableService(Storage(tmp_path / "t.db"), clock=clock) as service:
        table_id = started(service, discussion=240)
        service.keep_time()
        run_for(service, clock, 100)
        seen = clock.now()
        clock.advance(3600)
        view = service.view(table_id)  # a request is the first to notice
        assert (view["stage"], view["paused"], view["remaining"]) == ("discussion", True, 140)
        assert "the server was not running from" in view["hold_reason"]
        pause = service.storage.entries(table_id)[-1]
        assert (pause.kind, pause.at) == ("pause", seen)
        assert pause.data["outage"] == {"from": seen, "to": seen + 3600}


def test_a_running_server_beats_while_a_clock_runs_and_once_more_when_it_stops(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    storage = Storage(tmp_path / "t.db")
    with TableService(storage, clock=clock) as service:
        service.keep_time()
        service.create_table("lobby", 2)
        service.tick()
        assert storage.heartbeat() is None  # no clock runs: nothing to keep
        started(service)
        run_for(service, clock, 12)
        beat = storage.heartbeat()
        assert beat is not None and not beat.stopped
        assert clock.now() - HEARTBEAT_SECONDS <= beat.at <= clock.now()
        clock.advance(2)
        stopped_at = clock.now()
    again = Storage(tmp_path / "t.db")
    beat = again.heartbeat()
    again.close()
    assert beat is not None and (beat.at, beat.stopped) == (stopped_at, True)


# Restarts ----------------------------------------------------------------------------------


def test_a_chess_clock_keeps_the_acting_seats_time_through_an_outage(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "t.db"
    with TableService(Storage(db), clock=clock) as service:
        table_id, _ = service.create_table(
            "Xs and Os", 2, game=noughts.NAME, turn_clock=TurnClock("player", 60)
        )
        service.join(table_id, 1, "Ann")
        service.join(table_id, 2, "Bo")
        service.keep_time()
        run_for(service, clock, 10)
        service.submit(table_id, 1, "b2", final=True)  # seat 1 used 10 s of its 60
        run_for(service, clock, 25)  # seat 2 used 25 s when the server stopped (its last beat)
    clock.advance(3600)
    with TableService(Storage(db), clock=clock) as again:
        view = again.view(table_id)
        assert (view["stage"], view["acting"], view["paused"]) == ("move", 2, True)
        assert view["remaining"] == 35 and view["banks"] == {"1": 50.0, "2": 60.0}
        again.resume(table_id)
        clock.advance(30)
        again.tick()
        assert again.view(table_id)["remaining"] == 5  # no loss on time while it was down


def test_a_reader_shows_a_stopped_servers_clock_stopped_and_writes_nothing(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    db = tmp_path / "t.db"
    with TableService(Storage(db), clock=clock) as service:
        table_id = started(service)
        clock.advance(40)
        service.set_ready(table_id, 1)
        log = len(service.storage.entries(table_id))
    clock.advance(OUTAGE_SECONDS / 2)  # its server may still be running: shown as stored
    with TableService(Storage(db, read_only=True), clock=clock) as reader:
        view = reader.view(table_id)
        assert (view["paused"], view["remaining"]) == (False, 200 - OUTAGE_SECONDS / 2)
    clock.advance(600)
    with TableService(Storage(db, read_only=True), clock=clock) as reader:
        view = reader.view(table_id)
        assert (view["stage"], view["paused"], view["remaining"]) == ("discussion", True, 200)
        assert "the server was not running" in view["hold_reason"]
        assert len(reader.storage.entries(table_id)) == log


def test_a_one_shot_command_records_an_outage_only_on_the_table_it_touches(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    db = tmp_path / "t.db"
    with TableService(Storage(db), clock=clock) as service:
        first = started(service)
        second = started(service, seed=12)
    clock.advance(600)
    with TableService(Storage(db), clock=clock, recover=False) as command:
        assert command.view(first)["paused"]
    with TableService(Storage(db, read_only=True), clock=clock) as reader:
        assert [e.kind for e in reader.storage.entries(first)][-1] == "pause"
        assert [e.kind for e in reader.storage.entries(second)][-1] == "choose"


# A database from before the change ---------------------------------------------------------


def _schema1(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    db = tmp_path / "tables.db"
    shutil.copyfile(SCHEMA1 / "tables.db", db)
    return db, json.loads((SCHEMA1 / "tables.json").read_text())


def test_a_database_written_before_the_change_rebuilds_every_table_as_it_was(
    tmp_path: Path,
) -> None:
    db, expected = _schema1(tmp_path)
    reader = Storage(db, read_only=True)
    assert reader.schema_version == 1 and reader.heartbeat() is None
    with TableService(reader, clock=FakeClock(expected["now"]), recover=False) as service:
        assert sorted(service.table_ids()) == sorted(expected["tables"])
        for table_id, was in expected["tables"].items():
            snapshot = json.loads(json.dumps(service.tables[table_id].snapshot()))
            assert snapshot == was["snapshot"], was["snapshot"]["name"]
    with TableService(Storage(db), clock=FakeClock(expected["now"]), recover=False) as service:
        assert service.storage.schema_version == 2  # migrated forward, its log untouched
        for table_id, was in expected["tables"].items():
            snapshot = json.loads(json.dumps(service.tables[table_id].snapshot()))
            assert snapshot == was["snapshot"], was["snapshot"]["name"]


def test_a_database_written_before_the_change_comes_back_with_its_clocks_stopped(
    tmp_path: Path,
) -> None:
    db, expected = _schema1(tmp_path)
    down = 25 * 60
    with TableService(Storage(db), clock=FakeClock(expected["now"] + down)) as service:
        for table_id, was in expected["tables"].items():
            view, before = service.view(table_id), was["view"]
            name = was["snapshot"]["name"]
            assert (view["stage"], view["turn"]) == (before["stage"], before["turn"]), name
            if before["deadline"] is None or before["paused"]:
                assert {k: view[k] for k in before} == before, name  # nothing was running
                continue
            last = service.storage.entries(table_id)[-1]
            assert last.kind == "pause" and "was not running" in view["hold_reason"], name
            assert view["paused"] and view["remaining"] == before["deadline"] - last.at, name
            assert view["remaining"] >= before["remaining"], name  # never less time


# Real processes ------------------------------------------------------------------------------


def host_paused_table(db: Path, **table: Any) -> tuple[str, str]:
    """A table whose clock the host paused before the server starts (so the server does not
    start it as an outage's end): the trial resumes it through the host page."""
    with TableService(Storage(db)) as service:
        if table.get("game") == noughts.NAME:
            table_id, secret = service.create_table("Xs and Os", 2, **table)
            service.join(table_id, 1, "Ann")
            service.join(table_id, 2, "Bo")
        else:
            rules = HouseRules(discussion_seconds=4, command_seconds=60)
            table_id, secret = service.create_table("Friday", 2, seed=11, options=rules.to_dict())
            seat_and_choose(service, table_id)
        service.pause(table_id)
    return table_id, secret


def last_seq(db: Path, table_id: str) -> int:
    with TableService(Storage(db, read_only=True)) as reader:
        return reader.storage.entries(table_id)[-1].seq


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_real_server_stopped_past_the_deadline_comes_back_in_the_same_phase(
    tmp_path: Path, how: signal.Signals
) -> None:
    db = tmp_path / "tables.db"
    table_id, secret = host_paused_table(db)
    with TableService(Storage(db, read_only=True)) as reader:
        paused_with = reader.view(table_id)["remaining"]  # the host paused it as it began
    assert 3.5 < paused_with <= 4
    with ServerProcess(db) as server:
        host = Browser(server.url)
        host.host(table_id, secret)
        assert host.post(f"/t/{table_id}/host/resume")[0] == 200
        resumed = last_seq(db, table_id)
        time.sleep(1.0)
        stopped = time.time()
        code = server.stop(how)
    assert code == (0 if how is signal.SIGTERM else -signal.SIGKILL)
    time.sleep(5.0)  # longer than the 3 s the discussion had left
    with ServerProcess(db) as server:
        host = Browser(server.url)
        host.host(table_id, secret)
        status, page = host.get(f"/t/{table_id}/host")
        assert status == 200
        assert "the server was not running from" in page
        with TableService(Storage(db, read_only=True)) as reader:
            (resume, pause) = entries_after(reader.storage, table_id, resumed - 1)
            view = reader.view(table_id)
        assert (resume.kind, pause.kind) == ("resume", "pause")
        assert (view["stage"], view["turn"], view["paused"]) == ("discussion", 1, True)
        if how is signal.SIGTERM:
            assert stopped <= pause.at <= stopped + 2  # its last beat, on the way out
        else:
            assert stopped - HEARTBEAT_SECONDS - 1 <= pause.at <= stopped
        left = paused_with - (pause.at - resume.at)
        assert view["remaining"] == pytest.approx(left, abs=0.05) and left > 2
        assert host.post(f"/t/{table_id}/host/resume")[0] == 200
        time.sleep(left + 1.5)
        with TableService(Storage(db, read_only=True)) as reader:
            assert reader.view(table_id)["stage"] == "command"  # it ran out only once resumed
        assert server.stop() == 0


def test_a_real_server_killed_during_a_chess_clock_turn_keeps_the_seats_time(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.db"
    table_id, secret = host_paused_table(db, game=noughts.NAME, turn_clock=TurnClock("player", 20))
    with ServerProcess(db, games=("noughts_pages",)) as server:
        host = Browser(server.url)
        host.host(table_id, secret)
        assert host.post(f"/t/{table_id}/host/resume")[0] == 200
        resumed = last_seq(db, table_id)
        time.sleep(1.0)
        killed = time.time()
        server.stop(signal.SIGKILL)
    time.sleep(3.0)
    with ServerProcess(db, games=("noughts_pages",)) as server:
        with TableService(Storage(db, read_only=True)) as reader:
            view = reader.view(table_id)
            resume, pause = entries_after(reader.storage, table_id, resumed - 1)
        assert (resume.kind, pause.kind) == ("resume", "pause")
        assert "not running" in pause.data["reason"]
        assert (view["stage"], view["acting"], view["paused"]) == ("move", 1, True)
        assert resume.at < pause.at <= killed
        assert view["remaining"] == pytest.approx(20 - (pause.at - resume.at), abs=0.05)
        assert view["banks"] == {"1": 20.0}  # seat 2's clock has not started
        assert server.stop() == 0
