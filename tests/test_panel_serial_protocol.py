"""The serial line protocol, version 1 (hardware.serial_protocol; docs/serial-protocol.md)."""

from __future__ import annotations

from typing import Any

import pytest
from protocol_vectors import VECTORS, vector_id

from hardware.errors import ProtocolError
from hardware.serial_protocol import (
    MAX_LINE,
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
    crc8,
    frame,
    line,
    parse,
    seq_after,
)

EXAMPLES: list[Message] = [
    Hello(1, "1.0.0", 8, 8),
    ButtonPress(1, 3),
    ButtonPress(65535, 8),
    Heartbeat(),
    Heartbeat(42),
    PanelComplaint("bad checksum"),
    Who(),
    Led(1, LedMode.BLINK),
    Led(8, LedMode.OFF),
    Rgb(0, 255, 0),
    Rgb(255, 153, 0, blink=True),
    Beep(300, 150, 2),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: line(m).decode().strip())
def test_every_message_reads_back_as_itself(message: Message) -> None:
    assert parse(line(message)) == message


def test_a_line_is_the_body_a_star_its_crc8_and_a_newline() -> None:
    assert line(ButtonPress(1, 1)) == b"BTN 1 1*57\n"
    assert line(Hello(1, "1.0.0", 8, 8)) == b"HELLO 1 1.0.0 8 8*74\n"


def test_the_checksum_is_crc8_smbus() -> None:
    assert crc8(b"123456789") == 0xF4  # the standard check value
    assert crc8(b"") == 0


def test_a_carriage_return_before_the_newline_is_accepted() -> None:
    assert parse(b"BTN 1 1*57\r\n") == ButtonPress(1, 1)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"BTN 1 1*58\n", "checksum mismatch"),
        (b"BTN 1 2*57\n", "checksum mismatch"),
        (b"BTN 1 1\n", "no checksum"),
        (b"BTN 1 1*5\n", "no checksum"),
        (b"BTN 1 1*ZZ\n", "not two upper-case hex digits"),
        (b"BTN 1 1*57\r\r\n", "not printable ASCII"),
        (b"\xff\xfeBTN*00\n", "not printable ASCII"),
        (b"BTN\t1*00\n", "not printable ASCII"),
        (b"X" * 97 + b"\n", "longer than 96"),
        (frame("BTN 1"), "malformed BTN"),
        (frame("BTN 1 0"), "malformed BTN"),
        (frame("BTN -1 1"), "malformed BTN"),
        (frame("BTN 65536 1"), "malformed BTN"),
        (frame("HELLO 1 1.0.0 8"), "malformed HELLO"),
        (frame("LED 1 DIM"), "malformed LED"),
        (frame("RGB 0 256 0 ON"), "malformed RGB"),
        (frame("BEEP 100 100 0"), "malformed BEEP"),
        (frame("WHO 1"), "malformed WHO"),
        (frame("LAUNCH 1"), "unknown message type 'LAUNCH'"),
        (frame(""), "unknown message type ''"),
    ],
)
def test_an_unusable_line_is_refused_saying_why(raw: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        parse(raw)


def test_protocol_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse(b"nonsense\n")


@pytest.mark.parametrize(
    ("last", "seq", "ahead"),
    [(None, 7, 1), (1, 2, 1), (1, 5, 4), (5, 5, 0), (5, 3, -2), (65535, 0, 1), (65534, 1, 3)],
)
def test_sequence_numbers_count_round_the_wrap(last: int | None, seq: int, ahead: int) -> None:
    assert seq_after(last, seq) == ahead


# The shared test vectors (also run against the firmware) ----------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=vector_id)
def test_the_pi_reads_each_protocol_vector_as_the_table_says(vector: dict[str, Any]) -> None:
    """firmware/check/protocol-vectors.json: the Pi uses exactly the lines marked "pi"."""
    raw = vector["line"].encode("latin-1")
    if vector["pi"]:
        message = parse(raw + b"\n")
        assert parse(line(message)) == message
    else:
        with pytest.raises(ProtocolError):
            parse(raw + b"\n")


def test_the_table_has_the_checksums_the_firmware_refused_and_the_pi_took() -> None:
    """The issue's three: a space, a sign or a trailing space in the checksum."""
    refused = {v["line"] for v in VECTORS if not v["pi"] and not v["panel"]}
    assert {"HB 44* 4", "HB 44*+4", "HB 44*4 "} <= refused


def test_every_line_the_pi_sends_fits_the_limit() -> None:
    """Every line either side sends fits the protocol's limit (the Pi's side here)."""
    from hardware.serial_panel import BEEPS

    sent = [Who(), Heartbeat(), Led(64, LedMode.BLINK), Rgb(255, 255, 255, True), *BEEPS.values()]
    for message in sent:
        assert len(line(message)) <= MAX_LINE + 1
