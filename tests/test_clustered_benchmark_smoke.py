"""Smoke test of the Clustered vision benchmark: the quick mode runs and reports; no figure is
asserted but the one the reader must never break: nothing confidently wrong."""

from __future__ import annotations

import io
import json
from typing import Any

from benchmarks import clustered_vision
from benchmarks.clustered_vision import format_report, main, run


def test_quick_run_reports_accuracy_and_speed(stand_in: Any) -> None:
    """One quick run read, and the command line's printing of it (the run stood in for, so
    its pictures are not drawn and read twice)."""
    results = json.loads(json.dumps(run(quick=True)))
    assert results["suite"] == "clustered-vision"
    assert results["accuracy"]["kit_1080p"]["boards"] == 1
    assert results["accuracy"]["kit_1080p"]["found"] > 0
    patterned = results["accuracy"]["kit_1080p_patterned"]  # the same boards, on a busy cloth
    assert (
        patterned["boards"] == 1 and patterned["cards"] == results["accuracy"]["kit_1080p"]["cards"]
    )
    assert results["targets"]["confidently_wrong"]["measured"] == 0
    report = format_report(results)
    assert "a) kit_1080p" in report and "b) speed kit_1080p" in report
    asked = stand_in(clustered_vision, results)
    out = io.StringIO()
    assert main(["--quick", "--json"], out=out) == 0
    assert json.loads(out.getvalue()) == results and asked == [{"quick": True}]
    out = io.StringIO()
    assert main([], out=out) == 0
    assert out.getvalue() == report + "\n" and asked[-1] == {"quick": False}
