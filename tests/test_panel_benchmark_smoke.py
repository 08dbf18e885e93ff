"""Smoke test of the panel benchmarks: the quick mode runs and reports; no timing is asserted
(see docs/benchmarks.md for the figures)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from benchmarks.panels import format_report, main, run


def test_quick_run_reports_both_benchmarks(tmp_path: Path) -> None:
    results = run(quick=True, folder=tmp_path)
    assert results["suite"] == "panels"
    assert results["gpio"]["presses"] == 20
    assert results["gpio"]["median_ms"] > 0
    assert results["serial"]["lines"] == 500
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "press to lights shown" in report and "lines/s" in report
    json.dumps(results)
    assert list(tmp_path.iterdir()) == [], "the temporary databases are removed"


def test_main_prints_text() -> None:
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert "serial panel" in out.getvalue()
