"""Local Cluster's pages: the board as SVG, the results, the order builder's data, the forms.

Everything here reads the service's views (``TableService.view``); no rule is decided here.
Which orders a unit may take, what a build may name and what each order did come from the
rules core through :class:`companion.local_cluster.session.LocalClusterSession`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from markupsafe import Markup, escape

from companion.local_cluster.atoms import (
    CARRIER_CAPACITY,
    CRAFT_STRENGTH,
    REPLENISH_COST,
    Colour,
    UnitType,
    sector_sort_key,
)
from companion.local_cluster.session import BUILD, COMMAND, RETREATS
from companion.service.session import Stage
from web.errors import PageError
from web.games import BasePages, BoardCache

CELL = 120
"""Size of one tile's square on the board drawing."""

COLOURS = {
    "red": "#d7263d",
    "green": "#2e9e44",
    "blue": "#2f6fd6",
    "yellow": "#e0b000",
    "aqua": "#1fb5b0",
    "purple": "#8a3fc7",
    "pink": "#e86fb0",
    "white": "#f4f4f4",
}

VERBS = {
    "HOLD": "holds",
    "MOVE": "moves to",
    "ADVANCE": "advances on",
    "SUPPORT": "supports",
    "DEPLOY": "deploys strike craft to",
    "RECALL": "recalls strike craft from",
    "CLAIM": "claims its sector",
}
"""How the order builder reads each order back: ``Battleship in S4 advances on S7``."""

LABELS = {
    "HOLD": "Hold",
    "MOVE": "Move",
    "ADVANCE": "Advance",
    "SUPPORT": "Support",
    "DEPLOY": "Deploy craft",
    "RECALL": "Recall craft",
    "CLAIM": "Claim",
}

GLYPH = {"destroyer": "D", "battleship": "B", "carrier": "C"}


def key_items(*, minerals_known: bool = True, tiles: bool = True) -> list[tuple[str, str]]:
    """The board's key (symbol, meaning), from the rules' own figures (R4.8, R6.5); the top
    of each tile (R2.1) where the galaxy lays tiles."""
    items = [
        ("◆", "1 mineral: a sector's value is its count of ◆ (1 to 4)")
        if minerals_known
        else ("?", "minerals not known yet: rolled when the game starts (homes get 2, R2.2)")
    ]
    for unit in UnitType:
        words = f"{unit.noun}, strength {unit.strength}"
        if unit is UnitType.CARRIER:
            words += f" + 1 per craft aboard (C{CARRIER_CAPACITY}: {CARRIER_CAPACITY} aboard)"
        items.append((GLYPH[unit.value], words))
    items.append(("▲", f"strike craft out of its carrier, strength {CRAFT_STRENGTH}"))
    if tiles:
        items.append(
            (
                "━",
                "the top of a tile: lay the tile with its marker's top that way (its label "
                "upright), so the camera knows it when a hand hides its marker",
            )
        )
    return items


def colour_hex(colour: str | None) -> str:
    return COLOURS.get(colour or "", "#888888")


def title(colour: str | None) -> str:
    return (colour or "nobody").capitalize()


# The board ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Layout:
    """Where each sector's tile is drawn: its centre, in SVG units."""

    centres: Mapping[str, tuple[float, float]]
    width: int
    height: int
    tiled: bool = True
    """Whether the sectors lie at their tiles' cells (else on a plain grid)."""


def layout(galaxy: Mapping[str, Any]) -> Layout:
    """Tiles at their grid cells (R2.1); a galaxy without tiles goes on a plain grid."""
    sectors = galaxy["sectors"]
    cells: dict[str, tuple[int, int]] = {}
    tiled = all("tile" in s for s in sectors)
    if tiled:
        for s in sectors:
            cells[s["id"]] = (s["tile"]["column"], s["tile"]["row"])
    else:
        side = max(1, math.ceil(math.sqrt(len(sectors))))
        for index, s in enumerate(sectors):
            cells[s["id"]] = (index % side, index // side)
    low_c = min(c for c, _ in cells.values())
    low_r = min(r for _, r in cells.values())
    centres = {
        sid: ((c - low_c + 0.5) * CELL, (r - low_r + 0.5) * CELL) for sid, (c, r) in cells.items()
    }
    width = (max(c for c, _ in cells.values()) - low_c + 1) * CELL
    height = (max(r for _, r in cells.values()) - low_r + 1) * CELL
    return Layout(centres, width, height, tiled)


def board_svg(
    state: Mapping[str, Any] | None,
    galaxy: Mapping[str, Any],
    *,
    last: Mapping[str, Any] | None = None,
    homes: Mapping[str, str] | None = None,
    minerals_known: bool = True,
) -> Markup:
    """The galaxy in its tile layout: claims, units, craft, minerals and sector ids; the last
    turn's arrows, combat strengths and changed claims when ``last`` holds a turn's results."""
    place = layout(galaxy)
    claims: Mapping[str, str] = state["claims"] if state else {}
    units = {u["sector"]: u for u in state["units"]} if state else {}
    craft: dict[str, list[str]] = {}
    for c in state["craft"] if state else []:
        craft.setdefault(c["sector"], []).append(c["owner"])
    results = last if last is not None and last.get("kind") == "results" else None
    changed = {c["sector"]: c["after"] for c in results["claims_changed"]} if results else {}
    combats = {c["sector"]: c for c in results["combats"]} if results else {}
    pad = 8
    out = [
        f'<svg class="board" viewBox="{-pad} {-pad} {place.width + 2 * pad} '
        f'{place.height + 2 * pad}" xmlns="http://www.w3.org/2000/svg" role="img" '
        'aria-label="The galaxy">',
        "<defs>",
    ]
    for name, hex_ in COLOURS.items():
        out.append(
            f'<marker id="head-{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
            f'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{hex_}" stroke="#222" stroke-width="1"/></marker>'
        )
    out.append("</defs>")
    for a, b in galaxy["adjacency"]:
        (x1, y1), (x2, y2) = place.centres[a], place.centres[b]
        out.append(
            f'<line class="lane" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#445" '
            'stroke-width="3"/>'
        )
    half = CELL / 2 - 6
    for sector in galaxy["sectors"]:
        sid = sector["id"]
        x, y = place.centres[sid]
        owner = claims.get(sid)
        fill = colour_hex(owner) if owner else "#1d2230"
        opacity = "0.45" if owner else "1"
        out.append(
            f'<g class="sector" data-sector="{escape(sid)}" tabindex="-1">'
            f'<rect class="tile" x="{x - half}" y="{y - half}" width="{2 * half}" '
            f'height="{2 * half}" rx="10" fill="#1d2230" stroke="#6b7590" stroke-width="2"/>'
            f'<rect x="{x - half}" y="{y - half}" width="{2 * half}" height="{2 * half}" rx="10" '
            f'fill="{fill}" fill-opacity="{opacity}" pointer-events="none"/>'
            f"{_top_edge(sector, x, y, half) if place.tiled else ''}"
            f'<text class="sid" x="{x - half + 6}" y="{y - half + 20}">{escape(sid)}</text>'
            f'<text class="minerals" x="{x + half - 6}" y="{y - half + 20}" '
            f'text-anchor="end">{_minerals(sector, minerals_known)}</text>'
        )
        if sid in changed:
            out.append(
                f'<rect class="claimed-now" x="{x - half + 3}" y="{y - half + 3}" '
                f'width="{2 * half - 6}" height="{2 * half - 6}" rx="8" fill="none" '
                f'stroke="{colour_hex(changed[sid])}" stroke-width="6" stroke-dasharray="10 5"/>'
            )
        if homes and sid in homes:
            out.append(
                f'<text class="home" x="{x}" y="{y + half - 12}" text-anchor="middle">'
                f"home of {escape(title(homes[sid]))}</text>"
            )
        unit = units.get(sid)
        if unit is not None:
            hex_ = colour_hex(unit["owner"])
            label = GLYPH.get(unit["type"], "?")
            if unit["type"] == "carrier" and unit["docked"]:
                label += str(unit["docked"])
            out.append(
                f'<circle class="unit" cx="{x}" cy="{y + 4}" r="24" fill="{hex_}" '
                f'stroke="#111" stroke-width="3"/><text class="unit-glyph" x="{x}" y="{y + 13}" '
                f'text-anchor="middle">{label}</text>'
            )
        for index, craft_owner in enumerate(craft.get(sid, [])):
            cx = x - half + 14 + index * 16
            cy = y + half - 14
            out.append(
                f'<path class="craft" d="M{cx},{cy - 8} L{cx + 7},{cy + 6} L{cx - 7},{cy + 6} z" '
                f'fill="{colour_hex(craft_owner)}" stroke="#111" stroke-width="1.5"/>'
            )
        out.append("</g>")
    if results:
        out.extend(_arrows(place, results["movements"]))
        failed = [
            {
                "kind": "failed",
                "owner": c["attacker"],
                "from": c["attacker_from"],
                "to": c["sector"],
            }
            for c in combats.values()
            if not c["attacker_won"]
        ]
        out.extend(_arrows(place, failed))
        for sid, combat in combats.items():
            x, y = place.centres[sid]
            attack = sum(p[1] for p in combat["attack"])
            defence = sum(p[1] for p in combat["defence"])
            out.append(
                f'<g class="combat"><rect x="{x + half - 64}" y="{y + half - 26}" width="60" '
                f'height="22" rx="6" fill="#111" stroke="#fff"/><text x="{x + half - 34}" '
                f'y="{y + half - 9}" text-anchor="middle">{attack} v {defence}</text></g>'
            )
    out.append("</svg>")
    return Markup("".join(out))


TOP_EDGE = (36, 5)
"""The bar at the top of a tile's face, in SVG units: its length and thickness."""
_OUTWARD = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The way a face's top points when its tile is turned 0-3 quarter turns clockwise (R2.1;
SVG's y points down, as the camera's picture does)."""


def _top_edge(sector: Mapping[str, Any], x: float, y: float, half: float) -> str:
    """A bar along the edge that the top of the sector's tile face points to (its marker's top;
    its label reads upright that way): the galaxy turns each tile a quarter turn (R2.1), the
    players lay it so, and the camera then knows the way of a tile whose marker is hidden
    (``vision.local_cluster.game_map``). Nothing for a galaxy without tiles."""
    tile = sector.get("tile")
    if tile is None:
        return ""
    dx, dy = _OUTWARD[int(tile.get("rotation", 0)) % 4]
    length, thick = TOP_EDGE
    reach = half - 2 - thick / 2
    cx, cy = x + dx * reach, y + dy * reach
    width, height = (length, thick) if dx == 0 else (thick, length)
    return (
        f'<rect class="tile-top" x="{cx - width / 2}" y="{cy - height / 2}" width="{width}" '
        f'height="{height}" rx="2" fill="#e8ecf5" pointer-events="none"/>'
    )


def _minerals(sector: Mapping[str, Any], known: bool) -> str:
    """One ◆ per mineral of the sector's value; "?" before the values are rolled (R2.2)."""
    if not known:
        return "?"
    return "◆" * int(sector["minerals"])


def _arrows(place: Layout, movements: Sequence[Mapping[str, Any]]) -> list[str]:
    style = {
        "move": 'stroke-width="6" stroke-dasharray="12 8"',
        "advance": 'stroke-width="8"',
        "deploy": 'stroke-width="4" stroke-dasharray="3 6"',
        "recall": 'stroke-width="4" stroke-dasharray="3 6"',
        "failed": 'stroke-width="5" stroke-opacity="0.55" stroke-dasharray="4 6"',
    }
    out = []
    for m in movements:
        (x1, y1), (x2, y2) = place.centres[m["from"]], place.centres[m["to"]]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        trim = 30 / length
        sx, sy = x1 + (x2 - x1) * trim, y1 + (y2 - y1) * trim
        ex, ey = x2 - (x2 - x1) * trim, y2 - (y2 - y1) * trim
        owner = m["owner"] if m["owner"] in COLOURS else "white"
        out.append(
            f'<line class="arrow arrow-{m["kind"]}" x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" '
            f'y2="{ey:.1f}" stroke="{colour_hex(owner)}" {style.get(m["kind"], "")} '
            f'marker-end="url(#head-{owner})" stroke-linecap="round"/>'
        )
    return out


# Words -------------------------------------------------------------------------------------


def combat_lines(results: Mapping[str, Any]) -> list[str]:
    """Each combat with both strengths and what they were made of."""

    def parts(side: Sequence[Sequence[Any]]) -> str:
        return " + ".join(f"{source} {amount}" for source, amount in side) or "nothing"

    lines = []
    for c in results.get("combats", []):
        attack = sum(p[1] for p in c["attack"])
        defence = sum(p[1] for p in c["defence"])
        verdict = (
            f"{title(c['attacker'])} won" if c["attacker_won"] else f"{title(c['defender'])} held"
        )
        lines.append(
            f"{c['sector']}: {title(c['attacker'])} attacked from {c['attacker_from']} with "
            f"{attack} ({parts(c['attack'])}) against {title(c['defender'])}'s {defence} "
            f"({parts(c['defence'])}); {verdict}"
        )
    return lines


def order_lines(results: Mapping[str, Any], empires: Sequence[str] = ()) -> list[str]:
    """Every empire's orders and what each did, in the rules core's words; an empire that
    gave none held everywhere (R3.3)."""
    lines = [
        f"{title(o['empire'])}: {o['text']}: {o['reason']}" for o in results.get("outcomes", [])
    ]
    ordered = {o["empire"] for o in results.get("outcomes", [])}
    lines += [f"{title(c)} gave no orders: its units held" for c in empires if c not in ordered]
    return lines


def summary_lines(
    last: Mapping[str, Any] | None, empires: Sequence[str] = ()
) -> dict[str, list[str]]:
    """The last resolved stage for the table screen, section by section (``empires``: those
    still playing, so one that gave no orders is said to have held)."""
    if not last:
        return {}
    if last.get("kind") == "results":
        return {
            f"Turn {last['turn']}: the orders": order_lines(last, empires),
            "Combats": combat_lines(last),
            "Claims changed": [
                f"{c['sector']}: {title(c['after'])} (was {title(c['before'])})"
                for c in last.get("claims_changed", [])
            ],
            "Retreats owed": [
                f"the unit in {r['sector']} must retreat"
                + (
                    f" (to {', '.join(r['options'])})"
                    if r["options"]
                    else "; it has nowhere to go and is destroyed"
                )
                for r in last.get("retreats", [])
            ],
            "Afterwards": list(last.get("aftermath", [])),
        }
    if last.get("kind") == "retreats_done":
        return {"Retreats": list(last.get("notes", []))}
    if last.get("kind") == "build_summary":
        return {"Builds": list(last.get("notes", []))}
    return {}


def my_outcomes(last: Mapping[str, Any] | None, colour: str | None) -> list[dict[str, str]]:
    """What became of each of this empire's orders, in the rules core's words."""
    if not last or last.get("kind") != "results" or colour is None:
        return []
    return [
        {"text": o["text"], "status": o["status"], "reason": o["reason"]}
        for o in last.get("outcomes", [])
        if o["empire"] == colour
    ]


# The seat page's data ----------------------------------------------------------------------


def builder_data(you: Mapping[str, Any]) -> dict[str, Any]:
    """The order builder's data: every unit with its possible orders and their targets.

    A carrier that may hold a RECALL and a DEPLOY together (R3.2) gets a second, optional
    slot: the DEPLOY beside its RECALL, sent only while its first slot holds a RECALL."""
    units = []
    for unit in you.get("units", []):
        sector = unit["sector"]
        label = f"{unit['type'].capitalize()} in {sector}"
        if unit["type"] == "carrier":
            label += f" ({unit['docked']} craft aboard)"
        units.append({"sector": sector, "label": label, "orders": _offered(unit["orders"])})
        paired = unit.get("deploy_with_recall")
        if paired is not None:
            carrier = f"Carrier in {sector}"
            units.append(
                {
                    "sector": sector,
                    "slot": pair_slot(sector),
                    "label": f"{carrier}, beside its recall,",
                    "orders": _offered([paired]),
                    "optional": True,
                    "needs": {"slot": sector, "kind": "RECALL"},
                    "idle": f"{carrier}: a DEPLOY beside its RECALL too? (optional)",
                    "blocked": f"{carrier}: a DEPLOY beside a RECALL (give it a RECALL first)",
                }
            )
    lines = [line for line in (you.get("submission") or "").splitlines() if line.strip()]
    return {"units": units, "submitted": lines, "orders": read_back(units, lines)}


def pair_slot(sector: str) -> str:
    """The builder's slot for a carrier's DEPLOY beside its RECALL."""
    return f"{sector} DEPLOY"


def _offered(orders: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            **order,
            "label": LABELS[order["kind"]],
            "verb": VERBS[order["kind"]],
            "repeats": order["kind"] == "RECALL",  # craft recalled from one sector: 2 taps
        }
        for order in orders
    ]


def read_back(
    units: Sequence[Mapping[str, Any]], lines: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """The stored sheet as the builder's orders (slot -> kind and targets): a carrier's
    DEPLOY goes to its second slot when the sheet gives it a RECALL too."""
    slots = {unit.get("slot", unit["sector"]) for unit in units}
    words = [line.split() for line in lines]
    recalls = {w[1] for w in words if len(w) >= 2 and w[0] == "RECALL"}
    orders: dict[str, dict[str, Any]] = {}
    for word in words:
        if len(word) < 2:
            continue
        kind, sector = word[0], word[1]
        slot = sector
        if kind == "DEPLOY" and sector in recalls and pair_slot(sector) in slots:
            slot = pair_slot(sector)
        orders[slot] = {"kind": kind, "targets": word[2:]}
    return orders


def submission_words(stage: str, you: Mapping[str, Any], text: str) -> list[str]:
    """A stored order sheet, retreat choice or build plan in words, for the phone that sent
    it: each order with its unit ("Destroyer in S4 advances on S7"), and what happens to what
    it left out (a unit without an order holds, R3.3)."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if stage == COMMAND.value:
        units = {u["sector"]: u for u in you.get("units", [])}
        said, ordered = [], set()
        for words in lines:
            kind, sector, targets = words[0], words[1], words[2:]
            unit = units.get(sector)
            name = f"{unit['type'].capitalize()} in {sector}" if unit else f"The unit in {sector}"
            ordered.add(sector)
            joiner = " and " if kind in ("DEPLOY", "RECALL") else " "
            said.append(f"{name} {VERBS.get(kind, kind.lower())} {joiner.join(targets)}".strip())
        idle = [f"{u['type'].capitalize()} in {s}" for s, u in units.items() if s not in ordered]
        if not said:
            return ["No orders: every unit will hold (R3.3)."]
        if idle:
            said.append(f"{_and(idle)} {'holds' if len(idle) == 1 else 'hold'} (no order).")
        return said
    if stage == RETREATS.value:
        if not lines:
            return ["No retreat chosen: each unit goes to its lowest-numbered option (R5.3)."]
        return [f"The unit in {w[1]} retreats to {w[2]}" for w in lines if len(w) == 3]
    if stage == BUILD.value:
        said = []
        for words in lines:
            if words[0] == "STOCKPILE":
                said.append("Stockpile: build nothing now; your next raw income doubles (R6.3).")
            elif words[0] == "BUILD":
                unit = UnitType.parse(words[1])
                said.append(f"Build a {unit.noun} in {words[2]} ({unit.cost} minerals)")
            elif words[0] == "REPLENISH":
                said.append(f"Replenish the carrier in {words[1]} ({REPLENISH_COST} minerals)")
        return said or ["Build nothing: what is not spent is lost (R6.5)."]
    return [" ".join(words) for words in lines]


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def choosing(view: Mapping[str, Any]) -> dict[str, Any]:
    """Colours and home sectors still free while seats choose (rulebook 3.2)."""
    taken = [s["choice"] for s in view["seats"] if s["choice"]]
    colours = [c.value for c in Colour if c.value not in {t["colour"] for t in taken}]
    galaxy = view["setup"]["galaxy"]
    homes = sorted(
        (s["id"] for s in galaxy["sectors"] if s["id"] not in {t["home"] for t in taken}),
        key=sector_sort_key,
    )
    return {"colours": colours, "homes": homes}


def seat_colour(seat: Mapping[str, Any]) -> str:
    """A seat's chip on the shared seat lists: its empire's colour, once chosen."""
    return colour_hex((seat.get("choice") or {}).get("colour"))


def seat_side(seat: Mapping[str, Any]) -> str:
    colour = (seat.get("choice") or {}).get("colour")
    return title(colour) if colour else ""


def _tiled(view: Mapping[str, Any]) -> bool:
    """Whether the view's galaxy lays every sector's tile on a cell (R2.1)."""
    game = view.get("game")
    setup = view.get("setup") or {}
    galaxy = game["state"]["galaxy"] if game is not None else setup.get("galaxy")
    sectors = (galaxy or {}).get("sectors") or []
    return bool(sectors) and all("tile" in s for s in sectors)


def _key(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The key for the board the view draws."""
    setup = view.get("setup") or {}
    return key_items(
        minerals_known=view.get("game") is not None or bool(setup.get("minerals_known", True)),
        tiles=_tiled(view),
    )


class LocalClusterPages(BasePages):
    name = "local-cluster"
    table_template = "local_cluster/table.html"
    seat_template = "local_cluster/seat.html"
    stylesheets = ("board.css",)
    correction_help = (
        "PLACE red destroyer S4",
        "PLACE red battleship S4",
        "PLACE red craft S5 S4",
        "REMOVE S4",
        "REMOVE red craft S5",
        "MOVE S4 S7",
        "CLAIM S4 red (or none)",
        "MINERALS S4 3",
    )
    demo_options: Mapping[str, Any] = MappingProxyType(
        {
            "turn_limit": 6,
            "discussion_seconds": 30,
            "command_seconds": 120,
            "retreat_seconds": 45,
            "build_seconds": 90,
        }
    )
    """A short game for ``companion serve --demo``."""

    def __init__(self) -> None:
        self._board = BoardCache(self._draw)

    def _draw(self, view: Mapping[str, Any]) -> Markup:
        game = view.get("game")
        if game is None:
            homes = {
                s["choice"]["home"]: s["choice"]["colour"] for s in view["seats"] if s["choice"]
            }
            setup = view["setup"]
            known = bool(setup.get("minerals_known", True))
            return board_svg(None, setup["galaxy"], homes=homes, minerals_known=known)
        state = game["state"]
        return board_svg(state, state["galaxy"], last=view.get("last"))

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = view.get("game") or {}
        state = game.get("state")
        standings = []
        if state:
            minerals = {s["id"]: int(s["minerals"]) for s in state["galaxy"]["sectors"]}
            for empire in state["empires"]:
                colour = empire["colour"]
                sectors = [s for s, c in state["claims"].items() if c == colour]
                units = [u for u in state["units"] if u["owner"] == colour]
                standings.append(
                    {
                        "colour": colour,
                        "hex": colour_hex(colour),
                        "title": title(colour),
                        "sectors": len(sectors),
                        "minerals": sum(minerals[s] for s in sectors),
                        "units": len(units),
                        "eliminated": empire["eliminated"],
                    }
                )
        playing = [e["colour"] for e in state["empires"] if not e["eliminated"]] if state else []
        return {
            "board": self._board(view),
            "summary": summary_lines(view.get("last"), playing),
            "standings": standings,
            "result": game.get("result"),
            "colour_hex": colour_hex,
            "title": title,
            "seat_colour": seat_colour,
            "seat_side": seat_side,
            "key": _key(view),
            "laying": view.get("game") is None and _tiled(view),
        }

    def house_rules(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = view.get("game")
        rules = game["state"]["rules"] if game else (view.get("setup") or {}).get("rules")
        return dict(rules or {})

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        you = view.get("you", {})
        colour = you.get("colour")
        context: dict[str, Any] = {
            "board": self._board(view),
            "colour": colour,
            "colour_hex": colour_hex,
            "title": title,
            "seat_colour": seat_colour,
            "seat_side": seat_side,
            "key": _key(view),
            "sent": (
                submission_words(view["stage"], you, you["submission"])
                if you.get("submission") is not None
                else None
            ),
            "outcomes": my_outcomes(view.get("last"), colour),
            "summary": summary_lines(view.get("last")),
            "result": (view.get("game") or {}).get("result"),
        }
        if view["stage"] == Stage.LOBBY.value:
            context["choosing"] = choosing(view)
        if view["stage"] == COMMAND.value:
            context["builder"] = builder_data(you)
        if "income" in you:
            income = you["income"]
            base = sum(amount for _, amount in income["sectors"])
            context["income"] = {**income, "base": base, "bonus": income["raw"] - base}
            context["build"] = {
                **you["build"],
                "costs": {t.value: t.cost for t in UnitType},
                "replenish_cost": REPLENISH_COST,
            }
            context["unit_types"] = [t.value for t in UnitType]
        return context

    def describe_submission(self, view: Mapping[str, Any], text: str) -> list[str]:
        return submission_words(view["stage"], view.get("you", {}), text)

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        colour, home = form.get("colour", "").strip(), form.get("home", "").strip()
        if not colour or not home:
            raise PageError(400, "Choose both a colour and a home sector.")
        return {"colour": colour, "home": home}

    def submission_from_form(self, stage: str, form: Any) -> str:
        if stage == RETREATS.value:
            lines = []
            for key in sorted(form):
                if key.startswith("retreat-"):
                    lines.append(f"RETREAT {key.removeprefix('retreat-')} {form[key]}")
            return "\n".join(lines)
        if stage == BUILD.value:
            if form.get("stockpile"):
                return "STOCKPILE"
            lines = []
            for key in sorted(form):
                kind = str(form[key]).strip()
                if key.startswith("build-") and kind:
                    lines.append(f"BUILD {kind} {key.removeprefix('build-')}")
            lines.extend(f"REPLENISH {sector}" for sector in form.getlist("replenish"))
            return "\n".join(lines)
        raise PageError(409, f"there is no form to send in the {stage} phase")


PAGES = LocalClusterPages()
