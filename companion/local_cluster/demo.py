"""``companion demo``: greedy players play a random game of Local Cluster, narrated turn by turn.

The one Local Cluster command that takes no record (:meth:`GameCommands.commands`). It prints
as the game goes (with ``--delay`` between turns) and can write the record at the end.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from pathlib import Path
from typing import TextIO

from companion.commands import EXIT_OK, CommandError, Subcommands, write_atomic
from companion.errors import OrderSyntaxError
from companion.local_cluster.atoms import SectorId, sector_sort_key
from companion.local_cluster.economy import income_statement
from companion.local_cluster.game import Game
from companion.local_cluster.generation import random_setup
from companion.local_cluster.orders import Order, OrderKind
from companion.local_cluster.outcomes import OrderOutcome, OutcomeStatus, TurnResult
from companion.local_cluster.policy import greedy_orders, greedy_plan
from companion.local_cluster.record import GameRecord
from companion.local_cluster.reports import final, key, who_is_where
from companion.local_cluster.settings import HouseRules
from companion.local_cluster.state import Phase, State
from companion.local_cluster.text_map import render, scoreboard
from companion.terminal import columns, listing, width, wrap


def add_demo_command(commands: Subcommands) -> None:
    """``companion demo [--seed S] [--players 4] [--turns 40] [--delay S] [--record OUT.json]``."""
    text = "Watch greedy players play a random game of Local Cluster."
    demo = commands.add_parser("demo", help=text, description=text)
    demo.add_argument("--seed", type=int, help="default: random, and printed")
    demo.add_argument("--players", type=int, default=4, help="2-8 (default 4)")
    demo.add_argument("--turns", type=int, default=40, help="turn limit (default 40)")
    demo.add_argument(
        "--delay", type=float, default=0.0, metavar="SECONDS", help="pause between turns"
    )
    demo.add_argument("--record", type=Path, metavar="OUT.json", help="write the game record")
    demo.add_argument("--force", action="store_true", help="replace OUT.json if it exists")
    demo.set_defaults(handler=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    if args.turns < 1:
        raise CommandError(f"--turns must be at least 1, not {args.turns}")
    if args.delay < 0:
        raise CommandError(f"--delay must be 0 or more seconds, not {args.delay}")
    record_path: Path | None = args.record
    if record_path is not None and record_path.exists() and not args.force:
        raise CommandError(f"{record_path} already exists; use --force to replace it")
    rules = HouseRules(turn_limit=args.turns)
    seed: int = args.seed if args.seed is not None else _fitting_seed(args.players, rules)
    game = Game(random_setup(seed, args.players, rules=rules), seed=seed)
    Demo(game, random.Random(seed), delay=args.delay).run()
    if record_path is not None:
        write_atomic(record_path, GameRecord.of(game).to_json())
        print()
        print(
            wrap(
                f"Game record written to {record_path} (check it with: companion replay "
                f"{record_path}).",
                indent=0,
            )
        )
    return EXIT_OK


def _fitting_seed(players: int, rules: HouseRules) -> int:
    """A random seed whose map fits the terminal, when one turns up within a few tries."""
    fits = columns()
    seed = secrets.randbelow(10**6)
    for _ in range(20):
        if 2 <= players <= 8:
            lines = render(random_setup(seed, players, rules=rules)).splitlines()
            if max(map(len, lines)) <= fits:
                break
        seed = secrets.randbelow(10**6)
    return seed


def _compact(text: str) -> str:
    """A sheet of orders on one line: the orders that do something, then who holds."""
    shown: list[str] = []
    holding: list[str] = []
    for raw in text.splitlines():
        try:
            order = Order.parse(raw)
        except OrderSyntaxError:
            shown.append(raw.strip())
            continue
        if order.kind is OrderKind.HOLD:
            holding.append(order.sector)
        else:
            shown.append(order.text())
    if holding:
        return "; ".join(
            [", ".join(shown), "holding " + ", ".join(holding)]
            if shown
            else ["holding " + ", ".join(holding)]
        )
    return ", ".join(shown) or "no orders"


class Demo:
    """Greedy players play ``game`` to its end, narrated turn by turn on stdout."""

    def __init__(
        self, game: Game, rng: random.Random, *, delay: float = 0.0, out: TextIO | None = None
    ) -> None:
        self.game = game
        self.rng = rng
        self.delay = delay
        self.out = out

    def say(self, *lines: str) -> None:
        print(*lines, sep="\n", file=self.out or sys.stdout, flush=True)

    def run(self) -> None:
        game, state = self.game, self.game.state
        limit = state.rules.turn_limit
        self.say(
            f"Local Cluster demo: {len(state.empires)} greedy empires on "
            f"{len(state.galaxy.ids)} sectors, seed {game.seed}, up to {limit} turns.",
            f"(Watch the same game again with: companion demo --seed {game.seed} "
            f"--players {len(state.empires)} --turns {limit})",
            "",
            render(state),
            "",
            key(),
            "",
            "Who is where:",
            *who_is_where(state),
        )
        while not game.over:
            state = game.state
            if state.phase is Phase.ORDERS:
                self.pause()
                self.turn(state)
            elif state.phase is Phase.RETREATS:
                self.retreats()
            else:
                self.build(state)
        self.finish()

    def pause(self) -> None:
        if self.delay and self.game.steps:
            time.sleep(self.delay)

    def turn(self, state: State) -> None:
        orders = {c: greedy_orders(state, c, self.rng) for c in state.active_colours}
        result = self.game.play(orders)
        heading = f"== Turn {state.turn} "
        self.say("", heading + "=" * (width() - len(heading)), "Orders:")
        for colour, text in orders.items():
            self.say(wrap(f"{colour.title:<7} {_compact(text)}", indent=2, hanging=8))
        notable = self.notable(result)
        self.say("What happened:", *(notable or ["  every order went as written"]))

    def notable(self, result: TurnResult) -> list[str]:
        lines = [wrap("combat " + combat.describe(), hanging=7) for combat in result.combats]
        bounced: dict[SectorId, list[OrderOutcome]] = {}
        for outcome in result.outcomes:
            order = outcome.order
            if outcome.status is OutcomeStatus.BOUNCED and order is not None:
                bounced.setdefault(order.target, []).append(outcome)
            elif outcome.status in (
                OutcomeStatus.CUT,
                OutcomeStatus.CANCELLED,
                OutcomeStatus.VOID,
                OutcomeStatus.FAILED,
                OutcomeStatus.PARTIAL,
            ):
                tag = outcome.status.value
                lines.append(
                    wrap(f"{tag:<6} {outcome.empire.title} {outcome.explain()}", hanging=7)
                )
        for sector in sorted(bounced, key=sector_sort_key):
            group = bounced[sector]
            if len(group) == 1:
                text = f"{group[0].empire.title} {group[0].explain()}"
            else:
                who = listing(f"{o.empire.title} from {o.order.sector}" for o in group if o.order)
                stayed = "both stayed put" if len(group) == 2 else "all stayed put"
                text = f"{sector}: {who} went for it at once; {stayed}"
            lines.append(wrap("bounce " + text, hanging=7))
        if result.claims_changed:
            claims = [
                f"{c.sector} {c.after.title}"
                + ("" if c.before is None else f" (from {c.before.title})")
                for c in result.claims_changed
            ]
            lines.append(wrap("claims " + ", ".join(claims), hanging=7))
        lines += [wrap(note, hanging=4) for note in result.aftermath]
        return lines

    def retreats(self) -> None:
        notes = self.game.retreat({})
        self.say("Retreats (each takes its default, R5.3):", *(wrap(n) for n in notes))

    def build(self, state: State) -> None:
        plans = {c: greedy_plan(state, c, self.rng) for c in state.active_colours}
        notes = self.game.build(plans)
        self.say("", f"-- Build phase after turn {state.turn} --")
        for colour in state.active_colours:
            net = income_statement(state, colour).net
            mine = [n.removeprefix(f"{colour.title} ") for n in notes if n.startswith(colour.title)]
            self.say(
                wrap(
                    f"{colour.title:<7} net {net:>2}: {'; '.join(mine) or 'built nothing'}",
                    hanging=14,
                )
            )
        self.say("", render(self.game.state), "", scoreboard(self.game.state))

    def finish(self) -> None:
        state = self.game.state
        self.say("", "== Game over " + "=" * (width() - 13), "", render(state), "")
        self.say("Standings:", scoreboard(state), "", *final(state))
