"""The USB serial panel: a Raspberry Pi Pico running ``firmware/``, spoken to with pyserial.

One thread does everything for the panel: it opens the port (or waits for it to appear), asks
the panel who it is, sends the lights :mod:`companion.service.indicators` decides, reads
button presses and turns them into ``set_ready`` for the stage on show, and sends heartbeats.
When the panel goes away (unplugged, silent for too long) the port is closed and reopened as
soon as it can be; the full LED state is sent again after every ``HELLO``.

Bad input never stops it: garbage, truncated, damaged, repeated or out-of-order lines are
logged and skipped. A panel speaking another protocol version is refused with an error in the
log (:attr:`SerialPanel.refused`), and left alone.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.service.indicators import Cue, Indicators, SeatLight, cues, indicators
from companion.service.service import TableService
from hardware.config import SerialPanelConfig
from hardware.errors import FirmwareMismatch, ProtocolError
from hardware.serial_protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    Beep,
    ButtonPress,
    Heartbeat,
    Hello,
    Led,
    LedMode,
    Message,
    PanelComplaint,
    Rgb,
    Who,
    line,
    parse,
    seq_after,
)

log = logging.getLogger("hardware.serial_panel")

PICO_USB_VENDOR = 0x2E8A
"""Raspberry Pi's USB vendor id, which a Pico running MicroPython reports."""
HELLO_RETRY = 1.0
HEARTBEAT_EVERY = 1.0
MAX_PENDING = MAX_LINE + 1
"""Bytes kept while waiting for a newline (a line and its carriage return); a longer line is
skipped once, and dropped up to its newline."""
MAX_PRESSES_KEPT = 1000
"""Presses kept in :attr:`SerialPanel.presses` (the latest); :attr:`press_count` counts all."""
BEEPS = {Cue.COUNTDOWN: Beep(80, 50, 1), Cue.PHASE: Beep(300, 150, 2)}
LED_MODES = {
    SeatLight.OFF: LedMode.OFF,
    SeatLight.STEADY: LedMode.ON,
    SeatLight.BLINK: LedMode.BLINK,
}

Opener = Callable[[str, int], Any]


def open_serial(port: str, baud: int) -> Any:
    """pyserial's port, non-blocking reads of what is there."""
    import serial

    return serial.Serial(port, baud, timeout=0.02, write_timeout=2)


def find_pico() -> str | None:
    """The device of the first Raspberry Pi Pico on USB, or None."""
    from serial.tools import list_ports

    for found in sorted(list_ports.comports(), key=lambda p: p.device):
        if found.vid == PICO_USB_VENDOR:
            return str(found.device)
    return None


class _Gone(Exception):
    """The panel stopped answering: close the port and reconnect."""


class SerialPanel:
    """A USB panel for one table. Close it to release the port and the thread."""

    def __init__(
        self,
        service: TableService,
        table_id: str,
        config: SerialPanelConfig,
        *,
        opener: Opener = open_serial,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.table_id = table_id
        self.config = config
        self._opener = opener
        self._monotonic = monotonic
        self.shown: Indicators | None = None
        self.hello: Hello | None = None
        """The connected panel's HELLO; None while there is none."""
        self.refused: str | None = None
        """Why the panel was refused (another protocol version), or None."""
        self._presses: deque[ButtonPress] = deque(maxlen=MAX_PRESSES_KEPT)
        self._presses_lock = threading.Lock()
        self.press_count = 0
        """Presses received and accepted since the panel was made (repeats left out)."""
        self.skipped = 0
        """Lines skipped: damaged, garbage, repeated, out of order or unexpected."""
        self.connections = 0
        self.connected = threading.Event()
        self._last_seq: int | None = None
        self._sent: dict[object, Message] = {}
        self._port: Any = None
        self._closed = False
        self._stop = threading.Event()
        service.view(table_id)  # an unknown table is refused here, not logged forever
        self._subscription = service.subscribe(table_id)
        self._refresh()
        self._thread = threading.Thread(target=self._run, name="serial-panel", daemon=True)
        self._thread.start()

    @property
    def presses(self) -> list[ButtonPress]:
        """The latest presses received and accepted (at most ``MAX_PRESSES_KEPT``), oldest
        first; repeats and old lines left out."""
        with self._presses_lock:
            return list(self._presses)

    # The connection ------------------------------------------------------------------------------

    def _run(self) -> None:
        waiting_said = ""
        while not self._stop.is_set() and self.refused is None:
            port, why = self._open()
            if port is None:
                if why != waiting_said:
                    log.warning(
                        "serial panel: waiting for the panel on %s (%s)", self.config.port, why
                    )
                    waiting_said = why
                self._follow_events()
                self._stop.wait(self.config.reconnect_interval)
                continue
            waiting_said = ""
            self._port = port
            try:
                self._session(port)
            except _Gone as err:
                log.warning("serial panel: lost the panel (%s); reconnecting", err)
            except FirmwareMismatch as err:
                self.refused = str(err)
                log.error("serial panel: refused: %s", err)
            except Exception as err:  # pyserial's SerialException, OSError: unplugged
                log.warning(
                    "serial panel: lost the panel (%s: %s); reconnecting", type(err).__name__, err
                )
            finally:
                self._port = None
                self.hello = None
                self.connected.clear()
                with contextlib.suppress(Exception):  # the device may be gone already
                    port.close()

    def _open(self) -> tuple[Any, str]:
        """The open port, or None and why not."""
        name = self.config.port
        if name == "auto":
            found = find_pico()
            if found is None:
                return None, "no Raspberry Pi Pico on USB"
            name = found
        try:
            return self._opener(name, self.config.baud), ""
        except Exception as err:  # SerialException, OSError: not plugged in (yet), no permission
            return None, str(err) or type(err).__name__

    def _session(self, port: Any) -> None:
        self._sent = {}
        self._last_seq = None
        pending = b""
        dropping = False  # the rest of an overlong line, up to its newline
        now = self._monotonic()
        last_heard = now
        last_beat = now
        next_who = now + HELLO_RETRY
        self._send(Who())
        while not self._stop.is_set():
            self._follow_events()
            data = port.read(port.in_waiting or 1)
            now = self._monotonic()
            if data:
                pending += data
                *lines, pending = pending.split(b"\n")
                for raw in lines:
                    if dropping:
                        dropping = False  # the overlong line's end: already skipped
                    elif self._handle(raw):
                        last_heard = now
                if dropping:
                    pending = b""
                elif len(pending) > MAX_PENDING:
                    self._skip(f"a line longer than {MAX_LINE} bytes (dropped up to its newline)")
                    pending = b""
                    dropping = True
            if now - last_heard > self.config.heartbeat_timeout:
                if self.hello is None:
                    raise _Gone(
                        f"no HELLO in answer to WHO for {self.config.heartbeat_timeout:g} s: "
                        f"is the Cluster Companion firmware flashed on it?"
                    )
                raise _Gone(f"silent for {self.config.heartbeat_timeout:g} s")
            if self.hello is None and now >= next_who:
                self._send(Who())
                next_who = now + HELLO_RETRY
            if now - last_beat >= HEARTBEAT_EVERY:
                self._send(Heartbeat())
                last_beat = now

    def _send(self, message: Message) -> None:
        port = self._port
        if port is not None:
            port.write(line(message))

    def _skip(self, why: str) -> None:
        self.skipped += 1
        log.warning("serial panel: skipped %s", why)

    # Lines from the panel ----------------------------------------------------------------------

    def _handle(self, raw: bytes) -> bool:
        """Act on one line; True if it was a valid line (the panel is alive)."""
        if not raw.strip():
            return False
        try:
            message = parse(raw)
        except ProtocolError as err:
            self._skip(f"a bad line: {err}")
            return False
        if isinstance(message, Hello):
            self._hello(message)
        elif self.hello is None:
            self._skip(f"{message.kind} before the panel said HELLO")
        elif isinstance(message, ButtonPress):
            self._button(message)
        elif isinstance(message, Heartbeat):
            self._heartbeat(message)
        elif isinstance(message, PanelComplaint):
            log.warning("serial panel: the panel could not use a line: %s", message.text)
        else:
            self._skip(f"a {message.kind} line, which only the Pi sends")
        return True

    def _hello(self, hello: Hello) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            raise FirmwareMismatch(
                f"the panel runs firmware {hello.firmware} speaking protocol version "
                f"{hello.protocol}, but this companion speaks version {PROTOCOL_VERSION}: "
                f"flash the firmware from this release's firmware/ folder (see its README)"
            )
        first = self.hello is None
        self.hello = hello
        self._last_seq = None
        self._sent = {}
        if first:
            self.connections += 1
            log.info(
                "serial panel: connected, firmware %s, %d buttons, %d LEDs",
                hello.firmware,
                hello.buttons,
                hello.leds,
            )
        self._show_all()
        self.connected.set()

    def _heartbeat(self, beat: Heartbeat) -> None:
        """A panel's heartbeat names its last press: a later one than ours was lost."""
        if beat.seq is None:
            return
        if self._last_seq is None:
            self._last_seq = beat.seq  # the baseline after a HELLO
        elif seq_after(self._last_seq, beat.seq) > 0:
            log.warning(
                "serial panel: presses %d to %d never arrived", self._last_seq + 1, beat.seq
            )
            self._last_seq = beat.seq

    def _button(self, press: ButtonPress) -> None:
        ahead = seq_after(self._last_seq, press.seq)
        if ahead <= 0:
            self._skip(f"press {press.seq} (repeated or out of order; last {self._last_seq})")
            return
        if ahead > 1:
            log.warning("serial panel: %d presses before %d never arrived", ahead - 1, press.seq)
        self._last_seq = press.seq
        with self._presses_lock:
            self._presses.append(press)
            self.press_count += 1
        if press.button > len(self.config.seats):
            log.info("serial panel: button %d has no seat in [serial-panel] seats", press.button)
            return
        self._ready(self.config.seats[press.button - 1])

    def _ready(self, seat: int) -> None:
        shown = self.shown
        if shown is None or not shown.stage.playing:
            log.info("serial panel: seat %d pressed, but there is no phase to be ready for", seat)
            return
        try:
            indicator = shown.seat(seat)
        except KeyError:
            log.info("serial panel: seat %d pressed, but the table has no such seat", seat)
            return
        if indicator.ready:
            return
        try:
            self.service.set_ready(self.table_id, seat, True, stage=shown.stage)
            log.info("serial panel: seat %d pressed ready (%s)", seat, shown.stage.title)
        except CompanionError as err:
            log.info("serial panel: seat %d press not counted: %s", seat, err)
        self._refresh()

    # Lights ------------------------------------------------------------------------------------

    def _follow_events(self) -> None:
        if self._subscription.drain():
            self._refresh()

    def _refresh(self) -> None:
        try:
            shown = indicators(self.service.view(self.table_id))
        except CompanionError as err:
            log.error("serial panel: cannot show table %s: %s", self.table_id, err)
            return
        before, self.shown = self.shown, shown
        if self.hello is not None:
            self._show_all()
            for cue in cues(before, shown):
                self._send(BEEPS[cue])

    def _wanted(self) -> dict[object, Message]:
        shown, hello = self.shown, self.hello
        if shown is None or hello is None:
            return {}
        wanted: dict[object, Message] = {}
        lights = {indicator.seat: indicator.light for indicator in shown.seats}
        for index in range(1, hello.leds + 1):
            seat = self.config.seats[index - 1] if index <= len(self.config.seats) else None
            light = lights.get(seat, SeatLight.OFF) if seat is not None else SeatLight.OFF
            wanted[("LED", index)] = Led(index, LED_MODES[light])
        red, green, blue = (round(part * 255) for part in shown.colour)
        wanted["RGB"] = Rgb(red, green, blue, shown.colour_blinks)
        return wanted

    def _show_all(self) -> None:
        """Send each light whose wanted state differs from what the panel was last sent."""
        for key, message in self._wanted().items():
            if self._sent.get(key) != message:
                self._send(message)
                self._sent[key] = message

    # Closing -------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the thread and close the port. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._subscription.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> SerialPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
