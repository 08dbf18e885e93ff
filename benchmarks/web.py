"""Benchmark of the web site: order submission latency over HTTP with live streams open.

A real waitress server (``companion serve``'s thread count) runs the site over an 8-seat table
in its command phase, in an SQLite file in a temporary folder. Each of the 8 seats holds its
phone's live stream (Server-Sent Events) and 20 more streams watch the table screen, every one
read by its own client thread, so each submission makes the server re-render 28 panels. The 8
seats then send their order sheets in turn (``POST /t/<id>/seat/orders``, JSON, with session
cookie and CSRF token), one request at a time; each is checked by the rules core, committed with
``synchronous=FULL`` and acknowledged. Latency is the client's wall time per request.

``python -m benchmarks.web [--quick] [--json]``; ``python -m benchmarks`` runs it last.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import random
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.local_cluster.atoms import Colour
from companion.local_cluster.policy import greedy_orders
from companion.local_cluster.session import LocalClusterSession, LocalClusterSetup
from companion.local_cluster.settings import HouseRules
from companion.service import Storage, TableService
from web import create_app
from web.cli import DEFAULT_THREADS
from web.serving import BackgroundServer

TARGET_P99_MS = 50.0
SEATS = 8
STREAMS = 20
SUBMISSIONS = 400
QUICK_SUBMISSIONS = 40
SEED = 2026
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')


class Phone:
    """One seat's browser: a keep-alive connection, its session cookie and CSRF token."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.csrf = ""

    def close(self) -> None:
        self.connection.close()

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf, "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data


def _stream(port: int, path: str, cookie: str, opened: Any, stop: Any) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers={"Cookie": cookie, "Accept": "text/event-stream"})
    response = connection.getresponse()
    response.readline()
    opened.release()
    while not stop.is_set():
        if not response.readline():
            break
    connection.close()


def _readers(port: int, streams: list[tuple[str, str]], opened: Any, stop: Any) -> None:
    """The live streams' clients, in a process of their own (as on the players' devices), so
    reading them does not compete with the server for its interpreter lock."""
    threads = [
        threading.Thread(target=_stream, args=(port, path, cookie, opened, stop), daemon=True)
        for path, cookie in streams
    ]
    for thread in threads:
        thread.start()
    stop.wait()


def _start_table(service: TableService) -> tuple[str, dict[int, str]]:
    """An 8-seat table in turn 1's command phase; returns its id and the seats' tokens."""
    rules = HouseRules(command_seconds=3600, discussion_seconds=3600)
    table_id, _ = service.create_table("benchmark", SEATS, seed=SEED, options=rules.to_dict())
    tokens = {seat: service.join(table_id, seat, f"Player {seat}") for seat in range(1, SEATS + 1)}
    setup = service.table(table_id).setup
    assert isinstance(setup, LocalClusterSetup)
    homes = random.Random(SEED).sample(list(setup.galaxy.ids), SEATS)
    while (chooser := service.table(table_id).next_to_choose()) is not None:
        choice = {"colour": list(Colour)[chooser - 1].value, "home": homes[chooser - 1]}
        service.choose(table_id, chooser, choice)
    service.skip(table_id)  # discussion -> command
    return table_id, tokens


def _phones(port: int, table_id: str, tokens: dict[int, str]) -> dict[int, Phone]:
    """Each seat's browser, holding its seat through the seat link and its page's CSRF token."""
    phones = {}
    for seat, token in tokens.items():
        phone = Phone(port)
        phone.request("GET", f"/t/{table_id}/rejoin/{seat}/{token}")
        status, page = phone.request("GET", f"/t/{table_id}/seat")
        found = CSRF.search(page.decode())
        if status != 200 or found is None:
            raise RuntimeError(f"seat {seat} could not open its page ({status})")
        phone.csrf = found.group(1)
        phones[seat] = phone
    return phones


def _sheets(service: TableService, table_id: str) -> dict[int, list[bytes]]:
    """A few greedy order sheets per seat, sent in turn (each replaces the seat's last)."""
    session = service.table(table_id).require_session()
    assert isinstance(session, LocalClusterSession)
    rng = random.Random(SEED)
    return {
        seat: [
            json.dumps({"text": greedy_orders(session.state, list(Colour)[seat - 1], rng)}).encode()
            for _ in range(4)
        ]
        for seat in range(1, SEATS + 1)
    }


def _measure(
    port: int, table_id: str, service: TableService, tokens: dict[int, str], count: int
) -> list[float]:
    phones = _phones(port, table_id, tokens)
    paths = [(f"/t/{table_id}/seat/events", phones[s].cookie) for s in phones]
    paths += [(f"/t/{table_id}/events", "")] * STREAMS
    spawn = multiprocessing.get_context("spawn")
    stop = spawn.Event()
    opened = spawn.Semaphore(0)
    reader = spawn.Process(target=_readers, args=(port, paths, opened, stop))
    reader.start()
    try:
        for _ in paths:
            if not opened.acquire(timeout=60):
                raise RuntimeError("the live streams did not open")
        sheets = _sheets(service, table_id)
        latencies = []
        for number in range(count):
            seat = number % SEATS + 1
            body = sheets[seat][(number // SEATS) % 4]
            started = time.perf_counter()
            status, answer = phones[seat].request("POST", f"/t/{table_id}/seat/orders", body)
            latencies.append(time.perf_counter() - started)
            if status != 200:
                raise RuntimeError(f"a submission was refused ({status}): {answer[:300]!r}")
        return latencies
    finally:
        stop.set()
        reader.join(timeout=10)
        for phone in phones.values():
            phone.close()


def run(*, quick: bool = False, folder: Path | None = None) -> dict[str, Any]:
    machine = machine_info()
    count = QUICK_SUBMISSIONS if quick else SUBMISSIONS
    with (
        tempfile.TemporaryDirectory(dir=folder) as temp,
        TableService(Storage(Path(temp) / "web.db")) as service,
    ):
        table_id, tokens = _start_table(service)
        service.start_timer()
        app = create_app({"SERVICE": service, "SECRET_KEY": "benchmark-" + "k" * 32})
        with BackgroundServer(app, threads=DEFAULT_THREADS) as server:
            latencies = _measure(server.port, table_id, service, tokens, count)
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))] * 1000
    return {
        "suite": "web",
        "quick": quick,
        "machine": machine,
        "submissions": count,
        "seats": SEATS,
        "streams": {"seats": SEATS, "table": STREAMS},
        "threads": DEFAULT_THREADS,
        "latency_p50_ms": p50,
        "latency_p99_ms": p99,
        "latency_max_ms": latencies[-1] * 1000,
        "targets": {
            "p99_ms": {"target": TARGET_P99_MS, "measured": p99, "passed": p99 < TARGET_P99_MS}
        },
    }


def format_report(results: dict[str, Any]) -> str:
    target = results["targets"]["p99_ms"]
    lines = [
        *header("web site", results["machine"], quick=results["quick"]),
        "",
        f"order submissions over HTTP (waitress, {results['threads']} threads): "
        f"{results['submissions']} POSTs by {results['seats']} seats, with "
        f"{results['streams']['seats']} phone and {results['streams']['table']} table live "
        "streams open",
        f"   latency:  p50 {results['latency_p50_ms']:.1f} ms, "
        f"p99 {results['latency_p99_ms']:.1f} ms, max {results['latency_max_ms']:.1f} ms",
        f"   target:   p99 < {target['target']:.0f} ms: {'PASS' if target['passed'] else 'FAIL'}",
    ]
    if results["quick"]:
        lines.append("   (quick run: few submissions; run without --quick)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.web",
        description="Benchmark of the web site.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
