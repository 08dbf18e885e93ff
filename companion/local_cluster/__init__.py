"""Local Cluster's rules core: orders, adjudication, the build phase and game records.

The rules core (everything imported here) is pure Python with no I/O: it parses orders,
adjudicates turns, runs the build phase and records games so they replay exactly.
"""

from companion.errors import CompanionError, OrderSyntaxError, RecordError, StateError
from companion.local_cluster.adjudication import adjudicate
from companion.local_cluster.atoms import Colour, SectorId, UnitType
from companion.local_cluster.economy import (
    BuildPlan,
    IncomeStatement,
    apply_builds,
    income_statement,
)
from companion.local_cluster.errors import BuildPlanError, GalaxyError
from companion.local_cluster.galaxy import Galaxy, Sector, Tile
from companion.local_cluster.game import Game
from companion.local_cluster.generation import generate_layout, populate, random_setup
from companion.local_cluster.orders import Order, OrderKind, OrderSheet
from companion.local_cluster.outcomes import OrderOutcome, OutcomeStatus, TurnResult
from companion.local_cluster.record import GameRecord
from companion.local_cluster.settings import HouseRules, SupportRange
from companion.local_cluster.state import Craft, Empire, Phase, State, Unit

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
