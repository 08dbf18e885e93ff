"""Started by MicroPython at power-up: the panel on USB serial (sys.stdin / sys.stdout)."""

import sys
import time

from ccpanel import board
from ccpanel.panel import Panel
from ccpanel.usb import serve


def write(text):
    sys.stdout.write(text)


buttons, leds, rgb, buzzer = board.parts()
serve(Panel(buttons, leds, rgb, buzzer, write, time.ticks_diff), sys.stdin, time)
