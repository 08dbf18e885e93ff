"""A random player, the way OpenSpiel's random bot plays any game: it picks among the lines
the rules allow. Used by the demo, the property tests and the benchmarks."""

from __future__ import annotations

import random

from companion.globular.errors import Refusal
from companion.globular.game import GlobularGame
from companion.globular.geometry import MITS
from companion.globular.notation import (
    Colonize,
    Draw,
    End,
    Improve,
    Line,
    Mine,
    Move,
    Place,
    Station,
    Trade,
    Warp,
)
from companion.globular.settings import Dice
from companion.globular.state import State
from companion.globular.tiles import CRYSTALS, FACES, TileKind


def candidate_actions(state: State) -> list[Line]:
    """Actions worth trying for the acting player (each may still be refused)."""
    player = state.acting
    board = state.board
    out: list[Line] = []
    for here, count in sorted(player.coins.items()):
        for there in here.neighbours():
            if there in board and board.crossing(here, there) is not None:
                out.append(Move((here, there), 1))
                if count > 1:
                    out.append(Move((here, there), 2))
    if player.leader is not None:
        for there in player.leader.neighbours():
            if there in board and board.crossing(player.leader, there) is not None:
                out.append(Move((player.leader, there), leader=True))
    for start in (MITS, *player.stations):
        for station in player.stations:
            if station != start and player.coins_at(start):
                out.append(Warp((start, station), 1))
    for position in board:
        cell = board[position]
        presence = player.presence(position)
        if cell.kind is TileKind.RESOURCE:
            if cell.pennies and presence:
                out.append(Mine(position, 2 if presence > 1 and cell.pennies > 1 else 1))
            elif not cell.pennies and cell.station is None:
                out.append(Station(position))
        elif cell.kind is TileKind.NULL and cell.station is None:
            out.append(Station(position))
        elif cell.kind is TileKind.HABITABLE and presence and cell.colonist is None:
            out.append(Improve(position, 2 if presence > 1 else 1))
            if cell.pennies:
                out.append(Colonize(position))
    for other in state.players:
        if other is player:
            continue
        for give in CRYSTALS:
            if player.crystals[give]:
                for take in CRYSTALS:
                    if take is not give and other.crystals[take] % 3 == 1:
                        out.append(Trade(other.colour, give, take))
    return out


def random_turn(game: GlobularGame, rng: random.Random, *, actions: int = 6) -> list[str]:
    """Play one whole turn of random allowed lines; returns the lines as played."""
    played: list[str] = []
    state = game.state
    if state.turn.awaiting_draw:
        tile = rng.choice(sorted(state.stack))
        played.append(game.play(Draw(tile)).line.text())
    placements = game.legal_placements()
    if game.state.turn.to_place is not None and placements:
        position = rng.choice(sorted(placements))
        corner = rng.choice(placements[position])
        played.append(game.play(f"place {position} {corner}").line.text())
    for _ in range(actions):
        candidates = candidate_actions(game.state)
        rng.shuffle(candidates)
        for line in candidates[:12]:
            if isinstance(line, Mine) and game.settings.dice is Dice.PHYSICAL:
                line = Mine(
                    line.position, line.count, tuple(rng.choice(FACES) for _ in range(line.count))
                )
            try:
                played.append(game.play(line).line.text())
            except Refusal:
                continue
            break
    played.append(game.play(End()).line.text())
    return played


def random_game(game: GlobularGame, rng: random.Random, *, max_turns: int = 400) -> GlobularGame:
    """Play random turns until the game is over (or ``max_turns``)."""
    for _ in range(max_turns):
        if game.over:
            break
        random_turn(game, rng)
    return game


__all__ = ["Place", "candidate_actions", "random_game", "random_turn"]
