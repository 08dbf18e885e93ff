"""A Spring movement phase of a two-seat Cosmic Cluster table in Debian's Chromium: two 360x640
phones and the table screen.

The phones join through the table screen's join links, confirm their home systems, give their
orders with the order builder (a move tapped on the map, a boarding at TS1, a fleet into its
box, a support of a move picked in two steps), see what their orders did, and the table screen
draws the arrows. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_browser import ARTIFACTS, LONG_WAIT_MS, WAIT_MS
from web_helpers import CHROMIUM, live_server, make_app

from companion.local_cluster.settings import HouseRules
from companion.service import Storage, TableService

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make test)"),
]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, str, TableService]]:
    with TableService(Storage(tmp_path / "t.db")) as service:
        rules = HouseRules(discussion_seconds=600, command_seconds=600)
        table_id, _ = service.create_table(
            "Stars", 2, seed=3, options=rules.to_dict(), game="cosmic-cluster"
        )
        service.start_timer()
        with live_server(make_app(service)) as base:
            yield base, table_id, service


def _phone(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def _order(phone, slot: str, kind: str, *targets: str, reads: str) -> None:  # type: ignore[no-untyped-def]
    """Tap the unit, the order kind and the targets (on the map when it is a space there),
    check the read-back, and set the order."""
    phone.locator(f'.unit-button[data-slot="{slot}"]').click()
    phone.locator(f'.kinds button[data-kind="{kind}"]').click()
    for target in targets:
        phone.locator(f'.target-button[data-target="{target}"]').click()
    assert reads in phone.locator(".readback").inner_text()
    phone.locator(".set-order").click()
    phone.wait_for_selector("section.orders .errors.ok")
    phone.locator(f'.unit-button.has-order[data-slot="{slot}"]').wait_for()


def _wait_stage(page, stage: str, turn: int | None = None) -> None:  # type: ignore[no-untyped-def]
    selector = f'.bar[data-stage="{stage}"]'
    if turn is not None:
        selector += f'[data-turn="{turn}"]'
    page.wait_for_selector(selector, timeout=LONG_WAIT_MS)


def test_a_spring_movement_phase_through_the_phones_and_the_table_screen(browser, site) -> None:  # type: ignore[no-untyped-def]
    base, table_id, service = site
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.set_default_timeout(WAIT_MS)
    table.goto(f"{base}/t/{table_id}")
    assert table.locator(".cosmic-board .system").count() == 16
    links = [a.get_attribute("href") for a in table.locator(".join-link").all()]
    assert len(links) == 2

    phones = []
    for link, name in zip(links, ["Ann", "Bob"], strict=True):
        phone = _phone(browser)
        phone.goto(link)
        phone.fill('input[name="name"]', name)
        phone.click('button[type="submit"]')
        phone.wait_for_selector(".bar")
        phones.append(phone)
    for phone in phones:  # seat 1 first, then seat 2: each confirms the home the seed gave
        phone.wait_for_selector("section.choose form")
        phone.click("section.choose button[type=submit]")
        # The form goes once the choice is stored (its own hint is a <p> too).
        phone.wait_for_selector("section.choose form", state="detached")
    homes = [s["choice"]["home"].lower() for s in service.view(table_id)["seats"]]
    for phone in phones:
        _wait_stage(phone, "discussion", 1)
        phone.locator("button.ready").click()
    ann, bob = phones
    one, two = homes
    _wait_stage(ann, "command", 1)
    assert "Spring 4001" in ann.locator(".bar .stage").inner_text()
    ann.locator(f'.unit-button[data-slot="{one}-1"]').click()
    ann.locator('.kinds button[data-kind="move"]').click()
    ann.locator(f'.board .sector[data-sector="{one}-2"]').click()  # tap on the map
    assert f"Army in {one}-1 moves to {one}-2" in ann.locator(".readback").inner_text()
    ann.locator(".set-order").click()
    ann.wait_for_selector("section.orders .errors.ok")
    assert "Still without an order" in ann.locator(".missing").inner_text()
    _order(ann, f"{one}-4", "board", f"{one}-o", reads=f"boards the fleet in {one}-o (TS1)")
    _order(ann, f"{one}-o", "move", f"{one}-b", reads=f"Fleet in {one}-o moves to {one}-b")
    _order(ann, f"{one}-5", "hold", reads=f"Fleet in {one}-5 holds")
    assert "Every unit has an order" in ann.locator(".missing").inner_text()

    _wait_stage(bob, "command", 1)
    _order(
        bob,
        f"{two}-o",
        "support_move",
        f"{two}-1",
        f"{two}-2",
        reads=f"supports the army in {two}-1 moving to {two}-2",
    )
    _order(bob, f"{two}-1", "move", f"{two}-2", reads=f"moves to {two}-2")
    # A void order typed by hand is refused with its reason, and nothing is stored.
    refused = bob.evaluate(
        """async () => (await window.companion.send(
            document.getElementById('panel').dataset.orders, {text: 'A nowhere-1 H'}, true))"""
    )
    assert not refused["ok"] and "there is no space nowhere-1" in " ".join(refused["reasons"])
    # Seat 1's screen never shows seat 2's pending orders; the table shows who submitted.
    assert f"{two}-2" not in ann.locator("section.orders").inner_text()
    table.locator('.seat-row[data-seat="2"] .tag.ok').first.wait_for()

    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "cosmic-phone-orders.png"), full_page=True)
    for phone in phones:
        phone.locator("button.ready").click()
    for page in (ann, bob, table):
        _wait_stage(page, "discussion", 2)
    assert "Fall 4001" in table.locator(".bar .stage").inner_text()
    outcomes = ann.locator(".outcomes").inner_text()
    assert f"TS2 A {one}-1 -> {one}-2: succeeds (moved to {one}-2)" in outcomes
    assert f"TS1 A {one}-4 B F {one}-o: succeeds" in outcomes
    assert "succeeds" in bob.locator(".outcomes").inner_text()
    assert table.locator(".arrow-ok").count() >= 3
    assert f"TS2 A {two}-1 -> {two}-2" in table.locator(".summary").first.inner_text()
    ann.screenshot(path=str(ARTIFACTS / "cosmic-phone-results.png"), full_page=True)
    table.screenshot(path=str(ARTIFACTS / "cosmic-table-results.png"), full_page=True)


def test_the_winter_build_form_takes_no_more_builds_than_are_due(browser, site) -> None:  # type: ignore[no-untyped-def]
    """P1 lost two armies (a host's correction): two builds due, three empty home centres. Once
    two are picked the third waits; clearing one frees it again."""
    base, table_id, service = site
    table = browser.new_context().new_page()
    table.goto(f"{base}/t/{table_id}")
    link = table.locator(".join-link").first.get_attribute("href")
    phone = _phone(browser)
    phone.goto(link)
    phone.fill('input[name="name"]', "Ann")
    phone.click('button[type="submit"]')
    phone.wait_for_selector(".bar")
    service.join(table_id, 2, "Bob")
    service.choose(table_id, 1, {})
    service.choose(table_id, 2, {})
    one = service.view(table_id, 1)["you"]["home"].lower()
    for _ in range(3):  # discussion, Spring orders (all hold), discussion
        service.skip(table_id)
    service.correct(table_id, f"REMOVE {one}-1", "lost in a spill")
    service.correct(table_id, f"REMOVE {one}-4", "lost in a spill")
    service.skip(table_id)  # Fall orders: all hold
    _wait_stage(phone, "build")
    assert "You may build up to 2 units" in phone.locator("section.build").inner_text()
    picks = [phone.locator(f'select[name="build-{one}-{n}"]') for n in (1, 4, 8)]
    picks[0].select_option("A")
    assert not picks[2].is_disabled()
    picks[1].select_option("F")
    assert picks[2].is_disabled() and not picks[0].is_disabled()
    picks[0].select_option("")
    assert not picks[2].is_disabled()
    picks[2].select_option("F")
    phone.click("section.build button[type=submit]")
    phone.wait_for_selector("section.build .ok")
    assert service.view(table_id, 1)["you"]["submission"] == f"F {one}-4 build\nF {one}-8 build"


def test_c5_3_the_winter_disband_form_counts_a_fleet_with_its_own_army_as_two(
    browser, site
) -> None:  # type: ignore[no-untyped-def]
    """P1 has an A/F of its own in orbit and one disband due: its fleet (which would take the
    army along, two units) waits from the start; once the army aboard is picked the rest wait."""
    base, table_id, service = site
    table = browser.new_context().new_page()
    table.goto(f"{base}/t/{table_id}")
    link = table.locator(".join-link").first.get_attribute("href")
    phone = _phone(browser)
    phone.goto(link)
    phone.fill('input[name="name"]', "Ann")
    phone.click('button[type="submit"]')
    phone.wait_for_selector(".bar")
    service.join(table_id, 2, "Bob")
    service.choose(table_id, 1, {})
    service.choose(table_id, 2, {})
    one = service.view(table_id, 1)["you"]["home"].lower()
    service.skip(table_id)  # discussion
    for text in (f"REMOVE {one}-1", f"REMOVE {one}-o", f"PLACE P1 A/F {one}-o"):
        service.correct(table_id, text, "set up the test")
    service.correct(table_id, f"CLAIM {one}-8 none", "lost it")
    for _ in range(3):  # Spring orders (all hold), discussion, Fall orders
        service.skip(table_id)
    _wait_stage(phone, "build")
    assert "pick 1 to disband" in phone.locator("section.build").inner_text()
    army = phone.locator(f'section.build input[value="A {one}-o"]')
    fleet = phone.locator(f'section.build input[value="F {one}-o"]')
    assert fleet.is_disabled() and not army.is_disabled()
    army.check()
    assert phone.locator(f'input[value="F {one}-5"]').is_disabled()
    army.uncheck()
    assert not phone.locator(f'input[value="F {one}-5"]').is_disabled() and fleet.is_disabled()
    army.check()
    phone.click("section.build button[type=submit]")
    phone.wait_for_selector("section.build .ok")
    assert service.view(table_id, 1)["you"]["submission"] == f"A {one}-o disband"
