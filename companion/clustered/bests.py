"""Personal bests of solo games (K8.3 to K8.6), as the table service keeps them.

A finished solo game stays in the table database for good: its log is append-only and holds
every move, when the game ended and with which seat name; its score sheet follows from its
record. So the bests are read from the finished solo tables themselves rather than copied
elsewhere: they are as durable as the games, an undo before the end can never leave a stale
best behind, and the earlier of two equal games is known from the log's times (K8.4).

This is the service's side, not the rules': :mod:`companion.clustered.solo` judges, this
module finds the games. The web pages call :func:`standing` for a table.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from companion.clustered.session import GAME, ClusteredSession
from companion.clustered.solo import (
    SoloResult,
    announcement,
    best_of,
    counts,
    judge,
    name_key,
    profile_of,
)

if TYPE_CHECKING:
    from companion.service.service import TableService
    from companion.service.table import Table

_ENDING = ("submit", "ready", "end", "correct")
"""The log entries that can end a game."""

_lock = threading.Lock()
_ended: dict[tuple[int, str], float] = {}
"""When each finished solo table ended, by (service, table id): finished games never change."""


def _session(table: Table) -> ClusteredSession | None:
    if table.game.name != GAME or not isinstance(table.session, ClusteredSession):
        return None
    return table.session


def player_name(table: Table, session: ClusteredSession) -> str:
    """The solo player's name: as chosen for the game, else as the seat joined (K8.3)."""
    return session.core.players[0].name or table.seats[1].name


def ended_at(service: TableService, table_id: str) -> float:
    """When a finished table's game ended: the time of the last entry that could end it."""
    key = (id(service), table_id)
    with _lock:
        if key in _ended:
            return _ended[key]
    entries = service.storage.entries(table_id)
    at = max((e.at for e in entries if e.kind in _ENDING), default=entries[-1].at)
    with _lock:
        _ended[key] = at
    return at


def solo_results(service: TableService) -> list[SoloResult]:
    """Every finished solo Clustered game the service keeps (K8.5: no unfinished or
    multi-seat game), oldest first."""
    found = []
    with service.lock:
        for table_id in service.table_ids():
            table = service.table(table_id)
            session = _session(table)
            if session is None or not counts(session.core):
                continue
            core = session.core
            found.append(
                SoloResult(
                    name=player_name(table, session),
                    profile=profile_of(core),
                    total=core.score_sheet().players[0].total,
                    at=ended_at(service, table_id),
                    sheet=core.score_sheet().to_dict(),
                    source=table_id,
                )
            )
    return sorted(found, key=lambda r: (r.at, r.source))


def best(
    service: TableService,
    name: str,
    profile_key: str,
    *,
    before: float | None = None,
    excluding: str = "",
) -> SoloResult | None:
    """The personal best of ``name`` under a profile (K8.3), from the games that ended before
    ``before`` (all when None), leaving out the table ``excluding``."""
    wanted = name_key(name)
    return best_of(
        r
        for r in solo_results(service)
        if name_key(r.name) == wanted
        and r.profile.key() == profile_key
        and r.source != excluding
        and (before is None or r.at < before)
    )


def standing(service: TableService, table_id: str) -> dict[str, Any] | None:
    """For a solo Clustered table, what K8.6 says to show: the profile's best when the game
    starts (and while it goes on), and at the end the result against the best before it
    (K8.4), or why it does not count (K8.5). None for any other table."""
    with service.lock:
        table = service.table(table_id)
        session = _session(table)
        if session is None or len(session.core.players) != 1:
            return None
        core = session.core
        name = player_name(table, session)
        profile = profile_of(core)
        out: dict[str, Any] = {"name": name, "profile": profile.words(), "key": profile.key()}
        if not core.over:
            previous = best(service, name, profile.key(), excluding=table_id)
            out["best"] = None if previous is None else previous.to_dict()
            out["said"] = f"{name or 'This player'}'s personal best under this profile: " + (
                "none yet" if previous is None else f"{previous.total}"
            )
            return out
        total = core.score_sheet().players[0].total
        if not counts(core):
            out["best"] = None
            out["said"] = f"{total} points; an unfinished game sets no personal best (K8.5)"
            return out
        previous = best(
            service, name, profile.key(), before=ended_at(service, table_id), excluding=table_id
        )
        out["best"] = None if previous is None else previous.to_dict()
        out["standing"] = judge(previous, total).value
        out["said"] = announcement(previous, total)
        return out
