"""Cluster's pages (the peg game): the board as SVG with its deep and shallow holes, the pegs in
their colours with their heights, the last move, the winning group; a move tapped peg first,
then hole.

Everything here reads the service's view (``TableService.view``): the session's ``public()``
gives the board's holes and depths, the pegs, the legal moves of the player to move (by
origin), the last move and the result. No rule is decided here. The shared turn-taking pages
show whose turn it is, the move box, the pending move and the clocks; a hole that is a legal
destination of the selected peg gets ``data-move`` (the move's text), which the phone's move
box takes (``web/static/seat.js``); on the table screen ``web/static/cluster/cluster.js``
enters it for the seat to move, to confirm like a move the camera saw.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from markupsafe import Markup, escape

from web.games import BasePages, BoardCache

SPACING = 60
"""SVG units between neighbouring holes."""
MARGIN = 40
COLOURS = {"red": "#d7263d", "blue": "#2f6fd6"}
KINDS = {"R": ("red", "tall"), "r": ("red", "short"), "B": ("blue", "tall"), "b": ("blue", "short")}


def game_of(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return view.get("game") or {}


def seat_names(view: Mapping[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["name"] or f"Seat {s['seat']}" for s in view["seats"]}


def colour_of_seat(view: Mapping[str, Any], seat: int) -> str | None:
    seats = game_of(view).get("seats") or {}
    for colour, number in seats.items():
        if number == seat:
            return str(colour)
    red_seat = (view.get("setup") or {}).get("red_seat")
    if red_seat is not None:
        return "red" if seat == red_seat else "blue"
    return None


def height(letter: str, deep: bool) -> int:
    return (2 if letter.isupper() else 1) + (0 if deep else 1)


def board_svg(public: Mapping[str, Any]) -> Markup:
    """The board: every hole (deep ones bevelled), every peg with its height, the last move,
    the winning group; each peg and hole carries ``data-hole``, the SVG the legal moves."""
    board = public["board"]
    holes = board["holes"]
    pegs: Mapping[str, str] = public.get("pegs", {})
    top = max(h["y"] for h in holes)
    right = max(h["x"] for h in holes)
    width = float(right * SPACING + 2 * MARGIN + 20)
    height_px = float(top * SPACING + 2 * MARGIN + 20)

    def at(hole: Mapping[str, Any]) -> tuple[float, float]:
        return (
            MARGIN + 20 + hole["x"] * SPACING,
            MARGIN + (top - hole["y"]) * SPACING,
        )

    where = {h["name"]: at(h) for h in holes}
    deep = {h["name"]: h["deep"] for h in holes}
    result = public.get("result") or {}
    group = set(result.get("group") or [])
    last = public.get("last") or {}
    legal = {
        origin: [[d, f"{origin}{'-' if _step(where, origin, d) else '*'}{d}"] for d in dests]
        for origin, dests in (public.get("legal") or {}).items()
    }
    mover = public.get("to_move") or ""
    out = [
        f'<svg class="cluster-board" viewBox="0 0 {width:.0f} {height_px:.0f}" role="img" '
        f'aria-label="The {escape(board["title"])}" data-board="{escape(board["name"])}" '
        f"data-mover=\"{escape(mover)}\" data-legal='{escape(json.dumps(legal))}'>",
        "<defs>"
        '<radialGradient id="bevel" r="0.5"><stop offset="55%" stop-color="#0b0d12"/>'
        '<stop offset="100%" stop-color="#8a93a8"/></radialGradient>'
        "</defs>",
        f'<rect class="wood" x="4" y="4" width="{width - 8:.0f}" height="{height_px - 8:.0f}" '
        'rx="18"/>',
    ]
    rows = sorted({h["name"][0] for h in holes})
    for letter in rows:
        y = next(where[h["name"]][1] for h in holes if h["name"][0] == letter)
        out.append(f'<text class="axis" x="14" y="{y + 5:.0f}">{letter}</text>')
    for number in range(1, max(int(h["name"][1:]) for h in holes) + 1):
        column = MARGIN + 20 + (number - 1) * SPACING
        out.append(f'<text class="axis" x="{column:.0f}" y="{height_px - 12:.0f}">{number}</text>')
    if last.get("origin") in where and last.get("destination") in where:
        (x1, y1), (x2, y2) = where[last["origin"]], where[last["destination"]]
        out.append(
            f'<line class="last-move" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
        )
    for hole in holes:
        name = hole["name"]
        x, y = where[name]
        kind = "deep" if hole["deep"] else "shallow"
        classes = f"hole {kind}"
        if name == last.get("origin"):
            classes += " last-origin"
        radius = 0.31 if hole["deep"] else 0.23
        out.append(
            f'<g class="{classes}" data-hole="{name}" data-depth="{kind}">'
            f"<title>{name}: {kind} hole</title>"
            f'<circle class="pit" cx="{x:.1f}" cy="{y:.1f}" r="{radius * SPACING:.1f}"/>'
            f'<circle class="hit" cx="{x:.1f}" cy="{y:.1f}" r="{0.48 * SPACING:.1f}"/></g>'
        )
    for name, letter in pegs.items():
        if name not in where:
            continue
        x, y = where[name]
        colour, kind = KINDS[letter]
        level = height(letter, deep[name])
        classes = f"peg {colour} {kind} height-{level}"
        if name in group:
            classes += " winning"
        if name == last.get("destination"):
            classes += " last-destination"
        if colour == mover and name in legal:
            classes += " movable"
        radius = 0.29 if kind == "tall" else 0.22
        out.append(
            f'<g class="{classes}" data-hole="{name}" data-colour="{colour}" data-kind="{kind}">'
            f"<title>{name}: {colour} {kind} peg, height {level}</title>"
            f'<circle class="body" cx="{x:.1f}" cy="{y:.1f}" r="{radius * SPACING:.1f}" '
            f'fill="{COLOURS[colour]}"/>'
            f'<text x="{x:.1f}" y="{y + 6:.1f}">{level}</text></g>'
        )
    out.append("</svg>")
    return Markup("".join(out))


def _step(where: Mapping[str, tuple[float, float]], origin: str, destination: str) -> bool:
    (x1, y1), (x2, y2) = where[origin], where[destination]
    return (x1 - x2) ** 2 + (y1 - y2) ** 2 < (1.2 * SPACING) ** 2


def said(view: Mapping[str, Any]) -> str:
    """The last thing that happened, in words."""
    last = view.get("last")
    if not last:
        return ""
    names = seat_names(view)
    who = names.get(last.get("seat", 0), "The host")
    side = f" ({str(last.get('colour', '')).capitalize()})" if last.get("colour") else ""
    kind = last["kind"]
    if kind == "move":
        jumped = last.get("jumped") or []
        how = f", jumping {', '.join(jumped)}" if jumped else ""
        return f"{who}{side} played {last['move']}{how}."
    if kind == "swap":
        return f"{who} swapped: now playing Red's pegs, after Red's first move."
    if kind == "draw_offer":
        return f"{who}{side} offers a draw."
    if kind == "draw":
        return f"{who}{side} accepted the draw."
    if kind == "resign":
        return f"{who}{side} resigned."
    if kind == "timeout":
        return f"{who}{side} ran out of time and loses."
    return ""


def ending(view: Mapping[str, Any]) -> str:
    result = game_of(view).get("result")
    if not result:
        return ""
    if result.get("winner") is None:
        return str(result.get("text", "A draw."))
    names = seat_names(view)
    winner = names.get(result["winner"], f"Seat {result['winner']}")
    colour = str(result.get("winner_colour", "")).capitalize()
    reason = result.get("reason")
    if reason == "goal":
        return f"{winner} ({colour}) wins: every peg connected at height 2!"
    return f"{winner} ({colour}) wins: the other player resigned."


class ClusterPages(BasePages):
    name = "cluster"
    table_template = "cluster/table.html"
    seat_template = "cluster/seat.html"
    stylesheets = ("cluster.css",)
    scripts = ("cluster.js",)
    demo_options = MappingProxyType({"setup": "46", "computer": "seat 2"})

    def __init__(self) -> None:
        self._boards = BoardCache(self._draw)

    def _draw(self, view: Mapping[str, Any]) -> Markup:
        public = game_of(view)
        if not public:
            return Markup(
                '<p class="cluster-waiting">The board appears when both seats have joined.</p>'
            )
        return board_svg(public)

    def _context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        public = game_of(view)

        def seat_colour(seat: Mapping[str, Any]) -> str:
            return COLOURS.get(colour_of_seat(view, seat["seat"]) or "", "#888888")

        def seat_side(seat: Mapping[str, Any]) -> str:
            colour = colour_of_seat(view, seat["seat"])
            computer = str(seat["seat"]) in (public.get("computer") or {})
            words = colour.capitalize() if colour else ""
            return f"{words} · computer" if computer and words else words

        acting = view.get("acting")
        computer_turn = acting is not None and str(acting) in (public.get("computer") or {})
        offer = public.get("draw_offer")
        return {
            "cluster": public,
            "said": said(view),
            "ending": ending(view),
            "seat_colour": seat_colour,
            "seat_side": seat_side,
            "computer_turn": computer_turn,
            "draw_offer_by": seat_names(view).get(offer) if offer else None,
            "move_hint": "tap a peg, then a hole; or type c3-b2 (step), c3*g1 (jump)",
        }

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        context = self._context(view)
        playing = view.get("acting") is not None and not context["computer_turn"]
        board = self._boards(view)
        return {
            **context,
            "board": Markup(
                f'<div class="cluster-wrap" data-tappable="{"table" if playing else "no"}">'
            )
            + board
            + Markup("</div>"),
        }

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        context = self._context(view)
        mine = view.get("acting") is not None and view["acting"] == view["you"]["seat"]
        return {**context, "mine": mine, "phone_board": self._boards(view)}

    def house_rules(self, view: Mapping[str, Any]) -> dict[str, Any]:
        public = game_of(view) or view.get("setup") or {}
        return dict(public.get("house_rules") or {})


PAGES = ClusterPages()
