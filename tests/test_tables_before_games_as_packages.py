"""Tables stored before the games became packages (issue 14) open, replay and play on.

``tests/data/before-games-as-packages/tables.db`` was written by the code of commit bad9bf7
(``make.py`` beside it says how): a Local Cluster table two turns in, with a pending order, and
a Cosmic Cluster table in its first orders phase, both paused. Today's service must rebuild both
from that file exactly as they were: the same views (every key the old view had) and the same
game records, byte for byte; then they play on.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.service import FakeClock, Storage, TableService

DATA = Path(__file__).parent / "data" / "before-games-as-packages"
LOCAL_CLUSTER_ONLY = ("support_range", "advance_claims_empty", "turn_limit")


@pytest.fixture
def old(tmp_path: Path) -> tuple[TableService, dict[str, Any]]:
    shutil.copy(DATA / "tables.db", tmp_path / "tables.db")
    expected = json.loads((DATA / "expected.json").read_text())
    last = max(view["view"].get("deadline") or 0 for view in expected.values())
    service = TableService(Storage(tmp_path / "tables.db"), clock=FakeClock(1_800_000_100.0))
    assert last == 0  # both were paused: no deadline to pass while the file sat here
    return service, expected


def test_old_tables_rebuild_to_the_same_views_and_records(
    old: tuple[TableService, dict[str, Any]],
) -> None:
    service, expected = old
    with service:
        assert sorted(service.table_ids()) == sorted(expected)
        for table_id, then in expected.items():
            now = service.view(table_id)
            rules = then["view"]["game"].get("rules")
            if rules is not None and rules.keys() != now["game"]["rules"].keys():
                # Cosmic Cluster now keeps its own timers only: the Local Cluster rules it
                # used to carry (and never applied) are gone from its view.
                assert now["game_name"] == "cosmic-cluster"
                for key in LOCAL_CLUSTER_ONLY:
                    del rules[key]
            assert {key: now[key] for key in then["view"]} == then["view"]
            assert service.export(table_id) == then["record"]


def test_old_tables_play_on(old: tuple[TableService, dict[str, Any]]) -> None:
    service, expected = old
    with service:
        for table_id in expected:
            service.resume(table_id)
            turn = service.view(table_id)["turn"]
            while service.view(table_id)["turn"] == turn:
                service.skip(table_id)
            assert service.view(table_id)["stage"] in ("discussion", "retreats", "build")
