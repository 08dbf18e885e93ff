"""Benchmarks of Globular Cluster: what a player waits for at the table.

* The position: a seeded 4-player game played by the random player
  (:mod:`companion.globular.bots`) until only a few tiles are left in the stack: the late game,
  with the most tiles, pieces, pennies and crystals a game reaches. Deterministic.
* :func:`bench_preview`: the acting player's draft turn (the tile's placement and six actions)
  previewed through the table session, as the turn builder asks after every line it adds
  (``GlobularSession.preview``: parse, play each line on copies, the position after the draft
  with the legal places and every crossing, as the phone draws it); and the same draft checked
  as a submission (``check_submission``).
* :func:`bench_scoring`: the late game's scoring round resolved: every player's scoring turn
  ended in seat order (the score of each habitable system and each crystal set, added up, the
  next turn begun), from the supernova's draw to the drawer's supernova turn.
* :func:`bench_replay`: a whole recorded 4-player game loaded (``load_record``: the JSON
  Schema checked, every line replayed with the seed's draws and rolls checked, every turn's
  digest compared).

``python -m benchmarks.globular [--quick] [--json]``; ``python -m benchmarks`` runs it too.
"""

from __future__ import annotations

import copy
import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import command
from companion.globular.bots import candidate_actions, random_game, random_turn
from companion.globular.errors import Refusal
from companion.globular.game import GlobularGame
from companion.globular.record import load_record, record_json
from companion.globular.session import GlobularSession
from companion.globular.settings import Settings
from companion.globular.state import TurnKind
from companion.globular.tiles import COLOURS, Tile

SEED = 2026
PLAYERS = 4
LATE = 4
"""The late game: this many tiles (or fewer) left in the stack."""
TARGET_PREVIEW_SECONDS = 0.020
"""A draft turn's preview in 20 ms here (a Raspberry Pi 4 is some 3-5 times slower: still
well under the 0.35 s the builder waits after a change before it asks)."""
TARGET_SCORING_SECONDS = 0.010
TARGET_REPLAY_SECONDS = 1.0


@dataclass(frozen=True)
class LateGame:
    game: GlobularGame
    draft: tuple[str, ...]
    """The acting player's draft: its placement and six allowed actions (no mine: the
    companion's die is rolled only when a mine is played)."""


def _late_game() -> GlobularGame:
    game = GlobularGame(Settings(COLOURS[:PLAYERS]), SEED)
    rng = random.Random(SEED)
    while len(game.state.stack) > LATE or game.state.turn.kind is not TurnKind.NORMAL:
        random_turn(game, rng)
    return game


@functools.cache
def late_game() -> LateGame:
    """The late-game position at the start of a normal turn, with a draft turn for it."""
    game = _late_game()
    trial = copy.deepcopy(game)
    placements = trial.legal_placements()
    draft: list[str] = []
    if trial.state.turn.to_place is not None and placements:
        name = sorted(placements)[0]
        draft.append(trial.play(f"place {name} {placements[name][0]}").line.text())
    rng = random.Random(SEED)
    while len(draft) < 7:
        options = [o for o in candidate_actions(trial.state) if o.keyword != "mine"]
        rng.shuffle(options)
        for option in options:
            try:
                draft.append(trial.play(option).line.text())
                break
            except Refusal:
                continue
        else:
            break
    return LateGame(game, tuple(draft))


def describe(game: GlobularGame) -> dict[str, Any]:
    state = game.state
    return {
        "seed": SEED,
        "players": PLAYERS,
        "turn": state.turn.number,
        "tiles_on_board": len(state.board),
        "tiles_in_stack": len(state.stack),
        "pieces_on_board": sum(
            sum(p.coins.values()) + (p.leader is not None) for p in state.players
        ),
        "pennies": sum(state.board[p].pennies for p in state.board),
        "crystals": sum(sum(p.crystals.values()) for p in state.players),
        "stations": sum(len(p.stations) for p in state.players),
        "rounds_held": len(state.rounds),
    }


def _timed(fn: Callable[[], object], *, number: int, repeats: int) -> dict[str, float]:
    fn()  # warm-up
    per_call = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        per_call.append((time.perf_counter() - start) / number)
    return {
        "number": number,
        "repeats": repeats,
        "median_s": statistics.median(per_call),
        "best_s": min(per_call),
    }


def bench_preview(*, quick: bool = False) -> dict[str, Any]:
    """The late game's draft turn previewed and checked through the session."""
    late = late_game()
    session = GlobularSession(copy.deepcopy(late.game))
    seat = session.state.turn.seat
    text = "\n".join(late.draft)
    result = session.preview(seat, text)
    assert result["playable"], result
    number, repeats = (5, 2) if quick else (40, 7)
    return {
        "position": describe(late.game),
        "draft": list(late.draft),
        "preview": _timed(lambda: session.preview(seat, text), number=number, repeats=repeats),
        "check": _timed(
            lambda: session.check_submission(seat, text), number=number, repeats=repeats
        ),
    }


def _to_scoring_round(game: GlobularGame) -> GlobularGame:
    """The late game's next supernova drawn at the start of a normal turn (a scoring round
    begins), the stack's order rearranged so that it comes now."""
    trial = copy.deepcopy(game)
    supernova = Tile.parse("rda")
    state = trial.state
    if state.turn.kind is TurnKind.NORMAL and state.turn.to_place is not None:
        # Put the drawn tile back on top and draw a supernova instead: a round starts now.
        from companion.globular.turns import draw

        drawn = state.turn.to_place
        state.stack.insert(0, drawn)
        state.turn.to_place = None
        state.turn.drawn = None
        state.stack.insert(0, supernova)
        draw(state, supernova)
    return trial


def bench_scoring(*, quick: bool = False) -> dict[str, Any]:
    """Every player's scoring turn ended in turn, on the late game's board; each round is
    timed from the first ``end`` to the last (the copy it starts from is made untimed)."""
    start = _to_scoring_round(late_game().game)
    assert start.state.turn.kind is TurnKind.SCORING
    scores: list[dict[str, Any]] = []
    durations = []
    for run_number in range(5 if quick else 41):
        game = copy.deepcopy(start)
        began = time.perf_counter()
        played = []
        while game.state.turn.kind is TurnKind.SCORING:
            played.append(game.play("end"))
        durations.append(time.perf_counter() - began)
        if run_number == 0:
            for done in played:
                assert done.scored is not None
                scores.append(
                    {
                        "colour": game.state.player(done.seat).colour.value,
                        "systems": len(done.scored.tiles),
                        "sets": len(done.scored.sets),
                        "total": done.scored.total,
                    }
                )
    median = statistics.median(durations[1:] or durations)  # the first run warms up
    return {
        "habitable_systems": len(start.state.board.habitable()),
        "scores": scores,
        "runs": len(durations),
        "round_median_s": median,
        "per_player_s": median / len(scores),
    }


@functools.cache
def recorded_game() -> str:
    """A whole 4-player game by the random player, as its record."""
    game = random_game(GlobularGame(Settings(COLOURS[:PLAYERS]), SEED + 1), random.Random(SEED))
    assert game.over
    return record_json(game)


def bench_replay(*, quick: bool = False) -> dict[str, Any]:
    record = recorded_game()
    loaded = load_record(record)
    runs = 1 if quick else 5
    durations = []
    for _ in range(runs):
        start = time.perf_counter()
        load_record(record)
        durations.append(time.perf_counter() - start)
    return {
        "turns": len(loaded.turns),
        "lines": len(loaded.lines()),
        "record_bytes": len(record.encode()),
        "runs": runs,
        "median_s": statistics.median(durations),
        "best_s": min(durations),
    }


def run(*, quick: bool = False) -> dict[str, Any]:
    preview = bench_preview(quick=quick)
    scoring = bench_scoring(quick=quick)
    replay = bench_replay(quick=quick)
    return {
        "suite": "globular",
        "quick": quick,
        "machine": machine_info(),
        "preview": preview,
        "scoring": scoring,
        "replay": replay,
        "targets": {
            "preview_seconds": {
                "target": TARGET_PREVIEW_SECONDS,
                "measured": preview["preview"]["median_s"],
                "passed": preview["preview"]["median_s"] <= TARGET_PREVIEW_SECONDS,
            },
            "scoring_seconds": {
                "target": TARGET_SCORING_SECONDS,
                "measured": scoring["round_median_s"],
                "passed": scoring["round_median_s"] <= TARGET_SCORING_SECONDS,
            },
            "replay_seconds": {
                "target": TARGET_REPLAY_SECONDS,
                "measured": replay["median_s"],
                "passed": replay["median_s"] <= TARGET_REPLAY_SECONDS,
            },
        },
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def format_report(results: dict[str, Any]) -> str:
    preview = results["preview"]
    position = preview["position"]
    scoring = results["scoring"]
    replay = results["replay"]
    targets = results["targets"]

    def verdict(name: str) -> str:
        return "PASS" if targets[name]["passed"] else "FAIL"

    return "\n".join(
        [
            *header("Globular Cluster", results["machine"], quick=results["quick"]),
            "",
            f"position: seed {position['seed']}, {position['players']} players, turn "
            f"{position['turn']}: {position['tiles_on_board']} tiles on the board, "
            f"{position['tiles_in_stack']} in the stack, {position['pieces_on_board']} pieces, "
            f"{position['pennies']} pennies, {position['crystals']} crystals, "
            f"{position['stations']} stations, {position['rounds_held']} rounds held",
            f"a) a draft turn of {len(preview['draft'])} lines: " + "; ".join(preview["draft"]),
            f"   preview (session.preview): median {_ms(preview['preview']['median_s'])}, "
            f"best {_ms(preview['preview']['best_s'])}; target <= "
            f"{_ms(TARGET_PREVIEW_SECONDS)}: {verdict('preview_seconds')}",
            f"   check (session.check_submission): median {_ms(preview['check']['median_s'])}",
            f"b) a scoring round on that board ({scoring['habitable_systems']} habitable systems, "
            f"{len(scoring['scores'])} players): median {_ms(scoring['round_median_s'])} "
            f"({_ms(scoring['per_player_s'])} a player); target <= "
            f"{_ms(TARGET_SCORING_SECONDS)}: {verdict('scoring_seconds')}",
            f"c) replaying a whole game ({replay['turns']} turns, {replay['lines']} lines, "
            f"{replay['record_bytes']} bytes): median {_ms(replay['median_s'])} of "
            f"{replay['runs']}; target <= {_ms(TARGET_REPLAY_SECONDS)}: "
            f"{verdict('replay_seconds')}",
        ]
    )


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    return command(
        argv,
        out,
        prog="python -m benchmarks.globular",
        description="Benchmarks of Globular Cluster: previews, scoring rounds, replays.",
        run=run,
        report=format_report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
