"""Local Cluster's board recognition on pictures it was not tuned to (issue 18): tables drawn
by :mod:`benchmarks.local_cluster_kit_renders`, a renderer written apart from the recognizer
and from :mod:`vision.local_cluster.synthetic`, from ``docs/physical-kit.md``, the kit file
and the printed sheets alone (its own camera, lights, tokens, hands and card).

Counted as :mod:`benchmarks.vision` counts (its ``_count``): tiles found, visible slots right
or unknown, and **confidently wrong** readings (visible or occluded), by resolution band. Each
picture is read alone, told the tiles on the table as ``companion scan --expect`` tells it.

``python -m benchmarks.vision_kit_renders [--quick] [--json] [--pictures N] [--seed S]
[--stills]``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any, TextIO

from benchmarks.local_cluster_kit_renders import LcRender, render
from benchmarks.machine import header, machine_info
from benchmarks.runner import emit
from benchmarks.vision import (
    BANDS,
    _band,
    _count,
    _zero,
    band_line,
    finding_targets,
    reading_targets,
    target_lines,
    turned_by_players,
)
from companion.local_cluster.atoms import Colour, SectorId, UnitType
from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState
from vision.errors import VisionError
from vision.local_cluster.recognize import Recognition, recognize
from vision.local_cluster.synthetic import TileTruth

PICTURES = 60
QUICK_PICTURES = 2
SEED = 1818
FRAME = (1920, 1080)
STILL = (4056, 3040)
"""The Pi Camera's full-resolution still (12 megapixels)."""


class _Picture:
    """An independent render as :func:`benchmarks.vision._count` reads a picture."""

    def __init__(self, drawn: LcRender) -> None:
        self.px_per_mm = drawn.px_per_mm
        self.tiles: dict[SectorId, TileTruth] = {}
        for tile in drawn.tiles:
            sector = SectorId(tile.sector)
            slots = {
                s.slot: (
                    SlotReading(
                        s.slot,
                        SlotState.TOKEN,
                        Colour(s.colour) if s.colour else None,
                        UnitType(s.unit) if s.unit else None,
                    )
                    if s.token
                    else SlotReading(s.slot, SlotState.EMPTY)
                )
                for s in tile.slots
            }
            occluded = frozenset(s.slot for s in tile.slots if s.occluded)
            self.tiles[sector] = TileTruth(
                sector, tile.marker_visible, slots, occluded, frozenset()
            )

    def misread(self, scan: BoardScan) -> list[str]:
        """Every known reading of ``scan`` that is not what was drawn, visible or occluded."""
        return [
            f"{tile.sector} {r.slot}: {r.describe()}"
            for tile in scan.tiles
            for r in tile.slots
            if r.known and not self.tiles[tile.sector].drawn(r)
        ]


def drawn_apart(index: int, seed: int = SEED) -> LcRender:
    """Frame ``index`` of :func:`bench_accuracy`'s pictures (1920 x 1080), drawn alone."""
    rng = random.Random(seed)
    for _ in range(index):
        rng.getrandbits(64)
    return render(random.Random(rng.getrandbits(64)), size=FRAME)


def bench_accuracy(count: int, seed: int = SEED, *, stills: bool = False) -> dict[str, Any]:
    """Accuracy over ``count`` independent renders, by resolution band: alone, and with the
    map the tiles were laid by (its cells and turns, one tile in twenty laid turned otherwise:
    :func:`benchmarks.vision.turned_by_players`) where not every marker was found."""
    bands: dict[str, dict[str, int]] = {name: _zero() for name, _, _ in BANDS}
    with_map: dict[str, dict[str, int]] = {name: _zero() for name, _, _ in BANDS}
    wrong: list[str] = []
    silent = []
    rng = random.Random(seed)
    for index in range(count):
        drawn = render(random.Random(rng.getrandbits(64)), size=STILL if stills else FRAME)
        picture = _Picture(drawn)
        band = _band(picture.px_per_mm)
        try:
            found: Recognition | None = recognize(drawn.image, expected=tuple(picture.tiles))
        except VisionError:
            found = None
        for line in _count(picture, found, bands[band]):  # type: ignore[arg-type]
            wrong.append(f"picture {index} ({picture.px_per_mm:.2f} px/mm): {line}")
        mapped = found
        if found is not None and drawn.cells and len(found.scan.tiles) < len(picture.tiles):
            cells = turned_by_players(drawn.cells, f"turns {seed} {index}")
            mapped = recognize(drawn.image, expected=tuple(picture.tiles), cells=cells)
        for line in _count(picture, mapped, with_map[band]):  # type: ignore[arg-type]
            wrong.append(f"picture {index} ({picture.px_per_mm:.2f} px/mm, with map): {line}")
        if band == BANDS[0][0] and found is not None and found.quality.value != "unusable":
            silent.append(index)
    return {
        "pictures": count,
        "seed": seed,
        "stills": stills,
        "bands": bands,
        "with_map": with_map,
        "wrong": wrong,
        "silent": silent,
    }


def run(
    *, quick: bool = False, pictures: int | None = None, seed: int = SEED, stills: bool = False
) -> dict[str, Any]:
    count = pictures or (QUICK_PICTURES if quick else PICTURES)
    accuracy = bench_accuracy(count, seed, stills=stills)
    return {
        "suite": "vision-kit-renders",
        "quick": quick,
        "machine": machine_info(),
        "accuracy": accuracy,
        "targets": {
            **reading_targets(accuracy["bands"]),
            **reading_targets(accuracy["with_map"], "_with_map"),
            **finding_targets(accuracy["bands"], accuracy["silent"]),
        },
    }


def format_report(results: dict[str, Any]) -> str:
    a = results["accuracy"]
    lines = [*header("vision on independent renders", results["machine"], quick=results["quick"])]
    size = "4056x3040 stills" if a["stills"] else "1920x1080 frames"
    lines += ["", f"a) {a['pictures']} pictures ({size}, seed {a['seed']}), read alone:"]
    lines += [band_line(name, b) for name, b in a["bands"].items()]
    lines += ["   with the map the tiles were laid by (one tile in twenty turned otherwise):"]
    lines += [band_line(name, b) for name, b in a["with_map"].items()]
    lines += [f"   wrong: {line}" for line in a["wrong"][:40]]
    lines += target_lines(results["targets"])
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.vision_kit_renders",
        description="Board recognition on tables drawn apart from the recognizer.",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (2 pictures)")
    parser.add_argument("--pictures", type=int, help=f"how many (default {PICTURES})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"(default {SEED})")
    parser.add_argument(
        "--stills", action="store_true", help="12-megapixel stills instead of 1080p frames"
    )
    args = parser.parse_args(argv)
    results = run(quick=args.quick, pictures=args.pictures, seed=args.seed, stills=args.stills)
    return emit(results, format_report, as_json=args.json, out=out)


if __name__ == "__main__":
    raise SystemExit(main())
