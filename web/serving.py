"""A waitress server in a background thread, stopped cleanly: for tests and benchmarks.

``companion serve`` runs waitress in the main thread and stops on Ctrl+C or SIGTERM; a test
or a benchmark needs it beside its own code, on a free port, and stopped on demand.
"""

from __future__ import annotations

import contextlib
import threading
import time
from types import TracebackType
from typing import Any

import waitress
from flask import Flask

from web import live


class BackgroundServer:
    """``with BackgroundServer(app) as server:`` serves ``app`` at ``server.url``."""

    def __init__(self, app: Flask, *, threads: int = 40, host: str = "127.0.0.1") -> None:
        self.app = app
        self.server: Any = waitress.create_server(app, host=host, port=0, threads=threads)
        self.port: int = self.server.effective_port
        self.url = f"http://{host}:{self.port}"
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="waitress", daemon=True)

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:
            if not self._stopping:
                raise

    def __enter__(self) -> BackgroundServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """End the live streams, close every connection, wait for the thread to finish."""
        if self._stopping:
            return
        live.stop(self.app)
        dispatcher = self.server.task_dispatcher
        deadline = time.monotonic() + 2
        while (dispatcher.active_count or dispatcher.queue) and time.monotonic() < deadline:
            time.sleep(0.01)  # the streams' last chunks are being written
        self._stopping = True
        # As webtest's StopableWSGIServer does: close every channel until the loop's map is
        # empty, so its loop returns; then stop the worker threads.
        socket_map = self.server._map
        while socket_map:
            for channel in list(socket_map.values()):
                with contextlib.suppress(OSError):
                    channel.close()
        self.server.task_dispatcher.shutdown()
        self._thread.join(timeout=5)
