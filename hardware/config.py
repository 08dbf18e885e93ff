"""The panels' configuration sections, checked before any pin or port is claimed.

A section is a table of the server's TOML file (``[panel]``, ``[serial-panel]``), already
parsed. Every problem names its key: an unknown key, a wrong type, a pin out of range or used
twice. The documented defaults are the pin map of docs/wiring.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from hardware.errors import PinMapError

MAX_SEATS = 8
GPIO_PINS = range(0, 28)
"""BCM GPIO numbers on the Pi's 40-pin header."""

PIN_FACTORIES = ("auto", "mock", "lgpio", "rpigpio", "pigpio", "native")


@dataclasses.dataclass(frozen=True)
class GpioPanelConfig:
    """The ``[panel]`` section: BCM pin numbers, seat 1 first. Defaults: docs/wiring.md."""

    seat_buttons: tuple[int, ...] = (5, 6, 13, 19, 26, 12, 16, 20)
    seat_leds: tuple[int, ...] = (23, 24, 25, 8, 7, 9, 10, 11)
    phase_led: tuple[int, int, int] = (17, 27, 22)
    """The RGB LED's red, green and blue legs."""
    buzzer: int = 18
    host_button: int = 4
    pin_factory: str = "auto"
    """``auto``: the Pi's own pins on a Pi, gpiozero's mock pins anywhere else."""
    bounce_time: float = 0.05
    """Seconds after a press during which the same button's contacts are ignored."""
    hold_time: float = 2.0
    """Seconds the host button is held to skip to the next phase."""
    blink_time: float = 0.5
    """Seconds on and off of a blinking LED."""

    def pins(self) -> dict[str, int]:
        """Every pin by the key naming it: ``{"seat_buttons[1]": 5, ...}``."""
        named: dict[str, int] = {}
        for key in ("seat_buttons", "seat_leds", "phase_led"):
            for index, pin in enumerate(getattr(self, key)):
                named[f"{key}[{index}]"] = pin
        named["buzzer"] = self.buzzer
        named["host_button"] = self.host_button
        return named


@dataclasses.dataclass(frozen=True)
class SerialPanelConfig:
    """The ``[serial-panel]`` section."""

    port: str = "auto"
    """A device such as ``/dev/ttyACM0``, or ``auto``: the first Raspberry Pi Pico found."""
    baud: int = 115200
    seats: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
    """The seat of each panel button and LED: ``seats[0]`` is the panel's button 1."""
    reconnect_interval: float = 1.0
    """Seconds between attempts to open the port while the panel is unplugged."""
    heartbeat_timeout: float = 5.0
    """Seconds of silence from the panel after which the port is closed and reopened."""


def gpio_panel_config(section: Mapping[str, Any]) -> GpioPanelConfig:
    """The ``[panel]`` section checked; :class:`PinMapError` names the first bad key."""
    where = "[panel]"
    values = _known(section, GpioPanelConfig, where)
    if "seat_buttons" in section:
        values["seat_buttons"] = _pins(section["seat_buttons"], f"{where} seat_buttons")
    if "seat_leds" in section:
        values["seat_leds"] = _pins(section["seat_leds"], f"{where} seat_leds")
    if "phase_led" in section:
        legs = _pins(section["phase_led"], f"{where} phase_led")
        if len(legs) != 3:
            raise PinMapError(f"{where} phase_led: give 3 pins (red, green, blue), not {len(legs)}")
        values["phase_led"] = legs
    for key in ("buzzer", "host_button"):
        if key in section:
            values[key] = _pin(section[key], f"{where} {key}")
    if "pin_factory" in section:
        values["pin_factory"] = _choice(section["pin_factory"], PIN_FACTORIES, where)
    for key, low, high in (
        ("bounce_time", 0.0, 1.0),
        ("hold_time", 0.1, 10.0),
        ("blink_time", 0.01, 5.0),
    ):
        if key in section:
            values[key] = _number(section[key], f"{where} {key}", low, high)
    config = GpioPanelConfig(**values)
    if len(config.seat_buttons) != len(config.seat_leds):
        raise PinMapError(
            f"{where} seat_buttons has {len(config.seat_buttons)} pins but seat_leds has "
            f"{len(config.seat_leds)}: each seat needs one button and one LED"
        )
    if not 1 <= len(config.seat_buttons) <= MAX_SEATS:
        raise PinMapError(f"{where} seat_buttons: wire 1 to {MAX_SEATS} seats")
    used: dict[int, str] = {}
    for key, pin in config.pins().items():
        if pin in used:
            raise PinMapError(f"{where} {key}: GPIO{pin} is already used by {used[pin]}")
        used[pin] = key
    return config


def serial_panel_config(section: Mapping[str, Any]) -> SerialPanelConfig:
    """The ``[serial-panel]`` section checked; :class:`PinMapError` names the first bad key."""
    where = "[serial-panel]"
    values = _known(section, SerialPanelConfig, where)
    if "port" in section:
        port = section["port"]
        if not isinstance(port, str) or not port.strip():
            raise PinMapError(f"{where} port: give a device path such as /dev/ttyACM0, or auto")
        values["port"] = port.strip()
    if "baud" in section:
        baud = section["baud"]
        if type(baud) is not int or not 300 <= baud <= 4_000_000:
            raise PinMapError(f"{where} baud: a whole number of bits per second, not {baud!r}")
        values["baud"] = baud
    if "seats" in section:
        seats = section["seats"]
        if (
            not isinstance(seats, Sequence)
            or isinstance(seats, str)
            or not 1 <= len(seats) <= MAX_SEATS
        ):
            raise PinMapError(f"{where} seats: a list of 1 to {MAX_SEATS} seat numbers")
        for index, seat in enumerate(seats):
            if type(seat) is not int or not 1 <= seat <= MAX_SEATS:
                raise PinMapError(
                    f"{where} seats[{index}]: a seat number from 1 to {MAX_SEATS}, not {seat!r}"
                )
        if len(set(seats)) != len(seats):
            raise PinMapError(f"{where} seats: a seat appears twice in {list(seats)}")
        values["seats"] = tuple(seats)
    for key, low, high in (("reconnect_interval", 0.01, 60.0), ("heartbeat_timeout", 0.1, 600.0)):
        if key in section:
            values[key] = _number(section[key], f"{where} {key}", low, high)
    return SerialPanelConfig(**values)


def _known(section: Mapping[str, Any], cls: type, where: str) -> dict[str, Any]:
    if not isinstance(section, Mapping):
        raise PinMapError(f"{where} must be a table of settings")
    known = {field.name for field in dataclasses.fields(cls)}
    for key in section:
        if key not in known:
            raise PinMapError(
                f"{where} {key}: unknown setting; the settings are {', '.join(sorted(known))}"
            )
    return {}


def _pin(value: Any, key: str) -> int:
    if type(value) is not int:
        raise PinMapError(f"{key}: a BCM GPIO number, not {value!r}")
    if value not in GPIO_PINS:
        raise PinMapError(
            f"{key}: GPIO{value} is out of range; the header has GPIO{GPIO_PINS.start} "
            f"to GPIO{GPIO_PINS.stop - 1}"
        )
    return value


def _pins(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise PinMapError(f"{key}: a list of BCM GPIO numbers, not {value!r}")
    return tuple(_pin(pin, f"{key}[{index}]") for index, pin in enumerate(value))


def _number(value: Any, key: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PinMapError(f"{key}: a number of seconds, not {value!r}")
    if not low <= value <= high:
        raise PinMapError(f"{key}: {value} is outside {low} to {high} seconds")
    return float(value)


def _choice(value: Any, choices: Sequence[str], where: str) -> str:
    if value not in choices:
        raise PinMapError(f"{where} pin_factory: one of {', '.join(choices)}, not {value!r}")
    return str(value)
