"""A whole two-seat game in Debian's Chromium: two 360x640 phones and the table screen.

The phones join through the join links the table screen's QR codes carry, choose, give their
orders with the order builder, see what their orders did, do a build phase, and play to the
turn limit's win. Screenshots of a mid-game position go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, live_server, make_app, new_table

from companion.service import Storage, TableService

RECORD_BUZZES = "window.buzzes = []; navigator.vibrate = (p) => { buzzes.push(p); return true; };"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make test)"),
]

WAIT_MS = 30_000
"""How long a step may wait for the page: generous, since CI machines may be loaded."""
LONG_WAIT_MS = 45_000
TAP_SHOWS_MS = 10_000
"""How long a tap's own effect (drawn by the page's script, no server) may take to show."""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, str, TableService]]:
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id, _ = new_table(service, turn_limit=3)
        service.start_timer()
        with live_server(make_app(service)) as base:
            yield base, table_id, service


def _phone(browser, base: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def _give_orders(phone) -> None:  # type: ignore[no-untyped-def]
    """Every unit advances on its first possible target, through the builder."""
    phone.wait_for_selector("section.orders .unit-button")
    count = phone.locator(".unit-button").count()
    for index in range(count):
        phone.locator(".unit-button").nth(index).click()
        phone.locator('.kinds button[data-kind="ADVANCE"]').click()
        target = phone.locator(".target-button").first.get_attribute("data-target")
        phone.locator(f'.board .sector[data-sector="{target}"]').click()  # tap on the map
        readback = phone.locator(".readback").inner_text()
        assert f"advances on {target}" in readback
        phone.locator(".set-order").click()
        phone.wait_for_selector("section.orders .errors.ok")
        phone.locator(".unit-button.has-order").nth(index).wait_for()
    assert "Every unit has an order" in phone.locator(".missing").inner_text()


def _ready(phone, stage: str) -> None:  # type: ignore[no-untyped-def]
    phone.wait_for_selector(f'button.ready[data-stage="{stage}"][data-ready="true"]')
    phone.locator("button.ready").click()


def _wait_stage(page, stage: str, turn: int | None = None) -> None:  # type: ignore[no-untyped-def]
    selector = f'.bar[data-stage="{stage}"]'
    if turn is not None:
        selector += f'[data-turn="{turn}"]'
    page.wait_for_selector(selector, timeout=LONG_WAIT_MS)


def test_a_two_seat_game_from_joining_to_the_win(browser, site) -> None:  # type: ignore[no-untyped-def]
    base, table_id, service = site
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.set_default_timeout(WAIT_MS)
    table.goto(f"{base}/t/{table_id}")
    links = [a.get_attribute("href") for a in table.locator(".join-link").all()]
    assert len(links) == 2 and table.locator(".qr-code svg").count() == 2

    phones = []
    for number, (link, name) in enumerate(zip(links, ["Ann", "Bob"], strict=True), start=1):
        phone = _phone(browser, base)
        phone.goto(
            link.replace("http://localhost", base) if link.startswith("http://localhost") else link
        )
        phone.fill('input[name="name"]', name)
        phone.click('button[type="submit"]')
        phone.wait_for_selector(".bar")
        assert f"seat {number}" in phone.title()
        phones.append(phone)
    # Seat 2 chooses first (rulebook 3.2): its home by tapping the map.
    for phone, colour in ((phones[1], "blue"), (phones[0], "red")):
        phone.wait_for_selector("section.choose form")
        phone.select_option('select[name="colour"]', colour)
        first_home = phone.locator('select[name="home"] option').first.get_attribute("value")
        phone.locator(f'.board .sector[data-sector="{first_home}"]').click()
        phone.click("section.choose button[type=submit]")
        # The form goes once the choice is stored (its own hint is a <p> too).
        phone.wait_for_selector("section.choose form", state="detached")
    for turn in (1, 2, 3):
        for phone in phones:
            _ready(phone, "discussion")
        for phone in phones:
            _wait_stage(phone, "command", turn)
            _give_orders(phone)
            _ready(phone, "command")
        if turn == 2:
            for phone in phones:
                _wait_stage(phone, "build", 2)
                assert "Net income" in phone.locator("table.income").inner_text()
                assert phone.locator(".outcomes li").count() >= 1  # what its orders did
            _wait_stage(table, "build", 2)
            ARTIFACTS.mkdir(exist_ok=True)
            phones[0].screenshot(path=str(ARTIFACTS / "phone-build.png"), full_page=True)
            table.screenshot(path=str(ARTIFACTS / "table-results.png"), full_page=True)
            assert table.locator(".arrow").count() >= 1
            for phone in phones:
                _build_what_we_can(phone)
    said = None
    for page in (*phones, table):
        _wait_stage(page, "over")
        said = service.view(table_id)["game"]["result"]["said"]  # a win, or a shared lead
        assert page.locator(".result .winner").inner_text() == said
    assert service.view(table_id)["stage"] == "over"


def _build_what_we_can(phone) -> None:  # type: ignore[no-untyped-def]
    net = int(phone.locator(".build-form").get_attribute("data-net"))
    picks = phone.locator("select.cost-pick")
    if net >= 4 and picks.count():
        picks.first.select_option("destroyer")
        assert phone.locator(".spent").inner_text() == "4"
    else:
        phone.check(".stockpile")
    phone.locator(".build-form button[type=submit]").click()
    phone.wait_for_selector(".build-form .errors.ok")
    _ready(phone, "build")


def test_the_phone_warns_and_vibrates_30_seconds_before_the_deadline_with_orders_missing(
    browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from companion.local_cluster.settings import HouseRules

    with TableService(Storage(tmp_path / "t.db")) as service:
        rules = HouseRules(command_seconds=30, discussion_seconds=600)
        table_id, _ = service.create_table("Quick", 2, seed=5, options=rules.to_dict())
        tokens = [service.join(table_id, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
        service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
        service.choose(table_id, 1, {"colour": "red", "home": "S21"})
        service.start_timer()
        with live_server(make_app(service)) as base:
            phone = _phone(browser, base)
            phone.add_init_script(RECORD_BUZZES)
            phone.goto(f"{base}/t/{table_id}/rejoin/1/{tokens[0]}")
            _wait_stage(phone, "discussion", 1)
            assert phone.locator("#deadline-warning").is_hidden()
            service.skip(table_id)  # orders: 30 seconds, and this phone has given none
            _wait_stage(phone, "command", 1)
            phone.wait_for_selector("#deadline-warning:not([hidden])")
            assert phone.evaluate("window.buzzes.length") == 1


COUNT_UPDATES = """
window.updates = 0;
document.addEventListener("panel", () => { window.updates += 1; });
"""


@contextmanager
def _pressed_through_an_update(
    browser, tmp_path: Path, target: str
) -> Iterator[tuple[Any, TableService, str]]:  # type: ignore[no-untyped-def]
    """Ann's phone, in the orders phase of a two-seat game, presses the first ``target``;
    her orders are stored meanwhile (as from another tab, or a moment after Set order), a
    live update brings her phone up to date, and she lifts the finger after it lands.
    Yields the phone, the service and the table, the server still running."""
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id, _ = new_table(service)
        tokens = [service.join(table_id, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
        service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
        service.choose(table_id, 1, {"colour": "red", "home": "S21"})
        service.skip(table_id)  # discussion -> orders
        with live_server(make_app(service)) as base:
            phone = _phone(browser, base)
            phone.add_init_script(COUNT_UPDATES)
            phone.goto(f"{base}/t/{table_id}/rejoin/1/{tokens[0]}")
            _wait_stage(phone, "command", 1)
            phone.wait_for_selector('#panel[data-connected="yes"]')
            pressed = phone.locator(target).first
            pressed.scroll_into_view_if_needed()
            box = pressed.bounding_box()
            assert box is not None
            before = phone.evaluate("window.updates")
            phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            phone.mouse.down()
            service.submit(table_id, 1, "")  # Ann's orders, stored: her phone is brought up to date
            phone.wait_for_function(f"window.updates > {before}")
            phone.mouse.up()
            yield phone, service, table_id


def test_a_tap_still_counts_when_a_live_update_lands_between_press_and_lift(
    browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """A player presses a unit while a live update arrives (here her own orders, stored a
    moment before, as after tapping Set order) and lifts the finger after it: the tap opens
    that unit's orders. The update kept the orders section, but took it out of the page and
    put it back; Chromium then gave the click to what was left, and the tap did nothing
    (the whole-game test above lost its Advance so on a loaded CI machine)."""
    with _pressed_through_an_update(browser, tmp_path, ".unit-button") as (phone, _, _):
        phone.wait_for_selector(".builder:not([hidden]) .kinds button", timeout=TAP_SHOWS_MS)


def test_a_ready_tap_still_counts_when_a_live_update_lands_between_press_and_lift(
    browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Ann presses Ready while a live update reaches her phone and lifts after it: she is
    ready. The update used to put a new Ready button in place of the pressed one, and the
    tap did nothing (the whole-game test above stalled so, one phone ready and the other
    not)."""
    target = 'button.ready[data-ready="true"]'
    with _pressed_through_an_update(browser, tmp_path, target) as (phone, service, table_id):
        phone.wait_for_selector('button.ready[data-ready="false"]', timeout=TAP_SHOWS_MS)
        assert service.view(table_id)["seats"][0]["ready"]


RECORD_AUDIO = """
window.tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createGain() { return { gain: {}, connect: (next) => next }; }
  createOscillator() {
    const tone = { frequency: {}, connect: (next) => next, stop() {},
                   start() { window.tones.push(tone.frequency.value); } };
    return tone;
  }
};
"""


def test_the_table_screen_shows_the_virtual_panel_and_sounds_its_buzzer(
    browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Issue 6's virtual panel: seat LEDs and the phase light as the panels show them, and the
    buzzer's chime and countdown beeps (flashed, and heard once the sound is turned on)."""
    from companion.local_cluster.settings import HouseRules

    with TableService(Storage(tmp_path / "t.db")) as service:
        rules = HouseRules(command_seconds=12, discussion_seconds=600)
        table_id, _ = service.create_table("Panel", 2, seed=5, options=rules.to_dict())
        for seat, name in ((1, "Ann"), (2, "Bob")):
            service.join(table_id, seat, name)
        service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
        service.choose(table_id, 1, {"colour": "red", "home": "S21"})
        service.start_timer()
        with live_server(make_app(service)) as base:
            table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            table.set_default_timeout(WAIT_MS)
            table.add_init_script(RECORD_AUDIO)
            table.goto(f"{base}/t/{table_id}")
            table.wait_for_selector('#panel[data-connected="yes"]')
            assert table.locator(".phase-light").get_attribute("title") == (
                "phase LED blue (Discussion)"
            )
            assert table.locator(".seat-row .led-off").count() == 2
            table.locator(".sound-toggle").click()  # a click lets the page make sounds
            assert table.locator(".sound-toggle").inner_text() == "Sound: on"
            service.skip(table_id)  # discussion -> orders: the panel chimes
            _wait_stage(table, "command", 1)
            table.wait_for_selector('body[data-last-cue="phase"]')
            assert table.locator('.seat-row[data-led="blink"]').count() == 2
            assert table.locator(".seat-row .led-reason").first.inner_text() == "orders awaited"
            animation = table.locator(".seat-row .led-blink").first.evaluate(
                "(led) => getComputedStyle(led).animationName"
            )
            assert animation == "led-blink"
            service.submit(table_id, 1, "HOLD S21")
            table.wait_for_selector('.seat-row[data-seat="1"][data-led="steady"]')
            table.wait_for_selector('body[data-last-cue="countdown"]', timeout=LONG_WAIT_MS)
            table.wait_for_selector("body.buzzing")
            ARTIFACTS.mkdir(exist_ok=True)
            table.screenshot(path=str(ARTIFACTS / "table-virtual-panel.png"))
            tones = table.evaluate("window.tones")
            assert tones[:2] == [660, 660]  # the phase chime: two tones
            assert 880 in tones[2:]  # then a countdown beep


def test_the_builder_gives_a_carrier_a_recall_and_a_deploy_beside_it(
    browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """R3.2: the carrier's second slot opens once its first holds a RECALL."""
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id, _ = new_table(service)
        tokens = [service.join(table_id, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
        service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
        service.choose(table_id, 1, {"colour": "red", "home": "S21"})
        service.correct(table_id, "PLACE red carrier S22", "a carrier for the test")
        service.skip(table_id)
        service.submit(table_id, 1, "DEPLOY S22 S44 S46")
        while service.view(table_id)["turn"] < 2 or service.view(table_id)["stage"] != "command":
            service.skip(table_id)
        with live_server(make_app(service)) as base:
            phone = _phone(browser, base)
            phone.goto(f"{base}/t/{table_id}/rejoin/1/{tokens[0]}")
            pair = phone.locator('.unit-button[data-slot="S22 DEPLOY"]')
            assert pair.is_disabled() and "give it a RECALL first" in pair.inner_text()
            phone.locator('.unit-button[data-slot="S22"]').click()
            phone.locator('.kinds button[data-kind="RECALL"]').click()
            phone.locator('.target-button[data-target="S44"]').click()
            phone.locator(".set-order").click()
            phone.wait_for_selector("section.orders .errors.ok")
            assert pair.is_enabled()
            pair.click()
            phone.locator('.kinds button[data-kind="DEPLOY"]').click()
            phone.locator('.board .sector[data-sector="S21"]').click()
            assert (
                "beside its recall, deploys strike craft to S21"
                in phone.locator(".readback").inner_text()
            )
            phone.locator(".set-order").click()
            phone.wait_for_selector('.unit-button.has-order[data-slot="S22 DEPLOY"]')
            stored = service.view(table_id, 1)["you"]["submission"]
            assert stored == "RECALL S22 S44\nDEPLOY S22 S21"
