"""The host's controls: pause, resume, extend, skip; corrections with undo (in a turn-taking
game: the acting seat's move and an agreed undo of the last move); new seat links; a new table
of any registered game with its house rules; the game record. Every route needs the table's
host secret (see web.security)."""

from __future__ import annotations

import math
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from companion import games
from web import house_rules, panels
from web.errors import PageError
from web.games import pages_for
from web.security import (
    failed,
    join_limit,
    limiter,
    remember_host,
    require_host,
    service,
    table_or_404,
)

bp = Blueprint("host", __name__)


@bp.route("/t/<table_id>/host/login", methods=["GET", "POST"])
@limiter.limit(join_limit, deduct_when=failed)
def login(table_id: str) -> str:
    """The host secret typed into the form (a POST body: never a URL a log or the browser's
    history keeps; a secret in the query string is not read)."""
    table_or_404(table_id)
    if request.method == "GET":
        return render_template("host_login.html", table_id=table_id)
    if not service().check_host(table_id, request.form.get("secret", "")):
        raise PageError(403, "That is not this table's host secret.")
    remember_host(table_id)
    return _holding(table_id)


@bp.route("/t/<table_id>/host/link/<code>", methods=["GET", "POST"])
@limiter.limit(join_limit, deduct_when=failed)
def link(table_id: str, code: str) -> str:
    """A one-time host link: opened (GET) it asks, confirmed (POST) it is spent and this
    browser holds the host controls. A link preview or a prefetch spends nothing."""
    table_or_404(table_id)
    if request.method == "GET":
        return render_template("host_link.html", table_id=table_id)
    if not service().use_host_link(table_id, code):
        raise PageError(
            403,
            "This host link has been used, or replaced by a newer one, or is more than a day "
            "old. On the server, 'companion table host-link TABLE' makes a new one.",
        )
    remember_host(table_id)
    return _holding(table_id)


def _holding(table_id: str) -> str:
    return render_template(
        "continue.html",
        message="You hold this table's host controls on this device.",
        target=url_for("host.page", table_id=table_id),
    )


@bp.get("/t/<table_id>/host")
def page(table_id: str) -> str:
    require_host(table_id)
    view = service().view(table_id)
    info = games.get(view["game_name"])
    pages = pages_for(info.name)
    values = pages.house_rules(view)
    clock = service().table(table_id).turn_clock
    return render_template(
        "host.html",
        view=view,
        game=info,
        pages=pages,
        rules=house_rules.described(info, values),
        clock=clock.describe() if view["play"] == "turns" else None,
        forms=house_rules.forms(house_rules.playable(), info.name, values, clock),
        clock_words=house_rules.CLOCK_WORDS,
        reissued=None,
        screen=panels.public_url("table.screen", table_id=table_id),
        attached=_attachments(table_id),
        turn=panels.turn_context(view) if view["play"] == "turns" else None,
    )


def _attachments(table_id: str) -> dict[str, Any] | None:
    """What the host page says of the panels and camera: which table they serve (None when
    the server runs none, as in the tests' apps)."""
    running = current_app.extensions.get("attachments")
    if running is None or not running.chosen:
        return None
    serving = running.table_id
    name = None
    if serving is not None and serving != table_id:
        name = service().view(serving)["name"]
    return {
        "names": running.chosen,
        "here": serving == table_id,
        "table": serving,
        "table_name": name,
        "pinned": running.pinned,
        "problems": dict(running.problems),
    }


@bp.post("/t/<table_id>/host/<action>")
def act(table_id: str, action: str) -> str | BaseResponse:
    require_host(table_id)
    tables = service()
    if action == "pause":
        tables.pause(table_id)
    elif action == "resume":
        tables.resume(table_id)
    elif action == "skip":
        tables.skip(table_id)
    elif action == "extend":
        tables.extend(table_id, _seconds(request.form.get("seconds", "")))
    elif action == "correct":
        tables.correct(table_id, request.form.get("text", ""), request.form.get("reason", ""))
    elif action == "undo":
        tables.undo(table_id)
    elif action == "move":
        _play_for_acting_seat(table_id, request.form.get("text", ""))
    elif action == "attach":
        running = current_app.extensions.get("attachments")
        if running is None:
            raise PageError(409, "This server runs no panel or camera.")
        running.follow(table_id)
    elif action == "new":
        page = make_response(_new_table(table_id))
        page.headers["Cache-Control"] = "no-store"  # it shows the new table's host secret
        return page
    elif action == "reissue":
        seat = _seat(request.form.get("seat", ""))
        token = tables.reissue(table_id, seat)
        link = panels.public_url("seat.rejoin", table_id=table_id, seat=seat, token=token)
        return render_template(
            "reissued.html", table_id=table_id, seat=seat, link=link, qr=panels.qr_svg(link)
        )
    else:
        raise PageError(404, f"There is no host control called {action!r}.")
    return redirect(url_for("host.page", table_id=table_id))


@bp.get("/t/<table_id>/host/export")
def export(table_id: str) -> Response:
    require_host(table_id)
    record = service().export(table_id)
    return Response(
        record,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="table-{table_id}.json"'},
    )


def _play_for_acting_seat(table_id: str, text: str) -> None:
    """The host plays the move of the seat whose turn it is (a player without a phone)."""
    tables = service()
    with tables.lock:
        acting = tables.view(table_id)["acting"]
        if acting is None:
            raise PageError(409, "It is nobody's turn: there is no move to play now.")
        tables.submit(table_id, acting, text, final=True)


def _new_table(table_id: str) -> str:
    """Another table (a rematch, or another game) with the house rules the host chose; this
    host holds it."""
    form = request.form
    name = form.get("game", "").strip() or games.default().name
    playable = {game.name: game for game in house_rules.playable()}
    game = playable.get(name)
    if game is None:
        titles = " or ".join(g.title for g in playable.values())
        raise PageError(400, f"There is no game called {name!r} here; choose {titles}.")
    try:
        players = int(form.get("players", "").strip())
    except ValueError:
        raise PageError(
            400, f"Say how many players: {game.title} is for {game.seats_text()}."
        ) from None
    try:
        options = house_rules.options_from_form(game, form)
        clock = house_rules.turn_clock_from_form(game, form)
    except ValueError as err:
        raise PageError(400, f"Check the house rules: {err}.") from None
    new_id, secret = service().create_table(
        form.get("name", ""), players, options=options, game=game.name, turn_clock=clock
    )
    remember_host(new_id)
    code = service().make_host_link(new_id)
    host_link = panels.public_url("host.link", table_id=new_id, code=code)
    page = render_template(
        "new_table.html",
        table_id=new_id,
        name=service().view(new_id)["name"],
        screen=panels.public_url("table.screen", table_id=new_id),
        host_link=host_link,
        qr=panels.qr_svg(host_link),
        secret=secret,
        login=panels.public_url("host.login", table_id=new_id),
        attached=_attachments(new_id),
    )
    return page


def _seat(text: str) -> int:
    """A seat number as the form sends it: whole digits only (not ``2.5``, ``nan`` or ``1e309``,
    which once re-issued seat 2 or failed with a server error)."""
    given = text.strip()
    if not (given.isascii() and given.isdigit() and len(given) <= 3):
        raise PageError(400, f"Choose a seat by its number, such as 2 (not {text[:20]!r}).")
    return int(given)


def _seconds(text: str) -> float:
    """A number of seconds: a finite number (``nan``, ``inf`` and ``1e309`` are none)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds):
        raise PageError(400, f"{text[:20]!r} is not a number of seconds (such as 60).")
    return seconds
