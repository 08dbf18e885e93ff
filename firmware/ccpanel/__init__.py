"""Cluster Companion's USB panel firmware for a Raspberry Pi Pico (MicroPython).

Only :mod:`ccpanel.board` and ``main.py`` touch the hardware (``machine``, ``sys.stdin``); the
rest is plain logic that also runs under CPython in the project's tests.
"""

FIRMWARE_VERSION = "1.0.1"
