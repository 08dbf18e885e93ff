"""Run every benchmark and report: ``python -m benchmarks [--quick] [--json]``.

:func:`run` returns the results as data (what ``--json`` prints); :func:`format_report`
turns them into the text report. The benchmarks never fail the build: the target line says
PASS or FAIL and the exit status is 0 either way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.rules_core import (
    TARGET_TURNS_PER_SECOND,
    bench_adjudication,
    bench_full_game,
    busy_position,
)

FULL_GAME_TURNS = 100
QUICK_GAME_TURNS = 10


def run(*, quick: bool = False) -> dict[str, Any]:
    """Every benchmark's results, with the machine and date. ``quick`` is a smoke run:
    few repeats and a 10-turn game, so its figures are not to be quoted."""
    machine = machine_info()
    position = busy_position()
    adjudication = bench_adjudication(position, quick=quick)
    if quick:
        game = bench_full_game(turns=QUICK_GAME_TURNS, repeats=1)
    else:
        game = bench_full_game(turns=FULL_GAME_TURNS)
    measured = adjudication["timings"]["preparsed"]["per_second"]
    return {
        "suite": "rules-core",
        "quick": quick,
        "machine": machine,
        "adjudication": adjudication,
        "full_game": game,
        "target": {
            "what": "turns adjudicated per second, busy 48-sector 8-empire position, "
            "pre-parsed order sheets (median)",
            "turns_per_second": TARGET_TURNS_PER_SECOND,
            "measured": measured,
            "passed": measured >= TARGET_TURNS_PER_SECOND,
        },
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def format_report(results: dict[str, Any]) -> str:
    """The results as the text ``python -m benchmarks`` prints."""
    m = results["machine"]
    adj = results["adjudication"]
    pos = adj["position"]
    orders = adj["orders"]
    game = results["full_game"]
    target = results["target"]
    lines = [
        *header("rules core", m, quick=results["quick"]),
        "",
        "a) adjudication of one busy turn",
        f"   position: seed {pos['seed']}, turn {pos['turn']}: {pos['sectors']} sectors, "
        f"{pos['empires']} empires, {pos['units']} units "
        + "("
        + ", ".join(f"{n} {k}" for k, n in pos["unit_kinds"].items())
        + "), "
        f"{pos['carriers_with_craft_out']} carriers with craft out, "
        f"{pos['deployed_craft']} craft deployed, {pos['empty_sectors']} empty sectors",
        f"   orders:   {orders['lines']} lines: "
        + ", ".join(f"{n} {k}" for k, n in orders["kinds"].items()),
        "   outcome:  "
        + ", ".join(f"{n} {k}" for k, n in orders["outcomes"].items())
        + f"; {orders['combats']} combats, {orders['retreats_owed']} retreats owed",
    ]
    labels = {
        "preparsed": "adjudicate, pre-parsed OrderSheets",
        "with_parsing": "adjudicate, order text parsed each time",
        "game_play": "Game.play (parsing + record + digest)",
    }
    for name, label in labels.items():
        t = adj["timings"][name]
        lines.append(
            f"   {label:<42} {t['per_second']:>9.0f} turns/s  "
            f"(median {_ms(t['median_s'])}, best {_ms(t['best_s'])}, "
            f"{t['repeats']} x {t['number']})"
        )
    lines += [
        "",
        f"b) full random game: {game['players']} players, up to {game['turn_limit']} turns "
        f"(seed {game['seed']})",
        f"   {game['turns_played']} turns played ({game['ended']}); steps: "
        + ", ".join(f"{n} {k}" for k, n in game["steps"].items()),
        f"   wall time {game['wall_s']:.3f} s = {game['turns_per_second']:.0f} turns/s "
        f"(median of {game['repeats']}; incl. the random policy choosing orders)",
        f"   engine only {game['engine_s']:.3f} s = {game['engine_turns_per_second']:.0f} turns/s "
        "(Game.play, retreat, build)",
        "",
        f"c) target: >= {target['turns_per_second']:.0f} turns/s "
        f"(a, pre-parsed): {'PASS' if target['passed'] else 'FAIL'} "
        f"(measured {target['measured']:.0f} turns/s)",
    ]
    if results["quick"]:
        lines.append("   (quick run: too few repeats to quote; run without --quick)")
    return "\n".join(lines)


def command(
    argv: Sequence[str] | None,
    out: TextIO | None,
    *,
    prog: str,
    description: str,
    run: Callable[..., dict[str, Any]],
    report: Callable[[dict[str, Any]], str],
    flags: Sequence[tuple[str, str]] = (),
) -> int:
    """The command line every benchmark module shares: ``--json`` and ``--quick``, and a
    module's own ``flags`` (name, help), each passed to ``run`` as a keyword when given
    (``--kit-renders`` as ``kit_renders``)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (few repeats)")
    for name, text in flags:
        parser.add_argument(f"--{name}", action="store_true", help=text)
    args = parser.parse_args(argv)
    keys = [name.replace("-", "_") for name, _ in flags]
    given = {key: True for key in keys if getattr(args, key)}
    return emit(run(quick=args.quick, **given), report, as_json=args.json, out=out)


def emit(
    results: dict[str, Any],
    report: Callable[[dict[str, Any]], str],
    *,
    as_json: bool,
    out: TextIO | None,
) -> int:
    """Write a benchmark's ``results`` to ``out`` (standard output by default), as JSON or
    as its ``report``; the command's exit status."""
    stream = out if out is not None else sys.stdout
    if as_json:
        stream.write(json.dumps(results, indent=2, sort_keys=True) + "\n")
    else:
        stream.write(report(results) + "\n")
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks",
        description="Benchmarks of Cluster Companion.",
        run=run,
        report=format_report,
    )
