"""The panel's logic: buttons to BTN lines, LED/RGB/BEEP lines to outputs, heartbeats.

Hardware comes in as small objects (see :mod:`ccpanel.board`): buttons with ``value()``
(0 when pressed: they pull up), LEDs with ``value(v)``, an RGB LED with ``set(r, g, b)``
(0 to 255) and a buzzer with ``value(v)``. Time comes in as ``now`` (milliseconds from
``time.ticks_ms()``) and ``ticks_diff``; output goes to ``write(text)``.
"""

from ccpanel import FIRMWARE_VERSION
from ccpanel.debounce import Debouncer
from ccpanel.protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    SEQ_MODULO,
    body_fits,
    decode,
    encode,
    number,
)

BLINK_MS = 500
HEARTBEAT_MS = 1000
HOST_TIMEOUT_MS = 5000
"""Without a line from the Pi for this long the panel goes dark (no stale lights)."""
MAX_PENDING = MAX_LINE + 1
"""Characters of a line kept while waiting for its newline (a line and its carriage return);
a longer line is refused once, and dropped up to its newline."""


class Panel:
    def __init__(self, buttons, leds, rgb, buzzer, write, ticks_diff, settle_ms=20):
        self.buttons = buttons
        self.leds = leds
        self.rgb = rgb
        self.buzzer = buzzer
        self.write = write
        self.ticks_diff = ticks_diff
        self.debouncers = [Debouncer(settle_ms, ticks_diff) for _ in buttons]
        self.modes = ["OFF"] * len(leds)
        self.colour = (0, 0, 0)
        self.colour_blinks = False
        self.beep = None  # (start, on_ms, off_ms, count)
        self.seq = 0
        self.pending = ""
        self.dropping = False
        """True while the rest of an overlong line is dropped (up to its newline)."""
        self.started = None
        self.last_heartbeat = None
        self.last_heard = None
        self.errors = 0

    # Output ------------------------------------------------------------------------------------

    def send(self, fields):
        self.write(encode(fields))

    def hello(self):
        self.send(["HELLO", PROTOCOL_VERSION, FIRMWARE_VERSION, len(self.buttons), len(self.leds)])

    def start(self, now):
        self.started = now
        self.last_heartbeat = now
        self.last_heard = now
        self.hello()

    # Input -------------------------------------------------------------------------------------

    def feed(self, chars, now):
        """Characters from the Pi; each complete line is handled, and each line refused gets
        exactly one ERR (an overlong one as soon as it is too long; the rest of it, up to
        its newline, is dropped)."""
        for char in chars:
            if char == "\n":
                line = self.pending
                self.pending = ""
                if self.dropping:
                    self.dropping = False
                elif line.strip():
                    self.handle(line, now)
            elif self.dropping:
                continue
            elif len(self.pending) < MAX_PENDING:
                self.pending += char
            else:
                self.pending = ""
                self.dropping = True
                self.complain("line too long")

    def handle(self, line, now):
        try:
            fields = decode(line)
            self.apply(fields, now)
        except ValueError as err:
            self.complain(str(err))
            return
        self.last_heard = now

    def complain(self, why):
        """Answer ERR with why, cut to fit the line limit (the Pi drops longer lines)."""
        self.errors += 1
        self.send(["ERR", body_fits("ERR " + why)[4:]])

    def apply(self, fields, now):
        kind = fields[0]
        args = fields[1:]
        if kind == "WHO" and not args:
            self.hello()
        elif kind == "HB" and len(args) <= 1:
            if args:  # the panel's own form, with a sequence number: read alike on both sides
                number(args[0], 0, SEQ_MODULO - 1)
        elif kind == "LED" and len(args) == 2:
            led = number(args[0], 1, len(self.leds))
            if args[1] not in ("OFF", "ON", "BLINK"):
                raise ValueError("bad LED mode")
            self.modes[led - 1] = args[1]
        elif kind == "RGB" and len(args) == 4:
            if args[3] not in ("ON", "BLINK"):
                raise ValueError("bad RGB mode")
            self.colour = (
                number(args[0], 0, 255),
                number(args[1], 0, 255),
                number(args[2], 0, 255),
            )
            self.colour_blinks = args[3] == "BLINK"
        elif kind == "BEEP" and len(args) == 3:
            on_ms = number(args[0], 0, 10000)
            off_ms = number(args[1], 0, 10000)
            count = number(args[2], 1, 20)
            self.beep = (now, on_ms, off_ms, count)
        else:
            raise ValueError("unknown message " + kind)

    # Each scan ---------------------------------------------------------------------------------

    def step(self, now):
        """Scan buttons, drive outputs, send a heartbeat when due."""
        for index, button in enumerate(self.buttons):
            if self.debouncers[index].update(button.value() == 0, now):
                self.seq = (self.seq + 1) % SEQ_MODULO
                self.send(["BTN", self.seq, index + 1])
        self.show(now)
        if self.ticks_diff(now, self.last_heartbeat) >= HEARTBEAT_MS:
            self.last_heartbeat = now
            self.send(["HB", self.seq])

    def host_silent(self, now):
        return self.ticks_diff(now, self.last_heard) >= HOST_TIMEOUT_MS

    def show(self, now):
        dark = self.host_silent(now)
        blink_on = (self.ticks_diff(now, self.started) // BLINK_MS) % 2 == 0
        for index, led in enumerate(self.leds):
            mode = self.modes[index]
            lit = not dark and (mode == "ON" or (mode == "BLINK" and blink_on))
            led.value(1 if lit else 0)
        if self.rgb is not None:
            if dark or (self.colour_blinks and not blink_on):
                self.rgb.set(0, 0, 0)
            else:
                self.rgb.set(*self.colour)
        if self.buzzer is not None:
            self.buzzer.value(1 if self.buzzing(now) else 0)

    def buzzing(self, now):
        if self.beep is None:
            return False
        start, on_ms, off_ms, count = self.beep
        elapsed = self.ticks_diff(now, start)
        period = on_ms + off_ms
        if period <= 0 or elapsed >= period * count:
            self.beep = None
            return False
        return elapsed % period < on_ms
