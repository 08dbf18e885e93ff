"""Globular Cluster's pages: the cluster, the score sheet, scoring rounds, the end, the turn
builder.

The cluster is drawn in the browser (``web/static/globular/cluster.js``) from the position's
data, which the panel carries as JSON: the same drawing shows the committed position on every
screen and, in the turn builder (``builder.js``), the position after the draft turn with the
drawn tile's legal places and the crossing costs. So one drawing code serves both, and the Pi
renders no SVG for twenty screens. The score chart at the end is drawn here, as SVG. Nothing
here decides a rule: costs, refusals and scores come from the rules core through the session's
``public()`` and ``preview()``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from markupsafe import Markup, escape

from web.games import BasePages

STATIC = Path(__file__).resolve().parent.parent / "static" / "globular"

COLOURS = {"red": "#d33a2c", "black": "#2a2a30", "blue": "#2f6fd6", "green": "#2e9e44"}
"""Each suit's colour on screens (and each player's, who plays a suit)."""
LINE_COLOURS = {"red": "#d33a2c", "black": "#666670", "blue": "#2f6fd6", "green": "#2e9e44"}
"""Chart lines: black would vanish on the dark screen, so it is drawn grey."""

STAGE_TITLES = {
    "turn": "Exploring",
    "scoring": "Scoring round",
    "supernova": "Supernova",
    "last-turns": "Last turns",
    "final": "Final round",
}
"""The header's words for each stage (the header adds "turn N")."""

KIND_TITLES = {
    "normal": "turn",
    "scoring": "scoring-round turn",
    "supernova": "supernova turn",
    "end": "last turn",
    "final": "final scoring turn",
}


def colour_of(name: str | None) -> str:
    return COLOURS.get(name or "", "#888888")


def _game(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return view.get("game") or {}


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each colour's player name (``"Ann"``), from the seats and their choices."""
    out = {}
    for seat in view["seats"]:
        choice = seat.get("choice") or {}
        colour = choice.get("colour")
        if colour:
            out[colour] = seat["name"] or f"Seat {seat['seat']}"
    return out


def who(colour: str | None, names: Mapping[str, str]) -> str:
    """``Ann (red)``; ``nobody``."""
    if not colour:
        return "nobody"
    name = names.get(colour)
    return f"{name} ({colour})" if name else colour.capitalize()


def json_script(data: Any, css_class: str) -> Markup:
    """Data for the page's scripts, safe inside a ``<script>`` element."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(f'<script type="application/json" class="{css_class}">{text}</script>')


def board_data(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the browser draws the cluster from."""
    game = _game(view)
    turn = game.get("turn") or {}
    return {
        "board": game.get("board", []),
        "crossings": game.get("crossings", []),
        "placements": turn.get("placements", {}),
        "to_place": turn.get("to_place"),
        "colours": COLOURS,
        "players": [p["colour"] for p in game.get("players", [])],
    }


def board_markup(view: Mapping[str, Any]) -> Markup:
    """The cluster's place on the page, with its data; ``cluster.js`` draws it."""
    if not _game(view):
        return Markup(
            '<div class="gc-board gc-empty"><p class="hint">The cluster appears when every '
            "seat has chosen a colour: the MITS with both black aces and the black null "
            "(Figure 1).</p></div>"
        )
    return (
        Markup('<div class="gc-board" role="img" aria-label="The cluster">')
        + json_script(board_data(view), "gc-data")
        + Markup("</div>")
    )


def score_sheet(view: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet the rulebook keeps on paper: crystals by type, VP per round and in total."""
    game = _game(view)
    players = game.get("players", [])
    sheet = game.get("score_sheet") or {"rounds": [], "totals": {}}
    names = _names(view)
    columns = [
        {"colour": p["colour"], "hex": colour_of(p["colour"]), "name": names.get(p["colour"], "")}
        for p in players
    ]
    crystals = [
        {"label": label, "counts": [p["crystals"][key] for p in players]}
        for key, label in (("n1", "N/1"), ("23", "2/3"), ("4", "4"), ("5", "5"))
    ]
    rounds = [
        {
            "label": "Final" if r["final"] else f"Round {r['number']}",
            "scores": [r["scores"].get(p["colour"]) for p in players],
        }
        for r in sheet["rounds"]
    ]
    return {
        "columns": columns,
        "crystals": crystals,
        "crystal_points": [p["crystal_points_now"] for p in players],
        "rounds": rounds,
        "totals": [p["vp"] for p in players],
        "stations": [p["stations_left"] for p in players],
        "colonies": [p["colony"] or "-" for p in players],
    }


def round_breakdown(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The latest scoring round, each player's score being made: each habitable tile and who
    held it at their scoring, each crystal set (G6.4 to G6.6)."""
    game = _game(view)
    rounds = (game.get("score_sheet") or {}).get("rounds") or []
    if not rounds:
        return None
    latest = rounds[-1]
    names = _names(view)
    players = {p["colour"]: p for p in game.get("players", [])}
    seats = {p["seat"]: p["colour"] for p in game.get("players", [])}
    made = []
    for seat_text, holdings in latest["holdings"].items():
        colour = seats[int(seat_text)]
        score = next(s for s in players[colour]["scores"] if s["round"] == latest["number"])
        made.append(
            {
                "colour": colour,
                "hex": colour_of(colour),
                "who": who(colour, names),
                "total": score["total"],
                "tile_points": score["tile_points"],
                "crystal_points": score["crystal_points"],
                "systems": [
                    {
                        "position": h["position"],
                        "tile": h["tile"],
                        "value": h["value"],
                        "holder": who(h["holder"], names) if h["holder"] else "nobody",
                        "mine": h["holder"] == colour,
                        "colonized": h["colonized"],
                        "presence": ", ".join(f"{c} {n}" for c, n in h["presence"].items()),
                    }
                    for h in holdings
                ],
                "sets": [_set_words(s) for s in score["sets"]],
            }
        )
    waiting = [
        who(players_colour, names)
        for players_colour in [seats[s] for s in sorted(seats)]
        if players_colour not in {m["colour"] for m in made}
    ]
    title = "Final scoring round" if latest["final"] else f"Scoring round {latest['number']}"
    return {"title": title, "made": made, "waiting": waiting, "final": latest["final"]}


def _set_words(s: Mapping[str, Any]) -> dict[str, Any]:
    label = {"n1": "N/1", "23": "2/3"}.get(s["crystal"], s["crystal"])
    parts = [
        f"{n} {word}{'s' if n != 1 else ''}"
        for n, word in ((s["triplets"], "triplet"), (s["pairs"], "pair"), (s["singles"], "single"))
        if n
    ]
    return {"label": label, "count": s["count"], "parts": ", ".join(parts), "points": s["points"]}


def chart_svg(view: Mapping[str, Any]) -> Markup:
    """Each player's score after every round, as lines (the end screen's chart)."""
    game = _game(view)
    sheet = game.get("score_sheet") or {"rounds": []}
    rounds = sheet["rounds"]
    colours = [p["colour"] for p in game.get("players", [])]
    if not rounds or not colours:
        return Markup("")
    width, height, left, bottom, top, right = 560, 300, 48, 40, 16, 90
    most = max([1, *(int(r["running"][c]) for r in rounds for c in colours)])
    step = 10 ** max(0, len(str(most)) - 1)
    ceiling = ((most + step - 1) // step) * step
    span_x = (width - left - right) / max(1, len(rounds))

    def x(i: int) -> float:
        return left + i * span_x

    def y(v: float) -> float:
        return float(height - bottom - (height - bottom - top) * v / ceiling)

    parts = [
        f'<svg class="gc-chart" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="Each player\'s score after every round">',
        "<title>Score after every round</title>",
    ]
    for tick in range(0, ceiling + 1, max(1, ceiling // 5)):
        parts.append(
            f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}"/><text class="axis" x="{left - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick}</text>'
        )
    labels = ["Start", *("Final" if r["final"] else f"Round {r['number']}" for r in rounds)]
    for i, label in enumerate(labels):
        parts.append(
            f'<text class="axis" x="{x(i):.1f}" y="{height - bottom + 18}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    for colour in colours:
        points = [(x(0), y(0))] + [
            (x(i + 1), y(r["running"][colour])) for i, r in enumerate(rounds)
        ]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        hexa = LINE_COLOURS.get(colour, "#888888")
        parts.append(
            f'<polyline class="series" data-colour="{colour}" points="{path}" '
            f'stroke="{hexa}" fill="none" stroke-width="3"/>'
        )
        for px, py in points[1:]:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4" fill="{hexa}"/>')
        last_x, last_y = points[-1]
        total = rounds[-1]["running"][colour]
        parts.append(
            f'<text class="series-label" x="{last_x + 8:.1f}" y="{last_y + 4:.1f}" '
            f'fill="{hexa}">{escape(colour)} {total}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def result(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The final standings (G7.4) in words."""
    outcome = _game(view).get("result")
    if not outcome:
        return None
    names = _names(view)
    places = [
        {
            "place": s["place"],
            "players": [
                {"who": who(c, names), "hex": colour_of(c), "vp": outcome["vp"][c]}
                for c in s["colours"]
            ],
        }
        for s in outcome["standings"]
    ]
    winners = [who(c, names) for c in outcome["winners"]]
    return {"places": places, "winners": winners, "shared": len(winners) > 1}


def last_move(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the last move did, line by line in words (rolls and scores included)."""
    last = view.get("last")
    if not last or last.get("kind") != "move":
        return None
    names = _names(view)
    lines = [
        {"text": line["text"], "cost": line["cost"], "said": "; ".join(line["said"])}
        for line in last.get("lines", [])
    ]
    scored = last.get("scored")
    return {
        "who": who(last.get("colour"), names),
        "hex": colour_of(last.get("colour")),
        "lines": lines,
        "refused": last.get("refused"),
        "scored": None if scored is None else scored["total"],
        "timeout": last.get("timeout", False),
    }


def turn_words(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The turn in progress: whose, what kind, AP left, the tile in hand, lines so far."""
    game = _game(view)
    turn = game.get("turn")
    if not turn or game.get("over"):
        return None
    names = _names(view)
    to_place = turn.get("to_place")
    return {
        "who": who(turn["colour"], names),
        "hex": colour_of(turn["colour"]),
        "title": turn["title"],
        "kind": KIND_TITLES.get(turn["kind"], turn["kind"]),
        "ap": turn["ap"],
        "to_place": to_place,
        "awaiting_draw": turn["awaiting_draw"],
        "set_aside": turn.get("set_aside"),
        "lines": turn["lines"],
        "scores": turn["scores"],
        "stack": game.get("stack_size", 0),
        "upcoming": game.get("upcoming", []),
        "supernova": game.get("supernova"),
    }


def builder_data(view: Mapping[str, Any], *, seat: int | None) -> dict[str, Any] | None:
    """What the turn builder needs that the cluster's data lacks: who acts, the house rules
    (who rolls, who draws), the other players to trade with, and a key that changes with every
    move played (so a stale draft is dropped)."""
    game = _game(view)
    turn = game.get("turn")
    if not turn or game.get("over") or view.get("acting") is None:
        return None
    if seat is not None and seat != view["acting"]:
        return None
    settings = game.get("settings", {})
    players = [p["colour"] for p in game.get("players", [])]
    return {
        "seat": view["acting"],
        "turn": turn["number"],
        "key": f"{view['id']}-{turn['number']}-{len(turn['lines'])}",
        "colour": turn["colour"],
        "dice": settings.get("dice", "companion"),
        "stack": settings.get("stack", "companion"),
        "others": [c for c in players if c != turn["colour"]],
        "ap": turn["ap"],
    }


class GlobularPages(BasePages):
    name = "globular-cluster"
    table_template = "globular/table.html"
    seat_template = "globular/seat.html"
    static_folder = str(STATIC)
    stylesheets = ("globular.css",)
    scripts = ("cluster.js", "builder.js")
    table_turns = True
    """The table screen may build and play the acting seat's turn (the issue asks for it)."""
    demo_options: Mapping[str, Any] = MappingProxyType({})

    def _context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = _game(view)
        return {
            "board": board_markup(view),
            "sheet": score_sheet(view) if game else None,
            "breakdown": round_breakdown(view),
            "result": result(view),
            "chart": chart_svg(view) if game.get("over") else Markup(""),
            "last_move": last_move(view),
            "turn_words": turn_words(view),
            "seat_colour": seat_colour,
            "seat_side": seat_side,
            "move_hint": "lines such as: place j8 tl; move m7>k7 x2; end",
            "stage_title": self._stage_title(view),
            "colour_hex": colour_of,
        }

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {**self._context(view), "builder": builder_data(view, seat=None)}

    def _stage_title(self, view: Mapping[str, Any]) -> str:
        return STAGE_TITLES.get(view["stage"], str(view["stage_info"]["title"]))

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        you = view.get("you", {})
        seat = you.get("seat")
        taken = {
            (s.get("choice") or {}).get("colour")
            for s in view["seats"]
            if s["seat"] != seat and s.get("choice")
        }
        return {
            **self._context(view),
            "builder": builder_data(view, seat=seat),
            "my_colour": you.get("colour"),
            "free_colours": [c for c in COLOURS if c not in taken],
        }

    def house_rules(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = _game(view)
        if game:
            settings = dict(game.get("settings", {}))
            settings.pop("colours", None)
            return settings
        return dict((view.get("setup") or {}).get("house_rules", {}))

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        return {"colour": form.get("colour", "").strip()}


def seat_colour(seat: Mapping[str, Any]) -> str:
    return colour_of((seat.get("choice") or {}).get("colour"))


def seat_side(seat: Mapping[str, Any]) -> str:
    colour = (seat.get("choice") or {}).get("colour")
    return str(colour).capitalize() if colour else ""


PAGES = GlobularPages()


__all__: Sequence[str] = ("PAGES", "GlobularPages", "chart_svg", "score_sheet")
