"""Smoke test of the vision benchmarks: the quick mode runs and reports; no timing or
accuracy figure is asserted (see docs/benchmarks.md for those)."""

from __future__ import annotations

import io
import json
import random
from collections import Counter

import pytest

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
from benchmarks.vision_priors import run as run_moved_priors
from vision.local_cluster.recognize import TilePose
from vision.local_cluster.synthetic import sample_state


def test_quick_run_reports_accuracy_and_speed() -> None:
    results = run(quick=True)
    out = io.StringIO()
    assert results["suite"] == "vision"
    assert results["accuracy"]["pictures"] == 2
    assert sum(b["slots_visible"] for b in results["accuracy"]["bands"].values()) > 0
    assert results["speed"]["still"]["median_ms"] > 0
    assert all(isinstance(t["passed"], bool) for t in results["targets"].values())
    report = format_report(results)
    assert "speed 1080p" in report and "accuracy over 2 rendered pictures" in report
    json.dumps(results)
    assert main(["--quick", "--json", "--seed", "7"], out=out) == 0
    printed = json.loads(out.getvalue())
    assert printed["suite"] == "vision"
    assert printed["accuracy"]["seed"] == 7 and results["accuracy"]["seed"] == 2026


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


def test_the_moved_prior_check_runs_and_reports() -> None:
    """Picture 0 of the benchmark hides tiles, and so does its harsher draw with hands: their
    priors are moved and turned 24 ways. No figure is asserted (docs/benchmarks.md keeps
    them)."""
    results = run_moved_priors(1)
    assert results["readings"] == 24 and results["harsher"] is None
    assert isinstance(results["targets"]["wrong"]["passed"], bool)
    assert "priors of hidden tiles moved and turned" in format_moved_priors(results)
    out = io.StringIO()
    assert moved_priors_main(["--boards", "1", "--harsher", "hands", "--json"], out=out) == 0
    printed = json.loads(out.getvalue())
    assert printed["readings"] == 24 and printed["harsher"] == "hands"
    assert "harsher: hands" in format_moved_priors(printed)


def test_the_lamps_set_lights_every_highlight_from_a_lamp_of_another_colour() -> None:
    """``--harsher lamps``: a warm desk lamp's highlight over a daylit table, or a daylight
    lamp's over a warmly lit one, on every picture."""
    for board in boards(12, seed=53, harsh="lamps"):
        lamp = board.conditions.glare_kelvin
        assert board.conditions.glare >= 1 and lamp is not None
        assert abs(lamp - board.conditions.kelvin) > 1300
