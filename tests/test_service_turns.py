"""A turn-taking game at the table: the test-only noughts and crosses (tests/noughts.py).

One seat acts at a time; the game checks each move and says why not; the next seat's turn
begins; a panel lights the acting seat and its press means "done"; a turn clock (per turn, or a
chess clock per player that stops while paused) is a house rule of the table; the host may undo
the last move; and all of it survives a restart like a simultaneous game does.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import noughts
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion import games
from companion.errors import StateError
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import TurnClock
from companion.service.indicators import SeatLight, indicators
from companion.service.session import SubmissionError
from hardware.config import GpioPanelConfig
from hardware.gpio_panel import GpioPanel


@pytest.fixture(autouse=True)
def noughts_registered() -> Iterator[games.Game]:
    yield noughts.register()
    games.unregister(noughts.NAME)


def seated(service: TableService, **kwargs: object) -> str:
    table_id, _ = service.create_table("Xs and Os", 2, game=noughts.NAME, **kwargs)  # type: ignore[arg-type]
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    return table_id


def play(service: TableService, table_id: str, *cells: str) -> None:
    for cell in cells:
        seat = service.view(table_id)["acting"]
        service.submit(table_id, seat, cell, final=True)


def test_the_game_starts_when_both_seats_have_joined(service: TableService) -> None:
    table_id, _ = service.create_table("Xs and Os", 2, game=noughts.NAME)
    service.join(table_id, 1, "Ann")
    assert service.view(table_id)["stage"] == "lobby"
    service.join(table_id, 2, "Bo")
    view = service.view(table_id)
    assert (view["stage"], view["acting"], view["play"]) == ("move", 1, "turns")
    assert view["stage_info"]["kind"] == "turn"


def test_a_turn_taking_game_plays_to_a_win_through_the_service(service: TableService) -> None:
    table_id = seated(service)
    with service.subscribe(table_id) as seen:
        play(service, table_id, "a1", "b1", "a2", "b2", "a3")
        kinds = [e.kind for e in seen.drain()]
    view = service.view(table_id)
    assert view["stage"] == "over"
    assert view["game"]["result"] == {"winner": 1, "draw": False}
    assert kinds.count("move") == 5
    assert kinds[-1] == "game_over"
    assert view["last"] == {"kind": "move", "seat": 1, "cell": "a3", "mark": "X"}


def test_the_game_says_why_a_move_is_refused_and_nothing_is_stored(
    service: TableService, db: Path
) -> None:
    table_id = seated(service)
    play(service, table_id, "b2")
    before = service.storage.load(table_id).entries
    with pytest.raises(SubmissionError, match="b2 already holds X"):
        service.submit(table_id, 2, "B2", final=True)
    with pytest.raises(SubmissionError, match="'d4' is not a cell"):
        service.submit(table_id, 2, "d4", final=True)
    assert service.storage.load(table_id).entries == before
    assert service.view(table_id)["acting"] == 2


def test_only_the_acting_seat_may_move_or_press_done(service: TableService) -> None:
    table_id = seated(service)
    with pytest.raises(StateError, match="it is seat 1's turn, not seat 2's"):
        service.submit(table_id, 2, "a1", final=True)
    with pytest.raises(StateError, match="it is seat 1's turn, not seat 2's"):
        service.set_ready(table_id, 2)


def test_a_pending_move_is_played_by_the_seats_done_press(service: TableService) -> None:
    table_id = seated(service)
    with pytest.raises(StateError, match="has not entered a move yet"):
        service.set_ready(table_id, 1)
    assert service.submit(table_id, 1, " C3 ") == "c3"  # pending: still seat 1's turn
    assert service.view(table_id)["acting"] == 1
    service.submit(table_id, 1, "b2")  # a pending move may be replaced
    service.set_ready(table_id, 1)
    view = service.view(table_id)
    assert view["game"]["board"] == {"b2": "X"}
    assert view["acting"] == 2


def test_the_lights_blink_for_the_seat_whose_turn_it_is(service: TableService) -> None:
    table_id = seated(service)
    shown = indicators(service.view(table_id))
    assert shown.seat(1).light is SeatLight.BLINK
    assert shown.seat(1).describe() == "seat 1 LED blinking (its turn: move awaited)"
    assert shown.seat(2).light is SeatLight.OFF
    play(service, table_id, "a1")
    shown = indicators(service.view(table_id))
    assert (shown.seat(1).light, shown.seat(2).light) == (SeatLight.OFF, SeatLight.BLINK)


def test_a_turn_clock_per_turn_makes_the_game_decide(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, turn_clock=TurnClock("turn", 30))
    assert service.view(table_id)["remaining"] == 30
    clock.advance(20)
    play(service, table_id, "a1")  # in time: seat 2 gets a fresh 30 s
    clock.advance(29)
    assert service.view(table_id)["remaining"] == pytest.approx(1)
    clock.advance(2)
    view = service.view(table_id)
    assert view["stage"] == "over"
    assert view["last"] == {"kind": "forfeit", "seat": 2}  # the game's rule: out of time loses
    assert view["game"]["result"]["winner"] == 1


def test_a_chess_clock_keeps_each_seats_time_and_stops_while_paused(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, turn_clock=TurnClock("player", 60))
    clock.advance(10)
    play(service, table_id, "a1")  # seat 1 used 10 s of its 60
    assert service.view(table_id)["remaining"] == 60  # seat 2's own clock
    clock.advance(5)
    service.pause(table_id)
    clock.advance(1000)  # a long pause costs nobody anything
    service.resume(table_id)
    clock.advance(5)
    play(service, table_id, "b1")  # seat 2 used 10 s
    view = service.view(table_id)
    assert view["banks"] == {"1": 50.0, "2": 50.0}
    assert view["remaining"] == 50


def test_the_host_undo_gives_the_turn_back(service: TableService) -> None:
    table_id = seated(service)
    play(service, table_id, "a1", "b2")
    service.undo(table_id)
    view = service.view(table_id)
    assert view["game"]["board"] == {"a1": "X"}
    assert view["acting"] == 2
    play(service, table_id, "c3")
    assert service.view(table_id)["game"]["board"] == {"a1": "X", "c3": "O"}


def test_a_restarted_service_rebuilds_the_turn_taking_table_exactly(
    db: Path, clock: FakeClock
) -> None:
    with TableService(Storage(db), clock=clock) as first:
        table_id = seated(first, turn_clock=TurnClock("player", 120))
        clock.advance(7)
        play(first, table_id, "a1", "b1")
        first.submit(table_id, 1, "c1")  # pending
        first.undo(table_id)  # takes back b1 and the pending move with the turn
        before = first.view(table_id)
        record = first.export(table_id)
    with TableService(Storage(db), clock=clock) as again:
        assert again.view(table_id) == before
        assert again.export(table_id) == record


def test_a_panel_lights_the_acting_seat_and_its_press_means_done(service: TableService) -> None:
    table_id = seated(service)
    factory = MockFactory(pin_class=MockPWMPin)
    config = GpioPanelConfig(bounce_time=0.05, hold_time=0.15, blink_time=0.01)
    try:
        with GpioPanel(service, table_id, config, pin_factory=factory) as panel:
            service.submit(table_id, 1, "b2")
            factory.pin(5).drive_low()  # seat 1's button (docs/wiring.md)
            factory.pin(5).drive_high()
            deadline = time.monotonic() + 5
            while panel.shown is None or panel.shown.seat(2).light is not SeatLight.BLINK:
                assert time.monotonic() < deadline, "the panel never showed seat 2's turn"
                time.sleep(0.01)
            assert service.view(table_id)["game"]["board"] == {"b2": "X"}
            assert panel.shown.seat(1).light is SeatLight.OFF
    finally:
        factory.reset()


def test_a_move_the_camera_saw_is_entered_for_the_seat_to_confirm(service: TableService) -> None:
    table_id = seated(service)
    seen = {cell: "" for cell in noughts.CELLS} | {"b2": "X"}
    result = service.report_scan(table_id, seen)
    assert (result["moves"], result["entered"]) == (["b2"], "b2")
    assert service.view(table_id)["seats"][0]["submitted"]
    entries = len(service.storage.load(table_id).entries)
    service.report_scan(table_id, seen)  # the same picture again stores nothing new
    assert len(service.storage.load(table_id).entries) == entries
    service.set_ready(table_id, 1)  # "done" on the panel
    assert service.view(table_id)["game"]["board"] == {"b2": "X"}


def test_unknown_cells_leave_a_choice_and_an_impossible_change_is_reported(
    service: TableService,
) -> None:
    table_id = seated(service)
    play(service, table_id, "b2")
    unsure = {cell: "" for cell in noughts.CELLS} | {"b2": "X", "a1": "?", "c3": "?"}
    result = service.report_scan(table_id, unsure)
    assert (result["moves"], result["entered"]) == (["a1", "c3"], None)
    assert not service.view(table_id)["seats"][1]["submitted"]
    moved = {cell: "" for cell in noughts.CELLS} | {"a1": "X"}  # the X went from b2 to a1
    result = service.report_scan(table_id, moved)
    assert result["entered"] is None
    assert [d["message"] for d in result["discrepancies"]] == [
        "a1: expected empty, saw X",
        "b2: expected X, saw empty",
    ]
    assert service.view(table_id)["scan"]["moves"] == []
