"""``companion new --game cluster``, show, replay and Cluster's verbs (move, bot, moves, resign,
draw, undo): every command reads the record, the changing ones write it back atomically, and a
refused move leaves it untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from companion.cluster_peg.position import SETUP_TEXTS
from companion.cluster_peg.record import load_record, record_json

if TYPE_CHECKING:
    from conftest import Runner


@pytest.fixture
def game(run: Runner, tmp_path: Path) -> Path:
    path = tmp_path / "pegs.json"
    made = run("new", path, "--game", "cluster", "--setup", "46", "--red", "Ann", "--blue", "Bo")
    assert made.code == 0, made.err
    return path


def test_new_writes_a_record_of_the_setup_and_shows_the_board(run, tmp_path) -> None:
    path = tmp_path / "g.json"
    made = run("new", path, "--game", "cluster")
    assert made.code == 0
    data = json.loads(path.read_text())
    assert data["game"] == "cluster" and data["setup"] == "64B"
    assert data["start"] == SETUP_TEXTS["64B"] and data["tokens"] == []
    assert "Red to move: 54 legal moves" in made.out
    assert "c r R r R r R r R" in made.out


def test_new_takes_a_position_and_the_house_rules(run, tmp_path) -> None:
    path = tmp_path / "g.json"
    text = "46 7/6/RrRrRr1/rRrRr1/6R/BbBbBb/bBbBbB1 r"
    made = run("new", path, "--game", "cluster", "--position", text, "--swap", "--turn-limit", "0")
    assert made.code == 0, made.err
    data = json.loads(path.read_text())
    assert data["setup"] is None and data["start"] == text
    assert data["rules"] == {"repetition": 3, "turn_limit": 0, "swap": True}
    bad = run("new", tmp_path / "h.json", "--game", "cluster", "--position", "46 7/6 r")
    assert bad.code == 2 and "row-count" in bad.err


def test_p4_8_lots_decide_who_plays_red_and_are_recorded(run, tmp_path) -> None:
    path = tmp_path / "g.json"
    made = run(
        "new", path, "--game", "cluster", "--red", "Ann", "--blue", "Bo", "--lots", "--seed", "4"
    )
    assert made.code == 0
    players = json.loads(path.read_text())["players"]
    assert players["by_lot"] is True and {players["red"], players["blue"]} == {"Ann", "Bo"}
    assert f"{players['red']} plays Red and moves first" in made.out


def test_move_plays_moves_in_turn_and_records_them(run, game) -> None:
    played = run("move", game, "a1*a7", "F1-E1")
    assert played.code == 0, played.err
    assert "Red plays a1*a7." in played.out and "Blue plays f1-e1." in played.out
    assert json.loads(game.read_text())["tokens"] == ["a1*a7", "f1-e1"]
    assert "Red to move (Ann)" in played.out


def test_a_refused_move_says_why_and_records_nothing(run, game) -> None:
    before = game.read_bytes()
    refused = run("move", game, "a1*a7", "a2-a3")
    assert refused.code == 2
    assert (
        "a2-a3: the peg in a2 is Red's; it is Blue's turn (not-yours, P4.11); nothing recorded"
        in refused.err
    )
    assert game.read_bytes() == before


def test_bot_plays_for_the_player_to_move(run, game) -> None:
    played = run("bot", game, "--level", "easy", "--seconds", "0.5")
    assert played.code == 0, played.err
    assert "The computer (easy) plays" in played.out
    assert len(json.loads(game.read_text())["tokens"]) == 1


def test_moves_lists_the_legal_moves_in_canonical_order(run, game) -> None:
    listed = run("moves", game)
    assert listed.code == 0
    assert "Red has 30 legal moves:" in listed.out
    first = listed.out.splitlines()[1].split()
    assert first[:5] == ["a1*a7", "a1*c2", "a2*a7", "a2*c1", "a2*c3"]


def test_resign_draw_and_undo(run, game) -> None:
    assert run("move", game, "a1*a7").code == 0
    resigned = run("resign", game, "blue")
    assert resigned.code == 0 and "Red wins: Blue resigned." in resigned.out
    assert run("move", game, "a2-a1").code == 2
    undone = run("undo", game)
    assert undone.code == 0 and "Took back resign-b." in undone.out
    drawn = run("draw", game)
    assert drawn.code == 0 and "Drawn (agreed by both players)." in drawn.out


def test_show_and_replay_check_the_record(run, game) -> None:
    assert run("move", game, "a1*a7", "f1-e1").code == 0
    shown = run("show", game, "--turn", "1")
    assert shown.code == 0 and "1 move played" in shown.out
    replayed = run("replay", game)
    assert replayed.code == 0
    assert replayed.out.startswith("replayed 2 tokens; the result and the end position match")
    assert "a1*a7 f1-e1" in replayed.out
    loaded, players = load_record(game.read_bytes())
    assert record_json(loaded, players=players) == game.read_text()
    data = json.loads(game.read_text())
    data["end"] = SETUP_TEXTS["46"]
    game.write_text(json.dumps(data))
    broken = run("replay", game)
    assert broken.code == 2 and "end position" in broken.err
