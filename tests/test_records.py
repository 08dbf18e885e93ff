"""Game records checked against their JSON Schema (companion.records, on the jsonschema library).

A record that breaks its game's schema is refused with a ``RecordError`` that says where (a
path from the document's root, ``$.setup.empires[1].colour``) and what was expected there, so
a player or a developer can find and fix it. These tests damage real records of both games.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cosmic.game import CosmicGame
from companion.cosmic.record import SCHEMA as COSMIC
from companion.cosmic.record import load_record, record_dict
from companion.errors import RecordError
from companion.local_cluster.atoms import Colour
from companion.local_cluster.game import Game
from companion.local_cluster.generation import random_setup
from companion.local_cluster.record import SCHEMA as LOCAL
from companion.local_cluster.record import GameRecord
from companion.records import RecordSchema, Violation, first_violation, parse_json

ROOT = Path(__file__).resolve().parent.parent
Document = dict[str, Any]


def local_record() -> Document:
    """The README's game (seed 68, Blue and Red) after its first turn."""
    game = Game(random_setup(68, 2, colours=(Colour.RED, Colour.BLUE)), seed=68)
    game.play({Colour.RED: "ADVANCE S27 S21", Colour.BLUE: "ADVANCE S47 S26"})
    return GameRecord.of(game).to_dict()


def cosmic_record() -> Document:
    game = CosmicGame(3, 3)
    home = game.cluster.home_of("P1").key
    game.play_orders({"P1": f"A {home}-1 -> {home}-2"})
    return record_dict(game)


def damaged(record: Document, change: Callable[[Document], object]) -> Document:
    broken = copy.deepcopy(record)
    change(broken)
    return broken


def _set(path: tuple[str | int, ...], value: object) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        node: Any = document
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return change


def _delete(name: str) -> Callable[[Document], None]:
    return lambda document: document.pop(name)


COLOURS = "'red', 'green', 'blue', 'yellow', 'aqua', 'purple', 'pink', 'white'"
LOCAL_CASES = [
    ("setup-turn", _set(("setup", "turn"), 0), "$.setup.turn: expected at least 1, found 0"),
    (
        "colour",
        _set(("setup", "empires", 1, "colour"), "mauve"),
        f"$.setup.empires[1].colour: expected one of {COLOURS}; found 'mauve'",
    ),
    ("missing", _delete("seed"), "$: missing required property 'seed'"),
    ("extra", _set(("colour",), 1), "$: unexpected property 'colour'"),
    (
        "format",
        _set(("format",), "cluster-companion/record"),
        "$.format: expected 'cluster-companion/local-cluster-record', "
        "found 'cluster-companion/record'",
    ),
    (
        "type",
        _set(("steps", 0, "inputs", "red"), 7),
        "$.steps[0].inputs.red: expected a string, found an integer (7)",
    ),
    (
        "property-name",
        _set(("steps", 0, "inputs", "mauve"), "HOLD S1"),
        f"$.steps[0].inputs: property name 'mauve' is not allowed: expected one of {COLOURS}; "
        "found 'mauve'",
    ),
    (
        "too-long",
        _set(("steps", 0, "inputs", "red"), "HOLD S27\n" * 2223),
        "$.steps[0].inputs.red: expected at most 20000 characters, found 'HOLD S27\\nHOLD",
    ),
    (
        "pattern",
        _set(("steps", 0, "digest"), "not hex"),
        "$.steps[0].digest: does not match pattern '^[0-9a-f]{16}$': 'not hex'",
    ),
    (
        "null-or-colour",
        _set(("setup", "winner"), 3),
        "$.setup.winner: matches none of the allowed forms (option 1: expected null, found an "
        f"integer (3); option 2: expected one of {COLOURS}; found 3)",
    ),
    ("house-rule", _set(("rules", "support_range"), "far"), "$.rules.support_range: expected"),
]


@pytest.mark.parametrize(
    ("change", "message"), [pytest.param(*case[1:], id=case[0]) for case in LOCAL_CASES]
)
def test_a_bad_local_cluster_record_says_where_and_what_was_expected(
    change: Callable[[Document], object], message: str
) -> None:
    text = json.dumps(damaged(local_record(), change))
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(text)
    assert str(caught.value).startswith("not a Local Cluster game record: " + message)


COSMIC_CASES = [
    ("players", _set(("players",), 12), "$.players: expected at most 9, found 12"),
    (
        "region-key",
        _set(("setup", "owners", "x"), "P1"),
        "$.setup.owners: property name 'x' is not allowed: does not match pattern",
    ),
    (
        "odd-key-in-path",
        _set(("setup", "owners", "vega-1"), "Q1"),
        "$.setup.owners[\"vega-1\"]: does not match pattern '^P[1-9]$': 'Q1'",
    ),
    (
        "power-or-null",
        _set(("setup", "units", 0, "cargo"), "P10"),
        "$.setup.units[0].cargo: does not match pattern '^P[1-9]$': 'P10'",
    ),
    (
        "neither-type",
        _set(("setup", "units", 0, "cargo"), 5),
        "$.setup.units[0].cargo: expected a string or null, found an integer (5)",
    ),
    (
        "correction-inputs",
        _set(("steps", 0, "kind"), "correction"),
        "$.steps[0].inputs: missing required property 'text'",
    ),
    ("empty", lambda document: document.clear(), "$: missing required property 'format'"),
]


@pytest.mark.parametrize(
    ("change", "message"), [pytest.param(*case[1:], id=case[0]) for case in COSMIC_CASES]
)
def test_a_bad_cosmic_cluster_record_says_where_and_what_was_expected(
    change: Callable[[Document], object], message: str
) -> None:
    text = json.dumps(damaged(cosmic_record(), change))
    with pytest.raises(RecordError) as caught:
        load_record(text)
    assert str(caught.value).startswith("not a Cosmic Cluster game record: " + message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "not a Local Cluster game record: $: expected an object, found an array of 0 items"),
        ('{"format": 1 "version": 1}', "not JSON: Expecting ',' delimiter at line 1, column 14"),
        (b"\xff{}", "not UTF-8 text: invalid start byte at byte 0"),
    ],
)
def test_a_record_that_is_not_even_an_object_is_refused_plainly(
    text: str | bytes, message: str
) -> None:
    with pytest.raises(RecordError, match="^" + re.escape(message)):
        GameRecord.from_json(text)


def test_the_first_problem_in_the_document_is_the_one_reported() -> None:
    """A problem at a container comes before those inside it; members in document order."""
    record = local_record()
    record["setup"]["units"][1]["sector"] = "nowhere"
    record["setup"]["empires"][0]["seat"] = 0
    assert str(LOCAL.violation(record)).startswith("$.setup.empires[0].seat: expected at least 1")
    del record["steps"]
    assert str(LOCAL.violation(record)) == "$: missing required property 'steps'"


def test_a_record_that_follows_its_schema_has_no_violation() -> None:
    assert LOCAL.violation(local_record()) is None
    assert COSMIC.violation(cosmic_record()) is None


@pytest.mark.parametrize("path", sorted(ROOT.glob("companion/*/schemas/*.schema.json")))
def test_every_shipped_record_schema_is_a_valid_draft_2020_12_schema(path: Path) -> None:
    schema = json.loads(path.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_a_game_reads_its_schema_from_its_own_package() -> None:
    schema = RecordSchema("companion.local_cluster.schemas", LOCAL.file_name, "x").schema()
    assert schema["title"] == "Local Cluster game record"
    schema["title"] = "changed"  # a fresh copy each time: the shipped schema is never changed
    assert LOCAL.schema()["title"] == "Local Cluster game record"


def test_where_writes_a_path_a_reader_can_follow() -> None:
    assert Violation((), "x").where() == "$"
    assert Violation(("setup", "empires", 1, "colour"), "x").where() == "$.setup.empires[1].colour"
    assert Violation(("owners", "vega-1"), "x").where() == '$.owners["vega-1"]'
    assert str(Violation(("a",), "bad")) == "$.a: bad"


def test_one_of_that_matches_two_forms_says_which() -> None:
    schema = {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
    assert str(first_violation(3, schema)) == (
        "$: matches more than one allowed form (options 1 and 2)"
    )


def test_parse_json_refuses_a_record_over_the_limit() -> None:
    with pytest.raises(RecordError, match="over 1 MiB"):
        parse_json("[" + " " * 2**20 + "]", limit=2**20)


# Any damage, anywhere: the verdict is the library's, and the path leads into the document. -


def _locations(node: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [path]
    if isinstance(node, dict):
        for name, value in node.items():
            found += _locations(value, (*path, name))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _locations(value, (*path, index))
    return found


def _follow(document: object, path: tuple[str | int, ...]) -> object:
    node = document
    for part in path:
        assert isinstance(node, dict | list), path
        node = node[part]  # type: ignore[index]
    return node


SCALARS = st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=5)
WORDS = st.sampled_from(["red", "S5", "P1", "orders", "vega-1", "A", "0" * 16])
JSON_VALUES = st.recursive(
    SCALARS | WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORDS, inner, max_size=3),
    max_leaves=6,
)
RECORDS = {"local": (local_record(), LOCAL), "cosmic": (cosmic_record(), COSMIC)}


@settings(max_examples=150, deadline=None, database=None)
@given(game=st.sampled_from(sorted(RECORDS)), data=st.data())
def test_any_damage_is_reported_at_a_place_in_the_document(game: str, data: st.DataObject) -> None:
    record, schema = RECORDS[game]
    document = copy.deepcopy(record)
    locations = _locations(document)[1:]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(locations))
        try:
            _set(path, data.draw(JSON_VALUES))(document)
        except (KeyError, IndexError, TypeError):  # an earlier change removed that place
            continue
    valid = jsonschema.Draft202012Validator(schema.schema()).is_valid(document)
    violation = schema.violation(document)
    assert (violation is None) is valid
    if violation is not None:
        _follow(document, violation.path)  # every step of the path is in the document
        assert violation.message and "\n" not in violation.message
        with pytest.raises(RecordError, match=f"^not a {schema.title} game record: \\$"):
            schema.check(document)
