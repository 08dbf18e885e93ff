"""Local Cluster's own errors (the shared ones are in :mod:`companion.errors`)."""

from __future__ import annotations

from companion.errors import CompanionError


class GalaxyError(CompanionError, ValueError):
    """A galaxy that cannot be played on: unknown or repeated ids, a disconnected map, ..."""


class BuildPlanError(CompanionError, ValueError):
    """A build plan that cannot be carried out; ``reasons`` lists every problem found."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = tuple(reasons)
        super().__init__("; ".join(reasons))
