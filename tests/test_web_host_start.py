"""The host page's start: an imported game waits paused (``companion table import`` holds its
clock) until the host presses "Start the game"; a game that has run shows Pause and Resume."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_helpers import csrf_of, host_login, make_app, new_table

from companion.service import FakeClock, Storage, TableService


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service)


def played(service: TableService) -> str:
    """A record of a game in its second turn: what a host imports to carry on."""
    table_id, _ = new_table(service)
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bob")
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    while service.view(table_id)["turn"] < 2:
        service.skip(table_id)
    return service.export(table_id)


def imported(service: TableService) -> tuple[str, str]:
    """An imported table held paused, as ``companion table import`` leaves it."""
    table_id, secret = service.import_record(played(service), "Again")
    service.pause(table_id)
    return table_id, secret


def host_of(app: Flask, table_id: str, secret: str) -> FlaskClient:
    client = app.test_client()
    assert host_login(client, table_id, secret).status_code == 200
    return client


def controls(client: FlaskClient, table_id: str) -> str:
    page = client.get(f"/t/{table_id}/host").get_data(as_text=True)
    found = re.search(r'<section class="controls">(.*?)</section>', page, re.S)
    assert found, "no controls on the host page"
    return " ".join(found.group(1).split())


def buttons(section: str) -> list[str]:
    return re.findall(r'<button type="submit" name="go" value="[a-z]+">([^<]+)</button>', section)


def test_an_imported_game_waits_for_the_host_to_start_it(app: Flask, service: TableService) -> None:
    table_id, secret = imported(service)
    assert service.view(table_id)["waiting_to_start"] is True
    client = host_of(app, table_id, secret)
    shown = controls(client, table_id)
    assert "This imported game has not started: it waits paused" in shown
    assert buttons(shown) == ["Start the game", "Extend"]


def test_start_the_game_runs_its_clock_and_the_page_then_offers_pause(
    app: Flask, service: TableService, clock: FakeClock
) -> None:
    table_id, secret = imported(service)
    client = host_of(app, table_id, secret)
    token = csrf_of(client, f"/t/{table_id}/host")
    answer = client.post(f"/t/{table_id}/host/resume", data={"csrf_token": token})
    assert answer.status_code == 302
    view = service.view(table_id)
    assert (view["paused"], view["waiting_to_start"]) == (False, False)
    assert view["deadline"] is not None and view["deadline"] > clock.now()
    assert buttons(controls(client, table_id)) == [
        "Pause",
        "Resume",
        "Skip to the end of the phase",
        "Extend",
    ]


def test_a_game_paused_after_it_ran_is_resumed_not_started(
    app: Flask, service: TableService
) -> None:
    table_id, secret = imported(service)
    service.resume(table_id)
    service.pause(table_id)
    assert service.view(table_id)["waiting_to_start"] is False
    assert "Start the game" not in controls(host_of(app, table_id, secret), table_id)


def test_an_imported_game_that_ran_before_its_first_pause_is_not_waiting(
    service: TableService,
) -> None:
    table_id, _ = service.import_record(played(service), "Again")
    assert service.view(table_id)["waiting_to_start"] is False  # running: nothing to start
    service.join(table_id, 1, "Ann")  # while its clock runs
    service.pause(table_id)
    assert service.view(table_id)["waiting_to_start"] is False


def test_the_wait_to_start_survives_a_restart(
    service: TableService, db: Path, clock: FakeClock
) -> None:
    table_id, _ = imported(service)
    service.close()
    with TableService(Storage(db), clock=clock) as reopened:
        assert reopened.view(table_id)["waiting_to_start"] is True


def test_a_table_in_its_lobby_says_the_game_starts_by_itself(
    app: Flask, service: TableService
) -> None:
    table_id, secret = new_table(service)
    shown = controls(host_of(app, table_id, secret), table_id)
    assert "starts by itself once every seat has joined and chosen" in shown
    assert buttons(shown) == []
