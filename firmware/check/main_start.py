"""main.py's start, under MicroPython and CPython: run with the main loop stubbed out.

A stand-in ``micropython`` module (put in ``sys.modules`` first, so it wins over the built-in)
records ``kbd_intr``, and ``ccpanel.usb.serve`` only says it was called. Printed: what main.py
did, in order; then the same with seat button 1 held at power-up (the way to reach the REPL).
"""

import sys
import time

import ccpanel
import ccpanel.usb
import machine


class StandIn:
    """Records ``kbd_intr`` calls instead of changing the interpreter's Ctrl-C."""

    def kbd_intr(self, char):
        print("kbd_intr", char)


def serve(panel, stdin, clock, running=None):
    print("serve")


if not hasattr(time, "ticks_diff"):  # CPython's time has none; main.py hands it to the panel
    time.ticks_diff = lambda a, b: a - b
sys.modules["micropython"] = StandIn()
ccpanel.usb.serve = serve
root = ccpanel.__file__.rsplit("/", 2)[0]
with open(root + "/main.py") as source:
    code = source.read()

machine.reset()
exec(code, {"__name__": "__main__"})

machine.reset()
machine.HELD.add(2)  # seat button 1 (GP2) pressed while the Pico starts
exec(code, {"__name__": "__main__"})
machine.HELD.clear()
print("held: kbd_intr untouched, no serve")
