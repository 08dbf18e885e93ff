"""Web pages for the test-only noughts and crosses (tests/noughts.py): the worked example of
a game's pages from outside the ``web`` package, with its own template and static folders.

The site's shared parts show whose turn it is, the move box, the pending move and the clocks;
these pages only draw the board (each empty cell a button with ``data-move``, so a tap on the
phone fills the move box) and say how the game ended.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import noughts
from markupsafe import Markup, escape

from companion import games
from web.games import BasePages

HERE = Path(__file__).resolve().parent / "noughts_web"
SIDES = {1: "X", 2: "O"}
COLOURS = {1: "#d7263d", 2: "#2f6fd6"}


def seat_side(seat: Mapping[str, Any]) -> str:
    return SIDES.get(seat["seat"], "")


def seat_colour(seat: Mapping[str, Any]) -> str:
    return COLOURS.get(seat["seat"], "#888888")


def rows(view: Mapping[str, Any]) -> list[list[dict[str, str]]]:
    board = (view.get("game") or {}).get("board", {})
    return [
        [{"cell": f"{col}{row}", "mark": board.get(f"{col}{row}", "")} for col in "abc"]
        for row in "321"
    ]


def board(view: Mapping[str, Any], *, tappable: bool) -> Markup:
    """The board as a table; on the phone of the seat to move, each empty cell is a button
    whose ``data-move`` the shared move box takes."""
    out = ['<table class="noughts-board" aria-label="The board">']
    for row in rows(view):
        out.append("<tr>")
        for c in row:
            cell, mark = escape(c["cell"]), escape(c["mark"])
            if tappable and not c["mark"]:
                inner = f'<button type="button" class="cell" data-move="{cell}">{cell}</button>'
            else:
                inner = f"{mark}<small>{cell}</small>"
            out.append(f'<td data-cell="{cell}" class="mark-{mark or "none"}">{inner}</td>')
        out.append("</tr>")
    out.append("</table>")
    return Markup("".join(out))


def said(last: Mapping[str, Any] | None, view: Mapping[str, Any]) -> str:
    """The last move in words."""
    if not last:
        return ""
    names = {s["seat"]: s["name"] or f"Seat {s['seat']}" for s in view["seats"]}
    if last["kind"] == "move":
        return f"{names[last['seat']]} ({last['mark']}) took {last['cell']}."
    if last["kind"] == "forfeit":
        return f"{names[last['seat']]} ran out of time and loses."
    return ""


def ending(view: Mapping[str, Any]) -> str:
    result = (view.get("game") or {}).get("result")
    if not result:
        return ""
    if result["draw"]:
        return "A draw: nobody wins."
    winner = next(s for s in view["seats"] if s["seat"] == result["winner"])
    return f"{winner['name'] or 'Seat ' + str(winner['seat'])} ({SIDES[winner['seat']]}) wins!"


class NoughtsPages(BasePages):
    name = noughts.NAME
    table_template = "noughts/table.html"
    seat_template = "noughts/seat.html"
    template_folder = str(HERE / "templates")
    static_folder = str(HERE / "static")
    stylesheets = ("noughts.css",)

    def _context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "said": said(view.get("last"), view),
            "ending": ending(view),
            "seat_side": seat_side,
            "seat_colour": seat_colour,
            "move_hint": "a cell: a-c then 1-3, e.g. b2",
        }

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {**self._context(view), "board": board(view, tappable=False)}

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        mine = view.get("acting") is not None and view["acting"] == view["you"]["seat"]
        return {**self._context(view), "board": board(view, tappable=mine)}


PAGES = NoughtsPages()

GAME_INFO = dataclasses.replace(noughts.GAME_INFO, web_pages="noughts_pages:PAGES")
"""The test game's registration with its pages."""


def register() -> games.Game:
    """Register noughts and crosses with its web pages (``games.unregister`` takes it away)."""
    return games.register(GAME_INFO)
