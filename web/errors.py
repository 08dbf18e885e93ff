"""Problems become messages for the person, as HTML or JSON depending on who asked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError
from companion.service.session import SubmissionError

CSRF_MESSAGE = (
    "This form has expired or did not come from this site (missing or invalid CSRF token). "
    "Reload the page and try again."
)
RATE_MESSAGE = "Too many bad attempts from this device. Wait a minute, then try the link again."


class PageError(Exception):
    """A refusal with an HTTP status and a sentence (and maybe reasons) for the person."""

    def __init__(
        self,
        status: int,
        message: str,
        reasons: Sequence[str] = (),
        *,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reasons = tuple(reasons)
        self.headers = dict(headers or {})


def wants_json() -> bool:
    return request.is_json or request.accept_mimetypes.best == "application/json"


def respond(status: int, message: str, reasons: Sequence[str] = ()) -> tuple[Response | str, int]:
    if wants_json():
        return jsonify({"ok": False, "error": message, "reasons": list(reasons)}), status
    page = render_template("message.html", message=message, reasons=reasons, status=status)
    return page, status


def init_app(app: Flask) -> None:
    @app.errorhandler(PageError)
    def page_error(err: PageError) -> tuple[Response | str, int, dict[str, str]]:
        body, status = respond(err.status, err.message, err.reasons)
        return body, status, err.headers

    @app.errorhandler(SubmissionError)
    def submission_error(err: SubmissionError) -> tuple[Response | str, int]:
        count = len(err.reasons)
        head = "That was not accepted" + (f" ({count} problems):" if count > 1 else ":")
        return respond(422, head, err.reasons)

    @app.errorhandler(CompanionError)
    def companion_error(err: CompanionError) -> tuple[Response | str, int]:
        return respond(409, str(err))

    @app.errorhandler(CSRFError)
    def csrf_error(err: CSRFError) -> tuple[Response | str, int]:
        return respond(400, CSRF_MESSAGE)

    @app.errorhandler(429)
    def rate_limited(err: HTTPException) -> tuple[Response | str, int]:
        return respond(429, RATE_MESSAGE)

    @app.errorhandler(413)
    def too_large(err: HTTPException) -> tuple[Response | str, int]:
        limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
        return respond(
            413,
            f"That is too much to send at once (at most {limit // 1024} KB). An order sheet "
            "is far smaller: check what you pasted, or send it in parts.",
        )

    @app.errorhandler(400)
    def bad_request(err: HTTPException) -> tuple[Response | str, int]:
        return respond(
            400, "The server could not read that request. Reload the page and try again."
        )

    @app.errorhandler(404)
    def not_found(err: HTTPException) -> tuple[Response | str, int]:
        return respond(404, "There is no such page here. Check the link you opened.")

    @app.errorhandler(405)
    def wrong_method(err: HTTPException) -> tuple[Response | str, int]:
        return respond(405, f"{request.method} is not how this page is used.")
