"""Cluster's one registration (entry point ``cluster`` of ``companion.games``)."""

from __future__ import annotations

from typing import Any

from companion.cluster_peg import bot
from companion.cluster_peg.position import DEFAULT_SETUP, Position
from companion.cluster_peg.record import GAME
from companion.cluster_peg.session import (
    PLAYERS,
    STAGES,
    ClusterSession,
    ClusterSetup,
    setup_from_record,
)
from companion.cluster_peg.settings import HouseRules
from companion.errors import StateError
from companion.games import Game, HouseRule, NewTable, Play

_DEFAULTS = HouseRules()


class _Seconds(HouseRule):
    def describe(self, value: Any) -> str:
        return f"{int(value)} s"


class _Moves(HouseRule):
    def describe(self, value: Any) -> str:
        return "none" if int(value) == 0 else f"{int(value)} moves"


class _Times(HouseRule):
    def describe(self, value: Any) -> str:
        return (
            "off"
            if int(value) == 0
            else f"the {int(value)}th occurrence".replace("the 2th", "the 2nd").replace(
                "the 3th", "the 3rd"
            )
        )


HOUSE_RULES = (
    HouseRule(
        "setup",
        "Board and setup",
        DEFAULT_SETUP,
        "Which board and starting position (P3): the large board interlocked (the default), "
        "the large board with each side at its end (a plain race, P3.2), or the small board.",
        choices=(
            ("64B", "large board, interlocked (64B)"),
            ("64A", "large board, ends (64A)"),
            ("46", "small board (46)"),
        ),
    ),
    HouseRule(
        "red",
        "Red (moves first)",
        "seat 1",
        "Who plays Red, which moves first (P4.8): seat 1, seat 2, or drawn by lot.",
        choices=(("seat 1", "seat 1"), ("seat 2", "seat 2"), ("lots", "drawn by lot")),
    ),
    HouseRule(
        "swap",
        "Swap after Red's first move",
        _DEFAULTS.swap,
        "Blue may take over Red's pegs and first move instead of moving (P5.11).",
    ),
    _Times(
        "repetition",
        "Draw by repetition",
        _DEFAULTS.repetition,
        "The game is drawn when the same position occurs this many times; 0 is off (P5.7).",
        minimum=0,
        maximum=100,
    ),
    _Moves(
        "turn_limit",
        "Move limit",
        _DEFAULTS.turn_limit,
        "The game is drawn after this many moves in all; 0 is none (P5.8).",
        minimum=0,
        maximum=10_000,
    ),
    HouseRule(
        "computer",
        "The computer plays",
        "none",
        "A seat the Pi plays: it joins that seat itself and moves when it is its turn.",
        choices=(
            ("none", "no seat"),
            ("seat 1", "seat 1"),
            ("seat 2", "seat 2"),
            ("both", "both seats"),
        ),
    ),
    HouseRule(
        "computer_level",
        "The computer's level",
        bot.STRONGEST.value,
        "From beginner (one move ahead, often wrong) to expert (as far ahead as its time allows).",
        choices=tuple((level.value, f"{level.title}: {level.explain}") for level in bot.Level),
    ),
    _Seconds(
        "computer_seconds",
        "The computer's time for a move",
        int(bot.DEFAULT_SECONDS),
        "It always answers within this time, and plays as a Raspberry Pi 4 would in it: a "
        "faster computer answers sooner.",
        minimum=1,
        maximum=60,
    ),
)

_RULE_NAMES = {"repetition", "turn_limit", "swap"}
_TABLE_NAMES = {"setup", "red", "computer", "computer_level", "computer_seconds"}


def new_setup(new: NewTable) -> ClusterSetup:
    options = dict(new.options)
    unknown = sorted(set(options) - _RULE_NAMES - _TABLE_NAMES)
    if unknown:
        raise StateError(f"Cluster has no house rule {unknown[0]!r}")
    board = new.board
    if board is not None and not isinstance(board, Position):
        raise StateError("a Cluster table's board is a position (P6.4)")
    start = board.text() if board is not None else str(options.get("setup", DEFAULT_SETUP))
    rules = HouseRules.from_dict({k: v for k, v in options.items() if k in _RULE_NAMES})
    return ClusterSetup(
        new.players,
        seed=new.seed,
        rules=rules,
        start=start,
        red=str(options.get("red", "seat 1")),
        computer=str(options.get("computer", "none")),
        level=str(options.get("computer_level", bot.STRONGEST.value)),
        seconds=int(options.get("computer_seconds", int(bot.DEFAULT_SECONDS))),
    )


GAME_INFO = Game(
    name=GAME,
    title="Cluster",
    rules="companion.cluster_peg",
    play=Play.TURNS,
    players=(PLAYERS, PLAYERS),
    stages=STAGES,
    new_setup=new_setup,
    load_setup=ClusterSetup.from_dict,
    load_session=ClusterSession.restore,
    import_record=setup_from_record,
    house_rules=HOUSE_RULES,
    summary="The peg game: connect all your pegs at height 2, stepping and jumping in turns.",
    cli="companion.cluster_peg.commands:COMMANDS",
    web_pages="web.games.cluster:PAGES",
    camera="vision.cluster.reader:READER",
    kit="vision.cluster.sheets:write_kit",
)
"""The registration itself (``GAME``, ``"cluster"``, is the records' name for the game)."""
