"""Benchmarks of Clustered's camera reader: rendered layouts of 4 to 8 players and 60 to 200
cards under the conditions of the Local Cluster vision benchmark (tilt, rotation, warm light,
brightness, shadow, a hand, blur, noise, JPEG) and glare, with the printed kit (markers) and
with a marker-less deck read from its symbols; the kit's 1080p boards again on a busy
patterned cloth (the same boards and pictures, but for the cloth).

``python -m benchmarks.clustered_vision [--quick] [--json]``. Per deck: cards found (a reading
at a card's cell), read right (the card named is the card there), unknown, and confidently
wrong (a card named that is not the card there, or a card named where none lies: target 0),
unknown cards read where none lies (the search run out over the cloth), cells read empty where
a card lies (a hand over it: "was it moved or taken away?", K3.11); and the milliseconds
per 1080p frame on one core. The renderer draws the kit from its
description only (:mod:`vision.clustered.synthetic`); it shares no code with the reader.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, TextIO

import cv2

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.clustered.layout import Layout
from companion.clustered.simulate import simulate
from vision.clustered.reader import READER, Expected
from vision.clustered.synthetic import Conditions, render
from vision.tabletop import PATTERNED

BOARDS = 24
STILLS = 6
QUICK_BOARDS = 1
SPEED_RUNS = 5
TARGET_1080_MS = 500.0


def layout(rng: random.Random) -> Layout:
    """A finished-looking table: 4 to 8 players, 60 to 200 cards, players who build
    clusters (a compact simulated game)."""
    players = rng.randint(4, 8)
    cards = rng.randint(60, min(200, 29 * players))
    return simulate(players, seed=rng.randrange(10**6), policy="compact", turns=cards).layout


def bench_accuracy(
    boards: int, *, plain: bool, width: int, height: int, mat: str | None = None
) -> dict[str, Any]:
    """``mat`` lays every board on that cloth instead of the one drawn: the same boards and
    pictures as without it, but for the cloth."""
    rng = random.Random(2027 + plain + width)
    totals = dict.fromkeys(
        (
            "boards",
            "cards",
            "found",
            "right",
            "unknown",
            "wrong",
            "phantom",
            "ghost",
            "empty_card",
            "unusable",
        ),
        0,
    )
    for _ in range(boards):
        table = layout(rng)
        conditions = Conditions.random(rng, width=width, height=height)
        if mat is not None:
            conditions = dataclasses.replace(conditions, mat=mat)
        picture = render(table, conditions=conditions, plain=plain)
        reading = READER.read(picture.image, prior=Expected(layout=table))
        totals["boards"] += 1
        totals["unusable"] += not reading.usable
        totals["cards"] += sum(1 for t in picture.cards.values() if not t.card.is_start)
        for r in reading.scan.cards:
            if r.start:
                continue
            truth = picture.cards.get(r.cell)
            if truth is None:
                totals["phantom"] += r.card is not None
                totals["ghost"] += r.card is None
                continue
            totals["found"] += 1
            if r.card is None:
                totals["unknown"] += 1
            elif r.card == truth.card:
                totals["right"] += 1
            else:
                totals["wrong"] += 1
        totals["empty_card"] += sum(1 for cell in reading.scan.empty if cell in picture.cards)
    return totals


def bench_speed(runs: int, *, plain: bool, width: int, height: int) -> dict[str, Any]:
    cv2.setNumThreads(1)
    rng = random.Random(7)
    table = simulate(8, seed=3, policy="compact", turns=200).layout
    image = render(
        table,
        conditions=Conditions(width=width, height=height, seed=11, tilt=15, blur=0.5),
        plain=plain,
    ).image
    prior = Expected(layout=table)
    READER.read(image, prior=prior)  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        READER.read(image, prior=prior)
        times.append(time.perf_counter() - start)
    rng.random()
    return {
        "width": width,
        "height": height,
        "runs": runs,
        "median_ms": statistics.median(times) * 1000,
    }


def run(*, quick: bool = False) -> dict[str, Any]:
    machine = machine_info()
    boards = QUICK_BOARDS if quick else BOARDS
    stills = 1 if quick else STILLS
    shrink = 2 if quick else 1  # the quick mode (a smoke run) takes smaller stills
    hd = (1920, 1080)
    still = (4608 // shrink, 2592 // shrink)
    accuracy = {
        "kit_1080p": bench_accuracy(boards, plain=False, width=hd[0], height=hd[1]),
        "kit_1080p_patterned": bench_accuracy(
            boards, plain=False, width=hd[0], height=hd[1], mat=PATTERNED
        ),
        "plain_1080p": bench_accuracy(boards, plain=True, width=hd[0], height=hd[1]),
        "kit_still": bench_accuracy(stills, plain=False, width=still[0], height=still[1]),
        "plain_still": bench_accuracy(stills, plain=True, width=still[0], height=still[1]),
    }
    runs = 1 if quick else SPEED_RUNS
    speed = {
        "kit_1080p": bench_speed(runs, plain=False, width=hd[0], height=hd[1]),
        "plain_1080p": bench_speed(runs, plain=True, width=hd[0], height=hd[1]),
    }
    wrong = sum(a["wrong"] + a["phantom"] for a in accuracy.values())
    return {
        "suite": "clustered-vision",
        "quick": quick,
        "machine": machine,
        "accuracy": accuracy,
        "speed": speed,
        "targets": {
            "confidently_wrong": {"target": 0, "measured": wrong, "passed": wrong == 0},
            "kit_1080p_ms": {
                "target": TARGET_1080_MS,
                "measured": speed["kit_1080p"]["median_ms"],
                "passed": speed["kit_1080p"]["median_ms"] <= TARGET_1080_MS,
            },
        },
    }


def format_report(results: dict[str, Any]) -> str:
    lines = [*header("Clustered vision", results["machine"], quick=results["quick"]), ""]
    for name, a in results["accuracy"].items():
        cards = max(1, a["cards"])
        lines.append(
            f"a) {name}: {a['boards']} layouts, {a['cards']} cards: found {a['found']} "
            f"({a['found'] / cards:.1%}), right {a['right']} ({a['right'] / cards:.1%}), "
            f"unknown {a['unknown']}, confidently wrong {a['wrong']} + {a['phantom']} phantom; "
            f"{a['ghost']} unknown cards where none lies; {a['empty_card']} cells read empty "
            f"where a card lies; {a['unusable']} unusable pictures"
        )
    for name, s in results["speed"].items():
        lines.append(f"b) speed {name} {s['width']}x{s['height']}: median {s['median_ms']:.0f} ms")
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
        prog="python -m benchmarks.clustered_vision",
        description="Benchmarks of Clustered's camera reader.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
