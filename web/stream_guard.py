"""A live stream beyond its bound refused at the connection, before uvicorn makes a request of it.

Why (issue 11): a hostile client that opens again, every second, each stream the server refused
sends about 170 connections a second, all in the same few milliseconds. Answered the ordinary
way, each one was an ASGI request (a scope, a task, the app's coroutine, two ``send`` messages
through uvicorn's response cycle): about a third of a millisecond of the event loop each, so
tens of milliseconds in a row during which the loop could not hand a seat's order its answer.

:class:`GuardedHttpToolsProtocol` is uvicorn's own httptools protocol with one step more: when a
request's headers are complete and it is a ``GET`` of a live stream (``.../events``) from an
address the server would refuse (:meth:`Guarded.stream_refusal`: over its bound per address, or
the server at its bound in all), it writes the refusal (the same status, sentence and
``Retry-After`` as the app's own, with ``Connection: close``) straight to the socket and closes
it. No request, task or app call is made. Anything else, and any request it cannot judge from
the raw bytes (a percent-encoded path, a forwarded address), goes on to uvicorn as before, where
the app applies the same bounds.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any, Protocol, runtime_checkable

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from web.errors import PageError

STREAM_SUFFIX = b"/events"
FORWARDED = frozenset({b"x-forwarded-for", b"x-forwarded-proto", b"forwarded"})
"""Headers that may change which address uvicorn gives the app: such requests go to the app."""


@runtime_checkable
class Guarded(Protocol):
    """An ASGI app that can say at once whether a new live stream would be refused."""

    def stream_refusal(self, client: str) -> PageError | None: ...


@functools.lru_cache(maxsize=16)
def _refusal_head_and_body(
    status: int, message: str, headers: tuple[tuple[str, str], ...], as_json: bool
) -> tuple[bytes, bytes]:
    if as_json:
        body = json.dumps({"ok": False, "error": message, "reasons": []}).encode()
        kind = b"application/json"
    else:
        body, kind = message.encode(), b"text/plain; charset=utf-8"
    lines = [b"content-type: " + kind, b"content-length: " + str(len(body)).encode()]
    lines += [f"{name.lower()}: {value}".encode("latin-1") for name, value in headers]
    lines.append(b"connection: close")
    return b"".join(line + b"\r\n" for line in lines), body


def refusal_response(refused: PageError, *, as_json: bool, default_headers: Any = ()) -> bytes:
    """The whole HTTP/1.1 response refusing a stream: status line, headers, the sentence."""
    head, body = _refusal_head_and_body(
        refused.status, refused.message, tuple(sorted(refused.headers.items())), as_json
    )
    extra = b"".join(name + b": " + value + b"\r\n" for name, value in default_headers)
    return STATUS_LINE[refused.status] + extra + head + b"\r\n" + body


def _guard_of(config: Any) -> Guarded | None:
    """The app's guard, looked up once per server configuration (not once per connection)."""
    try:
        guard: Guarded | None = config._companion_guard
    except AttributeError:
        app = config.app
        guard = config._companion_guard = app if isinstance(app, Guarded) else None
    return guard


def wants_json(headers: list[tuple[bytes, bytes]]) -> bool:
    """As the app's own refusal decides (web.asgi): JSON for a script that asks for it."""
    return any(name == b"accept" and b"application/json" in value for name, value in headers)


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a stream over its bound before any request."""

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard = _guard_of(config)
        self.refused = False

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            super().data_received(data)

    def on_headers_complete(self) -> None:
        if self.refused:
            return  # a request sent after the refused one, on a connection being closed
        if self.guard is not None and self._refuse_stream(self.guard):
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self.refused:
            super().on_message_complete()

    def _refuse_stream(self, guard: Guarded) -> bool:
        """Refuse this request at once if it is a stream the app would refuse; whether it was."""
        if self.client is None or self.parser.get_method() != b"GET":
            return False
        if not self.url.partition(b"?")[0].endswith(STREAM_SUFFIX):
            return False
        if any(name in FORWARDED for name, _ in self.headers):
            return False
        refused = guard.stream_refusal(self.client[0])
        if refused is None:
            return False
        self.refused = True
        self.transport.write(
            refusal_response(
                refused,
                as_json=wants_json(self.headers),
                default_headers=self.server_state.default_headers,
            )
        )
        self.transport.close()
        return True
