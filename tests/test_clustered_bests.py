"""K8.3 to K8.6 through the table service: solo games played to the end, the bests kept."""

from __future__ import annotations

from pathlib import Path

from test_clustered_service import play_out

from companion.clustered import bests
from companion.clustered.game import Player
from companion.clustered.settings import Settings
from companion.clustered.simulate import Table
from companion.service import FakeClock, Storage, TableService


def solo(
    service: TableService,
    clock: FakeClock,
    name: str,
    seed: int,
    *,
    options: dict[str, object] | None = None,
    finish: bool = True,
) -> str:
    table_id, _ = service.create_table("solo", 1, game="clustered", options=options or {})
    service.join(table_id, 1, name)
    service.choose(table_id, 1, {"colour": "B"})
    rules = Settings.from_dict(options or {})
    sim = Table([Player("B")], settings=rules, seed=seed, policy="cluster")
    play_out(service, table_id, sim, turns=None if finish else 5)
    clock.advance(3600)
    return table_id


def total(service: TableService, table_id: str) -> int:
    return int(service.view(table_id)["game"]["score"]["players"][0]["total"])


def test_k8_3_k8_4_the_first_sets_the_best_then_new_best_match_and_below(
    service: TableService, clock: FakeClock
) -> None:
    scores = {}
    for seed in range(12):
        table_id = solo(service, clock, "Ann", seed)
        scores[table_id] = total(service, table_id)
    ids = list(scores)
    said = [bests.standing(service, t) for t in ids]
    assert said[0] is not None and said[0]["standing"] == "first"
    running = scores[ids[0]]
    for table_id, shown in zip(ids[1:], said[1:], strict=True):
        assert shown is not None
        value = scores[table_id]
        expected = "new-best" if value > running else "matched" if value == running else "below"
        assert shown["standing"] == expected, (value, running)
        assert shown["best"]["total"] == running
        running = max(running, value)
    assert {s["standing"] for s in said if s} >= {"first", "new-best", "below"}
    best = bests.best(service, " ann ", said[0]["key"])
    assert best is not None and best.total == max(scores.values())
    first_of_best = min(t for t in ids if scores[t] == best.total)
    assert best.source == first_of_best  # an equal total later does not replace it (K8.4)
    assert best.sheet["players"][0]["total"] == best.total


def test_k8_3_bests_are_per_name_and_per_profile(service: TableService, clock: FakeClock) -> None:
    solo(service, clock, "Ann", 1)
    other = solo(service, clock, "Bo", 2)
    quick = solo(service, clock, "Ann", 3, options={"quick_play": True})
    assert bests.standing(service, other)["standing"] == "first"  # type: ignore[index]
    assert bests.standing(service, quick)["standing"] == "first"  # type: ignore[index]


def test_k8_5_unfinished_and_multi_seat_games_set_no_best(
    service: TableService, clock: FakeClock
) -> None:
    stopped = solo(service, clock, "Ann", 1, finish=False)
    service.correct(stopped, "stop", "bedtime")
    shown = bests.standing(service, stopped)
    assert shown is not None and "sets no personal best" in shown["said"]
    assert bests.solo_results(service) == []
    two, _ = service.create_table("two", 2, game="clustered")
    assert bests.standing(service, two) is None


def test_k8_6_the_best_is_shown_while_a_solo_game_is_played(
    service: TableService, clock: FakeClock
) -> None:
    done = solo(service, clock, "Ann", 4)
    going = solo(service, clock, "ANN", 5, finish=False)
    shown = bests.standing(service, going)
    assert shown is not None
    assert shown["said"] == f"ANN's personal best under this profile: {total(service, done)}"
    assert shown["profile"] == "2 wild cards"


def test_k8_3_the_best_survives_a_restart(db: Path, clock: FakeClock) -> None:
    with TableService(Storage(db), clock=clock) as first:
        table_id = solo(first, clock, "Ann", 6)
        kept = bests.best(first, "Ann", bests.standing(first, table_id)["key"])  # type: ignore[index]
    with TableService(Storage(db), clock=clock) as again:
        assert bests.best(again, "Ann", kept.profile.key()) == kept  # type: ignore[union-attr]
