"""The end of a turn: eliminations (R7.2), a win (R7.1), the turn limit (R7.3), and which
phase comes next (a build phase after every second turn, R6)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from operator import itemgetter

from companion.local_cluster.atoms import Colour
from companion.local_cluster.state import BUILD, ORDERS, OVER, State


def score(state: State, colour: Colour) -> tuple[int, int]:
    """What R7.3 ranks by: sectors claimed, then their total mineral value."""
    sectors = state.sectors_of(colour)
    return (len(sectors), sum(state.galaxy.minerals(s) for s in sectors))


def standings(state: State) -> tuple[Colour, ...]:
    """Empires best first by :func:`score`; equal scores keep seat order."""

    def key(colour: Colour) -> tuple[int, int, int]:
        sectors, value = score(state, colour)
        return (-sectors, -value, state.empire(colour).seat)

    return tuple(sorted((e.colour for e in state.empires), key=key))


def places(state: State) -> tuple[tuple[int, Colour], ...]:
    """Each empire with its place in :func:`standings`; empires equal on sectors and minerals
    share a place (1, 1, 3: R7.3 ranks by those two and nothing else)."""
    out: list[tuple[int, Colour]] = []
    for index, colour in enumerate(standings(state)):
        if out and score(state, colour) == score(state, out[-1][1]):
            out.append((out[-1][0], colour))
        else:
            out.append((index + 1, colour))
    return tuple(out)


def leaders(state: State) -> tuple[Colour, ...]:
    """The empires in first place: one, or several sharing the lead (R7.3)."""
    return tuple(colour for place, colour in places(state) if place == 1)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_words(state: State) -> str:
    """How a finished game ended, in one sentence for every screen (R7.1, R7.3): a shared lead
    names nobody as the winner."""
    winner = state.winner
    if winner is not None and len(state.sectors_of(winner)) == len(state.galaxy.ids):
        return f"{winner.title} claims every sector and wins the game (R7.1)."
    sectors, minerals = score(state, leaders(state)[0])
    counts = f"{sectors} sector{'s' * (sectors != 1)} and {minerals} mineral{'s' * (minerals != 1)}"
    if winner is not None:
        return (
            f"{winner.title} wins at the turn limit, leading on sectors claimed and mineral "
            f"value ({counts}) (R7.3)."
        )
    names = _and([colour.title for colour in leaders(state)])
    return (
        f"The turn limit is reached with the lead shared by {names} ({counts} each): "
        "no single winner (R7.3)."
    )


def conclude_turn(state: State) -> tuple[State, tuple[str, ...]]:
    """Settle a turn whose retreats are done: R7.2, R7.1, R7.3, then the next phase."""
    notes: list[str] = []
    claimed_by = Counter(map(itemgetter(1), state.claims))
    alive = {u.owner for u in state.units}.union(claimed_by)
    if any(not e.eliminated and e.colour not in alive for e in state.empires):
        empires = []
        for empire in state.empires:
            if not empire.eliminated and empire.colour not in alive:
                empire = dataclasses.replace(empire, eliminated=True)
                notes.append(
                    f"{empire.colour.title} has no units and no claims left: eliminated (R7.2)"
                )
            empires.append(empire)
        state = state.replace(empires=empires, check=False)
    total = len(state.galaxy.ids)
    for colour in state.active_colours:
        if claimed_by[colour] == total:
            notes.append(f"{colour.title} claims every sector and wins the game (R7.1)")
            ranking = standings(state)
            over = state.replace(phase=OVER, winner=colour, ranking=ranking, check=False)
            return over, tuple(notes)
    limit = state.rules.turn_limit
    if limit is not None and state.turn >= limit:
        ranking = standings(state)
        leader = ranking[0]
        tied = len(ranking) > 1 and score(state, ranking[1]) == score(state, leader)
        if tied:
            notes.append(
                f"the turn limit of {limit} is reached with the lead shared on sectors and "
                "minerals: no single winner (R7.3)"
            )
        else:
            notes.append(
                f"the turn limit of {limit} is reached; {leader.title} leads on sectors claimed "
                "and mineral value and wins (R7.3)"
            )
        over = state.replace(
            phase=OVER, ranking=ranking, winner=None if tied else leader, check=False
        )
        return over, tuple(notes)
    if state.turn % 2 == 0:
        return state.replace(phase=BUILD, check=False), tuple(notes)
    return state.replace(phase=ORDERS, turn=state.turn + 1, check=False), tuple(notes)
