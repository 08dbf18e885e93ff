"""The serial panel's line protocol, version 1 (docs/serial-protocol.md): the Pi's side.

A line is printable ASCII: a body of space-separated fields, ``*``, the body's CRC-8 as two
upper-case hex digits, and a newline: ``BTN 12 3*5E``. :func:`parse` turns a line into one of
the message values below or raises :class:`~hardware.errors.ProtocolError` saying why;
``message.line()`` is the reverse. The firmware has its own implementation
(``firmware/ccpanel/protocol.py``); tests check that the two agree.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import ClassVar

from hardware.errors import ProtocolError

PROTOCOL_VERSION = 1
MAX_LINE = 96
"""Bytes in a line, checksum included, newline excluded."""
SEQ_MODULO = 65536


def crc8(data: bytes) -> int:
    """CRC-8 with polynomial 0x07, initial value 0, no reflection (CRC-8/SMBUS)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def frame(body: str) -> bytes:
    """``body`` with its checksum and newline."""
    data = body.encode("ascii")
    return b"%s*%02X\n" % (data, crc8(data))


class LedMode(enum.Enum):
    OFF = "OFF"
    ON = "ON"
    BLINK = "BLINK"


# Panel to Pi -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Hello:
    """The panel says who it is: on start, and in answer to :class:`Who`."""

    protocol: int
    firmware: str
    buttons: int
    leds: int
    kind: ClassVar[str] = "HELLO"

    def fields(self) -> list[str]:
        return [str(self.protocol), self.firmware, str(self.buttons), str(self.leds)]


@dataclasses.dataclass(frozen=True)
class ButtonPress:
    """Button ``button`` (from 1) was pressed; ``seq`` counts presses from 1 after each start."""

    seq: int
    button: int
    kind: ClassVar[str] = "BTN"

    def fields(self) -> list[str]:
        return [str(self.seq), str(self.button)]


@dataclasses.dataclass(frozen=True)
class Heartbeat:
    """Sent every second by both sides; the panel's carries the last press ``seq`` it sent."""

    seq: int | None = None
    kind: ClassVar[str] = "HB"

    def fields(self) -> list[str]:
        return [] if self.seq is None else [str(self.seq)]


@dataclasses.dataclass(frozen=True)
class PanelComplaint:
    """The panel could not use a line the Pi sent; ``text`` says why."""

    text: str
    kind: ClassVar[str] = "ERR"

    def fields(self) -> list[str]:
        return self.text.split()


# Pi to panel -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Who:
    """Ask the panel for its :class:`Hello`."""

    kind: ClassVar[str] = "WHO"

    def fields(self) -> list[str]:
        return []


@dataclasses.dataclass(frozen=True)
class Led:
    """Set seat LED ``led`` (from 1)."""

    led: int
    mode: LedMode
    kind: ClassVar[str] = "LED"

    def fields(self) -> list[str]:
        return [str(self.led), self.mode.value]


@dataclasses.dataclass(frozen=True)
class Rgb:
    """Set the phase LED: 0 to 255 per colour, steady or blinking."""

    red: int
    green: int
    blue: int
    blink: bool = False
    kind: ClassVar[str] = "RGB"

    def fields(self) -> list[str]:
        return [str(self.red), str(self.green), str(self.blue), "BLINK" if self.blink else "ON"]


@dataclasses.dataclass(frozen=True)
class Beep:
    """Sound the buzzer ``count`` times, ``on_ms`` on and ``off_ms`` off."""

    on_ms: int
    off_ms: int
    count: int
    kind: ClassVar[str] = "BEEP"

    def fields(self) -> list[str]:
        return [str(self.on_ms), str(self.off_ms), str(self.count)]


Message = Hello | ButtonPress | Heartbeat | PanelComplaint | Who | Led | Rgb | Beep


def line(message: Message) -> bytes:
    """The message as a framed line."""
    return frame(" ".join([message.kind, *message.fields()]))


_HEX_DIGITS = frozenset(b"0123456789ABCDEF")
"""A checksum is two of these: upper case, nothing else (``int()`` would take ``" 4"``)."""


def parse(raw: bytes) -> Message:
    """A received line (with or without its newline, and one carriage return before that) as
    a message; ProtocolError if unusable."""
    text = raw.removesuffix(b"\n").removesuffix(b"\r")
    if len(text) > MAX_LINE:
        raise ProtocolError(f"line of {len(text)} bytes is longer than {MAX_LINE}")
    if not all(0x20 <= byte < 0x7F for byte in text):
        raise ProtocolError(f"line holds bytes that are not printable ASCII: {raw[:40]!r}")
    body, star, check = text.rpartition(b"*")
    if not star or len(check) != 2:
        raise ProtocolError(f"line has no checksum: {text.decode()!r}")
    if not _HEX_DIGITS.issuperset(check):
        raise ProtocolError(f"checksum is not two upper-case hex digits: {text.decode()!r}")
    expected = int(check, 16)
    if crc8(body) != expected:
        raise ProtocolError(f"checksum mismatch (line damaged?): {text.decode()!r}")
    kind, *fields = body.decode().split(" ")
    try:
        return _build(kind, fields)
    except ProtocolError:
        raise
    except (ValueError, IndexError):
        raise ProtocolError(f"malformed {kind} line: {body.decode()!r}") from None


def _build(kind: str, fields: list[str]) -> Message:
    def count(expected: int) -> None:
        if len(fields) != expected:
            raise ValueError(kind)

    def number(text: str, low: int, high: int) -> int:
        if not text.isdigit():
            raise ValueError(text)
        value = int(text)
        if not low <= value <= high:
            raise ValueError(text)
        return value

    if kind == "HELLO":
        count(4)
        return Hello(
            number(fields[0], 0, 999),
            fields[1],
            number(fields[2], 0, 64),
            number(fields[3], 0, 64),
        )
    if kind == "BTN":
        count(2)
        return ButtonPress(number(fields[0], 0, SEQ_MODULO - 1), number(fields[1], 1, 64))
    if kind == "HB":
        if not fields:
            return Heartbeat()
        count(1)
        return Heartbeat(number(fields[0], 0, SEQ_MODULO - 1))
    if kind == "ERR":
        return PanelComplaint(" ".join(fields))
    if kind == "WHO":
        count(0)
        return Who()
    if kind == "LED":
        count(2)
        return Led(number(fields[0], 1, 64), LedMode(fields[1]))
    if kind == "RGB":
        count(4)
        if fields[3] not in ("ON", "BLINK"):
            raise ValueError(fields[3])
        red, green, blue = (number(f, 0, 255) for f in fields[:3])
        return Rgb(red, green, blue, fields[3] == "BLINK")
    if kind == "BEEP":
        count(3)
        return Beep(
            number(fields[0], 0, 10000), number(fields[1], 0, 10000), number(fields[2], 1, 20)
        )
    raise ProtocolError(f"unknown message type {kind!r}")


def seq_after(last: int | None, seq: int) -> int:
    """How far ``seq`` is ahead of ``last`` (1: the next one), counting round the wrap.

    0 or less means a repeat or an older line.
    """
    if last is None:
        return 1
    ahead = (seq - last) % SEQ_MODULO
    return ahead if ahead < SEQ_MODULO // 2 else ahead - SEQ_MODULO
