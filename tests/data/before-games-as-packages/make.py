"""Makes tables.db with the code from before issue 14 (commit bad9bf7), for
tests/test_tables_before_games_as_packages.py: a Local Cluster table two turns in (with a
correction and a pending order) and a Cosmic Cluster table in its first orders phase,
both paused mid-phase.

Run from a checkout of bad9bf7: ``PYTHONPATH=<checkout> python make.py OUT_DIR``.
"""

import json
import sys
from pathlib import Path

from companion.policy import greedy_orders
from companion.service import FakeClock, Storage, TableService
from companion.settings import HouseRules

out = Path(sys.argv[1])
db = out / "tables.db"
clock = FakeClock(1_800_000_000.0)
with TableService(Storage(db), clock=clock) as service:
    local, _ = service.create_table("Local night", 2, seed=11, rules=HouseRules(turn_limit=10))
    service.join(local, 1, "Ann")
    service.join(local, 2, "Bo")
    galaxy = service.view(local)["setup"]["galaxy"]["sectors"]
    ids = [s["id"] for s in galaxy]
    service.choose(local, 2, {"colour": "red", "home": ids[0]})
    service.choose(local, 1, {"colour": "blue", "home": ids[-1]})
    import random

    rng = random.Random(5)
    for _ in range(2):
        service.skip(local)  # discussion
        table = service.table(local)
        state = table.session.state
        for empire in state.empires:
            service.submit(local, empire.seat, greedy_orders(state, empire.colour, rng))
        service.skip(local)
        while service.view(local)["stage"] not in ("discussion", "over"):
            service.skip(local)
    service.skip(local)
    state = service.table(local).session.state
    service.submit(local, 1, greedy_orders(state, state.empires[0].colour, rng))
    clock.advance(5)
    service.pause(local)

    cosmic, _ = service.create_table(
        "Stars", 3, seed=3, rules=HouseRules(command_seconds=600), game="cosmic-cluster"
    )
    for seat in (1, 2, 3):
        service.join(cosmic, seat, f"P{seat}")
    for seat in (1, 2, 3):
        service.choose(cosmic, seat, {})
    service.skip(cosmic)
    clock.advance(7)
    service.pause(cosmic)
    expected = {
        table_id: {"view": service.view(table_id), "record": service.export(table_id)}
        for table_id in (local, cosmic)
    }
(out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
