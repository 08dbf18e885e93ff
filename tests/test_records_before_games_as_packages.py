"""Game records written before the games became packages (issue 14) load and replay.

``tests/data/before-games-as-packages/`` holds a 30-turn Local Cluster demo game and a 40-step
Cosmic Cluster game with random orders, both written by the code of commit bad9bf7
(``make_cosmic_record.py`` there says how), and that commit's ``companion replay`` of each.
Today's command must replay them to the same words (but for how a game's end is said, which
issue 12 changed on purpose), and today's records code must write them back as they were (Local
Cluster's byte for byte; Cosmic Cluster's but for one outcome a ruling fix changed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cosmic.record import load_record, record_json
from companion.local_cluster.record import GameRecord

DATA = Path(__file__).parent / "data" / "before-games-as-packages"
RECORDS = ("local-cluster-demo.json", "cosmic-cluster-random.json")


@pytest.mark.parametrize("name", RECORDS)
def test_an_old_record_replays_to_the_same_words(name: str) -> None:
    replay = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(DATA / name)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert replay.returncode == 0, replay.stderr
    said = (DATA / name.replace(".json", ".replay.txt")).read_text()
    if name not in ENDINGS:
        assert replay.stdout == said
        return
    then, now = ENDINGS[name]
    head, found, tail = said.partition(then)
    assert found, then
    assert replay.stdout[: len(head)] == head
    rest = replay.stdout[len(head) :]
    assert " ".join(rest.split()) == " ".join((now + "\n" + tail).split())  # wrapped as it fits


# Issue 12 (R7.1, R7.3): the end is said in one sentence of the rules core that says why (a lead
# shared at the turn limit names nobody). The old record's game, its winner and ranking are the
# same; only the words changed.
ENDINGS = {
    "local-cluster-demo.json": (
        "Winner: White.\n",
        "White wins at the turn limit, leading on sectors claimed and mineral value "
        "(7 sectors and 17 minerals) (R7.3).",
    )
}


def test_an_old_local_cluster_record_is_written_back_byte_for_byte() -> None:
    text = (DATA / "local-cluster-demo.json").read_text()
    game = GameRecord.load(text)
    assert GameRecord.from_json(text).to_json() == text
    assert len(game.steps) > 30


def test_an_old_cosmic_cluster_record_is_written_back_but_for_the_c3_5_fix() -> None:
    """Written back, the record is the same but for one order's outcome: ruling C3.5 (issue 13)
    lets a unit in a system box be supported, which the old code refused. The positions, and so
    the replay, are the same: that support changed nothing on the board."""
    text = (DATA / "cosmic-cluster-random.json").read_text()
    old, new = json.loads(text), json.loads(record_json(load_record(text)))
    changed = [
        (number, before, after)
        for number, (old_step, new_step) in enumerate(zip(old["steps"], new["steps"], strict=True))
        for before, after in zip(
            old_step.get("result", {}).get("orders", []),
            new_step.get("result", {}).get("orders", []),
            strict=True,
        )
        if before != after
    ]
    assert changed == [
        (
            13,
            {
                "order": "P4: TS2 F pollux-b S F capella-b",
                "power": "P4",
                "reason": "there is no other unit in capella-b to support",
                "succeeded": False,
            },
            {
                "order": "P4: TS2 F pollux-b S F capella-b",
                "power": "P4",
                "reason": "support given",
                "succeeded": True,
            },
        )
    ]
    for old_step, new_step in zip(old["steps"], new["steps"], strict=True):
        old_step.get("result", {}).pop("orders", None)
        new_step.get("result", {}).pop("orders", None)
    assert old == new
