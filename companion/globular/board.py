"""The tiles on the table: each with its tick, pennies, station and colonist (G8.1), and the
crossings between them (G2.8 to G2.10)."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterator

from companion.globular.geometry import MITS, Position, faces, tick_cost
from companion.globular.tiles import Colour, Corner, Tile, TileKind


@dataclasses.dataclass(frozen=True)
class Colonist:
    """The piece a player set on a colonized tile's pennies (G4.12)."""

    colour: Colour
    leader: bool = False

    @property
    def piece(self) -> str:
        return "leader" if self.leader else "coin"


@dataclasses.dataclass
class Cell:
    """One tile on the board; ``tile`` is None for the MITS (face down, no tick: G2.9)."""

    tile: Tile | None
    corner: Corner | None
    pennies: int = 0
    station: Colour | None = None
    colonist: Colonist | None = None

    @property
    def kind(self) -> TileKind:
        return TileKind.MITS if self.tile is None else self.tile.kind

    @property
    def code(self) -> str:
        return "mits" if self.tile is None else self.tile.code()

    @property
    def value(self) -> int:
        """A habitable tile's value: its number plus its pennies (G4.11); 0 for other kinds."""
        if self.kind is not TileKind.HABITABLE:
            return 0
        assert self.tile is not None and self.tile.number is not None
        return self.tile.number + self.pennies

    def words(self) -> str:
        return "the MITS" if self.tile is None else f"the {self.tile.words()}"

    def to_dict(self) -> dict[str, object]:
        return {
            "tile": self.code,
            "corner": None if self.corner is None else self.corner.value,
            "pennies": self.pennies,
            "station": None if self.station is None else self.station.value,
            "colonist": None
            if self.colonist is None
            else {"colour": self.colonist.colour.value, "piece": self.colonist.piece},
        }


def cell_crossing(a: Position, cell_a: Cell, b: Position, cell_b: Cell) -> int | None:
    """AP to cross between neighbours ``a`` and ``b`` holding these cells, or None if
    impassable: a supernova never (G2.10), the MITS when the other tile's tick faces it
    (G2.9), two tiles by their ticks (G2.8)."""
    if TileKind.SUPERNOVA in (cell_a.kind, cell_b.kind):
        return None
    if cell_a.corner is None or cell_b.corner is None:
        tile, corner, mits = (
            (b, cell_b.corner, a) if cell_a.corner is None else (a, cell_a.corner, b)
        )
        if corner is None:  # pragma: no cover - there is one MITS
            return None
        direction = tile.direction_to(mits)
        assert direction is not None
        return 1 if faces(tile, corner, direction) else None
    return tick_cost(a, cell_a.corner, b, cell_b.corner)


class Board:
    """Positions to cells. The MITS is always at m7."""

    def __init__(self, cells: dict[Position, Cell] | None = None) -> None:
        self.cells: dict[Position, Cell] = cells if cells is not None else {MITS: Cell(None, None)}

    def copy(self) -> Board:
        return Board(
            {
                p: Cell(c.tile, c.corner, c.pennies, c.station, c.colonist)
                for p, c in self.cells.items()
            }
        )

    def __contains__(self, position: object) -> bool:
        return position in self.cells

    def __getitem__(self, position: Position) -> Cell:
        return self.cells[position]

    def get(self, position: Position) -> Cell | None:
        return self.cells.get(position)

    def __iter__(self) -> Iterator[Position]:
        return iter(sorted(self.cells))

    def __len__(self) -> int:
        return len(self.cells)

    def place(self, position: Position, tile: Tile, corner: Corner, pennies: int = 0) -> None:
        self.cells[position] = Cell(tile, corner, pennies)

    def crossing(self, a: Position, b: Position) -> int | None:
        """AP to cross between two neighbouring tiles on the board, or None if impassable."""
        return cell_crossing(a, self.cells[a], b, self.cells[b])

    def crossings(self) -> list[tuple[Position, Position, int | None]]:
        """Every pair of neighbouring tiles once, with its cost (None: impassable)."""
        out = []
        for a in sorted(self.cells):
            for b in a.neighbours():
                if b in self.cells and a < b:
                    out.append((a, b, self.crossing(a, b)))
        return out

    def reachable(self, start: Position = MITS) -> set[Position]:
        """Tiles connected to ``start`` by crossings that are not impassable (G3.8)."""
        seen = {start}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for there in here.neighbours():
                if (
                    there in self.cells
                    and there not in seen
                    and self.crossing(here, there) is not None
                ):
                    seen.add(there)
                    todo.append(there)
        return seen

    def habitable(self) -> list[Position]:
        return [p for p in sorted(self.cells) if self.cells[p].kind is TileKind.HABITABLE]
