"""The site's real server (uvicorn, web/asgi.py) in a background thread, stopped cleanly: for
tests and benchmarks.

``companion serve`` runs the server in the main thread and stops on Ctrl+C or SIGTERM; a test
or a benchmark needs it beside its own code, on a free port, and stopped on demand.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

from flask import Flask

from web import asgi, live

DEFAULT_WORKERS = 16


class BackgroundServer:
    """``with BackgroundServer(app) as server:`` serves ``app`` at ``server.url``."""

    def __init__(
        self, app: Flask, *, threads: int = DEFAULT_WORKERS, host: str = "127.0.0.1"
    ) -> None:
        self.app = app
        self.site = asgi.Site(app, workers=threads)
        self.server, self.socket = asgi.make_server(self.site, host=host, port=0)
        self.port: int = self.socket.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self._run, name="uvicorn", daemon=True)

    def _run(self) -> None:
        self.server.run(sockets=[self.socket])

    def __enter__(self) -> BackgroundServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and self._thread.is_alive():
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 10 s")
            time.sleep(0.01)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """End the live streams, stop the server, wait for its thread to finish."""
        self.server.stop()
        self._thread.join(timeout=10)
        live.stop(self.app)
        self.site.close()
        self.socket.close()
