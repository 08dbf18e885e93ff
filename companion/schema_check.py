"""A small, standard-library-only checker for the subset of JSON Schema (Draft 2020-12) we use.

The rules core may only depend on the standard library, yet it ships a JSON Schema for its
game-record files and must reject a document that does not match, saying *where*.  This module
checks a document against such a schema and reports every violation with its location.

Only the keywords in ``SUPPORTED_KEYWORDS`` are understood.  The whole schema is inspected before
any document is checked, and a ``ValueError`` is raised for any other keyword (and for malformed
keyword values), so a schema can never silently rely on something that is not checked.

Verdicts follow the reference ``jsonschema`` package (``Draft202012Validator``): ``true`` is not
the integer ``1``, ``1.0`` *is* an integer, ``enum``/``const``/``uniqueItems`` compare values
without confusing booleans with numbers, and ``pattern`` uses ``re.search``.
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final
from urllib.parse import unquote

__all__ = [
    "SUPPORTED_KEYWORDS",
    "SchemaViolation",
    "first_violation",
    "violations",
]

_Path = tuple[str | int, ...]

# Keywords whose value is a single subschema.
_SCHEMA_KEYWORDS: Final = frozenset(
    {"additionalProperties", "propertyNames", "items", "not", "if", "then", "else"}
)
# Keywords whose value is a non-empty list of subschemas.
_SCHEMA_LIST_KEYWORDS: Final = frozenset({"prefixItems", "oneOf", "anyOf", "allOf"})
# Keywords whose value maps names to subschemas.
_SCHEMA_MAP_KEYWORDS: Final = frozenset({"$defs", "properties", "patternProperties"})
# Keywords whose value is a non-negative integer count.
_COUNT_KEYWORDS: Final = frozenset(
    {"minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength"}
)
_BOUND_KEYWORDS: Final = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_STRING_KEYWORDS: Final = frozenset({"$id", "$comment", "title", "description"})
_ANY_VALUE_KEYWORDS: Final = frozenset({"const", "default", "examples"})

SUPPORTED_KEYWORDS: Final[frozenset[str]] = (
    _SCHEMA_KEYWORDS
    | _SCHEMA_LIST_KEYWORDS
    | _SCHEMA_MAP_KEYWORDS
    | _COUNT_KEYWORDS
    | _BOUND_KEYWORDS
    | _STRING_KEYWORDS
    | _ANY_VALUE_KEYWORDS
    | {"$schema", "$ref", "type", "enum", "required", "uniqueItems", "pattern"}
)

_DRAFT_2020_12: Final = "https://json-schema.org/draft/2020-12/schema"
_REF_PREFIX: Final = "#/$defs/"
_JSON_TYPES: Final = ("null", "boolean", "integer", "number", "string", "array", "object")
_TYPE_NAMES: Final = {
    "null": "null",
    "boolean": "a boolean",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}
_IDENTIFIER: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SHOW_LIMIT: Final = 60
_ENUM_LIMIT: Final = 10


@dataclass(frozen=True)
class SchemaViolation:
    """One way in which a document fails to match a schema."""

    path: tuple[str | int, ...]
    """Location in the document: object keys (``str``) and array indexes (``int``)."""
    message: str
    """What is wrong there, in plain words, e.g. ``"missing required property 'seed'"``."""

    def where(self) -> str:
        """The location as a human-readable path such as ``$.turns[3].orders.red``.

        ``$`` is the whole document; keys that are not simple identifiers are quoted,
        as in ``$["two words"]``.
        """
        parts = ["$"]
        for part in self.path:
            if isinstance(part, int):
                parts.append(f"[{part}]")
            elif _IDENTIFIER.fullmatch(part):
                parts.append(f".{part}")
            else:
                parts.append(f"[{json.dumps(part, ensure_ascii=False)}]")
        return "".join(parts)

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"


@cache
def packaged_schema(package: str, file_name: str) -> dict[str, Any]:
    """A JSON Schema shipped in a game's ``schemas`` folder (``package`` names it)."""
    text = resources.files(package).joinpath(file_name).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def violations(document: object, schema: Mapping[str, Any]) -> list[SchemaViolation]:
    """All violations, in document order (deterministic).

    Violations located at a container come before those inside it; siblings follow the order
    of the document's keys and items.  Identical violations are reported once.  An empty list
    means the document is valid.

    Raises ``ValueError`` if the schema uses an unsupported keyword, a ``$ref`` other than a
    local ``#/$defs/Name``, or a malformed keyword value.
    """
    _inspect_schema(schema, schema, "#")
    found = _Checker().check(document, schema, (), schema)
    unique: dict[tuple[_Path, str], SchemaViolation] = {}
    for violation in found:
        unique.setdefault((violation.path, violation.message), violation)
    order = _DocumentOrder(document)
    return sorted(unique.values(), key=lambda violation: order.key(violation.path))


def first_violation(document: object, schema: Mapping[str, Any]) -> SchemaViolation | None:
    """The first violation in document order, or ``None`` if the document is valid."""
    found = violations(document, schema)
    return found[0] if found else None


# --------------------------------------------------------------------------- value helpers


def _is_type(value: object, json_type: str) -> bool:
    """Whether ``value`` has the given JSON type, exactly as ``jsonschema`` 2020-12 decides."""
    if json_type == "null":
        return value is None
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if json_type == "number":
        return isinstance(value, numbers.Number) and not isinstance(value, bool)
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "array":
        return isinstance(value, list)
    if json_type == "object":
        return isinstance(value, dict)
    raise ValueError(f"unknown JSON type {json_type!r}")


def _json_equal(one: object, two: object) -> bool:
    """Equality as JSON Schema means it: ``true`` is not ``1``, ``1.0`` is ``1``."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(
            _json_equal(a, b) for a, b in zip(one, two, strict=True)
        )
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(
            key in two and _json_equal(value, two[key]) for key, value in one.items()
        )
    if isinstance(one, bool) or isinstance(two, bool):
        return False  # the same bool object was caught by `is` above
    return bool(one == two)


def _show(value: object) -> str:
    """A short rendering of a JSON value: strings quoted, ``true``/``false``/``null``."""
    if isinstance(value, str):
        text = repr(value)
    elif value is None or isinstance(value, bool | int | float | list | dict):
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError):
            text = repr(value)
    else:
        text = repr(value)
    if len(text) > _SHOW_LIMIT:
        text = text[: _SHOW_LIMIT - 1] + "…"
    return text


def _describe(value: object) -> str:
    """What kind of value this is, for "found ..." phrases."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({_show(value)})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, numbers.Number):
        return f"a number ({_show(value)})"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, list):
        return f"an array of {_count(len(value), 'item')}"
    if isinstance(value, dict):
        return f"an object with {_count(len(value), 'property', 'properties')}"
    return f"a value of unsupported Python type {type(value).__name__!r}"


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def _options(values: Sequence[object]) -> str:
    shown = [_show(value) for value in values[:_ENUM_LIMIT]]
    if len(values) > _ENUM_LIMIT:
        shown.append(f"… ({len(values)} choices in all)")
    return ", ".join(shown)


def _list_numbers(numbers_: Sequence[int]) -> str:
    words = [str(number) for number in numbers_]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --------------------------------------------------------------------------- schema inspection


def _unsupported(keyword: str, where: str) -> ValueError:
    return ValueError(f"unsupported schema keyword: {keyword!r} (at {where})")


def _inspect_schema(schema: object, resource: object, where: str) -> None:
    """Reject anything in ``schema`` that the checker would not check faithfully."""
    if isinstance(schema, bool):
        return
    if not isinstance(schema, Mapping):
        raise ValueError(f"a schema must be an object or a boolean (at {where})")
    if "$id" in schema:
        resource = schema
    for keyword, value in schema.items():
        here = f"{where}/{keyword}"
        if keyword not in SUPPORTED_KEYWORDS:
            raise _unsupported(keyword, where)
        if keyword in _SCHEMA_KEYWORDS:
            if keyword == "items" and isinstance(value, list):
                raise ValueError(
                    f"'items' must be a single schema in Draft 2020-12; use 'prefixItems' "
                    f"for a list of schemas (at {here})"
                )
            _inspect_schema(value, resource, here)
        elif keyword in _SCHEMA_LIST_KEYWORDS:
            if not isinstance(value, list) or not value:
                raise ValueError(f"{keyword!r} must be a non-empty array of schemas (at {here})")
            for index, subschema in enumerate(value):
                _inspect_schema(subschema, resource, f"{here}/{index}")
        elif keyword in _SCHEMA_MAP_KEYWORDS:
            if not isinstance(value, Mapping):
                raise ValueError(f"{keyword!r} must be an object of schemas (at {here})")
            for name, subschema in value.items():
                if keyword == "patternProperties":
                    _inspect_pattern(name, here)
                _inspect_schema(subschema, resource, f"{here}/{name}")
        elif keyword in _COUNT_KEYWORDS:
            if not _is_type(value, "integer") or value < 0:
                raise ValueError(f"{keyword!r} must be a non-negative integer (at {here})")
        elif keyword in _BOUND_KEYWORDS:
            if not _is_type(value, "number"):
                raise ValueError(f"{keyword!r} must be a number (at {here})")
        elif keyword in _STRING_KEYWORDS:
            if not isinstance(value, str):
                raise ValueError(f"{keyword!r} must be a string (at {here})")
        elif keyword == "$schema":
            if value not in (_DRAFT_2020_12, _DRAFT_2020_12 + "#"):
                raise ValueError(f"only Draft 2020-12 schemas are supported, not {value!r}")
        elif keyword == "$ref":
            _resolve(value, resource)
        elif keyword == "type":
            names = [value] if isinstance(value, str) else value
            if (
                not isinstance(names, list)
                or not names
                or any(name not in _JSON_TYPES for name in names)
            ):
                raise ValueError(f"'type' must name JSON types from {_JSON_TYPES} (at {here})")
        elif keyword == "enum":
            if not isinstance(value, list):
                raise ValueError(f"'enum' must be an array (at {here})")
        elif keyword == "required":
            if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
                raise ValueError(f"'required' must be an array of strings (at {here})")
        elif keyword == "uniqueItems":
            if not isinstance(value, bool):
                raise ValueError(f"'uniqueItems' must be a boolean (at {here})")
        elif keyword == "pattern":
            _inspect_pattern(value, here)


def _inspect_pattern(pattern: object, where: str) -> None:
    if not isinstance(pattern, str):
        raise ValueError(f"a pattern must be a string (at {where})")
    try:
        re.compile(pattern)
    except re.error as error:
        raise ValueError(f"invalid pattern {pattern!r} (at {where}): {error}") from error


def _resolve(ref: object, resource: object) -> Any:
    """The subschema a local ``#/$defs/Name`` reference points to."""
    if not isinstance(ref, str) or not ref.startswith(_REF_PREFIX):
        raise ValueError(f"unsupported $ref {ref!r}: only '#/$defs/Name' references are allowed")
    encoded = ref[len(_REF_PREFIX) :]
    if not encoded or "/" in encoded:
        raise ValueError(f"unsupported $ref {ref!r}: only '#/$defs/Name' references are allowed")
    name = unquote(encoded).replace("~1", "/").replace("~0", "~")
    defs = resource.get("$defs") if isinstance(resource, Mapping) else None
    if not isinstance(defs, Mapping) or name not in defs:
        raise ValueError(f"unresolvable $ref {ref!r}: no such entry in '$defs'")
    return defs[name]


# --------------------------------------------------------------------------- checking


class _Checker:
    """Walks a document and a schema together, collecting violations."""

    def __init__(self) -> None:
        # (id of the referring schema, document path) pairs whose $ref is being followed: a
        # reference cycle that consumes no input becomes a ValueError instead of a crash.
        self._following: set[tuple[int, _Path]] = set()
        # What produced some violations, by id(), to explain failed anyOf/oneOf well:
        # a type mismatch (with the wanted types) or an enum/const mismatch (with None).
        self._notes: dict[int, str | None] = {}
        self._noted: list[SchemaViolation] = []  # keeps noted violations alive, so ids stay unique

    def _note(self, violation: SchemaViolation, note: str | None) -> SchemaViolation:
        self._notes[id(violation)] = note
        self._noted.append(violation)
        return violation

    def is_valid(self, value: object, schema: object, path: _Path, resource: object) -> bool:
        return not self.check(value, schema, path, resource)

    def check(
        self, value: object, schema: object, path: _Path, resource: object
    ) -> list[SchemaViolation]:
        if schema is True:
            return []
        if not isinstance(schema, Mapping):
            return [SchemaViolation(path, "no value is allowed here")]
        if "$id" in schema:
            resource = schema
        out: list[SchemaViolation] = []
        if "type" in schema:
            names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
            if not any(_is_type(value, name) for name in names):
                wanted = " or ".join(_TYPE_NAMES[name] for name in names)
                violation = SchemaViolation(path, f"expected {wanted}, found {_describe(value)}")
                out.append(self._note(violation, wanted))
        if "enum" in schema:
            choices = schema["enum"]
            if not any(_json_equal(choice, value) for choice in choices):
                if not choices:
                    message = "no value is allowed here (the list of allowed values is empty)"
                elif len(choices) == 1:
                    message = f"expected {_show(choices[0])}, found {_show(value)}"
                else:
                    message = f"expected one of {_options(choices)}; found {_show(value)}"
                out.append(self._note(SchemaViolation(path, message), None))
        if "const" in schema and not _json_equal(schema["const"], value):
            message = f"expected {_show(schema['const'])}, found {_show(value)}"
            out.append(self._note(SchemaViolation(path, message), None))
        if "$ref" in schema:
            out += self._follow(value, schema, path, resource)

        if isinstance(value, dict):
            out += self._check_object(value, schema, path, resource)
        elif isinstance(value, list):
            out += self._check_array(value, schema, path, resource)
        elif isinstance(value, str):
            out += _check_string(value, schema, path)
        elif _is_type(value, "number"):
            out += _check_number(value, schema, path)

        for keyword in ("allOf", "anyOf", "oneOf"):
            if keyword in schema:
                out += self._check_combination(keyword, value, schema[keyword], path, resource)
        if "not" in schema and self.is_valid(value, schema["not"], path, resource):
            out.append(SchemaViolation(path, _forbidden(schema["not"])))
        if "if" in schema:
            branch = "then" if self.is_valid(value, schema["if"], path, resource) else "else"
            if branch in schema:
                out += self.check(value, schema[branch], path, resource)
        return out

    def _follow(
        self, value: object, schema: Mapping[str, Any], path: _Path, resource: object
    ) -> list[SchemaViolation]:
        key = (id(schema), path)
        if key in self._following:
            where = SchemaViolation(path, "").where()
            raise ValueError(f"circular $ref {schema['$ref']!r} while checking {where}")
        self._following.add(key)
        try:
            return self.check(value, _resolve(schema["$ref"], resource), path, resource)
        finally:
            self._following.discard(key)

    def _check_object(
        self, value: dict[Any, Any], schema: Mapping[str, Any], path: _Path, resource: object
    ) -> list[SchemaViolation]:
        out = [
            SchemaViolation(path, f"missing required property {_show(name)}")
            for name in schema.get("required", ())
            if name not in value
        ]
        out += _check_size(len(value), schema, "Properties", ("property", "properties"), path)
        if "propertyNames" in schema:
            for name in value:
                # A name is not a location in the document: check it on its own, with a fresh
                # checker, so that its $ref chain cannot be mistaken for a reference cycle.
                for problem in _Checker().check(name, schema["propertyNames"], (), resource):
                    message = f"property name {_show(name)} is not allowed: {problem.message}"
                    out.append(SchemaViolation(path, message))
        properties: Mapping[str, Any] = schema.get("properties", {})
        patterns: Mapping[str, Any] = schema.get("patternProperties", {})
        additional: object = schema.get("additionalProperties", True)
        for name, item in value.items():
            here = (*path, name if isinstance(name, str) else str(name))
            applicable = [properties[name]] if name in properties else []
            applicable += [
                subschema
                for pattern, subschema in patterns.items()
                if isinstance(name, str) and re.search(pattern, name)
            ]
            if not applicable:
                applicable = [additional]
            for subschema in applicable:
                if subschema is False:
                    out.append(SchemaViolation(path, f"unexpected property {_show(name)}"))
                else:
                    out += self.check(item, subschema, here, resource)
        return out

    def _check_array(
        self, value: list[Any], schema: Mapping[str, Any], path: _Path, resource: object
    ) -> list[SchemaViolation]:
        out = _check_size(len(value), schema, "Items", ("item", "items"), path)
        if schema.get("uniqueItems") is True:
            duplicate = _first_duplicate(value)
            if duplicate is not None:
                earlier, later = duplicate
                message = f"items must all differ, but item [{later}] repeats item [{earlier}]"
                out.append(SchemaViolation(path, message))
        prefix: Sequence[object] = schema.get("prefixItems", ())
        rest: object = schema.get("items", True)
        if rest is False and len(value) > len(prefix):
            wanted = _count(len(prefix), "item", "items")
            out.append(SchemaViolation(path, f"expected at most {wanted}, found {len(value)}"))
        for index, item in enumerate(value):
            subschema = prefix[index] if index < len(prefix) else rest
            if subschema is not False or index < len(prefix):
                out += self.check(item, subschema, (*path, index), resource)
        return out

    def _check_combination(
        self,
        keyword: str,
        value: object,
        branches: Sequence[object],
        path: _Path,
        resource: object,
    ) -> list[SchemaViolation]:
        results = [self.check(value, branch, path, resource) for branch in branches]
        if keyword == "allOf":
            return [violation for result in results for violation in result]
        matching = [number for number, result in enumerate(results, 1) if not result]
        if keyword == "oneOf" and len(matching) > 1:
            message = f"matches more than one allowed form (options {_list_numbers(matching)})"
            return [SchemaViolation(path, message)]
        if matching:
            return []
        return self._explain_no_match(results, path, value)

    def _explain_no_match(
        self, results: Sequence[list[SchemaViolation]], path: _Path, value: object
    ) -> list[SchemaViolation]:
        """Explain why no branch of an ``anyOf``/``oneOf`` matched, deterministically.

        A branch is *ruled out* if the value has the wrong type for it, or fails an ``enum`` or
        ``const`` here or in a direct member (typically a "kind" discriminator).  If exactly one
        branch is not ruled out, its violations are reported.  Otherwise the branch that got
        deepest into the document is reported (ties: fewest violations, then the first), unless
        it fails only right here: then one summary names each branch's main problem.
        """

        def ruling(violation: SchemaViolation) -> bool:
            if id(violation) not in self._notes:
                return False
            if self._notes[id(violation)] is None:  # enum/const mismatch
                return len(violation.path) <= len(path) + 1
            return violation.path == path  # type mismatch

        def depth(result: list[SchemaViolation]) -> int:
            return max(len(violation.path) for violation in result)

        plausible = [i for i, result in enumerate(results) if not any(map(ruling, result))]
        best = max(
            plausible or range(len(results)),
            key=lambda i: (depth(results[i]), -len(results[i]), -i),
        )
        if len(plausible) == 1 or (plausible and depth(results[best]) > len(path)):
            return results[best]
        mains = [next(filter(ruling, result), result[0]) for result in results]
        kinds = [self._notes.get(id(main)) for main in mains]
        if all(isinstance(kind, str) for kind in kinds):
            wanted = " or ".join(dict.fromkeys(str(kind) for kind in kinds))
            return [SchemaViolation(path, f"expected {wanted}, found {_describe(value)}")]
        listed = "; ".join(
            f"option {number}: {_relative(main, path)}{main.message}"
            for number, main in enumerate(mains, 1)
        )
        return [SchemaViolation(path, f"matches none of the allowed forms ({listed})")]


def _relative(violation: SchemaViolation, base: _Path) -> str:
    """``"kind: "`` for a violation at member ``kind`` of ``base``; ``""`` at ``base`` itself."""
    if len(violation.path) == len(base):
        return ""
    inner = SchemaViolation(violation.path[len(base) :], "").where()[1:]
    return inner.removeprefix(".") + ": "


def _check_size(
    size: int, schema: Mapping[str, Any], suffix: str, nouns: tuple[str, str], path: _Path
) -> list[SchemaViolation]:
    """``minItems``/``maxItems`` or ``minProperties``/``maxProperties``."""
    out: list[SchemaViolation] = []
    low, high = schema.get("min" + suffix), schema.get("max" + suffix)
    if low is not None and size < low:
        out.append(SchemaViolation(path, f"expected at least {_count(low, *nouns)}, found {size}"))
    if high is not None and size > high:
        out.append(SchemaViolation(path, f"expected at most {_count(high, *nouns)}, found {size}"))
    return out


def _check_string(value: str, schema: Mapping[str, Any], path: _Path) -> list[SchemaViolation]:
    out: list[SchemaViolation] = []
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is not None and len(value) < low:
        wanted = _count(low, "character", "characters")
        out.append(SchemaViolation(path, f"expected at least {wanted}, found {_show(value)}"))
    if high is not None and len(value) > high:
        wanted = _count(high, "character", "characters")
        out.append(SchemaViolation(path, f"expected at most {wanted}, found {_show(value)}"))
    if "pattern" in schema and not re.search(schema["pattern"], value):
        message = f"does not match pattern {_show(schema['pattern'])}: {_show(value)}"
        out.append(SchemaViolation(path, message))
    return out


def _check_number(value: Any, schema: Mapping[str, Any], path: _Path) -> list[SchemaViolation]:
    out: list[SchemaViolation] = []
    for keyword, phrase in _BOUND_PHRASES:
        if keyword in schema:
            bound = schema[keyword]
            fails = {
                "minimum": value < bound,
                "maximum": value > bound,
                "exclusiveMinimum": value <= bound,
                "exclusiveMaximum": value >= bound,
            }[keyword]
            if fails:
                message = f"expected {phrase} {_show(bound)}, found {_show(value)}"
                out.append(SchemaViolation(path, message))
    return out


_BOUND_PHRASES: Final = (
    ("minimum", "at least"),
    ("maximum", "at most"),
    ("exclusiveMinimum", "more than"),
    ("exclusiveMaximum", "less than"),
)


def _forbidden(schema: object) -> str:
    """Message for a value that matches a ``not`` schema."""
    if isinstance(schema, Mapping) and len(schema) == 1:
        if "const" in schema:
            return f"must not be {_show(schema['const'])}"
        if schema.get("enum"):
            return f"must not be any of {_options(schema['enum'])}"
        if "required" in schema and len(schema["required"]) == 1:
            return f"must not have property {_show(schema['required'][0])}"
    return "matches a form that is not allowed here"


def _first_duplicate(items: Sequence[object]) -> tuple[int, int] | None:
    """Indexes (earlier, later) of the first repeated item, comparing as JSON values."""
    for later, item in enumerate(items):
        for earlier in range(later):
            if _json_equal(items[earlier], item):
                return earlier, later
    return None


class _DocumentOrder:
    """Sort keys that order paths as their locations appear in the document.

    A container's own location sorts before everything inside it; object members follow the
    order of the document's keys, array items their indexes.
    """

    def __init__(self, document: object) -> None:
        self._document = document
        self._positions: dict[int, dict[str, int]] = {}

    def key(self, path: _Path) -> tuple[int, ...]:
        node: object = self._document
        key: list[int] = []
        for part in path:
            if isinstance(node, list) and isinstance(part, int):
                key.append(part)
                node = node[part] if 0 <= part < len(node) else None
            elif isinstance(node, dict):
                positions = self._positions.get(id(node))
                if positions is None:
                    positions = {str(name): index for index, name in enumerate(node)}
                    self._positions[id(node)] = positions
                key.append(positions.get(str(part), len(positions)))
                node = node.get(part)
            else:  # cannot happen for paths produced by the checker
                key.append(0)
                node = None
        return tuple(key)
