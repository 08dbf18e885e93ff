"""Shared by every game: the companion's exceptions, each with a message a player can act on.

Every exception derives from :class:`CompanionError` and also from a builtin, the way
gpiozero's do, so callers may catch either.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error raised by the companion package."""


class OrderSyntaxError(CompanionError, ValueError):
    """Order text that does not follow the grammar of ruling R3.1.

    It names the line and column (both counted from 1) and what was expected there.
    ``sector`` is the first sector the line named, when it got that far, so the order sheet
    can tell which unit the broken line was meant for (ruling R3.2).
    """

    def __init__(
        self,
        expected: str,
        *,
        found: str,
        line: int = 1,
        column: int = 1,
        text: str = "",
        keyword: str | None = None,
        sector: str | None = None,
    ) -> None:
        self.expected = expected
        self.found = found
        self.line = line
        self.column = column
        self.text = text
        self.keyword = keyword
        self.sector = sector
        super().__init__(f"line {line}, column {column}: expected {expected}, found {found}")

    def at_line(self, line: int) -> OrderSyntaxError:
        """The same error, placed on another line of a longer text."""
        return OrderSyntaxError(
            self.expected,
            found=self.found,
            line=line,
            column=self.column,
            text=self.text,
            keyword=self.keyword,
            sector=self.sector,
        )


class StateError(CompanionError, ValueError):
    """An action that does not fit the game's current state (wrong phase, unknown empire...)."""


class RecordError(CompanionError, ValueError):
    """A game record that cannot be loaded or replayed; the message says where and why."""
