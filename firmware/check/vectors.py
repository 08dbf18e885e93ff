"""The protocol's test vectors (check/protocol-vectors.json) through the firmware.

tests/test_firmware_micropython.py runs this file under real MicroPython and under CPython;
both must print the same, and what the table says. Each vector's line, with its newline, is
fed to a panel on stand-in pins as if it came over USB serial. Printed per vector: its number,
"used" or "refused", how many ERR lines the panel wrote, and the length of the longest line
it wrote (without the newline).
"""

import json

import ccpanel
import machine
from ccpanel import board
from ccpanel.panel import Panel


def ticks_diff(a, b):
    return a - b


root = ccpanel.__file__.rsplit("/", 2)[0]
with open(root + "/check/protocol-vectors.json") as source:
    vectors = json.load(source)["vectors"]

machine.reset()
written = []
buttons, leds, rgb, buzzer = board.parts()
panel = Panel(buttons, leds, rgb, buzzer, written.append, ticks_diff)
panel.start(0)
for number, vector in enumerate(vectors):
    del written[:]
    panel.feed(vector["line"] + "\n", 1)
    errors = len([text for text in written if text.startswith("ERR ")])
    longest = max([len(text.rstrip("\n")) for text in written] + [0])
    print(number, "refused" if errors else "used", errors, longest)
