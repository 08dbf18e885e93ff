"""Where a drawn tile may go and with which tick corner (G3.2 to G3.9), with the reason when
it may not, in the order G8.4 gives: G3.6, G3.2, G3.3, G3.5, G3.4, G3.8."""

from __future__ import annotations

from collections import deque

from companion.globular.board import Board, Cell, cell_crossing
from companion.globular.errors import Refusal
from companion.globular.geometry import MITS, Position
from companion.globular.tiles import CORNERS, Corner, Tile, TileKind

MAX_ROWS = 7
"""At most 7 rows with at most 12 half tiles of width, or 6 rows with 14 (G3.5)."""


def extent(positions: list[Position] | set[Position]) -> tuple[int, int, int, int]:
    """The smallest rectangle around tiles at ``positions``: (left, right) edges in half tiles,
    (top, bottom) rows."""
    left = min(p.q for p in positions)
    right = max(p.q for p in positions) + 2
    top = min(p.r for p in positions)
    bottom = max(p.r for p in positions)
    return left, right, top, bottom


def fits_rectangle(positions: list[Position] | set[Position]) -> bool:
    """G3.5: at most 6 tiles wide and 7 rows high, or 7 tiles wide and 6 rows high."""
    left, right, top, bottom = extent(positions)
    rows, width = bottom - top + 1, right - left
    return (rows <= MAX_ROWS and width <= 12) or (rows <= MAX_ROWS - 1 and width <= 14)


def holes(occupied: set[Position]) -> list[Position]:
    """Empty positions inside the smallest rectangle around the tiles from which no chain of
    empty neighbours leads outside it (G3.4). A position not wholly inside the rectangle is
    outside; positions right of the MITS are empty, so they lead outside."""
    left, right, top, bottom = extent(occupied)

    def outside(p: Position) -> bool:
        return p.r < top or p.r > bottom or p.q < left or p.q + 2 > right

    inside = [
        Position(r, q)
        for r in range(top, bottom + 1)
        for q in range(left, right - 1)
        if (q + r) % 2 == 0 and Position(r, q) not in occupied
    ]
    if not inside:
        return []
    free = set(inside)
    reached: set[Position] = set()
    todo = deque(p for p in inside if any(outside(n) for n in p.neighbours()))
    reached.update(todo)
    while todo:
        here = todo.popleft()
        for there in here.neighbours():
            if there in free and there not in reached:
                reached.add(there)
                todo.append(there)
    return sorted(free - reached)


def position_refusal(board: Board, position: Position) -> Refusal | None:
    """Why no tile may go at ``position`` now, whatever its tick (G3.6, G3.2, G3.3, G3.5,
    G3.4), or None."""
    name = position.name()
    if position.q > 0:
        return Refusal(
            f"{name} lies past the right-hand edge of the MITS: column m is the last", "G3.6"
        )
    if not position.exists:
        return Refusal(
            f"{name} is not a place in the half-offset rows: in this row tiles sit at "
            f"{_row_letters(position.r)}",
            "G3.2",
        )
    if position in board:
        return Refusal(f"{name} already holds {board[position].words()}", "G3.2")
    if not any(n in board for n in position.neighbours()):
        return Refusal(f"{name} touches no tile: the board must stay one group", "G3.3")
    occupied = set(board.cells) | {position}
    if not fits_rectangle(occupied):
        left, right, top, bottom = extent(occupied)
        return Refusal(
            f"at {name} the board would be {(right - left) / 2:g} tiles wide and "
            f"{bottom - top + 1} rows high: it must fit 6 by 7 or 7 by 6",
            "G3.5",
        )
    enclosed = holes(occupied)
    if enclosed:
        names = ", ".join(p.name() for p in enclosed)
        return Refusal(f"a tile at {name} would leave a hole at {names}", "G3.4")
    return None


def _row_letters(r: int) -> str:
    letters = [Position(r, q).name()[0] for q in range(-12, 1) if (q + r) % 2 == 0]
    return ", ".join(letters)


def corner_refusal(
    board: Board,
    position: Position,
    tile: Tile,
    corner: Corner,
    *,
    reachable: set[Position] | None = None,
) -> Refusal | None:
    """Why ``tile`` may not lie at the (otherwise allowed) ``position`` with its tick in
    ``corner``: it would not be connected to the MITS (G3.8); never for a supernova (G3.9).

    The new tile is connected iff a crossing that is not impassable joins it to a tile that is
    connected already (``reachable``: those tiles, computed once by the caller)."""
    if tile.kind is TileKind.SUPERNOVA:
        return None
    if reachable is None:
        reachable = board.reachable(MITS)
    new = Cell(tile, corner)
    for there in position.neighbours():
        if there in reachable and cell_crossing(there, board[there], position, new) is not None:
            return None
    return Refusal(
        f"with its tick {corner.words} ({corner.value}) the {tile.words()} at "
        f"{position.name()} cannot be reached from the MITS",
        "G3.8",
    )


def placement_refusal(
    board: Board, position: Position, tile: Tile, corner: Corner
) -> Refusal | None:
    """Why ``tile`` may not be placed there so, citing the first ruling G8.4 lists; None if it
    may."""
    return position_refusal(board, position) or corner_refusal(board, position, tile, corner)


def candidate_positions(board: Board) -> list[Position]:
    """Empty positions of the pattern next to a tile, not past the MITS (before G3.5, G3.4)."""
    found = set()
    for here in board.cells:
        for there in here.neighbours():
            if there not in board and there.exists and there.q <= 0:
                found.add(there)
    return sorted(found)


def legal_placements(board: Board, tile: Tile) -> dict[Position, tuple[Corner, ...]]:
    """Every position the tile may go with the corners allowed there (G3.2 to G3.9)."""
    out: dict[Position, tuple[Corner, ...]] = {}
    reachable = board.reachable(MITS)
    for position in candidate_positions(board):
        if position_refusal(board, position) is not None:
            continue
        corners = tuple(
            c
            for c in CORNERS
            if corner_refusal(board, position, tile, c, reachable=reachable) is None
        )
        if corners:
            out[position] = corners
    return out


def can_be_placed(board: Board, tile: Tile) -> bool:
    """Whether the tile has any legal position and corner (else it is set aside, G3.10)."""
    reachable = board.reachable(MITS)
    for position in candidate_positions(board):
        if position_refusal(board, position) is None and any(
            corner_refusal(board, position, tile, c, reachable=reachable) is None for c in CORNERS
        ):
            return True
    return False


def first_legal_placement(board: Board, tile: Tile) -> tuple[Position, Corner] | None:
    """The first legal position in reading order (rows top to bottom, then left to right) with
    its first legal corner (tl, tr, bl, br); None when the tile cannot be placed (G3.10)."""
    for position, corners in legal_placements(board, tile).items():
        return position, corners[0]
    return None
