"""Cosmic Cluster at the table: the :class:`GameSetup` and :class:`GameSession` of the variant.

Seat *n* plays power ``Pn``; the cluster and the home systems come from the table's seed (rule 3:
the gamesmaster places them at random), so each seat's setup choice is only to confirm its home.
Stages: Spring and Fall orders (COMMAND, after a DISCUSSION), RETREATS when units were
dislodged, Winter adjustments (BUILD). The timers are the table's house-rule durations.
Missed orders take the defaults: units hold, a dislodged unit without a retreat disbands, a power
that does not order its disbands loses units in civil disorder (and builds nothing).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cosmic.afmodule import af_named_problem, af_retreat_options
from companion.cosmic.afnotation import AFKind, AFOrder, parse_plain_af
from companion.cosmic.cluster import MAX_PLAYERS, MIN_PLAYERS, jump_lines
from companion.cosmic.corrections import Correction
from companion.cosmic.diplomacy.adjustments import (
    adjudicate_adjustments,
    carrier,
    is_aboard,
    winter_units,
)
from companion.cosmic.diplomacy.geography import Map, Power, RegionId, Terrain, UnitType
from companion.cosmic.diplomacy.options import unit_options
from companion.cosmic.diplomacy.orders import Order, OrderKind
from companion.cosmic.diplomacy.rules import Unit
from companion.cosmic.game import (
    CosmicGame,
    CosmicSettings,
    Phase,
    Position,
    Season,
    Step,
    retreat_turn,
)
from companion.cosmic.record import load_record, record_json
from companion.cosmic.timers import Timers
from companion.errors import CompanionError, OrderSyntaxError, StateError
from companion.service.session import Stage, StageKind, SubmissionError

GAME = "cosmic-cluster"

COMMAND = Stage("command", "Orders", StageKind.SECRET, "orders", "green", discussed=True)
"""Spring and Fall: every power writes its orders in secret, after a discussion."""
RETREATS = Stage("retreats", "Retreats", StageKind.SECRET, "retreats", "red")
"""Dislodged units retreat or disband."""
BUILD = Stage("build", "Build", StageKind.SECRET, "build", "amber")
"""Winter: builds and disbands."""
STAGES = (COMMAND, RETREATS, BUILD)

_STAGE = {
    Phase.ORDERS: COMMAND,
    Phase.RETREATS: RETREATS,
    Phase.ADJUSTMENTS: BUILD,
    Phase.OVER: Stage.OVER,
}


def _durations(rules: Timers) -> dict[Stage, int]:
    return {
        Stage.DISCUSSION: rules.discussion_seconds,
        COMMAND: rules.command_seconds,
        RETREATS: rules.retreat_seconds,
        BUILD: rules.build_seconds,
    }


def _power(seat: int) -> Power:
    return f"P{seat}"


class CosmicClusterSetup:
    """A new Cosmic Cluster table: the cluster generated from ``seed`` for ``players``."""

    game = GAME

    def __init__(
        self,
        players: int,
        *,
        seed: int,
        rules: Timers | None = None,
        edition: str = "2023",
        record: Mapping[str, Any] | None = None,
    ) -> None:
        self.record = record
        """An imported game record: the table carries on from its last position."""
        if record is not None:
            players, seed = record["players"], record["seed"]
            edition = record["rules"].get("edition", edition)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise StateError(
                f"Cosmic Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        self.players = players
        self.seed = seed
        self.rules = rules or Timers()
        self.settings = CosmicSettings(edition)
        self.preview = CosmicGame(seed, players, self.settings)

    def choosing_order(self) -> list[int]:
        if self.record is not None:
            return []  # an imported game was set up long ago
        return list(range(1, self.players + 1))

    def choices(self) -> dict[int, dict[str, Any]]:
        if self.record is None:
            return {}
        return {
            seat: {"power": _power(seat), "home": self.preview.cluster.home_of(_power(seat)).name}
            for seat in range(1, self.players + 1)
        }

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        home = self.preview.cluster.home_of(_power(seat)).name
        asked = choice.get("home")
        if asked not in (None, "", home):
            raise SubmissionError(
                [f"the cluster's set-up gave seat {seat} the home system {home}, not {asked!r}"]
            )
        return {"power": _power(seat), "home": home}

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> CosmicClusterSession:
        if self.record is not None:
            return CosmicClusterSession(load_record(json.dumps(self.record)), self.rules)
        return CosmicClusterSession(CosmicGame(self.seed, self.players, self.settings), self.rules)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "edition": self.settings.edition,
            "record": self.record,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CosmicClusterSetup:
        return cls(
            data["players"],
            seed=data["seed"],
            rules=Timers.from_dict(data["rules"]),
            edition=data.get("edition", "2023"),
            record=data.get("record"),
        )

    def public(self) -> dict[str, Any]:
        return {"cluster": cluster_dict(self.preview), "rules": self.rules.to_dict()}

    def durations(self) -> dict[Stage, int]:
        return _durations(self.rules)


def cluster_dict(game: CosmicGame) -> dict[str, Any]:
    """The cluster for the table screen: systems, their spaces, jump-lines, centres."""
    return {
        "seed": game.seed,
        "systems": [
            {
                "position": s.position,
                "name": s.name,
                "kind": s.kind.value,
                "home_of": s.home_of,
                "surface": list(s.surface),
                "orbit": s.orbit,
                "box": s.box,
                "centres": list(s.centres),
            }
            for s in game.cluster.systems
        ],
        "jump_lines": [list(line) for line in jump_lines()],
    }


class CosmicClusterSession:
    """A running Cosmic Cluster game."""

    game = GAME

    def __init__(self, game: CosmicGame, rules: Timers | None = None) -> None:
        self.core = game
        self.rules = rules or Timers()

    def _seat_power(self, seat: int) -> Power:
        power = _power(seat)
        if power not in self.core.powers:
            raise StateError(f"seat {seat} has no power in this game")
        return power

    def stage(self) -> Stage:
        return _STAGE[self.core.position.phase]

    def turn(self) -> int:
        position = self.core.position
        return 2 * (position.year - 4001) + (1 if position.season is Season.SPRING else 2)

    def active_seats(self) -> set[int]:
        position = self.core.position
        alive = {u.power for u in position.units} | {p for _, p in position.owners}
        alive |= {u.cargo for u in position.units if u.cargo is not None}  # armies aboard
        return {int(p[1:]) for p in alive if p in self.core.powers}

    def owing(self) -> set[int]:
        position = self.core.position
        if position.phase is Phase.ORDERS:
            # An army aboard another power's fleet is its own power's to order (section G).
            powers = {u.power for u in position.units}
            powers |= {u.cargo for u in position.units if u.cargo is not None}
            return {int(p[1:]) for p in powers}
        if position.phase is Phase.RETREATS:
            turn = retreat_turn(position)
            return {
                int(x.unit.power[1:])
                for x in position.lifted
                if af_retreat_options(self.core.map, turn, x)
            }
        if position.phase is Phase.ADJUSTMENTS:
            return {int(p[1:]) for p, n in self.core.adjustments_due().items() if n}
        return set()

    # -- submissions -------------------------------------------------------------------------

    def check_submission(self, seat: int, text: str) -> str:
        power = self._seat_power(seat)
        phase = self.core.position.phase
        if phase is Phase.ORDERS:
            return self._check_orders(power, text)
        if phase is Phase.RETREATS:
            return self._check_retreats(power, text)
        if phase is Phase.ADJUSTMENTS:
            return self._check_adjustments(power, text)
        raise SubmissionError(["the game is over; there is nothing to submit"])

    def _lines(self, text: str) -> list[tuple[int, str]]:
        out = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if line:
                out.append((number, line))
        return out

    def _check_orders(self, power: Power, text: str) -> str:
        """Syntax, the writer, known spaces, and the units TS1 and TS2 orders name.

        A TS2 order may name a space the writer's unit reaches in TS1 (a landing, or the fleet
        its army boards); TS3 orders are checked when adjudicated, as units move before them."""
        reasons = []
        parsed: list[tuple[int, AFOrder]] = []
        for number, line in self._lines(text):
            try:
                order = AFOrder.parse(line, power)
            except OrderSyntaxError as error:
                reasons.append(
                    f"line {number}, column {error.column}: expected {error.expected}, "
                    f"found {error.found}"
                )
                continue
            if order.power != power:
                reasons.append(f"line {number}: an order of {order.power}, not yours ({power})")
                continue
            parsed.append((number, order))
        game_map = self.core.map
        units = self.core.position.units
        after_ts1 = {
            o.target if o.kind is AFKind.LAND else o.fleet
            for _, o in parsed
            if o.kind in (AFKind.LAND, AFKind.BOARD)
        }

        def unit_at(region: str, *, army: bool | None = None, af: bool = False) -> bool:
            for unit in units:
                if unit.region != region:
                    continue
                if af and unit.cargo is None:
                    continue
                if army is not None and (unit.unit_type is UnitType.ARMY) != army:
                    continue
                return True
            return False

        canonical = []
        for number, order in parsed:
            standard = order.standard
            places = [standard.region] if standard is not None else []
            places += [p for p in (order.army, order.fleet, order.target) if p is not None]
            unknown = [p for p in places if game_map.canonical(p) not in game_map.regions]
            problem = None
            if unknown:
                problem = f"there is no space {unknown[0]} in this cluster"
            elif order.kind in (AFKind.BOARD, AFKind.FAST_FERRY) and order.time_scale < 3:
                assert order.army is not None and order.fleet is not None
                if not unit_at(order.fleet, army=False):
                    problem = f"there is no fleet in {order.fleet}"
                elif order.kind is AFKind.BOARD and not unit_at(order.army, army=True):
                    problem = f"there is no army in {order.army}"
            elif order.kind in (AFKind.LAND, AFKind.SUPPORT_LANDING):
                assert order.fleet is not None
                if not unit_at(order.fleet, af=True):
                    problem = f"there is no A/F (a fleet with an army aboard) in {order.fleet}"
            elif standard is not None and order.time_scale == 2:
                mine = any(
                    u.region == standard.region and power in (u.power, u.cargo) for u in units
                )
                if not mine and standard.region not in after_ts1:
                    problem = f"you have no unit in {standard.region}"
            if problem is not None:
                reasons.append(f"line {number}: {problem}")
            else:
                canonical.append(order.text().split(": ", 1)[1])
        if reasons:
            raise SubmissionError(reasons)
        return "\n".join(canonical)

    def _plain(
        self, power: Power, text: str, *, retreats: bool = False
    ) -> tuple[list[Order], list[str]]:
        """The lines as standard orders; in ``retreats`` a unit may also be written ``A/F``."""
        orders, reasons = [], []
        lifted = self.core.position.lifted
        for number, line in self._lines(text):
            try:
                if retreats:
                    order, af = parse_plain_af(line)
                    problem = af_named_problem(lifted, order) if af else None
                    if problem is not None:
                        reasons.append(f"line {number}: {problem}")
                        continue
                else:
                    order = Order.parse(line)
            except OrderSyntaxError as error:
                reasons.append(
                    f"line {number}, column {error.column}: expected {error.expected}, "
                    f"found {error.found}"
                )
                continue
            if order.power not in (None, power):
                reasons.append(f"line {number}: an order of {order.power}, not yours ({power})")
                continue
            orders.append(Order(power, order.unit_type, order.region, order.kind, order.target))
        return orders, reasons

    def _check_retreats(self, power: Power, text: str) -> str:
        orders, reasons = self._plain(power, text, retreats=True)
        position = self.core.position
        turn = retreat_turn(position)
        for order in orders:
            lifted = next((x for x in position.lifted if x.unit.region == order.region), None)
            if lifted is None or lifted.unit.power != power:
                reasons.append(f"{order.text()}: you owe no retreat from {order.region}")
            elif order.kind is OrderKind.MOVE:
                options = af_retreat_options(self.core.map, turn, lifted)
                if order.target not in options:
                    reasons.append(
                        f"{order.text()}: retreat to one of {', '.join(options) or 'nowhere'}"
                    )
            elif order.kind is not OrderKind.DISBAND:
                reasons.append(f"{order.text()}: a retreat is '-> space' or 'disband'")
        if reasons:
            raise SubmissionError(reasons)
        return "\n".join(o.text().split(": ", 1)[1] for o in orders)

    def _check_adjustments(self, power: Power, text: str) -> str:
        orders, reasons = self._plain(power, text)
        position = self.core.position
        dry = adjudicate_adjustments(
            self.core.map,
            position.units,
            position.owner_map,
            orders,
            self.core.settings.rules(),
        )
        reasons += [f"{r.order.text()}: {r.reason}" for r in dry.results if not r.succeeded]
        if reasons:
            raise SubmissionError(reasons)
        return "\n".join(o.text().split(": ", 1)[1] for o in orders)

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        inputs = {self._seat_power(seat): text for seat, text in submissions.items()}
        phase = self.core.position.phase
        turn = self.turn()
        if phase is Phase.ORDERS:
            step = self.core.play_orders(inputs)
            return {"kind": "results", "turn": turn, "season": step.season, **step.result}
        if phase is Phase.RETREATS:
            step = self.core.play_retreats(inputs)
            return {"kind": "retreats_done", "turn": turn, "season": step.season, **step.result}
        if phase is Phase.ADJUSTMENTS:
            step = self.core.play_adjustments(inputs)
            return {"kind": "build_summary", "turn": turn, "season": step.season, **step.result}
        raise StateError("the game is over")

    def correct(self, text: str, reason: str) -> dict[str, Any]:
        """Apply a host's correction (:mod:`companion.cosmic.corrections`); StateError or
        OrderSyntaxError or CosmicError say what is wrong, and nothing changes."""
        correction = Correction.parse(text, reason)
        self.core.correct(correction)
        return {"text": correction.text(), "reason": correction.reason}

    def undo(self) -> dict[str, Any]:
        correction, _ = self.core.undo()
        return {"text": correction.text(), "reason": correction.reason}

    def durations(self) -> dict[Stage, int]:
        return _durations(self.rules)

    def step_count(self) -> int:
        return len(self.core.steps)

    def steps_since(self, count: int) -> list[dict[str, Any]]:
        return [step.to_dict() for step in self.core.steps[count:]]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "seed": self.core.seed,
            "players": len(self.core.powers),
            "edition": self.core.settings.edition,
            "rules": self.rules.to_dict(),
            "step_count": len(self.core.steps),
            "position": self.core.position.to_dict(self.core.cluster),
            "undoable": [
                [c.text(), c.reason, before.to_dict(self.core.cluster)]
                for c, before in self.core.undoable
            ],
        }

    @classmethod
    def restore(
        cls, snapshot: Mapping[str, Any], steps: list[Mapping[str, Any]]
    ) -> CosmicClusterSession:
        """Rebuild by replaying the stored steps from the seed (each checked on its digest).

        Without the steps (a copy to try a host's action on first) the snapshot's position and
        corrections to undo are taken as they are."""
        game = CosmicGame(
            snapshot["seed"], snapshot["players"], CosmicSettings(snapshot.get("edition", "2023"))
        )
        if len(steps) < snapshot["step_count"] and "position" in snapshot:
            game.position = Position.from_dict(snapshot["position"])
            game.undoable = [
                (Correction.parse(text, reason), Position.from_dict(before))
                for text, reason, before in snapshot.get("undoable", [])
            ]
            return cls(game, Timers.from_dict(snapshot["rules"]))
        for raw in steps[: snapshot["step_count"]]:
            try:
                game.apply(
                    Step(raw["kind"], raw["season"], raw["inputs"], raw["result"], raw["digest"])
                )
            except CompanionError as err:
                raise StateError(f"the stored game does not replay: {err}") from err
        return cls(game, Timers.from_dict(snapshot["rules"]))

    def record_json(self) -> str:
        return record_json(self.core)

    def public(self) -> dict[str, Any]:
        position = self.core.position
        out: dict[str, Any] = {
            "cluster": cluster_dict(self.core),
            "position": position.to_dict(self.core.cluster),
            "centres": {p: position.centres(p) for p in self.core.powers},
            "centre_changes": [c.to_dict() for c in self.core.centre_changes()],
            "rules": self.rules.to_dict(),
        }
        if position.phase is Phase.OVER:
            ranking = sorted(self.core.powers, key=lambda p: -position.centres(p))
            out["result"] = {"winners": list(position.winners), "ranking": ranking}
        return out

    def private(self, seat: int) -> dict[str, Any]:
        """What the seat's phone needs: its units and, per unit, order kinds and targets."""
        power = self._seat_power(seat)
        position = self.core.position
        game_map = self.core.map
        units = list(position.units)
        out: dict[str, Any] = {"power": power, "home": self.core.cluster.home_of(power).name}
        if position.phase is Phase.ORDERS:
            out["units"] = order_options(game_map, units, power)
        elif position.phase is Phase.RETREATS:
            turn = retreat_turn(position)
            out["retreats"] = [
                {
                    "unit": x.unit.text(),
                    "region": x.unit.region,
                    "options": list(af_retreat_options(game_map, turn, x)),
                }
                for x in position.lifted
                if x.unit.power == power
            ]
        elif position.phase is Phase.ADJUSTMENTS:
            due = self.core.adjustments_due()[power]
            home = self.core.cluster.home_of(power)
            occupied = {u.region for u in units}
            out["adjustments"] = {
                "due": due,
                "build_in": [
                    c
                    for c in home.centres
                    if position.owner_map.get(c) == power and c not in occupied
                ]
                if due > 0
                else [],
                "units": [u.text() for u in units if u.power == power],
                "disbands": disband_choices(game_map, units, power) if due < 0 else [],
            }
        return out


def disband_choices(game_map: Map, units: Sequence[Unit], power: Power) -> list[dict[str, Any]]:
    """What ``power`` may disband in Winter (ruling C5.3), for the phone's form: each with
    ``unit`` as ordered (``A x`` / ``F x``), a ``note`` on an army aboard or a fleet carrying
    one, and its ``weight`` in disbands (2 for a fleet carrying the power's own army, which
    goes with it; another power's army going with a fleet is that power's loss)."""
    choices = []
    for unit in winter_units(units, power):
        written = f"{unit.unit_type.value} {unit.region}"
        note, weight = "", 1
        if is_aboard(game_map, unit):
            fleet = carrier(units, power, unit.region)
            assert fleet is not None  # winter_units found the army aboard it
            whose = "your" if fleet.power == power else f"{fleet.power}'s"
            note = f"your army aboard {whose} fleet; the fleet stays"
        elif unit.cargo == power:
            note, weight = "with your army aboard: 2 units", 2
        elif unit.cargo is not None:
            note = f"{unit.cargo}'s army aboard goes with it"
        choices.append({"unit": written, "note": note, "weight": weight})
    return choices


def _is_sea(game_map: Map, region: RegionId) -> bool:
    return game_map.regions[region].terrain is Terrain.SEA


def order_options(game_map: Map, units: Sequence[Unit], power: Power) -> list[dict[str, Any]]:
    """Per unit ``power`` may order (its own, and an A/F that carries its army or that its
    fleet carries), what it may be ordered to do, for the phone's order builder.

    ``role`` is ``own`` (a unit of the power, or an A/F of its fleet and its army), ``fleet``
    (the power's fleet carrying another power's army: the fleet's orders, and the army's with the
    army's owner named) or ``army`` (the power's army aboard another power's fleet: only the
    army's own orders, which come first (module section G): land, disembark, move to one of its
    own fleets). ``owners`` names the power of every unit of another power an option names, so
    the builder writes it in front (``TS1 A sol-1 B P2 F sol-o``): boarding or ferrying with a
    foreign unit needs both powers to order it (section G): ``take_aboard`` lists the foreign
    armies this power's empty fleet may take aboard (its half of a boarding or an embarkation)
    and ``ferried_by`` the foreign fleets that may Fast Ferry this power's army, with where to
    (the army's half of the ferry)."""
    entries = []
    empty_fleets = [u for u in units if u.unit_type is UnitType.FLEET and u.cargo is None]
    armies = [u for u in units if u.unit_type is UnitType.ARMY]
    for unit in units:
        if power not in (unit.power, unit.cargo):
            continue
        owners: dict[RegionId, Power] = {}
        entry: dict[str, Any] = {
            "unit": unit.text(),
            "type": "A/F" if unit.cargo else unit.unit_type.value,
            "region": unit.region,
            "power": unit.power,
        }
        if unit.power != power:  # our army aboard another power's fleet
            assert unit.cargo == power
            owners[unit.region] = unit.power
            shore = sorted(r for r in game_map.fleet_moves[unit.region] if not _is_sea(game_map, r))
            entry.update(
                role="army",
                army_owner=power,
                kinds=[],
                moves=[],
                support_holds=[],
                support_moves=[],
                land=shore,
                disembark_to_fleet=sorted(
                    f.region
                    for f in empty_fleets
                    if f.power == power and f.region in game_map.fleet_moves[unit.region]
                ),
                time_scales={"land": 1, "disembark": 3, "disembark_to_fleet": 3},
                owners=owners,
            )
            entries.append(entry)
            continue
        options = unit_options(game_map, units, unit)
        entry.update(
            role="own" if unit.cargo in (None, power) else "fleet",
            kinds=[k.name.lower() for k in options.kinds if k is not OrderKind.CONVOY],
            moves=[m for m in options.moves if unit.cargo is None or _is_sea(game_map, m)],
            support_holds=list(options.support_holds),
            support_moves=[list(p) for p in options.support_moves],
        )
        if unit.unit_type is UnitType.ARMY:
            board = [f for f in empty_fleets if f.region in game_map.fleet_moves[unit.region]]
            entry["board"] = sorted(f.region for f in board)
            owners.update({f.region: f.power for f in board if f.power != power})
            entry["ferried_by"] = {
                f.region: sorted(
                    r
                    for r in game_map.fleet_moves[f.region]
                    if not _is_sea(game_map, r) and r != unit.region
                )
                for f in board
                if f.power != power
            }
            entry["time_scales"] = {"board": 1, "move": 2, "ferried_by": 2, "embark": 3}
        elif unit.cargo is not None:
            entry["army_owner"] = unit.cargo
            entry["land"] = sorted(
                r for r in game_map.fleet_moves[unit.region] if not _is_sea(game_map, r)
            )
            # Landing on an occupied space needs the fleet's support, which dislodges the
            # occupant (module section C.1); never one of the army's own power.
            entry["support_landing"] = sorted(
                r
                for r in entry["land"]
                if any(u.region == r and u.power != unit.cargo for u in units)
            )
            entry["time_scales"] = {
                "land": 1,
                "support_landing": 1,
                "move": 2,
                "disembark": 3,
                "ts3_move": 3,
            }
        else:
            shore = [r for r in game_map.fleet_moves[unit.region] if not _is_sea(game_map, r)]
            entry["fast_ferry"] = sorted(shore)
            aboard = [a for a in armies if a.power != power and a.region in shore]
            entry["take_aboard"] = sorted(a.region for a in aboard)
            owners.update({a.region: a.power for a in aboard})
            entry["time_scales"] = {
                "take_aboard": 1,
                "move": 2,
                "fast_ferry": 2,
                "take_aboard_embark": 3,
                "ts3_move": 3,
            }
        entry["owners"] = owners
        entries.append(entry)
    return entries
