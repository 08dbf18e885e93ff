"""Placement legality (K4): whether a card may go in a cell, and why not.

The checks about the cell (K4.4 to K4.7) need only the table; those about the player (K4.2,
K4.3) need the game, which adds them in :meth:`companion.clustered.game.ClusteredGame.verdict`.
A refusal is data (:class:`Verdict`), given as the first broken rule in the order of K4.10,
with every incompatible neighbour for a mismatch, in the order north, east, south, west.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from companion.clustered.cards import ALL_SIGNATURES, COMPATIBLE_MASKS, Card, compatible, shared
from companion.clustered.cells import Cell, Direction, reading_order
from companion.clustered.settings import Surface
from companion.errors import CompanionError


class Refusal(enum.Enum):
    """Why a placement is refused, in the order K4.10 gives them."""

    WRONG_COLOUR = "wrong-colour"
    ALREADY_PLAYED = "already-played"
    OFF_SURFACE = "off-surface"
    OCCUPIED = "occupied"
    NO_NEIGHBOUR = "no-neighbour"
    MISMATCH = "mismatch"

    @property
    def ruling(self) -> str:
        return _RULING[self]


_RULING = {
    Refusal.WRONG_COLOUR: "K4.2",
    Refusal.ALREADY_PLAYED: "K4.3",
    Refusal.OFF_SURFACE: "K4.4",
    Refusal.OCCUPIED: "K4.5",
    Refusal.NO_NEIGHBOUR: "K4.6",
    Refusal.MISMATCH: "K4.7",
}


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """A neighbour the placed card is not compatible with (K4.7)."""

    cell: Cell
    card: Card
    direction: Direction
    shared: tuple[str, ...]
    """The attributes the two cards do have in common (fewer than two)."""

    def words(self) -> str:
        """``shares only fill with the card to its left (B-sq-so-2 at 1,0)``."""
        what = f"only {self.shared[0]}" if self.shared else "nothing"
        return (
            f"shares {what} with the card {self.direction.where} "
            f"({self.card.text()} at {self.cell.text()})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "cell": self.cell.text(),
            "card": self.card.text(),
            "direction": self.direction.name.lower(),
            "shared": list(self.shared),
        }


@dataclasses.dataclass(frozen=True)
class Verdict:
    """Whether ``card`` may go in ``cell``: legal, or the first rule it breaks (K4.10)."""

    card: Card
    cell: Cell
    refusal: Refusal | None = None
    mismatches: tuple[Mismatch, ...] = ()
    reason: str = ""
    """The refusal in a player's words (without the code, which :attr:`message` adds)."""

    @property
    def legal(self) -> bool:
        return self.refusal is None

    @property
    def message(self) -> str:
        placement = f"{self.card.text()} {self.cell.text()}"
        if self.refusal is None:
            return f"{placement} is legal"
        return f"{placement}: {self.reason} ({self.refusal.value}, {self.refusal.ruling})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card.text(),
            "cell": self.cell.text(),
            "legal": self.legal,
            "refusal": None if self.refusal is None else self.refusal.value,
            "mismatches": [m.to_dict() for m in self.mismatches],
            "message": self.message,
        }


class IllegalPlacementError(CompanionError, ValueError):
    """A placement that breaks K4; ``verdict`` says which rule and, for a mismatch, every
    neighbour that does not fit (K4.10). It lives with :class:`Verdict` so that
    :mod:`companion.clustered.errors` imports nothing of the rules core."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        super().__init__(verdict.message)


def cell_verdict(cards: Mapping[Cell, Card], card: Card, cell: Cell, surface: Surface) -> Verdict:
    """K4.4 to K4.7 for ``card`` in ``cell`` (the player's checks are the game's)."""
    if cell not in surface:
        return Verdict(
            card,
            cell,
            Refusal.OFF_SURFACE,
            reason=f"{cell.text()} is off the playing surface ({surface.text()})",
        )
    here = cards.get(cell)
    if here is not None:
        what = "a start card" if here.is_start else here.text()
        return Verdict(card, cell, Refusal.OCCUPIED, reason=f"{cell.text()} already holds {what}")
    neighbours = [
        (direction, near, cards[near])
        for direction, near in zip(Direction, cell.neighbours(), strict=True)
        if near in cards
    ]
    if not neighbours:
        return Verdict(
            card,
            cell,
            Refusal.NO_NEIGHBOUR,
            reason=(
                f"{cell.text()} touches no card along an edge; a card goes beside a card "
                "(cards meeting at a corner are not neighbours)"
            ),
        )
    mismatches = tuple(
        Mismatch(near, other, direction, shared(card, other))
        for direction, near, other in neighbours
        if not compatible(card, other)
    )
    if mismatches:
        said = "; it ".join(m.words() for m in mismatches)
        return Verdict(card, cell, Refusal.MISMATCH, mismatches, reason=f"it {said}")
    return Verdict(card, cell)


def neighbour_mask(cards: Mapping[Cell, Card], cell: Cell) -> int | None:
    """For an empty cell, the signatures (bits) of attribute cards that fit there (K4.7), or
    None when no neighbour holds a card (K4.6). Wild and start neighbours impose nothing."""
    mask = ALL_SIGNATURES
    touched = False
    for near in cell.neighbours():
        other = cards.get(near)
        if other is None:
            continue
        touched = True
        if other.is_plain:
            mask &= COMPATIBLE_MASKS[other.signature]
    return mask if touched else None


def frontier(cards: Mapping[Cell, Card], surface: Surface) -> dict[Cell, int]:
    """Every empty cell on the surface beside a card, with the signatures that fit there."""
    out: dict[Cell, int] = {}
    table = dict(cards)  # a plain dict looks up faster than a Mapping
    for cell in table:
        for near in cell.neighbours():
            if near in out or near in table or near not in surface:
                continue
            mask = neighbour_mask(table, near)
            if mask is not None:
                out[near] = mask
    return out


def fits(card: Card, mask: int) -> bool:
    """Whether ``card`` may go in a frontier cell with this mask (a wild card anywhere)."""
    return card.is_wild or bool(mask >> card.signature & 1)


def legal_cells(
    cards: Mapping[Cell, Card],
    card: Card,
    surface: Surface,
    cells: Mapping[Cell, int] | None = None,
) -> list[Cell]:
    """Every legal cell for ``card`` (K3.6), in reading order (north to south, west to east).

    ``cells`` is :func:`frontier` of the same table, when the caller already has it."""
    masks = frontier(cards, surface) if cells is None else cells
    return sorted((c for c, m in masks.items() if fits(card, m)), key=reading_order)


@dataclasses.dataclass(frozen=True)
class Problem:
    """Something about a whole layout that no sequence of legal placements could make."""

    code: str
    """``mismatch``, ``off-surface``, ``duplicate``, ``too-many-wilds``, ``no-neighbour``."""
    cells: tuple[Cell, ...]
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "cells": [c.text() for c in self.cells],
            "message": self.message,
        }


def problems(
    cards: Mapping[Cell, Card],
    surface: Surface,
    wilds: Mapping[str, int] | None = None,
) -> list[Problem]:
    """A layout's problems as data (empty for a position legal placements can reach): pairs of
    neighbours that do not fit (K4.7), cards off the surface (K4.4), an attribute card twice
    or more wild cards than a deck holds (K4.3), cards not joined to a start card (K4.6)."""
    found: list[Problem] = []
    for cell in sorted(cards, key=reading_order):
        card = cards[cell]
        if cell not in surface:
            found.append(
                Problem(
                    "off-surface", (cell,), f"{card.text()} at {cell.text()} is off the surface"
                )
            )
        for near in (cell.neighbour(Direction.EAST), cell.neighbour(Direction.SOUTH)):
            other = cards.get(near)
            if other is not None and not compatible(card, other):
                found.append(
                    Problem(
                        "mismatch",
                        (cell, near),
                        f"{card.text()} at {cell.text()} and {other.text()} at {near.text()} "
                        f"share {' and '.join(shared(card, other)) or 'nothing'}",
                    )
                )
    seen: dict[Card, list[Cell]] = {}
    for cell, card in cards.items():
        seen.setdefault(card, []).append(cell)
    for card, cells in sorted(seen.items(), key=lambda kv: kv[0].text()):
        cells.sort(key=reading_order)
        if card.is_plain and len(cells) > 1:
            found.append(
                Problem("duplicate", tuple(cells), f"{card.text()} lies {len(cells)} times")
            )
        if card.is_wild and wilds is not None and len(cells) > wilds.get(card.colour or "", 2):
            found.append(
                Problem(
                    "too-many-wilds",
                    tuple(cells),
                    f"{len(cells)} x {card.text()}, but the deck holds "
                    f"{wilds.get(card.colour or '', 2)}",
                )
            )
    starts = [c for c, card in cards.items() if card.is_start]
    joined = set(starts)
    todo = list(starts)
    while todo:
        for near in todo.pop().neighbours():
            if near in cards and near not in joined:
                joined.add(near)
                todo.append(near)
    loose = tuple(sorted((c for c in cards if c not in joined), key=reading_order))
    if loose:
        found.append(
            Problem(
                "no-neighbour",
                loose,
                f"{len(loose)} card{'s' * (len(loose) != 1)} not joined to a start card: "
                + ", ".join(c.text() for c in loose),
            )
        )
    return found
