"""The moved-prior check of Local Cluster's board recognition (issue 18): a tile whose marker
is hidden is placed from the camera's last reading (its prior) only when the picture agrees,
so a prior that is wrong, because the tile was moved or turned under the hand since, must
place the tile nowhere or read it right.

``python -m benchmarks.vision_priors [--boards N] [--cache DIR] [--seed N] [--harsher KIND]
[--json]``.

For every picture of the benchmark's set (:func:`benchmarks.vision.boards`) that has a
prior, each tile missing from its reading without one has its prior moved along its own four
directions by each of :data:`MOVES_MM`, or turned by each of :data:`TURNS_DEG`, and the
picture is read again with that prior (24 readings a picture). Counted: the readings, the
tiles placed from such a prior, and every known slot reading on them that is not what was
drawn (visible or occluded): the target is none. No timing is measured."""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import emit
from benchmarks.vision import BOARDS, HARSHER, SEED, boards, clear_prior, rendered
from vision.errors import VisionError
from vision.local_cluster.recognize import Prior, TilePose, recognize

MOVES_MM = (3.0, 4.0, 5.0, 18.0, 20.0)
"""A few millimetres (a neighbour's edge line lies 3-5 mm away) and one row of slots (the
mineral and strike-craft outlines repeat every 18-20 mm)."""
TURNS_DEG = (5.0, 90.0, 180.0, 270.0)
"""A tile turned a little, or by quarter turns (its four slot layouts are quarter turns of
one another)."""


def _moves() -> list[tuple[float, float, float]]:
    ways = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))
    out = [(d * x, d * y, 0.0) for d in MOVES_MM for x, y in ways]
    return out + [(0.0, 0.0, turn) for turn in TURNS_DEG]


def moved(pose: TilePose, along: float, across: float, turn: float) -> TilePose:
    """``pose`` moved ``along`` and ``across`` its own axes (mm) and turned ``turn`` degrees."""
    a = math.radians(pose.angle)
    x = pose.centre[0] + along * math.cos(a) - across * math.sin(a)
    y = pose.centre[1] + along * math.sin(a) + across * math.cos(a)
    return dataclasses.replace(pose, centre=(x, y), angle=pose.angle + turn)


def run(
    count: int = BOARDS, cache: Path | None = None, seed: int = SEED, harsh: str | None = None
) -> dict[str, Any]:
    readings = placed = 0
    wrong: list[str] = []
    for board in boards(count, seed, harsh):
        picture, sectors = rendered(board, cache)
        try:
            alone = recognize(picture.image, expected=sectors)
        except VisionError:
            continue
        hidden = set(sectors) - set(alone.scan.sectors)
        prior = clear_prior(board, cache) if hidden else None
        if prior is None:
            continue
        for along, across, turn in _moves():
            poses = tuple(
                moved(t, along, across, turn) if t.sector in hidden else t for t in prior.tiles
            )
            readings += 1
            found = recognize(picture.image, expected=sectors, prior=Prior(poses))
            for tile in found.tiles:
                if not tile.carried or tile.sector not in hidden:
                    continue
                placed += 1
                truth = picture.tiles[tile.sector]
                wrong += [
                    f"picture {board.index} ({picture.px_per_mm:.2f} px/mm) {tile.sector} "
                    f"moved {along:g}, {across:g} mm, turned {turn:g}: {r.slot} "
                    f"{truth.slots[r.slot].describe()} read as {r.describe()} at "
                    f"{r.confidence:.2f}"
                    for r in tile.reading.slots
                    if r.known and not truth.drawn(r)
                ]
    return {
        "suite": "vision_priors",
        "machine": machine_info(),
        "pictures": count,
        "seed": seed,
        "harsher": harsh,
        "readings": readings,
        "placed": placed,
        "wrong": wrong,
        "targets": {"wrong": {"target": 0, "measured": len(wrong), "passed": not wrong}},
    }


def format_report(results: dict[str, Any]) -> str:
    lines = [*header("vision_priors", results["machine"], quick=False), ""]
    harsh = f", harsher: {results['harsher']}" if results.get("harsher") else ""
    lines.append(
        f"priors of hidden tiles moved and turned, {results['pictures']} pictures (seed "
        f"{results['seed']}{harsh}): {results['readings']} readings, {results['placed']} tiles "
        f"placed, {len(results['wrong'])} slots read wrong"
    )
    lines += [f"   {line}" for line in results["wrong"]]
    target = results["targets"]["wrong"]
    verdict = "PASS" if target["passed"] else "FAIL"
    lines.append(f"   wrong: target 0, measured {target['measured']}  {verdict}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.vision_priors",
        description="Priors of hidden tiles moved and turned: no tile placed wrong.",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--boards", type=int, default=BOARDS, help="how many pictures")
    parser.add_argument("--cache", type=Path, help="keep the drawn pictures here")
    parser.add_argument("--seed", type=int, default=SEED, help="draw another set of pictures")
    parser.add_argument(
        "--harsher",
        choices=HARSHER,
        help="make every picture harsher, as the vision benchmark's --harsher does",
    )
    args = parser.parse_args(argv)
    results = run(args.boards, args.cache, args.seed, args.harsher)
    return emit(results, format_report, as_json=args.json, out=out)


if __name__ == "__main__":
    raise SystemExit(main())
