"""The firmware's protocol (firmware/ccpanel/protocol.py) and the Pi's
(hardware/serial_protocol.py) are two implementations of one spec: they must agree."""

from __future__ import annotations

import pytest
from ccpanel import protocol as firmware
from hypothesis import given
from hypothesis import strategies as st
from test_panel_serial_protocol import EXAMPLES

from hardware import serial_protocol as pi
from hardware.errors import ProtocolError

PRINTABLE = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=90)


def test_both_sides_speak_the_same_version() -> None:
    assert firmware.PROTOCOL_VERSION == pi.PROTOCOL_VERSION
    assert firmware.MAX_LINE == pi.MAX_LINE
    assert firmware.SEQ_MODULO == pi.SEQ_MODULO


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: pi.line(m).decode().strip())
def test_the_firmware_frames_every_message_as_the_pi_does(message: pi.Message) -> None:
    fields = [message.kind, *message.fields()]
    assert firmware.encode(fields).encode() == pi.line(message)
    assert firmware.decode(pi.line(message).decode()) == fields
    assert pi.parse(firmware.encode(fields).encode()) == message


@given(st.binary(max_size=200))
def test_both_compute_the_same_crc8(data: bytes) -> None:
    assert firmware.crc8(data) == pi.crc8(data)


@given(PRINTABLE)
def test_both_frame_any_body_alike(body: str) -> None:
    assert firmware.encode(body.split(" ")).encode() == pi.frame(body)


@given(PRINTABLE)
def test_both_refuse_the_same_damaged_lines(text: str) -> None:
    """A line either side's framing check refuses, the other refuses too."""
    try:
        firmware.decode(text)
        firmware_ok = True
    except ValueError:
        firmware_ok = False
    try:
        pi.parse(text.encode())
        pi_framing_ok = True
    except ProtocolError as err:
        pi_framing_ok = "malformed" in str(err) or "unknown message" in str(err)
    assert firmware_ok == pi_framing_ok


def test_a_corrupted_byte_is_caught_by_both() -> None:
    good = pi.line(pi.ButtonPress(12, 3)).decode()
    damaged = good.replace("12", "13")
    with pytest.raises(ValueError, match="bad checksum"):
        firmware.decode(damaged)
    with pytest.raises(ProtocolError, match="checksum mismatch"):
        pi.parse(damaged.encode())
