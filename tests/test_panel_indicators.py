"""What every panel shows (companion.service.indicators), from a real table's public view."""

from __future__ import annotations

import dataclasses
import json

import pytest
from panel_support import lobby_table, started_table, to_command

from companion import games
from companion.local_cluster.session import COMMAND
from companion.service import FakeClock, TableService
from companion.service.indicators import (
    LIGHT_COLOURS,
    Cue,
    Indicators,
    SeatLight,
    cues,
    indicators,
)
from companion.service.session import LIGHTS, SERVICE_STAGES, Stage


def lights(service: TableService, table_id: str) -> Indicators:
    return indicators(service.view(table_id))


def test_lobby_blinks_the_seat_whose_turn_it_is_to_choose(service: TableService) -> None:
    table_id = lobby_table(service)
    service.join(table_id, 1, "Ada")
    service.join(table_id, 2, "Bo")
    shown = lights(service, table_id)
    assert shown.seat(2).light is SeatLight.BLINK  # the last seat chooses first (3.2)
    assert shown.seat(1).light is SeatLight.OFF
    service.choose(table_id, 2, {"colour": "blue", "home": "S5"})
    shown = lights(service, table_id)
    assert shown.seat(2).light is SeatLight.STEADY
    assert shown.seat(1).light is SeatLight.BLINK


def test_discussion_leaves_seats_off_until_they_press_ready(service: TableService) -> None:
    table_id = started_table(service)
    assert lights(service, table_id).seat(1).light is SeatLight.OFF
    service.set_ready(table_id, 1)
    shown = lights(service, table_id)
    assert shown.seat(1).describe() == "seat 1 LED steady (ready)"
    assert shown.seat(1).ready
    assert shown.seat(2).light is SeatLight.OFF
    assert not shown.seat(2).ready


def test_command_phase_blinks_every_seat_whose_orders_are_awaited(service: TableService) -> None:
    table_id = started_table(service)
    to_command(service, table_id)
    shown = lights(service, table_id)
    assert [s.describe() for s in shown.seats] == [
        "seat 1 LED blinking (orders awaited)",
        "seat 2 LED blinking (orders awaited)",
    ]


def test_submitted_orders_turn_the_seat_steady(service: TableService) -> None:
    table_id = started_table(service)
    to_command(service, table_id)
    service.submit(table_id, 1, "HOLD S1")
    shown = lights(service, table_id)
    assert shown.seat(1).describe() == "seat 1 LED steady (orders submitted)"
    assert not shown.seat(1).ready  # submitted, not yet final: a press still counts
    assert shown.seat(2).light is SeatLight.BLINK


def test_phase_colour_follows_the_stage(service: TableService) -> None:
    table_id = lobby_table(service)
    assert lights(service, table_id).colour == LIGHT_COLOURS[Stage.LOBBY.light]
    table_id = started_table(service)
    assert lights(service, table_id).colour == LIGHT_COLOURS[Stage.DISCUSSION.light]
    to_command(service, table_id)
    shown = lights(service, table_id)
    assert shown.colour == LIGHT_COLOURS[COMMAND.light]
    assert shown.describe_colour() == "phase LED green (Orders)"


def test_every_stage_of_every_game_has_its_own_colour() -> None:
    """Within a game, no two stages share a light; every light is one the panels can show."""
    assert set(LIGHT_COLOURS) == set(LIGHTS)
    assert len(set(LIGHT_COLOURS.values())) == len(LIGHTS)
    for game in games.available():
        stages = [*SERVICE_STAGES, *game.stages]
        assert len({stage.light for stage in stages}) == len(stages), game.name


def test_paused_table_blinks_the_phase_colour_and_stops_the_countdown(
    service: TableService, clock: FakeClock
) -> None:
    table_id = started_table(service)
    clock.advance(235)
    assert lights(service, table_id).countdown == 5
    service.pause(table_id)
    shown = lights(service, table_id)
    assert shown.colour_blinks
    assert shown.countdown is None
    assert shown.describe_colour() == "phase LED blue blinking (Discussion, paused)"


def test_countdown_covers_only_the_last_ten_seconds(
    service: TableService, clock: FakeClock
) -> None:
    table_id = started_table(service)
    clock.advance(229.5)
    assert lights(service, table_id).countdown is None  # 10.5 s left
    clock.advance(0.5)
    assert lights(service, table_id).countdown == 10
    clock.advance(9.5)
    assert lights(service, table_id).countdown == 1


def test_each_countdown_second_beeps_once(service: TableService, clock: FakeClock) -> None:
    table_id = started_table(service)
    clock.advance(231)
    first = lights(service, table_id)
    again = lights(service, table_id)
    clock.advance(1)
    later = lights(service, table_id)
    assert cues(first, again) == ()
    assert cues(again, later) == (Cue.COUNTDOWN,)


def test_a_phase_change_chimes(service: TableService) -> None:
    table_id = started_table(service)
    before = lights(service, table_id)
    to_command(service, table_id)
    assert cues(before, lights(service, table_id)) == (Cue.PHASE,)


def test_the_first_view_a_panel_sees_sounds_nothing(service: TableService) -> None:
    table_id = started_table(service)
    assert cues(None, lights(service, table_id)) == ()


def test_game_over_turns_seat_lights_off(service: TableService) -> None:
    table_id = started_table(service)
    view = service.view(table_id)
    over = indicators({**view, "stage": "over", "remaining": None})
    assert {s.light for s in over.seats} == {SeatLight.OFF}
    assert over.colour == LIGHT_COLOURS[Stage.OVER.light]


def test_indicators_are_frozen_values(service: TableService) -> None:
    shown = lights(service, started_table(service))
    with pytest.raises(dataclasses.FrozenInstanceError):
        shown.paused = True  # type: ignore[misc]


def test_asking_for_a_seat_the_table_lacks_names_it(service: TableService) -> None:
    shown = lights(service, started_table(service))
    with pytest.raises(KeyError, match="no seat 9"):
        shown.seat(9)


def test_the_virtual_panel_gets_plain_data(service: TableService) -> None:
    table_id = started_table(service)
    to_command(service, table_id)
    data = lights(service, table_id).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["colour"] == [0.0, 1.0, 0.0]
    assert data["seats"][0] == {
        "seat": 1,
        "light": "blink",
        "reason": "orders awaited",
        "ready": False,
        "text": "seat 1 LED blinking (orders awaited)",
    }
