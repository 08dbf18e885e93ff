"""Clustered's rules core: cards, the table's grid, legal placements, turns, the end and the
score (rulings K1 to K8, ``docs/rules-clustered.md``). Standard library only, no I/O, and
deterministic; :mod:`.record` (records and their schema) is its one edge.
"""

from companion.clustered.cards import START, Card, Fill, Shape, compatible, deck, shared
from companion.clustered.cells import Cell, Direction
from companion.clustered.errors import (
    DeclarationError,
    NotationError,
    SettingsError,
)
from companion.clustered.game import ClusteredGame, Player, Step, TurnResult
from companion.clustered.layout import Layout
from companion.clustered.legality import IllegalPlacementError, Refusal, Verdict
from companion.clustered.moves import Declaration, Discard, Placement
from companion.clustered.scoring import ScoreSheet, score
from companion.clustered.settings import Palette, Settings, Surface

GAME = "clustered"

__all__ = [
    "GAME",
    "START",
    "Card",
    "Cell",
    "ClusteredGame",
    "Declaration",
    "DeclarationError",
    "Direction",
    "Discard",
    "Fill",
    "IllegalPlacementError",
    "Layout",
    "NotationError",
    "Palette",
    "Placement",
    "Player",
    "Refusal",
    "ScoreSheet",
    "Settings",
    "SettingsError",
    "Shape",
    "Step",
    "Surface",
    "TurnResult",
    "Verdict",
    "compatible",
    "deck",
    "score",
    "shared",
]
