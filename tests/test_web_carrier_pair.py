"""The phone's order builder gives a carrier both halves R3.2 allows: a RECALL and, beside it,
a DEPLOY (the builder's second, optional slot for that carrier), with the Flask test client.

Red's carrier in S22 deployed its craft to S44 and S46 last turn and has one docked again; in
turn 2's command phase it may recall and deploy in the same turn.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_helpers import join, make_app, new_table

from companion.service import TableService

BUILDER = re.compile(r'<script type="application/json" class="builder-data">(.*?)</script>', re.S)


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service)


@pytest.fixture
def table_id(service: TableService) -> str:
    return new_table(service)[0]


@pytest.fixture
def red(app: Flask, service: TableService, table_id: str) -> tuple[FlaskClient, str]:
    """Red's phone in turn 2's command phase, its carrier in S22 with two craft out."""
    phone = app.test_client()
    token = join(app, phone, table_id, 1, "Ann")
    join(app, app.test_client(), table_id, 2, "Bob")
    service.choose(table_id, 2, {"colour": "blue", "home": "S10"})
    service.choose(table_id, 1, {"colour": "red", "home": "S21"})
    service.correct(table_id, "PLACE red carrier S22", "a carrier for the test")
    service.skip(table_id)  # discussion -> command
    service.submit(table_id, 1, "DEPLOY S22 S44 S46")
    while not (
        service.view(table_id)["stage"] == "command" and service.view(table_id)["turn"] == 2
    ):
        service.skip(table_id)
    return phone, token


def builder(phone: FlaskClient, table_id: str) -> dict[str, Any]:
    page = phone.get(f"/t/{table_id}/seat").get_data(as_text=True)
    found = BUILDER.search(page)
    assert found, "no order builder on the seat page"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def slots(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {unit.get("slot", unit["sector"]): unit for unit in data["units"]}


def test_a_carrier_that_can_recall_gets_a_second_slot_for_a_deploy_beside_it(
    red: tuple[FlaskClient, str], table_id: str
) -> None:
    phone, _ = red
    carrier = slots(builder(phone, table_id))
    assert [o["kind"] for o in carrier["S22"]["orders"]] == [
        "HOLD",
        "SUPPORT",
        "DEPLOY",
        "RECALL",
        "CLAIM",
    ]
    pair = carrier["S22 DEPLOY"]
    assert pair["optional"] is True
    assert pair["needs"] == {"slot": "S22", "kind": "RECALL"}
    (deploy,) = pair["orders"]
    assert deploy["kind"] == "DEPLOY" and deploy["targets"] == ["S21", "S44", "S46"]
    assert deploy["max"] == 3  # the docked craft and the two it may recall
    assert "S21 DEPLOY" not in carrier  # a destroyer has one slot


def test_the_recall_and_deploy_pair_is_stored_and_read_back_into_both_slots(
    red: tuple[FlaskClient, str], service: TableService, table_id: str
) -> None:
    phone, token = red
    answer = phone.post(
        f"/t/{table_id}/seat/orders",
        json={"text": "RECALL S22 S44\nDEPLOY S22 S21 S46"},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert service.view(table_id, 1)["you"]["submission"] == "RECALL S22 S44\nDEPLOY S22 S21 S46"
    assert builder(phone, table_id)["orders"] == {
        "S22": {"kind": "RECALL", "targets": ["S44"]},
        "S22 DEPLOY": {"kind": "DEPLOY", "targets": ["S21", "S46"]},
    }


def test_a_deploy_alone_reads_back_into_the_carriers_first_slot(
    red: tuple[FlaskClient, str], table_id: str
) -> None:
    phone, token = red
    answer = phone.post(
        f"/t/{table_id}/seat/orders",
        json={"text": "DEPLOY S22 S21"},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert builder(phone, table_id)["orders"] == {"S22": {"kind": "DEPLOY", "targets": ["S21"]}}


def test_a_pair_deploying_more_than_docked_and_recalled_is_refused_with_its_reason(
    red: tuple[FlaskClient, str], service: TableService, table_id: str
) -> None:
    phone, token = red
    answer = phone.post(
        f"/t/{table_id}/seat/orders",
        json={"text": "RECALL S22 S44\nDEPLOY S22 S21 S21 S46"},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 422
    reasons = answer.get_json()["reasons"]
    assert reasons == [
        "line 2: this carrier has 1 craft docked and recalls 1, so it cannot deploy 3"
    ]
    assert service.view(table_id, 1)["you"]["submission"] is None
