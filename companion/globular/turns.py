"""The order of turns (G4.1, G6, G7): drawing, scoring rounds, the supernova turn, the last
turns and the end of the game. Each function changes the state it is given."""

from __future__ import annotations

import dataclasses

from companion.globular.board import Board
from companion.globular.placement import can_be_placed
from companion.globular.scoring import holdings, score
from companion.globular.stack import STARTING_LAYOUT
from companion.globular.state import PlayerState, Round, State, TurnKind, TurnState
from companion.globular.tiles import Colour, Tile, TileKind


def initial_state(colours: tuple[Colour, ...], stack: list[Tile]) -> State:
    """Figure 1 with every piece on the MITS (G1.7, G2.12); turn 1 is seat 1's (G1.10), not yet
    begun (see :func:`begin_turn`)."""
    board = Board()
    for position, tile, corner, pennies in STARTING_LAYOUT:
        board.place(position, tile, corner, pennies)
    return State(
        players=[PlayerState(colour) for colour in colours],
        board=board,
        stack=list(stack),
        turn=TurnState(1, 1, TurnKind.NORMAL),
    )


def seats_after(state: State, seat: int) -> list[int]:
    """Every seat in play order starting after ``seat`` and ending with it (G1.10)."""
    count = len(state.players)
    return [(seat + i - 1) % count + 1 for i in range(1, count + 1)]


def begin_turn(state: State, seat: int, kind: TurnKind, *, keeps_stack: bool) -> Tile | None:
    """Start a turn; in a normal turn the companion that keeps the stack draws its top tile,
    which is returned (the caller records it as a ``draw`` line)."""
    state.turn = TurnState(state.turn.number + 1, seat, kind)
    if kind is TurnKind.FINAL and not (state.rounds and state.rounds[-1].final):
        state.rounds.append(Round(len(state.rounds) + 1, True, None))
    if kind is TurnKind.NORMAL:
        if keeps_stack:
            tile = state.stack[0]
            draw(state, tile)
            return tile
        state.turn.awaiting_draw = True
    elif kind is TurnKind.SUPERNOVA:
        assert state.supernova is not None
        state.turn.to_place = state.supernova
        if not can_be_placed(state.board, state.supernova):
            set_aside(state, state.supernova)
    return None


def first_turn(state: State, *, keeps_stack: bool) -> Tile | None:
    """Begin turn 1 (seat 1, a normal turn)."""
    state.turn = TurnState(0, 1, TurnKind.NORMAL)
    return begin_turn(state, 1, TurnKind.NORMAL, keeps_stack=keeps_stack)


def draw(state: State, tile: Tile) -> None:
    """The tile drawn at the start of a normal turn (G3.1): a supernova starts a scoring round
    at once (G6.1, G6.2); a tile that fits nowhere is set aside (G3.10); any other tile must
    now be placed."""
    state.stack.remove(tile)
    turn = state.turn
    turn.awaiting_draw = False
    turn.drawn = tile
    if tile.kind is TileKind.SUPERNOVA:
        state.supernova = tile
        turn.kind = TurnKind.SCORING
        state.rounds.append(Round(len(state.rounds) + 1, False, turn.seat))
        others = seats_after(state, turn.seat)[:-1]
        state.upcoming = [(s, TurnKind.SCORING) for s in others] + [(turn.seat, TurnKind.SUPERNOVA)]
        return
    turn.to_place = tile
    if not can_be_placed(state.board, tile):
        set_aside(state, tile)


def set_aside(state: State, tile: Tile) -> None:
    """A tile with no legal place leaves the game, face up, with no effect (G3.10)."""
    state.set_aside.append(tile)
    state.turn.to_place = None
    state.turn.set_aside = tile
    if state.turn.kind is TurnKind.SUPERNOVA:
        state.supernova = None


def end_turn(state: State, *, keeps_stack: bool) -> Tile | None:
    """End the turn in progress: the player scores if it is a scoring turn (G6.2, G7.3); then
    the next turn begins, or the game ends. Returns the next turn's drawn tile, if the
    companion drew one."""
    turn = state.turn
    if turn.kind.scores:
        _score(state, turn.seat)
    if state.upcoming:
        seat, kind = state.upcoming.pop(0)
    elif turn.kind is TurnKind.FINAL:
        state.over = True
        return None
    elif not state.stack and state.supernova is None:
        # The last-tile turn is over (G7.1): one more turn each (G7.2), then the final
        # scoring round (G7.3), both from the next seat round to this one.
        order = seats_after(state, turn.seat)
        state.upcoming = [(s, TurnKind.END) for s in order] + [(s, TurnKind.FINAL) for s in order]
        seat, kind = state.upcoming.pop(0)
    else:
        seat, kind = seats_after(state, turn.seat)[0], TurnKind.NORMAL
    return begin_turn(state, seat, kind, keeps_stack=keeps_stack)


def _score(state: State, seat: int) -> None:
    """The player scores on the board as it stands (G6.4); the round keeps who held what."""
    current = state.rounds[-1]
    held = holdings(state)
    result = score(state, seat, round_number=current.number, final=current.final, held=held)
    player = state.player(seat)
    player.vp += result.total
    player.scores.append(result)
    state.rounds[-1] = dataclasses.replace(current, holdings=(*current.holdings, (seat, held)))
