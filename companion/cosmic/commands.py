"""What the ``companion`` commands do with a Cosmic Cluster record, without any I/O.

Each function takes record text (and input text) and returns the new record text, if any, and
the lines to print; :mod:`companion.cli` reads and writes the files. Input files give each
power's orders either as lines with the power in front (``P1: A vega-1 -> vega-2``) or as
blocks under a line naming the power (``P1:``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from companion.cosmic.cluster import MAX_PLAYERS, MIN_PLAYERS
from companion.cosmic.game import CosmicGame, Phase, Step
from companion.cosmic.record import load_record, record_json
from companion.errors import CompanionError

GAME = "cosmic-cluster"


class CosmicInputError(CompanionError, ValueError):
    """An input file that does not say which power gives which order."""


def is_cosmic_record(text: str | bytes) -> bool:
    """Whether the text is (meant to be) a Cosmic Cluster record; cheap, never raises."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and data.get("game") == GAME


def new_game(players: int, seed: int) -> tuple[str, list[str]]:
    """A new game's record and the lines describing it."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CosmicInputError(
            f"Cosmic Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    game = CosmicGame(seed, players)
    lines = [
        f"New Cosmic Cluster game: {players} powers, seed {seed}, "
        f"{len(game.map.supply_centres)} supply centres.",
        "",
        game.cluster.describe(),
        "",
        *describe(game),
    ]
    return record_json(game), lines


def describe(game: CosmicGame) -> list[str]:
    """The position: season, each power's centres and units, what the game waits for."""
    position = game.position
    lines = [f"{position.season.value.title()} {position.year}: waiting for {_waiting(game)}."]
    for power in game.powers:
        units = [u for u in position.units if u.power == power]
        home = game.cluster.home_of(power).name
        listed = ", ".join(u.text().split(": ", 1)[1] for u in units) or "no units"
        lines.append(f"  {power} ({home}): {position.centres(power)} centres; {listed}")
    if position.lifted:
        lines.append(
            "  Dislodged, to retreat: " + ", ".join(x.unit.text() for x in position.lifted)
        )
    if position.winners:
        lines.append(f"  Won by {' and '.join(position.winners)}.")
    return lines


def _waiting(game: CosmicGame) -> str:
    phase = game.position.phase
    if phase is Phase.ORDERS:
        return "orders (companion adjudicate)"
    if phase is Phase.RETREATS:
        return "retreats (companion retreat)"
    if phase is Phase.ADJUSTMENTS:
        due = {p: n for p, n in game.adjustments_due().items() if n}
        shown = ", ".join(f"{p} {n:+d}" for p, n in due.items())
        return f"adjustments (companion build): {shown}"
    return "nothing: the game is over"


def split_by_power(text: str, powers: tuple[str, ...]) -> dict[str, str]:
    """Per power, its lines; ``P1: order`` lines or ``P1:`` headed blocks."""
    out: dict[str, list[str]] = {}
    current: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        if colon and head.strip().upper() in powers:
            power = head.strip().upper()
            if rest.strip():
                out.setdefault(power, []).append(rest.strip())
            else:
                current = power
                out.setdefault(power, [])
            continue
        if colon and head.strip().upper().startswith("P") and head.strip()[1:].isdigit():
            raise CosmicInputError(f"line {number}: no power {head.strip()} in this game")
        if current is None:
            raise CosmicInputError(
                f"line {number}: say whose order it is: 'P1: {line}' or a 'P1:' line above it"
            )
        out[current].append(line)
    return {power: "\n".join(lines) for power, lines in out.items()}


def _play(
    record: str | bytes, text: str, phase: Phase, play: Callable[[CosmicGame], Callable[..., Step]]
) -> tuple[str, list[str]]:
    game = load_record(record)
    if game.position.phase is not phase:
        raise CosmicInputError(f"the game is waiting for {_waiting(game)}")
    step = play(game)(split_by_power(text, game.powers))
    return record_json(game), [*report(step), "", *describe(game)]


def adjudicate(record: str | bytes, text: str) -> tuple[str, list[str]]:
    return _play(record, text, Phase.ORDERS, lambda g: g.play_orders)


def retreat(record: str | bytes, text: str) -> tuple[str, list[str]]:
    return _play(record, text, Phase.RETREATS, lambda g: g.play_retreats)


def build(record: str | bytes, text: str) -> tuple[str, list[str]]:
    return _play(record, text, Phase.ADJUSTMENTS, lambda g: g.play_adjustments)


def report(step: Step) -> list[str]:
    """A step's result in words: every order with its outcome and reason."""
    lines = [f"{step.kind.title()} of {step.season}:"]
    for entry in step.result.get("orders", []):
        verdict = "succeeds" if entry["succeeded"] else "fails"
        lines.append(f"  {entry['order']}: {verdict} ({entry['reason']})")
    for error in step.result.get("syntax_errors", []):
        lines.append(f"  {error['power']}: {error['text']!r}: {error['error']}")
    for key in ("dislodged", "disbanded", "civil_disorder"):
        for item in step.result.get(key, []):
            shown = item["unit"] if isinstance(item, dict) else item
            lines.append(f"  {key.replace('_', ' ')}: {shown}")
    lines += [f"  {note}" for note in step.result.get("notes", [])]
    return lines


def show(record: str | bytes, until: int | None = None) -> list[str]:
    game = load_record(record, until=until)
    return [game.cluster.describe(), "", *describe(game)]


def replay(record: str | bytes) -> list[str]:
    game = load_record(record)
    count = len(game.steps)
    return [
        f"replayed {count} step{'s' * (count != 1)}; position matches the record",
        "",
        *describe(game),
    ]
