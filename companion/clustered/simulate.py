"""Players for tests, benchmarks and demonstrations: real shuffled decks and hands.

The companion never knows a hand; a simulated table does. Each seat shuffles its deck from one
seeded :class:`random.Random` (so the same seed plays the same game), draws as the rules say
(K3.4, K3.5; quick play K7.5, K7.6) and plays through :class:`ClusteredGame` like a player at
the table: a placement, or a declaration with its whole hand when no card fits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.clustered.cards import Card, deck
from companion.clustered.cells import Cell
from companion.clustered.game import ClusteredGame, Player
from companion.clustered.moves import Declaration, Placement
from companion.clustered.settings import Settings

POLICIES = ("random", "cluster", "compact")


class Table:
    """A simulated table: the game plus every seat's deck and hand."""

    def __init__(
        self,
        players: Sequence[Player],
        *,
        settings: Settings | None = None,
        seed: int = 0,
        first_seat: int = 1,
        policy: str = "random",
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy is one of {POLICIES}, not {policy!r}")
        self.game = ClusteredGame(players, settings=settings, first_seat=first_seat)
        self.rng = random.Random(seed)
        self.policy = policy
        self._unnamed: Card | None = None
        """The card an unnamed discard (discard_check table) took from the hand."""
        self.decks: dict[int, list[Card]] = {}
        self.hands: dict[int, list[Card]] = {}
        settings = self.game.settings
        for seat in self.game.seats:
            colour = self.game.colour(seat)
            cards = list(deck(colour, settings.wilds(colour)))
            self.rng.shuffle(cards)
            self.decks[seat] = cards
            self.hands[seat] = [
                cards.pop() for _ in range(min(7 if settings.quick_play else 5, len(cards)))
            ]
            if settings.quick_play:
                self._discard_down(seat, 5)

    def _discard_down(self, seat: int, size: int) -> None:
        """Quick play's free discards (K7.5 to K7.7): unrecorded, any card."""
        hand = self.hands[seat]
        while len(hand) > size:
            hand.pop(self.rng.randrange(len(hand)))

    def _choose(self, seat: int) -> Placement | None:
        game = self.game
        options: list[tuple[Card, Cell]] = []
        for card in dict.fromkeys(self.hands[seat]):
            options += [(card, cell) for cell in game.legal_cells(card)]
        if not options:
            return None
        if self.policy in ("cluster", "compact"):
            colour = game.colour(seat)
            layout = game.layout

            def mine(cell: Cell) -> int:
                return sum(
                    1 for n in cell.neighbours() if (c := layout.get(n)) and c.colour == colour
                )

            def packed(cell: Cell) -> tuple[int, int, float]:
                """Own neighbours, then any neighbours, then nearness to a start card."""
                near = min(abs(cell.x - s.x) + abs(cell.y - s.y) for s in layout.starts)
                return (mine(cell), sum(1 for n in cell.neighbours() if n in layout), -near)

            if self.policy == "cluster":
                most = max(mine(cell) for _, cell in options)
                options = [o for o in options if mine(o[1]) == most]
            else:
                best = max(packed(cell) for _, cell in options)
                options = [o for o in options if packed(o[1]) == best]
        card, cell = options[self.rng.randrange(len(options))]
        return Placement(card, cell)

    def next_move(self) -> str | None:
        """The text the current seat would play (a placement, or a declaration with its whole
        hand when no card fits), without playing it; None when the game is over."""
        game = self.game
        seat = game.current_seat()
        if seat is None:
            return None
        hand = self.hands[seat]
        placement = self._choose(seat)
        if placement is not None:
            return placement.text()
        card = hand[self.rng.randrange(len(hand))]
        if game.settings.discard_check == "hand":
            return Declaration(card, tuple(hand)).text()
        self._unnamed = card
        return Declaration().text()

    def advance(self, text: str) -> None:
        """Play ``text`` for the current seat (it came from :meth:`next_move`, perhaps through a
        table service) and draw as the rules say."""
        game = self.game
        seat = game.current_seat()
        assert seat is not None
        hand = self.hands[seat]
        result = game.play(text, seat)
        if isinstance(result.move, Placement):
            hand.remove(result.move.card)
        else:
            gone = result.move.card if result.move.card is not None else self._unnamed
            assert gone is not None
            hand.remove(gone)
        draws = 2 if game.settings.quick_play else 1
        for _ in range(draws):
            if self.decks[seat]:
                hand.append(self.decks[seat].pop())
        if game.settings.quick_play:
            self._discard_down(seat, 5)

    def play_turn(self) -> bool:
        """Play the current seat's turn; False when the game is over."""
        text = self.next_move()
        if text is None:
            return False
        self.advance(text)
        return True

    def play(self, turns: int | None = None) -> ClusteredGame:
        """Play ``turns`` turns, or to the end."""
        count = 0
        while (turns is None or count < turns) and self.play_turn():
            count += 1
        return self.game


def simulate(
    players: int | Sequence[Player],
    *,
    settings: Settings | None = None,
    seed: int = 0,
    policy: str = "random",
    turns: int | None = None,
) -> ClusteredGame:
    """A game played by simulated players (the first ``players`` colours of the palette)."""
    settings = settings or Settings()
    if isinstance(players, int):
        players = [Player(code) for code in settings.palette.codes[:players]]
    return Table(players, settings=settings, seed=seed, policy=policy).play(turns)
