"""A real ``companion serve`` with a crowd around it: seats' phones and live screens over HTTP.

Shared by the web benchmark (:mod:`benchmarks.web`) and the crowd test
(``tests/test_live_crowd.py``): an 8-seat table in its command phase in a fresh database, the
server as its own process (as on the Pi), phones that hold their seat's cookie and CSRF token,
and live streams opened from chosen loopback addresses (127.0.0.x) by a process of their own,
so that the server tells the clients apart as it would the devices at a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import http.client
import json
import multiprocessing
import random
import re
import signal
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.local_cluster.atoms import Colour
from companion.local_cluster.policy import greedy_orders
from companion.local_cluster.session import LocalClusterSession, LocalClusterSetup
from companion.local_cluster.settings import HouseRules
from companion.service import Storage, TableService

SEATS = 8
SEED = 2026
EVENT_LINE = b"\nevent:"
"""How a live stream's message starts (after the status line and headers, or the message
before it)."""
CSRF = re.compile(r'name="csrf(?:-token|_token)" (?:content|value)="([^"]+)"')


@dataclasses.dataclass(frozen=True)
class Table:
    """The prepared table: its id, host secret, each seat's token and order sheets."""

    id: str
    secret: str
    tokens: dict[int, str]
    sheets: dict[int, list[bytes]]


def prepare_table(db: Path) -> Table:
    """An 8-seat Local Cluster table in turn 1's command phase (an hour on its clock), paused by
    its host so that the server starts with it as the host left it."""
    rules = HouseRules(command_seconds=3600, discussion_seconds=3600)
    with TableService(Storage(db)) as service:
        table_id, secret = service.create_table("crowd", SEATS, seed=SEED, options=rules.to_dict())
        tokens = {s: service.join(table_id, s, f"Player {s}") for s in range(1, SEATS + 1)}
        setup = service.table(table_id).setup
        assert isinstance(setup, LocalClusterSetup)
        homes = random.Random(SEED).sample(list(setup.galaxy.ids), SEATS)
        while (chooser := service.table(table_id).next_to_choose()) is not None:
            choice = {"colour": list(Colour)[chooser - 1].value, "home": homes[chooser - 1]}
            service.choose(table_id, chooser, choice)
        service.skip(table_id)  # discussion -> command
        service.pause(table_id)
        session = service.table(table_id).require_session()
        assert isinstance(session, LocalClusterSession)
        rng = random.Random(SEED)
        sheets = {
            seat: [
                json.dumps(
                    {"text": greedy_orders(session.state, list(Colour)[seat - 1], rng)}
                ).encode()
                for _ in range(4)
            ]
            for seat in range(1, SEATS + 1)
        }
    return Table(table_id, secret, tokens, sheets)


class ServeProcess:
    """``companion serve --db DB`` on a free port of 127.0.0.1, in a process of its own."""

    def __init__(self, db: Path, *options: str) -> None:
        command = [sys.executable, "-m", "companion", "serve", "--db", str(db)]
        command += ["--host", "127.0.0.1", "--port", "0", *options]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        said: list[str] = []
        self.port = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                _, err = self.process.communicate(timeout=10)
                raise RuntimeError(f"companion serve did not start: {''.join(said)}{err}")
            said.append(line)
            if line.startswith("  On this machine:"):
                self.port = urllib.parse.urlsplit(line.split()[-1]).port or 0
            if line.startswith("Stop with Ctrl+C"):
                break

    def stop(self) -> tuple[int, str]:
        """SIGTERM, then its exit status and what it said on standard error."""
        self.process.send_signal(signal.SIGTERM)
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return self.process.returncode, err

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.stop()


class Phone:
    """One seat's browser: a keep-alive connection from its own address, its session cookie
    and its page's CSRF token."""

    def __init__(self, port: int, source: str = "127.0.0.1", timeout: float = 10) -> None:
        self.port = port
        self.source = source
        self.timeout = timeout
        self.connection = self._connect()
        self.cookie = ""
        self.csrf = ""

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=self.timeout, source_address=(self.source, 0)
        )

    def close(self) -> None:
        self.connection.close()

    def request(
        self, method: str, path: str, body: bytes | None = None, *, form: bool = False
    ) -> tuple[int, bytes]:
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf, "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = (
                "application/x-www-form-urlencoded" if form else "application/json"
            )
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = self._connect()
            raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        found = CSRF.search(data.decode(errors="replace"))
        if found:
            self.csrf = found.group(1)
        return response.status, data


def seat_phones(port: int, table: Table) -> dict[int, Phone]:
    """Each seat's phone (from 127.0.0.1{seat}), holding its seat through its seat link."""
    phones = {}
    for seat, token in table.tokens.items():
        phone = Phone(port, f"127.0.0.1{seat}")
        phone.request("GET", f"/t/{table.id}/rejoin/{seat}/{token}")
        status, _ = phone.request("GET", f"/t/{table.id}/seat")
        if status != 200 or not phone.csrf:
            raise RuntimeError(f"seat {seat} could not open its page ({status})")
        phones[seat] = phone
    return phones


def host_phone(port: int, table: Table) -> Phone:
    """The host's browser (from 127.0.0.9), logged in with the table's secret, on the host
    page (its CSRF token at hand)."""
    host = Phone(port, "127.0.0.9")
    host.request("GET", f"/t/{table.id}/host/login")
    body = urllib.parse.urlencode({"secret": table.secret, "csrf_token": host.csrf}).encode()
    status, answer = host.request("POST", f"/t/{table.id}/host/login", body, form=True)
    if status != 200:
        raise RuntimeError(f"the host could not log in ({status}): {answer[:200]!r}")
    host.request("GET", f"/t/{table.id}/host")
    return host


def host_control(host: Phone, table: Table, action: str) -> int:
    """The host presses a control (``pause``, ``resume``...): the answer's status."""
    body = urllib.parse.urlencode({"csrf_token": host.csrf}).encode()
    status, _ = host.request("POST", f"/t/{table.id}/host/{action}", body, form=True)
    return status


def host_resumes(port: int, table: Table) -> None:
    """The host logs in with the table's secret and resumes the game."""
    host = host_phone(port, table)
    status = host_control(host, table, "resume")
    if status not in (200, 302):
        raise RuntimeError(f"the host could not resume the game ({status})")
    host.close()


# Live streams in a process of their own ---------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StreamSpec:
    """One live stream to open: from which address, which path, with which cookie; whether to
    open it again (every ``retry`` seconds) when it is refused, as a hostile client would."""

    source: str
    path: str
    cookie: str = ""
    retry: float | None = None


async def _one_stream(
    port: int, spec: StreamSpec, stop: asyncio.Event, tally: dict[str, Any]
) -> None:
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(spec.source, 0)
            )
        except OSError:
            tally["connect_errors"] += 1
            return
        request = (
            f"GET {spec.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            + (f"Cookie: {spec.cookie}\r\n" if spec.cookie else "")
            + "\r\n"
        )
        writer.write(request.encode())
        started = time.monotonic()
        try:
            status_line = await asyncio.wait_for(reader.readline(), 30)
            status = int(status_line.split()[1]) if status_line else 0
            tally["answer_s"] = max(tally["answer_s"], time.monotonic() - started)
            tally["status"][status] = tally["status"].get(status, 0) + 1
            if status == 200:
                # "open" is the most streams open at once: when the streams are being closed,
                # a slot one of them frees may go to a retry already on its way, which must not
                # count as one more open beside the others.
                tally["now"] += 1
                tally["open"] = max(tally["open"], tally["now"])
                try:
                    await _read_messages(reader, stop, tally)
                finally:
                    tally["now"] -= 1
                return
        except (OSError, TimeoutError, ValueError, IndexError):
            tally["status"][-1] = tally["status"].get(-1, 0) + 1
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        if spec.retry is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), spec.retry)


async def _read_messages(reader: asyncio.StreamReader, stop: asyncio.Event, tally: Any) -> None:
    """Read an open stream to its end (or until told to stop), counting its messages.

    It reads whatever has arrived, not line by line: a panel is a message of hundreds of
    ``data:`` lines, and a line-by-line reader (a task and a timer per line) made this process
    spend more of the machine's two cores than the server it measures."""
    tail = b""
    while not stop.is_set():
        try:
            chunk = await asyncio.wait_for(reader.read(65536), 0.5)
        except TimeoutError:
            continue
        if not chunk:
            return
        # Each message starts with an "event:" line; the tail of the chunk before catches one
        # split between two reads (it is shorter than the marker, so none is counted twice).
        seen = tail + chunk
        tally["messages"] += seen.count(EVENT_LINE)
        tail = seen[-(len(EVENT_LINE) - 1) :]


def _run_streams(port: int, specs: list[StreamSpec], ready: Any, done: Any, out: Any) -> None:
    async def main() -> dict[str, Any]:
        tally: dict[str, Any] = {
            "open": 0,
            "now": 0,
            "messages": 0,
            "status": {},
            "connect_errors": 0,
            "answer_s": 0.0,
        }
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(_one_stream(port, spec, stop, tally)) for spec in specs]
        deadline = time.monotonic() + 60
        while sum(tally["status"].values()) < len(specs) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        ready.set()
        while not done.is_set():
            await asyncio.sleep(0.1)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        return tally

    out.put(asyncio.run(main()))


class Streams:
    """Live streams held open by a child process while the benchmark measures."""

    def __init__(self, port: int, specs: Sequence[StreamSpec]) -> None:
        context = multiprocessing.get_context("spawn")
        self.ready = context.Event()
        self.done = context.Event()
        self.out = context.Queue()
        self.process = context.Process(
            target=_run_streams, args=(port, list(specs), self.ready, self.done, self.out)
        )
        self.count = len(specs)

    def __enter__(self) -> Streams:
        self.process.start()
        deadline = time.monotonic() + 90
        while not self.ready.wait(0.2):
            if not self.process.is_alive() or time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError("the live streams were not all answered within 90 s")
        return self

    def close(self) -> dict[str, Any]:
        """Close them all; what happened: the most open at once, how each was answered, messages."""
        self.done.set()
        tally: dict[str, Any] = self.out.get(timeout=60)
        self.process.join(timeout=10)
        return tally

    def __exit__(self, *exc: object) -> None:
        if self.process.is_alive():
            self.done.set()
            self.process.join(timeout=10)
            if self.process.is_alive():
                self.process.kill()


def table_screens(table_id: str, count: int, first: int = 21) -> list[StreamSpec]:
    """``count`` table screens, each from its own address (127.0.0.21 on)."""
    return [StreamSpec(f"127.0.0.{first + n}", f"/t/{table_id}/events") for n in range(count)]


def hostile(table_id: str, count: int, retry: float | None = 1.0) -> list[StreamSpec]:
    """``count`` table streams from one address (127.0.0.66), each opened again ``retry``
    seconds after it is refused (None: never)."""
    return [StreamSpec("127.0.0.66", f"/t/{table_id}/events", retry=retry)] * count


def phone_streams(table: Table, phones: dict[int, Phone]) -> list[StreamSpec]:
    return [
        StreamSpec(phone.source, f"/t/{table.id}/seat/events", phone.cookie)
        for phone in phones.values()
    ]
