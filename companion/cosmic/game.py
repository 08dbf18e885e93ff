"""A game of Cosmic Cluster: positions, seasons, and the steps that move a game on (ruling C5).

The year starts at 4001. Each year has a Spring and a Fall movement turn (under the A/F module,
:mod:`companion.cosmic.afmodule`), each followed by retreats when a unit was dislodged, and
a Winter of adjustments when a power's units and centres differ. After a Spring turn a centre
occupied by another player's unit becomes unowned (spring raid, rule 11); after a Fall turn each
occupied centre belongs to its occupier. A power with 18 or more centres after Fall wins; several
reaching it together all win.

Orders come as text, one per line, per power; what a line says is kept even when it is
malformed (the result says why it did nothing). Missing orders: units hold, dislodged units
disband, and missing disbands are made in civil disorder.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cosmic.afmodule import (
    AFTurnResult,
    Lifted,
    adjudicate_af_retreats,
    adjudicate_af_turn,
    af_named_problem,
    af_retreat_options,
)
from companion.cosmic.afnotation import AFOrder, parse_plain_af
from companion.cosmic.cluster import Cluster, generate_cluster
from companion.cosmic.corrections import Correction, apply_correction
from companion.cosmic.diplomacy.adjustments import adjudicate_adjustments, adjustment_counts
from companion.cosmic.diplomacy.geography import Map, Power, ProvinceId, UnitType
from companion.cosmic.diplomacy.movement import MovementResult
from companion.cosmic.diplomacy.orders import Order
from companion.cosmic.diplomacy.rules import Edition, RuleSettings, Unit
from companion.errors import CompanionError, OrderSyntaxError

FIRST_YEAR = 4001
VICTORY_CENTRES = 18
MAX_ORDER_TEXT = 20_000


class CosmicError(CompanionError, ValueError):
    """A step that does not fit the game (wrong phase, unknown power, too much text)."""


class Season(enum.Enum):
    SPRING = "spring"
    FALL = "fall"
    WINTER = "winter"

    __hash__ = object.__hash__


class ChangeReason(enum.Enum):
    """Why a supply centre changed owner."""

    FALL_OWNERSHIP = "fall ownership"
    """After a Fall turn each occupied centre belongs to its occupier."""
    SPRING_RAID = "spring raid"
    """After a Spring turn a centre occupied by another power's unit becomes unowned (rule 11)."""
    CORRECTION = "correction"
    """The host set the owner (a board correction)."""

    __hash__ = object.__hash__


@dataclasses.dataclass(frozen=True)
class CentreChange:
    """A supply centre that changed owner: ``before`` and ``after`` (None: unowned)."""

    centre: ProvinceId
    before: Power | None
    after: Power | None
    why: ChangeReason

    def to_dict(self) -> dict[str, Any]:
        return {
            "centre": self.centre,
            "before": self.before,
            "after": self.after,
            "why": self.why.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CentreChange:
        return cls(data["centre"], data["before"], data["after"], ChangeReason(data["why"]))


class Phase(enum.Enum):
    """What the game waits for."""

    ORDERS = "orders"
    RETREATS = "retreats"
    ADJUSTMENTS = "adjustments"
    OVER = "over"

    __hash__ = object.__hash__


@dataclasses.dataclass(frozen=True)
class Position:
    """Everything about a game at one moment (the record's position object)."""

    year: int
    season: Season
    phase: Phase
    units: tuple[Unit, ...]
    owners: tuple[tuple[ProvinceId, Power], ...]
    lifted: tuple[Lifted, ...] = ()
    contested: tuple[ProvinceId, ...] = ()
    winners: tuple[Power, ...] = ()

    @property
    def owner_map(self) -> dict[ProvinceId, Power]:
        return dict(self.owners)

    def centres(self, power: Power) -> int:
        return sum(1 for _, owner in self.owners if owner == power)

    def label(self) -> str:
        return f"{self.season.value} {self.year}"

    def to_dict(self, cluster: Cluster) -> dict[str, Any]:
        def unit(u: Unit) -> dict[str, Any]:
            return {
                "power": u.power,
                "type": u.unit_type.value,
                "region": u.region,
                "cargo": u.cargo,
            }

        turn = retreat_turn(self)
        return {
            "year": self.year,
            "season": self.season.value,
            "phase": self.phase.value,
            "units": [unit(u) for u in _sorted_units(self.units)],
            "owners": dict(sorted(self.owners)),
            "retreats": [
                {
                    **unit(x.unit),
                    "attacker_from": x.attacker_from,
                    "time_scale": x.time_scale,
                    "options": list(af_retreat_options(cluster.map, turn, x)),
                }
                for x in self.lifted
            ],
            "contested": sorted(self.contested),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """The position of :meth:`to_dict` (a retreat's options are worked out again)."""

        def unit(u: Mapping[str, Any]) -> Unit:
            return Unit(u["power"], UnitType(u["type"]), u["region"], u["cargo"])

        return cls(
            data["year"],
            Season(data["season"]),
            Phase(data["phase"]),
            tuple(unit(u) for u in data["units"]),
            tuple(sorted(data["owners"].items())),
            tuple(Lifted(unit(x), x["attacker_from"], x["time_scale"]) for x in data["retreats"]),
            tuple(data["contested"]),
            tuple(data["winners"]),
        )

    def to_json(self, cluster: Cluster) -> str:
        return json.dumps(
            self.to_dict(cluster), sort_keys=True, separators=(",", ":"), ensure_ascii=True
        )


def _sorted_units(units: Sequence[Unit]) -> list[Unit]:
    return sorted(units, key=lambda u: (u.power, u.region, u.unit_type.value, u.cargo or ""))


def retreat_turn(position: Position) -> AFTurnResult:
    empty = MovementResult((), (), frozenset(position.contested), ())
    return AFTurnResult((), empty, position.units, position.lifted, frozenset(position.contested))


def digest(position: Position, cluster: Cluster) -> str:
    """The first 16 hex digits of the SHA-256 of the position's canonical JSON."""
    return hashlib.sha256(position.to_json(cluster).encode()).hexdigest()[:16]


@dataclasses.dataclass(frozen=True)
class Step:
    """One recorded step: kind, the season it belongs to, inputs as text, result, digest."""

    kind: str
    season: str
    inputs: dict[str, str]
    result: dict[str, Any]
    digest: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "season": self.season,
            "inputs": dict(sorted(self.inputs.items())),
            "result": self.result,
            "digest": self.digest,
        }


@dataclasses.dataclass(frozen=True)
class CosmicSettings:
    """The rule choices of a Cosmic Cluster game."""

    edition: str = "2023"

    def rules(self) -> RuleSettings:
        return RuleSettings(Edition(self.edition))

    def to_dict(self) -> dict[str, Any]:
        return {"edition": self.edition}


class CosmicGame:
    """A Cosmic Cluster game in progress: the cluster, the position and the steps played."""

    def __init__(self, seed: int, players: int, settings: CosmicSettings | None = None) -> None:
        self.cluster = generate_cluster(seed, players)
        self.settings = settings or CosmicSettings()
        owners = tuple(
            sorted(
                (p.id, p.home_of)
                for p in self.cluster.map.provinces.values()
                if p.home_of is not None
            )
        )
        self.initial = Position(
            FIRST_YEAR, Season.SPRING, Phase.ORDERS, tuple(self.cluster.starting_units()), owners
        )
        self.position = self.initial
        self.steps: list[Step] = []
        self.undoable: list[tuple[Correction, Position]] = []
        """Corrections since the last step played, with the position before each."""

    @property
    def seed(self) -> int:
        return self.cluster.seed

    @property
    def powers(self) -> tuple[Power, ...]:
        return self.cluster.powers

    @property
    def map(self) -> Map:
        return self.cluster.map

    # -- playing -----------------------------------------------------------------------------

    def _check_inputs(self, inputs: Mapping[str, str]) -> dict[str, str]:
        clean = {}
        for power, text in inputs.items():
            if power not in self.powers:
                raise CosmicError(f"no power {power!r} in this game ({', '.join(self.powers)})")
            if len(text) > MAX_ORDER_TEXT:
                raise CosmicError(f"{power}'s orders are over {MAX_ORDER_TEXT} characters")
            clean[power] = text
        return clean

    def play_orders(self, inputs: Mapping[str, str]) -> Step:
        """A movement turn (TS1-TS3) from each power's order text."""
        if self.position.phase is not Phase.ORDERS:
            raise CosmicError(f"the game waits for {self.position.phase.value}, not orders")
        inputs = self._check_inputs(inputs)
        orders: list[AFOrder] = []
        errors: list[dict[str, Any]] = []
        for power, text in sorted(inputs.items()):
            for number, line in _lines(text):
                try:
                    orders.append(AFOrder.parse(line, power))
                except OrderSyntaxError as error:
                    errors.append(_syntax(power, number, line, error))
        turn = adjudicate_af_turn(self.map, self.position.units, orders, self.settings.rules())
        result: dict[str, Any] = {
            "orders": [
                {
                    "power": r.order.power,
                    "order": r.order.text(),
                    "succeeded": r.succeeded,
                    "reason": r.reason,
                }
                for r in turn.results
            ],
            "syntax_errors": errors,
            "dislodged": [
                {
                    "unit": x.unit.text(),
                    "time_scale": x.time_scale,
                    "attacker_from": x.attacker_from,
                }
                for x in turn.dislodged
            ],
        }
        position = dataclasses.replace(
            self.position,
            units=tuple(_sorted_units(turn.units)),
            lifted=turn.dislodged,
            contested=tuple(sorted(turn.contested)),
        )
        if turn.dislodged:
            position = dataclasses.replace(position, phase=Phase.RETREATS)
        else:
            position, notes, changes = self._end_of_season(position)
            result["notes"] = notes
            result["centres"] = [c.to_dict() for c in changes]
        return self._record("orders", inputs, result, position)

    def play_retreats(self, inputs: Mapping[str, str]) -> Step:
        """TS4: each power's retreat orders (``A x -> y`` or ``A x disband``); others disband."""
        if self.position.phase is not Phase.RETREATS:
            raise CosmicError(f"the game waits for {self.position.phase.value}, not retreats")
        inputs = self._check_inputs(inputs)
        orders, errors = _parse_plain(inputs, lifted=self.position.lifted)
        retreat = adjudicate_af_retreats(self.map, retreat_turn(self.position), orders)
        position = dataclasses.replace(
            self.position, units=tuple(_sorted_units(retreat.units)), lifted=(), contested=()
        )
        position, notes, changes = self._end_of_season(position)
        result = {
            "orders": [_plain_result(r) for r in retreat.results],
            "syntax_errors": errors,
            "disbanded": [u.text() for u in retreat.disbanded],
            "notes": notes,
            "centres": [c.to_dict() for c in changes],
        }
        return self._record("retreats", inputs, result, position)

    def play_adjustments(self, inputs: Mapping[str, str]) -> Step:
        """Winter: builds and disbands; disbands left unordered happen in civil disorder."""
        if self.position.phase is not Phase.ADJUSTMENTS:
            raise CosmicError(f"the game waits for {self.position.phase.value}, not adjustments")
        inputs = self._check_inputs(inputs)
        orders, errors = _parse_plain(inputs)
        result_ = adjudicate_adjustments(
            self.map, self.position.units, self.position.owner_map, orders, self.settings.rules()
        )
        position = Position(
            self.position.year + 1,
            Season.SPRING,
            Phase.ORDERS,
            tuple(_sorted_units(result_.units)),
            self.position.owners,
        )
        result = {
            "orders": [_plain_result(r) for r in result_.results],
            "syntax_errors": errors,
            "civil_disorder": [u.text() for u in result_.civil_disorder],
            "centres": [],
        }
        return self._record("adjustments", inputs, result, position)

    def correct(self, correction: Correction) -> Step:
        """Apply a host's correction (:mod:`companion.cosmic.corrections`) and record it."""
        before = self.position
        if before.phase not in (Phase.ORDERS, Phase.ADJUSTMENTS):
            raise CosmicError(
                "corrections are made while orders or Winter adjustments are awaited, not while "
                f"the game waits for {before.phase.value}"
            )
        done = apply_correction(correction, self.cluster, self.powers, before.units, before.owners)
        after = dataclasses.replace(before, units=done.units, owners=done.owners)
        result = {
            "notes": [f"corrected: {correction.text()}"],
            "centres": [c.to_dict() for c in _owner_changes(before, after)],
        }
        step = self._record(
            "correction", {"text": correction.text(), "reason": correction.reason}, result, after
        )
        self.undoable.append((correction, before))
        return step

    def undo(self) -> tuple[Correction, Step]:
        """Undo the latest correction, as long as no season's step was played since."""
        if not self.undoable:
            raise CosmicError(
                "there is no correction to undo since the last orders, retreats or adjustments "
                "were played; make a new correction instead"
            )
        correction, before = self.undoable.pop()
        result = {
            "notes": [f"undid: {correction.text()}"],
            "centres": [c.to_dict() for c in _owner_changes(self.position, before)],
        }
        return correction, self._record("undo", {}, result, before)

    def centre_changes(self) -> list[CentreChange]:
        """The supply centres that changed owner in the latest season played (none after a
        Winter); a host's corrections are not seasons and are passed over."""
        for step in reversed(self.steps):
            if step.kind in ("orders", "retreats", "adjustments"):
                return [CentreChange.from_dict(c) for c in step.result.get("centres", [])]
        return []

    def adjustments_due(self) -> dict[Power, int]:
        """Builds (positive) or disbands (negative) per power this winter."""
        counts = adjustment_counts(self.map, self.position.units, self.position.owner_map)
        return {p: counts.get(p, 0) for p in self.powers}

    def _end_of_season(self, position: Position) -> tuple[Position, list[str], list[CentreChange]]:
        """The position after the season's centre changes, with notes and the changes."""
        notes: list[str] = []
        changes: list[CentreChange] = []
        provinces = self.map.provinces
        owners = dict(position.owners)
        occupants = {
            self.map.regions[u.region].province: u.power
            for u in position.units
            if u.unit_type is not UnitType.FLEET or u.cargo is None
        }
        if position.season is Season.SPRING:
            for province, power in sorted(occupants.items()):
                owner = owners.get(province)
                if provinces[province].supply_centre and owner is not None and owner != power:
                    del owners[province]
                    changes.append(CentreChange(province, owner, None, ChangeReason.SPRING_RAID))
                    notes.append(f"spring raid: {power} in {province} leaves it unowned")
            after = dataclasses.replace(
                position,
                season=Season.FALL,
                phase=Phase.ORDERS,
                owners=tuple(sorted(owners.items())),
            )
            return after, notes, changes
        for province, power in sorted(occupants.items()):
            if provinces[province].supply_centre and owners.get(province) != power:
                changes.append(
                    CentreChange(province, owners.get(province), power, ChangeReason.FALL_OWNERSHIP)
                )
                owners[province] = power
                notes.append(f"{power} takes {province}")
        position = dataclasses.replace(
            position, owners=tuple(sorted(owners.items())), lifted=(), contested=()
        )
        winners = tuple(p for p in self.powers if position.centres(p) >= VICTORY_CENTRES)
        if winners:
            notes.append(f"{' and '.join(winners)} reach {VICTORY_CENTRES} centres and win")
            over = dataclasses.replace(position, phase=Phase.OVER, winners=winners)
            return over, notes, changes
        counts = adjustment_counts(self.map, position.units, position.owner_map)
        if any(counts.get(p, 0) for p in self.powers):
            winter = dataclasses.replace(position, season=Season.WINTER, phase=Phase.ADJUSTMENTS)
            return winter, notes, changes
        spring = dataclasses.replace(
            position, year=position.year + 1, season=Season.SPRING, phase=Phase.ORDERS
        )
        return spring, notes, changes

    def _record(
        self, kind: str, inputs: Mapping[str, str], result: dict[str, Any], position: Position
    ) -> Step:
        step = Step(
            kind, self.position.label(), dict(inputs), result, digest(position, self.cluster)
        )
        self.position = position
        self.steps.append(step)
        if kind not in ("correction", "undo"):
            self.undoable.clear()
        return step

    def apply(self, step: Step) -> None:
        """Replay a recorded step, checking it lands on the recorded position."""
        if step.season != self.position.label():
            raise CosmicError(
                f"the step is for {step.season}, the game is in {self.position.label()}"
            )
        play = {
            "orders": self.play_orders,
            "retreats": self.play_retreats,
            "adjustments": self.play_adjustments,
        }.get(step.kind)
        if play is not None:
            replayed = play(step.inputs)
        elif step.kind == "correction":
            replayed = self.correct(
                Correction.parse(step.inputs["text"], step.inputs.get("reason", ""))
            )
        elif step.kind == "undo":
            replayed = self.undo()[1]
        else:
            raise CosmicError(f"unknown step kind {step.kind!r}")
        if replayed.digest != step.digest:
            raise CosmicError(
                f"replaying the {step.kind} of {step.season} gave a different position "
                f"(digest {replayed.digest}, recorded {step.digest})"
            )


def _owner_changes(before: Position, after: Position) -> list[CentreChange]:
    old, new = before.owner_map, after.owner_map
    return [
        CentreChange(c, old.get(c), new.get(c), ChangeReason.CORRECTION)
        for c in sorted(set(old) | set(new))
        if old.get(c) != new.get(c)
    ]


def _lines(text: str) -> list[tuple[int, str]]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((number, line))
    return out


def _syntax(power: Power, number: int, line: str, error: OrderSyntaxError) -> dict[str, Any]:
    return {
        "power": power,
        "line": number,
        "text": line,
        "error": f"line {number}, column {error.column}: "
        f"expected {error.expected}, found {error.found}",
    }


def _parse_plain(
    inputs: Mapping[str, str], *, lifted: Sequence[Lifted] | None = None
) -> tuple[list[Order], list[dict[str, Any]]]:
    """Each power's lines as standard orders; with ``lifted`` (retreats) a unit may also be
    written ``A/F``, as in the A/F's movement orders, when the dislodged fleet carries one."""
    orders = []
    errors = []
    for power, text in sorted(inputs.items()):
        for number, line in _lines(text):
            try:
                if lifted is None:
                    order = Order.parse(line)
                else:
                    order, af = parse_plain_af(line)
                    problem = af_named_problem(lifted, order) if af else None
                    if problem is not None:
                        errors.append(
                            {"power": power, "line": number, "text": line, "error": problem}
                        )
                        continue
            except OrderSyntaxError as error:
                errors.append(_syntax(power, number, line, error))
                continue
            if order.power not in (None, power):
                errors.append(
                    {
                        "power": power,
                        "line": number,
                        "text": line,
                        "error": "not your order to give",
                    }
                )
                continue
            orders.append(dataclasses.replace(order, power=power))
    return orders, errors


def _plain_result(result: Any) -> dict[str, Any]:
    return {
        "power": result.order.power,
        "order": result.order.text(),
        "succeeded": result.succeeded,
        "reason": result.reason,
    }
