"""Helpers for Cluster's tests: positions drawn as the rulings draw them, random positions."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from companion.cluster_peg.atoms import Colour, Peg
from companion.cluster_peg.board import BOARDS, Board
from companion.cluster_peg.position import PEGS_PER_KIND, Position, position_problem


def drawn(diagram: str, to_move: str = "r") -> Position:
    """A position from a map like the rulings' (row letter, then one cell per hole: R r B b
    or ``.``; the top row first; the column numbers line may be left out). Checked (P6.6)."""
    rows: dict[str, list[str]] = {}
    for line in diagram.strip("\n").splitlines():
        parts = line.split()
        if not parts or parts[0].isdigit():
            continue
        rows[parts[0]] = parts[1:]
    board_name = "64" if len(rows) == 8 else "46"
    texts = []
    for letter in "abcdefgh"[: len(rows)]:
        text, vacant = "", 0
        for cell in rows[letter]:
            if cell == ".":
                vacant += 1
                continue
            if vacant:
                text += str(vacant)
                vacant = 0
            text += cell
        texts.append(text + (str(vacant) if vacant else ""))
    return Position.parse(f"{board_name} {'/'.join(texts)} {to_move}")


def random_position(rng: random.Random, board: Board, *, extra_vacant: int = 0) -> Position:
    """Every peg of both players at random holes (an acceptable position, P6.6)."""
    each = PEGS_PER_KIND[board.name]
    while True:
        holes = rng.sample(range(board.size), 4 * each)
        placement = {hole: list(Peg)[i // each] for i, hole in enumerate(holes)}
        position = Position.from_placement(board, placement, rng.choice(list(Colour)))
        if position_problem(position) is None:
            return position


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Hypothesis: a random acceptable position on either board."""
    board = BOARDS[draw(st.sampled_from(["64", "46"]))]
    seed = draw(st.integers(0, 2**32 - 1))
    return random_position(random.Random(seed), board)


@st.composite
def played_positions(draw: st.DrawFn) -> Position:
    """Hypothesis: a position reached by random legal moves from a setup."""
    from companion.cluster_peg.moves import after, legal_codes
    from companion.cluster_peg.position import SETUPS

    position = SETUPS[draw(st.sampled_from(sorted(SETUPS)))]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 60))):
        codes = legal_codes(position)
        if not codes:
            break
        position = after(position, rng.choice(codes))
    return position
