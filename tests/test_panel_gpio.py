"""The GPIO panel (hardware.gpio_panel) on gpiozero's mock pins, driving a real table service.

Pins are the documented defaults (docs/wiring.md): seat 1's button is GPIO5 and its LED GPIO23,
seat 2's button GPIO6 and LED GPIO24, the phase LED GPIO17/27/22, the buzzer GPIO18 and the
host button GPIO4.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin
from panel_support import started_table, to_command, wait_for

from companion.local_cluster.session import COMMAND
from companion.service import FakeClock, TableService
from companion.service.indicators import LIGHT_COLOURS
from companion.service.session import Stage
from hardware.config import GpioPanelConfig
from hardware.errors import PanelClosed, PinsUnavailable
from hardware.gpio_panel import GpioPanel

FAST = GpioPanelConfig(bounce_time=0.05, hold_time=0.15, blink_time=0.01)
SEAT_BUTTON = {1: 5, 2: 6}
SEAT_LED = {1: 23, 2: 24}
RED, GREEN, BLUE, BUZZER, HOST = 17, 27, 22, 18, 4


class Ticker:
    """The panel's monotonic clock in the bounce tests: it moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pins = MockFactory(pin_class=MockPWMPin)
    yield pins
    pins.reset()


@pytest.fixture
def table(service: TableService) -> str:
    return started_table(service)


@pytest.fixture
def panel(service: TableService, table: str, factory: MockFactory) -> Iterator[GpioPanel]:
    with GpioPanel(service, table, FAST, pin_factory=factory) as opened:
        yield opened


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def seat_view(service: TableService, table: str, seat: int) -> dict[str, Any]:
    seats: list[dict[str, Any]] = service.view(table)["seats"]
    return seats[seat - 1]


def toggles(factory: MockFactory, pin: int) -> int:
    return len(factory.pin(pin).states) - 1


def is_blinking(factory: MockFactory, pin: int) -> bool:
    """The pin goes on and off again and again (within 2 s, however busy the machine)."""
    factory.pin(pin).clear_states()
    deadline = time.monotonic() + 2
    while toggles(factory, pin) < 3:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def is_steady_on(factory: MockFactory, pin: int) -> bool:
    factory.pin(pin).clear_states()
    time.sleep(0.08)
    return toggles(factory, pin) == 0 and bool(factory.pin(pin).state)


# Buttons ---------------------------------------------------------------------------------------


def test_a_seat_button_press_marks_the_seat_ready(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    press(factory, SEAT_BUTTON[1])
    assert seat_view(service, table, 1)["ready"] is True
    assert seat_view(service, table, 2)["ready"] is False


def test_in_the_command_phase_a_press_makes_the_orders_final(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    to_command(service, table)
    wait_for(lambda: panel.shown is not None and panel.shown.stage == COMMAND)
    service.submit(table, 2, "HOLD S5")
    press(factory, SEAT_BUTTON[1])
    press(factory, SEAT_BUTTON[2])
    view = service.view(table)
    assert view["stage"] == "discussion"  # both final: the turn was resolved
    assert view["turn"] == 2


def test_contact_bounce_counts_one_press(
    service: TableService, table: str, factory: MockFactory
) -> None:
    ticker = Ticker()
    with (
        service.subscribe(table) as seen,
        GpioPanel(service, table, FAST, pin_factory=factory, monotonic=ticker),
    ):
        for _ in range(5):  # the contacts chatter within 50 ms
            press(factory, SEAT_BUTTON[1])
            ticker.now += 0.005
        readies = [e for e in seen.drain() if e.kind == "ready"]
    assert [e.data["seat"] for e in readies] == [1]


def test_a_second_press_after_the_bounce_time_counts_in_the_next_phase(
    service: TableService, table: str, factory: MockFactory
) -> None:
    ticker = Ticker()
    with GpioPanel(service, table, FAST, pin_factory=factory, monotonic=ticker) as panel:
        press(factory, SEAT_BUTTON[1])
        press(factory, SEAT_BUTTON[2])
        wait_for(lambda: panel.shown is not None and panel.shown.stage == COMMAND)
        ticker.now += 0.06
        press(factory, SEAT_BUTTON[1])
        assert seat_view(service, table, 1)["ready"] is True


def test_a_press_seen_in_an_ended_phase_is_refused_not_moved_to_the_next(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    with service.lock:  # the panel cannot refresh: it still shows the discussion
        to_command(service, table)
        press(factory, SEAT_BUTTON[1])
    assert service.view(table)["stage"] == "command"
    assert seat_view(service, table, 1)["ready"] is False


def test_host_press_pauses_and_a_second_press_resumes(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    press(factory, HOST)
    assert service.view(table)["paused"] is True
    press(factory, HOST)
    assert service.view(table)["paused"] is False


def test_host_hold_skips_to_the_next_phase(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    factory.pin(HOST).drive_low()
    wait_for(lambda: service.view(table)["stage"] == "command")
    factory.pin(HOST).drive_high()
    view = service.view(table)
    assert view["paused"] is False  # a hold is not also a press


# Lights and buzzer -------------------------------------------------------------------------------


def test_seat_leds_are_off_in_the_discussion(panel: GpioPanel, factory: MockFactory) -> None:
    assert not factory.pin(SEAT_LED[1]).state
    assert not factory.pin(SEAT_LED[2]).state


def test_seat_leds_blink_while_orders_are_awaited(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    to_command(service, table)
    wait_for(lambda: panel.shown is not None and panel.shown.stage == COMMAND)
    assert is_blinking(factory, SEAT_LED[1])
    assert is_blinking(factory, SEAT_LED[2])


def test_a_seat_led_turns_steady_when_its_orders_arrive(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    to_command(service, table)
    service.submit(table, 1, "HOLD S1")
    wait_for(lambda: panel.shown is not None and panel.shown.seat(1).reason == "orders submitted")
    assert is_steady_on(factory, SEAT_LED[1])
    assert is_blinking(factory, SEAT_LED[2])


def test_the_phase_led_shows_the_stage_colour(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    assert panel.phase_led.color == LIGHT_COLOURS[Stage.DISCUSSION.light]
    assert [factory.pin(p).state for p in (RED, GREEN, BLUE)] == [0, 0, 1]
    to_command(service, table)
    wait_for(lambda: [factory.pin(p).state for p in (RED, GREEN, BLUE)] == [0, 1, 0])


def test_the_phase_led_blinks_while_paused(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    service.pause(table)
    wait_for(lambda: panel.shown is not None and panel.shown.paused)
    assert is_blinking(factory, BLUE)
    service.resume(table)
    wait_for(lambda: panel.shown is not None and not panel.shown.paused)
    time.sleep(0.03)
    factory.pin(BLUE).clear_states()
    time.sleep(0.05)
    assert toggles(factory, BLUE) == 0
    assert factory.pin(BLUE).state == 1


def test_the_buzzer_chimes_twice_on_a_phase_change(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory
) -> None:
    factory.pin(BUZZER).clear_states()
    to_command(service, table)
    wait_for(lambda: toggles(factory, BUZZER) >= 4)
    factory.pin(BUZZER).assert_states([False, True, False, True, False])


def test_the_buzzer_beeps_once_a_second_in_the_last_ten_seconds(
    service: TableService, table: str, panel: GpioPanel, factory: MockFactory, clock: FakeClock
) -> None:
    clock.advance(228)  # 12 s of the discussion left: silent
    service.tick()
    wait_for(lambda: panel.refreshes >= 2)
    assert toggles(factory, BUZZER) == 0
    clock.advance(2)  # 10 s left: one beep
    service.tick()
    wait_for(lambda: toggles(factory, BUZZER) >= 2)
    factory.pin(BUZZER).assert_states([False, True, False])
    factory.pin(BUZZER).clear_states()
    clock.advance(1)  # 9 s left: the next beep
    service.tick()
    wait_for(lambda: toggles(factory, BUZZER) >= 2)


def test_led_changes_are_logged_in_words(
    service: TableService, table: str, panel: GpioPanel, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hardware.panel")
    to_command(service, table)
    wait_for(lambda: "panel: seat 2 LED blinking (orders awaited)" in caplog.messages)
    assert "panel: phase LED green (Orders)" in caplog.messages


# Life cycle --------------------------------------------------------------------------------------


def test_close_releases_every_pin_and_is_idempotent(
    service: TableService, table: str, factory: MockFactory
) -> None:
    first = GpioPanel(service, table, FAST, pin_factory=factory)
    first.close()
    first.close()
    assert first.closed
    with GpioPanel(service, table, FAST, pin_factory=factory):  # the pins are free again
        press(factory, SEAT_BUTTON[2])
    assert seat_view(service, table, 2)["ready"] is True


def test_a_closed_panel_no_longer_follows_the_table(
    service: TableService, table: str, factory: MockFactory
) -> None:
    panel = GpioPanel(service, table, FAST, pin_factory=factory)
    panel.close()
    to_command(service, table)
    time.sleep(0.05)
    assert panel.shown is not None and panel.shown.stage == Stage.DISCUSSION


def test_a_panel_with_fewer_wired_seats_than_the_table_still_serves_them(
    service: TableService, table: str, factory: MockFactory
) -> None:
    one_seat = dataclasses.replace(FAST, seat_buttons=(5,), seat_leds=(23,))
    with GpioPanel(service, table, one_seat, pin_factory=factory) as panel:
        assert list(panel.buttons) == [1]
        press(factory, SEAT_BUTTON[1])
    assert seat_view(service, table, 1)["ready"] is True


def test_pins_already_in_use_are_refused_with_a_clear_error(
    service: TableService, table: str, factory: MockFactory
) -> None:
    with (
        LED(18, pin_factory=factory),  # something else drives GPIO18
        pytest.raises(PinsUnavailable, match=r"cannot claim its pins.*gpio group"),
    ):
        GpioPanel(service, table, FAST, pin_factory=factory)
    with GpioPanel(service, table, FAST, pin_factory=factory):  # nothing was left claimed
        pass


def test_a_closed_panel_refuses_use_with_a_named_error(
    service: TableService, table: str, factory: MockFactory
) -> None:
    panel = GpioPanel(service, table, FAST, pin_factory=factory)
    panel.close()
    with pytest.raises(PanelClosed):
        panel.press(1)
    with pytest.raises(PanelClosed):
        panel.refresh()
    assert seat_view(service, table, 1)["ready"] is False
