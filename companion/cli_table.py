"""Shared by every game: ``companion table create|list|export|import``, the table service's tables.

All tables live in one SQLite database (``--db PATH``, else ``$COMPANION_DB``, else
``./var/companion.db``). ``table create --game NAME`` offers the game's house rules from its
registration (:attr:`companion.games.Game.house_rules`), one option each (``support_range`` is
``--support-range``; a yes-or-no rule is ``--rule`` / ``--no-rule``), so no game's options are
written here; ``import`` checks a record with its game's ``import_record`` before the database
is touched. Nothing here names a game.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import secrets
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from companion import games
from companion.commands import (
    EXIT_OK,
    CommandError,
    CommandParser,
    Subcommands,
    games_help,
    read_bytes,
    write_atomic,
)
from companion.errors import CompanionError
from companion.records import MAX_RECORD_BYTES, game_name
from companion.service.clock import SystemClock
from companion.service.service import MAX_NAME, TableService, hash_secret
from companion.service.session import Stage
from companion.service.storage import (
    DEFAULT_PATH,
    ENVIRONMENT_VARIABLE,
    DatabaseInUse,
    Storage,
    StorageError,
    default_path,
    host_link_state,
    leave_host_link,
    take_back_host_link,
    writer_lock,
)
from companion.terminal import plural, wrap

DEFAULT_PLAYERS = 4
"""Seats of a new table when ``--players`` is not given (within the game's range)."""

_DB_HELP = (
    f"the tables' SQLite database (default: ${ENVIRONMENT_VARIABLE} if set, else "
    f"./{DEFAULT_PATH}); created, with its folder, when a table is first created"
)

_TABLE_HELP = f"""\
A table is one game at the table service: its seats, its stages and their clocks, and the
game itself. Every table lives in one SQLite database: --db PATH (before or after the
command), else ${ENVIRONMENT_VARIABLE}, else ./{DEFAULT_PATH}.

  companion table create NAME [--game NAME] [--players N] [--seed S] [house rules...]
  companion table list
  companion table export TABLE_ID [OUT.json | -] [--force]
  companion table import RECORD.json [--name NAME]
  companion table host-link TABLE_ID"""


def add_table_commands(commands: Subcommands) -> None:
    """``companion table`` and its four commands."""
    table = commands.add_parser(
        "table",
        help="Create, list, export and import the table service's tables.",
        description="Create, list, export and import the tables of the table service, all kept "
        "in one SQLite database.",
        epilog=_TABLE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    table.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    # The same kind of subcommands as the shell's, so that ``create`` gets its words.
    tables = table.add_subparsers(
        title="commands", metavar="COMMAND", required=True, action=type(commands)
    )

    def table_command(
        name: str, handler: Callable[[argparse.Namespace], int], text: str
    ) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = tables.add_parser(name, help=text, description=text)
        sub.set_defaults(handler=handler)
        _db_option(sub)
        return sub

    create = tables.add_parser(
        "create", help="Create a table of a game; seats join it later.", add_help=False
    )
    create.set_defaults(handler=_cmd_create, reparsed=True)

    table_command("list", _cmd_list, "List the tables: stage, turn, seats and clock.")

    export = table_command("export", _cmd_export, "Write a table's game record (JSON).")
    export.add_argument("table_id", metavar="TABLE_ID")
    export.add_argument(
        "out", metavar="OUT.json", nargs="?", default="-", help="'-' (default): standard output"
    )
    export.add_argument("--force", action="store_true", help="replace OUT.json if it exists")

    import_ = table_command(
        "import", _cmd_import, "Start a new table that carries on from a game record."
    )
    import_.add_argument("record", metavar="RECORD.json", type=Path)
    import_.add_argument("--name", help="the table's name (default: the file's name)")
    host_link = table_command(
        "host-link",
        _cmd_host_link,
        "Make a new host link (and host secret) for a table; the old ones stop working.",
    )
    host_link.add_argument("table_id", metavar="TABLE_ID")


def _db_option(parser: argparse.ArgumentParser) -> None:
    # Also after the command; SUPPRESS keeps a --db given before it when this one is not.
    parser.add_argument("--db", type=Path, metavar="PATH", default=argparse.SUPPRESS, help=_DB_HELP)


def _out(*lines: str) -> None:
    for line in lines:
        print(line)


# The database ------------------------------------------------------------------------------


def _db_path(args: argparse.Namespace) -> Path:
    """``--db``, else ``$COMPANION_DB``, else ``./var/companion.db``."""
    given: Path | None = getattr(args, "db", None)
    return given if given is not None else default_path()


@contextlib.contextmanager
def _tables(path: Path, *, writer: bool) -> Iterator[TableService]:
    """The table service on the database at ``path``, closed afterwards.

    A ``writer`` holds the database's writer lock (so it is refused while a server runs on
    it), creates the database if missing, and records an outage only on the table it touches.
    A reader opens it read-only: it writes nothing, not even a passed deadline, so any number
    of readers may run beside the server without changing what it serves (docs/architecture.md,
    "Readers"). Neither starts a timer thread.
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


def _clock(seconds: float | None) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` from an hour), rounded up like a countdown; ``-``."""
    if seconds is None:
        return "-"
    hours, rest = divmod(math.ceil(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _secret_lines(secret: str) -> list[str]:
    return [
        f"  Host secret  {secret}",
        wrap(
            "Keep it: it opens the host controls (pause, extend, skip, corrections, undo). "
            "Only a hash of it is stored, so it cannot be shown again.",
            indent=15,
            hanging=0,
        ),
    ]


def _field(label: str, lines: list[str]) -> list[str]:
    """``  Label        first line`` with the rest aligned under it."""
    return [
        f"  {label:<12} {line}" if index == 0 else f"{'':15}{line}"
        for index, line in enumerate(lines)
    ]


# create ------------------------------------------------------------------------------------


def _flag(rule: games.HouseRule) -> str:
    return "--" + rule.name.replace("_", "-")


def _is_number(rule: games.HouseRule) -> bool:
    whole = isinstance(rule.default, int) and not isinstance(rule.default, bool)
    return not rule.choices and (whole or rule.minimum is not None or rule.maximum is not None)


def _add_house_rule(parser: argparse.ArgumentParser, rule: games.HouseRule) -> None:
    """One option for a house rule: a choice, a number, a yes-or-no switch, or text."""
    default = rule.describe(rule.default)
    text = f"{rule.explain} Default: {default}.".strip().replace("%", "%%")
    if rule.choices:
        parser.add_argument(
            _flag(rule), dest=rule.name, choices=[str(c) for c, _ in rule.choices], help=text
        )
    elif isinstance(rule.default, bool):
        parser.add_argument(
            _flag(rule), dest=rule.name, action=argparse.BooleanOptionalAction, help=text
        )
    else:
        metavar = "N" if _is_number(rule) else "TEXT"
        parser.add_argument(_flag(rule), dest=rule.name, metavar=metavar, help=text)


def _house_rule(rule: games.HouseRule, given: Any) -> Any:
    """The value of a house rule given on the command line, or CommandError naming its flag."""
    flag = _flag(rule)
    if _is_number(rule):
        try:
            number = int(str(given).strip())
        except ValueError:
            raise CommandError(f"{flag} must be a whole number, not {given!r}") from None
        low, high = rule.minimum, rule.maximum
        if (low is not None and number < low) or (high is not None and number > high):
            if low is not None and high is not None:
                bounds = f"{low} to {high}"
            else:
                bounds = f"at least {low}" if low is not None else f"at most {high}"
            raise CommandError(f"{flag} must be {bounds}, not {number}")
        return number
    try:
        return rule.parse(given)
    except ValueError as err:
        raise CommandError(f"{flag}: {err}") from None


def _create_parser(game: games.Game) -> argparse.ArgumentParser:
    low, high = game.players
    players = min(max(DEFAULT_PLAYERS, low), high)
    parser = CommandParser(
        prog="companion table create",
        description=f"Create a table of {game.title} ({game.seats_text()}); seats join it later.",
    )
    parser.add_argument(
        "name", metavar="NAME", help=f"the table's name (up to {MAX_NAME} characters)"
    )
    parser.add_argument(
        "--game",
        choices=games.names(),
        default=game.name,
        help=f"which game the table plays (default {games.default().name})",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=players,
        metavar="N",
        help=f"number of seats, {low}-{high} (default {players})",
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="setup seed (default: random, and printed)"
    )
    _db_option(parser)
    rules = parser.add_argument_group(f"house rules of {game.title}")
    for rule in game.house_rules:
        _add_house_rule(rules, rule)  # type: ignore[arg-type]
    return parser


def _cmd_create(args: argparse.Namespace) -> int:
    words: list[str] = args.words
    first = CommandParser(add_help=False)
    first.add_argument("-h", "--help", action="store_true")
    first.add_argument("--game")
    known, _ = first.parse_known_args(words)
    if known.game is None and known.help:
        _out(
            "usage: companion table create NAME [--game NAME] [--players N] [--seed S] "
            "[--db PATH] [house rules]",
            "",
            "Create a table; seats join it later.",
            "",
            *games_help("table create"),
        )
        return EXIT_OK
    game = games.default() if known.game is None else games.get(known.game)
    parsed = _create_parser(game).parse_args(words, namespace=args)
    low, high = game.players
    if not low <= parsed.players <= high:
        raise CommandError(f"--players must be {low} to {high}, not {parsed.players}")
    name = _table_name(parsed.name, "the table name")
    options = game.defaults()
    for rule in game.house_rules:
        given = getattr(parsed, rule.name)
        if given is not None:
            options[rule.name] = _house_rule(rule, given)
    seed: int = parsed.seed if parsed.seed is not None else secrets.randbelow(10**6)
    path = _db_path(parsed)
    with _tables(path, writer=True) as service:
        table_id, secret = service.create_table(
            name, parsed.players, seed=seed, options=options, game=game.name
        )
        order = service.table(table_id).setup.choosing_order()
    rules = [f"{rule.title}: {rule.describe(options[rule.name])}" for rule in game.house_rules]
    if order:
        then = (
            f"Then each seat makes its setup choice, seat {order[0]} first and seat "
            f"{order[-1]} last; the game starts when the last seat has chosen. "
        )
    else:
        then = "The game starts when the last seat has joined. "
    _out(
        f'Created {game.title} table "{name}" in {path}.',
        "",
        f"  Table id     {table_id}",
        *_secret_lines(secret),
        f"  Seats        {parsed.players}, all free",
        f"  Seed         {seed}",
        *_field("House rules", rules),
        "",
        wrap(
            f"Next: the players join, one to a seat. {then}They join on their phones from the "
            "table screen of 'companion serve' (a QR code for each free seat).",
            indent=0,
            hanging=0,
        ),
    )
    return EXIT_OK


# list --------------------------------------------------------------------------------------


def _cmd_list(args: argparse.Namespace) -> int:
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
    _out(f"{plural(len(views), 'table')} in {path}:", "")
    for row in rows:
        cells = [
            cell.rjust(width) if column == 3 else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        _out("  ".join(cells).rstrip())
    return EXIT_OK


# export ------------------------------------------------------------------------------------


def _cmd_export(args: argparse.Namespace) -> int:
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
            raise CommandError(
                f"table {table_id} ({view['name']}) has not started, so it has no game record yet",
                f"{joined} of {len(seats)} seats joined, {chosen} made their setup choice; the "
                "game starts when every seat has chosen.",
            )
        text = service.export(table_id)
    if target == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return EXIT_OK
    write_atomic(out, text)
    stage = Stage.from_dict(view["stage_info"])
    _out(
        wrap(
            f"Game record of table {table_id} ({view['name']}, turn {view['turn']}, "
            f"{stage.title.lower()}) written to {out} (check it with: companion replay {out}).",
            indent=0,
        )
    )
    return EXIT_OK


# import ------------------------------------------------------------------------------------


def _choice(choice: Mapping[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in choice.items())


def _cmd_import(args: argparse.Namespace) -> int:
    source: Path = args.record
    data = read_bytes(source, MAX_RECORD_BYTES, "a game record")
    try:  # check everything before the database is touched: a bad record writes nothing
        game = games.get(game_name(data))
        if game.import_record is None:
            raise CommandError(f"{source}: a {game.title} table cannot carry on from a record")
        game.import_record(data)
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
        steps = service.table(table_id).require_session().step_count()
    stage = Stage.from_dict(view["stage_info"])
    if stage == Stage.OVER:
        where = f"The game is over (after turn {view['turn']}); the table shows its end."
    else:
        where = (
            f"The game carries on at turn {view['turn']}, {stage.title.lower()} phase, paused "
            f"with {_clock(view['remaining'])} on the clock: the players join their seats, "
            'then the host starts it ("Start the game" on the host page).'
        )
    seats = view["seats"]
    chosen = [f"seat {s['seat']}: {_choice(s['choice'])}" for s in seats if s["choice"]]
    _out(
        f'Imported {source} as {game.title} table "{name}" in {path}.',
        "",
        f"  Table id     {table_id}",
        *_secret_lines(secret),
        *_field("Seats", [f"{len(seats)}, all free", *chosen]),
        f"  Steps        {steps} replayed and checked",
        "",
        wrap(where, indent=0, hanging=0),
    )
    return EXIT_OK


# host-link ---------------------------------------------------------------------------------

HOST_LINK_WAIT = 10.0
"""Seconds to wait for a running server to take a new host link."""


def _cmd_host_link(args: argparse.Namespace) -> int:
    """A new host secret and a one-time host link for a table, for a host who lost theirs.

    With no server running, this command writes them itself. Beside a running server (which
    holds the writer lock) it leaves them in the database for the server, which applies them
    within a second; the log is only ever written by the server."""
    table_id: str = args.table_id
    path = _db_path(args)
    if not path.exists():
        raise CommandError(f"there is no table {table_id!r}: {path} does not exist yet")
    try:
        with _tables(path, writer=True) as service:
            _require_table(service, table_id, path)
            secret = service.new_host_secret(table_id)
            code = service.make_host_link(table_id)
            url = service.storage.server_url()
            name = service.view(table_id)["name"]
    except DatabaseInUse:
        with _tables(path, writer=False) as reader:
            _require_table(reader, table_id, path)
            url = reader.storage.server_url()
            name = reader.view(table_id)["name"]
        secret, code = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        _through_the_server(path, table_id, hash_secret(code), hash_secret(secret))
    base = (url or "http://<the server's address>").rstrip("/")
    _out(
        f"New host link for table {table_id} ({name}): the old host link and host secret no "
        "longer open its host controls, on any device.",
        "",
        f"  Host link    {base}/t/{table_id}/host/link/{code}",
        wrap(
            "Open it on the host's phone or laptop: it opens the host controls there, once, "
            "within a day. It holds no secret that lasts: once used it is void.",
            indent=15,
            hanging=0,
        ),
        f"  Host secret  {secret}",
        wrap(
            f"For another device: type it at {base}/t/{table_id}/host/login. Keep it private; "
            "only a hash of it is stored, so it cannot be shown again.",
            indent=15,
            hanging=0,
        ),
    )
    return EXIT_OK


def _through_the_server(path: Path, table_id: str, code_hash: str, host_hash: str) -> None:
    """Leave the link for the running server and wait until it has applied it."""
    import time

    leave_host_link(path, table_id, code_hash, host_hash, time.time())
    deadline = time.monotonic() + HOST_LINK_WAIT
    while time.monotonic() < deadline:
        state = host_link_state(path, code_hash)
        if state == 1:
            return
        if state == -1:
            raise CommandError(f"the running server refused the new host link for {table_id}")
        time.sleep(0.2)
    if take_back_host_link(path, code_hash):
        raise CommandError(
            f"the server running {path} did not take the new host link within "
            f"{HOST_LINK_WAIT:.0f} s; the old link still works. Is it running this version?"
        )
