"""Globular Cluster in Debian's Chromium: two 360x640 phones and the 1920x1080 table screen.

Ann chooses red and Bo blue on their phones; Ann builds her first turn on her phone (the drawn
tile's legal places and corners, two coins moved with the crossing costs shown, a station that
is refused with its reason and taken back, a mine rolled at once, then "end turn"); Bo builds
his on the table screen with the crossing costs shown; the game is then played on to a
scoring round, which the table screen shows being made, and to the end, with the final scores
and the chart. Screenshots go to test-artifacts/ (globular-*.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_globular import play_until
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


def _shot(page: Any, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"globular-{name}.png"), full_page=full)


def _place_first(page: Any) -> str:
    """Tap the first dashed place, then its first legal corner; the line it made."""
    page.locator(".gc-board .gc-spot").first.click()
    page.locator(".gc-corner:enabled").first.click()
    page.wait_for_selector(".gc-draft li.ok")
    return str(page.locator(".gc-draft li.ok code").first.inner_text())


def test_a_game_built_on_the_phones_and_the_table_screen(browser: Any, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with TableService(Storage(tmp_path / "g.db")) as service:
        table_id, _ = service.create_table("Cluster", 2, game="globular-cluster", seed=11)
        service.start_timer()
        with live_server(make_app(service)) as base:
            table = _page(browser, 1920, 1080)
            table.goto(f"{base}/t/{table_id}")
            links = [a.get_attribute("href") for a in table.locator(".join-link").all()]
            phones = []
            for link, name in zip(links, ("Ann", "Bo"), strict=True):
                phone = _page(browser, 360, 640)
                phone.goto(link)
                phone.fill("input[name=name]", name)
                phone.click("button[type=submit]")
                phones.append(phone)
            ann, bo = phones
            ann.click("button.gc-colour[value=red]")
            bo.wait_for_selector("button.gc-colour[value=blue]")
            assert bo.locator("button.gc-colour[value=red]").count() == 0  # taken
            bo.click("button.gc-colour[value=blue]")
            ann.wait_for_selector(".gc-board svg.gc-svg")
            if service.view(table_id)["stage"] == "discussion":  # none before a turn-taking game
                service.skip(table_id)

            # Ann's turn on her phone.
            ann.wait_for_selector(".gc-board .gc-spot")
            assert ann.locator(".gc-tools button:enabled").count() == 0  # the tile comes first
            _shot(ann, "phone-place", full=True)
            placed = _place_first(ann)
            assert placed.startswith("place ")
            ann.click(".gc-tools button[data-tool=move]")
            ann.locator('.gc-tile[data-pos="m7"]').click()
            ann.wait_for_selector(".gc-board.gc-costs-from .gc-cost.from")
            ann.locator('.gc-tile[data-pos="k7"]').click()
            ann.fill(".gc-how-many", "2")
            _shot(ann, "phone-move", full=True)
            ann.click(".gc-count.primary")
            ann.wait_for_selector(".gc-draft li.ok >> nth=1")
            assert "2 AP · 8 left" in ann.inner_text(".gc-draft li.ok >> nth=1")
            ann.click(".gc-tools button[data-tool=station]")
            ann.locator('.gc-tile[data-pos="k7"]').click()
            ann.wait_for_selector(".gc-status.bad")
            said = ann.inner_text(".gc-status")
            assert "station k7 cannot be played" in said and "(G4.13)" in said
            assert ann.locator(".gc-draft li").count() == 2  # the refused line was not kept
            ann.click(".gc-tools button[data-tool=mine]")
            ann.locator('.gc-tile[data-pos="k7"]').click()
            ann.locator(".gc-options button", has_text="1 cache").click()
            ann.wait_for_selector(".gc-roll:visible")
            assert "3 AP · 5 left" in ann.inner_text(".gc-draft li.ok >> nth=2")
            ann.click(".gc-roll")  # the die is rolled: the lines so far are played
            ann.wait_for_selector(".gc-last >> text=the die shows")
            ann.wait_for_selector(".gc-draft li", state="detached")
            ann.click(".gc-tools button[data-tool=move]")
            ann.locator('.gc-tile[data-pos="k7"]').click()
            ann.locator('.gc-tile[data-pos="l6"]').click()
            ann.click(".gc-count.primary")
            ann.wait_for_selector(".gc-draft li.ok")
            ann.click(".gc-undo")  # taken back before it was played
            ann.wait_for_selector(".gc-draft li", state="detached")
            _shot(ann, "phone-turn", full=True)
            ann.click(".gc-end")
            table.wait_for_selector('.turn-box[data-acting="2"]')
            view = service.view(table_id)
            lines = [line.text() for line in service.table(table_id).session.core.turns[0].lines]  # type: ignore[union-attr]
            assert lines[1:3] == [placed, "move m7>k7 x2"] and lines[3].startswith("mine k7 roll")
            assert lines[-1] == "end" and view["game"]["players"][0]["coins_on_board"] == 12

            # Bo's turn on the table screen.
            table.click(".gc-builder-wrap > summary")
            table.wait_for_selector(".gc-board .gc-spot")
            _place_first(table)
            table.click(".gc-costs-toggle")
            table.wait_for_selector("body.gc-show-costs")
            assert table.locator(".gc-cost").count() >= 5
            table.click(".gc-tools button[data-tool=move]")
            table.locator('.gc-tile[data-pos="m7"]').click()
            table.locator('.gc-tile[data-pos="l6"]').click()
            table.click(".gc-count.gc-leader")
            table.wait_for_selector(".gc-draft li.ok >> nth=1")
            _shot(table, "table-builder")
            table.click(".gc-end")
            table.wait_for_selector('.turn-box[data-acting="1"]')
            bo_player = service.view(table_id)["game"]["players"][1]
            assert bo_player["leader"] == "l6"

            # On to a scoring round, shown being made, then the end.
            play_until(service, table_id, "scoring", seed=3)
            while (
                service.view(table_id)["acting"] == 2
                or not service.view(table_id)["game"]["score_sheet"]["rounds"][-1]["holdings"]
            ):
                service.submit(table_id, service.view(table_id)["acting"], "end", final=True)
            table.wait_for_selector(".gc-breakdown")
            table.wait_for_timeout(500)
            assert "scoring round 1" in table.inner_text(".gc-breakdown").lower()
            _shot(table, "table-scoring")
            play_until(service, table_id, "over", seed=5)
            table.wait_for_selector(".gc-result .gc-chart")
            bo.wait_for_selector(".gc-result .gc-chart")
            totals = service.view(table_id)["game"]["score_sheet"]["totals"]
            for vp in totals.values():
                assert f"{vp} VP" in table.inner_text(".gc-result")
            _shot(table, "table-end")
            bo.locator(".gc-result").scroll_into_view_if_needed()
            _shot(bo, "phone-end")
