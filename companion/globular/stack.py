"""Which tiles go where (G1.4, G1.5), the starting layout (G2.12) and the stack (G3.12)."""

from __future__ import annotations

import random
from collections import Counter

from companion.globular.geometry import MITS, Position
from companion.globular.tiles import Colour, Corner, Rank, Tile


def _tiles(*codes: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(code) for code in codes)


REMOVED = _tiles("rd2", "rd2", "rd3", "rd3", "rd4", "rd4", "rd5", "bk5", "bla", "bl3", "gra", "gr3")
"""The 12 tiles out of every game (G1.4)."""

MARKERS = {colour: Tile(colour, Rank.FIVE) for colour in Colour}
"""Each colour's marker, its one 5 neither removed nor in the stack (G1.4); no effect on play."""

STARTING_LAYOUT: tuple[tuple[Position, Tile, Corner, int], ...] = (
    (Position.parse("k7"), Tile.parse("bka"), Corner.TR, 1),
    (Position.parse("l6"), Tile.parse("bka"), Corner.BR, 1),
    (Position.parse("l8"), Tile.parse("bkn"), Corner.TL, 0),
)
"""Figure 1 (G2.12): the MITS at m7 plus these tiles, each with its tick corner and pennies."""

MITS_TILE = Tile.parse("bla")
"""The MITS is the other blue ace, face down (G1.4)."""

GROUP_1 = _tiles("rda", "bk2", "bk2", "bln", "bl4", "bl5", "gr3", "gr4", "gr5")
GROUP_2 = _tiles("rda", "rdn", "bkn", "bk3", "bk3", "bl2", "bl3", "bl4", "grn", "gr4")
GROUP_3 = _tiles("rdn", "bk4", "bk4", "bln", "bl2", "gra", "grn", "gr2", "gr2")
THREE_PLAYER_REMOVAL = Tile.parse("grn")
"""With 3 players group 2's green null is removed as well (G1.5)."""


def groups(players: int) -> tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...]]:
    """Groups 1, 2 and 3 for this many players (G3.12, G1.5)."""
    group_2 = list(GROUP_2)
    if players == 3:
        group_2.remove(THREE_PLAYER_REMOVAL)
    return GROUP_1, tuple(group_2), GROUP_3


def stack_tiles(players: int) -> Counter[Tile]:
    """Every tile of the stack, by code: 28 tiles, or 27 with 3 players (G1.5)."""
    counts: Counter[Tile] = Counter()
    for group in groups(players):
        counts.update(group)
    return counts


def shuffled_stack(players: int, rng: random.Random) -> tuple[Tile, ...]:
    """The stack, top tile first: each group shuffled with ``rng``, group 3 on top, group 1 at
    the bottom, so all of group 3 is drawn first, then group 2, then group 1 (G3.12, G3.13)."""
    group_1, group_2, group_3 = groups(players)
    drawn_first: list[Tile] = []
    for group in (group_3, group_2, group_1):
        tiles = sorted(group)
        rng.shuffle(tiles)
        drawn_first.extend(tiles)
    return tuple(drawn_first)


def all_tiles() -> Counter[Tile]:
    """The 48 tiles of two piecepacks, for the checks that every tile is somewhere (G1.4)."""
    return Counter(Tile(colour, rank) for colour in Colour for rank in Rank for _ in range(2))


__all__ = [
    "GROUP_1",
    "GROUP_2",
    "GROUP_3",
    "MARKERS",
    "MITS",
    "MITS_TILE",
    "REMOVED",
    "STARTING_LAYOUT",
    "THREE_PLAYER_REMOVAL",
    "all_tiles",
    "groups",
    "shuffled_stack",
    "stack_tiles",
]
