"""Helpers shared by the panel tests: a started two-seat table on the service fixture.

The map is a short line, seat 1 = red at home S1, seat 2 = blue at home S5; the game starts
in its 240-second discussion.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from companion.local_cluster.galaxy import Galaxy, Sector
from companion.service import TableService


def line_galaxy(length: int = 5) -> Galaxy:
    ids = [f"S{n}" for n in range(1, length + 1)]
    return Galaxy.from_sectors([Sector(s, 1) for s in ids], list(itertools.pairwise(ids)))


def lobby_table(service: TableService, players: int = 2) -> str:
    """A table in its lobby, nobody joined yet."""
    table_id, _secret = service.create_table(
        "Panel night", players, seed=3, board=line_galaxy(), options={"roll_minerals": False}
    )
    return table_id


def started_table(service: TableService) -> str:
    """Two seats joined and chosen: the game is in its first discussion."""
    table_id = lobby_table(service)
    service.join(table_id, 1, "Ada")
    service.join(table_id, 2, "Bo")
    service.choose(table_id, 2, {"colour": "blue", "home": "S5"})
    service.choose(table_id, 1, {"colour": "red", "home": "S1"})
    assert service.view(table_id)["stage"] == "discussion"
    return table_id


def to_command(service: TableService, table_id: str) -> None:
    """Both seats press ready in the discussion: orders are awaited."""
    service.set_ready(table_id, 1)
    service.set_ready(table_id, 2)
    assert service.view(table_id)["stage"] == "command"


def wait_for(predicate: Callable[[], object], timeout: float = 3.0) -> None:
    """Wait until ``predicate()`` is true (a panel follows events on its own thread)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {predicate}")
        time.sleep(0.005)
