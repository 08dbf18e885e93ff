"""The package layout's rules (issue 14), checked on the source itself so they stay true.

- The ``companion`` package imports nothing outside the standard library but ``jsonschema``, and
  that only in :mod:`companion.records`, the shared record checker: the rules of every game stay
  standard library only (docs/dependencies.md).
- Its modules import one another without a cycle, counting imports made inside functions and
  for type checking only (``game.py`` once imported ``record.py``, which imports it).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
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


def _modules() -> dict[str, Path]:
    """Every module of ``companion`` by dotted name (a package by its own name)."""
    found = {}
    for path in (ROOT / "companion").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _companion_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``companion`` that ``name`` imports (``from x import y`` may name a
    module ``x.y``), however and wherever in the module it imports them."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            wanted = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        else:
            continue
        out |= {module for module in wanted if module in modules and module != name}
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in order, the first repeated at the end), or None."""
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> Iterator[list[str]]:
        if module in trail:
            yield [*trail[trail.index(module) :], module]
            return
        if module in done:
            return
        for imported in sorted(graph[module]):
            yield from visit(imported, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        for cycle in visit(module, []):
            return cycle
    return None


def test_companion_has_no_import_cycle() -> None:
    modules = _modules()
    graph = {name: _companion_imports(name, path, modules) for name, path in modules.items()}
    assert "companion.local_cluster.game" in graph["companion.local_cluster.record"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])
    graph["companion.local_cluster.game"].add("companion.local_cluster.record")  # as it was
    assert _cycle(graph) == [
        "companion.local_cluster.game",
        "companion.local_cluster.record",
        "companion.local_cluster.game",
    ]
