"""Globular Cluster's one registration (entry point ``globular-cluster`` of ``companion.games``)."""

from __future__ import annotations

import json

from companion.errors import StateError
from companion.games import Game, HouseRule, NewTable, Play
from companion.globular import GAME
from companion.globular.record import load_record
from companion.globular.session import STAGES, GlobularSession, GlobularSetup
from companion.globular.settings import MAX_PLAYERS, MIN_PLAYERS, Dice, StackKeeper, TieBreak

HOUSE_RULES = (
    HouseRule(
        "dice",
        "Dice",
        Dice.COMPANION.value,
        "Who rolls for a mine: the companion rolls and shows the face, or each player rolls "
        "their own die and enters the face (G4.8).",
        choices=(
            (Dice.COMPANION.value, "the companion rolls"),
            (Dice.PHYSICAL.value, "players roll their own dice"),
        ),
    ),
    HouseRule(
        "stack",
        "Stack of tiles",
        StackKeeper.COMPANION.value,
        "Who keeps the stack: the companion shuffles it and draws each tile, or the tiles are "
        "drawn at the table and each one entered (G3.13).",
        choices=(
            (StackKeeper.COMPANION.value, "the companion draws"),
            (StackKeeper.PHYSICAL.value, "drawn at the table and entered"),
        ),
    ),
    HouseRule(
        "tiebreak",
        "Equal totals",
        TieBreak.NONE.value,
        "Whether players with equal totals share the place, or more crystals held ranks "
        "higher (G7.4).",
        choices=(
            (TieBreak.NONE.value, "share the place"),
            (TieBreak.CRYSTALS.value, "more crystals ranks higher"),
        ),
    ),
)


def new_setup(new: NewTable) -> GlobularSetup:
    if new.board is not None:
        raise StateError("a Globular Cluster table starts from Figure 1; it takes no board")
    return GlobularSetup(new.players, seed=new.seed, options=dict(new.options))


def import_record(record_json: bytes) -> GlobularSetup:
    load_record(record_json)  # refuse a record that does not replay before anything is stored
    return GlobularSetup(0, seed=0, record=json.loads(record_json))


GAME_INFO = Game(
    name=GAME,
    title="Globular Cluster",
    rules="companion.globular",
    play=Play.TURNS,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    stages=STAGES,
    new_setup=new_setup,
    load_setup=GlobularSetup.from_dict,
    load_session=GlobularSession.restore,
    import_record=import_record,
    house_rules=HOUSE_RULES,
    cli="companion.globular.commands:COMMANDS",
    web_pages="web.games.globular:PAGES",
    camera="vision.globular.reader:READER",
    kit="vision.globular.kit:write_kit",
    summary="Explore a star cluster tile by tile: 10 action points a turn, crystals, colonies "
    "and scoring rounds at each supernova.",
)
"""The registration itself."""
