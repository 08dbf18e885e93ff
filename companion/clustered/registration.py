"""Clustered's one registration (entry point ``clustered`` of ``companion.games``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.clustered import record as records
from companion.clustered.errors import SettingsError
from companion.clustered.game import MAX_PLAYERS, MIN_PLAYERS
from companion.clustered.session import GAME, STAGES, ClusteredSession, ClusteredSetup
from companion.clustered.settings import Settings
from companion.errors import StateError
from companion.games import Game, HouseRule, NewTable, Play

_DEFAULTS = Settings()

HOUSE_RULES = (
    HouseRule(
        "first_seat",
        "First player",
        1,
        "The seat that plays first: the youngest player (K3.3). Seats are numbered clockwise.",
        minimum=1,
        maximum=MAX_PLAYERS,
    ),
    HouseRule(
        "palette",
        "Deck colours",
        _DEFAULTS.palette.text(),
        "Eight letter codes with the colours of the decks this table owns, like "
        "B=blue O=orange R=red ... (K1.5).",
    ),
    HouseRule(
        "surface",
        "Playing surface",
        _DEFAULTS.surface.text(),
        "The cells cards may go in: unbounded, or x_min..x_max,y_min..y_max around the start "
        "card at 0,0, like -6..6,-4..4 (K2.6). With a camera, what it sees (K2.7).",
    ),
    HouseRule(
        "discard_check",
        "No-legal-move check",
        _DEFAULTS.discard_check,
        "How a declaration of no legal move is checked (K3.14).",
        choices=(
            ("hand", "the player enters the whole hand on the phone"),
            ("table", "against the table only; the discard is not named"),
        ),
    ),
    HouseRule(
        "end_when_blocked",
        "End a table nothing fits on",
        _DEFAULTS.end_when_blocked,
        "End and score the game as soon as no card anyone could hold fits anywhere (K5.5).",
    ),
    HouseRule(
        "current_player_card",
        "Pass the current player card",
        _DEFAULTS.current_player_card,
        "The table passes the physical marker; the screens say whose turn it is anyway (K7.3).",
    ),
    HouseRule(
        "extra_wild",
        "Third wild card",
        _DEFAULTS.extra_wild_text(),
        "none, all, or the colours whose decks get their third wild card, like B,O (K7.4).",
    ),
    HouseRule(
        "quick_play",
        "Quick play",
        _DEFAULTS.quick_play,
        "Start with 7 cards and keep 5; draw 2 and keep 5 after each turn (K7.5-K7.7).",
    ),
    HouseRule(
        "first_bonuses",
        "First-to-achieve bonuses",
        _DEFAULTS.first_bonuses,
        "2 points for the first 2x3 rectangle and 2 for the first line of 5 (K7.8-K7.12).",
    ),
    HouseRule(
        "largest_bonuses",
        "Largest-feature bonuses",
        _DEFAULTS.largest_bonuses,
        "2 points each for the largest rectangle and the longest line at the end; a tie gives "
        "nobody the bonus (K7.13-K7.15).",
    ),
    HouseRule(
        "start_cards",
        "Start cards",
        _DEFAULTS.start_cards,
        "One start card for 1 to 4 players and two (six cells apart) for 5 to 8, or forced "
        "(K7.17, K7.18).",
        choices=(("auto", "by the number of players"), (1, "one"), (2, "two")),
    ),
)


def settings_from(options: Mapping[str, Any]) -> Settings:
    """The game's settings from a new table's options (``first_seat`` is not one)."""
    try:
        return Settings.from_dict({k: v for k, v in options.items() if k != "first_seat"})
    except SettingsError as err:
        raise StateError(str(err)) from None


def new_setup(new: NewTable) -> ClusteredSetup:
    if new.board is not None:
        raise StateError("a Clustered table starts from its start card(s); it takes no board")
    first = int(new.options.get("first_seat", 1))
    return ClusteredSetup(new.players, settings=settings_from(new.options), first_seat=first)


def import_record(record_json: bytes) -> ClusteredSetup:
    data = records.parse(record_json)
    records.game_from(data)  # refuse a record that does not replay before anything is stored
    return ClusteredSetup(len(data["players"]), record=data)


GAME_INFO = Game(
    name=GAME,
    title="Clustered",
    rules="companion.clustered",
    play=Play.TURNS,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    stages=STAGES,
    new_setup=new_setup,
    load_setup=ClusteredSetup.from_dict,
    load_session=ClusteredSession.restore,
    import_record=import_record,
    house_rules=HOUSE_RULES,
    summary="Lay cards that share two of three symbols; lines and rectangles score.",
    cli="companion.clustered.commands:COMMANDS",
    web_pages="web.games.clustered:PAGES",
    camera="vision.clustered.reader:READER",
    kit="vision.clustered.sheets:KIT",
)
"""The registration itself."""
