"""Who is asking: seats by their token, the host by the table's secret; CSRF and rate limits.

* A phone holds its seat's token in the session cookie (signed, HttpOnly, SameSite=Strict); every
  request checks it with :meth:`TableService.seat_for_token` (constant time), so a re-issued
  link shuts out the old phone at once.
* A free seat's join link carries an invitation: an HMAC of the table, the seat and the
  app's secret key, compared with :func:`hmac.compare_digest`. It dies when the seat is taken.
* The host's session holds a key bound to the table's current host secret (an HMAC of the
  secret's stored hash, never the secret itself), checked on every host request: a new host
  secret (``companion table host-link``) shuts out every browser that held the old one. The
  secret is typed into a form (a POST body), or a one-time host link is opened: it never sits
  in a URL that a log or the browser's history keeps.
* Every POST needs a CSRF token (Flask-WTF); bad join and host-login attempts are rate
  limited per address (Flask-Limiter, in memory: one server process).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, cast

from flask import Flask, Response, current_app, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

from companion.service import TableService
from web.errors import PageError

csrf = CSRFProtect()
limiter = Limiter(get_remote_address, storage_uri="memory://", strategy="fixed-window")


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    limiter.init_app(app)


def failed(response: Response) -> bool:
    """Count a request against the join limit only when it was refused."""
    return response.status_code >= 400


def join_limit() -> str:
    return str(current_app.config["JOIN_LIMIT"])


def service() -> TableService:
    return cast(TableService, current_app.extensions["companion"])


def table_or_404(table_id: str) -> None:
    if table_id not in service().table_ids():
        raise PageError(404, f"There is no table {table_id!r} here. Check the link you opened.")


# Seats ---------------------------------------------------------------------------------------


def invitation(table_id: str, seat: int) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    mac = hmac.new(key, f"join:{table_id}:{seat}".encode(), hashlib.sha256)
    return mac.hexdigest()[:24]


def check_invitation(table_id: str, seat: int, given: str) -> bool:
    return hmac.compare_digest(invitation(table_id, seat).encode(), given.encode())


def remember_seat(table_id: str, token: str) -> None:
    seats: dict[str, Any] = dict(session.get("seats", {}))
    seats[table_id] = token
    session["seats"] = seats


def seat_of(table_id: str) -> int | None:
    """The seat this browser holds at the table, or None."""
    token = session.get("seats", {}).get(table_id)
    if not isinstance(token, str) or not token:
        return None
    return service().seat_for_token(table_id, token)


def require_seat(table_id: str) -> int:
    table_or_404(table_id)
    seat = seat_of(table_id)
    if seat is None:
        raise PageError(
            403,
            "This phone does not hold a seat at this table. Scan your seat's QR code on the "
            "table screen, or ask the host for a new link if your seat was given to another "
            "phone.",
        )
    return seat


# Host ----------------------------------------------------------------------------------------


def host_key(table_id: str) -> str:
    """What a host's session holds for the table: bound to its current host secret's hash."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    bound = f"host:{table_id}:{service().host_key(table_id)}".encode()
    return hmac.new(key, bound, hashlib.sha256).hexdigest()


def remember_host(table_id: str) -> None:
    """This browser holds the table's host controls (until its host secret changes)."""
    hosts: dict[str, Any] = dict(session.get("hosts", {}))
    hosts[table_id] = host_key(table_id)
    session["hosts"] = hosts


def is_host(table_id: str) -> bool:
    held = session.get("hosts", {}).get(table_id)
    return isinstance(held, str) and hmac.compare_digest(held.encode(), host_key(table_id).encode())


def require_host(table_id: str) -> None:
    table_or_404(table_id)
    if not is_host(table_id):
        raise PageError(
            403,
            "The host controls need the table's host secret: type it on the host login page, "
            "or open a host link ('companion table host-link TABLE' on the server makes one).",
        )
