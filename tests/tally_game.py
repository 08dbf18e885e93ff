"""Tally: a test-only game for the ``companion`` shell, registered only by the tests.

It has what the shell needs of a game and nothing more: a record (a count and the steps that
added to it, schema-checked with :mod:`companion.records`), ``companion new --game tally
[--start N] [--label TEXT]``, ``show``, ``replay``, the verbs ``add GAME.json N`` and ``check
GAME.json`` (exit status 1 when the count is odd), a ``tally-rules`` command without a record,
and house rules of every kind for ``companion table create``. It is not played at tables: its
setup says so.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from companion.commands import CommandError, GameCommands, Subcommands, Verb, VerbResult
from companion.errors import RecordError, StateError
from companion.games import Game, HouseRule, Play
from companion.records import first_violation, parse_json

NAME = "tally"
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["format", "version", "game", "count", "steps"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": "tally"},
        "version": {"const": 1},
        "game": {"const": NAME},
        "label": {"type": "string"},
        "count": {"type": "integer"},
        "steps": {"type": "array", "items": {"type": "integer"}},
    },
}


def load(record: bytes) -> dict[str, Any]:
    data = parse_json(record)
    violation = first_violation(data, SCHEMA)
    if violation is not None:
        raise RecordError(f"not a Tally game record: {violation}")
    total = sum(data["steps"])
    if total != data["count"]:
        raise RecordError(f"the steps add up to {total}, but the record says {data['count']}")
    return dict(data)


def dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("amount", type=int, metavar="N", help="how much to add")


def add(record: bytes, args: argparse.Namespace) -> VerbResult:
    data = load(record)
    if args.amount == 0:
        raise CommandError("adding 0 changes nothing", "give a number other than 0")
    data["count"] += args.amount
    data["steps"].append(args.amount)
    return VerbResult([f"Tally: {data['count']}", f"Recorded in {args.record}."], dump(data))


def check(record: bytes, args: argparse.Namespace) -> VerbResult:
    count = load(record)["count"]
    odd = count % 2 == 1
    return VerbResult([f"{count} is {'odd' if odd else 'even'}"], exit_code=1 if odd else 0)


class TallyCommands(GameCommands):
    verbs = (
        Verb("add", "Add a number to the tally.", _add_arguments, add),
        Verb("check", "Exit with status 1 if the tally is odd.", lambda parser: None, check),
    )

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--start", type=int, default=0, help="the count to start from")
        parser.add_argument("--label", default="", help="a name for the tally")

    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        data = {"format": "tally", "version": 1, "game": NAME, "count": args.start}
        data |= {"steps": [args.start] if args.start else [], "label": args.label}
        return dump(data), [f"New tally in {args.record}, starting at {args.start}."]

    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        data = load(record)
        return [f"Tally{' ' + data['label'] if data.get('label') else ''}: {data['count']}"]

    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        data = load(record)
        return [f"replayed {len(data['steps'])} steps; the count is {data['count']}"]

    def commands(self, subparsers: Subcommands) -> None:
        rules = subparsers.add_parser("tally-rules", help="Say how Tally is played.")
        rules.set_defaults(handler=lambda args: print("Add numbers; that is all.") or 0)


COMMANDS = TallyCommands()


def _not_at_tables(*_: object) -> Any:
    raise StateError("Tally is not played at tables")


SCORING = (("sum", "add"), ("max", "most"))
HOUSE_RULES = (
    HouseRule("scoring", "Scoring", "sum", "How the tally counts.", SCORING),
    HouseRule("strict", "Strict", False, "Refuse negative numbers."),
    HouseRule("limit", "Limit", 100, "The highest count.", minimum=1, maximum=1000),
    HouseRule("floor", "Floor", None, "The lowest count.", minimum=0),
    HouseRule("motto", "Motto", "count on", "Said at the start."),
)  # fmt: skip


def game(cli: str = "tally_game:COMMANDS") -> Game:
    return Game(
        name=NAME,
        title="Tally",
        rules="tally_game",
        play=Play.TURNS,
        players=(1, 3),
        stages=(),
        new_setup=_not_at_tables,
        load_setup=_not_at_tables,
        load_session=_not_at_tables,
        house_rules=HOUSE_RULES,
        summary="Add numbers.",
        cli=cli,
    )
