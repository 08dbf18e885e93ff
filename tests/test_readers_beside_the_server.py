"""Issue 11: reading commands never disturb a running table.

``companion table list``, ``companion table export`` and ``companion replay`` run, in processes
of their own and many times over, beside a real ``companion serve`` whose table resolves a phase
every second. The server must keep serving the table all along and end every phase itself, at
its own deadline. (Before the fix a reader opened the database as a writer and ended the passed
deadlines itself: its log entries collided with the server's, and the server set the table
aside as broken: "There is no table".)
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from live_server import Browser, ServerProcess

from companion.local_cluster.atoms import Colour
from companion.local_cluster.settings import HouseRules
from companion.service import Storage, TableService

READERS = 3
RACE_SECONDS = 10.0

READER = r"""
import contextlib, io, sys, time
from companion.cli import main
db, table_id, out, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
runs = failures = 0
end = time.monotonic() + seconds
while time.monotonic() < end:
    for argv in (
        ["table", "list", "--db", db],
        ["table", "export", table_id, out, "--force", "--db", db],
        ["replay", out],
    ):
        said, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(err):
            code = main(argv)
        runs += 1
        if code != 0:
            failures += 1
            print("FAILED", argv, err.getvalue().strip(), flush=True)
print("RUNS", runs, failures, flush=True)
"""


def one_second_table(db: Path) -> tuple[str, str]:
    """A 2-seat Local Cluster table whose every phase lasts a second, started and then paused
    by its host (so the server starts it on the host's word, not as an outage's end)."""
    rules = HouseRules(discussion_seconds=1, command_seconds=1, retreat_seconds=1, build_seconds=1)
    with TableService(Storage(db)) as service:
        table_id, secret = service.create_table("race", 2, seed=7, options=rules.to_dict())
        for seat in (1, 2):
            service.join(table_id, seat, f"Player {seat}")
        sectors = [sector["id"] for sector in service.view(table_id)["setup"]["galaxy"]["sectors"]]
        homes = random.Random(1).sample(sectors, 2)
        while (seat := service.table(table_id).next_to_choose()) is not None:
            choice = {"colour": list(Colour)[seat - 1].value, "home": homes[seat - 1]}
            service.choose(table_id, seat, choice)
        service.pause(table_id)
    return table_id, secret


def test_reading_commands_racing_a_running_server_never_change_what_it_serves(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.db"
    table_id, secret = one_second_table(db)
    with ServerProcess(db) as server:
        host = Browser(server.url)
        host.host(table_id, secret)
        assert host.post(f"/t/{table_id}/host/resume")[0] == 200
        readers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    READER,
                    str(db),
                    table_id,
                    str(tmp_path / f"r{n}.json"),
                    str(RACE_SECONDS),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for n in range(READERS)
        ]
        screen = Browser(server.url)
        looks = 0
        while any(reader.poll() is None for reader in readers):
            status, page = screen.get(f"/t/{table_id}")
            assert status == 200, page  # never "There is no table"
            looks += 1
            time.sleep(0.1)
        said = [reader.communicate(timeout=30) for reader in readers]
        time.sleep(1.5)  # the server ends the phase that is running now
        status, page = screen.get(f"/t/{table_id}")
        assert status == 200, page
        assert server.stop() == 0, server.err
    assert "Traceback" not in server.err, server.err
    runs = 0
    for out, err in said:
        assert "FAILED" not in out and err == "", out + err
        runs += int(out.split()[-2])
    assert runs >= 30 and looks >= 30
    with TableService(Storage(db, read_only=True)) as after:
        entries = after.storage.entries(table_id)
        ends = [entry for entry in entries if entry.kind == "end"]
        assert len(ends) >= RACE_SECONDS / 2  # the server went on playing, phase after phase
        assert all(entry.data == {"reason": "deadline"} for entry in ends)
        table = after.table(table_id)
        assert table.stage.playing and table.turn > 3
