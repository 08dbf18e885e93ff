"""The USB serial panel: the Pi side (hardware.serial_panel, pyserial) and the firmware
(firmware/ccpanel under CPython with a stand-in ``machine``) joined by a pseudo-terminal."""

from __future__ import annotations

import logging
import os
import time
import tty
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from ccpanel import FIRMWARE_VERSION
from firmware_host import Firmware
from panel_support import lobby_table, started_table, to_command, wait_for

from companion.errors import StateError
from companion.service import TableService
from hardware.config import SerialPanelConfig
from hardware.serial_panel import SerialPanel
from hardware.serial_protocol import ButtonPress, frame

LOG = "hardware.serial_panel"


@pytest.fixture
def link(tmp_path: Path) -> Path:
    """Where the Pi looks for the panel (like /dev/serial/by-id/usb-...-if00)."""
    return tmp_path / "ttyPANEL"


@pytest.fixture
def config(link: Path) -> SerialPanelConfig:
    return SerialPanelConfig(port=str(link), reconnect_interval=0.05, heartbeat_timeout=2.0)


@pytest.fixture
def firmware(link: Path) -> Iterator[Firmware]:
    plugged = Firmware(link)
    yield plugged
    plugged.unplug()


def seat_ready(service: TableService, table: str, seat: int) -> bool:
    return bool(service.view(table)["seats"][seat - 1]["ready"])


def test_the_pi_side_greets_the_panel_and_reads_its_hello(
    service: TableService, firmware: Firmware, config: SerialPanelConfig
) -> None:
    with SerialPanel(service, started_table(service), config) as panel:
        assert panel.connected.wait(3)
        assert panel.hello is not None
        assert (panel.hello.protocol, panel.hello.firmware) == (1, FIRMWARE_VERSION)
        assert (panel.hello.buttons, panel.hello.leds) == (8, 8)


def test_the_panel_shows_the_table_after_hello(
    service: TableService, firmware: Firmware, config: SerialPanelConfig
) -> None:
    table = started_table(service)
    to_command(service, table)
    with SerialPanel(service, table, config):
        wait_for(lambda: firmware.panel.modes[:3] == ["BLINK", "BLINK", "OFF"])
        wait_for(lambda: firmware.panel.colour == (0, 255, 0))


def test_leds_follow_the_table_while_connected(
    service: TableService, firmware: Firmware, config: SerialPanelConfig
) -> None:
    table = started_table(service)
    with SerialPanel(service, table, config) as panel:
        assert panel.connected.wait(3)
        to_command(service, table)
        service.submit(table, 2, "HOLD S5")
        wait_for(lambda: firmware.panel.modes[:2] == ["BLINK", "ON"])
        wait_for(lambda: firmware.panel.beep is not None or firmware.buzzer.history[1:])


def test_a_button_on_the_panel_marks_its_seat_ready(
    service: TableService, firmware: Firmware, config: SerialPanelConfig
) -> None:
    table = started_table(service)
    with SerialPanel(service, table, config) as panel:
        assert panel.connected.wait(3)
        firmware.press(2)
        wait_for(lambda: seat_ready(service, table, 2))
        assert not seat_ready(service, table, 1)
        wait_for(lambda: firmware.panel.modes[1] == "ON")


def test_the_seat_map_assigns_panel_buttons_to_seats(
    service: TableService, firmware: Firmware, link: Path
) -> None:
    table = started_table(service)
    config = SerialPanelConfig(port=str(link), seats=(2, 1), reconnect_interval=0.05)
    with SerialPanel(service, table, config) as panel:
        assert panel.connected.wait(3)
        firmware.press(1)
        wait_for(lambda: seat_ready(service, table, 2))
        assert not seat_ready(service, table, 1)


def test_a_burst_of_1000_presses_arrives_with_none_lost_or_repeated(
    service: TableService, link: Path, config: SerialPanelConfig
) -> None:
    firmware = Firmware(link, settle_ms=2)
    try:
        with SerialPanel(service, lobby_table(service), config) as panel:
            assert panel.connected.wait(3)
            start = firmware.clock.now + 5

            def chatter(offset: int) -> object:
                def level() -> int:
                    elapsed = firmware.clock.now - start - offset
                    if elapsed < 0 or elapsed >= 125 * 8:
                        return 1
                    return 0 if (elapsed // 4) % 2 == 1 else 1

                return level

            for index, button in enumerate(firmware.buttons):
                button.script = chatter(index % 4)
            wait_for(lambda: panel.press_count >= 1000, timeout=20)
            time.sleep(0.2)  # anything extra would arrive now
            presses = list(panel.presses)
    finally:
        firmware.unplug()
    assert [p.seq for p in presses] == list(range(1, 1001))
    assert Counter(p.button for p in presses) == {button: 125 for button in range(1, 9)}
    assert panel.skipped == 0


def test_unplug_and_replug_reconnects_and_resends_the_leds(
    service: TableService, link: Path, config: SerialPanelConfig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOG)
    table = started_table(service)
    to_command(service, table)
    first = Firmware(link)
    with SerialPanel(service, table, config) as panel:
        wait_for(lambda: first.panel.modes[:2] == ["BLINK", "BLINK"])
        first.unplug()
        wait_for(lambda: not panel.connected.is_set())
        service.submit(table, 1, "HOLD S1")  # while unplugged
        second = Firmware(link)
        try:
            wait_for(lambda: second.panel.modes[:2] == ["ON", "BLINK"])
            wait_for(lambda: second.panel.colour == (0, 255, 0))
            assert panel.connections == 2
            second.press(1)
            wait_for(lambda: seat_ready(service, table, 1))
        finally:
            second.unplug()
    assert any("lost the panel" in m for m in caplog.messages)


def test_the_pi_side_waits_for_a_panel_that_is_not_plugged_in_yet(
    service: TableService, link: Path, config: SerialPanelConfig
) -> None:
    with SerialPanel(service, started_table(service), config) as panel:
        time.sleep(0.15)
        assert not panel.connected.is_set()
        firmware = Firmware(link)
        try:
            assert panel.connected.wait(3)
        finally:
            firmware.unplug()


def test_garbage_and_damaged_lines_are_skipped_and_the_panel_carries_on(
    service: TableService, firmware: Firmware, config: SerialPanelConfig
) -> None:
    table = started_table(service)
    with SerialPanel(service, table, config) as panel:
        assert panel.connected.wait(3)
        firmware.inject(b"\x00\xff\xfe garbage \x1b[2J\n")  # not printable
        firmware.inject(b"BTN 5 1*00\n")  # bad checksum
        firmware.inject(b"BTN 5 1\n")  # no checksum
        firmware.inject(frame("BTN 5")[:-4] + b"\n")  # truncated
        firmware.inject(frame("BTN x 1"))  # malformed
        firmware.inject(frame("FOO 1 2"))  # unknown message
        firmware.inject(b"Z" * 700 + b"\n")  # far too long
        wait_for(lambda: panel.skipped >= 7)
        firmware.press(1)
        wait_for(lambda: seat_ready(service, table, 1))
        assert [p.button for p in panel.presses] == [1]
        assert panel.skipped == 7  # one each: the overlong line too, however long it runs


def test_repeated_and_out_of_order_presses_are_skipped(
    service: TableService, firmware: Firmware, config: SerialPanelConfig
) -> None:
    table = started_table(service)
    with SerialPanel(service, table, config) as panel:
        assert panel.connected.wait(3)
        firmware.press(3)  # seq 1
        wait_for(lambda: len(panel.presses) == 1)
        firmware.inject(frame("BTN 1 1"))  # seq 1 again: repeated
        firmware.inject(frame("BTN 0 2"))  # older
        wait_for(lambda: panel.skipped == 2)
        firmware.panel.seq = 1  # the firmware's next press is seq 2
        firmware.press(2)
        wait_for(lambda: seat_ready(service, table, 2))
    assert panel.presses == [ButtonPress(1, 3), ButtonPress(2, 2)]
    assert not seat_ready(service, table, 1)


def test_a_firmware_speaking_another_protocol_version_is_refused(
    service: TableService,
    link: Path,
    config: SerialPanelConfig,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("ccpanel.panel.PROTOCOL_VERSION", 2)
    firmware = Firmware(link)
    try:
        with SerialPanel(service, started_table(service), config) as panel:
            wait_for(lambda: panel.refused is not None)
            time.sleep(0.1)
            assert not panel.connected.is_set()
            assert firmware.panel.modes == ["OFF"] * 8  # no commands were sent
    finally:
        firmware.unplug()
    assert "protocol version 2" in (panel.refused or "")
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any("refused" in m and "flash the firmware" in m for m in errors)


def test_a_silent_panel_is_dropped_and_reconnected(
    service: TableService, firmware: Firmware, link: Path
) -> None:
    config = SerialPanelConfig(port=str(link), reconnect_interval=0.05, heartbeat_timeout=0.3)
    with SerialPanel(service, started_table(service), config) as panel:
        assert panel.connected.wait(3)
        firmware.clock.real_sleep = 0.5  # the firmware hangs: no heartbeat in 0.3 s
        wait_for(lambda: not panel.connected.is_set())
        firmware.clock.real_sleep = 0.0002
        wait_for(lambda: panel.connections == 2)


def test_waiting_for_the_panel_says_why_the_port_cannot_be_opened(
    service: TableService, config: SerialPanelConfig, caplog: pytest.LogCaptureFixture
) -> None:
    with SerialPanel(service, started_table(service), config):
        wait_for(lambda: any("waiting for the panel" in m for m in caplog.messages))
    waiting = next(m for m in caplog.messages if "waiting for the panel" in m)
    assert "No such file or directory" in waiting


def test_a_table_that_does_not_exist_is_refused_at_once(
    service: TableService, config: SerialPanelConfig
) -> None:
    with pytest.raises(StateError, match="there is no table 'nope'"):
        SerialPanel(service, "nope", config)


def test_a_device_that_never_says_hello_is_dropped_with_a_hint(
    service: TableService, link: Path, caplog: pytest.LogCaptureFixture
) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    link.symlink_to(os.ttyname(slave))
    config = SerialPanelConfig(port=str(link), reconnect_interval=0.05, heartbeat_timeout=0.2)
    try:
        with SerialPanel(service, started_table(service), config) as panel:
            wait_for(lambda: any("no HELLO" in m for m in caplog.messages))
            assert not panel.connected.is_set()
    finally:
        os.close(master)
        os.close(slave)
    hint = next(m for m in caplog.messages if "no HELLO" in m)
    assert "is the Cluster Companion firmware flashed on it?" in hint


def test_a_gap_in_sequence_numbers_is_logged_and_the_press_still_counts(
    service: TableService,
    firmware: Firmware,
    config: SerialPanelConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = started_table(service)
    with SerialPanel(service, table, config) as panel:
        assert panel.connected.wait(3)
        firmware.press(3)  # seq 1
        wait_for(lambda: len(panel.presses) == 1)
        firmware.panel.seq = 3  # seqs 2 and 3 were lost on the way
        firmware.press(1)  # seq 4
        wait_for(lambda: seat_ready(service, table, 1))
    assert panel.presses == [ButtonPress(1, 3), ButtonPress(4, 1)]
    assert (
        "serial panel: 2 presses before 4 never arrived" in caplog.messages
        # or a heartbeat naming press 3 came between and said so first
        or "serial panel: presses 2 to 3 never arrived" in caplog.messages
    )


def test_a_heartbeat_naming_a_later_press_reports_it_lost(
    service: TableService,
    firmware: Firmware,
    config: SerialPanelConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with SerialPanel(service, started_table(service), config) as panel:
        assert panel.connected.wait(3)
        firmware.press(5)  # seq 1
        wait_for(lambda: len(panel.presses) == 1)
        firmware.panel.seq = 3  # presses 2 and 3 sent but lost: the next heartbeat says 3
        wait_for(lambda: "serial panel: presses 2 to 3 never arrived" in caplog.messages)


def test_auto_finds_the_pico_among_the_serial_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    from hardware.serial_panel import PICO_USB_VENDOR, find_pico

    other = ListPortInfo("/dev/ttyUSB0", skip_link_detection=True)
    other.vid = 0x0403  # an FTDI adapter
    pico = ListPortInfo("/dev/ttyACM1", skip_link_detection=True)
    pico.vid = PICO_USB_VENDOR
    monkeypatch.setattr(list_ports, "comports", lambda: [pico, other])
    assert find_pico() == "/dev/ttyACM1"
    monkeypatch.setattr(list_ports, "comports", lambda: [other])
    assert find_pico() is None


def test_no_panel_plugged_in_is_said_once_not_at_every_attempt(
    service: TableService, config: SerialPanelConfig, caplog: pytest.LogCaptureFixture
) -> None:
    """The Pi waits quietly for a panel that is not there: one line in the journal, however
    many times it looks for the port."""
    attempts: list[str] = []

    def absent(port: str, baud: int) -> object:
        attempts.append(port)
        raise FileNotFoundError(2, "No such file or directory", port)

    caplog.set_level(logging.INFO, logger=LOG)
    with SerialPanel(service, started_table(service), config, opener=absent):
        wait_for(lambda: len(attempts) >= 10)
    waiting = [r for r in caplog.records if r.name == LOG and "waiting for" in r.getMessage()]
    assert len(waiting) == 1
    assert all(r.levelno < logging.ERROR for r in caplog.records if r.name == LOG)


class ScriptedPort:
    """A serial port whose panel side is a script of bytes, handed out as pyserial would, at
    most 64 at a time (so a long line arrives in pieces, as over USB)."""

    def __init__(self, data: bytes) -> None:
        self.data = bytearray(data)
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, size: int) -> bytes:
        if not self.data:
            time.sleep(0.002)
            return b""
        size = min(size, 64)
        out = bytes(self.data[:size])
        del self.data[:size]
        return out

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        pass


def test_presses_kept_are_bounded_and_counted(service: TableService) -> None:
    """SerialPanel.presses keeps the latest presses only (it kept every press forever: 13.4 MB
    per 100,000); press_count counts them all."""
    from hardware.serial_panel import MAX_PRESSES_KEPT

    total = MAX_PRESSES_KEPT + 500
    script = frame("HELLO 1 1.0.1 8 8") + b"".join(
        frame(f"BTN {seq} {seq % 8 + 1}") for seq in range(1, total + 1)
    )
    port = ScriptedPort(script)
    config = SerialPanelConfig(port="/dev/ttyTEST", heartbeat_timeout=30.0)
    with SerialPanel(
        service, lobby_table(service), config, opener=lambda name, baud: port
    ) as panel:
        wait_for(lambda: panel.press_count == total, timeout=20)
        kept = panel.presses
    assert len(kept) == MAX_PRESSES_KEPT
    assert [p.seq for p in kept] == list(range(total - MAX_PRESSES_KEPT + 1, total + 1))
    assert panel.skipped == 0


def test_an_overlong_line_is_skipped_once_however_long(service: TableService) -> None:
    """A line over the limit is one bad line, skipped once, whatever its length (its bytes
    up to the newline are dropped, not read as another line)."""
    script = frame("HELLO 1 1.0.1 8 8") + b"Z" * 2000 + b"\n" + frame("BTN 1 3")
    port = ScriptedPort(script)
    config = SerialPanelConfig(port="/dev/ttyTEST", heartbeat_timeout=30.0)
    with SerialPanel(
        service, lobby_table(service), config, opener=lambda name, baud: port
    ) as panel:
        wait_for(lambda: panel.press_count == 1)
        assert panel.skipped == 1
        assert panel.presses == [ButtonPress(1, 3)]
