"""Local Cluster's part of the ``companion`` command (its registration's ``cli``).

``companion new GAME.json`` sets up a random galaxy; ``show`` and ``replay`` describe a record;
the verbs ``adjudicate``, ``retreat`` and ``build`` play a turn, the retreats and the build
phase from files of orders (R3.1), retreat choices (R5.3) and build plans (R6.6); ``demo``
watches greedy players (:mod:`companion.local_cluster.demo`). Each function takes the record's
bytes and returns the new record and the lines to print: the shell (:mod:`companion.cli`) does
the reading, the writing and the error convention.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from companion.commands import (
    CommandError,
    GameCommands,
    Subcommands,
    TextInput,
    Verb,
    VerbResult,
)
from companion.errors import OrderSyntaxError
from companion.local_cluster.atoms import Colour, SectorId, UnitId
from companion.local_cluster.demo import add_demo_command
from companion.local_cluster.economy import BuildPlan, check_plan, income_statement
from companion.local_cluster.game import Game
from companion.local_cluster.generation import random_setup
from companion.local_cluster.order_files import (
    ORDER_KEYWORDS,
    PLAN_KEYWORDS,
    parse_blocks,
    parse_retreats,
)
from companion.local_cluster.record import GameRecord
from companion.local_cluster.reports import (
    key,
    position,
    recorded,
    turn_report,
    waiting,
    who_is_where,
)
from companion.local_cluster.settings import HouseRules, SupportRange
from companion.local_cluster.state import Phase, State
from companion.local_cluster.text_map import render
from companion.terminal import plural, wrap

ORDERS_HELP = """\
ORDERS.txt holds one block per empire: a line naming its colour (Red:, [Red] or
Red, any case), then its orders, one a line (R3.1):
  HOLD s, MOVE s t, ADVANCE s t, SUPPORT s t, DEPLOY s t1 [t2 [t3]],
  RECALL s f1 [f2 [f3]], CLAIM s
'#' starts a comment. An empire without a block holds everywhere. Malformed or
impossible orders are void (the unit holds) and reported."""

PLANS_HELP = """\
PLANS.txt holds one block per empire: a line naming its colour (Red:, [Red] or
Red), then its plan (R6.6): lines of BUILD destroyer|battleship|carrier s and
REPLENISH s, or the single line STOCKPILE. An empire without a block builds
nothing. A plan that breaks a rule stops the whole build phase."""

RETREATS_HELP = """\
CHOICES.txt has one line per choice: RETREAT FROM TO (the sector the unit must
leave, then where it goes). Units not listed take the lowest-numbered option
(R5.3)."""


def _colours(text: str) -> tuple[Colour, ...]:
    try:
        return tuple(Colour.parse(part) for part in text.split(",") if part.strip())
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _load(record: bytes) -> tuple[GameRecord, Game]:
    """The record and the game it replays to (every step checked); RecordError if not."""
    loaded = GameRecord.from_json(record)
    return loaded, loaded.replay()


def _game_at(record: GameRecord, game: Game, turn: int | None) -> tuple[State, str]:
    """The position after ``turn`` (None: now) and the heading that says which."""
    if turn is None:
        return game.state, ""
    if not 0 <= turn <= game.state.turn:
        raise CommandError(
            f"--turn {turn}: the game has reached turn {game.state.turn}; give 0 (the setup) "
            f"to {game.state.turn}"
        )
    count = sum(1 for step in record.steps if step.turn <= turn)
    state = record.replay(until=count).state
    label = "the setup" if turn == 0 else f"turn {turn}"
    return state, f"Position after {label} ({count} of {len(record.steps)} steps):"


def _expect(state: State, phase: Phase, what: str) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.OVER:
        raise CommandError(f"the game is over (after turn {state.turn}); it takes no {what}")
    command = {Phase.ORDERS: "adjudicate", Phase.RETREATS: "retreat", Phase.BUILD: "build"}
    awaited = {Phase.ORDERS: "orders", Phase.RETREATS: "retreats", Phase.BUILD: "build plans"}
    raise CommandError(
        f"the game is waiting for {awaited[state.phase]} (turn {state.turn}), not {what}; "
        f"use 'companion {command[state.phase]}'"
    )


# adjudicate -------------------------------------------------------------------------------


def _adjudicate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "orders",
        metavar="ORDERS.txt",
        nargs="?",
        default="-",
        type=TextInput,
        help="'-' (default): stdin",
    )


def adjudicate(record: bytes, args: argparse.Namespace) -> VerbResult:
    """Resolve the turn from an orders file (R3, R4, R5)."""
    _, game = _load(record)
    state = game.state
    _expect(state, Phase.ORDERS, "orders")
    source: TextInput = args.orders
    text = source.read("orders")
    blocks = parse_blocks(text, state, keywords=ORDER_KEYWORDS, what="orders", source=source.name)
    result = game.play({colour: block.text() for colour, block in blocks.items()})
    lines = [
        *turn_report(state, result, blocks, source.name),
        "",
        *waiting(game.state, owed_shown=bool(result.retreats)),
        "",
        recorded(args.record, game),
    ]
    return VerbResult(lines, record=GameRecord.of(game).to_json())


# retreat ----------------------------------------------------------------------------------


def _retreat_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "choices",
        metavar="CHOICES.txt",
        nargs="?",
        default="-",
        type=TextInput,
        help="'-' (default): stdin",
    )
    parser.add_argument(
        "--defaults", action="store_true", help="every unit takes its default (R5.3); no input"
    )


def retreat(record: bytes, args: argparse.Namespace) -> VerbResult:
    """Carry out the retreats owed: chosen ones, and the defaults for the rest (R5.3)."""
    _, game = _load(record)
    state = game.state
    _expect(state, Phase.RETREATS, "retreats")
    source: TextInput = args.choices
    if args.defaults:
        if source.source != "-":
            raise CommandError("give either CHOICES.txt or --defaults, not both")
        choices: dict[UnitId, SectorId] = {}
    else:
        choices = parse_retreats(source.read("retreat choices"), state, source.name)
    notes = game.retreat(choices)
    defaulted = [r for r in state.retreats if r.unit not in choices and r.options]
    lines = [f"Retreats after turn {state.turn}:"]
    lines += [wrap(note) for note in notes]
    if defaulted:
        lines.append(
            wrap(
                "took the default (lowest sector, R5.3) for "
                + ", ".join(r.describe() for r in defaulted)
            )
        )
    lines += ["", *waiting(game.state), "", recorded(args.record, game)]
    return VerbResult(lines, record=GameRecord.of(game).to_json())


# build ------------------------------------------------------------------------------------


def _build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "plans",
        metavar="PLANS.txt",
        nargs="?",
        default="-",
        type=TextInput,
        help="'-' (default): stdin",
    )
    parser.add_argument(
        "--statement", action="store_true", help="only print each empire's income statement"
    )


def _statements(state: State, source: TextInput) -> VerbResult:
    if source.source != "-":
        raise CommandError("--statement reads no plans; leave out PLANS.txt")
    lines: list[str] = []
    if state.phase is not Phase.BUILD:
        lines += [
            f"(The game is waiting for {state.phase.value}; these are the figures a build "
            "phase would use now.)",
            "",
        ]
    for index, colour in enumerate(state.active_colours):
        lines += [*([""] if index else []), *income_statement(state, colour).lines()]
    return VerbResult(lines)


def build(record: bytes, args: argparse.Namespace) -> VerbResult:
    """Carry out the build phase from every empire's plan (R6), or show the statements."""
    _, game = _load(record)
    state = game.state
    source: TextInput = args.plans
    if args.statement:
        return _statements(state, source)
    _expect(state, Phase.BUILD, "build plans")
    text = source.read("build plans")
    blocks = parse_blocks(
        text, state, keywords=PLAN_KEYWORDS, what="build plan", source=source.name
    )
    plans: dict[Colour, BuildPlan] = {}
    problems: list[str] = []
    for colour, block in blocks.items():
        try:
            plan = BuildPlan.parse(block.text())
        except OrderSyntaxError as err:
            moved = err.at_line(block.header + err.line)
            problems.append(f"{colour.title}: {source.name}, {moved}")
            continue
        plans[colour] = plan
        problems += [f"{colour.title}: {reason}" for reason in check_plan(state, colour, plan)]
    if problems:
        raise CommandError(
            f"the build plans break the rules ({plural(len(problems), 'problem')}); "
            "nothing was built:",
            *problems,
        )
    notes = game.build(plans)
    lines = [f"Build phase after turn {state.turn}:"]
    for colour in state.active_colours:
        net = income_statement(state, colour).net
        mine = [n.removeprefix(f"{colour.title} ") for n in notes if n.startswith(colour.title)]
        lines.append(wrap(f"{colour.title} (net {net}): {'; '.join(mine) or 'built nothing'}"))
    lines += ["", *waiting(game.state), "", recorded(args.record, game)]
    return VerbResult(lines, record=GameRecord.of(game).to_json())


# The game's commands ----------------------------------------------------------------------


class LocalClusterCommands(GameCommands):
    """``companion new|show|replay`` for Local Cluster records, its three verbs and ``demo``."""

    verbs = (
        Verb(
            "adjudicate",
            "Resolve the turn from an orders file.",
            _adjudicate_arguments,
            adjudicate,
            ORDERS_HELP,
        ),
        Verb(
            "retreat",
            "Choose retreats: lines of RETREAT FROM TO.",
            _retreat_arguments,
            retreat,
            RETREATS_HELP,
        ),
        Verb(
            "build",
            "Carry out the build phase from a plans file.",
            _build_arguments,
            build,
            PLANS_HELP,
        ),
    )

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--players", type=int, help="number of empires, 2-8 (default 4)")
        parser.add_argument("--seed", type=int, help="setup seed (default: random, and printed)")
        parser.add_argument(
            "--colours",
            "--colors",
            type=_colours,
            help="the empires' colours, e.g. red,blue (default: random)",
        )
        parser.add_argument("--turn-limit", type=int, metavar="N", help="end after N turns (R7.3)")
        parser.add_argument(
            "--support-range",
            choices=[r.value for r in SupportRange],
            default=SupportRange.ADJACENT.value,
            help="how far SUPPORT reaches (R3.4; default adjacent)",
        )
        parser.add_argument(
            "--no-advance-claims",
            action="store_true",
            help="an uncontested ADVANCE into an empty sector does not claim it (R4.6)",
        )

    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        """A random galaxy (R2) with the house rules asked for."""
        colours: tuple[Colour, ...] | None = args.colours
        players: int | None = args.players
        if colours is not None and players is not None and len(colours) != players:
            raise CommandError(f"--players {players} but {len(colours)} colours given in --colours")
        if players is None:
            players = len(colours) if colours is not None else 4
        if colours is not None and len(set(colours)) != len(colours):
            raise CommandError("--colours names a colour twice; each empire has its own (R2.2)")
        rules = HouseRules(
            support_range=SupportRange(args.support_range),
            advance_claims_empty=not args.no_advance_claims,
            turn_limit=args.turn_limit,
        )
        seed: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
        state = random_setup(seed, players, rules=rules, colours=colours)
        path: Path = args.record
        lines = [
            f"New game in {path}: {players} empires on {len(state.galaxy.ids)} sectors, "
            f"seed {seed}.",
            "",
            render(state),
            "",
            key(),
            "",
            "Who is where:",
            *who_is_where(state),
            "",
            *waiting(state),
        ]
        return GameRecord.of(Game(state, seed=seed)).to_json(), lines

    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        """The map, the standings and what the game waits for (now, or after turn N)."""
        loaded, game = _load(record)
        state, label = _game_at(loaded, game, args.turn)
        return [*([label, ""] if label else []), *position(state), "", *waiting(state)]

    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        """Replay every step against its digest (R2.3), then show the end (or turn N)."""
        loaded, game = _load(record)
        steps = len(loaded.steps)
        state, label = _game_at(loaded, game, args.turn)
        return [
            f"replayed {plural(steps, 'step')}; position matches the record",
            "",
            label or f"Position after all {steps} steps:",
            "",
            *position(state),
            "",
            *waiting(state),
        ]

    def commands(self, subparsers: Subcommands) -> None:
        add_demo_command(subparsers)


COMMANDS = LocalClusterCommands()
"""What the registration's ``cli`` names."""
