"""Benchmarks of the table service: durable submissions, and recovering a long table.

* :func:`bench_submissions` puts an 8-seat table into the command phase (after a few greedy
  turns, so every empire has several units) in an SQLite file in a temporary folder, then times
  2000 order submissions through :meth:`TableService.submit`: each one checked by the rules
  core, applied, committed with ``synchronous=FULL`` (fsync before the call returns), then
  acknowledged. Three runs, each on a fresh database; the median counts.
* :func:`bench_recovery` plays a 200-turn 8-seat game through the service (greedy orders,
  build plans and retreats, every stage ended by the seats' ready), leaves it in the middle of
  turn 201's command phase, closes the service and times opening it again:
  ``TableService(Storage(path))`` checks the file, then rebuilds the table from its latest
  snapshot and the log after it. For comparison it also times a rebuild from the whole log
  without snapshots and a full replay of the game record.

``python -m benchmarks.service [--quick] [--json]``; ``python -m benchmarks`` runs it after the
rules core. The quick mode (a smoke run, figures not to be quoted) submits 100 orders per run
and recovers a 20-turn table.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.local_cluster.atoms import Colour
from companion.local_cluster.policy import greedy_orders, greedy_plan, random_retreats
from companion.local_cluster.record import GameRecord
from companion.local_cluster.session import BUILD, COMMAND, LocalClusterSetup
from companion.local_cluster.state import State
from companion.service import FakeClock, Stage, Storage, TableService
from companion.service.table import Table

TARGET_SUBMISSIONS_PER_SECOND = 500.0
TARGET_RECOVERY_SECONDS = 1.0

PLAYERS = 8
SEED = 2026
WARM_UP_TURNS = 6
"""Greedy turns played before the submissions are timed, so each empire has a few units."""
VARIANTS = 4
"""Different order sheets per seat, submitted in turn (each replaces the seat's last one)."""
SUBMISSIONS = 2000
QUICK_SUBMISSIONS = 100
RUNS = 3
RECOVERY_TURNS = 200
QUICK_RECOVERY_TURNS = 20
OPENINGS = 3
START = 1_800_000_000.0


# Driving a table ---------------------------------------------------------------------------------


def seat_table(service: TableService, *, players: int = PLAYERS, seed: int = SEED) -> str:
    """A new table with every seat joined and chosen (distinct colours, homes drawn from
    ``seed``), so the game has started: the table is in the discussion of turn 1."""
    table_id, _ = service.create_table(
        "benchmark", players, seed=seed, options={"turn_limit": None}
    )
    for seat in range(1, players + 1):
        service.join(table_id, seat, f"Player {seat}")
    setup = service.table(table_id).setup
    assert isinstance(setup, LocalClusterSetup)
    homes = random.Random(seed).sample(list(setup.galaxy.ids), players)
    colours = list(Colour)
    while (chooser := service.table(table_id).next_to_choose()) is not None:
        choice = {"colour": colours[chooser - 1].value, "home": homes[chooser - 1]}
        service.choose(table_id, chooser, choice)
    return table_id


def _colour(state: State, seat: int) -> Colour:
    return next(e.colour for e in state.empires if e.seat == seat)


def play_stage(service: TableService, table_id: str, rng: random.Random) -> None:
    """Play the table's current stage: every seat that owes something submits (greedy orders
    or build plan, random retreats), then every seat that takes part says it is ready."""
    table = service.table(table_id)
    stage, turn = table.stage, table.turn
    session = table.require_session()
    state: State = session.state  # type: ignore[attr-defined]
    if stage is not Stage.DISCUSSION:
        for seat in sorted(session.owing()):
            colour = _colour(state, seat)
            if stage is COMMAND:
                text = greedy_orders(state, colour, rng)
            elif stage is BUILD:
                text = greedy_plan(state, colour, rng).text()
            else:
                choices = random_retreats(state, rng)
                text = "\n".join(
                    f"RETREAT {r.sector} {choices[r.unit]}"
                    for r in state.retreats
                    if r.owner is colour and r.unit in choices
                )
            service.submit(table_id, seat, text, request_id=f"{turn}-{stage.value}-{seat}")
    for seat in sorted(table.participants()):
        service.set_ready(table_id, seat, request_id=f"{turn}-{stage.value}-{seat}-ready")


def play_until(
    service: TableService, table_id: str, rng: random.Random, done: Callable[[Table], bool]
) -> Table:
    """Play stage after stage until ``done(table)`` (or the game is over)."""
    while not done(table := service.table(table_id)) and table.stage is not Stage.OVER:
        play_stage(service, table_id, rng)
    return table


def _synchronous(storage: Storage) -> str:
    value = storage.connection.execute("PRAGMA synchronous").fetchone()[0]
    return {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(value, str(value))


def _journal(storage: Storage) -> str:
    return str(storage.connection.execute("PRAGMA journal_mode").fetchone()[0]).upper()


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# a) Durable submissions ------------------------------------------------------------------------


def _one_submission_run(folder: Path, submissions: int, run: int) -> dict[str, Any]:
    storage = Storage(folder / f"submissions-{run}.db")
    with TableService(storage, clock=FakeClock(START)) as service:
        table_id = seat_table(service)
        rng = random.Random(SEED)
        table = play_until(
            service,
            table_id,
            rng,
            lambda t: t.turn > WARM_UP_TURNS and t.stage is COMMAND,
        )
        if table.stage is not COMMAND:
            raise RuntimeError("the warm-up game ended before the command phase; change SEED")
        state: State = table.require_session().state  # type: ignore[attr-defined]
        seats = sorted(table.require_session().owing())
        # Distinct sheets only: the service stores an unchanged sheet once (R3.2), and every
        # submission measured here must be a durable write.
        texts = {
            seat: list(
                dict.fromkeys(
                    greedy_orders(state, _colour(state, seat), random.Random(f"{SEED}:{seat}:{n}"))
                    for n in range(VARIANTS)
                )
            )
            for seat in seats
        }
        for variants in texts.values():
            if len(variants) < 2:  # one greedy sheet only: alternate it with the empty sheet
                variants.append("")
        lines = statistics.mean(len(t.splitlines()) for v in texts.values() for t in v)
        latencies = []
        first_seq = table.seq
        start = time.perf_counter()
        for number in range(submissions):
            seat = seats[number % len(seats)]
            text = texts[seat][(number // len(seats)) % len(texts[seat])]
            t0 = time.perf_counter()
            service.submit(table_id, seat, text, request_id=f"bench-{run}-{number}")
            latencies.append(time.perf_counter() - t0)
        wall = time.perf_counter() - start
        logged = storage.connection.execute(
            "SELECT COUNT(*) FROM log WHERE kind = 'submit' AND seq > ?", (first_seq,)
        ).fetchone()[0]
        if logged != submissions:
            raise RuntimeError(f"{logged} of {submissions} submissions reached the log")
        return {
            "submissions": submissions,
            "wall_s": wall,
            "per_second": submissions / wall if wall > 0 else float("inf"),
            "latency_median_ms": statistics.median(latencies) * 1000,
            "latency_p99_ms": _percentile(latencies, 0.99) * 1000,
            "latency_max_ms": max(latencies) * 1000,
            "turn": table.turn,
            "seats": len(seats),
            "units": len(state.units),
            "order_lines_mean": lines,
            "synchronous": _synchronous(storage),
            "journal_mode": _journal(storage),
        }


def bench_submissions(
    *, submissions: int = SUBMISSIONS, runs: int = RUNS, folder: Path | None = None
) -> dict[str, Any]:
    """Durable submissions per second (see the module docstring); median of ``runs``."""
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=folder) as tmp:
        results = [_one_submission_run(Path(tmp), submissions, run) for run in range(runs)]
    rates = [r["per_second"] for r in results]
    median = statistics.median(rates)
    middle = min(results, key=lambda r: abs(r["per_second"] - median))
    return {
        "runs": results,
        "per_second_median": median,
        "per_second_each": rates,
        "latency_median_ms": middle["latency_median_ms"],
        "latency_p99_ms": middle["latency_p99_ms"],
        "synchronous": middle["synchronous"],
        "journal_mode": middle["journal_mode"],
        "table": {
            "seats": middle["seats"],
            "turn": middle["turn"],
            "units": middle["units"],
            "order_lines_mean": middle["order_lines_mean"],
        },
    }


# b) Recovery -------------------------------------------------------------------------------------


def build_long_table(path: Path, turns: int, *, seed: int = SEED) -> dict[str, Any]:
    """Play ``turns`` turns of an 8-seat game into ``path``, leave it in the command phase of
    the turn after, half its seats having submitted, and close it. While building, SQLite
    skips the fsync (``synchronous=OFF``) to save time; what ends up in the file is the same."""
    storage = Storage(path)
    storage.connection.execute("PRAGMA synchronous=OFF")
    rng = random.Random(seed)
    start = time.perf_counter()
    with TableService(storage, clock=FakeClock(START)) as service:
        table_id = seat_table(service, seed=seed)
        table = play_until(service, table_id, rng, lambda t: t.turn > turns and t.stage is COMMAND)
        if table.stage is not COMMAND:
            raise RuntimeError(f"the game ended on turn {table.turn}; change SEED")
        state: State = table.require_session().state  # type: ignore[attr-defined]
        owing = sorted(table.require_session().owing())
        for seat in owing[: len(owing) // 2]:
            text = greedy_orders(state, _colour(state, seat), rng)
            service.submit(table_id, seat, text, request_id=f"{table.turn}-pending-{seat}")
        db = storage.connection
        counts = {
            name: db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            for name in ("log", "snapshots", "steps")
        }
        (after,) = db.execute(
            "SELECT COUNT(*) FROM log WHERE seq > (SELECT MAX(seq) FROM snapshots)"
        ).fetchone()
        (last,) = db.execute("SELECT MAX(at) FROM log").fetchone()
        info = {
            "table_id": table_id,
            "turns_played": table.turn - 1,
            "units": len(state.units),
            "empires": len(state.active_colours),
            "entries": counts["log"],
            "snapshots": counts["snapshots"],
            "steps": counts["steps"],
            "entries_after_snapshot": after,
            "last_at": last,
            "export": service.export(table_id),
        }
    info["build_s"] = time.perf_counter() - start
    info["bytes"] = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    return info


def _time(fn: Callable[[], object], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def bench_recovery(
    *, turns: int = RECOVERY_TURNS, openings: int = OPENINGS, folder: Path | None = None
) -> dict[str, Any]:
    """Time to reopen a long table (see the module docstring); median of ``openings``."""
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=folder) as tmp:
        path = Path(tmp) / "recovery.db"
        info = build_long_table(path, turns)
        export = info.pop("export")
        table_id = info["table_id"]

        opening = []
        for _ in range(openings):
            t0 = time.perf_counter()
            service = TableService(Storage(path), clock=FakeClock(info["last_at"]))
            opening.append(time.perf_counter() - t0)
            try:
                if service.export(table_id) != export:
                    raise RuntimeError("the reopened table's record differs from the live one")
            finally:
                service.close()

        def from_log() -> Table:
            """The table rebuilt from every entry of its log, no snapshot used."""
            storage = Storage(path)
            try:
                first, *rest = storage.entries(table_id)
            finally:
                storage.close()
            data = first.data
            setup = LocalClusterSetup.from_dict(data["setup"])
            table = Table(data["id"], data["name"], setup, data["host_hash"], first.at)
            table.seq = 1
            for entry in rest:
                table.apply(entry)
            return table

        rebuilt = from_log()
        if rebuilt.require_session().record_json() != export:
            raise RuntimeError("rebuilding from the whole log gave another game record")
        whole_log = _time(from_log, openings)
        replay = _time(lambda: GameRecord.from_json(export).replay(), openings)
    median = statistics.median(opening)
    return {
        "table": info,
        "open_s_each": opening,
        "open_s_median": median,
        "whole_log_s_each": whole_log,
        "whole_log_s_median": statistics.median(whole_log),
        "record_replay_s_each": replay,
        "record_replay_s_median": statistics.median(replay),
    }


# Report --------------------------------------------------------------------------------------


def run(*, quick: bool = False, folder: Path | None = None) -> dict[str, Any]:
    """Both benchmarks with the machine and date; ``quick`` is a smoke run."""
    machine = machine_info()
    submissions = bench_submissions(
        submissions=QUICK_SUBMISSIONS if quick else SUBMISSIONS, folder=folder
    )
    recovery = bench_recovery(
        turns=QUICK_RECOVERY_TURNS if quick else RECOVERY_TURNS, folder=folder
    )
    rate = submissions["per_second_median"]
    opened = recovery["open_s_median"]
    return {
        "suite": "table-service",
        "quick": quick,
        "machine": machine,
        "submissions": submissions,
        "recovery": recovery,
        "targets": {
            "submissions_per_second": {
                "target": TARGET_SUBMISSIONS_PER_SECOND,
                "measured": rate,
                "passed": rate >= TARGET_SUBMISSIONS_PER_SECOND,
            },
            "recovery_seconds": {
                "target": TARGET_RECOVERY_SECONDS,
                "measured": opened,
                "passed": opened < TARGET_RECOVERY_SECONDS,
            },
        },
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def format_report(results: dict[str, Any]) -> str:
    """The results as text, in the manner of the rules-core report."""
    m = results["machine"]
    sub = results["submissions"]
    rec = results["recovery"]
    info = rec["table"]
    table = sub["table"]
    targets = results["targets"]
    rate = targets["submissions_per_second"]
    recovery = targets["recovery_seconds"]
    runs = sub["runs"]
    lines = [
        *header("table service", m, quick=results["quick"]),
        "",
        f"a) durable submissions: {runs[0]['submissions']} order sheets per run, "
        f"{table['seats']}-seat table in the command phase of turn {table['turn']} "
        f"({table['units']} units, {table['order_lines_mean']:.1f} lines per sheet), "
        f"SQLite {sub['journal_mode']}, synchronous={sub['synchronous']}",
        "   runs:     "
        + ", ".join(f"{r['per_second']:.0f}/s" for r in runs)
        + f"  -> median {sub['per_second_median']:.0f} submissions/s",
        f"   latency:  median {sub['latency_median_ms']:.2f} ms, "
        f"p99 {sub['latency_p99_ms']:.2f} ms (median run)",
        "",
        f"b) recovery: {info['turns_played']} turns played by {PLAYERS} seats "
        f"({info['empires']} empires left, {info['units']} units), stopped in the command "
        f"phase of turn {info['turns_played'] + 1}",
        f"   database: {info['bytes'] / 2**20:.1f} MiB; {info['entries']} log entries, "
        f"{info['snapshots']} snapshots, {info['steps']} game steps; "
        f"{info['entries_after_snapshot']} entries after the latest snapshot",
        "   open (TableService(Storage(path))):   "
        + ", ".join(_ms(s) for s in rec["open_s_each"])
        + f"  -> median {_ms(rec['open_s_median'])}",
        "   rebuild from the whole log, no snapshot: " + f"median {_ms(rec['whole_log_s_median'])}",
        "   GameRecord.from_json(export).replay(): "
        + f"median {_ms(rec['record_replay_s_median'])}",
        "",
        f"c) targets: >= {rate['target']:.0f} submissions/s: "
        f"{'PASS' if rate['passed'] else 'FAIL'} (measured {rate['measured']:.0f}/s); "
        f"recovery < {recovery['target']:.0f} s: "
        f"{'PASS' if recovery['passed'] else 'FAIL'} (measured {_ms(recovery['measured'])})",
    ]
    if results["quick"]:
        lines.append("   (quick run: a small table and few submissions; run without --quick)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.service",
        description="Benchmarks of the table service.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
