"""An independent reading of Cluster's rulings, for checking the bitboard engine against.

Written from the rulings' words only, on hole *names* (P1.6's neighbour rules by row parity,
P1.9's depth rule, P4.2 to P4.4's steps and jumps, P5.1's goal), with none of the engine's
tables or bit tricks, and slowly on purpose.
"""

from __future__ import annotations

ROWS = "abcdefgh"
LENGTHS = {"64": [8] * 8, "46": [7, 6, 7, 6, 7, 6, 7]}
DIRECTIONS = ("E", "W", "NE", "NW", "SE", "SW")


def holes(board: str) -> list[str]:
    return [
        f"{ROWS[r]}{n}" for r, length in enumerate(LENGTHS[board]) for n in range(1, length + 1)
    ]


def split(name: str) -> tuple[int, int]:
    return ROWS.index(name[0]), int(name[1:])


def on_board(board: str, r: int, n: int) -> bool:
    lengths = LENGTHS[board]
    return 0 <= r < len(lengths) and 1 <= n <= lengths[r]


def neighbour(board: str, name: str, direction: str) -> str | None:
    """P1.6, in names."""
    r, n = split(name)
    even = r % 2 == 0
    target = {
        "E": (r, n + 1),
        "W": (r, n - 1),
        "NE": (r + 1, n if even else n + 1),
        "NW": (r + 1, n - 1 if even else n),
        "SE": (r - 1, n if even else n + 1),
        "SW": (r - 1, n - 1 if even else n),
    }[direction]
    return f"{ROWS[target[0]]}{target[1]}" if on_board(board, *target) else None


def neighbours(board: str, name: str) -> set[str]:
    return {h for d in DIRECTIONS if (h := neighbour(board, name, d)) is not None}


def deep(name: str) -> bool:
    """P1.9: deep when r + n is odd."""
    r, n = split(name)
    return (r + n) % 2 == 1


def moves(board: str, pegs: dict[str, str], mover: str) -> list[str]:
    """Every legal move of ``mover`` ('r' or 'b') as text, canonical order (P4.10).

    ``pegs`` maps occupied hole names to their letters (R r B b)."""
    order = {name: i for i, name in enumerate(holes(board))}
    found: list[tuple[int, int, str]] = []
    for origin, letter in pegs.items():
        if letter.lower() != mover:
            continue
        for direction in DIRECTIONS:
            hole = neighbour(board, origin, direction)
            jumped = 0
            while hole is not None and hole in pegs:
                jumped += 1
                hole = neighbour(board, hole, direction)
            if hole is None:
                continue  # the line is full to the edge (P4.4)
            text = f"{origin}{'*' if jumped else '-'}{hole}"
            found.append((order[origin], order[hole], text))
    return [text for _, _, text in sorted(found)]


def play(pegs: dict[str, str], move: str) -> dict[str, str]:
    origin, destination = move.replace("*", "-").split("-")
    after = dict(pegs)
    after[destination] = after.pop(origin)
    return after


def meets_goal(board: str, pegs: dict[str, str], colour: str) -> bool:
    """P5.1: height 2 (tall deep, short shallow) and one group of the player's own pegs."""
    mine = {h: p for h, p in pegs.items() if p.lower() == colour}
    for hole, letter in mine.items():
        tall = letter.isupper()
        if tall != deep(hole):
            return False
    if not mine:
        return False
    seen = {next(iter(mine))}
    todo = list(seen)
    while todo:
        hole = todo.pop()
        for other in neighbours(board, hole):
            if other in mine and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(mine)


def perft(board: str, pegs: dict[str, str], mover: str, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in moves(board, pegs, mover):
        after = play(pegs, move)
        if depth > 1 and meets_goal(board, after, mover):
            continue  # a win ends the game (P5.3)
        total += perft(board, after, "b" if mover == "r" else "r", depth - 1)
    return total


def parse(text: str) -> tuple[str, dict[str, str], str]:
    """A position text (P6.4) as (board, pegs by hole name, mover)."""
    board, rows, mover = text.split()
    pegs: dict[str, str] = {}
    for r, row in enumerate(rows.split("/")):
        n = 1
        for char in row:
            if char.isdigit():
                n += int(char)
            else:
                pegs[f"{ROWS[r]}{n}"] = char
                n += 1
    return board, pegs, mover
