"""Cluster in Debian's Chromium: two 360x640 phones and a 1280x800 table screen (a touch screen
beside the board).

Ann (Red) taps her peg on c3 and sees its legal destinations lit, taps g1 and plays it; Bo's
move is tapped on the table screen (peg, then hole) and confirmed there; on a second table Ann
wins and the winning group is highlighted. Screenshots go to test-artifacts/ (cluster-*.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, live_server, make_app

from companion.cluster_peg.position import Position
from companion.service import Storage, TableService

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WAIT_MS = 30_000
NEAR_WIN = Position.parse("46 7/6/RrRrRr1/rRrRr1/6R/BbBbBb/bBbBbB1 r")

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make test)"),
]


def _page(browser: Any, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def _join(browser: Any, table: Any) -> list[Any]:
    links = [a.get_attribute("href") for a in table.locator(".join-link").all()]
    phones = []
    for link, name in zip(links, ("Ann", "Bo"), strict=True):
        phone = _page(browser, 360, 640)
        phone.goto(link)
        phone.fill('input[name="name"]', name)
        phone.click('button[type="submit"]')
        phones.append(phone)
    return phones


def _turn_of(page: Any, seat: int) -> None:
    page.wait_for_selector(f'.turn-box[data-acting="{seat}"]')


def test_moves_are_tapped_peg_then_hole_on_a_phone_and_on_the_table_screen(
    browser: Any, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id, _ = service.create_table("Pegs", 2, game="cluster")
        service.start_timer()
        with live_server(make_app(service)) as base:
            table = _page(browser, 1280, 800)
            table.goto(f"{base}/t/{table_id}")
            ann, bo = _join(browser, table)

            # Ann's phone: whose turn, her pegs tappable; c3 lights its destinations.
            _turn_of(ann, 1)
            assert "Your turn (Red)" in ann.locator(".whose-turn").inner_text()
            assert "Ann’s turn (Red)" in bo.locator(".whose-turn").inner_text()
            ann.locator('.peg[data-hole="c3"]').click()
            lit = sorted(n.get_attribute("data-hole") for n in ann.locator(".hole.target").all())
            assert lit == ["b2", "b3", "g1", "g5"]
            ann.screenshot(path=str(ARTIFACTS / "cluster-phone-selected.png"), full_page=True)
            ann.locator('.hole[data-hole="g1"] .hit').click(force=True)
            assert ann.locator(".move-text").input_value() == "c3*g1"
            ann.wait_for_selector(".move-preview:has-text('jumps over d2, e2, f1 to g1')")
            ann.locator("button.play-move").click()

            # The table screen: the last move drawn, Bo's turn.
            _turn_of(table, 2)
            table.wait_for_selector(".peg.last-destination[data-hole='g1']")
            assert "Ann (Red) played c3*g1" in table.locator(".cluster-side").inner_text()

            # Bo's move tapped on the table screen, peg then hole; it waits to be confirmed.
            table.locator('.peg[data-hole="f8"]').click()
            table.wait_for_selector('.hole.target[data-hole="g8"]')
            table.screenshot(path=str(ARTIFACTS / "cluster-table-selected.png"))
            table.locator('.hole[data-hole="g8"] .hit').click(force=True)
            table.wait_for_selector(".pending-move .pending-text:has-text('f8-g8')")
            table.locator("button.confirm-move").click()
            _turn_of(table, 1)
            _turn_of(ann, 1)
            table.screenshot(path=str(ARTIFACTS / "cluster-table-after.png"))
            ann.screenshot(path=str(ARTIFACTS / "cluster-phone-turn.png"), full_page=True)
            assert service.view(table_id)["game"]["tokens"] == ["c3*g1", "f8-g8"]

            # A second table, one move from Red's win: the winning group lights up.
            won_id, _ = service.create_table("Endgame", 2, game="cluster", board=NEAR_WIN)
            table.goto(f"{base}/t/{won_id}")
            ann2, _bo2 = _join(browser, table)
            _turn_of(ann2, 1)
            ann2.locator('.peg[data-hole="e7"]').click()
            ann2.locator('.hole[data-hole="d6"] .hit').click(force=True)
            ann2.wait_for_selector(".move-preview:has-text('steps to d6')")
            ann2.locator("button.play-move").click()
            table.wait_for_selector(".peg.winning")
            assert table.locator(".peg.winning").count() == 12
            assert "wins: every peg connected at height 2" in table.locator(".winner").inner_text()
            table.screenshot(path=str(ARTIFACTS / "cluster-table-won.png"))
            ann2.screenshot(path=str(ARTIFACTS / "cluster-phone-won.png"), full_page=True)
