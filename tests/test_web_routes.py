"""Every route of the web site, with the Flask test client: what it shows, and every way it
refuses (a clear message, and nothing stored or changed)."""

from __future__ import annotations

import html
import os
import re
import stat
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_helpers import Phone, csrf_of, host_login, join_link, make_app, new_table, refused

from companion.service import FakeClock, TableService
from web.errors import CSRF_MESSAGE, RATE_MESSAGE


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service, JOIN_LIMIT="5 per minute")


@pytest.fixture
def table_id(service: TableService) -> str:
    return new_table(service)[0]


@pytest.fixture
def phones(app: Flask, table_id: str) -> tuple[Phone, Phone]:
    return Phone(app, table_id).join(1, "Ann"), Phone(app, table_id).join(2, "Bob")


@pytest.fixture
def started(
    service: TableService, table_id: str, phones: tuple[Phone, Phone]
) -> tuple[Phone, Phone]:
    """Both seats joined and chose (seat 2 first); the game is in turn 1's command phase."""
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    service.skip(table_id)  # discussion -> command
    return phones


def state(service: TableService, table_id: str) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    return (
        service.view(table_id, 1),
        service.view(table_id, 2),
        len(service.storage.entries(table_id)),
    )


@pytest.fixture
def unchanged(service: TableService, table_id: str) -> Iterator[None]:
    before = state(service, table_id)
    yield
    assert state(service, table_id) == before


# The table screen ------------------------------------------------------------------------


def test_the_index_lists_the_tables(app: Flask, table_id: str) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    assert f"/t/{table_id}" in page and "Test table" in page


def test_the_table_screen_shows_a_qr_code_and_join_link_for_each_free_seat(
    app: Flask, table_id: str
) -> None:
    page = app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert page.count('class="qr-code"><svg') == 2
    assert join_link(app, table_id, 1) in page and join_link(app, table_id, 2) in page


def test_a_taken_seat_has_no_qr_code_any_more(app: Flask, table_id: str) -> None:
    Phone(app, table_id).join(1, "Ann")
    page = app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert join_link(app, table_id, 1) not in page and join_link(app, table_id, 2) in page


def test_a_table_panel_is_shared_for_a_second_of_the_services_clock_and_no_longer(
    app: Flask, started: tuple[Phone, Phone], clock: FakeClock
) -> None:
    """Every stream of a table screen shares one rendering of its panel for up to
    ``PANEL_MAX_AGE`` (a second), counted on the service's clock, the one the countdown is
    read from: a screen reloaded later shows the time left then, not a second-old figure."""
    table = started[0].table_id
    client = app.test_client()

    def left() -> float:
        page = client.get(f"/t/{table}/panel").get_data(as_text=True)
        found = re.search(r'data-remaining="([0-9.]+)"', page)
        assert found is not None, page
        return float(found.group(1))

    first = left()
    clock.advance(0.5)
    assert left() == first, "shared within the second"
    clock.advance(23)
    assert left() == pytest.approx(first - 23.5, abs=0.01)


def test_an_unknown_table_is_a_clear_404(app: Flask) -> None:
    refused(app.test_client().get("/t/nope"), 404, "There is no table 'nope' here")


def test_the_table_screen_lists_the_cameras_discrepancies(
    app: Flask, service: TableService, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = service.view

    def with_scan(table: str, seat: int | None = None) -> dict[str, Any]:
        view = real(table, seat)
        view["scan"] = {
            "at": 12.0,
            "discrepancies": [
                # as the rules side says them: the place first (board_scan.py)
                {"sector": "S4", "text": "S4: a red destroyer is on the board, not in the game"},
                {"sector": "S9", "text": "a claim marker is missing"},
                {"sector": None, "text": "the board is turned"},
            ],
            "missing": ["S7"],
        }
        return view

    monkeypatch.setattr(service, "view", with_scan)
    page = app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert "<b>S4</b>: a red destroyer is on the board, not in the game" in page
    assert "S4: S4" not in page and "S4</b>: S4" not in page  # the place is named once
    assert "<b>S9</b>: a claim marker is missing" in page
    assert "<li>the board is turned</li>" in page
    assert "Not seen: S7" in page


def test_the_table_screen_has_no_scan_section_without_a_camera(app: Flask, table_id: str) -> None:
    assert "Camera" not in app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)


def test_r2_1_the_table_screen_asks_for_the_tiles_laid_as_drawn_until_the_game_starts(
    app: Flask, service: TableService, table_id: str, phones: tuple[Phone, Phone]
) -> None:
    """Each tile's top is drawn all game long; the lobby also says what it is for."""
    lobby = app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert "Laying the galaxy" in lobby and 'class="tile-top"' in lobby
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    playing = app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert "Laying the galaxy" not in playing and 'class="tile-top"' in playing


# Joining -----------------------------------------------------------------------------------


def test_joining_takes_the_seat_with_an_httponly_strict_cookie(
    app: Flask, service: TableService, table_id: str
) -> None:
    client = app.test_client()
    link = join_link(app, table_id, 1)
    token = csrf_of(client, link)
    answer = client.post(link, data={"name": "Ann", "csrf_token": token})
    assert answer.status_code == 302
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert service.view(table_id)["seats"][0]["name"] == "Ann"
    assert "Ann" in client.get(f"/t/{table_id}/seat").get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/join/1/0000", 403, "This join link is not valid"),
        ("/join/9/0000", 404, "This table has seats 1 to 2"),
        ("/rejoin/1/not-a-token", 403, "This seat link is not valid any more"),
    ],
)
def test_a_bad_join_link_is_refused(
    app: Flask, table_id: str, unchanged: None, path: str, status: int, words: str
) -> None:
    refused(app.test_client().get(f"/t/{table_id}{path}"), status, words)


def test_a_taken_seats_link_is_refused_for_another_phone(
    app: Flask, table_id: str, phones: tuple[Phone, Phone], unchanged: None
) -> None:
    refused(app.test_client().get(join_link(app, table_id, 1)), 409, "Seat 1 is taken")


def test_joining_without_a_name_is_refused(app: Flask, table_id: str, unchanged: None) -> None:
    client = app.test_client()
    link = join_link(app, table_id, 1)
    answer = client.post(link, data={"name": "  ", "csrf_token": csrf_of(client, link)})
    refused(answer, 409, "the player name is empty")


def test_repeated_bad_join_attempts_are_rate_limited(app: Flask, table_id: str) -> None:
    client = app.test_client()
    for _ in range(5):
        assert client.get(f"/t/{table_id}/join/1/guess").status_code == 403
    refused(client.get(f"/t/{table_id}/join/1/guess"), 429, RATE_MESSAGE)
    refused(client.get(join_link(app, table_id, 1)), 429, RATE_MESSAGE)  # even a good one now


def test_good_join_pages_do_not_count_against_the_limit(app: Flask, table_id: str) -> None:
    client = app.test_client()
    for _ in range(8):
        assert client.get(join_link(app, table_id, 1)).status_code == 200


def test_a_phone_without_a_seat_cannot_open_the_seat_page(app: Flask, table_id: str) -> None:
    refused(app.test_client().get(f"/t/{table_id}/seat"), 403, "does not hold a seat")


# CSRF --------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "forged"])
def test_a_post_without_a_valid_csrf_token_is_refused(
    started: tuple[Phone, Phone], unchanged: None, token: str | None
) -> None:
    ann = started[0]
    headers = {"Accept": "application/json"}
    if token is not None:
        headers["X-CSRFToken"] = token
    answer = ann.client.post(
        f"/t/{ann.table_id}/seat/orders", json={"text": "HOLD S21"}, headers=headers
    )
    refused(answer, 400, CSRF_MESSAGE)


# Choosing ----------------------------------------------------------------------------------


def test_seats_choose_colour_and_home_in_the_rulebooks_order(
    phones: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    ann, bob = phones
    with_state = state(service, table_id)
    refused(ann.post("/seat/choose", data={"colour": "red", "home": "S21"}), 409, "seat 2's turn")
    assert state(service, table_id) == with_state
    assert bob.post("/seat/choose", data={"colour": "blue", "home": "S10"}).get_json()["ok"]
    refused(ann.post("/seat/choose", data={"colour": "blue", "home": "S21"}), 422, "Blue is taken")
    refused(ann.post("/seat/choose", data={"colour": "red"}), 400, "Choose both")
    assert ann.post("/seat/choose", data={"colour": "red", "home": "S21"}).get_json()["ok"]
    assert service.view(table_id)["stage"] == "discussion"


# Orders ------------------------------------------------------------------------------------


def test_orders_are_stored_in_canonical_form(
    started: tuple[Phone, Phone], service: TableService
) -> None:
    ann = started[0]
    answer = ann.post("/seat/orders", json={"text": "advance s21 s12"})
    assert answer.get_json() == {
        "ok": True,
        "text": "ADVANCE S21 S12",
        "said": ["Destroyer in S21 advances on S12"],  # what was stored, in words
    }
    assert service.view(ann.table_id, 1)["you"]["submission"] == "ADVANCE S21 S12"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ADVNCE S21 S12", "line 1"),  # malformed: names line and column
        ("ADVANCE S21 S33", "S33 is not next to S21"),  # void: says why
        ("HOLD S10", "the unit in S10 is Blue's destroyer, not yours"),
    ],
)
def test_a_malformed_or_void_order_is_refused_with_the_reason(
    started: tuple[Phone, Phone], unchanged: None, text: str, words: str
) -> None:
    refused(started[0].post("/seat/orders", json={"text": text}), 422, words)


def test_orders_must_be_text(started: tuple[Phone, Phone], unchanged: None) -> None:
    refused(started[0].post("/seat/orders", json={"text": 3}), 400, "Send the orders as text")


def test_orders_in_the_discussion_phase_are_refused(
    phones: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    before = state(service, table_id)
    answer = phones[0].post("/seat/orders", json={"text": "HOLD S21"})
    refused(answer, 409, "nothing is submitted in the Discussion phase")
    assert state(service, table_id) == before


def test_ready_for_a_phase_that_has_ended_is_refused(
    started: tuple[Phone, Phone], unchanged: None
) -> None:
    answer = started[0].post("/seat/ready", json={"ready": True, "stage": "discussion"})
    refused(answer, 409, "the Discussion phase has already ended")


def test_ready_names_a_real_phase(started: tuple[Phone, Phone], unchanged: None) -> None:
    refused(started[0].post("/seat/ready", json={"stage": "nap"}), 400, "no phase called 'nap'")


def test_both_ready_resolves_the_turn_and_the_phone_explains_its_orders(
    started: tuple[Phone, Phone], service: TableService
) -> None:
    ann = started[0]
    ann.post("/seat/orders", json={"text": "ADVANCE S21 S12"})
    for phone in started:
        assert phone.post("/seat/ready", json={"ready": True, "stage": "command"}).get_json()["ok"]
    assert service.view(ann.table_id)["stage"] == "discussion"
    panel = ann.get("/seat/panel").get_data(as_text=True)
    assert "ADVANCE S21 S12</b>: advanced into S12 and claimed it" in panel
    table = ann.client.get(f"/t/{ann.table_id}/panel").get_data(as_text=True)
    assert "S12: Red (was Nobody)" in table and 'class="arrow arrow-advance"' in table


# Build phase -------------------------------------------------------------------------------


@pytest.fixture
def building(started: tuple[Phone, Phone], service: TableService) -> tuple[Phone, Phone]:
    ann = started[0]
    ann.post("/seat/orders", json={"text": "ADVANCE S21 S12"})
    service.skip(ann.table_id)  # turn 1 resolves
    service.skip(ann.table_id)  # discussion
    ann.post("/seat/orders", json={"text": "ADVANCE S12 S35"})
    service.skip(ann.table_id)  # turn 2 resolves: build phase
    assert service.view(ann.table_id)["stage"] == "build"
    return started


def test_r3_3_an_empty_order_sheet_is_answered_with_every_unit_holding(
    started: tuple[Phone, Phone], service: TableService
) -> None:
    answer = started[0].post("/seat/orders", json={"text": ""}).get_json()
    assert answer == {"ok": True, "text": "", "said": ["No orders: every unit will hold (R3.3)."]}
    ready = started[0].post("/seat/ready", json={"ready": True, "stage": "command"}).get_json()
    assert ready["ok"] and ready["ready"]


def test_the_build_page_shows_the_income_statement_and_legal_sectors(
    building: tuple[Phone, Phone], service: TableService
) -> None:
    ann = building[0]
    panel = ann.get("/seat/panel").get_data(as_text=True)
    net = service.view(ann.table_id, 1)["you"]["income"]["net"]
    assert "Net income" in panel and f'data-net="{net}"' in panel
    built_in = service.view(ann.table_id, 1)["you"]["build"]["sectors"]
    for sector in built_in:
        assert f'name="build-{sector}"' in panel
    assert 'name="build-S35"' not in panel  # it holds Red's destroyer


def test_an_over_budget_build_is_refused(
    building: tuple[Phone, Phone], service: TableService
) -> None:
    ann = building[0]
    before = state(service, ann.table_id)
    answer = ann.post("/seat/form", data={"stage": "build", "build-S21": "carrier"})
    refused(answer, 422, "the plan costs 16 minerals but your net income is")
    assert state(service, ann.table_id) == before


def test_a_build_plan_is_stored(building: tuple[Phone, Phone], service: TableService) -> None:
    ann = building[0]
    assert ann.post("/seat/form", data={"stage": "build", "stockpile": "1"}).get_json()["ok"]
    assert service.view(ann.table_id, 1)["you"]["submission"] == "STOCKPILE"


def test_a_form_for_an_ended_phase_is_refused(
    started: tuple[Phone, Phone], unchanged: None
) -> None:
    answer = started[0].post("/seat/form", data={"stage": "build", "stockpile": "1"})
    refused(answer, 409, "This form was for the Build phase, which has ended; it is now Orders")


# Host --------------------------------------------------------------------------------------


@pytest.fixture
def host(app: Flask, service: TableService) -> tuple[FlaskClient, str]:
    """A host browser logged in to a new table whose game is running."""
    table_id, secret = new_table(service)
    for seat, name in ((1, "Ann"), (2, "Bob")):
        service.join(table_id, seat, name)
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    client = app.test_client()
    answer = host_login(client, table_id, secret)
    assert answer.status_code == 200
    return client, table_id


def _host_post(client: FlaskClient, table_id: str, action: str, **data: str) -> Any:
    token = csrf_of(client, f"/t/{table_id}/host")
    return client.post(f"/t/{table_id}/host/{action}", data={"csrf_token": token, **data})


def test_the_host_controls_need_the_host_secret(app: Flask, table_id: str, unchanged: None) -> None:
    client = app.test_client()
    refused(client.get(f"/t/{table_id}/host"), 403, "need the table's host secret")
    refused(host_login(client, table_id, "wrong"), 403, "not this table's host secret")
    refused(client.get(f"/t/{table_id}/host/export"), 403, "need the table's host secret")


def test_a_seats_session_is_no_host(started: tuple[Phone, Phone], unchanged: None) -> None:
    refused(started[0].post("/host/pause"), 403, "need the table's host secret")


def test_the_host_pauses_resumes_extends_and_skips(
    host: tuple[FlaskClient, str], service: TableService
) -> None:
    client, table_id = host
    assert _host_post(client, table_id, "pause").status_code == 302
    assert service.view(table_id)["paused"]
    refused(_host_post(client, table_id, "pause"), 409, "already paused")
    _host_post(client, table_id, "resume")
    remaining = service.view(table_id)["remaining"]
    _host_post(client, table_id, "extend", seconds="60")
    assert service.view(table_id)["remaining"] == remaining + 60
    refused(_host_post(client, table_id, "extend", seconds="lots"), 400, "'lots' is not a number")
    _host_post(client, table_id, "skip")
    assert service.view(table_id)["stage"] == "command"
    refused(_host_post(client, table_id, "fly"), 404, "no host control called 'fly'")


def test_a_bad_correction_and_an_undo_with_nothing_to_undo_change_nothing(
    host: tuple[FlaskClient, str], service: TableService
) -> None:
    client, table_id = host
    before = state(service, table_id)
    assert _host_post(client, table_id, "undo").status_code == 409
    assert _host_post(client, table_id, "correct", text="nonsense", reason="x").status_code == 409
    assert state(service, table_id) == before


def test_the_host_corrects_the_board_and_undoes_it(
    host: tuple[FlaskClient, str], service: TableService
) -> None:
    client, table_id = host
    answer = _host_post(client, table_id, "correct", text="CLAIM S12 red", reason="misread")
    assert answer.status_code == 302
    assert service.view(table_id)["game"]["state"]["claims"]["S12"] == "red"
    _host_post(client, table_id, "undo")
    assert "S12" not in service.view(table_id)["game"]["state"]["claims"]


def test_the_host_page_says_the_house_rules_in_words_and_exports_the_record(
    host: tuple[FlaskClient, str],
) -> None:
    client, table_id = host
    page = client.get(f"/t/{table_id}/host").get_data(as_text=True)
    rules = page.split("House rules of this table")[1].split("</dl>")[0]
    for title, words in [
        ("Support reaches", "adjacent sectors only"),
        ("An advance into an empty sector claims it", "yes"),
        ("Turn limit", "3"),
        ("Orders", "10 minutes"),  # web_helpers.new_table: 600 s
    ]:
        assert f"<dt>{title}</dt><dd>{words} " in rules, title
    assert "True" not in rules and "_seconds" not in rules and "command" not in rules
    record = client.get(f"/t/{table_id}/host/export")
    assert record.is_json and record.get_json()["format"]


def test_a_reissued_link_moves_the_seat_to_a_new_phone(app: Flask, service: TableService) -> None:
    table_id, secret = new_table(service)
    old = Phone(app, table_id).join(1, "Ann")
    host = app.test_client()
    host_login(host, table_id, secret)
    page = _host_post(host, table_id, "reissue", seat="1").get_data(as_text=True)
    link = page.split('class="rejoin-link" href="')[1].split('"')[0]
    new = app.test_client()
    assert new.get(link.removeprefix("http://localhost")).status_code == 200
    assert "Ann" in new.get(f"/t/{table_id}/seat").get_data(as_text=True)
    refused(old.get("/seat"), 403, "does not hold a seat")


# Live updates -------------------------------------------------------------------------------


def _first_message(response: Any) -> str:
    chunks = response.response
    text = ""
    for chunk in chunks:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: panel" in text and text.endswith("\n\n"):
            break
    response.close()
    return text


def test_a_stream_starts_with_the_current_panel(started: tuple[Phone, Phone]) -> None:
    ann = started[0]
    for path in ("/events", "/seat/events"):
        response = ann.client.get(f"/t/{ann.table_id}{path}", buffered=False)
        assert response.mimetype == "text/event-stream"
        message = _first_message(response)
        assert "retry: 2000" in message and "event: panel" in message and "Orders" in message


def test_a_message_carries_each_line_of_its_panel_as_a_data_line() -> None:
    from web.live import _message

    assert _message("panel", "<p>\n  two\n</p>", 3) == (
        "event: panel\nid: 3\ndata: <p>\ndata:   two\ndata: </p>\n\n"
    )
    assert _message("gone", "") == "event: gone\ndata: \n\n"
    # the table screens share one panel: each stream's message differs only by its id
    assert _message("panel", "a\nb", 4) == _message("panel", "a\nb", 3).replace("id: 3", "id: 4")


def test_a_seat_stream_needs_the_seat(app: Flask, table_id: str) -> None:
    refused(app.test_client().get(f"/t/{table_id}/seat/events"), 403, "does not hold a seat")


# Secrets -----------------------------------------------------------------------------------


def test_the_secret_key_is_kept_beside_the_database_for_its_owner_only(
    service: TableService,
) -> None:
    from web import create_app

    create_app({"SERVICE": service})
    key_file = service.storage.path.with_name(service.storage.path.name + ".secret")
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    again = create_app({"SERVICE": service})
    assert again.config["SECRET_KEY"] == key_file.read_text().strip()


def test_create_app_needs_a_service_or_a_database() -> None:
    from web import create_app

    with pytest.raises(ValueError, match="SERVICE"):
        create_app({})


def test_no_route_shows_seat_bs_pending_orders_to_seat_a(
    started: tuple[Phone, Phone], clock: FakeClock
) -> None:
    ann, bob = started
    assert bob.post("/seat/orders", json={"text": "ADVANCE S10 S35"}).get_json()["ok"]
    secret = "S10 S35"
    anonymous = ann.app.test_client()
    table = ann.table_id
    routes = [
        "/",
        f"/t/{table}",
        f"/t/{table}/panel",
        f"/t/{table}/seat",
        f"/t/{table}/seat/panel",
        f"/t/{table}/host",
        f"/t/{table}/host/export",
    ]
    for client in (ann.client, anonymous):
        for route in routes:
            assert secret not in client.get(route).get_data(as_text=True), route
        for route in (f"/t/{table}/events", f"/t/{table}/seat/events"):
            assert secret not in _first_message(client.get(route, buffered=False)), route
    for path, kwargs in [
        ("/seat/orders", {"json": {"text": "HOLD S21"}}),
        ("/seat/ready", {"json": {"ready": False}}),
        ("/seat/form", {"data": {"stage": "command"}}),
        ("/seat/choose", {"data": {"colour": "red", "home": "S1"}}),
        ("/host/skip", {}),
    ]:
        assert secret not in ann.post(path, **kwargs).get_data(as_text=True), path
    # Seat B sees its own orders.
    assert "ADVANCE S10 S35" in bob.get("/seat/panel").get_data(as_text=True)


def test_a_reconnecting_stream_catches_up_with_what_it_missed(
    started: tuple[Phone, Phone], service: TableService
) -> None:
    ann = started[0]
    first = _first_message(ann.client.get(f"/t/{ann.table_id}/seat/events", buffered=False))
    assert 'data-stage="command"' in first
    ann.post("/seat/orders", json={"text": "ADVANCE S21 S12"})
    service.skip(ann.table_id)  # the turn resolves while the phone is away
    again = ann.client.get(
        f"/t/{ann.table_id}/seat/events", buffered=False, headers={"Last-Event-ID": "0"}
    )
    caught_up = _first_message(again)
    assert 'data-stage="discussion"' in caught_up and 'data-turn="2"' in caught_up
    assert "advanced into S12 and claimed it" in caught_up


def test_a_combat_shows_both_strengths_on_the_board_and_in_words(
    app: Flask, service: TableService
) -> None:
    table_id, _ = new_table(service)
    for seat, name in ((1, "Ann"), (2, "Bob")):
        service.join(table_id, seat, name)
    service.choose(table_id, 2, {"colour": "blue", "home": "S12"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    service.skip(table_id)
    service.submit(table_id, 1, "ADVANCE S21 S12")
    service.skip(table_id)
    page = app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert ">2 v 2</text>" in page and 'class="arrow arrow-failed"' in page
    assert "S12: Red attacked from S21 with 2 (Red destroyer from S21 2)" in html.unescape(page)


def test_a_dislodged_unit_retreats_through_the_phones_form(
    app: Flask, service: TableService
) -> None:
    table_id, _ = new_table(service)
    ann, bob = Phone(app, table_id).join(1, "Ann"), Phone(app, table_id).join(2, "Bob")
    service.choose(table_id, 2, {"colour": "blue", "home": "S12"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    service.correct(table_id, "PLACE red battleship S44", "a battleship for the test")
    service.skip(table_id)
    ann.post("/seat/orders", json={"text": "ADVANCE S44 S12"})
    service.skip(table_id)
    assert service.view(table_id)["stage"] == "retreats"
    panel = bob.get("/seat/panel").get_data(as_text=True)
    options = service.view(table_id, 2)["you"]["retreats"][0]["options"]
    assert options and f'name="retreat-S12" value="{options[-1]}"' in panel
    before = state(service, table_id)
    refused(bob.post("/seat/form", data={"stage": "retreats", "retreat-S12": "S46"}), 422, "")
    assert state(service, table_id) == before
    answer = bob.post("/seat/form", data={"stage": "retreats", "retreat-S12": options[-1]})
    assert answer.get_json() == {
        "ok": True,
        "text": f"RETREAT S12 {options[-1]}",
        "said": [f"The unit in S12 retreats to {options[-1]}"],
    }
    bob.post("/seat/ready", json={"ready": True, "stage": "retreats"})
    assert service.view(table_id)["stage"] == "discussion"
    units = service.view(table_id)["game"]["state"]["units"]
    assert {"owner": "blue", "sector": options[-1]}.items() <= next(
        u for u in units if u["owner"] == "blue"
    ).items()


RULES_FORM = {
    "name": "Rematch",
    "players": "3",
    "turn_limit": "4",
    "support_range": "any",
    "discussion_seconds": "60",
    "command_seconds": "90",
    "retreat_seconds": "30",
    "build_seconds": "45",
}


def test_the_host_creates_a_new_table_with_house_rules(
    host: tuple[FlaskClient, str], service: TableService
) -> None:
    client, table_id = host
    page = _host_post(client, table_id, "new", **RULES_FORM).get_data(as_text=True)
    new_id = page.split("/t/")[1].split('"')[0].split("/")[0]
    view = service.view(new_id)
    assert view["name"] == "Rematch" and len(view["seats"]) == 3
    assert view["setup"]["rules"] == {
        "support_range": "any",
        "advance_claims_empty": False,
        "turn_limit": 4,
        "discussion_seconds": 60,
        "command_seconds": 90,
        "build_seconds": 45,
        "retreat_seconds": 30,
    }
    assert client.get(f"/t/{new_id}/host").status_code == 200  # this host holds it
    assert f"/t/{new_id}/host/link/" in page and "?secret=" not in page


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"players": "9"}, 409, "Local Cluster is for 2 to 8 players, not 9"),
        ({"turn_limit": "0"}, 400, "Check the house rules: Turn limit: at least 1, not 0"),
        ({"command_seconds": "soon"}, 400, "Check the house rules"),
        ({"support_range": "far"}, 400, "Check the house rules"),
        ({"name": " "}, 409, "the table name is empty"),
    ],
)
def test_bad_house_rules_create_no_table(
    host: tuple[FlaskClient, str],
    service: TableService,
    change: dict[str, str],
    status: int,
    words: str,
) -> None:
    client, table_id = host
    before = service.table_ids()
    refused(_host_post(client, table_id, "new", **{**RULES_FORM, **change}), status, words)
    assert service.table_ids() == before
