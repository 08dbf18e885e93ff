"""Orders as values: parse and format the grammar of ruling R3.1.

``Order.parse("advance s4 s7")`` gives ``Order.parse('ADVANCE s4 s7')``; ``order.text()``
writes it back. Text that breaks the grammar raises :class:`OrderSyntaxError` naming the line,
the column and what was expected. Whether an order is *possible* is a separate question,
answered against a position by :mod:`companion.local_cluster.validation`.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import re
from collections.abc import Iterator

from companion.errors import OrderSyntaxError
from companion.local_cluster.atoms import SectorId


class OrderKind(enum.Enum):
    """The seven orders of rulebook 4.2, with how many sectors follow the first."""

    HOLD = "HOLD"
    MOVE = "MOVE"
    ADVANCE = "ADVANCE"
    SUPPORT = "SUPPORT"
    DEPLOY = "DEPLOY"
    RECALL = "RECALL"
    CLAIM = "CLAIM"

    __hash__ = object.__hash__  # members are singletons; see atoms.Colour

    word: str
    """The keyword as written (``ADVANCE``); a plain attribute, see atoms.Colour."""

    @property
    def target_range(self) -> tuple[int, int]:
        """Least and most sectors after the unit's own sector."""
        return _TARGETS[self]

    def summary(self, *, advance_claims_empty: bool = True) -> str:
        """What the order does, in one line for an order builder (R4): so Move and Advance,
        which look alike, are told apart where they are chosen. An ADVANCE claims an empty
        sector unless the table's house rule ``advance_claims_empty`` (R4.6) is off."""
        if self is OrderKind.ADVANCE and not advance_claims_empty:
            return (
                "attacks the next sector (with its supports); claims it only by winning a "
                "fight, not by entering it empty (R4.6, this table's house rule)"
            )
        return _SUMMARIES[self]

    @property
    def is_carrier_half(self) -> bool:
        """RECALL and DEPLOY: the two orders a carrier may combine (R3.2)."""
        return self in (OrderKind.RECALL, OrderKind.DEPLOY)


for _kind in OrderKind:
    _kind.word = _kind.value

HOLD, MOVE, ADVANCE, SUPPORT, DEPLOY, RECALL, CLAIM = OrderKind
"""The order kinds by name (fast to read; see atoms.DESTROYER)."""

_TARGETS = {
    OrderKind.HOLD: (0, 0),
    OrderKind.MOVE: (1, 1),
    OrderKind.ADVANCE: (1, 1),
    OrderKind.SUPPORT: (1, 1),
    OrderKind.DEPLOY: (1, 3),
    OrderKind.RECALL: (1, 3),
    OrderKind.CLAIM: (0, 0),
}
_SUMMARIES = {
    OrderKind.HOLD: "stays and defends its sector",
    OrderKind.MOVE: "goes into an empty next sector only; never fights, never claims (R4.2)",
    OrderKind.ADVANCE: (
        "goes into the next sector, fighting any enemy there (with its supports); claims the "
        "sector it gets into (R4.6)"
    ),
    OrderKind.SUPPORT: (
        "stays and adds its strength to the unit in a sector, attacking or defending (R4.3)"
    ),
    OrderKind.DEPLOY: "sends docked strike craft into next sectors with no enemy (R4.5)",
    OrderKind.RECALL: "brings its empire's strike craft back aboard (R4.4)",
    OrderKind.CLAIM: "stays and claims its own sector at the end of the turn (R4.7)",
}
_KEYWORDS = {kind.value: kind for kind in OrderKind}
_KEYWORD_LIST = "HOLD, MOVE, ADVANCE, SUPPORT, DEPLOY, RECALL or CLAIM"
_TOKEN = re.compile(r"\S+")
_SECTOR = re.compile(r"[A-Za-z0-9_-]+")
MAX_LINE_LENGTH = 200
"""Longer lines are refused outright; no order needs more than a few dozen characters. White
space around a line is stripped before the length is measured (R3.7)."""


def _shown(token: str) -> str:
    return repr(token if len(token) <= 24 else token[:21] + "...")


def _arity_words(kind: OrderKind) -> str:
    low, high = kind.target_range
    if high == 0:
        return f"{kind.value} takes one sector, the unit's own"
    if low == high:
        return f"{kind.value} takes two sectors"
    return f"{kind.value} takes the carrier's sector and 1 to {high} more"


@dataclasses.dataclass(frozen=True)
class Order:
    """One written order: what kind, the unit's sector, and the sectors it names after that.

    Sector ids are kept as written; validation resolves them against a galaxy ignoring case.
    """

    kind: OrderKind
    sector: SectorId
    targets: tuple[SectorId, ...] = ()

    def __post_init__(self) -> None:
        low, high = self.kind.target_range
        if not low <= len(self.targets) <= high:
            raise OrderSyntaxError(
                _arity_words(self.kind), found=f"{1 + len(self.targets)} sectors"
            )

    @classmethod
    def parse(cls, text: str) -> Order:
        """The order written on one line; raises OrderSyntaxError (line 1) if malformed."""
        if "\n" in text.strip("\r\n"):
            raise OrderSyntaxError(
                "one order on one line", found="a line break", column=text.index("\n") + 1
            )
        return _parse_line(text.strip("\r\n"))

    def text(self) -> str:
        """The order in the grammar of R3.1: ``ADVANCE S4 S7``."""
        return " ".join((self.kind.word, self.sector, *self.targets))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Order.parse({self.text()!r})"

    @property
    def target(self) -> SectorId:
        """The single target of MOVE, ADVANCE or SUPPORT."""
        return self.targets[0]


def _parse_line(line: str) -> Order:
    # R3.7: white space around the line does not count towards its length; columns are still
    # counted in the line as written.
    body = line.strip()
    if len(body) > MAX_LINE_LENGTH:
        lead = len(line) - len(line.lstrip())
        raise OrderSyntaxError(
            f"a line of at most {MAX_LINE_LENGTH} characters",
            found=f"{len(body)} characters",
            column=lead + MAX_LINE_LENGTH + 1,
            text=body[:MAX_LINE_LENGTH],
        )
    tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(line)]
    end_column = len(line.rstrip()) + 1
    if not tokens:
        raise OrderSyntaxError(
            f"an order ({_KEYWORD_LIST})", found="an empty line", column=1, text=line
        )
    word, column = tokens[0]
    kind = _KEYWORDS.get(word.upper())
    if kind is None:
        close = difflib.get_close_matches(word.upper(), list(_KEYWORDS), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        # The line still names its unit when its next word is a sector: R3.2 gives it to that
        # unit, so a misspelt last line replaces the unit's earlier order.
        named = tokens[1][0] if len(tokens) > 1 and _SECTOR.fullmatch(tokens[1][0]) else None
        raise OrderSyntaxError(
            f"an order keyword: {_KEYWORD_LIST}{hint}",
            found=_shown(word),
            column=column,
            text=line,
            sector=named,
        )
    sectors: list[str] = []
    first: str | None = None
    low, high = kind.target_range
    for token, token_column in tokens[1:]:
        if len(sectors) > high:
            raise OrderSyntaxError(
                f"the end of the line ({_arity_words(kind)})",
                found=_shown(token),
                column=token_column,
                text=line,
                keyword=kind.value,
                sector=first,
            )
        if not _SECTOR.fullmatch(token):
            raise OrderSyntaxError(
                "a sector id made of letters, digits, '-' or '_' (like S4)",
                found=_shown(token),
                column=token_column,
                text=line,
                keyword=kind.value,
                sector=first,
            )
        sectors.append(token)
        first = sectors[0]
    if not sectors:
        raise OrderSyntaxError(
            f"the sector of the unit given the order ({_arity_words(kind)})",
            found="the end of the line",
            column=end_column,
            text=line,
            keyword=kind.value,
        )
    if len(sectors) - 1 < low:
        what = "the target sector" if low == high else "at least one target sector"
        raise OrderSyntaxError(
            f"{what} ({_arity_words(kind)})",
            found="the end of the line",
            column=end_column,
            text=line,
            keyword=kind.value,
            sector=first,
        )
    return Order(kind, sectors[0], tuple(sectors[1:]))


@dataclasses.dataclass(frozen=True)
class SheetLine:
    """One order line of an order sheet: where it was, and the order or why it is malformed."""

    line: int
    text: str
    order: Order | None
    error: OrderSyntaxError | None = None

    @property
    def sector(self) -> str | None:
        """The first sector the line names, when it names one: whose order it is (R3.2)."""
        if self.order is not None:
            return self.order.sector
        assert self.error is not None
        return self.error.sector

    @property
    def kind(self) -> OrderKind | None:
        if self.order is not None:
            return self.order.kind
        assert self.error is not None
        return None if self.error.keyword is None else OrderKind(self.error.keyword)


@dataclasses.dataclass(frozen=True)
class OrderSheet:
    """An empire's orders written all at once: one order a line, in the order written.

    Blank lines and ``#`` comments are skipped. Malformed lines are kept, with their error,
    because the last line for a unit is its order even when that line is void (R3.2).
    """

    lines: tuple[SheetLine, ...] = ()

    @classmethod
    def parse(cls, text: str) -> OrderSheet:
        return cls(tuple(_sheet_lines(text)))

    @classmethod
    def of(cls, *orders: Order | str) -> OrderSheet:
        """A sheet from orders (or order text), one line each."""
        lines = []
        for number, order in enumerate(orders, start=1):
            if isinstance(order, str):
                order = Order.parse(order)
            lines.append(SheetLine(number, order.text(), order))
        return cls(tuple(lines))

    @property
    def orders(self) -> tuple[Order, ...]:
        return tuple(line.order for line in self.lines if line.order is not None)

    @property
    def errors(self) -> tuple[OrderSyntaxError, ...]:
        return tuple(line.error for line in self.lines if line.error is not None)

    def text(self) -> str:
        """The sheet written back, one line per order line (malformed lines as written)."""
        return "\n".join(
            line.order.text() if line.order is not None else line.text for line in self.lines
        )

    def __len__(self) -> int:
        return len(self.lines)


def _sheet_lines(text: str) -> Iterator[SheetLine]:
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        try:
            order = _parse_line(line)
        except OrderSyntaxError as error:
            yield SheetLine(number, line.strip(), None, error.at_line(number))
        else:
            yield SheetLine(number, line.strip(), order)
