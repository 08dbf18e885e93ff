"""A game in progress: the current state plus every step that led to it.

:class:`Game` is the one place that applies steps (a turn's orders, retreat choices, a build
phase) and remembers them, so that a record (:class:`companion.local_cluster.record.GameRecord`,
which builds on this module, never the reverse) replays to the identical state (R2.3). The
table service keeps one per table.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from typing import Any

from companion.errors import StateError
from companion.local_cluster.adjudication import adjudicate
from companion.local_cluster.atoms import Colour, SectorId, UnitId
from companion.local_cluster.corrections import Correction
from companion.local_cluster.economy import BuildPlan, apply_builds
from companion.local_cluster.orders import OrderSheet
from companion.local_cluster.outcomes import TurnResult
from companion.local_cluster.retreats import apply_retreats
from companion.local_cluster.state import Phase, State


def digest(state: State) -> str:
    """A short fingerprint of a state's canonical JSON; equal states, equal digests."""
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


@dataclasses.dataclass(frozen=True)
class Step:
    """One recorded step: its kind, its inputs as text, what it did, and the state's digest."""

    kind: str
    """``orders``, ``retreats``, ``builds``, ``correction`` or ``undo``."""
    turn: int
    inputs: Mapping[str, str]
    """Per empire colour (orders, build plans) or per unit id (retreat choices)."""
    result: Mapping[str, Any]
    digest: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "turn": self.turn,
            "inputs": dict(self.inputs),
            "result": dict(self.result),
            "digest": self.digest,
        }


class Game:
    """A game of Local Cluster from its setup, one step at a time."""

    def __init__(self, initial: State, *, seed: int | None = None) -> None:
        self.initial = initial
        self.seed = seed
        self.state = initial
        self.steps: list[Step] = []
        self.undoable: list[tuple[Correction, State]] = []
        """Corrections since the last played step, with the position before each."""

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def play(self, orders: Mapping[Colour, OrderSheet | str]) -> TurnResult:
        """Adjudicate the current turn. Missing empires hold everywhere."""
        texts = {
            colour: sheet if isinstance(sheet, str) else sheet.text()
            for colour, sheet in orders.items()
        }
        result = adjudicate(self.state, {c: OrderSheet.parse(t) for c, t in texts.items()})
        self._step(
            "orders",
            {c.value: t for c, t in sorted(texts.items(), key=lambda i: i[0].rank)},
            result.to_dict(),
            result.state,
        )
        return result

    def retreat(self, choices: Mapping[UnitId, SectorId]) -> tuple[str, ...]:
        """Apply retreat choices; units without a choice take the default (R5.3)."""
        turn = self.state.turn
        state, notes = apply_retreats(self.state, choices)
        self._step(
            "retreats",
            {str(u): s for u, s in sorted(choices.items())},
            {"notes": list(notes)},
            state,
            turn=turn,
        )
        return notes

    def build(self, plans: Mapping[Colour, BuildPlan | str]) -> tuple[str, ...]:
        """Carry out the build phase. Missing empires build nothing (R8.2)."""
        parsed = {
            c: p if isinstance(p, BuildPlan) else BuildPlan.parse(p) for c, p in plans.items()
        }
        turn = self.state.turn
        state, notes = apply_builds(self.state, parsed)
        self._step(
            "builds",
            {c.value: p.text() for c, p in sorted(parsed.items(), key=lambda i: i[0].rank)},
            {"notes": list(notes)},
            state,
            turn=turn,
        )
        return notes

    def correct(self, correction: Correction) -> State:
        """Apply a host's correction (see :mod:`.corrections`) and record it."""
        before = self.state
        state = correction.apply(before)
        self._step(
            "correction",
            {"text": correction.text(), "reason": correction.reason},
            {"notes": [f"corrected: {correction.text()}"]},
            state,
        )
        self.undoable.append((correction, before))
        return state

    def undo(self) -> Correction:
        """Undo the latest correction, as long as nothing was played since; return it."""
        if not self.undoable:
            raise StateError(
                "there is no correction to undo since the last turn was played; "
                "make a new correction instead"
            )
        correction, before = self.undoable.pop()
        self._step("undo", {}, {"notes": [f"undid: {correction.text()}"]}, before)
        return correction

    def _step(
        self,
        kind: str,
        inputs: Mapping[str, str],
        result: Mapping[str, Any],
        state: State,
        *,
        turn: int | None = None,
    ) -> None:
        step = Step(kind, self.state.turn if turn is None else turn, inputs, result, digest(state))
        self.steps.append(step)
        self.state = state
        if kind not in ("correction", "undo"):
            self.undoable.clear()

    def apply(self, step: Step) -> None:
        """Replay one recorded step, checking it lands on the recorded digest."""
        if step.kind == "orders":
            self.play({Colour(c): t for c, t in step.inputs.items()})
        elif step.kind == "retreats":
            self.retreat({int(u): s for u, s in step.inputs.items()})
        elif step.kind == "builds":
            self.build({Colour(c): t for c, t in step.inputs.items()})
        elif step.kind == "correction":
            self.correct(Correction.parse(step.inputs["text"], step.inputs.get("reason", "")))
        elif step.kind == "undo":
            self.undo()
        else:
            raise StateError(f"unknown step kind {step.kind!r}")
        if self.steps[-1].digest != step.digest:
            raise StateError(
                f"replaying the {step.kind} of turn {step.turn} gave a different position "
                f"(digest {self.steps[-1].digest}, recorded {step.digest})"
            )
