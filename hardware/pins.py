"""Choosing gpiozero's pin factory: the Pi's own pins on a Pi, mock pins anywhere else."""

from __future__ import annotations

import importlib.util
import logging
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from hardware.errors import PinMapError

log = logging.getLogger("hardware.panel")

MODEL_FILE = Path("/proc/device-tree/model")
PI_DRIVERS = ("lgpio", "rpigpio")
"""Preferred in this order: lgpio works on every Pi (and is the only one on a Pi 5)."""
_MODULES = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO"}


def on_a_pi(model_file: Path = MODEL_FILE) -> bool:
    try:
        return model_file.read_text(errors="replace").startswith("Raspberry Pi")
    except OSError:
        return False


def mock_factory() -> Any:
    """gpiozero's mock pins, with PWM so the RGB LED can mix colours."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def named_factory(name: str) -> Any:
    """gpiozero's pin factory of that name (``lgpio``, ``rpigpio``, ``mock`` ...)."""
    if name == "mock":
        return mock_factory()
    found = {e.name: e for e in entry_points(group="gpiozero_pin_factories")}
    if name not in found:
        raise PinMapError(f"[panel] pin_factory: gpiozero has no pin factory {name!r}")
    try:
        return found[name].load()()
    except Exception as err:  # the driver's own import or hardware errors
        raise PinMapError(
            f"[panel] pin_factory: {name} cannot start here ({type(err).__name__}: {err})"
        ) from err


def choose_factory(name: str, *, model_file: Path = MODEL_FILE) -> tuple[Any, bool]:
    """The factory for the ``pin_factory`` setting, and whether it is the mock one.

    ``auto`` takes the first Pi driver installed when running on a Raspberry Pi, and falls
    back to mock pins (saying so in the log) anywhere else.
    """
    if name != "auto":
        return named_factory(name), name == "mock"
    if on_a_pi(model_file):
        for driver in PI_DRIVERS:
            if importlib.util.find_spec(_MODULES[driver]) is None:
                continue
            try:
                return named_factory(driver), False
            except PinMapError as err:
                log.warning("panel: %s", err)
        log.warning("panel: on a Raspberry Pi but neither lgpio nor RPi.GPIO works")
    log.warning(
        "panel: not running on a Raspberry Pi with lgpio or RPi.GPIO: using gpiozero's "
        "mock pins (the panel works, but nothing is wired)"
    )
    return mock_factory(), True
