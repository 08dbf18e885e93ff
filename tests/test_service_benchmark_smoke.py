"""Smoke test of the table-service benchmarks: the quick mode runs and reports; no timing is
asserted (see docs/benchmarks.md for the figures)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks import service as service_benchmark
from benchmarks.service import format_report, main, run

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_reports_both_benchmarks(tmp_path: Path, stand_in: Any) -> None:
    results = run(quick=True, folder=tmp_path)
    assert results["suite"] == "table-service"
    assert results["quick"] is True
    submissions = results["submissions"]
    assert len(submissions["runs"]) == 3
    assert all(r["per_second"] > 0 for r in submissions["runs"])
    assert submissions["synchronous"] == "FULL"
    assert submissions["journal_mode"] == "WAL"
    assert submissions["table"]["seats"] == 8
    recovery = results["recovery"]
    table = recovery["table"]
    assert table["turns_played"] == 20
    assert table["snapshots"] >= 20
    assert table["entries_after_snapshot"] > 0
    assert recovery["open_s_median"] > 0
    assert recovery["whole_log_s_median"] > 0
    assert recovery["record_replay_s_median"] > 0
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "table service" in report
    assert ">= 500 submissions/s" in report and "recovery < 1 s" in report
    json.dumps(results)  # what --json prints
    assert list(tmp_path.iterdir()) == [], "the temporary databases are removed"
    # The command prints the report of what it ran (stood in for: the table is played once).
    stand_in(service_benchmark, results)
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert out.getvalue() == report + "\n"


def test_python_dash_m_benchmarks_service_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.service", "--quick", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["suite"] == "table-service"
