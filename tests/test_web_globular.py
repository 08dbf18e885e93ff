"""Globular Cluster through the web pages (Flask test client): colours chosen on the phones,
the cluster's data on the table screen and the phones, the acting seat's turn built with
previews and played, the table screen building the acting seat's turn, the score sheet, a
scoring round's breakdown and the end with its chart."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from flask import Flask
from web_helpers import Phone, make_app, refused

from companion.globular.bots import random_turn
from companion.service import TableService
from web.games.globular import PAGES, chart_svg

GAME = "globular-cluster"


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service)


@pytest.fixture
def table(service: TableService) -> str:
    table_id, _ = service.create_table("Cluster", 2, game=GAME, seed=11)
    return table_id


@pytest.fixture
def phones(app: Flask, service: TableService, table: str) -> tuple[Phone, Phone]:
    red, blue = Phone(app, table).join(1, "Ann"), Phone(app, table).join(2, "Bo")
    for phone, colour in ((red, "red"), (blue, "blue")):
        answer = phone.post("/seat/choose", data={"colour": colour, "csrf_token": phone.token})
        assert answer.status_code == 200, answer.get_data(as_text=True)
    if service.view(table)["stage"] == "discussion":  # none before a turn-taking game
        service.skip(table)
    return red, blue


def board_data(page: str) -> dict:  # type: ignore[type-arg]
    found = re.search(r'<script type="application/json" class="gc-data">(.*?)</script>', page)
    assert found, "no cluster data on the page"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def first_place(service: TableService, table: str) -> str:
    placements = service.view(table)["game"]["turn"]["placements"]
    name = sorted(placements)[0]
    return f"place {name} {placements[name][0]}"


def test_seats_choose_colours_on_their_phones(
    app: Flask, service: TableService, table: str
) -> None:
    ann, bo = Phone(app, table).join(1, "Ann"), Phone(app, table).join(2, "Bo")
    page = ann.get("/seat").get_data(as_text=True)
    assert 'name="colour" value="green"' in page and "Your colour" in page
    refused(
        bo.post("/seat/choose", data={"colour": "red", "csrf_token": bo.token}),
        409,
        "turn to choose",
    )
    ann.post("/seat/choose", data={"colour": "green", "csrf_token": ann.token})
    page = bo.get("/seat").get_data(as_text=True)
    assert 'value="green"' not in page  # taken
    refused(
        bo.post("/seat/choose", data={"colour": "green", "csrf_token": bo.token}),
        422,
        "Green is taken",
    )


def test_the_table_screen_carries_the_cluster_and_the_score_sheet(
    app: Flask, service: TableService, table: str, phones: tuple[Phone, Phone]
) -> None:
    page = app.test_client().get(f"/t/{table}").get_data(as_text=True)
    data = board_data(page)
    cells = {c["position"]: c for c in data["board"]}
    assert cells["k7"]["code"] == "bka" and cells["k7"]["corner"] == "tr"
    assert cells["k7"]["pennies"] == 1 and cells["m7"]["kind"] == "mits"
    assert {p["colour"] for p in cells["m7"]["pieces"]} == {"red", "blue"}
    assert data["placements"] and data["to_place"]
    assert {frozenset((c["a"], c["b"])): c["cost"] for c in data["crossings"]}[
        frozenset(("m7", "l8"))
    ] is None
    assert "Score sheet" in page and "Crystals 2/3" in page
    assert "cluster.js" in page and "builder.js" in page and "globular.css" in page
    assert "Build Ann (red)’s turn on this screen" in page


def test_only_the_acting_seats_phone_has_the_builder(
    phones: tuple[Phone, Phone], table: str
) -> None:
    ann, bo = phones
    assert 'class="gc-builder"' in ann.get("/seat").get_data(as_text=True)
    assert 'class="gc-builder"' not in bo.get("/seat").get_data(as_text=True)


def test_a_draft_is_previewed_line_by_line_then_played(
    service: TableService, table: str, phones: tuple[Phone, Phone]
) -> None:
    ann, _ = phones
    place = first_place(service, table)
    answer = ann.post("/seat/preview", json={"text": f"{place}\nmove m7>k7 x2\nstation k7"})
    assert answer.status_code == 200
    preview = answer.get_json()
    assert [(x["cost"], x["ap_left"]) for x in preview["lines"]] == [(0, 10), (2, 8)]
    assert preview["refused"]["number"] == 3 and preview["refused"]["ruling"] == "G4.13"
    assert preview["ap_left"] == 8 and not preview["playable"]
    refused(ann.post("/seat/preview", json={"text": "fly"}), 422, "not a word of the notation")
    refused(ann.post("/seat/move", json={"text": f"{place}\nstation k7\nend"}), 422, "(G4.13)")
    answer = ann.post("/seat/move", json={"text": f"{place}\nmove m7>k7 x2\nend"})
    assert answer.get_json()["ok"]
    assert service.view(table)["acting"] == 2


def test_the_table_screen_builds_and_plays_the_acting_seats_turn(
    app: Flask, service: TableService, table: str, phones: tuple[Phone, Phone]
) -> None:
    screen = Phone(app, table)  # no seat: the table screen
    screen.token = re.search(  # type: ignore[union-attr]
        r'name="csrf-token" content="([^"]+)"',
        screen.client.get(f"/t/{table}").get_data(as_text=True),
    ).group(1)
    place = first_place(service, table)
    turn = service.view(table)["turn"]
    answer = screen.post("/turn/preview", json={"text": place, "seat": 1, "turn": turn})
    assert answer.status_code == 200 and answer.get_json()["playable"]
    refused(
        screen.post("/turn/move", json={"text": f"{place}\nend", "seat": 2, "turn": turn}),
        409,
        "The turn has moved on",
    )
    answer = screen.post(
        "/turn/move", json={"text": f"{place}\nmove m7>k7\nend", "seat": 1, "turn": turn}
    )
    assert answer.get_json()["ok"], answer.get_data(as_text=True)
    assert service.view(table)["acting"] == 2
    refused(
        screen.post("/turn/move", json={"text": "end", "seat": 1, "turn": turn}),
        409,
        "The turn has moved on",
    )


def test_a_game_whose_pages_do_not_allow_it_is_not_played_from_the_table_screen(
    app: Flask, service: TableService
) -> None:
    table_id, _ = service.create_table("Local", 2, seed=3)
    screen = Phone(app, table_id)
    screen.token = re.search(  # type: ignore[union-attr]
        r'name="csrf-token" content="([^"]+)"',
        screen.client.get(f"/t/{table_id}").get_data(as_text=True),
    ).group(1)
    refused(
        screen.post("/turn/move", json={"text": "end", "seat": 1, "turn": 1}),
        409,
        "played on the phones",
    )


def play_until(service: TableService, table: str, stop: str, seed: int = 4) -> None:
    """Random turns (played through the session's own game) until the stage is ``stop``."""
    rng = random.Random(seed)
    for _ in range(300):
        view = service.view(table)
        if view["stage"] == stop:
            return
        session = service.table(table).session
        mirror = copy.deepcopy(session.core)  # type: ignore[union-attr]
        lines = random_turn(mirror, rng)
        if mirror.keeps_stack:
            lines = [t for t in lines if not t.startswith("draw")]
        texts = [re.sub(r" roll [na2-5 ]+$", "", t) for t in lines]
        chunks, current = [], []
        for text in texts:
            current.append(text)
            if text.startswith("mine"):
                chunks.append(current)
                current = []
        chunks.append(current)
        for chunk in chunks:
            if chunk:
                service.submit(table, view["acting"], "\n".join(chunk), final=True)
    pytest.fail(f"the game never reached {stop}")


def test_a_scoring_round_shows_each_score_being_made(
    app: Flask, service: TableService, table: str, phones: tuple[Phone, Phone]
) -> None:
    play_until(service, table, "scoring")
    session = service.table(table).session
    core = session.core  # type: ignore[union-attr]
    while (
        service.view(table)["stage"] == "scoring"
        and core.state.rounds
        and not core.state.rounds[-1].holdings
    ):
        service.submit(table, service.view(table)["acting"], "end", final=True)
    page = app.test_client().get(f"/t/{table}").get_data(as_text=True)
    assert re.search(r"Scoring round 1", page)
    assert "systems" in page and "crystals" in page and "Held by" in page
    assert re.search(r"VP Round 1", page)


def test_the_end_shows_the_final_scores_and_a_chart(
    app: Flask, service: TableService, table: str, phones: tuple[Phone, Phone]
) -> None:
    play_until(service, table, "over", seed=6)
    page = app.test_client().get(f"/t/{table}").get_data(as_text=True)
    view = service.view(table)
    assert "Game over" in page and 'class="gc-chart"' in page
    totals = view["game"]["score_sheet"]["totals"]
    for colour, vp in totals.items():
        assert f"{vp} VP" in page
        assert f'data-colour="{colour}"' in page
    rounds = len(view["game"]["score_sheet"]["rounds"])
    polyline = re.search(r'<polyline class="series" data-colour="red" points="([^"]+)"', page)
    assert polyline and len(polyline.group(1).split()) == rounds + 1
    ann, _ = phones
    assert 'class="gc-chart"' in ann.get("/seat").get_data(as_text=True)


def test_the_chart_is_empty_before_any_round() -> None:
    assert chart_svg({"game": {"score_sheet": {"rounds": []}, "players": []}}) == ""
    assert PAGES.table_turns
