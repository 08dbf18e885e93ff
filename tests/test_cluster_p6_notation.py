"""Cluster rulings P6: hole and move notation, position texts, game records."""

from __future__ import annotations

import json

import pytest
from cluster_helpers import played_positions, positions
from hypothesis import given, settings

from companion.cluster_peg.game import Game, Result
from companion.cluster_peg.moves import Move, after, legal_codes, legal_moves
from companion.cluster_peg.position import SETUP_TEXTS, Position, PositionError, setup
from companion.cluster_peg.record import (
    load_record,
    parse_record_text,
    record_json,
    record_text,
    schema,
)
from companion.cluster_peg.settings import HouseRules
from companion.errors import RecordError

# P6.1, P6.2 -------------------------------------------------------------------------------------


def test_p6_2_a_move_is_origin_separator_destination_read_in_any_case():
    assert Move.parse("  B4-C4 ") == Move("b4", "c4", jump=False)
    assert Move.parse("a1*C2").text() == "a1*c2"
    for bad in ("b4 - c4", "b4c4", "b4--c4", "b4-", "-c4", "b04-c4", "b4/c4"):
        with pytest.raises(ValueError, match="is not a move"):
            Move.parse(bad)


@settings(max_examples=60, deadline=None)
@given(played_positions())
def test_p6_2_parse_and_text_are_symmetric_for_every_legal_move(position):
    for move in legal_moves(position):
        assert Move.parse(move.text()) == move
        assert Move.parse(move.text().upper()) == move


# P6.3 -------------------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(positions())
def test_p6_3_the_occupancy_change_names_at_most_one_legal_move(position):
    seen = {}
    for code in legal_codes(position):
        before, later = position.occupied, after(position, code).occupied
        emptied = position.board.holes_of(before & ~later)
        filled = position.board.holes_of(later & ~before)
        assert len(emptied) == 1 and len(filled) == 1
        key = (emptied[0], filled[0])
        assert key not in seen
        seen[key] = code
        assert Move.from_code(position.board, code) == Move.from_code(
            position.board, emptied[0] << 6 | filled[0]
        )


# P6.4 to P6.6 -----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(positions())
def test_p6_4_position_text_round_trips(position):
    text = position.text()
    assert Position.parse(text) == position
    assert Position.parse(text).text() == text
    assert "  " not in text and len(text.split(" ")) == 3


def test_p6_4_fields_may_be_separated_by_any_white_space_and_are_written_with_one():
    text = SETUP_TEXTS["64B"]
    spaced = text.replace(" ", " \t ")
    assert Position.parse(spaced).text() == text


@settings(max_examples=80, deadline=None)
@given(positions(), positions())
def test_p6_5_two_positions_are_the_same_exactly_when_their_texts_are(a, b):
    assert (a == b) == (a.text() == b.text())


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/8/8", "syntax"),  # two fields
        ("65 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/8/8 r", "syntax"),  # unknown board
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBx/8/8 r", "syntax"),  # a character
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/44/8 r", "syntax"),  # adjacent digits
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/8/8 w", "syntax"),  # to move
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/0/8 r", "syntax"),  # 0 is no digit
        ("64 8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBb/8/8 r", "row-count"),
        ("46 rRrRrR1/RrRrRr/7/6/7/BbBbBb r", "row-count"),
        ("64 8/8/rRrRrRrRr/BbBbBbBb/rRrRrRr/BbBbBbBb/8/8 r", "row-length"),
        ("46 rRrRrR1/RrRrRr/7/7/7/BbBbBb/bBbBbB1 r", "row-length"),
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRrR/BbBbBbBB/8/8 r", "piece-count"),
        ("64 8/8/rRrRrRrR/BbBbBbBb/rRrRrRr1/BbBbBbBb/8/8 r", "piece-count"),
        ("46 7/6/RrRrRr1/rRrRrR/7/BbBbBb/bBbBbB1 r", "unreachable"),
    ],
)
def test_p6_6_a_position_text_is_refused_with_the_first_reason(text, code):
    with pytest.raises(PositionError) as caught:
        Position.parse(text)
    assert caught.value.code == code


def test_p6_6_the_reasons_come_in_the_rulings_order():
    # Wrong row count and a bad character: syntax first. Wrong length and count: row-length.
    with pytest.raises(PositionError, match="syntax"):
        Position.parse("64 8/x r")
    with pytest.raises(PositionError, match="row-length"):
        Position.parse("64 9/8/8/8/8/8/8/8 r")


def test_p6_6_any_other_placement_is_accepted_reachable_or_not():
    # Every peg crammed into one end, in whatever order: accepted.
    text = "64 RRRRRRRR/rrrrrrrr/BBBBBBBB/bbbbbbbb/8/8/8/8 b"
    assert Position.parse(text).text() == text


# P6.7 -------------------------------------------------------------------------------------------


def a_finished_game() -> Game:
    game = Game(setup("46"), HouseRules(swap=True))
    for token in ("a1*a7", "swap", "f1-e1", "b1-c1"):
        game.apply_token(token)
    game.resign(game.position.to_move)
    return game


def test_p6_7_the_record_text_is_the_start_then_the_tokens_in_lower_case():
    game = a_finished_game()
    text = record_text(game)
    assert text.splitlines() == [SETUP_TEXTS["46"], "a1*a7 swap f1-e1 b1-c1 resign-b"]
    first, tokens = text.split("\n", 1)
    replayed = parse_record_text(f"{first}\n{tokens.upper()}", HouseRules(swap=True))
    assert replayed.tokens == game.tokens
    assert replayed.result == Result(game.position.to_move.other, "resignation")


def test_p6_7_tokens_may_be_separated_by_spaces_or_line_breaks():
    text = SETUP_TEXTS["64B"] + "\nc1-b1\n  f1-g1   b1-c1\ndraw\n"
    game = parse_record_text(text)
    assert game.tokens == ["c1-b1", "f1-g1", "b1-c1", "draw"]
    assert game.result == Result(None, "agreement")


def test_p6_7_a_refused_token_stops_the_replay_with_its_reason():
    text = SETUP_TEXTS["64B"] + "\nc1-b1 c5-c6 f1-g1\n"
    with pytest.raises(RecordError, match=r"token 2 \(c5-c6\): the peg in c5 is Red's"):
        parse_record_text(text)


def test_p6_7_the_json_record_replays_byte_for_byte():
    game = a_finished_game()
    text = record_json(game, players={"red": "Ann", "blue": "Bob", "by_lot": True})
    loaded, players = load_record(text)
    assert players == {"red": "Ann", "blue": "Bob", "by_lot": True}
    assert loaded.tokens == game.tokens and loaded.result == game.result
    assert record_json(loaded, players=players) == text
    data = json.loads(text)
    assert data["rules"] == {"repetition": 3, "turn_limit": 200, "swap": True}
    assert data["setup"] == "46" and data["game"] == "cluster"


def test_p6_7_the_record_matches_its_schema():
    import jsonschema

    for game in (a_finished_game(), Game()):
        jsonschema.Draft202012Validator(schema()).validate(json.loads(record_json(game)))
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(end=SETUP_TEXTS["46"]), "end position"),
        (lambda d: d.update(result=None), "result"),
        (lambda d: d["tokens"].insert(1, "a2*a1"), "does not replay"),
        (lambda d: d.update(tokens=["c1-b1"]), "does not replay"),
        (lambda d: d.update(setup="64A"), "not the setup 64A"),
        (lambda d: d.update(game="chess"), "not a Cluster game record"),
        (lambda d: d["rules"].update(swap="yes"), "not a Cluster game record"),
        (lambda d: d.update(start="46 7/6/7/6/7/6/7 r"), "start position is refused"),
    ],
)
def test_p6_7_a_record_that_does_not_replay_to_what_it_says_is_refused(change, message):
    data = json.loads(record_json(a_finished_game()))
    change(data)
    with pytest.raises(RecordError, match=message):
        load_record(json.dumps(data))


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"\xff\xfe", b'{"format": 1}'])
def test_p6_7_a_broken_record_file_is_refused(raw):
    with pytest.raises(RecordError):
        load_record(raw)
