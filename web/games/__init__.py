"""Each game's own pages: how its board is drawn and what its phones offer.

The site itself (seats, joining, the clock, live updates, host controls) is the same for every
game of the family; a game plugs in a :class:`GamePages` under its name (the table setup's
``game``). Local Cluster's is :mod:`web.games.local_cluster`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from markupsafe import Markup

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
    name: str
    table_template: str
    """Jinja template included in the table screen (the board, the results)."""
    seat_template: str
    """Jinja template included in the seat page (choosing, orders, retreats, build)."""

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]: ...

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]: ...

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        """A seat's setup choice from the choosing form."""
        ...

    def submission_from_form(self, stage: str, form: Mapping[str, Any]) -> str:
        """A submission in the game's notation from a stage's form (retreats, build)."""
        ...


def pages_for(game: str) -> GamePages:
    from web.games import cosmic_cluster, local_cluster

    known: dict[str, GamePages] = {
        local_cluster.PAGES.name: local_cluster.PAGES,
        cosmic_cluster.PAGES.name: cosmic_cluster.PAGES,
    }
    try:
        return known[game]
    except KeyError:
        raise PageError(501, f"this site has no pages for {game!r} tables yet") from None
