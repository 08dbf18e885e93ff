"""Benchmark of the camera on Cluster boards: rendered pictures (``vision.cluster.synthetic``,
drawn from the printed kit's description) under the conditions of the Local Cluster vision
benchmark (any rotation, up to 30 degrees of tilt, 2700-6500 K, brightness 0.5-1.5, shadows,
a hand over the board half the time, blur, noise, JPEG), read by ``vision.cluster.recognize``.

Each picture shows a position from a random game one move after the tracked one (or, one time in
four, the tracked position with one peg knocked out: a change no legal move explains). Counted:

* holes in plain view read right, unknown, or wrong; holes under the hand read wrong;
* the move: entered (the one legal move that explains the reading, and it is the one played),
  asked about (several candidates, the played one among them), not seen (nothing changed that
  the camera could read, or the one move that fits goes through a hole it cannot read: it asks
  for that hole to be uncovered), reported as impossible; and **confidently wrong**: a move
  entered that was not played, candidates without the played move, or an impossible change
  entered as a move. A knocked-out peg whose hole may have gone to one of several hidden holes
  looks exactly like a move into one of them: it is asked about (several candidates on the
  table screen, none of them played), counted apart, not as confidently wrong: the person at
  the table sees the board. Target: none confidently wrong.
* the time to read a 1920x1080 picture on one core.

``python -m benchmarks.cluster_vision [--quick] [--json]``; ``python -m benchmarks`` runs it.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, TextIO

import cv2

from benchmarks.cluster_kit_renders import KitRender
from benchmarks.cluster_kit_renders import render as kit_render
from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.cluster_peg.moves import Move, after, legal_codes
from companion.cluster_peg.position import SETUPS, Position
from companion.cluster_peg.scan import Seen, compare
from vision.cluster.recognize import recognize
from vision.cluster.synthetic import Conditions, Rendered, render
from vision.errors import VisionError
from vision.photograph import second_lamp

BOARDS = 200
QUICK_BOARDS = 3
SEED = 1972


def _position(rng: random.Random, index: int) -> Position:
    names = ("64B", "46", "64A")
    position = SETUPS[names[index % 3]]
    for _ in range(rng.randrange(0, 40)):
        codes = legal_codes(position)
        if not codes:
            break
        following = after(position, rng.choice(codes))
        if following.winner() is not None:
            break
        position = following
    return position


def _knock_out(position: Position, rng: random.Random) -> Position:
    pegs = list(position.pegs)
    kind = rng.randrange(4)
    holes = position.board.holes_of(pegs[kind])
    pegs[kind] ^= 1 << rng.choice(holes)
    return Position(position.board, (pegs[0], pegs[1], pegs[2], pegs[3]), position.to_move)


@dataclasses.dataclass(frozen=True)
class Scene:
    """One benchmark picture before it is drawn: the tracked position, the one shown (a move
    later, or one time in four with a peg knocked out: ``played`` None) and the conditions."""

    tracked: Position
    shown: Position
    played: str | None
    conditions: Conditions

    @classmethod
    def draw(cls, rng: random.Random, index: int, *, lamps: bool = False) -> Scene:
        """The benchmark's picture ``index``, drawn from ``rng`` after those before it."""
        tracked = _position(rng, index)
        if index % 4 == 3:
            shown, played = _knock_out(tracked, rng), None
        else:
            code = rng.choice(legal_codes(tracked))
            shown, played = after(tracked, code), Move.from_code(tracked.board, code).text()
        conditions = Conditions.random(rng)
        if lamps:
            conditions = dataclasses.replace(
                conditions,
                glare=max(conditions.glare, 1),
                glare_kelvin=second_lamp(conditions.kelvin),
            )
        return cls(tracked, shown, played, conditions)

    def render(self, *, kit_renders: bool = False) -> Rendered | KitRender:
        """The picture: by :mod:`vision.cluster.synthetic`, or with ``kit_renders`` by
        :mod:`benchmarks.cluster_kit_renders` (from the conditions' seed alone)."""
        if kit_renders:
            return kit_render(self.shown, random.Random(self.conditions.seed))
        return render(self.shown, self.conditions)


def scenes(count: int, *, lamps: bool = False) -> list[Scene]:
    """The benchmark's first ``count`` pictures, undrawn."""
    rng = random.Random(SEED)
    return [Scene.draw(rng, index, lamps=lamps) for index in range(count)]


def bench_accuracy(
    boards: int, *, lamps: bool = False, kit_renders: bool = False
) -> dict[str, Any]:
    """``lamps``: every picture with a highlight, from a second lamp of another colour than
    the table's light (2700 K over a table lit above 4000 K, else 6500 K), as the Local
    Cluster benchmark's ``--harsher lamps``. ``kit_renders``: the same positions drawn by
    :mod:`benchmarks.cluster_kit_renders`, a renderer written apart from the reader and from
    :mod:`vision.cluster.synthetic` (its own camera, lights, pegs and hands)."""
    rng = random.Random(SEED)
    totals = dict.fromkeys(
        (
            "visible",
            "visible_right",
            "visible_unknown",
            "visible_wrong",
            "hidden",
            "hidden_wrong",
            "moves",
            "entered_right",
            "asked_right",
            "not_seen",
            "reported_impossible",
            "moves_wrong",
            "impossible",
            "impossible_reported",
            "impossible_unseen",
            "impossible_asked",
            "impossible_entered",
            "failed",
        ),
        0,
    )
    times: list[float] = []
    for index in range(boards):
        scene = Scene.draw(rng, index, lamps=lamps)
        tracked, played = scene.tracked, scene.played
        impossible = played is None
        rendered = scene.render(kit_renders=kit_renders)
        began = time.perf_counter()
        try:
            scan = recognize(rendered.image).scan
        except VisionError:
            totals["failed"] += 1
            continue
        times.append(time.perf_counter() - began)
        for truth, reading in zip(rendered.holes, scan.holes, strict=True):
            if truth.visible:
                totals["visible"] += 1
                if reading.seen is Seen.UNKNOWN:
                    totals["visible_unknown"] += 1
                elif reading.seen is truth.seen:
                    totals["visible_right"] += 1
                else:
                    totals["visible_wrong"] += 1
            else:
                totals["hidden"] += 1
                if reading.seen not in (Seen.UNKNOWN, truth.seen):
                    totals["hidden_wrong"] += 1
        found = compare(tracked, scan)
        hidden = bool(found.discrepancies) and all(
            hole in found.unknown for hole, _ in found.discrepancies
        )  # one move fits only through holes it cannot read: it asks for them to be uncovered
        if impossible:
            totals["impossible"] += 1
            if len(found.moves) == 1:
                totals["impossible_entered"] += 1
            elif found.moves:
                totals["impossible_asked"] += 1
            elif found.discrepancies and not hidden:
                totals["impossible_reported"] += 1
            else:
                totals["impossible_unseen"] += 1
            continue
        totals["moves"] += 1
        if found.moves == (played,):
            totals["entered_right"] += 1
        elif len(found.moves) > 1 and played in found.moves:
            totals["asked_right"] += 1
        elif found.moves:
            totals["moves_wrong"] += 1
        elif found.discrepancies and not hidden:
            totals["reported_impossible"] += 1
        else:
            totals["not_seen"] += 1
    confidently_wrong = (
        totals["visible_wrong"]
        + totals["hidden_wrong"]
        + totals["moves_wrong"]
        + totals["impossible_entered"]
    )
    return {
        "boards": boards,
        **totals,
        "confidently_wrong": confidently_wrong,
        "median_read_s": statistics.median(times) if times else 0.0,
        "target": {"confidently_wrong": 0, "passed": confidently_wrong == 0},
    }


def bench_speed(runs: int) -> dict[str, Any]:
    """The time to read one 1920x1080 picture of the interlocked setup, on one core."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        image = render(SETUPS["64B"], Conditions(tilt=15, rotation=30, seed=3)).image
        recognize(image)
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            recognize(image)
            times.append(time.perf_counter() - began)
    finally:
        cv2.setNumThreads(threads)
    return {"runs": runs, "median_s": statistics.median(times), "best_s": min(times)}


def run(*, quick: bool = False, lamps: bool = False, kit_renders: bool = False) -> dict[str, Any]:
    return {
        "suite": "cluster-vision",
        "quick": quick,
        "lamps": lamps,
        "kit_renders": kit_renders,
        "machine": machine_info(),
        "accuracy": bench_accuracy(
            QUICK_BOARDS if quick else BOARDS, lamps=lamps, kit_renders=kit_renders
        ),
        "speed": bench_speed(1 if quick else 9),
    }


def _drawn(results: dict[str, Any]) -> str:
    if results.get("kit_renders"):
        return "drawn by benchmarks.cluster_kit_renders, apart from the reader"
    if results.get("lamps"):
        return "Local Cluster benchmark conditions; every highlight from a lamp of another colour"
    return "Local Cluster benchmark conditions"


def _share(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.1f} %)" if whole else str(part)


def format_report(results: dict[str, Any]) -> str:
    a = results["accuracy"]
    speed = results["speed"]
    return "\n".join(
        [
            *header("Cluster camera", results["machine"], quick=results["quick"]),
            "",
            f"a) {a['boards']} rendered boards ({_drawn(results)}), {a['failed']} not found",
            f"   holes in view: {a['visible']}: right {_share(a['visible_right'], a['visible'])}, "
            f"unknown {_share(a['visible_unknown'], a['visible'])}, wrong {a['visible_wrong']}",
            f"   holes under the hand or another peg: {a['hidden']}, "
            f"read wrong {a['hidden_wrong']}",
            f"   moves played: {a['moves']}: entered {_share(a['entered_right'], a['moves'])}, "
            f"asked {a['asked_right']}, not seen {a['not_seen']}, reported impossible "
            f"{a['reported_impossible']}, wrong {a['moves_wrong']}",
            f"   a peg knocked out: {a['impossible']}: reported {a['impossible_reported']}, "
            f"not seen {a['impossible_unseen']}, asked about (moves into hidden holes) "
            f"{a['impossible_asked']}, entered as a move {a['impossible_entered']}",
            f"   confidently wrong: {a['confidently_wrong']} (target 0: "
            f"{'PASS' if a['target']['passed'] else 'FAIL'})",
            f"b) reading a 1920x1080 picture on one core: median "
            f"{speed['median_s'] * 1000:.0f} ms (best {speed['best_s'] * 1000:.0f} ms, "
            f"{speed['runs']} runs)",
        ]
    )


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.cluster_vision",
        description="Benchmark of the camera on Cluster boards.",
        run=run,
        report=format_report,
        flags=[
            ("lamps", "every picture with a highlight from a second lamp of another colour"),
            ("kit-renders", "pictures drawn by benchmarks.cluster_kit_renders instead"),
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
