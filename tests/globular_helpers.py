"""Helpers for the Globular Cluster tests: games whose draws and rolls the test chooses, and
positions set up directly (the way a rulebook example starts from a picture)."""

from __future__ import annotations

from collections.abc import Iterable

from companion.globular.game import GlobularGame
from companion.globular.geometry import MITS, Position
from companion.globular.settings import Dice, Settings, StackKeeper, TieBreak
from companion.globular.state import PlayerState
from companion.globular.tiles import COLOURS, Colour, Corner, Tile

FIGURE_2 = (
    ("i7", "gra", "tr"),
    ("j6", "gr2", "bl"),
    ("h6", "rdn", "br"),
    ("k5", "bl2", "bl"),
    ("j8", "bln", "bl"),
    ("h8", "grn", "tr"),
)
"""Ruling G2.13: the six group-3 tiles of Figure 2, in the order they are placed."""


def P(name: str) -> Position:
    return Position.parse(name)


def new_game(
    players: int = 2,
    *,
    dice: Dice = Dice.PHYSICAL,
    stack: StackKeeper = StackKeeper.PHYSICAL,
    tiebreak: TieBreak = TieBreak.NONE,
    seed: int = 1,
) -> GlobularGame:
    """A game of red, black, blue, green (the first ``players``); by default the table draws
    and rolls, so a test says which tile comes and what the die shows."""
    return GlobularGame(Settings(COLOURS[:players], dice, stack, tiebreak), seed)


def play(game: GlobularGame, *lines: str) -> None:
    for line in lines:
        game.play(line)


def lay(game: GlobularGame, *tiles: tuple[str, str, str] | str, pennies: int | None = None) -> None:
    """Put tiles straight onto the board (a test's starting picture): ``("i7", "gra", "tr")``
    or ``"i7 gra tr"``. Resource tiles get their pennies (G3.11) unless ``pennies`` says."""
    for spec in tiles:
        name, code, corner = spec.split() if isinstance(spec, str) else spec
        tile = Tile.parse(code)
        count = pennies if pennies is not None else (tile.number or 0)
        if tile.kind.value != "resource" and pennies is None:
            count = 0
        game.state.board.place(P(name), tile, Corner.parse(corner), count)
        if tile in game.state.stack:
            game.state.stack.remove(tile)


def full_rectangle(game: GlobularGame) -> None:
    """Tiles on every position of a 7-row, 12-half-tile rectangle (rows 4 to 10): no tile
    fits anywhere any more (G3.5)."""
    for r in range(-3, 4):
        for q in range(-10, 1):
            position = Position.at(q, r)
            if position.exists and position not in game.state.board:
                game.state.board.place(position, Tile.parse("gr2"), Corner.TR)


def figure_2(game: GlobularGame) -> None:
    lay(game, *FIGURE_2)


def player(game: GlobularGame, colour: str | Colour) -> PlayerState:
    wanted = Colour.parse(colour) if isinstance(colour, str) else colour
    for p in game.state.players:
        if p.colour is wanted:
            return p
    raise KeyError(colour)


def put(
    game: GlobularGame,
    colour: str,
    coins: dict[str, int] | None = None,
    *,
    leader: str | None = "keep",
) -> PlayerState:
    """Set where a player's pieces stand (coins not named stay on the MITS, up to 12)."""
    who = player(game, colour)
    if coins is not None:
        placed = {P(name): n for name, n in coins.items() if n}
        left = 12 - sum(placed.values()) - who.coins_out - who.colonist
        if MITS not in placed and left:
            placed[MITS] = left
        who.coins = placed
    if leader != "keep":
        who.leader = None if leader is None else P(leader)
    return who


def start_actions(game: GlobularGame, draw: str = "bl2", place: str | None = None) -> None:
    """Get the acting player past the draw and placement of a normal turn."""
    game.play(f"draw {draw}")
    if place is None:
        legal = game.legal_placements()
        name = sorted(legal)[0]
        place = f"{name} {legal[name][0]}"
    game.play(f"place {place}")


def give_crystals(game: GlobularGame, colour: str, **counts: int) -> None:
    """``give_crystals(game, "red", n1=2, t23=1, four=0, five=3)``."""
    from companion.globular.tiles import Crystal

    names = {"n1": Crystal.N1, "t23": Crystal.T23, "four": Crystal.FOUR, "five": Crystal.FIVE}
    who = player(game, colour)
    for name, count in counts.items():
        who.crystals[names[name]] = count


def names(positions: Iterable[Position]) -> list[str]:
    return [p.name() for p in positions]
