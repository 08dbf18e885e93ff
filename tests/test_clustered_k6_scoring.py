"""K6 Scoring: lines, the largest rectangle, the start card, the examples K6.12 to K6.16."""

from __future__ import annotations

from clustered_helpers import cards_of

from companion.clustered import Card, Cell, Layout, score
from companion.clustered.scoring import card_points, largest_rectangle, lines_of

K6_12 = """
 y\\x -3 -2 -1  0  1  2  3  4
   1  .  .  .  .  B  .  .  .
   0  B  B  B  *  B  B  O  B
  -1  .  .  .  .  B  .  .  .
  -2  .  .  .  .  B  .  .  .
"""
K6_13 = """
 y\\x  0  1  2  3  4
   2  .  R  R  R  .
   1  .  R  R  R  R
   0  *  R  R  G  R
  -1  .  R  R  .  .
"""
K6_14 = """
 y\\x  0  1  2  3
   2  .  .  B  .
   1  .  B  B  B
   0  *  B  B  .
"""
K6_15 = """
 y\\x -1  0  1  2  3
   1  O  O  O  B  O
   0  O  *  B  B  B
  -1  O  O  B  B  b
"""
K6_16 = """
 y\\x -3 -2 -1  0  1  2
   2  B  B  .  .  .  .
   1  B  B  .  .  O  O
   0  B  B  O  *  O  O
  -1  .  .  B  B  .  .
  -2  .  .  B  B  .  .
  -3  .  .  B  B  .  .
"""


def lines_text(layout: Layout, colour: str) -> list[str]:
    return [line.text() for line in lines_of(layout.cells_of(colour), colour)]


def test_k6_1_a_wild_card_scores_as_its_colour_and_a_start_card_for_nobody() -> None:
    """K6.1: a wild card counts as an ordinary card of its colour; start cards are nobody's."""
    layout = cards_of("""
 y\\x  0  1  2  3
   0  *  B  b  B
""")
    assert lines_text(layout, "B") == ["row 0, x 1..3"]
    assert score(layout, ["B"]).of("B").total == 3


def test_k6_2_k6_12_an_empty_cell_another_players_card_or_a_start_card_ends_a_run() -> None:
    """K6.2, K6.12: row 0 has the line -3..-1, ended by the start card; 1..2 is a run of 2;
    the orange card cuts off 4,0. Column 1 is a vertical line of 4."""
    layout = cards_of(K6_12)
    assert lines_text(layout, "B") == ["row 0, x -3..-1", "column 1, y 1..-2"]


def test_k6_3_a_run_of_7_is_one_line_worth_7_and_runs_of_1_or_2_score_nothing() -> None:
    """K6.3: one point a card; a run of 7 is one line worth 7."""
    layout = cards_of("""
 y\\x  0  1  2  3  4  5  6  7  8  9 10
   0  *  B  B  B  B  B  B  B  .  B  B
""")
    lines = lines_of(layout.cells_of("B"), "B")
    assert [line.points for line in lines] == [7]


def test_k6_4_a_card_lies_in_at_most_one_row_line_and_one_column_line() -> None:
    """K6.4: and scores 1 point for each."""
    layout = cards_of("""
 y\\x  0  1  2  3
   1  .  .  B  .
   0  *  B  B  B
  -1  .  .  B  .
""")
    points = card_points(layout, "B")
    assert points[Cell(2, 0)] == 2
    assert max(points.values()) == 2


def test_k6_5_a_rectangle_may_lie_inside_a_larger_group_and_never_holds_a_start_card() -> None:
    """K6.5: at least 2 wide and 2 high, every cell the player's; a start card is never in one."""
    layout = cards_of("""
 y\\x  0  1  2
   1  B  B  B
   0  *  B  B
""")
    rectangle = largest_rectangle(layout.cells_of("B"))
    assert rectangle is not None and (rectangle.x_min, rectangle.width) == (1, 2)
    assert (
        largest_rectangle(
            cards_of("""
 y\\x  0  1  2
   0  *  B  B
""").cells_of("B")
        )
        is None
    )


def test_k6_6_only_the_largest_rectangle_scores() -> None:
    """K6.6: the number of cells of the largest rectangle by area, or 0; only that one."""
    sheet = score(cards_of(K6_16), ["B", "O"])
    assert sheet.of("B").rectangle_points == 6
    assert score(cards_of(K6_12), ["B"]).of("B").rectangle_points == 0


def test_k6_7_k6_16_the_highlighted_rectangle_lowest_bottom_row_then_westmost() -> None:
    """K6.7, K6.16: of equally large rectangles, the lowest bottom row, then the westmost, then
    the widest: x -1..0, y -3..-1."""
    rectangle = largest_rectangle(cards_of(K6_16).cells_of("B"))
    assert rectangle is not None
    assert (rectangle.x_min, rectangle.x_max, rectangle.y_min, rectangle.y_max) == (-1, 0, -3, -1)
    side_by_side = cards_of("""
 y\\x  0  1  2  3  4  5  6
   1  .  B  B  .  B  B  .
   0  *  B  B  .  B  B  .
""")
    found = largest_rectangle(side_by_side.cells_of("B"))
    assert found is not None and found.x_min == 1


def test_k6_7_widest_breaks_the_last_tie() -> None:
    """K6.7: the same bottom row and west edge: the widest (4x2 over 2x4)."""
    layout = cards_of("""
 y\\x  0  1  2  3  4
   3  .  B  B  .  .
   2  .  B  B  .  .
   1  .  B  B  B  B
   0  *  B  B  B  B
""")
    found = largest_rectangle(layout.cells_of("B"))
    assert found is not None and (found.width, found.height) == (4, 2)


def test_k6_8_score_is_rectangle_plus_rows_plus_columns_and_at_most_3_a_card() -> None:
    """K6.8: rectangle + horizontal + vertical lines; without bonuses at most 3 a card; never
    negative; 0 with no card on the table."""
    sheet = score(cards_of(K6_14), ["B", "O"])
    assert sheet.of("B").total == 10
    assert sheet.of("O").total == 0
    assert max(card_points(cards_of(K6_14), "B").values()) == 3


def test_k6_9_ties_share_the_win() -> None:
    """K6.9: the highest score wins; players tied for it share the win."""
    layout = cards_of("""
 y\\x -3 -2 -1  0  1  2  3
   0  O  O  O  *  B  B  B
""")
    assert score(layout, ["B", "O"]).winners == ("B", "O")


def test_k6_10_the_score_sheet_gives_rectangle_lines_bonuses_and_total() -> None:
    """K6.10: for each player the rectangle (size and cells), every line (cells), each bonus
    and the total."""
    sheet = score(cards_of(K6_15), ["O", "B"])
    blue = sheet.to_dict()["players"][1]
    assert blue["rectangle"]["area"] == 6
    assert blue["rectangle_cells"] == ["1,0", "2,0", "3,0", "1,-1", "2,-1", "3,-1"]
    assert [line["cells"] for line in blue["lines"]] == [
        ["1,0", "2,0", "3,0"],
        ["1,-1", "2,-1", "3,-1"],
        ["2,1", "2,0", "2,-1"],
    ]
    assert blue["total"] == 15
    assert sheet.lines({"B": "Blue", "O": "Orange"}) == [
        "Orange: 6 points",
        "  rectangle: none (0)",
        "  line: row 1, x -1..1 (3)",
        "  line: column -1, y 1..-1 (3)",
        "Blue: 15 points",
        "  rectangle: 3x2 at x 1..3, y -1..0 (6)",
        "  line: row 0, x 1..3 (3)",
        "  line: row -1, x 1..3 (3)",
        "  line: column 2, y 1..-1 (3)",
        "Blue wins.",
    ]


def test_k6_11_diagrams_read_and_written() -> None:
    """K6.11: rows north to south, ``.`` empty, ``*`` start, uppercase a card, lowercase a
    wild card of that colour."""
    layout = cards_of(K6_15)
    assert layout[Cell(3, -1)] == Card.wild("B")
    assert layout[Cell(0, 0)].is_start
    assert Layout.from_diagram(layout.diagram()) == layout


def test_k6_12_example_blue_7_orange_0() -> None:
    """K6.12: Blue 7, orange 0."""
    sheet = score(cards_of(K6_12), ["B", "O"])
    assert (sheet.of("B").total, sheet.of("O").total) == (7, 0)


def test_k6_13_example_the_largest_rectangle_inside_an_irregular_group() -> None:
    """K6.13: x 1..2, y -1..2: 8 cards; lines row 2 (3), row 1 (4), column 1 (4), column 2
    (4); row 0 is cut. Red 8 + 7 + 8 = 23; green 0."""
    sheet = score(cards_of(K6_13), ["R", "G"])
    red = sheet.of("R")
    assert red.rectangle is not None
    assert (red.rectangle.x_min, red.rectangle.x_max) == (1, 2)
    assert (red.rectangle.y_min, red.rectangle.y_max) == (-1, 2)
    assert (red.rectangle_points, red.row_points, red.column_points) == (8, 7, 8)
    assert (red.total, sheet.of("G").total) == (23, 0)


def test_k6_14_example_one_card_scoring_3_points() -> None:
    """K6.14: the card at 2,1 scores 3; Blue 4 + 3 + 3 = 10."""
    points = card_points(cards_of(K6_14), "B")
    assert points == {
        Cell(2, 2): 1,
        Cell(1, 1): 2,
        Cell(2, 1): 3,
        Cell(3, 1): 1,
        Cell(1, 0): 1,
        Cell(2, 0): 2,
    }
    assert score(cards_of(K6_14), ["B"]).of("B").total == 10


def test_k6_15_example_one_line_cut_by_an_opponent() -> None:
    """K6.15: Orange 6; Blue 15 (the blue wild card counts as blue) and wins."""
    sheet = score(cards_of(K6_15), ["B", "O"])
    assert (sheet.of("O").total, sheet.of("B").total) == (6, 15)
    assert sheet.of("O").rectangle is None
    assert sheet.winners == ("B",)


def test_k6_16_example_two_equally_large_rectangles_score_once() -> None:
    """K6.16: the rectangle score is 6, not 12; four vertical lines of 3: Blue 18; Orange 4."""
    sheet = score(cards_of(K6_16), ["B", "O"])
    assert (sheet.of("B").total, sheet.of("O").total) == (18, 4)
    assert sheet.of("B").column_points == 12
