"""The notation of ruling G8.2: one line per entry, words separated by spaces, any case.

Each line is a frozen value with symmetric :meth:`parse` / :meth:`text` (``Line.parse(s).text()``
is ``s`` for every canonical ``s``) and a ``__repr__`` that is a constructor expression, as
python-chess writes moves. A :class:`Turn` is lines in order, one per text line (``;`` also
separates lines; ``#`` starts a comment).

``timeout`` is the companion's own line, never a player's: the table's clock ended the turn
(see docs/rules-globular-cluster.md, "What the companion adds").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from typing import ClassVar, Self, TypeAlias

from companion.globular.errors import NotationError
from companion.globular.geometry import Position
from companion.globular.tiles import Colour, Corner, Crystal, Face, Tile

MAX_COUNT = 12
"""No player has more pieces than 12 coins, so no count is larger (``x12``)."""

_COUNT = re.compile(r"x([0-9]{1,2})")


def _words(text: str) -> list[str]:
    # "m7 > k7" and "m7>k7" are the same path.
    return re.sub(r"\s*>\s*", ">", text.strip().lower()).split()


def _position(word: str) -> Position:
    return Position.parse(word)


def _path(word: str, *, what: str) -> tuple[Position, ...]:
    parts = word.split(">")
    if len(parts) < 2 or any(not p for p in parts):
        raise NotationError(
            f"{word!r} is not a path: write the positions joined by '>' (m7>k7, m7>k7>i7)",
            text=word,
        )
    path = tuple(_position(p) for p in parts)
    if what == "warp" and len(path) != 2:
        raise NotationError(
            f"{word!r}: a warp goes from one place to one station (m7>i5), in one jump", text=word
        )
    return path


def _count(word: str) -> int | None:
    match = _COUNT.fullmatch(word)
    if match is None:
        return None
    number = int(match.group(1))
    if not 1 <= number <= MAX_COUNT:
        raise NotationError(f"{word!r}: a count is x1 to x{MAX_COUNT}", text=word)
    return number


def _expect_end(words: list[str], index: int, usage: str) -> None:
    if index < len(words):
        raise NotationError(
            f"{words[index]!r} is not expected here: the line reads {usage}", text=words[index]
        )


def _count_suffix(count: int) -> str:
    return "" if count == 1 else f" x{count}"


class _Notation:
    """What every line has: its keyword and usage, ``parse``, ``text`` and a ``__repr__``
    that is a constructor expression (``Move.parse('move m7>k7 x3')``)."""

    keyword: ClassVar[str]
    usage: ClassVar[str]

    def text(self) -> str:  # pragma: no cover - every line defines it
        raise NotImplementedError

    @classmethod
    def parse(cls, text: str) -> Self:
        """The line ``text`` if it is a line of this kind, or NotationError."""
        line = parse_line(text)
        if not isinstance(line, cls):
            raise NotationError(f"{text!r} is not a {cls.keyword} line", text=text)
        return line

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.text()!r})"


@dataclasses.dataclass(frozen=True, repr=False)
class Draw(_Notation):
    """``draw <tile>``: the tile just drawn (G3.13)."""

    tile: Tile
    keyword: ClassVar[str] = "draw"
    usage: ClassVar[str] = "draw <tile>"

    def text(self) -> str:
        return f"draw {self.tile.code()}"


@dataclasses.dataclass(frozen=True, repr=False)
class Place(_Notation):
    """``place <pos> <corner>``: the drawn tile (or the set-aside supernova) goes there."""

    position: Position
    corner: Corner
    keyword: ClassVar[str] = "place"
    usage: ClassVar[str] = "place <position> <corner>"

    def text(self) -> str:
        return f"place {self.position.name()} {self.corner.value}"


@dataclasses.dataclass(frozen=True, repr=False)
class Move(_Notation):
    """``move <pos>><pos>[>...] [xN|leader]``: N coins (or the leader), each along the path."""

    path: tuple[Position, ...]
    count: int = 1
    leader: bool = False
    keyword: ClassVar[str] = "move"
    usage: ClassVar[str] = "move <position>><position>[>...] [xN|leader]"

    def text(self) -> str:
        pieces = " leader" if self.leader else _count_suffix(self.count)
        return f"move {'>'.join(p.name() for p in self.path)}{pieces}"


@dataclasses.dataclass(frozen=True, repr=False)
class Warp(_Notation):
    """``warp <pos>><pos> [xN|leader]``: from the MITS or a station to a station (G4.5)."""

    path: tuple[Position, Position]
    count: int = 1
    leader: bool = False
    keyword: ClassVar[str] = "warp"
    usage: ClassVar[str] = "warp <position>><position> [xN|leader]"

    def text(self) -> str:
        pieces = " leader" if self.leader else _count_suffix(self.count)
        return f"warp {self.path[0].name()}>{self.path[1].name()}{pieces}"


@dataclasses.dataclass(frozen=True, repr=False)
class Mine(_Notation):
    """``mine <pos> [x2] [roll <face> [<face>]]`` (G4.6, G8.3)."""

    position: Position
    count: int = 1
    faces: tuple[Face, ...] = ()
    keyword: ClassVar[str] = "mine"
    usage: ClassVar[str] = "mine <position> [x2] [roll <face> [<face>]]"

    def text(self) -> str:
        roll = f" roll {' '.join(f.value for f in self.faces)}" if self.faces else ""
        return f"mine {self.position.name()}{_count_suffix(self.count)}{roll}"

    def without_faces(self) -> Mine:
        return dataclasses.replace(self, faces=())


@dataclasses.dataclass(frozen=True, repr=False)
class Trade(_Notation):
    """``trade <colour> give <type> take <type>`` (G4.9)."""

    colour: Colour
    give: Crystal
    take: Crystal
    keyword: ClassVar[str] = "trade"
    usage: ClassVar[str] = "trade <colour> give <type> take <type>"

    def text(self) -> str:
        return f"trade {self.colour.value} give {self.give.value} take {self.take.value}"


@dataclasses.dataclass(frozen=True, repr=False)
class Improve(_Notation):
    """``improve <pos> [x2]`` (G4.10)."""

    position: Position
    count: int = 1
    keyword: ClassVar[str] = "improve"
    usage: ClassVar[str] = "improve <position> [x2]"

    def text(self) -> str:
        return f"improve {self.position.name()}{_count_suffix(self.count)}"


@dataclasses.dataclass(frozen=True, repr=False)
class Colonize(_Notation):
    """``colonize <pos> [leader]`` (G4.12)."""

    position: Position
    leader: bool = False
    keyword: ClassVar[str] = "colonize"
    usage: ClassVar[str] = "colonize <position> [leader]"

    def text(self) -> str:
        return f"colonize {self.position.name()}{' leader' if self.leader else ''}"


@dataclasses.dataclass(frozen=True, repr=False)
class Station(_Notation):
    """``station <pos>`` (G4.13)."""

    position: Position
    keyword: ClassVar[str] = "station"
    usage: ClassVar[str] = "station <position>"

    def text(self) -> str:
        return f"station {self.position.name()}"


@dataclasses.dataclass(frozen=True, repr=False)
class End(_Notation):
    """``end``: end the turn; unused AP are lost (G4.2)."""

    keyword: ClassVar[str] = "end"
    usage: ClassVar[str] = "end"

    def text(self) -> str:
        return "end"


@dataclasses.dataclass(frozen=True, repr=False)
class Timeout(_Notation):
    """``timeout``: the table's clock ended the turn (the companion's line, not a player's)."""

    keyword: ClassVar[str] = "timeout"
    usage: ClassVar[str] = "timeout"

    def text(self) -> str:
        return "timeout"


Line: TypeAlias = (
    Draw | Place | Move | Warp | Mine | Trade | Improve | Colonize | Station | End | Timeout
)
LINE_TYPES: tuple[type[Line], ...] = (
    Draw,
    Place,
    Move,
    Warp,
    Mine,
    Trade,
    Improve,
    Colonize,
    Station,
    End,
    Timeout,
)
ACTIONS = (Move, Warp, Mine, Trade, Improve, Colonize, Station)
"""The lines that spend action points (G4)."""
KEYWORDS = {cls.keyword: cls for cls in LINE_TYPES}


def parse_line(text: str) -> Line:
    """One line of notation, or NotationError naming the word that is wrong (G8.2)."""
    words = _words(text)
    if not words:
        raise NotationError("the line is empty", text=text)
    keyword = words[0]
    cls = KEYWORDS.get(keyword)
    if cls is None:
        known = ", ".join(k for k in KEYWORDS if k != "timeout")
        raise NotationError(f"{words[0]!r} is not a word of the notation: use {known}", text=text)
    if cls in (End, Timeout):
        _expect_end(words, 1, cls.usage)
        return cls()
    if len(words) < 2:
        raise NotationError(f"{keyword} needs more: the line reads {cls.usage}", text=text)
    if cls is Draw:
        _expect_end(words, 2, cls.usage)
        return Draw(Tile.parse(words[1]))
    if cls is Place:
        if len(words) < 3:
            raise NotationError("place needs a position and a tick corner (place i5 br)", text=text)
        _expect_end(words, 3, cls.usage)
        return Place(_position(words[1]), Corner.parse(words[2]))
    if cls in (Move, Warp):
        path = _path(words[1], what=keyword)
        count, leader = 1, False
        if len(words) > 2:
            if words[2] == "leader":
                leader = True
            else:
                number = _count(words[2])
                if number is None:
                    raise NotationError(
                        f"{words[2]!r}: after the path comes xN (x3) or leader", text=text
                    )
                count = number
        _expect_end(words, 3, cls.usage)
        if cls is Warp:
            return Warp((path[0], path[1]), count, leader)
        return Move(path, count, leader)
    if cls is Mine:
        position = _position(words[1])
        index, count = 2, 1
        if index < len(words) and (number := _count(words[index])) is not None:
            count, index = number, index + 1
        faces: list[Face] = []
        if index < len(words):
            if words[index] != "roll":
                raise NotationError(
                    f"{words[index]!r}: after the position comes x2 or roll (mine i5 x2 roll 2 5)",
                    text=text,
                )
            faces = [Face.parse(w) for w in words[index + 1 :]]
            if not faces:
                raise NotationError("roll needs the face rolled (roll 4)", text=text)
        return Mine(position, count, tuple(faces))
    if cls is Trade:
        if len(words) != 6 or words[2] != "give" or words[4] != "take":
            raise NotationError(
                "a trade reads trade <colour> give <type> take <type> (trade red give 4 take 5)",
                text=text,
            )
        return Trade(Colour.parse(words[1]), Crystal.parse(words[3]), Crystal.parse(words[5]))
    if cls is Improve:
        count = 1
        if len(words) > 2:
            number = _count(words[2])
            if number is None:
                raise NotationError(f"{words[2]!r}: after the position comes x2", text=text)
            count = number
        _expect_end(words, 3, cls.usage)
        return Improve(_position(words[1]), count)
    if cls is Colonize:
        leader = False
        if len(words) > 2:
            if words[2] != "leader":
                raise NotationError(
                    f"{words[2]!r}: after the position only 'leader' may follow", text=text
                )
            leader = True
        _expect_end(words, 3, cls.usage)
        return Colonize(_position(words[1]), leader)
    _expect_end(words, 2, cls.usage)
    return Station(_position(words[1]))


@dataclasses.dataclass(frozen=True, repr=False)
class Turn:
    """Lines in order: a turn, or the part of one a player sends at once."""

    lines: tuple[Line, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Lines separated by newlines or ``;``; blank lines and ``#`` comments are skipped.
        A NotationError says which line (counted from 1) is wrong."""
        lines = []
        for number, raw in enumerate(split_lines(text), start=1):
            try:
                lines.append(parse_line(raw))
            except NotationError as err:
                raise NotationError(f"line {number}: {err.reason}", text=err.text) from None
        return cls(tuple(lines))

    def text(self) -> str:
        return "\n".join(line.text() for line in self.lines)

    def __repr__(self) -> str:
        return f"Turn.parse({self.text()!r})"

    def __iter__(self) -> Iterator[Line]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)


def split_lines(text: str) -> list[str]:
    """The non-blank lines of a text, comments (``#``) removed, ``;`` also ending a line."""
    out = []
    for raw in re.split(r"[\n;]", text):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def texts(lines: Sequence[Line]) -> list[str]:
    return [line.text() for line in lines]
