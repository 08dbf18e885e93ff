"""The table screen: the board, the clock, who is ready, the results; QR codes to join; in a
turn-taking game, the move the camera saw, to confirm or choose among."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.service.computer import ComputerSeats
from web import panels
from web.errors import PageError, wants_json
from web.games import pages_for
from web.security import service, table_or_404

bp = Blueprint("table", __name__)


@bp.get("/")
def index() -> str:
    """Every table this server runs, with its screen's link."""
    views = [service().view(table_id) for table_id in service().table_ids()]
    return render_template("index.html", tables=views)


@bp.get("/t/<table_id>")
def screen(table_id: str) -> str:
    table_or_404(table_id)
    view = service().view(table_id)
    return render_template(
        "table.html",
        view=view,
        panel=panels.table_panel(table_id),
        assets=panels.assets(pages_for(view["game_name"])),
    )


@bp.get("/t/<table_id>/panel")
def panel(table_id: str) -> str:
    table_or_404(table_id)
    return panels.table_panel(table_id)


@bp.post("/t/<table_id>/move")
def confirm_move(table_id: str) -> Response | BaseResponse:
    """At the table, for the seat whose turn it is: confirm the move waiting for its "done"
    (``{"text": the pending move}``: the camera's, as the panel's button would), play one of
    the moves the camera could not tell apart (``{"text": one of them, "choose": true}``), or
    enter a move tapped on the table screen's board (``{"text": a move, "enter": true}``: a
    touch screen beside the board), which then waits for its "done" like the camera's.

    Like the panels' buttons, this needs no seat: the board on the table is the truth. Only a
    move the screen shows is played at once; an entered one is checked by the game and waits
    for confirmation (on the screen, the seat's phone or its panel button). The computer's
    seats take no moves from the screen."""
    table_or_404(table_id)
    data = _payload()
    text = str(data.get("text", ""))
    tables = service()
    with tables.lock:
        view = tables.view(table_id)
        turn = panels.turn_context(view) if view["play"] == "turns" else None
        acting = view["acting"]
        if turn is None or acting is None:
            raise PageError(409, "It is nobody's turn: there is no move to confirm.")
        if data.get("enter"):
            table = tables.table(table_id)
            holder = table.session
            if isinstance(holder, ComputerSeats) and acting in holder.computer_seats():
                raise PageError(409, "The computer plays this seat: wait for its move.")
            text = tables.submit(table_id, acting, text, final=False)
        elif data.get("choose"):
            if text not in turn["candidates"]:
                raise PageError(
                    409,
                    f"{text!r} is not one of the moves the camera saw; look at the screen again.",
                )
            tables.submit(table_id, acting, text, final=True)
        else:
            pending = turn["pending"]
            if pending is None or pending["text"] != text:
                raise PageError(409, "That move is no longer waiting; look at the screen again.")
            tables.set_ready(table_id, acting, True, stage=view["stage"])
    if wants_json():
        return jsonify({"ok": True, "text": text})
    return redirect(url_for("table.screen", table_id=table_id))


def _acting_turn(table_id: str, data: Mapping[str, Any]) -> tuple[int, str]:
    """For the table screen's turn builder: the acting seat and the draft, refused unless the
    game's pages allow it (``table_turns``) and the seat and turn are still the ones the screen
    drafted for (so a draft never lands in the next player's turn)."""
    table_or_404(table_id)
    view = service().view(table_id)
    if view["play"] != "turns" or not pages_for(view["game_name"]).table_turns:
        raise PageError(409, "This game's turns are played on the phones, not on this screen.")
    text = data.get("text")
    if not isinstance(text, str):
        raise PageError(400, "Send the draft turn as text in the game's notation.")
    acting = view["acting"]
    if acting is None:
        raise PageError(409, "It is nobody's turn now.")
    if str(data.get("seat")) != str(acting) or str(data.get("turn")) != str(view["turn"]):
        raise PageError(
            409, "The turn has moved on since this draft was made; look at the screen again."
        )
    return acting, text


@bp.post("/t/<table_id>/turn/preview")
def turn_preview(table_id: str) -> Response:
    """What the acting seat's draft turn would do, tried from the table screen
    (``{"text", "seat", "turn"}``); nothing is stored."""
    seat, text = _acting_turn(table_id, _payload())
    return jsonify({"ok": True, **service().preview(table_id, seat, text)})


@bp.post("/t/<table_id>/turn/move")
def turn_move(table_id: str) -> Response | BaseResponse:
    """The acting seat's turn (or part of it), played from the table screen."""
    seat, text = _acting_turn(table_id, _payload())
    stored = service().submit(table_id, seat, text, final=True)
    if wants_json():
        return jsonify({"ok": True, "text": stored})
    return redirect(url_for("table.screen", table_id=table_id))


def _payload() -> Mapping[str, Any]:
    if request.is_json:
        data = request.get_json(silent=True)
        return data if isinstance(data, dict) else {}
    return request.form
