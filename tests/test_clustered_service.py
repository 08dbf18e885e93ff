"""Clustered at the table: whole games through the table service with a fake clock.

The moves come from simulated players (``companion.clustered.simulate``), who hold real hands;
each move goes through ``TableService.submit`` as a phone would send it, and the simulated
table follows what the service accepted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clustered_helpers import K720_ORDER

from companion.clustered import record as records
from companion.clustered.game import Player
from companion.clustered.settings import Settings
from companion.clustered.simulate import Table
from companion.errors import StateError
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import TurnClock
from companion.service.indicators import SeatLight, indicators
from companion.service.session import SubmissionError

COLOURS = ("B", "O", "R", "G", "Y", "P", "T", "M")


def seated(
    service: TableService,
    players: int = 2,
    *,
    options: dict[str, object] | None = None,
    names: tuple[str, ...] = (),
    **kwargs: object,
) -> str:
    table_id, _ = service.create_table(
        "Clustered night",
        players,
        game="clustered",
        options=options or {},
        **kwargs,  # type: ignore[arg-type]
    )
    for seat in range(1, players + 1):
        name = names[seat - 1] if seat <= len(names) else f"P{seat}"
        service.join(table_id, seat, name)
    for seat in range(1, players + 1):
        service.choose(table_id, seat, {"colour": COLOURS[seat - 1], "name": name_of(names, seat)})
    return table_id


def name_of(names: tuple[str, ...], seat: int) -> str:
    return names[seat - 1] if seat <= len(names) else ""


def play_out(service: TableService, table_id: str, sim: Table, turns: int | None = None) -> int:
    """Submit the simulated players' moves until the game ends (or ``turns`` turns)."""
    played = 0
    while turns is None or played < turns:
        text = sim.next_move()
        if text is None:
            break
        seat = service.view(table_id)["acting"]
        assert seat == sim.game.current_seat()
        stored = service.submit(table_id, seat, text, final=True)
        sim.advance(stored if not stored.startswith("discard") else text)
        played += 1
    return played


def test_a_whole_four_player_game_through_the_service(service: TableService) -> None:
    table_id = seated(service, 4, options={"largest_bonuses": True, "first_bonuses": "yes"})
    view = service.view(table_id)
    assert (view["stage"], view["acting"], view["play"]) == ("turn", 1, "turns")
    assert view["stage_info"]["kind"] == "turn"
    rules = Settings(largest_bonuses=True, first_bonuses=True)
    sim = Table([Player(c) for c in COLOURS[:4]], settings=rules, seed=21, policy="cluster")
    with service.subscribe(table_id) as seen:
        turns = play_out(service, table_id, sim)
        kinds = [e.kind for e in seen.drain()]
    view = service.view(table_id)
    assert view["stage"] == "over"
    assert turns == len(sim.game.turns) >= 100
    assert kinds.count("placement") + kinds.count("discard") == turns
    assert kinds[-1] == "game_over"
    result = view["game"]["result"]
    sheet = sim.game.score_sheet()
    assert result["totals"] == {p.colour: p.total for p in sheet.players}
    assert result["winners"] == list(sheet.winners)
    assert service.export(table_id) == records.record_json(sim.game)


def test_the_acting_seats_led_blinks_and_only_it_may_play(service: TableService) -> None:
    table_id = seated(service, 3, options={"first_seat": 2})
    shown = indicators(service.view(table_id))
    assert [shown.seat(s).light for s in (1, 2, 3)] == [
        SeatLight.OFF,
        SeatLight.BLINK,
        SeatLight.OFF,
    ]
    with pytest.raises(StateError, match="it is seat 2's turn, not seat 1's"):
        service.submit(table_id, 1, "B-wild 1,0", final=True)
    service.submit(table_id, 2, "O-wild 1,0", final=True)
    assert service.view(table_id)["acting"] == 3


def test_a_refused_placement_says_why_and_stores_nothing(service: TableService) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "B-sq-so-2 1,0", final=True)
    before = service.storage.load(table_id).entries
    with pytest.raises(SubmissionError) as caught:
        service.submit(table_id, 2, "O-tr-ho-3 2,0", final=True)
    assert caught.value.reasons == (
        "O-tr-ho-3 2,0: it shares nothing with the card to its left (B-sq-so-2 at 1,0) "
        "(mismatch, K4.7)",
    )
    with pytest.raises(SubmissionError, match="is not a card"):
        service.submit(table_id, 2, "O-sq-so-9 2,0", final=True)
    assert service.storage.load(table_id).entries == before
    assert service.view(table_id)["acting"] == 2


def test_a_pending_placement_is_played_by_the_done_press(service: TableService) -> None:
    table_id = seated(service)
    assert service.submit(table_id, 1, " b-sq-so-2  (1, 0) ") == "B-sq-so-2 1,0"
    assert service.view(table_id)["acting"] == 1
    service.set_ready(table_id, 1)
    view = service.view(table_id)
    assert view["acting"] == 2
    assert view["last"]["kind"] == "placement" and view["last"]["cell"] == "1,0"


def test_the_preview_gives_the_legal_cells_of_a_chosen_card(service: TableService) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "B-sq-so-2 1,0", final=True)
    preview = service.preview(table_id, 2, "o-sq-so-1")
    assert preview["cells"] == ["0,1", "1,1", "-1,0", "2,0", "0,-1", "1,-1"]
    assert preview["says"] == "O-sq-so-1 fits in 6 cells: tap one"
    with pytest.raises(SubmissionError, match=r"mismatch, K4\.7"):
        service.preview(table_id, 2, "O-tr-ho-3 2,0")
    with pytest.raises(SubmissionError, match="is blue's"):
        service.preview(table_id, 2, "B-wild")
    assert service.preview(table_id, 2, "O-tr-ho-3 -1,0")["text"] == "O-tr-ho-3 -1,0"
    options = {o["card"]: o["cells"] for o in service.view(table_id)["game"]["options"]}
    assert options["O-sq-so-1"] == preview["cells"]
    assert "O-wild" in options and len(options) == 28


def test_a_declaration_is_checked_and_its_card_stays_hidden(service: TableService) -> None:
    table_id = seated(service, options={"surface": "0..1,0..0", "end_when_blocked": False})
    service.submit(table_id, 1, "B-wild 1,0", final=True)
    with pytest.raises(SubmissionError, match="hand-invalid: enter your whole hand"):
        service.submit(table_id, 2, "discard O-wild", final=True)
    hand = "O-sq-so-1 O-sq-so-2 O-sq-so-3 O-tr-so-1 O-wild"
    with service.subscribe(table_id) as seen:
        stored = service.submit(table_id, 2, f"discard O-wild hand {hand}", final=True)
        events = seen.drain()
    assert stored == "discard O-wild"  # the rest of the hand is not stored (K3.15)
    view = service.view(table_id)
    shown = json.dumps(view) + json.dumps([e.data for e in events])
    assert "O-wild" not in shown and "O-sq-so-3" not in shown
    assert view["game"]["seats"][1]["discards"] == 1
    assert view["last"]["kind"] == "discard"
    assert all("O-sq-so" not in json.dumps(e) for e in service.storage.load(table_id).entries)


def test_a_turn_whose_clock_runs_out_stays_with_its_seat(
    service: TableService, clock: FakeClock
) -> None:
    """The rulings have no pass (K3.5): a timed-out turn records nothing; the seat keeps it."""
    table_id = seated(service, turn_clock=TurnClock("turn", 60))
    clock.advance(61)
    view = service.view(table_id)
    assert view["acting"] == 1 and view["last"] == {"kind": "time_up", "seat": 1, "colour": "B"}
    assert view["remaining"] == pytest.approx(59)
    assert view["game"]["turns"] == 0
    service.submit(table_id, 1, "B-wild 1,0", final=True)
    assert service.view(table_id)["acting"] == 2


def test_a_timed_out_turn_plays_its_pending_placement(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, turn_clock=TurnClock("turn", 60))
    service.submit(table_id, 1, "B-wild 1,0")
    clock.advance(61)
    assert service.view(table_id)["acting"] == 2


def test_undo_gives_the_turn_back_and_a_bonus_with_it(service: TableService) -> None:
    table_id = seated(service, options={"first_bonuses": True})
    for move in K720_ORDER:
        seat = service.view(table_id)["acting"]
        service.submit(table_id, seat, move, final=True)
    assert service.view(table_id)["last"]["earned"] == ["first-rectangle", "first-line"]
    assert service.view(table_id)["game"]["first_holders"]["first-line"] == "B"
    service.undo(table_id)
    view = service.view(table_id)
    assert view["acting"] == 1
    assert view["game"]["first_holders"] == {"first-rectangle": None, "first-line": None}


def test_the_host_stops_the_game_early(service: TableService) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "B-wild 1,0", final=True)
    with pytest.raises(StateError, match="no Clustered correction"):
        service.correct(table_id, "remove 1,0", "oops")
    service.correct(table_id, "stop", "the café is closing")
    view = service.view(table_id)
    assert view["stage"] == "over"
    assert view["game"]["result"]["finished"] is False
    assert view["game"]["result"]["winners"] == []
    assert view["game"]["score"]["stopped"] is True


def test_a_restarted_service_rebuilds_the_table_exactly(db: Path, clock: FakeClock) -> None:
    sim = Table([Player("B"), Player("O"), Player("R")], seed=5)
    with TableService(Storage(db), clock=clock) as first:
        table_id = seated(first, 3, turn_clock=TurnClock("player", 600))
        clock.advance(3)
        play_out(first, table_id, sim, turns=25)
        first.undo(table_id)
        first.submit(table_id, first.view(table_id)["acting"], sim.game.turns[-1].move.text())
        before = first.view(table_id)
        record = first.export(table_id)
    with TableService(Storage(db), clock=clock) as again:
        assert again.view(table_id) == before
        assert again.export(table_id) == record


def test_choosing_colours_takes_a_free_colour_of_the_palette(service: TableService) -> None:
    table_id, _ = service.create_table("t", 2, game="clustered")
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    assert service.choose(table_id, 1, {"colour": "orange", "name": " Ann "}) == {
        "colour": "O",
        "name": "Ann",
    }
    with pytest.raises(SubmissionError, match="orange is seat 1's deck"):
        service.choose(table_id, 2, {"colour": "O"})
    with pytest.raises(SubmissionError, match="there is no colour 'X'"):
        service.choose(table_id, 2, {"colour": "X"})
    service.choose(table_id, 2, {"colour": "B"})
    assert service.view(table_id)["game"]["seats"][0]["colour_name"] == "orange"


@pytest.mark.parametrize(
    ("players", "options", "says"),
    [
        (9, {}, "for 1 to 8 players"),
        (5, {"surface": "-3..3,-3..3"}, "does not hold the start card at 7,0"),
        (2, {"first_seat": 3}, "seats 1 to 2, not 3"),
        (2, {"quick": True}, "no setting 'quick'"),
    ],
)
def test_a_table_that_cannot_be_played_is_refused(
    service: TableService, players: int, options: dict[str, object], says: str
) -> None:
    with pytest.raises(StateError, match=says):
        service.create_table("t", players, game="clustered", options=options)


def test_an_imported_record_carries_on_at_a_table(service: TableService) -> None:
    sim = Table([Player("B", "Ann"), Player("O", "Bo")], seed=8)
    sim.play(turns=10)
    table_id, _ = service.import_record(records.record_json(sim.game), "again")
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    view = service.view(table_id)
    assert view["stage"] == "turn" and view["game"]["turns"] == 10
    assert service.export(table_id) == records.record_json(sim.game)


def test_a_seat_out_of_chess_clock_time_keeps_its_turn_without_a_clock(
    service: TableService, clock: FakeClock
) -> None:
    """With a chess clock, a seat whose time has run out still has to play its turn (K3.5):
    the turn stays with it and no clock runs for it any more."""
    table_id = seated(service, turn_clock=TurnClock("player", 30))
    clock.advance(31)
    view = service.view(table_id)
    assert view["last"]["kind"] == "time_up"
    assert (view["acting"], view["remaining"], view["banks"]) == (1, None, {"1": 0.0})
    service.submit(table_id, 1, "B-wild 1,0", final=True)
    assert service.view(table_id)["remaining"] == 30  # seat 2's own clock
