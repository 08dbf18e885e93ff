"""One table: seats, the stage and its deadline, ready flags and pending submissions.

The table's whole state comes from its log: :meth:`Table.apply` takes one accepted
:class:`~companion.service.storage.LogEntry` and returns the events it caused. The service runs
the same ``apply`` live and when it rebuilds a table after a restart, so both end alike.
Nothing here is particular to one game; the game comes in as a GameSetup / GameSession.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from companion import games
from companion.errors import StateError
from companion.service.clock import TurnClock
from companion.service.events import Event
from companion.service.session import GameSession, GameSetup, Stage, StageKind
from companion.service.storage import LogEntry


@dataclasses.dataclass
class Seat:
    number: int
    name: str = ""
    token_hash: str = ""
    choice: dict[str, Any] | None = None

    @property
    def joined(self) -> bool:
        return bool(self.token_hash)


@dataclasses.dataclass
class Applied:
    """What applying one entry did: events to publish, game steps to store, a snapshot due."""

    events: list[Event] = dataclasses.field(default_factory=list)
    steps: list[tuple[int, dict[str, Any]]] = dataclasses.field(default_factory=list)
    snapshot: bool = False


SetupLoader = Callable[[Mapping[str, Any]], GameSetup]
SessionLoader = Callable[[Mapping[str, Any], list[Mapping[str, Any]]], GameSession]


class Table:
    """A table's state, rebuilt entry by entry from its log."""

    def __init__(
        self,
        table_id: str,
        name: str,
        setup: GameSetup,
        host_hash: str,
        at: float,
        *,
        turn_clock: TurnClock | None = None,
    ):
        self.id = table_id
        self.name = name
        self.setup = setup
        self.game = games.get(setup.game)
        self.turn_clock = turn_clock or TurnClock()
        """How turn-taking stages are timed (a house rule of the table, not of the game)."""
        self.banks: dict[int, float] = {}
        """Per seat, the time left on its chess clock (``TurnClock.mode == "player"``)."""
        self.held = False
        """Paused by the host (or held after an outage); the clock does not run."""
        self.host_hash = host_hash
        self.created_at = at
        self.seats = {n: Seat(n) for n in range(1, setup.players + 1)}
        self.session: GameSession | None = None
        self.stage = Stage.LOBBY
        self.deadline: float | None = None
        self.paused_remaining: float | None = None
        self.ready: set[int] = set()
        self.submissions: dict[int, str] = {}
        self.seq = 0
        self.requests: dict[str, Mapping[str, Any]] = {}
        """Request ids already applied, with what each stored (a re-sent one gets it back)."""
        self.last_summary: dict[str, Any] | None = None
        self.start_seq: int | None = None
        """The log entry that started an imported game (``start``), if one did."""
        self.awaiting_start = False
        """An imported game held by the pause that followed its start, never resumed since."""
        self.hold_reason: str | None = None
        """Why the table is held, when the service (not the host) paused it."""
        self.last_at = at
        """When its latest log entry was made (not part of the snapshot)."""

    # Questions -------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self.held

    def clock_runs(self) -> bool:
        """Whether a deadline is running down (a playing stage with a clock, not paused)."""
        return self.stage.playing and not self.held and self.deadline is not None

    @property
    def turn(self) -> int:
        return 0 if self.session is None else self.session.turn()

    def remaining(self, now: float) -> float | None:
        if self.held:
            return self.paused_remaining
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - now)

    def participants(self) -> set[int]:
        """Seats whose ready counts for ending the current stage early (R8.1); in a turn, the
        seat whose turn it is (its press means "done")."""
        if self.session is None or not self.stage.playing:
            return set()
        if self.stage.kind is StageKind.DISCUSSION or self.stage.discussed:
            return self.session.active_seats()
        return self.session.owing()

    def acting(self) -> int | None:
        """The seat whose turn it is, in a turn-taking stage."""
        if self.stage.kind is not StageKind.TURN or self.session is None:
            return None
        owing = sorted(self.session.owing())
        return owing[0] if owing else None

    def next_to_choose(self) -> int | None:
        for seat in self.setup.choosing_order():
            if self.seats[seat].choice is None:
                return seat
        return None

    def require_seat(self, seat: int) -> Seat:
        if seat not in self.seats:
            raise StateError(
                f"this table has seats 1 to {len(self.seats)}; there is no seat {seat}"
            )
        return self.seats[seat]

    def require_session(self) -> GameSession:
        if self.session is None:
            raise StateError("the game has not started yet: seats are still joining and choosing")
        return self.session

    # Applying entries ------------------------------------------------------------------------

    def apply(self, entry: LogEntry) -> Applied:
        """Apply one accepted entry (already validated, or read back from the log)."""
        if entry.seq != self.seq + 1:
            raise StateError(f"log entry {entry.seq} follows {self.seq}; the log has a gap")
        handler = getattr(self, f"_on_{entry.kind}", None)
        if handler is None:
            raise StateError(f"unknown log entry kind {entry.kind!r}")
        out = Applied()
        steps_before = self.session.step_count() if self.session is not None else 0
        turn_before = self.turn
        handler(entry, out)
        self.seq = entry.seq
        self.last_at = max(self.last_at, entry.at)
        if entry.request_id is not None:
            self.requests[entry.request_id] = entry.data
        if self.session is not None:
            new_steps = self.session.steps_since(steps_before)
            out.steps = [(steps_before + i, step) for i, step in enumerate(new_steps)]
            out.snapshot = self.turn != turn_before or (
                self.stage is Stage.OVER and bool(new_steps)
            )
        return out

    def _event(self, out: Applied, kind: str, at: float, **data: Any) -> None:
        out.events.append(Event(kind, self.id, at, data))

    def _on_join(self, entry: LogEntry, out: Applied) -> None:
        seat = self.seats[entry.data["seat"]]
        seat.name = entry.data["name"]
        seat.token_hash = entry.data["token_hash"]
        self._event(out, "seat_joined", entry.at, seat=seat.number, name=seat.name)
        if (
            self.session is None
            and not self.setup.choosing_order()
            and all(s.joined for s in self.seats.values())
        ):
            # A game with no setup choices starts when the last seat has joined.
            self.session = self.setup.start({})
            self._enter_game_stage(entry.at, out)

    def _on_host_secret(self, entry: LogEntry, out: Applied) -> None:
        """A new host secret (``companion table host-link``): the old one, and every browser
        that held it, no longer opens the host controls."""
        self.host_hash = entry.data["host_hash"]

    def _on_reissue(self, entry: LogEntry, out: Applied) -> None:
        self.seats[entry.data["seat"]].token_hash = entry.data["token_hash"]

    def _on_choose(self, entry: LogEntry, out: Applied) -> None:
        seat = self.seats[entry.data["seat"]]
        seat.choice = dict(entry.data["choice"])
        self._event(out, "seat_chose", entry.at, seat=seat.number, choice=seat.choice)
        if self.next_to_choose() is None:
            choices = {n: s.choice for n, s in self.seats.items() if s.choice is not None}
            self.session = self.setup.start(choices)
            # A discussion first only when the game's first stage has one (R8.1); a
            # turn-taking game goes straight to its first turn.
            self._enter_game_stage(entry.at, out)

    def _on_start(self, entry: LogEntry, out: Applied) -> None:
        """An imported game starts at once, where its record left off."""
        for number, choice in self.setup.choices().items():
            self.seats[number].choice = choice
        self.session = self.setup.start({})
        self.start_seq = entry.seq
        self._enter_game_stage(entry.at, out)

    def _on_submit(self, entry: LogEntry, out: Applied) -> None:
        seat = entry.data["seat"]
        self.submissions[seat] = entry.data["text"]
        self.ready.discard(seat)
        self._event(out, "submitted", entry.at, seat=seat, stage=self.stage.value)
        if entry.data.get("final"):
            # A turn-taking game's move, played at once (the service checked it is the turn).
            self._end_stage(entry.at, "move", out)

    def _on_ready(self, entry: LogEntry, out: Applied) -> None:
        seat = entry.data["seat"]
        if entry.data.get("ready", True):
            self.ready.add(seat)
        else:
            self.ready.discard(seat)
        self._event(out, "ready", entry.at, seat=seat, ready=seat in self.ready)
        self._end_if_all_ready(entry.at, out)

    def _on_end(self, entry: LogEntry, out: Applied) -> None:
        self._end_stage(entry.at, entry.data["reason"], out)

    def _on_pause(self, entry: LogEntry, out: Applied) -> None:
        self.paused_remaining = self.remaining(entry.at)
        self.held = True
        self.deadline = None
        self.awaiting_start = self.start_seq is not None and self.start_seq == self.seq
        reason = entry.data.get("reason")
        self.hold_reason = str(reason) if reason else None
        said: dict[str, Any] = {"remaining": self.paused_remaining}
        if self.hold_reason is not None:
            said["reason"] = self.hold_reason
        self._event(out, "paused", entry.at, **said)

    def _on_resume(self, entry: LogEntry, out: Applied) -> None:
        remaining = self.paused_remaining
        self.paused_remaining = None
        self.held = False
        self.hold_reason = None
        self.awaiting_start = False
        self.deadline = None if remaining is None else entry.at + remaining
        self._event(out, "resumed", entry.at, deadline=self.deadline, remaining=remaining)
        self._end_if_all_ready(entry.at, out)

    def _on_extend(self, entry: LogEntry, out: Applied) -> None:
        seconds = float(entry.data["seconds"])
        if self.paused_remaining is not None:
            self.paused_remaining += seconds
        elif self.deadline is not None:
            self.deadline += seconds
        self._event(out, "extended", entry.at, seconds=seconds, deadline=self.deadline)

    def _on_correct(self, entry: LogEntry, out: Applied) -> None:
        done = self.require_session().correct(entry.data["text"], entry.data["reason"])
        self._event(out, "correction", entry.at, **done)
        if self.stage.playing and self.session_stage().kind is StageKind.OVER:
            # A correction that ends the game (a host stopping it early, a resignation the
            # host records) ends the table's too.
            self._end_turn_clock(entry.at)
            self._enter(Stage.OVER, entry.at, out)

    def _on_undo(self, entry: LogEntry, out: Applied) -> None:
        done = self.require_session().undo()
        self._event(out, "undo", entry.at, **done)
        if self.stage.kind is StageKind.TURN or self.session_stage().kind is StageKind.TURN:
            # A move taken back: the turn goes back to the seat that made it.
            self._end_turn_clock(entry.at)
            self._enter_game_stage(entry.at, out)

    # Stages ------------------------------------------------------------------------------------

    def _end_if_all_ready(self, at: float, out: Applied) -> None:
        if self.paused or not self.stage.playing:
            return
        participants = self.participants()
        if participants and participants <= self.ready:
            self._end_stage(at, "ready", out)

    def session_stage(self) -> Stage:
        """The stage the game itself is in (a discussion's is the one it leads to)."""
        return self.require_session().stage()

    def _end_turn_clock(self, at: float) -> None:
        """Keep what the acting seat has left on its chess clock."""
        seat = self.acting()
        if self.turn_clock.mode == "player" and seat is not None:
            left = self.remaining(at)
            if left is not None:
                self.banks[seat] = max(0.0, left)

    def _end_stage(self, at: float, reason: str, out: Applied) -> None:
        session = self.require_session()
        if self.stage.kind is StageKind.DISCUSSION:
            self._enter(session.stage(), at, out)
            return
        if not self.stage.playing:
            raise StateError(f"there is no phase to end while the table is {self.stage.title}")
        stage, acting, turn = self.stage, self.acting(), self.turn
        self._end_turn_clock(at)
        summary = session.resolve(dict(self.submissions))
        kind = summary.pop("kind")
        self.last_summary = {"kind": kind, **summary}
        self._event(out, kind, at, reason=reason, **summary)
        if (
            reason in ("move", "ready")
            and stage.kind is StageKind.TURN
            and session.stage() == stage
            and self.acting() == acting
            and self.turn == turn
        ):
            # A move that did not end the turn (a game may take a turn in several moves): the
            # same seat goes on, on the same clock (a passed deadline ends the turn next). A
            # turn the clock or the host ended that the game gives back to the same seat (a
            # game without a pass) begins again below, on a fresh clock: else the passed
            # deadline would end it again and again.
            self.ready = set()
            self.submissions = {}
            return
        self._enter_game_stage(at, out)

    def _enter_game_stage(self, at: float, out: Applied) -> None:
        session = self.require_session()
        stage = session.stage()
        if stage.discussed:
            stage = Stage.DISCUSSION
        self._enter(stage, at, out)

    def _enter(self, stage: Stage, at: float, out: Applied) -> None:
        self.stage = stage
        self.ready = set()
        self.submissions = {}
        session = self.require_session()
        if stage.kind is StageKind.OVER:
            self.deadline = None
            self.paused_remaining = None
            self.held = False
            self._event(out, "phase", at, stage=stage.value, turn=self.turn, deadline=None)
            self._event(out, "game_over", at, **session.public().get("result", {}))
            return
        if stage.kind is StageKind.SECRET and not stage.discussed and not session.owing():
            # Nobody has a choice to make (no retreat options, nobody can build): carry on.
            summary = session.resolve({})
            kind = summary.pop("kind")
            self.last_summary = {"kind": kind, **summary}
            self._event(out, kind, at, reason="nothing to choose", **summary)
            self._enter_game_stage(at, out)
            return
        # A new stage starts its clock afresh, even after a stage skipped while paused.
        seconds = self._seconds_for(stage)
        self.paused_remaining = None
        self.held = False
        self.hold_reason = None
        self.deadline = None if seconds is None else at + seconds
        event: dict[str, Any] = {"stage": stage.value, "turn": self.turn, "deadline": self.deadline}
        acting = self.acting()
        if acting is not None:
            event["acting"] = acting
        self._event(out, "phase", at, **event)

    def _seconds_for(self, stage: Stage) -> float | None:
        """How long the stage lasts: the game's durations, or in a turn the table's clock."""
        if stage.kind is StageKind.TURN:
            seat = self.acting()
            if self.turn_clock.mode == "turn":
                return float(self.turn_clock.seconds)
            if self.turn_clock.mode == "player" and seat is not None:
                left = self.banks.setdefault(seat, float(self.turn_clock.seconds))
                # A seat whose chess clock has run out: the game had its say at the deadline
                # (a loss, or in a game without a pass the turn stays); no clock runs again.
                return left if left > 0 else None
        seconds = self.require_session().durations().get(stage)
        return None if seconds is None else float(seconds)

    # Snapshots ---------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "setup": self.setup.to_dict(),
            "host_hash": self.host_hash,
            "created_at": self.created_at,
            "seats": [dataclasses.asdict(s) for s in self.seats.values()],
            "session": None if self.session is None else self.session.snapshot(),
            "stage": self.stage.value,
            "deadline": self.deadline,
            "paused_remaining": self.paused_remaining,
            "held": self.held,
            "hold_reason": self.hold_reason,
            "turn_clock": self.turn_clock.to_dict(),
            "banks": {str(k): v for k, v in sorted(self.banks.items())},
            "ready": sorted(self.ready),
            "submissions": {str(k): v for k, v in sorted(self.submissions.items())},
            "seq": self.seq,
            "last_summary": self.last_summary,
            "start_seq": self.start_seq,
            "awaiting_start": self.awaiting_start,
        }

    @classmethod
    def restore(
        cls,
        data: Mapping[str, Any],
        steps: list[Mapping[str, Any]],
        requests: Mapping[str, Mapping[str, Any]],
        load_setup: SetupLoader,
        load_session: SessionLoader,
    ) -> Table:
        table = cls(
            data["id"],
            data["name"],
            load_setup(data["setup"]),
            data["host_hash"],
            data["created_at"],
            turn_clock=TurnClock.from_dict(data.get("turn_clock") or {}),
        )
        table.seats = {s["number"]: Seat(**s) for s in data["seats"]}
        if data["session"] is not None:
            table.session = load_session(data["session"], steps)
        table.stage = table.game.stage(data["stage"])
        table.deadline = data["deadline"]
        table.paused_remaining = data["paused_remaining"]
        # Snapshots from before untimed stages existed: paused exactly when time was kept.
        table.held = bool(data.get("held", data["paused_remaining"] is not None))
        table.hold_reason = data.get("hold_reason")
        table.banks = {int(k): float(v) for k, v in (data.get("banks") or {}).items()}
        table.ready = set(data["ready"])
        table.submissions = {int(k): v for k, v in data["submissions"].items()}
        table.seq = data["seq"]
        table.requests = dict(requests)
        table.last_summary = data.get("last_summary")
        table.start_seq = data.get("start_seq")
        table.awaiting_start = bool(data.get("awaiting_start", False))
        return table
