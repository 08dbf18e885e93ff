"""The panels' configuration sections (hardware.config) and how the server attaches them."""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from panel_support import started_table

from companion.service import TableService
from companion.service.attachments import ConfigError, available
from hardware.attach import attach_gpio_panel, attach_serial_panel
from hardware.config import (
    GpioPanelConfig,
    SerialPanelConfig,
    gpio_panel_config,
    serial_panel_config,
)
from hardware.errors import PinMapError
from hardware.pins import choose_factory

DOCUMENTED = """
[panel]
pin_factory = "auto"
seat_buttons = [5, 6, 13, 19, 26, 12, 16, 20]
seat_leds = [23, 24, 25, 8, 7, 9, 10, 11]
phase_led = [17, 27, 22]
buzzer = 18
host_button = 4
bounce_time = 0.05
hold_time = 2.0
blink_time = 0.5

[serial-panel]
port = "auto"
baud = 115200
seats = [1, 2, 3, 4, 5, 6, 7, 8]
"""


def test_an_empty_section_gives_the_documented_defaults() -> None:
    parsed = tomllib.loads(DOCUMENTED)
    assert gpio_panel_config({}) == gpio_panel_config(parsed["panel"]) == GpioPanelConfig()
    assert serial_panel_config({}) == serial_panel_config(parsed["serial-panel"])
    assert serial_panel_config({}) == SerialPanelConfig()


def test_the_wiring_document_shows_the_default_section() -> None:
    wiring = (Path(__file__).parent.parent / "docs" / "wiring.md").read_text()
    panel_section = DOCUMENTED.split("\n\n")[0].strip()
    assert panel_section in wiring


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"buzzer": 17}, r"\[panel\] buzzer: GPIO17 is already used by phase_led\[0\]"),
        ({"seat_leds": [23, 23]}, r"seat_buttons has 8 pins but seat_leds has 2"),
        (
            {"seat_buttons": [5, 6], "seat_leds": [23, 5]},
            r"\[panel\] seat_leds\[1\]: GPIO5 is already used by seat_buttons\[0\]",
        ),
        ({"host_button": 28}, r"\[panel\] host_button: GPIO28 is out of range"),
        ({"host_button": -1}, r"\[panel\] host_button: GPIO-1 is out of range"),
        ({"host_button": "4"}, r"\[panel\] host_button: a BCM GPIO number, not '4'"),
        ({"host_button": True}, r"\[panel\] host_button: a BCM GPIO number, not True"),
        ({"seat_buttons": 5}, r"\[panel\] seat_buttons: a list of BCM GPIO numbers"),
        ({"seat_leds": [23, 4.0]}, r"\[panel\] seat_leds\[1\]: a BCM GPIO number, not 4.0"),
        ({"phase_led": [17, 27]}, r"\[panel\] phase_led: give 3 pins"),
        ({"buzer": 18}, r"\[panel\] buzer: unknown setting"),
        ({"hold_time": "2s"}, r"\[panel\] hold_time: a number of seconds"),
        ({"hold_time": 0}, r"\[panel\] hold_time: 0 is outside"),
        ({"pin_factory": "gpio"}, r"\[panel\] pin_factory: one of auto, mock"),
        ({"seat_buttons": [], "seat_leds": []}, r"wire 1 to 8 seats"),
    ],
)
def test_a_bad_panel_section_is_refused_naming_the_key(
    section: dict[str, Any], message: str
) -> None:
    with pytest.raises(PinMapError, match=message):
        gpio_panel_config(section)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"port": ""}, r"\[serial-panel\] port: give a device path"),
        ({"baud": "fast"}, r"\[serial-panel\] baud: a whole number"),
        ({"seats": [1, 1]}, r"\[serial-panel\] seats: a seat appears twice"),
        ({"seats": [1, 9]}, r"\[serial-panel\] seats\[1\]: a seat number from 1 to 8, not 9"),
        ({"seats": "1,2"}, r"\[serial-panel\] seats: a list"),
        ({"speed": 9600}, r"\[serial-panel\] speed: unknown setting"),
    ],
)
def test_a_bad_serial_panel_section_is_refused_naming_the_key(
    section: dict[str, Any], message: str
) -> None:
    with pytest.raises(PinMapError, match=message):
        serial_panel_config(section)


def test_pin_map_errors_are_config_errors_for_the_server() -> None:
    with pytest.raises(ConfigError):
        gpio_panel_config({"buzzer": 99})


def test_both_panels_are_registered_as_attachments() -> None:
    names = {entry.name: entry.value for entry in available()}
    assert names["panel"] == "hardware.attach:attach_gpio_panel"
    assert names["serial-panel"] == "hardware.attach:attach_serial_panel"


def test_the_attached_gpio_panel_runs_on_mock_pins_off_the_pi(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    table = started_table(service)
    caplog.set_level(logging.INFO, logger="hardware.panel")
    panel = attach_gpio_panel(service, table, {"pin_factory": "mock", "bounce_time": 0})
    try:
        assert "panel: phase LED blue (Discussion)" in caplog.messages
    finally:
        panel.close()


def test_the_attached_gpio_panel_closes_the_pin_factory_it_opened(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server closes a panel and attaches another when the table changes: the first
    one's factory (lgpio's gpiochip handle on a Pi) must not be left open."""
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr("hardware.pins.mock_factory", lambda: factory)
    panel = attach_gpio_panel(service, started_table(service), {"pin_factory": "mock"})
    assert factory.pins
    panel.close()
    assert factory.pins == {}


def test_a_bad_section_is_refused_before_any_pin_is_claimed(service: TableService) -> None:
    table = started_table(service)
    with pytest.raises(ConfigError, match="host_button"):
        attach_gpio_panel(service, table, {"host_button": 40})
    with pytest.raises(ConfigError, match="baud"):
        attach_serial_panel(service, table, {"baud": 0})


def test_auto_uses_mock_pins_and_says_so_off_the_pi(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = tmp_path / "model"
    model.write_text("QEMU virtual machine")
    factory, mock = choose_factory("auto", model_file=model)
    assert mock and isinstance(factory, MockFactory)
    assert any("using gpiozero's mock pins" in m for m in caplog.messages)


def test_auto_on_a_pi_without_a_pin_driver_falls_back_to_mock(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    monkeypatch.setattr("hardware.pins.PI_DRIVERS", ())
    factory, mock = choose_factory("auto", model_file=model)
    assert mock and isinstance(factory, MockFactory)
    assert any("neither lgpio nor RPi.GPIO works" in m for m in caplog.messages)


def test_an_unknown_driver_name_is_refused() -> None:
    with pytest.raises(PinMapError, match=r"cannot start here|has no pin factory"):
        choose_factory("pigpio")


HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
"""BCM GPIO number to the 40-pin header's pin number."""


def test_the_wiring_diagram_shows_every_default_pin_at_its_header_position() -> None:
    wiring = (Path(__file__).parent.parent / "docs" / "wiring.md").read_text()
    drawn = {int(bcm): int(header) for bcm, header in re.findall(r"GPIO(\d+) +\[(\d+)\]", wiring)}
    assert set(drawn) == set(GpioPanelConfig().pins().values())
    assert all(HEADER[bcm] == header for bcm, header in drawn.items())
