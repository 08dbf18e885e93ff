"""The ``companion`` command's Clustered functions: text in, record text and lines out."""

from __future__ import annotations

import json

import pytest
from clustered_helpers import K720_ORDER

from companion.clustered import commands
from companion.clustered import record as records
from companion.clustered.errors import SettingsError
from companion.errors import CompanionError, RecordError


def new(**kwargs: object) -> str:
    text, _ = commands.new_game(**kwargs)  # type: ignore[arg-type]
    return text


def play(record: str, *moves: str) -> str:
    for move in moves:
        record, _ = commands.place(record, move)
    return record


def test_new_names_colours_seats_and_settings() -> None:
    text, lines = commands.new_game(
        colours=["blue", "o"],
        names=["Ann", "Bo"],
        first=2,
        options={"quick_play": "on", "surface": "-5..9,-4..4"},
    )
    data = json.loads(text)
    assert data["players"] == [{"colour": "B", "name": "Ann"}, {"colour": "O", "name": "Bo"}]
    assert data["first_seat"] == 2
    assert data["settings"]["quick_play"] is True
    assert lines[0] == "New Clustered game: 2 players, 1 start card."
    assert lines[1] == "Settings: surface -5..9,-4..4; quick_play on (the rest as K7.2 says)."
    assert lines[-1].startswith("Orange (seat 2, Bo) to play")


def test_new_with_five_players_lays_two_start_cards() -> None:
    text, lines = commands.new_game(players=5)
    assert lines[0] == "New Clustered game: 5 players, 2 start cards."
    assert len(records.load(text).layout.starts) == 2


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"players": 9}, "1 to 8 players, not 9"),
        ({"colours": ["B", "B"]}, "played by two seats"),
        ({"colours": ["B", "X"]}, "no colour 'X'"),
        ({"players": 3, "colours": ["B", "O"]}, "--players 3 but 2 colours"),
        ({"names": ["a", "b", "c"]}, "3 names for 2 seats"),
        ({"options": {"quick": "on"}}, "no setting 'quick'"),
        ({"first": 3}, "seats 1 to 2, not 3"),
    ],
)
def test_new_refuses_what_cannot_be_played(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises((CompanionError, SettingsError), match=says):
        commands.new_game(**kwargs)  # type: ignore[arg-type]


def test_place_plays_the_current_players_card_and_says_what_is_next() -> None:
    record, lines = commands.place(new(), "b-sq-so-2 (1, 0)")
    assert lines[0] == "Blue (seat 1): B-sq-so-2 1,0."
    assert json.loads(record)["steps"][0]["move"] == "B-sq-so-2 1,0"
    assert lines[-1].startswith("Orange (seat 2) to play")


def test_place_refuses_with_the_reason_and_no_new_record() -> None:
    record = play(new(), "B-sq-so-2 1,0")
    with pytest.raises(commands.ClusteredInputError) as caught:
        commands.place(record, "O-tr-ho-3 2,0")
    assert str(caught.value) == (
        "refused: O-tr-ho-3 2,0: it shares nothing with the card to its left (B-sq-so-2 at 1,0) "
        "(mismatch, K4.7)"
    )


def test_place_announces_a_first_to_achieve_bonus() -> None:
    record = play(new(options={"first_bonuses": True}), *K720_ORDER[:-1])
    _, lines = commands.place(record, K720_ORDER[-1])
    assert lines[1:3] == [
        "  First 2x3 rectangle bonus to Blue (seat 1)!",
        "  First line of 5 bonus to Blue (seat 1)!",
    ]


def test_score_prints_each_line_the_rectangle_and_each_bonus() -> None:
    record = play(new(options={"first_bonuses": True}), *K720_ORDER)
    assert commands.score(record) == [
        "Score sheet (the table as it stands):",
        "Blue (seat 1): 18 points",
        "  rectangle: 3x2 at x 1..3, y 0..1 (6)",
        "  line: row 1, x 1..3 (3)",
        "  line: row 0, x 1..5 (5)",
        "  bonus: first 2x3 rectangle bonus (2)",
        "  bonus: first line of 5 bonus (2)",
        "Orange (seat 2): 10 points",
        "  rectangle: 2x2 at x -2..-1, y 0..1 (4)",
        "  line: row 0, x -3..-1 (3)",
        "  line: column -1, y 1..-1 (3)",
        "The game goes on: nobody has won yet.",
        "The game is not over: these are the scores of the table as it stands.",
    ]


def test_discard_declares_and_hides_the_card_until_the_end() -> None:
    record = new(options={"surface": "0..1,0..0", "end_when_blocked": False})
    record = play(record, "B-wild 1,0")
    hand = "O-sq-so-1 O-sq-so-2 O-sq-so-3 O-tr-so-1 O-wild"
    record, lines = commands.discard(record, f"O-wild hand {hand}")
    assert lines[0] == "Orange (seat 2): no legal move; a card is discarded face down."
    assert not any("O-wild" in line for line in lines)
    assert "1 discarded" in "\n".join(commands.show(record))


def test_discard_refused_says_why() -> None:
    record = play(new(), "B-sq-so-2 1,0")
    with pytest.raises(commands.ClusteredInputError, match=r"refused \(table-has-move\)"):
        commands.discard(record, "O-wild hand O-wild")


def test_undo_and_stop() -> None:
    record = play(new(), "B-sq-so-2 1,0", "O-sq-so-1 2,0")
    record, lines = commands.undo(record, "misread")
    assert lines[0] == "Undone: Orange (seat 2)'s O-sq-so-1 2,0 (K3.12)."
    record, lines = commands.stop(record, "closing")
    assert lines[-1] == "Unfinished: the host stopped the game, so nobody wins (K5.6)."
    assert commands.show(record)[-1].startswith("The host stopped the game (closing)")


def test_show_up_to_a_step_and_replay() -> None:
    record = play(new(), *K720_ORDER[:6])
    assert commands.show(record, until=1)[:4] == [
        "Position after step 1 of 6:",
        "",
        "y\\x    0    1",
        "  0   ** Bss1",
    ]
    assert commands.replay(record)[0] == "replayed 6 steps; position matches the record"
    assert commands.show(record, until=0)[:3] == ["Position after the setup:", "", "y\\x    0"]
    replayed = commands.replay(record, until=2)
    assert replayed[:5] == [
        "replayed 6 steps; position matches the record",
        "",
        "Position after step 2 of 6:",
        "",
        "y\\x   -1    0    1",
    ]


@pytest.mark.parametrize("until", [-1, 7])
def test_show_refuses_a_step_the_record_does_not_have(until: int) -> None:
    record = play(new(), *K720_ORDER[:6])
    with pytest.raises(CompanionError, match=rf"--turn {until}: the record has 6 steps; give 0"):
        commands.show(record, until=until)
    with pytest.raises(CompanionError, match="give 0 \\(the setup\\) to 6"):
        commands.replay(record, until=until)


def test_a_broken_record_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        commands.show("{")
