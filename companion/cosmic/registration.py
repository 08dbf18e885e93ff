"""Cosmic Cluster's one registration (entry point ``cosmic-cluster`` of ``companion.games``)."""

from __future__ import annotations

import json
from typing import Any

from companion.cosmic.cluster import MAX_PLAYERS, MIN_PLAYERS
from companion.cosmic.record import load_record
from companion.cosmic.session import GAME, STAGES, CosmicClusterSession, CosmicClusterSetup
from companion.cosmic.timers import Timers
from companion.errors import StateError
from companion.games import Game, HouseRule, NewTable, Play

_DEFAULTS = Timers()


class _Seconds(HouseRule):
    def describe(self, value: Any) -> str:
        seconds = int(value)
        if seconds % 60 == 0:
            return f"{seconds // 60} minute{'s' if seconds != 60 else ''}"
        return f"{seconds} seconds"


HOUSE_RULES = tuple(
    _Seconds(name, title, getattr(_DEFAULTS, name), explain, minimum=1, maximum=24 * 3600)
    for name, title, explain in (
        ("discussion_seconds", "Discussion", "Time to talk before each season's orders."),
        ("command_seconds", "Orders", "Time to write orders in Spring and Fall."),
        ("retreat_seconds", "Retreats", "Time to choose retreats."),
        ("build_seconds", "Winter", "Time to send Winter builds and disbands."),
    )
)


def new_setup(new: NewTable) -> CosmicClusterSetup:
    if new.board is not None:
        raise StateError("a Cosmic Cluster table generates its cluster from the seed")
    edition = str(new.options.get("edition", "2023"))
    timers = Timers.from_dict({k: v for k, v in new.options.items() if k != "edition"})
    return CosmicClusterSetup(new.players, seed=new.seed, rules=timers, edition=edition)


def import_record(record_json: bytes) -> CosmicClusterSetup:
    load_record(record_json)  # refuse a record that does not replay
    return CosmicClusterSetup(0, seed=0, record=json.loads(record_json))


GAME_INFO = Game(
    name=GAME,
    title="Cosmic Cluster",
    rules="companion.cosmic",
    play=Play.SIMULTANEOUS,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    stages=STAGES,
    new_setup=new_setup,
    load_setup=CosmicClusterSetup.from_dict,
    load_session=CosmicClusterSession.restore,
    import_record=import_record,
    house_rules=HOUSE_RULES,
    summary="Diplomacy among the stars: Spring and Fall orders, Winter adjustments.",
    cli="companion.cosmic.commands:COMMANDS",
    web_pages="web.games.cosmic_cluster:PAGES",
)
"""The registration itself."""
