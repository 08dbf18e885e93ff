"""Cluster Companion's core: what every game of the family shares, and one package per game.

Shared here (this top level): the errors (:mod:`companion.errors`), the game registry
(:mod:`companion.games`), record checking (:mod:`companion.records`), the command-line shell
(:mod:`companion.cli`) and the table service (:mod:`companion.service`). Each game's rules
live in a package of its own, found only through its registration (``companion.games``).
The rules packages are pure standard-library Python with no I/O.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
