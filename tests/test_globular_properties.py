"""Properties of Globular Cluster that hold in every game: Hypothesis drives random players
(companion.globular.bots) through whole games and checks every position along the way."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.globular.bots import candidate_actions, random_game, random_turn
from companion.globular.errors import Refusal
from companion.globular.game import GlobularGame
from companion.globular.geometry import MITS, Position
from companion.globular.notation import Line, parse_line
from companion.globular.placement import fits_rectangle, holes
from companion.globular.record import load_record, record_json
from companion.globular.scoring import CAPS, MAX_VALUE, tiles_at_value
from companion.globular.settings import Dice, Settings, StackKeeper, TieBreak
from companion.globular.state import AP_PER_TURN, COINS, State
from companion.globular.tiles import COLOURS, CORNERS, CRYSTALS, FACES, Tile, TileKind

games = st.builds(
    lambda players, seed, dice, stack, tiebreak: GlobularGame(
        Settings(COLOURS[:players], dice, stack, tiebreak), seed
    ),
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.sampled_from(Dice),
    st.sampled_from(StackKeeper),
    st.sampled_from(TieBreak),
)
SLOW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: State) -> None:
    assert 0 <= state.turn.ap <= AP_PER_TURN  # action points never negative (G4.2)
    board = state.board
    for value, cap in CAPS.items():  # the infrastructure caps (G4.11)
        assert tiles_at_value(board, value) <= cap
    occupied = set(board.cells)
    assert fits_rectangle(occupied) and holes(occupied) == []  # G3.4, G3.5
    assert max(p.q for p in occupied) <= 0  # G3.6
    reachable = board.reachable(MITS)
    for position in board:
        cell = board[position]
        if cell.kind is TileKind.HABITABLE:
            assert cell.value <= MAX_VALUE
        elif cell.kind is not TileKind.RESOURCE:
            assert cell.pennies == 0  # G1.9
        if cell.kind not in (TileKind.SUPERNOVA,):
            assert position in reachable  # G3.8: reachable at every moment
    for player in state.players:
        on_board = sum(player.coins.values())
        colonist = None if player.colony is None else board[player.colony].colonist
        colonist_coin = 1 if colonist is not None and not colonist.leader else 0
        assert on_board + player.coins_out + colonist_coin == COINS
        assert all(n > 0 for n in player.coins.values())
        assert all(n >= 0 for n in player.crystals.values())
        assert player.vp == sum(s.total for s in player.scores)
        assert len(player.stations) <= 2
        for station in player.stations:
            assert board[station].station is player.colour


@SLOW
@given(games, st.integers(0, 2**32))
def test_after_every_turn_of_a_random_game_the_rules_invariants_hold(
    game: GlobularGame, seed: int
) -> None:
    rng = random.Random(seed)
    while not game.over:
        random_turn(game, rng)
        check_invariants(game.state)
    assert not game.state.stack and game.state.supernova is None


@SLOW
@given(games, st.integers(0, 2**32))
def test_replaying_a_record_gives_the_same_bytes(game: GlobularGame, seed: int) -> None:
    random_game(game, random.Random(seed))
    text = record_json(game)
    assert record_json(load_record(text)) == text


@SLOW
@given(games, st.integers(0, 2**32), st.integers(0, 30))
def test_a_record_cut_short_replays_to_its_own_bytes_too(
    game: GlobularGame, seed: int, turns: int
) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        if game.over:
            break
        random_turn(game, rng)
    text = record_json(game)
    assert record_json(load_record(text)) == text


@SLOW
@given(games, st.integers(0, 2**32))
def test_taking_back_a_line_restores_the_position_exactly(game: GlobularGame, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 12)):
        random_turn(game, rng)
    if game.over or game.state.turn.awaiting_draw:
        return
    placements = game.legal_placements()
    if placements:
        first = sorted(placements)[0]
        game.play(f"place {first} {placements[first][0]}")
    before = game.state.digest()
    for line in candidate_actions(game.state):
        if line.keyword in ("mine",):
            continue
        try:
            game.play(line)
        except Refusal:
            continue
        game.take_back()
        assert game.state.digest() == before


@SLOW
@given(games, st.integers(0, 2**32))
def test_a_preview_costs_what_playing_costs(game: GlobularGame, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 10)):
        random_turn(game, rng)
    if game.over or game.state.turn.awaiting_draw or game.state.turn.to_place is not None:
        return
    lines = [line for line in candidate_actions(game.state) if line.keyword != "mine"][:6]
    for line in lines:
        preview = game.preview([line])
        try:
            played = game.play(line)
        except Refusal as refusal:
            assert preview.refused is not None and preview.refused.ruling == refusal.ruling
            continue
        assert preview.refused is None and preview.played[0].cost == played.cost
        assert preview.ap_left == game.state.turn.ap


positions = st.builds(Position.at, st.integers(-12, 0), st.integers(-6, 6))
line_texts = st.one_of(
    st.builds(lambda t: f"draw {t}", st.sampled_from(["bk4", "gra", "rdn", "bl5"])),
    st.builds(lambda p, c: f"place {p.name()} {c.value}", positions, st.sampled_from(CORNERS)),
    st.builds(
        lambda path, n: f"move {'>'.join(p.name() for p in path)}{'' if n == 1 else f' x{n}'}",
        st.lists(positions, min_size=2, max_size=5),
        st.integers(1, 12),
    ),
    st.builds(
        lambda a, b, leader: f"warp {a.name()}>{b.name()}{' leader' if leader else ''}",
        positions,
        positions,
        st.booleans(),
    ),
    st.builds(
        lambda p, faces: (
            f"mine {p.name()}{' x2' if len(faces) == 2 else ''}"
            + (f" roll {' '.join(f.value for f in faces)}" if faces else "")
        ),
        positions,
        st.lists(st.sampled_from(FACES), max_size=2),
    ),
    st.builds(
        lambda c, g, t: f"trade {c.value} give {g.value} take {t.value}",
        st.sampled_from(COLOURS),
        st.sampled_from(CRYSTALS),
        st.sampled_from(CRYSTALS),
    ),
    st.builds(lambda p: f"station {p.name()}", positions),
    st.builds(lambda p, two: f"improve {p.name()}{' x2' if two else ''}", positions, st.booleans()),
    st.builds(
        lambda p, ld: f"colonize {p.name()}{' leader' if ld else ''}", positions, st.booleans()
    ),
    st.just("end"),
)


@settings(max_examples=300)
@given(line_texts)
def test_canonical_lines_round_trip(text: str) -> None:
    line: Line = parse_line(text)
    assert line.text() == text
    assert parse_line(text.upper()) == line


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_parses_or_is_refused_with_a_reason(text: str) -> None:
    from companion.globular.errors import NotationError

    try:
        line = parse_line(text)
    except NotationError as err:
        assert err.ruling == "G8.2" and err.reason
    else:
        assert parse_line(line.text()) == line


def test_every_tile_code_of_the_stack_is_a_tile() -> None:
    assert {Tile.parse(t.code()) for t in GlobularGame(Settings(COLOURS), 1).state.stack}
