"""Cluster Companion: the rules core of Local Cluster and, on top of it, the table service.

The rules core (everything imported here) is pure Python with no I/O: it parses orders,
adjudicates turns, runs the build phase and records games so they replay exactly.
"""

from companion.adjudication import adjudicate
from companion.atoms import Colour, SectorId, UnitType
from companion.economy import BuildPlan, IncomeStatement, apply_builds, income_statement
from companion.errors import (
    BuildPlanError,
    CompanionError,
    GalaxyError,
    OrderSyntaxError,
    RecordError,
    StateError,
)
from companion.galaxy import Galaxy, Sector, Tile
from companion.game import Game
from companion.generation import generate_layout, populate, random_setup
from companion.orders import Order, OrderKind, OrderSheet
from companion.outcomes import OrderOutcome, OutcomeStatus, TurnResult
from companion.record import GameRecord
from companion.settings import HouseRules, SupportRange
from companion.state import Craft, Empire, Phase, State, Unit

__version__ = "0.1.0"

__all__ = [
    "BuildPlan",
    "BuildPlanError",
    "Colour",
    "CompanionError",
    "Craft",
    "Empire",
    "Galaxy",
    "GalaxyError",
    "Game",
    "GameRecord",
    "HouseRules",
    "IncomeStatement",
    "Order",
    "OrderKind",
    "OrderOutcome",
    "OrderSheet",
    "OrderSyntaxError",
    "OutcomeStatus",
    "Phase",
    "RecordError",
    "Sector",
    "SectorId",
    "State",
    "StateError",
    "SupportRange",
    "Tile",
    "TurnResult",
    "Unit",
    "UnitType",
    "adjudicate",
    "apply_builds",
    "generate_layout",
    "income_statement",
    "populate",
    "random_setup",
]
