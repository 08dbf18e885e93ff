"""The atoms of the game: suits (which are also the players' colours), ranks, tiles, tick
corners, die faces and crystal types (rulings G1.1 to G1.3, G1.8, G2.5, G4.8)."""

from __future__ import annotations

import dataclasses
import enum
import functools

from companion.globular.errors import NotationError


class Colour(enum.Enum):
    """A piecepack suit, named by colour as in the rulebook (G1.1); also a player's colour."""

    RED = "red"
    BLACK = "black"
    BLUE = "blue"
    GREEN = "green"

    @property
    def code(self) -> str:
        """The two letters a tile code starts with (G1.2): ``rd``, ``bk``, ``bl``, ``gr``."""
        return _CODES[self]

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """A colour by name or code, in any case (``Red``, ``bk``)."""
        word = text.strip().lower()
        for colour in cls:
            if word in (colour.value, colour.code):
                return colour
        raise NotationError(f"{text!r} is not a colour: say red, black, blue or green", text=text)


_CODES = {Colour.RED: "rd", Colour.BLACK: "bk", Colour.BLUE: "bl", Colour.GREEN: "gr"}
COLOURS = tuple(Colour)
"""The four colours in the rulebook's order."""


class Rank(enum.Enum):
    """A tile's rank (G1.1); its letter in a tile code (G1.2)."""

    NULL = "n"
    ACE = "a"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"

    @property
    def number(self) -> int | None:
        """Ace 1, 2 to 5 as printed; a null has no number (G1.1)."""
        return None if self is Rank.NULL else _NUMBERS[self]

    @property
    def word(self) -> str:
        return {Rank.NULL: "null", Rank.ACE: "ace"}.get(self, self.value)


_RANKS = tuple(Rank)
_NUMBERS = {Rank.ACE: 1, Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5}


class TileKind(enum.Enum):
    """What a tile on the board is (G1.3)."""

    MITS = "mits"
    SUPERNOVA = "supernova"
    NULL = "null"
    RESOURCE = "resource"
    HABITABLE = "habitable"


@functools.total_ordering
@dataclasses.dataclass(frozen=True)
class Tile:
    """A tile known by colour and rank (G1.2); tiles with the same code are interchangeable."""

    colour: Colour
    rank: Rank

    @classmethod
    def parse(cls, text: str) -> Tile:
        """``bk4``, ``gra``, ``rdn`` (any case)."""
        word = text.strip().lower()
        if len(word) == 3:
            for colour in Colour:
                if word[:2] == colour.code:
                    for rank in Rank:
                        if word[2] == rank.value:
                            return cls(colour, rank)
        raise NotationError(
            f"{text!r} is not a tile: a tile is rd, bk, bl or gr followed by n, a, 2, 3, 4 or 5 "
            "(bk4, gra, rdn)",
            text=text,
        )

    def code(self) -> str:
        return self.colour.code + self.rank.value

    def sort_key(self) -> tuple[int, int]:
        """Red, black, blue, green; then null, ace, 2 to 5."""
        return (COLOURS.index(self.colour), _RANKS.index(self.rank))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        return self.code()

    def __repr__(self) -> str:
        return f"Tile.parse({self.code()!r})"

    @property
    def number(self) -> int | None:
        return self.rank.number

    @property
    def kind(self) -> TileKind:
        """The kind of a tile placed face up (the MITS is a face-down blue ace, G1.3)."""
        return _kind(self.colour, self.rank)

    def words(self) -> str:
        """``black 4``, ``green ace``, ``red null``."""
        return f"{self.colour.value} {self.rank.word}"


@functools.cache
def _kind(colour: Colour, rank: Rank) -> TileKind:
    if rank is Rank.NULL:
        return TileKind.NULL
    if colour is Colour.RED:
        return TileKind.SUPERNOVA  # red ace: the only red non-null tile in play
    if colour is Colour.BLACK:
        return TileKind.RESOURCE
    return TileKind.HABITABLE


class Corner(enum.Enum):
    """The corner of a tile that holds its tick, which is its orientation (G2.5)."""

    TL = "tl"
    TR = "tr"
    BL = "bl"
    BR = "br"

    @classmethod
    def parse(cls, text: str) -> Corner:
        word = text.strip().lower()
        for corner in cls:
            if word == corner.value:
                return corner
        raise NotationError(
            f"{text!r} is not a corner: say tl, tr, bl or br (top-left, top-right, "
            "bottom-left, bottom-right)",
            text=text,
        )

    @property
    def words(self) -> str:
        return {
            Corner.TL: "top-left",
            Corner.TR: "top-right",
            Corner.BL: "bottom-left",
            Corner.BR: "bottom-right",
        }[self]


CORNERS = (Corner.TL, Corner.TR, Corner.BL, Corner.BR)
"""The four orientations, in the order the companion tries them."""


class Crystal(enum.Enum):
    """A crystal type (refraction gradient), written as in G8.2."""

    N1 = "n1"
    T23 = "23"
    FOUR = "4"
    FIVE = "5"

    @property
    def label(self) -> str:
        """As the rulebook's score sheet heads it: ``N/1``, ``2/3``, ``4``, ``5``."""
        return {Crystal.N1: "N/1", Crystal.T23: "2/3", Crystal.FOUR: "4", Crystal.FIVE: "5"}[self]

    @classmethod
    def parse(cls, text: str) -> Crystal:
        word = text.strip().lower().replace("/", "")
        for crystal in cls:
            if word == crystal.value:
                return crystal
        raise NotationError(f"{text!r} is not a crystal type: say n1, 23, 4 or 5", text=text)


CRYSTALS = tuple(Crystal)


class Face(enum.Enum):
    """A die face (G1.8)."""

    NULL = "n"
    ACE = "a"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"

    @classmethod
    def parse(cls, text: str) -> Face:
        """``n``, ``a``, ``2``..``5``; also ``null``, ``ace`` and ``1`` (G8.2)."""
        word = text.strip().lower()
        word = {"null": "n", "ace": "a", "1": "a"}.get(word, word)
        for face in cls:
            if word == face.value:
                return face
        raise NotationError(f"{text!r} is not a die face: say n, a, 2, 3, 4 or 5", text=text)

    @property
    def crystal(self) -> Crystal:
        """The crystal type this face gives (G4.8)."""
        return _FACE_CRYSTAL[self]


_FACE_CRYSTAL = {
    Face.NULL: Crystal.N1,
    Face.ACE: Crystal.N1,
    Face.TWO: Crystal.T23,
    Face.THREE: Crystal.T23,
    Face.FOUR: Crystal.FOUR,
    Face.FIVE: Crystal.FIVE,
}
FACES = tuple(Face)
"""The six faces in order: the companion's roll picks one with chance 1/6 each (G1.8)."""
