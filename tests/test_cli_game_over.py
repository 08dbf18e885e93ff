"""How the command line says a game ended (R7.1, R7.3): a lead shared at the turn limit names
no winner, in ``companion adjudicate``, ``show`` and the record itself."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Runner


def test_r7_3_a_shared_lead_at_the_turn_limit_names_no_winner(run: Runner, tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    made = run("new", game, "--players", "2", "--seed", "68", "--turn-limit", "1")
    assert made.code == 0, made.err
    both_hold = run("adjudicate", game, "-", stdin="")  # each empire keeps its home: a tie
    assert both_hold.code == 0, both_hold.err
    for output in (both_hold.out, run("show", game).out):
        said = " ".join(output.split())  # as read, whatever the terminal's width
        assert "the lead shared by" in said and "no single winner (R7.3)" in said
        assert "wins" not in said and "Winner" not in said
        assert "Ranking: =1. " in said and ", =1. " in said
    text = game.read_text(encoding="utf-8")
    (note,) = json.loads(text)["steps"][-1]["result"]["aftermath"]
    assert note.endswith("no single winner (R7.3)")
    assert " wins" not in text


def test_r7_3_a_single_leader_at_the_turn_limit_is_named(run: Runner, tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("new", game, "--players", "2", "--seed", "68", "--turn-limit", "1", "--colours", "red,blue")
    advance = run("adjudicate", game, "-", stdin="Red:\nADVANCE S27 S21\n")  # claims S21
    assert advance.code == 0, advance.err
    for said in (advance.out, run("show", game).out):
        assert " ".join(said.split()).count("Red wins at the turn limit") == 1
        assert "Ranking: 1. Red, 2. Blue" in said
