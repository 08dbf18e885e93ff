"""Crash safety for a turn-taking game: SIGKILL a scripted series of games, lose nothing.

The same trial as tests/test_service_crash.py, for the test-only noughts and crosses
(tests/noughts.py): a child process plays a scripted series of games, one table each, with
moves played at once, moves left pending and then replaced or confirmed by the seat's "done"
press, and the host's undo. Every decision is a function of what is stored (the table's log
position, board and pending move), so a child restarted after a kill carries on exactly as an
uninterrupted run does. The parent kills it at random moments and checks that every
acknowledged request is in the log once, that the log equals the uninterrupted run's, and that
every game's record is byte for byte the same.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import noughts
import pytest
from test_service_crash import MIN_KILLS, ROOT, Child, _digest, kill_points

from companion.service import FakeClock, Storage, TableService

GAMES = 150

CHILD = r'''
"""One life of the scripted series: resume from the database, carry on, print ACKs."""
import hashlib
import random
import sys

DB, SEED, GAMES, TESTS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, TESTS)
import noughts  # noqa: E402

from companion.service import FakeClock, Stage, Storage, TableService  # noqa: E402

noughts.register()
STEP = 0.01


def say(*words):
    sys.stdout.write(" ".join(words) + "\n")
    sys.stdout.flush()


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


storage = Storage(DB)
(last,) = storage.connection.execute("SELECT MAX(at) FROM log").fetchone()
clock = FakeClock(1_800_000_000.0 if last is None else last)
service = TableService(storage, clock=clock)
say("START")


def acked(before, tid, rid, text):
    say("ACK" if service.table(tid).seq > before else "DUP", rid, sha(text))


for game in range(GAMES):
    ids = service.table_ids()
    if len(ids) > game:
        tid = ids[game]
    else:
        clock.advance(STEP)
        tid, _ = service.create_table(f"game {game}", 2, game=noughts.NAME)
    for seat in (1, 2):
        if not service.table(tid).seats[seat].joined:
            clock.advance(STEP)
            service.join(tid, seat, f"Player {seat}")
    while (table := service.table(tid)).stage != Stage.OVER:
        seq, seat = table.seq, table.acting()
        position = table.session.position
        r = random.Random(f"{SEED}:{game}:{seq}")
        plan = r.random()
        free = [c for c in noughts.CELLS if c not in position.board]
        before = seq
        clock.advance(STEP)
        if seat in table.submissions:  # a pending move: replace it, or press done
            # A move that changes nothing is not sent: the service stores an unchanged one once
            # (issue 12), so only a re-sent request may be answered without a new entry.
            other = [c for c in free if c != table.submissions[seat]]
            if plan < 0.3 and other:
                rid = f"{game}:{seq}:pending"
                acked(before, tid, rid, service.submit(tid, seat, r.choice(other), request_id=rid))
            else:
                rid = f"{game}:{seq}:done"
                service.set_ready(tid, seat, request_id=rid)
                acked(before, tid, rid, "READY")
        elif plan < 0.2 and position.moves:
            service.undo(tid)  # the host's command: no request id
        elif plan < 0.6:
            rid = f"{game}:{seq}:move"
            text = service.submit(tid, seat, r.choice(free), request_id=rid, final=True)
            acked(before, tid, rid, text)
        else:
            rid = f"{game}:{seq}:pending"
            acked(before, tid, rid, service.submit(tid, seat, r.choice(free), request_id=rid))

say("DONE", sha("".join(service.export(t) for t in service.table_ids())))
service.close()
'''

SEED = 20261123


def _log(db: Path) -> list[tuple[str, int, str, str | None, dict[str, Any]]]:
    """Every table's log, tables in the order they were made, without what is random."""
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT t.name, l.seq, l.kind, l.request_id, l.data FROM log l "
            "JOIN tables t ON t.id = l.table_id ORDER BY t.created_at, l.seq"
        ).fetchall()
    out = []
    for name, seq, kind, rid, data in rows:
        fields = json.loads(data)
        kept = {k: v for k, v in fields.items() if k not in ("id", "host_hash", "token_hash")}
        out.append((name, seq, kind, rid, kept))
    return out


def _exports(db: Path) -> dict[str, str]:
    with TableService(Storage(db), clock=FakeClock(2_000_000_000.0)) as service:
        return {service.view(t)["name"]: service.export(t) for t in service.table_ids()}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_sigkill_during_turn_taking_games_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    noughts.register()
    script = tmp_path / "crash_turns_child.py"
    script.write_text(CHILD, encoding="utf-8")
    args = (str(SEED), str(GAMES), str(ROOT / "tests"))

    reference_db = tmp_path / "reference.db"
    child = Child(script, reference_db, args)
    opened = child.wait_for_start()
    lines = child.finish()
    work = time.monotonic() - opened
    assert child.process.returncode == 0, child.stderr
    assert lines[-1].startswith("DONE ")
    reference_acks = [line for line in lines if line.startswith("ACK ")]
    assert len(reference_acks) >= 500, f"only {len(reference_acks)} acknowledged commands"

    reach, between = kill_points(lines, work)  # counted, not timed: see test_service_crash
    db = tmp_path / "crashed.db"
    chooser = random.Random(SEED)
    kills = lives = 0
    acked: dict[str, str] = {}
    while True:
        lives += 1
        assert lives < 1000, "the child never finished"
        child = Child(script, db, args)
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
            kills += not done
        else:
            assert child.process.returncode == 0, child.stderr
        for line in lines:
            word, *rest = line.split(" ")
            if word == "ACK":
                rid, digest = rest
                assert rid not in acked, f"{rid} acknowledged as new twice"
                acked[rid] = digest
            else:
                assert word in ("START", "DONE", "DUP"), line
        if done:
            break

    log = _log(db)
    logged = {
        rid.split(":", 1)[1]: data["text"] if kind == "submit" else "READY"
        for _, _, kind, rid, data in log
        if rid is not None
    }
    assert len(logged) == sum(1 for entry in log if entry[3] is not None)
    missing = sorted(set(acked) - set(logged))
    assert not missing, f"acknowledged but not in the log: {missing[:10]}"
    wrong = [rid for rid, digest in acked.items() if _digest(logged[rid]) != digest]
    assert not wrong, f"the log holds another text than was acknowledged: {wrong[:10]}"
    assert log == _log(reference_db)
    assert _exports(db) == _exports(reference_db)
    assert kills >= MIN_KILLS, f"only {kills} kills in {lives} lives"
    print(
        f"\n{kills} kills in {lives} lives, {len(acked)} commands acknowledged, {len(log)} entries"
    )
