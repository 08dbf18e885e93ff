"""Started by MicroPython at power-up: the panel on USB serial (sys.stdin / sys.stdout).

Ctrl-C (byte 0x03) on USB serial is turned off as a keyboard interrupt before the panel starts:
it is then a byte like any other, which the protocol refuses with an ERR, so nothing the Pi
(or noise on the line) sends can stop the firmware (docs/serial-protocol.md). To reach the REPL
instead, to update the firmware with mpremote, hold seat button 1 while plugging the Pico in:
the panel then does not start (see README.md).
"""

import sys
import time

import micropython
from ccpanel import board
from ccpanel.panel import Panel
from ccpanel.usb import serve


def write(text):
    sys.stdout.write(text)


buttons, leds, rgb, buzzer = board.parts()
if buttons[0].value() != 0:  # seat button 1 not held at power-up: run the panel
    micropython.kbd_intr(-1)
    serve(Panel(buttons, leds, rgb, buzzer, write, time.ticks_diff), sys.stdin, time)
