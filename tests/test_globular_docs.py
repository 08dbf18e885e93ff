"""docs/rules-globular-cluster.md stays true: every ruling is restated, every test it names
exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules-globular-cluster.md").read_text()
RULING_IDS = {
    "G1": 10, "G2": 13, "G3": 13, "G4": 14, "G5": 4, "G6": 7, "G7": 4, "G8": 8,
}  # fmt: skip


def _test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE))
    return names


def test_every_ruling_is_restated_in_the_doc() -> None:
    for group, count in RULING_IDS.items():
        for number in range(1, count + 1):
            assert f"**{group}.{number}**" in DOC, f"{group}.{number} is not restated"


def test_every_test_the_doc_names_exists() -> None:
    named = set(re.findall(r"`(test_\w+)`", DOC))
    missing = named - _test_names()
    assert not missing, f"the doc names tests that do not exist: {sorted(missing)}"
    assert len(named) > 150
