"""The table service: a game from setup to its end, its phases and clocks, stored durably.

Game-independent parts live here (seats, phases, timers, the event log, SQLite storage, the
event bus); what a particular game needs comes through a :class:`~companion.service.session.
GameSession` (Local Cluster's is :mod:`companion.local_cluster.session`).
"""

from companion.service.clock import Clock, FakeClock, SystemClock
from companion.service.events import Event, EventBus
from companion.service.service import TableService
from companion.service.session import Stage
from companion.service.storage import Storage
from companion.service.table import Table

__all__ = [
    "Clock",
    "Event",
    "EventBus",
    "FakeClock",
    "Stage",
    "Storage",
    "SystemClock",
    "Table",
    "TableService",
]
