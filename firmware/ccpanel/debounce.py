"""Debouncing a push button: a change counts once the contact has been still long enough."""


class Debouncer:
    """Feed it the raw state (True: pressed) at each scan; it reports each settled press once."""

    def __init__(self, settle_ms, ticks_diff):
        self.settle_ms = settle_ms
        self.ticks_diff = ticks_diff
        self.stable = False
        self.raw = False
        self.since = None

    def update(self, raw, now):
        """True exactly once per press: when the pressed state has held for settle_ms."""
        if raw != self.raw or self.since is None:
            self.raw = raw
            self.since = now
            return False
        if raw != self.stable and self.ticks_diff(now, self.since) >= self.settle_ms:
            self.stable = raw
            return raw
        return False
