"""Everything the companion tracks (G8.1): the board, the stack, each player's pieces, crystals
and points, the turn in progress and the turns to come, and the scoring rounds held.

A :class:`State` is plain data with a :meth:`State.copy`; the rules (``actions``, ``turns``)
play a line on a copy and keep it only when the whole line is allowed (G8.5).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections import Counter
from typing import Any

from companion.globular.board import Board
from companion.globular.geometry import MITS, Position
from companion.globular.tiles import Colour, Crystal, Tile

AP_PER_TURN = 10
"""Each turn has 10 AP (G4.2)."""
COINS = 12
STATIONS = 2
LEADER_WEIGHT = 3
"""A leader counts as three members (G4.3, G5.1)."""


class TurnKind(enum.Enum):
    """The kinds of turn (G4.1)."""

    NORMAL = "normal"
    """Draw and place a tile, then 10 AP (G3.1)."""
    SCORING = "scoring"
    """A scoring-round turn: no tile, 10 AP, then this player scores (G6.2)."""
    SUPERNOVA = "supernova"
    """Place the set-aside supernova, then 10 AP; no scoring (G6.3)."""
    END = "end"
    """After the last tile: no tile, 10 AP, no scoring (G7.2)."""
    FINAL = "final"
    """The final scoring round: no tile, 10 AP, then this player scores (G7.3)."""

    @property
    def scores(self) -> bool:
        return self in (TurnKind.SCORING, TurnKind.FINAL)

    @property
    def title(self) -> str:
        return {
            TurnKind.NORMAL: "Turn",
            TurnKind.SCORING: "Scoring round",
            TurnKind.SUPERNOVA: "Supernova turn",
            TurnKind.END: "Last turns",
            TurnKind.FINAL: "Final scoring round",
        }[self]


@dataclasses.dataclass
class PlayerState:
    """One player's pieces, crystals and points (G1.6, G1.7, G8.1)."""

    colour: Colour
    coins: dict[Position, int] = dataclasses.field(default_factory=lambda: {MITS: COINS})
    leader: Position | None = MITS
    """Where the leader stands; None once it is the colonist or has left the game."""
    leader_out: bool = False
    coins_out: int = 0
    """Coins that left the game when their player colonized (G4.12)."""
    crystals: dict[Crystal, int] = dataclasses.field(
        default_factory=lambda: dict.fromkeys(Crystal, 0)
    )
    stations: list[Position] = dataclasses.field(default_factory=list)
    colony: Position | None = None
    vp: int = 0
    scores: list[Score] = dataclasses.field(default_factory=list)

    def copy(self) -> PlayerState:
        return dataclasses.replace(
            self,
            coins=dict(self.coins),
            crystals=dict(self.crystals),
            stations=list(self.stations),
            scores=list(self.scores),
        )

    def coins_at(self, position: Position) -> int:
        return self.coins.get(position, 0)

    def presence(self, position: Position) -> int:
        """Coins there plus 3 if the leader is there (G5.1, G4.3)."""
        return self.coins_at(position) + (LEADER_WEIGHT if self.leader == position else 0)

    def add_coins(self, position: Position, count: int) -> None:
        left = self.coins.get(position, 0) + count
        if left:
            self.coins[position] = left
        else:
            self.coins.pop(position, None)

    @property
    def stations_left(self) -> int:
        return STATIONS - len(self.stations)

    @property
    def colonist(self) -> int:
        """1 once the player has colonized (its colonist is a coin or the leader)."""
        return 1 if self.colony is not None else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "colour": self.colour.value,
            "coins": {p.name(): n for p, n in sorted(self.coins.items())},
            "leader": None if self.leader is None else self.leader.name(),
            "leader_out": self.leader_out,
            "coins_out": self.coins_out,
            "crystals": {c.value: self.crystals[c] for c in Crystal},
            "stations": [p.name() for p in self.stations],
            "stations_left": self.stations_left,
            "colony": None if self.colony is None else self.colony.name(),
            "vp": self.vp,
            "scores": [s.to_dict() for s in self.scores],
        }


@dataclasses.dataclass(frozen=True)
class Holding:
    """A habitable tile at a scoring: its value and who holds it (G5, G6.4)."""

    position: Position
    tile: Tile
    value: int
    holder: Colour | None
    colonized: bool
    presence: tuple[tuple[Colour, int], ...]
    """Each player's presence there, largest first (only those with some)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position.name(),
            "tile": self.tile.code(),
            "value": self.value,
            "holder": None if self.holder is None else self.holder.value,
            "colonized": self.colonized,
            "presence": {c.value: n for c, n in self.presence},
        }


@dataclasses.dataclass(frozen=True)
class CrystalSets:
    """One crystal type's sets (G6.5) and their points (G6.6)."""

    crystal: Crystal
    count: int
    triplets: int
    pairs: int
    singles: int

    @property
    def points(self) -> int:
        return 6 * self.triplets + 3 * self.pairs + self.singles

    def to_dict(self) -> dict[str, Any]:
        return {
            "crystal": self.crystal.value,
            "count": self.count,
            "triplets": self.triplets,
            "pairs": self.pairs,
            "singles": self.singles,
            "points": self.points,
        }


@dataclasses.dataclass(frozen=True)
class Score:
    """One player's score at one scoring (G6.4): each tile scored, each set, the sum."""

    round: int
    """The scoring round it belongs to (1, 2, ...; the final one is the last)."""
    final: bool
    tiles: tuple[Holding, ...]
    sets: tuple[CrystalSets, ...]

    @property
    def tile_points(self) -> int:
        return sum(h.value for h in self.tiles)

    @property
    def crystal_points(self) -> int:
        return sum(s.points for s in self.sets)

    @property
    def total(self) -> int:
        return self.tile_points + self.crystal_points

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "final": self.final,
            "tiles": [h.to_dict() for h in self.tiles],
            "sets": [s.to_dict() for s in self.sets],
            "tile_points": self.tile_points,
            "crystal_points": self.crystal_points,
            "total": self.total,
        }


@dataclasses.dataclass(frozen=True)
class Round:
    """A scoring round (G6.2, G7.3): what started it and the board at each player's scoring."""

    number: int
    final: bool
    drawer: int | None
    """The seat that drew its supernova (None for the final round)."""
    holdings: tuple[tuple[int, tuple[Holding, ...]], ...] = ()
    """Per seat that has scored in it, every habitable tile and who held it then."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "final": self.final,
            "drawer": self.drawer,
            "holdings": {str(seat): [h.to_dict() for h in hs] for seat, hs in self.holdings},
        }


@dataclasses.dataclass
class TurnState:
    """The turn in progress (G8.1): seat, kind, AP left, and the per-turn limits (G4.14)."""

    number: int
    seat: int
    kind: TurnKind
    ap: int = AP_PER_TURN
    awaiting_draw: bool = False
    """A physical stack: the turn waits for the drawn tile to be entered (G3.13)."""
    to_place: Tile | None = None
    """The drawn tile (or the supernova) that must be placed before any action (G3.1)."""
    drawn: Tile | None = None
    """The tile drawn this turn, whatever became of it."""
    placed: Position | None = None
    set_aside: Tile | None = None
    """A tile that could not be placed this turn (G3.10)."""
    mined_at: Position | None = None
    mined: int = 0
    improved: dict[Position, int] = dataclasses.field(default_factory=dict)

    def copy(self) -> TurnState:
        return dataclasses.replace(self, improved=dict(self.improved))

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seat": self.seat,
            "kind": self.kind.value,
            "ap": self.ap,
            "awaiting_draw": self.awaiting_draw,
            "to_place": None if self.to_place is None else self.to_place.code(),
            "drawn": None if self.drawn is None else self.drawn.code(),
            "placed": None if self.placed is None else self.placed.name(),
            "set_aside": None if self.set_aside is None else self.set_aside.code(),
            "mined_at": None if self.mined_at is None else self.mined_at.name(),
            "mined": self.mined,
            "improved": {p.name(): n for p, n in sorted(self.improved.items())},
        }


@dataclasses.dataclass
class State:
    """The whole game at one moment."""

    players: list[PlayerState]
    """In seat order: seat 1 is ``players[0]`` (G1.10)."""
    board: Board
    stack: list[Tile]
    """The tiles left in the stack; top first when the companion keeps it (G3.13)."""
    turn: TurnState
    upcoming: list[tuple[int, TurnKind]] = dataclasses.field(default_factory=list)
    """Turns already decided (a scoring round's, the last ones), before normal turns resume."""
    supernova: Tile | None = None
    """The supernova set aside until its drawer's supernova turn (G6.1, G6.3)."""
    set_aside: list[Tile] = dataclasses.field(default_factory=list)
    """Tiles that could not be placed (G3.10): out of the game."""
    rounds: list[Round] = dataclasses.field(default_factory=list)
    rolls: int = 0
    """Dice the companion has rolled so far: the next roll is the game's roll number ``rolls``."""
    over: bool = False

    def copy(self) -> State:
        return dataclasses.replace(
            self,
            players=[p.copy() for p in self.players],
            board=self.board.copy(),
            stack=list(self.stack),
            turn=self.turn.copy(),
            upcoming=list(self.upcoming),
            set_aside=list(self.set_aside),
            rounds=list(self.rounds),
        )

    def player(self, seat: int) -> PlayerState:
        return self.players[seat - 1]

    @property
    def acting(self) -> PlayerState:
        return self.player(self.turn.seat)

    def seat_of(self, colour: Colour) -> int | None:
        for seat, player in enumerate(self.players, start=1):
            if player.colour is colour:
                return seat
        return None

    @property
    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def to_dict(self) -> dict[str, Any]:
        """Everything public, as plain data (the stack by code: its order is hidden)."""
        return {
            "players": [p.to_dict() for p in self.players],
            "board": {p.name(): self.board[p].to_dict() for p in self.board},
            "stack": {t.code(): n for t, n in sorted(Counter(self.stack).items())},
            "stack_size": len(self.stack),
            "turn": self.turn.to_dict(),
            "upcoming": [[seat, kind.value] for seat, kind in self.upcoming],
            "supernova": None if self.supernova is None else self.supernova.code(),
            "set_aside": [t.code() for t in self.set_aside],
            "rounds": [r.to_dict() for r in self.rounds],
            "rolls": self.rolls,
            "over": self.over,
        }

    def digest(self) -> str:
        """A short fingerprint of the position, for records (G8.6): everything that decides
        what happens next (each score's breakdown follows from the positions that made it, so
        only the totals are in)."""
        board = [
            (
                p.q,
                p.r,
                c.code,
                c.corner and c.corner.value,
                c.pennies,
                c.station and c.station.value,
                c.colonist and (c.colonist.colour.value, c.colonist.leader),
            )
            for p, c in sorted(self.board.cells.items())
        ]
        players = [
            (
                p.colour.value,
                sorted((q.q, q.r, n) for q, n in p.coins.items()),
                p.leader and (p.leader.q, p.leader.r),
                p.leader_out,
                p.coins_out,
                [p.crystals[c] for c in Crystal],
                [(s.q, s.r) for s in p.stations],
                p.colony and (p.colony.q, p.colony.r),
                p.vp,
                len(p.scores),
            )
            for p in self.players
        ]
        turn = self.turn.to_dict()
        text = json.dumps(
            [
                board,
                players,
                [t.code() for t in self.stack],
                turn,
                [[s, k.value] for s, k in self.upcoming],
                self.supernova and self.supernova.code(),
                [t.code() for t in self.set_aside],
                len(self.rounds),
                self.rolls,
                self.over,
            ],
            separators=(",", ":"),
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]
