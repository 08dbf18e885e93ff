"""Benchmarks of the panels: how fast a press shows, and how many serial lines are read.

* :func:`bench_gpio_press` runs the GPIO panel on gpiozero's mock pins over an 8-seat table in
  an SQLite file (``synchronous=FULL``) and times, for each of 200 seat-button presses (seats in
  turn, through discussions, command phases and whole turns), the time from the button going
  down to the panel having shown the result: ``set_ready`` stored and acknowledged, the event
  published, the panel's thread woken, the view read and every LED, the RGB LED and the buzzer
  updated.
* :func:`bench_serial_lines` opens the serial panel on a pseudo-terminal, answers its ``WHO``
  with a ``HELLO`` and writes 5,000 framed ``BTN`` lines at once (a table in its lobby, so no
  press reaches the service); it times until the panel has read, checked and counted them all.

``python -m benchmarks.panels [--quick] [--json]``; ``python -m benchmarks`` runs it after the
table service. The quick mode (a smoke run) uses 20 presses and 500 lines.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
import tty
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from benchmarks.service import seat_table
from companion.service import FakeClock, Storage, TableService
from hardware.config import GpioPanelConfig, SerialPanelConfig
from hardware.serial_protocol import ButtonPress, Hello, line

TARGET_PRESS_MS = 50.0
"""A press must show on the panel within this (median), to feel instant."""
TARGET_LINES_PER_SECOND = 1000.0
"""Eight buttons pressed as fast as hands can (10/s each) send 80 lines/s; keep ample room."""

PRESSES = 200
QUICK_PRESSES = 20
LINES = 5000
QUICK_LINES = 500
START = 1_800_000_000.0


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _wait(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError("the panel did not follow within 10 s")
        time.sleep(0.0002)


def bench_gpio_press(*, presses: int = PRESSES, folder: Path | None = None) -> dict[str, Any]:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hardware.gpio_panel import GpioPanel

    config = GpioPanelConfig(bounce_time=0.0)
    factory = MockFactory(pin_class=MockPWMPin)
    latencies = []
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=folder) as tmp:
        service = TableService(Storage(Path(tmp) / "panel.db"), clock=FakeClock(START))
        try:
            table_id = seat_table(service)
            with GpioPanel(service, table_id, config, pin_factory=factory) as panel:
                for number in range(presses):
                    seat = number % 8 + 1
                    pin = factory.pin(config.seat_buttons[seat - 1])
                    before = panel.refreshes
                    t0 = time.perf_counter()
                    pin.drive_low()
                    _wait(lambda: panel.refreshes > before)  # noqa: B023 (waited on at once)
                    latencies.append(time.perf_counter() - t0)
                    pin.drive_high()
                turn = service.view(table_id)["turn"]
        finally:
            service.close()
            factory.reset()
    return {
        "presses": presses,
        "turns_played": turn - 1,
        "median_ms": statistics.median(latencies) * 1000,
        "p99_ms": _percentile(latencies, 0.99) * 1000,
        "max_ms": max(latencies) * 1000,
    }


def bench_serial_lines(*, lines: int = LINES, folder: Path | None = None) -> dict[str, Any]:
    from hardware.serial_panel import SerialPanel

    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    burst = b"".join(line(ButtonPress(n % 65536, n % 8 + 1)) for n in range(1, lines + 1))
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=folder) as tmp:
        service = TableService(Storage(Path(tmp) / "serial.db"), clock=FakeClock(START))
        config = SerialPanelConfig(port=os.ttyname(slave), heartbeat_timeout=30.0)
        try:
            table_id, _ = service.create_table("bench", 8)
            with SerialPanel(service, table_id, config) as panel:
                _read_until(master, b"WHO")
                os.write(master, line(Hello(1, "bench", 8, 8)))
                if not panel.connected.wait(5):
                    raise RuntimeError("the serial panel did not connect")
                drain = threading.Thread(target=_drain, args=(master, panel), daemon=True)
                drain.start()
                t0 = time.perf_counter()
                view = memoryview(burst)
                while view:
                    view = view[os.write(master, view) :]
                _wait(lambda: panel.press_count >= lines)
                wall = time.perf_counter() - t0
                skipped = panel.skipped
        finally:
            service.close()
            os.close(master)
            os.close(slave)
    if skipped:
        raise RuntimeError(f"{skipped} lines were skipped")
    return {"lines": lines, "wall_s": wall, "per_second": lines / wall}


def _read_until(fd: int, wanted: bytes) -> None:
    seen = b""
    while wanted not in seen:
        seen += os.read(fd, 1024)


def _drain(fd: int, panel: Any) -> None:
    """Read what the Pi side writes (LED commands, heartbeats) so it never blocks."""
    while not panel.closed:
        try:
            os.read(fd, 4096)
        except OSError:
            return


def run(*, quick: bool = False, folder: Path | None = None) -> dict[str, Any]:
    machine = machine_info()
    gpio = bench_gpio_press(presses=QUICK_PRESSES if quick else PRESSES, folder=folder)
    serial = bench_serial_lines(lines=QUICK_LINES if quick else LINES, folder=folder)
    return {
        "suite": "panels",
        "quick": quick,
        "machine": machine,
        "gpio": gpio,
        "serial": serial,
        "targets": {
            "press_ms": {
                "target": TARGET_PRESS_MS,
                "measured": gpio["median_ms"],
                "passed": gpio["median_ms"] <= TARGET_PRESS_MS,
            },
            "serial_lines_per_second": {
                "target": TARGET_LINES_PER_SECOND,
                "measured": serial["per_second"],
                "passed": serial["per_second"] >= TARGET_LINES_PER_SECOND,
            },
        },
    }


def format_report(results: dict[str, Any]) -> str:
    gpio, serial, targets = results["gpio"], results["serial"], results["targets"]
    press, rate = targets["press_ms"], targets["serial_lines_per_second"]
    lines = [
        *header("panels", results["machine"], quick=results["quick"]),
        "",
        f"a) GPIO panel, press to lights shown: {gpio['presses']} presses on an 8-seat table "
        f"({gpio['turns_played']} turns played), SQLite synchronous=FULL, mock pins",
        f"   median {gpio['median_ms']:.2f} ms, p99 {gpio['p99_ms']:.2f} ms, "
        f"max {gpio['max_ms']:.2f} ms",
        "",
        f"b) serial panel, {serial['lines']} BTN lines through a pseudo-terminal: "
        f"{serial['wall_s'] * 1000:.0f} ms, {serial['per_second']:.0f} lines/s",
        "",
        f"c) targets: press shown <= {press['target']:.0f} ms: "
        f"{'PASS' if press['passed'] else 'FAIL'} (measured {press['measured']:.2f} ms); "
        f">= {rate['target']:.0f} serial lines/s: "
        f"{'PASS' if rate['passed'] else 'FAIL'} (measured {rate['measured']:.0f}/s)",
    ]
    if results["quick"]:
        lines.append("   (quick run: few presses and lines; run without --quick)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.panels",
        description="Benchmarks of the GPIO and serial panels.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
