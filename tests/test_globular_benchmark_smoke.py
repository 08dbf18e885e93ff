"""Smoke test of the Globular Cluster benchmarks: the quick mode runs and reports; no timing is
asserted (see docs/benchmarks.md for the figures)."""

from __future__ import annotations

import io
import json

from benchmarks.globular import format_report, late_game, main, run


def test_the_late_game_is_late_and_its_draft_is_playable() -> None:
    late = late_game()
    state = late.game.state
    assert len(state.stack) <= 4 and len(state.board) > 20
    assert late.draft[0].startswith("place ") and len(late.draft) == 7


def test_quick_run_reports_the_three_benchmarks() -> None:
    results = run(quick=True)
    assert results["suite"] == "globular"
    assert results["preview"]["preview"]["median_s"] > 0
    assert len(results["scoring"]["scores"]) == 4
    assert results["replay"]["turns"] > 30
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "preview (session.preview)" in report and "scoring round" in report
    json.dumps(results)


def test_main_prints_text() -> None:
    out = io.StringIO()
    assert main(["--quick"], out=out) == 0
    assert "replaying a whole game" in out.getvalue()
