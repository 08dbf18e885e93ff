"""Helpers shared by the web tests: a site over the test's service, a live server in a thread,
and a client that acts like a phone (joins a seat, sends forms with their CSRF token)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.local_cluster.settings import HouseRules
from companion.service import TableService
from web import create_app
from web.security import invitation
from web.serving import BackgroundServer

CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive (``make test`` installs it)."""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Headless, and no calls home: this machine's closed network refuses them."""


def make_app(service: TableService, **config: Any) -> Flask:
    return create_app({"SERVICE": service, "SECRET_KEY": "test-key-" + "x" * 32, **config})


def new_table(
    service: TableService, *, turn_limit: int | None = 3, seed: int = 5
) -> tuple[str, str]:
    rules = HouseRules(turn_limit=turn_limit, command_seconds=600, discussion_seconds=600)
    return service.create_table("Test table", 2, seed=seed, options=rules.to_dict())


def csrf_of(client: FlaskClient, url: str) -> str:
    page = client.get(url)
    found = CSRF.search(page.get_data(as_text=True))
    assert found, f"no CSRF token on {url}"
    return found.group(1)


def host_login(client: FlaskClient, table_id: str, secret: str) -> Any:
    """Type the host secret into the host login form (a POST, as a browser sends it)."""
    token = csrf_of(client, f"/t/{table_id}/host/login")
    return client.post(f"/t/{table_id}/host/login", data={"secret": secret, "csrf_token": token})


def join_link(app: Flask, table_id: str, seat: int) -> str:
    with app.test_request_context():
        return f"/t/{table_id}/join/{seat}/{invitation(table_id, seat)}"


def join(app: Flask, client: FlaskClient, table_id: str, seat: int, name: str) -> str:
    """Take a seat through its join link, as a phone does; returns the CSRF token to use."""
    link = join_link(app, table_id, seat)
    token = csrf_of(client, link)
    answer = client.post(link, data={"name": name, "csrf_token": token})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return token


@contextmanager
def live_server(app: Flask) -> Iterator[str]:
    """The app on the real server (uvicorn, web/serving.py) on a free port; yields its URL."""
    with BackgroundServer(app) as server:
        yield server.url


class Phone:
    """One browser: its own cookies and its CSRF token."""

    def __init__(self, app: Flask, table_id: str) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        self.table_id = table_id
        self.token = ""

    def join(self, seat: int, name: str) -> Phone:
        self.token = join(self.app, self.client, self.table_id, seat, name)
        return self

    def post(self, path: str, **kwargs: Any) -> Any:
        headers = kwargs.pop("headers", {})
        headers.setdefault("X-CSRFToken", self.token)
        headers.setdefault("Accept", "application/json")
        return self.client.post(f"/t/{self.table_id}{path}", headers=headers, **kwargs)

    def get(self, path: str) -> Any:
        return self.client.get(f"/t/{self.table_id}{path}")


def refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.get_data(as_text=True)
    page = html.unescape(response.get_data(as_text=True))
    body = response.get_json() if response.is_json else {"error": page}
    text = " ".join([body["error"], *body.get("reasons", [])])
    assert words in text, text
