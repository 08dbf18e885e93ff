"""Makes ``tables.db`` and ``tables.json``: a table database written before issue 11.

It was run once, with the code of commit bcb1bf3 (schema 1, before the heartbeat and the
outage pauses), as ``python tests/data/schema1/make.py tests/data/schema1`` from a checkout of
that commit with tests/ on the path; the files it made are kept, not remade.
``tests/test_outages.py`` opens a copy with today's code and checks that every table rebuilds
to the very snapshot (and view) that code gave.

The tables: a lobby; a discussion with its clock running; a command phase with orders
submitted and a seat ready; a host-paused table; a build phase with a plan; a game over at
its turn limit; a table with a correction and an undo; an imported game waiting to start; a
Cosmic Cluster game; a noughts and crosses game on a chess clock.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import noughts

from companion.local_cluster.settings import HouseRules
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import TurnClock

START = 1_800_000_000.0
FIELDS = ("stage", "turn", "paused", "remaining", "deadline", "acting", "banks", "hold_reason")


def lc_table(service: TableService, name: str, **rules: Any) -> str:
    table_id, _ = service.create_table(name, 2, seed=11, options=HouseRules(**rules).to_dict())
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    sectors = [s["id"] for s in service.view(table_id)["setup"]["galaxy"]["sectors"]]
    service.choose(table_id, 2, {"colour": "blue", "home": sectors[0]})
    service.choose(table_id, 1, {"colour": "red", "home": sectors[-1]})
    return table_id


def make(folder: Path) -> None:
    noughts.register()
    clock = FakeClock(START)
    db = folder / "tables.db"
    with TableService(Storage(db), clock=clock) as service:
        lobby, _ = service.create_table("lobby", 3, seed=5)
        service.join(lobby, 2, "Early bird")
        clock.advance(3)

        lc_table(service, "discussion")
        clock.advance(30)

        command = lc_table(service, "command")
        service.skip(command)
        clock.advance(12)
        service.submit(command, 1, "HOLD " + _home(service, command, 1), request_id="r1")
        service.set_ready(command, 1, request_id="r2")

        paused = lc_table(service, "paused")
        clock.advance(50)
        service.pause(paused)
        clock.advance(7)

        build = lc_table(service, "build", turn_limit=6)
        for _ in range(4):
            service.skip(build)  # discussion, command, discussion, command: build after turn 2
        service.submit(build, 1, "STOCKPILE")

        over = lc_table(service, "over", turn_limit=1)
        while service.view(over)["stage"] != "over":
            service.skip(over)

        corrected = lc_table(service, "corrected")
        service.correct(corrected, f"MINERALS {_home(service, corrected, 1)} 3", "the tile")
        service.correct(corrected, f"MINERALS {_home(service, corrected, 2)} 2", "oops")
        service.undo(corrected)

        record = service.export(command)
        service.import_record(record, "imported")

        cosmic, _ = service.create_table("cosmic", 2, seed=3, game="cosmic-cluster")
        service.join(cosmic, 1, "Cy")
        service.join(cosmic, 2, "Di")
        for seat in service.table(cosmic).setup.choosing_order():
            service.choose(cosmic, seat, {})
        clock.advance(20)

        chess, _ = service.create_table(
            "chess clock", 2, game=noughts.NAME, turn_clock=TurnClock("player", 90)
        )
        service.join(chess, 1, "Ed")
        service.join(chess, 2, "Flo")
        clock.advance(8)
        service.submit(chess, 1, "b2", final=True)
        clock.advance(5)

        expected = {
            "now": clock.now(),
            "tables": {
                table_id: {
                    "snapshot": service.table(table_id).snapshot(),
                    "view": {k: service.view(table_id).get(k) for k in FIELDS},
                }
                for table_id in service.table_ids()
            },
        }
    (folder / "tables.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


def _home(service: TableService, table_id: str, seat: int) -> str:
    return str(service.view(table_id)["seats"][seat - 1]["choice"]["home"])


if __name__ == "__main__":
    make(Path(sys.argv[1]))
