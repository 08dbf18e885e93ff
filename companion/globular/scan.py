"""A camera's reading of the table, compared with the record (G8.8): every difference is
reported for a person to confirm, and nothing is ever applied.

A :class:`BoardScan` holds one :class:`TileReading` per position the camera saw: the tile's code
(``"mits"`` for the MITS, ``""`` for an empty position), its tick corner, the pennies on it and
each player's coins and leader there. Anything the camera could not read is None, and an
unknown reading is never a difference. Positions of the record the camera did not see at all
are listed as missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.globular.errors import GlobularError
from companion.globular.geometry import Position
from companion.globular.state import State
from companion.globular.tiles import Colour, Corner

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
