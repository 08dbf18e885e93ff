"""The Diplomacy Adjudicator Test Cases (DATC v3.0), one test per case, on the standard map.

The cases are ``tests/data/datc/datc.json`` (MIT licence, ``tests/data/datc/LICENSE``): each
test below is generated from one case, named after it, with the case's URL in its docstring.
Cases the JSON marks ``ignore`` are skipped with its reason. Edition-specific cases run under
their edition; the others under the default, the 2023 rulebook.

Two cases are run with a correction (``ERRATA``), each with its reason: the JSON's expectation
there comes from the library it was exported from, not from the DATC text.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cosmic.diplomacy.datc import run_case

DATA = Path(__file__).parent / "data" / "datc" / "datc.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text("utf-8"))["cases"]

ERRATA: dict[str, tuple[str, dict[str, Any]]] = {
    "t6a05_move_to_own_sector_with_convoy": (
        "DATC 6.A.5: the move Yorkshire-Yorkshire is illegal, so the support of Liverpool for it "
        "is illegal too and fails; the JSON reports the support as not cut ('Succeeds').",
        {"orders": {"ENG: A lvp supports A yor -> yor": "Fails"}},
    ),
    "t6j09_civil_disorder_must_be_counted_from_both_coasts_second_scenario": (
        "DATC 6.J.9: 'the distance of the fleet [in Skagerrak] to St Petersburg(nc) is two ... "
        "so the army in Greece must be removed'. The JSON expected the fleet, as its source map "
        "lacks the Norway-St Petersburg border (restored in maps/standard/borders.csv).",
        {"civil_disorder": ["RUS: A alb"]},
    ),
}


def _test_name(case: dict[str, Any], names: Counter[str]) -> str:
    match = re.match(r"t6([a-z])(\d+)_(.*)", case["name"])
    assert match, case["name"]
    section, number, rest = match.groups()
    name = f"test_6_{section}_{int(number)}_{rest}"
    if names[case["name"]] > 1:
        name += f"_edition_{case['edition']}"
    return name


def _corrected(case: dict[str, Any]) -> dict[str, Any]:
    if case["name"] not in ERRATA:
        return case
    _, change = ERRATA[case["name"]]
    fixed = copy.deepcopy(case)
    for key, value in change.items():
        if isinstance(value, dict):
            fixed[key].update(value)
        else:
            fixed[key] = value
    return fixed


def _make_test(case: dict[str, Any]) -> Callable[[], None]:
    def test() -> None:
        if "ignore" in case:
            pytest.skip(f"DATC case marked ignore: {case['ignore']}")
        outcome = run_case(_corrected(case))
        assert not outcome.mismatches, "\n".join(outcome.mismatches)

    doc = f"{case['url']}\n\n{case.get('description', case['name'])}"
    if case["name"] in ERRATA:
        doc += f"\n\nCorrected: {ERRATA[case['name']][0]}"
    test.__doc__ = doc
    return test


_NAMES = Counter(case["name"] for case in CASES)
DATC_TESTS: list[str] = []
for _case in CASES:
    _name = _test_name(_case, _NAMES)
    assert _name not in globals(), _name
    _test = _make_test(_case)
    _test.__name__ = _test.__qualname__ = _name
    globals()[_name] = _test
    DATC_TESTS.append(_name)


def test_datc_summary_every_case_not_ignored_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """All 171 cases: those not marked ignore pass (the count is printed in the summary too)."""
    ignored = [c for c in CASES if "ignore" in c]
    passed = [c for c in CASES if "ignore" not in c and not run_case(_corrected(c)).mismatches]
    assert len(CASES) == 171
    assert len(passed) + len(ignored) == len(CASES)
    assert len(passed) == 164 and len(ignored) == 7
