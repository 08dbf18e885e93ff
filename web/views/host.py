"""The host's controls: pause, resume, extend, skip; corrections with undo; new seat links;
the game record. Every route needs the table's host secret (see web.security)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.local_cluster.settings import HouseRules, SupportRange
from web import panels
from web.errors import PageError
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
    """The host link (``?secret=...``) or the secret typed into the form."""
    table_or_404(table_id)
    secret = request.values.get("secret", "")
    if not secret and request.method == "GET":
        return render_template("host_login.html", table_id=table_id)
    if not service().check_host(table_id, secret):
        raise PageError(403, "That is not this table's host secret.")
    remember_host(table_id, secret)
    return render_template(
        "continue.html",
        message="You hold this table's host controls on this device.",
        target=url_for("host.page", table_id=table_id),
    )


@bp.get("/t/<table_id>/host")
def page(table_id: str) -> str:
    require_host(table_id)
    view = service().view(table_id)
    game = view.get("game") or {}
    rules = (
        game.get("state", {}).get("rules")
        or game.get("rules")
        or (view.get("setup") or {}).get("rules", {})
    )
    return render_template(
        "host.html",
        view=view,
        rules=rules,
        game_name=panels.game_of(table_id),
        games=GAMES,
        reissued=None,
        screen=panels.public_url("table.screen", table_id=table_id),
        attached=_attachments(table_id),
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
        tables.extend(table_id, _number(request.form.get("seconds", "")))
    elif action == "correct":
        tables.correct(table_id, request.form.get("text", ""), request.form.get("reason", ""))
    elif action == "undo":
        tables.undo(table_id)
    elif action == "attach":
        running = current_app.extensions.get("attachments")
        if running is None:
            raise PageError(409, "This server runs no panel or camera.")
        running.follow(table_id)
    elif action == "new":
        return _new_table(table_id)
    elif action == "reissue":
        seat = int(_number(request.form.get("seat", "")))
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


GAMES = {"local-cluster": "Local Cluster", "cosmic-cluster": "Cosmic Cluster"}
"""The games a new table may play, as the host's form names them."""

RULE_FIELDS = ("discussion_seconds", "command_seconds", "retreat_seconds", "build_seconds")


def _new_table(table_id: str) -> str:
    """Another table (a rematch) with the house rules the host chose; this host holds it."""
    form = request.form
    limit = form.get("turn_limit", "").strip()
    try:
        rules = HouseRules(
            support_range=SupportRange(form.get("support_range", "adjacent")),
            advance_claims_empty=bool(form.get("advance_claims_empty")),
            turn_limit=int(limit) if limit else None,
            **{name: int(form.get(name, "")) for name in RULE_FIELDS},
        )
        players = int(form.get("players", ""))
    except ValueError as err:
        raise PageError(400, f"Check the house rules: {err}.") from None
    game = form.get("game", "local-cluster")
    if game not in GAMES:
        raise PageError(
            400, f"There is no game called {game!r}; choose {' or '.join(GAMES.values())}."
        )
    options = rules.to_dict()
    if game == "cosmic-cluster":
        options = {name: options[name] for name in RULE_FIELDS}
    new_id, secret = service().create_table(
        form.get("name", ""), players, options=options, game=game
    )
    remember_host(new_id, secret)
    host_link = panels.public_url("host.login", table_id=new_id, secret=secret)
    return render_template(
        "new_table.html",
        table_id=new_id,
        name=service().view(new_id)["name"],
        screen=panels.public_url("table.screen", table_id=new_id),
        host_link=host_link,
        attached=_attachments(new_id),
    )


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise PageError(400, f"{text!r} is not a number") from None
