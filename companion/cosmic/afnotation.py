"""Orders of the Overby Army/Fleet module, tagged by time scale (ruling C4.1).

``AFOrder.parse("GER: TS1 A bel B FRA F eng")`` reads:

- TS1: board ``A x B F y``; land ``A y L x``; support a landing ``F y S A y L x``
- TS2: an A/F's own order ``A/F y -> z`` (also ``H``, ``S ...``); Fast Ferry
  ``F y F/F A x -> z``; any standard order (``A x -> z``, ``F y S A x``)
- TS3: disembark ``A y D x`` or ``A y D F z``; embark ``A x E F y``; a fleet's or an A/F's move
  into empty sea ``TS3 F y -> z`` / ``TS3 A/F y -> z``

The time scale is optional where the order says it (B, L, S..L are TS1; D and E are TS3;
everything else is TS2 unless tagged TS3). A unit may be marked with its owner when that is
another power: ``German A bel`` / ``GER A bel`` / ``P2 A sol-1``. Syntax errors name the column
and what was expected, as for standard orders.
"""

from __future__ import annotations

import dataclasses
import enum
import re

from companion.cosmic.diplomacy.geography import Power, RegionId, UnitType
from companion.cosmic.diplomacy.orders import TOKEN, Order, OrderKind, normalise_region
from companion.errors import OrderSyntaxError

ADJECTIVES = {
    "english": "ENG",
    "french": "FRA",
    "german": "GER",
    "italian": "ITA",
    "austrian": "AUS",
    "russian": "RUS",
    "turkish": "TUR",
}


class AFKind(enum.Enum):
    BOARD = "B"
    LAND = "L"
    SUPPORT_LANDING = "S L"
    FAST_FERRY = "F/F"
    DISEMBARK = "D"
    DISEMBARK_TO_FLEET = "D F"
    EMBARK = "E"
    STANDARD = "standard"

    __hash__ = object.__hash__


_DEFAULT_SCALE = {
    AFKind.BOARD: 1,
    AFKind.LAND: 1,
    AFKind.SUPPORT_LANDING: 1,
    AFKind.FAST_FERRY: 2,
    AFKind.DISEMBARK: 3,
    AFKind.DISEMBARK_TO_FLEET: 3,
    AFKind.EMBARK: 3,
    AFKind.STANDARD: 2,
}
_ALLOWED_SCALES = {kind: {scale} for kind, scale in _DEFAULT_SCALE.items()}
_ALLOWED_SCALES[AFKind.STANDARD] = {2, 3}


@dataclasses.dataclass(frozen=True)
class AFOrder:
    """One order of an A/F-module turn, as written by ``power``.

    ``army`` is where the army is (its land space, or the sea space of its A/F), ``fleet`` the
    fleet's sea space, ``target`` where the army goes (landing, disembark, ferry). A standard
    order (TS2, or a TS3 move) is kept in ``standard``; an A/F's own order is a fleet order.
    """

    power: Power | None
    time_scale: int
    kind: AFKind
    army: RegionId | None = None
    fleet: RegionId | None = None
    target: RegionId | None = None
    army_owner: Power | None = None
    fleet_owner: Power | None = None
    standard: Order | None = None
    written: str = dataclasses.field(default="", compare=False)

    @classmethod
    def parse(cls, text: str, power: Power | None = None) -> AFOrder:
        """Read one order; ``power`` is the writer when the text has no ``XXX:`` prefix."""
        return _AFParser(text, power).order()

    def text(self) -> str:
        head = f"{self.power}: " if self.power else ""
        scale = f"TS{self.time_scale} "

        def owner(who: Power | None) -> str:
            return f"{who} " if who is not None and who != self.power else ""

        kind = self.kind
        if kind is AFKind.BOARD:
            body = (
                f"{owner(self.army_owner)}A {self.army} B {owner(self.fleet_owner)}F {self.fleet}"
            )
        elif kind is AFKind.LAND:
            body = f"{owner(self.army_owner)}A {self.fleet} L {self.target}"
        elif kind is AFKind.SUPPORT_LANDING:
            body = f"{owner(self.fleet_owner)}F {self.fleet} S A {self.fleet} L {self.target}"
        elif kind is AFKind.FAST_FERRY:
            body = (
                f"{owner(self.fleet_owner)}F {self.fleet} F/F {owner(self.army_owner)}"
                f"A {self.army} -> {self.target}"
            )
        elif kind is AFKind.DISEMBARK:
            body = f"{owner(self.army_owner)}A {self.fleet} D {self.target}"
        elif kind is AFKind.DISEMBARK_TO_FLEET:
            body = f"{owner(self.army_owner)}A {self.fleet} D F {self.target}"
        elif kind is AFKind.EMBARK:
            body = (
                f"{owner(self.army_owner)}A {self.army} E {owner(self.fleet_owner)}F {self.fleet}"
            )
        else:
            assert self.standard is not None
            body = (
                owner(self.standard.power) + dataclasses.replace(self.standard, power=None).text()
            )
            if self.fleet is not None:
                body = body.replace("F ", "A/F ", 1)
        return f"{head}{scale}{body}"

    def __str__(self) -> str:
        return self.text()


class _AFParser:
    def __init__(self, text: str, power: Power | None) -> None:
        self.text = text
        self.power = power
        self.tokens: list[tuple[str, int]] = []
        stripped = text.rstrip()
        position = 0
        while position < len(stripped):
            match = TOKEN.match(stripped, position)
            if match is None or match.end() == position:
                column = len(stripped) - len(stripped[position:].lstrip()) + 1
                raise OrderSyntaxError(
                    "a word, '->' or ':'",
                    found=repr(stripped[column - 1]),
                    column=column,
                    text=text,
                )
            self.tokens.append((match.group(1), match.start(1) + 1))
            position = match.end()
        self.index = 0
        self.best: tuple[int, str] = (0, "an order")

    def _fail(self, expected: str) -> OrderSyntaxError:
        if self.index < len(self.tokens):
            word, column = self.tokens[self.index]
            found = repr(word)
        else:
            column, found = len(self.text.rstrip()) + 1, "the end of the order"
        return OrderSyntaxError(expected, found=found, column=column, text=self.text)

    def order(self) -> AFOrder:
        tokens = self.tokens
        if len(tokens) >= 2 and tokens[1][0] == ":":
            self.power = tokens[0][0].upper()
            self.index = 2
        scale: int | None = None
        if self.index < len(tokens) and tokens[self.index][0].upper() in ("TS1", "TS2", "TS3"):
            scale = int(tokens[self.index][0][2])
            self.index += 1
        start = self.index
        for attempt in (self._board_embark, self._land_disembark, self._support_landing):
            self.index = start
            found = attempt()
            if found is not None:
                return self._scaled(found, scale)
        self.index = start
        return self._scaled(self._standard(scale), scale)

    def _scaled(self, order: AFOrder, scale: int | None) -> AFOrder:
        if scale is None:
            scale = _DEFAULT_SCALE[order.kind]
        if scale not in _ALLOWED_SCALES[order.kind]:
            allowed = " or ".join(f"TS{s}" for s in sorted(_ALLOWED_SCALES[order.kind]))
            raise OrderSyntaxError(
                f"{allowed} for this order", found=f"TS{scale}", column=1, text=self.text
            )
        if order.kind is AFKind.STANDARD and scale == 3:
            standard = order.standard
            assert standard is not None
            if standard.kind is not OrderKind.MOVE or standard.unit_type is not UnitType.FLEET:
                raise OrderSyntaxError(
                    "a move of a fleet or an A/F (the only standard order of TS3)",
                    found=repr(standard.text()),
                    column=1,
                    text=self.text,
                )
        return dataclasses.replace(order, time_scale=scale, power=self.power, written=self.text)

    # -- token helpers -------------------------------------------------------------------------

    def _peek(self) -> str | None:
        return self.tokens[self.index][0] if self.index < len(self.tokens) else None

    def _owner(self) -> Power | None:
        word = self._peek()
        if word is None or word.upper() in ("A", "F", "A/F"):
            return None
        if self.index + 1 < len(self.tokens) and self.tokens[self.index + 1][0].upper() in (
            "A",
            "F",
            "A/F",
        ):
            self.index += 1
            return ADJECTIVES.get(word.lower(), word.upper())
        return None

    def _word(self, *choices: str) -> bool:
        word = self._peek()
        if word is not None and word.upper() in choices:
            self.index += 1
            return True
        return False

    def _place(self) -> RegionId | None:
        word = self._peek()
        if word is None or not word[0].isalpha() or word in ("->", "-", ":"):
            return None
        self.index += 1
        return normalise_region(word)

    def _done(self) -> bool:
        return self.index == len(self.tokens)

    # -- the forms -------------------------------------------------------------------------

    def _board_embark(self) -> AFOrder | None:
        army_owner = self._owner()
        if not self._word("A"):
            return None
        army = self._place()
        if army is None or not self._word("B", "E"):
            return None
        kind = AFKind.BOARD if self.tokens[self.index - 1][0].upper() == "B" else AFKind.EMBARK
        fleet_owner = self._owner()
        if not self._word("F"):
            raise self._fail("'F' and the fleet's space")
        fleet = self._place()
        if fleet is None:
            raise self._fail("the fleet's space")
        if not self._done():
            raise self._fail("the end of the order")
        return AFOrder(
            None, 0, kind, army=army, fleet=fleet, army_owner=army_owner, fleet_owner=fleet_owner
        )

    def _land_disembark(self) -> AFOrder | None:
        army_owner = self._owner()
        if not self._word("A"):
            return None
        fleet = self._place()
        if fleet is None or not self._word("L", "D"):
            return None
        landing = self.tokens[self.index - 1][0].upper() == "L"
        if not landing and self._word("F"):
            target = self._place()
            if target is None:
                raise self._fail("the other fleet's space")
            kind = AFKind.DISEMBARK_TO_FLEET
        else:
            target = self._place()
            if target is None:
                raise self._fail("the space to land on")
            kind = AFKind.LAND if landing else AFKind.DISEMBARK
        if not self._done():
            raise self._fail("the end of the order")
        return AFOrder(None, 0, kind, army=fleet, fleet=fleet, target=target, army_owner=army_owner)

    def _support_landing(self) -> AFOrder | None:
        fleet_owner = self._owner()
        if not self._word("F"):
            return None
        fleet = self._place()
        if fleet is None:
            return None
        if self._word("F/F"):
            army_owner = self._owner()
            if not self._word("A"):
                raise self._fail("'A' and the ferried army's space")
            army = self._place()
            if army is None:
                raise self._fail("the ferried army's space")
            if not self._word("->", "-"):
                raise self._fail("'->'")
            target = self._place()
            if target is None:
                raise self._fail("where the army is ferried to")
            if not self._done():
                raise self._fail("the end of the order")
            return AFOrder(
                None,
                0,
                AFKind.FAST_FERRY,
                army=army,
                fleet=fleet,
                target=target,
                army_owner=army_owner,
                fleet_owner=fleet_owner,
            )
        if not self._word("S"):
            return None
        if not self._word("A"):
            return None
        army = self._place()
        if army is None or not self._word("L"):
            return None
        target = self._place()
        if target is None:
            raise self._fail("the space of the landing")
        if not self._done():
            raise self._fail("the end of the order")
        if army != fleet:
            raise OrderSyntaxError(
                f"the army aboard this fleet ({fleet})",
                found=repr(army),
                column=self.tokens[self.index - 3][1],
                text=self.text,
            )
        return AFOrder(
            None,
            0,
            AFKind.SUPPORT_LANDING,
            army=fleet,
            fleet=fleet,
            target=target,
            fleet_owner=fleet_owner,
        )

    def _standard(self, scale: int | None) -> AFOrder:
        owner = self._owner()
        rest = self.tokens[self.index :]
        if not rest:
            raise self._fail("an order")
        first_column = rest[0][1]
        body = self.text[first_column - 1 :]
        af = rest[0][0].upper() == "A/F"
        if af:
            body = "F" + body[3:]
        try:
            order = Order.parse(body)
        except OrderSyntaxError as error:
            raise OrderSyntaxError(
                error.expected,
                found=error.found,
                column=error.column + first_column - 1,
                text=self.text,
            ) from None
        if order.power is not None:
            raise OrderSyntaxError(
                "the power before the time scale", found=repr(order.power), column=1, text=self.text
            )
        order = dataclasses.replace(order, power=owner)
        return AFOrder(None, 0, AFKind.STANDARD, fleet=order.region if af else None, standard=order)


_AF_UNIT = re.compile(r"(\s*(?:[A-Za-z0-9]+\s*:\s*)?)A/F(?=\s)", re.IGNORECASE)
"""``A/F`` as the unit of an order, after an optional ``P2:``."""


def parse_plain_af(text: str) -> tuple[Order, bool]:
    """A retreat order in the standard notation (:meth:`Order.parse`) whose unit may also be
    written ``A/F``, as in the A/F's movement orders: ``A/F castor-o -> castor-b``,
    ``A/F castor-o disband``. Returns the order, an A/F given as its fleet (``F castor-o ...``),
    and whether it was written as an A/F (the caller checks that the fleet carries an army).
    Syntax errors name the column in the text as written."""
    match = _AF_UNIT.match(text)
    if match is None:
        return Order.parse(text), False
    start = match.end(1)
    # "A/F" becomes "  F": the same width, so every column stays where it was written.
    try:
        order = Order.parse(text[:start] + "  F" + text[start + 3 :])
    except OrderSyntaxError as error:
        raise OrderSyntaxError(
            error.expected, found=error.found, column=error.column, text=text
        ) from None
    return order, True
