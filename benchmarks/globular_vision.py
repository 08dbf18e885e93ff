"""Benchmarks of Globular Cluster's camera reader (G8.8): boards of random games of 2 to 4
players, drawn by :mod:`vision.globular.synthetic` (which shares no code with the reader) under
the conditions of the Local Cluster vision benchmark: any rotation, up to 30 degrees of tilt
seen from 0.8-2 board widths away, warm to daylight lamps, a shadow, hands, glare, seven mats
and a patterned cloth, pennies and pieces on the tiles, blur, noise, a Bayer filter, JPEG.

``python -m benchmarks.globular_vision [--quick] [--json]``. Per tile: its sticker in plain
view or not (a hand, a penny or a piece over its marker, or a highlight washing it out); read
right (its code at its position, and its tick corner or none), its tick unknown, not read, and
**confidently wrong**: a code read at a position that holds another tile's or none, or a tick
corner read wrong (target 0). Also how often a tile in place is said to lie between positions
(a person would be asked to straighten a straight tile), unusable pictures, and the
milliseconds a 1080p frame on one core.
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
from companion.globular.bots import random_game
from companion.globular.game import GlobularGame
from companion.globular.settings import Settings
from companion.globular.state import State
from companion.globular.tiles import COLOURS
from vision.globular.reader import READER
from vision.globular.synthetic import Conditions, render
from vision.readers import Quality

BOARDS = 60
QUICK_BOARDS = 2
SPEED_RUNS = 5
TARGET_1080_MS = 100.0
"""A frame at 1080p on one core (the camera settles on a few frames a second)."""


def board(rng: random.Random) -> State:
    """A board some turns into a random game of 2 to 4 players."""
    players = rng.randint(2, 4)
    game = GlobularGame(Settings(COLOURS[:players]), rng.randrange(10**6))
    return random_game(game, rng, max_turns=rng.randrange(10, 90)).state


def bench_accuracy(boards: int, *, width: int, height: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    totals = dict.fromkeys(
        (
            "boards",
            "tiles",
            "in_view",
            "right",
            "right_in_view",
            "tick_unknown",
            "not_read_in_view",
            "wrong",
            "between",
            "unusable",
        ),
        0,
    )
    for _ in range(boards):
        state = board(rng)
        picture = render(state, Conditions.random(rng, width=width, height=height))
        reading = READER.read(picture.image, prior=state)
        totals["boards"] += 1
        totals["unusable"] += reading.quality is Quality.UNUSABLE
        totals["between"] += sum("between positions" in note for note in reading.notes)
        read = {t.position: t for t in reading.scan.tiles if t.code is not None}
        for position, truth in picture.tiles.items():
            totals["tiles"] += 1
            totals["in_view"] += truth.sticker_visible
            tile = read.get(position)
            if tile is None:
                totals["not_read_in_view"] += truth.sticker_visible
            elif tile.code != truth.code or tile.corner not in (None, truth.corner):
                totals["wrong"] += 1
            else:
                totals["right"] += 1
                totals["right_in_view"] += truth.sticker_visible
                totals["tick_unknown"] += tile.corner is None and truth.corner is not None
        totals["wrong"] += sum(1 for p in read if p not in picture.tiles)
    return totals


def bench_speed(runs: int, *, width: int, height: int) -> dict[str, Any]:
    cv2.setNumThreads(1)
    rng = random.Random(11)
    state = board(rng)
    image = render(state, Conditions(width=width, height=height, tilt=15, blur=0.5, seed=5)).image
    READER.read(image, prior=state)  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        READER.read(image, prior=state)
        times.append(time.perf_counter() - start)
    return {
        "width": width,
        "height": height,
        "runs": runs,
        "median_ms": statistics.median(times) * 1000,
    }


def run(*, quick: bool = False) -> dict[str, Any]:
    machine = machine_info()
    boards = QUICK_BOARDS if quick else BOARDS
    accuracy = {
        "1080p": bench_accuracy(boards, width=1920, height=1080, seed=2026),
        "720p": bench_accuracy(boards, width=1280, height=720, seed=2027),
    }
    speed = bench_speed(1 if quick else SPEED_RUNS, width=1920, height=1080)
    wrong = sum(a["wrong"] for a in accuracy.values())
    return {
        "suite": "globular-vision",
        "quick": quick,
        "machine": machine,
        "accuracy": accuracy,
        "speed": speed,
        "targets": {
            "confidently_wrong": {"target": 0, "measured": wrong, "passed": wrong == 0},
            "1080p_ms": {
                "target": TARGET_1080_MS,
                "measured": speed["median_ms"],
                "passed": speed["median_ms"] <= TARGET_1080_MS,
            },
        },
    }


def format_report(results: dict[str, Any]) -> str:
    lines = [*header("Globular Cluster vision", results["machine"], quick=results["quick"]), ""]
    for name, a in results["accuracy"].items():
        seen = max(1, a["in_view"])
        lines.append(
            f"a) {name}: {a['boards']} boards, {a['tiles']} tiles: read right {a['right']} "
            f"({a['tick_unknown']} with the tick unknown); of the {a['in_view']} stickers in "
            f"view {a['right_in_view']} read right ({a['right_in_view'] / seen:.1%}), "
            f"{a['not_read_in_view']} not read; confidently wrong {a['wrong']}; "
            f"{a['between']} said to lie between positions; {a['unusable']} unusable pictures"
        )
    s = results["speed"]
    lines.append(f"b) speed {s['width']}x{s['height']}: median {s['median_ms']:.0f} ms")
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
        prog="python -m benchmarks.globular_vision",
        description="Benchmarks of Globular Cluster's camera reader.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
