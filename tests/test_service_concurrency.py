"""The table service under concurrent callers (issue 3): request threads, the timer, and
GPIO-style callbacks all call in at once; one lock serialises them, so no submission is lost,
doubled or mixed up, and a phase ends exactly once.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable

from companion.local_cluster.galaxy import Galaxy, Sector
from companion.service import Storage, TableService
from companion.service.events import Event

SEATS = 8
COLOURS = ["red", "green", "blue", "yellow", "aqua", "purple", "pink", "white"]
EDITS = 50
SETUP_ENTRIES = 1 + SEATS + SEATS + 1  # create, joins, choices, the skipped discussion


def line_galaxy(length: int) -> Galaxy:
    ids = [f"S{n}" for n in range(1, length + 1)]
    return Galaxy.from_sectors([Sector(s, 1) for s in ids], list(itertools.pairwise(ids)))


def home(seat: int) -> str:
    return f"S{2 * seat - 1}"


def texts(seat: int) -> tuple[str, str]:
    """Two valid order texts for ``seat``'s destroyer; the service returns them unchanged."""
    return (f"HOLD {home(seat)}", f"ADVANCE {home(seat)} S{2 * seat}")


def last_text(seat: int) -> str:
    return texts(seat)[(EDITS - 1) % 2]


def eight_seat_table_in_command(service: TableService) -> str:
    """Seats 1-8 on a 16-sector line, homes S1, S3, ... S15, in turn 1's command phase."""
    table_id, _ = service.create_table(
        "eight", SEATS, board=line_galaxy(2 * SEATS), options={"roll_minerals": False}, seed=5
    )
    for seat in range(1, SEATS + 1):
        service.join(table_id, seat, f"Player {seat}")
    for seat in range(SEATS, 0, -1):
        service.choose(table_id, seat, {"colour": COLOURS[seat - 1], "home": home(seat)})
    service.skip(table_id)
    assert service.view(table_id)["stage"] == "command"
    assert len(service.storage.entries(table_id)) == SETUP_ENTRIES
    return table_id


def run_together(workers: list[Callable[[], None]]) -> list[BaseException]:
    """Start every worker at the same moment; return what they raised."""
    barrier = threading.Barrier(len(workers))
    errors: list[BaseException] = []

    def wrap(work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                barrier.wait()
                work()
            except BaseException as err:  # reported to the test
                errors.append(err)

        return run

    threads = [threading.Thread(target=wrap(w)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a worker hung"
    return errors


def phases(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.data["stage"], e.data["turn"]) for e in events if e.kind == "phase"]


def test_eight_seats_editing_orders_at_once_keep_each_seats_last_text(service, clock, db):
    table_id = eight_seat_table_in_command(service)
    accepted: dict[int, list[str]] = {seat: [] for seat in range(1, SEATS + 1)}
    stop = threading.Event()

    def seat_worker(seat: int) -> Callable[[], None]:
        def work() -> None:
            for edit in range(EDITS):
                accepted[seat].append(service.submit(table_id, seat, texts(seat)[edit % 2]))

        return work

    def ticker() -> None:
        while not stop.is_set():
            if clock.now() < clock.history[0] + 100:  # well inside the 180 s command phase
                clock.advance(0.01)
            service.tick()

    tick_thread = threading.Thread(target=ticker)
    tick_thread.start()
    try:
        errors = run_together([seat_worker(seat) for seat in range(1, SEATS + 1)])
    finally:
        stop.set()
        tick_thread.join(timeout=30)
    assert errors == []
    assert service.view(table_id)["stage"] == "command"
    for seat in range(1, SEATS + 1):
        assert accepted[seat] == [texts(seat)[i % 2] for i in range(EDITS)]
        assert service.view(table_id, seat)["you"]["submission"] == last_text(seat)
    log = service.storage.entries(table_id)
    submits = [e for e in log if e.kind == "submit"]
    assert len(submits) == SEATS * EDITS
    assert len(log) == SETUP_ENTRIES + SEATS * EDITS
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    for seat in range(1, SEATS + 1):
        mine = [e.data["text"] for e in submits if e.data["seat"] == seat]
        assert mine == [texts(seat)[i % 2] for i in range(EDITS)]
    view = service.view(table_id)
    service.close()
    with TableService(Storage(db), clock=clock) as again:
        assert again.view(table_id) == view
        for seat in range(1, SEATS + 1):
            assert again.view(table_id, seat)["you"]["submission"] == last_text(seat)
        again.skip(table_id)
        outcomes = again.view(table_id)["last"]["outcomes"]
        assert sorted(o["text"] for o in outcomes) == sorted(last_text(s) for s in accepted)


def test_concurrent_readers_never_see_another_seats_orders(service):
    table_id = eight_seat_table_in_command(service)
    leaks: list[str] = []

    def writer(seat: int) -> Callable[[], None]:
        def work() -> None:
            for edit in range(10):
                service.submit(table_id, seat, texts(seat)[edit % 2])

        return work

    def reader(seat: int) -> Callable[[], None]:
        def work() -> None:
            for _ in range(30):
                seen = json.dumps(service.view(table_id, seat))
                public = json.dumps(service.view(table_id))
                for other in range(1, SEATS + 1):
                    for text in map(json.dumps, texts(other)):  # quoted: whole strings
                        if text in public or (other != seat and text in seen):
                            leaks.append(f"seat {seat} saw {text!r}")

        return work

    workers = [writer(s) for s in range(1, SEATS + 1)] + [reader(s) for s in (1, 4, 8)]
    assert run_together(workers) == []
    assert leaks == []


def test_set_ready_from_every_seat_at_once_ends_the_phase_exactly_once(service):
    table_id = eight_seat_table_in_command(service)
    with service.subscribe(table_id) as events:
        errors = run_together(
            [lambda seat=seat: service.set_ready(table_id, seat) for seat in range(1, SEATS + 1)]
        )
        seen = events.drain()
    assert errors == []
    assert [e.kind for e in seen].count("ready") == SEATS
    assert [e.kind for e in seen].count("results") == 1
    assert phases(seen) == [("discussion", 2)]
    log = service.storage.entries(table_id)[SETUP_ENTRIES:]
    assert sorted(e.data["seat"] for e in log) == list(range(1, SEATS + 1))
    assert {e.kind for e in log} == {"ready"}


def test_a_bouncing_button_with_one_request_id_counts_once(service):
    """A GPIO callback may fire several times for one press; the press's request id makes the
    repeats harmless, so the phase ends once and the next discussion is untouched."""
    table_id = eight_seat_table_in_command(service)

    def presses(seat: int) -> Callable[[], None]:
        def work() -> None:
            for _ in range(5):
                service.set_ready(table_id, seat, request_id=f"seat-{seat}-press-1")

        return work

    with service.subscribe(table_id) as events:
        errors = run_together([presses(seat) for seat in range(1, SEATS + 1)])
        seen = events.drain()
    assert errors == []
    assert [e.kind for e in seen].count("ready") == SEATS
    assert [e.kind for e in seen].count("results") == 1
    assert phases(seen) == [("discussion", 2)]
    assert len(service.storage.entries(table_id)) == SETUP_ENTRIES + SEATS
    assert not any(s["ready"] for s in service.view(table_id)["seats"])


def test_ticks_and_views_racing_a_passed_deadline_end_the_phase_once(service, clock):
    table_id = eight_seat_table_in_command(service)
    clock.advance(180)
    with service.subscribe(table_id) as events:
        workers: list[Callable[[], None]] = [service.tick for _ in range(4)]
        workers += [lambda seat=seat: service.view(table_id, seat) for seat in (1, 2, 3, 4)]
        errors = run_together(workers)
        seen = events.drain()
    assert errors == []
    assert [e.kind for e in seen].count("results") == 1
    assert phases(seen) == [("discussion", 2)]
    ends = [e for e in service.storage.entries(table_id) if e.kind == "end"]
    assert [e.data["reason"] for e in ends] == ["skip", "deadline"]


def test_the_timer_thread_ends_phases_without_manual_ticks(service, clock):
    table_id = eight_seat_table_in_command(service)
    service.outage_seconds = 3600  # the fake clock jumps 180 s at once: not an outage here
    with service.subscribe(table_id) as events:
        service.start_timer()
        clock.advance(180)
        found = None
        for _ in range(500):
            event = events.get(timeout=0.01)
            if event is not None and event.kind == "results":
                found = event
                break
        assert found is not None
        assert found.data["reason"] == "deadline"
    service.close()  # stops and joins the timer thread
    assert service.closed
