"""The panel firmware's logic (firmware/ccpanel) under CPython with the stand-in ``machine``:
debouncing, commands from the Pi, lights, buzzer, heartbeats and complaints."""

from __future__ import annotations

from typing import Any

import machine  # the stand-in (firmware/check/standin/machine.py)
import pytest
from ccpanel import FIRMWARE_VERSION, board
from ccpanel.debounce import Debouncer
from ccpanel.panel import Panel
from ccpanel.protocol import decode, encode
from firmware_host import ticks_diff


class Board:
    """A panel on stand-in pins, with what it wrote as lists of fields."""

    def __init__(self, settle_ms: int = 20) -> None:
        machine.reset()
        self.buttons, self.leds, self.rgb, self.buzzer = board.parts()
        self.written: list[str] = []
        self.panel = Panel(
            self.buttons,
            self.leds,
            self.rgb,
            self.buzzer,
            self.written.append,
            ticks_diff,
            settle_ms,
        )
        self.panel.start(0)

    def sent(self) -> list[list[str]]:
        out = [decode(text) for text in self.written]
        self.written.clear()
        return out

    def tell(self, *fields: Any, at: int = 0) -> None:
        self.panel.feed(encode(list(fields)), at)

    def run(self, start: int, stop: int, step: int = 5) -> None:
        for now in range(start, stop, step):
            self.panel.step(now)

    def duty(self) -> list[int]:
        return [machine.PWMS[pin].duty for pin in board.RGB_PINS]


@pytest.fixture
def fw() -> Board:
    return Board()


# Debouncing ------------------------------------------------------------------------------------


def presses(samples: list[tuple[int, bool]], settle_ms: int = 20) -> list[int]:
    bouncer = Debouncer(settle_ms, ticks_diff)
    return [now for now, raw in samples if bouncer.update(raw, now)]


def test_contact_chatter_settles_into_one_press() -> None:
    chatter = [(0, True), (2, False), (4, True), (6, False), (7, True)]
    held = [(t, True) for t in range(10, 60, 5)]
    assert presses(chatter + held) == [30]


def test_a_blip_shorter_than_the_settle_time_is_no_press() -> None:
    assert presses([(0, True), (5, True), (10, False), (50, False)]) == []


def test_a_held_button_is_one_press_and_a_second_press_needs_a_release() -> None:
    down = [(t, True) for t in range(0, 200, 10)]
    up = [(t, False) for t in range(200, 300, 10)]
    again = [(t, True) for t in range(300, 400, 10)]
    assert presses(down + up + again) == [20, 320]


def test_a_button_press_is_sent_with_the_next_sequence_number(fw: Board) -> None:
    fw.sent()
    fw.buttons[2].drive(0)
    fw.run(0, 100)
    fw.buttons[2].drive(1)
    fw.run(100, 200)
    fw.buttons[0].drive(0)
    fw.run(200, 300)
    assert [f for f in fw.sent() if f[0] == "BTN"] == [["BTN", "1", "3"], ["BTN", "2", "1"]]


def test_sequence_numbers_wrap_at_65536(fw: Board) -> None:
    fw.panel.seq = 65535
    fw.buttons[0].drive(0)
    fw.run(0, 100)
    assert ["BTN", "0", "1"] in fw.sent()


# Talking to the Pi --------------------------------------------------------------------------------


def test_the_panel_says_hello_at_start_and_when_asked(fw: Board) -> None:
    hello = ["HELLO", "1", FIRMWARE_VERSION, "8", "8"]
    assert fw.sent() == [hello]
    fw.tell("WHO")
    assert fw.sent() == [hello]


def test_a_heartbeat_every_second_names_the_last_press(fw: Board) -> None:
    fw.sent()
    fw.run(0, 2001)
    assert fw.sent() == [["HB", "0"], ["HB", "0"]]


def test_a_damaged_line_gets_a_complaint_and_changes_nothing(fw: Board) -> None:
    fw.sent()
    fw.panel.feed("LED 1 ON*00\n", 0)
    fw.panel.feed("LED 1 ON\n", 0)
    fw.tell("LED", 9, "ON")
    fw.tell("LED", 1, "DIM")
    fw.tell("RGB", 0, 300, 0, "ON")
    fw.tell("SELF-DESTRUCT")
    assert [f[0] for f in fw.sent()] == ["ERR"] * 6
    assert fw.panel.modes == ["OFF"] * 8
    assert fw.panel.colour == (0, 0, 0)


def test_an_overlong_line_is_dropped_with_a_complaint(fw: Board) -> None:
    fw.sent()
    fw.panel.feed("Z" * 500 + "\n", 0)
    assert fw.sent()[0] == ["ERR", "line", "too", "long"]


# Lights and buzzer -----------------------------------------------------------------------------


def test_led_on_and_off(fw: Board) -> None:
    fw.tell("LED", 1, "ON")
    fw.run(0, 20)
    assert fw.leds[0].value() == 1
    fw.tell("LED", 1, "OFF", at=20)
    fw.run(20, 40)
    assert fw.leds[0].value() == 0


def test_a_blinking_led_changes_every_half_second(fw: Board) -> None:
    fw.tell("LED", 3, "BLINK")
    fw.run(0, 2000, 50)
    assert fw.leds[2].history == [0, 1, 0, 1, 0]  # on 0-0.5 s, off, on 1-1.5 s, off


def test_the_rgb_led_takes_its_colour_as_pwm_duty(fw: Board) -> None:
    fw.tell("RGB", 255, 153, 0, "ON")
    fw.run(0, 10)
    assert fw.duty() == [65535, 153 * 257, 0]


def test_a_blinking_rgb_led_goes_dark_every_other_half_second(fw: Board) -> None:
    fw.tell("RGB", 0, 0, 255, "BLINK")
    fw.panel.step(100)
    lit = fw.duty()
    fw.panel.step(600)
    assert (lit, fw.duty()) == ([0, 0, 65535], [0, 0, 0])


def test_beep_sounds_the_buzzer_on_and_off_as_told(fw: Board) -> None:
    fw.tell("BEEP", 100, 50, 2)
    fw.run(0, 500, 10)
    assert fw.buzzer.history == [0, 1, 0, 1, 0]


def test_without_word_from_the_pi_the_panel_goes_dark(fw: Board) -> None:
    fw.tell("LED", 1, "ON")
    fw.tell("RGB", 0, 255, 0, "ON")
    fw.panel.step(4900)
    assert fw.leds[0].value() == 1
    fw.panel.step(5000)  # five seconds since the Pi last spoke: no stale lights
    assert (fw.leds[0].value(), fw.duty()) == (0, [0, 0, 0])
    fw.tell("HB", at=5100)  # the Pi is back
    fw.panel.step(5100)
    assert (fw.leds[0].value(), fw.duty()) == (1, [0, 65535, 0])
