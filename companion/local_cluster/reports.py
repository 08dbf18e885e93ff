"""Local Cluster in words for a terminal: the position, what the game waits for, a turn's report.

Used by the game's commands (:mod:`companion.local_cluster.commands`) and its demo; pure text
in, text out (wrapped to the terminal's width by :mod:`companion.terminal`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from companion.local_cluster.atoms import Colour
from companion.local_cluster.economy import income_statement
from companion.local_cluster.ending import places, result_words
from companion.local_cluster.game import Game
from companion.local_cluster.outcomes import TurnResult
from companion.local_cluster.state import Phase, RetreatOwed, State
from companion.local_cluster.text_map import legend, render, scoreboard
from companion.terminal import listing, plural, width, wrap


class Placed(Protocol):
    """Where an empire's lines were in an input file (an order file's block)."""

    @property
    def span(self) -> str: ...


def retreat_owed(owed: RetreatOwed) -> str:
    if not owed.options:
        return f"{owed.describe()}: nowhere to go, so it is destroyed"
    return (
        f"{owed.describe()} (attacked from {owed.attacker_from}): may go to "
        f"{', '.join(owed.options)}; default {owed.default}"
    )


def waiting(state: State, *, owed_shown: bool = False) -> list[str]:
    """What the game waits for next, as lines (build statements included).

    With ``owed_shown`` the retreats owed have just been listed, so they are not repeated.
    """
    if state.phase is Phase.ORDERS:
        return [
            f"Turn {state.turn}: waiting for orders from "
            f"{listing(c.title for c in state.active_colours)} "
            "(an empire without orders holds everywhere)."
        ]
    if state.phase is Phase.RETREATS:
        if owed_shown:
            return [
                f"Turn {state.turn}: waiting for retreats: choose with 'companion retreat' "
                "(lines like RETREAT FROM TO), or take every default with --defaults."
            ]
        lines = [f"Turn {state.turn}: waiting for retreats (companion retreat):"]
        lines += [wrap(retreat_owed(owed)) for owed in state.retreats]
        return lines
    if state.phase is Phase.BUILD:
        lines = [f"Build phase after turn {state.turn}: waiting for build plans (companion build)."]
        for colour in state.active_colours:
            lines += ["", *income_statement(state, colour).lines()]
        return lines
    return final(state)


def final(state: State) -> list[str]:
    """How the game ended: the winner, or a shared lead naming nobody, and the places, equal
    empires sharing one (R7.1, R7.3)."""
    lines = [f"The game is over after turn {state.turn}.", wrap(result_words(state), 0, 0)]
    if state.ranking:
        shown = places(state)
        shared = {place for place, _ in shown if sum(p == place for p, _ in shown) > 1}
        lines.append(
            "Ranking: " + ", ".join(f"{'=' if n in shared else ''}{n}. {c.title}" for n, c in shown)
        )
    return lines


def key() -> str:
    """The map's key, wrapped to the terminal."""
    return "\n".join(
        textwrap.fill(line, width=width(), subsequent_indent=" " * 5, break_on_hyphens=False)
        for line in legend().splitlines()
    )


def position(state: State) -> list[str]:
    """The map, its key and the standings."""
    return [render(state), "", key(), "", "Standings:", scoreboard(state)]


def who_is_where(state: State) -> list[str]:
    lines = []
    for empire in state.empires:
        units = ", ".join(f"{u.kind.value} in {u.sector}" for u in state.units_of(empire.colour))
        lines.append(
            f"  {empire.colour.title:<7} seat {empire.seat}: home {empire.home}; "
            f"{units or 'no units'}"
        )
    return lines


def recorded(path: Path, game: Game) -> str:
    return f"Recorded in {path} ({plural(len(game.steps), 'step')} so far)."


def turn_report(
    before: State, result: TurnResult, blocks: Mapping[Colour, Placed], source: str
) -> list[str]:
    """Every empire's orders with what they did, then combats, claims, retreats, aftermath."""
    lines = [f"Turn {result.turn} resolved."]
    for colour in before.active_colours:
        block = blocks.get(colour)
        where = f" ({source}, {block.span})" if block is not None else " (no orders)"
        lines += ["", f"{colour.title}{where}"]
        ordered = set()
        for outcome in result.outcomes_of(colour):
            lines.append(wrap(outcome.explain()))
            if outcome.unit is not None:
                ordered.add(outcome.unit)
        idle = [u.sector for u in before.units_of(colour) if u.id not in ordered]
        if idle:
            lines.append(
                wrap(f"no order for the unit{'s' * (len(idle) > 1)} in {', '.join(idle)}: held")
            )
    if result.combats:
        lines += ["", "Combats:"]
        lines += [wrap(combat.describe()) for combat in result.combats]
    if result.claims_changed:
        lines += ["", "Claims changed:"]
        for change in result.claims_changed:
            was = "unclaimed" if change.before is None else change.before.title
            lines.append(f"  {change.sector}: {change.after.title} (was {was})")
    if result.retreats:
        lines += ["", "Retreats owed:"]
        lines += [wrap(retreat_owed(owed)) for owed in result.retreats]
    if result.aftermath:
        lines += ["", "Aftermath:"]
        lines += [wrap(note) for note in result.aftermath]
    return lines
