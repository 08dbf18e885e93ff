"""Cosmic Cluster tables in the table service: the game is stored with the table, seasons run
with timers and ready-ups, missed orders take the defaults, and a restart restores the table."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion.cosmic.diplomacy.geography import UnitType
from companion.cosmic.diplomacy.rules import Unit
from companion.cosmic.record import load_record, record_json
from companion.cosmic.session import COMMAND, RETREATS, CosmicClusterSession
from companion.errors import CompanionError, StateError
from companion.service import FakeClock, Storage, TableService
from companion.service.session import Stage, SubmissionError


def seated(service: TableService, players: int = 3, seed: int = 3) -> str:
    table_id, _ = service.create_table("cosmic", players, seed=seed, game="cosmic-cluster")
    for seat in range(1, players + 1):
        service.join(table_id, seat, f"Player {seat}")
    for seat in range(1, players + 1):
        service.choose(table_id, seat, {})
    return table_id


def to_command(service: TableService, table_id: str, players: int = 3) -> None:
    for seat in range(1, players + 1):
        service.set_ready(table_id, seat)
    assert service.view(table_id)["stage"] == COMMAND.value


def test_a_cosmic_table_confirms_each_seats_home_and_starts(service: TableService) -> None:
    table_id = seated(service)
    view = service.view(table_id, seat=1)
    assert view["stage"] == Stage.DISCUSSION.value
    assert view["seats"][0]["choice"]["power"] == "P1"
    assert len(view["game"]["cluster"]["systems"]) == 16
    assert view["you"]["power"] == "P1"


def test_a_seat_may_not_claim_another_home(service: TableService) -> None:
    table_id, _ = service.create_table("cosmic", 3, seed=3, game="cosmic-cluster")
    service.join(table_id, 1, "Ann")
    with pytest.raises(SubmissionError, match="gave seat 1 the home system"):
        service.choose(table_id, 1, {"home": "Nowhere"})


def test_unknown_games_are_refused(service: TableService) -> None:
    with pytest.raises(StateError, match="unknown game"):
        service.create_table("x", 3, game="chess")


def test_private_view_gives_the_order_builder_each_units_options(service: TableService) -> None:
    table_id = seated(service)
    to_command(service, table_id)
    units = service.view(table_id, seat=2)["you"]["units"]
    assert len(units) == 4
    army = next(u for u in units if u["type"] == "A")
    assert "move" in army["kinds"] and army["moves"]
    assert army["time_scales"]["board"] == 1
    fleet = next(u for u in units if u["type"] == "F" and u["region"].endswith("-o"))
    assert any(m.endswith("-b") for m in fleet["moves"])


def test_orders_are_checked_and_stored_in_canonical_form(service: TableService) -> None:
    table_id = seated(service)
    to_command(service, table_id)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    canonical = service.submit(table_id, 1, f"A {home}-1 - {home}-2\n")
    assert canonical == f"TS2 A {home}-1 -> {home}-2"
    with pytest.raises(SubmissionError, match="line 1, column 1: expected a unit type"):
        service.submit(table_id, 1, "walk somewhere")


def test_missed_orders_hold_and_the_season_moves_on_at_the_deadline(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service)
    to_command(service, table_id)
    clock.advance(181)  # the command phase lasts 180 s by default
    service.tick()
    view = service.view(table_id)
    assert view["last"]["kind"] == "results"
    assert view["game"]["position"]["season"] == "fall"
    assert view["stage"] == Stage.DISCUSSION.value


def test_a_restart_restores_the_table_and_its_record(db: Path, clock: FakeClock) -> None:
    with TableService(Storage(db), clock=clock) as service:
        table_id = seated(service)
        to_command(service, table_id)
        home = service.view(table_id, seat=1)["you"]["home"].lower()
        service.submit(table_id, 1, f"A {home}-1 - {home}-2")
        for seat in (1, 2, 3):
            service.set_ready(table_id, seat)
        before = service.export(table_id)
    with TableService(Storage(db), clock=clock) as service:
        assert service.export(table_id) == before
        game = load_record(before)
        assert any(u.region == f"{home}-2" for u in game.position.units)


def test_a_cosmic_record_is_imported_and_carries_on(service: TableService) -> None:
    table_id = seated(service)
    to_command(service, table_id)
    for seat in (1, 2, 3):
        service.set_ready(table_id, seat)
    record = service.export(table_id)
    imported, _ = service.import_record(record, "again")
    view = service.view(imported)
    assert view["game"]["position"]["season"] == "fall"
    assert view["seats"][0]["choice"]["power"] == "P1"
    assert service.export(imported) == record


def test_a_missed_retreat_disbands_when_the_retreat_phase_times_out(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, players=2)
    to_command(service, table_id, players=2)
    # Put P1's armies next to P2's army on 1 (the cluster's planets are far apart otherwise).
    session = service.table(table_id).session
    assert isinstance(session, CosmicClusterSession)
    game = session.core
    key = game.cluster.home_of("P2").key
    game.position = dataclasses.replace(
        game.position,
        units=(
            *(u for u in game.position.units if u.power != "P1"),
            Unit("P1", UnitType.ARMY, f"{key}-2"),
            Unit("P1", UnitType.ARMY, f"{key}-8"),
        ),
    )
    service.submit(table_id, 1, f"A {key}-2 -> {key}-1\nA {key}-8 S A {key}-2 -> {key}-1")
    service.submit(table_id, 2, f"F {key}-o -> {key}-b\nF {key}-5 -> {key}-o")
    for seat in (1, 2):
        service.set_ready(table_id, seat)
    assert service.view(table_id)["stage"] == RETREATS.value
    assert service.view(table_id, seat=2)["you"]["retreats"][0]["options"]
    clock.advance(61)  # the retreat phase lasts 60 s by default
    service.tick()
    view = service.view(table_id)
    assert view["last"]["kind"] == "retreats_done"
    assert view["last"]["disbanded"] == [f"P2: A {key}-1"]


def test_orders_naming_missing_units_are_refused_with_the_line(service: TableService) -> None:
    table_id = seated(service)
    to_command(service, table_id)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    with pytest.raises(SubmissionError) as caught:
        service.submit(
            table_id,
            1,
            f"A {home}-2 B F {home}-o\nA {home}-o L {home}-3\nA {home}-6 -> {home}-7",
        )
    assert caught.value.reasons == (
        f"line 1: there is no army in {home}-2",
        f"line 2: there is no A/F (a fleet with an army aboard) in {home}-o",
        f"line 3: you have no unit in {home}-6",
    )


def test_a_ts2_order_may_name_where_the_army_gets_to_in_ts1(service: TableService) -> None:
    table_id = seated(service)
    to_command(service, table_id)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    canonical = service.submit(table_id, 1, f"A {home}-1 B F {home}-o\nA/F {home}-o -> {home}-b")
    assert canonical == f"TS1 A {home}-1 B F {home}-o\nTS2 A/F {home}-o -> {home}-b"


# Host corrections ----------------------------------------------------------------------------


def stored(service: TableService, table_id: str) -> tuple[object, ...]:
    return (service.view(table_id), len(service.storage.entries(table_id)))


def test_a_host_correction_moves_a_unit_and_is_recorded_with_its_reason(
    service: TableService,
) -> None:
    table_id = seated(service)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    service.correct(table_id, f"move {home}-1 {home}-2", "knocked off its space")
    units = service.view(table_id)["game"]["position"]["units"]
    assert {"power": "P1", "type": "A", "region": f"{home}-2", "cargo": None} in units
    step = load_record(service.export(table_id)).steps[-1]
    assert step.kind == "correction"
    assert step.inputs == {"text": f"MOVE {home}-1 {home}-2", "reason": "knocked off its space"}


@pytest.mark.parametrize(
    ("text", "reason", "error"),
    [
        ("TELEPORT x y", "why", "expected a correction: PLACE, REMOVE, MOVE, CLAIM"),
        ("PLACE P1 A", "why", "expected PLACE power type space"),
        ("PLACE P1 A {home}-1", "why", "{home}-1 already holds P1: A {home}-1"),
        ("REMOVE {home}-3", "why", "there is no unit in {home}-3"),
        ("CLAIM {home}-3 P2", "why", "{home}-3 is not a supply centre"),
        ("REMOVE {home}-1", "  ", "a correction needs a reason"),
    ],
)
def test_a_bad_correction_says_what_is_wrong_and_changes_nothing(
    service: TableService, text: str, reason: str, error: str
) -> None:
    table_id = seated(service)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    before = stored(service, table_id)
    with pytest.raises(CompanionError, match=re.escape(error.format(home=home))):
        service.correct(table_id, text.format(home=home), reason)
    assert stored(service, table_id) == before


def test_the_host_undoes_corrections_in_reverse_and_then_is_told_there_is_none(
    service: TableService,
) -> None:
    table_id = seated(service)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    start = service.view(table_id)["game"]["position"]
    service.correct(table_id, f"REMOVE {home}-1", "lost")
    service.correct(table_id, f"CLAIM {home}-8 P2", "traded")
    service.undo(table_id)
    assert service.view(table_id)["game"]["position"]["owners"][f"{home}-8"] == "P1"
    service.undo(table_id)
    assert service.view(table_id)["game"]["position"] == start
    before = stored(service, table_id)
    with pytest.raises(CompanionError, match="there is no correction to undo"):
        service.undo(table_id)
    assert stored(service, table_id) == before


def test_corrections_and_undos_survive_a_restart_and_replay_byte_for_byte(
    db: Path, clock: FakeClock
) -> None:
    with TableService(Storage(db), clock=clock) as service:
        table_id = seated(service)
        to_command(service, table_id)
        home = service.view(table_id, seat=1)["you"]["home"].lower()
        service.correct(table_id, f"PLACE P2 A/F {home}-b P1", "an international A/F")
        service.correct(table_id, f"REMOVE {home}-4", "lost")
        service.undo(table_id)
        before = service.export(table_id)
    with TableService(Storage(db), clock=clock) as service:
        assert service.export(table_id) == before
        service.undo(table_id)  # the A/F's placing is still the latest correction
        units = service.view(table_id)["game"]["position"]["units"]
        assert not any(u["region"] == f"{home}-b" for u in units)
    assert record_json(load_record(before)) == before


def test_corrections_wait_while_a_cosmic_table_takes_retreats(service: TableService) -> None:
    table_id = seated(service, players=2)
    to_command(service, table_id, players=2)
    key = service.view(table_id, seat=2)["you"]["home"].lower()
    service.correct(table_id, f"PLACE P1 A {key}-2", "landed earlier")
    service.correct(table_id, f"PLACE P1 A {key}-8", "landed earlier")
    service.submit(table_id, 1, f"A {key}-2 -> {key}-1\nA {key}-8 S A {key}-2 -> {key}-1")
    service.submit(table_id, 2, f"F {key}-o -> {key}-b\nF {key}-5 -> {key}-o")  # 5 is free
    for seat in (1, 2):
        service.set_ready(table_id, seat)
    assert service.view(table_id)["stage"] == RETREATS.value
    before = stored(service, table_id)
    with pytest.raises(CompanionError, match="not while the game waits for retreats"):
        service.correct(table_id, f"REMOVE {key}-5", "why")
    with pytest.raises(CompanionError, match="no correction to undo since the last orders"):
        service.undo(table_id)
    assert stored(service, table_id) == before


def test_the_private_view_gives_each_power_its_part_of_an_international_af(
    service: TableService,
) -> None:
    """Module section G: the fleet's owner orders the A/F (and may order the army, second);
    the army's owner orders only its army, and sees whose fleet carries it."""
    table_id = seated(service)
    to_command(service, table_id)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    service.correct(table_id, f"REMOVE {home}-o", "set up by hand")
    service.correct(table_id, f"PLACE P1 A/F {home}-o P3", "set up by hand")
    fleet = next(u for u in service.view(table_id, 1)["you"]["units"] if u["type"] == "A/F")
    assert (fleet["role"], fleet["army_owner"]) == ("fleet", "P3")
    assert fleet["moves"] and fleet["land"]
    army = next(u for u in service.view(table_id, 3)["you"]["units"] if u["type"] == "A/F")
    assert (army["role"], army["power"], army["owners"]) == ("army", "P1", {f"{home}-o": "P1"})
    assert army["moves"] == [] and army["support_holds"] == [] and army["land"] == fleet["land"]
    assert not any(u["region"] == f"{home}-o" for u in service.view(table_id, 2)["you"]["units"])


def test_a_power_whose_only_unit_is_an_army_aboard_anothers_fleet_still_orders_it(
    service: TableService,
) -> None:
    table_id = seated(service, players=2)
    home = service.view(table_id, seat=1)["you"]["home"].lower()
    two = service.view(table_id, seat=2)["you"]["home"].lower()
    for space in ("1", "4", "5", "o"):
        service.correct(table_id, f"REMOVE {two}-{space}", "P2 lost its units")
    for centre in ("1", "4", "5", "8"):
        service.correct(table_id, f"CLAIM {two}-{centre} none", "and its centres")
    service.correct(table_id, f"REMOVE {home}-o", "set up by hand")
    service.correct(table_id, f"PLACE P1 A/F {home}-o P2", "P2's last army, aboard")
    to_command(service, table_id, players=2)
    assert service.submit(table_id, 2, f"A {home}-o L {home}-2") == f"TS1 A {home}-o L {home}-2"
