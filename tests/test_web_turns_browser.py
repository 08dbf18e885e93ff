"""A whole turn-taking game in Debian's Chromium: the test-only noughts and crosses with its
pages from tests/noughts_pages.py, two 360x640 phones, the 1920x1080 table screen, a camera's
readings handed to the service, and a GPIO panel on gpiozero's mock pins.

X taps a cell on the phone and plays it; O's move is seen by the camera and confirmed with the
seat's button on the panel; X types a move (a refused one first, with the game's reason); the
camera cannot tell O's next move apart, so it is chosen on the table screen; X wins. Screenshots
go to test-artifacts/ (turns-*.png).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import noughts
import noughts_pages
import pytest
from web_helpers import CHROMIUM, live_server, make_app

from companion import games
from companion.service import Storage, TableService

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WAIT_MS = 30_000

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make test)"),
]


@pytest.fixture(autouse=True)
def registered() -> Iterator[games.Game]:
    yield noughts_pages.register()
    games.unregister(noughts.NAME)


def seen(**marks: str) -> dict[str, str]:
    """A camera reading: every cell empty but those given ("X", "O", or "?" unreadable)."""
    return {cell: "" for cell in noughts.CELLS} | marks


def _page(browser: Any, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def _turn_of(page: Any, seat: int) -> None:
    page.wait_for_selector(f'.turn-box[data-acting="{seat}"]')


def test_a_whole_turn_taking_game_with_phones_camera_panel_and_table_screen(
    browser: Any, tmp_path: Path
) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hardware.config import GpioPanelConfig
    from hardware.gpio_panel import GpioPanel

    ARTIFACTS.mkdir(exist_ok=True)
    factory = MockFactory(pin_class=MockPWMPin)
    config = GpioPanelConfig(bounce_time=0.05, hold_time=0.15, blink_time=0.01)
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id, _ = service.create_table("Xs and Os", 2, game=noughts.NAME)
        service.start_timer()
        try:
            with (
                live_server(make_app(service)) as base,
                GpioPanel(service, table_id, config, pin_factory=factory),
            ):
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

                # X: a tap on a cell fills the move box and tries it; Play plays it.
                _turn_of(ann, 1)
                assert "Your turn (X)" in ann.locator(".whose-turn").inner_text()
                assert "Ann’s turn (X)" in bo.locator(".whose-turn").inner_text()
                assert "Ann’s turn (X)" in table.locator(".turn-box .whose-turn").inner_text()
                ann.locator('button[data-move="b2"]').click()
                assert ann.locator(".move-text").input_value() == "b2"
                ann.wait_for_selector(".move-preview:has-text('b2: a legal move')")
                ann.screenshot(path=str(ARTIFACTS / "turns-phone-move.png"), full_page=True)
                ann.locator("button.play-move").click()
                _turn_of(table, 2)
                assert table.locator('td[data-cell="b2"]').inner_text().startswith("X")

                # O: the camera sees the move; it waits for "done", pressed on the panel.
                service.report_scan(table_id, seen(b2="X", a1="O"))
                table.wait_for_selector(".pending-move .pending-text:has-text('a1')")
                bo.wait_for_selector(".pending .pending-text:has-text('a1')")
                table.screenshot(path=str(ARTIFACTS / "turns-table-pending.png"))
                factory.pin(6).drive_low()  # seat 2's button (docs/wiring.md)
                factory.pin(6).drive_high()
                _turn_of(table, 1)
                assert table.locator('td[data-cell="a1"]').inner_text().startswith("O")

                # X: a typed move; a refused one says why, and nothing is played.
                _turn_of(ann, 1)
                ann.fill(".move-text", "a1")
                ann.locator("button.play-move").click()
                ann.wait_for_selector(".move-form .errors li:has-text('a1 already holds O')")
                ann.fill(".move-text", "C1")
                ann.locator("button.play-move").click()
                _turn_of(table, 2)

                # O: the camera cannot tell two cells apart; the table screen chooses.
                service.report_scan(table_id, seen(b2="X", a1="O", c1="X", c3="?", b1="?"))
                table.wait_for_selector(".candidates button.choose-move")
                texts = table.locator(".candidates button.choose-move").all_inner_texts()
                assert sorted(texts) == ["b1", "c3"]
                table.screenshot(path=str(ARTIFACTS / "turns-table-choose.png"))
                table.locator('.candidates button[data-text="c3"]').click()
                _turn_of(table, 1)
                assert table.locator(".candidates").count() == 0

                # X wins on the diagonal a3-b2-c1.
                _turn_of(ann, 1)
                ann.locator('button[data-move="a3"]').click()
                ann.wait_for_selector(".move-preview:has-text('a3')")
                ann.locator("button.play-move").click()
                for page in (table, ann, bo):
                    page.wait_for_selector('.bar[data-stage="over"]')
                    assert "Ann (X) wins!" in page.locator(".noughts .winner").inner_text()
                table.screenshot(path=str(ARTIFACTS / "turns-table-over.png"))
                bo.screenshot(path=str(ARTIFACTS / "turns-phone-over.png"), full_page=True)
        finally:
            factory.reset()
    assert service.closed
