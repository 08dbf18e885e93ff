"""Clustered's pages: the layout as SVG with the cards' symbols in their deck colours, the cells
a chosen card may go to, the declaration of no legal move, and at the end the scoring drawn on
the layout (every scoring line, each player's rectangle) with the totals.

Everything here reads the service's views (``TableService.view``); no rule is decided here.
The legal cells come from the rules core through the session's public view (``options``) and
its ``preview``; a tap on a highlighted cell fills the shared move box (``data-move``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from flask import current_app, has_app_context
from markupsafe import Markup, escape

from companion.clustered import bests
from web.games import BasePages, BoardCache

CELL = 60
"""Width of a cell in SVG units."""

INKS = {
    "blue": "#1c58c4",
    "orange": "#ec7814",
    "red": "#ce1e2a",
    "green": "#22923a",
    "yellow": "#d8a800",
    "purple": "#7434a8",
    "teal": "#00868a",
    "magenta": "#c4248c",
    "black": "#1e1e1e",
    "brown": "#784824",
    "pink": "#e86eaa",
    "grey": "#6e6e6e",
    "gray": "#6e6e6e",
}
"""The printed kit's inks by colour name (other names are drawn as CSS names)."""

SYMBOL_X = {1: (30,), 2: (20, 40), 3: (11, 30, 49)}


def ink(name: str) -> str:
    return INKS.get(name, name)


def _palette(view: Mapping[str, Any]) -> list[list[str]]:
    game = view.get("game") or view.get("setup") or {}
    palette: list[list[str]] = game.get("palette") or []
    return palette


def colour_names(view: Mapping[str, Any]) -> dict[str, str]:
    return {code: name for code, name in _palette(view)}


def seat_colour_code(view: Mapping[str, Any], seat: Mapping[str, Any]) -> str | None:
    game = view.get("game") or {}
    for entry in game.get("seats", []):
        if entry["seat"] == seat["seat"]:
            return str(entry["colour"])
    choice = seat.get("choice") or {}
    colour = choice.get("colour")
    return None if colour is None else str(colour)


# Drawing -------------------------------------------------------------------------------------


def _shape(shape: str, cx: float, cy: float, fill: str, colour: str, code: str) -> str:
    paint = {
        "so": f'fill="{colour}" stroke="{colour}" stroke-width="1.2"',
        "ho": f'fill="none" stroke="{colour}" stroke-width="1.8"',
        "da": f'fill="url(#hatch-{code})" stroke="{colour}" stroke-width="1.6"',
    }[fill]
    if shape == "sq":
        return f'<rect x="{cx - 6.5}" y="{cy - 6.5}" width="13" height="13" {paint}/>'
    if shape == "tr":
        return f'<path d="M{cx} {cy - 7.5} L{cx + 8} {cy + 6.5} L{cx - 8} {cy + 6.5} Z" {paint}/>'
    return f'<circle cx="{cx}" cy="{cy}" r="7.2" {paint}/>'


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    import math

    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + math.pi * i / 5
        points.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(points)


def card_svg(card: Mapping[str, Any], x: float, y: float, names: Mapping[str, str]) -> str:
    """One card at SVG position (x, y), its symbols in its deck's colour."""
    label = escape(card["card"])
    body = (
        f'<g class="card" data-cell="{escape(card["cell"])}" data-card="{label}">'
        f"<title>{label} at {escape(card['cell'])}</title>"
    )
    if card["start"]:
        return (
            body + f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="5" '
            'fill="#1a1a1c"/>'
            + f'<polygon points="{_star(x + 30, y + 30, 11, 4.5)}" fill="#f6f5ef"/></g>'
        )
    code = str(card["colour"])
    colour = ink(names.get(code, "grey"))
    out = [
        body,
        f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="5" '
        f'class="paper" stroke="{colour}"/>',
    ]
    if card["wild"]:
        out.append(f'<polygon points="{_star(x + 30, y + 30, 15, 6.5)}" fill="{colour}"/>')
    else:
        for sx in SYMBOL_X[int(card["number"])]:
            out.append(_shape(card["shape"], x + sx, y + 30, card["fill"], colour, code))
    out.append(f'<text x="{x + 6}" y="{y + 13}" class="code" fill="{colour}">{escape(code)}</text>')
    out.append("</g>")
    return "".join(out)


def board_svg(view: Mapping[str, Any], *, slots: Sequence[str] = ()) -> Markup:
    """The layout as it grows, with empty ``slots`` (cells a card may go to) to highlight and,
    when the game is over, every scoring line and each player's rectangle drawn on it."""
    game = view.get("game") or {}
    layout = game.get("layout") or []
    names = colour_names(view)
    cells = [tuple(map(int, c["cell"].split(","))) for c in layout]
    cells += [tuple(map(int, s.split(","))) for s in slots]
    if not cells:
        cells = [(0, 0)]
    x_min = min(c[0] for c in cells) - 1
    x_max = max(c[0] for c in cells) + 1
    y_min = min(c[1] for c in cells) - 1
    y_max = max(c[1] for c in cells) + 1
    width, height = (x_max - x_min + 1) * CELL, (y_max - y_min + 1) * CELL

    def at(x: int, y: int) -> tuple[int, int]:
        return ((x - x_min) * CELL, (y_max - y) * CELL)

    patterns = "".join(
        f'<pattern id="hatch-{escape(code)}" patternUnits="userSpaceOnUse" width="3.4" '
        f'height="3.4" patternTransform="rotate(45)"><rect width="1.3" height="3.4" '
        f'fill="{ink(name)}"/></pattern>'
        for code, name in names.items()
    )
    out = [
        f'<svg class="clustered-board" viewBox="0 0 {width} {height}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="The cards on the table">',
        f"<defs>{patterns}</defs>",
        f'<rect width="{width}" height="{height}" class="felt"/>',
    ]
    for slot in sorted(set(slots)):
        x, y = map(int, slot.split(","))
        px, py = at(x, y)
        out.append(
            f'<rect class="slot" data-cell="{slot}" x="{px + 3}" y="{py + 3}" width="{CELL - 6}" '
            f'height="{CELL - 6}" rx="6"><title>{slot}</title></rect>'
        )
    for card in layout:
        px, py = at(int(card["x"]), int(card["y"]))
        out.append(card_svg(card, px, py, names))
    if game.get("over"):
        out.append(scoring_svg(game, at, names))
    out.append("</svg>")
    return Markup("".join(out))


def scoring_svg(game: Mapping[str, Any], at: Any, names: Mapping[str, str]) -> str:
    """Every scoring line as a band through its cards, each player's rectangle outlined."""
    out = ['<g class="scoring">']
    for player in game["score"]["players"]:
        colour = ink(names.get(player["colour"], "grey"))
        for line in player["lines"]:
            first = [int(v) for v in line["cells"][0].split(",")]
            last = [int(v) for v in line["cells"][-1].split(",")]
            (x1, y1), (x2, y2) = at(*first), at(*last)
            out.append(
                f'<line class="score-line" data-colour="{escape(player["colour"])}" '
                f'x1="{x1 + CELL / 2}" y1="{y1 + CELL / 2}" x2="{x2 + CELL / 2}" '
                f'y2="{y2 + CELL / 2}" stroke="{colour}"/>'
            )
        rect = player["rectangle"]
        if rect:
            x, y = at(rect["x_min"], rect["y_max"])
            out.append(
                f'<rect class="score-rectangle" data-colour="{escape(player["colour"])}" '
                f'x="{x + 1}" y="{y + 1}" width="{rect["width"] * CELL - 2}" '
                f'height="{rect["height"] * CELL - 2}" stroke="{colour}"/>'
            )
    out.append("</g>")
    return "".join(out)


def _draw(view: Mapping[str, Any]) -> Markup:
    return board_svg(view, slots=_slots(view))


BOARD = BoardCache(_draw)


def _slots(view: Mapping[str, Any]) -> list[str]:
    """Every cell where some card of the acting seat may go (the union of its options)."""
    game = view.get("game") or {}
    return sorted({cell for option in game.get("options") or [] for cell in option["cells"]})


# Words ---------------------------------------------------------------------------------------


def seat_name(view: Mapping[str, Any], number: int) -> str:
    names = colour_names(view)
    for seat in view["seats"]:
        if seat["seat"] == number:
            code = seat_colour_code(view, seat)
            colour = names.get(code or "", "").capitalize()
            person = seat["name"] or f"Seat {number}"
            return f"{person} ({colour})" if colour else person
    return f"Seat {number}"


def said(view: Mapping[str, Any]) -> str:
    last = view.get("last")
    if not last:
        return ""
    who = seat_name(view, int(last["seat"])) if "seat" in last else ""
    if last["kind"] == "placement":
        bonus = ""
        if last.get("earned"):
            words = {
                "first-rectangle": "the first 2x3 rectangle",
                "first-line": "the first line of 5",
            }
            bonus = " and earned " + " and ".join(words[b] for b in last["earned"]) + " (+2 each)"
        return f"{who} placed {last['card']} at {last['cell']}{bonus}."
    if last["kind"] == "discard":
        return f"{who} had no legal move and discarded a card face down."
    if last["kind"] == "time_up":
        return f"{who}'s time is up, but a turn ends only with a card (K3.5): still {who}'s turn."
    return ""


def holders(view: Mapping[str, Any]) -> list[str]:
    game = view.get("game") or {}
    out = []
    titles = {
        "first-rectangle": "First 2x3 rectangle",
        "first-line": "First line of 5",
        "largest-rectangle": "Largest rectangle",
        "longest-line": "Longest line",
    }
    for group in ("first_holders", "largest_holders"):
        for bonus, colour in (game.get(group) or {}).items():
            who = "nobody yet" if colour is None else colour_names(view).get(colour, colour)
            out.append(f"{titles[bonus]}: {who}")
    return out


def totals(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The score sheet, per player, in words (K6.10)."""
    game = view.get("game") or {}
    names = colour_names(view)
    rows = []
    for player in (game.get("score") or {}).get("players", []):
        code = player["colour"]
        seat = next((s for s in game.get("seats", []) if s["colour"] == code), None)
        rect = player["rectangle"]
        rows.append(
            {
                "colour": code,
                "ink": ink(names.get(code, "grey")),
                "who": seat_name(view, seat["seat"]) if seat else code,
                "rectangle": f"{rect['width']}x{rect['height']} = {rect['area']}"
                if rect
                else "none",
                "lines": [f"{len(line['cells'])}" for line in player["lines"]],
                "line_points": player["row_points"] + player["column_points"],
                "bonuses": [b["name"] for b in player["bonuses"]],
                "bonus_points": player["bonus_points"],
                "total": player["total"],
            }
        )
    return rows


def result_words(view: Mapping[str, Any]) -> str:
    result = (view.get("game") or {}).get("result")
    if not result:
        return ""
    if not result["finished"]:
        return "The host stopped the game: the scores as the table stands, nobody wins (K5.6)."
    names = colour_names(view)
    winners = [names.get(c, c).capitalize() for c in result["winners"]]
    if len(winners) > 1:
        return " and ".join(winners) + " share the win."
    return f"{winners[0]} wins!" if winners else ""


def solo(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """K8.6: a solo table's personal best, from the tables the service keeps."""
    if not has_app_context() or len(view["seats"]) != 1 or view.get("game") is None:
        return None
    service = current_app.extensions.get("companion")
    if service is None:
        return None
    return bests.standing(service, view["id"])


# The pages -----------------------------------------------------------------------------------


class ClusteredPages(BasePages):
    name = "clustered"
    table_template = "clustered/table.html"
    seat_template = "clustered/seat.html"
    stylesheets = ("clustered.css",)
    scripts = ("clustered.js",)
    correction_help = ("stop",)
    demo_options = MappingProxyType({"largest_bonuses": True})

    def _context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = view.get("game") or {}
        names = colour_names(view)

        def seat_colour(seat: Mapping[str, Any]) -> str:
            return ink(names.get(seat_colour_code(view, seat) or "", "grey"))

        def seat_side(seat: Mapping[str, Any]) -> str:
            return names.get(seat_colour_code(view, seat) or "", "").capitalize()

        return {
            "said": said(view),
            "holders": holders(view),
            "totals": totals(view) if game.get("over") else [],
            "result_words": result_words(view),
            "seat_colour": seat_colour,
            "seat_side": seat_side,
            "move_hint": "a card and a cell, e.g. B-tr-da-3 2,-1",
            "options": game.get("options") or [],
            "options_json": Markup(json.dumps(game.get("options") or [])),
            "names": names,
            "ink": ink,
            "solo": solo(view),
        }

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {**self._context(view), "board": BOARD(view)}

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        context = self._context(view)
        you = view.get("you") or {}
        mine = view.get("acting") is not None and view["acting"] == you.get("seat")
        taken = {(s.get("choice") or {}).get("colour") for s in view["seats"] if s.get("choice")}
        context.update(
            board=BOARD(view),
            mine=mine,
            free_colours=[pair for pair in _palette(view) if pair[0] not in taken],
        )
        return context

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        return {"colour": form.get("colour", ""), "name": form.get("name", "")}


PAGES = ClusteredPages()
"""The registration's ``web_pages``."""
