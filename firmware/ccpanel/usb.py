"""The main loop: read characters from USB serial as they come, scan, sleep a millisecond."""

import select


def serve(panel, stdin, clock, running=None):
    """Run the panel on a serial stream until ``running()`` is false (forever on the Pico).

    ``clock`` has ``ticks_ms()`` and ``sleep_ms(ms)`` (MicroPython's ``time`` module).
    """
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    panel.start(clock.ticks_ms())
    while running is None or running():
        now = clock.ticks_ms()
        while poller.poll(0):
            char = stdin.read(1)
            if not char:
                break
            if isinstance(char, bytes):
                char = char.decode("latin-1")
            panel.feed(char, now)
        panel.step(now)
        clock.sleep_ms(1)
