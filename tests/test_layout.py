"""The package layout's rules (issue 14), checked on the source itself so they stay true.

- The ``companion`` package imports nothing outside the standard library but ``jsonschema``, and
  that only in :mod:`companion.records`, the shared record checker: the rules of every game stay
  standard library only (docs/dependencies.md).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THIRD_PARTY_ALLOWED = {"companion/records.py": {"jsonschema"}}
"""The only modules of ``companion`` that may import outside the standard library."""


def _imported(tree: ast.AST) -> set[str]:
    """The top-level names of every absolute import in a module (at any depth, even lazy)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def test_companion_imports_only_the_standard_library_but_jsonschema_in_records() -> None:
    outside: dict[str, set[str]] = {}
    for path in sorted((ROOT / "companion").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        imported = _imported(ast.parse(path.read_text(), module))
        foreign = imported - set(sys.stdlib_module_names) - {"companion", "__future__"}
        foreign -= THIRD_PARTY_ALLOWED.get(module, set())
        if foreign:
            outside[module] = foreign
    assert outside == {}, "only companion/records.py may import outside the standard library"
    records = _imported(ast.parse((ROOT / "companion" / "records.py").read_text()))
    assert "jsonschema" in records  # the allowance is in use, not stale
