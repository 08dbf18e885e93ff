"""One scripted panel session, printed line by line: run under CPython and under MicroPython.

tests/test_firmware_micropython.py runs this file in both interpreters and checks that they
print the same thing: the protocol's framing and checksums, debouncing, LED, RGB and buzzer
output, complaints about bad lines and the heartbeat all behave alike on real MicroPython.
"""

import ccpanel
import ccpanel.usb
import machine
from ccpanel import board
from ccpanel.debounce import Debouncer
from ccpanel.panel import Panel
from ccpanel.protocol import crc8, decode, encode


def ticks_diff(a, b):
    return a - b


def show(*parts):
    print(" ".join([str(part) for part in parts]))


# The protocol --------------------------------------------------------------------------------

for fields in (["HELLO", 1, "1.0.0", 8, 8], ["BTN", 65535, 8], ["HB", 0], ["WHO"]):
    show("encode", repr(encode(fields)))
show("crc8", crc8(b""), crc8(b"123456789"), crc8(bytes(range(256))))
bad = ("LED 1 BLINK*B3", "BTN 1 1*00", "BTN 1 1", "RGB 0 255 0 ON*ZZ", "x" * 120, "\u00e9*00")
for number, text in enumerate(bad):
    try:
        show("decode", number, decode(text))
    except ValueError as err:
        show("decode", number, "refused:", err)
good = encode(["LED", 1, "BLINK"])
show("decode", repr(good), decode(good))

# Debouncing ----------------------------------------------------------------------------------

bouncer = Debouncer(20, ticks_diff)
presses = []
for now, raw in ((0, True), (3, False), (5, True), (8, False), (9, True), (30, True), (31, True)):
    if bouncer.update(raw, now):
        presses.append(now)
for now, raw in ((40, False), (70, False), (71, True), (80, False), (100, False)):
    if bouncer.update(raw, now):
        presses.append(now)
show("debounced presses at", presses)

# A whole panel on the stand-in machine -------------------------------------------------------

machine.reset()
written = []
buttons, leds, rgb, buzzer = board.parts()
panel = Panel(buttons, leds, rgb, buzzer, written.append, ticks_diff)
panel.start(0)
panel.feed(encode(["LED", 2, "BLINK"]) + encode(["RGB", 0, 255, 0, "ON"]), 1)
panel.feed(encode(["BEEP", 100, 50, 2]) + "garbage\n" + encode(["LED", 9, "ON"]), 2)
panel.feed(encode(["WHO"]), 3)
for now in range(0, 1400, 10):
    buttons[0].drive(0 if 100 <= now < 200 else 1)
    buttons[3].drive(0 if now in (300, 320) else 1)
    panel.step(now)
for line in written:
    show("sent", repr(line))
show("led 2", leds[1].history)
show("buzzer", buzzer.history)
show("rgb", [machine.PWMS[n].duty for n in board.RGB_PINS])
panel.step(7000)
show("after host silence", [led.value() for led in leds], machine.PWMS[board.RGB_PINS[1]].duty)

# main.py is valid for this interpreter (it runs forever, so it is compiled, not run) ---------

root = ccpanel.__file__.rsplit("/", 2)[0]
with open(root + "/main.py") as source:
    compile(source.read(), "main.py", "exec")
show("main.py compiles")
