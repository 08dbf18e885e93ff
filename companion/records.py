"""Shared by every game: reading a game record's JSON and checking it against the game's schema.

Every game ships the JSON Schema (Draft 2020-12) of its records in ``companion/<game>/schemas/``
and checks a record with one :class:`RecordSchema`::

    SCHEMA = RecordSchema("companion.clustered.schemas", "clustered-record.schema.json",
                          "Clustered")
    data = SCHEMA.load(text)        # RecordError: "not a Clustered game record: $.moves[3]: ..."

The checking is done by the ``jsonschema`` library (docs/dependencies.md); this module picks
the one problem to report and says it in words: where in the document (a path such as
``$.setup.empires[1].colour``) and what was expected there. The rules packages never import
this module (they stay standard library only): a game's record module does.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from companion.errors import RecordError

MAX_RECORD_BYTES: Final = 64 * 1024 * 1024
"""The largest record any game reads (a long game is well under 1 MiB)."""

_SHOW_LIMIT: Final = 60
_ENUM_LIMIT: Final = 10
_TYPE_NAMES: Final = {
    "null": "null",
    "boolean": "a boolean",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}
_BOUNDS: Final = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "more than",
    "exclusiveMaximum": "less than",
}
_SIZES: Final = {
    "minItems": ("at least", "item", "items"),
    "maxItems": ("at most", "item", "items"),
    "minProperties": ("at least", "property", "properties"),
    "maxProperties": ("at most", "property", "properties"),
    "minLength": ("at least", "character", "characters"),
    "maxLength": ("at most", "character", "characters"),
}
_IDENTIFIER: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Path = tuple[str | int, ...]


def parse_json(text: str | bytes, *, limit: int = MAX_RECORD_BYTES) -> Any:
    """The JSON value of a record's text; RecordError names the line and column of a mistake."""
    if len(text) > limit:
        raise RecordError(f"the record is over {limit // 2**20} MiB; refusing it")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"not JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    except UnicodeDecodeError as err:
        raise RecordError(f"not UTF-8 text: {err.reason} at byte {err.start}") from None


def game_name(text: str | bytes) -> str:
    """The name of the game a record belongs to (its ``"game"``), before the game's own checks.

    What the ``companion`` command and the table service dispatch on; RecordError if the text
    is not a JSON object naming a game."""
    document = parse_json(text)
    if not isinstance(document, dict):
        raise RecordError(f"not a game record: expected a JSON object, found {_describe(document)}")
    name = document.get("game")
    if not isinstance(name, str):
        raise RecordError('not a game record: it does not say which game it is (no "game" field)')
    return name


@dataclasses.dataclass(frozen=True)
class Violation:
    """Where a document breaks its schema (a path from the root) and what was expected there."""

    path: Path
    message: str

    def where(self) -> str:
        """``$`` for the document, then ``.name`` or ``["odd name"]`` and ``[index]`` steps."""
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


class RecordSchema:
    """A game's record schema, shipped in its package, and the checks made with it."""

    def __init__(self, package: str, file_name: str, title: str) -> None:
        self.package = package
        self.file_name = file_name
        self.title = title
        """The game's title, for "not a <title> game record"."""

    def schema(self) -> dict[str, Any]:
        """The schema itself (a fresh copy: callers may change it)."""
        return json.loads(_schema_text(self.package, self.file_name))  # type: ignore[no-any-return]

    def violation(self, document: object) -> Violation | None:
        """The problem to report first (see :func:`first_violation`), or None if it is valid."""
        return _first(_validator(self.package, self.file_name), document)

    def check(self, document: object) -> None:
        """RecordError saying where and what, unless ``document`` follows the schema."""
        violation = self.violation(document)
        if violation is not None:
            raise RecordError(f"not a {self.title} game record: {violation}")

    def load(self, text: str | bytes) -> Any:
        """Parse and check a record's text; its JSON value (a dict) when it follows the schema."""
        data = parse_json(text)
        self.check(data)
        return data


def first_violation(document: object, schema: Mapping[str, Any]) -> Violation | None:
    """The first problem of ``document`` under ``schema``, or None if it is valid.

    Problems are taken in document order (a container before what it holds, members in the
    document's order); a problem with an ``anyOf`` or ``oneOf`` is explained by the form the
    document was evidently meant to have (the one its ``kind``, type or constant fits).
    """
    return _first(Draft202012Validator(schema), document)


@cache
def _schema_text(package: str, file_name: str) -> str:
    return resources.files(package).joinpath(file_name).read_text("utf-8")


@cache
def _validator(package: str, file_name: str) -> Draft202012Validator:
    schema = json.loads(_schema_text(package, file_name))
    Draft202012Validator.check_schema(schema)  # a broken shipped schema fails loudly, at once
    return Draft202012Validator(schema)


def _first(validator: Draft202012Validator, document: object) -> Violation | None:
    errors = list(validator.iter_errors(document))
    if not errors:
        return None
    return _explain(_earliest(errors, document), validator, document)


def _path(error: ValidationError) -> Path:
    return tuple(error.absolute_path)


def _earliest(errors: Iterable[ValidationError], document: object) -> ValidationError:
    """The error earliest in the document (ties: the schema's order, as reported)."""
    return min(errors, key=lambda error: _document_order(document, _path(error)))


def _document_order(document: object, path: Path) -> tuple[int, ...]:
    """Sort key of a location: a container before its contents, members in document order."""
    node = document
    key: list[int] = []
    for part in path:
        if isinstance(node, list) and isinstance(part, int):
            key.append(part)
            node = node[part] if 0 <= part < len(node) else None
        elif isinstance(node, dict):
            names = list(node)
            key.append(names.index(part) if part in node else len(names))
            node = node.get(part)
        else:
            key.append(0)
            node = None
    return tuple(key)


# Explaining one error -------------------------------------------------------------------------


def _explain(
    error: ValidationError, validator: Draft202012Validator, document: object
) -> Violation:
    path = _path(error)
    if error.validator in ("anyOf", "oneOf"):
        return _explain_choice(error, validator, document)
    message = _message(error)
    if "propertyNames" in error.relative_schema_path:
        message = f"property name {_show(error.instance)} is not allowed: {message}"
    return Violation(path, message)


def _explain_choice(
    error: ValidationError, validator: Draft202012Validator, document: object
) -> Violation:
    """Why no form of an ``anyOf``/``oneOf`` fits (or, for ``oneOf``, more than one does)."""
    path = _path(error)
    forms: Any = error.validator_value
    if not error.context:  # a oneOf that more than one form matches
        matching = [
            number
            for number, form in enumerate(forms, 1)
            if validator.evolve(schema=form).is_valid(error.instance)
        ]
        return Violation(path, f"matches more than one allowed form (options {_numbers(matching)})")
    by_form: dict[int, list[ValidationError]] = {}
    for inner in error.context:
        by_form.setdefault(int(inner.relative_schema_path[0]), []).append(inner)
    results = [by_form.get(index, []) for index in range(len(forms))]
    depth = len(path)

    def ruled_out(inner: ValidationError) -> bool:
        """A form the document was clearly not meant to take: wrong type, kind or constant."""
        here = len(_path(inner)) - depth
        if inner.validator in ("const", "enum"):
            return here <= 1
        return inner.validator == "type" and here == 0

    plausible = [i for i, found in enumerate(results) if found and not any(map(ruled_out, found))]

    def reach(index: int) -> tuple[int, int, int]:
        found = results[index]
        return (max(len(_path(inner)) for inner in found), -len(found), -index)

    candidates = plausible or [i for i, found in enumerate(results) if found]
    best = max(candidates, key=reach)
    if len(plausible) == 1 or (plausible and reach(best)[0] > depth):
        chosen = results[best]
        return _explain(_earliest(chosen, document), validator, document)
    mains = [next(filter(ruled_out, found), found[0]) for found in results if found]
    if all(main.validator == "type" for main in mains):
        types: list[Any] = [main.validator_value for main in mains]
        wanted = " or ".join(dict.fromkeys(_types(value) for value in types))
        return Violation(path, f"expected {wanted}, found {_describe(error.instance)}")
    listed = "; ".join(
        f"option {number}: {_relative(_explain(main, validator, document), path)}"
        for number, main in enumerate(mains, 1)
    )
    return Violation(path, f"matches none of the allowed forms ({listed})")


def _relative(violation: Violation, base: Path) -> str:
    """A violation inside ``base`` as ``"kind: message"`` (just the message at ``base``)."""
    if len(violation.path) == len(base):
        return violation.message
    inner = Violation(violation.path[len(base) :], violation.message)
    return str(inner)[1:].removeprefix(".")


def _message(error: ValidationError) -> str:
    keyword = error.validator
    value: Any = error.validator_value
    instance: Any = error.instance
    if keyword == "type":
        return f"expected {_types(value)}, found {_describe(instance)}"
    if keyword == "enum":
        if len(value) == 1:
            return f"expected {_show(value[0])}, found {_show(instance)}"
        return f"expected one of {_options(value)}; found {_show(instance)}"
    if keyword == "const":
        return f"expected {_show(value)}, found {_show(instance)}"
    if keyword == "required":
        missing = next((name for name in value if name not in instance), value[0])
        return f"missing required property {_show(missing)}"
    if keyword == "additionalProperties" and value is False:
        return f"unexpected property {_show(_unexpected(error.schema, instance))}"
    if keyword in _BOUNDS:
        return f"expected {_BOUNDS[str(keyword)]} {_show(value)}, found {_show(instance)}"
    if keyword in _SIZES:
        phrase, one, many = _SIZES[str(keyword)]
        found = _show(instance) if isinstance(instance, str) else str(len(instance))
        return f"expected {phrase} {_count(value, one, many)}, found {found}"
    if keyword == "items" and value is False:
        schema: Any = error.schema
        allowed = len(schema.get("prefixItems", ()))
        return f"expected at most {_count(allowed, 'item', 'items')}, found {len(instance)}"
    if keyword == "pattern":
        return f"does not match pattern {_show(value)}: {_show(instance)}"
    if keyword == "uniqueItems":
        return "items must all differ, but " + _duplicate(instance)
    if keyword == "not":
        return _forbidden(value)
    if keyword is None and error.schema is False:  # a property or item that may not be there
        return "no value is allowed here"
    return str(error.message)  # a keyword the record schemas do not use yet: the library's words


def _unexpected(schema: Any, instance: Mapping[str, Any]) -> str:
    """The first member of ``instance`` that neither ``properties`` nor a pattern allows."""
    known = schema.get("properties", {}) if isinstance(schema, Mapping) else {}
    patterns = schema.get("patternProperties", {}) if isinstance(schema, Mapping) else {}
    for name in instance:
        if name not in known and not any(re.search(p, name) for p in patterns):
            return str(name)
    return str(next(iter(instance), ""))


def _duplicate(items: Sequence[Any]) -> str:
    for later, item in enumerate(items):
        for earlier in range(later):
            if _json_equal(items[earlier], item):
                return f"item [{later}] repeats item [{earlier}]"
    return "some items repeat"


def _json_equal(one: object, two: object) -> bool:
    """Equality as JSON Schema means it: ``true`` is not ``1``; ``1.0`` is ``1``."""
    if isinstance(one, bool) or isinstance(two, bool):
        return type(one) is type(two) and one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(map(_json_equal, one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(_json_equal(one[k], two[k]) for k in one)
    return bool(one == two)


def _forbidden(schema: object) -> str:
    """What a value that matches a ``not`` schema may not be."""
    if isinstance(schema, Mapping) and len(schema) == 1:
        if "const" in schema:
            return f"must not be {_show(schema['const'])}"
        if schema.get("enum"):
            return f"must not be any of {_options(schema['enum'])}"
        if "required" in schema and len(schema["required"]) == 1:
            return f"must not have property {_show(schema['required'][0])}"
    return "matches a form that is not allowed here"


# Words for values -----------------------------------------------------------------------------


def _types(value: str | Sequence[str]) -> str:
    names = [value] if isinstance(value, str) else list(value)
    return " or ".join(_TYPE_NAMES.get(name, name) for name in names)


def _show(value: object) -> str:
    """A short rendering of a JSON value: strings quoted, ``true``/``false``/``null``."""
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= _SHOW_LIMIT else text[: _SHOW_LIMIT - 1] + "…"


def _describe(value: object) -> str:
    """What kind of value this is, for "found ..." phrases."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({_show(value)})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({_show(value)})"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, list):
        return f"an array of {_count(len(value), 'item', 'items')}"
    if isinstance(value, dict):
        return f"an object with {_count(len(value), 'property', 'properties')}"
    return f"a {type(value).__name__}"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _options(values: Sequence[object]) -> str:
    shown = [_show(value) for value in values[:_ENUM_LIMIT]]
    if len(values) > _ENUM_LIMIT:
        shown.append(f"… ({len(values)} choices in all)")
    return ", ".join(shown)


def _numbers(numbers: Sequence[int]) -> str:
    words = [str(number) for number in numbers]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
