"""Panels for the table: seat buttons and LEDs, a phase light and a buzzer.

Two ways to wire them (see docs/wiring.md and docs/serial-protocol.md):

- :mod:`hardware.gpio_panel`: straight to the Pi's GPIO header, through gpiozero;
- :mod:`hardware.serial_panel`: a Raspberry Pi Pico on USB running ``firmware/``, through
  pyserial.

Both show what :mod:`companion.service.indicators` decides and press ready through the table
service; the server starts them from its configuration file (:mod:`hardware.attach`).
"""
