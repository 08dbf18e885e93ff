"""Cluster, the two-player peg game (issue 16): its rules core, standard library only, no I/O.

Rulebook ``seeds/cluster-peg-game-rules.txt``, settled by the rulings ``P...`` in
``rules/cluster-peg-rulings.md``; ``docs/rules-cluster.md`` restates each ruling with the tests
that pin it. The modules, each one step of the game:

- :mod:`.atoms`: colours, peg kinds, pegs and their heights (P2).
- :mod:`.board`: the two boards, hole names, depths, neighbours and lines (P1).
- :mod:`.position`: a position as bitboards, its text (P6.4 to P6.6), the setups (P3).
- :mod:`.moves`: moves and their notation (P6.2), generation, refusals (P4).
- :mod:`.goal`: who meets the goal, and the winning group (P5.1 to P5.5).
- :mod:`.game`: a game from its start: moves, the win, draws, resignation, swap (P4, P5).
- :mod:`.record`: game records, as text (P6.7) and as JSON with a schema.
- :mod:`.perft`: perft counts (P4.10).
- :mod:`.bot`: the computer opponent; :mod:`.players`: random and greedy movers.
- :mod:`.scan`: a camera's reading of the holes, and the move it shows (P6.3).
"""
