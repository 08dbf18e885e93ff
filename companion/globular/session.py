"""Globular Cluster at the table: the :class:`GameSetup` and :class:`GameSession` the table
service plays it through (``companion/service/session.py``).

Seats choose a colour in seat order, then take turns. Each stage is a TURN stage owed by the
acting seat alone. A submission is lines of the notation (G8.2): everything up to ``end`` is a
whole turn, and a submission without ``end`` plays those lines and leaves the turn with the
same seat (so that, when the companion rolls, a mine is played on its own and its roll seen
before the player goes on: G8.7). :meth:`GlobularSession.preview` shows what a draft would do
without playing it. When a turn's clock runs out (or the host skips it), the companion plays
``timeout``: a drawn tile still in hand goes to its first legal place and the turn ends.

Steps (what the service stores) are the lines each submission played, rolls and the next
turn's draw included, so the game replays from settings, seed and steps; the host's undo takes
back the latest submission's lines.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import CompanionError, StateError
from companion.globular import GAME
from companion.globular.errors import GlobularError, Refusal
from companion.globular.game import GlobularGame
from companion.globular.notation import Draw, Timeout, Turn, parse_line
from companion.globular.record import load_record, record_json
from companion.globular.scan import BoardScan, compare, explaining_moves
from companion.globular.settings import MAX_PLAYERS, Settings
from companion.globular.state import State, TurnKind
from companion.globular.tiles import COLOURS, Colour
from companion.globular.views import preview_dict, public_dict
from companion.service.session import Stage, StageKind, SubmissionError

TURN = Stage("turn", "Turn", StageKind.TURN, "turn", "green")
SCORING = Stage("scoring", "Scoring round", StageKind.TURN, "turn", "amber")
SUPERNOVA = Stage("supernova", "Supernova turn", StageKind.TURN, "turn", "red")
LAST = Stage("last-turns", "Last turns", StageKind.TURN, "turn", "cyan")
FINAL = Stage("final", "Final scoring round", StageKind.TURN, "turn", "white")
STAGES = (TURN, SCORING, SUPERNOVA, LAST, FINAL)
_STAGE = {
    TurnKind.NORMAL: TURN,
    TurnKind.SCORING: SCORING,
    TurnKind.SUPERNOVA: SUPERNOVA,
    TurnKind.END: LAST,
    TurnKind.FINAL: FINAL,
}


def settings_from(colours: Sequence[str], options: Mapping[str, Any]) -> Settings:
    """Settings from seat colours and a table's house rules."""
    data = {
        "colours": list(colours),
        **{k: options[k] for k in ("dice", "stack", "tiebreak") if k in options},
    }
    unknown = set(options) - {"dice", "stack", "tiebreak"}
    if unknown:
        raise StateError(f"Globular Cluster has no house rule {sorted(unknown)[0]!r}")
    return Settings.from_dict(data)


class GlobularSetup:
    """A new Globular Cluster table: seats choose their colours in seat order (G1.6, G1.10)."""

    game = GAME

    def __init__(
        self,
        players: int,
        *,
        seed: int,
        options: Mapping[str, Any] | None = None,
        record: Mapping[str, Any] | None = None,
    ) -> None:
        self.record = record
        """An imported game record: the table carries on from its last position."""
        self.options = dict(options or {})
        if record is not None:
            players, seed = len(record["settings"]["colours"]), record["seed"]
            self.options = {k: v for k, v in record["settings"].items() if k != "colours"}
        if not 2 <= players <= MAX_PLAYERS:
            raise StateError(f"Globular Cluster is for 2 to {MAX_PLAYERS} players, not {players}")
        settings_from([c.value for c in COLOURS[:players]], self.options)  # refuse bad options now
        self.players = players
        self.seed = seed

    def choosing_order(self) -> list[int]:
        return [] if self.record is not None else list(range(1, self.players + 1))

    def choices(self) -> dict[int, dict[str, Any]]:
        if self.record is None:
            return {}
        return {
            seat: {"colour": colour}
            for seat, colour in enumerate(self.record["settings"]["colours"], start=1)
        }

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        try:
            colour = Colour.parse(str(choice.get("colour", "")))
        except GlobularError as err:
            raise SubmissionError([err.reason]) from None
        for other_seat, other in taken.items():
            if other_seat != seat and other.get("colour") == colour.value:
                raise SubmissionError(
                    [f"{colour.title} is taken by seat {other_seat}; choose another colour"]
                )
        return {"colour": colour.value}

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> GlobularSession:
        if self.record is not None:
            return GlobularSession.from_record(json.dumps(self.record))
        colours = [str(choices[seat]["colour"]) for seat in sorted(choices)]
        return GlobularSession(GlobularGame(settings_from(colours, self.options), self.seed))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "record": self.record,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GlobularSetup:
        return cls(
            data["players"],
            seed=data["seed"],
            options=data.get("options"),
            record=data.get("record"),
        )

    def public(self) -> dict[str, Any]:
        return {
            "colours": [c.value for c in COLOURS],
            "house_rules": settings_from(
                [c.value for c in COLOURS[: self.players]], self.options
            ).house_rules(),
        }

    def durations(self) -> dict[Stage, int]:
        return {}


class GlobularSession:
    """A running game of Globular Cluster."""

    game = GAME

    def __init__(self, core: GlobularGame, steps: list[dict[str, Any]] | None = None) -> None:
        self.core = core
        self.steps: list[dict[str, Any]] = steps if steps is not None else []

    @classmethod
    def from_record(cls, text: str | bytes) -> GlobularSession:
        """A session carrying on from a record (checked and replayed first): each recorded turn
        is one step, so the host's undo takes back one turn at a time."""
        game = load_record(text)
        steps = []
        for turn in game.turns:
            lines = [line.text() for line in turn.lines]
            if game.keeps_stack and turn.lines and isinstance(turn.lines[0], Draw):
                lines = lines[1:]  # the companion's own draw: made again as the turn begins
            if lines:
                steps.append({"kind": "lines", "seat": turn.seat, "lines": lines})
        return cls(rebuild(game.settings, game.seed, steps), steps)

    # What the service asks ---------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.core.state

    def stage(self) -> Stage:
        return Stage.OVER if self.core.over else _STAGE[self.state.turn.kind]

    def turn(self) -> int:
        return self.state.turn.number

    def active_seats(self) -> set[int]:
        return set(self.state.seats)

    def owing(self) -> set[int]:
        return set() if self.core.over else {self.state.turn.seat}

    def durations(self) -> dict[Stage, int]:
        return {}

    # Submissions ---------------------------------------------------------------------------------

    def _acting(self, seat: int) -> None:
        if self.core.over:
            raise SubmissionError(["the game is over (G7.3)"])
        acting = self.state.turn.seat
        if seat != acting:
            colour = self.state.player(acting).colour.value
            raise SubmissionError([f"it is seat {acting}'s turn ({colour}), not seat {seat}'s"])

    def check_submission(self, seat: int, text: str) -> str:
        """The lines in canonical form if all of them may be played now, in order."""
        self._acting(seat)
        try:
            turn = Turn.parse(text)
        except GlobularError as err:
            raise SubmissionError([str(err)]) from None
        if not turn.lines:
            raise SubmissionError(["write at least one line ('end' ends the turn)"])
        try:
            self.core.check_draft(turn.lines)
        except Refusal as err:
            raise SubmissionError([str(err)]) from None
        return turn.text()

    def preview(self, seat: int, text: str) -> dict[str, Any]:
        """What a draft would do, line by line, without playing it: each line's cost and the
        AP left, or the first refused line with its reason (``playable`` is then false); the
        position after the lines that are allowed, and where a tile still to place may go.
        SubmissionError when it is not the seat's turn or the text is not notation."""
        self._acting(seat)
        try:
            turn = Turn.parse(text)
        except GlobularError as err:
            raise SubmissionError([str(err)]) from None
        result = self.core.preview(turn.lines)
        return preview_dict(result, self.state.turn.ap)

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        """Play the acting seat's lines (or ``timeout`` when it sent none: its clock ran out or
        the host skipped the turn); the public summary of what they did."""
        seat = self.state.turn.seat
        text = submissions.get(seat)
        turn_before = self.state.turn.number
        kind_before = self.state.turn.kind
        to_play = Turn.parse(text).lines if text else (Timeout(),)
        lines = [line.text() for line in to_play]
        played, refusal = self._play(seat, lines)
        summary: dict[str, Any] = {
            "kind": "move",
            "seat": seat,
            "colour": self.state.player(seat).colour.value,
            "turn": turn_before,
            "turn_kind": kind_before.value,
            "lines": played,
            "refused": refusal,
            "ended": self.state.turn.number != turn_before or self.core.over,
            "timeout": not text,
            "over": self.core.over,
        }
        scored = next((p["scored"] for p in played if p.get("scored")), None)
        if scored is not None:
            summary["scored"] = scored
        if not self.core.over:
            summary["next"] = {
                "seat": self.state.turn.seat,
                "colour": self.state.acting.colour.value,
                "kind": self.state.turn.kind.value,
                "drawn": None if self.state.turn.drawn is None else self.state.turn.drawn.code(),
            }
        return summary

    def _play(self, seat: int, lines: list[str]) -> tuple[list[dict[str, Any]], str | None]:
        """Play lines one by one (checked already); a line refused now stops the rest."""
        before = len(self.core.lines())
        played: list[dict[str, Any]] = []
        refusal = None
        for text in lines:
            try:
                done = self.core.play(parse_line(text))
            except GlobularError as err:
                refusal = f"{text}: {err}"
                break
            played.append(
                {
                    "text": done.line.text(),
                    "cost": done.cost,
                    "ap_left": done.ap_left,
                    "said": list(done.said),
                    "scored": None if done.scored is None else done.scored.to_dict(),
                    "drew": None if done.drew is None else done.drew.code(),
                }
            )
        new_lines = [line.text() for line in self.core.lines()[before:]]
        if new_lines:
            self.steps.append({"kind": "lines", "seat": seat, "lines": new_lines})
        return played, refusal

    def compare_scan(self, scan: object) -> dict[str, Any]:
        """A camera's reading compared with the game: the differences for a person to
        confirm, never applied (G8.8), and the acting seat's turn parts that explain what it
        saw (``"moves"``: the service enters the only one as the seat's pending move, for the
        seat to confirm). ``scan`` is a :class:`BoardScan` or its dict form."""
        if isinstance(scan, Mapping):
            scan = BoardScan.from_dict(scan)
        if not isinstance(scan, BoardScan):
            raise StateError("a Globular Cluster scan is a BoardScan")
        compared = compare(self.state, scan)
        if not self.core.over:
            compared["moves"] = explaining_moves(self.state, scan, self._playable)
        return compared

    def _playable(self, text: str) -> bool:
        try:
            self.core.check_draft(Turn.parse(text).lines)
        except GlobularError:
            return False
        return True

    def correct(self, text: str, reason: str) -> dict[str, Any]:
        raise StateError(
            "Globular Cluster takes no corrections: the host's undo takes back the last move, "
            "and the acting player plays it again"
        )

    def undo(self) -> dict[str, Any]:
        """The host's agreed undo: the latest submission's lines are taken back, rolls and the
        next turn's draw included (the same seed rolls the same faces again)."""
        batches = effective_batches(self.steps)
        if not batches:
            raise StateError("there is nothing to undo: no move has been played yet")
        undone = batches[-1]
        self.steps.append({"kind": "undo", "seat": undone["seat"], "lines": undone["lines"]})
        self.core = rebuild(self.core.settings, self.core.seed, effective_batches(self.steps))
        return {"text": "\n".join(undone["lines"]), "reason": "the host took the move back"}

    # Storage -----------------------------------------------------------------------------------

    def step_count(self) -> int:
        return len(self.steps)

    def steps_since(self, count: int) -> list[dict[str, Any]]:
        return [dict(step) for step in self.steps[count:]]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "seed": self.core.seed,
            "settings": self.core.settings.to_dict(),
            "step_count": len(self.steps),
            "steps": [dict(step) for step in self.steps],
        }

    @classmethod
    def restore(
        cls, snapshot: Mapping[str, Any], steps: list[Mapping[str, Any]]
    ) -> GlobularSession:
        """Rebuild from the snapshot's own steps (a snapshot is the whole game: settings, seed and
        every submission's lines), replaying each line with its checks."""
        settings = Settings.from_dict(snapshot["settings"])
        own = [dict(step) for step in snapshot["steps"]]
        try:
            core = rebuild(settings, snapshot["seed"], effective_batches(own))
        except CompanionError as err:
            raise StateError(f"the stored game does not replay: {err}") from err
        return cls(core, own)

    def record_json(self) -> str:
        return record_json(self.core)

    # Views -------------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        return public_dict(self.core)

    def private(self, seat: int) -> dict[str, Any]:
        player = self.state.player(seat)
        return {
            "colour": player.colour.value,
            "acting": not self.core.over and self.state.turn.seat == seat,
        }


def effective_batches(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The submissions that stand: each ``undo`` step takes back the latest one."""
    batches: list[dict[str, Any]] = []
    for step in steps:
        if step["kind"] == "lines":
            batches.append(dict(step))
        elif step["kind"] == "undo" and batches:
            batches.pop()
    return batches


def rebuild(settings: Settings, seed: int, batches: Sequence[Mapping[str, Any]]) -> GlobularGame:
    """The game from settings, seed and the lines of each submission that stands."""
    game = GlobularGame(settings, seed)
    for batch in batches:
        play_batch(game, batch["lines"])
    return game


def play_batch(game: GlobularGame, lines: Sequence[str]) -> None:
    """Play stored lines (rolls included). Where the companion keeps the stack, a ``draw`` line
    is the draw it made itself at the turn's start: it must match, and is not played again."""
    for text in lines:
        line = parse_line(text)
        if game.keeps_stack and isinstance(line, Draw):
            turn = game.turns[-1]
            if not turn.lines or turn.lines[0] != line:
                raise Refusal(f"the stored {text!r} is not the draw the seed's stack made", "G8.6")
            continue
        game.play(line, recorded=True)
