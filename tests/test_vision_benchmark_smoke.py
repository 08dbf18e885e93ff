"""Smoke test of the vision benchmarks: the quick mode runs and reports; no timing or
accuracy figure is asserted (see docs/benchmarks.md for those)."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from typing import Any

import pytest

from benchmarks import vision as vision_benchmark
from benchmarks import vision_priors
from benchmarks.vision import (
    CRAFT_EACH,
    CRAFT_SLOTS,
    DARK_CRAFT,
    boards,
    dark_craft,
    deployed,
    format_report,
    main,
    run,
)
from benchmarks.vision_priors import format_report as format_moved_priors
from benchmarks.vision_priors import main as moved_priors_main
from benchmarks.vision_priors import moved
from vision.local_cluster.recognize import TilePose
from vision.local_cluster.synthetic import sample_state


def test_quick_run_reports_accuracy_and_speed(stand_in: Any) -> None:
    """One quick run read, and the command line's options passed to it and its results
    printed (the run stood in for, so its pictures are not drawn and read twice)."""
    results = json.loads(json.dumps(run(quick=True)))
    assert results["suite"] == "vision" and results["accuracy"]["seed"] == 2026
    assert results["accuracy"]["pictures"] == 2
    assert sum(b["slots_visible"] for b in results["accuracy"]["bands"].values()) > 0
    assert results["speed"]["still"]["median_ms"] > 0
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "speed 1080p" in report and "accuracy over 2 rendered pictures" in report
    asked = stand_in(vision_benchmark, results)
    out = io.StringIO()
    assert main(["--quick", "--json", "--seed", "7"], out=out) == 0
    assert json.loads(out.getvalue()) == results
    assert asked[-1]["quick"] is True and asked[-1]["seed"] == 7
    out = io.StringIO()
    assert main(["--harsher", "lamps", "--dark-craft"], out=out) == 0
    assert out.getvalue() == report + "\n"
    assert asked[-1]["quick"] is False and asked[-1]["seed"] == 2026
    assert asked[-1]["harsh"] == "lamps" and asked[-1]["dark"] is True


def test_the_benchmark_draws_the_same_pictures_every_time() -> None:
    assert boards(5) == boards(5)
    assert boards(5) != boards(5, seed=7)


def test_the_benchmarks_tables_carry_legal_strike_craft() -> None:
    """A table later in the game than the few turns drawn (they deploy hardly any craft):
    one to four more a player, each owned by a carrier of its colour with room (R4.4), in
    or beside the carrier's sector and in none holding another colour (R4.5); the
    position is checked as any state is. The same every time."""
    for board in boards(12):
        state = sample_state(board.state_seed, board.players)
        assert board.players <= board.craft <= CRAFT_EACH * board.players
        more = deployed(state, board.craft, random.Random(board.index))
        assert more == deployed(state, board.craft, random.Random(board.index))
        added = len(more.craft) - len(state.craft)
        assert board.players <= added <= board.craft
        more.check()
        for craft in more.craft:
            carrier = more.unit_by_id[craft.carrier]
            assert craft.sector == carrier.sector or more.galaxy.adjacent(
                craft.sector, carrier.sector
            )
        for sector in more.galaxy.ids:
            assert sum(c.sector == sector for c in more.craft) <= CRAFT_SLOTS


def test_the_dark_craft_check_puts_three_to_six_dark_craft_on_every_tile() -> None:
    state = sample_state(3, 4)
    dark = dark_craft(state, random.Random(1))
    on_tile = Counter(c.sector for c in dark.craft)
    assert set(on_tile) == set(state.galaxy.ids)
    assert all(3 <= n <= CRAFT_SLOTS for n in on_tile.values())
    assert {c.owner for c in dark.craft} <= set(DARK_CRAFT)
    assert dark_craft(state, random.Random(1)) == dark
    assert all(b.dark for b in boards(3, dark=True)) and not any(b.dark for b in boards(3))


def test_a_prior_is_moved_along_the_tiles_own_axes() -> None:
    pose = TilePose("S1", (10.0, 20.0), 90.0)
    there = moved(pose, 20.0, 0.0, 0.0)
    assert there.centre == pytest.approx((10.0, 40.0)) and there.angle == 90.0
    assert moved(pose, 0.0, 0.0, 5.0).angle == 95.0


def test_the_moved_prior_check_runs_and_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    """Picture 0 of the benchmark hides tiles, and so does its harsher draw with hands: their
    priors are moved and turned 24 ways. No figure is asserted (docs/benchmarks.md keeps
    them)."""
    out = io.StringIO()
    assert moved_priors_main(["--boards", "1", "--harsher", "hands", "--json"], out=out) == 0
    printed = json.loads(out.getvalue())
    assert printed["readings"] == 24 and printed["harsher"] == "hands"
    assert isinstance(printed["targets"]["wrong"]["passed"], bool)
    report = format_moved_priors(printed)
    assert "priors of hidden tiles moved and turned" in report and "harsher: hands" in report
    asked: list[tuple[Any, ...]] = []

    def moved_and_read(*options: Any) -> dict[str, Any]:
        asked.append(options)
        return printed

    monkeypatch.setattr(vision_priors, "run", moved_and_read)
    out = io.StringIO()
    assert moved_priors_main([], out=out) == 0
    assert out.getvalue() == report + "\n"
    assert asked == [(vision_priors.BOARDS, None, vision_priors.SEED, None)]


def test_the_lamps_set_lights_every_highlight_from_a_lamp_of_another_colour() -> None:
    """``--harsher lamps``: a warm desk lamp's highlight over a daylit table, or a daylight
    lamp's over a warmly lit one, on every picture."""
    for board in boards(12, seed=53, harsh="lamps"):
        lamp = board.conditions.glare_kelvin
        assert board.conditions.glare >= 1 and lamp is not None
        assert abs(lamp - board.conditions.kelvin) > 1300
