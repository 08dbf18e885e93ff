"""First-time players (issue 12): a table screen and phones that explain themselves, each
behaviour a player sees checked in Debian's Chromium (360x640 phones, a 1920x1080 table screen).

Screenshots for a person to look at go to test-artifacts/: the phone's orders, build and results
(first-phone-*.png) and the table screen's lobby, orders, results and game over
(first-table-*.png).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, live_server, make_app

from companion.local_cluster.orders import OrderKind
from companion.local_cluster.settings import HouseRules
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import Clock

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WAIT_MS = 30_000
PHONE = {"width": 360, "height": 640}
TV = {"width": 1920, "height": 1080}

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make test)"),
]


@dataclasses.dataclass
class Site:
    service: TableService
    table_id: str
    secret: str
    tokens: dict[int, str]
    base: str

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.service.view(self.table_id, seat)


@contextmanager
def table(
    tmp_path: Path,
    *,
    chosen: bool = True,
    clock: Clock | None = None,
    **rules: Any,
) -> Iterator[Site]:
    """A two-seat Local Cluster table (Ann in seat 1, Bob in seat 2), its seats chosen unless
    ``chosen`` is False; served on a real server. A fake ``clock`` is never ticked."""
    settings = {"turn_limit": 3, "command_seconds": 600, "discussion_seconds": 600, **rules}
    with TableService(Storage(tmp_path / "t.db"), clock=clock) as service:
        options = HouseRules(**settings).to_dict()
        table_id, secret = service.create_table("First game", 2, seed=5, options=options)
        tokens: dict[int, str] = {}
        if chosen:
            tokens = {seat: service.join(table_id, seat, name) for seat, name in SEATS}
            service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
            service.choose(table_id, 1, {"colour": "red", "home": "S21"})
        if clock is None:
            service.start_timer()
        with live_server(make_app(service)) as base:
            yield Site(service, table_id, secret, tokens, base)


SEATS = ((1, "Ann"), (2, "Bob"))


def page(browser: Any, size: dict[str, int]) -> Any:
    context = browser.new_context(viewport=size, has_touch=size is PHONE)
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    return opened


def phone(browser: Any, site: Site, seat: int) -> Any:
    opened = page(browser, PHONE)
    opened.goto(f"{site.base}/t/{site.table_id}/rejoin/{seat}/{site.tokens[seat]}")
    opened.wait_for_selector('#panel[data-connected="yes"]')
    return opened


def screen(browser: Any, site: Site, size: dict[str, int] = TV) -> Any:
    opened = page(browser, size)
    opened.goto(f"{site.base}/t/{site.table_id}")
    opened.wait_for_selector('#panel[data-connected="yes"]')
    return opened


def stage(opened: Any, name: str, turn: int | None = None) -> None:
    selector = f'.bar[data-stage="{name}"]' + (f'[data-turn="{turn}"]' if turn else "")
    opened.wait_for_selector(selector)


def shot(opened: Any, name: str, at: str | None = None) -> None:
    """What the screen shows (scrolled to ``at`` on a phone): a phone's sticky bars stay where a
    player sees them, which a whole-page capture would not keep."""
    ARTIFACTS.mkdir(exist_ok=True)
    if at is not None:
        opened.locator(at).first.scroll_into_view_if_needed()
    opened.screenshot(path=str(ARTIFACTS / name), full_page=at is None)


def box(opened: Any, selector: str) -> dict[str, float]:
    found = opened.locator(selector).first.bounding_box()
    assert found is not None, selector
    return dict(found)


def overlap(a: dict[str, float], b: dict[str, float], *, slack: float = 0) -> bool:
    """Whether two boxes share more than ``slack`` pixels each way (a sticky bar's top may sit a
    fraction of a pixel into the box above it, which hides nothing)."""
    return not (
        a["x"] + a["width"] <= b["x"] + slack
        or b["x"] + b["width"] <= a["x"] + slack
        or a["y"] + a["height"] <= b["y"] + slack
        or b["y"] + b["height"] <= a["y"] + slack
    )


def font_px(opened: Any, selector: str) -> float:
    size = opened.locator(selector).first.evaluate("(n) => getComputedStyle(n).fontSize")
    return float(size.removesuffix("px"))


def to_orders(site: Site) -> None:
    site.service.skip(site.table_id)  # the discussion ends


def advance_target(site: Site, seat: int) -> tuple[str, str]:
    """A unit of the seat and an empty sector it may ADVANCE into (and claim)."""
    unit = site.view(seat)["you"]["units"][0]
    advance = next(o for o in unit["orders"] if o["kind"] == "ADVANCE")
    return unit["sector"], advance["targets"][0]


def give_order(opened: Any, sector: str, kind: str, target: str | None = None) -> None:
    opened.locator(f'.unit-button[data-slot="{sector}"]').click()
    opened.locator(f'.kinds button[data-kind="{kind}"]').click()
    if target is not None:
        opened.locator(f'.target-button[data-target="{target}"]').click()
    opened.locator(".set-order").click()


# Words and rules ----------------------------------------------------------------------------


def test_the_builder_says_in_one_line_what_each_order_kind_does(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path) as site:
        to_orders(site)
        ann = phone(browser, site, 1)
        stage(ann, "command", 1)
        sector, _ = advance_target(site, 1)
        ann.locator(f'.unit-button[data-slot="{sector}"]').click()
        about = {
            line.get_attribute("data-kind"): line.inner_text()
            for line in ann.locator(".kind-about li").all()
        }
        for kind in ("MOVE", "ADVANCE", "HOLD", "CLAIM"):
            assert about[kind].endswith(OrderKind(kind).summary()), kind
        assert "never claims" in about["MOVE"] and "claims the sector" in about["ADVANCE"]
        ann.locator('.kinds button[data-kind="ADVANCE"]').click()
        assert ann.locator('.kind-about li.on[data-kind="ADVANCE"]').count() == 1
        shot(ann, "first-phone-orders.png", at=".builder .targets")


def test_an_empty_order_sheet_says_every_unit_will_hold(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        to_orders(site)
        ann = phone(browser, site, 1)
        stage(ann, "command", 1)
        ann.locator("button.ready").click()
        ann.wait_for_selector(".nothing-sent")
        assert "every unit will hold" in ann.locator(".nothing-sent").inner_text()


def test_sent_orders_are_said_in_words_and_the_same_sheet_is_stored_once(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path) as site:
        to_orders(site)
        ann = phone(browser, site, 1)
        stage(ann, "command", 1)
        sector, target = advance_target(site, 1)
        give_order(ann, sector, "ADVANCE", target)
        ann.wait_for_selector("section.orders .errors.ok .said li")
        said = ann.locator("section.orders .errors.ok").inner_text()
        assert f"Destroyer in {sector} advances on {target}" in said
        entries = len(site.service.storage.entries(site.table_id))
        give_order(ann, sector, "ADVANCE", target)  # the same again
        ann.wait_for_selector("section.orders .errors.ok .said li")
        assert len(site.service.storage.entries(site.table_id)) == entries


def test_a_ready_meant_for_a_phase_not_begun_says_so(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        ann = phone(browser, site, 1)
        stage(ann, "discussion", 1)
        # As if the phone had shown the Orders phase already (a press from a screen ahead).
        ann.locator("button.ready").evaluate("(b) => { b.dataset.stage = 'command'; }")
        ann.locator("button.ready").click()
        ann.wait_for_selector(".ready-box .errors:not(.ok)")
        said = ann.locator(".ready-box .errors").inner_text()
        assert "the Orders phase has not begun yet; it is now Discussion" in said
        assert "has already ended" not in said


def test_the_lobby_shows_minerals_unknown_and_the_game_one_diamond_per_mineral(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path, chosen=False) as site:
        tv = screen(browser, site)
        assert set(tv.locator("svg.board .minerals").all_text_contents()) == {"?"}
        assert "rolled when the game starts" in tv.locator(".key").inner_text()
        shot(tv, "first-table-lobby.png")
        for seat, name in SEATS:
            site.tokens[seat] = site.service.join(site.table_id, seat, name)
        site.service.choose(site.table_id, 2, {"colour": "blue", "home": "S10"})
        site.service.choose(site.table_id, 1, {"colour": "red", "home": "S21"})
        stage(tv, "discussion", 1)
        galaxy = site.view()["game"]["state"]["galaxy"]
        for sector in galaxy["sectors"]:
            drawn = tv.locator(f'.sector[data-sector="{sector["id"]}"] .minerals').text_content()
            assert drawn == "◆" * sector["minerals"], sector["id"]
        assert "1 mineral" in tv.locator(".key").inner_text()


def test_the_table_screen_and_the_phone_have_a_key_for_diamonds_and_unit_letters(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path) as site:
        tv = screen(browser, site)
        key = tv.locator(".key dl").inner_text()
        for symbol, words in (("◆", "1 mineral"), ("D", "destroyer"), ("B", "battleship")):
            assert symbol in key and words in key
        assert "C" in key and "carrier" in key
        ann = phone(browser, site, 1)
        ann.locator("details.key summary").click()
        shown = ann.locator("details.key dl").inner_text()
        assert "destroyer, strength 2" in shown and "battleship, strength 3" in shown


def test_the_host_page_says_the_house_rules_in_words(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path, advance_claims_empty=False) as site:
        host = page(browser, TV)
        host.goto(f"{site.base}/t/{site.table_id}/host/login")  # the secret is typed, not in a URL
        host.fill('input[name="secret"]', site.secret)
        host.press('input[name="secret"]', "Enter")
        # The "you hold the host controls" page moves on to the host page by itself (a meta
        # refresh); a goto of our own raced it and was interrupted under load.
        host.wait_for_url(f"{site.base}/t/{site.table_id}/host")
        host.wait_for_selector("dl.rules")
        rules = host.locator("dl.rules").inner_text()
        assert "An advance into an empty sector claims it\nno" in rules
        assert "Orders\n10 minutes" in rules and "Support reaches\nadjacent sectors only" in rules
        assert "True" not in rules and "False" not in rules and "_" not in rules


def test_the_index_and_the_table_screen_say_joining_alike(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path, chosen=False) as site:
        index = page(browser, TV)
        index.goto(site.base + "/")
        listed = index.locator(".tables li").inner_text()
        assert "Joining" in listed and "lobby" not in listed
        tv = screen(browser, site)
        assert tv.locator(".bar .stage").inner_text() == "Joining"


# The game's end -------------------------------------------------------------------------------


def test_a_shared_lead_at_the_turn_limit_names_no_winner_anywhere(
    browser: Any, tmp_path: Path
) -> None:
    """R7.3: both empires keep one home of 2 minerals: the lead is shared, nobody wins."""
    with table(tmp_path, turn_limit=1) as site:
        tv = screen(browser, site)
        phones = [phone(browser, site, seat) for seat, _ in SEATS]
        to_orders(site)
        site.service.skip(site.table_id)  # everybody holds
        for opened in (tv, *phones):
            stage(opened, "over")
            said = opened.locator(".result .winner").inner_text()
            assert "lead shared by Red and Blue" in said and "no single winner" in said
            assert "wins" not in opened.locator(".result").inner_text()
            places = opened.locator(".result .places li").all_inner_texts()
            assert [p.split(".")[0] for p in places] == ["=1", "=1"]
        assert "You share the lead." in phones[0].locator(".result").inner_text()
        on_one_screen(tv)
        shot(tv, "first-table-over-shared.png")


def test_a_single_leader_at_the_turn_limit_is_named_the_winner(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path, turn_limit=1) as site:
        to_orders(site)
        sector, target = advance_target(site, 1)
        site.service.submit(site.table_id, 1, f"ADVANCE {sector} {target}")
        tv = screen(browser, site)
        ann = phone(browser, site, 1)
        site.service.skip(site.table_id)
        for opened in (tv, ann):
            stage(opened, "over")
            assert "Red wins at the turn limit" in opened.locator(".result .winner").inner_text()
        assert "That is you!" in ann.locator(".result").inner_text()
        on_one_screen(tv)
        shot(tv, "first-table-over.png")


def on_one_screen(tv: Any) -> None:
    """Nobody scrolls a table screen: the side column (the result, the key) ends on screen."""
    tv.wait_for_selector(".side[data-zoom]")
    key = box(tv, ".side .key")
    assert key["y"] + key["height"] <= TV["height"], key
    assert tv.evaluate("document.scrollingElement.scrollHeight") <= TV["height"]


# Phones -------------------------------------------------------------------------------------------


def test_an_order_set_while_offline_is_kept_and_sent_when_the_connection_is_back(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path) as site:
        to_orders(site)
        ann = phone(browser, site, 1)
        stage(ann, "command", 1)
        sector, target = advance_target(site, 1)
        ann.context.set_offline(True)
        give_order(ann, sector, "ADVANCE", target)
        ann.wait_for_selector("#offline:not([hidden])")
        assert "Not sent yet" in ann.locator("#offline").inner_text()
        assert f"advances on {target}" in ann.locator(".readback").inner_text()  # kept
        assert site.view(1)["you"]["submission"] is None
        ann.context.set_offline(False)
        ann.wait_for_selector("section.orders .errors.ok")
        assert (
            "sent once the connection was back"
            in ann.locator("section.orders .errors").inner_text()
        )
        assert site.view(1)["you"]["submission"] == f"ADVANCE {sector} {target}"
        ann.wait_for_selector("#offline", state="hidden")


def test_a_ready_press_while_offline_is_sent_when_the_connection_is_back(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path) as site:
        ann = phone(browser, site, 1)
        stage(ann, "discussion", 1)
        ann.context.set_offline(True)
        ann.locator("button.ready").click()
        ann.wait_for_selector("#offline:not([hidden])")
        assert not site.view()["seats"][0]["ready"]
        ann.context.set_offline(False)
        ann.wait_for_selector("button.ready.is-ready")
        assert site.view()["seats"][0]["ready"]


def build_phase(site: Site) -> None:
    """Turn 1: Red advances (a second sector), turn 2: everybody holds; the build phase."""
    to_orders(site)
    sector, target = advance_target(site, 1)
    site.service.submit(site.table_id, 1, f"ADVANCE {sector} {target}")
    site.service.skip(site.table_id)
    site.service.skip(site.table_id)  # turn 2's discussion
    site.service.skip(site.table_id)  # turn 2's orders: everybody holds
    assert site.view()["stage"] == "build"


def test_the_build_phase_says_what_its_figures_are_and_what_was_sent(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path) as site:
        build_phase(site)
        ann = phone(browser, site, 1)
        stage(ann, "build", 2)
        income = ann.locator("table.income").inner_text()
        assert "Minerals of 2 claimed sectors" in income and "Net income" in income
        assert "\nclaimed sectors" not in income.lower().replace("minerals of 2 claimed", "")
        ann.select_option("select.cost-pick >> nth=0", "destroyer")
        ann.locator("#panel").evaluate("(p) => { p.dataset.connected = 'waiting'; }")
        ann.locator(".build-form button[type=submit]").click()
        ann.wait_for_selector(".build-form .errors.ok .said li")
        ann.wait_for_selector('#panel[data-connected="yes"]')  # the live update has come too
        said = ann.locator(".build-form .errors.ok").inner_text()
        assert "Build a destroyer in" in said and "(4 minerals)" in said
        # Where the answer lands, without the player scrolling: on the screen, above the Ready bar.
        answer, ready = box(ann, ".build-form .errors"), box(ann, ".ready-box")
        assert not overlap(answer, ready, slack=1) and answer["y"] >= 0, (answer, ready)
        assert answer["y"] + answer["height"] <= PHONE["height"], answer
        shot(ann, "first-phone-build.png", at=".build-form .errors")
        ann.reload()  # the page says it again when it is opened anew
        assert "Build a destroyer in" in ann.locator(".build .sent").inner_text()


def test_the_ready_bar_never_covers_the_build_form(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        build_phase(site)
        ann = phone(browser, site, 1)
        stage(ann, "build", 2)
        ann.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        ann.wait_for_timeout(200)
        send = box(ann, ".build-form button[type=submit]")
        ready = box(ann, ".ready-box")
        assert not overlap(send, ready), (send, ready)
        ann.locator(".build-form button[type=submit]").click()  # reachable: not covered
        ann.wait_for_selector(".build-form .errors.ok")
        ann.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        ann.wait_for_timeout(200)
        said, ready = box(ann, ".build-form .errors"), box(ann, ".ready-box")
        assert not overlap(said, ready), (said, ready)  # what was sent is readable too


def test_a_disabled_send_build_plan_looks_disabled(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        build_phase(site)
        ann = phone(browser, site, 1)
        stage(ann, "build", 2)
        send = ann.locator(".build-form button[type=submit]")
        style = "(b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor]"
        enabled = send.evaluate(style)
        ann.select_option("select.cost-pick >> nth=0", "carrier")  # 16: more than the net
        assert send.is_disabled()
        disabled = send.evaluate(style)
        assert disabled[0] != enabled[0] and disabled[1] == "not-allowed"
        assert disabled[0] not in ("rgb(90, 160, 255)",)  # not the accent blue of "send"


def test_the_discussion_hint_is_not_flush_against_the_edge(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        ann = phone(browser, site, 1)
        stage(ann, "discussion", 1)
        assert box(ann, ".discussion-hint .hint")["x"] >= 8


def test_the_phone_shows_what_its_orders_did(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        to_orders(site)
        sector, target = advance_target(site, 1)
        site.service.submit(site.table_id, 1, f"ADVANCE {sector} {target}")
        ann = phone(browser, site, 1)
        site.service.skip(site.table_id)
        stage(ann, "discussion", 2)
        outcome = ann.locator(".outcomes li").first.inner_text()
        assert f"ADVANCE {sector} {target}" in outcome
        shot(ann, "first-phone-results.png", at=".outcomes")


# The table screen ---------------------------------------------------------------------------------


def test_the_table_screen_uses_its_right_40_percent_for_seats_and_large_join_codes(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path, chosen=False) as site:
        tv = screen(browser, site)
        side = box(tv, ".side")
        assert side["width"] >= 0.36 * TV["width"]
        for qr in tv.locator(".qr-code svg path.qrline").all():
            drawn = qr.bounding_box()  # the modules drawn, not only the box holding them
            assert drawn is not None and drawn["width"] >= 280, drawn
        assert font_px(tv, ".join-link") >= 16
        assert font_px(tv, ".seats .seat-name") >= 32


def test_the_last_turns_results_are_said_beside_the_map(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path) as site:
        tv = screen(browser, site)
        to_orders(site)
        sector, target = advance_target(site, 1)
        site.service.submit(site.table_id, 1, f"ADVANCE {sector} {target}")
        stage(tv, "command", 1)
        assert tv.locator(".seat-row .tag.ok").first.inner_text() == "submitted"
        shot(tv, "first-table-orders.png")
        site.service.skip(site.table_id)
        stage(tv, "discussion", 2)
        board, words = box(tv, ".board-wrap"), box(tv, ".side .summary")
        assert words["x"] >= board["x"] + board["width"] - 1  # beside the map, not under it
        assert words["y"] < TV["height"]  # on the screen without scrolling
        assert "Red" in tv.locator(".side .summary").first.inner_text()
        shot(tv, "first-table-results.png")


def test_the_clock_warns_only_in_the_last_tenth_of_a_phase(browser: Any, tmp_path: Path) -> None:
    clock = FakeClock()
    with table(tmp_path, clock=clock, discussion_seconds=30) as site:
        clock.advance(5)  # 25 of the discussion's 30 seconds left: no warning
        tv = screen(browser, site)
        assert tv.locator(".bar").get_attribute("data-warn") == "3.0"
        assert "low" not in (tv.locator(".big-clock").get_attribute("class") or "")
        clock.advance(23)  # 2 seconds left: the last tenth
        tv.reload()
        tv.wait_for_selector(".big-clock.low")
        site.service.skip(site.table_id)  # the 600-second orders: red in the last 30 s only
        clock.advance(600 - 45)
        tv.reload()
        assert tv.locator(".bar").get_attribute("data-warn") == "30.0"
        assert "low" not in (tv.locator(".big-clock").get_attribute("class") or "")


def test_on_a_phone_sized_table_screen_the_sound_switch_covers_no_join_link(
    browser: Any, tmp_path: Path
) -> None:
    with table(tmp_path, chosen=False) as site:
        small = screen(browser, site, PHONE)
        ARTIFACTS.mkdir(exist_ok=True)
        toggle = box(small, ".sound-toggle")
        for link in small.locator(".join-link").all():
            found = link.bounding_box()
            assert found is not None and not overlap(toggle, dict(found))
        small.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        small.screenshot(path=str(ARTIFACTS / "first-table-small-screen.png"))
        toggle = box(small, ".sound-toggle")
        for link in small.locator(".join-link").all():
            found = link.bounding_box()
            assert found is not None and not overlap(toggle, dict(found))


def test_the_site_has_a_favicon(browser: Any, tmp_path: Path) -> None:
    with table(tmp_path, chosen=False) as site:
        tv = page(browser, TV)
        answer = tv.goto(site.base + "/favicon.ico")
        assert answer is not None and answer.status == 200
        assert answer.headers["content-type"] == "image/vnd.microsoft.icon"
