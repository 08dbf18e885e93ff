"""The panels' entry points for the server (``companion.attachments`` in pyproject.toml).

``companion serve`` calls these with the service, the table and the panel's section of its
configuration file; a bad section raises :class:`~companion.service.attachments.ConfigError`
before any pin or port is claimed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.service.attachments import Attachment
from companion.service.service import TableService
from hardware.config import gpio_panel_config, serial_panel_config


def attach_gpio_panel(
    service: TableService, table_id: str, section: Mapping[str, Any]
) -> Attachment:
    """``[panel]``: the GPIO panel (see docs/wiring.md for the settings and their defaults)."""
    from hardware.gpio_panel import GpioPanel
    from hardware.pins import choose_factory

    config = gpio_panel_config(section)
    factory, _mock = choose_factory(config.pin_factory)
    try:
        # The server closes the panel and attaches a new one when the table changes: the
        # panel closes the factory it was given, so no gpiochip handle is left behind.
        return GpioPanel(service, table_id, config, pin_factory=factory, close_factory=True)
    except BaseException:
        factory.close()
        raise


def attach_serial_panel(
    service: TableService, table_id: str, section: Mapping[str, Any]
) -> Attachment:
    """``[serial-panel]``: the USB panel (see docs/serial-protocol.md)."""
    from hardware.serial_panel import SerialPanel

    config = serial_panel_config(section)
    return SerialPanel(service, table_id, config)


attach_serial_panel.demo = False  # type: ignore[attr-defined]
"""A demo server (``companion serve --demo``) starts it only when ``[serial-panel]`` is there:
off the Pi there is rarely a panel plugged in."""
