"""Each game's own pages: how its board is drawn and what its phones offer.

The site itself (seats, joining, the clock, live updates, host controls, and for a turn-taking
game whose turn it is, the move box, the pending move and the chess clocks) is the same for
every game of the family. A game plugs in a :class:`GamePages`, found only through its
registration: ``Game.web_pages`` is an import reference (``"web.games.<game>:PAGES"``)
that :func:`pages_for` resolves. A game's templates live in ``web/templates/<game>/`` and its
static files in ``web/static/<game>/``; pages from outside the ``web`` package (a test-only
game) name their own ``template_folder`` and ``static_folder`` instead. Subclass
:class:`BasePages` for the defaults.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from jinja2 import BaseLoader, Environment, FileSystemLoader, TemplateNotFound
from markupsafe import Markup

from companion import games
from web.errors import PageError


class BoardCache:
    """Each table's board drawn once per ``view["board_version"]``, for every screen.

    Twenty table screens and eight phones show the same board: the game draws it with
    ``draw(view)`` when the version changes and every page reuses that drawing.
    """

    def __init__(self, draw: Callable[[Mapping[str, Any]], Markup]) -> None:
        self._draw = draw
        self._boards: dict[str, tuple[object, Markup]] = {}

    def __call__(self, view: Mapping[str, Any]) -> Markup:
        version = view.get("board_version")
        cached = self._boards.get(view["id"])
        if version is not None and cached is not None and cached[0] == version:
            return cached[1]
        board = self._draw(view)
        if version is not None:
            self._boards[view["id"]] = (version, board)
        return board


class GamePages(Protocol):
    """What the site needs from a game's web pages.

    Templates are named ``"<game>/<file>"``; they are included in the shared table screen and
    seat page with the context the game's ``table_context`` / ``seat_context`` return on top
    of the shared one (``view``, ``stage_title``, ``remaining``, ``scan`` and, for a
    turn-taking game, ``turn``: see docs/web.md, "Turn-taking games"). A context may replace
    ``stage_title`` and give ``seat_colour(seat) -> CSS colour`` and ``seat_side(seat) ->
    words`` (``"Red"``, ``"X"``) for the shared seat lists, and ``move_hint`` (what a move
    looks like, for the move box of a turn-taking game).
    """

    name: str
    """The registered game's name."""
    table_template: str
    """Included in the table screen (the board, the results)."""
    seat_template: str
    """Included in the seat page (choosing, orders, a board to tap moves on...)."""
    template_folder: str | None
    """Where ``<game>/...`` templates are, when not in ``web/templates/`` (a test-only game)."""
    static_folder: str | None
    """Where the files of :attr:`stylesheets` and :attr:`scripts` are, when not in
    ``web/static/<game>/``."""
    stylesheets: tuple[str, ...]
    """The game's CSS files (in its static folder), linked on its table screen and phones."""
    scripts: tuple[str, ...]
    """The game's scripts (in its static folder), loaded once per page after the site's own.
    The page's panel is replaced on every live update: listen for the ``panel`` event."""
    correction_help: tuple[str, ...]
    """The host's corrections, one example line each (the first is the form's placeholder);
    empty: the game takes no corrections (its host may still undo)."""
    demo_options: Mapping[str, Any]
    """House rules for ``companion serve --demo`` (a short game), under ``[demo]``'s."""
    table_turns: bool
    """A turn-taking game whose table screen may build and play the acting seat's turn
    (``/t/<id>/turn/preview`` and ``/t/<id>/turn/move``): like the panels' buttons, the table
    screen is trusted to act for the seat whose turn it is."""

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]: ...

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]: ...

    def house_rules(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The table's house rules by name (``Game.house_rules``), for the host page."""
        ...

    def describe_submission(self, view: Mapping[str, Any], text: str) -> list[str]:
        """A stored submission (``text``, canonical) in words, one line each, for the phone
        that sent it (``view`` is that seat's view, in the stage it was sent in)."""
        ...

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        """A seat's setup choice from the choosing form."""
        ...

    def submission_from_form(self, stage: str, form: Mapping[str, Any]) -> str:
        """A submission in the game's notation from a stage's form (retreats, build)."""
        ...


class BasePages:
    """Defaults for a :class:`GamePages`: a game overrides what it has."""

    name = ""
    table_template = ""
    seat_template = ""
    template_folder: str | None = None
    static_folder: str | None = None
    stylesheets: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    correction_help: tuple[str, ...] = ()
    demo_options: Mapping[str, Any] = MappingProxyType({})
    table_turns = False

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def house_rules(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def describe_submission(self, view: Mapping[str, Any], text: str) -> list[str]:
        lines = [line for line in text.splitlines() if line.strip()]
        return lines or ["nothing (an empty submission)"]

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        raise PageError(409, "There is nothing to choose before this game starts.")

    def submission_from_form(self, stage: str, form: Mapping[str, Any]) -> str:
        raise PageError(409, f"There is no form to send in the {stage} phase.")


_pages: dict[str, GamePages] = {}
_pages_lock = threading.Lock()


def pages_for(game: str) -> GamePages:
    """The web pages of the game registered as ``game`` (its registration's ``web_pages``)."""
    try:
        info = games.get(game)
    except games.UnknownGameError as err:
        raise PageError(501, f"this site cannot show {game!r} tables: {err}") from None
    if info.web_pages is None:
        raise PageError(501, f"this site has no pages for {info.title} tables yet")
    with _pages_lock:
        cached = _pages.get(info.web_pages)
        if cached is None:
            cached = games.resolve(info.web_pages)
            if getattr(cached, "name", None) != info.name:
                raise PageError(
                    500,
                    f"{info.web_pages} are the pages of {getattr(cached, 'name', '?')!r}, "
                    f"not of {info.name!r}",
                )
            _pages[info.web_pages] = cached
        return cached


def static_url(pages: GamePages, filename: str) -> tuple[str, dict[str, str]]:
    """The endpoint and values of one of a game's static files, for ``url_for``."""
    if pages.static_folder is None:
        return "static", {"filename": f"{pages.name.replace('-', '_')}/{filename}"}
    return "game_static", {"game": pages.name, "filename": filename}


class GameTemplates(BaseLoader):
    """Jinja loader for the templates of games whose pages name their own ``template_folder``:
    ``"noughts/table.html"`` is ``table.html`` in the noughts pages' folder."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        prefix, _, rest = template.partition("/")
        if not rest:
            raise TemplateNotFound(template)
        for name in dict.fromkeys((prefix, prefix.replace("_", "-"))):
            try:
                pages = pages_for(name)
            except PageError:
                continue
            if pages.template_folder is not None:
                return FileSystemLoader(pages.template_folder).get_source(environment, rest)
        raise TemplateNotFound(template)


def static_folder_of(game: str) -> Path:
    """A game's own static folder (the one its pages name), or PageError 404."""
    pages = pages_for(game)
    if pages.static_folder is None:
        raise PageError(404, "There is no such page here. Check the link you opened.")
    return Path(pages.static_folder)
