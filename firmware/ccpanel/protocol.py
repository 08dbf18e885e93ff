"""The serial line protocol, version 1, the panel's side (see docs/serial-protocol.md).

MicroPython cannot import the Pi's ``hardware`` package, so this is a second implementation;
the project's tests check that both frame, check and read lines alike.
"""

PROTOCOL_VERSION = 1
MAX_LINE = 96
SEQ_MODULO = 65536


def crc8(data):
    """CRC-8, polynomial 0x07, initial value 0, no reflection (CRC-8/SMBUS)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode(fields):
    """A list of fields (the message type first) as a framed line of text."""
    body = " ".join([str(field) for field in fields])
    return f"{body}*{crc8(body.encode()):02X}\n"


HEX_DIGITS = "0123456789ABCDEF"
"""A checksum is two of these: upper case only, nothing else (no sign, no space)."""


def body_fits(text):
    """``text`` shortened, if need be, so that framed (``*XX``) it fits the line limit."""
    return text[: MAX_LINE - 3]


def decode(line):
    """A received line as its list of fields; ValueError saying why when unusable.

    The line may end with its newline and, before it, one carriage return.
    """
    text = line[:-1] if line.endswith("\n") else line
    if text.endswith("\r"):
        text = text[:-1]
    if len(text) > MAX_LINE:
        raise ValueError("too long")
    for char in text:
        if not 32 <= ord(char) < 127:
            raise ValueError("not printable")
    star = text.rfind("*")
    if star < 0 or len(text) - star != 3:
        raise ValueError("no checksum")
    body = text[:star]
    digits = text[star + 1 :]
    for char in digits:
        if char not in HEX_DIGITS:
            raise ValueError("checksum not upper-case hex")
    expected = int(digits, 16)
    if crc8(body.encode()) != expected:
        raise ValueError("bad checksum")
    return body.split(" ")


def number(text, low, high):
    """A field as a whole number from low to high; ValueError otherwise."""
    if not text.isdigit():
        raise ValueError("not a number")
    value = int(text)
    if not low <= value <= high:
        raise ValueError("out of range")
    return value
