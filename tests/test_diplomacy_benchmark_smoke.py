"""Smoke test of the Diplomacy engine benchmarks: the quick mode runs and reports; no timing is
asserted (see docs/benchmarks.md for the figures)."""

from __future__ import annotations

import io
import json

from benchmarks.diplomacy import format_report, main, run


def test_quick_run_reports_both_benchmarks() -> None:
    results = run(quick=True)
    assert results["suite"] == "diplomacy"
    assert results["movement"]["units"] == 22
    assert results["movement"]["median_s"] > 0
    assert results["datc"]["cases"] == 171
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "target <= 0.2 ms median" in report and "target < 2 s" in report
    json.dumps(results)


def test_main_prints_text() -> None:
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert "movement phase, standard map, 22 units" in out.getvalue()
