"""Benchmarks of Cluster, the peg game (``companion.cluster_peg``, issue 16).

* :func:`bench_movegen`: moves generated per second over positions from random games (the list
  of legal moves built, in canonical order), and the time of perft(3) from each setup.
* :func:`bench_matches`: the strongest level (``expert``) against a random mover and against
  the one-ply greedy player, from both colours, on both boards (setups ``64B``, the large
  board's default, and ``46``): wins out of 100 each (targets: 99 against random, 90 against
  greedy) and the average time per move. The bot's time is a Raspberry Pi 4's (``--seconds``,
  2 by default): it searches as many positions as a Pi 4 would in it, and this machine's
  clock time a move is what is reported.
* :func:`bench_self_play`: the strongest level against itself, 100 games from each setup
  (``64A``, ``64B``, ``46``), how often the first mover wins; then again with the ``swap``
  house rule (P5.11).
* :func:`bench_greedy_race`: the greedy player against itself from each setup: how often Red
  wins in the fewest moves there can be (a race that only a block beats).
* :func:`bench_race_blocks`: in those races, whether any one Blue move would have put Blue
  ahead in the race (:mod:`companion.cluster_peg.race`).
* :func:`bench_knowing_greedy` (only when asked, ``--knowing GAMES``; about a minute a game
  here): a Blue on ``46`` that knows the greedy player's rule, against the greedy player. It
  is no level of the bot (a bot sees only the board, never who it plays): it measures what
  the target of 90 against greedy asks for there.

Games are played in parallel worker processes (``--jobs``, default 2). ``python -m
benchmarks.cluster_peg [--quick] [--json] [--jobs N]``; ``python -m benchmarks`` runs it too.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from benchmarks.machine import header, machine_info
from benchmarks.runner import emit
from companion.cluster_peg import movegen
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.bot import DEFAULT_SECONDS, STRONGEST, WIN, judge
from companion.cluster_peg.game import Game
from companion.cluster_peg.goal import meets_goal
from companion.cluster_peg.moves import Move
from companion.cluster_peg.perft import perft
from companion.cluster_peg.players import (
    BotPlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    play_match,
)
from companion.cluster_peg.position import SETUPS, Position
from companion.cluster_peg.race import race_margins
from companion.cluster_peg.settings import HouseRules

SEED = 1972
GAMES = 100
QUICK_GAMES = 1
MATCH_SETUPS = ("64B", "46")
SELF_PLAY_SETUPS = ("64A", "64B", "46")
TARGETS = {"random": 99, "greedy": 90}
MOVEGEN_POSITIONS = 400
GREEDY_RACE_GAMES = 200
"""Games of the greedy player against itself from each setup (a few seconds in all)."""
RACE_SETUPS = ("46", "64A")
"""The setups that are races (P3.2): each side can finish without meeting the other."""
RACE_BLOCK_GAMES = 20
"""Greedy races (Red winning in the fewest moves) weighed move by move for blocks."""
RACE_SPARE = 2
"""Spare moves counted exactly in a block's cost (:func:`race_distance`)."""
RACE_BUDGET = 5_000
"""Positions for each count before it is reported unknown."""
KNOWING_DEPTH = 2
"""The knowing player's own moves looked ahead, each with the greedy player's answers."""
QUICK_SECONDS = 0.05
"""The bot's time for a move in a quick run (the full run uses the default)."""


# Move generation ---------------------------------------------------------------------------------


def sample_positions(count: int, seed: int = SEED) -> list[Position]:
    """Positions from random games on every setup (each move uniformly at random)."""
    rng = random.Random(seed)
    out = []
    names = sorted(SETUPS)
    while len(out) < count:
        position = SETUPS[names[len(out) % len(names)]]
        for _ in range(rng.randrange(0, 60)):
            codes = movegen.generate(position.board, position.pegs, position.to_move is Colour.RED)
            position = Position(
                position.board,
                movegen.apply(position.pegs, rng.choice(codes)),
                position.to_move.other,
            )
        out.append(position)
    return out


def bench_movegen(*, quick: bool = False) -> dict[str, Any]:
    positions = sample_positions(40 if quick else MOVEGEN_POSITIONS)
    prepared = [(p.board, p.pegs, p.to_move is Colour.RED) for p in positions]
    repeats = 1 if quick else 25
    generated = 0
    rates = []
    for _ in range(3 if not quick else 1):
        began = time.perf_counter()
        count = 0
        for _ in range(repeats):
            for board, pegs, red in prepared:
                count += len(movegen.generate(board, pegs, red))
        elapsed = time.perf_counter() - began
        rates.append(count / elapsed)
        generated = count
    perfts = {}
    for name, start in SETUPS.items():
        began = time.perf_counter()
        nodes = perft(start, 3)
        perfts[name] = {"perft3": nodes, "seconds": time.perf_counter() - began}
    return {
        "positions": len(positions),
        "moves_per_run": generated,
        "moves_per_second": statistics.median(rates),
        "perft": perfts,
    }


# Matches -----------------------------------------------------------------------------------------


def _opponent(kind: str, seed: int, seconds: float) -> Player:
    rng = random.Random(seed + 1_000_003)
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "greedy":
        return GreedyPlayer(rng)
    return BotPlayer(STRONGEST, seconds=seconds, seed=seed + 7919)


def play_task(task: tuple[str, str, str, int, bool, float]) -> dict[str, Any]:
    """One game: (opponent kind, setup, the bot's colour, seed, swap, seconds per move)."""
    kind, setup_name, bot_colour, seed, swap, seconds = task
    strongest = BotPlayer(STRONGEST, seconds=seconds, seed=seed)
    other = _opponent(kind, seed, seconds)
    bot_red = bot_colour == "red"
    red, blue = (strongest, other) if bot_red else (other, strongest)
    outcome = play_match(SETUPS[setup_name], red, blue, rules=HouseRules(swap=swap))
    result = outcome.result
    winner = None if result is None or result.winner is None else result.winner
    # Who won, as players: after a swap the first mover plays Blue.
    first_mover_colour = Colour.BLUE if outcome.swapped else Colour.RED
    times = list(strongest.times)
    if isinstance(other, BotPlayer):
        times += other.times
    bot_colour_now = Colour.RED if bot_red else Colour.BLUE
    if outcome.swapped:
        bot_colour_now = bot_colour_now.other
    return {
        "kind": kind,
        "setup": setup_name,
        "bot": bot_colour,
        "swap": swap,
        "winner": None if winner is None else winner.title.lower(),
        "reason": None if result is None else result.reason,
        "bot_won": winner is not None and winner is bot_colour_now,
        "first_mover_won": winner is not None and winner is first_mover_colour,
        "swapped": outcome.swapped,
        "moves": outcome.moves,
        "move_times": times,
    }


def _run_tasks(
    tasks: Sequence[Any],
    jobs: int,
    work: Callable[[Any], dict[str, Any]] = play_task,
) -> list[dict[str, Any]]:
    """Each task done by ``work`` (a game: :func:`play_task`), in ``jobs`` worker processes."""
    if jobs <= 1:
        return [work(task) for task in tasks]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return pool.map(work, tasks, chunksize=1)


def _summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    times = [t for g in games for t in g["move_times"]]
    return {
        "games": len(games),
        "bot_wins": sum(g["bot_won"] for g in games),
        "draws": sum(g["winner"] is None for g in games),
        "first_mover_wins": sum(g["first_mover_won"] for g in games),
        "red_wins": sum(g["winner"] == "red" for g in games),
        "swaps": sum(g["swapped"] for g in games),
        "mean_moves": statistics.fmean(g["moves"] for g in games) if games else 0.0,
        "mean_move_seconds": statistics.fmean(times) if times else 0.0,
        "max_move_seconds": max(times) if times else 0.0,
    }


def bench_matches(
    *, quick: bool = False, jobs: int = 2, games: int | None = None, seconds: float | None = None
) -> dict[str, Any]:
    games = games if games is not None else QUICK_GAMES if quick else GAMES
    seconds = seconds if seconds is not None else QUICK_SECONDS if quick else DEFAULT_SECONDS
    tasks = [
        (kind, setup_name, colour, SEED + number, False, seconds)
        for kind in ("random", "greedy")
        for setup_name in MATCH_SETUPS
        for colour in ("red", "blue")
        for number in range(games)
    ]
    began = time.perf_counter()
    played = _run_tasks(tasks, jobs)
    out: dict[str, Any] = {"games_each": games, "seconds_per_move": seconds, "results": {}}
    for kind in ("random", "greedy"):
        for setup_name in MATCH_SETUPS:
            for colour in ("red", "blue"):
                chosen = [
                    g
                    for g in played
                    if (g["kind"], g["setup"], g["bot"]) == (kind, setup_name, colour)
                ]
                summary = _summary(chosen)
                wanted = TARGETS[kind] * games / GAMES
                summary["target"] = TARGETS[kind]
                summary["passed"] = summary["bot_wins"] >= wanted
                out["results"][f"{kind}/{setup_name}/{colour}"] = summary
    out["wall_seconds"] = time.perf_counter() - began
    return out


def bench_self_play(
    *, quick: bool = False, jobs: int = 2, games: int | None = None, seconds: float | None = None
) -> dict[str, Any]:
    games = games if games is not None else QUICK_GAMES if quick else GAMES
    seconds = seconds if seconds is not None else QUICK_SECONDS if quick else DEFAULT_SECONDS
    tasks = [
        ("self", setup_name, "red", SEED + 500 + number, swap, seconds)
        for swap in (False, True)
        for setup_name in SELF_PLAY_SETUPS
        for number in range(games)
    ]
    began = time.perf_counter()
    played = _run_tasks(tasks, jobs)
    out: dict[str, Any] = {"games_each": games, "seconds_per_move": seconds, "results": {}}
    for swap in (False, True):
        for setup_name in SELF_PLAY_SETUPS:
            chosen = [g for g in played if (g["setup"], g["swap"]) == (setup_name, swap)]
            key = f"{setup_name}{'/swap' if swap else ''}"
            out["results"][key] = _summary(chosen)
    out["wall_seconds"] = time.perf_counter() - began
    return out


# The greedy player's race -------------------------------------------------------------------------


def bench_greedy_race(*, quick: bool = False, games: int | None = None) -> dict[str, Any]:
    """The one-ply greedy player against itself from each setup: how often Red wins, and how
    often in the fewest moves there can be (every peg starts off height 2, P5.2, so each must
    move at least once). A Red that wins so is a race Blue cannot win by racing: only a block
    beats it."""
    games = games if games is not None else 20 if quick else GREEDY_RACE_GAMES
    out: dict[str, Any] = {"games_each": games, "results": {}}
    for name in SELF_PLAY_SETUPS:
        start = SETUPS[name]
        fewest = (start.pegs[0] | start.pegs[1]).bit_count()
        red_wins = red_fewest = blue_wins = 0
        for number in range(games):
            red = GreedyPlayer(random.Random(SEED + number + 1_000_003))
            blue = GreedyPlayer(random.Random(SEED + number + 2_000_003))
            outcome = play_match(start, red, blue)
            winner = None if outcome.result is None else outcome.result.winner
            if winner is Colour.RED:
                red_wins += 1
                red_fewest += (outcome.moves + 1) // 2 == fewest
            elif winner is Colour.BLUE:
                blue_wins += 1
        out["results"][name] = {
            "fewest_moves": fewest,
            "red_wins": red_wins,
            "red_wins_in_fewest": red_fewest,
            "blue_wins": blue_wins,
        }
    return out


def bench_race_blocks(*, quick: bool = False, games: int | None = None) -> dict[str, Any]:
    """Could a block have beaten greedy Red's perfect races? Of the greedy-against-greedy games
    of :func:`bench_greedy_race` that Red won in the fewest moves (on the race setups ``46``
    and ``64A``), the first ``games``: at every Blue turn, each of Blue's moves is weighed by
    :func:`~companion.cluster_peg.race.race_margins` (Red's moves to the goal less Blue's,
    each with the other's pegs standing, exact up to ``RACE_SPARE`` spare moves). With Red to
    move, Blue is ahead only at a margin of 1 or more."""
    games = games if games is not None else 1 if quick else RACE_BLOCK_GAMES
    out: dict[str, Any] = {"games_each": games, "spare": RACE_SPARE, "results": {}}
    for name in RACE_SETUPS:
        start = SETUPS[name]
        fewest = (start.pegs[0] | start.pegs[1]).bit_count()
        found = turns = ahead = unknown = number = 0
        best_margins: dict[int, int] = {}
        while found < games and number < GREEDY_RACE_GAMES:
            red = GreedyPlayer(random.Random(SEED + number + 1_000_003))
            blue = GreedyPlayer(random.Random(SEED + number + 2_000_003))
            number += 1
            game = Game(start)
            blue_turns = []
            while not game.over:
                position = game.position
                if position.to_move is Colour.BLUE:
                    blue_turns.append(position)
                    game.play(blue.choose(position))
                else:
                    game.play(red.choose(position))
            result = game.result
            if result is None or result.winner is not Colour.RED:
                continue
            if game.moves_played != 2 * fewest - 1:
                continue
            found += 1
            for position in blue_turns:
                turns += 1
                margins = race_margins(position, spare=RACE_SPARE, budget=RACE_BUDGET)
                known = [margin for _, margin in margins if margin is not None]
                unknown += len(margins) - len(known)
                best = max(known)
                best_margins[best] = best_margins.get(best, 0) + 1
                ahead += best >= 1
        out["results"][name] = {
            "games": found,
            "blue_turns": turns,
            "turns_with_a_move_ahead": ahead,
            "best_margins": {str(key): best_margins[key] for key in sorted(best_margins)},
            "moves_unknown": unknown,
        }
    return out


class KnowingPlayer:
    """Blue that knows the greedy player's rule (:meth:`GreedyPlayer.best_moves`), for
    :func:`bench_knowing_greedy`: each of its moves is weighed ``depth`` of its own moves
    ahead, each answered by every move greedy Red chooses among (their mean: greedy picks
    one at random), and the positions there judged as the bot's search judges its leaves."""

    name = "knowing greedy"

    def __init__(self, depth: int = KNOWING_DEPTH) -> None:
        self.depth = depth
        self.times: list[float] = []

    def choose(self, position: Position) -> Move:
        began = time.perf_counter()
        board = position.board
        leaf = judge(board)
        answers: dict[tuple[int, int, int, int], tuple[bool, list[int]]] = {}
        values: dict[tuple[tuple[int, int, int, int], int], float] = {}

        def value(pegs: tuple[int, int, int, int], depth: int) -> float:
            # Blue's view of a position with greedy Red to move, ``depth`` Blue moves left.
            found = answers.get(pegs)
            if found is None:
                found = answers[pegs] = GreedyPlayer.best_moves(board, pegs, True)
            wins, codes = found
            if wins:
                return -WIN
            total = 0.0
            for code in codes:
                after = movegen.apply(pegs, code)
                total += leaf(after, False) if depth == 1 else best(after, depth - 1)[0]
            return total / len(codes)

        def best(pegs: tuple[int, int, int, int], depth: int) -> tuple[float, int]:
            key = (pegs, depth)
            if key in values:
                return values[key], -1
            top, choice = -2.0 * WIN, -1
            for code in movegen.generate(board, pegs, False):
                after = movegen.apply(pegs, code)
                if meets_goal(board, after[2], after[3]):
                    top, choice = WIN, code
                    break
                score = value(after, depth)
                if score > top or (score == top and code < choice):
                    top, choice = score, code
            values[key] = top
            return top, choice

        _, code = best(position.pegs, self.depth)
        self.times.append(time.perf_counter() - began)
        return Move.from_code(board, code)


def knowing_task(task: tuple[int, int]) -> dict[str, Any]:
    """One game of :func:`bench_knowing_greedy`: (seed, depth); greedy Red as in benchmark b."""
    seed, depth = task
    blue = KnowingPlayer(depth)
    outcome = play_match(SETUPS["46"], _opponent("greedy", seed, 0), blue)
    winner = None if outcome.result is None else outcome.result.winner
    return {
        "seed": seed,
        "blue_won": winner is Colour.BLUE,
        "drawn": outcome.result is not None and winner is None,
        "move_times": blue.times,
    }


def bench_knowing_greedy(*, games: int, jobs: int = 2, quick: bool = False) -> dict[str, Any]:
    """The knowing player as Blue on ``46`` against the greedy player of benchmark b, with
    b's seeds (so game ``n`` meets the same greedy Red as b's game ``n`` did)."""
    depth = 1 if quick else KNOWING_DEPTH
    tasks = [(SEED + number, depth) for number in range(games)]
    began = time.perf_counter()
    games_played = _run_tasks(tasks, jobs, knowing_task)
    times = [t for game in games_played for t in game["move_times"]]
    return {
        "games": games,
        "depth": depth,
        "blue_wins": sum(game["blue_won"] for game in games_played),
        "draws": sum(game["drawn"] for game in games_played),
        "not_won": [game["seed"] - SEED for game in games_played if not game["blue_won"]],
        "mean_move_seconds": statistics.fmean(times) if times else 0.0,
        "max_move_seconds": max(times, default=0.0),
        "wall_seconds": time.perf_counter() - began,
    }


def run(
    *,
    quick: bool = False,
    jobs: int = 2,
    games: int | None = None,
    seconds: float | None = None,
    knowing: int = 0,
) -> dict[str, Any]:
    """Every Cluster benchmark; ``games`` and ``seconds`` shorten a run (the report says so).
    ``knowing``: games of :func:`bench_knowing_greedy` (none unless asked; one, a move ahead,
    in a quick run)."""
    machine = machine_info()
    results = {
        "suite": "cluster",
        "quick": quick,
        "machine": machine,
        "jobs": jobs,
        "movegen": bench_movegen(quick=quick),
        "matches": bench_matches(quick=quick, jobs=jobs, games=games, seconds=seconds),
        "self_play": bench_self_play(quick=quick, jobs=jobs, games=games, seconds=seconds),
        "greedy_race": bench_greedy_race(quick=quick),
        "race_blocks": bench_race_blocks(quick=quick),
    }
    if quick or knowing:
        results["knowing_greedy"] = bench_knowing_greedy(
            games=1 if quick else knowing, jobs=jobs, quick=quick
        )
    return results


def format_report(results: dict[str, Any]) -> str:
    movegen_results = results["movegen"]
    lines = [
        *header("Cluster (peg game)", results["machine"], quick=results["quick"]),
        "",
        f"a) move generation: {movegen_results['moves_per_second']:,.0f} moves/s "
        f"({movegen_results['positions']} positions from random games)",
    ]
    for name, figures in movegen_results["perft"].items():
        lines.append(
            f"   perft(3) from {name}: {figures['perft3']:,} in {figures['seconds'] * 1000:.0f} ms"
        )
    matches = results["matches"]
    lines += [
        "",
        f"b) the strongest level ({STRONGEST.value}, {matches['seconds_per_move']:g} s of a "
        "Raspberry Pi 4 a move) "
        f"against other players, {matches['games_each']} games each "
        f"(wall {matches['wall_seconds']:.0f} s, {results['jobs']} jobs)",
    ]
    for key, summary in matches["results"].items():
        kind, setup_name, colour = key.split("/")
        lines.append(
            f"   vs {kind:<6} {setup_name:<3} bot plays {colour:<4}: won {summary['bot_wins']:>3}, "
            f"drawn {summary['draws']:>3}, {summary['mean_moves']:5.1f} moves, "
            f"{summary['mean_move_seconds'] * 1000:6.1f} ms a move (max "
            f"{summary['max_move_seconds'] * 1000:.0f}); target >= {summary['target']}: "
            f"{'PASS' if summary['passed'] else 'FAIL'}"
        )
    self_play = results["self_play"]
    lines += [
        "",
        f"c) the strongest level against itself, {self_play['games_each']} games from each setup "
        f"(wall {self_play['wall_seconds']:.0f} s)",
    ]
    for key, summary in self_play["results"].items():
        swapped = f", Blue swapped {summary['swaps']}" if key.endswith("swap") else ""
        lines.append(
            f"   {key:<8}: first mover won {summary['first_mover_wins']:>3}, "
            f"Red won {summary['red_wins']:>3}, drawn {summary['draws']:>3}{swapped}; "
            f"{summary['mean_moves']:5.1f} moves, "
            f"{summary['mean_move_seconds'] * 1000:6.1f} ms a move"
        )
    race = results.get("greedy_race")
    if race is not None:
        lines += [
            "",
            f"d) the greedy player against itself, {race['games_each']} games from each setup",
        ]
        for key, figures in race["results"].items():
            lines.append(
                f"   {key:<8}: Red won {figures['red_wins']:>3} "
                f"({figures['red_wins_in_fewest']} in the fewest moves, "
                f"{figures['fewest_moves']}), Blue won {figures['blue_wins']:>3}"
            )
    blocks = results.get("race_blocks")
    if blocks is not None:
        lines += [
            "",
            f"e) blocks against greedy Red's perfect races, the first {blocks['games_each']} "
            f"from each race setup (counts exact up to {blocks['spare']} spare moves)",
        ]
        for key, figures in blocks["results"].items():
            lines.append(
                f"   {key:<8}: {figures['games']} games, {figures['blue_turns']} Blue turns; "
                f"a move putting Blue ahead in {figures['turns_with_a_move_ahead']}; "
                f"best margins {figures['best_margins']}; "
                f"{figures['moves_unknown']} moves unknown"
            )
    knowing = results.get("knowing_greedy")
    if knowing is not None:
        lines += [
            "",
            f"f) a Blue that knows the greedy player's rule, {knowing['depth']} of its moves "
            f"ahead, against greedy Red on 46 (benchmark b's seeds; no level of the bot)",
            f"   won {knowing['blue_wins']} of {knowing['games']}, drawn {knowing['draws']}; "
            f"games not won {knowing['not_won']}; "
            f"{knowing['mean_move_seconds'] * 1000:.0f} ms a move here "
            f"(max {knowing['max_move_seconds'] * 1000:.0f}); wall {knowing['wall_seconds']:.0f} s",
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.cluster_peg", description="Benchmarks of Cluster (peg game)."
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (1 game each)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--games", type=int, help=f"games of each kind (default {GAMES}; targets scale with it)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        help=f"the bot's time for a move on a Raspberry Pi 4 (default {DEFAULT_SECONDS:g}); a "
        "faster computer stops sooner, at the positions a Pi 4 searches in it",
    )
    parser.add_argument(
        "--knowing",
        type=int,
        default=0,
        metavar="GAMES",
        help="also play GAMES games of f), a Blue that knows the greedy player's rule, on 46 "
        "(about a minute a game here; not run unless asked)",
    )
    args, _ = parser.parse_known_args(argv)
    results = run(
        quick=args.quick,
        jobs=max(1, args.jobs),
        games=args.games,
        seconds=args.seconds,
        knowing=max(0, args.knowing),
    )
    return emit(results, format_report, as_json=args.json, out=out)


if __name__ == "__main__":
    raise SystemExit(main())
