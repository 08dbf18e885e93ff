"""Smoke test of the Clustered vision benchmark: the quick mode runs and reports; no figure is
asserted but the one the reader must never break: nothing confidently wrong."""

from __future__ import annotations

import io
import json

from benchmarks.clustered_vision import format_report, main, run


def test_quick_run_reports_accuracy_and_speed() -> None:
    results = run(quick=True)
    assert results["suite"] == "clustered-vision"
    assert results["accuracy"]["kit_1080p"]["boards"] == 1
    assert results["accuracy"]["kit_1080p"]["found"] > 0
    assert results["targets"]["confidently_wrong"]["measured"] == 0
    report = format_report(results)
    assert "a) kit_1080p" in report and "b) speed kit_1080p" in report
    json.dumps(results)
    out = io.StringIO()
    assert main(["--quick", "--json"], out=out) == 0
    assert json.loads(out.getvalue())["suite"] == "clustered-vision"
