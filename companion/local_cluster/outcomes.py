"""What a turn did, order by order, in words a player understands.

The adjudicator returns a :class:`TurnResult`: an outcome for every order line (done, void
and why, bounced, cut, cancelled, combat won or lost with both strengths), every combat with
the figures on both sides, the arrows to draw, the claims that changed and the retreats owed.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, NamedTuple

from companion.local_cluster.atoms import Colour, SectorId, UnitId
from companion.local_cluster.orders import Order
from companion.local_cluster.state import RetreatOwed, State


class OutcomeStatus(enum.Enum):
    DONE = "done"
    """Carried out as written."""
    PARTIAL = "partial"
    """A DEPLOY or RECALL that sent or brought back only some of its craft."""
    VOID = "void"
    """Malformed or impossible (R3.3): the unit held instead."""
    REPLACED = "replaced"
    """A later line gave the same unit another order (R3.2)."""
    FAILED = "failed"
    """Possible when written, but the board did not allow it (e.g. advancing on your own unit)."""
    BOUNCED = "bounced"
    """Two or more MOVEs or ADVANCEs went for the same sector: all of them failed."""
    CUT = "cut"
    """A SUPPORT whose supporter was dislodged."""
    CANCELLED = "cancelled"
    """The unit was dislodged, which cancels its support, claim and advance (R4.6)."""
    WON = "won"
    """An ADVANCE that won its combat."""
    LOST = "lost"
    """An ADVANCE that lost its combat."""


DONE, PARTIAL, VOID, REPLACED, FAILED, BOUNCED, CUT, CANCELLED, WON, LOST = OutcomeStatus
"""The outcome statuses by name (fast to read; see atoms.DESTROYER)."""


class StrengthPart(NamedTuple):
    """One contribution to a side's combat strength: ``Green destroyer in S8`` gives 2."""

    source: str
    amount: int


class Combat(NamedTuple):
    """One combat of the resolution phase (R5.1, R5.2).

    A named tuple for the same reason as :class:`OrderOutcome`: it is cheap to build.
    """

    sector: SectorId
    attacker: Colour
    attacker_unit: UnitId
    attacker_from: SectorId
    attack: tuple[StrengthPart, ...]
    defender: Colour
    defender_unit: UnitId | None
    """None when the sector held only the defender's strike craft."""
    defence: tuple[StrengthPart, ...]

    @property
    def attack_strength(self) -> int:
        return sum(p.amount for p in self.attack)

    @property
    def defence_strength(self) -> int:
        return sum(p.amount for p in self.defence)

    @property
    def attacker_won(self) -> bool:
        """Defence greater than or equal to attack holds (R5.2)."""
        return self.attack_strength > self.defence_strength

    def describe(self) -> str:
        """``S7: Red attacked from S4 with 5 (...) against Blue's 4 (...); Red won.``"""

        def parts(side: tuple[StrengthPart, ...]) -> str:
            return " + ".join(f"{p.source} {p.amount}" for p in side) or "nothing"

        verdict = (
            f"{self.attacker.title} won" if self.attacker_won else f"{self.defender.title} held"
        )
        return (
            f"{self.sector}: {self.attacker.title} attacked from {self.attacker_from} with "
            f"{self.attack_strength} ({parts(self.attack)}) against {self.defender.title}'s "
            f"{self.defence_strength} ({parts(self.defence)}); {verdict}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "sector": self.sector,
            "attacker": self.attacker.value,
            "attacker_unit": self.attacker_unit,
            "attacker_from": self.attacker_from,
            "attack": [[p.source, p.amount] for p in self.attack],
            "defender": self.defender.value,
            "defender_unit": self.defender_unit,
            "defence": [[p.source, p.amount] for p in self.defence],
            "attacker_won": self.attacker_won,
        }


class OrderOutcome(NamedTuple):
    """What became of one order line.

    A named tuple rather than a frozen dataclass: the adjudicator makes one per order line,
    and a named tuple is several times cheaper to build (see docs/benchmarks.md).
    """

    empire: Colour
    line: int
    text: str
    """The order as written (canonical form when it parsed)."""
    status: OutcomeStatus
    reason: str
    """A sentence for the order's owner: why it was void, who bounced it, the combat figures."""
    order: Order | None = None
    unit: UnitId | None = None
    combat: Combat | None = None

    def explain(self) -> str:
        """``ADVANCE S4 S7: lost 3 against 4 ...``"""
        return f"{self.text}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "empire": self.empire.value,
            "line": self.line,
            "text": self.text,
            "status": self.status.value,
            "reason": self.reason,
            "unit": self.unit,
        }


class MoveKind(enum.Enum):
    MOVE = "move"
    ADVANCE = "advance"
    DEPLOY = "deploy"
    RECALL = "recall"


class Movement(NamedTuple):
    """An arrow for the table screen: a unit or craft that went from one sector to another."""

    kind: MoveKind
    owner: Colour
    unit: UnitId
    """The unit, or for craft the carrier they belong to."""
    origin: SectorId
    destination: SectorId

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "owner": self.owner.value,
            "unit": self.unit,
            "from": self.origin,
            "to": self.destination,
        }


class ClaimChange(NamedTuple):
    sector: SectorId
    before: Colour | None
    after: Colour

    def to_dict(self) -> dict[str, Any]:
        return {
            "sector": self.sector,
            "before": None if self.before is None else self.before.value,
            "after": self.after.value,
        }


@dataclasses.dataclass(frozen=True)
class TurnResult:
    """Everything one turn's adjudication decided.

    ``state`` is the position after the action and resolution phases: in phase RETREATS when
    retreats are owed (choose them with :func:`.retreats.apply_retreats`), otherwise
    already finished (claims, R5.4 clean-up, R7 checks) and waiting for the next phase.
    """

    turn: int
    outcomes: tuple[OrderOutcome, ...]
    combats: tuple[Combat, ...]
    movements: tuple[Movement, ...]
    claims_changed: tuple[ClaimChange, ...]
    dislodged: tuple[UnitId, ...]
    retreats: tuple[RetreatOwed, ...]
    state: State
    aftermath: tuple[str, ...] = ()
    """What happened after the combats when no retreat choice was needed (R5.4, R7)."""

    def outcomes_of(self, colour: Colour) -> tuple[OrderOutcome, ...]:
        return tuple(o for o in self.outcomes if o.empire is colour)

    def outcome_for(self, colour: Colour, text: str) -> OrderOutcome:
        """The outcome of the last line of ``colour`` reading ``text`` (as written, any case)."""
        wanted = " ".join(text.split()).upper()
        for outcome in reversed(self.outcomes):
            if outcome.empire is colour and outcome.text.upper() == wanted:
                return outcome
        raise KeyError(f"{colour.title} gave no order {text!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "outcomes": [o.to_dict() for o in self.outcomes],
            "combats": [c.to_dict() for c in self.combats],
            "movements": [m.to_dict() for m in self.movements],
            "claims_changed": [c.to_dict() for c in self.claims_changed],
            "dislodged": list(self.dislodged),
            "retreats": [
                {"unit": r.unit, "sector": r.sector, "options": list(r.options)}
                for r in self.retreats
            ],
            "aftermath": list(self.aftermath),
        }
