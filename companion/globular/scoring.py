"""Majority (G5), the infrastructure caps (G4.11), crystal sets (G6.5, G6.6) and a player's
score (G6.4)."""

from __future__ import annotations

from companion.globular.board import Board
from companion.globular.geometry import Position
from companion.globular.state import CrystalSets, Holding, PlayerState, Score, State
from companion.globular.tiles import Colour, Crystal, TileKind

MAX_VALUE = 9
"""No habitable tile's value may exceed 9 (G4.11)."""
CAPS = {6: 5, 7: 4, 8: 3, 9: 2}
"""How many habitable tiles may stand at each value from 6 up (G4.11)."""


def presences(state: State, position: Position) -> dict[Colour, int]:
    """Each player's presence on a tile (G5.1), only those with some."""
    out = {}
    for player in state.players:
        count = player.presence(position)
        if count:
            out[player.colour] = count
    return out


def majority(state: State, position: Position) -> Colour | None:
    """The player with at least 1 presence and more than each other player; None on a tie for
    the most, or when nobody is there (G5.2)."""
    counts = presences(state, position)
    if not counts:
        return None
    best = max(counts.values())
    leaders = [c for c, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def holding(state: State, position: Position) -> Holding:
    """A habitable tile's value and holder now: its colonizer if colonized (G5.4), else the
    majority (G5.2)."""
    cell = state.board[position]
    assert cell.tile is not None and cell.kind is TileKind.HABITABLE
    counts = presences(state, position)
    if cell.colonist is not None:
        holder: Colour | None = cell.colonist.colour
    else:
        holder = majority(state, position)
    ranked = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0].value)))
    return Holding(position, cell.tile, cell.value, holder, cell.colonist is not None, ranked)


def holdings(state: State) -> tuple[Holding, ...]:
    """Every habitable tile with its holder, in reading order."""
    return tuple(holding(state, p) for p in state.board.habitable())


def crystal_sets(crystal: Crystal, count: int) -> CrystalSets:
    """``count`` crystals of one type: count div 3 triplets, then a pair if 2 are left or a
    single if 1 is (G6.5)."""
    triplets, left = divmod(count, 3)
    return CrystalSets(crystal, count, triplets, 1 if left == 2 else 0, 1 if left == 1 else 0)


def crystal_points(crystals: dict[Crystal, int]) -> int:
    """6 a triplet, 3 a pair, 1 a single (G6.6)."""
    return sum(crystal_sets(c, crystals[c]).points for c in Crystal)


def is_single(count: int) -> bool:
    """Whether a collection of ``count`` crystals of one type has a single to give up in a
    trade: count leaves 1 when divided by 3 (G4.9)."""
    return count % 3 == 1


def score(
    state: State,
    seat: int,
    *,
    round_number: int,
    final: bool,
    held: tuple[Holding, ...] | None = None,
) -> Score:
    """What the player in ``seat`` scores now (G6.4): the value of each habitable tile they
    colonized or hold the majority on, plus their crystal sets. ``held``: the board's
    :func:`holdings`, when the caller has them already."""
    player = state.player(seat)
    held = holdings(state) if held is None else held
    scored = tuple(h for h in held if h.holder is player.colour)
    sets = tuple(crystal_sets(c, player.crystals[c]) for c in Crystal if player.crystals[c])
    return Score(round_number, final, scored, sets)


def tiles_at_value(board: Board, value: int) -> int:
    """Habitable tiles, colonized ones included, whose value is exactly ``value`` (G4.11)."""
    return sum(1 for p in board.habitable() if board[p].value == value)


def cap_refusal(board: Board, position: Position) -> str | None:
    """Why one more penny on this habitable tile breaks the caps (G4.11), or None."""
    new_value = board[position].value + 1
    if new_value > MAX_VALUE:
        return f"{position.name()} is at value {new_value - 1}: no tile's value exceeds 9"
    cap = CAPS.get(new_value)
    if cap is not None and tiles_at_value(board, new_value) >= cap:
        return (
            f"{cap} habitable tiles already stand at value {new_value}, the most the cluster "
            f"allows, so {position.name()} cannot go up to {new_value}"
        )
    return None


def standings(state: State, *, crystals_break_ties: bool) -> list[tuple[int, list[int]]]:
    """Places from first down: each place with its seats (equal totals share a place, G7.4;
    with the ``crystals`` house rule more crystals held rank higher among equal totals)."""

    def key(seat: int) -> tuple[int, int]:
        player = state.player(seat)
        held = sum(player.crystals.values()) if crystals_break_ties else 0
        return (player.vp, held)

    ordered = sorted(state.seats, key=lambda s: (-key(s)[0], -key(s)[1], s))
    places: list[tuple[int, list[int]]] = []
    for seat in ordered:
        if places and key(places[-1][1][0]) == key(seat):
            places[-1][1].append(seat)
        else:
            places.append((len([s for _, ss in places for s in ss]) + 1, [seat]))
    return places


def members_word(count: int) -> str:
    return f"{count} member{'s' if count != 1 else ''}"


def player_of(state: State, colour: Colour) -> PlayerState | None:
    seat = state.seat_of(colour)
    return None if seat is None else state.player(seat)
