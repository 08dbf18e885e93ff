"""A seat's phone: joining, choosing, orders, retreats, the build phase, ready; in a
turn-taking game, the acting seat's move (``/seat/move``) and its drafts (``/seat/preview``).

Every POST that changes something takes an optional ``request_id`` (the phone makes one per
action and sends it again after a lost connection): the service applies it at most once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import games
from web import panels
from web.errors import PageError, wants_json
from web.games import pages_for
from web.security import (
    check_invitation,
    failed,
    join_limit,
    limiter,
    remember_seat,
    require_seat,
    seat_of,
    service,
    table_or_404,
)

bp = Blueprint("seat", __name__)


def _done(table_id: str, **data: Any) -> Response | BaseResponse:
    if wants_json():
        return jsonify({"ok": True, **data})
    return redirect(url_for("seat.page", table_id=table_id))


def _seat_view(table_id: str, seat: int) -> dict[str, Any]:
    view = service().view(table_id)
    if not 1 <= seat <= len(view["seats"]):
        raise PageError(404, f"This table has seats 1 to {len(view['seats'])}; not {seat}.")
    return view


@bp.route("/t/<table_id>/join/<int:seat>/<invite>", methods=["GET", "POST"])
@limiter.limit(join_limit, deduct_when=failed)
def join(table_id: str, seat: int, invite: str) -> str | BaseResponse:
    """A free seat's join link (its QR code): the phone that opens it takes the seat."""
    table_or_404(table_id)
    view = _seat_view(table_id, seat)
    if not check_invitation(table_id, seat, invite):
        raise PageError(403, "This join link is not valid. Scan the QR code on the table screen.")
    if view["seats"][seat - 1]["joined"]:
        if seat_of(table_id) == seat:
            return redirect(url_for("seat.page", table_id=table_id))
        raise PageError(
            409,
            f"Seat {seat} is taken. Pick a free seat's QR code, or ask the host to re-issue "
            "this seat's link if it is yours.",
        )
    if request.method == "GET":
        return render_template("join.html", view=view, seat=seat)
    token = service().join(table_id, seat, request.form.get("name", ""))
    remember_seat(table_id, token)
    return redirect(url_for("seat.page", table_id=table_id))


@bp.get("/t/<table_id>/rejoin/<int:seat>/<token>")
@limiter.limit(join_limit, deduct_when=failed)
def rejoin(table_id: str, seat: int, token: str) -> str:
    """A link the host re-issued for a seat's new phone."""
    table_or_404(table_id)
    _seat_view(table_id, seat)
    if service().seat_for_token(table_id, token) != seat:
        raise PageError(
            403, "This seat link is not valid any more. Ask the host to re-issue it again."
        )
    remember_seat(table_id, token)
    return render_template(
        "continue.html",
        message=f"This phone now holds seat {seat}.",
        target=url_for("seat.page", table_id=table_id),
    )


@bp.get("/t/<table_id>/seat")
def page(table_id: str) -> str:
    seat = require_seat(table_id)
    view = service().view(table_id)
    return render_template(
        "seat.html",
        view=view,
        seat=seat,
        panel=panels.seat_panel(table_id, seat),
        assets=panels.assets(pages_for(view["game_name"])),
    )


@bp.get("/t/<table_id>/seat/panel")
def panel(table_id: str) -> str:
    seat = require_seat(table_id)
    return panels.seat_panel(table_id, seat)


@bp.post("/t/<table_id>/seat/choose")
def choose(table_id: str) -> Response | BaseResponse:
    """The seat's colour and home sector (rulebook 3.2), in the choosing order."""
    seat = require_seat(table_id)
    game = pages_for(panels.game_of(table_id))
    choice = service().choose(table_id, seat, game.choice_from_form(request.form))
    return _done(table_id, choice=choice)


@bp.post("/t/<table_id>/seat/orders")
def orders(table_id: str) -> Response | BaseResponse:
    """The seat's whole order sheet (or retreat choices, or build plan) as text; it replaces
    the earlier one. A void order is refused at once with the reason."""
    seat = require_seat(table_id)
    text = _payload().get("text")
    if not isinstance(text, str):
        raise PageError(400, "Send the orders as text: one order a line.")
    stored = service().submit(table_id, seat, text, request_id=_request_id())
    return _done(table_id, text=stored, said=_said(table_id, seat, stored))


def _said(table_id: str, seat: int, stored: str) -> list[str]:
    """What was stored, in the game's words (an empty order sheet: every unit holds)."""
    view = service().view(table_id, seat)
    return pages_for(view["game_name"]).describe_submission(view, stored)


@bp.post("/t/<table_id>/seat/move")
def move(table_id: str) -> Response | BaseResponse:
    """A turn-taking game's move, played at once if the game accepts it: answered with the
    move as the game writes it (``{"ok": true, "text": "b2"}``), or with the game's reasons
    (422)."""
    seat = require_seat(table_id)
    text = _payload().get("text")
    if not isinstance(text, str) or not text.strip():
        raise PageError(400, "Send the move as text in the game's notation.")
    stored = service().submit(table_id, seat, text, request_id=_request_id(), final=True)
    return _done(table_id, text=stored)


@bp.post("/t/<table_id>/seat/preview")
def preview(table_id: str) -> Response:
    """What a draft move would do (the game's preview, or the move checked), stored nowhere:
    ``{"ok": true, "text": ..., "says": ...}``, or the game's reasons (422)."""
    seat = require_seat(table_id)
    text = _payload().get("text")
    if not isinstance(text, str):
        raise PageError(400, "Send the draft move as text.")
    return jsonify({"ok": True, **service().preview(table_id, seat, text)})


@bp.post("/t/<table_id>/seat/form")
def form(table_id: str) -> Response | BaseResponse:
    """The retreat and build forms: turned into the game's notation, then submitted."""
    seat = require_seat(table_id)
    stage = request.form.get("stage", "")
    with service().lock:
        current = service().table(table_id).stage
    info = _game(table_id)
    if stage != current.value:
        raise PageError(
            409,
            f"This form was for the {_title(info, stage)} phase, which has ended; it is now "
            f"{current.title}.",
        )
    game = pages_for(panels.game_of(table_id))
    text = game.submission_from_form(stage, request.form)
    stored = service().submit(table_id, seat, text, request_id=_request_id())
    return _done(table_id, text=stored, said=_said(table_id, seat, stored))


@bp.post("/t/<table_id>/seat/ready")
def ready(table_id: str) -> Response | BaseResponse:
    seat = require_seat(table_id)
    data = _payload()
    value = data.get("ready", True)
    is_ready = value not in (False, "false", "0", "no")
    stage_text = data.get("stage")
    stage = None
    if stage_text:
        try:
            stage = _game(table_id).stage(str(stage_text))
        except games.UnknownGameError:
            raise PageError(400, f"there is no phase called {stage_text!r}") from None
    turn = data.get("turn")
    try:
        seen_turn = None if turn in (None, "") else int(str(turn))
    except ValueError:
        raise PageError(400, f"{turn!r} is not a turn number") from None
    before = service().view(table_id, seat)
    done = service().set_ready(
        table_id, seat, is_ready, stage=stage, turn=seen_turn, request_id=_request_id()
    )
    if done and before["stage_info"]["kind"] == "secret" and before["you"]["submission"] is None:
        # Ready with nothing sent: say what that means (e.g. every unit holds).
        said = pages_for(before["game_name"]).describe_submission(before, "")
        return _done(table_id, ready=done, message="Ready ✓, with nothing sent:", said=said)
    return _done(table_id, ready=done)


def _request_id() -> str | None:
    """The phone's id for this action, if it sent one (a form field or a JSON key)."""
    value = _payload().get("request_id")
    return str(value) if value else None


def _payload() -> Mapping[str, Any]:
    """A POST's fields: its JSON object, or its form."""
    if request.is_json:
        data = request.get_json(silent=True)
        return data if isinstance(data, dict) else {}
    return request.form


def _game(table_id: str) -> games.Game:
    with service().lock:
        return service().table(table_id).game


def _title(info: games.Game, stage: str) -> str:
    try:
        return info.stage(stage).title
    except games.UnknownGameError:
        return repr(stage)
