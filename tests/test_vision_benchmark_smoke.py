"""Smoke test of the vision benchmarks: the quick mode runs and reports; no timing or
accuracy figure is asserted (see docs/benchmarks.md for those)."""

from __future__ import annotations

import io
import json

from benchmarks.vision import boards, format_report, main, run


def test_quick_run_reports_accuracy_and_speed() -> None:
    results = run(quick=True)
    out = io.StringIO()
    assert results["suite"] == "vision"
    assert results["accuracy"]["pictures"] == 2
    assert sum(b["slots_visible"] for b in results["accuracy"]["bands"].values()) > 0
    assert results["speed"]["still"]["median_ms"] > 0
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "speed 1080p" in report and "accuracy over 2 rendered pictures" in report
    json.dumps(results)
    assert main(["--quick", "--json", "--seed", "7"], out=out) == 0
    printed = json.loads(out.getvalue())
    assert printed["suite"] == "vision"
    assert printed["accuracy"]["seed"] == 7 and results["accuracy"]["seed"] == 2026


def test_the_benchmark_draws_the_same_pictures_every_time() -> None:
    assert boards(5) == boards(5)
    assert boards(5) != boards(5, seed=7)
