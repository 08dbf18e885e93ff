"""Smoke test of the vision benchmarks: the quick mode runs and reports; no timing or
accuracy figure is asserted (see docs/benchmarks.md for those)."""

from __future__ import annotations

import io
import json

from benchmarks.vision import format_report, main, run


def test_quick_run_reports_accuracy_and_speed() -> None:
    results = run(quick=True)
    out = io.StringIO()
    assert results["suite"] == "vision"
    assert results["accuracy"]["boards"] == 2
    assert results["accuracy"]["slots_visible"] > 0
    assert results["speed"]["still"]["median_ms"] > 0
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "speed 1080p" in report and "accuracy over 2 rendered boards" in report
    json.dumps(results)
    assert main(["--quick", "--json"], out=out) == 0
    assert json.loads(out.getvalue())["suite"] == "vision"
