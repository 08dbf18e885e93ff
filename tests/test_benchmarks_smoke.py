"""Smoke test of the benchmarks: the quick mode runs and reports; no timing is asserted."""

from __future__ import annotations

import io
import json
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import benchmarks.cluster_peg
import benchmarks.cluster_vision
import benchmarks.clustered_vision
import benchmarks.diplomacy
import benchmarks.globular
import benchmarks.globular_vision
import benchmarks.panels
import benchmarks.service
import benchmarks.vision
import benchmarks.vision_kit_renders
import benchmarks.web
from benchmarks.machine import cpu_model, header, library_versions, machine_info
from benchmarks.rules_core import busy_position, mixed_orders
from benchmarks.runner import format_report, main, run
from companion.local_cluster.adjudication import adjudicate
from companion.local_cluster.orders import OrderKind
from companion.local_cluster.outcomes import OutcomeStatus


def test_quick_run_reports_every_benchmark() -> None:
    results = run(quick=True)
    assert results["quick"] is True
    assert set(results) >= {"machine", "adjudication", "full_game", "target"}
    timings = results["adjudication"]["timings"]
    assert set(timings) == {"preparsed", "with_parsing", "game_play"}
    assert all(t["per_second"] > 0 for t in timings.values())
    assert results["full_game"]["turns_played"] > 0
    assert isinstance(results["target"]["passed"], bool)
    report = format_report(results)
    assert "target: >= 2000 turns/s" in report
    assert ("PASS" in report) != ("FAIL" in report)
    json.dumps(results)  # what --json prints


def test_busy_position_orders_cover_every_kind_and_none_is_void() -> None:
    position = busy_position()
    state = position.state
    assert len(state.galaxy.ids) == 48
    assert len(state.active_colours) == 8
    assert len(state.units) >= 40
    assert state.craft, "some carrier has strike craft deployed"
    sheets = mixed_orders(state, position.seed)
    assert {o.kind for sheet in sheets.values() for o in sheet.orders} == set(OrderKind)
    ordered = {o.sector for sheet in sheets.values() for o in sheet.orders}
    assert ordered == {u.sector for u in state.units}, "every unit has an order"
    result = adjudicate(state, sheets)
    assert not [o for o in result.outcomes if o.status is OutcomeStatus.VOID]


def test_main_prints_json_and_text() -> None:
    out = io.StringIO()
    assert main(["--quick", "--json"], out=out) == 0
    assert json.loads(out.getvalue())["suite"] == "rules-core"
    text = io.StringIO()
    assert main(["--quick"], out=text) == 0
    assert "turns/s" in text.getvalue()


def test_python_dash_m_benchmarks_carries_every_part_under_its_name(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stand_in: Callable[[Any, dict[str, Any]], list[dict[str, Any]]],
) -> None:
    """``python -m benchmarks --quick --json`` as ``make bench`` runs it, each part stood in
    for: every part's quick run is checked by its own smoke test, so they are not run twice."""
    parts = {
        "service": (benchmarks.service, "table-service"),
        "panels": (benchmarks.panels, "panels"),
        "web": (benchmarks.web, "web"),
        "diplomacy": (benchmarks.diplomacy, "diplomacy"),
        "vision": (benchmarks.vision, "vision"),
        "vision_kit_renders": (benchmarks.vision_kit_renders, "vision-kit-renders"),
        "globular": (benchmarks.globular, "globular"),
        "globular_vision": (benchmarks.globular_vision, "globular-vision"),
        "cluster": (benchmarks.cluster_peg, "cluster"),
        "cluster-vision": (benchmarks.cluster_vision, "cluster-vision"),
        "clustered_vision": (benchmarks.clustered_vision, "clustered-vision"),
    }
    asked = [stand_in(module, {"suite": suite}) for module, suite in parts.values()]
    monkeypatch.setattr(sys, "argv", ["benchmarks", "--quick", "--json"])
    with pytest.raises(SystemExit) as done:
        runpy.run_module("benchmarks", run_name="__main__", alter_sys=True)
    assert done.value.code == 0
    results = json.loads(capsys.readouterr().out)
    assert results["quick"] is True and results["suite"] == "rules-core"
    assert {name: results[name]["suite"] for name in parts} == {
        name: suite for name, (_, suite) in parts.items()
    }
    assert all(options == [{"quick": True}] for options in asked)


def test_machine_info(tmp_path: Path) -> None:
    info = machine_info()
    assert info["python"] and info["cpu_model"] and info["date"]
    fake = tmp_path / "cpuinfo"
    fake.write_text("processor\t: 0\nmodel name\t: Test CPU 9000\n", encoding="utf-8")
    assert cpu_model(fake) == "Test CPU 9000"
    pi = tmp_path / "pi"
    pi.write_text("processor\t: 0\nBogoMIPS\t: 108.00\n\nModel\t: Raspberry Pi 5\n", "utf-8")
    assert cpu_model(pi) == "Raspberry Pi 5"
    assert cpu_model(tmp_path / "missing")


def test_a_report_names_the_opencv_and_numpy_it_ran_on() -> None:
    """The vision figures turn on OpenCV's arithmetic (docs/dependencies.md, "Pinned
    versions"), so every report's header says which OpenCV and numpy it ran with."""
    import cv2
    import numpy

    info = machine_info()
    assert info["libraries"]["opencv-python-headless"].startswith(cv2.__version__)
    assert info["libraries"]["numpy"] == numpy.__version__
    lines = header("vision", info, quick=True)
    assert f"opencv-python-headless {info['libraries']['opencv-python-headless']}" in lines[-1]
    assert library_versions(("no-such-distribution",)) == {"no-such-distribution": "not installed"}
