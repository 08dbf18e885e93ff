"""Orders, build plans and retreat choices as the ``companion`` command reads them from files.

An orders or plans file holds one block per empire: a header line naming its colour (``Red:``,
``[Red]`` or just ``Red``, in any case), then that empire's lines. A retreat file holds lines of
``RETREAT FROM TO``. Every problem names the file and the line (``standard input, line 3: ...``)
as a :class:`~companion.commands.CommandError`; the rules themselves judge the orders.
"""

from __future__ import annotations

import dataclasses
import re

from companion.commands import CommandError
from companion.errors import CompanionError
from companion.local_cluster.atoms import Colour, SectorId, UnitId
from companion.local_cluster.orders import OrderKind
from companion.local_cluster.retreats import check_retreat
from companion.local_cluster.state import State

MAX_SHEET_CHARS = 20_000
"""The longest one empire's orders or plan may be (the record schema's ``maxLength``)."""
ORDER_KEYWORDS = frozenset(kind.value for kind in OrderKind)
PLAN_KEYWORDS = frozenset({"BUILD", "REPLENISH", "STOCKPILE"})


@dataclasses.dataclass(frozen=True)
class Block:
    """One empire's part of an orders or plans file: the lines after its header line."""

    colour: Colour
    header: int
    """The header's line number in the file; the block's line 1 is the line after it."""
    lines: tuple[str, ...]

    def text(self) -> str:
        """The block as written, without trailing blank or comment-only lines."""
        lines = list(self.lines)
        while lines and not lines[-1].split("#", 1)[0].strip():
            lines.pop()
        return "\n".join(lines)

    @property
    def span(self) -> str:
        """Where its lines are in the file: ``lines 3-5``."""
        count = len(self.text().splitlines())
        if count == 0:
            return f"nothing after line {self.header}"
        if count == 1:
            return f"line {self.header + 1}"
        return f"lines {self.header + 1}-{self.header + count}"


_BRACKETED = re.compile(r"\[\s*([^\]]*?)\s*\]\s*:?")
_WORD = re.compile(r"([A-Za-z]+)\s*(:?)")


def _header(line: str, keywords: frozenset[str]) -> str | None:
    """The colour word of a header line (``Red:``, ``[Red]``, ``Red``), or None for content."""
    content = line.split("#", 1)[0].strip()
    bracketed = _BRACKETED.fullmatch(content)
    if bracketed:
        return bracketed.group(1)
    word = _WORD.fullmatch(content)
    if word is None:
        return None
    if word.group(2) or word.group(1).upper() not in keywords:
        return word.group(1)
    return None


def parse_blocks(
    text: str,
    state: State,
    *,
    keywords: frozenset[str],
    what: str,
    source: str,
) -> dict[Colour, Block]:
    """Split ``text`` into per-empire blocks; CommandError names the line of any problem."""
    blocks: dict[Colour, Block] = {}
    current: tuple[Colour, int, list[str]] | None = None
    playing = ", ".join(e.colour.title for e in state.empires)

    def close() -> None:
        if current is not None:
            colour, header, lines = current
            blocks[colour] = Block(colour, header, tuple(lines))

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        word = _header(line, keywords)
        if word is None:
            if current is not None:
                current[2].append(line)
            elif line.split("#", 1)[0].strip():
                raise CommandError(
                    f"{source}, line {number}: {line.strip()!r} comes before any empire's "
                    f"header; start each empire's {what} with a line naming its colour, "
                    "like 'Red:'"
                )
            continue
        try:
            colour = Colour.parse(word)
        except ValueError as err:
            raise CommandError(
                f"{source}, line {number}: {err}; a header line names an empire, like 'Red:'"
            ) from None
        if colour not in state.empire_map:
            raise CommandError(
                f"{source}, line {number}: {colour.title} is not playing in this game "
                f"(the empires are {playing})"
            )
        if state.empire(colour).eliminated:
            raise CommandError(
                f"{source}, line {number}: {colour.title} has been eliminated (R7.2) and has "
                f"no {what}"
            )
        close()
        if colour in blocks:
            raise CommandError(
                f"{source}, line {number}: a second block for {colour.title} (the first is at "
                f"line {blocks[colour].header}); give each empire one block"
            )
        current = (colour, number, [])
    close()
    for block in blocks.values():
        if len(block.text()) > MAX_SHEET_CHARS:
            raise CommandError(
                f"{source}, line {block.header}: {block.colour.title}'s {what} run to "
                f"{len(block.text())} characters; at most {MAX_SHEET_CHARS} are kept in a record"
            )
    return dict(sorted(blocks.items(), key=lambda item: state.empire(item[0]).seat))


_RETREAT = re.compile(r"(\S+)(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(.*))?")


def parse_retreats(text: str, state: State, source: str) -> dict[UnitId, SectorId]:
    """``RETREAT FROM TO`` lines as choices per unit id; CommandError names a bad line."""
    owed = {r.sector: r for r in state.retreats}
    choices: dict[UnitId, SectorId] = {}
    chosen_at: dict[UnitId, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        where = f"{source}, line {number}"
        match = _RETREAT.fullmatch(content)
        assert match is not None
        keyword, origin, target, extra = match.groups()
        if keyword.upper() != "RETREAT" or target is None or extra:
            raise CommandError(
                f"{where}: expected 'RETREAT FROM TO' (the sector the unit retreats from, "
                f"then the sector it goes to), found {content!r}"
            )
        sector = state.galaxy.resolve(origin)
        retreat = owed.get(sector) if sector is not None else None
        if retreat is None:
            owing = ", ".join(f"{r.sector} ({r.describe()})" for r in state.retreats)
            raise CommandError(
                f"{where}: no unit owes a retreat from {origin}; retreats are owed from {owing}"
            )
        if retreat.unit in chosen_at:
            raise CommandError(
                f"{where}: a second retreat for the unit from {retreat.sector} (the first is "
                f"on line {chosen_at[retreat.unit]})"
            )
        try:
            choices[retreat.unit] = check_retreat(state, retreat.unit, target)
        except CompanionError as err:
            raise CommandError(f"{where}: {err}") from None
        chosen_at[retreat.unit] = number
    return choices
