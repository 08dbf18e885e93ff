"""The settings of a game (K7.2): every house rule with its default, fixed before the first
placement and stored in the record (K7.1)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any

from companion.clustered.cards import ColourCode
from companion.clustered.cells import Cell
from companion.clustered.errors import SettingsError

DEFAULT_PALETTE: tuple[tuple[ColourCode, str], ...] = (
    ("B", "blue"),
    ("O", "orange"),
    ("R", "red"),
    ("G", "green"),
    ("Y", "yellow"),
    ("P", "purple"),
    ("T", "teal"),
    ("M", "magenta"),
)
"""K1.5: the rulebook's blue and orange, and six placeholders."""

SECOND_START = Cell(7, 0)
"""K7.18: the second start card, six empty cells east of the first."""


@dataclasses.dataclass(frozen=True)
class Palette:
    """The table's colours: 8 distinct letter codes, each with a colour name (K1.5)."""

    colours: tuple[tuple[ColourCode, str], ...] = DEFAULT_PALETTE

    def __post_init__(self) -> None:
        codes = [code for code, _ in self.colours]
        if len(codes) != 8:
            raise SettingsError(f"palette: 8 colours, not {len(codes)} (K7.2)")
        for code, name in self.colours:
            if not (len(code) == 1 and "A" <= code <= "Z"):
                raise SettingsError(f"palette: a colour code is one letter A-Z, not {code!r}")
            if not re.fullmatch(r"[a-z][a-z -]{0,19}", name):
                raise SettingsError(
                    f"palette: a colour name is 1 to 20 lowercase letters, not {name!r}"
                )
        if len(set(codes)) != 8:
            raise SettingsError("palette: the 8 colour codes must be distinct letters (K1.5)")
        names = [name for _, name in self.colours]
        if len(set(names)) != 8:
            raise SettingsError("palette: the 8 colour names must be distinct")

    @property
    def codes(self) -> tuple[ColourCode, ...]:
        return tuple(code for code, _ in self.colours)

    def name(self, code: ColourCode) -> str:
        for known, name in self.colours:
            if known == code:
                return name
        raise SettingsError(f"there is no colour {code!r} in this table's palette")

    def code(self, text: str) -> ColourCode:
        """A colour from its code or its name, in any case."""
        wanted = text.strip().lower()
        for code, name in self.colours:
            if wanted in (code.lower(), name):
                return code
        known = ", ".join(f"{c} ({n})" for c, n in self.colours)
        raise SettingsError(f"there is no colour {text!r}; the colours are {known}")

    def text(self) -> str:
        """``B=blue O=orange ...``; the default palette is written ``B O R G Y P T M``."""
        if self.colours == DEFAULT_PALETTE:
            return " ".join(self.codes)
        return " ".join(f"{code}={name}" for code, name in self.colours)

    @classmethod
    def parse(cls, text: str) -> Palette:
        """``B=blue O=orange ...`` (spaces or commas between); a bare default code keeps its
        default name (``B O R G Y P T M`` is the default palette)."""
        defaults = dict(DEFAULT_PALETTE)
        colours = []
        for item in re.split(r"[\s,]+", text.strip()):
            if not item:
                continue
            code, sep, name = item.partition("=")
            code = code.upper()
            if not sep:
                if code not in defaults:
                    raise SettingsError(
                        f"palette: name the colour of {code!r} ({code}=name); only the default "
                        "codes B O R G Y P T M have a name already"
                    )
                name = defaults[code]
            colours.append((code, name.strip().lower()))
        return cls(tuple(colours))


@dataclasses.dataclass(frozen=True)
class Rect:
    """An inclusive rectangle of cells ``x_min..x_max, y_min..y_max``."""

    x_min: int
    x_max: int
    y_min: int
    y_max: int

    def __post_init__(self) -> None:
        if self.x_min > self.x_max or self.y_min > self.y_max:
            raise SettingsError(f"surface: {self.text()} is empty (write the smaller end first)")

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        x, y = cell
        return bool(self.x_min <= x <= self.x_max and self.y_min <= y <= self.y_max)

    def text(self) -> str:
        return f"{self.x_min}..{self.x_max},{self.y_min}..{self.y_max}"


_RECT = re.compile(
    r"\s*([+-]?\d{1,4})\s*\.\.\s*([+-]?\d{1,4})\s*,\s*([+-]?\d{1,4})\s*\.\.\s*"
    r"([+-]?\d{1,4})\s*"
)


@dataclasses.dataclass(frozen=True)
class Surface:
    """The playing surface (K2.6): unbounded, or the union of some rectangles of cells."""

    rects: tuple[Rect, ...] = ()

    @property
    def unbounded(self) -> bool:
        return not self.rects

    def __contains__(self, cell: object) -> bool:
        return self.unbounded or any(cell in rect for rect in self.rects)

    def text(self) -> str:
        """``unbounded`` or ``-2..2,-2..2`` (rectangles joined by ``;``)."""
        return "unbounded" if self.unbounded else "; ".join(r.text() for r in self.rects)

    def cells(self) -> list[Cell]:
        """Every cell of a bounded surface (in reading order)."""
        if self.unbounded:
            raise SettingsError("an unbounded surface has no list of cells")
        found = {
            Cell(x, y)
            for r in self.rects
            for x in range(r.x_min, r.x_max + 1)
            for y in range(r.y_min, r.y_max + 1)
        }
        return sorted(found, key=lambda c: (-c.y, c.x))

    @classmethod
    def parse(cls, text: str) -> Surface:
        cleaned = text.strip()
        if cleaned.lower() in ("", "unbounded"):
            return cls()
        rects = []
        for part in cleaned.split(";"):
            found = _RECT.fullmatch(part)
            if found is None:
                raise SettingsError(
                    f"surface: {part.strip()!r} is not a rectangle of cells; write "
                    "x_min..x_max,y_min..y_max like -4..4,-3..3, or unbounded (K2.6)"
                )
            x1, x2, y1, y2 = (int(g) for g in found.groups())
            rects.append(Rect(x1, x2, y1, y2))
        return cls(tuple(rects))


DISCARD_CHECKS = ("hand", "table")


@dataclasses.dataclass(frozen=True)
class Settings:
    """Every setting of K7.2, with its default."""

    palette: Palette = Palette()
    surface: Surface = Surface()
    discard_check: str = "hand"
    end_when_blocked: bool = True
    current_player_card: bool = False
    extra_wild: tuple[ColourCode, ...] | str = "none"
    """``"none"``, ``"all"``, or the colour codes whose decks get the third wild (K7.4)."""
    quick_play: bool = False
    first_bonuses: bool = False
    largest_bonuses: bool = False
    start_cards: int | str = "auto"

    def __post_init__(self) -> None:
        if self.discard_check not in DISCARD_CHECKS:
            raise SettingsError(f"discard_check: hand or table, not {self.discard_check!r} (K3.14)")
        if isinstance(self.extra_wild, str):
            if self.extra_wild not in ("none", "all"):
                raise SettingsError(
                    f"extra_wild: none, all or a list of colours, not {self.extra_wild!r}"
                )
        else:
            unknown = [c for c in self.extra_wild if c not in self.palette.codes]
            if unknown:
                raise SettingsError(f"extra_wild: no colour {unknown[0]!r} in the palette")
            if len(set(self.extra_wild)) != len(self.extra_wild):
                raise SettingsError("extra_wild: a colour is named twice")
            if tuple(sorted(self.extra_wild)) != self.extra_wild:
                object.__setattr__(self, "extra_wild", tuple(sorted(self.extra_wild)))
        if self.start_cards not in ("auto", 1, 2):
            raise SettingsError(f"start_cards: auto, 1 or 2, not {self.start_cards!r} (K7.17)")
        for flag in (
            "end_when_blocked",
            "current_player_card",
            "quick_play",
            "first_bonuses",
            "largest_bonuses",
        ):
            if not isinstance(getattr(self, flag), bool):
                raise SettingsError(f"{flag}: on or off, not {getattr(self, flag)!r}")

    # What the settings mean ----------------------------------------------------------------------

    def wilds(self, colour: ColourCode) -> int:
        """How many wild cards the deck of ``colour`` holds (K1.2, K7.4)."""
        if self.extra_wild == "all":
            return 3
        if self.extra_wild == "none":
            return 2
        return 3 if colour in self.extra_wild else 2

    def deck_size(self, colour: ColourCode) -> int:
        return 27 + self.wilds(colour)

    def start_count(self, players: int) -> int:
        """K7.17: one start card for 1 to 4 players and two for 5 to 8, unless forced."""
        if self.start_cards == "auto":
            return 1 if players <= 4 else 2
        return int(self.start_cards)

    def start_cells(self, players: int) -> tuple[Cell, ...]:
        """Where the start cards lie (K2.1, K7.18)."""
        return (Cell(0, 0),) if self.start_count(players) == 1 else (Cell(0, 0), SECOND_START)

    def turns(self, colour: ColourCode) -> int:
        """How many turns the player of ``colour`` takes (K5.3, K7.7)."""
        return turns_for(self.deck_size(colour), quick_play=self.quick_play)

    def check_for(self, players: int) -> None:
        """Refuse settings that cannot be played by ``players`` (the start cards must lie on
        the surface, K2.6)."""
        for cell in self.start_cells(players):
            if cell not in self.surface:
                raise SettingsError(
                    f"surface: {self.surface.text()} does not hold the start card at "
                    f"{cell.text()} (K2.6, K7.18)"
                )

    # Text and records ----------------------------------------------------------------------------

    def extra_wild_text(self) -> str:
        if isinstance(self.extra_wild, str):
            return self.extra_wild
        return ",".join(self.extra_wild)

    def to_dict(self) -> dict[str, Any]:
        return {
            "palette": [[code, name] for code, name in self.palette.colours],
            "surface": self.surface.text(),
            "discard_check": self.discard_check,
            "end_when_blocked": self.end_when_blocked,
            "current_player_card": self.current_player_card,
            "extra_wild": self.extra_wild_text(),
            "quick_play": self.quick_play,
            "first_bonuses": self.first_bonuses,
            "largest_bonuses": self.largest_bonuses,
            "start_cards": self.start_cards,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from :meth:`to_dict` or from options by name, each value either already
        parsed or as text (a form field, a command-line option); unknown names refused."""
        unknown = sorted(set(data) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise SettingsError(f"there is no setting {unknown[0]!r} (K7.2)")
        values: dict[str, Any] = {}
        for name, value in data.items():
            values[name] = parse_value(name, value)
        return cls(**values)

    def changed(self, **values: Any) -> Settings:
        """These settings with some changed (values as for :meth:`from_dict`)."""
        return dataclasses.replace(
            self, **{name: parse_value(name, value) for name, value in values.items()}
        )


def parse_value(name: str, value: Any) -> Any:
    """One setting's value from text or from its own type (K7.2)."""
    if name == "palette":
        if isinstance(value, Palette):
            return value
        if isinstance(value, str):
            return Palette.parse(value)
        return Palette(tuple((str(c), str(n)) for c, n in value))
    if name == "surface":
        return value if isinstance(value, Surface) else Surface.parse(str(value))
    if name == "discard_check":
        return str(value).strip().lower()
    if name == "extra_wild":
        return parse_extra_wild(value)
    if name == "start_cards":
        text = str(value).strip().lower()
        if text == "auto":
            return "auto"
        if text in ("1", "2"):
            return int(text)
        raise SettingsError(f"start_cards: auto, 1 or 2, not {value!r} (K7.17)")
    return parse_switch(name, value)


def parse_switch(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise SettingsError(f"{name}: on or off, not {value!r}")


def parse_extra_wild(value: Any) -> tuple[ColourCode, ...] | str:
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in ("none", "all"):
            return text.lower()
        items: Iterable[str] = re.split(r"[\s,]+", text)
    else:
        items = value
    codes = tuple(sorted(str(c).strip().upper() for c in items if str(c).strip()))
    return codes if codes else "none"


def turns_for(deck_size: int, *, quick_play: bool = False) -> int:
    """K5.3: a deck of D cards gives D turns; K7.7, quick play: 5 + ceil((D - 7) / 2)."""
    if not quick_play:
        return deck_size
    return 5 + -(-(deck_size - 7) // 2)


def hand_size(turns: int, taken: int) -> int:
    """K5.3, K7.7: the cards in hand before a turn, after ``taken`` of ``turns`` turns."""
    return max(0, min(5, turns - taken))
