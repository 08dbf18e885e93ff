"""Clustered in Debian's Chromium: a placement on a 360x640 phone (choose the card, the legal
cells light up, tap one, play it) and the end screen with the scoring drawn on the layout.
Screenshots go to test-artifacts/ (clustered-*.png)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from clustered_helpers import K720_ORDER
from web_helpers import CHROMIUM, live_server, make_app

from companion.service import Storage, TableService

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WAIT_MS = 30_000

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


def test_a_placement_on_a_phone_and_the_end_screen(browser: Any, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id, _ = service.create_table(
            "Clustered", 2, game="clustered", options={"first_bonuses": True}
        )
        service.start_timer()
        with live_server(make_app(service)) as base:
            table = _page(browser, 1920, 1080)
            table.goto(f"{base}/t/{table_id}")
            links = [a.get_attribute("href") for a in table.locator(".join-link").all()]
            phones = []
            for link, name in zip(links, ("Ann", "Bo"), strict=True):
                phone = _page(browser, 360, 640)
                phone.goto(link)
                phone.fill('input[name="name"]', name)
                phone.click('button[type="submit"]')
                phones.append(phone)
            ann, bo = phones
            for phone, colour in ((ann, "B"), (bo, "O")):
                phone.wait_for_selector('select[name="colour"]')
                phone.select_option('select[name="colour"]', colour)
                phone.click('.choose button[type="submit"]')
            # The last choice is a form post the page does not wait for: the game starts
            # when the service has taken it (sooner with waitress than with uvicorn).
            deadline = time.monotonic() + 20
            while service.view(table_id).get("acting") is None:
                assert time.monotonic() < deadline, "the game did not start"
                time.sleep(0.05)
            # Ann's turn: the first K7.20 placements by the service, then hers on the phone.
            for move in K720_ORDER[:-1]:
                service.submit(table_id, service.view(table_id)["acting"], move, final=True)
            # The service played Ann's earlier turns too, and her phone may still show one
            # of them (a slow machine): a tap there is lost when this turn's page replaces
            # it. Her move box for this very turn is the one to use.
            turn = service.view(table_id)["turn"]
            ann.wait_for_selector(f'form.move-form[data-keep-key="move-{turn}-1"]')
            ann.wait_for_selector('.turn-box[data-acting="1"]')
            ann.wait_for_selector('.cl-card[data-card="B-sq-so-3"]')
            ann.click('.cl-card[data-card="B-sq-so-3"]')
            lit = ann.locator(".clustered-board .slot.legal")
            assert lit.count() >= 1
            ann.locator('.clustered-board .slot.legal[data-cell="3,0"]').dispatch_event("click")
            ann.wait_for_function("document.querySelector('.move-text').value === 'B-sq-so-3 3,0'")
            ann.wait_for_selector(".move-preview:has-text('a legal placement')")
            ann.screenshot(path=str(ARTIFACTS / "clustered-phone-placement.png"), full_page=True)
            ann.click("button.play-move")
            table.wait_for_selector('.clustered-board .card[data-cell="3,0"]')
            assert "B-sq-so-3" in table.locator(".last-move").inner_text()
            # The end: the host stops the game; the table screen draws the scoring.
            service.correct(table_id, "stop", "end of the example")
            table.wait_for_selector(".clustered-board .score-line", state="attached")
            table.wait_for_selector(".score-sheet .totals")
            assert table.locator(".clustered-board .score-rectangle").count() == 2
            totals = table.locator(".score-sheet .totals tbody tr").all_inner_texts()
            assert any("18" in row for row in totals) and any("10" in row for row in totals)
            table.screenshot(path=str(ARTIFACTS / "clustered-end-screen.png"), full_page=True)
            bo.wait_for_selector(".score-sheet")
            bo.screenshot(path=str(ARTIFACTS / "clustered-phone-end.png"), full_page=True)
