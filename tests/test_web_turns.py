"""A turn-taking game through the web pages (Flask test client): the test-only noughts and
crosses (tests/noughts.py) with its own pages from outside the ``web`` package
(tests/noughts_pages.py, templates and files under tests/noughts_web/).

The shared pages show whose turn it is on the table screen and every phone; the acting seat
plays with ``POST /t/<id>/seat/move`` and tries drafts with ``POST /t/<id>/seat/preview``; a move
the camera saw waits for "done" and is confirmed on the table screen (or chosen there among the
moves the camera could not tell apart); the host plays the acting seat's move, undoes the last
one and runs the clocks; and the host's form creates a table of any registered game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import noughts
import noughts_pages
import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_helpers import Phone, csrf_of, host_login, make_app, refused

from companion import games
from companion.errors import StateError
from companion.service import FakeClock, TableService
from companion.service.clock import TurnClock
from web import cli as serve_cli
from web.games import pages_for

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def registered() -> Iterator[games.Game]:
    yield noughts_pages.register()
    games.unregister(noughts.NAME)


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service)


def new_game(service: TableService, clock: TurnClock | None = None) -> tuple[str, str]:
    return service.create_table("Xs and Os", 2, game=noughts.NAME, turn_clock=clock)


@pytest.fixture
def table(service: TableService) -> tuple[str, str]:
    return new_game(service)


@pytest.fixture
def phones(app: Flask, table: tuple[str, str]) -> tuple[Phone, Phone]:
    """Both seats joined through their join links: the game has started, X (seat 1) to move."""
    return Phone(app, table[0]).join(1, "Ann"), Phone(app, table[0]).join(2, "Bo")


@pytest.fixture
def host(app: Flask, table: tuple[str, str]) -> FlaskClient:
    client = app.test_client()
    table_id, secret = table
    host_login(client, table_id, secret)
    return client


def host_post(client: FlaskClient, table_id: str, action: str, **form: str) -> Any:
    token = csrf_of(client, f"/t/{table_id}/host")
    return client.post(f"/t/{table_id}/host/{action}", data={"csrf_token": token, **form})


def text_of(page: str) -> str:
    """A page's words, without tags and runs of spaces."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def screen(app: Flask, table_id: str) -> str:
    return app.test_client().get(f"/t/{table_id}").get_data(as_text=True)


def board(service: TableService, table_id: str) -> Mapping[str, str]:
    return dict(service.view(table_id)["game"]["board"])


# The registration finds the pages --------------------------------------------------------------


def test_a_games_pages_are_found_through_its_registration_even_outside_web(app: Flask) -> None:
    assert pages_for(noughts.NAME) is noughts_pages.PAGES
    with app.test_client().get("/games/noughts/static/noughts.css") as css:
        assert css.status_code == 200 and b"noughts-board" in css.data
    # A game inside web/ serves its files from web/static/<game>/, not from here.
    assert app.test_client().get(f"/games/{games.default().name}/static/x.css").status_code == 404


def test_a_game_without_registered_pages_is_a_clear_501(app: Flask, service: TableService) -> None:
    games.register(noughts.GAME_INFO)  # the same game, registered without web pages
    table_id, _ = new_game(service)
    refused(app.test_client().get(f"/t/{table_id}"), 501, "no pages for Noughts and Crosses")


def test_the_games_own_templates_and_stylesheet_are_on_its_pages(
    app: Flask, phones: tuple[Phone, Phone], table: tuple[str, str]
) -> None:
    page = screen(app, table[0])
    assert 'class="noughts-board"' in page
    assert '<link rel="stylesheet" href="/games/noughts/static/noughts.css">' in page
    phone_page = phones[0].get("/seat").get_data(as_text=True)
    assert 'data-move="b2"' in phone_page and "noughts.css" in phone_page


# Whose turn --------------------------------------------------------------------------------------


def test_the_table_screen_and_every_phone_show_whose_turn_it_is(
    app: Flask, phones: tuple[Phone, Phone], table: tuple[str, str]
) -> None:
    ann, bo = phones
    assert "Ann’s turn (X)" in text_of(screen(app, table[0]))
    mine = ann.get("/seat/panel").get_data(as_text=True)
    theirs = bo.get("/seat/panel").get_data(as_text=True)
    assert "Your turn (X)" in text_of(mine) and 'class="move-form' in mine
    assert "Ann’s turn (X)" in text_of(theirs) and "move-form" not in theirs
    assert ann.post("/seat/move", json={"text": "b2"}).get_json()["ok"]
    assert "Bo’s turn (O)" in text_of(screen(app, table[0]))
    assert "Your turn (O)" in text_of(bo.get("/seat/panel").get_data(as_text=True))
    assert "Ann (X) took b2." in text_of(screen(app, table[0]))


def test_the_seat_lists_mark_the_seat_to_move_and_never_a_ready_button(
    app: Flask, phones: tuple[Phone, Phone], table: tuple[str, str]
) -> None:
    page = screen(app, table[0])
    assert page.count('class="tag to-move"') == 1
    assert 'button class="ready' not in phones[0].get("/seat/panel").get_data(as_text=True)


# Moves -------------------------------------------------------------------------------------------


def test_the_acting_seat_plays_a_move_and_is_answered_with_the_games_text(
    phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    answer = phones[0].post("/seat/move", json={"text": " B2 ", "request_id": "m1"})
    assert answer.get_json() == {"ok": True, "text": "b2"}
    assert board(service, table[0]) == {"b2": "X"}
    again = phones[0].post("/seat/move", json={"text": " B2 ", "request_id": "m1"})
    assert again.get_json() == {"ok": True, "text": "b2"}  # a re-sent move is played once
    assert board(service, table[0]) == {"b2": "X"}


def test_a_refused_move_comes_back_with_the_games_reasons_and_nothing_is_stored(
    phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    ann, bo = phones
    ann.post("/seat/move", json={"text": "b2"})
    before = len(service.storage.entries(table[0]))
    refused(bo.post("/seat/move", json={"text": "b2"}), 422, "b2: b2 already holds X")
    refused(bo.post("/seat/move", json={"text": "d4"}), 422, "'d4' is not a cell")
    refused(bo.post("/seat/move", json={"text": " "}), 400, "Send the move as text")
    refused(ann.post("/seat/move", json={"text": "a1"}), 409, "it is seat 2's turn, not seat 1's")
    assert len(service.storage.entries(table[0])) == before


def test_a_draft_is_checked_without_being_stored(
    phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    ann, bo = phones
    before = len(service.storage.entries(table[0]))
    assert ann.post("/seat/preview", json={"text": "C3"}).get_json() == {"ok": True, "text": "c3"}
    refused(ann.post("/seat/preview", json={"text": "z9"}), 422, "'z9' is not a cell")
    refused(bo.post("/seat/preview", json={"text": "a1"}), 409, "it is seat 1's turn")
    assert len(service.storage.entries(table[0])) == before
    assert service.view(table[0])["pending"] is None


def test_a_draft_is_previewed_by_the_game_when_it_can(phones: tuple[Phone, Phone]) -> None:
    def preview(self: noughts.NoughtsSession, seat: int, text: str) -> dict[str, Any]:
        cell = self.check_submission(seat, text)
        return {"text": cell, "says": f"{cell} leaves {8 - len(self.position.moves)} cells"}

    with noughts.previewing(preview):
        answer = phones[0].post("/seat/preview", json={"text": "a1"}).get_json()
    assert answer == {"ok": True, "text": "a1", "says": "a1 leaves 8 cells"}
    answer = phones[0].post("/seat/preview", json={"text": "a1"}).get_json()
    assert answer == {"ok": True, "text": "a1"}


def test_a_turn_game_refuses_a_preview_outside_a_turn(service: TableService, app: Flask) -> None:
    table_id, _ = new_game(service)
    ann = Phone(app, table_id).join(1, "Ann")
    refused(ann.post("/seat/preview", json={"text": "a1"}), 409, "game has not started")
    with pytest.raises(StateError, match="the game has not started"):
        service.preview(table_id, 1, "a1")


# The camera's move, confirmed or chosen on the table screen ------------------------------------


def seen(**marks: str) -> dict[str, str]:
    return {cell: "" for cell in noughts.CELLS} | marks


def test_a_move_the_camera_saw_waits_and_is_confirmed_on_the_table_screen(
    app: Flask, phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    table_id = table[0]
    service.report_scan(table_id, seen(c3="X"))
    page = screen(app, table_id)
    assert "Move waiting for “done”: c3" in text_of(page) and "Confirm c3" in page
    assert "Waiting for your “done”: c3" in text_of(
        phones[0].get("/seat/panel").get_data(as_text=True)
    )
    anyone = Phone(app, table_id)  # the table screen holds no seat
    anyone.token = csrf_of(anyone.client, f"/t/{table_id}")
    refused(anyone.post("/move", json={"text": "a1"}), 409, "no longer waiting")
    assert anyone.post("/move", json={"text": "c3"}).get_json() == {"ok": True, "text": "c3"}
    assert board(service, table_id) == {"c3": "X"}
    assert service.view(table_id)["acting"] == 2


def test_the_phone_of_the_acting_seat_plays_the_cameras_move(
    phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    service.report_scan(table[0], seen(a1="X"))
    assert phones[0].post("/seat/ready", json={"ready": True, "stage": "move"}).get_json()["ok"]
    assert board(service, table[0]) == {"a1": "X"}


def test_moves_the_camera_cannot_tell_apart_are_chosen_on_the_table_screen(
    app: Flask, phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    table_id = table[0]
    phones[0].post("/seat/move", json={"text": "b2"})
    service.report_scan(table_id, seen(b2="X", a1="?", c3="?"))
    page = screen(app, table_id)
    assert "The camera cannot tell which move was made" in page
    assert 'data-text="a1"' in page and 'data-text="c3"' in page
    anyone = Phone(app, table_id)
    anyone.token = csrf_of(anyone.client, f"/t/{table_id}")
    refused(anyone.post("/move", json={"text": "b1", "choose": True}), 409, "not one of")
    assert anyone.post("/move", json={"text": "c3", "choose": True}).get_json()["ok"]
    assert board(service, table_id) == {"b2": "X", "c3": "O"}
    # The candidates explained the last position only: they are gone once a move is played.
    assert "cannot tell" not in screen(app, table_id)
    refused(anyone.post("/move", json={"text": "a1", "choose": True}), 409, "not one of")


# The host ----------------------------------------------------------------------------------------


def test_the_host_plays_the_acting_seats_move_and_undoes_the_last_one(
    host: FlaskClient, phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    table_id = table[0]
    page = text_of(host.get(f"/t/{table_id}/host").get_data(as_text=True))
    assert "It is Ann’s turn (seat 1)" in page and "Play it for seat 1" in page
    assert "Correct the board" not in page  # this game takes no corrections
    assert host_post(host, table_id, "move", text="A1").status_code == 302
    assert host_post(host, table_id, "move", text="b2").status_code == 302
    assert board(service, table_id) == {"a1": "X", "b2": "O"}
    refused(host_post(host, table_id, "move", text="a1"), 422, "a1 already holds X")
    assert host_post(host, table_id, "undo").status_code == 302
    assert board(service, table_id) == {"a1": "X"}
    assert service.view(table_id)["acting"] == 2


def test_the_host_runs_a_chess_clock_and_every_screen_shows_each_players_time(
    app: Flask, service: TableService, clock: FakeClock
) -> None:
    table_id, secret = new_game(service, TurnClock("player", 300))
    ann, bo = Phone(app, table_id).join(1, "Ann"), Phone(app, table_id).join(2, "Bo")
    clock.advance(65)
    ann.post("/seat/move", json={"text": "a1"})
    page = screen(app, table_id)
    assert re.search(r'seat-time">3:55<', page) and re.search(r'seat-time running">5:00<', page)
    phone = text_of(bo.get("/seat/panel").get_data(as_text=True))
    assert "Ann 3:55" in phone and "Bo 5:00" in phone
    host = app.test_client()
    host_login(host, table_id, secret)
    words = text_of(host.get(f"/t/{table_id}/host").get_data(as_text=True))
    assert "Turn clock 5 min a player for the game (chess clock)" in words
    host_post(host, table_id, "pause")
    clock.advance(100)
    host_post(host, table_id, "resume")
    host_post(host, table_id, "extend", seconds="30")
    assert service.view(table_id)["remaining"] == 330


# A whole game ------------------------------------------------------------------------------------


def test_a_whole_game_through_the_web_pages(
    app: Flask, phones: tuple[Phone, Phone], service: TableService, table: tuple[str, str]
) -> None:
    ann, bo = phones
    for phone, cell in ((ann, "a1"), (bo, "b1"), (ann, "a2"), (bo, "b2"), (ann, "a3")):
        assert phone.post("/seat/move", json={"text": cell}).get_json() == {
            "ok": True,
            "text": cell,
        }
    view = service.view(table[0])
    assert view["stage"] == "over" and view["game"]["result"] == {"winner": 1, "draw": False}
    assert "Ann (X) wins!" in text_of(screen(app, table[0]))
    assert "Ann (X) wins!" in text_of(bo.get("/seat/panel").get_data(as_text=True))
    refused(bo.post("/seat/move", json={"text": "c3"}), 409, "the game is over")


# A new table of any registered game --------------------------------------------------------------


def test_the_host_form_offers_every_registered_game_with_its_rules_in_words(
    host: FlaskClient, table: tuple[str, str]
) -> None:
    page = host.get(f"/t/{table[0]}/host").get_data(as_text=True)
    for game in games.available():
        assert f'<option value="{game.name}"' in page, game.name
    assert 'name="local-cluster:support_range"' in page and "any sector" in page
    assert 'name="cosmic-cluster:command_seconds"' in page
    assert 'name="noughts:turn_clock"' in page and "a chess clock" in page
    assert 'name="local-cluster:turn_clock"' not in page  # its phases have their own clocks


def test_the_host_creates_a_turn_taking_table_with_a_chess_clock(
    host: FlaskClient, service: TableService, table: tuple[str, str]
) -> None:
    form = {
        "name": "Rematch",
        "game": "noughts",
        "players": "2",
        "noughts:turn_clock": "player",
        "noughts:turn_seconds": "90",
        "local-cluster:turn_limit": "0",  # another game's fields are not read
    }
    page = host_post(host, table[0], "new", **form).get_data(as_text=True)
    new_id = page.split("/t/")[1].split('"')[0].split("/")[0]
    assert service.view(new_id)["turn_clock"] == {"mode": "player", "seconds": 90}
    refused(
        host_post(host, table[0], "new", **{**form, "noughts:turn_seconds": "0"}),
        400,
        "Turn clock: a turn clock has 1 second to a day, not 0",
    )
    refused(host_post(host, table[0], "new", **{**form, "players": "x"}), 400, "2 players")


# `companion serve --demo-game NAME` --------------------------------------------------------------


def test_the_demo_table_may_play_any_registered_game(service: TableService) -> None:
    table_id, secret = serve_cli.demo_table(
        service, {"turn_clock": "turn", "turn_seconds": 45}, noughts.NAME
    )
    assert secret is not None
    view = service.view(table_id)
    assert (view["game_name"], view["turn_clock"]) == ("noughts", {"mode": "turn", "seconds": 45})
    with pytest.raises(serve_cli.CommandError, match="there is no game 'chess'; the games are"):
        serve_cli.check_server_section({"demo": {"game": "chess"}})


def test_the_demo_sections_keys_are_the_chosen_games_house_rules() -> None:
    serve_cli.check_server_section({"demo": {"game": "cosmic-cluster", "command_seconds": 60}})
    with pytest.raises(serve_cli.CommandError, match=r"\[demo\] turn_limit: unknown setting"):
        serve_cli.check_server_section({"demo": {"game": "cosmic-cluster", "turn_limit": 3}})


# No shared module names a game -------------------------------------------------------------------


def _own_folders(game: games.Game) -> list[str]:
    """Named after the game's package (``globular``) or its name (``local_cluster``), as in
    tests/test_layout.py."""
    modules = {game.rules.rpartition(".")[2], game.name.replace("-", "_")}
    return [
        folder
        for module in sorted(modules)
        for folder in (f"web/games/{module}", f"web/templates/{module}/", f"web/static/{module}/")
    ]


PRODUCT = "Cluster Companion"
"""The family's product name: it names no game (Cluster, the peg game, is one of them)."""


def _mentions(text: str, word: str) -> bool:
    """Whether ``text`` names ``word`` as a whole word (``cluster`` is not named by
    ``local_cluster`` nor ``cosmic-cluster``, nor by the product's name)."""
    return (
        re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text.replace(PRODUCT, "")) is not None
    )


def test_no_shared_web_file_names_a_game() -> None:
    """Only a game's own folders may name it (issue 14). A game's own files may use a word
    of their own game's name that is also another game's name (Cosmic Cluster's cluster)."""
    named = {
        game.name: _own_folders(game) for game in games.available() if game.name != noughts.NAME
    }
    words = {name: [name, name.replace("-", "_"), games.get(name).title] for name in named}
    offenders = []
    for path in sorted((ROOT / "web").rglob("*")):
        if path.suffix not in (".py", ".html", ".js", ".css") or not path.is_file():
            continue
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        owner = next(
            (n for n, folders in named.items() if any(relative.startswith(f) for f in folders)),
            None,
        )
        own_words = " ".join(words[owner]).lower() if owner else ""
        for name, folders in named.items():
            if any(relative.startswith(folder) for folder in folders):
                continue
            offenders += [
                f"{relative}: {word}"
                for word in words[name]
                if _mentions(text, word) and not _mentions(own_words, word.lower())
            ]
    assert offenders == []
