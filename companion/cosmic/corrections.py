"""Host corrections for Cosmic Cluster: when the physical cluster and the tracked position
disagree, the host fixes the tracked one (as :mod:`companion.local_cluster.corrections`
does for Local Cluster).

Grammar (case-insensitive, one correction a line; powers ``P1``..``P9``, spaces as on the
cluster, such as ``vega-3``, ``vega-o``, ``vega-b``)::

    PLACE P1 A vega-3              an army (on a planet's surface)
    PLACE P1 F vega-o              a fleet (in orbit, in a box, or on a surface space)
    PLACE P1 A/F vega-o            an A/F: P1's fleet with P1's army aboard (orbit or box)
    PLACE P1 A/F vega-o P2         an international A/F: P1's fleet carrying P2's army
    REMOVE vega-3                  the unit in vega-3 (an A/F goes with its army)
    REMOVE P2 A/F vega-b           one of several units in a box: name its power and type
    MOVE vega-3 vega-4             the unit in vega-3 to vega-4 (any distance: a correction)
    MOVE P1 F vega-b sol-b         one of several units in a box
    CLAIM vega-3 P2  /  CLAIM vega-3 none     set a supply centre's owner

Corrections are made between seasons' steps: while orders or Winter adjustments are awaited.
"""

from __future__ import annotations

import dataclasses
import enum

from companion.cosmic.cluster import Cluster
from companion.cosmic.diplomacy.geography import Power, ProvinceId, RegionId, Terrain, UnitType
from companion.cosmic.diplomacy.rules import Unit
from companion.errors import OrderSyntaxError, StateError

MAX_REASON = 500


class CorrectionKind(enum.Enum):
    PLACE = "PLACE"
    REMOVE = "REMOVE"
    MOVE = "MOVE"
    CLAIM = "CLAIM"

    __hash__ = object.__hash__


FORMS = {
    CorrectionKind.PLACE: "PLACE power type space (type A, F or A/F; "
    "PLACE P1 A/F space P2 for P2's army aboard)",
    CorrectionKind.REMOVE: "REMOVE space (or REMOVE power type space)",
    CorrectionKind.MOVE: "MOVE from-space to-space (or MOVE power type from-space to-space)",
    CorrectionKind.CLAIM: "CLAIM centre power (or CLAIM centre none)",
}
"""Each correction's form, for error messages and the host page's hints."""

_WORDS = {
    CorrectionKind.PLACE: (3, 4),
    CorrectionKind.REMOVE: (1, 3),
    CorrectionKind.MOVE: (2, 4),
    CorrectionKind.CLAIM: (2,),
}

_TYPES = ("A", "F", "A/F")


@dataclasses.dataclass(frozen=True)
class Correction:
    """One correction of the tracked position, with the host's reason.

    ``Correction.parse("place p1 a vega-3", "fell off").text() == "PLACE P1 A vega-3"``."""

    kind: CorrectionKind
    words: tuple[str, ...]
    """The words after the keyword, in canonical case (powers and types upper, spaces lower)."""
    reason: str = ""

    @classmethod
    def parse(cls, text: str, reason: str = "") -> Correction:
        """The correction the text names, or OrderSyntaxError saying which form it should have."""
        tokens = text.split()
        expected = "a correction: " + ", ".join(k.value for k in CorrectionKind)
        if not tokens:
            raise OrderSyntaxError(expected, found="an empty line")
        try:
            kind = CorrectionKind(tokens[0].upper())
        except ValueError:
            raise OrderSyntaxError(expected, found=repr(tokens[0])) from None
        words = tokens[1:]
        if len(words) not in _WORDS[kind]:
            raise OrderSyntaxError(FORMS[kind], found=f"{len(words) + 1} words")
        if len(reason) > MAX_REASON:
            raise StateError(f"the reason for a correction is at most {MAX_REASON} characters")
        return cls(kind, _canonical_words(kind, words), reason.strip())

    def text(self) -> str:
        return " ".join((self.kind.value, *self.words))

    def __repr__(self) -> str:
        return f"Correction.parse({self.text()!r}, {self.reason!r})"


def _canonical_words(kind: CorrectionKind, words: list[str]) -> tuple[str, ...]:
    """Powers, types and ``none`` upper or lower case as the text form writes them."""
    out = [w.lower() for w in words]
    if kind is CorrectionKind.PLACE:
        out[0], out[1] = words[0].upper(), words[1].upper()
        if len(words) == 4:
            out[3] = words[3].upper()
    elif kind in (CorrectionKind.REMOVE, CorrectionKind.MOVE) and len(words) > 2:
        out[0], out[1] = words[0].upper(), words[1].upper()
    elif kind is CorrectionKind.CLAIM and words[1].lower() != "none":
        out[1] = words[1].upper()
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class Corrected:
    """What a correction does to a position: the units and owners after it."""

    units: tuple[Unit, ...]
    owners: tuple[tuple[ProvinceId, Power], ...]


def apply_correction(
    correction: Correction,
    cluster: Cluster,
    powers: tuple[Power, ...],
    units: tuple[Unit, ...],
    owners: tuple[tuple[ProvinceId, Power], ...],
) -> Corrected:
    """The units and owners after the correction, or StateError saying why it cannot be made."""
    board = _Board(cluster, powers, list(units), dict(owners))
    words = correction.words
    if correction.kind is CorrectionKind.PLACE:
        board.place(words)
    elif correction.kind is CorrectionKind.REMOVE:
        board.units.remove(board.find(words))
    elif correction.kind is CorrectionKind.MOVE:
        unit = board.find(words[:-1])
        target = board.space(words[-1])
        board.units.remove(unit)
        board.check_room(target, unit.unit_type, unit.cargo is not None)
        board.units.append(dataclasses.replace(unit, region=target))
    else:
        board.claim(words)
    units_after = tuple(
        sorted(board.units, key=lambda u: (u.power, u.region, u.unit_type.value, u.cargo or ""))
    )
    return Corrected(units_after, tuple(sorted(board.owners.items())))


@dataclasses.dataclass
class _Board:
    cluster: Cluster
    powers: tuple[Power, ...]
    units: list[Unit]
    owners: dict[ProvinceId, Power]

    def space(self, word: str) -> RegionId:
        game_map = self.cluster.map
        region = game_map.canonical(word.lower())
        if region not in game_map.regions:
            raise StateError(f"there is no space {word} in this cluster")
        return region

    def power(self, word: str) -> Power:
        power = word.upper()
        if power not in self.powers:
            raise StateError(f"there is no power {word} in this game ({', '.join(self.powers)})")
        return power

    def unit_type(self, word: str) -> str:
        if word.upper() not in _TYPES:
            raise StateError(f"a unit is A (army), F (fleet) or A/F, not {word!r}")
        return word.upper()

    def check_room(self, region: RegionId, unit_type: UnitType, af: bool) -> None:
        game_map = self.cluster.map
        terrain = game_map.regions[region].terrain
        if af and terrain is not Terrain.SEA:
            raise StateError(f"an A/F is in orbit or in a box, not on {region}")
        if not terrain.holds(unit_type):
            where = "a planet's surface" if unit_type is UnitType.ARMY else "orbit or a box"
            raise StateError(f"{region} cannot hold {_a(unit_type)}; it goes on {where}")
        province = game_map.regions[region].province
        if province in game_map.boxes:
            return  # a box holds any number of units (C3.4)
        here = next((u for u in self.units if u.region == region), None)
        if here is not None:
            raise StateError(f"{region} already holds {here.text()}")

    def place(self, words: tuple[str, ...]) -> None:
        power = self.power(words[0])
        kind = self.unit_type(words[1])
        region = self.space(words[2])
        if len(words) == 4 and kind != "A/F":
            raise StateError("only an A/F carries another power's army: PLACE P1 A/F space P2")
        cargo = None
        if kind == "A/F":
            cargo = self.power(words[3]) if len(words) == 4 else power
        unit_type = UnitType.ARMY if kind == "A" else UnitType.FLEET
        self.check_room(region, unit_type, cargo is not None)
        self.units.append(Unit(power, unit_type, region, cargo))

    def find(self, words: tuple[str, ...]) -> Unit:
        """The unit ``space`` or ``power type space`` names."""
        region = self.space(words[-1])
        here = [u for u in self.units if u.region == region]
        if len(words) == 3:
            power = self.power(words[0])
            kind = self.unit_type(words[1])
            here = [u for u in here if u.power == power and _type_word(u) == kind]
            if not here:
                raise StateError(f"there is no {power} {kind} in {region}")
            return here[0]
        if not here:
            raise StateError(f"there is no unit in {region}")
        if len(here) > 1:
            listed = ", ".join(u.text() for u in here)
            raise StateError(
                f"{region} holds {len(here)} units ({listed}); name one: power type {region}"
            )
        return here[0]

    def claim(self, words: tuple[str, ...]) -> None:
        centre = self.space(words[0])
        if not self.cluster.map.provinces[centre].supply_centre:
            raise StateError(f"{centre} is not a supply centre")
        if words[1].lower() == "none":
            self.owners.pop(centre, None)
        else:
            self.owners[centre] = self.power(words[1])


def _type_word(unit: Unit) -> str:
    return "A/F" if unit.cargo is not None else unit.unit_type.value


def _a(unit_type: UnitType) -> str:
    return "an army" if unit_type is UnitType.ARMY else "a fleet"
