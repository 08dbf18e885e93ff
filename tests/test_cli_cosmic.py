"""The ``companion`` command with Cosmic Cluster records: new, show, adjudicate, retreat, build,
replay; and ``table create --game cosmic-cluster``. Local Cluster stays the default."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import Runner

from companion.cosmic.record import load_record


def test_new_writes_a_cosmic_record_and_describes_the_cluster(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "cc.json"
    done = run("new", path, "--game", "cosmic-cluster", "--players", "5", "--seed", "3")
    assert done.code == 0, done.err
    assert "New Cosmic Cluster game: 5 powers, seed 3" in done.out
    assert "black hole" in done.out
    data = json.loads(path.read_text())
    assert (data["game"], data["players"], data["seed"]) == ("cosmic-cluster", 5, 3)


def test_new_without_game_is_still_local_cluster(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "lc.json"
    assert run("new", path, "--seed", "3").code == 0
    assert json.loads(path.read_text())["game"] == "local-cluster"


def test_adjudicate_show_and_replay_a_cosmic_game(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "cc.json"
    run("new", path, "--game", "cosmic-cluster", "--players", "3", "--seed", "3")
    home = load_record(path.read_bytes()).cluster.home_of("P1").key
    orders = f"P1: A {home}-1 -> {home}-2\nP2:\nbogus words\n"
    done = run("adjudicate", path, stdin=orders)
    assert done.code == 0, done.err
    assert f"P1: TS2 A {home}-1 -> {home}-2: succeeds (moved to {home}-2)" in done.out
    assert "expected a unit type" in done.out  # the malformed line is reported, and kept
    assert "Fall 4001: waiting for orders" in done.out
    assert run("show", path).code == 0
    replayed = run("replay", path)
    assert replayed.code == 0 and "replayed 1 step; position matches" in replayed.out


def test_an_order_without_its_power_is_refused_and_nothing_is_written(
    run: Runner, tmp_path: Path
) -> None:
    path = tmp_path / "cc.json"
    run("new", path, "--game", "cosmic-cluster", "--players", "3", "--seed", "3")
    before = path.read_bytes()
    done = run("adjudicate", path, stdin="A vega-1 H\n")
    assert done.code == 2
    assert "say whose order it is" in done.err
    assert path.read_bytes() == before


def test_retreat_in_the_wrong_phase_says_what_the_game_waits_for(
    run: Runner, tmp_path: Path
) -> None:
    path = tmp_path / "cc.json"
    run("new", path, "--game", "cosmic-cluster", "--players", "3", "--seed", "3")
    done = run("retreat", path, "--defaults")
    assert done.code == 2 and "waiting for orders" in done.err


def test_table_create_for_cosmic_cluster(run: Runner, tmp_path: Path) -> None:
    done = run(
        "table", "--db", tmp_path / "t.db", "create", "Stars", "--game", "cosmic-cluster",
        "--players", "9", "--seed", "4",
    )  # fmt: skip
    assert done.code == 0, done.err
    assert 'Created Cosmic Cluster table "Stars"' in done.out
    assert "  Seats        9, all free\n  Seed         4\n" in done.out


def test_table_import_of_a_cosmic_record(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "cc.json"
    run("new", path, "--game", "cosmic-cluster", "--players", "3", "--seed", "3")
    done = run("table", "--db", tmp_path / "t.db", "import", path, "--name", "Again")
    assert done.code == 0, done.err
    assert 'as Cosmic Cluster table "Again"' in done.out
