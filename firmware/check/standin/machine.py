"""A stand-in for MicroPython's ``machine`` module, for running the firmware off the Pico.

Only what ``ccpanel.board`` uses: ``Pin`` (inputs with pull-ups, outputs) and ``PWM``. Every
pin made is kept in ``PINS`` by number so a test can press a button (``PINS[2].drive(0)``) or
read an LED; outputs record their values in ``history``. Written for CPython and MicroPython.
"""

PINS = {}
PWMS = {}
HELD = set()
"""Pin numbers whose button is held down from the start: an input made on one reads 0."""


def reset():
    PINS.clear()
    PWMS.clear()
    HELD.clear()


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, number, mode=-1, pull=-1, value=None):
        self.number = number
        self.mode = mode
        self.level = 1 if pull == Pin.PULL_UP else 0
        if number in HELD:
            self.level = 0
        if value is not None:
            self.level = value
        self.script = None
        self.history = [self.level]
        PINS[number] = self

    def value(self, level=None):
        if level is None:
            if self.script is not None:
                return self.script()
            return self.level
        level = 1 if level else 0
        if level != self.level:
            self.history.append(level)
        self.level = level
        return None

    def drive(self, level):
        """From outside: what the wiring puts on an input (0: a button pressed to ground)."""
        self.level = level


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self.frequency = 0
        self.duty = 0
        PWMS[pin.number] = self

    def freq(self, value):
        self.frequency = value

    def duty_u16(self, value):
        self.duty = value
