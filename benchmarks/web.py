"""Benchmark of the web site as players see it: the real ``companion serve`` over HTTP.

The server runs as its own process (as on the Pi) over an 8-seat table in its command phase,
in an SQLite file in a temporary folder. Each seat's phone (its own loopback address, a
keep-alive connection, its session cookie and CSRF token) holds its live stream. Then, round
after round, **the 8 seats send their order sheets at the same moment** (``POST
/t/<id>/seat/orders``, JSON), as a table does when the clock runs down; each is checked by the
rules core, committed with ``synchronous=FULL``, acknowledged, and re-rendered on the live
streams. Latency is each phone's wall time per request; a request with no answer within 10 s
counts as unanswered.

Two series (issue 11): **seats**, the 8 phones and their streams; **crowd**, the same with 200
more live streams open: 20 table screens (each from its own address) and 180 from one hostile
address, which opens again every stream the server refuses, each second. The live streams are
held by a process of their own.

``python -m benchmarks.web [--quick] [--json]``; ``python -m benchmarks`` runs it last.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks import crowd
from benchmarks.machine import header, machine_info
from benchmarks.runner import command

TARGET_P99_MS = 50.0
SEATS = crowd.SEATS
TABLE_SCREENS = 20
HOSTILE_STREAMS = 180
ROUNDS = 50
QUICK_ROUNDS = 3
PAUSE = 0.2
"""Seconds between two rounds (the phones' panels are re-rendered meanwhile)."""
TIMEOUT = 10.0


def _rounds(table: crowd.Table, phones: dict[int, crowd.Phone], rounds: int) -> dict[str, Any]:
    """``rounds`` times, every seat sends its orders at once; each request's latency."""
    latencies: list[float] = []
    unanswered: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(len(phones) + 1)
    finish = threading.Barrier(len(phones) + 1)

    def seat(number: int) -> None:
        phone = phones[number]
        for n in range(rounds):
            body = table.sheets[number][n % len(table.sheets[number])]
            start.wait()
            began = time.perf_counter()
            try:
                status, answer = phone.request("POST", f"/t/{table.id}/seat/orders", body)
                failed = None if status == 200 else f"{status}: {answer[:120]!r}"
            except OSError as err:
                failed = f"no answer: {err}"
            took = time.perf_counter() - began
            with lock:
                if failed is None:
                    latencies.append(took)
                else:
                    unanswered.append(failed)
            finish.wait()

    threads = [threading.Thread(target=seat, args=(n,), daemon=True) for n in phones]
    for thread in threads:
        thread.start()
    for _ in range(rounds):
        start.wait()
        finish.wait()
        time.sleep(PAUSE)
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    latencies.sort()
    return {
        "submissions": rounds * len(phones),
        "answered": len(latencies),
        "unanswered": len(unanswered),
        "unanswered_examples": unanswered[:3],
        "latency_p50_ms": statistics.median(latencies) * 1000 if latencies else None,
        "latency_p99_ms": _percentile(latencies, 0.99) * 1000 if latencies else None,
        "latency_max_ms": latencies[-1] * 1000 if latencies else None,
    }


def _percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _series(
    port: int, table: crowd.Table, phones: dict[int, crowd.Phone], crowded: bool, rounds: int
) -> dict[str, Any]:
    specs = crowd.phone_streams(table, phones)
    if crowded:
        specs += crowd.table_screens(table.id, TABLE_SCREENS)
        specs += crowd.hostile(table.id, HOSTILE_STREAMS)
    with crowd.Streams(port, specs) as streams:
        measured = _rounds(table, phones, rounds)
        tally = streams.close()
    p99 = measured["latency_p99_ms"]
    passed = p99 is not None and p99 < TARGET_P99_MS and measured["unanswered"] == 0
    return {
        **measured,
        "streams_asked": len(specs),
        "streams_open": tally["open"],
        "streams_refused": {str(k): v for k, v in tally["status"].items() if k != 200},
        "stream_messages": tally["messages"],
        "passed": passed,
    }


def run(*, quick: bool = False, folder: Path | None = None) -> dict[str, Any]:
    machine = machine_info()
    rounds = QUICK_ROUNDS if quick else ROUNDS
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(dir=folder) as temp:
        db = Path(temp) / "web.db"
        table = crowd.prepare_table(db)
        with crowd.ServeProcess(db) as server:
            crowd.host_resumes(server.port, table)
            phones = crowd.seat_phones(server.port, table)
            try:
                seats = _series(server.port, table, phones, False, rounds)
                crowded = _series(server.port, table, phones, True, rounds)
            finally:
                for phone in phones.values():
                    phone.close()
            code, err = server.stop()
        if code != 0:
            raise RuntimeError(f"companion serve ended with {code}: {err[-500:]}")
    load_after = os.getloadavg()
    return {
        "suite": "web",
        "quick": quick,
        "machine": machine,
        "load": {"before": list(load_before), "after": list(load_after)},
        "seats": SEATS,
        "rounds": rounds,
        "series": {"seats": seats, "crowd": crowded},
        "targets": {
            "p99_ms": {
                "target": TARGET_P99_MS,
                "measured": {
                    name: s["latency_p99_ms"] for name, s in (("seats", seats), ("crowd", crowded))
                },
                "passed": seats["passed"] and crowded["passed"],
            }
        },
    }


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def format_report(results: dict[str, Any]) -> str:
    target = results["targets"]["p99_ms"]
    load = results["load"]
    lines = [
        *header("web site", results["machine"], quick=results["quick"]),
        f"load:     {load['before'][0]:.2f} before, {load['after'][0]:.2f} after "
        "(1-minute load average; the machine may be shared)",
        "",
        f"order submissions to a real 'companion serve' over HTTP: {results['rounds']} rounds "
        f"of {results['seats']} seats sending at once",
    ]
    for name, words in (("seats", "the 8 phones' live streams open"), ("crowd", "")):
        series = results["series"][name]
        if name == "crowd":
            refused = ", ".join(f"{n} x {code}" for code, n in series["streams_refused"].items())
            words = (
                f"{series['streams_asked']} live streams asked for ({TABLE_SCREENS} table "
                f"screens, {HOSTILE_STREAMS} from one hostile address, the phones'): "
                f"{series['streams_open']} open, refused {refused or 'none'}"
            )
        lines += [
            f"  series {name}: {words}",
            f"     latency:  p50 {_ms(series['latency_p50_ms'])}, "
            f"p99 {_ms(series['latency_p99_ms'])}, max {_ms(series['latency_max_ms'])}; "
            f"{series['answered']} of {series['submissions']} answered, "
            f"{series['unanswered']} unanswered",
        ]
    lines.append(
        f"  target:   p99 < {target['target']:.0f} ms and 0 unanswered in both: "
        f"{'PASS' if target['passed'] else 'FAIL'}"
    )
    if results["quick"]:
        lines.append("  (quick run: few rounds; run without --quick)")
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
