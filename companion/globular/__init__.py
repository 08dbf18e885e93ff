"""Globular Cluster: the rules core of the piecepack game (rulebook rev 0.3a plus rulings G1-G8).

Standard library only, no I/O, deterministic: the same settings, seed and lines always give the
same game. One module per concept:

========================  =====================================================================
``tiles``                 suits, ranks, tiles and their kinds (G1), tick corners, crystal types
``geometry``              positions and their names, neighbours, ticks facing, crossing costs (G2)
``stack``                 the removed tiles, the three groups, the starting layout (G1.4, G3.12)
``board``                 the tiles on the table with their pennies, stations and colonists
``placement``             where a drawn tile may go, with the reason when it may not (G3)
``notation``              one line of a turn and a whole turn, parsed and written back (G8.2)
``state``                 every player's pieces, crystals and points; the turn in progress (G8.1)
``scoring``               presence and majority (G5), crystal sets (G6.5), a player's score (G6)
``actions``               each line played on a state: its cost, or why it is refused (G4, G8.4)
``turns``                the order of turns: normal, scoring rounds, supernova turn, the end (G6-G7)
``game``                  a game: settings, seed, every line played, undo within a turn (G8)
``record``                the game as JSON that replays byte for byte (G8.6)
========================  =====================================================================
"""

from __future__ import annotations

GAME = "globular-cluster"
"""The registered name of the game."""
