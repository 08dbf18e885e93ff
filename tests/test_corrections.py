"""Host corrections of the tracked position (issue 3): each kind, its refusals, undo, replay."""

from __future__ import annotations

import pytest

from companion.errors import OrderSyntaxError
from companion.local_cluster import Colour, Game, GameRecord, Phase, StateError
from companion.local_cluster.corrections import Correction

RED, BLUE = Colour.RED, Colour.BLUE


@pytest.fixture
def game(board):
    state = board(
        "line",
        units=[("red", "carrier", "S1", 1), ("blue", "destroyer", "S5")],
        craft=[("S1", "S2")],
        claims={"S1": "red", "S5": "blue"},
    )
    return Game(state)


def correct(game: Game, text: str, reason: str = "the board says otherwise"):
    return game.correct(Correction.parse(text, reason))


def test_place_a_unit(game, pieces):
    correct(game, "PLACE blue battleship S4")
    assert pieces(game.state)["S4"] == "blue battleship"


def test_a_placed_carrier_comes_with_three_docked_craft(game):
    correct(game, "place Blue Carrier s3")
    assert game.state.unit_at["S3"].docked == 3


def test_place_a_strike_craft_for_a_carrier(game, craft_at):
    correct(game, "PLACE red craft S2 S1")
    assert craft_at(game.state)["S2"] == ["red", "red"]


def test_a_carrier_never_gets_a_fourth_craft(game):
    correct(game, "PLACE red craft S2 S1")
    with pytest.raises(StateError, match="already has 3 craft"):
        correct(game, "PLACE red craft S2 S1")


def test_remove_a_unit_takes_its_deployed_craft_with_it(game, pieces, craft_at):
    correct(game, "REMOVE S1")
    assert "S1" not in pieces(game.state)
    assert craft_at(game.state) == {}


def test_remove_one_strike_craft(game, craft_at):
    correct(game, "REMOVE red craft S2")
    assert craft_at(game.state) == {}


def test_move_a_unit_any_distance(game, pieces):
    correct(game, "MOVE S5 S3")
    assert pieces(game.state)["S3"] == "blue destroyer"


def test_change_and_clear_a_claim(game, claimed):
    correct(game, "CLAIM S3 blue")
    correct(game, "CLAIM S1 none")
    assert claimed(game.state) == {"S3": "blue", "S5": "blue"}


def test_change_a_mineral_value(game):
    correct(game, "MINERALS S3 4")
    assert game.state.galaxy.minerals("S3") == 4


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("PLACE red battleship S5", "already holds"),
        ("PLACE red craft S2 S5", "no Red carrier in S5"),
        ("PLACE pink destroyer S3", "not playing"),
        ("PLACE red tank S3", "not a unit type"),
        ("REMOVE S3", "no unit in S3"),
        ("REMOVE blue craft S2", "no Blue strike craft in S2"),
        ("MOVE S1 S5", "already holds"),
        ("MOVE S9 S3", "no sector S9"),
        ("CLAIM S3 orange", "not an empire colour"),
        ("MINERALS S3 5", "1 to 4"),
        ("MINERALS S3 lots", "a number 1 to 4"),
    ],
)
def test_an_impossible_correction_is_refused_and_changes_nothing(game, text, words):
    before = game.state.to_json()
    with pytest.raises(StateError, match=words):
        correct(game, text)
    assert game.state.to_json() == before
    assert game.steps == []


@pytest.mark.parametrize("text", ["", "FIX S1", "MOVE S1", "MINERALS S1 2 3"])
def test_a_malformed_correction_says_what_was_expected(text):
    with pytest.raises(OrderSyntaxError, match="expected"):
        Correction.parse(text)


def test_corrections_wait_until_between_turns(board):
    state = board("line", units=[("red", "destroyer", "S1")], phase=Phase.RETREATS)
    with pytest.raises(StateError, match="between turns"):
        Correction.parse("MINERALS S2 3").apply(state)


def test_undo_takes_back_the_last_correction_and_then_the_one_before(game):
    start = game.state
    correct(game, "MINERALS S3 4")
    after_first = game.state
    correct(game, "CLAIM S3 red")
    assert game.undo().text() == "CLAIM S3 red"
    assert game.state == after_first
    game.undo()
    assert game.state == start


def test_undo_is_refused_once_a_turn_was_played(game):
    correct(game, "MINERALS S3 4")
    game.play({})
    with pytest.raises(StateError, match="no correction to undo"):
        game.undo()


def test_corrections_and_undo_are_recorded_with_their_reason_and_replay(game):
    correct(game, "PLACE blue battleship S4", "a token was knocked off the table")
    correct(game, "MINERALS S3 4")
    game.undo()
    game.play({RED: "DEPLOY S1 S2"})
    record = GameRecord.of(game)
    step = record.steps[0]
    assert (step.kind, step.inputs) == (
        "correction",
        {"text": "PLACE blue battleship S4", "reason": "a token was knocked off the table"},
    )
    assert [s.kind for s in record.steps] == ["correction", "correction", "undo", "orders"]
    replayed = GameRecord.from_json(record.to_json()).replay()
    assert replayed.state.to_json() == game.state.to_json()
