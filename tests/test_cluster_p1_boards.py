"""Cluster rulings P1: the two boards, hole names, directions, neighbours, lines and depths.

Each test is named after the ruling (or clause) it pins; ``docs/rules-cluster.md`` lists them.
"""

from __future__ import annotations

import math

import cluster_reference as ref
import pytest

from companion.cluster_peg.board import (
    LARGE,
    SMALL,
    Direction,
    UnknownHoleError,
    board_named,
    is_hole_name,
)

BOTH = [LARGE, SMALL]


def names(board, bits_or_holes):
    holes = board.holes_of(bits_or_holes) if isinstance(bits_or_holes, int) else bits_or_holes
    return sorted(board.names[h] for h in holes)


def test_p1_1_the_large_board_has_64_holes_in_8_rows_of_8():
    assert LARGE.size == 64
    assert LARGE.row_lengths == (8,) * 8
    assert LARGE.names[:9] == ("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1")
    assert LARGE.names[-1] == "h8"


def test_p1_1_rows_b_d_f_h_sit_half_a_hole_to_the_right():
    a1, a2, a8, b1, b8 = (LARGE.xy(LARGE.hole(n)) for n in ("a1", "a2", "a8", "b1", "b8"))
    assert b1[0] == pytest.approx((a1[0] + a2[0]) / 2)  # b1 lies between a1 and a2
    assert b8[0] == pytest.approx(a8[0] + 0.5)  # b8 sticks out half a hole beyond a8


def test_p1_2_the_small_board_has_46_holes_in_rows_of_7_and_6():
    assert SMALL.size == 46
    assert SMALL.row_lengths == (7, 6, 7, 6, 7, 6, 7)
    a1, a2, a6, a7, b1, b6 = (SMALL.xy(SMALL.hole(n)) for n in ("a1", "a2", "a6", "a7", "b1", "b6"))
    assert b1[0] == pytest.approx((a1[0] + a2[0]) / 2)
    assert b6[0] == pytest.approx((a6[0] + a7[0]) / 2)


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_3_doubled_coordinates_and_one_spacing_to_every_neighbour(board):
    for hole in range(board.size):
        x, r = board.doubled(hole)
        n = board.numbers[hole]
        assert x == 2 * (n - 1) + r % 2
        cx, cy = board.xy(hole)
        assert (cx, cy) == pytest.approx((x / 2, r * math.sqrt(3) / 2))
        for other in board.neighbour_list[hole]:
            ox, oy = board.xy(other)
            assert math.dist((cx, cy), (ox, oy)) == pytest.approx(1.0)
        for other in range(board.size):
            if other != hole and other not in board.neighbour_list[hole]:
                assert math.dist((cx, cy), board.xy(other)) > 1.5  # a triangular lattice


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_4_hole_names_are_typed_in_any_case_and_written_in_lower_case(board):
    assert board.hole("D4") == board.hole(" d4 ") == board.names.index("d4")
    assert all(name == name.lower() for name in board.names)
    assert is_hole_name("A1") and is_hole_name("h8") and not is_hole_name("a01")
    with pytest.raises(UnknownHoleError, match="there is no hole i1"):
        board.hole("i1")


def test_p1_4_hole_order_is_row_a_first_each_row_by_number():
    assert list(SMALL.names[:8]) == ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "b1"]
    assert list(SMALL.names) == ref.holes("46")
    assert list(LARGE.names) == ref.holes("64")


def test_p1_5_the_six_directions_in_doubled_coordinates():
    assert {d.name: d.value for d in Direction} == {
        "E": (2, 0),
        "W": (-2, 0),
        "NE": (1, 1),
        "NW": (-1, 1),
        "SE": (1, -1),
        "SW": (-1, -1),
    }
    d4 = LARGE.hole("d4")
    x, r = LARGE.doubled(d4)
    by_direction = {d: line[0] for d, line in LARGE.lines[d4]}
    for direction, hole in by_direction.items():
        dx, dr = direction.value
        assert LARGE.doubled(hole) == (x + dx, r + dr)


def test_p1_6_neighbours_by_name_the_rulings_examples():
    d4 = LARGE.hole("d4")
    by_direction = {d.name: LARGE.names[line[0]] for d, line in LARGE.lines[d4]}
    assert by_direction == {"E": "d5", "W": "d3", "NE": "e5", "NW": "e4", "SE": "c5", "SW": "c4"}
    c4 = LARGE.hole("c4")
    by_direction = {d.name: LARGE.names[line[0]] for d, line in LARGE.lines[c4]}
    assert by_direction == {"E": "c5", "W": "c3", "NE": "d4", "NW": "d3", "SE": "b4", "SW": "b3"}


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_6_neighbours_follow_the_name_rule_on_every_hole(board):
    for hole in range(board.size):
        name = board.names[hole]
        for direction, line in board.lines[hole]:
            assert board.names[line[0]] == ref.neighbour(board.name, name, direction.name)
        assert set(names(board, board.neighbours[hole])) == ref.neighbours(board.name, name)


@pytest.mark.parametrize(
    ("board", "hole", "expected"),
    [
        (LARGE, "a1", ["a2", "b1"]),
        (LARGE, "h8", ["g8", "h7"]),
        (LARGE, "a8", ["a7", "b7", "b8"]),
        (LARGE, "h1", ["g1", "g2", "h2"]),
        (SMALL, "a1", ["a2", "b1"]),
        (SMALL, "a7", ["a6", "b6"]),
        (SMALL, "g1", ["f1", "g2"]),
        (SMALL, "g7", ["f6", "g6"]),
        (SMALL, "b1", ["a1", "a2", "b2", "c1", "c2"]),
    ],
)
def test_p1_7_edge_holes_have_fewer_neighbours(board, hole, expected):
    assert names(board, board.neighbours[board.hole(hole)]) == expected


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_7_a_hole_has_2_to_6_neighbours(board):
    counts = {len(board.neighbour_list[h]) for h in range(board.size)}
    assert min(counts) == 2 and max(counts) == 6


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_8_lines_are_rows_and_the_two_diagonals_up_to_the_edge(board):
    for hole in range(board.size):
        name = board.names[hole]
        for direction, line in board.lines[hole]:
            walked = []
            at = ref.neighbour(board.name, name, direction.name)
            while at is not None:
                walked.append(at)
                at = ref.neighbour(board.name, at, direction.name)
            assert [board.names[h] for h in line] == walked
            if direction in (Direction.E, Direction.W):
                assert {board.rows[h] for h in line} == {board.rows[hole]}  # sideways: rows
        # every neighbour lies on one of the lines, and no hole lies on two lines
        on_lines = [h for _, line in board.lines[hole] for h in line]
        assert len(on_lines) == len(set(on_lines))
        assert set(board.neighbour_list[hole]) <= set(on_lines)


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_9_a_hole_is_deep_when_r_plus_n_is_odd(board):
    for hole in range(board.size):
        assert board.is_deep(hole) == ((board.rows[hole] + board.numbers[hole]) % 2 == 1)
    assert board.is_deep(board.hole("a1"))
    assert not board.is_deep(board.hole("b1"))  # rows b, d, f (h) begin shallow


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p1_9_every_hole_has_a_neighbour_of_the_other_depth_in_its_row(board):
    for hole in range(board.size):
        row_neighbours = [
            line[0] for d, line in board.lines[hole] if d in (Direction.E, Direction.W)
        ]
        assert any(board.is_deep(h) != board.is_deep(hole) for h in row_neighbours)


LARGE_MAP = """\
h   s D s D s D s D
g  D s D s D s D s
f   s D s D s D s D
e  D s D s D s D s
d   s D s D s D s D
c  D s D s D s D s
b   s D s D s D s D
a  D s D s D s D s"""

SMALL_MAP = """\
g  D s D s D s D
f   s D s D s D
e  D s D s D s D
d   s D s D s D
c  D s D s D s D
b   s D s D s D
a  D s D s D s D"""


def draw_depths(board):
    lines = []
    for row in reversed(range(len(board.row_lengths))):
        cells = [
            "D" if board.is_deep(h) else "s" for h in range(board.size) if board.rows[h] == row
        ]
        indent = "   " if row % 2 else "  "
        lines.append(f"{'abcdefgh'[row]}{indent}{' '.join(cells)}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("board", "drawn", "deep", "shallow"),
    [(LARGE, LARGE_MAP, 32, 32), (SMALL, SMALL_MAP, 25, 21)],
    ids=["64", "46"],
)
def test_p1_10_the_depth_maps(board, drawn, deep, shallow):
    assert draw_depths(board) == drawn
    assert board.deep.bit_count() == deep
    assert board.shallow.bit_count() == shallow


@pytest.mark.parametrize("board", BOTH, ids=lambda b: b.name)
def test_p3_1_the_player_swapping_symmetry_keeps_every_holes_depth(board):
    for hole in range(board.size):
        image = board.mirror[hole]
        assert board.is_deep(image) == board.is_deep(hole)
        assert board.mirror[image] == hole
    a1 = board.hole("a1")
    assert board.names[board.mirror[a1]] == ("h8" if board is LARGE else "g1")


def test_boards_by_name():
    assert board_named("64") is LARGE and board_named("46") is SMALL
    with pytest.raises(ValueError, match="the boards are 64 and 46"):
        board_named("100")
