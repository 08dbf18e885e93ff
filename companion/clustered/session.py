"""Clustered at the table: the :class:`GameSetup` and :class:`GameSession` of a turn-taking game.

Seats are numbered clockwise (K3.2) and each chooses the colour of the deck it plays (K3.1);
the host names the first player when creating the table (K3.3, option ``first_seat``). There is
one stage, :data:`TURN` (``StageKind.TURN``): the acting seat (the only one owing) places a card
or declares it has no legal move; the service plays the checked move at once, or on the seat's
"done" press. A turn whose clock runs out changes nothing and stays with the same seat: the
rulings have no pass, and a turn ends only with a placement or an accepted declaration (K3.5);
a clock is the table's reminder, not a rule of the game.

Everything the screens show comes from :meth:`ClusteredSession.public`; a named discard is in
nobody's view before the end (K3.15), and summaries never name one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.clustered import record as records
from companion.clustered.cards import Card, deck
from companion.clustered.cells import Cell, reading_order
from companion.clustered.errors import (
    DeclarationError,
    NotationError,
    SettingsError,
)
from companion.clustered.game import ClusteredGame, Player, Step, Turn, replay
from companion.clustered.legality import IllegalPlacementError, Refusal
from companion.clustered.moves import Discard, Placement, parse_turn
from companion.clustered.scan import LayoutScan, compare
from companion.clustered.settings import Settings
from companion.clustered.solo import profile_of
from companion.errors import CompanionError, StateError
from companion.service.session import Stage, StageKind, SubmissionError

GAME = "clustered"

TURN = Stage("turn", "Turn", StageKind.TURN, "card", "green")
"""A seat's turn: a placement, or a declaration of no legal move (K3.5)."""
STAGES = (TURN,)

MAX_NAME = 40


class ClusteredSetup:
    """A new Clustered table: its settings, its first seat, and the seats' colours to come."""

    game = GAME

    def __init__(
        self,
        players: int,
        *,
        settings: Settings | None = None,
        first_seat: int = 1,
        record: Mapping[str, Any] | None = None,
    ) -> None:
        self.record = record
        """An imported game record: the table carries on from its last position."""
        if record is not None:
            self.imported = records.game_from(record)
            players = len(self.imported.players)
            settings = self.imported.settings
            first_seat = self.imported.first_seat
        if not 1 <= players <= 8:
            raise StateError(f"Clustered is for 1 to 8 players, not {players} (K1.4)")
        if not 1 <= first_seat <= players:
            raise StateError(f"the first player is one of seats 1 to {players}, not {first_seat}")
        self.players = players
        self.settings = settings or Settings()
        self.first_seat = first_seat
        try:
            self.settings.check_for(players)
        except SettingsError as err:
            raise StateError(str(err)) from None

    def choosing_order(self) -> list[int]:
        if self.record is not None:
            return []  # an imported game was set up long ago
        return list(range(1, self.players + 1))

    def choices(self) -> dict[int, dict[str, Any]]:
        if self.record is None:
            return {}
        return {
            seat: {"colour": player.colour, "name": player.name}
            for seat, player in enumerate(self.imported.players, start=1)
        }

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        """K3.1: a colour of the palette nobody else has (by code or name); optionally the
        player's name, for a solo personal best (K8.3)."""
        palette = self.settings.palette
        try:
            colour = palette.code(str(choice.get("colour", "")))
        except SettingsError as err:
            raise SubmissionError([str(err)]) from None
        reasons = []
        for other_seat, other in taken.items():
            if other_seat != seat and other.get("colour") == colour:
                reasons.append(
                    f"{palette.name(colour)} is seat {other_seat}'s deck; choose another colour "
                    "(K3.1)"
                )
        name = " ".join(str(choice.get("name", "")).split())
        if len(name) > MAX_NAME or not name.isprintable():
            reasons.append(f"a name is at most {MAX_NAME} printable characters")
        if reasons:
            raise SubmissionError(reasons)
        return {"colour": colour, "name": name}

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> ClusteredSession:
        if self.record is not None:
            return ClusteredSession(records.game_from(self.record))
        players = [
            Player(str(choices[seat]["colour"]), str(choices[seat].get("name", "")))
            for seat in range(1, self.players + 1)
        ]
        return ClusteredSession(
            ClusteredGame(players, settings=self.settings, first_seat=self.first_seat)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": self.players,
            "settings": self.settings.to_dict(),
            "first_seat": self.first_seat,
            "record": None if self.record is None else dict(self.record),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClusteredSetup:
        return cls(
            int(data["players"]),
            settings=Settings.from_dict(data["settings"]),
            first_seat=int(data.get("first_seat", 1)),
            record=data.get("record"),
        )

    def public(self) -> dict[str, Any]:
        """What the lobby shows: the colours to choose from, the settings, the first seat."""
        return {
            "palette": [list(pair) for pair in self.settings.palette.colours],
            "settings": self.settings.to_dict(),
            "first_seat": self.first_seat,
            "start_cells": [c.text() for c in self.settings.start_cells(self.players)],
        }

    def durations(self) -> dict[Stage, int]:
        return {}  # a turn is timed by the table's turn clock, if it has one


class ClusteredSession:
    """A running Clustered game at a table (seat *n* is the game's seat *n*)."""

    game = GAME

    def __init__(self, core: ClusteredGame) -> None:
        self.core = core

    # Stages and seats ----------------------------------------------------------------------------

    def stage(self) -> Stage:
        return Stage.OVER if self.core.over else TURN

    def turn(self) -> int:
        """The number of the turn being played (1 for the first)."""
        return len(self.core.turns) + 1

    def active_seats(self) -> set[int]:
        return set(self.core.seats)

    def owing(self) -> set[int]:
        seat = self.core.current_seat()
        return set() if seat is None else {seat}

    # Moves ---------------------------------------------------------------------------------------

    def check_submission(self, seat: int, text: str) -> str:
        """A placement (``B-tr-da-3 2,-1``) or a declaration (``discard CARD hand ...``, or
        ``discard`` with the table check): the canonical text to store, or every reason it is
        refused. An accepted declaration is stored as its discard only (K3.15)."""
        core = self.core
        if core.current_seat() != seat:
            current = core.current_seat()
            if current is None:
                raise SubmissionError(["the game is over (K5.1)"])
            raise SubmissionError([f"it is {core.name(current)}'s turn (K3.2)"])
        try:
            move = parse_turn(text, core.codes)
        except NotationError as err:
            raise SubmissionError([str(err)]) from None
        if isinstance(move, Placement):
            verdict = core.verdict(move, seat)
            if not verdict.legal:
                raise SubmissionError([verdict.message])
            return move.text()
        try:
            return core.check_declaration(move, seat).text()
        except DeclarationError as err:
            raise SubmissionError([f"{err.code}: {reason}" for reason in err.reasons]) from None

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        """Play the acting seat's move. Without one (its clock ran out, or the host skipped) the
        turn stays with the same seat and nothing is recorded (K3.5 has no pass)."""
        core = self.core
        seat = core.current_seat()
        if seat is None:
            raise StateError("the game is over (K5.1)")
        colour = core.colour(seat)
        if seat not in submissions:
            return {"kind": "time_up", "seat": seat, "colour": colour}
        text = submissions[seat]
        try:
            if text.strip().lower().startswith("discard"):
                result = core.discard(Discard.parse(text, core.codes), seat)
            else:
                result = core.place(Placement.parse(text, core.codes), seat)
        except (IllegalPlacementError, DeclarationError, NotationError) as err:
            raise StateError(f"{text!r} cannot be played now: {err}") from err
        summary: dict[str, Any] = {"seat": seat, "colour": colour, "over": result.over}
        if isinstance(result.move, Placement):
            summary.update(
                kind="placement",
                move=result.move.text(),
                card=result.move.card.text(),
                cell=result.move.cell.text(),
                earned=list(result.earned),
            )
        else:
            summary.update(kind="discard", move="discard")  # the card stays hidden (K3.15)
        if result.blocked:
            summary["blocked"] = True
        return summary

    def preview(self, seat: int, text: str) -> dict[str, Any]:
        """What a draft would do, storing nothing (``Previewing``): for a card alone, the cells
        it may go to (a phone highlights them); for a placement, that it is legal; for a
        declaration, that it would be accepted. SubmissionError with the reasons otherwise
        (for a declaration, privately: K3.14)."""
        core = self.core
        draft = text.strip()
        if draft and " " not in draft and not draft.lower().startswith("discard"):
            try:
                card = Card.parse(draft, core.codes)
            except NotationError as err:
                raise SubmissionError([str(err)]) from None
            verdict = core.verdict(Placement(card, Cell(0, 0)), seat)
            if verdict.refusal in (Refusal.WRONG_COLOUR, Refusal.ALREADY_PLAYED):
                raise SubmissionError([verdict.message.split(": ", 1)[1]])
            cells = core.legal_cells(card)
            count = len(cells)
            says = (
                f"{card.text()} fits in {count} cell{'s' * (count != 1)}: tap one"
                if cells
                else f"{card.text()} fits nowhere on the table now"
            )
            return {"text": card.text(), "says": says, "cells": [c.text() for c in cells]}
        canonical = self.check_submission(seat, draft)
        if canonical.startswith("discard"):
            return {
                "text": canonical,
                "says": "accepted: you have no legal move; the card goes face down (K3.15)",
            }
        return {"text": canonical, "says": f"{canonical}: a legal placement. Tap Play."}

    def compare_scan(self, scan: object) -> dict[str, Any]:
        """The camera's reading of the table against the record (K3.9 to K3.11): what
        differs, the tracked cards it did not see, and the placements that explain a new card
        (:func:`companion.clustered.scan.compare`)."""
        if not isinstance(scan, LayoutScan):
            raise StateError("a Clustered table compares only a Clustered layout scan")
        return compare(scan, self.core)

    # Host actions --------------------------------------------------------------------------------

    def correct(self, text: str, reason: str) -> dict[str, Any]:
        """The host's corrections: ``stop`` ends the game early (K5.6). A misread or mistaken
        placement is taken back with undo instead (K3.12)."""
        if text.strip().lower() != "stop":
            raise StateError(
                f"{text.strip()!r} is no Clustered correction: 'stop' ends the game early "
                "(K5.6); take back the last placement with undo (K3.12)"
            )
        self.core.stop(reason)
        return {"text": "stop", "reason": reason}

    def undo(self) -> dict[str, Any]:
        turn = self.core.undo("agreed at the table")
        said = turn.move.text() if isinstance(turn.move, Placement) else "a discard"
        return {
            "text": f"undo {said}",
            "reason": "agreed at the table",
            "seat": turn.seat,
        }

    # Storage -------------------------------------------------------------------------------------

    def durations(self) -> dict[Stage, int]:
        return {}

    def step_count(self) -> int:
        return len(self.core.steps)

    def steps_since(self, count: int) -> list[dict[str, Any]]:
        return [step.to_dict() for step in self.core.steps[count:]]

    def snapshot(self) -> dict[str, Any]:
        core = self.core
        return {
            "game": GAME,
            "players": [p.to_dict() for p in core.players],
            "settings": core.settings.to_dict(),
            "first_seat": core.first_seat,
            "step_count": len(core.steps),
            "turns": [[t.seat, t.move.text()] for t in core.turns],
            "stopped": core.stopped,
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any], steps: list[Mapping[str, Any]]) -> ClusteredSession:
        """Replay the stored steps (each checked on its digest). Without them (a copy to try a
        host's action on first) the snapshot's turns are played again as they are."""
        players = [Player(p["colour"], p["name"]) for p in data["players"]]
        settings = Settings.from_dict(data["settings"])
        first = int(data["first_seat"])
        count = int(data["step_count"])
        try:
            if len(steps) >= count:
                core = replay(
                    players,
                    [Step.from_dict(s) for s in steps[:count]],
                    settings=settings,
                    first_seat=first,
                )
            else:
                core = ClusteredGame(players, settings=settings, first_seat=first)
                for seat, text in data["turns"]:
                    core.apply_step(
                        Step("discard" if text.startswith("discard") else "place", seat, text)
                    )
                if data.get("stopped") is not None:
                    core.stop(str(data["stopped"]))
        except CompanionError as err:
            raise StateError(f"the stored Clustered game does not replay: {err}") from err
        return cls(core)

    def record_json(self) -> str:
        return records.record_json(self.core)

    # Views ---------------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        """The position as everybody may see it: the layout, the seats and their counts, whose
        turn it is and the cells each of their cards could go to, the bonus holders, and the
        score sheet (final at the end). Named discards only once the game is over (K3.15)."""
        core = self.core
        palette = core.settings.palette
        over = core.over
        current = core.current_seat()
        x_min, x_max, y_min, y_max = core.layout.bounds()
        out: dict[str, Any] = {
            "palette": [list(pair) for pair in palette.colours],
            "settings": core.settings.to_dict(),
            "layout": [card_dict(cell, card) for cell, card in core.layout.in_order()],
            "bounds": {"x_min": x_min, "x_max": x_max, "y_min": y_min, "y_max": y_max},
            "seats": [seat_dict(core, seat, over) for seat in core.seats],
            "current": current,
            "turns": len(core.turns),
            "last": last_dict(core.turns[-1]) if core.turns else None,
            "over": over,
            "finished": core.finished,
            "stopped": core.stopped,
            "first_holders": core.first_holders() if core.settings.first_bonuses else None,
            "largest_holders": core.largest_holders() if core.settings.largest_bonuses else None,
            "score": core.score_sheet().to_dict(),
            "options": options(core, current) if current is not None else [],
        }
        if len(core.players) == 1:
            out["solo"] = {"profile": profile_of(core).to_dict(), "key": profile_of(core).key()}
        if over:
            sheet = core.score_sheet()
            out["result"] = {
                "finished": core.finished,
                "winners": list(sheet.winners),
                "totals": {p.colour: p.total for p in sheet.players},
                "blocked": core.finished and any(core.turns_left(s) > 0 for s in core.seats),
            }
        return out

    def private(self, seat: int) -> dict[str, Any]:
        core = self.core
        return {
            "colour": core.colour(seat),
            "colour_name": core.name(seat),
            "acting": core.current_seat() == seat,
            "hand_size": core.hand_size(seat),
            "discard_check": core.settings.discard_check,
        }


def card_dict(cell: Cell, card: Card) -> dict[str, Any]:
    return {
        "cell": cell.text(),
        "x": cell.x,
        "y": cell.y,
        "card": card.text(),
        "colour": card.colour,
        "wild": card.is_wild,
        "start": card.is_start,
        "shape": None if card.shape is None else card.shape.value,
        "fill": None if card.fill is None else card.fill.value,
        "number": card.number,
    }


def seat_dict(core: ClusteredGame, seat: int, over: bool) -> dict[str, Any]:
    discards = core.discards(seat)
    return {
        "seat": seat,
        "colour": core.colour(seat),
        "colour_name": core.name(seat),
        "name": core.player(seat).name,
        "taken": core.taken(seat),
        "turns": core.turns_total(seat),
        "hand": core.hand_size(seat),
        "deck": core.deck_left(seat),
        "discards": len(discards),
        "discarded": [d.card.text() for d in discards if d.card is not None] if over else [],
    }


def last_dict(turn: Turn) -> dict[str, Any]:
    if isinstance(turn.move, Placement):
        return {
            "seat": turn.seat,
            "kind": "placement",
            "move": turn.move.text(),
            "cell": turn.move.cell.text(),
        }
    return {"seat": turn.seat, "kind": "discard", "move": "discard"}


def options(core: ClusteredGame, seat: int) -> list[dict[str, Any]]:
    """Every card the acting seat's deck holds that is not on the table, with its legal cells
    (the cells a screen highlights). Discards are not taken out, so none is revealed (K3.15)."""
    colour = core.colour(seat)
    cards = deck(colour, core.settings.wilds(colour))
    on_table = [card for card in core.layout.values() if card.colour == colour]
    out = []
    for card in dict.fromkeys(cards):
        if cards.count(card) <= on_table.count(card):
            continue
        cells = sorted(core.legal_cells(card), key=reading_order)
        out.append({"card": card.text(), "cells": [c.text() for c in cells]})
    return out
