"""Issue 11: every request has a size and a shape.

A fuzz test over every POST route, as a seated phone and as the host (with valid CSRF
tokens, so each request reaches its view): whatever the form fields, the JSON (deeply nested,
of the wrong kinds), the raw bytes or the numbers (``nan``, ``inf``, ``1e309``, ``2.5``),
the answer is never a server error, a refusal is a 4xx with a sentence for the person, and a
refused request changes nothing. Before the fix the host's re-issue form answered 500 for seat
``nan``, ``inf`` and ``1e309`` and re-issued seat 2 for ``2.5``; deeply nested JSON to
``/seat/orders`` was a 500. Bodies over the cap are refused with 413 before they are read,
also by a real ``companion serve``.
"""

from __future__ import annotations

import html
import json
import re
import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import Phone, csrf_of, make_app, new_table

from benchmarks import crowd
from companion.service import FakeClock, Storage, TableService
from web.app import MAX_BODY_BYTES

NUMBERS = ["nan", "inf", "-inf", "1e309", "2.5", "-1", "0", "3", "1" * 30, "", " 2 ", "２", "٢"]
FIELDS = [
    "seat", "seconds", "text", "reason", "stage", "ready", "request_id", "name", "players",
    "game", "secret", "choose", "colour", "home", "turn_limit", "csrf_token",
]  # fmt: skip
SEAT_ROUTES = ["orders", "move", "preview", "form", "ready", "choose"]
HOST_ACTIONS = [
    "pause", "resume", "skip", "extend", "correct", "undo", "reissue", "new", "attach",
    "move", "nonsense",
]  # fmt: skip

values = st.one_of(
    st.sampled_from(NUMBERS),
    st.text(max_size=40),
    st.sampled_from(["HOLD S21", "ADVANCE S21 S12", "command", "discussion", "true", "false"]),
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)
    ),
    max_leaves=12,
)
deep = st.integers(min_value=500, max_value=200_000).map(lambda n: "[" * n + "]" * n)
bodies = st.one_of(
    st.tuples(st.just("form"), st.dictionaries(st.sampled_from(FIELDS), values, max_size=5)),
    st.tuples(st.just("json"), json_values),
    st.tuples(st.just("raw-json"), st.one_of(deep, st.text(max_size=60))),
    st.tuples(st.just("bytes"), st.binary(max_size=60)),
)


@contextmanager
def seated_table() -> Iterator[tuple[Flask, TableService, str, Phone, Phone]]:
    """A fresh table in turn 1's command phase: seat 1's phone, and the host's browser."""
    with tempfile.TemporaryDirectory() as folder:
        service = TableService(Storage(Path(folder) / "t.db"), clock=FakeClock())
        try:
            app = make_app(service, JOIN_LIMIT="1000 per minute")
            table_id, secret = new_table(service)
            phone = Phone(app, table_id).join(1, "Ann")
            service.join(table_id, 2, "Bob")
            service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
            service.choose(table_id, 1, {"colour": "red", "home": "S21"})
            service.skip(table_id)
            host = Phone(app, table_id)
            token = csrf_of(host.client, f"/t/{table_id}/host/login")
            answer = host.client.post(
                f"/t/{table_id}/host/login", data={"secret": secret, "csrf_token": token}
            )
            assert answer.status_code == 200
            host.token = token
            yield app, service, table_id, phone, host
        finally:
            service.close()


def state(service: TableService, table_id: str) -> tuple[Any, ...]:
    return (
        json.dumps(service.view(table_id, 1), sort_keys=True, default=str),
        json.dumps(service.view(table_id, 2), sort_keys=True, default=str),
        len(service.storage.entries(table_id)),
        service.table_ids(),
    )


def send(who: Phone, path: str, body: tuple[str, Any]) -> Any:
    kind, value = body
    if kind == "form":
        fields = {k: v for k, v in value.items() if k != "csrf_token"}
        return who.post(path, data={**fields, "csrf_token": who.token})
    if kind == "json":
        return who.post(path, json=value)
    if kind == "raw-json":
        return who.post(path, data=value, content_type="application/json")
    return who.post(path, data=value, content_type="application/octet-stream")


def check(response: Any, service: TableService, table_id: str, before: tuple[Any, ...]) -> None:
    status = response.status_code
    page = response.get_data(as_text=True)
    assert status < 500, page
    if status >= 400:
        said = response.get_json()["error"] if response.is_json else _message(page)
        assert said.strip(), page
        assert state(service, table_id) == before  # a refusal changes nothing


def _message(page: str) -> str:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(route=st.sampled_from(SEAT_ROUTES), body=bodies)
def test_fuzzed_requests_from_a_seated_phone_get_a_clear_4xx_and_change_nothing(
    route: str, body: tuple[str, Any]
) -> None:
    with seated_table() as (_, service, table_id, phone, _host):
        before = state(service, table_id)
        check(send(phone, f"/seat/{route}", body), service, table_id, before)


@FUZZ
@given(action=st.sampled_from(HOST_ACTIONS), body=bodies)
def test_fuzzed_requests_from_the_host_get_a_clear_4xx_and_change_nothing(
    action: str, body: tuple[str, Any]
) -> None:
    with seated_table() as (_, service, table_id, _phone, host):
        before = state(service, table_id)
        check(send(host, f"/host/{action}", body), service, table_id, before)


@pytest.mark.parametrize("seat", ["nan", "inf", "1e309", "2.5", "-1", "0", "٢", "9" * 400])
def test_the_reissue_form_refuses_a_seat_that_is_not_a_whole_number(seat: str) -> None:
    with seated_table() as (_, service, table_id, _phone, host):
        before = state(service, table_id)
        answer = host.post("/host/reissue", data={"seat": seat, "csrf_token": host.token})
        assert 400 <= answer.status_code < 500
        assert state(service, table_id) == before
        words = answer.get_json()["error"]
        assert "seat" in words


def test_deeply_nested_json_to_the_orders_is_a_clear_400() -> None:
    with seated_table() as (_, service, table_id, phone, _host):
        before = state(service, table_id)
        nested = "[" * 30_000 + "]" * 30_000  # 60 KB: under the cap, far too deep
        answer = phone.post("/seat/orders", data=nested, content_type="application/json")
        assert answer.status_code == 400
        assert answer.get_json()["error"] == "Send the orders as text: one order a line."
        assert state(service, table_id) == before


def test_a_body_over_the_cap_is_refused_with_413_and_a_sentence() -> None:
    with seated_table() as (_, service, table_id, phone, _host):
        before = state(service, table_id)
        big = json.dumps({"text": "HOLD S21\n" * (MAX_BODY_BYTES // 8)})
        answer = phone.post("/seat/orders", data=big, content_type="application/json")
        assert answer.status_code == 413
        assert "too much to send at once (at most 64 KB)" in answer.get_json()["error"]
        assert state(service, table_id) == before


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_real_server_answers_413_before_reading_a_huge_body(tmp_path: Path) -> None:
    """A phone announces a 100 MB body: the server answers at once, without reading it, and
    does not grow (it once grew from 60 to 360 MB)."""
    db = tmp_path / "tables.db"
    table = crowd.prepare_table(db)
    with crowd.ServeProcess(db) as server:
        phones = crowd.seat_phones(server.port, table)
        phone = phones[1]
        grown_from = _rss_kib(server.process.pid)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(
                (
                    f"POST /t/{table.id}/seat/orders HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Cookie: {phone.cookie}\r\nX-CSRFToken: {phone.csrf}\r\n"
                    "Accept: application/json\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {100 * 2**20}\r\n\r\n"
                ).encode()
                + b'{"text": "'
                + b"x" * 200_000
            )
            started = time.monotonic()
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = raw.recv(65536)
                if not chunk:
                    break
                answer += chunk
            waited = time.monotonic() - started
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"too much to send at once" in answer
        assert waited < 5
        assert _rss_kib(server.process.pid) - grown_from < 20 * 1024
        for each in phones.values():
            each.close()
        code, err = server.stop()
    assert code == 0, err
