"""``companion`` with a Clustered record, through the shell (files, exit status, errors)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from clustered_helpers import K720_ORDER

if TYPE_CHECKING:
    from conftest import Runner


def test_new_place_score_through_the_shell(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    made = run(
        "new",
        path,
        "--game",
        "clustered",
        "--colours",
        "blue,orange",
        "--names",
        "Ann,Bo",
        "--first-bonuses",
        "on",
    )
    assert made.code == 0, made.err
    assert "New Clustered game: 2 players, 1 start card." in made.out
    for move in K720_ORDER:
        placed = run("place", path, *move.split())
        assert placed.code == 0, placed.err
    assert "First line of 5 bonus to Blue (seat 1, Ann)!" in placed.out
    scored = run("score", path)
    assert scored.code == 0
    assert "Blue (seat 1, Ann): 18 points" in scored.out
    assert "  bonus: first line of 5 bonus (2)" in scored.out
    assert len(json.loads(path.read_text())["steps"]) == 15
    shown = run("show", path, "--turn", "1")
    assert shown.code == 0, shown.err
    assert shown.out.startswith("Position after step 1 of 15:\n")
    assert run("replay", path, "--turn", "16").code == 2


def test_a_refused_placement_exits_2_and_leaves_the_record(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("new", path, "--game", "clustered")
    run("place", path, "B-sq-so-2", "1,0")
    before = path.read_bytes()
    refused = run("place", path, "O-tr-ho-3", "2,0")
    assert refused.code == 2
    assert "shares nothing with the card to its left" in refused.err
    assert path.read_bytes() == before


def test_a_declaration_undo_and_stop(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("new", path, "--game", "clustered", "--surface", "0..1,0..0", "--end-when-blocked", "off")
    run("place", path, "B-wild", "1,0")
    hand = ["O-sq-so-1", "O-sq-so-2", "O-sq-so-3", "O-tr-so-1", "O-wild"]
    declared = run("discard", path, "O-wild", "hand", *hand)
    assert declared.code == 0, declared.err
    assert run("undo", path, "--reason", "misread").code == 0
    stopped = run("stop", path, "--reason", "bedtime")
    assert "nobody wins (K5.6)" in stopped.out
