"""The firmware's protocol (firmware/ccpanel/protocol.py) and the Pi's
(hardware/serial_protocol.py) are two implementations of one spec: they must agree."""

from __future__ import annotations

from typing import Any

import machine  # the stand-in (firmware/check/standin/machine.py)
import pytest
from ccpanel import board
from ccpanel import protocol as firmware
from ccpanel.panel import Panel
from firmware_host import ticks_diff
from hypothesis import given
from hypothesis import strategies as st
from protocol_vectors import VECTORS, vector_id
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


# The shared test vectors ----------------------------------------------------------------------


def _panel_answers(text: str) -> list[str]:
    """What a fresh panel (8 buttons, 8 LEDs) writes back for one received line."""
    machine.reset()
    written: list[str] = []
    buttons, leds, rgb, buzzer = board.parts()
    panel = Panel(buttons, leds, rgb, buzzer, written.append, ticks_diff)
    panel.start(0)
    written.clear()
    panel.feed(text + "\n", 1)
    return written


@pytest.mark.parametrize("vector", VECTORS, ids=vector_id)
def test_the_firmware_reads_each_protocol_vector_as_the_table_says(vector: dict[str, Any]) -> None:
    """firmware/check/protocol-vectors.json under CPython: the panel uses exactly the lines
    marked "panel" and answers every other one with exactly one ERR line, which fits the
    protocol's limit (tests/test_firmware_micropython.py runs the same under MicroPython)."""
    answers = _panel_answers(vector["line"])
    errors = [text for text in answers if text.startswith("ERR ")]
    assert len(errors) == (0 if vector["panel"] else 1)
    assert all(len(text) <= firmware.MAX_LINE + 1 for text in answers)
    for text in answers:
        pi.parse(text.encode())  # and the Pi can read every one of them


@given(st.text(st.characters(min_codepoint=0, max_codepoint=0xFF), max_size=400))
def test_any_input_line_gets_at_most_one_error_that_fits_the_limit(text: str) -> None:
    """Every line either side sends fits the protocol's limit: whatever the panel receives
    (any bytes, any length: a 300-character input included), it answers one line at most per
    line received, and the Pi can read it."""
    lines = [part for part in text.split("\n")]
    answers = _panel_answers("\n".join(lines))
    errors = [answer for answer in answers if answer.startswith("ERR ")]
    assert len(errors) <= len(lines)
    for answer in answers:
        assert len(answer) <= firmware.MAX_LINE + 1
        pi.parse(answer.encode())


def test_an_unknown_message_of_93_bytes_gets_an_error_line_the_pi_reads() -> None:
    """The issue's case: a valid 93-byte line of an unknown type used to make a 113-byte ERR
    line, which the Pi dropped as too long."""
    text = firmware.encode(["X" * 90]).rstrip("\n")
    assert len(text) == 93
    (answer,) = _panel_answers(text)
    complaint = pi.parse(answer.encode())
    assert isinstance(complaint, pi.PanelComplaint)
    assert complaint.text.startswith("unknown message XXXX")


def test_a_300_character_input_gives_one_error_not_two() -> None:
    answers = _panel_answers("Y" * 300)
    assert [pi.parse(a.encode()) for a in answers] == [pi.PanelComplaint("line too long")]
