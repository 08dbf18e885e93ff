"""``companion serve``: the site on uvicorn (web/asgi.py), the table timer and the attachments.

Registered through the ``companion.commands`` entry point. Flask and uvicorn are imported
inside the handler so ``companion --help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import signal
import socket
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from companion.cli import CommandError
from companion.service.storage import default_path

if TYPE_CHECKING:
    from companion.cli import Subcommands
    from companion.games import Game
    from companion.service import TableService

DEFAULT_THREADS = 16
"""Worker threads that answer requests (orders, ready presses, pages, the host's controls).
Live streams take none: they run on the server's event loop (web/asgi.py)."""

DEMO_DEFAULTS: Mapping[str, Any] = {"name": "Demo table", "players": 2}
"""The demo table's own settings; its house rules are the game's short demo (its web pages'
``demo_options``), then any of the game's house rules ``[demo]`` names."""

DEMO_KEYS = ("name", "players", "seed", "game", "turn_clock", "turn_seconds")

_HELP = """\
Serve the table screen, the phones and the host controls on this machine's network.

The config file (TOML) may hold:
  [server]  host, port, threads, database (the table database's path), demo (true: as
            --demo), table (pins the table the attachments serve; without it they follow
            each new table, or the one whose host page claims them); the options win
  [demo]    name, game, players, seed, and the game's house rules (turn_limit,
            command_seconds ...; turn_clock and turn_seconds for a game played in turns):
            the table --demo creates
  [NAME]    one section per attachment (camera, panel ...): enabled = true starts it,
            the rest of the section is its own configuration.
With --demo the installed attachments start unless their section says enabled = false (those
that need a device plugged in, such as the serial panel, only when their section is there),
and one that cannot start is skipped with a warning.
"""


def register(commands: Subcommands) -> None:
    serve = commands.add_parser(
        "serve",
        help="Serve the web site for the table, the phones and the host.",
        description=_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", help="address to listen on (default 0.0.0.0: every network)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8000)")
    serve.add_argument("--db", type=Path, metavar="PATH", help="the table database")
    serve.add_argument("--config", type=Path, metavar="FILE.toml", help="configuration file")
    serve.add_argument(
        "--threads",
        type=int,
        help=f"worker threads for requests; live streams take none (default {DEFAULT_THREADS})",
    )
    serve.add_argument("--demo", action="store_true", help="create a demo table if there is none")
    serve.add_argument(
        "--demo-game",
        metavar="NAME",
        help="the game of the demo table, a registered game's name (default: the family's "
        "flagship, or [demo] game); implies --demo",
    )
    serve.set_defaults(handler=_serve)


def load_config(path: Path | None) -> dict[str, Any]:
    """The TOML config file as a dict; a missing or malformed file is a CommandError."""
    if path is None:
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise CommandError(f"{path}: no such config file") from None
    except OSError as err:
        raise CommandError(f"{path}: cannot read it: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise CommandError(f"{path}: not valid TOML: {err}") from None
    for name, section in data.items():
        if not isinstance(section, dict):
            raise CommandError(f"{path}: {name!r} must be a [section], not a single value")
    return data


SERVER_KEYS = ("host", "port", "threads", "database", "demo", "table")
"""The settings of the config file's ``[server]`` section."""


def _setting(config: Mapping[str, Any], key: str, given: Any, default: Any, kind: type) -> Any:
    if given is not None:
        return given
    value = config.get("server", {}).get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        words = {int: "a whole number", str: "a string"}.get(kind, kind.__name__)
        raise CommandError(f"[server] {key} must be {words}, not {value!r}")
    return value


def check_server_section(config: Mapping[str, Any]) -> None:
    """Refuse an unknown key or a value of the wrong kind in ``[server]``, naming the key."""
    section = config.get("server", {})
    for key in section:
        if key not in SERVER_KEYS:
            raise CommandError(
                f"[server] {key}: unknown setting; the settings are {', '.join(SERVER_KEYS)}"
            )
    for key in ("host", "database", "table"):
        value = section.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise CommandError(f"[server] {key} must be a non-empty string, not {value!r}")
    if "demo" in section and not isinstance(section["demo"], bool):
        raise CommandError(f"[server] demo must be true or false, not {section['demo']!r}")
    demo = config.get("demo", {})
    game = _demo_game(demo.get("game"))
    known = (*DEMO_KEYS, *(rule.name for rule in game.house_rules))
    for key in demo:
        if key not in known:
            raise CommandError(
                f"[demo] {key}: unknown setting; the settings are {', '.join(known)}"
            )


def _demo_game(name: Any) -> Game:
    """The demo table's game (a registered one), or a CommandError listing them."""
    from companion import games

    try:
        return games.default() if name is None else games.get(str(name))
    except games.UnknownGameError as err:
        raise CommandError(f"[demo] game / --demo-game: {err}") from None


def _database(config: Mapping[str, Any], given: Path | None) -> Path:
    """``--db``, else ``[server] database`` (``~`` expanded), else the default path."""
    if given is not None:
        return given
    path = config.get("server", {}).get("database")
    return Path(path).expanduser() if path is not None else default_path()


def _in_range(key: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise CommandError(f"--{key} / [server] {key} must be from {low} to {high}, not {value}")
    return value


@dataclasses.dataclass(frozen=True)
class ServerSettings:
    """What ``serve`` runs with: its options, else the config file's ``[server]``, else defaults."""

    host: str
    port: int
    threads: int
    database: Path
    demo: bool
    table: str | None


def settle_garbage_collector() -> None:
    """Collect once, then leave what the server was built from (Flask, the templates, the games'
    rules, the tables read from disk: some 60,000 objects) out of every later collection.

    Why (issue 11): Python's full collection walks every object it tracks; on this table server
    it took 47-67 ms, during which no order was answered (two in a 25-second benchmark series,
    each the slowest round). Frozen, the full collections that remain walk only what came later
    (about 10 ms)."""
    gc.collect()
    gc.freeze()


def server_settings(config: Mapping[str, Any], args: argparse.Namespace) -> ServerSettings:
    """Check ``[server]`` and combine it with the options; a bad value names its key."""
    check_server_section(config)
    demo = config.get("demo", {})
    given = getattr(args, "demo_game", None)
    game = _demo_game(given if given is not None else demo.get("game"))
    demo_options(demo, game)
    port = _setting(config, "port", args.port, 8000, int)
    threads = _setting(config, "threads", args.threads, DEFAULT_THREADS, int)
    return ServerSettings(
        host=_setting(config, "host", args.host, "0.0.0.0", str),
        port=_in_range("port", port, 0, 65535),
        threads=_in_range("threads", threads, 1, 1000),
        database=_database(config, args.db),
        demo=bool(args.demo or config.get("server", {}).get("demo", False)),
        table=config.get("server", {}).get("table"),
    )


def configure_logging() -> None:
    """What the attachments say (``panel: seat 2 LED blinking ...``) on standard error.

    ``hardware.*`` (the panels), ``vision.*`` (the camera) and ``web.attachments`` (which
    table they serve) log at INFO, everything else at WARNING. Does nothing when the program
    set up logging already.
    """
    import logging

    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        root.addHandler(handler)
        root.setLevel(logging.WARNING)
    for name in ("hardware", "vision", "web.attachments"):
        logging.getLogger(name).setLevel(logging.INFO)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def demo_options(section: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """The house rules of the demo table ``[demo]`` describes: the game's short demo
    (its web pages' ``demo_options``), then ``[demo]``'s; a bad value is a CommandError."""
    from web.errors import PageError
    from web.games import pages_for

    try:
        options = dict(pages_for(game.name).demo_options)
    except PageError:
        options = {}
    for rule in game.house_rules:
        if rule.name in section:
            try:
                options[rule.name] = rule.parse(section[rule.name])
            except ValueError as err:
                raise CommandError(f"[demo]: {err}") from None
    return options


def demo_clock(section: Mapping[str, Any]) -> Any:
    """The demo table's turn clock (``[demo] turn_clock`` and ``turn_seconds``), if any."""
    from companion.errors import CompanionError
    from companion.service.clock import TurnClock

    mode = section.get("turn_clock", "none")
    try:
        return TurnClock(str(mode), int(section.get("turn_seconds", 0)))
    except (CompanionError, TypeError, ValueError) as err:
        raise CommandError(f"[demo]: {err}") from None


def demo_table(
    service: TableService, section: Mapping[str, Any], game: str | None = None
) -> tuple[str, str | None]:
    """The demo table: a new one if the database has none (with its host secret)."""
    from companion.errors import CompanionError
    from companion.games import Play

    existing = service.table_ids()
    if existing:
        return existing[-1], None
    settings = {**DEMO_DEFAULTS, **section}
    info = _demo_game(game if game is not None else settings.get("game"))
    options = demo_options(section, info)
    clock = demo_clock(section) if info.play is Play.TURNS else None
    low, high = info.players
    players = settings["players"] if "players" in section else min(max(2, low), high)
    try:
        return service.create_table(
            str(settings["name"]),
            int(players),
            seed=settings.get("seed"),
            options=options,
            game=info.name,
            turn_clock=clock,
        )
    except (CompanionError, TypeError, ValueError) as err:
        raise CommandError(f"[demo]: {err}") from None


@contextlib.contextmanager
def attachments(
    service: TableService, table_id: str | None, config: Mapping[str, Any], *, demo: bool
) -> Iterator[list[str]]:
    """Start the enabled attachments for ``table_id``; close them all on the way out.

    (They stay on that table: ``serve`` itself uses :class:`web.attachments.AttachmentSet`,
    which follows the table in play.)"""
    from web.attachments import AttachmentSet

    with AttachmentSet(service, config, demo=demo) as running:
        yield running.start(table_id)


def _serve(args: argparse.Namespace) -> int:
    from companion.service import Storage, TableService
    from companion.service.storage import writer_lock
    from web import asgi, create_app, live
    from web.attachments import AttachmentSet

    config = load_config(args.config)
    if args.demo_game is not None:
        args.demo = True  # --demo-game names the demo table's game
    settings = server_settings(config, args)
    host, port, threads, db, demo = (
        settings.host,
        settings.port,
        settings.threads,
        settings.database,
        settings.demo,
    )
    configure_logging()
    with writer_lock(db), TableService(Storage(db)) as service:
        table_id = settings.table
        secret = None
        if demo:
            table_id, secret = demo_table(service, config.get("demo", {}), args.demo_game)
        if table_id is None and service.table_ids():
            table_id = service.table_ids()[-1]
        app = create_app({"SERVICE": service})
        _check_port(host, port)
        site = asgi.Site(app, workers=threads)
        settle_garbage_collector()
        server, sock = asgi.make_server(site, host=host, port=port)
        port = sock.getsockname()[1]  # the one chosen when --port 0
        shown = lan_address() if host in ("0.0.0.0", "") else host
        public = f"http://{shown}:{port}"
        app.config["PUBLIC_URL"] = public
        service.storage.beat(service.clock.now(), url=public)  # for table host-link's links
        service.start_timer()
        try:
            pinned = settings.table is not None
            with AttachmentSet(service, config, demo=demo, pinned=pinned) as attached:
                running = attached.start(table_id)
                attached.follow_new_tables()
                app.extensions["attachments"] = attached

                def stopping(signum: int, frame: FrameType | None) -> None:
                    """SIGTERM or Ctrl+C before uvicorn handles them itself (or when it raises
                    them again on its way out): stop, or go on stopping."""
                    server.stop()

                signal.signal(signal.SIGTERM, stopping)
                signal.signal(signal.SIGINT, stopping)
                link = None
                if secret is not None and table_id is not None and sys.stdout.isatty():
                    link = f"{public}/t/{table_id}/host/link/{service.make_host_link(table_id)}"
                _announce(db, threads, port, public, table_id, link, running, pinned)
                server.run(sockets=[sock])
                print("Stopping.", file=sys.stderr)
        finally:
            live.stop(app)
            site.close()
            sock.close()
    return 0


def _check_port(host: str, port: int) -> None:
    """Refuse a port another program listens on, before the server claims anything."""
    try:
        socket.create_server((host, port)).close()
    except OSError as err:
        raise CommandError(
            f"cannot listen on {host}:{port}: {err.strerror or err}",
            "Is another server running there? Choose another --port.",
        ) from None


def _announce(
    db: Path,
    threads: int,
    port: int,
    public: str,
    table_id: str | None,
    link: str | None,
    running: list[str],
    pinned: bool = False,
) -> None:
    print(f"Cluster Companion serving {db} ({threads} request threads; live screens take none).")
    print(f"  On this machine:   http://localhost:{port}/")
    print(f"  On the network:    {public}/")
    if table_id is not None:
        print(f"  Table screen:      {public}/t/{table_id}")
    if link is not None:
        # A terminal, not a log: a one-time link (it holds no lasting secret).
        print(f"  Host link (opens the host controls once): {link}")
    elif table_id is not None:
        # Never a host link or secret here: this output may be a log (the journal).
        print(f"  Host controls: run 'companion table host-link {table_id} --db {db}' for a link.")
    if running:
        print(f"  Attachments:       {', '.join(running)}")
        if pinned:
            print("  (they serve the table [server] table names: the config file pins it)")
        else:
            print("  (they follow the newest table; a host page can claim them for its table)")
    print("Stop with Ctrl+C.", flush=True)
