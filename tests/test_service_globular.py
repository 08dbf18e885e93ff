"""Globular Cluster at the table: whole games through the TableService with a FakeClock.

Seats choose their colours in seat order; each stage is the acting seat's turn; a turn is sent
whole (ending with ``end``) or in parts (a mine on its own, so its roll is seen before the
player goes on: G8.7), each part checked and refused in the player's words; the turn's clock
runs on across the parts and its running out plays ``timeout``; the host's undo takes back the
latest part; a restart rebuilds the table exactly; the export is a record that replays.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.errors import StateError
from companion.globular.bots import candidate_actions
from companion.globular.game import GlobularGame
from companion.globular.geometry import Position
from companion.globular.notation import parse_line
from companion.globular.record import load_record
from companion.globular.session import STAGES
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import TurnClock
from companion.service.session import Stage, SubmissionError

GAME = "globular-cluster"


def seated(service: TableService, players: int = 2, **kwargs: object) -> str:
    table_id, _ = service.create_table("Cluster", players, game=GAME, seed=11, **kwargs)  # type: ignore[arg-type]
    colours = ["red", "blue", "green", "black"]
    for seat in range(1, players + 1):
        service.join(table_id, seat, f"Player {seat}")
        service.choose(table_id, seat, {"colour": colours[seat - 1]})
    view = service.view(table_id)
    if view["stage"] == "discussion":
        service.skip(table_id)
    return table_id


def mirror(service: TableService, table_id: str) -> GlobularGame:
    session = service.table(table_id).session
    assert session is not None
    return session.core  # type: ignore[attr-defined,no-any-return]


def a_turn(service: TableService, table_id: str, rng: random.Random) -> str:
    """A turn a careful player would write: the tile's first legal place, then a few allowed
    actions found with the session's own preview; a mine is sent on its own first."""
    view = service.view(table_id)
    seat = view["acting"]
    placements = view["game"]["turn"]["placements"]
    lines = []
    if placements:
        first = sorted(placements)[0]
        lines.append(f"place {first} {placements[first][0]}")
    session = service.table(table_id).session
    assert session is not None
    for _ in range(3):
        game = mirror(service, table_id)
        preview = game.preview([parse_line(text) for text in lines])
        options = candidate_actions(preview.state)
        rng.shuffle(options)
        for option in options[:8]:
            draft = "\n".join([*lines, option.text()])
            if session.preview(seat, draft)["playable"]:  # type: ignore[attr-defined]
                if option.keyword == "mine":
                    service.submit(table_id, seat, draft, final=True)
                    lines = []
                else:
                    lines.append(option.text())
                break
    service.submit(table_id, seat, "\n".join([*lines, "end"]), final=True)
    return seat  # type: ignore[no-any-return]


def test_a_whole_game_through_the_service(service: TableService, clock: FakeClock) -> None:
    table_id = seated(service, 3)
    view = service.view(table_id)
    assert (view["stage"], view["acting"], view["play"]) == ("turn", 1, "turns")
    rng = random.Random(3)
    kinds = set()
    with service.subscribe(table_id) as seen:
        for _ in range(200):
            view = service.view(table_id)
            if view["stage"] == "over":
                break
            kinds.add(view["stage"])
            clock.advance(5)
            a_turn(service, table_id, rng)
        events = [e.kind for e in seen.drain()]
    view = service.view(table_id)
    assert view["stage"] == "over"
    assert kinds == {"turn", "scoring", "supernova", "last-turns", "final"}
    assert events[-1] == "game_over" and "move" in events
    result = view["game"]["result"]
    totals = view["game"]["score_sheet"]["totals"]
    assert set(totals) == {"red", "blue", "green"} and result["vp"] == totals
    rounds = view["game"]["score_sheet"]["rounds"]
    assert len(rounds) == 3 and rounds[-1]["final"]
    assert rounds[-1]["running"] == totals
    record = service.export(table_id)
    assert load_record(record).state.over


def test_a_mine_sent_on_its_own_leaves_the_turn_with_the_seat_on_the_same_clock(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, turn_clock=TurnClock("turn", 60))
    placements = service.view(table_id)["game"]["turn"]["placements"]
    first = sorted(placements)[0]
    clock.advance(20)
    service.submit(
        table_id, 1, f"place {first} {placements[first][0]}\nmove m7>k7\nmine k7", final=True
    )
    view = service.view(table_id)
    assert view["acting"] == 1 and view["stage"] == "turn"
    assert view["remaining"] == pytest.approx(40)
    assert view["game"]["turn"]["ap"] == 6
    mined = view["last"]["lines"][-1]["text"]
    assert mined.startswith("mine k7 roll ")  # the roll is seen before the player goes on
    service.submit(table_id, 1, "end", final=True)
    assert service.view(table_id)["acting"] == 2
    assert service.view(table_id)["remaining"] == pytest.approx(60)


def test_a_refused_turn_says_why_in_the_players_words_and_stores_nothing(
    service: TableService,
) -> None:
    table_id = seated(service)
    before = service.storage.load(table_id).entries
    with pytest.raises(SubmissionError, match=r"line 1 \(move m7>k7\): place the .* first"):
        service.submit(table_id, 1, "move m7>k7\nend", final=True)
    with pytest.raises(SubmissionError, match=r"'fly' is not a word of the notation"):
        service.submit(table_id, 1, "fly m7>k7", final=True)
    with pytest.raises(SubmissionError, match=r"line 2 \(mine k7 roll 4\).*\(G8\.3\)"):
        placements = service.view(table_id)["game"]["turn"]["placements"]
        first = sorted(placements)[0]
        service.submit(table_id, 1, f"place {first} {placements[first][0]}\nmine k7 roll 4")
    with pytest.raises(StateError, match="it is seat 1's turn, not seat 2's"):
        service.submit(table_id, 2, "end", final=True)
    assert service.storage.load(table_id).entries == before


def test_the_preview_shows_each_lines_cost_and_the_ap_left(service: TableService) -> None:
    table_id = seated(service)
    session = service.table(table_id).session
    placements = service.view(table_id)["game"]["turn"]["placements"]
    first = sorted(placements)[0]
    draft = f"place {first} {placements[first][0]}\nmove m7>k7 x2\nmine k7\nmove m7>l6"
    preview = session.preview(1, draft)  # type: ignore[union-attr]
    assert [(line["cost"], line["ap_left"]) for line in preview["lines"]] == [
        (0, 10),
        (2, 8),
        (3, 5),
    ]
    assert preview["refused"]["ruling"] == "G8.7"  # the mine's die is rolled when played
    preview = session.preview(1, "move m7>k7")  # type: ignore[union-attr]
    assert preview["refused"]["message"].endswith("(G3.1)")
    with pytest.raises(StateError, match="it is seat 1's turn"):
        service.preview(table_id, 2, "end")
    with pytest.raises(SubmissionError, match="not a word of the notation"):
        service.preview(table_id, 1, "fly")
    routed = service.preview(table_id, 1, "move m7>k7")
    assert routed["playable"] is False and routed["says"].startswith("line 1 (move m7>k7)")


def test_when_the_clock_runs_out_the_tile_is_placed_and_the_turn_ends(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, turn_clock=TurnClock("turn", 30))
    drawn = service.view(table_id)["game"]["turn"]["to_place"]
    clock.advance(31)
    view = service.view(table_id)
    assert view["acting"] == 2
    assert view["last"]["timeout"] and view["last"]["lines"][0]["text"] == "timeout"
    assert any(drawn in cell["code"] for cell in view["game"]["board"] if cell["position"] != "m7")
    service.skip(table_id)  # the host skips black's turn: the same as its clock running out
    assert service.view(table_id)["acting"] == 1


def test_a_deadline_after_part_of_a_turn_ends_the_rest(
    service: TableService, clock: FakeClock
) -> None:
    table_id = seated(service, turn_clock=TurnClock("turn", 30))
    placements = service.view(table_id)["game"]["turn"]["placements"]
    first = sorted(placements)[0]
    service.submit(table_id, 1, f"place {first} {placements[first][0]}\nmove m7>k7", final=True)
    clock.advance(31)
    view = service.view(table_id)
    assert view["acting"] == 2 and view["last"]["timeout"]


def test_the_host_undo_takes_back_the_latest_part(service: TableService) -> None:
    table_id = seated(service)
    placements = service.view(table_id)["game"]["turn"]["placements"]
    first = sorted(placements)[0]
    place = f"place {first} {placements[first][0]}"
    service.submit(table_id, 1, f"{place}\nmove m7>k7\nmine k7", final=True)
    roll = service.view(table_id)["last"]["lines"][-1]["text"]
    service.submit(table_id, 1, "end", final=True)
    assert service.view(table_id)["acting"] == 2
    service.undo(table_id)
    view = service.view(table_id)
    assert view["acting"] == 1 and view["game"]["turn"]["ap"] == 6
    service.undo(table_id)
    assert service.view(table_id)["game"]["turn"]["ap"] == 10
    service.submit(table_id, 1, f"{place}\nmove m7>k7\nmine k7", final=True)
    assert service.view(table_id)["last"]["lines"][-1]["text"] == roll  # same seed, same roll
    with pytest.raises(StateError, match="no corrections"):
        service.correct(table_id, "pennies k7 3", "miscounted")


def test_a_restarted_service_rebuilds_the_table_exactly(db: Path, clock: FakeClock) -> None:
    with TableService(Storage(db), clock=clock) as first:
        table_id = seated(first, 2, turn_clock=TurnClock("player", 300))
        rng = random.Random(5)
        for _ in range(9):
            clock.advance(3)
            a_turn(first, table_id, rng)
        placements = first.view(table_id)["game"]["turn"]["placements"]
        if placements:
            name = sorted(placements)[0]
            first.submit(
                table_id,
                first.view(table_id)["acting"],
                f"place {name} {placements[name][0]}",
                final=True,
            )
        before = first.view(table_id)
        record = first.export(table_id)
    with TableService(Storage(db), clock=clock) as again:
        assert again.view(table_id) == before
        assert again.export(table_id) == record


def test_a_record_is_carried_on_at_a_new_table(service: TableService) -> None:
    table_id = seated(service)
    rng = random.Random(8)
    for _ in range(5):
        a_turn(service, table_id, rng)
    record = service.export(table_id)
    new_id, _ = service.import_record(record, "Carried on")
    assert service.export(new_id) == record
    assert service.view(new_id)["game"]["turn"] == service.view(table_id)["game"]["turn"]
    last_ended = load_record(record).turns[-2]
    service.undo(new_id)  # the host's undo takes back one recorded turn
    turn = service.view(new_id)["game"]["turn"]
    assert (turn["seat"], turn["number"], turn["ap"]) == (last_ended.seat, last_ended.number, 10)


def test_seats_choose_their_own_colours_in_seat_order(service: TableService) -> None:
    table_id, _ = service.create_table("Cluster", 2, game=GAME, seed=1)
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    with pytest.raises(StateError, match="seat 1's turn to choose"):
        service.choose(table_id, 2, {"colour": "red"})
    service.choose(table_id, 1, {"colour": "green"})
    with pytest.raises(SubmissionError, match="Green is taken by seat 1"):
        service.choose(table_id, 2, {"colour": "GREEN"})
    with pytest.raises(SubmissionError, match="not a colour"):
        service.choose(table_id, 2, {"colour": "purple"})
    service.choose(table_id, 2, {"colour": "black"})
    view = service.view(table_id)
    assert [p["colour"] for p in view["game"]["players"]] == ["green", "black"]


def test_house_rules_are_set_for_a_new_table(service: TableService) -> None:
    table_id, _ = service.create_table(
        "Cluster", 2, game=GAME, seed=1, options={"dice": "physical", "stack": "physical"}
    )
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    service.choose(table_id, 1, {"colour": "red"})
    service.choose(table_id, 2, {"colour": "blue"})
    if service.view(table_id)["stage"] == "discussion":  # none before a turn-taking game
        service.skip(table_id)
    view = service.view(table_id)
    assert view["game"]["turn"]["awaiting_draw"]
    service.submit(table_id, 1, "draw gr2", final=True)
    assert service.view(table_id)["game"]["turn"]["to_place"] == "gr2"
    with pytest.raises(StateError, match="no house rule 'speed'"):
        service.create_table("Cluster", 2, game=GAME, options={"speed": "fast"})


def test_a_camera_reading_is_compared_and_never_applied(service: TableService) -> None:
    table_id = seated(service)
    before = service.export(table_id)
    result = service.report_scan(table_id, {"k7": {"tile": "bka", "pennies": 0}, "m7": {}})
    assert result["discrepancies"] == [
        {"sector": "k7", "message": "k7: the record has 1 pennies, the camera sees 0"}
    ]
    assert set(result["missing"]) == {"l6", "l8"}
    assert service.view(table_id)["scan"]["discrepancies"] == result["discrepancies"]
    assert service.export(table_id) == before


def test_each_stage_has_a_light_of_its_own_and_none_is_the_game_overs() -> None:
    """The panels' phase LED tells the stages apart; magenta stays the end of the game's."""
    lights = [stage.light for stage in STAGES]
    assert len(set(lights)) == len(lights)
    assert Stage.OVER.light not in lights


def test_g8_8_the_drawn_tile_the_camera_sees_placed_is_entered_for_the_seat_to_confirm(
    service: TableService,
) -> None:
    table_id = seated(service)  # seat 1 drew gr2; k5 takes it only with the tick bottom-right
    before = service.export(table_id)
    result = service.report_scan(table_id, {"k5": {"tile": "gr2", "corner": "br"}})
    assert (result["moves"], result["entered"]) == (["place k5 br"], "place k5 br")
    assert service.export(table_id) == before  # entered as pending, not played
    service.set_ready(table_id, 1)  # the seat's "done" confirms it
    view = service.view(table_id)
    assert view["acting"] == 1 and view["game"]["turn"]["placed"] == "k5"


def test_g8_8_an_unread_tick_corner_leaves_a_choice_and_enters_nothing(
    service: TableService,
) -> None:
    table_id = seated(service)
    result = service.report_scan(table_id, {"j6": {"tile": "gr2"}})
    assert (result["moves"], result["entered"]) == (["place j6 tr", "place j6 br"], None)
    assert not service.view(table_id)["seats"][0]["submitted"]


def test_g8_8_a_tile_that_is_not_the_drawn_one_is_only_a_difference(
    service: TableService,
) -> None:
    table_id = seated(service)
    result = service.report_scan(table_id, {"k5": {"tile": "rd3", "corner": "br"}})
    assert (result["moves"], result["entered"]) == ([], None)
    assert [d["message"] for d in result["discrepancies"]] == [
        "k5: the camera sees rd3 where the record has no tile"
    ]


def test_g8_8_coins_the_camera_sees_moved_are_the_acting_players_move(
    service: TableService,
) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "place k5 br", final=True)
    both = {"red": {"coins": 9, "leader": True}, "blue": {"coins": 12, "leader": True}}
    seen = {"m7": {"pieces": both}, "k7": {"pieces": {"red": {"coins": 3}}}}
    result = service.report_scan(table_id, seen)
    assert (result["moves"], result["entered"]) == (["move m7>k7 x3"], "move m7>k7 x3")
    service.set_ready(table_id, 1)
    assert mirror(service, table_id).state.player(1).coins_at(Position.parse("k7")) == 3
    led = {"red": {"coins": 9, "leader": False}, "blue": {"coins": 12, "leader": True}}
    seen = {"m7": {"pieces": led}, "k7": {"pieces": {"red": {"coins": 3, "leader": True}}}}
    result = service.report_scan(table_id, seen)
    assert result["moves"] == ["move m7>k7 leader"]
