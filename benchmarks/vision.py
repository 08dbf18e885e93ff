"""Benchmarks of board recognition: accuracy over rendered 8-empire, 48-sector boards across
the conditions of :meth:`vision.local_cluster.synthetic.Conditions.random`, and speed on one core.

``python -m benchmarks.vision [--quick] [--json]``. Accuracy: tile identity and adjacency
where markers are visible, visible slots read correctly, and no confident wrong reading on
occluded slots. Speed: median of :func:`vision.local_cluster.recognize.recognize` at 1920x1080
and at
4608x2592 with ``cv2.setNumThreads(1)``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, TextIO

import cv2

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.local_cluster.state import State
from vision.errors import VisionError
from vision.local_cluster.recognize import recognize
from vision.local_cluster.synthetic import Conditions, render, sample_state

BOARDS = 200
QUICK_BOARDS = 2
SPEED_RUNS = 9
QUICK_SPEED_RUNS = 1
TARGET_1080_MS = 60.0
TARGET_STILL_MS = 300.0


def bench_accuracy(boards: int) -> dict[str, Any]:
    rng = random.Random(2026)
    totals = dict.fromkeys(
        (
            "tiles_visible",
            "tiles_found",
            "tiles_wrong",
            "edges_expected",
            "edges_right",
            "edges_extra",
            "slots_visible",
            "slots_right",
            "slots_unknown",
            "slots_wrong",
            "occluded",
            "occluded_wrong",
            "failed",
        ),
        0,
    )
    states: dict[int, State] = {}
    for board in range(boards):
        seed = 1 + board % 20
        state = states.get(seed) or states.setdefault(seed, sample_state(seed))
        rendered = render(state, Conditions.random(rng))
        try:
            scan = recognize(rendered.image, expected=len(state.galaxy.ids)).scan
        except VisionError:
            totals["failed"] += 1
            continue
        seen = set(scan.sectors)
        for sector, truth in rendered.tiles.items():
            if truth.marker_visible:
                totals["tiles_visible"] += 1
                totals["tiles_found"] += sector in seen
            tile = scan.tile(sector)
            if tile is None:
                continue
            for reading in tile.slots:
                want = truth.slots[reading.slot]
                same = (reading.state, reading.colour, reading.kind) == (
                    want.state,
                    want.colour,
                    want.kind,
                )
                if reading.slot in truth.occluded:
                    totals["occluded"] += 1
                    totals["occluded_wrong"] += reading.known and not same
                else:
                    totals["slots_visible"] += 1
                    totals["slots_right"] += reading.known and same
                    totals["slots_unknown"] += not reading.known
                    totals["slots_wrong"] += reading.known and not same
        totals["tiles_wrong"] += len(seen - set(state.galaxy.ids))
        expected = {e for e in state.galaxy.edges if e[0] in seen and e[1] in seen}
        found = set(scan.adjacency)
        totals["edges_expected"] += len(expected)
        totals["edges_right"] += len(expected & found)
        totals["edges_extra"] += len(found - expected)
    return {"boards": boards, **totals}


def bench_speed(width: int, height: int, runs: int) -> dict[str, Any]:
    cv2.setNumThreads(1)
    state = sample_state(7)
    image = render(state, Conditions(width=width, height=height, seed=11, tilt=15, blur=0.5)).image
    expected = len(state.galaxy.ids)
    recognize(image, expected=expected)  # warm up: masks, detector
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        recognize(image, expected=expected)
        times.append(time.perf_counter() - start)
    return {
        "width": width,
        "height": height,
        "runs": runs,
        "median_ms": statistics.median(times) * 1000,
    }


def run(*, quick: bool = False) -> dict[str, Any]:
    machine = machine_info()
    accuracy = bench_accuracy(QUICK_BOARDS if quick else BOARDS)
    runs = QUICK_SPEED_RUNS if quick else SPEED_RUNS
    # The quick mode (a smoke run) times smaller pictures: rendering a still takes seconds.
    shrink = 2 if quick else 1
    hd = bench_speed(1920 // shrink, 1080 // shrink, runs)
    still = bench_speed(4608 // shrink, 2592 // shrink, runs)
    visible = max(1, accuracy["slots_visible"])
    return {
        "suite": "vision",
        "quick": quick,
        "machine": machine,
        "accuracy": accuracy,
        "speed": {"1080p": hd, "still": still},
        "targets": {
            "slots_right_share": {
                "target": 0.995,
                "measured": accuracy["slots_right"] / visible,
                "passed": accuracy["slots_right"] / visible >= 0.995,
            },
            "tiles_found_share": {
                "target": 1.0,
                "measured": accuracy["tiles_found"] / max(1, accuracy["tiles_visible"]),
                "passed": accuracy["tiles_found"] == accuracy["tiles_visible"],
            },
            "occluded_wrong": {
                "target": 0,
                "measured": accuracy["occluded_wrong"],
                "passed": accuracy["occluded_wrong"] == 0,
            },
            "1080p_ms": {
                "target": TARGET_1080_MS,
                "measured": hd["median_ms"],
                "passed": hd["median_ms"] <= TARGET_1080_MS,
            },
            "still_ms": {
                "target": TARGET_STILL_MS,
                "measured": still["median_ms"],
                "passed": still["median_ms"] <= TARGET_STILL_MS,
            },
        },
    }


def format_report(results: dict[str, Any]) -> str:
    a = results["accuracy"]
    lines = [*header("vision", results["machine"], quick=results["quick"]), ""]
    lines.append(
        f"a) accuracy over {a['boards']} rendered boards ({a['failed']} without a usable card): "
        f"tiles {a['tiles_found']}/{a['tiles_visible']} visible found, "
        f"{a['tiles_wrong']} wrong ids; "
        f"edges {a['edges_right']}/{a['edges_expected']}, {a['edges_extra']} extra"
    )
    lines.append(
        f"   slots: {a['slots_right']}/{a['slots_visible']} visible right, {a['slots_unknown']} "
        f"unknown, {a['slots_wrong']} wrong; occluded {a['occluded']}, {a['occluded_wrong']} "
        "confidently wrong"
    )
    for key, value in results["speed"].items():
        lines.append(
            f"b) speed {key} {value['width']}x{value['height']}: median {value['median_ms']:.1f} ms"
        )
    for name, t in results["targets"].items():
        lines.append(
            f"   {name}: target {t['target']}, measured {t['measured']:.4g}  "
            + ("PASS" if t["passed"] else "FAIL")
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.vision",
        description="Benchmarks of board recognition.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
