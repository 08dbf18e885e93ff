"""Issue 11: a live stream beyond its bound is refused at the connection (web/stream_guard.py).

A hostile client that asks again every second for each refused stream sends about 170
connections a second; each is refused before uvicorn makes a request of it (no ASGI task, no
app call), with the same clear status and sentence as before (429 per address, 503 when the
server shows all it can), ``Retry-After`` and ``Connection: close``, never a hang. Everything
else from that address (pages, orders) is still served; a request the guard cannot judge from
its raw bytes goes to the app, which applies the same bounds.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from companion.service import TableService
from tests.web_helpers import make_app, new_table
from web import asgi
from web.errors import PageError
from web.serving import BackgroundServer
from web.stream_guard import GuardedHttpToolsProtocol, refusal_response

PER_CLIENT, TOTAL = 2, 3
CROWD = "127.0.0.66"


@pytest.fixture
def table_id(service: TableService) -> str:
    return new_table(service)[0]


@pytest.fixture
def server(service: TableService, table_id: str) -> Iterator[tuple[BackgroundServer, list[str]]]:
    """The site on uvicorn, bounded to 2 streams per address and 3 in all; and the paths of
    the requests that reached the app's own stream handler."""
    app: Flask = make_app(service, STREAMS_PER_CLIENT=PER_CLIENT, STREAMS_TOTAL=TOTAL)
    with BackgroundServer(app) as running:
        reached: list[str] = []
        handler = running.site._stream

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            reached.append(scope["path"])
            await handler(scope, receive, send)

        running.site._stream = counted  # type: ignore[method-assign]
        yield running, reached


def _ask(port: int, path: str, source: str, *, accept: str = "text/event-stream") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: table\r\nAccept: {accept}\r\n\r\n".encode())
    return sock


def _head(sock: socket.socket) -> tuple[int, dict[str, str]]:
    """Read a response's status line and headers (a stream's body goes on arriving)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"the connection closed before the headers: {data!r}"
        data += chunk
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers


def _to_the_end(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """A whole response that the server ends by closing the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def _open(port: int, path: str, source: str, count: int) -> list[socket.socket]:
    opened = [_ask(port, path, source) for _ in range(count)]
    assert [_head(sock)[0] for sock in opened] == [200] * count
    return opened


def test_a_stream_over_the_bound_of_its_address_is_refused_at_the_connection(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, reached = server
    path = f"/t/{table_id}/events"
    held = _open(running.port, path, CROWD, PER_CLIENT)
    status, headers, body = _to_the_end(_ask(running.port, path, CROWD))
    assert status == 429
    assert body.decode().startswith(f"This device already has {PER_CLIENT} live screens open")
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["content-length"] == str(len(body))
    assert headers["retry-after"] == "30" and headers["connection"] == "close"
    assert reached == [path] * PER_CLIENT  # the refused one never reached the app
    for sock in held:
        sock.close()


def test_refusals_of_a_client_that_asks_again_at_once_are_spread_out(
    service: TableService, table_id: str
) -> None:
    """Each refusal is answered after a random wait up to the spread (0.6 s here), so a client
    that asks again as soon as it is refused does not come back all in the same millisecond."""
    app: Flask = make_app(
        service, STREAMS_PER_CLIENT=PER_CLIENT, STREAMS_TOTAL=100, STREAM_REFUSAL_SPREAD=0.6
    )
    with BackgroundServer(app) as running:
        path = f"/t/{table_id}/events"
        held = _open(running.port, path, CROWD, PER_CLIENT)
        began = time.monotonic()
        asked = [_ask(running.port, path, CROWD) for _ in range(12)]
        answered: list[float] = []
        statuses: list[int] = []

        def wait_for(sock: socket.socket) -> None:  # each answer timed as it arrives
            status, _, _ = _to_the_end(sock)
            answered.append(time.monotonic() - began)
            statuses.append(status)

        waiting = [threading.Thread(target=wait_for, args=(sock,)) for sock in asked]
        for thread in waiting:
            thread.start()
        for thread in waiting:
            thread.join(timeout=10)
        assert statuses == [429] * len(asked)
        assert max(answered) < 0.6 + 0.5  # never a hang
        assert max(answered) - min(answered) > 0.15  # not all at once
        for sock in held:
            sock.close()


def test_a_script_asking_for_json_gets_the_refusal_as_json(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, _ = server
    path = f"/t/{table_id}/events"
    held = _open(running.port, path, CROWD, PER_CLIENT)
    sock = _ask(running.port, path, CROWD, accept="application/json")
    status, headers, body = _to_the_end(sock)
    assert status == 429 and headers["content-type"] == "application/json"
    answer = json.loads(body)
    assert answer["ok"] is False and answer["reasons"] == []
    assert "live screens open on this table server" in answer["error"]
    for held_sock in held:
        held_sock.close()


def test_a_stream_over_the_bound_in_all_is_refused_with_503(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, reached = server
    path = f"/t/{table_id}/events"
    held = _open(running.port, path, CROWD, PER_CLIENT)
    held += _open(running.port, path, "127.0.0.21", TOTAL - PER_CLIENT)
    status, headers, body = _to_the_end(_ask(running.port, path, "127.0.0.22"))
    assert status == 503 and headers["connection"] == "close"
    assert f"as many live screens as it can ({TOTAL})" in body.decode()
    assert "Orders and ready presses still work" in body.decode()
    assert len(reached) == TOTAL
    for sock in held:
        sock.close()


def test_an_address_at_its_bound_still_gets_its_pages(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, _ = server
    held = _open(running.port, f"/t/{table_id}/events", CROWD, PER_CLIENT)
    sock = _ask(running.port, f"/t/{table_id}", CROWD, accept="text/html")
    status, headers = _head(sock)
    assert status == 200 and headers.get("connection") != "close"
    sock.close()
    for held_sock in held:
        held_sock.close()


def test_a_request_sent_after_a_refused_stream_on_its_connection_is_not_served(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, reached = server
    path = f"/t/{table_id}/events"
    held = _open(running.port, path, CROWD, PER_CLIENT)
    sock = socket.create_connection(
        ("127.0.0.1", running.port), timeout=10, source_address=(CROWD, 0)
    )
    ask = f"GET {path} HTTP/1.1\r\nHost: table\r\n\r\n".encode()
    sock.sendall(ask + f"GET /t/{table_id} HTTP/1.1\r\nHost: table\r\n\r\n".encode())
    status, _, body = _to_the_end(sock)
    assert status == 429 and b"HTTP/1.1" not in body  # one answer, then the connection closed
    assert reached == [path] * PER_CLIENT
    for held_sock in held:
        held_sock.close()


def test_a_path_the_guard_cannot_read_is_bounded_by_the_app(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, reached = server
    held = _open(running.port, f"/t/{table_id}/events", CROWD, PER_CLIENT)
    encoded = f"/t/{table_id}/event%73"  # the same stream, percent-encoded
    sock = _ask(running.port, encoded, CROWD)
    status, headers = _head(sock)
    assert status == 429 and headers.get("retry-after") == "30"
    assert reached[-1] == f"/t/{table_id}/events"  # refused by the app's own check
    sock.close()
    for held_sock in held:
        held_sock.close()


def test_a_closed_stream_frees_its_place_for_the_next(
    server: tuple[BackgroundServer, list[str]], table_id: str
) -> None:
    running, _ = server
    path = f"/t/{table_id}/events"
    held = _open(running.port, path, CROWD, PER_CLIENT)
    assert _to_the_end(_ask(running.port, path, CROWD))[0] == 429
    held.pop().close()
    for _ in range(100):  # the server notices the closed stream within a moment
        sock = _ask(running.port, path, CROWD)
        status, _ = _head(sock)
        if status == 200:
            held.append(sock)
            break
        sock.close()
    else:
        pytest.fail("the freed place was never given to a new stream")
    for held_sock in held:
        held_sock.close()


def test_the_refusal_is_a_whole_response_that_closes_the_connection() -> None:
    refused = PageError(429, "Too many screens.", headers={"Retry-After": "30"})
    raw = refusal_response(refused, as_json=False, default_headers=[(b"date", b"today")])
    assert raw == (
        b"HTTP/1.1 429 Too Many Requests\r\ndate: today\r\n"
        b"content-type: text/plain; charset=utf-8\r\ncontent-length: 17\r\n"
        b"retry-after: 30\r\nconnection: close\r\n\r\nToo many screens."
    )


def test_the_server_uses_the_guard_where_httptools_is_installed() -> None:
    pytest.importorskip("httptools")
    assert asgi.http_protocol() is GuardedHttpToolsProtocol


# Table screens share their renders (web/asgi.py: Site._render_shared) ------------------------


def _until_panel(sock: socket.socket, seen: bytes = b"") -> bytes:
    """Read until one more whole ``panel`` message than ``seen`` holds has arrived (each
    message is a chunk of the chunked response: it ends with a blank line, then CRLF)."""
    data = seen
    wanted = seen.count(b"event: panel") + 1
    while data.count(b"event: panel") < wanted or not data.endswith(b"\n\n\r\n"):
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        data += chunk
    return data


def test_table_screens_render_a_change_together_in_one_trip(
    service: TableService, table_id: str
) -> None:
    app = make_app(service)
    with BackgroundServer(app) as running:
        screens = [
            _ask(running.port, f"/t/{table_id}/events", f"127.0.0.{21 + n}") for n in range(3)
        ]
        seen = [_until_panel(sock) for sock in screens]
        trips: list[int] = []
        steps_in_request = running.site._steps_in_request

        def counted(environ: Any, steps: Any) -> Any:
            trips.append(len(steps))
            return steps_in_request(environ, steps)

        running.site._steps_in_request = counted  # type: ignore[method-assign]
        service.join(table_id, 1, "Ann")  # the table panel now shows her seat taken
        after = [_until_panel(sock, before) for sock, before in zip(screens, seen, strict=True)]
        for sock in screens:
            sock.close()
    for text in after:
        assert "Ann" in text.decode().rsplit("event: panel", 1)[1]
    assert sum(trips) == 3 and len(trips) < 3, trips  # each screen's step, in fewer trips


def test_a_failing_step_fails_only_its_own_stream() -> None:
    async def run() -> list[Any]:
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[Any]] = [loop.create_future() for _ in range(3)]
        futures[2].cancel()  # that stream ended while its step ran
        done: asyncio.Future[Any] = loop.create_future()
        done.set_result([(["a"], False), ValueError("gone"), (["c"], False)])
        asgi._settle_batch(futures, done)
        return [futures[0].result(), futures[1].exception(), futures[2].cancelled()]

    first, error, cancelled = asyncio.run(run())
    assert first == (["a"], False) and isinstance(error, ValueError) and cancelled
