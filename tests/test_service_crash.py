"""Crash safety of the table service: SIGKILL a scripted game over and over, lose nothing.

A child process plays a *scripted* 8-seat, 150-turn game (some 2,900 commands) against one
SQLite file: every action is a deterministic function of the table's current position (greedy
orders, greedy build plans and random retreats from a ``random.Random`` seeded by turn, stage
and seat; some seats send an edited second version; stages end by everybody's ready or by the
host's skip; the fake clock moves 10 ms a command, so no deadline ever comes). Every submission
and ready carries a request id made of (turn, stage, seat, attempt), so when the child restarts
and runs the script again, what already reached the log is not added twice. After each
acknowledged command the child prints ``ACK <request id> <sha256 of the canonical text>``.

The parent kills the child with SIGKILL at random moments (some while it starts or opens the
database, most 0-300 ms into its work, so many land inside commits), restarts it each time, and
once it prints ``DONE`` checks that

* every acknowledged request id is in the log exactly once, with the acknowledged text;
* no request id is in the log twice, and the log holds exactly what an uninterrupted run of
  the same script writes (same commands, same order, same texts);
* the final game record is byte for byte the record of that uninterrupted run.
"""

from __future__ import annotations

import hashlib
import json
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.local_cluster.record import GameRecord
from companion.local_cluster.session import BUILD, LocalClusterSetup
from companion.service import FakeClock, Storage, TableService

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261122
PLAYERS = 8
TURNS = 150
MIN_KILLS = 20
MAX_DELAY = 0.3

CHILD = r'''
"""One life of the scripted game: resume from the database, carry on, print ACKs."""
import hashlib
import random
import sys

from companion.service import FakeClock, Stage, Storage, TableService
from companion.service.session import SubmissionError
from companion.local_cluster.session import COMMAND, RETREATS
from companion.local_cluster.settings import HouseRules
from companion.local_cluster.atoms import Colour
from companion.local_cluster.policy import greedy_orders, greedy_plan, random_retreats

DB, SEED, PLAYERS, TURNS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
START = 1_800_000_000.0
STEP = 0.01  # the fake clock moves 10 ms per command; no deadline (60 s or more) ever comes


def say(*words):
    sys.stdout.write(" ".join(words) + "\n")
    sys.stdout.flush()


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def rng(*key):
    return random.Random(":".join(str(k) for k in (SEED, *key)))


storage = Storage(DB)
(last,) = storage.connection.execute("SELECT MAX(at) FROM log").fetchone()
clock = FakeClock(START if last is None else last)  # time goes on from the last entry
service = TableService(storage, clock=clock)
say("START")

ids = service.table_ids()
if ids:
    tid = ids[0]
else:
    tid, _ = service.create_table(
        "crash test", PLAYERS, seed=SEED, options={"turn_limit": TURNS}
    )


def submit(seat, text, rid):
    before = service.table(tid).seq
    clock.advance(STEP)
    try:
        canonical = service.submit(tid, seat, text, request_id=rid)
    except SubmissionError as err:
        say("REFUSED", rid, str(err).replace("\n", " "))
        return
    # A request the log already holds is answered without a new entry: a re-send.
    say("ACK" if service.table(tid).seq > before else "DUP", rid, sha(canonical))


def ready(seat, rid):
    before = service.table(tid).seq
    clock.advance(STEP)
    service.set_ready(tid, seat, request_id=rid)
    say("ACK" if service.table(tid).seq > before else "DUP", rid, sha("READY"))


def canonical(table, seat, text):
    """The sheet as the service would store it, or None when it would refuse it."""
    try:
        return table.session.check_submission(seat, text)
    except SubmissionError:
        return None


def colour_of(state, seat):
    return next(e.colour for e in state.empires if e.seat == seat)


def texts(stage, state, turn, seat):
    """What a seat submits in this stage: one text, sometimes an edited second one."""
    colour = colour_of(state, seat)
    edit = rng(turn, stage.value, seat, "edit").random()
    if stage == COMMAND:
        first = greedy_orders(state, colour, rng(turn, "command", seat, 0))
        if edit < 0.25:
            return [first, greedy_orders(state, colour, rng(turn, "command", seat, 1))]
        lines = first.splitlines()
        if edit < 0.4 and len(lines) > 1:
            return [first, "\n".join(lines[:-1])]
        return [first]
    if stage == RETREATS:
        choices = random_retreats(state, rng(turn, "retreats", seat))
        mine = [r for r in state.retreats if r.owner is colour and r.unit in choices]
        return ["\n".join(f"RETREAT {r.sector} {choices[r.unit]}" for r in mine)]
    first = greedy_plan(state, colour, rng(turn, "build", seat, 0)).text()
    if edit < 0.3:
        return [first, greedy_plan(state, colour, rng(turn, "build", seat, 1)).text()]
    return [first]


table = service.table(tid)
for seat in sorted(table.seats):
    if not table.seats[seat].joined:
        clock.advance(STEP)
        service.join(tid, seat, f"Player {seat}")

while (table := service.table(tid)).stage == Stage.LOBBY:
    seat = table.next_to_choose()
    chosen = [s.choice for s in table.seats.values() if s.choice is not None]
    colours = {c["colour"] for c in chosen}
    homes = {c["home"] for c in chosen}
    colour = next(c for c in Colour if c.value not in colours)
    home = rng("home", seat).choice([s for s in table.setup.galaxy.ids if s not in homes])
    clock.advance(STEP)
    service.choose(tid, seat, {"colour": colour.value, "home": home})

while (table := service.table(tid)).stage != Stage.OVER:
    stage, turn, state = table.stage, table.turn, table.session.state
    plan = rng(turn, stage.value, "plan").random()
    if stage == Stage.DISCUSSION:
        if plan < 0.5:
            clock.advance(STEP)
            service.skip(tid)
        else:
            for seat in sorted(table.participants()):
                ready(seat, f"{turn}:{stage.value}:{seat}:ready")
        continue
    owing = table.session.owing()
    seats = sorted(table.participants())
    by_skip = plan < 0.25
    for index, seat in enumerate(seats):
        if seat in owing:
            # An edit that changes nothing is not sent: the service stores an unchanged sheet
            # once (R3.2), so only a re-sent request may be answered without a new entry.
            sent = None
            for attempt, text in enumerate(texts(stage, state, turn, seat)):
                same = canonical(table, seat, text)
                if same is not None and same == sent:
                    continue
                sent = same
                submit(seat, text, f"{turn}:{stage.value}:{seat}:{attempt}")
        if by_skip and index == len(seats) - 1:
            break
        ready(seat, f"{turn}:{stage.value}:{seat}:ready")
    if by_skip:
        clock.advance(STEP)
        service.skip(tid)

say("DONE", sha(service.export(tid)))
service.close()
'''


def kill_points(lines: list[str], work: float) -> tuple[int, float]:
    """How far a life may run before its kill: up to how many replies, then how long.

    Up to 1/MIN_KILLS of the uninterrupted run's lines (half that on average, so that there
    are about twice MIN_KILLS lives, however fast the machine is now); then up to one line's
    time at the uninterrupted run's pace, so that the kill lands anywhere in a command (while
    it writes, commits or prints).
    """
    reach = max(1, len(lines) // MIN_KILLS)
    return reach, min(MAX_DELAY, work / max(1, len(lines)))


class Child:
    """One life of the child process; its stdout is read line by line on a thread."""

    def __init__(self, script: Path, db: Path, args: tuple[str, ...] | None = None) -> None:
        if args is None:
            args = (str(SEED), str(PLAYERS), str(TURNS))
        self.process = subprocess.Popen(
            [sys.executable, str(script), str(db), *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.stderr = ""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if raw.endswith(b"\n"):  # a line cut short by the kill acknowledges nothing
                self.lines.put(raw.decode().rstrip("\n"))
        self.lines.put(None)

    def wait_for_start(self, timeout: float = 60.0) -> float:
        """Wait until the child has opened the database; the time it did, or -1 if it ended."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            if line is None:
                self.lines.put(None)
                return -1.0
            self.seen.append(line)
            if line == "START":
                return time.monotonic()

    def wait_for_lines(self, count: int, timeout: float = 60.0) -> None:
        """Wait until the child has printed ``count`` more lines, or has ended."""
        deadline = time.monotonic() + timeout
        for _ in range(count):
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            if line is None:
                self.lines.put(None)
                return
            self.seen.append(line)

    def finish(self) -> list[str]:
        """Every complete line the child printed, once it has ended."""
        self.process.wait(timeout=300)
        self.reader.join(timeout=10)
        while (line := self.lines.get()) is not None:
            self.seen.append(line)
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read().decode()
        self.process.stderr.close()
        assert self.process.stdout is not None
        self.process.stdout.close()
        return self.seen


def _log(db: Path) -> list[tuple[int, str, str | None, dict[str, Any]]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT seq, kind, request_id, data FROM log ORDER BY seq").fetchall()
    return [(seq, kind, rid, json.loads(data)) for seq, kind, rid, data in rows]


def _sent(stored: str, data: dict[str, Any]) -> str:
    """The request id as the child sent it: the service stores it per seat, ``seat:id``."""
    prefix = f"{data['seat']}:"
    assert stored.startswith(prefix), stored
    return stored[len(prefix) :]


def _comparable(log: list[tuple[int, str, str | None, dict[str, Any]]]) -> list[Any]:
    """The log without what is random by design: table id, secrets' hashes."""
    out = []
    for seq, kind, rid, data in log:
        data = {k: v for k, v in data.items() if k not in ("id", "host_hash", "token_hash")}
        out.append((seq, kind, rid, data))
    return out


def _export(db: Path) -> str:
    with TableService(Storage(db), clock=FakeClock(2_000_000_000.0)) as service:
        (table_id,) = service.table_ids()
        return service.export(table_id)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_sigkill_at_random_moments_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    script = tmp_path / "crash_child.py"
    script.write_text(CHILD, encoding="utf-8")
    began = time.monotonic()

    # The uninterrupted run: what the database must end up holding.
    reference_db = tmp_path / "reference.db"
    child = Child(script, reference_db)
    opened = child.wait_for_start()
    lines = child.finish()
    work = time.monotonic() - opened
    assert child.process.returncode == 0, child.stderr
    assert lines[-1].startswith("DONE ")
    reference_acks = [line for line in lines if line.startswith("ACK ")]
    assert len(reference_acks) >= 1000, f"only {len(reference_acks)} acknowledged commands"
    assert not [line for line in lines if line.startswith(("DUP ", "REFUSED "))]

    # The same script, killed again and again: mostly at a random moment after a random
    # number of its replies (counted, not timed, so that a machine faster now than during the
    # uninterrupted run still gives MIN_KILLS or more), sometimes while the child still
    # imports or opens the database.
    reach, between = kill_points(lines, work)
    db = tmp_path / "crashed.db"
    chooser = random.Random(SEED)
    kills = lives = 0
    acked: dict[str, str] = {}
    resent: list[tuple[str, str]] = []
    while True:
        lives += 1
        assert lives < 1000, "the child never finished"
        child = Child(script, db)
        if chooser.random() < 0.15:
            time.sleep(chooser.uniform(0.0, 0.4))
        else:
            child.wait_for_start()
            child.wait_for_lines(chooser.randint(0, reach))
            time.sleep(chooser.uniform(0.0, between))
        if child.process.poll() is None:
            child.process.send_signal(signal.SIGKILL)
        lines = child.finish()
        done = bool(lines) and lines[-1].startswith("DONE ")
        if child.process.returncode == -signal.SIGKILL:
            kills += not done  # a kill after DONE, as the child closes, is not counted
        else:
            assert child.process.returncode == 0, child.stderr
        for line in lines:
            word, *rest = line.split(" ")
            if word == "ACK":
                rid, digest = rest
                assert rid not in acked, f"{rid} acknowledged as new twice"
                acked[rid] = digest
            elif word == "DUP":
                resent.append((rest[0], rest[1]))
            else:
                assert word in ("START", "DONE"), line
        if done:
            break
    # One more life, left alone: it finds the game over, says so and exits cleanly.
    child = Child(script, db)
    last = child.finish()
    assert child.process.returncode == 0, child.stderr
    assert last[-1] == lines[-1]
    elapsed = time.monotonic() - began

    # Every acknowledged request is in the log once, as acknowledged; nothing is in it twice.
    with sqlite3.connect(db) as con:
        twice = con.execute(
            "SELECT request_id, COUNT(*) FROM log WHERE request_id IS NOT NULL "
            "GROUP BY table_id, request_id HAVING COUNT(*) > 1"
        ).fetchall()
    assert twice == [], f"request ids in the log more than once: {twice[:10]}"
    log = _log(db)
    logged = {
        _sent(rid, data): data["text"] if kind == "submit" else "READY"
        for _, kind, rid, data in log
        if rid is not None
    }
    assert len(logged) == sum(1 for entry in log if entry[2] is not None)
    missing = sorted(set(acked) - set(logged))
    assert not missing, f"acknowledged but not in the log: {missing[:10]}"
    wrong = [rid for rid, digest in acked.items() if _digest(logged[rid]) != digest]
    assert not wrong, f"the log holds another text than was acknowledged: {wrong[:10]}"
    assert [line for line in reference_acks if line.split(" ")[1] not in logged] == []

    # The killed run wrote exactly what the uninterrupted one did and ends in the same game.
    assert _comparable(log) == _comparable(_log(reference_db))
    final = _export(db)
    expected = _export(reference_db)
    assert final == expected
    assert lines[-1] == "DONE " + _digest(expected)
    record = GameRecord.from_json(final)
    assert (
        record.replay().state.to_json() == GameRecord.from_json(expected).replay().state.to_json()
    )
    assert record.steps[-1].turn == TURNS

    assert kills >= MIN_KILLS, f"only {kills} kills in {lives} lives"
    unacknowledged = sorted(set(logged) - set(acked))  # stored, then killed before the ACK
    other_reply = [rid for rid, digest in resent if _digest(logged[rid]) != digest]
    print(
        f"\n{kills} kills in {lives} lives (after up to {reach} replies and "
        f"{between * 1000:.1f} ms), "
        f"{len(acked)} commands acknowledged, {len(unacknowledged)} stored but killed before "
        f"their ACK, {len(resent)} re-sent after a kill ({len(other_reply)} answered with "
        "the seat's newer submission), "
        f"{len(log)} log entries; uninterrupted run {work:.1f} s, whole test {elapsed:.1f} s"
    )


def _steps(record_json: str) -> list[tuple[str, int]]:
    return [(s["kind"], s["turn"]) for s in json.loads(record_json)["steps"]]


def test_reopening_between_snapshots_keeps_the_game_steps(tmp_path: Path) -> None:
    """A restart in the build phase of turn 2: the orders step of turn 2 was stored after the
    latest snapshot (taken when turn 2 began), so rebuilding replays it from the log. It must
    not also come back from the stored steps: the game would then hold that step twice."""
    path = tmp_path / "t.db"
    with TableService(Storage(path), clock=FakeClock()) as service:
        table_id, _ = service.create_table("between snapshots", 2, seed=1)
        service.join(table_id, 1, "Ann")
        service.join(table_id, 2, "Bob")
        setup = service.table(table_id).setup
        assert isinstance(setup, LocalClusterSetup)
        ids = setup.galaxy.ids
        service.choose(table_id, 2, {"colour": "red", "home": ids[0]})
        service.choose(table_id, 1, {"colour": "blue", "home": ids[-1]})
        for _ in range(10):
            table = service.table(table_id)
            if table.turn == 2 and table.stage == BUILD:
                break
            service.skip(table_id)  # discussion, then orders (everybody holds)
        assert (table.turn, table.stage) == (2, BUILD)
        live = service.export(table_id)
    with TableService(Storage(path), clock=FakeClock()) as service:
        assert _steps(service.export(table_id)) == _steps(live) == [("orders", 1), ("orders", 2)]
        assert service.export(table_id) == live
        service.skip(table_id)  # the build phase
        played = service.export(table_id)
        GameRecord.from_json(played).replay()
    with TableService(Storage(path), clock=FakeClock()) as service:
        assert service.export(table_id) == played
        for _ in range(6):
            service.skip(table_id)
        GameRecord.from_json(service.export(table_id)).replay()
