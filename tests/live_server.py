"""``companion serve`` as a real process, and a small HTTP client that acts like a browser.

Issue 11's trials run the server as the Pi does (its own process, its own timer thread, its
writer lock) and stop it the ways a real evening does: SIGTERM (``systemctl stop``, Ctrl+C)
and SIGKILL (a power cut). The client keeps its cookies and the page's CSRF token, like a
phone.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
CSRF = re.compile(r'name="csrf(?:-token|_token)" (?:content|value)="([^"]+)"')

SERVE = """
import sys
sys.path.insert(0, {tests!r})
for name in {games!r}:
    __import__(name).register()
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


class ServerProcess:
    """``companion serve --db DB`` on a free port of 127.0.0.1, started and stopped on demand.

    ``games`` names test-only game modules in ``tests/`` to register in the server process
    first (``noughts``)."""

    def __init__(self, db: Path, *options: str, games: tuple[str, ...] = ()) -> None:
        self.db = db
        self.options = options
        self.games = games
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.said: list[str] = []
        self.err = ""

    def start(self) -> ServerProcess:
        code = SERVE.format(tests=str(TESTS), games=self.games)
        command = [sys.executable, "-c", code, "serve", "--db", str(self.db)]
        command += ["--host", "127.0.0.1", "--port", "0", *self.options]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        assert self.process.stdout is not None
        self.said = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                _, err = self.process.communicate(timeout=10)
                raise AssertionError(f"companion serve did not start:\n{''.join(self.said)}{err}")
            self.said.append(line)
            if line.startswith("  On this machine:"):
                self.url = line.split()[-1].rstrip("/")
            if line.startswith("Stop with Ctrl+C"):
                return self

    def stop(self, how: signal.Signals = signal.SIGTERM, timeout: float = 20) -> int:
        """Send ``how`` and wait for the process to end; returns its exit status."""
        assert self.process is not None
        self.process.send_signal(how)
        out, self.err = self.process.communicate(timeout=timeout)
        self.said.append(out)
        code = self.process.returncode
        self.process = None
        return code

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.stop(signal.SIGKILL)


class Browser:
    """Cookies and the latest page's CSRF token, as a phone or the host's laptop has them."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def get(self, path: str, *, timeout: float = 10) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path), timeout)

    def post(
        self, path: str, fields: dict[str, Any] | None = None, *, timeout: float = 10
    ) -> tuple[int, str]:
        data = urllib.parse.urlencode({"csrf_token": self.csrf, **(fields or {})}).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST")
        return self._open(request, timeout)

    def _open(self, request: urllib.request.Request, timeout: float) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=timeout) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        found = CSRF.search(text)
        if found:
            self.csrf = found.group(1)
        return status, text

    def host(self, table_id: str, secret: str) -> None:
        """Hold the table's host controls in this browser, through the host login form."""
        status, _ = self.get(f"/t/{table_id}/host/login")
        assert status == 200
        status, text = self.post(f"/t/{table_id}/host/login", {"secret": secret})
        assert status == 200, text
        status, text = self.get(f"/t/{table_id}/host")
        assert status == 200, text
