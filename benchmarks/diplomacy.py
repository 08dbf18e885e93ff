"""Benchmarks of the Diplomacy engine under Cosmic Cluster (``companion.cosmic.diplomacy``).

* :func:`bench_movement`: the standard map's 22 starting units, 200 random legal order sets
  (seeded: about half the units move, a third support another unit's actual order, the rest
  hold); each set adjudicated once per run with :func:`adjudicate_movement` (orders matched
  to units, checked, resolved, every result explained). Seven runs; the median over all calls
  counts. Target: at most 0.2 ms per phase (10x faster than the 2 ms measured for a widely used
  Python adjudicator on this kind of machine).
* :func:`bench_datc`: the whole DATC file (171 cases) run through :func:`run_case`, five
  times; the median run counts. Target: under 2 s.

``python -m benchmarks.diplomacy [--quick] [--json]``; ``python -m benchmarks`` runs it too.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.cosmic.diplomacy.datc import run_case
from companion.cosmic.diplomacy.geography import standard_map
from companion.cosmic.diplomacy.movement import adjudicate_movement
from companion.cosmic.diplomacy.options import random_orders, starting_units

TARGET_PHASE_SECONDS = 0.0002
TARGET_DATC_SECONDS = 2.0
SEED = 2026
ORDER_SETS = 200
RUNS = 7
DATC_RUNS = 5
DATC = Path(__file__).resolve().parents[1] / "tests" / "data" / "datc" / "datc.json"


def bench_movement(*, quick: bool = False) -> dict[str, Any]:
    """Per-phase times of random legal movement phases on the standard opening position."""
    game_map = standard_map()
    units = starting_units(game_map)
    rng = random.Random(SEED)
    sets = [random_orders(game_map, units, rng) for _ in range(20 if quick else ORDER_SETS)]
    times: list[float] = []
    runs = 1 if quick else RUNS
    for orders in sets:  # warm-up
        adjudicate_movement(game_map, units, orders)
    for _ in range(runs):
        for orders in sets:
            start = time.perf_counter()
            adjudicate_movement(game_map, units, orders)
            times.append(time.perf_counter() - start)
    return {
        "units": len(units),
        "order_sets": len(sets),
        "runs": runs,
        "median_s": statistics.median(times),
        "p90_s": sorted(times)[int(0.9 * len(times))],
        "best_s": min(times),
    }


def bench_datc(*, quick: bool = False) -> dict[str, Any]:
    """Wall time of running every DATC case once (the median of several runs)."""
    cases = json.loads(DATC.read_text("utf-8"))["cases"]
    standard_map()  # loaded once, as in a test session
    durations = []
    for _ in range(1 if quick else DATC_RUNS):
        start = time.perf_counter()
        for case in cases:
            run_case(case)
        durations.append(time.perf_counter() - start)
    return {"cases": len(cases), "runs": len(durations), "median_s": statistics.median(durations)}


def run(*, quick: bool = False) -> dict[str, Any]:
    """Both benchmarks' results, with the machine and date."""
    movement = bench_movement(quick=quick)
    datc = bench_datc(quick=quick)
    return {
        "suite": "diplomacy",
        "quick": quick,
        "machine": machine_info(),
        "movement": movement,
        "datc": datc,
        "targets": {
            "phase_seconds": {
                "target": TARGET_PHASE_SECONDS,
                "measured": movement["median_s"],
                "passed": movement["median_s"] <= TARGET_PHASE_SECONDS,
            },
            "datc_seconds": {
                "target": TARGET_DATC_SECONDS,
                "measured": datc["median_s"],
                "passed": datc["median_s"] < TARGET_DATC_SECONDS,
            },
        },
    }


def format_report(results: dict[str, Any]) -> str:
    """The results as text."""
    movement = results["movement"]
    datc = results["datc"]
    targets = results["targets"]

    def verdict(name: str) -> str:
        return "PASS" if targets[name]["passed"] else "FAIL"

    return "\n".join(
        [
            *header(
                "Diplomacy engine (Cosmic Cluster)", results["machine"], quick=results["quick"]
            ),
            "",
            f"a) movement phase, standard map, {movement['units']} units, "
            f"{movement['order_sets']} random legal order sets x {movement['runs']} runs",
            f"   median {movement['median_s'] * 1000:.3f} ms,"
            f" p90 {movement['p90_s'] * 1000:.3f} ms, best {movement['best_s'] * 1000:.3f} ms",
            f"   target <= 0.2 ms median: {verdict('phase_seconds')}",
            f"b) whole DATC ({datc['cases']} cases), median of {datc['runs']} runs: "
            f"{datc['median_s'] * 1000:.1f} ms",
            f"   target < 2 s: {verdict('datc_seconds')}",
        ]
    )


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.diplomacy",
        description="Benchmarks of the Diplomacy engine.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
