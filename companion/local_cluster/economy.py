"""The build phase (rulebook 4.5, ruling R6): income statements, build plans and their effect.

``income_statement(state, colour)`` shows every figure behind an empire's income (R6.7);
``BuildPlan.parse(text)`` reads a plan in the grammar of R6.6; ``check_plan`` says what is
wrong with a plan in a player's words; ``apply_builds`` carries out every empire's plan.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.errors import OrderSyntaxError, StateError
from companion.local_cluster.atoms import (
    CARRIER_CAPACITY,
    REPLENISH_COST,
    Colour,
    SectorId,
    UnitType,
)
from companion.local_cluster.errors import BuildPlanError
from companion.local_cluster.state import Phase, State, Unit


@dataclasses.dataclass(frozen=True)
class IncomeLine:
    """One figure of an income statement: ``S4 claimed, 3 minerals`` or ``destroyer in S2, -1``."""

    what: str
    sector: SectorId
    amount: int


@dataclasses.dataclass(frozen=True)
class IncomeStatement:
    """An empire's income for one build phase, figure by figure (R6.1, R6.2, R6.7)."""

    colour: Colour
    sectors: tuple[IncomeLine, ...]
    upkeep: tuple[IncomeLine, ...]
    doubled: bool
    """It stockpiled at its previous build phase, so the raw income doubles (R6.1)."""

    @property
    def base(self) -> int:
        return sum(line.amount for line in self.sectors)

    @property
    def base_words(self) -> str:
        """What :attr:`base` is: a mineral total, not a count of sectors (R6.1)."""
        count = len(self.sectors)
        return f"minerals of {count} claimed sector{'s' * (count != 1)}"

    @property
    def raw(self) -> int:
        return self.base * 2 if self.doubled else self.base

    @property
    def stockpile_bonus(self) -> int:
        return self.raw - self.base

    @property
    def upkeep_total(self) -> int:
        return -sum(line.amount for line in self.upkeep)

    @property
    def net(self) -> int:
        return self.raw - self.upkeep_total

    @property
    def can_build(self) -> bool:
        """Net <= 0 means no builds, no stockpiling and no penalty (R6.2)."""
        return self.net > 0

    def lines(self) -> list[str]:
        """The statement as text, one figure a line."""
        out = [f"{self.colour.title} income statement"]
        for line in self.sectors:
            out.append(f"  {line.what:<34}{line.amount:>+4}")
        out.append(f"  {self.base_words:<34}{self.base:>4}")
        if self.doubled:
            out.append(f"  {'stockpile doubling (R6.1)':<34}{self.stockpile_bonus:>+4}")
        out.append(f"  {'raw income':<34}{self.raw:>4}")
        for line in self.upkeep:
            out.append(f"  {line.what:<34}{line.amount:>+4}")
        out.append(f"  {'net income':<34}{self.net:>4}")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "colour": self.colour.value,
            "sectors": [[li.sector, li.amount] for li in self.sectors],
            "upkeep": [[li.what, li.amount] for li in self.upkeep],
            "doubled": self.doubled,
            "base": self.base,
            "base_words": self.base_words,
            "raw": self.raw,
            "net": self.net,
        }


def income_statement(state: State, colour: Colour) -> IncomeStatement:
    """Every claimed sector with its minerals, every unit's upkeep, the stockpile doubling."""
    empire = state.empire(colour)
    sectors = tuple(
        IncomeLine(f"{sector} claimed", sector, state.galaxy.minerals(sector))
        for sector in state.sectors_of(colour)
    )
    upkeep = tuple(
        IncomeLine(f"{unit.kind.value} in {unit.sector} upkeep", unit.sector, -unit.kind.upkeep)
        for unit in state.units_of(colour)
    )
    return IncomeStatement(colour, sectors, upkeep, empire.stockpiled)


@dataclasses.dataclass(frozen=True)
class Build:
    kind: UnitType
    sector: SectorId

    def text(self) -> str:
        return f"BUILD {self.kind.value} {self.sector}"


@dataclasses.dataclass(frozen=True)
class BuildPlan:
    """An empire's choices for a build phase (R6.6): builds and replenishments, or stockpile.

    The empty plan builds nothing; it is what a seat that misses the deadline gets (R8.2).
    """

    builds: tuple[Build, ...] = ()
    replenish: tuple[SectorId, ...] = ()
    stockpile: bool = False

    _LINE = re.compile(r"\S+")

    @classmethod
    def parse(cls, text: str) -> BuildPlan:
        """Read ``BUILD destroyer S4`` / ``REPLENISH S7`` / ``STOCKPILE`` lines (R6.6)."""
        builds: list[Build] = []
        replenish: list[SectorId] = []
        stockpile = False
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0]
            tokens = [(m.group(), m.start() + 1) for m in cls._LINE.finditer(line)]
            if not tokens:
                continue
            word = tokens[0][0].upper()
            end = len(line.rstrip()) + 1

            def fail(
                expected: str,
                index: int,
                line: str = line,
                number: int = number,
                tokens: list[tuple[str, int]] = tokens,
                end: int = end,
            ) -> OrderSyntaxError:
                if index < len(tokens):
                    found, column = repr(tokens[index][0]), tokens[index][1]
                else:
                    found, column = "the end of the line", end
                return OrderSyntaxError(
                    expected, found=found, line=number, column=column, text=line.strip()
                )

            if word == "STOCKPILE":
                if len(tokens) > 1:
                    raise fail("the end of the line (STOCKPILE stands alone)", 1)
                stockpile = True
            elif word == "REPLENISH":
                if len(tokens) != 2:
                    raise fail(
                        "the carrier's sector, then the end of the line", min(len(tokens), 2)
                    )
                replenish.append(tokens[1][0])
            elif word == "BUILD":
                if len(tokens) < 2:
                    raise fail("a unit type: destroyer, battleship or carrier", 1)
                try:
                    kind = UnitType.parse(tokens[1][0])
                except ValueError:
                    raise fail("a unit type: destroyer, battleship or carrier", 1) from None
                if len(tokens) != 3:
                    raise fail(
                        "the sector to build in, then the end of the line", min(len(tokens), 3)
                    )
                builds.append(Build(kind, tokens[2][0]))
            else:
                raise fail("BUILD, REPLENISH or STOCKPILE", 0)
        return cls(tuple(builds), tuple(replenish), stockpile)

    def text(self) -> str:
        if self.stockpile and not self.builds and not self.replenish:
            return "STOCKPILE"
        lines = [f"REPLENISH {s}" for s in self.replenish] + [b.text() for b in self.builds]
        if self.stockpile:
            lines.append("STOCKPILE")
        return "\n".join(lines)

    def cost(self) -> int:
        return sum(b.kind.cost for b in self.builds) + REPLENISH_COST * len(self.replenish)


def check_plan(state: State, colour: Colour, plan: BuildPlan) -> list[str]:
    """Every reason ``plan`` cannot be carried out for ``colour`` (empty when it can)."""
    statement = income_statement(state, colour)
    reasons: list[str] = []
    if plan.stockpile:
        if plan.builds or plan.replenish:
            reasons.append("STOCKPILE means building nothing; it cannot be combined (R6.6)")
        if not statement.can_build:
            reasons.append(
                f"your net income is {statement.net}; you can stockpile only with a positive "
                "net income (R6.3)"
            )
        return reasons
    if (plan.builds or plan.replenish) and not statement.can_build:
        reasons.append(f"your net income is {statement.net}, so you can build nothing (R6.2)")
        return reasons
    galaxy = state.galaxy
    claimed = set(state.sectors_of(colour))
    seen: Counter[SectorId] = Counter()
    for build in plan.builds:
        sector = galaxy.resolve(build.sector)
        if sector is None:
            reasons.append(f"there is no sector {build.sector} in this galaxy")
            continue
        seen[sector] += 1
        if sector not in claimed:
            reasons.append(
                f"you can build only in your own claimed sectors, and {sector} is not one"
            )
        elif sector in state.unit_at:
            reasons.append(f"{sector} already holds a unit; build in a sector without one (R6.5)")
        elif seen[sector] == 2:
            reasons.append(f"only one unit can be built in {sector} (R6.5)")
    carriers_seen: set[SectorId] = set()
    for text in plan.replenish:
        sector = galaxy.resolve(text)
        unit = state.unit_at.get(sector) if sector is not None else None
        if sector is None:
            reasons.append(f"there is no sector {text} in this galaxy")
        elif unit is None or unit.owner is not colour or unit.kind is not UnitType.CARRIER:
            reasons.append(f"you have no carrier in {sector} to replenish")
        elif sector in carriers_seen:
            reasons.append(f"the carrier in {sector} is replenished once; once fills it (R6.4)")
        elif state.craft_owned(unit.id) >= CARRIER_CAPACITY:
            reasons.append(f"the carrier in {sector} already has all {CARRIER_CAPACITY} craft")
        if sector is not None:
            carriers_seen.add(sector)
    if plan.cost() > max(statement.net, 0):
        reasons.append(
            f"the plan costs {plan.cost()} minerals but your net income is {statement.net} (R6.5)"
        )
    return reasons


def canonical_plan(state: State, plan: BuildPlan) -> BuildPlan:
    """The same plan with the galaxy's own sector ids (a checked plan names only real ones)."""

    def sector(text: str) -> SectorId:
        return state.galaxy.resolve(text) or text

    return BuildPlan(
        tuple(Build(b.kind, sector(b.sector)) for b in plan.builds),
        tuple(sector(s) for s in plan.replenish),
        plan.stockpile,
    )


def apply_builds(state: State, plans: Mapping[Colour, BuildPlan]) -> tuple[State, tuple[str, ...]]:
    """Carry out every empire's plan (missing: builds nothing, R8.2) and start the next turn.

    Raises BuildPlanError, naming the empire, if any plan breaks a rule.
    """
    if state.phase is not Phase.BUILD:
        raise StateError(
            f"there is no build phase now: the game is waiting for {state.phase.value}"
        )
    for colour, plan in plans.items():
        if state.empire(colour).eliminated:
            raise StateError(f"{colour.title} has been eliminated and builds nothing")
        reasons = check_plan(state, colour, plan)
        if reasons:
            raise BuildPlanError([f"{colour.title}: {r}" for r in reasons])
    units = list(state.units)
    next_id = state.next_unit_id
    notes: list[str] = []
    empires = []
    for empire in state.empires:
        plan = plans.get(empire.colour, BuildPlan())
        colour = empire.colour
        for text in plan.replenish:
            sector = state.galaxy.resolve(text)
            assert sector is not None
            carrier = state.unit_at[sector]
            added = CARRIER_CAPACITY - state.craft_owned(carrier.id)
            units[units.index(carrier)] = dataclasses.replace(
                carrier, docked=carrier.docked + added
            )
            notes.append(f"{colour.title} replenished the carrier in {sector} with {added} craft")
        for build in plan.builds:
            sector = state.galaxy.resolve(build.sector)
            assert sector is not None
            docked = CARRIER_CAPACITY if build.kind is UnitType.CARRIER else 0
            units.append(Unit(next_id, colour, build.kind, sector, docked))
            next_id += 1
            notes.append(f"{colour.title} built a {build.kind.value} in {sector}")
        if plan.stockpile:
            notes.append(f"{colour.title} stockpiled: its next raw income doubles (R6.3)")
        empires.append(dataclasses.replace(empire, stockpiled=plan.stockpile))
    new_state = state.replace(
        units=units,
        empires=empires,
        next_unit_id=next_id,
        phase=Phase.ORDERS,
        turn=state.turn + 1,
        check=False,
    )
    return new_state, tuple(notes)
