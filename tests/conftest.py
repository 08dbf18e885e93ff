"""Shared pytest configuration and fixtures for the Cluster Companion test suite.

The rulebook tests (``test_r*.py``, ``test_rulebook_claims.py``) build positions in one line
with the ``board`` fixture and play a turn with ``play``. The two stock maps, with every
sector worth 1 mineral unless a test says otherwise::

    "line":  S1 - S2 - S3 - S4 - S5

    "grid":  S1 - S2 - S3
             |    |    |
             S4 - S5 - S6
             |    |    |
             S7 - S8 - S9

Any other map is given as its list of edges: ``board([("S1", "S2"), ("S2", "S10")], ...)``.

Units are ``(colour, type, sector)`` or, for a carrier, ``(colour, "carrier", sector, docked)``;
they are numbered 1, 2, 3 ... in the order listed. A deployed strike craft is
``(carrier's sector, craft's sector)``. Empires are seated in the rulebook's colour order
(Red, Green, Blue, Yellow, ...) and their home is their first unit's sector. Build-phase
tests pass ``phase=Phase.BUILD`` (and usually ``turn=2``).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main as cli_main
from companion.local_cluster import (
    Colour,
    Craft,
    Empire,
    Galaxy,
    HouseRules,
    Phase,
    Sector,
    State,
    TurnResult,
    Unit,
    UnitType,
    adjudicate,
)
from companion.local_cluster.atoms import sector_sort_key
from companion.service import FakeClock, Storage, TableService

MAPS: dict[str, tuple[int, list[tuple[str, str]]]] = {
    "line": (5, [("S1", "S2"), ("S2", "S3"), ("S3", "S4"), ("S4", "S5")]),
    "grid": (
        9,
        [
            ("S1", "S2"),
            ("S2", "S3"),
            ("S4", "S5"),
            ("S5", "S6"),
            ("S7", "S8"),
            ("S8", "S9"),
            ("S1", "S4"),
            ("S4", "S7"),
            ("S2", "S5"),
            ("S5", "S8"),
            ("S3", "S6"),
            ("S6", "S9"),
        ],
    ),
}

UnitSpec = tuple[Any, ...]


def _colour(value: Colour | str) -> Colour:
    return value if isinstance(value, Colour) else Colour.parse(value)


def make_board(
    map: str | Iterable[tuple[str, str]] = "grid",
    *,
    units: Sequence[UnitSpec] = (),
    craft: Sequence[tuple[str, str]] = (),
    claims: Mapping[str, Colour | str] | None = None,
    minerals: Mapping[str, int] | None = None,
    empires: Iterable[Colour | str] = (),
    stockpiled: Iterable[Colour | str] = (),
    rules: HouseRules | None = None,
    turn: int = 1,
    phase: Phase = Phase.ORDERS,
) -> State:
    """A position in one call; see the module docstring for the notation."""
    if isinstance(map, str):
        count, edges = MAPS[map]
        ids = [f"S{n}" for n in range(1, count + 1)]
    else:
        edges = list(map)
        ids = sorted({s for edge in edges for s in edge}, key=sector_sort_key)
    values = dict(minerals or {})
    galaxy = Galaxy.from_sectors([Sector(s, values.get(s, 1)) for s in ids], edges)

    placed = []
    for number, (colour, kind, sector, *docked) in enumerate(units, start=1):
        placed.append(
            Unit(number, _colour(colour), UnitType.parse(kind), sector, docked[0] if docked else 0)
        )
    by_sector = {u.sector: u for u in placed}
    deployed = [
        Craft(by_sector[carrier].id, by_sector[carrier].owner, sector) for carrier, sector in craft
    ]
    claim_map = {s: _colour(c) for s, c in (claims or {}).items()}

    colours = {_colour(c) for c in empires} | {u.owner for u in placed} | set(claim_map.values())
    saved = {_colour(c) for c in stockpiled}
    seated = []
    for seat, colour in enumerate(sorted(colours, key=lambda c: c.rank), start=1):
        home = next(
            (u.sector for u in placed if u.owner is colour),
            next((s for s, c in claim_map.items() if c is colour), ids[0]),
        )
        seated.append(Empire(colour, seat, home, stockpiled=colour in saved))
    return State.create(
        galaxy=galaxy,
        rules=rules or HouseRules(),
        empires=seated,
        units=placed,
        craft=deployed,
        claims=claim_map,
        turn=turn,
        phase=phase,
    )


def play_turn(state: State, **orders: str) -> TurnResult:
    """Adjudicate one turn with each empire's orders given by colour name: ``red="HOLD S1"``.

    Every position a turn leaves behind must keep the invariants of a legal state.
    """
    result = adjudicate(state, {Colour.parse(name): text for name, text in orders.items()})
    result.state.check()
    return result


def describe_units(state: State) -> dict[str, str]:
    """Every unit by sector: ``{"S2": "red destroyer", "S5": "blue carrier (3 docked)"}``."""
    out = {}
    for unit in state.units:
        text = f"{unit.owner.value} {unit.kind.value}"
        if unit.kind is UnitType.CARRIER:
            text += f" ({unit.docked} docked)"
        out[unit.sector] = text
    return out


def describe_craft(state: State) -> dict[str, list[str]]:
    """Deployed strike craft by sector: ``{"S3": ["red", "red"]}``."""
    out: dict[str, list[str]] = {}
    for c in state.craft:
        out.setdefault(c.sector, []).append(c.owner.value)
    return {s: sorted(v) for s, v in out.items()}


def describe_claims(state: State) -> dict[str, str]:
    """Claims by sector: ``{"S1": "red"}``."""
    return {s: c.value for s, c in state.claims}


@dataclass
class Run:
    """What one ``companion`` command did: its exit code and what it printed."""

    code: int
    out: str
    err: str


Runner = Callable[..., Run]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    """``run("show", "game.json", stdin=...)``: the CLI's main() in-process."""

    def go(*args: str | Path, stdin: str = "") -> Run:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = cli_main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return go


@pytest.fixture
def clock() -> FakeClock:
    """The table service's clock in tests: it moves only when a test advances it."""
    return FakeClock()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


@pytest.fixture
def service(db: Path, clock: FakeClock) -> Iterator[TableService]:
    """A table service on a fresh SQLite file in the test's folder, on the fake clock."""
    with TableService(Storage(db), clock=clock) as opened:
        yield opened


@pytest.fixture
def board() -> Callable[..., State]:
    """``board("line", units=[("red", "destroyer", "S1")], claims={"S1": "red"})``."""
    return make_board


@pytest.fixture
def play() -> Callable[..., TurnResult]:
    """``play(state, red="ADVANCE S1 S2", blue="HOLD S2")``: the turn's TurnResult."""
    return play_turn


@pytest.fixture
def pieces() -> Callable[[State], dict[str, str]]:
    """``pieces(state) == {"S2": "red destroyer"}``: where the units stand."""
    return describe_units


@pytest.fixture
def craft_at() -> Callable[[State], dict[str, list[str]]]:
    """``craft_at(state) == {"S3": ["red"]}``: where the deployed strike craft are."""
    return describe_craft


@pytest.fixture
def claimed() -> Callable[[State], dict[str, str]]:
    """``claimed(state) == {"S1": "red"}``: who claims what."""
    return describe_claims


# -- Browser tests (tests/test_web_*browser.py) ------------------------------------------------


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Each phase's report kept on the test (``rep_call``), for fixtures that look at it."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never `playwright install`).

    When the test fails, every page still open is saved to test-artifacts/ as it stood (its
    HTML and a screenshot, named after the test): a step that timed out on a loaded machine
    shows what the page held instead."""
    from playwright.sync_api import sync_playwright
    from web_helpers import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as play:
        chromium = play.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
            call = getattr(request.node, "rep_call", None)
            if call is not None and call.failed:
                _save_pages(chromium, request.node.name)
        finally:
            chromium.close()


def _save_pages(chromium: Any, name: str) -> None:
    artifacts = Path(__file__).resolve().parent.parent / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    pages = [page for context in chromium.contexts for page in context.pages]
    for number, page in enumerate(pages, start=1):
        stem = artifacts / f"failed-{name}-page{number}"
        try:
            stem.with_suffix(".html").write_text(f"<!-- {page.url} -->\n{page.content()}")
            page.screenshot(path=str(stem.with_suffix(".png")), full_page=True, timeout=10_000)
        except Exception as error:  # a page that crashed: say so, and save the others
            print(f"{stem.name}: not saved ({error})", file=sys.stderr)
        else:
            print(f"saved {stem.name}.html and .png", file=sys.stderr)


# -- The benchmarks' command lines (tests/test_*benchmark_smoke.py) ------------------------------


@pytest.fixture
def stand_in(
    monkeypatch: pytest.MonkeyPatch,
) -> Callable[[Any, dict[str, Any]], list[dict[str, Any]]]:
    """``asked = stand_in(module, results)``: the benchmark module's ``run`` replaced by one
    that returns ``results`` (a run the test already made) and records in ``asked`` the
    options each call passed, so the command line is checked without running it again."""

    def replace(module: Any, results: dict[str, Any]) -> list[dict[str, Any]]:
        asked: list[dict[str, Any]] = []

        def run(**options: Any) -> dict[str, Any]:
            asked.append(options)
            return results

        monkeypatch.setattr(module, "run", run)
        return asked

    return replace


# -- DATC summary line (Cosmic Cluster's Diplomacy engine, tests/test_datc.py) --------------


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line: how many DATC cases pass, fail and are skipped as marked ``ignore``."""
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for kind in counts:
        for report in terminalreporter.stats.get(kind, []):
            if "test_datc.py::test_6_" in getattr(report, "nodeid", ""):
                counts[kind] += 1
    if sum(counts.values()):
        terminalreporter.write_line(
            f"DATC: {counts['passed']} cases pass, {counts['failed']} fail, "
            f"{counts['skipped']} skipped as marked ignore (with their reasons)"
        )
