"""Properties of the Clustered rules core (Hypothesis): a legal position stays legal; the
score does not change when the whole table is rotated or mirrored; no rectangle is bigger than
the player's card count (and it is the largest, checked by brute force)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.clustered import (
    Card,
    Cell,
    ClusteredGame,
    IllegalPlacementError,
    Placement,
    Player,
    Settings,
    Surface,
    score,
)
from companion.clustered.layout import TRANSFORMS, Layout
from companion.clustered.legality import problems
from companion.clustered.scoring import first_achievers, largest_rectangle
from companion.clustered.simulate import simulate

SETTINGS = st.builds(
    Settings,
    surface=st.sampled_from(
        [
            Surface(),
            Surface.parse("-3..3,-2..2"),
            Surface.parse("-2..9,-1..1"),
            Surface.parse("-1..1,-1..1; 2..4,0..0"),
        ]
    ),
    quick_play=st.booleans(),
    extra_wild=st.sampled_from(["none", "all", ("O",)]),
    start_cards=st.sampled_from(["auto", 1, 2]),
    end_when_blocked=st.booleans(),
)


def fits_surface(rules: Settings, players: int) -> bool:
    return all(cell in rules.surface for cell in rules.start_cells(players))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(1, 5), rules=SETTINGS)
def test_a_legal_position_stays_legal(data: st.DataObject, players: int, rules: Settings) -> None:
    """Any placement the game accepts leaves a position with no problem; any it refuses leaves
    the position as it was."""
    if not fits_surface(rules, players):
        return
    game = ClusteredGame([Player(c) for c in rules.palette.codes[:players]], settings=rules)
    wilds = {c: rules.wilds(c) for c in rules.palette.codes}
    for _ in range(data.draw(st.integers(0, 40), label="turns")):
        seat = game.current_seat()
        if seat is None:
            break
        options = [
            Placement(card, cell)
            for card in dict.fromkeys(game.could_hold(seat))
            for cell in game.legal_cells(card)
        ]
        if data.draw(st.booleans(), label="try anything") or not options:
            x_min, x_max, y_min, y_max = game.layout.bounds()
            card = data.draw(st.sampled_from([*game.could_hold(seat), Card.parse("B-sq-so-1")]))
            cell = Cell(
                data.draw(st.integers(x_min - 1, x_max + 1)),
                data.draw(st.integers(y_min - 1, y_max + 1)),
            )
            move = Placement(card, cell)
        else:
            move = data.draw(st.sampled_from(options), label="placement")
        before = (game.layout, game.digest())
        try:
            game.place(move)
        except IllegalPlacementError:
            assert (game.layout, game.digest()) == before
            if not options:
                return
            continue
        assert problems(game.layout, rules.surface, wilds) == []


def transformed_totals(game: ClusteredGame, name: str) -> list[int]:
    move = TRANSFORMS[name]
    layout = game.layout.transformed(move)
    placements = [(move(cell), card) for cell, card in game.placements()]
    starts = {move(c): k for c, k in game.layout.items() if k.is_start}
    earned = first_achievers(placements, starts)
    first = {bonus: None if got is None else got[0] for bonus, got in earned.items()}
    sheet = score(layout, game.colours(), first=first, largest_bonuses=True)
    return [p.total for p in sheet.players]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 8),
    turns=st.integers(0, 120),
    policy=st.sampled_from(["random", "cluster"]),
)
def test_the_score_is_the_same_when_the_whole_table_is_rotated_or_mirrored(
    seed: int, players: int, turns: int, policy: str
) -> None:
    game = simulate(players, seed=seed, turns=turns, policy=policy)
    expected = transformed_totals(game, "identity")
    for name in TRANSFORMS:
        assert transformed_totals(game, name) == expected, name


def brute_force_largest(cells: frozenset[Cell]) -> int:
    if not cells:
        return 0
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    best = 0
    for x1 in range(min(xs), max(xs) + 1):
        for x2 in range(x1 + 1, max(xs) + 1):
            for y1 in range(min(ys), max(ys) + 1):
                for y2 in range(y1 + 1, max(ys) + 1):
                    if all(
                        Cell(x, y) in cells for x in range(x1, x2 + 1) for y in range(y1, y2 + 1)
                    ):
                        best = max(best, (x2 - x1 + 1) * (y2 - y1 + 1))
    return best


@settings(max_examples=200, deadline=None)
@given(st.frozensets(st.builds(Cell, st.integers(-4, 4), st.integers(-4, 4)), max_size=40))
def test_no_rectangle_is_bigger_than_the_players_card_count(cells: frozenset[Cell]) -> None:
    rectangle = largest_rectangle(cells)
    if rectangle is None:
        assert brute_force_largest(cells) == 0
        return
    assert rectangle.area <= len(cells)
    assert set(rectangle.cells()) <= cells
    assert rectangle.width >= 2 and rectangle.height >= 2
    assert rectangle.area == brute_force_largest(cells)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 8))
def test_a_finished_game_has_no_rectangle_bigger_than_a_players_cards(
    seed: int, players: int
) -> None:
    game = simulate(players, seed=seed, policy="cluster")
    for player in game.score_sheet().players:
        cards = len(game.layout.cells_of(player.colour))
        assert player.rectangle_points <= cards
        assert player.total <= 3 * cards


def test_problems_reports_what_legal_play_cannot_make() -> None:
    layout = (
        Layout.from_diagram("""
 y\\x  0  1  2  3
   0  *  B  .  B
""")
        .placed(Cell(1, 1), Card.parse("B-tr-da-3"))
        .placed(Cell(2, 1), Card.parse("B-sq-so-1"))
    )
    codes = [p.code for p in problems(layout, Surface.parse("0..2,0..1"))]
    assert codes == ["mismatch", "mismatch", "off-surface", "duplicate", "no-neighbour"]
