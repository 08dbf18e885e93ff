"""House rules in the host's words: every registered game's rules as form fields, the fields
back to a new table's options, and a table's rules described.

All of it comes from the registrations (``Game.house_rules``, each a
:class:`companion.games.HouseRule` with its title, default, explanation and words for its
values); a turn-taking game also gets the table's turn clock (``TurnClock``: none, per turn, or a
chess clock per player). Field names are ``<game>:<rule>`` so one form can hold every game's
fields; a plain ``<rule>`` field is read when the game's own is absent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion import games
from companion.errors import StateError
from companion.games import Game, HouseRule, Play
from companion.service.clock import TURN_CLOCK_MODES, TurnClock

CLOCK_WORDS = {
    "none": "no clock",
    "turn": "the same time for every turn",
    "player": "a chess clock: each player's own time for the whole game",
}


@dataclasses.dataclass(frozen=True)
class Field:
    """One house rule as a form field."""

    name: str
    """The form field's name (``"<game>:turn_limit"``)."""
    rule: HouseRule
    kind: str
    """``"choice"`` (a select), ``"switch"`` (a checkbox) or ``"number"``."""
    value: Any
    """What the field shows first: the table's value (a rematch) or the default."""

    @property
    def optional(self) -> bool:
        """A number that may be left empty (its default is none: "no turn limit")."""
        return self.kind == "number" and self.rule.default is None


def field_name(game: Game, name: str) -> str:
    return f"{game.name}:{name}"


def _kind(rule: HouseRule) -> str:
    if rule.choices:
        return "choice"
    if isinstance(rule.default, bool):
        return "switch"
    return "number"


def fields(game: Game, values: Mapping[str, Any] | None = None) -> list[Field]:
    """The game's house rules as fields, showing ``values`` where given, else the defaults."""
    values = values or {}
    return [
        Field(field_name(game, rule.name), rule, _kind(rule), values.get(rule.name, rule.default))
        for rule in game.house_rules
    ]


def forms(
    playable: list[Game], current: str, values: Mapping[str, Any], clock: TurnClock
) -> list[dict[str, Any]]:
    """Per game, its fieldset of the new-table form (the current game's shows the table's
    own rules and clock, so a rematch starts from them)."""
    out = []
    for game in playable:
        here = game.name == current
        out.append(
            {
                "game": game,
                "fields": fields(game, values if here else None),
                "turns": game.play is Play.TURNS,
                "clock": clock if here else TurnClock(),
                "clock_field": field_name(game, "turn_clock"),
                "seconds_field": field_name(game, "turn_seconds"),
            }
        )
    return out


def _given(form: Mapping[str, str], game: Game, name: str) -> str | None:
    own = form.get(field_name(game, name))
    return own if own is not None else form.get(name)


def options_from_form(game: Game, form: Mapping[str, str]) -> dict[str, Any]:
    """A new table's options from the form; ValueError naming the rule if one is wrong."""
    options: dict[str, Any] = {}
    for rule in game.house_rules:
        text = _given(form, game, rule.name)
        kind = _kind(rule)
        if kind == "switch":
            options[rule.name] = rule.parse(text or "")  # an unticked box is absent
        elif text is None or not text.strip():
            options[rule.name] = rule.default  # empty: the default ("none" for a turn limit)
        else:
            options[rule.name] = rule.parse(text)
    return options


def turn_clock_from_form(game: Game, form: Mapping[str, str]) -> TurnClock | None:
    """The turn clock a turn-taking game's table was given (None for other games)."""
    if game.play is not Play.TURNS:
        return None
    mode = (_given(form, game, "turn_clock") or "none").strip()
    if mode not in TURN_CLOCK_MODES:
        raise ValueError(f"Turn clock: choose one of {', '.join(TURN_CLOCK_MODES)}, not {mode!r}")
    if mode == "none":
        return TurnClock()
    text = (_given(form, game, "turn_seconds") or "").strip()
    try:
        seconds = int(text)
    except ValueError:
        raise ValueError(f"Turn clock: the seconds must be a whole number, not {text!r}") from None
    try:
        return TurnClock(mode, seconds)
    except StateError as err:
        raise ValueError(f"Turn clock: {err}") from None


def described(game: Game, values: Mapping[str, Any]) -> list[dict[str, str]]:
    """The table's house rules in words: each rule's title, its value said by the rule
    itself (``HouseRule.describe``) and its explanation."""
    return [
        {
            "title": rule.title,
            "value": rule.describe(values.get(rule.name, rule.default)),
            "explain": rule.explain,
        }
        for rule in game.house_rules
    ]


def playable() -> list[Game]:
    """The registered games this site has pages for (those a new table may play)."""
    return list(games.games_with("web_pages"))
