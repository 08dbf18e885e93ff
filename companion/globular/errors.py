"""Globular Cluster's two kinds of refusal, both in a player's words with the ruling they cite.

:class:`NotationError` is text that is not notation (G8.2); :class:`Refusal` is a line that
the rules do not allow here (its ``ruling`` is the id G8.4 says to cite). Both are
:class:`~companion.errors.CompanionError` and :class:`ValueError`, like python-chess's
``InvalidMoveError`` and ``IllegalMoveError``.
"""

from __future__ import annotations

from companion.errors import CompanionError


class GlobularError(CompanionError, ValueError):
    """Root of Globular Cluster's refusals: ``reason`` in words, ``ruling`` the id it cites."""

    def __init__(self, reason: str, ruling: str) -> None:
        self.reason = reason
        self.ruling = ruling
        super().__init__(f"{reason} ({ruling})")


class NotationError(GlobularError):
    """Text that is not a line of the notation (a bad word, name, corner, type or face)."""

    def __init__(self, reason: str, *, text: str = "", ruling: str = "G8.2") -> None:
        self.text = text
        super().__init__(reason, ruling)


class Refusal(GlobularError):
    """A well-formed line that the rules refuse in the current position; nothing changed."""
