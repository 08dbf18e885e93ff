"""Smoke test of the vision benchmarks: the quick mode runs and reports; no timing or
accuracy figure is asserted (see docs/benchmarks.md for those)."""

from __future__ import annotations

import io
import json
import random

from benchmarks.vision import CRAFT_EACH, CRAFT_SLOTS, boards, deployed, format_report, main, run
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
