"""The ``companion`` command with Globular Cluster records: new, show, play, preview, takeback,
score and replay; errors leave the record untouched."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import Runner

from companion.globular.record import load_record


def first_place(out: str) -> str:
    """The first legal place and corner the output offers for the tile in hand."""
    match = re.search(r"Place the .*?: ([a-m][0-9]+) ([a-z/]+)", out)
    assert match, out
    return f"place {match.group(1)} {match.group(2).split('/')[0]}"


def new(run: Runner, path: Path, *extra: str) -> str:
    done = run("new", path, "--game", "globular-cluster", "--seed", "5", *extra)
    assert done.code == 0, done.err
    return done.out


def test_new_writes_a_record_and_shows_figure_1(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path, "--colours", "green,blue,red")
    assert "green (seat 1), blue (seat 2), red (seat 3); seed 5" in out
    assert "[bka:tr][ MITS ]" in out and "[bkn:tl]" in out
    assert "Turn 1: Green (seat 1), turn, 10 AP left." in out
    data = json.loads(path.read_text())
    assert data["game"] == "globular-cluster"
    assert data["settings"]["colours"] == ["green", "blue", "red"]
    assert len(load_record(path.read_bytes()).state.stack) == 26  # 27 with 3 players, one drawn


def test_new_refuses_a_bad_player_count(run: Runner, tmp_path: Path) -> None:
    done = run("new", tmp_path / "g.json", "--game", "globular-cluster", "--players", "5")
    assert done.code == 2 and "2 to 4 players" in done.err


def test_play_a_turn_then_the_next_players(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path)
    done = run("play", path, first_place(out), "move m7>k7 x2", "mine k7")
    assert done.code == 0, done.err
    assert re.search(r"mine k7 roll [na2-5] +3 AP,  5 left: mined a cache at k7", done.out)
    done = run("play", path, "move k7>l6; end")
    assert done.code == 0, done.err
    assert "turn ended with 4 AP unused" in done.out
    assert "Turn 2: Black (seat 2)" in done.out
    assert run("replay", path).out.startswith("replayed 2 turns (7 lines)")


def test_lines_can_come_from_a_file_or_standard_input(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path)
    done = run("play", path, "--from", "-", stdin=f"{first_place(out)}\nmove m7>k7  # one coin\n")
    assert done.code == 0, done.err
    assert "moved 1 coin m7>k7 for 1 AP" in done.out


def test_a_refused_line_says_why_and_nothing_is_played(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path)
    before = path.read_bytes()
    done = run("play", path, first_place(out), "move m7>l8")
    assert done.code == 2
    assert "nothing was played: line 2 (move m7>l8)" in done.err
    assert "(G2.8)" in done.err
    assert path.read_bytes() == before
    done = run("play", path, "fly away")
    assert done.code == 2 and "'fly' is not a word of the notation" in done.err
    done = run("play", path, first_place(out), "mine k7 roll 4")
    assert done.code == 2 and "(G8.3)" in done.err
    assert path.read_bytes() == before


def test_preview_shows_costs_and_stores_nothing(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path)
    before = path.read_bytes()
    done = run("preview", path, first_place(out), "move m7>k7>l6")
    assert done.code == 0, done.err
    assert "move m7>k7>l6                 2 AP,  8 left" in done.out
    done = run("preview", path, first_place(out), "station k7")
    assert done.code == 1 and "refused: k7 still holds 1 crystal cache" in done.out
    assert path.read_bytes() == before


def test_takeback_within_the_turn_but_not_past_a_mine(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path)
    run("play", path, first_place(out), "move m7>k7", "mine k7")
    run("play", path, "move m7>l6")
    done = run("takeback", path)
    assert done.code == 0 and "Took back: move m7>l6" in done.out
    done = run("takeback", path)
    assert done.code == 2 and "(G8.7)" in done.err


def test_score_shows_the_sheet_and_how_a_round_was_made(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    new(run, path, "--stack", "physical", "--dice", "physical")
    run("play", path, "draw rda", "move m7>k7", "mine k7 roll 5", "end")
    done = run("score", path, "--round", "1")
    assert done.code == 0, done.err
    assert re.search(r"crystals 5 +1 +0", done.out)
    assert re.search(r"VP round 1 +1 +-", done.out)
    assert "Red scored 1 VP:" in done.out
    assert "+ 1 5 crystals: 1 single = 1" in done.out


def test_show_a_past_turn(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = new(run, path)
    run("play", path, first_place(out), "end")
    done = run("show", path, "--turn", "0")
    assert done.code == 0 and "Position after turn 0:" in done.out
    assert run("show", path, "--turn", "9").code == 2
