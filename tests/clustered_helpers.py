"""Helpers for the Clustered ruling tests: games played move by move, diagrams, K4.11's table."""

from __future__ import annotations

from collections.abc import Iterable

from companion.clustered import Card, Cell, ClusteredGame, Layout, Player, Settings

K411_ORDER = (
    "O-wild -1,0",
    "B-sq-so-2 1,0",
    "O-sq-da-2 1,1",
    "B-wild 0,-1",
    "O-sq-ho-2 2,1",
)
"""K4.11's table, placed legally in turn (Orange first), leaving Blue to play."""

K316_ORDER = ("B-sq-so-2 1,0", "O-ci-da-1 0,1", "B-ci-da-1 0,-1", "O-tr-ho-3 -1,0")
"""K3.16's table, Blue first, leaving Blue to play."""

K720_ORDER = (
    "B-sq-so-1 1,0",
    "O-sq-so-1 -1,0",
    "B-sq-so-2 2,0",
    "O-sq-so-2 -2,0",
    "B-sq-da-1 1,1",
    "O-sq-da-1 -1,1",
    "B-sq-da-2 2,1",
    "O-sq-da-2 -2,1",
    "B-sq-da-3 3,1",
    "O-sq-da-3 4,1",
    "B-wild 4,0",
    "O-sq-so-3 -3,0",
    "B-tr-ho-1 5,0",
    "O-sq-ho-1 -1,-1",
    "B-sq-so-3 3,0",
)
"""K7.20's placements in its order, with attributes chosen so that each is legal."""


def game(
    colours: str = "BO", *, first: int = 1, settings: Settings | None = None, **rules: object
) -> ClusteredGame:
    settings = settings or Settings()
    if rules:
        settings = settings.changed(**rules)
    return ClusteredGame([Player(c) for c in colours], settings=settings, first_seat=first)


def played(moves: Iterable[str], colours: str = "BO", **kwargs: object) -> ClusteredGame:
    """A game with these turns played in order, each by the seat whose turn it is."""
    g = game(colours, **kwargs)  # type: ignore[arg-type]
    for text in moves:
        g.play(text)
    return g


def k411(**rules: object) -> ClusteredGame:
    return played(K411_ORDER, first=2, **rules)


def cards_of(diagram: str) -> Layout:
    return Layout.from_diagram(diagram)


def card(text: str) -> Card:
    return Card.parse(text)


def cell(text: str) -> Cell:
    return Cell.parse(text)
