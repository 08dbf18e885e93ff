"""The panel firmware running under CPython on a pseudo-terminal: a Pico on USB, for tests.

The firmware's own modules (``firmware/ccpanel``) run unchanged with the stand-in ``machine``
module of ``firmware/check/standin``. Its "USB serial" is the master side of a pty; the Pi side
opens the slave through a symlink (``/dev/serial/by-id/...`` on a real Pi), so unplugging and
replugging is: stop the firmware, close the pty, make a new one and point the link at it.

Time on the firmware side is simulated: each loop's ``sleep_ms(1)`` moves its clock 1 ms and
really sleeps a fraction of that, so a burst of presses takes a fraction of real time.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from pathlib import Path
from typing import Any

import machine  # the stand-in: firmware/check/standin (pytest's pythonpath)
from ccpanel import board
from ccpanel.panel import Panel
from ccpanel.usb import serve

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


class SimClock:
    """MicroPython's ``time.ticks_ms`` / ``time.sleep_ms``, moving 1 ms per ``sleep_ms(1)``."""

    def __init__(self, real_sleep: float = 0.0002) -> None:
        self.now = 0
        self.real_sleep = real_sleep

    def ticks_ms(self) -> int:
        return self.now

    def sleep_ms(self, ms: int) -> None:
        self.now += ms
        time.sleep(self.real_sleep)


def ticks_diff(a: int, b: int) -> int:
    return a - b


class Firmware:
    """The firmware on a fresh pty, its slave reachable at ``link``. Stop with :meth:`unplug`."""

    def __init__(self, link: Path, *, settle_ms: int = 20) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(self.slave))
        self.clock = SimClock()
        machine.reset()
        self.buttons, self.leds, self.rgb, self.buzzer = board.parts()
        self.pins: dict[int, Any] = machine.PINS
        self.pwms: dict[int, Any] = machine.PWMS
        self._write_lock = threading.Lock()
        self.panel = Panel(
            self.buttons, self.leds, self.rgb, self.buzzer, self.write, ticks_diff, settle_ms
        )
        self._stop = threading.Event()
        self._stdin = open(self.master, "rb", buffering=0, closefd=False)  # noqa: SIM115
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, name="firmware", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            serve(self.panel, self._stdin, self.clock, lambda: not self._stop.is_set())
        except BaseException as err:  # pragma: no cover - reported by the test
            self.error = err

    def write(self, text: str) -> None:
        """What the firmware sends up the USB cable (also used to inject raw bytes)."""
        self.inject(text.encode("latin-1"))

    def inject(self, data: bytes) -> None:
        with self._write_lock:
            while data:
                if self._stop.is_set():
                    return
                _, ready, _ = select.select([], [self.master], [], 0.2)
                if ready:
                    data = data[os.write(self.master, data) :]

    def press(self, button: int, *, hold_ms: int = 40) -> None:
        """Press button ``button`` (from 1) for ``hold_ms`` of firmware time, then let go."""
        pin = self.buttons[button - 1]
        pin.drive(0)
        start = self.clock.now
        while self.clock.now - start < hold_ms:
            time.sleep(0.001)
        pin.drive(1)
        start = self.clock.now
        while self.clock.now - start < hold_ms:
            time.sleep(0.001)

    def unplug(self) -> None:
        """Stop the firmware and close both ends of its pty, as pulling the cable does."""
        self._stop.set()
        self._thread.join(timeout=5)
        self._stdin.close()
        os.close(self.master)
        os.close(self.slave)
        if self.error is not None:  # pragma: no cover - reported by the test
            raise self.error
