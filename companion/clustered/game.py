"""A game of Clustered as the companion follows it (K3, K4, K5): seats, whose turn it is,
what each player could hold, legal placements, declarations, the end and the score.

The companion never sees a deck and sees a hand only when its player enters it (K3.4); it
counts turns instead (K5.3, K7.7). A :class:`ClusteredGame` is the settings, the seats and the
record: every accepted placement and discard in order, plus the host's undos and stop. Every
question (whose turn, cards left, the layout, the score) is answered from those.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.clustered.cards import Card, ColourCode, deck
from companion.clustered.cells import Cell
from companion.clustered.errors import (
    DeclarationError,
    NotationError,
)
from companion.clustered.layout import Layout
from companion.clustered.legality import (
    IllegalPlacementError,
    Refusal,
    Verdict,
    cell_verdict,
    fits,
    frontier,
    legal_cells,
)
from companion.clustered.moves import Declaration, Discard, Placement, parse_turn
from companion.clustered.scoring import (
    FIRST_BONUSES,
    ScoreSheet,
    first_achievers,
    largest_holders,
    largest_rectangle,
    lines_of,
    score,
)
from companion.clustered.settings import Settings, hand_size
from companion.errors import StateError

MIN_PLAYERS, MAX_PLAYERS = 1, 8
"""K1.4: 1 to 8 players."""


@dataclasses.dataclass(frozen=True)
class Player:
    """A seat's player: the colour of their deck (K3.1) and, for solo bests, a name (K8.3)."""

    colour: ColourCode
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "name": self.name}


@dataclasses.dataclass(frozen=True)
class Step:
    """One entry of the record: a turn (``place``, ``discard``) or a host action (``undo``,
    ``stop``), with the digest of the position it led to."""

    kind: str
    seat: int | None = None
    move: str | None = None
    reason: str = ""
    digest: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.move is not None:
            out["move"] = self.move
        if self.reason:
            out["reason"] = self.reason
        out["digest"] = self.digest
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        return cls(
            str(data["kind"]),
            data.get("seat"),
            data.get("move"),
            str(data.get("reason", "")),
            str(data.get("digest", "")),
        )


@dataclasses.dataclass(frozen=True)
class Turn:
    """An accepted turn (K3.5): a placement or a forced discard."""

    seat: int
    move: Placement | Discard


@dataclasses.dataclass(frozen=True)
class TurnResult:
    """What a turn did, for announcements (K7.11) and the table's summary."""

    seat: int
    move: Placement | Discard
    earned: tuple[str, ...] = ()
    """First-to-achieve bonuses this placement earned (K7.8 to K7.11)."""
    over: bool = False
    blocked: bool = False
    """The game ended because nothing could ever be placed again (K5.5)."""


class ClusteredGame:
    """The settings, the seats (in clockwise order, K3.2) and the record."""

    def __init__(
        self,
        players: Sequence[Player],
        *,
        settings: Settings | None = None,
        first_seat: int = 1,
    ) -> None:
        self.settings = settings or Settings()
        self.players = tuple(players)
        count = len(self.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise StateError(f"Clustered is for 1 to 8 players, not {count} (K1.4)")
        codes = self.settings.palette.codes
        seen: set[str] = set()
        for player in self.players:
            if player.colour not in codes:
                raise StateError(
                    f"there is no colour {player.colour!r} in the palette ({' '.join(codes)})"
                )
            if player.colour in seen:
                raise StateError(
                    f"{self.settings.palette.name(player.colour)} is played by two seats; "
                    "each colour by at most one player (K1.4)"
                )
            seen.add(player.colour)
        if not 1 <= first_seat <= count:
            raise StateError(f"the first player is one of seats 1 to {count}, not {first_seat}")
        self.settings.check_for(count)
        self.first_seat = first_seat
        self.steps: list[Step] = []
        self.turns: list[Turn] = []
        self.stopped: str | None = None
        """Why the host stopped the game early (K5.6), or None."""
        self.layout = Layout.starting(self.settings.start_cells(count))
        self._cache: dict[str, Any] = {}
        """Answers that depend only on the turns so far; emptied whenever they change."""

    # Seats ---------------------------------------------------------------------------------------

    @property
    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def player(self, seat: int) -> Player:
        if seat not in self.seats:
            raise StateError(f"this game has seats 1 to {len(self.players)}, not {seat}")
        return self.players[seat - 1]

    def colour(self, seat: int) -> ColourCode:
        return self.player(seat).colour

    def seat_of(self, colour: ColourCode) -> int:
        for seat, player in zip(self.seats, self.players, strict=True):
            if player.colour == colour:
                return seat
        raise StateError(f"nobody plays {colour!r} in this game")

    def name(self, seat: int) -> str:
        """The colour's name, as screens say whose turn it is."""
        return self.settings.palette.name(self.colour(seat))

    @property
    def codes(self) -> tuple[ColourCode, ...]:
        return self.settings.palette.codes

    # Counting (K3.8, K5.3, K7.7) -----------------------------------------------------------------

    def taken(self, seat: int) -> int:
        counts = self._cache.get("taken")
        if counts is None:
            counts = self._cache["taken"] = Counter(turn.seat for turn in self.turns)
        return int(counts[seat])

    def turns_total(self, seat: int) -> int:
        return self.settings.turns(self.colour(seat))

    def turns_left(self, seat: int) -> int:
        return self.turns_total(seat) - self.taken(seat)

    def hand_size(self, seat: int) -> int:
        """K5.3, K7.7: the cards in the seat's hand now (before its next turn)."""
        return hand_size(self.turns_total(seat), self.taken(seat))

    def deck_left(self, seat: int) -> int:
        """The cards still in the seat's deck (K3.8)."""
        size = self.settings.deck_size(self.colour(seat))
        taken = self.taken(seat)
        if self.settings.quick_play:
            return max(0, size - 7 - 2 * taken)
        return max(0, size - 5 - taken)

    def placements(self) -> list[tuple[Cell, Card]]:
        """The accepted placements in order (the record, K3.8)."""
        return [(t.move.cell, t.move.card) for t in self.turns if isinstance(t.move, Placement)]

    def discards(self, seat: int) -> list[Discard]:
        """The seat's forced discards (named or not); never shown before the end (K3.15)."""
        return [t.move for t in self.turns if t.seat == seat and isinstance(t.move, Discard)]

    def could_hold(self, seat: int) -> list[Card]:
        """K3.13: the seat's deck less the cards in the record and less its named discards;
        wild cards once per copy that could still be held."""
        key = f"could_hold {seat}"
        if key not in self._cache:
            colour = self.colour(seat)
            gone = Counter(card for card in self.layout.values() if card.colour == colour)
            gone.update(d.card for d in self.discards(seat) if d.card is not None)
            out = []
            for card in deck(colour, self.settings.wilds(colour)):
                if gone[card]:
                    gone[card] -= 1
                else:
                    out.append(card)
            self._cache[key] = out
        return list(self._cache[key])

    # Whose turn, and the end (K3.2, K5) ----------------------------------------------------------

    def frontier(self) -> dict[Cell, int]:
        """Empty cells on the surface beside a card, each with the signatures that fit."""
        if "frontier" not in self._cache:
            self._cache["frontier"] = frontier(self.layout, self.settings.surface)
        found: dict[Cell, int] = self._cache["frontier"]
        return found

    def has_legal_cell(self, card: Card) -> bool:
        return any(fits(card, mask) for mask in self.frontier().values())

    def legal_cells(self, card: Card) -> list[Cell]:
        return legal_cells(self.layout, card, self.settings.surface, self.frontier())

    def blocked(self) -> bool:
        """K5.5: no card any player with cards left could hold has a legal cell."""
        if "blocked" not in self._cache:
            self._cache["blocked"] = self._blocked()
        return bool(self._cache["blocked"])

    def _blocked(self) -> bool:
        cells = self.frontier()
        if not cells:
            return True
        union = 0
        for mask in cells.values():
            union |= mask
        for seat in self.seats:
            if self.turns_left(seat) <= 0:
                continue
            for card in self.could_hold(seat):
                if card.is_wild or union >> card.signature & 1:
                    return False
        return True

    @property
    def over(self) -> bool:
        """K5.1, K5.5, K5.6: stopped, every card gone, or (by default) blocked for good."""
        if self.stopped is not None:
            return True
        if all(self.turns_left(seat) <= 0 for seat in self.seats):
            return True
        return self.settings.end_when_blocked and self.blocked()

    @property
    def finished(self) -> bool:
        """Over and not stopped early: a result with a winner (K5.6)."""
        return self.over and self.stopped is None

    def current_seat(self) -> int | None:
        """K3.2, K5.2: the next seat clockwise with cards left, or None when the game is over."""
        if self.over:
            return None
        count = len(self.players)
        seat = self.first_seat if not self.turns else self.turns[-1].seat % count + 1
        for _ in range(count):
            if self.turns_left(seat) > 0:
                return seat
            seat = seat % count + 1
        return None  # pragma: no cover - over would have said so

    def _acting(self, seat: int | None) -> int:
        current = self.current_seat()
        if current is None:
            raise StateError("the game is over; no more cards are played (K5.1)")
        if seat is not None and seat != current:
            raise StateError(f"it is {self.name(current)}'s turn, not {self.name(seat)}'s")
        return current

    # Placements (K4) -----------------------------------------------------------------------------

    def verdict(self, placement: Placement, seat: int | None = None) -> Verdict:
        """K4.1: whether the current player (or ``seat``) may make this placement now."""
        card, cell = placement.card, placement.cell
        seat = self._acting(None) if seat is None else seat
        colour = self.colour(seat)
        palette = self.settings.palette
        if card.colour != colour:
            whose = "a start card" if card.colour is None else f"{palette.name(card.colour)}'s"
            return Verdict(
                card,
                cell,
                Refusal.WRONG_COLOUR,
                reason=f"{card.text()} is {whose}, and this is {palette.name(colour)}'s turn",
            )
        if card not in self.could_hold(seat):
            if card.is_wild:
                reason = (
                    f"all {self.settings.wilds(colour)} of {palette.name(colour)}'s wild cards "
                    "have been played or discarded"
                )
            elif any(c == card for c in self.layout.values()):
                where = next(c for c, k in self.layout.items() if k == card)
                reason = f"{card.text()} is already on the table at {where.text()}"
            else:
                reason = f"{card.text()} was discarded"
            return Verdict(card, cell, Refusal.ALREADY_PLAYED, reason=reason)
        return cell_verdict(self.layout, card, cell, self.settings.surface)

    def place(self, placement: Placement, seat: int | None = None) -> TurnResult:
        """K3.9: accept a legal placement (the turn passes), or IllegalPlacementError (K3.10:
        nothing is recorded and the turn goes on)."""
        acting = self._acting(seat)
        verdict = self.verdict(placement, acting)
        if not verdict.legal:
            raise IllegalPlacementError(verdict)
        before = self.first_holders() if self.settings.first_bonuses else {}
        self._apply(Turn(acting, placement))
        earned: tuple[str, ...] = ()
        if self.settings.first_bonuses:
            after = self.first_holders()
            earned = tuple(b for b in FIRST_BONUSES if before.get(b) is None and after.get(b))
        self._record(Step("place", acting, placement.text()))
        return TurnResult(acting, placement, earned, self.over, self._ended_blocked())

    # Declarations and forced discards (K3.13 to K3.15) -------------------------------------------

    def check_declaration(self, declaration: Declaration, seat: int | None = None) -> Discard:
        """The discard a "no legal move" declaration makes, or DeclarationError: K3.13
        (``table-has-move``), then with the ``hand`` check ``hand-invalid`` and
        ``hand-has-move`` (K3.14)."""
        acting = self._acting(seat)
        self._check_table(acting)
        if self.settings.discard_check == "table":
            if declaration.discard is not None or declaration.hand is not None:
                raise DeclarationError(
                    "hand-invalid",
                    [
                        "this table checks a declaration against the table only "
                        "(discard_check: table), so no card is named: declare with just "
                        "'discard' (K3.14)"
                    ],
                )
            return Discard(None)
        hand = declaration.hand or ()
        self._check_hand(acting, hand, declaration.discard)
        fitting = []
        for card in dict.fromkeys(hand):
            cells = self.legal_cells(card)
            if cells:
                more = f" (and {len(cells) - 1} more cells)" if len(cells) > 1 else ""
                fitting.append(f"{card.text()} fits at {cells[0].text()}{more}")
        if fitting:
            raise DeclarationError("hand-has-move", [*fitting, "so you have a legal move (K3.5)"])
        return Discard(declaration.discard)

    def _check_table(self, seat: int) -> None:
        holdable = self.could_hold(seat)
        if holdable and all(self.has_legal_cell(card) for card in holdable):
            raise DeclarationError(
                "table-has-move",
                [
                    "every card you could hold has a legal cell on the table, so you have a "
                    "legal move (K3.13)"
                ],
            )

    def _check_hand(self, seat: int, hand: Sequence[Card], discard: Card | None) -> None:
        reasons = []
        size = self.hand_size(seat)
        if len(hand) != size:
            reasons.append(
                f"enter your whole hand: you hold {size} card{'s' * (size != 1)}, not "
                f"{len(hand)} (discard CARD hand CARD CARD ...)"
            )
        available = Counter(self.could_hold(seat))
        for card, count in sorted(Counter(hand).items(), key=lambda kv: kv[0].text()):
            if count > available[card]:
                if available[card] == 0:
                    reasons.append(f"you cannot hold {card.text()}: it is not in your deck now")
                else:
                    reasons.append(
                        f"you cannot hold {count} x {card.text()}: at most {available[card]}"
                    )
        if discard is None:
            reasons.append("name the card you discard (discard CARD hand ...)")
        elif discard not in hand:
            reasons.append(f"the card you discard, {discard.text()}, is not in the hand entered")
        if reasons:
            raise DeclarationError("hand-invalid", reasons)

    def discard(self, move: Discard, seat: int | None = None) -> TurnResult:
        """A forced discard the declaration checks have accepted (K3.15). The checks that need
        only the table are made again here (so a record replays only possible discards)."""
        acting = self._acting(seat)
        self._check_table(acting)
        if move.card is not None:
            if self.settings.discard_check == "table":
                raise DeclarationError(
                    "hand-invalid", ["this table names no discards (discard_check: table)"]
                )
            if move.card not in self.could_hold(acting):
                raise DeclarationError(
                    "hand-invalid", [f"{self.name(acting)} cannot hold {move.card.text()}"]
                )
        elif self.settings.discard_check == "hand":
            raise DeclarationError("hand-invalid", ["name the card discarded (K3.14)"])
        self._apply(Turn(acting, move))
        self._record(Step("discard", acting, move.text()))
        return TurnResult(acting, move, (), self.over, self._ended_blocked())

    def declare(self, declaration: Declaration, seat: int | None = None) -> TurnResult:
        return self.discard(self.check_declaration(declaration, seat), seat)

    def play(self, text: str, seat: int | None = None) -> TurnResult:
        """A turn from its text: a placement or a declaration (:mod:`.moves`)."""
        move = parse_turn(text, self.codes)
        if isinstance(move, Placement):
            return self.place(move, seat)
        return self.declare(move, seat)

    # The host (K3.12, K5.6) ----------------------------------------------------------------------

    def undo(self, reason: str = "") -> Turn:
        """K3.12: take back the last accepted turn (the turn goes back to its seat)."""
        if self.stopped is not None:
            raise StateError("the game was stopped; nothing can be undone")
        if not self.turns:
            raise StateError("there is no placement to undo")
        turn = self.turns.pop()
        if isinstance(turn.move, Placement):
            self.layout = self.layout.removed(turn.move.cell)
        self._cache.clear()
        self._record(Step("undo", reason=reason))
        return turn

    def stop(self, reason: str = "") -> None:
        """K5.6: the host ends the game early; the score is shown, unfinished."""
        if self.over:
            raise StateError("the game is already over")
        self.stopped = reason or "stopped by the host"
        self._record(Step("stop", reason=reason))

    # Applying and recording ----------------------------------------------------------------------

    def _apply(self, turn: Turn) -> None:
        self.turns.append(turn)
        if isinstance(turn.move, Placement):
            self.layout = self.layout.placed(turn.move.cell, turn.move.card)
        self._cache.clear()

    def _record(self, step: Step) -> None:
        self.steps.append(dataclasses.replace(step, digest=self.digest()))

    def _ended_blocked(self) -> bool:
        return (
            self.stopped is None
            and self.settings.end_when_blocked
            and any(self.turns_left(s) > 0 for s in self.seats)
            and self.blocked()
        )

    def apply_step(self, step: Step) -> None:
        """Replay one recorded step and check it lands on its digest (records)."""
        if step.kind == "place":
            self.place(Placement.parse(step.move or "", self.codes), step.seat)
        elif step.kind == "discard":
            self.discard(Discard.parse(step.move or "", self.codes), step.seat)
        elif step.kind == "undo":
            self.undo(step.reason)
        elif step.kind == "stop":
            self.stop(step.reason)
        else:
            raise NotationError(f"there is no step kind {step.kind!r}")
        if step.digest and self.steps[-1].digest != step.digest:
            raise StateError(
                f"the position after it differs from the record's (digest {self.steps[-1].digest}"
                f", recorded {step.digest})"
            )

    def digest(self) -> str:
        """The first 16 hex digits of the SHA-256 of the position: layout, turns taken and
        discards per seat, stopped or not."""
        parts = [f"{cell.text()}={card.text()}" for cell, card in self.layout.in_order()]
        for seat in self.seats:
            named = ",".join(d.text() for d in self.discards(seat))
            parts.append(f"seat{seat}:{self.taken(seat)}:{named}")
        parts.append(f"stopped:{self.stopped is not None}")
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    # Scoring and bonuses (K6, K7.8 to K7.16) -----------------------------------------------------

    def colours(self) -> list[ColourCode]:
        return [p.colour for p in self.players]

    def first_holders(self) -> dict[str, ColourCode | None]:
        """K7.9: who earned each first-to-achieve bonus so far (the record's order decides)."""
        earned = first_achievers(
            self.placements(), {c: k for c, k in self.layout.items() if k.is_start}
        )
        return {name: None if got is None else got[0] for name, got in earned.items()}

    def first_placements(self) -> dict[str, int | None]:
        """For each first-to-achieve bonus, the index of the placement that earned it."""
        earned = first_achievers(
            self.placements(), {c: k for c, k in self.layout.items() if k.is_start}
        )
        return {name: None if got is None else got[1] for name, got in earned.items()}

    def largest_holders(self) -> dict[str, ColourCode | None]:
        """K7.15: the current holder of each largest-feature bonus (nobody while tied)."""
        features = {}
        for colour in self.colours():
            cells = self.layout.cells_of(colour)
            features[colour] = (largest_rectangle(cells), lines_of(cells, colour))
        return largest_holders(features)

    def score_sheet(self) -> ScoreSheet:
        """K6.8 to K6.10 on the record's layout, with the bonuses that are on; without a
        winner while the game goes on or when the host stopped it (K5.6)."""
        return score(
            self.layout,
            self.colours(),
            first=self.first_holders() if self.settings.first_bonuses else None,
            largest_bonuses=self.settings.largest_bonuses,
            finished=self.finished,
            stopped=self.stopped is not None,
        )


def replay(
    players: Sequence[Player],
    steps: Iterable[Step],
    *,
    settings: Settings | None = None,
    first_seat: int = 1,
) -> ClusteredGame:
    """A game rebuilt from its steps (each checked on its digest when it has one)."""
    game = ClusteredGame(players, settings=settings, first_seat=first_seat)
    for index, step in enumerate(steps, start=1):
        try:
            game.apply_step(step)
        except (StateError, NotationError, IllegalPlacementError, DeclarationError) as err:
            raise StateError(f"step {index} ({step.kind} {step.move or ''}): {err}") from err
    return game
