"""Solo play (K8): the scoring profile a personal best is kept under, and how a finished solo
game stands against the best so far.

The rules only judge; where the bests are kept is the service's business
(:mod:`companion.clustered.bests`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from typing import Any

from companion.clustered.game import ClusteredGame
from companion.errors import StateError


def name_key(name: str) -> str:
    """K8.3: player names compare ignoring case and surrounding spaces."""
    return " ".join(name.split()).casefold()


@dataclasses.dataclass(frozen=True)
class Profile:
    """K8.3: what a personal best is kept per, besides the player's name."""

    wilds: int
    quick_play: bool
    first_bonuses: bool
    largest_bonuses: bool
    surface: str
    start_cards: int
    """The number of start cards on the table (``auto`` is 1 in a solo game, K8.1)."""

    def key(self) -> str:
        return (
            f"wilds={self.wilds};quick={int(self.quick_play)};first={int(self.first_bonuses)};"
            f"largest={int(self.largest_bonuses)};surface={self.surface};"
            f"starts={self.start_cards}"
        )

    def words(self) -> str:
        parts = [f"{self.wilds} wild cards"]
        if self.quick_play:
            parts.append("quick play")
        if self.first_bonuses:
            parts.append("first-to-achieve bonuses")
        if self.largest_bonuses:
            parts.append("largest-feature bonuses")
        if self.surface != "unbounded":
            parts.append(f"surface {self.surface}")
        if self.start_cards != 1:
            parts.append(f"{self.start_cards} start cards")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        return cls(**data)


def profile_of(game: ClusteredGame) -> Profile:
    """The profile of a solo game (StateError for a game with more than one seat)."""
    if len(game.players) != 1:
        raise StateError("only a solo game has a personal best (K8.5)")
    settings = game.settings
    return Profile(
        wilds=settings.wilds(game.players[0].colour),
        quick_play=settings.quick_play,
        first_bonuses=settings.first_bonuses,
        largest_bonuses=settings.largest_bonuses,
        surface=settings.surface.text(),
        start_cards=settings.start_count(1),
    )


def counts(game: ClusteredGame) -> bool:
    """K8.5: only a finished (not stopped) solo game may set or change a personal best."""
    return len(game.players) == 1 and game.finished


@dataclasses.dataclass(frozen=True)
class SoloResult:
    """A finished solo game as a personal best is kept (K8.3): who, under which profile, the
    total, when (seconds since the epoch) and the score sheet."""

    name: str
    profile: Profile
    total: int
    at: float
    sheet: Mapping[str, Any]
    source: str = ""
    """Where the game is kept (a table id), so a best can be told from the game just ended."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "profile": self.profile.to_dict(),
            "total": self.total,
            "at": self.at,
            "sheet": dict(self.sheet),
            "source": self.source,
        }


def best_of(results: Iterable[SoloResult]) -> SoloResult | None:
    """K8.4: the highest total; of equal totals the earliest stays the best."""
    best: SoloResult | None = None
    for result in sorted(results, key=lambda r: (r.at, r.source)):
        if best is None or result.total > best.total:
            best = result
    return best


class Standing(enum.Enum):
    """How a finished solo game stands against the best before it (K8.4)."""

    FIRST = "first"
    """The first finished game under this name and profile: it sets the best."""
    NEW_BEST = "new-best"
    MATCHED = "matched"
    BELOW = "below"


def judge(previous: SoloResult | None, total: int) -> Standing:
    if previous is None:
        return Standing.FIRST
    if total > previous.total:
        return Standing.NEW_BEST
    if total == previous.total:
        return Standing.MATCHED
    return Standing.BELOW


def announcement(previous: SoloResult | None, total: int) -> str:
    """K8.4, K8.6: the result against the best, in words."""
    standing = judge(previous, total)
    if standing is Standing.FIRST:
        return f"{total} points: the first personal best under this profile"
    assert previous is not None
    if standing is Standing.NEW_BEST:
        return f"{total} points: a new personal best (it was {previous.total})"
    if standing is Standing.MATCHED:
        return f"{total} points: matching the personal best (the earlier game stays the best)"
    return f"{total} points; the personal best is {previous.total}"
