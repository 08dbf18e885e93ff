"""Cosmic Cluster game records: schema-checked, replayed, byte-identical."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import jsonschema
import pytest

from companion.cosmic.diplomacy.options import random_orders
from companion.cosmic.game import CosmicGame, Phase
from companion.cosmic.record import load_record, record_dict, record_json, schema
from companion.errors import RecordError


def played(turns: int = 6, seed: int = 3) -> CosmicGame:
    game = CosmicGame(seed, 4)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.position.phase is Phase.ORDERS:
            texts: dict[str, str] = {}
            for order in random_orders(game.map, list(game.position.units), rng):
                assert order.power is not None
                texts[order.power] = texts.get(order.power, "") + order.text().split(": ")[1] + "\n"
            game.play_orders(texts)
        elif game.position.phase is Phase.RETREATS:
            game.play_retreats({})
        else:
            game.play_adjustments({})
    return game


def test_a_record_replays_to_the_same_bytes() -> None:
    text = record_json(played())
    assert record_json(load_record(text)) == text


def test_the_reference_validator_accepts_our_record_too() -> None:
    jsonschema.Draft202012Validator(schema()).validate(record_dict(played(2)))


def test_a_schema_violation_says_where() -> None:
    data = record_dict(played(1))
    data["players"] = 12
    with pytest.raises(RecordError, match=r"\$\.players"):
        load_record(json.dumps(data))


def test_a_tampered_step_is_refused_at_that_step() -> None:
    game = CosmicGame(3, 4)
    game.play_orders({"P1": "A " + game.cluster.home_of("P1").key + "-1 H"})
    data = record_dict(game)
    data["steps"][0]["digest"] = "0" * 16
    with pytest.raises(RecordError, match=r"step 1 \(orders of spring 4001\) does not replay"):
        load_record(json.dumps(data))


def test_a_setup_the_seed_does_not_generate_is_refused() -> None:
    data = record_dict(CosmicGame(3, 4))
    data["seed"] = 4
    with pytest.raises(RecordError, match="not the one its seed"):
        load_record(json.dumps(data))


def test_the_state_format_example_loads() -> None:
    """docs/state-format.md's Cosmic Cluster example is a record that replays."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "state-format.md").read_text()
    (example,) = re.findall(r"```json cosmic\n(.*?)```", text, re.S)
    game = load_record(example)
    assert len(game.steps) == 1 and game.position.season.value == "fall"
