"""Clustered game records: JSON with a shipped JSON Schema, replaying byte for byte."""

from __future__ import annotations

import json

import jsonschema
import pytest
from clustered_helpers import K720_ORDER, played
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.clustered import Player, Settings
from companion.clustered import record as records
from companion.clustered.simulate import simulate
from companion.errors import RecordError


def test_the_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(records.schema())


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 8),
    turns=st.integers(0, 80),
    quick=st.booleans(),
    check=st.sampled_from(["hand", "table"]),
    surface=st.sampled_from(["unbounded", "-4..9,-3..3"]),
)
def test_a_record_replays_byte_for_byte(
    seed: int, players: int, turns: int, quick: bool, check: str, surface: str
) -> None:
    rules = Settings.from_dict({"quick_play": quick, "discard_check": check, "surface": surface})
    game = simulate(players, seed=seed, turns=turns, settings=rules)
    text = records.record_json(game)
    again = records.load(text)
    assert records.record_json(again) == text
    assert again.digest() == game.digest()
    jsonschema.validate(json.loads(text), records.schema())


def test_undo_and_stop_are_recorded_and_replayed() -> None:
    game = played(K720_ORDER[:5], first_bonuses=True)
    game.undo("the camera misread 1,1")
    game.play(K720_ORDER[4])
    game.stop("closing time")
    text = records.record_json(game)
    data = json.loads(text)
    assert [s["kind"] for s in data["steps"]][-3:] == ["undo", "place", "stop"]
    assert data["steps"][-3]["reason"] == "the camera misread 1,1"
    again = records.load(text)
    assert again.stopped == "closing time" and not again.finished
    assert records.record_json(again) == text


def test_a_record_stores_the_settings_and_the_seats() -> None:
    """K7.1: the record stores the settings."""
    game = simulate([Player("O", "Ann"), Player("B", "Bo")], seed=1, turns=3)
    data = json.loads(records.record_json(game))
    assert data["settings"] == Settings().to_dict()
    assert data["players"] == [{"colour": "O", "name": "Ann"}, {"colour": "B", "name": "Bo"}]
    assert (data["format"], data["version"], data["game"]) == (records.FORMAT, 1, "clustered")


def tampered(change: str) -> str:
    text = records.record_json(played(K720_ORDER[:4]))
    data = json.loads(text)
    exec(change, {"d": data})
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("d['format'] = 'x'", r"\$\.format: expected"),
        ("d['steps'][0]['move'] = 'B-sq-so-9 1,0'", r"\$\.steps\[0\]\.move: does not match"),
        ("d['steps'][0]['digest'] = '0' * 16", "differs from the record's"),
        ("d['steps'][1]['move'] = 'O-sq-so-1 5,5'", "no-neighbour"),
        ("d['steps'][1]['seat'] = 1", "it is orange's turn"),
        ("d['players'][1]['colour'] = 'B'", "played by two seats"),
        ("d['settings']['surface'] = 'nowhere'", "is not a rectangle"),
        ("d['steps'].append({'kind': 'undo', 'seat': 1, 'digest': '0' * 16})", r"\$\.steps\[4\]"),
        ("del d['settings']['palette']", "missing required property 'palette'"),
        ("d['extra'] = 1", "unexpected property 'extra'"),
    ],
)
def test_a_broken_record_is_refused_with_where_and_why(change: str, says: str) -> None:
    with pytest.raises(RecordError, match=says):
        records.load(tampered(change))


@pytest.mark.parametrize(
    ("text", "says"),
    [(b"{", "not JSON"), (b"\xff", "not UTF-8"), (b"[]", "expected an object, found an array")],
)
def test_not_a_record_at_all(text: bytes, says: str) -> None:
    with pytest.raises(RecordError, match=says):
        records.load(text)


def test_a_record_read_up_to_a_step() -> None:
    text = records.record_json(played(K720_ORDER))
    assert len(records.load(text, until=3).turns) == 3
