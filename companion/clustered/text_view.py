"""The game as plain text for a terminal: the layout as a grid, the seats, what it waits for.

Each cell shows a card in four characters: colour, shape (``s`` square, ``t`` triangle, ``c``
circle), fill (``h`` hollow, ``d`` dashed, ``s`` solid) and number: ``Btd3`` is ``B-tr-da-3``;
``Bw`` a wild card, ``**`` a start card, ``.`` an empty cell.
"""

from __future__ import annotations

from companion.clustered.cards import Card
from companion.clustered.cells import Cell
from companion.clustered.game import ClusteredGame
from companion.clustered.layout import Layout
from companion.clustered.scoring import BONUS_WORDS

KEY = (
    "Key: Btd3 = B-tr-da-3 (colour, shape s/t/c, fill h/d/s, number); Bw = B-wild; ** = start card"
)


def short(card: Card | None) -> str:
    if card is None:
        return "."
    if card.is_start:
        return "**"
    if card.is_wild:
        return f"{card.colour}w"
    assert card.shape is not None and card.fill is not None
    return f"{card.colour}{card.shape.value[0]}{card.fill.value[0]}{card.number}"


def grid(layout: Layout) -> list[str]:
    """The layout, rows from north to south, with x above and y to the left."""
    if not layout:
        return []
    x_min, x_max, y_min, y_max = layout.bounds()
    width = 5
    label = max(len(str(y_min)), len(str(y_max)), 3)
    lines = ["y\\x".rjust(label) + "".join(str(x).rjust(width) for x in range(x_min, x_max + 1))]
    for y in range(y_max, y_min - 1, -1):
        cells = "".join(short(layout.get(Cell(x, y))).rjust(width) for x in range(x_min, x_max + 1))
        lines.append(str(y).rjust(label) + cells)
    return [line.rstrip() for line in lines]


def who(game: ClusteredGame, seat: int) -> str:
    """``Blue (seat 1, Ann)``."""
    name = game.player(seat).name
    colour = game.name(seat).capitalize()
    return f"{colour} (seat {seat}{', ' + name if name else ''})"


def seats(game: ClusteredGame) -> list[str]:
    lines = []
    over = game.over
    for seat in game.seats:
        discards = game.discards(seat)
        told = f", {len(discards)} discarded" if discards else ""
        if over and any(d.card for d in discards):
            told += " (" + ", ".join(d.card.text() if d.card else "unnamed" for d in discards) + ")"
        lines.append(
            f"  {who(game, seat)}: {game.taken(seat)} of {game.turns_total(seat)} turns taken, "
            f"{game.hand_size(seat)} in hand, {game.deck_left(seat)} in the deck{told}"
        )
    return lines


def bonuses(game: ClusteredGame) -> list[str]:
    lines = []
    holders: dict[str, str | None] = {}
    if game.settings.first_bonuses:
        holders.update(game.first_holders())
    if game.settings.largest_bonuses:
        holders.update(game.largest_holders())
    for bonus, colour in holders.items():
        holder = "nobody yet" if colour is None else who(game, game.seat_of(colour))
        lines.append(f"  {BONUS_WORDS[bonus]}: {holder}")
    return ["Bonuses:", *lines] if lines else []


def waiting(game: ClusteredGame) -> str:
    seat = game.current_seat()
    if seat is not None:
        return (
            f"{who(game, seat)} to play: a placement (companion place GAME.json CARD CELL) or, "
            "with no legal move, a declaration (companion discard GAME.json ...)."
        )
    if game.stopped is not None:
        return f"The host stopped the game ({game.stopped}): unfinished, nobody wins (K5.6)."
    if game.blocked() and any(game.turns_left(s) > 0 for s in game.seats):
        return "Game over: no card anyone could hold fits anywhere any more (K5.5)."
    return "Game over: every card has been played or discarded (K5.1)."


def describe(game: ClusteredGame) -> list[str]:
    """The whole position for ``companion show``."""
    out = [*grid(game.layout), KEY, "", "Seats (clockwise):", *seats(game)]
    out += bonuses(game)
    out += ["", waiting(game)]
    return out
