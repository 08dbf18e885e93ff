"""Cluster at the table: whole games through ``TableService`` on a fake clock, one seat played by
the computer (through the service like any player), draws, swap, resignation, the turn clock,
undo, the camera's readings and a restart from the SQLite file."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest

from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.players import GreedyPlayer
from companion.cluster_peg.position import Position, setup
from companion.cluster_peg.record import load_record, record_json
from companion.cluster_peg.scan import PegScan
from companion.errors import StateError
from companion.service import FakeClock, Storage, TableService
from companion.service.clock import TurnClock
from companion.service.computer import ComputerPlayers, attach
from companion.service.session import SubmissionError

QUICK_COMPUTER = {"computer_level": "medium", "computer_seconds": 1}


def new_table(service: TableService, **options: object) -> str:
    table_id, _ = service.create_table("Pegs", 2, game="cluster", seed=11, options=options or None)
    return table_id


def seated(service: TableService, **options: object) -> str:
    table_id = new_table(service, **options)
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    return table_id


def game_of(service: TableService, table_id: str) -> dict:
    return service.view(table_id)["game"]


def position(service: TableService, table_id: str) -> Position:
    return Position.parse(game_of(service, table_id)["position"])


def play(service: TableService, table_id: str, *moves: str) -> None:
    for move in moves:
        service.submit(table_id, service.view(table_id)["acting"], move, final=True)


def test_p2_1_cluster_is_for_two_players_only(service: TableService) -> None:
    for players in (1, 3, 4):
        with pytest.raises(StateError, match="Cluster is for 2 players, not"):
            service.create_table("Pegs", players, game="cluster")
    from companion.cluster_peg.session import ClusterSetup

    with pytest.raises(StateError, match="no fair setup for more"):
        ClusterSetup(3)


def test_the_game_starts_when_both_seats_have_joined_red_moves_first(service) -> None:
    table_id = new_table(service)
    service.join(table_id, 1, "Ann")
    assert service.view(table_id)["stage"] == "lobby"
    service.join(table_id, 2, "Bo")
    view = service.view(table_id)
    assert (view["stage"], view["acting"], view["stage_info"]["kind"]) == ("move", 1, "turn")
    assert view["game"]["to_move"] == "red" and view["game"]["seats"] == {"red": 1, "blue": 2}
    assert position(service, table_id) == setup("64B")


def test_p4_8_who_plays_red_seat_2_or_drawn_by_lot_and_recorded(service) -> None:
    table_id = seated(service, red="seat 2", setup="46")
    assert service.view(table_id)["acting"] == 2
    lots = [seated(service, red="lots") for _ in range(2)]
    for table_id in lots:
        data = json.loads(service.export(table_id))
        assert data["players"]["by_lot"] is True
        red = service.view(table_id)["game"]["seats"]["red"]
        assert data["players"]["red"] == f"seat {red}"


def test_a_move_is_checked_played_and_the_turn_passes(service) -> None:
    table_id = seated(service)
    with pytest.raises(SubmissionError) as refused:
        service.submit(table_id, 1, "c1-c2", final=True)
    assert refused.value.reasons == ("c2 is taken by a Red tall peg",)
    with pytest.raises(StateError, match="seat 1's turn"):
        service.submit(table_id, 2, "f1-g1", final=True)
    assert service.submit(table_id, 1, " C3*G1 ", final=True) == "c3*g1"
    view = service.view(table_id)
    assert view["acting"] == 2
    assert view["last"]["kind"] == "move" and view["last"]["move"] == "c3*g1"
    assert view["last"]["jumped"] == ["d2", "e2", "f1"]
    assert view["game"]["last"]["move"] == "c3*g1"


def test_the_preview_says_what_a_draft_move_would_do(service) -> None:
    table_id = seated(service)
    said = service.preview(table_id, 1, "c3*g1")
    assert said == {
        "text": "c3*g1",
        "says": "the short peg in c3 jumps over d2, e2, f1 to g1: height 1",
    }
    with pytest.raises(SubmissionError, match="jumps over the empty hole"):
        service.preview(table_id, 1, "c5*h2")


def greedy_game(
    service: TableService, table_id: str, *, computer: ComputerPlayers, human: int = 1
) -> int:
    """The human seat plays greedily, the computer answers, until the game ends."""
    rng = random.Random(3)
    greedy = GreedyPlayer(rng)
    moves = 0
    while service.view(table_id)["stage"] != "over":
        acting = service.view(table_id)["acting"]
        if acting == human:
            move = greedy.choose(position(service, table_id))
            service.submit(table_id, human, move.text(), final=True)
        else:
            assert computer.play_pending() == 1
        moves += 1
        assert moves < 400
    return moves


def test_a_whole_game_with_one_seat_played_by_the_computer(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "t.db"
    with TableService(Storage(db), clock=clock) as service:
        table_id = new_table(service, setup="46", computer="seat 2", **QUICK_COMPUTER)
        computer = ComputerPlayers(service)
        service.join(table_id, 1, "Ann")
        assert computer.play_pending() == 0  # it joins seat 2; it is Red's (seat 1's) turn
        view = service.view(table_id)
        assert view["seats"][1]["name"] == "Computer (medium)" and view["stage"] == "move"
        assert view["game"]["computer"] == {"2": "Computer (medium)"}
        with pytest.raises(StateError, match="seat 1's turn"):
            service.submit(table_id, 2, "f1-e1", final=True)
        greedy_game(service, table_id, computer=computer)
        view = service.view(table_id)
        result = view["game"]["result"]
        assert result["reason"] in ("goal", "repetition", "turn-limit")
        exported = service.export(table_id)
        game, players = load_record(exported)
        assert record_json(game, players=players) == exported
        computer_entries = [
            e
            for e in service.storage.entries(table_id)
            if (e.request_id or "").startswith("2:computer-")
        ]
        assert len(computer_entries) == (len(game.tokens) // 2)  # every Blue move, durable
    with TableService(Storage(db), clock=clock) as reopened:
        assert reopened.export(table_id) == exported


def test_the_computer_answers_after_a_restart_and_never_twice(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "t.db"
    with TableService(Storage(db), clock=clock) as service:
        table_id = new_table(service, computer="seat 2", **QUICK_COMPUTER)
        ComputerPlayers(service).play_pending()
        service.join(table_id, 1, "Ann")
        play(service, table_id, "c3*g1")
    with TableService(Storage(db), clock=clock) as service:
        computer = ComputerPlayers(service)
        assert computer.play_pending() == 1
        assert computer.play_pending() == 0  # seat 1's turn now
        assert service.view(table_id)["acting"] == 1
        assert len(game_of(service, table_id)["tokens"]) == 2


def test_the_computers_answer_is_dropped_when_the_table_moved_on(service) -> None:
    table_id = new_table(service, computer="seat 2", **QUICK_COMPUTER)
    computer = ComputerPlayers(service)
    computer.play_pending()
    service.join(table_id, 1, "Ann")
    play(service, table_id, "c3*g1")
    session = service.table(table_id).session
    original = session.computer_move

    def slow(seat, *, seconds=None):
        think = original(seat, seconds=seconds)

        def then_undo() -> str:
            answer = think()
            service.undo(table_id)  # the host takes Red's move back meanwhile
            return answer

        return then_undo

    session.computer_move = slow  # type: ignore[method-assign]
    assert computer.play_pending() == 0
    view = service.view(table_id)
    assert view["acting"] == 1 and game_of(service, table_id)["tokens"] == []


def test_the_computer_attachment_plays_in_its_own_thread(tmp_path: Path) -> None:
    with TableService(Storage(tmp_path / "t.db")) as service:
        table_id = new_table(service, computer="seat 1", computer_level="easy")
        players = attach(service, table_id, {})
        try:
            service.join(table_id, 2, "Bo")
            deadline = time.monotonic() + 20
            while service.view(table_id)["acting"] != 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert service.view(table_id)["acting"] == 2  # the computer (Red) has moved
            assert len(game_of(service, table_id)["tokens"]) == 1
        finally:
            players.close()
    assert players.closed


def test_the_computer_attachment_takes_no_keys(service) -> None:
    from companion.service.attachments import ConfigError

    with pytest.raises(ConfigError, match="no key 'level'"):
        attach(service, "x", {"level": "expert"})


def test_p5_9_a_player_resigns_on_their_turn_or_the_host_records_it_any_time(service) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "resign", final=True)
    assert game_of(service, table_id)["result"]["winner"] == 2
    assert game_of(service, table_id)["result"]["reason"] == "resignation"
    other = seated(service)
    service.correct(other, "resign blue", "Bo resigned while Ann was thinking")
    assert game_of(service, other)["result"]["winner"] == 1
    assert service.view(other)["stage"] == "over"
    assert json.loads(service.export(other))["tokens"] == ["resign-b"]


def test_p5_10_a_draw_needs_both_players_an_offer_then_an_acceptance(service) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "draw", final=True)  # Ann offers; it is still her turn
    view = service.view(table_id)
    assert view["acting"] == 1 and view["game"]["draw_offer"] == 1
    assert view["last"]["kind"] == "draw_offer"
    play(service, table_id, "c3*g1")
    assert service.view(table_id)["game"]["draw_offer"] == 1  # it stands for Bo to answer
    service.submit(table_id, 2, "draw", final=True)  # Bo accepts
    result = game_of(service, table_id)["result"]
    assert result["reason"] == "agreement" and result["winner"] is None


def test_p5_10_a_move_declines_a_standing_offer(service) -> None:
    table_id = seated(service)
    service.submit(table_id, 1, "draw", final=True)
    play(service, table_id, "c3*g1", "f8-g8")  # Bo moves instead of accepting
    assert game_of(service, table_id)["draw_offer"] is None
    service.submit(table_id, 1, "draw", final=True)  # a new offer, not an agreement
    assert service.view(table_id)["stage"] == "move"


def test_p5_11_swap_through_the_service(service) -> None:
    table_id = seated(service, swap=True)
    with pytest.raises(SubmissionError, match="only allowed instead of Blue's first move"):
        service.submit(table_id, 1, "swap", final=True)
    play(service, table_id, "c3*g1")
    assert game_of(service, table_id)["can_swap"] is True
    service.submit(table_id, 2, "swap", final=True)
    view = service.view(table_id)
    assert view["game"]["seats"] == {"red": 2, "blue": 1}
    assert view["acting"] == 1 and view["game"]["to_move"] == "blue"
    assert view["last"]["kind"] == "swap"
    assert json.loads(service.export(table_id))["tokens"] == ["c3*g1", "swap"]


def test_swap_is_refused_when_the_house_rule_is_off(service) -> None:
    table_id = seated(service)
    play(service, table_id, "c3*g1")
    with pytest.raises(SubmissionError, match="house rule swap is off"):
        service.submit(table_id, 2, "swap", final=True)


def test_a_turn_whose_clock_runs_out_loses_the_game(service, clock: FakeClock) -> None:
    table_id, _ = service.create_table("Pegs", 2, game="cluster", turn_clock=TurnClock("turn", 30))
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    play(service, table_id, "c3*g1")
    clock.advance(31)
    service.tick()
    view = service.view(table_id)
    assert view["stage"] == "over" and view["last"]["kind"] == "timeout"
    assert view["game"]["result"]["winner"] == 1
    assert json.loads(service.export(table_id))["tokens"] == ["c3*g1", "resign-b"]


def test_the_hosts_undo_gives_the_turn_back(service) -> None:
    table_id = seated(service)
    play(service, table_id, "c3*g1", "f8-g8")
    service.undo(table_id)
    view = service.view(table_id)
    assert view["acting"] == 2 and view["game"]["tokens"] == ["c3*g1"]
    with pytest.raises(StateError, match="not a Cluster correction"):
        service.correct(table_id, "move c1 b1", "oops")


def test_the_winning_group_is_in_the_view_when_a_game_is_won(service) -> None:
    near = Position.parse("46 7/6/RrRrRr1/rRrRr1/6R/BbBbBb/bBbBbB1 r")
    table_id, _ = service.create_table("Pegs", 2, game="cluster", board=near)
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    with service.subscribe(table_id) as seen:
        play(service, table_id, "e7-d6")
        kinds = [e.kind for e in iter(lambda: seen.get(timeout=0), None)]
    result = game_of(service, table_id)["result"]
    assert result["winner"] == 1 and result["winner_colour"] == "red"
    assert sorted(result["group"]) == sorted(
        [f"c{n}" for n in range(1, 7)] + [f"d{n}" for n in range(1, 7)]
    )
    assert "game_over" in kinds


def test_a_record_carries_on_at_a_table(service) -> None:
    table_id = seated(service, setup="46")
    play(service, table_id, "a1*a7", "f1-e1")
    record = service.export(table_id)
    carried, _ = service.import_record(record, "Rematch")
    view = service.view(carried)
    assert view["game"]["tokens"] == ["a1*a7", "f1-e1"]
    assert view["game"]["position"] == game_of(service, table_id)["position"]


def test_the_camera_enters_the_one_move_it_saw(service) -> None:
    table_id = seated(service)
    after = Position.parse(game_of(service, table_id)["position"])
    from companion.cluster_peg.moves import play as play_move

    seen = PegScan.from_position(play_move(after, "c3*g1"))
    result = service.report_scan(table_id, seen)
    assert result["moves"] == ["c3*g1"] and result["entered"] == "c3*g1"
    assert service.view(table_id)["pending"] == {"seat": 1, "text": "c3*g1"}
    service.set_ready(table_id, 1)  # the seat's "done"
    assert game_of(service, table_id)["tokens"] == ["c3*g1"]


def test_the_camera_asks_when_unknown_holes_leave_several_moves(service) -> None:
    table_id = seated(service)
    start = position(service, table_id)
    from companion.cluster_peg.moves import play as play_move

    # c1-b1 was played; the camera could not read b1 or b2, but saw c1 empty. c2-b1 and
    # c2-b2 would empty c2, which it saw full; c1-b1 is the only move that fits, but only
    # through b1, which it cannot read (c1's peg may have been knocked off): not entered.
    seen = PegScan.from_position(play_move(start, "c1-b1"), unknown=["b1", "b2"])
    result = service.report_scan(table_id, seen)
    assert result["moves"] == [] and result["entered"] is None
    assert [d["message"] for d in result["discrepancies"]] == [
        "the camera cannot read b1: if Red played c1-b1, uncover it to let it see the move"
    ]
    seen = PegScan.from_position(play_move(start, "c3-b2"), unknown=["b2", "b3"])
    result = service.report_scan(table_id, seen)
    assert result["moves"] == ["c3-b2", "c3-b3"] and result["entered"] is None


def test_the_camera_reports_an_impossible_change_and_never_enters_it(service) -> None:
    table_id = seated(service)
    start = position(service, table_id)
    from companion.cluster_peg.moves import play as play_move

    two = play_move(play_move(start, "c1-b1"), "f1-g1").with_to_move(Colour.RED)
    result = service.report_scan(table_id, PegScan.from_position(two))
    assert result["moves"] == [] and result.get("entered") is None
    messages = [d["message"] for d in result["discrepancies"]]
    assert any("no legal move of Red explains" in m for m in messages)
    out_of_turn = play_move(start.with_to_move(Colour.BLUE), "f1-g1")
    result = service.report_scan(table_id, PegScan.from_position(out_of_turn))
    assert any("looks like Blue's move f1-g1" in d["message"] for d in result["discrepancies"])
    assert game_of(service, table_id)["tokens"] == []


def test_a_game_between_two_computers_plays_itself(service) -> None:
    table_id = new_table(service, setup="46", computer="both", computer_level="easy")
    computer = ComputerPlayers(service)
    for _ in range(300):
        if service.view(table_id)["stage"] == "over":
            break
        computer.play_pending()
    assert service.view(table_id)["stage"] == "over"


def test_threads_can_read_the_table_while_the_computer_thinks(service) -> None:
    table_id = new_table(service, computer="seat 2", computer_level="expert", computer_seconds=1)
    computer = ComputerPlayers(service)
    computer.play_pending()
    service.join(table_id, 1, "Ann")
    play(service, table_id, "c3*g1")
    reads = []
    worker = threading.Thread(target=computer.play_pending)
    worker.start()
    while worker.is_alive():
        reads.append(service.view(table_id)["acting"])
        time.sleep(0.01)
    worker.join()
    assert reads and set(reads) <= {2, 1}
    assert service.view(table_id)["acting"] == 1
