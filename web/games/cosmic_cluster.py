"""Cosmic Cluster's pages: the cluster as SVG, the results, the order builder's data, the forms.

Everything here reads the service's views (``TableService.view``); no rule is decided here.
Which orders a unit may take and what each order did come from the rules core through
:class:`companion.cosmic.session.CosmicClusterSession`. The order builder's lines are
written in the A/F module's notation and made canonical by its parser, so the server stores
exactly the line the builder made and the phone can read its stored sheet back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from markupsafe import Markup, escape

from companion.cosmic.afnotation import AFOrder
from companion.cosmic.session import BUILD, COMMAND, RETREATS
from companion.errors import OrderSyntaxError
from companion.service.session import Stage
from web.errors import PageError
from web.games import BasePages, BoardCache

SIZE = 1300
"""Width and height of the cluster drawing, in SVG units."""

OUTER, INNER = 520, 286
"""Radii of the jump-line diagram's outer ring (positions 0-7) and inner star (8-15)."""

PLANET = 58
"""Radius of the ring of a major planet's eight surface spaces."""

SPACE = 21
"""Radius of one surface space."""

ORBIT = 94
"""Radius of a system's orbit ring."""

PAD = 20
"""Margin around the drawing."""

COLOURS = {
    "P1": "#e03b3b",
    "P2": "#2f6fd6",
    "P3": "#2e9e44",
    "P4": "#e0b000",
    "P5": "#9b4fd8",
    "P6": "#f07c1b",
    "P7": "#1fb5b0",
    "P8": "#e86fb0",
    "P9": "#f4f4f4",
}
"""Each power's colour (seat *n* plays ``Pn``)."""

KIND_NAMES = {"A": "Army", "F": "Fleet", "A/F": "A/F"}

SEASONS = {"spring": "Spring", "fall": "Fall", "winter": "Winter"}


def colour_hex(power: str | None) -> str:
    return COLOURS.get(power or "", "#888888")


def title(power: str | None) -> str:
    return power or "nobody"


def is_sea(region: str) -> bool:
    return region.endswith(("-o", "-b"))


def canonical(line: str, power: str) -> str:
    """The line as the server stores it (``TS2 A sol-1 -> sol-2``)."""
    return AFOrder.parse(line, power).text().split(": ", 1)[1]


# The cluster -------------------------------------------------------------------------------


def system_centres() -> dict[int, tuple[float, float]]:
    """Where each position of the GP(8,3) diagram is drawn (C1.1): outer ring and inner star."""
    middle = SIZE / 2
    out = {}
    for i in range(8):
        angle = -math.pi / 2 + i * math.pi / 4
        out[i] = (middle + OUTER * math.cos(angle), middle + OUTER * math.sin(angle))
        out[8 + i] = (middle + INNER * math.cos(angle), middle + INNER * math.sin(angle))
    return out


def space_places(cluster: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Where each space is drawn: surface spaces on their planet, orbit, box."""
    centres = system_centres()
    middle = SIZE / 2
    places: dict[str, tuple[float, float]] = {}
    for system in cluster["systems"]:
        x, y = centres[system["position"]]
        surface = system["surface"]
        radius = PLANET if len(surface) > 3 else 32
        for index, space in enumerate(surface):
            angle = -math.pi / 2 + index * 2 * math.pi / len(surface)
            places[space] = (x + radius * math.cos(angle), y + radius * math.sin(angle))
        if system["orbit"]:
            # Where a unit in orbit is drawn: on the ring, at its upper right.
            places[system["orbit"]] = (x + ORBIT * 0.71, y - ORBIT * 0.71)
        if system["kind"] == "black hole":
            places[system["box"]] = (x, y)
        else:
            # The box sits beside the system, away from the diagram's middle for the outer
            # ring and towards it for the inner star.
            dx, dy = x - middle, y - middle
            length = math.hypot(dx, dy) or 1.0
            sign = 1 if system["position"] < 8 else -1
            distance = ORBIT + 34
            places[system["box"]] = (
                x + sign * distance * dx / length,
                y + sign * distance * dy / length,
            )
    return places


def _unit_glyph(unit: Mapping[str, Any]) -> str:
    return "A/F" if unit.get("cargo") else str(unit["type"])


def _unit_svg(unit: Mapping[str, Any], x: float, y: float, *, small: bool = False) -> str:
    glyph = _unit_glyph(unit)
    radius = 16 if small else 21
    size = 15 if glyph == "A/F" else 25
    if small:
        size -= 4
    fill = colour_hex(unit["power"])
    ring = colour_hex(unit["cargo"]) if unit.get("cargo") else "#111"
    text = "#111" if unit["power"] in ("P4", "P7", "P9") else "#fff"
    return (
        f'<g class="unit" data-power="{escape(unit["power"])}">'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{fill}" stroke="{ring}" '
        f'stroke-width="{4 if unit.get("cargo") else 2.5}"/>'
        f'<text class="unit-glyph" x="{x:.1f}" y="{y + size * 0.36:.1f}" text-anchor="middle" '
        f'style="font-size: {size}px; fill: {text}">{escape(glyph)}</text></g>'
    )


def cluster_svg(
    cluster: Mapping[str, Any],
    position: Mapping[str, Any] | None = None,
    *,
    last: Mapping[str, Any] | None = None,
    changes: Iterable[Mapping[str, Any]] = (),
) -> Markup:
    """The cluster: 16 systems on the jump-line diagram, planets, orbits, boxes, the Black
    Hole, supply centres and their owners, units; the last season's arrows when ``last``
    holds an orders result (failed moves faint), dislodged units, and the centres that
    changed owner (``changes``: the session's ``centre_changes``) outlined."""
    centres = system_centres()
    places = space_places(cluster)
    owners: Mapping[str, str] = position["owners"] if position else {}
    units: dict[str, list[Mapping[str, Any]]] = {}
    for unit in position["units"] if position else []:
        units.setdefault(unit["region"], []).append(unit)
    changed = changed_centres(changes)
    dislodged = {r["region"] for r in position.get("retreats", [])} if position else set()
    by_position = {s["position"]: s for s in cluster["systems"]}
    out = [
        f'<svg class="board cosmic-board" viewBox="{-PAD} {-PAD} {SIZE + 2 * PAD} '
        f'{SIZE + 2 * PAD}" '
        'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="The cluster">',
        "<defs>",
    ]
    for power, hex_ in COLOURS.items():
        out.append(
            f'<marker id="head-{power}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" '
            f'markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{hex_}" stroke="#111" stroke-width="1"/></marker>'
        )
    out.append("</defs>")
    for a, b in cluster["jump_lines"]:
        (x1, y1), (x2, y2) = places[by_position[a]["box"]], places[by_position[b]["box"]]
        out.append(
            f'<line class="jump-line" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            'stroke="#4b5878" stroke-width="5"/>'
        )
    for system in cluster["systems"]:
        x, y = centres[system["position"]]
        out.append(
            f'<g class="system system-{escape(system["kind"].replace(" ", "-"))}" '
            f'data-system="{escape(system["name"])}">'
        )
        if system["kind"] == "black hole":
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{ORBIT - 8}" fill="#000" '
                'stroke="#8a3fc7" stroke-width="6" stroke-dasharray="4 6"/>'
            )
        else:
            orbit = system["orbit"]
            out.append(
                f'<g class="sector space-orbit" data-sector="{escape(orbit)}">'
                f'<circle class="tile" cx="{x:.1f}" cy="{y:.1f}" r="{ORBIT}" fill="none" '
                'stroke="#2a3f66" stroke-width="16" pointer-events="stroke"/>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{ORBIT}" fill="none" stroke="#7d93c4" '
                'stroke-width="2" stroke-dasharray="6 5" pointer-events="none"/></g>'
            )
            radius = PLANET if len(system["surface"]) > 3 else 32
            planet_fill = "#3a3326" if system["kind"] == "home" else "#26303f"
            out.append(
                f'<circle class="planet" cx="{x:.1f}" cy="{y:.1f}" r="{radius + SPACE + 2}" '
                f'fill="{planet_fill}" stroke="#59627a" stroke-width="2"/>'
            )
            if len(system["surface"]) == 8:  # the 1-5 line across a major planet (C2.1)
                (ax, ay), (bx, by) = places[system["surface"][0]], places[system["surface"][4]]
                out.append(
                    f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                    'stroke="#59627a" stroke-width="3"/>'
                )
        out.append(_box_svg(system, places[system["box"]]))
        for space in system["surface"]:
            out.append(_space_svg(space, places[space], system, owners, changed))
        label_y = y - ORBIT + 9  # on the orbit ring's top, clear of the spaces
        if system["kind"] == "black hole":
            label_y = y + ORBIT - 24
        home = f" ({system['home_of']})" if system["home_of"] else ""
        colour = colour_hex(system["home_of"]) if system["home_of"] else "#dfe6f5"
        out.append(
            f'<text class="system-name" x="{x:.1f}" y="{label_y:.1f}" text-anchor="middle" '
            f'fill="{colour}">{escape(system["name"])}{escape(home)}</text></g>'
        )
    for region, here in units.items():
        x, y = places.get(region, (0.0, 0.0))
        if len(here) == 1:
            out.append(_unit_svg(here[0], x, y))
            if region in dislodged:
                out.append(_dislodged_mark(x, y))
            continue
        for index, unit in enumerate(here):  # a box holds any number: a row above it
            column, row = index % 3, index // 3
            ux = x + (column - (min(len(here), 3) - 1) / 2) * 30
            uy = y - 40 - row * 30
            out.append(_unit_svg(unit, ux, uy, small=True))
    if last is not None and last.get("kind") == "results":
        out.extend(_arrows(places, last))
    out.append("</svg>")
    return Markup("".join(out))


def _box_svg(system: Mapping[str, Any], place: tuple[float, float]) -> str:
    x, y = place
    box = system["box"]
    half = 28 if system["kind"] == "black hole" else 22
    fill = "#000" if system["kind"] == "black hole" else "#15305a"
    return (
        f'<g class="sector space-box" data-sector="{escape(box)}">'
        f'<rect class="tile" x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half}" '
        f'height="{2 * half}" rx="5" fill="{fill}" stroke="#9fb3e0" stroke-width="3"/>'
        f'<text class="space-id" x="{x:.1f}" y="{y + 7:.1f}" text-anchor="middle">B</text></g>'
    )


def _space_svg(
    space: str,
    place: tuple[float, float],
    system: Mapping[str, Any],
    owners: Mapping[str, str],
    changed: Mapping[str, str | None],
) -> str:
    x, y = place
    number = space.rsplit("-", 1)[1]
    centre = space in system["centres"]
    owner = owners.get(space)
    fill = colour_hex(owner) if owner else ("#5b6478" if centre else "#34405a")
    stroke = "#ffd54a" if centre else "#7d879e"
    parts = [
        f'<g class="sector space{" centre" if centre else ""}" data-sector="{escape(space)}">'
        f'<circle class="tile" cx="{x:.1f}" cy="{y:.1f}" r="{SPACE}" fill="{fill}" '
        f'fill-opacity="{0.8 if owner else 1}" stroke="{stroke}" '
        f'stroke-width="{3.5 if centre else 1.5}"/>'
        f'<text class="space-id" x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle">'
        f"{escape(number)}</text>"
    ]
    if space in changed:
        parts.append(
            f'<circle class="centre-changed" cx="{x:.1f}" cy="{y:.1f}" r="{SPACE + 5}" '
            f'fill="none" stroke="{colour_hex(changed[space]) if changed[space] else "#fff"}" '
            'stroke-width="4" stroke-dasharray="5 3"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _dislodged_mark(x: float, y: float) -> str:
    return (
        f'<path class="dislodged" d="M{x - 14:.1f},{y - 14:.1f} L{x + 14:.1f},{y + 14:.1f} '
        f'M{x + 14:.1f},{y - 14:.1f} L{x - 14:.1f},{y + 14:.1f}" stroke="#fff" '
        'stroke-width="4" stroke-linecap="round"/>'
    )


def arrow_ends(order_text: str) -> tuple[str, str] | None:
    """Where an order's unit or army goes, for the arrows: (from, to), or None."""
    try:
        order = AFOrder.parse(order_text)
    except OrderSyntaxError:
        return None
    standard = order.standard
    if standard is not None:
        if standard.target is not None and standard.kind.name in ("MOVE", "RETREAT"):
            return standard.region, standard.target
        return None
    kind = order.kind.name
    if kind == "BOARD" and order.army and order.fleet:
        return order.army, order.fleet
    if kind in ("LAND", "DISEMBARK", "DISEMBARK_TO_FLEET") and order.fleet and order.target:
        return order.fleet, order.target
    if kind == "FAST_FERRY" and order.army and order.target:
        return order.army, order.target
    if kind == "EMBARK" and order.army and order.fleet:
        return order.army, order.fleet
    return None


def _arrows(places: Mapping[str, tuple[float, float]], last: Mapping[str, Any]) -> list[str]:
    out = []
    for result in last.get("orders", []):
        ends = arrow_ends(result["order"])
        if ends is None or ends[0] not in places or ends[1] not in places:
            continue
        (x1, y1), (x2, y2) = places[ends[0]], places[ends[1]]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        trim = min(14 / length, 0.3)
        sx, sy = x1 + (x2 - x1) * trim, y1 + (y2 - y1) * trim
        ex, ey = x2 - (x2 - x1) * trim, y2 - (y2 - y1) * trim
        power = result["power"] if result["power"] in COLOURS else "P9"
        style = (
            'stroke-width="7"'
            if result["succeeded"]
            else 'stroke-width="5" stroke-opacity="0.4" stroke-dasharray="5 6"'
        )
        status = "ok" if result["succeeded"] else "failed"
        out.append(
            f'<line class="arrow arrow-{status}" x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" '
            f'y2="{ey:.1f}" stroke="{colour_hex(power)}" {style} '
            f'marker-end="url(#head-{power})" stroke-linecap="round"/>'
        )
    return out


def changed_centres(changes: Iterable[Mapping[str, Any]]) -> dict[str, str | None]:
    """Centres whose owner changed at the end of the last season: space -> new owner (None:
    unowned), from the rules core's structured changes."""
    return {str(c["centre"]): c["after"] for c in changes}


# Words -------------------------------------------------------------------------------------


def season_title(position: Mapping[str, Any] | None) -> str:
    if not position:
        return ""
    season = SEASONS.get(position["season"], str(position["season"]).capitalize())
    return f"{season} {position['year']}"


def summary_lines(last: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """The last resolved season for the table screen, section by section."""
    if not last:
        return {}
    orders = [
        f"{r['order']}: {'succeeds' if r['succeeded'] else 'fails'} ({r['reason']})"
        for r in last.get("orders", [])
    ]
    heading = {
        "results": "Orders",
        "retreats_done": "Retreats",
        "build_summary": "Adjustments",
    }.get(str(last.get("kind")), "Orders")
    sections = {
        f"{heading} ({last.get('season', '')})": orders,
        "Dislodged (retreats owed)": [
            f"{d['unit']} (attacked from {d['attacker_from']})" for d in last.get("dislodged", [])
        ],
        "Disbanded": list(last.get("disbanded", [])),
        "Disbanded in civil disorder": list(last.get("civil_disorder", [])),
        "Centres changed": list(last.get("notes", [])),
        "Unreadable orders": [str(e) for e in last.get("syntax_errors", [])],
    }
    return sections


def my_outcomes(last: Mapping[str, Any] | None, power: str | None) -> list[dict[str, Any]]:
    """What became of each of this power's orders, in the rules core's words."""
    if not last or power is None:
        return []
    return [
        {
            "text": r["order"].split(": ", 1)[-1],
            "status": "succeeded" if r["succeeded"] else "failed",
            "reason": r["reason"],
        }
        for r in last.get("orders", [])
        if r.get("power") == power
    ]


# The order builder -------------------------------------------------------------------------


def _option(
    kind: str,
    label: str,
    verb: str,
    lines: Mapping[str, tuple[str, str]],
    *,
    then: Mapping[str, Sequence[str]] | None = None,
    joiner: str = " to ",
) -> dict[str, Any]:
    """One order kind of a unit: its targets and, per choice of targets (joined by a space),
    the order line and how it reads (``lines``)."""
    two = then is not None
    targets = list(then) if then is not None else sorted({k for k in lines if k})
    count = 2 if two else (1 if targets else 0)
    return {
        "kind": kind,
        "label": label,
        "verb": verb,
        "targets": targets,
        "then": {k: list(v) for k, v in (then or {}).items()},
        "min": count,
        "max": count,
        "joiner": joiner,
        "lines": {key: line for key, (line, _) in lines.items()},
        "says": {key: says for key, (_, says) in lines.items()},
    }


def builder_data(you: Mapping[str, Any], position: Mapping[str, Any]) -> dict[str, Any]:
    """The order builder's data: per unit (and, for TS3 orders, a second optional slot), each
    order kind with its legal targets and the exact line it sends."""
    power = str(you.get("power"))
    at: dict[str, Mapping[str, Any]] = {u["region"]: u for u in position["units"]}

    def kind_of(region: str) -> str:
        unit = at.get(region)
        return "F" if unit is None or unit["type"] == "F" else "A"

    def name(region: str) -> str:
        unit = at.get(region)
        if unit is None:
            return region
        return f"{KIND_NAMES[_unit_glyph(unit)].lower()} in {region}"

    slots = []
    for unit in you.get("units", []):
        region, glyph = unit["region"], unit["type"]
        me = f"{glyph} {region}"
        owners: Mapping[str, str] = unit.get("owners", {})

        def of(space: str, owners: Mapping[str, str] = owners) -> str:
            """Another power's unit is written with its power in front (``P2 F sol-o``)."""
            return f"{owners[space]} " if space in owners else ""

        army_owner = unit.get("army_owner", power)
        army = f"{army_owner} " if army_owner != power else ""
        label = f"{KIND_NAMES[glyph]} in {region}"
        if unit.get("role") == "army":
            slots.append(_army_aboard(unit, power))
            continue
        if army:
            label += f" ({army_owner}'s army aboard)"
        scales = unit.get("time_scales", {})
        now: list[dict[str, Any]] = []
        later: list[dict[str, Any]] = []
        now.append(_option("hold", "Hold", "holds", {"": (f"TS2 {me} H", "holds")}))
        if unit["moves"]:
            now.append(
                _option(
                    "move",
                    "Move",
                    "moves to",
                    {m: (f"{me} -> {m}", f"moves to {m}") for m in unit["moves"]},
                )
            )
        if unit["support_holds"]:
            now.append(
                _option(
                    "support_hold",
                    "Support hold",
                    "supports",
                    {
                        r: (f"{me} S {kind_of(r)} {r}", f"supports the {name(r)} to hold")
                        for r in unit["support_holds"]
                    },
                )
            )
        if unit["support_moves"]:
            then: dict[str, list[str]] = {}
            lines = {}
            for source, target in unit["support_moves"]:
                then.setdefault(source, []).append(target)
                lines[f"{source} {target}"] = (
                    f"{me} S {kind_of(source)} {source} -> {target}",
                    f"supports the {name(source)} moving to {target}",
                )
            now.append(
                _option(
                    "support_move", "Support move", "supports", lines, then=then, joiner=" into "
                )
            )
        if unit.get("board"):
            now.append(
                _option(
                    "board",
                    f"Board a fleet (TS{scales.get('board', 1)})",
                    "boards the fleet in",
                    {
                        f: (
                            f"TS1 A {region} B {of(f)}F {f}",
                            f"boards {_whose(of(f))} in {f} (TS1)",
                        )
                        for f in unit["board"]
                    },
                )
            )
            later.append(
                _option(
                    "embark",
                    f"Embark (TS{scales.get('embark', 3)})",
                    "embarks on the fleet in",
                    {
                        f: (
                            f"TS3 A {region} E {of(f)}F {f}",
                            f"embarks on {_whose(of(f))} in {f} (TS3)",
                        )
                        for f in unit["board"]
                    },
                )
            )
        if unit.get("ferried_by"):
            then = {f: list(targets) for f, targets in unit["ferried_by"].items() if targets}
            lines = {
                f"{f} {t}": (
                    f"TS2 {of(f)}F {f} F/F A {region} -> {t}",
                    f"is fast-ferried by {_whose(of(f))} in {f} to {t} (TS2)",
                )
                for f, targets in then.items()
                for t in targets
            }
            if lines:
                now.append(
                    _option(
                        "ferried_by",
                        f"Be ferried by another's fleet (TS{scales.get('ferried_by', 2)})",
                        "is ferried by the fleet in",
                        lines,
                        then=then,
                        joiner=" to ",
                    )
                )
        if unit.get("land"):
            now.append(
                _option(
                    "land",
                    f"Land the army (TS{scales.get('land', 1)})",
                    "lands its army on",
                    {
                        t: (f"TS1 {army}A {region} L {t}", f"lands its army on {t} (TS1)")
                        for t in unit["land"]
                    },
                )
            )
            later.append(
                _option(
                    "disembark",
                    f"Disembark (TS{scales.get('disembark', 3)})",
                    "puts its army ashore on",
                    {
                        t: (f"TS3 {army}A {region} D {t}", f"puts its army ashore on {t} (TS3)")
                        for t in unit["land"]
                    },
                )
            )
        ferry = [r for r in unit.get("fast_ferry", []) if kind_of(r) == "A" and r in at]
        if ferry:
            then = {}
            lines = {}
            for shore in ferry:
                then[shore] = [t for t in unit["fast_ferry"] if t != shore]
                for target in then[shore]:
                    lines[f"{shore} {target}"] = (
                        f"F {region} F/F {of(shore)}A {shore} -> {target}",
                        f"fast-ferries {_whose(of(shore), 'army')} in {shore} to {target} (TS2)",
                    )
            now.append(
                _option(
                    "fast_ferry",
                    f"Fast Ferry (TS{scales.get('fast_ferry', 2)})",
                    "fast-ferries",
                    lines,
                    then=then,
                )
            )
        if unit.get("take_aboard"):
            guests = unit["take_aboard"]
            now.append(
                _option(
                    "take_aboard",
                    f"Take an army aboard (TS{scales.get('take_aboard', 1)})",
                    "takes aboard",
                    {
                        a: (
                            f"TS1 {of(a)}A {a} B F {region}",
                            f"takes {_whose(of(a), 'army')} in {a} aboard (TS1)",
                        )
                        for a in guests
                    },
                )
            )
            later.append(
                _option(
                    "take_aboard_embark",
                    f"Let an army embark (TS{scales.get('take_aboard_embark', 3)})",
                    "lets embark",
                    {
                        a: (
                            f"TS3 {of(a)}A {a} E F {region}",
                            f"lets {_whose(of(a), 'army')} in {a} embark (TS3)",
                        )
                        for a in guests
                    },
                )
            )
        if "ts3_move" in scales:
            seas = [m for m in unit["moves"] if is_sea(m)]
            if seas:
                later.append(
                    _option(
                        "ts3_move",
                        "Move into empty sea (TS3)",
                        "moves on to",
                        {m: (f"TS3 {me} -> {m}", f"moves on to {m} (TS3)") for m in seas},
                    )
                )
        slots.append({"sector": region, "slot": region, "label": label, "orders": now})
        if unit.get("support_landing"):
            slots.append(
                {
                    "sector": region,
                    "slot": f"{region} TS1",
                    "label": "↳ and at TS1, the fleet",
                    "orders": [
                        _option(
                            "support_landing",
                            f"Support the landing (TS{scales.get('support_landing', 1)})",
                            "supports its army landing on",
                            {
                                t: (
                                    f"TS1 F {region} S A {region} L {t}",
                                    f"supports its army landing on {t}, dislodging the unit "
                                    "there (TS1; the fleet may then not order at TS2)",
                                )
                                for t in unit["support_landing"]
                            },
                        )
                    ],
                    "optional": True,
                }
            )
        if later:
            slots.append(
                {
                    "sector": region,
                    "slot": f"{region} TS3",
                    "label": f"↳ then at TS3, the {KIND_NAMES[glyph].lower()}",
                    "orders": later,
                    "optional": True,
                }
            )
    for slot in slots:
        for option in slot["orders"]:
            made: dict[str, str] = {}
            for key, line in option["lines"].items():
                try:
                    made[key] = canonical(line, power)
                except OrderSyntaxError:  # not one the builder can offer
                    continue
            option["lines"] = made
    return {"units": slots, **_read_back(slots, you.get("submission"))}


def _whose(prefix: str, noun: str = "fleet") -> str:
    """``the fleet`` for one's own, ``P2's fleet`` for another power's."""
    return f"{prefix.strip()}'s {noun}" if prefix else f"the {noun}"


def _army_aboard(unit: Mapping[str, Any], power: str) -> dict[str, Any]:
    """The slot of an army of ``power`` aboard another power's fleet: its own orders (which come
    before the fleet owner's, module section G): land (TS1), or at TS3 go ashore or over to one
    of its own fleets. Optional: without an order the army stays aboard."""
    region, fleet_owner = unit["region"], unit["power"]
    scales = unit.get("time_scales", {})
    orders = []
    if unit.get("land"):
        orders.append(
            _option(
                "land",
                f"Land (TS{scales.get('land', 1)})",
                "lands on",
                {t: (f"TS1 A {region} L {t}", f"lands on {t} (TS1)") for t in unit["land"]},
            )
        )
        orders.append(
            _option(
                "disembark",
                f"Disembark (TS{scales.get('disembark', 3)})",
                "goes ashore on",
                {t: (f"TS3 A {region} D {t}", f"goes ashore on {t} (TS3)") for t in unit["land"]},
            )
        )
    if unit.get("disembark_to_fleet"):
        orders.append(
            _option(
                "disembark_to_fleet",
                f"Over to your fleet (TS{scales.get('disembark_to_fleet', 3)})",
                "moves aboard your fleet in",
                {
                    f: (f"TS3 A {region} D F {f}", f"moves aboard your fleet in {f} (TS3)")
                    for f in unit["disembark_to_fleet"]
                },
            )
        )
    return {
        "sector": region,
        "slot": f"{region} army",
        "label": f"Your army aboard {fleet_owner}'s A/F in {region}",
        "orders": orders,
        "optional": True,
    }


def _read_back(slots: Iterable[Mapping[str, Any]], submission: str | None) -> dict[str, Any]:
    """The stored sheet as the builder's orders (slot -> kind and targets); lines the builder
    cannot make (typed elsewhere) are kept as they are and sent again with the sheet."""
    known: dict[str, tuple[str, str, list[str]]] = {}
    for slot in slots:
        for option in slot["orders"]:
            for key, line in option["lines"].items():
                known[line] = (slot["slot"], option["kind"], key.split() if key else [])
    orders: dict[str, dict[str, Any]] = {}
    extra = []
    for line in (submission or "").splitlines():
        line = line.strip()
        if not line:
            continue
        if line in known:
            slot_key, kind, targets = known[line]
            orders[slot_key] = {"kind": kind, "targets": targets}
        else:
            extra.append(line)
    return {"orders": orders, "extra": extra, "submitted": []}


# Forms -------------------------------------------------------------------------------------


def retreat_choices(you: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each unit owed a retreat with its choices as whole order lines (a move or disband)."""
    out = []
    for retreat in you.get("retreats", []):
        # "P1: A/F vega-o (P2 army)" -> "A/F vega-o": the unit as an order names it.
        unit = retreat["unit"].split(": ", 1)[-1].split(" (", 1)[0]
        options = [(f"{unit} -> {o}", f"retreat to {o}") for o in retreat["options"]]
        options.append((f"{unit} disband", "disband"))
        out.append({"unit": unit, "region": retreat["region"], "options": options})
    return out


def seat_colour(seat: Mapping[str, Any]) -> str:
    """A seat's chip on the shared seat lists: its power's colour, once confirmed."""
    return colour_hex((seat.get("choice") or {}).get("power"))


def seat_side(seat: Mapping[str, Any]) -> str:
    return str((seat.get("choice") or {}).get("power") or "")


class CosmicClusterPages(BasePages):
    name = "cosmic-cluster"
    table_template = "cosmic_cluster/table.html"
    seat_template = "cosmic_cluster/seat.html"
    stylesheets = ("cluster.css",)
    correction_help = (
        "PLACE P1 A vega-3",
        "PLACE P1 F vega-o",
        "PLACE P1 A/F vega-o (P2 after it: P2's army aboard)",
        "REMOVE vega-3",
        "REMOVE P2 F vega-b (one of several in a box)",
        "MOVE vega-3 vega-4",
        "MOVE P1 F vega-b sol-b",
        "CLAIM vega-3 P2 (or none)",
    )
    demo_options: Mapping[str, Any] = MappingProxyType(
        {
            "discussion_seconds": 30,
            "command_seconds": 120,
            "retreat_seconds": 45,
            "build_seconds": 90,
        }
    )
    """A short game for ``companion serve --demo-game cosmic-cluster``."""

    def __init__(self) -> None:
        self._board = BoardCache(self._draw)

    def _draw(self, view: Mapping[str, Any]) -> Markup:
        """The cluster: before the game, its systems; then the position and the last season."""
        game = view.get("game")
        if game is None:
            return cluster_svg(view["setup"]["cluster"])
        return cluster_svg(
            game["cluster"],
            game["position"],
            last=view.get("last"),
            changes=game.get("centre_changes", ()),
        )

    def _stage_title(self, view: Mapping[str, Any]) -> str:
        stage = Stage.from_dict(view["stage_info"])
        position = (view.get("game") or {}).get("position")
        if not stage.playing or not position:
            return stage.title
        if stage == BUILD:
            return f"Winter {position['year']} adjustments"
        return f"{season_title(position)} {stage.title.lower()}"

    def table_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = view.get("game") or {}
        position = game.get("position")
        names = {f"P{s['seat']}": s["name"] for s in view["seats"]}
        standings = []
        if position:
            for power, count in game.get("centres", {}).items():
                standings.append(
                    {
                        "power": power,
                        "hex": colour_hex(power),
                        "name": names.get(power) or "",
                        "centres": count,
                        # An army aboard a fleet is a unit of its own power (ruling C5.3).
                        "units": sum(
                            (u["power"] == power) + (u.get("cargo") == power)
                            for u in position["units"]
                        ),
                    }
                )
        return {
            "board": self._board(view),
            "summary": summary_lines(view.get("last")),
            "standings": standings,
            "result": game.get("result"),
            "colour_hex": cosmic_colour,
            "title": title,
            "stage_title": self._stage_title(view),
            "seat_colour": seat_colour,
            "seat_side": seat_side,
        }

    def house_rules(self, view: Mapping[str, Any]) -> dict[str, Any]:
        game = view.get("game")
        rules = game["rules"] if game else (view.get("setup") or {}).get("rules")
        return dict(rules or {})

    def seat_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        you = view.get("you", {})
        power = you.get("power")
        seat = you.get("seat")
        game = view.get("game") or {}
        context: dict[str, Any] = {
            "board": self._board(view),
            "colour": power,
            "colour_hex": cosmic_colour,
            "title": title,
            "outcomes": my_outcomes(view.get("last"), power),
            "summary": summary_lines(view.get("last")),
            "result": game.get("result"),
            "stage_title": self._stage_title(view),
            "seat_colour": seat_colour,
            "seat_side": seat_side,
        }
        cluster = game["cluster"] if game else view["setup"]["cluster"]
        context["home_system"] = next(
            (s["name"] for s in cluster["systems"] if s["home_of"] == f"P{seat}"), None
        )
        if view["stage"] == Stage.LOBBY.value:
            context["home"] = context["home_system"]
        if view["stage"] == COMMAND.value and "units" in you:
            context["builder"] = builder_data(you, game["position"])
        if "retreats" in you:
            context["retreats"] = retreat_choices(you)
        if "adjustments" in you:
            context["adjustments"] = you["adjustments"]
        return context

    def choice_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        return {"home": form.get("home", "").strip()}

    def submission_from_form(self, stage: str, form: Any) -> str:
        if stage == RETREATS.value:
            return "\n".join(
                str(form[key]) for key in sorted(form) if key.startswith("retreat-") and form[key]
            )
        if stage == BUILD.value:
            lines = []
            for key in sorted(form):
                kind = str(form[key]).strip()
                if key.startswith("build-") and kind:
                    if kind not in ("A", "F"):
                        raise PageError(400, f"a build is an army (A) or a fleet (F), not {kind!r}")
                    lines.append(f"{kind} {key.removeprefix('build-')} build")
            lines.extend(f"{unit} disband" for unit in form.getlist("disband"))
            return "\n".join(lines)
        raise PageError(409, f"there is no form to send in the {stage} phase")


def cosmic_colour(power: str | None) -> str:
    """A seat's chip colour: its power's (the table panel asks with a seat's choice)."""
    if isinstance(power, Mapping):
        return colour_hex(power.get("power"))
    return colour_hex(power)


PAGES = CosmicClusterPages()
