"""Shared by every game: what a game gives the ``companion`` command, and the files they share.

A game's registration names one :class:`GameCommands` object
(``cli = "companion.<game>.commands:COMMANDS"``); the shell (:mod:`companion.cli`) finds it
through :mod:`companion.games` and never names a game:

- ``companion new GAME.json --game NAME [options]``: the game adds its options
  (:meth:`GameCommands.add_new_arguments`) and makes the record (:meth:`GameCommands.new`);
- ``companion show GAME.json [--turn N]`` and ``companion replay GAME.json [--turn N]``:
  :meth:`GameCommands.show` and :meth:`GameCommands.replay` describe a record;
- ``companion VERB GAME.json ...``: the game's own record commands, its :attr:`~GameCommands.verbs`
  (Local Cluster's ``adjudicate``, ``retreat``, ``build``), chosen by the record's ``"game"``;
  several games may have a verb of the same name;
- :meth:`GameCommands.commands`: commands that take no record (a demo).

Game functions do no I/O. They take the record's bytes and the parsed arguments, and return
the new record's text and the lines to print; the shell reads the record (at most
:data:`companion.records.MAX_RECORD_BYTES`), writes a new one atomically, prints the lines,
and turns a :class:`~companion.errors.CompanionError` (or a :class:`CommandError`) into
``companion: error: ...`` and exit status 2, leaving the record untouched. An input file named
on the command line (orders, ``-`` for standard input) is a :class:`TextInput`, which reads
its text only when the game asks for it, with a size limit.

In the parsed arguments the shell always sets ``args.record`` (the record's :class:`Path`) and
``args.game`` (the game's name); ``show`` and ``replay`` also ``args.turn`` (an int or None).
"""

from __future__ import annotations

import abc
import argparse
import dataclasses
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

from companion import games
from companion.terminal import wrap

EXIT_OK = 0
EXIT_ERROR = 2
"""Exit status of every error a user can cause (the same status argparse uses for bad usage)."""

MAX_INPUT_BYTES = 1024 * 1024
"""Input files (orders, plans, moves) larger than this are refused unread."""

Subcommands: TypeAlias = "argparse._SubParsersAction[Any]"
"""What :meth:`GameCommands.commands` and a plugin's ``register(commands)`` receive:
``commands.add_parser(name, ...)``; each parser sets ``handler`` (``args -> exit status``)."""


class CommandError(Exception):
    """A problem the user can fix; ``lines`` are printed after ``companion: error:``."""

    def __init__(self, *lines: str) -> None:
        self.lines = lines
        super().__init__("\n".join(lines))


class CommandParser(argparse.ArgumentParser):
    """An argument parser that reports bad usage the ``companion`` way (status 2)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"companion: error: {message}\n")


def games_help(command: str) -> list[str]:
    """For a command's help without ``--game``: the games it can make, and how to see one's
    options."""
    flagship = games.default()
    installed = games.available()
    width = max(len(game.name) for game in installed)
    lines = [f"Games (--game NAME; default {flagship.name}):"]
    for game in installed:
        summary = f": {game.summary}" if game.summary else ""
        text = f"{game.name:<{width}}  {game.title}, {game.seats_text()}{summary}"
        lines.append(wrap(text, indent=2, hanging=width + 2))
    return [*lines, "", f"A game's own options: companion {command} --game NAME --help"]


@dataclasses.dataclass(frozen=True)
class VerbResult:
    """What a verb did: the lines to print and, when it changed the game, the new record."""

    lines: Sequence[str] = ()
    record: str | None = None
    """The whole new record's text; the shell writes it atomically before printing."""
    exit_code: int = EXIT_OK


@dataclasses.dataclass(frozen=True)
class Verb:
    """One of a game's record commands: ``companion NAME GAME.json ...``."""

    name: str
    help: str
    """One line for ``companion --help`` and the head of the verb's own help."""
    add_arguments: Callable[[argparse.ArgumentParser], None]
    """Adds the verb's arguments after GAME.json (which the shell adds)."""
    run: Callable[[bytes, argparse.Namespace], VerbResult]
    """Does the verb on the record's bytes; no I/O but reading a :class:`TextInput` argument."""
    epilog: str = ""
    """Longer help after the options (the input file's format), kept as written."""


class GameCommands(abc.ABC):
    """A game's part of the ``companion`` command (see the module's description)."""

    verbs: tuple[Verb, ...] = ()
    """The game's own record commands."""

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the options of ``companion new GAME.json --game NAME`` (players, seed...)."""
        return None  # a game may have none

    @abc.abstractmethod
    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        """A new game's record text and the lines describing it (``args.record`` is where
        the shell will write it; it has checked ``--force`` already)."""

    @abc.abstractmethod
    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        """The game as a player needs to see it: the position, what it waits for
        (``args.turn``: the position after that turn instead, or None)."""

    @abc.abstractmethod
    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        """Replay every step, checking each lands where the record says; what it found."""

    def commands(self, subparsers: Subcommands) -> None:
        """Add commands that take no record (a demo); none by default.

        Each sets ``handler`` (``args -> exit status``). Their names are shared with every
        other command (argparse refuses a second ``demo``): Local Cluster's is ``demo``, so
        another game's would be ``<game>-demo``."""
        return None

    def verb(self, name: str) -> Verb | None:
        """The verb called ``name``, or None."""
        return next((verb for verb in self.verbs if verb.name == name), None)


# Files --------------------------------------------------------------------------------------


def size_words(limit: int) -> str:
    """``1 MiB``, ``64 KiB``."""
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 2**10} KiB"


def read_bytes(path: Path, limit: int, what: str) -> bytes:
    """A file's bytes, refused unread past ``limit``; CommandError says why in words."""
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
        raise CommandError(f"{path}: over {size_words(limit)}; too big for {what}")
    return data


@dataclasses.dataclass(frozen=True)
class TextInput:
    """A text file named on the command line, ``-`` for standard input, read on demand.

    Use it as an argument's type, so that nothing is read until the verb needs the text
    (``retreat --defaults`` reads nothing)::

        parser.add_argument("orders", metavar="ORDERS.txt", nargs="?", default="-",
                            type=TextInput, help="'-' (default): standard input")
    """

    source: str = "-"

    @property
    def name(self) -> str:
        """How messages name it: the path as given, or ``standard input``."""
        return "standard input" if self.source == "-" else self.source

    def read(self, what: str) -> str:
        """The text (UTF-8, a byte-order mark dropped); ``what`` names it in messages."""
        name = self.name
        too_big = f"{name}: over {size_words(MAX_INPUT_BYTES)}; too big for {what}"
        if self.source != "-":
            data = read_bytes(Path(self.source), MAX_INPUT_BYTES, what)
        else:
            if sys.stdin.isatty():
                print(f"Reading {what} from the terminal; end with Ctrl-D.", file=sys.stderr)
            buffer = getattr(sys.stdin, "buffer", None)
            if buffer is None:  # a text stream without bytes underneath (tests, embedding)
                text = sys.stdin.read(MAX_INPUT_BYTES + 1)
                if len(text) > MAX_INPUT_BYTES:
                    raise CommandError(too_big)
                return text
            data = buffer.read(MAX_INPUT_BYTES + 1)
            if len(data) > MAX_INPUT_BYTES:
                raise CommandError(too_big)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            problem = f"{err.reason} at byte {err.start}"
            raise CommandError(f"{name}: not UTF-8 text ({problem})") from None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path``: all of it or, if anything fails, nothing (the old file
    stays). A temporary file in the same folder is synced, then renamed over ``path``."""
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
