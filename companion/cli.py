"""The ``companion`` command: play Local Cluster from a terminal, one game record file at a time.

Every subcommand loads the record (schema check, then a replay that checks every step's
digest), does one thing, and, when it changes the game, writes the whole record back
atomically (a temporary file in the same directory, then :func:`os.replace`), so a crash never
leaves half a record. Anything a user can get wrong (a missing file, bad JSON, an order file
with an unknown colour, a plan over budget) ends with ``companion: error: ...`` on stderr and
exit code 2, and leaves the record untouched.

The ``table`` commands are the exception: they create, list, export and import the tables of
the table service (:mod:`companion.service`), which keeps them all in one SQLite database.

The outer packages add commands of their own (``serve``, ``scan``, ``panel`` ...) without this
package importing them: each names a ``register(commands)`` function under the entry-point
group :data:`PLUGIN_GROUP` in ``pyproject.toml``, and :func:`main` calls it to add its
subparsers. A package whose dependencies are missing still shows its command, which then says
what is missing instead of running.

This module does the I/O; the rules are all in the rules core it imports.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import os
import random
import re
import secrets
import shutil
import sqlite3
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeAlias

from companion import __version__
from companion.cosmic import commands as cosmic
from companion.errors import CompanionError, OrderSyntaxError
from companion.local_cluster.atoms import Colour, SectorId, UnitId, sector_sort_key
from companion.local_cluster.economy import BuildPlan, check_plan, income_statement
from companion.local_cluster.game import Game
from companion.local_cluster.generation import MAX_PLAYERS, MIN_PLAYERS, random_setup
from companion.local_cluster.orders import Order, OrderKind
from companion.local_cluster.outcomes import OrderOutcome, OutcomeStatus, TurnResult
from companion.local_cluster.policy import greedy_orders, greedy_plan
from companion.local_cluster.record import MAX_RECORD_BYTES, GameRecord
from companion.local_cluster.retreats import check_retreat
from companion.local_cluster.settings import HouseRules, SupportRange
from companion.local_cluster.state import Phase, RetreatOwed, State
from companion.local_cluster.text_map import legend, render, scoreboard
from companion.service.clock import SystemClock
from companion.service.service import MAX_NAME, TableService
from companion.service.session import Stage
from companion.service.storage import (
    DEFAULT_PATH,
    ENVIRONMENT_VARIABLE,
    Storage,
    StorageError,
    default_path,
    writer_lock,
)

PROG = "companion"
PLUGIN_GROUP = "companion.commands"
"""Entry-point group of the commands that the outer packages (web, vision, hardware) add."""
EXIT_OK = 0
EXIT_ERROR = 2
"""Exit code of every error a user can cause (the same code argparse uses for bad usage)."""

MAX_INPUT_BYTES = 1024 * 1024
"""Order, retreat and build files larger than this are refused unread."""
MAX_SHEET_CHARS = 20_000
"""The longest one empire's orders or plan may be (the record schema's ``maxLength``)."""
WIDTH = 100
"""Widest line the commands print (maps excepted); narrower when the terminal is."""

ORDER_KEYWORDS = frozenset(kind.value for kind in OrderKind)
PLAN_KEYWORDS = frozenset({"BUILD", "REPLENISH", "STOCKPILE"})


class CommandError(Exception):
    """A problem the user can fix; ``lines`` are printed after ``companion: error:``."""

    def __init__(self, *lines: str) -> None:
        self.lines = lines
        super().__init__("\n".join(lines))


# Entry point -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``companion`` command with ``argv`` (default: ``sys.argv[1:]``); the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed usage and its message already
        return exit_.code if isinstance(exit_.code, int) else EXIT_ERROR
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except CommandError as err:
        _report(*err.lines)
    except CompanionError as err:
        _report(str(err))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # `companion demo | head`: stop quietly
        _silence_stdout()
        return EXIT_OK
    return EXIT_ERROR


def _report(first: str, *more: str) -> None:
    print(f"{PROG}: error: {first}", file=sys.stderr)
    for line in more:
        print(f"  {line}", file=sys.stderr)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{PROG}: error: {message}\n")


_BLOCKS_HELP = """\
ORDERS.txt holds one block per empire: a line naming its colour (Red:, [Red] or
Red, any case), then its orders, one a line (R3.1):
  HOLD s, MOVE s t, ADVANCE s t, SUPPORT s t, DEPLOY s t1 [t2 [t3]],
  RECALL s f1 [f2 [f3]], CLAIM s
'#' starts a comment. An empire without a block holds everywhere. Malformed or
impossible orders are void (the unit holds) and reported."""

_PLANS_HELP = """\
PLANS.txt holds one block per empire: a line naming its colour (Red:, [Red] or
Red), then its plan (R6.6): lines of BUILD destroyer|battleship|carrier s and
REPLENISH s, or the single line STOCKPILE. An empire without a block builds
nothing. A plan that breaks a rule stops the whole build phase."""

_RETREAT_HELP = """\
CHOICES.txt has one line per choice: RETREAT FROM TO (the sector the unit must
leave, then where it goes). Units not listed take the lowest-numbered option
(R5.3)."""

_DB_HELP = (
    f"the tables' SQLite database (default: ${ENVIRONMENT_VARIABLE} if set, else "
    f"./{DEFAULT_PATH}); created, with its folder, when a table is first created"
)

_TABLE_HELP = f"""\
A table is one game at the table service: its seats, its phases and their clocks (R8), and
the game itself. Every table lives in one SQLite database: --db PATH (before or after the
command), else ${ENVIRONMENT_VARIABLE}, else ./{DEFAULT_PATH}.

  companion table create NAME [--players N] [--seed S] [house rules...]
  companion table list
  companion table export TABLE_ID [OUT.json | -] [--force]
  companion table import RECORD.json [--name NAME]"""

_TIMED_PHASES = (
    ("discussion", "seconds for the discussion phase"),
    ("command", "seconds for the command phase (orders)"),
    ("retreat", "seconds to choose retreats"),
    ("build", "seconds for the build phase"),
)
"""The phase-length flags of ``table create`` (``--discussion-seconds`` ...) and their phases."""


def _rule_name(flag: str) -> str:
    return f"{flag}_seconds"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Cluster Companion: set up, adjudicate and replay games of Local Cluster "
        "and Cosmic Cluster.",
        epilog="Each GAME.json is a game record (docs/state-format.md); commands that change "
        "the game write it back in place.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], text: str, epilog: str = ""
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            help=text,
            description=text,
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(handler=handler)
        return sub

    new = command("new", _cmd_new, "Set up a random game and write its record.")
    new.add_argument("game", metavar="GAME.json", type=Path)
    new.add_argument(
        "--game",
        dest="kind",
        choices=("local-cluster", "cosmic-cluster"),
        default="local-cluster",
        help="which game (default local-cluster; cosmic-cluster takes 2-9 players)",
    )
    new.add_argument(
        "--players",
        type=int,
        help="number of empires, 2-8 (Cosmic Cluster: powers, 2-9; default 4)",
    )
    new.add_argument("--seed", type=int, help="setup seed (default: random, and printed)")
    new.add_argument(
        "--colours",
        "--colors",
        type=_colours,
        help="the empires' colours, e.g. red,blue (default: random)",
    )
    _add_rule_options(new)
    new.add_argument("--force", action="store_true", help="replace GAME.json if it exists")

    show = command("show", _cmd_show, "Show the map, the standings and what the game waits for.")
    show.add_argument("game", metavar="GAME.json", type=Path)
    show.add_argument("--turn", type=int, metavar="N", help="the position after turn N (0: setup)")

    adjudicate = command(
        "adjudicate", _cmd_adjudicate, "Resolve the turn from an orders file.", _BLOCKS_HELP
    )
    adjudicate.add_argument("game", metavar="GAME.json", type=Path)
    adjudicate.add_argument(
        "orders", metavar="ORDERS.txt", nargs="?", default="-", help="'-' (default): stdin"
    )

    retreat = command(
        "retreat", _cmd_retreat, "Choose retreats: lines of RETREAT FROM TO.", _RETREAT_HELP
    )
    retreat.add_argument("game", metavar="GAME.json", type=Path)
    retreat.add_argument(
        "choices", metavar="CHOICES.txt", nargs="?", default="-", help="'-' (default): stdin"
    )
    retreat.add_argument(
        "--defaults", action="store_true", help="every unit takes its default (R5.3); no input"
    )

    build = command(
        "build", _cmd_build, "Carry out the build phase from a plans file.", _PLANS_HELP
    )
    build.add_argument("game", metavar="GAME.json", type=Path)
    build.add_argument(
        "plans", metavar="PLANS.txt", nargs="?", default="-", help="'-' (default): stdin"
    )
    build.add_argument(
        "--statement", action="store_true", help="only print each empire's income statement"
    )

    replay = command("replay", _cmd_replay, "Check a record by replaying every step.")
    replay.add_argument("game", metavar="GAME.json", type=Path)
    replay.add_argument("--turn", type=int, metavar="N", help="show the position after turn N")

    demo = command("demo", _cmd_demo, "Watch greedy players play a random game.")
    demo.add_argument("--seed", type=int, help="default: random, and printed")
    demo.add_argument("--players", type=int, default=4, help="2-8 (default 4)")
    demo.add_argument("--turns", type=int, default=40, help="turn limit (default 40)")
    demo.add_argument(
        "--delay", type=float, default=0.0, metavar="SECONDS", help="pause between turns"
    )
    demo.add_argument("--record", type=Path, metavar="OUT.json", help="write the game record")
    demo.add_argument("--force", action="store_true", help="replace OUT.json if it exists")

    table = commands.add_parser(
        "table",
        help="Create, list, export and import the table service's tables.",
        description="Create, list, export and import the tables of the table service, all kept "
        "in one SQLite database.",
        epilog=_TABLE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    table.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    tables = table.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def table_command(
        name: str, handler: Callable[[argparse.Namespace], int], text: str
    ) -> argparse.ArgumentParser:
        sub = tables.add_parser(name, help=text, description=text)
        sub.set_defaults(handler=handler)
        # Also after the command; SUPPRESS keeps a --db given before it when this one is not.
        sub.add_argument(
            "--db", type=Path, metavar="PATH", default=argparse.SUPPRESS, help=_DB_HELP
        )
        return sub

    create = table_command("create", _cmd_table_create, "Create a table; seats join it later.")
    create.add_argument(
        "name", metavar="NAME", help=f"the table's name (up to {MAX_NAME} characters)"
    )
    create.add_argument(
        "--players", type=int, default=4, metavar="N", help="number of seats, 2-8 (default 4)"
    )
    create.add_argument(
        "--game",
        dest="kind",
        choices=("local-cluster", "cosmic-cluster"),
        default="local-cluster",
        help="which game the table plays (default local-cluster; cosmic-cluster: 2-9 seats)",
    )
    create.add_argument(
        "--seed", type=int, metavar="S", help="galaxy seed (default: random, and printed)"
    )
    _add_rule_options(create)
    defaults = HouseRules()
    for flag, what in _TIMED_PHASES:
        create.add_argument(
            f"--{flag}-seconds",
            type=int,
            metavar="N",
            help=f"{what} (R8.1; default {getattr(defaults, _rule_name(flag))})",
        )

    table_command("list", _cmd_table_list, "List the tables: stage, turn, seats and clock.")

    export = table_command("export", _cmd_table_export, "Write a table's game record (JSON).")
    export.add_argument("table_id", metavar="TABLE_ID")
    export.add_argument(
        "out", metavar="OUT.json", nargs="?", default="-", help="'-' (default): standard output"
    )
    export.add_argument("--force", action="store_true", help="replace OUT.json if it exists")

    import_ = table_command(
        "import", _cmd_table_import, "Start a new table that carries on from a game record."
    )
    import_.add_argument("record", metavar="RECORD.json", type=Path)
    import_.add_argument("--name", help="the table's name (default: the file's name)")

    for entry in _plugins():
        _add_plugin(commands, entry)
    return parser


Subcommands: TypeAlias = "argparse._SubParsersAction[Any]"
"""What a plugin's ``register(commands)`` receives: ``commands.add_parser(name, ...)``."""


def _plugins() -> list[EntryPoint]:
    return sorted(entry_points(group=PLUGIN_GROUP), key=lambda entry: entry.name)


def _add_plugin(commands: Subcommands, entry: EntryPoint) -> None:
    """Let ``entry``'s package add its commands; if it cannot be loaded, say why when run."""
    try:
        register: Callable[[Subcommands], None] = entry.load()
    except Exception as err:  # an ImportError mostly: a dependency is not installed
        problem = f"{type(err).__name__}: {err}"
        unavailable = commands.add_parser(
            entry.name,
            help=f"(unavailable: {entry.value.partition(':')[0]} did not load)",
            description=problem,
        )
        unavailable.add_argument("arguments", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

        def handler(args: argparse.Namespace) -> int:
            raise CommandError(
                f"'{entry.name}' is not available: its package did not load.",
                problem,
                "Run `make run` or `pip install -e .` to install what it needs.",
            )

        unavailable.set_defaults(handler=handler)
        return
    register(commands)


def _colours(text: str) -> tuple[Colour, ...]:
    try:
        return tuple(Colour.parse(part) for part in text.split(",") if part.strip())
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


# Files -------------------------------------------------------------------------------------


def _read_bytes(path: Path, limit: int, what: str) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{path}: is a directory, not {what}") from None
    except OSError as err:
        raise CommandError(f"{path}: cannot read it: {err.strerror or err}") from None
    if len(data) > limit:
        raise CommandError(f"{path}: over {_size(limit)}; too big for {what}")
    return data


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 2**10} KiB"


def _read_input(source: str, what: str) -> tuple[str, str]:
    """Text of an input file, or of stdin for ``-``; and the name to quote in messages."""
    if source == "-":
        name = "standard input"
        if sys.stdin.isatty():
            print(f"Reading {what} from the terminal; end with Ctrl-D.", file=sys.stderr)
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stream without bytes underneath (tests, embedding)
            text = sys.stdin.read(MAX_INPUT_BYTES + 1)
            if len(text) > MAX_INPUT_BYTES:
                raise CommandError(f"{name}: over {_size(MAX_INPUT_BYTES)}; too big for {what}")
            return text, name
        data: bytes = buffer.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise CommandError(f"{name}: over {_size(MAX_INPUT_BYTES)}; too big for {what}")
    else:
        name = source
        data = _read_bytes(Path(source), MAX_INPUT_BYTES, what)
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError as err:
        raise CommandError(f"{name}: not UTF-8 text ({err.reason} at byte {err.start})") from None


def _cosmic_record(path: Path) -> bytes | None:
    """The record's bytes when ``path`` holds a Cosmic Cluster record, else None."""
    data = _read_bytes(path, MAX_RECORD_BYTES, "a game record")
    return data if cosmic.is_cosmic_record(data) else None


def _cosmic_step(
    path: Path,
    record: bytes,
    source: str | None,
    what: str,
    play: Callable[..., tuple[str, list[str]]],
) -> int:
    """Play one Cosmic Cluster step from ``source`` (None: nobody orders; the defaults)."""
    text, name = _read_input(source, what) if source is not None else ("", "the defaults")
    try:
        new, lines = play(record, text)
    except CompanionError as err:
        raise CommandError(f"{name}: {err}") from None
    _write_atomic(path, new)
    _out(*lines, "", f"Recorded in {path}.")
    return EXIT_OK


def _load(path: Path) -> tuple[GameRecord, Game]:
    """The record in ``path`` and the game it replays to (every step checked)."""
    data = _read_bytes(path, MAX_RECORD_BYTES, "a game record")
    try:
        record = GameRecord.from_json(data)
        game = record.replay()
    except CompanionError as err:
        raise CommandError(f"{path}: {err}") from None
    return record, game


def _write_record(path: Path, game: Game) -> None:
    """Write the game's record to ``path`` atomically: all of it, or nothing."""
    _write_atomic(path, GameRecord.of(game).to_json())


def _write_atomic(path: Path, text: str) -> None:
    directory = path.parent
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    try:
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise CommandError(f"{path}: cannot write it: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as err:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise CommandError(f"{path}: cannot write it: {err.strerror or err}") from None
        raise


# Empire blocks in order and plan files -----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Block:
    """One empire's part of an orders or plans file: the lines after its header line."""

    colour: Colour
    header: int
    """The header's line number in the file; the block's line 1 is the line after it."""
    lines: tuple[str, ...]

    def text(self) -> str:
        """The block as written, without trailing blank or comment-only lines."""
        lines = list(self.lines)
        while lines and not lines[-1].split("#", 1)[0].strip():
            lines.pop()
        return "\n".join(lines)

    @property
    def span(self) -> str:
        """Where its lines are in the file: ``lines 3-5``."""
        count = len(self.text().splitlines())
        if count == 0:
            return f"nothing after line {self.header}"
        if count == 1:
            return f"line {self.header + 1}"
        return f"lines {self.header + 1}-{self.header + count}"


_BRACKETED = re.compile(r"\[\s*([^\]]*?)\s*\]\s*:?")
_WORD = re.compile(r"([A-Za-z]+)\s*(:?)")


def _header(line: str, keywords: frozenset[str]) -> str | None:
    """The colour word of a header line (``Red:``, ``[Red]``, ``Red``), or None for content."""
    content = line.split("#", 1)[0].strip()
    bracketed = _BRACKETED.fullmatch(content)
    if bracketed:
        return bracketed.group(1)
    word = _WORD.fullmatch(content)
    if word is None:
        return None
    if word.group(2) or word.group(1).upper() not in keywords:
        return word.group(1)
    return None


def parse_blocks(
    text: str,
    state: State,
    *,
    keywords: frozenset[str],
    what: str,
    source: str,
) -> dict[Colour, Block]:
    """Split ``text`` into per-empire blocks; CommandError names the line of any problem."""
    blocks: dict[Colour, Block] = {}
    current: tuple[Colour, int, list[str]] | None = None
    playing = ", ".join(e.colour.title for e in state.empires)

    def close() -> None:
        if current is not None:
            colour, header, lines = current
            blocks[colour] = Block(colour, header, tuple(lines))

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        word = _header(line, keywords)
        if word is None:
            if current is not None:
                current[2].append(line)
            elif line.split("#", 1)[0].strip():
                raise CommandError(
                    f"{source}, line {number}: {line.strip()!r} comes before any empire's "
                    f"header; start each empire's {what} with a line naming its colour, "
                    "like 'Red:'"
                )
            continue
        try:
            colour = Colour.parse(word)
        except ValueError as err:
            raise CommandError(
                f"{source}, line {number}: {err}; a header line names an empire, like 'Red:'"
            ) from None
        if colour not in state.empire_map:
            raise CommandError(
                f"{source}, line {number}: {colour.title} is not playing in this game "
                f"(the empires are {playing})"
            )
        if state.empire(colour).eliminated:
            raise CommandError(
                f"{source}, line {number}: {colour.title} has been eliminated (R7.2) and has "
                f"no {what}"
            )
        close()
        if colour in blocks:
            raise CommandError(
                f"{source}, line {number}: a second block for {colour.title} (the first is at "
                f"line {blocks[colour].header}); give each empire one block"
            )
        current = (colour, number, [])
    close()
    for block in blocks.values():
        if len(block.text()) > MAX_SHEET_CHARS:
            raise CommandError(
                f"{source}, line {block.header}: {block.colour.title}'s {what} run to "
                f"{len(block.text())} characters; at most {MAX_SHEET_CHARS} are kept in a record"
            )
    return dict(sorted(blocks.items(), key=lambda item: state.empire(item[0]).seat))


# Describing a game -------------------------------------------------------------------------


def _columns() -> int:
    """The terminal's width; WIDTH when stdout is not a terminal (a file, a pipe, a test)."""
    try:
        if sys.stdout.isatty():
            return shutil.get_terminal_size((WIDTH, 24)).columns
    except ValueError:  # stdout closed
        pass
    return WIDTH


def _width() -> int:
    """How wide to wrap text: the terminal's width, but 60 to WIDTH columns."""
    return max(60, min(WIDTH, _columns()))


def _wrap(text: str, indent: int = 2, hanging: int = 4) -> str:
    return textwrap.fill(
        text,
        width=_width(),
        initial_indent=" " * indent,
        subsequent_indent=" " * (indent + hanging),
        break_on_hyphens=False,
        break_long_words=False,
    )


def _out(*lines: str) -> None:
    for line in lines:
        print(line)


def _listing(items: Iterable[str]) -> str:
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _retreat_owed(owed: RetreatOwed) -> str:
    if not owed.options:
        return f"{owed.describe()}: nowhere to go, so it is destroyed"
    return (
        f"{owed.describe()} (attacked from {owed.attacker_from}): may go to "
        f"{', '.join(owed.options)}; default {owed.default}"
    )


def _waiting(state: State, *, owed_shown: bool = False) -> list[str]:
    """What the game waits for next, as lines (build statements included).

    With ``owed_shown`` the retreats owed have just been listed, so they are not repeated.
    """
    if state.phase is Phase.ORDERS:
        return [
            f"Turn {state.turn}: waiting for orders from "
            f"{_listing(c.title for c in state.active_colours)} "
            "(an empire without orders holds everywhere)."
        ]
    if state.phase is Phase.RETREATS:
        if owed_shown:
            return [
                f"Turn {state.turn}: waiting for retreats: choose with 'companion retreat' "
                "(lines like RETREAT FROM TO), or take every default with --defaults."
            ]
        lines = [f"Turn {state.turn}: waiting for retreats (companion retreat):"]
        lines += [_wrap(_retreat_owed(owed)) for owed in state.retreats]
        return lines
    if state.phase is Phase.BUILD:
        lines = [f"Build phase after turn {state.turn}: waiting for build plans (companion build)."]
        for colour in state.active_colours:
            lines += ["", *income_statement(state, colour).lines()]
        return lines
    return _final(state)


def _final(state: State) -> list[str]:
    lines = [f"The game is over after turn {state.turn}."]
    if state.winner is not None:
        lines.append(f"Winner: {state.winner.title}.")
    else:
        lines.append("No single winner.")
    if state.ranking:
        lines.append("Ranking: " + ", ".join(f"{n}. {c.title}" for n, c in _ranked(state)))
    return lines


def _ranked(state: State) -> list[tuple[int, Colour]]:
    return list(enumerate(state.ranking, start=1))


def _legend() -> str:
    """The map's key, wrapped to the terminal."""
    return "\n".join(
        textwrap.fill(line, width=_width(), subsequent_indent=" " * 5, break_on_hyphens=False)
        for line in legend().splitlines()
    )


def _position(state: State) -> list[str]:
    return [render(state), "", _legend(), "", "Standings:", scoreboard(state)]


def _who_is_where(state: State) -> list[str]:
    lines = []
    for empire in state.empires:
        units = ", ".join(f"{u.kind.value} in {u.sector}" for u in state.units_of(empire.colour))
        lines.append(
            f"  {empire.colour.title:<7} seat {empire.seat}: home {empire.home}; "
            f"{units or 'no units'}"
        )
    return lines


def _steps_through(record: GameRecord, turn: int) -> int:
    """How many leading steps belong to turns up to ``turn``."""
    return sum(1 for step in record.steps if step.turn <= turn)


def _game_at(record: GameRecord, game: Game, turn: int | None) -> tuple[State, str]:
    if turn is None:
        return game.state, ""
    if not 0 <= turn <= game.state.turn:
        raise CommandError(
            f"--turn {turn}: the game has reached turn {game.state.turn}; give 0 (the setup) "
            f"to {game.state.turn}"
        )
    count = _steps_through(record, turn)
    state = record.replay(until=count).state
    label = "the setup" if turn == 0 else f"turn {turn}"
    return state, f"Position after {label} ({count} of {len(record.steps)} steps):"


# new ---------------------------------------------------------------------------------------


def _cmd_new(args: argparse.Namespace) -> int:
    path: Path = args.game
    if path.exists() and not args.force:
        raise CommandError(f"{path} already exists; use --force to replace it")
    if args.kind == "cosmic-cluster":
        seed_: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
        text, lines = cosmic.new_game(args.players or 4, seed_)
        _write_atomic(path, text)
        _out(*lines, "", f"Recorded in {path}.")
        return EXIT_OK
    colours: tuple[Colour, ...] | None = args.colours
    players: int | None = args.players
    if colours is not None and players is not None and len(colours) != players:
        raise CommandError(f"--players {players} but {len(colours)} colours given in --colours")
    if players is None:
        players = len(colours) if colours is not None else 4
    if colours is not None and len(set(colours)) != len(colours):
        raise CommandError("--colours names a colour twice; each empire has its own (R2.2)")
    rules = _rules_from(args)
    seed: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
    state = _setup(seed, players, rules, colours)
    _write_record(path, Game(state, seed=seed))
    _out(
        f"New game in {path}: {players} empires on {len(state.galaxy.ids)} sectors, seed {seed}.",
        "",
        render(state),
        "",
        _legend(),
        "",
        "Who is where:",
        *_who_is_where(state),
        "",
        *_waiting(state),
    )
    return EXIT_OK


def _setup(
    seed: int, players: int, rules: HouseRules, colours: Sequence[Colour] | None = None
) -> State:
    return random_setup(seed, players, rules=rules, colours=colours)


# show / replay -----------------------------------------------------------------------------


def _cmd_show(args: argparse.Namespace) -> int:
    data = _cosmic_record(args.game)
    if data is not None:
        _out(*cosmic.show(data, args.turn))
        return EXIT_OK
    record, game = _load(args.game)
    state, label = _game_at(record, game, args.turn)
    if label:
        _out(label, "")
    _out(*_position(state), "", *_waiting(state))
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    data = _cosmic_record(args.game)
    if data is not None:
        try:
            _out(*cosmic.replay(data))
        except CompanionError as err:
            raise CommandError(f"{args.game}: {err}") from None
        return EXIT_OK
    record, game = _load(args.game)
    steps = len(record.steps)
    _out(f"replayed {steps} step{'s' if steps != 1 else ''}; position matches the record")
    state, label = _game_at(record, game, args.turn)
    _out("", label or f"Position after all {steps} steps:", "", *_position(state))
    _out("", *_waiting(state))
    return EXIT_OK


# adjudicate --------------------------------------------------------------------------------


def _cmd_adjudicate(args: argparse.Namespace) -> int:
    path: Path = args.game
    data = _cosmic_record(path)
    if data is not None:
        return _cosmic_step(path, data, args.orders, "orders", cosmic.adjudicate)
    _, game = _load(path)
    state = game.state
    _expect(state, Phase.ORDERS, "orders")
    text, source = _read_input(args.orders, "orders")
    blocks = parse_blocks(text, state, keywords=ORDER_KEYWORDS, what="orders", source=source)
    result = game.play({colour: block.text() for colour, block in blocks.items()})
    _write_record(path, game)
    report = _turn_report(state, result, blocks, source)
    _out(*report, "", *_waiting(game.state, owed_shown=bool(result.retreats)))
    _out("", _recorded(path, game))
    return EXIT_OK


def _recorded(path: Path, game: Game) -> str:
    count = len(game.steps)
    return f"Recorded in {path} ({count} step{'s' * (count != 1)} so far)."


def _expect(state: State, phase: Phase, what: str) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.OVER:
        raise CommandError(f"the game is over (after turn {state.turn}); it takes no {what}")
    command = {Phase.ORDERS: "adjudicate", Phase.RETREATS: "retreat", Phase.BUILD: "build"}
    waiting = {Phase.ORDERS: "orders", Phase.RETREATS: "retreats", Phase.BUILD: "build plans"}
    raise CommandError(
        f"the game is waiting for {waiting[state.phase]} (turn {state.turn}), not {what}; "
        f"use 'companion {command[state.phase]}'"
    )


def _turn_report(
    before: State, result: TurnResult, blocks: Mapping[Colour, Block], source: str
) -> list[str]:
    lines = [f"Turn {result.turn} resolved."]
    for colour in before.active_colours:
        block = blocks.get(colour)
        where = f" ({source}, {block.span})" if block is not None else " (no orders)"
        lines += ["", f"{colour.title}{where}"]
        ordered = set()
        for outcome in result.outcomes_of(colour):
            lines.append(_wrap(outcome.explain()))
            if outcome.unit is not None:
                ordered.add(outcome.unit)
        idle = [u.sector for u in before.units_of(colour) if u.id not in ordered]
        if idle:
            lines.append(
                _wrap(f"no order for the unit{'s' * (len(idle) > 1)} in {', '.join(idle)}: held")
            )
    if result.combats:
        lines += ["", "Combats:"]
        lines += [_wrap(combat.describe()) for combat in result.combats]
    if result.claims_changed:
        lines += ["", "Claims changed:"]
        for change in result.claims_changed:
            was = "unclaimed" if change.before is None else change.before.title
            lines.append(f"  {change.sector}: {change.after.title} (was {was})")
    if result.retreats:
        lines += ["", "Retreats owed:"]
        lines += [_wrap(_retreat_owed(owed)) for owed in result.retreats]
    if result.aftermath:
        lines += ["", "Aftermath:"]
        lines += [_wrap(note) for note in result.aftermath]
    return lines


# retreat -----------------------------------------------------------------------------------

_RETREAT = re.compile(r"(\S+)(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(.*))?")


def parse_retreats(text: str, state: State, source: str) -> dict[UnitId, SectorId]:
    """``RETREAT FROM TO`` lines as choices per unit id; CommandError names a bad line."""
    owed = {r.sector: r for r in state.retreats}
    choices: dict[UnitId, SectorId] = {}
    chosen_at: dict[UnitId, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        where = f"{source}, line {number}"
        match = _RETREAT.fullmatch(content)
        assert match is not None
        keyword, origin, target, extra = match.groups()
        if keyword.upper() != "RETREAT" or target is None or extra:
            raise CommandError(
                f"{where}: expected 'RETREAT FROM TO' (the sector the unit retreats from, "
                f"then the sector it goes to), found {content!r}"
            )
        sector = state.galaxy.resolve(origin)
        retreat = owed.get(sector) if sector is not None else None
        if retreat is None:
            owing = ", ".join(f"{r.sector} ({r.describe()})" for r in state.retreats)
            raise CommandError(
                f"{where}: no unit owes a retreat from {origin}; retreats are owed from {owing}"
            )
        if retreat.unit in chosen_at:
            raise CommandError(
                f"{where}: a second retreat for the unit from {retreat.sector} (the first is "
                f"on line {chosen_at[retreat.unit]})"
            )
        try:
            choices[retreat.unit] = check_retreat(state, retreat.unit, target)
        except CompanionError as err:
            raise CommandError(f"{where}: {err}") from None
        chosen_at[retreat.unit] = number
    return choices


def _cmd_retreat(args: argparse.Namespace) -> int:
    path: Path = args.game
    data = _cosmic_record(path)
    if data is not None:
        if args.defaults and args.choices != "-":
            raise CommandError("give either CHOICES.txt or --defaults, not both")
        source = None if args.defaults else args.choices
        return _cosmic_step(path, data, source, "retreat orders", cosmic.retreat)
    _, game = _load(path)
    state = game.state
    _expect(state, Phase.RETREATS, "retreats")
    if args.defaults:
        if args.choices != "-":
            raise CommandError("give either CHOICES.txt or --defaults, not both")
        choices: dict[UnitId, SectorId] = {}
    else:
        text, source = _read_input(args.choices, "retreat choices")
        choices = parse_retreats(text, state, source)
    notes = game.retreat(choices)
    _write_record(path, game)
    defaulted = [r for r in state.retreats if r.unit not in choices and r.options]
    lines = [f"Retreats after turn {state.turn}:"]
    lines += [_wrap(note) for note in notes]
    if defaulted:
        lines.append(
            _wrap(
                "took the default (lowest sector, R5.3) for "
                + ", ".join(r.describe() for r in defaulted)
            )
        )
    _out(*lines, "", *_waiting(game.state), "", _recorded(path, game))
    return EXIT_OK


# build -------------------------------------------------------------------------------------


def _cmd_build(args: argparse.Namespace) -> int:
    path: Path = args.game
    data = _cosmic_record(path)
    if data is not None:
        return _cosmic_step(path, data, args.plans, "adjustment orders", cosmic.build)
    _, game = _load(path)
    state = game.state
    if args.statement:
        if args.plans != "-":
            raise CommandError("--statement reads no plans; leave out PLANS.txt")
        if state.phase is not Phase.BUILD:
            _out(
                f"(The game is waiting for {state.phase.value}; these are the figures a build "
                "phase would use now.)",
                "",
            )
        for index, colour in enumerate(state.active_colours):
            _out(*([""] if index else []), *income_statement(state, colour).lines())
        return EXIT_OK
    _expect(state, Phase.BUILD, "build plans")
    text, source = _read_input(args.plans, "build plans")
    blocks = parse_blocks(text, state, keywords=PLAN_KEYWORDS, what="build plan", source=source)
    plans: dict[Colour, BuildPlan] = {}
    problems: list[str] = []
    for colour, block in blocks.items():
        try:
            plan = BuildPlan.parse(block.text())
        except OrderSyntaxError as err:
            moved = err.at_line(block.header + err.line)
            problems.append(f"{colour.title}: {source}, {moved}")
            continue
        plans[colour] = plan
        problems += [f"{colour.title}: {reason}" for reason in check_plan(state, colour, plan)]
    if problems:
        count = len(problems)
        raise CommandError(
            f"the build plans break the rules ({count} problem{'s' * (count > 1)}); "
            "nothing was built:",
            *problems,
        )
    notes = game.build(plans)
    _write_record(path, game)
    lines = [f"Build phase after turn {state.turn}:"]
    for colour in state.active_colours:
        net = income_statement(state, colour).net
        mine = [n.removeprefix(f"{colour.title} ") for n in notes if n.startswith(colour.title)]
        lines.append(_wrap(f"{colour.title} (net {net}): {'; '.join(mine) or 'built nothing'}"))
    _out(*lines, "", *_waiting(game.state), "", _recorded(path, game))
    return EXIT_OK


# table -------------------------------------------------------------------------------------

SECONDS_PER_DAY = 24 * 3600


def _db_path(args: argparse.Namespace) -> Path:
    """``--db``, else ``$COMPANION_DB``, else ``./var/companion.db``."""
    given: Path | None = getattr(args, "db", None)
    return given if given is not None else default_path()


@contextlib.contextmanager
def _tables(path: Path, *, writer: bool) -> Iterator[TableService]:
    """The table service on the database at ``path``, closed afterwards.

    A ``writer`` holds the database's writer lock (so it is refused while a server runs on
    it) and creates the database if missing. A reader opens it read-only: it writes nothing,
    not even a passed deadline, so any number of readers may run beside the server without
    changing what it serves (docs/architecture.md, "Readers"). Neither starts a timer thread.
    """
    if writer:
        with writer_lock(path), _open_tables(path, read_only=False) as service:
            yield service
    else:
        with _open_tables(path, read_only=True) as service:
            yield service


@contextlib.contextmanager
def _open_tables(path: Path, *, read_only: bool) -> Iterator[TableService]:
    try:
        storage = Storage(path, read_only=read_only)
    except OSError as err:
        raise CommandError(f"{path}: cannot open the database: {err.strerror or err}") from None
    try:
        # A one-shot command records an outage only on the table it touches (recover=False).
        service = TableService(storage, clock=SystemClock(), recover=False)
    except StorageError:
        storage.close()
        raise
    except CompanionError as err:
        storage.close()
        raise CommandError(f"{path}: a table in it cannot be read: {err}") from None
    except (sqlite3.Error, OSError, LookupError, TypeError, ValueError) as err:
        storage.close()
        raise CommandError(f"{path}: damaged; a table in it cannot be read ({err})") from None
    try:
        yield service
    except sqlite3.Error as err:
        raise CommandError(f"{path}: cannot use the database: {err}") from None
    finally:
        service.close()


def _require_table(service: TableService, table_id: str, path: Path) -> None:
    if table_id not in service.table_ids():
        hint = "'companion table list' shows them" if service.table_ids() else "it has none"
        raise CommandError(f"there is no table {table_id!r} in {path}; {hint}")


def _table_name(text: str, what: str) -> str:
    """A table name as the service keeps it (runs of spaces made one), or CommandError."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise CommandError(f"{what} is empty; give the table a name")
    if len(cleaned) > MAX_NAME:
        raise CommandError(f"{what} is {len(cleaned)} characters long; at most {MAX_NAME}")
    if not cleaned.isprintable():
        raise CommandError(f"{what} {cleaned!r} has characters that cannot be printed")
    return cleaned


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    """The house-rule options of ``new`` and ``table create`` (R3.4, R4.6, R7.3)."""
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


def _rules_from(args: argparse.Namespace, **clocks: int) -> HouseRules:
    """The house rules the options of :func:`_add_rule_options` ask for."""
    return HouseRules(
        support_range=SupportRange(args.support_range),
        advance_claims_empty=not args.no_advance_claims,
        turn_limit=args.turn_limit,
        **clocks,
    )


def _table_rules(args: argparse.Namespace) -> HouseRules:
    """``table create``'s house rules: the shared options plus the phase clocks (R8.1)."""
    if args.turn_limit is not None and args.turn_limit < 1:
        raise CommandError(f"--turn-limit must be at least 1, not {args.turn_limit}")
    clocks: dict[str, int] = {}
    for flag, _ in _TIMED_PHASES:
        seconds: int | None = getattr(args, _rule_name(flag))
        if seconds is None:
            continue
        if not 1 <= seconds <= SECONDS_PER_DAY:
            raise CommandError(
                f"--{flag}-seconds must be 1 to {SECONDS_PER_DAY} (a day), not {seconds}"
            )
        clocks[_rule_name(flag)] = seconds
    return _rules_from(args, **clocks)


def _clock(seconds: float | None) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` from an hour), rounded up like a countdown; ``-``."""
    if seconds is None:
        return "-"
    hours, rest = divmod(math.ceil(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _rules_lines(rules: HouseRules) -> list[str]:
    reach = "adjacent sectors" if rules.support_range is SupportRange.ADJACENT else "anywhere"
    claims = "claims" if rules.advance_claims_empty else "does not claim"
    limit = "no turn limit" if rules.turn_limit is None else f"ends after turn {rules.turn_limit}"
    return [
        _wrap(
            f"House rules  SUPPORT reaches {reach}; an uncontested ADVANCE into an empty sector "
            f"{claims} it; {limit}",
            hanging=13,
        ),
        f"  Clocks       discussion {_clock(rules.discussion_seconds)}, orders "
        f"{_clock(rules.command_seconds)}, retreats {_clock(rules.retreat_seconds)}, build "
        f"{_clock(rules.build_seconds)}",
    ]


def _secret_lines(secret: str) -> list[str]:
    return [
        f"  Host secret  {secret}",
        _wrap(
            "Keep it: it opens the host controls (pause, extend, skip, corrections, undo). "
            "Only a hash of it is stored, so it cannot be shown again.",
            indent=15,
            hanging=0,
        ),
    ]


def _cmd_table_create(args: argparse.Namespace) -> int:
    players: int = args.players
    if args.kind == "cosmic-cluster":
        return _cmd_table_create_cosmic(args)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CommandError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
    name = _table_name(args.name, "the table name")
    rules = _table_rules(args)
    seed: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
    path = _db_path(args)
    with _tables(path, writer=True) as service:
        table_id, secret = service.create_table(name, players, seed=seed, options=rules.to_dict())
        view = service.view(table_id)
        order = service.table(table_id).setup.choosing_order()
    sectors = len(view["setup"]["galaxy"]["sectors"])
    _out(
        f'Created table "{name}" in {path}.',
        "",
        f"  Table id     {table_id}",
        *_secret_lines(secret),
        f"  Seats        {players}, all free",
        f"  Galaxy       {sectors} sectors, seed {seed}",
        *_rules_lines(rules),
        "",
        _wrap(
            "Next: the players join, one to a seat. Then each seat chooses a colour and a home "
            f"sector, seat {order[0]} first and seat {order[-1]} last (R2.2); the game starts "
            "when the last seat has chosen. They join on their phones from the table screen of "
            "'companion serve' (a QR code for each free seat).",
            indent=0,
            hanging=0,
        ),
    )
    return EXIT_OK


def _cmd_table_create_cosmic(args: argparse.Namespace) -> int:
    name = _table_name(args.name, "the table name")
    rules = _table_rules(args)
    seed: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
    path = _db_path(args)
    with _tables(path, writer=True) as service:
        table_id, secret = service.create_table(
            name, args.players, seed=seed, options=_timers(rules), game="cosmic-cluster"
        )
    _out(
        f'Created Cosmic Cluster table "{name}" in {path}.',
        "",
        f"  Table id     {table_id}",
        *_secret_lines(secret),
        f"  Seats        {args.players}, all free",
        f"  Cluster      16 systems, seed {seed}",
        *_rules_lines(rules),
        "",
        _wrap(
            "Next: the players join, one to a seat; each seat then confirms the home system the "
            "cluster's set-up gave it, and the game starts when the last seat has confirmed.",
            indent=0,
            hanging=0,
        ),
    )
    return EXIT_OK


def _timers(rules: HouseRules) -> dict[str, int]:
    return {k: v for k, v in rules.to_dict().items() if k.endswith("_seconds")}


def _cmd_table_list(args: argparse.Namespace) -> int:
    path = _db_path(args)
    if not path.exists():  # a look needs no database: do not create one
        _out(f"No tables: {path} does not exist yet ('companion table create NAME' makes it).")
        return EXIT_OK
    with _tables(path, writer=False) as service:
        views = [service.view(table_id) for table_id in service.table_ids()]
    if not views:
        _out(f"No tables in {path} yet ('companion table create NAME' makes one).")
        return EXIT_OK
    rows = [("ID", "NAME", "STAGE", "TURN", "SEATS", "PAUSED", "REMAINING")]
    for view in views:
        stage = Stage.from_dict(view["stage_info"])
        seats = view["seats"]
        joined = sum(1 for seat in seats if seat["joined"])
        rows.append(
            (
                view["id"],
                view["name"],
                stage.title,
                "-" if stage == Stage.LOBBY else str(view["turn"]),
                f"{joined}/{len(seats)}",
                "yes" if view["paused"] else "no",
                _clock(view["remaining"]),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    count = len(views)
    _out(f"{count} table{'s' * (count != 1)} in {path}:", "")
    for row in rows:
        cells = [
            cell.rjust(width) if column == 3 else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        _out("  ".join(cells).rstrip())
    return EXIT_OK


def _cmd_table_export(args: argparse.Namespace) -> int:
    table_id: str = args.table_id
    target: str = args.out
    out = Path(target)
    if target != "-":
        if out.is_dir():
            raise CommandError(f"{out} is a folder; give the record a file name")
        if out.exists() and not args.force:
            raise CommandError(f"{out} already exists; use --force to replace it")
    path = _db_path(args)
    if not path.exists():
        raise CommandError(f"there is no table {table_id!r}: {path} does not exist yet")
    with _tables(path, writer=False) as service:
        _require_table(service, table_id, path)
        view = service.view(table_id)
        if view["stage"] == Stage.LOBBY.value:
            seats = view["seats"]
            joined = sum(1 for seat in seats if seat["joined"])
            chosen = sum(1 for seat in seats if seat["choice"] is not None)
            what = "chose a colour and home"
            if service.table(table_id).setup.game == "cosmic-cluster":
                what = "confirmed their home system"
            raise CommandError(
                f"table {table_id} ({view['name']}) has not started, so it has no game record yet",
                f"{joined} of {len(seats)} seats joined, {chosen} {what}; the "
                "game starts when every seat has chosen.",
            )
        text = service.export(table_id)
    if target == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return EXIT_OK
    _write_atomic(out, text)
    stage = Stage.from_dict(view["stage_info"])
    _out(
        _wrap(
            f"Game record of table {table_id} ({view['name']}, turn {view['turn']}, "
            f"{stage.title.lower()}) written to {out} (check it with: companion replay {out}).",
            indent=0,
        )
    )
    return EXIT_OK


def _cmd_table_import(args: argparse.Namespace) -> int:
    source: Path = args.record
    data = _read_bytes(source, MAX_RECORD_BYTES, "a game record")
    if cosmic.is_cosmic_record(data):
        return _cmd_table_import_cosmic(args, source, data)
    try:  # check everything before the database is touched: a bad record writes nothing
        record = GameRecord.from_json(data)
        game = record.replay()
    except CompanionError as err:
        raise CommandError(f"{source}: {err}") from None
    if args.name is not None:
        name = _table_name(args.name, "--name")
    else:
        name = " ".join(source.stem.split())[:MAX_NAME].strip()
        name = name if name and name.isprintable() else "imported game"
    path = _db_path(args)
    with _tables(path, writer=True) as service:
        table_id, secret = service.import_record(data, name)
        if service.view(table_id)["stage"] != Stage.OVER.value:
            # Nobody can have joined yet: hold its clock until the host resumes it.
            service.pause(table_id)
        view = service.view(table_id)
    state = game.state
    stage = Stage.from_dict(view["stage_info"])
    empires = ", ".join(f"{e.colour.title} in seat {e.seat}" for e in state.empires)
    if stage == Stage.OVER:
        where = f"The game is over (after turn {state.turn}); the table shows its end."
    else:
        where = (
            f"The game carries on at turn {state.turn}, {stage.title.lower()} phase, paused "
            f"with {_clock(view['remaining'])} on the clock: the players join their seats, "
            'then the host starts it ("Start the game" on the host page).'
        )
    _out(
        f'Imported {source} as table "{name}" in {path}.',
        "",
        f"  Table id     {table_id}",
        *_secret_lines(secret),
        f"  Seats        {len(state.empires)}, all free: {empires}",
        f"  Steps        {len(record.steps)} replayed and checked",
        *_rules_lines(record.rules),
        "",
        _wrap(where, indent=0, hanging=0),
    )
    return EXIT_OK


def _cmd_table_import_cosmic(args: argparse.Namespace, source: Path, data: bytes) -> int:
    try:  # check everything before the database is touched
        lines = cosmic.replay(data)
    except CompanionError as err:
        raise CommandError(f"{source}: {err}") from None
    name = _table_name(args.name, "--name") if args.name is not None else "imported game"
    path = _db_path(args)
    with _tables(path, writer=True) as service:
        table_id, secret = service.import_record(data, name)
        if service.view(table_id)["stage"] != Stage.OVER.value:
            service.pause(table_id)
    _out(
        f'Imported {source} as Cosmic Cluster table "{name}" in {path}.',
        "",
        f"  Table id     {table_id}",
        *_secret_lines(secret),
        "",
        *lines,
    )
    return EXIT_OK


# demo --------------------------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    if args.turns < 1:
        raise CommandError(f"--turns must be at least 1, not {args.turns}")
    if args.delay < 0:
        raise CommandError(f"--delay must be 0 or more seconds, not {args.delay}")
    record_path: Path | None = args.record
    if record_path is not None and record_path.exists() and not args.force:
        raise CommandError(f"{record_path} already exists; use --force to replace it")
    rules = HouseRules(turn_limit=args.turns)
    seed: int = args.seed if args.seed is not None else _fitting_seed(args.players, rules)
    game = Game(_setup(seed, args.players, rules), seed=seed)
    Demo(game, random.Random(seed), delay=args.delay).run()
    if record_path is not None:
        _write_record(record_path, game)
        _out(
            "",
            _wrap(
                f"Game record written to {record_path} (check it with: companion replay "
                f"{record_path}).",
                indent=0,
            ),
        )
    return EXIT_OK


def _fitting_seed(players: int, rules: HouseRules) -> int:
    """A random seed whose map fits the terminal, when one turns up within a few tries."""
    width = _columns()
    seed = secrets.randbelow(10**6)
    for _ in range(20):
        if 2 <= players <= 8:
            lines = render(_setup(seed, players, rules)).splitlines()
            if max(map(len, lines)) <= width:
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
            _legend(),
            "",
            "Who is where:",
            *_who_is_where(state),
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
        self.say("", heading + "=" * (_width() - len(heading)), "Orders:")
        for colour, text in orders.items():
            self.say(_wrap(f"{colour.title:<7} {_compact(text)}", indent=2, hanging=8))
        notable = self.notable(result)
        self.say("What happened:", *(notable or ["  every order went as written"]))

    def notable(self, result: TurnResult) -> list[str]:
        lines = [_wrap("combat " + combat.describe(), hanging=7) for combat in result.combats]
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
                    _wrap(f"{tag:<6} {outcome.empire.title} {outcome.explain()}", hanging=7)
                )
        for sector in sorted(bounced, key=sector_sort_key):
            group = bounced[sector]
            if len(group) == 1:
                text = f"{group[0].empire.title} {group[0].explain()}"
            else:
                who = _listing(f"{o.empire.title} from {o.order.sector}" for o in group if o.order)
                stayed = "both stayed put" if len(group) == 2 else "all stayed put"
                text = f"{sector}: {who} went for it at once; {stayed}"
            lines.append(_wrap("bounce " + text, hanging=7))
        if result.claims_changed:
            claims = [
                f"{c.sector} {c.after.title}"
                + ("" if c.before is None else f" (from {c.before.title})")
                for c in result.claims_changed
            ]
            lines.append(_wrap("claims " + ", ".join(claims), hanging=7))
        lines += [_wrap(note, hanging=4) for note in result.aftermath]
        return lines

    def retreats(self) -> None:
        notes = self.game.retreat({})
        self.say("Retreats (each takes its default, R5.3):", *(_wrap(n) for n in notes))

    def build(self, state: State) -> None:
        plans = {c: greedy_plan(state, c, self.rng) for c in state.active_colours}
        notes = self.game.build(plans)
        self.say("", f"-- Build phase after turn {state.turn} --")
        for colour in state.active_colours:
            net = income_statement(state, colour).net
            mine = [n.removeprefix(f"{colour.title} ") for n in notes if n.startswith(colour.title)]
            self.say(
                _wrap(
                    f"{colour.title:<7} net {net:>2}: {'; '.join(mine) or 'built nothing'}",
                    hanging=14,
                )
            )
        self.say("", render(self.game.state), "", scoreboard(self.game.state))

    def finish(self) -> None:
        state = self.game.state
        self.say("", "== Game over " + "=" * (_width() - 13), "", render(state), "")
        self.say("Standings:", scoreboard(state), "", *_final(state))
