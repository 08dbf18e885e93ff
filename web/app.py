"""The application factory: one Flask app over one table service."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, send_from_directory
from flask.json.provider import DefaultJSONProvider
from jinja2 import ChoiceLoader

from companion.service import Storage, TableService
from web import errors, live, security
from web.games import GameTemplates, static_folder_of
from web.views import host, seat, table

SECRET_KEY_BYTES = 32
MAX_BODY_BYTES = 64 * 1024
"""The largest request body the site reads: a few order sheets' worth."""


class SafeJSON(DefaultJSONProvider):
    """Flask's JSON, where a document nested too deeply for Python to read is bad JSON (a
    400 with a sentence), not a server error."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("the JSON is nested too deeply") from None


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The site. ``config`` keys (all optional but one of ``SERVICE`` / ``DB``):

    * ``SERVICE``: a running :class:`TableService` to serve (tests pass their own); or
    * ``DB``: the database path; the app opens a service on it and starts its timer.
    * ``SECRET_KEY``: signs the session cookie; default: read from (or written to)
      ``<db>.secret`` beside the database, never kept in the repository.
    * ``JOIN_LIMIT``: how many bad join or host-login attempts one address may make
      (default ``"10 per minute"``, Flask-Limiter notation).
    """
    app = Flask(__name__)
    app.json = SafeJSON(app)
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="companion",
        JOIN_LIMIT="10 per minute",
        WTF_CSRF_TIME_LIMIT=None,  # a phone stays on its page for the whole game
        SSE_KEEPALIVE=15.0,
        SSE_COALESCE=0.1,
        JSON_SORT_KEYS=False,
        # Every request has a size (issue 11): a body over this is refused with 413 before
        # it is read. An order sheet is a few kilobytes.
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_BODY_BYTES,
    )
    app.config.update(config or {})
    service = app.config.get("SERVICE")
    if service is None:
        db = app.config.get("DB")
        if db is None:
            raise ValueError("create_app needs SERVICE (a TableService) or DB (a database path)")
        service = TableService(Storage(db))
        service.start_timer()
        app.config["SERVICE"] = service
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(service.storage.path))
    app.extensions["companion"] = service
    security.init_app(app)
    errors.init_app(app)
    live.init_app(app)
    app.register_blueprint(table.bp)
    app.register_blueprint(seat.bp)
    app.register_blueprint(host.bp)
    # A game's pages may come from outside this package, with their own templates and files.
    app.jinja_loader = ChoiceLoader([app.jinja_loader, GameTemplates()])  # type: ignore[list-item]

    @app.get("/games/<game>/static/<path:filename>")
    def game_static(game: str, filename: str) -> Response:
        return send_from_directory(static_folder_of(game), filename)

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return send_from_directory(
            Path(app.root_path) / "static", "favicon.ico", mimetype="image/vnd.microsoft.icon"
        )

    return app


def _secret_key(db: Path) -> str:
    """The session-signing key stored beside the database (``<db>.secret``, mode 0600)."""
    path = db.with_name(db.name + ".secret")
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 32:
            return text
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(SECRET_KEY_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key + "\n")
    return key
