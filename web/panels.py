"""The live parts of the table screen and the seat page, rendered from the service's views.

The full pages include these panels; the live stream (:mod:`web.live`) sends them again
whenever the table changes, so a page that reconnects simply gets the current panel.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import segno
from flask import current_app, render_template, request, url_for
from markupsafe import Markup

from companion.service.indicators import Indicators, indicators
from companion.service.session import Stage, StageKind
from web.games import GamePages, pages_for, static_url
from web.security import invitation, service

NO_COLOUR = "#888888"


def game_of(table_id: str) -> str:
    with service().lock:
        return service().table(table_id).setup.game


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute link for another device: ``PUBLIC_URL`` (the LAN address) when set."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for(endpoint, **values)


def qr_svg(link: str) -> Markup:
    return Markup(
        # A viewBox and no fixed size: the page draws it as large as its place allows.
        segno.make(link, error="m").svg_inline(
            scale=4, border=2, dark="#000", light="#fff", omitsize=True
        )
    )


def join_links(table_id: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """A join link and its QR code for every free seat (shown on the table screen)."""
    links = []
    for seat in view["seats"]:
        if seat["joined"]:
            continue
        link = public_url(
            "seat.join",
            table_id=table_id,
            seat=seat["seat"],
            invite=invitation(table_id, seat["seat"]),
        )
        links.append({"seat": seat["seat"], "link": link, "qr": qr_svg(link)})
    return links


def common(view: dict[str, Any]) -> dict[str, Any]:
    """What every panel gets before the game's own context (which may replace any of it)."""
    return {
        "view": view,
        "stage_title": view["stage_info"]["title"],
        "remaining": view["remaining"],
        "scan": view.get("scan"),
        "seat_colour": lambda seat: NO_COLOUR,
        "seat_side": lambda seat: "",
        "turn": turn_context(view) if view["play"] == "turns" else None,
    }


WARN_MOST = 30.0
"""The clocks warn (red) in the last tenth of a phase, and at most in its last 30 seconds."""


def warn_at(table_id: str) -> float:
    """Seconds left when the clocks turn red: a tenth of the stage's full length, at most 30
    (a 30-second discussion warns in its last 3 seconds, not from its start)."""
    with service().lock:
        table = service().table(table_id)
        length: float | None = None
        if table.stage.kind is StageKind.TURN and table.turn_clock.mode != "none":
            length = float(table.turn_clock.seconds)
        elif table.session is not None and table.stage.playing:
            seconds = table.session.durations().get(table.stage)
            length = None if seconds is None else float(seconds)
    return WARN_MOST if length is None else min(WARN_MOST, length / 10)


def clock_text(seconds: float | None) -> str:
    """``4:05`` (minutes and seconds, rounded up as the screens' clocks are)."""
    if seconds is None:
        return ""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def turn_context(view: dict[str, Any]) -> dict[str, Any]:
    """The shared parts of a turn-taking game's screens: whose turn it is, the move waiting
    for its "done" (``view["pending"]``), the moves the camera could not tell apart
    (``view["scan"]["moves"]``), and each seat's chess-clock time (``view["banks"]``)."""
    acting = view.get("acting")
    seats = {s["seat"]: s for s in view["seats"]}
    scan = view.get("scan") or {}
    pending = view.get("pending")
    candidates = list(scan.get("moves") or []) if acting is not None and not pending else []
    clock = view.get("turn_clock") or {"mode": "none", "seconds": 0}
    times: dict[int, str] = {}
    if clock["mode"] == "player":
        for number in seats:
            if number == acting:
                left = view["remaining"]
            else:
                left = view["banks"].get(str(number), clock["seconds"])
            times[number] = clock_text(left)
    return {
        "acting": seats.get(acting) if acting is not None else None,
        "pending": pending,
        "candidates": candidates if len(candidates) > 1 else [],
        "clock_mode": clock["mode"],
        "times": times,
    }


PANEL_MAX_AGE = 1.0
"""Seconds a rendered table panel is shared by every table stream (its clock is refreshed by
the ticks in between); a change to the table renders it again at once. The seconds are the
service's own, the clock the panel's countdown is read from: a panel is never more than this
behind the time it shows."""


_render_lock = threading.Lock()


def _version(table_id: str) -> tuple[int, float | None]:
    """Changes whenever a panel can look different: a log entry, or a new camera scan (not
    stored, so not in the log)."""
    with service().lock:
        scan = service().scans.get(table_id)
        return service().table(table_id).seq, None if scan is None else scan["at"]


def board_version(table_id: str) -> tuple[int, int]:
    """Changes whenever the board can look different: a game step (a turn, retreats, builds,
    a correction or its undo) or, before the start, a seat's choice of home."""
    with service().lock:
        table = service().table(table_id)
        steps = table.session.step_count() if table.session is not None else -1
        return steps, sum(1 for seat in table.seats.values() if seat.choice is not None)


def table_panel(table_id: str) -> str:
    """The table screen's panel; one rendering is shared by all the streams watching it."""
    return table_panel_and_lights(table_id)[0]


def table_panel_and_lights(table_id: str) -> tuple[str, Indicators]:
    """The shared panel and the panel lights it shows (for the streams' buzzer cues)."""
    cache: dict[str, tuple[Any, float, str, Indicators]] = current_app.extensions.setdefault(
        "companion_panels", {}
    )
    with _render_lock:  # the first stream renders; the others wait and share it
        version = _version(table_id)
        cached = cache.get(table_id)
        now = service().clock.now()
        if cached is not None and cached[0] == version and 0 <= now - cached[1] < PANEL_MAX_AGE:
            return cached[2], cached[3]
        html, lights = _render_table_panel(table_id, version)
        cache[table_id] = (version, now, html, lights)
        return html, lights


def led_colour(colour: tuple[float, float, float]) -> str:
    """A phase LED colour for CSS: its hue at full brightness, dimmer ones more transparent."""
    brightest = max(colour)
    if brightest <= 0:
        return "rgba(0, 0, 0, 0)"
    red, green, blue = (round(255 * channel / brightest) for channel in colour)
    return f"rgba({red}, {green}, {blue}, {0.35 + 0.65 * brightest:.2f})"


def _render_table_panel(table_id: str, version: Any) -> tuple[str, Indicators]:
    view = service().view(table_id)
    view["version"] = version
    view["board_version"] = board_version(table_id)
    game = pages_for(game_of(table_id))
    lights = indicators(view)
    html = render_template(
        "table_panel.html",
        game=game,
        move_url=url_for("table.confirm_move", table_id=table_id),
        warn=warn_at(table_id),
        joins=join_links(table_id, view) if view["stage"] == Stage.LOBBY.value else [],
        lights=lights.to_dict(),
        phase_light={"css": led_colour(lights.colour), "text": lights.describe_colour()},
        **{**common(view), **game.table_context(view)},  # a game may name its stages
    )
    return html, lights


def seat_panel(table_id: str, seat: int) -> str:
    version = _version(table_id)
    view = service().view(table_id, seat)
    view["version"] = version
    view["board_version"] = board_version(table_id)
    game = pages_for(game_of(table_id))
    you = view["you"]
    me = next(s for s in view["seats"] if s["seat"] == seat)
    kind = view["stage_info"]["kind"]
    return render_template(
        "seat_panel.html",
        game=game,
        seat=seat,
        me=me,
        you=you,
        owing=kind in (StageKind.SECRET.value, StageKind.TURN.value) and _owes(table_id, seat),
        # The ready press ends a discussion or a phase of secret orders early (R8.1); in a
        # turn the move box plays the move at once instead.
        may_ready=me["awaited"] and kind in (StageKind.DISCUSSION.value, StageKind.SECRET.value),
        warn=warn_at(table_id),
        # Ready with nothing sent: what that means, in the game's words (every unit holds).
        nothing_sent=(
            game.describe_submission(view, "")
            if kind == StageKind.SECRET.value and you.get("submission") is None
            else None
        ),
        **{**common(view), **game.seat_context(view)},
    )


def assets(game: GamePages) -> dict[str, list[str]]:
    """The links of a game's own stylesheets and scripts (in its static folder)."""
    out: dict[str, list[str]] = {"stylesheets": [], "scripts": []}
    for kind in out:
        for filename in getattr(game, kind):
            endpoint, values = static_url(game, filename)
            out[kind].append(url_for(endpoint, _external=False, **values))
    return out


def _owes(table_id: str, seat: int) -> bool:
    with service().lock:
        table = service().table(table_id)
        return table.session is not None and seat in table.session.owing()
