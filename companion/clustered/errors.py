"""Clustered's own errors (the shared ones are in :mod:`companion.errors`). An illegal
placement's, which carries its verdict, is
:class:`companion.clustered.legality.IllegalPlacementError`."""

from __future__ import annotations

from companion.errors import CompanionError


class NotationError(CompanionError, ValueError):
    """Text that is not a card, a cell, a placement or a setting (K1.10, K2.4); the message
    quotes the text."""


class SettingsError(CompanionError, ValueError):
    """A house rule value that cannot be used (K7.2); the message names the setting."""


class DeclarationError(CompanionError, ValueError):
    """A "no legal move" declaration the companion refuses (K3.13, K3.14); ``code`` is
    ``table-has-move``, ``hand-invalid`` or ``hand-has-move`` and ``reasons`` say why in the
    player's words (for ``hand-has-move``: which card fits where)."""

    def __init__(self, code: str, reasons: list[str]) -> None:
        self.code = code
        self.reasons = tuple(reasons)
        super().__init__(f"{code}: " + "; ".join(reasons))
