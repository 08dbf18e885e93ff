"""The package layout's rules (issue 14), checked on the source itself so they stay true.

- The ``companion`` package imports nothing outside the standard library but ``jsonschema``, and
  that only in :mod:`companion.records`, the shared record checker: the rules of every game stay
  standard library only (docs/dependencies.md).
- Its modules import one another without a cycle, counting imports made inside functions and
  for type checking only (``game.py`` once imported ``record.py``, which imports it).
- No module outside a game's own folders names a registered game (its name, title or package),
  in code or in a page: the shared parts find games through ``companion.games`` only. A game's
  own folders are ``companion/<game>/``, ``web/games/<game>.py`` (or a package),
  ``web/templates/<game>/``, ``web/static/<game>/`` and ``vision/<game>/``; documentation
  (docstrings, comments) may name games.
- Every ``argsort`` in ``vision`` is stable: numpy's default sort leaves ties in an order that
  differs between numpy 1 (the Raspberry Pi's) and numpy 2, and between CPUs
  (docs/dependencies.md, "The Pi's OpenCV and numpy").
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from companion import games

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


# No shared module names a game ------------------------------------------------------------

SHIPPED = ("companion", "web", "vision", "hardware")
"""The packages the project installs (pyproject's packages.find); tests and benchmarks are
each game's own or exercise several."""
SOURCES = (".py", ".html", ".js", ".css")
INSTALLED = [games.get(entry.name) for entry in entry_points(group=games.GROUP)]
"""The games registered by entry points (not those a test registers for itself)."""


def _segments(game: games.Game) -> set[str]:
    """The folder and module names a game's own parts go by (``local_cluster``, ``cosmic``)."""
    return {game.rules.rpartition(".")[2], game.name.replace("-", "_")}


def _own(path: str, game: games.Game) -> bool:
    if path.startswith(game.rules.replace(".", "/") + "/"):
        return True
    for segment in _segments(game):
        for folder in ("web/games", "web/templates", "web/static", "vision"):
            if path.startswith(f"{folder}/{segment}/") or path == f"{folder}/{segment}.py":
                return True
    return False


def _shared_files() -> list[str]:
    found = []
    for package in SHIPPED:
        for path in sorted((ROOT / package).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in SOURCES or "__pycache__" in relative:
                continue
            if not any(_own(relative, game) for game in INSTALLED):
                found.append(relative)
    return found


def _words(game: games.Game) -> list[re.Pattern[str]]:
    """How code would name the game: its name, title (any case) or one of its packages."""
    packages = [
        game.rules,
        *(f"{outer}.{s}" for outer in ("web.games", "vision") for s in _segments(game)),
    ]
    return [
        re.compile(rf"(?<![\w-]){re.escape(game.name)}(?![\w-])"),
        re.compile(rf"(?<![\w-]){re.escape(game.title)}(?![\w-])", re.IGNORECASE),
        *(re.compile(rf"\b{re.escape(package)}\b") for package in packages),
    ]


PRODUCT = re.compile(r"cluster[ _-]companion", re.IGNORECASE)
"""The family's product name (``Cluster Companion``, ``cluster-companion``): it names no game,
though one game of the family is called Cluster."""


def _python_code(text: str, path: str) -> list[str]:
    """What a Python module says in code: the modules it imports and its string constants,
    leaving out documentation (a string that is a statement of its own)."""
    tree = ast.parse(text, path)
    documentation = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    said: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            said += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            said += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in documentation
        ):
            said.append(node.value)
    return said


_PAGE_COMMENTS = re.compile(r"\{#.*?#\}|<!--.*?-->|/\*.*?\*/|(?<![:\w])//[^\n]*", re.S)


def _page_code(text: str) -> list[str]:
    """A template, script or style sheet without its comments."""
    return [_PAGE_COMMENTS.sub(" ", text)]


@pytest.mark.parametrize("path", _shared_files())
def test_no_shared_module_names_a_game(path: str) -> None:
    text = (ROOT / path).read_text()
    said = _python_code(text, path) if path.endswith(".py") else _page_code(text)
    said = [PRODUCT.sub(" ", piece) for piece in said]
    named = [
        f"{game.title}: {piece.strip()[:80]!r}"
        for game in INSTALLED
        for word in _words(game)
        for piece in said
        if word.search(piece)
    ]
    assert named == [], f"{path} names a game; find games through companion.games instead"


def test_the_check_finds_a_game_named_in_code_but_not_in_documentation() -> None:
    code = '''"""Plays local-cluster."""\nimport companion.local_cluster.game\n'''
    code += """X = "Cosmic Cluster"\n"""
    said = _python_code(code, "example.py")
    assert said == ["companion.local_cluster.game", "Cosmic Cluster"]
    page = "{# Local Cluster #}<p>{{ x }}</p><!-- cosmic-cluster --> if (g === 'local-cluster')"
    assert _page_code(page)[0].count("cluster") == 1
    assert "companion/local_cluster/state.py" not in _shared_files()
    assert "web/games/cosmic_cluster.py" not in _shared_files()
    assert "companion/cli.py" in _shared_files()


def _imports_module(tree: ast.AST, module: str) -> bool:
    """Whether a module imports ``module`` (``import m``, ``from m import x``, ``from
    parent import m``), at any depth."""
    parent, _, leaf = module.rpartition(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == module for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == module:
                return True
            if node.module == parent and any(a.name == leaf for a in node.names):
                return True
    return False


@pytest.mark.parametrize("shared", ["vision.photograph", "vision.tabletop"])
def test_only_picture_renderers_use_the_shared_photograph(shared: str) -> None:
    """A reader is never checked against pictures drawn with its own code: the camera, light
    and sensor model of the renderers (vision/photograph.py) and how they lay a table
    (vision/tabletop.py, which photographs through the first) are imported by renderers
    only."""
    users = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "vision").rglob("*.py")
        if _imports_module(ast.parse(path.read_text()), shared)
    )
    assert users, f"no renderer uses {shared}: the check checks nothing"
    renderers = [u for u in users if u.endswith("/synthetic.py")]
    assert sorted([*renderers, *(u for u in users if u == "vision/tabletop.py")]) == users
    assert _imports_module(ast.parse("from vision import photograph"), "vision.photograph")


def _unstable_sorts(tree: ast.AST) -> list[int]:
    """The lines of every ``argsort`` or ``argpartition`` call (function or method) without
    ``kind="stable"``."""
    lines = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("argsort", "argpartition")
        ):
            continue
        kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
        if not (isinstance(kind, ast.Constant) and kind.value == "stable"):
            lines.append(node.lineno)
    return lines


def test_every_argsort_in_vision_is_stable() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "vision").rglob("*.py"))
        if (lines := _unstable_sorts(ast.parse(path.read_text(), str(path))))
    }
    assert found == {}, f"argsort without kind='stable' (ties differ by machine): {found}"
    sample = "np.argsort(a)\nb.argsort(kind='stable')\nnp.argpartition(a, 3)\n"
    assert _unstable_sorts(ast.parse(sample)) == [1, 3]
