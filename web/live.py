"""Live updates by Server-Sent Events: the table screen's and each phone's stream.

On every connection (a first one or a reconnect, whatever its ``Last-Event-ID``) the stream
first sends the current panel, so a phone that lost its connection catches up at once. Then
it sends ``tick`` (the clock, once a second) and ``panel`` (re-rendered whenever anything
else happened); the table screen's stream also sends ``buzzer`` (JSON: the panels' buzzer
cues) when the panels' buzzer would sound. Each open stream holds one server thread: see
``companion serve --threads``.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterator

from flask import Blueprint, Flask, Response, current_app, stream_with_context

from companion.errors import CompanionError
from companion.service import Event
from companion.service.indicators import Indicators, cues, indicators
from web import panels
from web.security import require_seat, seat_of, service, table_or_404

bp = Blueprint("live", __name__)


POLL = 0.5
"""How often a quiet stream looks whether the server is stopping."""


class OpenStreams:
    """How many live streams are open, so a stopping server can let them end first."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def add(self, change: int) -> None:
        with self.changed:
            self.count += change
            self.changed.notify_all()

    def wait_closed(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.count == 0, timeout)


def init_app(app: Flask) -> None:
    app.extensions.setdefault("companion_stop", threading.Event())
    app.extensions.setdefault("companion_streams", OpenStreams())
    app.register_blueprint(bp)


def stop(app: Flask, timeout: float = 2 * POLL + 1) -> bool:
    """Tell every live stream to end, and wait until they have (before closing the server)."""
    app.extensions["companion_stop"].set()
    streams: OpenStreams = app.extensions["companion_streams"]
    return streams.wait_closed(timeout)


def _message(kind: str, data: str, event_id: int | None = None) -> str:
    lines = [f"event: {kind}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.extend(f"data: {line}" for line in data.splitlines() or [""])
    return "\n".join(lines) + "\n\n"


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


def _stream(
    table_id: str,
    render: Callable[[], str | None],
    concerns: Callable[[Event], bool] = lambda event: True,
    buzzer: TableBuzzer | None = None,
) -> Response:
    subscription = service().subscribe(table_id)
    stop: threading.Event = current_app.extensions["companion_stop"]
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    coalesce = float(current_app.config["SSE_COALESCE"])

    streams: OpenStreams = current_app.extensions["companion_streams"]

    def generate() -> Iterator[str]:
        counter = 0
        quiet = 0.0
        streams.add(1)
        try:
            yield "retry: 2000\n\n"
            first = render()
            if first is None:
                yield _message("gone", "")
                return
            yield _message("panel", first, counter)
            if buzzer is not None:
                buzzer.after_panel()  # the first panel sounds nothing
            while not stop.is_set() and not service().closed:
                event = subscription.get(timeout=min(POLL, keepalive))
                if event is None:
                    quiet += POLL
                    if quiet >= keepalive:
                        quiet = 0.0
                        yield ": keepalive\n\n"
                    continue
                pending = [event, *subscription.drain()]
                changed = any(e.kind != "tick" and concerns(e) for e in pending)
                if changed and coalesce > 0:
                    # A burst of changes (everybody submitting at once) is sent as one.
                    stop.wait(coalesce)
                    pending += subscription.drain()
                if changed:
                    counter += 1
                    try:
                        html = render()
                    except CompanionError:
                        return
                    if html is None:
                        yield _message("gone", "")
                        return
                    yield _message("panel", html, counter)
                    sound = buzzer.after_panel() if buzzer is not None else None
                else:
                    yield _message("tick", _tick(pending[-1]))
                    sound = buzzer.after_tick(pending[-1]) if buzzer is not None else None
                if sound is not None:
                    yield _message("buzzer", sound)
        finally:
            subscription.close()
            streams.add(-1)

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/t/<table_id>/events")
def table_events(table_id: str) -> Response:
    """The table screen's stream (anyone may watch the table)."""
    table_or_404(table_id)
    buzzer = TableBuzzer(table_id)
    return _stream(table_id, buzzer.render, buzzer=buzzer)


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
