"""Cosmic Cluster's part of the ``companion`` command (its registration's ``cli``).

:data:`COMMANDS` gives ``companion new GAME.json --game cosmic-cluster``, ``show``, ``replay``
and the verbs ``adjudicate``, ``retreat`` and ``build`` (Winter adjustments). The functions
below take record text (and input text) and return the new record text, if any, and the lines
to print, without any I/O; :mod:`companion.cli` reads and writes the files. Input files give
each power's orders either as lines with the power in front (``P1: A vega-1 -> vega-2``) or as
blocks under a line naming the power (``P1:``).
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable

from companion.commands import CommandError, GameCommands, TextInput, Verb, VerbResult
from companion.cosmic.cluster import MAX_PLAYERS, MIN_PLAYERS
from companion.cosmic.game import CosmicGame, Phase, Step
from companion.cosmic.record import load_record, record_json
from companion.errors import CompanionError, RecordError


class CosmicInputError(CompanionError, ValueError):
    """An input file that does not say which power gives which order."""


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


# The game's commands ----------------------------------------------------------------------

ORDERS_HELP = """\
ORDERS.txt gives each power's orders as lines with the power in front
(P1: A vega-1 -> vega-2) or as a block under a line naming the power (P1:).
A power without orders holds; its dislodged units disband; in Winter it builds
nothing and the disbands it owes happen in civil disorder. Malformed orders are
reported and kept in the record."""


def _orders_argument(metavar: str) -> Callable[[argparse.ArgumentParser], None]:
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "orders",
            metavar=metavar,
            nargs="?",
            default="-",
            type=TextInput,
            help="'-' (default): stdin",
        )

    return add


def _retreat_arguments(parser: argparse.ArgumentParser) -> None:
    _orders_argument("CHOICES.txt")(parser)
    parser.add_argument(
        "--defaults", action="store_true", help="every dislodged unit disbands; no input"
    )


def _step(
    record: bytes,
    args: argparse.Namespace,
    what: str,
    play: Callable[[bytes, str], tuple[str, list[str]]],
) -> VerbResult:
    """Play one step from the input (or, with ``--defaults``, from nobody's orders)."""
    source: TextInput = args.orders
    if getattr(args, "defaults", False):
        if source.source != "-":
            raise CommandError("give either CHOICES.txt or --defaults, not both")
        text, name = "", "the defaults"
    else:
        text, name = source.read(what), source.name
    try:
        new, lines = play(record, text)
    except RecordError:
        raise  # the record itself: the shell names its file
    except CompanionError as err:
        raise CommandError(f"{name}: {err}") from None
    return VerbResult([*lines, "", f"Recorded in {args.record}."], record=new)


class CosmicClusterCommands(GameCommands):
    """``companion new|show|replay`` for Cosmic Cluster records, and its three verbs."""

    verbs = (
        Verb(
            "adjudicate",
            "Resolve the season's orders from an orders file.",
            _orders_argument("ORDERS.txt"),
            lambda record, args: _step(record, args, "orders", adjudicate),
            ORDERS_HELP,
        ),
        Verb(
            "retreat",
            "Carry out the retreats from a file of retreat orders.",
            _retreat_arguments,
            lambda record, args: _step(record, args, "retreat orders", retreat),
            ORDERS_HELP,
        ),
        Verb(
            "build",
            "Carry out the Winter adjustments (builds and disbands).",
            _orders_argument("ORDERS.txt"),
            lambda record, args: _step(record, args, "adjustment orders", build),
            ORDERS_HELP,
        ),
    )

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--players",
            type=int,
            default=4,
            help=f"number of powers, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4)",
        )
        parser.add_argument("--seed", type=int, help="set-up seed (default: random, and printed)")

    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        seed: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
        text, lines = new_game(args.players, seed)
        return text, [*lines, "", f"Recorded in {args.record}."]

    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        return show(record, args.turn)

    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        return replay(record)


COMMANDS = CosmicClusterCommands()
"""What the registration's ``cli`` names."""
