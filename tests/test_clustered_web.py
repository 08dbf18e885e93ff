"""Clustered's web pages through the routes (Flask test client): the layout as SVG with the
cards' symbols, whose turn it is, the card picker and its legal cells, a placement from the
phone, a declaration, and the end screen with the scoring drawn on the layout."""

from __future__ import annotations

import re

import pytest
from clustered_helpers import K720_ORDER
from flask import Flask
from web_helpers import Phone, csrf_of, make_app

from companion.service import TableService
from web.games import pages_for
from web.games.clustered import PAGES


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service)


def text_of(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def started(app: Flask, service: TableService, **options: object) -> tuple[str, str, Phone, Phone]:
    table_id, secret = service.create_table("Clustered", 2, game="clustered", options=options)
    ann, bo = Phone(app, table_id).join(1, "Ann"), Phone(app, table_id).join(2, "Bo")
    for phone, colour in ((ann, "B"), (bo, "O")):
        token = csrf_of(phone.client, f"/t/{table_id}/seat")
        reply = phone.client.post(
            f"/t/{table_id}/seat/choose", data={"csrf_token": token, "colour": colour}
        )
        assert reply.status_code in (200, 302), reply.get_data(as_text=True)
    return table_id, secret, ann, bo


def test_the_pages_are_found_through_the_registration(app: Flask) -> None:
    assert pages_for("clustered") is PAGES
    with app.test_client().get("/static/clustered/clustered.css") as css:
        assert css.status_code == 200 and b"clustered-board" in css.data


def test_the_table_screen_draws_the_layout_and_whose_turn(
    app: Flask, service: TableService
) -> None:
    table_id, _, ann, _ = started(app, service)
    assert ann.post("/seat/move", json={"text": "B-tr-da-3 1,0"}).get_json()["ok"]
    page = app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert 'class="clustered-board"' in page
    assert 'data-card="B-tr-da-3"' in page and 'fill="url(#hatch-B)"' in page
    assert page.count("<path d=") >= 3  # three triangles
    assert "Bo (Orange)’s turn (Orange)" in text_of(page) or "Bo’s turn (Orange)" in text_of(page)
    assert "Ann (Blue) placed B-tr-da-3 at 1,0." in text_of(page)


def test_the_phone_offers_cards_and_lights_their_legal_cells(
    app: Flask, service: TableService
) -> None:
    _, _, ann, bo = started(app, service)
    mine = ann.get("/seat/panel").get_data(as_text=True)
    assert 'class="cl-card" data-card="B-sq-so-1"' in mine
    assert mine.count('class="slot"') == 4  # the start card's four sides
    assert "cl-card" not in bo.get("/seat/panel").get_data(as_text=True)
    preview = ann.post("/seat/preview", json={"text": "B-sq-so-1"}).get_json()
    assert preview["ok"] and preview["cells"] == ["0,1", "-1,0", "1,0", "0,-1"]
    refused = ann.post("/seat/move", json={"text": "B-sq-so-1 5,5"}).get_json()
    assert not refused["ok"] and "no-neighbour" in " ".join(refused["reasons"])


def test_a_declaration_from_the_phone(app: Flask, service: TableService) -> None:
    table_id, _, ann, bo = started(app, service, surface="0..1,0..0", end_when_blocked=False)
    assert ann.post("/seat/move", json={"text": "B-wild 1,0"}).get_json()["ok"]
    panel = bo.get("/seat/panel").get_data(as_text=True)
    assert "No card of yours fits anywhere?" in panel
    hand = "O-sq-so-1 O-sq-so-2 O-sq-so-3 O-tr-so-1 O-wild"
    reply = bo.post("/seat/move", json={"text": f"discard O-wild hand {hand}"}).get_json()
    assert reply["ok"] and reply["text"] == "discard O-wild"
    page = text_of(app.test_client().get(f"/t/{table_id}").get_data(as_text=True))
    assert "had no legal move and discarded a card face down" in page and "O-wild" not in page


def test_the_end_screen_draws_the_scoring_on_the_layout(app: Flask, service: TableService) -> None:
    table_id, _, ann, bo = started(app, service, first_bonuses=True)
    for move in K720_ORDER:
        phone = ann if move.startswith("B") else bo
        assert phone.post("/seat/move", json={"text": move}).get_json()["ok"], move
    service.correct(table_id, "stop", "the end of the example")
    page = app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert page.count('class="score-line"') == 4  # Blue's two lines, Orange's two
    assert page.count('class="score-rectangle"') == 2
    words = text_of(page)
    assert "18" in words and "10" in words
    assert "first-rectangle, first-line = 4" in words
    assert "nobody wins (K5.6)" in words


def test_the_hosts_new_table_form_takes_every_house_rule(service: TableService) -> None:
    """The registration's house rules, in words, as the host's form sends them."""
    from companion import games
    from web.house_rules import options_from_form

    game = games.get("clustered")
    form = {
        f"{game.name}:first_seat": "2",
        f"{game.name}:palette": "B=blue O=orange R=red G=green Y=yellow P=purple T=teal K=black",
        f"{game.name}:surface": "-6..13,-5..5",
        f"{game.name}:discard_check": "table",
        f"{game.name}:end_when_blocked": "on",
        f"{game.name}:extra_wild": "B",
        f"{game.name}:quick_play": "on",
        f"{game.name}:largest_bonuses": "on",
        f"{game.name}:start_cards": "2",
    }
    options = options_from_form(game, form)
    table_id, _ = service.create_table("From the form", 3, game="clustered", options=options)
    settings = service.view(table_id)["setup"]["settings"]
    assert settings["start_cards"] == 2 and settings["extra_wild"] == "B"
    assert settings["palette"][-1] == ["K", "black"] and settings["quick_play"] is True
    assert service.view(table_id)["setup"]["first_seat"] == 2
    plain = options_from_form(game, {})
    assert service.create_table("Defaults", 2, game="clustered", options=plain)
    assert [rule.describe(rule.default) for rule in game.house_rules][:2] == [
        "1",
        "B O R G Y P T M",
    ]
