"""Live updates by Server-Sent Events: the table screen's and each phone's stream.

On every connection (a first one or a reconnect, whatever its ``Last-Event-ID``) the stream
first sends the current panel, so a phone that lost its connection catches up at once. Then
it sends ``tick`` (the clock, once a second) and ``panel`` (re-rendered whenever anything
else happened); the table screen's stream also sends ``buzzer`` (JSON: the panels' buzzer
cues) when the panels' buzzer would sound.

What a stream sends is decided by :class:`StreamCore`, which does no I/O. Two drivers run it:
under ``companion serve`` (an asyncio server, :mod:`web.asgi`) each open stream is a coroutine
and holds no thread, so no number of open screens can take the workers that answer orders;
under a plain WSGI server (Flask's test client) it is a generator. Streams are bounded per
client address and in all (:class:`OpenStreams`): one beyond a bound is refused at once with
429 (this device has too many) or 503 (the server has as many as it serves), never left
hanging.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
from collections.abc import Callable, Iterator

from flask import Blueprint, Flask, Response, current_app, request, stream_with_context

from companion.errors import CompanionError
from companion.service import Event
from companion.service.indicators import Indicators, cues, indicators
from web import panels
from web.errors import PageError
from web.security import require_seat, seat_of, service, table_or_404

bp = Blueprint("live", __name__)


POLL = 0.5
"""How often a quiet stream looks whether the server is stopping."""

STREAMS_PER_CLIENT = 8
"""Live streams one address may hold: a table screen, a phone or two, and the tabs someone
forgot (players behind one Wi-Fi address have their own addresses on the table's network)."""
STREAMS_TOTAL = 64
"""Live streams the server holds in all: 8 phones, 20 table or spectator screens, and room."""
RETRY_AFTER = 30
"""Seconds a refused stream is told to wait before trying again."""

ASYNC_STREAM = "companion.async_stream"
"""Set in a request's WSGI environ by :mod:`web.asgi`: the server runs streams itself, so a
stream route leaves its :class:`AsyncPlan` there instead of streaming in a thread."""


class OpenStreams:
    """How many live streams are open, per client address and in all; a stopping server
    waits for them to end first."""

    def __init__(self) -> None:
        self.count = 0
        self.per_client: dict[str, int] = {}
        self.changed = threading.Condition(threading.RLock())

    def refusal(self, client: str, *, per_client: int, total: int) -> PageError | None:
        """Why a new stream of ``client`` would be refused now (None: it would be taken)."""
        with self.changed:
            if self.per_client.get(client, 0) >= per_client:
                return PageError(
                    429,
                    f"This device already has {per_client} live screens open on this table "
                    "server. Close one (another tab or window), then reload this page.",
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            if self.count >= total:
                return PageError(
                    503,
                    f"The table server is showing as many live screens as it can ({total}). "
                    "Orders and ready presses still work; reload this page in a minute.",
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            return None

    def reserve(self, client: str, *, per_client: int, total: int) -> None:
        """Count a new stream of ``client``, or refuse it with a :class:`PageError`."""
        with self.changed:
            refused = self.refusal(client, per_client=per_client, total=total)
            if refused is not None:
                raise refused
            self.count += 1
            self.per_client[client] = self.per_client.get(client, 0) + 1
            self.changed.notify_all()

    def release(self, client: str) -> None:
        with self.changed:
            self.count -= 1
            left = self.per_client.get(client, 1) - 1
            if left > 0:
                self.per_client[client] = left
            else:
                self.per_client.pop(client, None)
            self.changed.notify_all()

    def wait_closed(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.count == 0, timeout)


def init_app(app: Flask) -> None:
    app.config.setdefault("STREAMS_PER_CLIENT", STREAMS_PER_CLIENT)
    app.config.setdefault("STREAMS_TOTAL", STREAMS_TOTAL)
    app.extensions.setdefault("companion_stop", threading.Event())
    app.extensions.setdefault("companion_streams", OpenStreams())
    app.register_blueprint(bp)


def stop(app: Flask, timeout: float = 2 * POLL + 1) -> bool:
    """Tell every live stream to end, and wait until they have (before closing the server)."""
    app.extensions["companion_stop"].set()
    streams: OpenStreams = app.extensions["companion_streams"]
    return streams.wait_closed(timeout)


def _message(kind: str, data: str, event_id: int | None = None) -> str:
    head = f"event: {kind}\n" if event_id is None else f"event: {kind}\nid: {event_id}\n"
    return head + _data_lines(data) + "\n\n"


@functools.lru_cache(maxsize=32)
def _data_lines(data: str) -> str:
    """``data`` as the ``data:`` lines of a message. The table screens' streams all send the
    same shared panel (hundreds of lines), so it is cut into lines once, not once per screen."""
    return "\n".join(f"data: {line}" for line in data.splitlines() or [""])


def _tick(event: Event) -> str:
    return json.dumps({k: event.data.get(k) for k in ("stage", "remaining", "paused")})


class TableBuzzer:
    """One table screen's buzzer: what the panels' buzzer sounds, as ``buzzer`` messages.

    It renders the shared table panel (keeping the lights it shows) and, after each panel
    and each tick sent, compares what the screen showed with what it shows now through
    :func:`companion.service.indicators.cues`: a new stage or turn chimes, each of the last ten
    seconds beeps. The countdown follows the ticks (the clock the screen shows); the first panel
    a stream sends sounds nothing, as a panel switched on does not.
    """

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.shown: Indicators | None = None
        self._rendered: Indicators | None = None

    def render(self) -> str:
        html, self._rendered = panels.table_panel_and_lights(self.table_id)
        return html

    def after_panel(self) -> str | None:
        now = self._rendered
        if now is None:
            return None
        shown = self.shown
        if shown is not None and (now.stage, now.turn) == (shown.stage, shown.turn):
            now = dataclasses.replace(now, countdown=shown.countdown)
        return self._sound(now)

    def after_tick(self, tick: Event) -> str | None:
        shown = self.shown
        if shown is None or tick.data.get("stage") != shown.stage.value:
            return None  # the new stage's panel is on its way and chimes
        clock = indicators(
            {
                "game_name": tick.data.get("game_name", ""),
                "stage": shown.stage.value,
                "turn": shown.turn,
                "paused": tick.data.get("paused", shown.paused),
                "remaining": tick.data.get("remaining"),
                "seats": [],
            }
        )
        return self._sound(dataclasses.replace(shown, countdown=clock.countdown))

    def _sound(self, now: Indicators) -> str | None:
        sounded = cues(self.shown, now)
        self.shown = now
        if not sounded:
            return None
        return json.dumps({"cues": [cue.value for cue in sounded], "countdown": now.countdown})


KEEPALIVE = ": keepalive\n\n"


class StreamCore:
    """What one live stream sends, without any I/O: both drivers feed it events and send what
    it returns. ``render`` gives the stream's panel (None: the viewer lost its seat), and must
    run in a request context of the stream's request."""

    def __init__(
        self,
        render: Callable[[], str | None],
        concerns: Callable[[Event], bool] = lambda event: True,
        buzzer: TableBuzzer | None = None,
    ) -> None:
        self.render = render
        self.concerns = concerns
        self.buzzer = buzzer
        self.counter = 0

    def opening(self) -> tuple[list[str], bool]:
        """The first messages, and whether the stream is over already."""
        first = self.render()
        if first is None:
            return ["retry: 2000\n\n", _message("gone", "")], True
        if self.buzzer is not None:
            self.buzzer.after_panel()  # the first panel sounds nothing
        return ["retry: 2000\n\n", _message("panel", first, self.counter)], False

    def changed(self, events: list[Event]) -> bool:
        """Whether these events change the panel (else only the clock moved)."""
        return any(event.kind != "tick" and self.concerns(event) for event in events)

    def after(self, events: list[Event]) -> tuple[list[str], bool]:
        """The messages for a batch of events (a burst coalesced), and whether to end."""
        out: list[str] = []
        if self.changed(events):
            self.counter += 1
            try:
                html = self.render()
            except CompanionError:
                return out, True
            if html is None:
                return [_message("gone", "")], True
            out.append(_message("panel", html, self.counter))
            sound = self.buzzer.after_panel() if self.buzzer is not None else None
        else:
            out.append(_message("tick", _tick(events[-1])))
            sound = self.buzzer.after_tick(events[-1]) if self.buzzer is not None else None
        if sound is not None:
            out.append(_message("buzzer", sound))
        return out, False


@dataclasses.dataclass(frozen=True)
class AsyncPlan:
    """A stream the asyncio server runs: its table, its core, whose slot it holds."""

    table_id: str
    core: StreamCore
    client: str
    keepalive: float
    coalesce: float
    shared: bool = False
    """Whether its panel is the same for every viewer (a table screen's): its renders may run
    together with the other shared streams' of its table, in one request context."""


def _stream(
    table_id: str,
    render: Callable[[], str | None],
    concerns: Callable[[Event], bool] = lambda event: True,
    buzzer: TableBuzzer | None = None,
    *,
    shared: bool = False,
) -> Response:
    streams: OpenStreams = current_app.extensions["companion_streams"]
    client = request.remote_addr or "unknown"
    streams.reserve(
        client,
        per_client=int(current_app.config["STREAMS_PER_CLIENT"]),
        total=int(current_app.config["STREAMS_TOTAL"]),
    )
    core = StreamCore(render, concerns, buzzer)
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    coalesce = float(current_app.config["SSE_COALESCE"])
    if ASYNC_STREAM in request.environ:
        # web.asgi runs it as a coroutine (and releases the slot when it ends).
        request.environ[ASYNC_STREAM] = AsyncPlan(
            table_id, core, client, keepalive, coalesce, shared
        )
        return _headers(Response(status=200, mimetype="text/event-stream"))
    subscription = service().subscribe(table_id)
    stop: threading.Event = current_app.extensions["companion_stop"]

    def generate() -> Iterator[str]:
        messages, done = core.opening()
        yield from messages
        quiet = 0.0
        while not done and not stop.is_set() and not service().closed:
            event = subscription.get(timeout=min(POLL, keepalive))
            if event is None:
                quiet += POLL
                if quiet >= keepalive:
                    quiet = 0.0
                    yield KEEPALIVE
                continue
            pending = [event, *subscription.drain()]
            if core.changed(pending) and coalesce > 0:
                # A burst of changes (everybody submitting at once) is sent as one.
                stop.wait(coalesce)
                pending += subscription.drain()
            messages, done = core.after(pending)
            yield from messages

    def closed() -> None:
        subscription.close()
        streams.release(client)

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.call_on_close(closed)
    return _headers(response)


def _headers(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/t/<table_id>/events")
def table_events(table_id: str) -> Response:
    """The table screen's stream (anyone may watch the table)."""
    table_or_404(table_id)
    buzzer = TableBuzzer(table_id)
    return _stream(table_id, buzzer.render, buzzer=buzzer, shared=True)


@bp.get("/t/<table_id>/seat/events")
def seat_events(table_id: str) -> Response:
    """A phone's stream: its own seat's panel; ends if the seat is given to another phone."""
    seat = require_seat(table_id)

    def render() -> str | None:
        seat = seat_of(table_id)
        return None if seat is None else panels.seat_panel(table_id, seat)

    return _stream(table_id, render, lambda event: _concerns_seat(event, seat))


def _concerns_seat(event: Event, seat: int) -> bool:
    """A phone's panel shows only its own seat's submission and ready flag."""
    if event.kind in ("submitted", "ready"):
        return event.data.get("seat") == seat
    return True
