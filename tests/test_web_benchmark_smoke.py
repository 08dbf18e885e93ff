"""Smoke test of the web benchmark: the quick mode drives a real ``companion serve`` with its
live streams, in both series, and reports; no timing is asserted (see docs/benchmarks.md for
the figures)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from benchmarks import web as web_benchmark
from benchmarks.web import format_report, main, run


def test_quick_run_reports_both_series(tmp_path: Path, stand_in: Any) -> None:
    results = run(quick=True, folder=tmp_path)
    assert results["suite"] == "web" and results["quick"] is True
    seats, crowd = results["series"]["seats"], results["series"]["crowd"]
    for series in (seats, crowd):
        assert series["unanswered"] == 0 and series["answered"] == series["submissions"] == 24
        assert 0 < series["latency_p50_ms"] <= series["latency_p99_ms"] <= series["latency_max_ms"]
    assert seats["streams_open"] == 8
    assert crowd["streams_asked"] == 208 and crowd["streams_open"] == 36
    assert isinstance(results["targets"]["p99_ms"]["passed"], bool)
    report = format_report(results)
    assert "p99 < 50 ms and 0 unanswered in both" in report and "series crowd" in report
    json.dumps(results)
    assert list(tmp_path.iterdir()) == [], "the temporary database is removed"
    # The command prints the report of what it ran (stood in for: the site is driven once).
    stand_in(web_benchmark, results)
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert out.getvalue() == report + "\n"
    assert "order submissions to a real 'companion serve' over HTTP" in report
