"""Every route of the web site for a Cosmic Cluster table, with the Flask test client: what it
shows, and every way it refuses (a clear message, and nothing stored or changed)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_web_routes import Phone, _first_message, refused, state
from web_helpers import host_login, make_app

from companion.cosmic.afnotation import parse_plain_af
from companion.cosmic.diplomacy.geography import UnitType
from companion.cosmic.diplomacy.rules import Unit
from companion.cosmic.session import CosmicClusterSession
from companion.local_cluster.settings import HouseRules
from companion.service import TableService
from web.games.cosmic_cluster import arrow_ends, changed_centres, cluster_svg, retreat_choices


@pytest.fixture
def app(service: TableService) -> Flask:
    return make_app(service, JOIN_LIMIT="5 per minute")


@pytest.fixture
def table_id(service: TableService) -> str:
    rules = HouseRules(command_seconds=600, discussion_seconds=600)
    return service.create_table("Stars", 2, seed=3, options=rules.to_dict(), game="cosmic-cluster")[
        0
    ]


@pytest.fixture
def phones(app: Flask, table_id: str) -> tuple[Phone, Phone]:
    return Phone(app, table_id).join(1, "Ann"), Phone(app, table_id).join(2, "Bob")


def homes(service: TableService, table_id: str) -> tuple[str, str]:
    view = service.view(table_id)
    cluster = (view.get("game") or view.get("setup"))["cluster"]
    by_power = {s["home_of"]: s["name"].lower() for s in cluster["systems"] if s["home_of"]}
    return by_power["P1"], by_power["P2"]


@pytest.fixture
def started(
    service: TableService, table_id: str, phones: tuple[Phone, Phone]
) -> tuple[Phone, Phone]:
    """Both seats joined and confirmed their homes; the game is in Spring 4001's orders."""
    for phone in phones:
        assert phone.post("/seat/choose", data={}).get_json()["ok"]
    service.skip(table_id)  # discussion -> command
    return phones


@pytest.fixture
def unchanged(service: TableService, table_id: str) -> Iterator[None]:
    before = state(service, table_id)
    yield
    assert state(service, table_id) == before


def builder(phone: Phone) -> dict[str, Any]:
    """The order builder's data on the phone's page."""
    page = phone.get("/seat/panel").get_data(as_text=True)
    data: dict[str, Any] = json.loads(page.split('class="builder-data">')[1].split("</script>")[0])
    return data


# The table screen ------------------------------------------------------------------------


def test_the_lobby_screen_draws_sixteen_systems_and_a_qr_code_per_seat(
    app: Flask, table_id: str
) -> None:
    page = app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert page.count('class="system ') == 16
    assert page.count('class="qr-code"') == 2
    assert 'class="system system-black-hole"' in page


def test_the_table_screen_shows_units_centres_season_and_who_submitted_never_what(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    ann, bob = started
    one, _ = homes(service, table_id)
    assert bob.post("/seat/orders", json={"text": ""}).get_json()["ok"]
    page = ann.app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert "Spring 4001 orders" in page
    assert page.count('class="unit"') == 8  # 4 units a power
    assert f'data-sector="{one}-1"' in page and "P1 (Ann): 4 centres, 4 units" in page
    row = page.split('data-seat="2"')[1].split("</li>")[0]
    assert "submitted" in row


# The phone ---------------------------------------------------------------------------------


def test_a_seat_confirms_the_home_the_seed_gave_it(
    phones: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    page = phones[0].get("/seat").get_data(as_text=True)
    assert f"home system <b>{one.capitalize()}</b>" in page
    answer = phones[0].post("/seat/choose", data={"home": one.capitalize()})
    assert answer.get_json()["choice"] == {"power": "P1", "home": one.capitalize()}


def test_a_seat_may_not_take_another_home(
    phones: tuple[Phone, Phone], service: TableService, table_id: str, unchanged: None
) -> None:
    _, two = homes(service, table_id)
    refused(
        phones[0].post("/seat/choose", data={"home": two}),
        422,
        "gave seat 1 the home system",
    )


def test_the_order_builder_offers_each_unit_its_orders_with_exact_lines(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    data = builder(started[0])
    slots = {slot["slot"]: slot for slot in data["units"]}
    assert (
        set(slots) >= {f"{one}-1", f"{one}-1 TS3", f"{one}-o"} and slots[f"{one}-1 TS3"]["optional"]
    )
    army = {option["kind"]: option for option in slots[f"{one}-1"]["orders"]}
    assert army["move"]["lines"][f"{one}-2"] == f"TS2 A {one}-1 -> {one}-2"
    assert army["move"]["says"][f"{one}-2"] == f"moves to {one}-2"
    assert army["board"]["lines"][f"{one}-o"] == f"TS1 A {one}-1 B F {one}-o"  # TS1
    fleet = {option["kind"]: option for option in slots[f"{one}-o"]["orders"]}
    support = fleet["support_move"]
    assert f"{one}-2" in support["then"][f"{one}-1"] and support["min"] == 2
    assert support["lines"][f"{one}-1 {one}-2"] == f"TS2 F {one}-o S A {one}-1 -> {one}-2"


def test_the_order_builder_says_what_each_time_scale_is_for(started: tuple[Phone, Phone]) -> None:
    page = started[0].get("/seat/panel").get_data(as_text=True)
    assert 'class="builder-data"' in page
    assert "TS1: boarding and landing · TS2: moves, supports, Fast Ferry" in page


def test_orders_are_stored_canonical_and_read_back_into_the_builder(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    ann = started[0]
    answer = ann.post("/seat/orders", json={"text": f"A {one}-1 - {one}-2\nF {one}-o H"})
    assert answer.get_json()["text"] == f"TS2 A {one}-1 -> {one}-2\nTS2 F {one}-o H"
    assert builder(ann)["orders"] == {
        f"{one}-1": {"kind": "move", "targets": [f"{one}-2"]},
        f"{one}-o": {"kind": "hold", "targets": []},
    }


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("walk somewhere", "line 1, column 1: expected a unit type"),
        ("A nowhere-1 H", "there is no space nowhere-1 in this cluster"),
        ("P2: A sol-1 H", "an order of P2, not yours (P1)"),
    ],
)
def test_a_bad_order_is_refused_with_the_reason(
    started: tuple[Phone, Phone], unchanged: None, text: str, words: str
) -> None:
    refused(started[0].post("/seat/orders", json={"text": text}), 422, words)


def test_orders_before_the_orders_phase_are_refused(
    phones: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    for phone in phones:
        assert phone.post("/seat/choose", data={}).get_json()["ok"]
    before = state(service, table_id)
    refused(phones[0].post("/seat/orders", json={"text": "A sol-1 H"}), 409, "Discussion")
    refused(phones[0].post("/seat/form", data={"stage": "build"}), 409, "for the Build phase")
    assert state(service, table_id) == before


def test_both_ready_resolves_spring_and_the_phone_explains_its_orders(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    ann = started[0]
    one, two = homes(service, table_id)
    ann.post("/seat/orders", json={"text": f"A {one}-1 -> {one}-2\nTS1 A {one}-4 B F {one}-o"})
    for phone in started:
        assert phone.post("/seat/ready", json={"ready": True, "stage": "command"}).get_json()["ok"]
    page = ann.get("/seat/panel").get_data(as_text=True)
    assert "What your orders did (spring 4001)" in page
    assert f"TS2 A {one}-1 -&gt; {one}-2</b>: succeeds (moved to {one}-2)" in page
    assert "aboard the fleet" in page
    table = ann.app.test_client().get(f"/t/{table_id}/panel").get_data(as_text=True)
    assert "Fall 4001" in table and 'class="arrow arrow-ok"' in table
    assert f"P1: TS2 A {one}-1 -&gt; {one}-2: succeeds" in table
    assert two not in ann.get("/seat/panel").get_data(as_text=True).split("What your orders")[1]


# International A/Fs (module section G) -------------------------------------------------------


def slot_options(phone: Phone, slot: str) -> dict[str, dict[str, Any]]:
    slots = {s["slot"]: s for s in builder(phone)["units"]}
    return {option["kind"]: option for option in slots[slot]["orders"]}


def ready_both(phones: tuple[Phone, Phone]) -> None:
    for phone in phones:
        phone.post("/seat/ready", json={"ready": True, "stage": "command"})


def units_at(service: TableService, table_id: str, region: str) -> list[dict[str, Any]]:
    units = service.view(table_id)["game"]["position"]["units"]
    return [u for u in units if u["region"] == region]


@pytest.fixture
def mixed_af(started: tuple[Phone, Phone], service: TableService, table_id: str) -> str:
    """P1's fleet in its home orbit carries P2's army (put there by the host); returns P1's
    home system."""
    one, _ = homes(service, table_id)
    service.correct(table_id, f"REMOVE {one}-o", "the A/F was set up by hand")
    service.correct(table_id, f"PLACE P1 A/F {one}-o P2", "the A/F was set up by hand")
    return one


def test_the_army_aboard_anothers_fleet_is_offered_only_its_own_orders(
    started: tuple[Phone, Phone], mixed_af: str
) -> None:
    one = mixed_af
    slots = {s["slot"]: s for s in builder(started[1])["units"]}
    slot = slots[f"{one}-o army"]
    assert slot["optional"] and slot["label"] == f"Your army aboard P1's A/F in {one}-o"
    options = {option["kind"]: option for option in slot["orders"]}
    assert set(options) == {"land", "disembark"}  # no hold, move or support: the fleet's
    assert options["land"]["lines"][f"{one}-2"] == f"TS1 A {one}-o L {one}-2"
    assert options["disembark"]["lines"][f"{one}-2"] == f"TS3 A {one}-o D {one}-2"


def test_the_fleet_owner_moves_the_af_and_names_the_armys_power_in_its_orders(
    started: tuple[Phone, Phone], mixed_af: str
) -> None:
    one = mixed_af
    slots = {s["slot"]: s for s in builder(started[0])["units"]}
    assert slots[f"{one}-o"]["label"] == f"A/F in {one}-o (P2's army aboard)"
    options = slot_options(started[0], f"{one}-o")
    assert options["move"]["lines"][f"{one}-b"] == f"TS2 A/F {one}-o -> {one}-b"
    assert options["land"]["lines"][f"{one}-2"] == f"TS1 P2 A {one}-o L {one}-2"
    later = slot_options(started[0], f"{one}-o TS3")
    assert later["disembark"]["lines"][f"{one}-2"] == f"TS3 P2 A {one}-o D {one}-2"


def test_the_armys_own_landing_from_the_builder_is_taken_and_carried_out(
    started: tuple[Phone, Phone], mixed_af: str, service: TableService, table_id: str
) -> None:
    one = mixed_af
    line = slot_options(started[1], f"{one}-o army")["land"]["lines"][f"{one}-2"]
    assert started[1].post("/seat/orders", json={"text": line}).get_json()["text"] == line
    ready_both(started)
    assert units_at(service, table_id, f"{one}-2") == [
        {"power": "P2", "type": "A", "region": f"{one}-2", "cargo": None}
    ]


def test_boarding_anothers_fleet_is_offered_to_both_powers_and_done_when_both_order_it(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    service.correct(table_id, f"PLACE P2 A {one}-2", "landed last year")
    board = slot_options(started[1], f"{one}-2")["board"]["lines"][f"{one}-o"]
    assert board == f"TS1 A {one}-2 B P1 F {one}-o"
    welcome = slot_options(started[0], f"{one}-o")["take_aboard"]
    assert welcome["lines"][f"{one}-2"] == f"TS1 P2 A {one}-2 B F {one}-o"
    assert welcome["says"][f"{one}-2"] == f"takes P2's army in {one}-2 aboard (TS1)"
    for phone, line in ((started[1], board), (started[0], welcome["lines"][f"{one}-2"])):
        assert phone.post("/seat/orders", json={"text": line}).get_json()["ok"]
    ready_both(started)
    assert units_at(service, table_id, f"{one}-o") == [
        {"power": "P1", "type": "F", "region": f"{one}-o", "cargo": "P2"}
    ]


def test_a_fast_ferry_by_anothers_fleet_is_offered_to_the_army_with_the_fleets_power(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    service.correct(table_id, f"PLACE P2 A {one}-2", "landed last year")
    ferried = slot_options(started[1], f"{one}-2")["ferried_by"]
    assert ferried["then"][f"{one}-o"] and ferried["min"] == 2
    line = ferried["lines"][f"{one}-o {one}-3"]
    assert line == f"TS2 P1 F {one}-o F/F A {one}-2 -> {one}-3"
    ferry = slot_options(started[0], f"{one}-o")["fast_ferry"]
    fleet_line = ferry["lines"][f"{one}-2 {one}-3"]
    assert fleet_line == f"TS2 F {one}-o F/F P2 A {one}-2 -> {one}-3"
    for phone, text in ((started[1], line), (started[0], fleet_line)):
        assert phone.post("/seat/orders", json={"text": text}).get_json()["ok"]
    ready_both(started)
    assert units_at(service, table_id, f"{one}-3") == [
        {"power": "P2", "type": "A", "region": f"{one}-3", "cargo": None}
    ]


def test_an_af_is_offered_its_fleets_support_of_a_landing_on_an_occupied_space(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    _, two = homes(service, table_id)
    service.correct(table_id, f"REMOVE {two}-o", "set up by hand")
    service.correct(table_id, f"PLACE P1 A/F {two}-o", "set up by hand")
    slots = {s["slot"]: s for s in builder(started[0])["units"]}
    support = slots[f"{two}-o TS1"]
    assert support["optional"] and support["label"] == "↳ and at TS1, the fleet"
    (option,) = support["orders"]
    assert set(option["targets"]) == {f"{two}-1", f"{two}-4", f"{two}-5"}  # P2's units
    land = slot_options(started[0], f"{two}-o")["land"]["lines"][f"{two}-1"]
    lines = [land, option["lines"][f"{two}-1"]]
    assert lines == [f"TS1 A {two}-o L {two}-1", f"TS1 F {two}-o S A {two}-o L {two}-1"]
    assert started[0].post("/seat/orders", json={"text": "\n".join(lines)}).get_json()["ok"]
    ready_both(started)
    assert units_at(service, table_id, f"{two}-1") == [
        {"power": "P1", "type": "A", "region": f"{two}-1", "cargo": None}
    ]


def test_an_af_is_not_offered_support_against_its_own_powers_units(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    service.correct(table_id, f"REMOVE {one}-o", "set up by hand")
    service.correct(table_id, f"PLACE P1 A/F {one}-o", "set up by hand")
    assert f"{one}-o TS1" not in {s["slot"] for s in builder(started[0])["units"]}


# Retreats and Winter -------------------------------------------------------------------------


@pytest.fixture
def retreating(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> tuple[Phone, Phone]:
    """P1's two armies (put next to P2's army on P2's 1) dislodge it: P2 owes a retreat."""
    session = service.table(table_id).session
    assert isinstance(session, CosmicClusterSession)
    game = session.core
    _, two = homes(service, table_id)
    game.position = dataclasses.replace(
        game.position,
        units=(
            *(u for u in game.position.units if u.power != "P1"),
            Unit("P1", UnitType.ARMY, f"{two}-2"),
            Unit("P1", UnitType.ARMY, f"{two}-8"),
        ),
    )
    ann, bob = started
    ann.post(
        "/seat/orders", json={"text": f"A {two}-2 -> {two}-1\nA {two}-8 S A {two}-2 -> {two}-1"}
    )
    bob.post("/seat/orders", json={"text": f"F {two}-o -> {two}-b\nF {two}-5 -> {two}-o"})
    for phone in started:
        phone.post("/seat/ready", json={"ready": True, "stage": "command"})
    assert service.view(table_id)["stage"] == "retreats"
    return started


def test_the_dislodged_units_owner_gets_a_retreat_form(
    retreating: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    _, two = homes(service, table_id)
    page = retreating[1].get("/seat/panel").get_data(as_text=True)
    assert f"A {two}-1 was dislodged" in page and f'value="A {two}-1 disband"' in page
    assert "<h2>Retreats</h2>" not in retreating[0].get("/seat/panel").get_data(as_text=True)
    table = retreating[0].app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert 'class="dislodged"' in table and f"P2: A {two}-1 (attacked from {two}-2)" in table


def test_a_retreat_is_sent_through_the_form(
    retreating: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    _, two = homes(service, table_id)
    answer = retreating[1].post(
        "/seat/form", data={"stage": "retreats", f"retreat-{two}-1": f"A {two}-1 disband"}
    )
    assert answer.get_json()["text"] == f"A {two}-1 disband"


def test_an_illegal_retreat_is_refused(
    retreating: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    _, two = homes(service, table_id)
    before = state(service, table_id)
    answer = retreating[1].post(
        "/seat/form", data={"stage": "retreats", f"retreat-{two}-1": f"A {two}-1 -> {two}-2"}
    )
    refused(answer, 422, "retreat to one of")
    assert state(service, table_id) == before


@pytest.mark.parametrize("cargo", ["", " (P2 army)"])
def test_c4_2_the_retreat_form_writes_an_af_retreat_the_game_reads(cargo: str) -> None:
    """C4.2: a dislodged A/F (its own army or another power's aboard) is offered its sea
    retreats as `A/F x -> y` lines, which the game reads (not the display text of the unit)."""
    you = {
        "retreats": [
            {"unit": f"P1: A/F castor-o{cargo}", "region": "castor-o", "options": ["castor-b"]}
        ]
    }
    (choice,) = retreat_choices(you)
    lines = [line for line, _ in choice["options"]]
    assert lines == ["A/F castor-o -> castor-b", "A/F castor-o disband"]
    for line in lines:
        order, af = parse_plain_af(line)
        assert af and order.region == "castor-o"


@pytest.fixture
def winter(
    retreating: tuple[Phone, Phone], service: TableService, table_id: str
) -> tuple[Phone, Phone]:
    """P2's army disbanded; after a quiet Fall P1 (two armies, six centres) may build four
    and P2 must disband one."""
    service.skip(table_id)  # retreats: the army disbands
    service.skip(table_id)  # discussion
    service.skip(table_id)  # Fall orders: everybody holds
    assert service.view(table_id)["stage"] == "build"
    return retreating


def test_winter_offers_builds_on_empty_home_centres_and_takes_them(
    winter: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, two = homes(service, table_id)
    page = winter[0].get("/seat/panel").get_data(as_text=True)
    assert "Winter 4001 adjustments" in page and "You may build up to 4 units" in page
    assert f'name="build-{one}-1"' in page
    table = winter[0].app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert f"P1 takes {two}-1" in table and 'class="centre-changed"' in table
    changes = service.view(table_id)["game"]["centre_changes"]
    # Raided in Spring (P2 -> nobody), taken in Fall (nobody -> P1).
    assert {"centre": f"{two}-1", "before": None, "after": "P1", "why": "fall ownership"} in changes
    answer = winter[0].post("/seat/form", data={"stage": "build", f"build-{one}-1": "F"})
    assert answer.get_json()["text"] == f"F {one}-1 build"
    # P2 lost two centres (1 and 8) and its army: one unit too many, to disband.
    assert "pick 1 to disband" in winter[1].get("/seat/panel").get_data(as_text=True)
    answer = winter[1].post("/seat/form", data={"stage": "build", "disband": f"F {two}-b"})
    assert answer.get_json()["text"] == f"F {two}-b disband"


@pytest.mark.parametrize(
    ("space", "kind", "status", "words"),
    [
        ("{two}-1", "A", 422, "is not a home supply centre of P1"),
        ("{one}-1", "battleship", 400, "a build is an army (A) or a fleet (F)"),
    ],
)
def test_an_illegal_adjustment_is_refused(
    winter: tuple[Phone, Phone],
    service: TableService,
    table_id: str,
    space: str,
    kind: str,
    status: int,
    words: str,
) -> None:
    one, two = homes(service, table_id)
    before = state(service, table_id)
    form = {"stage": "build", f"build-{space.format(one=one, two=two)}": kind}
    refused(winter[0].post("/seat/form", data=form), status, words)
    assert state(service, table_id) == before


@pytest.fixture
def winter_aboard(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> tuple[Phone, Phone]:
    """Host corrections in Spring, then a quiet year: P1 has an A/F of its own in orbit and its
    fleet in its box carries P2's army (P2's army from 1); P2's 8 is unowned. Ruling C5.3: P1
    has five units (the A/F is two) on four centres, P2 four (its army aboard) on three."""
    one, two = homes(service, table_id)
    for text in (
        f"REMOVE {one}-1",
        f"REMOVE {one}-o",
        f"PLACE P1 A/F {one}-o",
        f"REMOVE {two}-1",
        f"PLACE P1 A/F {one}-b P2",
        f"CLAIM {two}-8 none",
    ):
        service.correct(table_id, text, "set up the test")
    service.skip(table_id)  # Spring orders: everybody holds
    service.skip(table_id)  # discussion
    service.skip(table_id)  # Fall orders: everybody holds
    assert service.view(table_id)["stage"] == "build"
    return started


def test_c5_3_the_winter_form_offers_armies_aboard_and_counts_them(
    winter_aboard: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    ann = winter_aboard[0].get("/seat/panel").get_data(as_text=True)
    assert "You have 1 unit more than centres: pick 1 to disband" in ann
    assert (
        f'value="A {one}-o"> Disband A {one}-o (your army aboard your fleet; the fleet stays)'
    ) in ann
    assert (
        f'value="F {one}-o" data-weight="2"> Disband F {one}-o (with your army aboard: 2 units)'
    ) in ann
    assert f'value="F {one}-b"> Disband F {one}-b (P2&#39;s army aboard goes with it)' in ann
    bob = winter_aboard[1].get("/seat/panel").get_data(as_text=True)
    assert "pick 1 to disband" in bob
    assert f"Disband A {one}-b (your army aboard P1&#39;s fleet; the fleet stays)" in bob
    table = winter_aboard[0].app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert "P1 (Ann): 4 centres, 5 units" in table and "P2 (Bob): 3 centres, 4 units" in table


def test_c5_3_an_army_aboard_is_disbanded_through_the_winter_form(
    winter_aboard: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    one, _ = homes(service, table_id)
    answer = winter_aboard[1].post("/seat/form", data={"stage": "build", "disband": f"A {one}-b"})
    assert answer.get_json()["text"] == f"A {one}-b disband"
    refused(
        winter_aboard[0].post("/seat/form", data={"stage": "build", "disband": f"F {one}-o"}),
        422,
        "2 units, and P1 has 1 disband left",
    )
    service.skip(table_id)  # Winter: P1 ordered nothing, civil disorder
    last = service.view(table_id)["last"]
    assert last["orders"][0]["reason"] == (
        f"disbanded the army aboard P1's fleet in {one}-b; the fleet stays"
    )
    # P1's farthest unit is its fleet in the box, empty now: P2's army left it by P2's order.
    assert last["civil_disorder"] == [f"P1: F {one}-b"]
    table = winter_aboard[0].app.test_client().get(f"/t/{table_id}").get_data(as_text=True)
    assert "Disbanded in civil disorder" in table and f"P1: F {one}-b" in table


# The host ----------------------------------------------------------------------------------


@pytest.fixture
def host(app: Flask, service: TableService) -> tuple[FlaskClient, str]:
    table_id, secret = service.create_table("Stars", 3, seed=4, game="cosmic-cluster")
    client = app.test_client()
    host_login(client, table_id, secret)
    return client, table_id


def _host_post(client: FlaskClient, table_id: str, action: str, **data: str) -> Any:
    page = client.get(f"/t/{table_id}/host").get_data(as_text=True)
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    return client.post(f"/t/{table_id}/host/{action}", data={"csrf_token": token, **data})


def test_the_host_page_of_a_cosmic_table_shows_its_rules_and_the_cosmic_corrections(
    host: tuple[FlaskClient, str],
) -> None:
    client, table_id = host
    page = client.get(f"/t/{table_id}/host").get_data(as_text=True)
    assert "PLACE P1 A/F vega-o" in page and "CLAIM vega-3 P2" in page
    assert "MINERALS" not in page and "not available" not in page
    assert '<option value="cosmic-cluster" selected>' in page and "<dt>Orders</dt>" in page


def _started(service: TableService, table_id: str) -> str:
    """All three seats in; returns P1's home system (lower case)."""
    for seat in (1, 2, 3):
        service.join(table_id, seat, f"P{seat}")
        service.choose(table_id, seat, {})
    return str(service.view(table_id, 1)["you"]["home"]).lower()


def test_the_host_corrects_a_cosmic_table_and_undoes_it(
    host: tuple[FlaskClient, str], service: TableService
) -> None:
    client, table_id = host
    one = _started(service, table_id)
    start = service.view(table_id)["game"]["position"]
    drawn = client.get(f"/t/{table_id}").get_data(as_text=True)
    answer = _host_post(client, table_id, "correct", text=f"MOVE {one}-1 {one}-2", reason="bumped")
    assert answer.status_code == 302
    units = service.view(table_id)["game"]["position"]["units"]
    assert {"power": "P1", "type": "A", "region": f"{one}-2", "cargo": None} in units
    assert client.get(f"/t/{table_id}").get_data(as_text=True) != drawn  # redrawn
    record = client.get(f"/t/{table_id}/host/export").get_json()
    assert record["steps"][-1]["inputs"] == {"text": f"MOVE {one}-1 {one}-2", "reason": "bumped"}
    assert _host_post(client, table_id, "undo").status_code == 302
    assert service.view(table_id)["game"]["position"] == start


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("REMOVE {one}-3", "there is no unit in {one}-3"),
        ("PLACE P1 A {one}-o", "cannot hold an army"),
        ("PLACE P4 A {one}-2", "there is no power P4 in this game"),
        ("SWAP {one}-1 {one}-2", "expected a correction: PLACE, REMOVE, MOVE, CLAIM"),
    ],
)
def test_a_bad_correction_on_a_cosmic_table_is_refused_and_changes_nothing(
    host: tuple[FlaskClient, str], service: TableService, text: str, words: str
) -> None:
    client, table_id = host
    one = _started(service, table_id)
    before = state(service, table_id)
    answer = _host_post(client, table_id, "correct", text=text.format(one=one), reason="typo")
    refused(answer, 409, words.format(one=one))
    assert state(service, table_id) == before


def test_the_host_pauses_and_exports_a_cosmic_table(
    host: tuple[FlaskClient, str], service: TableService
) -> None:
    client, table_id = host
    for seat in (1, 2, 3):
        service.join(table_id, seat, f"P{seat}")
        service.choose(table_id, seat, {})
    assert _host_post(client, table_id, "pause").status_code == 302
    assert service.view(table_id)["paused"]
    record = client.get(f"/t/{table_id}/host/export").get_json()
    assert record["game"] == "cosmic-cluster"


@pytest.mark.parametrize(("game", "players"), [("cosmic-cluster", "9"), ("local-cluster", "2")])
def test_the_host_creates_a_new_table_of_either_game(
    host: tuple[FlaskClient, str], service: TableService, game: str, players: str
) -> None:
    client, table_id = host
    form = {
        "name": "Rematch",
        "game": game,
        "players": players,
        "support_range": "adjacent",
        "discussion_seconds": "60",
        "command_seconds": "90",
        "retreat_seconds": "30",
        "build_seconds": "45",
    }
    page = _host_post(client, table_id, "new", **form).get_data(as_text=True)
    new_id = page.split("/t/")[1].split('"')[0].split("/")[0]
    with service.lock:
        assert service.table(new_id).setup.game == game
    assert len(service.view(new_id)["seats"]) == int(players)


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"game": "chess"}, 400, "There is no game called 'chess'"),
        ({"players": "10"}, 409, "Cosmic Cluster is for 2 to 9 players, not 10"),
    ],
)
def test_a_bad_new_table_form_creates_no_table(
    host: tuple[FlaskClient, str],
    service: TableService,
    change: dict[str, str],
    status: int,
    words: str,
) -> None:
    client, table_id = host
    form = {"name": "R", "game": "cosmic-cluster", "players": "3", "support_range": "adjacent"}
    form.update({k: "60" for k in ("discussion_seconds", "command_seconds")})
    form.update({k: "60" for k in ("retreat_seconds", "build_seconds")})
    before = service.table_ids()
    refused(_host_post(client, table_id, "new", **{**form, **change}), status, words)
    assert service.table_ids() == before


# Secrecy -----------------------------------------------------------------------------------


def test_no_route_shows_seat_bs_pending_orders_to_seat_a(
    started: tuple[Phone, Phone], service: TableService, table_id: str
) -> None:
    ann, bob = started
    _, two = homes(service, table_id)
    secret = f"{two}-1 -> {two}-8"
    assert bob.post("/seat/orders", json={"text": f"A {secret}"}).get_json()["ok"]
    anonymous = ann.app.test_client()
    routes = [
        "/",
        f"/t/{table_id}",
        f"/t/{table_id}/panel",
        f"/t/{table_id}/seat",
        f"/t/{table_id}/seat/panel",
        f"/t/{table_id}/host",
        f"/t/{table_id}/host/export",
    ]
    for client in (ann.client, anonymous):
        for route in routes:
            assert secret not in client.get(route).get_data(as_text=True), route
        for route in (f"/t/{table_id}/events", f"/t/{table_id}/seat/events"):
            assert secret not in _first_message(client.get(route, buffered=False)), route
    for path, kwargs in [
        ("/seat/orders", {"json": {"text": "A nowhere-1 H"}}),
        ("/seat/ready", {"json": {"ready": False}}),
        ("/seat/form", {"data": {"stage": "command"}}),
        ("/seat/choose", {"data": {"home": "x"}}),
        ("/host/skip", {}),
    ]:
        assert secret not in ann.post(path, **kwargs).get_data(as_text=True), path
    assert builder(bob)["orders"][f"{two}-1"] == {"kind": "move", "targets": [f"{two}-8"]}


# The drawing -------------------------------------------------------------------------------


def test_arrows_follow_moves_boardings_landings_and_ferries() -> None:
    assert arrow_ends("P1: TS2 A sol-1 -> sol-2") == ("sol-1", "sol-2")
    assert arrow_ends("P1: TS1 A sol-4 B F sol-o") == ("sol-4", "sol-o")
    assert arrow_ends("P1: TS1 A sol-o L sol-3") == ("sol-o", "sol-3")
    assert arrow_ends("P1: TS2 F sol-o F/F A sol-1 -> sol-3") == ("sol-1", "sol-3")
    assert arrow_ends("P1: TS2 F sol-o H") is None
    assert arrow_ends("not an order") is None


def test_centres_changed_come_from_the_seasons_structured_changes() -> None:
    changes = [
        {"centre": "vega-1", "before": None, "after": "P1", "why": "fall ownership"},
        {"centre": "sol-4", "before": "P3", "after": None, "why": "spring raid"},
    ]
    assert changed_centres(changes) == {"vega-1": "P1", "sol-4": None}


def test_the_drawing_outlines_changed_centres_and_fades_failed_moves(
    service: TableService, table_id: str
) -> None:
    cluster = service.view(table_id)["setup"]["cluster"]
    one = next(s for s in cluster["systems"] if s["home_of"] == "P1")["name"].lower()
    last = {
        "kind": "results",
        "orders": [
            {
                "power": "P1",
                "order": f"P1: TS2 A {one}-1 -> {one}-2",
                "succeeded": False,
                "reason": "bounced",
            },
        ],
        "notes": ["a note the drawing does not read"],
    }
    changes = [{"centre": f"{one}-3", "before": None, "after": "P1", "why": "fall ownership"}]
    position = {"units": [], "owners": {}, "retreats": []}
    svg = str(cluster_svg(cluster, position, last=last, changes=changes))
    assert 'class="arrow arrow-failed"' in svg and 'stroke-opacity="0.4"' in svg
    assert svg.count('class="centre-changed"') == 1


def test_serve_demo_game_makes_a_cosmic_demo_table(service: TableService) -> None:
    from web.cli import demo_table

    table_id, secret = demo_table(service, {}, "cosmic-cluster")
    assert secret is not None
    with service.lock:
        assert service.table(table_id).setup.game == "cosmic-cluster"
