"""The table screen's virtual panel (issues 4 and 6): the lights the GPIO and USB panels show,
decided by ``companion/service/indicators.py``, drawn on the table page, and the buzzer's cues
sent on the table's live stream."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from web_helpers import make_app, new_table

from companion.service import FakeClock, TableService
from companion.service.indicators import indicators

COMMAND_SECONDS = 600  # web_helpers.new_table's command phase


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service, SSE_COALESCE=0.0)


@pytest.fixture
def table_id(service: TableService) -> str:
    """Two seats joined and chosen; turn 1's command phase, nobody has submitted."""
    table_id = new_table(service)[0]
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bob")
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    service.skip(table_id)  # discussion -> command
    return table_id


def seat_leds(page: str) -> dict[int, tuple[str, str]]:
    """Each seat row's LED on the page: (off/blink/steady, its tooltip)."""
    rows = re.findall(
        r'data-seat="(\d+)" data-led="(\w+)">\s*<span class="led led-\2" role="img" '
        r'aria-label="[^"]*" title="([^"]*)"',
        page,
    )
    return {int(seat): (light, html.unescape(title)) for seat, light, title in rows}


def phase_light(page: str) -> tuple[str, str, str]:
    """The phase light: its classes, its CSS colour and its tooltip."""
    found = re.search(
        r'<span class="(phase-light[^"]*)" style="--led: ([^"]+)" role="img" '
        r'aria-label="[^"]*" title="([^"]*)"',
        page,
    )
    assert found, "no phase light on the page"
    return found.group(1), found.group(2), html.unescape(found.group(3))


def panel_of(app: Flask, table_id: str) -> str:
    return app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)


# The lights ----------------------------------------------------------------------------------


def test_each_seat_has_the_led_its_panel_shows_with_the_reason(
    app: Flask, service: TableService, table_id: str
) -> None:
    service.submit(table_id, 1, "HOLD S21")
    page = panel_of(app, table_id)
    expected = indicators(service.view(table_id)).to_dict()["seats"]
    assert seat_leds(page) == {s["seat"]: (s["light"], s["text"]) for s in expected}
    assert seat_leds(page) == {
        1: ("steady", "seat 1 LED steady (orders submitted)"),
        2: ("blink", "seat 2 LED blinking (orders awaited)"),
    }
    assert '<div class="led-reason">orders awaited</div>' in page


def test_the_table_page_itself_shows_the_lights(app: Flask, table_id: str) -> None:
    page = app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert seat_leds(page)[2] == ("blink", "seat 2 LED blinking (orders awaited)")
    assert 'class="sound-toggle" aria-pressed="false"' in page  # sound is off until asked


def test_a_ready_seat_turns_steady(app: Flask, service: TableService, table_id: str) -> None:
    service.set_ready(table_id, 2)
    assert seat_leds(panel_of(app, table_id))[2] == ("steady", "seat 2 LED steady (ready)")


def test_the_phase_light_has_the_phase_colour(app: Flask, table_id: str) -> None:
    assert phase_light(panel_of(app, table_id)) == (
        "phase-light",
        "rgba(0, 255, 0, 1.00)",
        "phase LED green (Orders)",
    )


def test_the_phase_light_blinks_while_the_table_is_paused(
    app: Flask, service: TableService, table_id: str
) -> None:
    service.pause(table_id)
    assert phase_light(panel_of(app, table_id)) == (
        "phase-light led-blink",
        "rgba(0, 255, 0, 1.00)",
        "phase LED green blinking (Orders, paused)",
    )


def test_the_lobby_light_is_a_dim_white(app: Flask, service: TableService) -> None:
    lobby = new_table(service)[0]
    page = panel_of(app, lobby)
    assert phase_light(page)[1:] == ("rgba(255, 255, 255, 0.48)", "phase LED dim white (Joining)")
    assert seat_leds(page)[2] == ("blink", "seat 2 LED blinking (join and choose awaited)")


# The buzzer on the live stream ----------------------------------------------------------------


def messages(response: Any) -> Iterator[tuple[str, str]]:
    """A live stream's messages as (event, data), read as they come."""
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in text:
            block, text = text.split("\n\n", 1)
            kind, data = None, []
            for line in block.splitlines():
                name, _, value = line.partition(": ")
                if name == "event":
                    kind = value
                elif name == "data":
                    data.append(value)
            if kind is not None:
                yield kind, "\n".join(data)


class Stream:
    """The table screen's stream, read one message at a time in the test's own thread."""

    def __init__(self, app: Flask, table_id: str) -> None:
        self.response = app.test_client().get(f"/t/{table_id}/events", buffered=False)
        self.reader = messages(self.response)

    def next(self) -> tuple[str, str]:
        return next(self.reader)

    def close(self) -> None:
        self.response.close()


@pytest.fixture
def stream(app: Flask, table_id: str) -> Iterator[Stream]:
    opened = Stream(app, table_id)
    assert opened.next()[0] == "panel"  # the current panel: no cue for it
    yield opened
    opened.close()


def test_a_new_phase_chimes_after_its_panel(
    service: TableService, table_id: str, stream: Stream
) -> None:
    service.skip(table_id)  # the turn resolves: discussion of turn 2
    kind, panel = stream.next()
    assert kind == "panel" and 'data-stage="discussion" data-turn="2"' in panel
    kind, data = stream.next()
    assert kind == "buzzer"
    assert json.loads(data) == {"cues": ["phase"], "countdown": None}


def test_a_change_within_the_phase_sounds_nothing(
    service: TableService, table_id: str, stream: Stream, clock: FakeClock
) -> None:
    service.submit(table_id, 1, "HOLD S21")
    assert stream.next()[0] == "panel"
    clock.advance(1)
    service.tick()
    assert stream.next()[0] == "tick"  # no buzzer message in between
    service.skip(table_id)
    assert [stream.next()[0] for _ in range(2)] == ["panel", "buzzer"]


def test_the_last_ten_seconds_beep_once_each(
    service: TableService, table_id: str, stream: Stream, clock: FakeClock
) -> None:
    # Seconds to wait, then the beep heard (None: a tick and nothing else).
    for seconds, beep in (
        (COMMAND_SECONDS - 11, None),
        (1, 10),
        (0.25, None),
        (0.25, None),
        (0.5, 9),
    ):
        clock.advance(seconds)
        service.tick()
        assert stream.next()[0] == "tick"
        if beep is not None:
            kind, data = stream.next()
            assert (kind, json.loads(data)) == (
                "buzzer",
                {"cues": ["countdown"], "countdown": beep},
            )
    service.submit(table_id, 1, "HOLD S21")
    assert stream.next()[0] == "panel"  # and no beep of 9 again


def test_a_paused_clock_does_not_beep(
    service: TableService, table_id: str, stream: Stream, clock: FakeClock
) -> None:
    clock.advance(COMMAND_SECONDS - 11)
    service.pause(table_id)
    assert stream.next()[0] == "panel"
    clock.advance(5)
    service.tick()
    assert stream.next()[0] == "tick"
    service.resume(table_id)
    assert stream.next()[0] == "panel"  # resumed with 11 s left: nothing yet
    clock.advance(1)
    service.tick()
    assert stream.next()[0] == "tick"
    kind, data = stream.next()
    assert (kind, json.loads(data)["countdown"]) == ("buzzer", 10)


def test_a_reconnecting_screen_does_not_chime_for_what_it_missed(
    app: Flask, service: TableService, table_id: str
) -> None:
    service.skip(table_id)
    again = Stream(app, table_id)
    try:
        assert again.next()[0] == "panel"  # discussion of turn 2, which began before it came
        service.set_ready(table_id, 1)
        assert again.next()[0] == "panel"  # not a buzzer message for the missed change
        service.skip(table_id)  # a real change of phase still chimes
        assert [again.next()[0] for _ in range(2)] == ["panel", "buzzer"]
    finally:
        again.close()
