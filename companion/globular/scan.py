"""A camera's reading of the table, compared with the record (G8.8): every difference is
reported for a person to confirm, and nothing is ever applied.

The camera may also have seen the acting player's turn under way: :func:`explaining_moves`
names the turn parts (a tile placed, coins or the leader moved) that are playable now and
explain what it saw; the service enters the only one as the seat's pending move, to be
confirmed by the seat, or lists several for a person to choose.

A :class:`BoardScan` holds one :class:`TileReading` per position the camera saw: the tile's code
(``"mits"`` for the MITS, ``""`` for an empty position), its tick corner, the pennies on it and
each player's coins and leader there. Anything the camera could not read is None, and an
unknown reading is never a difference. Positions of the record the camera did not see at all
are listed as missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from companion.globular.errors import GlobularError
from companion.globular.geometry import Position
from companion.globular.placement import legal_placements
from companion.globular.state import State
from companion.globular.tiles import Colour, Corner, Tile

Pieces = Mapping[Colour, tuple[int, bool]]
"""Per colour: coins and whether the leader is there."""


@dataclasses.dataclass(frozen=True)
class TileReading:
    position: Position
    code: str | None = None
    """A tile code, ``"mits"``, ``""`` (no tile there) or None (not read)."""
    corner: Corner | None = None
    pennies: int | None = None
    pieces: Pieces | None = None


@dataclasses.dataclass(frozen=True)
class BoardScan:
    tiles: tuple[TileReading, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardScan:
        """``{"k7": {"tile": "bka", "corner": "tr", "pennies": 1,
        "pieces": {"red": {"coins": 3, "leader": false}}}, ...}``; keys left out are unknown."""
        readings = []
        for name, raw in sorted(data.items()):
            try:
                position = Position.parse(name)
                corner = Corner.parse(raw["corner"]) if raw.get("corner") else None
                pieces = None
                if raw.get("pieces") is not None:
                    pieces = {
                        Colour.parse(colour): (int(p.get("coins", 0)), bool(p.get("leader")))
                        for colour, p in raw["pieces"].items()
                    }
            except (GlobularError, AttributeError, TypeError, ValueError) as err:
                why = err.reason if isinstance(err, GlobularError) else str(err)
                raise GlobularError(f"the scan's reading of {name!r}: {why}", "G8.8") from None
            pennies = raw.get("pennies")
            readings.append(
                TileReading(
                    position,
                    None if raw.get("tile") is None else str(raw["tile"]).lower(),
                    corner,
                    None if pennies is None else int(pennies),
                    pieces,
                )
            )
        return cls(tuple(readings))

    def to_dict(self) -> dict[str, Any]:
        """The form :meth:`from_dict` reads; unknown readings left out."""
        out: dict[str, Any] = {}
        for reading in self.tiles:
            raw: dict[str, Any] = {}
            if reading.code is not None:
                raw["tile"] = reading.code
            if reading.corner is not None:
                raw["corner"] = reading.corner.value
            if reading.pennies is not None:
                raw["pennies"] = reading.pennies
            if reading.pieces is not None:
                raw["pieces"] = {
                    colour.value: {"coins": coins, "leader": leader}
                    for colour, (coins, leader) in reading.pieces.items()
                }
            out[reading.position.name()] = raw
        return out


def compare(state: State, scan: BoardScan) -> dict[str, Any]:
    """``{"discrepancies": [{"sector", "message"}], "missing": [names]}`` (G8.8)."""
    board = state.board
    problems: list[dict[str, str]] = []
    seen = set()

    def say(position: Position, message: str) -> None:
        problems.append({"sector": position.name(), "message": f"{position.name()}: {message}"})

    for reading in scan.tiles:
        position = reading.position
        seen.add(position)
        cell = board.get(position)
        if reading.code is not None:
            if cell is None and reading.code:
                say(position, f"the camera sees {reading.code} where the record has no tile")
                continue
            if cell is not None and not reading.code:
                say(position, f"the record has {cell.words()} ({cell.code}); the camera sees none")
                continue
            if cell is not None and reading.code != cell.code:
                say(position, f"the record has {cell.code}, the camera sees {reading.code}")
                continue
        if cell is None:
            continue
        if reading.corner is not None and cell.corner is not None and reading.corner != cell.corner:
            say(
                position,
                f"the tick is in the {cell.corner.words} corner in the record, the camera sees "
                f"it {reading.corner.words}",
            )
        if reading.pennies is not None and reading.pennies != cell.pennies:
            say(
                position,
                f"the record has {cell.pennies} pennies, the camera sees {reading.pennies}",
            )
        if reading.pieces is not None:
            for player in state.players:
                coins, leader = reading.pieces.get(player.colour, (0, False))
                if coins != player.coins_at(position):
                    say(
                        position,
                        f"{player.colour.value} has {player.coins_at(position)} coins there in "
                        f"the record, the camera sees {coins}",
                    )
                if leader != (player.leader == position):
                    where = "there" if player.leader == position else "elsewhere"
                    say(
                        position,
                        f"{player.colour.value}'s leader is {where} in the record, the camera "
                        f"sees it {'there' if leader else 'not there'}",
                    )
    missing = [p.name() for p in sorted(board.cells) if p not in seen]
    return {"discrepancies": problems, "missing": missing}


def explaining_moves(state: State, scan: BoardScan, playable: Callable[[str], bool]) -> list[str]:
    """The turn parts the acting player may have just played at the table that explain what
    the camera saw, each one ``playable`` now (G8.8): the drawn tile placed where a new tile
    shows (``draw`` first with a physical stack, G3.13), then coins or the leader moved from
    the one position the camera sees fewer of them to the one it sees more. Several when the
    reading leaves a choice (an unread tick corner, two detours); none when nothing explains
    it. Pieces are taken to have gone the plainest way that is playable: a step to a
    neighbour, else a detour through one tile, else a warp.
    """
    placements = _seen_placements(state, scan) or [""]
    for moves in _seen_moves(state, scan) or [[""]]:
        found = [
            text
            for place in placements
            for move in moves
            if (text := "\n".join(line for line in (place, move) if line)) and playable(text)
        ]
        if found:
            return found
    return []


def _seen_placements(state: State, scan: BoardScan) -> list[str]:
    new = [
        reading
        for reading in scan.tiles
        if reading.code and reading.code != "mits" and state.board.get(reading.position) is None
    ]
    if len(new) != 1:
        return []  # one part of one turn places at most one tile
    seen, turn = new[0], state.turn
    draw = ""
    if turn.to_place is not None:
        tile = turn.to_place
        if seen.code != tile.code():
            return []
    elif turn.awaiting_draw:
        try:
            tile = Tile.parse(seen.code or "")
        except GlobularError:
            return []
        draw = f"draw {tile.code()}\n"
    else:
        return []
    corners = legal_placements(state.board, tile).get(seen.position, ())
    return [
        f"{draw}place {seen.position.name()} {corner.value}"
        for corner in corners
        if seen.corner in (None, corner)
    ]


def _seen_moves(state: State, scan: BoardScan) -> list[list[str]]:
    """The moves that explain the acting player's pieces as seen, plainest first."""
    player = state.acting
    fewer: list[tuple[Position, int]] = []
    more: list[tuple[Position, int]] = []
    leader_from = leader_to = None
    for reading in scan.tiles:
        if reading.pieces is None:
            continue
        coins, leader = reading.pieces.get(player.colour, (0, False))
        change = coins - player.coins_at(reading.position)
        if change < 0:
            fewer.append((reading.position, -change))
        elif change > 0:
            more.append((reading.position, change))
        if player.leader == reading.position and not leader:
            leader_from = reading.position
        elif leader and player.leader != reading.position:
            leader_to = reading.position
    if len(fewer) == 1 and len(more) == 1 and fewer[0][1] == more[0][1] and not leader_from:
        if leader_to is not None:
            return []
        (start, count), (end, _) = fewer[0], more[0]
        what = "" if count == 1 else f" x{count}"
    elif not fewer and not more and leader_from is not None and leader_to is not None:
        start, end, what = leader_from, leader_to, " leader"
    else:
        return []
    detours = [
        f"move {start.name()}>{middle.name()}>{end.name()}{what}"
        for middle in start.neighbours()
        if middle in end.neighbours() and state.board.get(middle) is not None
    ]
    direct = [f"move {start.name()}>{end.name()}{what}"] if end in start.neighbours() else []
    return [direct, detours, [f"warp {start.name()}>{end.name()}{what}"]]
