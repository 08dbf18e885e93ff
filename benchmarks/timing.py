"""Small timing helpers: run a callable in batches and keep the median per-call time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Timing:
    """Per-call times of ``repeats`` batches of ``number`` calls each."""

    number: int
    per_call: tuple[float, ...]
    """Seconds per call, one figure per batch."""

    @property
    def median(self) -> float:
        return statistics.median(self.per_call)

    @property
    def best(self) -> float:
        return min(self.per_call)

    @property
    def rate(self) -> float:
        """Calls per second at the median."""
        return 1.0 / self.median if self.median > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "repeats": len(self.per_call),
            "median_s": self.median,
            "best_s": self.best,
            "per_second": self.rate,
            "per_call_s": list(self.per_call),
        }


def measure(fn: Callable[[], object], *, number: int, repeats: int, warmup: int = 1) -> Timing:
    """Call ``fn`` ``warmup`` times untimed, then time ``repeats`` batches of ``number`` calls
    with :func:`time.perf_counter`. The garbage collector stays on, as in a real game."""
    for _ in range(warmup):
        fn()
    per_call = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        per_call.append((time.perf_counter() - start) / number)
    return Timing(number, tuple(per_call))
