"""Local Cluster at the table: the :class:`GameSetup` and :class:`GameSession` of the rules core."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError, StateError
from companion.local_cluster.atoms import (
    CARRIER,
    CARRIER_CAPACITY,
    Colour,
    SectorId,
)
from companion.local_cluster.board_scan import BoardScan, compare
from companion.local_cluster.corrections import Correction
from companion.local_cluster.economy import BuildPlan, canonical_plan, check_plan, income_statement
from companion.local_cluster.ending import leaders, places, result_words
from companion.local_cluster.galaxy import Galaxy
from companion.local_cluster.game import Game, Step
from companion.local_cluster.generation import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SeatChoice,
    generate_layout,
    layout_galaxy,
    populate,
)
from companion.local_cluster.orders import (
    ADVANCE,
    CLAIM,
    DEPLOY,
    HOLD,
    MOVE,
    RECALL,
    SUPPORT,
    Order,
    OrderKind,
    OrderSheet,
)
from companion.local_cluster.record import GameRecord
from companion.local_cluster.retreats import check_retreat
from companion.local_cluster.settings import HouseRules, SupportRange
from companion.local_cluster.state import Phase, State, Unit
from companion.local_cluster.validation import assign_orders, check_order
from companion.service.session import Stage, StageKind, SubmissionError

GAME = "local-cluster"

COMMAND = Stage("command", "Orders", StageKind.SECRET, "orders", "green", discussed=True)
"""R8.1: every empire writes its orders in secret, after a discussion."""
RETREATS = Stage("retreats", "Retreats", StageKind.SECRET, "retreats", "red")
"""R5.3: the owners of dislodged units choose where they go."""
BUILD = Stage("build", "Build", StageKind.SECRET, "build", "amber")
"""R6: every second turn, each empire that can build sends its plan."""
STAGES = (COMMAND, RETREATS, BUILD)


def _durations(rules: HouseRules) -> dict[Stage, int]:
    return {
        Stage.DISCUSSION: rules.discussion_seconds,
        COMMAND: rules.command_seconds,
        RETREATS: rules.retreat_seconds,
        BUILD: rules.build_seconds,
    }


class LocalClusterSetup:
    """A new Local Cluster table: a generated (from ``seed``) or entered/scanned galaxy."""

    game = GAME

    def __init__(
        self,
        players: int,
        *,
        seed: int,
        rules: HouseRules | None = None,
        galaxy: Galaxy | None = None,
        roll_minerals: bool = True,
        record: Mapping[str, Any] | None = None,
    ) -> None:
        self.players = players
        self.seed = seed
        self.rules = rules or HouseRules()
        self.entered = galaxy
        self.roll_minerals = roll_minerals if galaxy is not None else True
        self.record = record
        """An imported game record: the table carries on from its last position."""
        if record is None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise StateError(
                f"Local Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        if record is not None:
            self.game_record = GameRecord.from_dict(record)
            self.galaxy = self.game_record.setup.galaxy
            self.players = len(self.game_record.setup.empires)
            self.rules = self.game_record.rules
        elif galaxy is None:
            self.galaxy = layout_galaxy(generate_layout(players, random.Random(seed)))
        else:
            self.galaxy = galaxy
            if len(galaxy.ids) < players:
                raise StateError(f"{players} players need at least {players} sectors")

    def choosing_order(self) -> list[int]:
        if self.record is not None:
            return []  # an imported game was set up long ago
        return list(range(self.players, 0, -1))

    def choices(self) -> dict[int, dict[str, Any]]:
        """The seats' choices as the imported record has them (empty for a new game)."""
        if self.record is None:
            return {}
        return {
            e.seat: {"colour": e.colour.value, "home": e.home}
            for e in self.game_record.setup.empires
        }

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        try:
            colour = Colour.parse(str(choice.get("colour", "")))
        except ValueError as err:
            raise SubmissionError([str(err)]) from None
        home = self.galaxy.resolve(str(choice.get("home", "")))
        reasons = []
        if home is None:
            reasons.append(f"there is no sector {choice.get('home')!r} on this map")
        for other_seat, other in taken.items():
            if other_seat == seat:
                continue
            if other["colour"] == colour.value:
                reasons.append(f"{colour.title} is taken by seat {other_seat}; choose another")
            if home is not None and other["home"] == home:
                reasons.append(f"{home} is seat {other_seat}'s home; choose another sector")
        if reasons:
            raise SubmissionError(reasons)
        return {"colour": colour.value, "home": home}

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> LocalClusterSession:
        if self.record is not None:
            return LocalClusterSession(self.game_record.replay())
        rng = random.Random(self.seed)
        if self.entered is None:
            generate_layout(self.players, rng)  # the same draws as the layout we showed
        seats = [SeatChoice(s, Colour(c["colour"]), c["home"]) for s, c in sorted(choices.items())]
        state = populate(
            self.galaxy, seats, rng, rules=self.rules, roll_minerals=self.roll_minerals
        )
        return LocalClusterSession(Game(state, seed=self.seed))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "galaxy": None if self.entered is None else self.entered.to_dict(),
            "roll_minerals": self.roll_minerals,
            "record": self.record,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LocalClusterSetup:
        galaxy = data.get("galaxy")
        return cls(
            data["players"],
            seed=data["seed"],
            rules=HouseRules.from_dict(data["rules"]),
            galaxy=None if galaxy is None else Galaxy.from_dict(galaxy),
            roll_minerals=data.get("roll_minerals", True),
            record=data.get("record"),
        )

    def public(self) -> dict[str, Any]:
        return {
            "galaxy": self.galaxy.to_dict(),
            "rules": self.rules.to_dict(),
            # The mineral values are rolled when the game starts (R2.2), unless entered.
            "minerals_known": not self.roll_minerals,
        }

    def durations(self) -> dict[Stage, int]:
        return _durations(self.rules)


_STAGE = {
    Phase.ORDERS: COMMAND,
    Phase.RETREATS: RETREATS,
    Phase.BUILD: BUILD,
    Phase.OVER: Stage.OVER,
}


class LocalClusterSession:
    """A running Local Cluster game, its seats being the empires' seats."""

    game = GAME

    def __init__(self, game: Game) -> None:
        self.core = game

    @property
    def state(self) -> State:
        return self.core.state

    def _colour(self, seat: int) -> Colour:
        for empire in self.state.empires:
            if empire.seat == seat:
                return empire.colour
        raise StateError(f"seat {seat} has no empire in this game")

    def stage(self) -> Stage:
        return _STAGE[self.state.phase]

    def turn(self) -> int:
        return self.state.turn

    def active_seats(self) -> set[int]:
        return {e.seat for e in self.state.empires if not e.eliminated}

    def owing(self) -> set[int]:
        state = self.state
        if state.phase is Phase.ORDERS:
            return self.active_seats()
        if state.phase is Phase.RETREATS:
            owners = {r.owner for r in state.retreats if r.options}
            return {state.empire(c).seat for c in owners}
        if state.phase is Phase.BUILD:
            return {
                e.seat
                for e in state.empires
                if not e.eliminated and income_statement(state, e.colour).can_build
            }
        return set()

    def check_submission(self, seat: int, text: str) -> str:
        colour = self._colour(seat)
        state = self.state
        if state.phase is Phase.ORDERS:
            return self._check_orders(colour, text)
        if state.phase is Phase.RETREATS:
            return self._check_retreats(colour, text)
        if state.phase is Phase.BUILD:
            return self._check_plan(colour, text)
        raise SubmissionError(["the game is over; there is nothing to submit"])

    def _check_orders(self, colour: Colour, text: str) -> str:
        sheet = OrderSheet.parse(text)
        assignment = assign_orders(self.state, colour, sheet)
        void = sorted(
            (e for e in [*assignment.unplaced, *assignment.entries()] if e.void),
            key=lambda e: e.line.line,
        )
        if void:
            # Syntax errors already name their line and column.
            raise SubmissionError(
                [
                    str(e.line.error) if e.line.error else f"line {e.line.line}: {e.void}"
                    for e in void
                ]
            )
        return "\n".join(e.checked.order.text() for e in assignment.entries() if e.checked.order)

    def _parse_retreats(self, colour: Colour, text: str) -> dict[int, str]:
        state = self.state
        choices: dict[int, str] = {}
        reasons = []
        for number, raw in enumerate(text.splitlines(), start=1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) != 3 or words[0].upper() != "RETREAT":
                reasons.append(f"line {number}: write RETREAT from-sector to-sector")
                continue
            origin = state.galaxy.resolve(words[1])
            owed = [r for r in state.retreats if r.sector == origin and r.owner is colour]
            if not owed:
                reasons.append(f"line {number}: you owe no retreat from {words[1]}")
                continue
            try:
                choices[owed[0].unit] = check_retreat(state, owed[0].unit, words[2])
            except CompanionError as err:
                reasons.append(f"line {number}: {err}")
        if reasons:
            raise SubmissionError(reasons)
        return choices

    def _check_retreats(self, colour: Colour, text: str) -> str:
        choices = self._parse_retreats(colour, text)
        by_unit = {r.unit: r for r in self.state.retreats}
        return "\n".join(f"RETREAT {by_unit[u].sector} {s}" for u, s in sorted(choices.items()))

    def _check_plan(self, colour: Colour, text: str) -> str:
        try:
            plan = BuildPlan.parse(text)
        except CompanionError as err:
            raise SubmissionError([str(err)]) from None
        reasons = check_plan(self.state, colour, plan)
        if reasons:
            raise SubmissionError(reasons)
        return canonical_plan(self.state, plan).text()

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        state = self.state
        colours = {seat: self._colour(seat) for seat in submissions}
        if state.phase is Phase.ORDERS:
            result = self.core.play({colours[s]: t for s, t in submissions.items()})
            return {"kind": "results", **result.to_dict()}
        if state.phase is Phase.RETREATS:
            choices: dict[int, str] = {}
            for seat, text in submissions.items():
                choices.update(self._parse_retreats(colours[seat], text))
            notes = self.core.retreat(choices)
            return {"kind": "retreats_done", "turn": state.turn, "notes": list(notes)}
        if state.phase is Phase.BUILD:
            plans: dict[Colour, BuildPlan] = {}
            dropped: list[str] = []
            for seat, text in submissions.items():
                plan = BuildPlan.parse(text)
                if check_plan(state, colours[seat], plan):
                    # A host's correction since it was accepted made it impossible (R8.2).
                    dropped.append(
                        f"{colours[seat].title}'s plan no longer fits the corrected position; "
                        "nothing was built"
                    )
                else:
                    plans[colours[seat]] = plan
            notes = self.core.build(plans)
            # Income figures stay private to each empire (R6.7): only what was built is public.
            return {"kind": "build_summary", "turn": state.turn, "notes": [*dropped, *notes]}
        raise StateError("the game is over")

    def correct(self, text: str, reason: str) -> dict[str, Any]:
        correction = Correction.parse(text, reason)
        self.core.correct(correction)
        return {"text": correction.text(), "reason": correction.reason}

    def undo(self) -> dict[str, Any]:
        correction = self.core.undo()
        return {"text": correction.text(), "reason": correction.reason}

    def compare_scan(self, scan: object) -> dict[str, Any]:
        """The camera's board scan against the tracked position (see :mod:`.board_scan`)."""
        if not isinstance(scan, BoardScan):
            raise StateError("a Local Cluster table compares only a Local Cluster board scan")
        report = compare(scan, self.state)
        return {
            "discrepancies": [d.to_dict() for d in report.discrepancies],
            "missing": list(report.missing),
        }

    def durations(self) -> dict[Stage, int]:
        return _durations(self.state.rules)

    def step_count(self) -> int:
        return len(self.core.steps)

    def steps_since(self, count: int) -> list[dict[str, Any]]:
        return [step.to_dict() for step in self.core.steps[count:]]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "seed": self.core.seed,
            "initial": self.core.initial.to_dict(),
            "state": self.state.to_dict(),
            "step_count": len(self.core.steps),
            "undoable": [
                [c.text(), c.reason, before.to_dict()] for c, before in self.core.undoable
            ],
        }

    @classmethod
    def restore(
        cls, snapshot: Mapping[str, Any], steps: list[Mapping[str, Any]]
    ) -> LocalClusterSession:
        game = Game(State.from_dict(snapshot["initial"]), seed=snapshot["seed"])
        # Steps stored after the snapshot come back when the log after it is re-applied.
        game.steps = [
            Step(s["kind"], s["turn"], s["inputs"], s["result"], s["digest"])
            for s in steps[: snapshot["step_count"]]
        ]
        game.state = State.from_dict(snapshot["state"])
        game.undoable = [
            (Correction.parse(text, reason), State.from_dict(before))
            for text, reason, before in snapshot.get("undoable", [])
        ]
        return cls(game)

    def record_json(self) -> str:
        return GameRecord.of(self.core).to_json()

    def public(self) -> dict[str, Any]:
        state = self.state
        out: dict[str, Any] = {"state": state.to_dict()}
        if state.phase is Phase.OVER:
            out["result"] = {
                "winner": None if state.winner is None else state.winner.value,
                "ranking": [c.value for c in state.ranking],
                # Equal on sectors and minerals: the same place, and nobody named (R7.3).
                "places": [[place, c.value] for place, c in places(state)],
                "leaders": [c.value for c in leaders(state)],
                "said": result_words(state),
            }
        return out

    def private(self, seat: int) -> dict[str, Any]:
        colour = self._colour(seat)
        state = self.state
        out: dict[str, Any] = {"colour": colour.value}
        if state.phase is Phase.ORDERS:
            out["units"] = order_options(state, colour)
        if state.phase is Phase.BUILD:
            out["income"] = income_statement(state, colour).to_dict()
            out["build"] = build_options(state, colour)
        if state.phase is Phase.RETREATS:
            out["retreats"] = [
                {"sector": r.sector, "options": list(r.options), "unit": r.describe()}
                for r in state.retreats
                if r.owner is colour
            ]
        return out


def order_options(state: State, colour: Colour) -> list[dict[str, Any]]:
    """Each of ``colour``'s units with every order kind it may take and the targets each
    accepts on this position (checked by :func:`.validation.check_order`), for an
    order builder that offers only possible orders. A carrier that can RECALL also gets
    ``deploy_with_recall``: the DEPLOY it may give beside that RECALL (R3.2 lets a carrier hold
    both), counting the craft it recalls. Combinations (how many craft a DEPLOY sends) are
    still checked when the sheet is submitted."""
    galaxy = state.galaxy
    units = []
    for unit in state.units_of(colour):

        def fine(kind: OrderKind, targets: tuple[SectorId, ...], unit: Unit = unit) -> bool:
            return check_order(state, colour, Order(kind, unit.sector, targets)).void is None

        near = sorted(galaxy.neighbours[unit.sector], key=galaxy.order.__getitem__)
        reach = near if state.rules.support_range is SupportRange.ADJACENT else list(galaxy.ids)
        orders: list[dict[str, Any]] = [{"kind": HOLD.word, "targets": [], "min": 0, "max": 0}]
        for kind in (MOVE, ADVANCE):
            targets = [t for t in near if fine(kind, (t,))]
            if targets:
                orders.append({"kind": kind.word, "targets": targets, "min": 1, "max": 1})
        support = [t for t in reach if t != unit.sector and fine(SUPPORT, (t,))]
        if support:
            orders.append({"kind": SUPPORT.word, "targets": support, "min": 1, "max": 1})
        craft_out = [c.sector for c in state.craft_of(unit.id)]
        deploy = [t for t in near if fine(DEPLOY, (t,))] if unit.kind is CARRIER else []
        if unit.kind is CARRIER and unit.docked and deploy:
            most = min(unit.docked, DEPLOY.target_range[1])
            orders.append({"kind": DEPLOY.word, "targets": deploy, "min": 1, "max": most})
        paired: dict[str, Any] | None = None
        if unit.kind is CARRIER:
            sources = [
                s
                for s in [unit.sector, *near]
                if any(c.sector == s and c.owner is colour for c in state.craft)
            ]
            if sources:
                recalled = min(len(craft_out) or 1, RECALL.target_range[1])
                orders.append({"kind": RECALL.word, "targets": sources, "min": 1, "max": recalled})
                if deploy:  # R3.2: the DEPLOY half may send the craft it recalls as well
                    most = min(unit.docked + recalled, DEPLOY.target_range[1])
                    paired = {"kind": DEPLOY.word, "targets": deploy, "min": 1, "max": most}
        orders.append({"kind": CLAIM.word, "targets": [], "min": 0, "max": 0})
        entry: dict[str, Any] = {
            "id": unit.id,
            "sector": unit.sector,
            "type": unit.kind.value,
            "docked": unit.docked,
            "craft_out": craft_out,
            "orders": orders,
        }
        if paired is not None:
            entry["deploy_with_recall"] = paired
        claims_empty = state.rules.advance_claims_empty
        for order in [*orders, *([paired] if paired else [])]:
            kind = OrderKind(order["kind"])
            order["about"] = kind.summary(advance_claims_empty=claims_empty)
        units.append(entry)
    return units


def build_options(state: State, colour: Colour) -> dict[str, Any]:
    """What a build plan may name for ``colour`` (R6.4, R6.5): sectors to build in and carriers
    to replenish. (The prices are the rules' constants: ``UnitType.cost``, ``REPLENISH_COST``.)"""
    claimed = state.sectors_of(colour)
    return {
        "sectors": [s for s in claimed if s not in state.unit_at],
        "replenish": [
            u.sector
            for u in state.units_of(colour)
            if u.kind is CARRIER and state.craft_owned(u.id) < CARRIER_CAPACITY
        ],
        "net": income_statement(state, colour).net,
        "stockpiled": state.empire(colour).stockpiled,
    }
