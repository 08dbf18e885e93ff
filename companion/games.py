"""Shared by every game: the registry of games, each found by its name and nothing else.

A game registers itself once, as an entry point of the group :data:`GROUP` in its project's
``pyproject.toml`` naming a :class:`Game`::

    [project.entry-points."companion.games"]
    local-cluster = "companion.local_cluster.registration:GAME"

The :class:`Game` holds what the rest of the companion needs: its name and title, its rules
package, its stages, how to set up and restore a table session, and, as import references
(``"package.module:attribute"``) resolved only by the package that uses them, its CLI
commands, its web pages, its camera reader and its printable kit. So ``companion`` imports no
outer package, and no module outside a game's own folders names a game: the service, the web
site, the CLI and the camera ask :func:`get` or :func:`available`.

Tests (and a game not installed as a distribution) call :func:`register` instead
(see docs/architecture.md, "Adding a game"), the way OpenSpiel's ``register_game`` works.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import threading
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.service.session import GameSession, GameSetup, Stage

GROUP = "companion.games"


class UnknownGameError(CompanionError, LookupError):
    """A game name no registration answers to; the message lists the games there are."""


class Play(enum.Enum):
    """How the seats of a game act."""

    SIMULTANEOUS = "simultaneous"
    """Secret orders from every seat at once, resolved together (Local Cluster)."""
    TURNS = "turns"
    """One seat at a time; each move is checked and applied at once."""


@dataclasses.dataclass(frozen=True)
class NewTable:
    """What a host asks for when creating a table; the game turns it into its setup."""

    players: int
    seed: int
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """House rules by name, already parsed (see :attr:`Game.house_rules`)."""
    board: Any = None
    """A board entered or scanned by the host, in the game's own type (or None)."""


@dataclasses.dataclass(frozen=True)
class HouseRule:
    """One house rule a host may set for a new table, described in words for forms."""

    name: str
    """The key in :attr:`NewTable.options` (``"support_range"``)."""
    title: str
    """A short label (``"Support range"``)."""
    default: Any
    explain: str = ""
    """One sentence a host can act on (``"Whether SUPPORT reaches any sector"``)."""
    choices: tuple[tuple[Any, str], ...] = ()
    """For a choice: each value with how to say it; empty for a number or a switch."""
    minimum: int | None = None
    maximum: int | None = None

    def describe(self, value: Any) -> str:
        """The value in words (``"any sector"``, ``"yes"``, ``"4 minutes"``)."""
        for choice, words in self.choices:
            if choice == value:
                return words
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "none"
        return str(value)

    def parse(self, text: Any) -> Any:
        """A value from a form field or a command-line option, or ValueError saying why."""
        if self.choices:
            for choice, words in self.choices:
                if str(text).strip().lower() in (str(choice).lower(), words.lower()):
                    return choice
            allowed = ", ".join(str(choice) for choice, _ in self.choices)
            raise ValueError(f"{self.title}: choose one of {allowed}, not {text!r}")
        if isinstance(self.default, bool):
            if isinstance(text, bool):
                return text
            word = str(text).strip().lower()
            if word in ("1", "yes", "true", "on"):
                return True
            if word in ("0", "no", "false", "off", ""):
                return False
            raise ValueError(f"{self.title}: say yes or no, not {text!r}")
        if isinstance(self.default, int) or self.minimum is not None:
            try:
                number = int(str(text).strip())
            except ValueError:
                raise ValueError(f"{self.title}: must be a whole number, not {text!r}") from None
            if self.minimum is not None and number < self.minimum:
                raise ValueError(f"{self.title}: at least {self.minimum}, not {number}")
            if self.maximum is not None and number > self.maximum:
                raise ValueError(f"{self.title}: at most {self.maximum}, not {number}")
            return number
        return str(text)


@dataclasses.dataclass(frozen=True)
class Game:
    """A game's one registration: everything the companion finds it by."""

    name: str
    """The stored and typed name (``"local-cluster"``): lowercase letters and hyphens."""
    title: str
    """How screens name it (``"Local Cluster"``)."""
    rules: str
    """The rules package (``"companion.local_cluster"``): standard library only, no I/O."""
    play: Play
    players: tuple[int, int]
    """The fewest and most seats."""
    stages: tuple[Stage, ...]
    """The game's own stages (the service adds joining, discussion and game over)."""
    new_setup: Callable[[NewTable], GameSetup]
    """A new table's setup from the host's choices; StateError with the reason if refused."""
    load_setup: Callable[[Mapping[str, Any]], GameSetup]
    """A setup from its ``to_dict()``."""
    load_session: Callable[[Mapping[str, Any], list[Mapping[str, Any]]], GameSession]
    """A running session from its ``snapshot()`` and the steps stored with the table."""
    import_record: Callable[[bytes], GameSetup] | None = None
    """A setup that carries on from a game record (checked and replayed first)."""
    house_rules: tuple[HouseRule, ...] = ()
    summary: str = ""
    """One line for the host's list of games."""
    flagship: bool = False
    """The game a new table plays when nobody names one (one game of the family says so)."""
    cli: str | None = None
    """``"module:attribute"`` of its :class:`companion.commands.GameCommands`."""
    web_pages: str | None = None
    """``"module:attribute"`` of its web pages (``web.games.GamePages``)."""
    camera: str | None = None
    """``"module:attribute"`` of its camera reader (``vision``), if it has one."""
    kit: str | None = None
    """``"module:attribute"`` of its printable kit writer (``vision``), if it has one."""

    def stage(self, value: str) -> Stage:
        """The stage stored as ``value``: the game's own or one of the service's."""
        from companion.service.session import SERVICE_STAGES

        for stage in (*SERVICE_STAGES, *self.stages):
            if stage.value == value:
                return stage
        raise UnknownGameError(f"{self.title} has no stage {value!r}")

    def seats_text(self) -> str:
        low, high = self.players
        if low == high:
            return f"{low} player{'s' * (low != 1)}"
        return f"{low} to {high} players"

    def defaults(self) -> dict[str, Any]:
        return {rule.name: rule.default for rule in self.house_rules}

    def house_rule(self, name: str) -> HouseRule:
        for rule in self.house_rules:
            if rule.name == name:
                return rule
        raise UnknownGameError(f"{self.title} has no house rule {name!r}")


_lock = threading.Lock()
_registered: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game at run time (tests, or a game not installed as a distribution)."""
    with _lock:
        _load_entry_points()
        _registered[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (tests clean up with this)."""
    with _lock:
        _registered.pop(name, None)


def _load_entry_points() -> None:
    global _loaded
    if _loaded:
        return
    for entry in entry_points(group=GROUP):
        game = entry.load()
        if not isinstance(game, Game) or game.name != entry.name:
            raise CompanionError(
                f"the entry point {entry.name} = {entry.value!r} of {GROUP} is not a Game "
                "registered under its own name"
            )
        _registered.setdefault(game.name, game)
    _loaded = True


def available() -> list[Game]:
    """Every registered game, by name."""
    with _lock:
        _load_entry_points()
        return [_registered[name] for name in sorted(_registered)]


def names() -> list[str]:
    return [game.name for game in available()]


def get(name: str) -> Game:
    """The game registered as ``name``, or UnknownGameError listing those there are."""
    with _lock:
        _load_entry_points()
        game = _registered.get(name)
    if game is None:
        known = ", ".join(names()) or "none"
        raise UnknownGameError(f"there is no game {name!r}; the games are: {known}")
    return game


def default() -> Game:
    """The flagship game: what a table plays when nobody names a game."""
    games = available()
    if not games:
        raise UnknownGameError("no game is installed; reinstall the companion (make run)")
    return next((game for game in games if game.flagship), games[0])


def games_with(attribute: str) -> Iterator[Game]:
    """The games that have an outer part (``"camera"``, ``"kit"``, ``"web_pages"``...)."""
    return (game for game in available() if getattr(game, attribute) is not None)


def resolve(reference: str) -> Any:
    """The object an import reference ``"package.module:attribute"`` names.

    Only the package a reference belongs to resolves it (the web site its pages, the camera
    its reader), so ``companion`` never imports an outer package itself.
    """
    module_name, _, attribute = reference.partition(":")
    module = importlib.import_module(module_name)
    found: Any = module
    for part in attribute.split(".") if attribute else ():
        found = getattr(found, part)
    return found


def game_of_record(data: Mapping[str, Any]) -> Game:
    """The game a record (its parsed JSON) belongs to, from its ``game`` field."""
    name = data.get("game")
    if not isinstance(name, str):
        raise UnknownGameError('this record does not say which game it is (no "game" field)')
    return get(name)
