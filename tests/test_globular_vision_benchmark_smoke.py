"""Smoke test of the Globular Cluster vision benchmark: the quick mode runs and reports; no
figure is asserted but the one the reader must never break: nothing confidently wrong."""

from __future__ import annotations

import io
import json
from typing import Any

from benchmarks import globular_vision
from benchmarks.globular_vision import format_report, main, run


def test_quick_run_reports_accuracy_and_speed(stand_in: Any) -> None:
    """One quick run read, and the command line's printing of it (the run stood in for, so
    its pictures are not drawn and read twice)."""
    results = json.loads(json.dumps(run(quick=True)))
    assert results["suite"] == "globular-vision"
    for name in ("1080p", "720p"):
        counts = results["accuracy"][name]
        assert counts["boards"] == 2 and counts["right"] > 0
    assert results["targets"]["confidently_wrong"]["measured"] == 0
    report = format_report(results)
    assert "a) 1080p" in report and "b) speed 1920x1080" in report
    asked = stand_in(globular_vision, results)
    out = io.StringIO()
    assert main(["--quick", "--json"], out=out) == 0
    assert json.loads(out.getvalue()) == results and asked == [{"quick": True}]
    out = io.StringIO()
    assert main([], out=out) == 0
    assert out.getvalue() == report + "\n" and asked[-1] == {"quick": False}
