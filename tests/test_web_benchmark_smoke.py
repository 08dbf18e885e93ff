"""Smoke test of the web benchmark: the quick mode runs a real server with its live streams
and reports; no timing is asserted (see docs/benchmarks.md for the figures)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from benchmarks.web import format_report, main, run


def test_quick_run_reports_the_submission_latency(tmp_path: Path) -> None:
    results = run(quick=True, folder=tmp_path)
    assert results["suite"] == "web" and results["quick"] is True
    assert results["seats"] == 8 and results["streams"] == {"seats": 8, "table": 20}
    assert 0 < results["latency_p50_ms"] <= results["latency_p99_ms"] <= results["latency_max_ms"]
    assert isinstance(results["targets"]["p99_ms"]["passed"], bool)
    assert "p99 < 50 ms" in format_report(results)
    json.dumps(results)
    assert list(tmp_path.iterdir()) == [], "the temporary database is removed"


def test_main_prints_text() -> None:
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert "order submissions over HTTP" in out.getvalue()
