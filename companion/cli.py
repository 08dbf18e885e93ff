"""Shared by every game: the ``companion`` command, a small shell over the games' own commands.

The shell parses the command line, reads game records (at most
:data:`~companion.records.MAX_RECORD_BYTES`), writes them back atomically, and turns every
error a user can cause into ``companion: error: ...`` on stderr and exit status 2, leaving the
record untouched. What a command does with a game is the game's: each registration names a
:class:`~companion.commands.GameCommands` (see :mod:`companion.commands`), found through
:mod:`companion.games` only, so this module never names a game.

- ``companion new GAME.json [--game NAME] [the game's options]``: the game is ``--game`` or
  the family's flagship (:func:`companion.games.default`); ``companion new --help`` lists the
  games, ``companion new --game NAME --help`` shows that game's options.
- ``companion show|replay GAME.json [--turn N]`` and ``companion VERB GAME.json ...`` (a verb
  of the record's game, such as ``adjudicate``): dispatched on the record's ``"game"``.
- ``companion table ...``: the table service's tables (:mod:`companion.cli_table`).
- The games' other commands (a demo), and those of the outer packages (``serve``, ``scan``
  ...): each outer package names a ``register(commands)`` function under the entry-point group
  :data:`PLUGIN_GROUP`, and :func:`main` calls it to add its subparsers. A package whose
  dependencies are missing still shows its command, which then says what is missing.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import __version__, games
from companion.cli_table import add_table_commands
from companion.commands import (
    EXIT_ERROR,
    EXIT_OK,
    CommandError,
    CommandParser,
    GameCommands,
    Subcommands,
    Verb,
    games_help,
    read_bytes,
    write_atomic,
)
from companion.errors import CompanionError, RecordError
from companion.records import MAX_RECORD_BYTES, game_name
from companion.terminal import wrap

__all__ = ["EXIT_ERROR", "EXIT_OK", "PLUGIN_GROUP", "CommandError", "Subcommands", "main"]

PROG = "companion"
PLUGIN_GROUP = "companion.commands"
"""Entry-point group of the commands that the outer packages (web, vision, hardware) add."""

if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """Subcommands that keep the words after the command's name in ``args.words``: a command
    whose options depend on the game (``new``, a verb, ``table create``) parses them again
    once it knows the game."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        namespace.words = list(values or ())[1:]
        super().__call__(parser, namespace, values, option_string)


# Entry point -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``companion`` command with ``argv`` (default: ``sys.argv[1:]``); the exit code."""
    parser = _parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown and not getattr(args, "reparsed", False):
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except SystemExit as exit_:  # argparse has printed usage or help already
        return exit_.code if isinstance(exit_.code, int) else EXIT_ERROR
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


def _out(*lines: str) -> None:
    for line in lines:
        print(line)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


# The parser --------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog=PROG,
        description="Cluster Companion: set up, play and replay the games of the family, one "
        "game record file at a time, and keep the table service's tables.",
        epilog="Each GAME.json is a game record (docs/state-format.md); commands that change "
        "the game write it back in place. 'companion COMMAND --help' says more.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", required=True, action=_Commands
    )
    installed = _installed()

    new = commands.add_parser("new", help="Set up a new game and write its record.", add_help=False)
    new.set_defaults(handler=_cmd_new, reparsed=True)
    for name, text, handler in (
        ("show", "Show the game: the position and what it waits for.", _cmd_show),
        ("replay", "Check a record by replaying every step.", _cmd_replay),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("record", metavar="GAME.json", type=Path)
        sub.add_argument(
            "--turn", type=int, metavar="N", help="the position after turn N (0: the setup)"
        )
        sub.set_defaults(handler=handler)
    for name, offers in _verbs(installed).items():
        games_of = ", ".join(game.title for game, _ in offers)
        verb = commands.add_parser(name, help=f"{offers[0][1].help} ({games_of})", add_help=False)
        verb.set_defaults(handler=functools.partial(_cmd_verb, name), reparsed=True)
    for _, found in installed:
        found.commands(commands)
    add_table_commands(commands)
    for entry in _plugins():
        _add_plugin(commands, entry)
    return parser


def _installed() -> list[tuple[games.Game, GameCommands]]:
    """Every registered game whose commands load, the flagship first."""
    flagship = games.default()
    found = []
    for game in sorted(games.available(), key=lambda game: game is not flagship):
        try:
            found.append((game, game_commands(game)))
        except CommandError:  # said when the game is asked for (companion new --game NAME)
            continue
    return found


def _verbs(
    installed: list[tuple[games.Game, GameCommands]],
) -> dict[str, list[tuple[games.Game, Verb]]]:
    """Each verb name with the games that have it (the flagship first)."""
    verbs: dict[str, list[tuple[games.Game, Verb]]] = {}
    for game, found in installed:
        for verb in found.verbs:
            verbs.setdefault(verb.name, []).append((game, verb))
    return verbs


def game_commands(game: games.Game) -> GameCommands:
    """The game's :class:`GameCommands` (its registration's ``cli``), or CommandError why not."""
    if game.cli is None:
        raise CommandError(f"{game.title} has no commands for the command line")
    try:
        found = games.resolve(game.cli)
    except Exception as err:  # an ImportError mostly: the game's package is broken
        raise CommandError(
            f"{game.title}'s commands did not load ({game.cli}): {type(err).__name__}: {err}",
            "Run `make run` or `pip install -e .` to reinstall the companion.",
        ) from None
    if not isinstance(found, GameCommands):
        raise CommandError(f"{game.cli} ({game.title}'s cli) is not a GameCommands")
    return found


def _game_parser(prog: str, description: str, epilog: str = "") -> argparse.ArgumentParser:
    return CommandParser(
        prog=prog,
        description=description,
        epilog=epilog or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _pre(words: Sequence[str], *arguments: str) -> argparse.Namespace:
    """A first look at a command's words: ``-h`` and the given options or positionals, the
    rest left for the game's own parser."""
    pre = CommandParser(prog=PROG, add_help=False)
    pre.add_argument("-h", "--help", action="store_true")
    for argument in arguments:
        if argument.startswith("-"):
            pre.add_argument(argument)
        else:
            pre.add_argument(argument, nargs="?")
    known, _ = pre.parse_known_args(words)
    return known


# Records -----------------------------------------------------------------------------------


def read_record(path: Path) -> tuple[bytes, games.Game]:
    """A record's bytes and the registered game it names; CommandError says what is wrong."""
    data = read_bytes(path, MAX_RECORD_BYTES, "a game record")
    try:
        return data, games.get(game_name(data))
    except CompanionError as err:
        raise CommandError(f"{path}: {err}") from None


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """A RecordError (the record itself is wrong) is said with the record's path in front."""
    try:
        yield
    except RecordError as err:
        raise CommandError(f"{path}: {err}") from None


# new ---------------------------------------------------------------------------------------


def _cmd_new(args: argparse.Namespace) -> int:
    words: list[str] = args.words
    first = _pre(words, "--game")
    usage = f"usage: {PROG} new GAME.json [--game NAME] [--force] [the game's options]"
    if first.game is None and first.help:
        _out(
            usage,
            "",
            wrap(
                "Set up a new game and write its record to GAME.json (never over a file that "
                "exists, without --force).",
                indent=0,
                hanging=0,
            ),
            "",
            *games_help("new"),
        )
        return EXIT_OK
    game = games.default() if first.game is None else games.get(first.game)
    found = game_commands(game)
    parser = _game_parser(
        f"{PROG} new",
        f"Set up a new game of {game.title} ({game.seats_text()}) and write its record.",
    )
    parser.add_argument("record", metavar="GAME.json", type=Path)
    parser.add_argument(
        "--game",
        choices=games.names(),
        default=game.name,
        help=f"which game (default {games.default().name})",
    )
    parser.add_argument("--force", action="store_true", help="replace GAME.json if it exists")
    found.add_new_arguments(parser)
    parsed = parser.parse_args(words)
    path: Path = parsed.record
    if path.exists() and not parsed.force:
        raise CommandError(f"{path} already exists; use --force to replace it")
    text, lines = found.new(parsed)
    write_atomic(path, text)
    _out(*lines)
    return EXIT_OK


# show, replay ------------------------------------------------------------------------------


def _describe(
    args: argparse.Namespace, describe: Callable[[GameCommands], Callable[..., list[str]]]
) -> int:
    path: Path = args.record
    data, game = read_record(path)
    args.game = game.name
    with _naming(path):
        _out(*describe(game_commands(game))(data, args))
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    return _describe(args, lambda found: found.show)


def _cmd_replay(args: argparse.Namespace) -> int:
    return _describe(args, lambda found: found.replay)


# verbs -------------------------------------------------------------------------------------


def _verb_parser(game: games.Game, verb: Verb) -> argparse.ArgumentParser:
    parser = _game_parser(f"{PROG} {verb.name}", f"{verb.help} ({game.title})", verb.epilog)
    parser.add_argument("record", metavar="GAME.json", type=Path)
    verb.add_arguments(parser)
    return parser


def _cmd_verb(name: str, args: argparse.Namespace) -> int:
    words: list[str] = args.words
    first = _pre(words, "record")
    if first.record is None:
        if first.help:
            _out(*_verb_overview(name))
            return EXIT_OK
        parser = _game_parser(f"{PROG} {name}", "")
        parser.add_argument("record", metavar="GAME.json")
        parser.parse_args([])  # says GAME.json is required, and exits
    path = Path(first.record)
    data, game = read_record(path)
    found = game_commands(game)
    verb = found.verb(name)
    if verb is None:
        own = ", ".join(["show", "replay", *(verb.name for verb in found.verbs)])
        raise CommandError(
            f"{path} is a {game.title} game, which has no '{name}' command; its commands are: {own}"
        )
    parsed = _verb_parser(game, verb).parse_args(words)
    parsed.game = game.name
    with _naming(path):
        result = verb.run(data, parsed)
    if result.record is not None:
        write_atomic(path, result.record)
    _out(*result.lines)
    return result.exit_code


def _verb_overview(name: str) -> list[str]:
    lines = [
        f"usage: {PROG} {name} GAME.json ...",
        "",
        f"What '{name}' does depends on the game GAME.json records:",
    ]
    for game, verb in _verbs(_installed())[name]:
        lines += ["", f"{game.title} ({game.name}):", ""]
        help_text = _verb_parser(game, verb).format_help().rstrip("\n")
        lines += [f"  {line}" if line else "" for line in help_text.splitlines()]
    return lines


# Plugins -----------------------------------------------------------------------------------


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
