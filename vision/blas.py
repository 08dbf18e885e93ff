"""One BLAS thread while a picture is read.

numpy hands a large enough matrix product to OpenBLAS, which then runs it on a thread per
core and leaves those threads spinning for a while afterwards, waiting for the next product.
The Local Cluster scan makes such products (a token body's means over every candidate, the
surrounds' hue: :mod:`vision.local_cluster.slots`), and the threads left spinning took the
cores from the next frame's marker detection: on this two-core machine a 1080p frame took
49 ms of CPU time instead of 24.5 ms (measured 2026-11-24, docs/benchmarks.md). On a Pi the
same threads would take cores from the web server and the panels. So a picture is read with
numpy's BLAS held to one thread (threadpoolctl; OpenCV's own threads are set apart).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from threadpoolctl import ThreadpoolController

P = ParamSpec("P")
R = TypeVar("R")


@functools.cache
def _controller() -> ThreadpoolController:
    # Made once: finding the loaded BLAS libraries walks the process's shared objects.
    return ThreadpoolController()


def one_blas_thread(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` run with numpy's BLAS on the calling thread only (about 10 microseconds a
    call for the switch there and back)."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _controller().limit(limits=1, user_api="blas"):
            return func(*args, **kwargs)

    return wrapper
