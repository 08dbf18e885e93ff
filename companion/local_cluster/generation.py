"""Setting up a game (rulebook 3, ruling R2): lay the tiles, then populate the galaxy.

All randomness comes from a :class:`random.Random` seeded by the caller and recorded in the
game (R2.3), and every random choice is taken from a deterministically ordered list, so the
same seed always lays the same galaxy.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence

from companion.errors import StateError
from companion.local_cluster.atoms import HOME_MINERALS, MINERAL_DIE, Colour, SectorId, UnitType
from companion.local_cluster.errors import GalaxyError
from companion.local_cluster.galaxy import TILE_VARIANTS, Galaxy, Tile
from companion.local_cluster.settings import HouseRules
from companion.local_cluster.state import Empire, State, Unit

TILES_IN_BOX = 48
TILES_PER_PLAYER = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 8


def tile_variant(number: int) -> int:
    """The shape variant of box tile ``number`` (1-48): 12 of each, in blocks of 12."""
    return (number - 1) // (TILES_IN_BOX // TILE_VARIANTS)


@dataclasses.dataclass(frozen=True)
class Placement:
    """One tile laid during galaxy generation: who laid it, which tile, where."""

    seat: int
    sector: SectorId
    tile: Tile


def generate_layout(players: int, rng: random.Random) -> tuple[Placement, ...]:
    """R2.1: deal 6 tiles a player from the shuffled box, then lay them one at a time on a
    square grid, seats taking turns, each tile sharing an edge with one already laid."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise StateError(
            f"Local Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    deck = list(range(1, TILES_IN_BOX + 1))
    rng.shuffle(deck)
    hands = [deck[i * TILES_PER_PLAYER : (i + 1) * TILES_PER_PLAYER] for i in range(players)]
    placements: list[Placement] = []
    laid: set[tuple[int, int]] = set()
    for round_index in range(TILES_PER_PLAYER):
        for seat in range(1, players + 1):
            number = hands[seat - 1][round_index]
            if not laid:
                cell = (0, 0)
            else:
                frontier = sorted(
                    {
                        (c + dc, r + dr)
                        for c, r in laid
                        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    }
                    - laid,
                    key=lambda cell: (cell[1], cell[0]),
                )
                cell = rng.choice(frontier)
            laid.add(cell)
            tile = Tile(cell[0], cell[1], tile_variant(number), rng.randrange(4))
            placements.append(Placement(seat, f"S{number}", tile))
    return tuple(placements)


@dataclasses.dataclass(frozen=True)
class SeatChoice:
    """A seat's choices during population (R2.2): its colour and its home sector."""

    seat: int
    colour: Colour
    home: SectorId


def populate(
    galaxy: Galaxy,
    choices: Sequence[SeatChoice],
    rng: random.Random | None,
    *,
    rules: HouseRules | None = None,
    roll_minerals: bool = True,
) -> State:
    """R2.2: each seat's home gets its claim, 2 minerals and a destroyer; every other sector
    rolls the mineral die (faces 1,2,2,3,3,4) in sector order. With ``roll_minerals=False``
    the galaxy's own (entered or scanned) values are kept, homes still set to 2."""
    if not MIN_PLAYERS <= len(choices) <= MAX_PLAYERS:
        raise StateError(
            f"Local Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(choices)}"
        )
    colours = [c.colour for c in choices]
    if len(set(colours)) != len(colours):
        raise StateError("each colour can be chosen by one empire only (R2.2)")
    seats = [c.seat for c in choices]
    if len(set(seats)) != len(seats):
        raise StateError("each seat chooses once")
    homes: dict[SectorId, Colour] = {}
    for choice in choices:
        sector = galaxy.resolve(choice.home)
        if sector is None:
            raise StateError(f"{choice.colour.title}'s home {choice.home} is not in this galaxy")
        if sector in homes:
            raise StateError(
                f"{sector} is already {homes[sector].title}'s home; choose another sector"
            )
        homes[sector] = choice.colour
    values: dict[SectorId, int] = {}
    for sector in galaxy.ids:
        if sector in homes:
            values[sector] = HOME_MINERALS
        elif roll_minerals:
            if rng is None:
                raise StateError("rolling the mineral die needs a seeded random generator")
            values[sector] = rng.choice(MINERAL_DIE)
    galaxy = galaxy.with_minerals(values)
    empires = [Empire(c.colour, c.seat, galaxy.resolve(c.home) or c.home) for c in choices]
    units = [
        Unit(index, empire.colour, UnitType.DESTROYER, empire.home)
        for index, empire in enumerate(sorted(empires, key=lambda e: e.seat), start=1)
    ]
    return State.create(
        galaxy=galaxy,
        rules=rules or HouseRules(),
        empires=empires,
        units=units,
        claims={e.home: e.colour for e in empires},
    )


def layout_galaxy(placements: Sequence[Placement]) -> Galaxy:
    """The galaxy of a laid-out table, minerals provisionally 1 until population rolls them."""
    tiles: Mapping[SectorId, Tile] = {p.sector: p.tile for p in placements}
    return Galaxy.from_tiles(tiles, dict.fromkeys(tiles, 1))


def _distance_from(galaxy: Galaxy, sources: set[SectorId]) -> dict[SectorId, int]:
    distance = dict.fromkeys(sources, 0)
    frontier = sorted(sources)
    while frontier:
        nxt = []
        for sector in frontier:
            for n in sorted(galaxy.neighbours[sector]):
                if n not in distance:
                    distance[n] = distance[sector] + 1
                    nxt.append(n)
        frontier = nxt
    return distance


def random_setup(
    seed: int,
    players: int = 4,
    *,
    rules: HouseRules | None = None,
    colours: Sequence[Colour] | None = None,
) -> State:
    """A whole random setup from one seed: generation, then population in the rulebook's seat
    order (the last seat to lay a tile chooses first). Seats choose their colour at random
    (or in the order given) and take the home farthest from the homes already taken."""
    rng = random.Random(seed)
    placements = generate_layout(players, rng)
    galaxy = layout_galaxy(placements)
    if colours is None:
        palette = list(Colour)
        rng.shuffle(palette)
        colours = palette[:players]
    elif len(colours) != players:
        raise StateError(f"{players} players need {players} colours, not {len(colours)}")
    choosing = list(range(players, 0, -1))
    choices: list[SeatChoice] = []
    taken: set[SectorId] = set()
    for colour, seat in zip(colours, choosing, strict=True):
        if taken:
            distance = _distance_from(galaxy, taken)
            best = max(distance.values())
            candidates = [s for s in galaxy.ids if distance[s] == best]
        else:
            candidates = list(galaxy.ids)
        home = rng.choice(candidates)
        taken.add(home)
        choices.append(SeatChoice(seat, colour, home))
    try:
        return populate(galaxy, choices, rng, rules=rules)
    except GalaxyError as err:  # pragma: no cover - generated layouts are always connected
        raise StateError(f"generated galaxy was unusable: {err}") from err
