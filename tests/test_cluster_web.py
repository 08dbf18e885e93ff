"""Cluster's web pages (web/games/cluster.py) through the shared turn-taking routes: the board
with deep and shallow holes, pegs with their heights, whose turn, the last move, the winning
group; moves tapped on a phone (data-move) or on the table screen (entered, then confirmed)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from web_helpers import Phone, csrf_of, host_login, make_app, refused

from companion.cluster_peg.position import Position
from companion.service import TableService

NEAR_WIN = Position.parse("46 7/6/RrRrRr1/rRrRr1/6R/BbBbBb/bBbBbB1 r")


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service)


def seated(app: Flask, service: TableService, **kwargs: object) -> tuple[str, Phone, Phone]:
    options = kwargs.pop("options", None)
    table_id, _ = service.create_table("Pegs", 2, game="cluster", options=options, **kwargs)  # type: ignore[arg-type]
    ann = Phone(app, table_id).join(1, "Ann")
    bo = Phone(app, table_id).join(2, "Bo")
    return table_id, ann, bo


@pytest.fixture
def table(app: Flask, service: TableService) -> Iterator[tuple[str, Phone, Phone]]:
    yield seated(app, service)


def text_of(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def screen(app: Flask, table_id: str) -> str:
    return app.test_client().get(f"/t/{table_id}").get_data(as_text=True)


def test_the_table_screen_draws_the_board_with_deep_and_shallow_holes_and_heights(app, table):
    page = screen(app, table[0])
    assert page.count('class="hole deep') == 32 and page.count('class="hole shallow') == 32
    assert page.count('class="peg red') == 16 and page.count('class="peg blue') == 16
    # 64B: every peg at height 1 (short in deep) or 3 (tall in shallow).
    assert page.count("height-1") == 16 and page.count("height-3") == 16
    assert 'data-hole="c2" data-colour="red" data-kind="tall"' in page
    assert "Ann’s turn (Red)" in text_of(page)
    assert '<link rel="stylesheet" href="/static/cluster/cluster.css">' in page
    assert "/static/cluster/cluster.js" in page
    assert "deep hole (bevelled)" in text_of(page)


def test_the_acting_phone_may_tap_and_the_other_may_not(table):
    _, ann, bo = table
    mine = ann.get("/seat/panel").get_data(as_text=True)
    theirs = bo.get("/seat/panel").get_data(as_text=True)
    assert 'data-tappable="phone"' in mine and "Your turn (Red)" in text_of(mine)
    assert 'data-tappable="no"' in theirs and "Ann’s turn (Red)" in text_of(theirs)
    # The legal moves of the player to move ride on the board, for lighting destinations.
    assert "&#34;c3&#34;: [[&#34;b2&#34;, &#34;c3-b2&#34;]" in mine
    assert 'data-move="resign"' in mine and 'data-move="resign"' not in theirs


def test_a_move_from_the_phone_is_played_and_shown_as_the_last_move(app, table):
    table_id, ann, _bo = table
    preview = ann.post("/seat/preview", json={"text": "c3*g1"}).get_json()
    assert preview["says"] == "the short peg in c3 jumps over d2, e2, f1 to g1: height 1"
    refused(ann.post("/seat/move", json={"text": "c5*h2"}), 422, "jumps over the empty hole g3")
    assert ann.post("/seat/move", json={"text": "c3*g1"}).get_json()["ok"]
    page = screen(app, table_id)
    assert "Ann (Red) played c3*g1, jumping d2, e2, f1." in text_of(page)
    assert 'class="last-move"' in page and "last-destination" in page
    assert "Bo’s turn (Blue)" in text_of(page)


def test_a_move_tapped_on_the_table_screen_waits_for_confirmation(app, table, service):
    table_id, _ann, _ = table
    client = app.test_client()
    token = csrf_of(client, f"/t/{table_id}")
    headers = {"X-CSRFToken": token, "Accept": "application/json"}
    answer = client.post(
        f"/t/{table_id}/move", json={"text": "C1-B1", "enter": True}, headers=headers
    )
    assert answer.get_json() == {"ok": True, "text": "c1-b1"}
    assert service.view(table_id)["pending"] == {"seat": 1, "text": "c1-b1"}
    page = screen(app, table_id)
    assert "Confirm c1-b1" in page
    bad = client.post(f"/t/{table_id}/move", json={"text": "c1-c2", "enter": True}, headers=headers)
    refused(bad, 422, "c2 is taken by a Red tall peg")
    confirmed = client.post(f"/t/{table_id}/move", json={"text": "c1-b1"}, headers=headers)
    assert confirmed.get_json()["ok"]
    assert service.view(table_id)["game"]["tokens"] == ["c1-b1"]


def test_the_table_screen_takes_no_move_for_the_computers_seat(app, service):
    table_id, _ = service.create_table(
        "Pegs", 2, game="cluster", options={"computer": "seat 1", "computer_level": "easy"}
    )
    service.join(table_id, 1, "Computer (easy)")
    service.join(table_id, 2, "Bo")
    client = app.test_client()
    token = csrf_of(client, f"/t/{table_id}")
    page = screen(app, table_id)
    assert 'data-tappable="no"' in page and "The computer is thinking" in page
    answer = client.post(
        f"/t/{table_id}/move",
        json={"text": "c1-b1", "enter": True},
        headers={"X-CSRFToken": token, "Accept": "application/json"},
    )
    refused(answer, 409, "The computer plays this seat")


def test_a_win_shows_the_winner_and_highlights_the_winning_group(app, service):
    table_id, ann, _ = seated(app, service, board=NEAR_WIN)
    assert ann.post("/seat/move", json={"text": "e7-d6"}).get_json()["ok"]
    page = screen(app, table_id)
    assert page.count("winning") == 12
    assert "Ann (Red) wins: every peg connected at height 2!" in text_of(page)


def test_a_draw_offer_and_a_swap_are_said_on_the_screens(app, service):
    table_id, ann, bo = seated(app, service, options={"swap": True})
    assert ann.post("/seat/move", json={"text": "draw"}).get_json()["ok"]
    assert "Ann offers a draw" in text_of(screen(app, table_id))
    assert ann.post("/seat/move", json={"text": "c3*g1"}).get_json()["ok"]
    panel = bo.get("/seat/panel").get_data(as_text=True)
    assert 'data-move="swap"' in panel and "Accept draw" in panel
    assert bo.post("/seat/move", json={"text": "swap"}).get_json()["ok"]
    page = text_of(screen(app, table_id))
    assert "Bo swapped" in page and "Ann’s turn (Blue)" in page


def test_the_host_page_offers_cluster_with_its_house_rules_in_words(app, service):
    table_id, secret = service.create_table("Pegs", 2, game="cluster")
    client = app.test_client()
    assert host_login(client, table_id, secret).status_code == 200
    page = client.get(f"/t/{table_id}/host").get_data(as_text=True)
    assert '<option value="cluster"' in page
    words = text_of(page)
    assert "large board, interlocked (64B)" in words
    assert "The computer plays" in words
