"""Smoke test of the vision benchmarks: the quick mode runs and reports; no timing or
accuracy figure is asserted (see docs/benchmarks.md for those)."""

from __future__ import annotations

import io
import json

from benchmarks.vision import format_report, main, run


def test_quick_run_reports_accuracy_and_speed() -> None:
    results = run(quick=True)
    assert results["suite"] == "vision"
    assert results["accuracy"]["boards"] == 3
    assert results["accuracy"]["slots_visible"] > 0
    assert results["speed"]["still"]["width"] == 4608
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    assert "speed 1080p" in format_report(results)
    json.dumps(results)


def test_main_prints_text() -> None:
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert "accuracy over 3 rendered boards" in out.getvalue()
