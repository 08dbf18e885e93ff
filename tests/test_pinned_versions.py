"""constraints.txt: every package `make venv` installs, pinned to the version the suite and the
figures in docs/ were made with (docs/dependencies.md, "Pinned versions").

OpenCV 5.1.0.95 came out between two CI runs and changed how three of the vision tests'
pictures read; with the pins a clean clone installs what was tested here.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, str]:
    """constraints.txt's pins, by canonical name; each line must be ``name==version``."""
    out: dict[str, str] = {}
    for number, line in enumerate((ROOT / "constraints.txt").read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        requirement = Requirement(text)
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"constraints.txt line {number}: {line!r} is no pin"
        name = canonicalize_name(requirement.name)
        assert name not in out, f"constraints.txt line {number}: {name} pinned twice"
        out[name] = specifier.version
    return out


def declared() -> list[Requirement]:
    """What pyproject.toml asks for, the test extra included, for this machine."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    return [r for r in map(Requirement, wanted) if r.marker is None or r.marker.evaluate()]


def test_every_dependency_pyproject_declares_is_pinned_within_its_range() -> None:
    pinned = pins()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {name} {pinned[name]}, outside pyproject's {requirement}"
        )


def test_the_suite_runs_on_the_pinned_versions() -> None:
    """What this test process imports is what constraints.txt pins (a venv made before a pin
    moved is remade by `make venv`, whose stamp is older than constraints.txt)."""
    pinned = pins()
    seen = 0
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert metadata.version(requirement.name) == pinned[name], (
            f"{name} {metadata.version(requirement.name)} is installed; constraints.txt pins "
            f"{pinned[name]}: run `make venv`"
        )
        seen += 1
    assert seen >= 20


def test_make_venv_installs_with_the_pins() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "$(STAMP): pyproject.toml constraints.txt" in makefile
    assert "pip install --constraint constraints.txt -e '.[test]'" in makefile
