"""Each game's own pages: how its board is drawn and what its phones offer.

The site itself (seats, joining, the clock, live updates, host controls) is the same for every
game of the family; a game plugs in a :class:`GamePages` under its name (the table setup's
``game``). Local Cluster's is :mod:`web.games.local_cluster`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from web.errors import PageError


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
