"""The panels and camera follow the table in play (web.attachments.AttachmentSet).

``companion serve`` attaches them to one table when it starts; a table the host creates later
gets them (the service's ``table_created``), and a host page can claim them for its own table,
unless the config file pins one (``[server] table``). Tested with an attachment that records
what it is given, and with the real GPIO panel on gpiozero's mock pins.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from importlib.metadata import EntryPoint
from typing import Any, ClassVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory, MockPWMPin
from panel_support import lobby_table, started_table, wait_for
from web_helpers import csrf_of, host_login, make_app

from companion.errors import StateError
from companion.service import TableService
from companion.service import attachments as registry
from companion.service.attachments import ConfigError
from web.attachments import AttachmentError, AttachmentSet

ENABLED = {"recorder": {"enabled": True}}


class Recorder:
    """An attachment that records the tables it served; it cannot serve a table named
    "No pins" (as a panel whose pins another program took)."""

    started: ClassVar[list[str]] = []
    closed: ClassVar[list[str]] = []

    def __init__(self, service: TableService, table_id: str) -> None:
        if service.view(table_id)["name"] == "No pins":
            raise ConfigError("[recorder] pin 17 is taken")
        self.table_id = table_id
        Recorder.started.append(table_id)

    def close(self) -> None:
        Recorder.closed.append(self.table_id)


def attach(service: TableService, table_id: str, section: Mapping[str, Any]) -> Recorder:
    return Recorder(service, table_id)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    entry = EntryPoint(name="recorder", value=f"{__name__}:attach", group="companion.attachments")
    monkeypatch.setattr(registry, "available", lambda: [entry])
    Recorder.started, Recorder.closed = [], []
    return Recorder


@pytest.fixture
def following(service: TableService, recorder: type[Recorder]) -> Iterator[AttachmentSet]:
    """The recorder serving a first table and following new ones, as ``serve`` runs it."""
    first = lobby_table(service)
    with AttachmentSet(service, ENABLED, demo=False) as attached:
        assert attached.start(first) == ["recorder"]
        attached.follow_new_tables()
        yield attached


def test_a_new_table_gets_the_attachments(
    service: TableService, following: AttachmentSet, recorder: type[Recorder]
) -> None:
    first = following.table_id
    second, _secret = service.create_table("Rematch", 2)
    wait_for(lambda: following.table_id == second)
    assert recorder.started == [first, second]
    assert recorder.closed == [first]  # closed before the new one claimed the pins
    assert following.running == ["recorder"]


def test_the_hosts_choice_wins_over_a_table_created_before_it(
    service: TableService, following: AttachmentSet, recorder: type[Recorder]
) -> None:
    first = following.table_id
    assert first is not None
    service.create_table("Rematch", 2)
    following.follow(first)  # whether or not the rematch was followed in between
    chosen = len(recorder.started)
    another, _ = service.create_table("Another", 2)
    wait_for(lambda: following.table_id == another)
    assert recorder.started[chosen:] == [another]  # never the rematch after the choice


def test_a_table_pinned_by_the_config_file_stays(
    service: TableService, recorder: type[Recorder]
) -> None:
    pinned = lobby_table(service)
    with AttachmentSet(service, ENABLED, demo=False, pinned=True) as attached:
        attached.start(pinned)
        attached.follow_new_tables()
        other, _ = service.create_table("Rematch", 2)
        with pytest.raises(
            AttachmentError, match=r"pins the panels and camera to table \w+ \(\[server\] table\)"
        ):
            attached.follow(other)
        assert attached.table_id == pinned
    assert recorder.started == [pinned] and recorder.closed == [pinned]


def test_following_an_unknown_table_closes_nothing(
    following: AttachmentSet, recorder: type[Recorder]
) -> None:
    with pytest.raises(StateError, match="no table 'nosuch'"):
        following.follow("nosuch")
    assert recorder.closed == [] and following.running == ["recorder"]


def test_an_attachment_that_cannot_serve_the_new_table_is_named_and_retried(
    service: TableService, following: AttachmentSet, recorder: type[Recorder]
) -> None:
    first = following.table_id
    assert first is not None
    broken, _ = service.create_table("No pins", 2)
    wait_for(lambda: following.table_id == broken)
    assert following.running == []
    assert following.problems == {"recorder": "[recorder] pin 17 is taken"}
    assert following.follow(first) == ["recorder"]
    assert following.problems == {}


def test_with_no_attachment_enabled_there_is_nothing_to_follow(
    service: TableService, recorder: type[Recorder]
) -> None:
    with AttachmentSet(service, {}, demo=False) as attached:
        assert attached.start(lobby_table(service)) == []
        with pytest.raises(AttachmentError, match="no panel or camera"):
            attached.follow(lobby_table(service))


# The host page -----------------------------------------------------------------------------


def host_client(app: Flask, service: TableService, name: str) -> tuple[FlaskClient, str]:
    """A table and a client holding its host controls."""
    table_id, secret = service.create_table(name, 2)
    client = app.test_client()
    assert host_login(client, table_id, secret).status_code == 200
    return client, table_id


def say(page: Any) -> str:
    return re.sub(r"\s+", " ", page.get_data(as_text=True))


def test_the_host_page_says_which_table_the_panels_follow_and_claims_them(
    service: TableService, following: AttachmentSet
) -> None:
    app = make_app(service)
    app.extensions["attachments"] = following
    client, mine = host_client(app, service, "Mine")
    wait_for(lambda: following.table_id == mine)
    page = say(client.get(f"/t/{mine}/host"))
    assert "recorder: <b>they follow this table</b>" in page
    assert "Use the panels for this table" not in page

    following.follow(service.table_ids()[0])
    page = say(client.get(f"/t/{mine}/host"))
    assert "they follow <a href=" in page and ">Panel night</a>" in page
    assert "Use the panels for this table" in page
    token = csrf_of(client, f"/t/{mine}/host")
    answer = client.post(f"/t/{mine}/host/attach", data={"csrf_token": token})
    assert answer.status_code == 302
    assert following.table_id == mine


def test_the_host_page_of_a_pinned_server_says_so_and_refuses_to_claim(
    service: TableService, recorder: type[Recorder]
) -> None:
    pinned = lobby_table(service)
    with AttachmentSet(service, ENABLED, demo=False, pinned=True) as attached:
        attached.start(pinned)
        app = make_app(service)
        app.extensions["attachments"] = attached
        client, mine = host_client(app, service, "Mine")
        page = say(client.get(f"/t/{mine}/host"))
        assert "pinned there by <code>[server] table</code>" in page
        assert "Use the panels for this table" not in page
        token = csrf_of(client, f"/t/{mine}/host")
        answer = client.post(f"/t/{mine}/host/attach", data={"csrf_token": token})
        assert answer.status_code == 409
        assert "pins the panels and camera" in answer.get_data(as_text=True)
        assert attached.table_id == pinned and recorder.started == [pinned]


def test_a_server_without_attachments_says_nothing_of_panels_and_refuses_to_claim(
    service: TableService,
) -> None:
    app = make_app(service)
    client, mine = host_client(app, service, "Mine")
    assert "Panels and camera" not in say(client.get(f"/t/{mine}/host"))
    token = csrf_of(client, f"/t/{mine}/host")
    answer = client.post(f"/t/{mine}/host/attach", data={"csrf_token": token})
    assert answer.status_code == 409
    assert "runs no panel or camera" in answer.get_data(as_text=True)


# The real GPIO panel on mock pins ------------------------------------------------------------

SEAT_1_BUTTON = 5  # the documented default (docs/wiring.md)


@pytest.fixture
def pins(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """One set of mock pins for every panel the server attaches (as the Pi has one header)."""
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr("hardware.pins.mock_factory", lambda: factory)
    yield factory
    factory.reset()


def seat_ready(service: TableService, table_id: str, seat: int) -> bool:
    return bool(service.view(table_id)["seats"][seat - 1]["ready"])


def test_the_gpio_panel_follows_a_new_table_and_its_button_readies_that_seat(
    service: TableService, pins: MockFactory
) -> None:
    config = {"panel": {"enabled": True, "pin_factory": "mock", "blink_time": 0.01}}
    first = started_table(service)
    with AttachmentSet(service, config, demo=False) as attached:
        assert attached.start(first) == ["panel"]
        attached.follow_new_tables()
        second = started_table(service)
        wait_for(lambda: attached.table_id == second and attached.running == ["panel"])
        pins.pin(SEAT_1_BUTTON).drive_low()
        pins.pin(SEAT_1_BUTTON).drive_high()
        wait_for(lambda: seat_ready(service, second, 1))
        assert not seat_ready(service, first, 1)
