"""Host corrections: when the physical board and the tracked position disagree, the host fixes
the tracked one. Each correction is a value with a text form, a reason, and an ``apply``.

Grammar (case-insensitive, one correction a line)::

    PLACE red battleship S4        a unit (a carrier comes with 3 docked craft)
    PLACE red craft S5 S4          a strike craft in S5 belonging to the carrier in S4
    REMOVE S4                      the unit in S4
    REMOVE red craft S5            one red strike craft in S5
    MOVE S4 S7                     the unit in S4 to S7 (any distance; it is a correction)
    CLAIM S4 red   /  CLAIM S4 none
    MINERALS S4 3
"""

from __future__ import annotations

import dataclasses
import enum

from companion.errors import CompanionError, OrderSyntaxError, StateError
from companion.local_cluster.atoms import CARRIER_CAPACITY, Colour, SectorId, UnitType
from companion.local_cluster.state import Craft, Phase, State, Unit


class CorrectionKind(enum.Enum):
    PLACE = "PLACE"
    REMOVE = "REMOVE"
    MOVE = "MOVE"
    CLAIM = "CLAIM"
    MINERALS = "MINERALS"


_FORMS = {
    CorrectionKind.PLACE: "PLACE colour type sector (or PLACE colour craft sector carrier-sector)",
    CorrectionKind.REMOVE: "REMOVE sector (or REMOVE colour craft sector)",
    CorrectionKind.MOVE: "MOVE from-sector to-sector",
    CorrectionKind.CLAIM: "CLAIM sector colour (or CLAIM sector none)",
    CorrectionKind.MINERALS: "MINERALS sector value",
}


@dataclasses.dataclass(frozen=True)
class Correction:
    """One correction of the tracked position, with the host's reason."""

    kind: CorrectionKind
    words: tuple[str, ...]
    """The words after the keyword, as written."""
    reason: str = ""

    @classmethod
    def parse(cls, text: str, reason: str = "") -> Correction:
        tokens = text.split()
        if not tokens:
            raise OrderSyntaxError(
                "a correction: " + ", ".join(k.value for k in CorrectionKind), found="an empty line"
            )
        try:
            kind = CorrectionKind(tokens[0].upper())
        except ValueError:
            raise OrderSyntaxError(
                "a correction: " + ", ".join(k.value for k in CorrectionKind),
                found=repr(tokens[0]),
            ) from None
        words = tuple(tokens[1:])
        counts = {
            CorrectionKind.PLACE: (3, 4),
            CorrectionKind.REMOVE: (1, 3),
            CorrectionKind.MOVE: (2,),
            CorrectionKind.CLAIM: (2,),
            CorrectionKind.MINERALS: (2,),
        }[kind]
        if len(words) not in counts:
            raise OrderSyntaxError(_FORMS[kind], found=f"{len(words) + 1} words")
        if len(reason) > 500:
            raise StateError("the reason for a correction is at most 500 characters")
        return cls(kind, words, reason.strip())

    def text(self) -> str:
        return " ".join((self.kind.value, *self.words))

    def apply(self, state: State) -> State:
        """The corrected position (checked), or StateError saying why it cannot be made."""
        if state.phase not in (Phase.ORDERS, Phase.BUILD):
            raise StateError(
                "corrections are made between turns (while orders or builds are awaited), not "
                f"while the game waits for {state.phase.value}"
            )
        try:
            return _APPLY[self.kind](self, state)
        except (KeyError, ValueError) as err:
            if isinstance(err, CompanionError):
                raise
            raise StateError(f"cannot {self.text()}: {err}") from None


def _sector(state: State, text: str) -> SectorId:
    sector = state.galaxy.resolve(text)
    if sector is None:
        raise StateError(f"there is no sector {text} in this galaxy")
    return sector


def _place(c: Correction, state: State) -> State:
    colour = Colour.parse(c.words[0])
    state.empire(colour)
    if c.words[1].lower() == "craft":
        if len(c.words) != 4:
            raise StateError("PLACE colour craft sector carrier-sector: name the carrier's sector")
        sector, carrier_sector = _sector(state, c.words[2]), _sector(state, c.words[3])
        carrier = state.unit_at.get(carrier_sector)
        if carrier is None or carrier.kind is not UnitType.CARRIER or carrier.owner is not colour:
            raise StateError(f"there is no {colour.title} carrier in {carrier_sector}")
        if state.craft_owned(carrier.id) >= CARRIER_CAPACITY:
            raise StateError(
                f"the carrier in {carrier_sector} already has {CARRIER_CAPACITY} craft"
            )
        return state.replace(craft=(*state.craft, Craft(carrier.id, colour, sector)))
    if len(c.words) != 3:
        raise StateError("PLACE colour type sector")
    kind = UnitType.parse(c.words[1])
    sector = _sector(state, c.words[2])
    if sector in state.unit_at:
        raise StateError(f"{sector} already holds {state.unit_at[sector].describe()}")
    docked = CARRIER_CAPACITY if kind is UnitType.CARRIER else 0
    unit = Unit(state.next_unit_id, colour, kind, sector, docked)
    return state.replace(units=(*state.units, unit), next_unit_id=state.next_unit_id + 1)


def _remove(c: Correction, state: State) -> State:
    if len(c.words) == 3:
        colour = Colour.parse(c.words[0])
        if c.words[1].lower() != "craft":
            raise StateError("REMOVE colour craft sector")
        sector = _sector(state, c.words[2])
        craft = list(state.craft)
        for index, one in enumerate(craft):
            if one.sector == sector and one.owner is colour:
                del craft[index]
                return state.replace(craft=craft)
        raise StateError(f"there is no {colour.title} strike craft in {sector}")
    if len(c.words) != 1:
        raise StateError("REMOVE sector")
    sector = _sector(state, c.words[0])
    unit = state.unit_at.get(sector)
    if unit is None:
        raise StateError(f"there is no unit in {sector}")
    units = [u for u in state.units if u.id != unit.id]
    craft = [one for one in state.craft if one.carrier != unit.id]
    return state.replace(units=units, craft=craft)


def _move(c: Correction, state: State) -> State:
    origin, target = _sector(state, c.words[0]), _sector(state, c.words[1])
    unit = state.unit_at.get(origin)
    if unit is None:
        raise StateError(f"there is no unit in {origin}")
    if target in state.unit_at:
        raise StateError(f"{target} already holds {state.unit_at[target].describe()}")
    units = [dataclasses.replace(u, sector=target) if u.id == unit.id else u for u in state.units]
    return state.replace(units=units)


def _claim(c: Correction, state: State) -> State:
    sector = _sector(state, c.words[0])
    claims = dict(state.claims)
    if c.words[1].lower() == "none":
        claims.pop(sector, None)
    else:
        colour = Colour.parse(c.words[1])
        state.empire(colour)
        claims[sector] = colour
    return state.replace(claims=claims)


def _minerals(c: Correction, state: State) -> State:
    sector = _sector(state, c.words[0])
    try:
        value = int(c.words[1])
    except ValueError:
        raise StateError(f"a mineral value is a number 1 to 4, not {c.words[1]!r}") from None
    if not 1 <= value <= 4:
        raise StateError(f"a mineral value is 1 to 4, not {value}")
    return state.replace(galaxy=state.galaxy.with_minerals({sector: value}))


_APPLY = {
    CorrectionKind.PLACE: _place,
    CorrectionKind.REMOVE: _remove,
    CorrectionKind.MOVE: _move,
    CorrectionKind.CLAIM: _claim,
    CorrectionKind.MINERALS: _minerals,
}
