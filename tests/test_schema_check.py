"""Tests for companion.schema_check, cross-checked against the reference `jsonschema` package."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.schema_check import SchemaViolation, first_violation, violations

Schema = dict[str, Any]
S = "https://json-schema.org/draft/2020-12/schema"
ANNOTATED = {"$schema": S, "$id": "https://x.test/r.json", "$comment": "c", "title": "t"}
ANNOTATED |= {"description": "d", "examples": [1], "default": 0}
OBJ_A = {"properties": {"a": {"type": "integer"}}, "required": ["a"]}
CLOSED = {"properties": {"a": {}}, "additionalProperties": False}
PATTERNED = {"patternProperties": {"^x": {}}, "additionalProperties": False}
X_NULL = {"patternProperties": {"^x": {"type": "null"}}}
BOTH = {"properties": {"xa": {"type": "integer"}}, "patternProperties": {"a$": {"minimum": 5}}}
PREFIX = {"$defs": {"n": {"type": "integer"}}, "prefixItems": [{"$ref": "#/$defs/n"}]}
TAIL = {"prefixItems": [{}], "items": {"type": "null"}}
IF_10 = {"if": {"minimum": 10}, "then": {"type": "integer"}, "else": {"const": 1}}
MOVE = {"kind": {"const": "move"}, "to": {"type": "string"}}
KIND = {
    "oneOf": [
        {"properties": MOVE, "required": ["kind", "to"]},
        {"properties": {"kind": {"const": "hold"}}, "required": ["kind"]},
    ]
}
ESCAPED = {"$defs": {"a b": {"type": "null"}}, "$ref": "#/$defs/a%20b"}
TREE = {"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "$ref": "#/$defs/t"}
INNER = {"$id": "inner.json", "$defs": {"x": {"type": "null"}}, "$ref": "#/$defs/x"}
NESTED_ID = {"$defs": {"x": {"type": "string"}}, "properties": {"a": INNER}}
SIBLINGS = {"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n", "minimum": 2}
INT_OR_MIN = [{"type": "integer"}, {"minimum": 0}]


def c(name: str, schema: Schema, document: object, valid: bool) -> Any:
    return pytest.param(schema, document, valid, id=name)


CASES = [
    c("annotations", ANNOTATED, 5, True),
    c("empty-schema", {}, {"any": ["thing"]}, True),
    c("int-ok", {"type": "integer"}, 3, True),
    c("int-float-whole", {"type": "integer"}, 1.0, True),
    c("int-float-frac", {"type": "integer"}, 1.5, False),
    c("int-bool", {"type": "integer"}, True, False),
    c("int-str", {"type": "integer"}, "x", False),
    c("num-ok", {"type": "number"}, 2.5, True),
    c("num-bool", {"type": "number"}, False, False),
    c("null-ok", {"type": "null"}, None, True),
    c("null-zero", {"type": "null"}, 0, False),
    c("bool-ok", {"type": "boolean"}, False, True),
    c("bool-zero", {"type": "boolean"}, 0, False),
    c("str-ok", {"type": "string"}, "", True),
    c("array-ok", {"type": "array"}, [], True),
    c("array-obj", {"type": "array"}, {}, False),
    c("object-ok", {"type": "object"}, {}, True),
    c("object-array", {"type": "object"}, [], False),
    c("type-list-ok", {"type": ["string", "null"]}, None, True),
    c("type-list-bad", {"type": ["string", "null"]}, 1, False),
    c("enum-ok", {"enum": ["red", "blue"]}, "red", True),
    c("enum-bad", {"enum": ["red", "blue"]}, "pink", False),
    c("enum-true-vs-1", {"enum": [1]}, True, False),
    c("enum-1-vs-true", {"enum": [True]}, 1, False),
    c("enum-0-vs-false", {"enum": [False]}, 0, False),
    c("enum-1.0", {"enum": [1]}, 1.0, True),
    c("enum-nested-bool", {"enum": [[1]]}, [True], False),
    c("enum-object", {"enum": [{"a": 1, "b": [None]}]}, {"b": [None], "a": 1}, True),
    c("const-ok", {"const": {"a": [1]}}, {"a": [1.0]}, True),
    c("const-false-vs-0", {"const": 0}, False, False),
    c("const-null", {"const": None}, None, True),
    c("const-str", {"const": "1"}, 1, False),
    c("props-ok", OBJ_A, {"a": 1, "z": "anything"}, True),
    c("props-bad", OBJ_A, {"a": "1"}, False),
    c("required-missing", OBJ_A, {"b": 1}, False),
    c("required-non-object", OBJ_A, [1], True),
    c("addl-false-ok", CLOSED, {"a": 1}, True),
    c("addl-false-bad", CLOSED, {"b": 1}, False),
    c("addl-schema-bad", {"additionalProperties": {"type": "string"}}, {"b": 1}, False),
    c("addl-vs-pattern-ok", PATTERNED, {"xy": 1}, True),
    c("addl-vs-pattern-bad", PATTERNED, {"yx": 1}, False),
    c("pattern-props-bad", X_NULL, {"ax": 1, "xa": 1}, False),
    c("pattern-props-and-props", BOTH, {"xa": 3}, False),
    c("prop-false", {"properties": {"a": False}}, {"a": None}, False),
    c("prop-names-ok", {"propertyNames": {"pattern": "^[a-z]+$"}}, {"ab": 1}, True),
    c("prop-names-bad", {"propertyNames": {"maxLength": 2}}, {"abc": 1}, False),
    c("min-props", {"minProperties": 2}, {"a": 1}, False),
    c("max-props-ok", {"maxProperties": 1}, {"a": 1}, True),
    c("max-props-bad", {"maxProperties": 1}, {"a": 1, "b": 2}, False),
    c("items-ok", {"items": {"type": "integer"}}, [1, 2], True),
    c("items-bad", {"items": {"type": "integer"}}, [1, "2"], False),
    c("prefix-ok", PREFIX, [1, "rest is free"], True),
    c("prefix-bad", PREFIX, ["1"], False),
    c("prefix-short", PREFIX, [], True),
    c("items-after-prefix", TAIL, ["a", None], True),
    c("items-after-prefix-bad", TAIL, [None, 1], False),
    c("items-false", {"prefixItems": [{}], "items": False}, [1, 2], False),
    c("items-false-ok", {"prefixItems": [{}], "items": False}, [1], True),
    c("min-items", {"minItems": 1}, [], False),
    c("max-items", {"maxItems": 3}, [1, 2, 3, 4], False),
    c("unique-ok", {"uniqueItems": True}, [1, True, "1", [1], [True]], True),
    c("unique-1-1.0", {"uniqueItems": True}, [1, 1.0], False),
    c("unique-objects", {"uniqueItems": True}, [{"a": 1}, {"a": 1}], False),
    c("unique-false", {"uniqueItems": False}, [1, 1], True),
    c("minimum-ok", {"minimum": 0}, 0, True),
    c("minimum-bad", {"minimum": 0}, -1, False),
    c("minimum-ignores-bool", {"minimum": 5}, True, True),
    c("maximum-bad", {"maximum": 1.5}, 2, False),
    c("excl-min-bad", {"exclusiveMinimum": 0}, 0, False),
    c("excl-min-ok", {"exclusiveMinimum": 0}, 0.1, True),
    c("excl-max-bad", {"exclusiveMaximum": 10}, 10.0, False),
    c("min-length", {"minLength": 2}, "é", False),
    c("max-length-codepoints", {"maxLength": 1}, "\U0001f600", True),
    c("max-length-bad", {"maxLength": 1}, "ab", False),
    c("length-non-string", {"maxLength": 1}, 12345, True),
    c("pattern-ok", {"pattern": "^S[0-9]+$"}, "S12", True),
    c("pattern-bad", {"pattern": "^S[0-9]+$"}, "Q1", False),
    c("pattern-is-search", {"pattern": "b"}, "abc", True),
    c("oneof-one", KIND, {"kind": "hold"}, True),
    c("oneof-none", KIND, {"kind": "move"}, False),
    c("oneof-two", {"oneOf": INT_OR_MIN}, 3, False),
    c("anyof-ok", {"anyOf": INT_OR_MIN}, 3, True),
    c("anyof-bad", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "x", False),
    c("allof-ok", {"allOf": INT_OR_MIN}, 3, True),
    c("allof-bad", {"allOf": INT_OR_MIN}, -3, False),
    c("not-ok", {"not": {"const": "x"}}, "y", True),
    c("not-bad", {"not": {"type": "string"}}, "y", False),
    c("if-then-bad", IF_10, 10.5, False),
    c("if-then-ok", IF_10, 11, True),
    c("if-else-bad", IF_10, 2, False),
    c("if-else-ok", IF_10, 1, True),
    c("if-alone", {"if": False}, 1, True),
    c("ref-escaped-name", ESCAPED, None, True),
    c("ref-with-siblings", SIBLINGS, 1, False),
    c("ref-recursive-ok", TREE, [[[]], []], True),
    c("ref-recursive-bad", TREE, [[[]], [[1]]], False),
    c("ref-nested-id", NESTED_ID, {"a": None}, True),
    c("false-schema", {"properties": {"a": {"not": True}}}, {"a": 1}, False),
]


@pytest.mark.parametrize(("schema", "document", "expected"), CASES)
def test_verdict_matches_jsonschema(schema: Schema, document: object, expected: bool) -> None:
    assert jsonschema.Draft202012Validator(schema).is_valid(document) is expected
    found = violations(document, schema)
    assert (not found) is expected, [str(v) for v in found]
    assert (first_violation(document, schema) is None) is expected


ORDERS = {"additionalProperties": {"type": "string"}}
TURNS = {"properties": {"turns": {"items": {"properties": {"orders": ORDERS}}}}}
TURNS_DOC = {"turns": [{}, {}, {}, {"orders": {"blue": "a", "red": 7}}]}
ANY_ENUM_INT = {"anyOf": [{"enum": ["a", "b"]}, {"type": "integer"}]}
SUMMARY = "$: matches none of the allowed forms (option 1: expected one of 'a', 'b'; found 's'; "
SUMMARY += "option 2: expected an integer, found a string ('s'))"
MESSAGES = [
    ("req", {"required": ["seed"]}, {}, "$: missing required property 'seed'"),
    ("extra", {"additionalProperties": False}, {"colour": 1}, "$: unexpected property 'colour'"),
    ("enum", {"enum": ["red", "blue"]}, "pink", "$: expected one of 'red', 'blue'; found 'pink'"),
    ("max-items", {"maxItems": 3}, [1, 2, 3, 4], "$: expected at most 3 items, found 4"),
    ("type", {"type": "integer"}, "x", "$: expected an integer, found a string ('x')"),
    ("pattern", {"pattern": "^S[0-9]+$"}, "Q1", "$: does not match pattern '^S[0-9]+$': 'Q1'"),
    ("nested", TURNS, TURNS_DOC, "$.turns[3].orders.red: expected a string, found an integer (7)"),
    ("quoted-key", {"additionalProperties": {"items": {"type": "null"}}}, {"a b": [None, 0]},
     '$["a b"][1]: expected null, found an integer (0)'),
    ("oneof-closest", KIND, {"kind": "move", "to": 5},
     "$.to: expected a string, found an integer (5)"),
    ("oneof-discriminated", KIND, {"kind": "move"}, "$: missing required property 'to'"),
    ("anyof-types", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "s",
     "$: expected an integer or null, found a string ('s')"),
    ("anyof-summary", ANY_ENUM_INT, "s", SUMMARY),
    ("oneof-two", {"oneOf": INT_OR_MIN}, 3,
     "$: matches more than one allowed form (options 1 and 2)"),
    ("not-const", {"not": {"const": "x"}}, "x", "$: must not be 'x'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "document", "expected"), [pytest.param(*m[1:], id=m[0]) for m in MESSAGES]
)
def test_messages_and_where(schema: Schema, document: object, expected: str) -> None:
    assert str(first_violation(document, schema)) == expected


def test_where_and_str() -> None:
    violation = SchemaViolation(("turns", 3, "orders", "red"), "bad")
    assert violation.where() == "$.turns[3].orders.red"
    assert SchemaViolation((), "bad").where() == "$"
    assert str(violation) == "$.turns[3].orders.red: bad"


def test_all_violations_in_document_order() -> None:
    properties = {"a": {"type": "integer"}, "b": {"items": {"type": "integer"}}}
    schema = {"properties": properties, "required": ["c"], "additionalProperties": False}
    document = {"b": [1, "x", "y"], "z": 0, "a": "no"}
    found = violations(document, schema)
    assert [v.where() for v in found] == ["$", "$", "$.b[1]", "$.b[2]", "$.a"]
    assert [v.message for v in found[:2]] == [
        "missing required property 'c'",
        "unexpected property 'z'",
    ]
    assert violations(document, schema) == found


KW = "unsupported schema keyword: "
UNSUPPORTED: dict[str, tuple[Schema, str]] = {
    "top-level": ({"multipleOf": 2}, KW + "'multipleOf'"),
    "deep": ({"properties": {"a": {"items": {"not": {"minContains": 1}}}}}, KW + "'minContains'"),
    "in-unused-defs": ({"$defs": {"unused": {"contains": {}}}}, KW + "'contains'"),
    "in-untaken-branch": ({"if": {}, "else": {"format": "date"}}, KW + "'format'"),
    "items-as-list": ({"items": [{}]}, "'items' must be a single schema"),
    "remote-ref": ({"$ref": "other.json#/$defs/x"}, "unsupported $ref 'other.json#/$defs/x'"),
    "unresolvable-ref": ({"$ref": "#/$defs/missing"}, "unresolvable $ref '#/$defs/missing'"),
    "other-draft": ({"$schema": "http://json-schema.org/draft-07/schema#"}, "only Draft 2020-12"),
    "unknown-type": ({"type": "float"}, "'type' must name JSON types"),
    "bad-regex": ({"pattern": "("}, "invalid pattern '('"),
    "ref-loop": ({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}, "circular $ref"),
}


@pytest.mark.parametrize(("schema", "error"), list(UNSUPPORTED.values()), ids=list(UNSUPPORTED))
def test_rejects_unsupported_schemas(schema: Schema, error: str) -> None:
    with pytest.raises(ValueError, match=re.escape(error)):
        violations(1, schema)


ORDER_FORMS = [
    {
        "type": "object",
        "properties": {"kind": {"const": "move"}, "to": {"pattern": "^S[0-9]+$"}},
        "required": ["kind", "to"],
        "additionalProperties": False,
    },
    {"type": "object", "properties": {"kind": {"const": "hold"}}, "required": ["kind"]},
    {"type": "string", "minLength": 1, "maxLength": 3},
    {"type": "integer", "minimum": 0},
]
TAGS_SCHEMA = {
    "type": "object",
    "patternProperties": {"^S": {"type": ["integer", "null"]}},
    "additionalProperties": {"type": "boolean"},
    "propertyNames": {"maxLength": 3},
    "maxProperties": 3,
}
RECORD_SCHEMA: Schema = {
    "$schema": S,
    "$defs": {"colour": {"enum": ["red", "blue", 1, True, None]}, "order": {"oneOf": ORDER_FORMS}},
    "type": "object",
    "required": ["seed", "turns"],
    "properties": {
        "seed": {"type": "integer", "minimum": 0, "exclusiveMaximum": 1000},
        "colour": {"$ref": "#/$defs/colour"},
        "turns": {
            "type": "array",
            "prefixItems": [{"type": "number", "maximum": 10}, {"const": [1, "S1"]}],
            "items": {"$ref": "#/$defs/order"},
            "maxItems": 5,
            "uniqueItems": True,
        },
        "tags": TAGS_SCHEMA,
    },
    "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "array", "minItems": 1}]},
    "if": {"properties": {"colour": {"const": "red"}}, "required": ["colour"]},
    "then": {"required": ["tags"]},
    "else": {"not": {"required": ["extra"]}},
}
REFERENCE = jsonschema.Draft202012Validator(RECORD_SCHEMA)

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(-2, 12), st.text(max_size=4),
    st.sampled_from(["red", "blue", "move", "hold", "S1", "Q1", "S12"]),
)  # fmt: skip
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["kind", "to", "S1"]) | st.text(max_size=2), inner, max_size=3
        )
    ),
    max_leaves=8,
)


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Draw from `good` three times in four, so that many random records are (nearly) valid."""
    return st.integers(0, 3).flatmap(lambda pick: bad if pick == 3 else good)


ORDER = mostly(
    st.sampled_from([{"kind": "hold"}, {"kind": "hold", "x": 1}, {"kind": "move", "to": "S12"}]),
    st.sampled_from([{"kind": "move"}, {"kind": "move", "to": "Q1"}, {"kind": "stay"}]),
) | st.sampled_from(["ab", "", "abcd", 0, 2, -1, 1.0, True, None]) | JSON  # fmt: skip
HEAD = mostly(
    st.tuples(st.integers(0, 10) | st.floats(-5, 10), st.just([1.0, "S1"])),
    st.tuples(st.sampled_from([10.5, True, "0", None]), JSON),
)
TURNS_ST = mostly(
    st.builds(lambda head, rest: [*head, *rest], HEAD, st.lists(ORDER, max_size=3)),
    st.lists(st.integers(0, 3), max_size=2) | JSON,
)
TAG_VALUES = {"S1": st.integers() | st.none(), "Sx": st.none(), "t": st.booleans()}
TAGS = mostly(
    st.fixed_dictionaries({}, optional=TAG_VALUES | {"abc": st.booleans()}),
    st.dictionaries(st.sampled_from(["S1", "abcd", "t"]), SCALARS, max_size=2) | JSON,
)
COLOURS = ["blue", 1, 1.0, True, None], ["red", False, 0, "pink", [1]]
OPTIONAL_FIELDS = {
    "colour": mostly(st.sampled_from(COLOURS[0]), st.sampled_from(COLOURS[1])),
    "tags": TAGS,
    "extra": SCALARS,
    "other": mostly(st.sampled_from(["x", [0]]), SCALARS | st.just([])),
}
SEED = mostly(st.integers(0, 999), st.sampled_from([-1, 1000, 2.0, True, "1"]))
RECORDS = st.fixed_dictionaries({"seed": SEED, "turns": TURNS_ST}, optional=OPTIONAL_FIELDS)


@settings(max_examples=200, deadline=None, database=None)
@given(document=mostly(RECORDS, JSON))
def test_verdict_matches_jsonschema_on_random_documents(document: object) -> None:
    found = violations(document, RECORD_SCHEMA)
    assert (not found) is REFERENCE.is_valid(document), [str(v) for v in found]
    assert found == violations(document, RECORD_SCHEMA)
