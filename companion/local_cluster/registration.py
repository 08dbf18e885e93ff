"""Local Cluster's one registration (entry point ``local-cluster`` of ``companion.games``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import StateError
from companion.games import Game, HouseRule, NewTable, Play
from companion.local_cluster.galaxy import Galaxy
from companion.local_cluster.generation import MAX_PLAYERS, MIN_PLAYERS
from companion.local_cluster.record import GameRecord
from companion.local_cluster.session import (
    GAME,
    STAGES,
    LocalClusterSession,
    LocalClusterSetup,
)
from companion.local_cluster.settings import HouseRules, SupportRange

_DEFAULTS = HouseRules()


def _minutes(seconds: int) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds} seconds"


class _Seconds(HouseRule):
    def describe(self, value: Any) -> str:
        return _minutes(int(value))


HOUSE_RULES = (
    HouseRule(
        "support_range",
        "Support reaches",
        _DEFAULTS.support_range.value,
        "How far a SUPPORT order may reach (R3.4).",
        choices=(("adjacent", "adjacent sectors only"), ("any", "any sector")),
    ),
    HouseRule(
        "advance_claims_empty",
        "An advance into an empty sector claims it",
        _DEFAULTS.advance_claims_empty,
        "Whether an uncontested ADVANCE into an empty sector claims it (R4.6).",
    ),
    HouseRule(
        "turn_limit",
        "Turn limit",
        _DEFAULTS.turn_limit,
        "End the game after this many turns and rank by sectors, then minerals (R7.3).",
        minimum=1,
        maximum=1000,
    ),
    _Seconds(
        "discussion_seconds",
        "Discussion",
        _DEFAULTS.discussion_seconds,
        "Time to talk before each turn's orders (R8.1).",
        minimum=1,
        maximum=24 * 3600,
    ),
    _Seconds(
        "command_seconds",
        "Orders",
        _DEFAULTS.command_seconds,
        "Time to write orders (R8.1).",
        minimum=1,
        maximum=24 * 3600,
    ),
    _Seconds(
        "retreat_seconds",
        "Retreats",
        _DEFAULTS.retreat_seconds,
        "Time to choose retreats (R8.1).",
        minimum=1,
        maximum=24 * 3600,
    ),
    _Seconds(
        "build_seconds",
        "Build",
        _DEFAULTS.build_seconds,
        "Time to send a build plan (R8.1).",
        minimum=1,
        maximum=24 * 3600,
    ),
)


def rules_from(options: Mapping[str, Any]) -> HouseRules:
    """House rules from a new table's options (unknown names refused, with the reason)."""
    values = {k: v for k, v in options.items() if k != "roll_minerals"}
    if isinstance(values.get("support_range"), SupportRange):
        values["support_range"] = values["support_range"].value
    return HouseRules.from_dict(values)


def new_setup(new: NewTable) -> LocalClusterSetup:
    board = new.board
    if board is not None and not isinstance(board, Galaxy):
        raise StateError("a Local Cluster table's board is a galaxy")
    return LocalClusterSetup(
        new.players,
        seed=new.seed,
        rules=rules_from(new.options),
        galaxy=board,
        roll_minerals=bool(new.options.get("roll_minerals", True)),
    )


def import_record(record_json: bytes) -> LocalClusterSetup:
    record = GameRecord.from_json(record_json)
    record.replay()  # refuse a record that does not replay before anything is stored
    data = record.to_dict()
    return LocalClusterSetup(len(record.setup.empires), seed=record.seed or 0, record=data)


GAME_INFO = Game(
    name=GAME,
    title="Local Cluster",
    rules="companion.local_cluster",
    play=Play.SIMULTANEOUS,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    stages=STAGES,
    new_setup=new_setup,
    load_setup=LocalClusterSetup.from_dict,
    load_session=LocalClusterSession.restore,
    import_record=import_record,
    house_rules=HOUSE_RULES,
    summary="Secret simultaneous orders, combat and claims, a build phase every second turn.",
    flagship=True,
    cli="companion.local_cluster.commands:COMMANDS",
    web_pages="web.games.local_cluster:PAGES",
    camera="vision.local_cluster.reader:READER",
    kit="vision.local_cluster.sheets:write_kit",
)
"""The registration itself (``GAME`` is the game's name, kept as the rules' constant)."""
