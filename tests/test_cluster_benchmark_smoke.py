"""Smoke test of Cluster's benchmarks: the quick mode runs and reports; no figure is asserted
(docs/benchmarks.md has them)."""

from __future__ import annotations

import io
import json

from benchmarks import cluster_peg
from benchmarks.cluster_peg import format_report, main, play_task, run, sample_positions


def test_quick_run_reports_every_part(stand_in):
    """One quick run read, then the command line's options passed to it and its results
    printed (the run stood in for, so the games are not played twice)."""
    results = run(quick=True, jobs=1)
    assert results["suite"] == "cluster" and results["quick"] is True
    assert results["movegen"]["moves_per_second"] > 0
    assert results["movegen"]["perft"]["64B"]["perft3"] == 183080
    matches = results["matches"]["results"]
    assert set(matches) == {
        f"{kind}/{setup}/{colour}"
        for kind in ("random", "greedy")
        for setup in ("64B", "46")
        for colour in ("red", "blue")
    }
    assert all(m["games"] == 1 and isinstance(m["passed"], bool) for m in matches.values())
    assert set(results["self_play"]["results"]) == {
        "64A",
        "64B",
        "46",
        "64A/swap",
        "64B/swap",
        "46/swap",
    }
    blocks = results["race_blocks"]["results"]
    assert set(blocks) == {"46", "64A"}
    assert all(b["games"] == 1 and b["blue_turns"] > 0 for b in blocks.values())
    report = format_report(results)
    assert "moves/s" in report and "first mover won" in report and "target >= 99" in report
    assert "e) blocks against greedy Red's perfect races" in report
    knowing = results["knowing_greedy"]
    assert knowing["games"] == 1 and knowing["depth"] == 1
    assert knowing["blue_wins"] + len(knowing["not_won"]) == 1
    assert "f) a Blue that knows the greedy player's rule" in report
    json.dumps(results)
    asked = stand_in(cluster_peg, results)
    out = io.StringIO()
    assert main(["--quick", "--jobs", "1"], out=out) == 0
    assert "Cluster (peg game)" in out.getvalue()
    assert main(["--games", "3", "--seconds", "0.5"], out=io.StringIO()) == 0
    assert asked[-1] == {"quick": False, "jobs": 2, "games": 3, "seconds": 0.5, "knowing": 0}
    assert main(["--knowing", "40"], out=io.StringIO()) == 0
    assert asked[-1]["knowing"] == 40
    out = io.StringIO()
    assert main(["--quick", "--json"], out=out) == 0
    assert json.loads(out.getvalue())["suite"] == "cluster"


def test_a_game_task_reports_who_won_as_players():
    game = play_task(("random", "46", "blue", 3, False, 0.05))
    assert game["bot"] == "blue" and game["moves"] > 0
    assert game["bot_won"] == (game["winner"] == "blue")
    assert all(t >= 0 for t in game["move_times"])


def test_sample_positions_are_repeatable():
    assert [p.text() for p in sample_positions(6)] == [p.text() for p in sample_positions(6)]


def test_the_camera_benchmark_quick_run_reports_accuracy_and_speed(stand_in):
    from benchmarks import cluster_vision

    results = cluster_vision.run(quick=True)
    accuracy = results["accuracy"]
    assert (
        results["suite"] == "cluster-vision" and accuracy["boards"] == cluster_vision.QUICK_BOARDS
    )
    assert accuracy["moves"] + accuracy["impossible"] + accuracy["failed"] == accuracy["boards"]
    assert accuracy["visible"] > 0 and results["speed"]["median_s"] > 0
    report = cluster_vision.format_report(results)
    assert "confidently wrong:" in report and "reading a 1920x1080 picture" in report
    # The command prints what it ran (stood in for: the pictures are read once).
    asked = stand_in(cluster_vision, results)
    out = io.StringIO()
    assert cluster_vision.main(["--quick", "--json"], out) == 0
    assert json.loads(out.getvalue()) == json.loads(json.dumps(results))
    assert asked == [{"quick": True}]


def test_the_camera_benchmarks_lamps_run_lights_every_highlight_from_another_lamp():
    from benchmarks import cluster_vision

    out = io.StringIO()
    assert cluster_vision.main(["--quick", "--lamps"], out) == 0
    assert "every highlight from a lamp of another colour" in out.getvalue()
    out = io.StringIO()
    assert cluster_vision.main(["--quick", "--json", "--lamps"], out) == 0
    assert json.loads(out.getvalue())["lamps"] is True


def test_the_camera_benchmarks_kit_renders_run_reads_pictures_drawn_apart_from_the_reader():
    from benchmarks import cluster_vision

    out = io.StringIO()
    assert cluster_vision.main(["--quick", "--json", "--kit-renders"], out) == 0
    results = json.loads(out.getvalue())
    assert results["kit_renders"] is True and results["accuracy"]["visible"] > 0
    assert "apart from the reader" in cluster_vision.format_report(results)


def test_a_shortened_run_says_its_games_and_time_per_move():
    from benchmarks.cluster_peg import bench_matches

    results = bench_matches(jobs=1, games=1, seconds=0.02)
    assert results["games_each"] == 1 and results["seconds_per_move"] == 0.02
    assert all(m["games"] == 1 for m in results["results"].values())
