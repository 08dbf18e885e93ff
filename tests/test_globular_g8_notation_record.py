"""Globular Cluster rulings G8: notation, dice, refusals, records and undo."""

from __future__ import annotations

import functools
import json
import random

import pytest

from companion.errors import RecordError
from companion.globular.bots import random_game
from companion.globular.errors import NotationError, Refusal
from companion.globular.game import GlobularGame
from companion.globular.notation import (
    Colonize,
    Draw,
    End,
    Improve,
    Mine,
    Move,
    Place,
    Station,
    Timeout,
    Trade,
    Turn,
    Warp,
    parse_line,
)
from companion.globular.record import load_record, record_json
from companion.globular.settings import Dice, Settings, StackKeeper
from companion.globular.tiles import Colour
from tests.globular_helpers import P, figure_2, lay, new_game, play, player, put, start_actions

CANONICAL = [
    "draw bk4",
    "place i5 br",
    "move m7>k7",
    "move m7>k7 x3",
    "move m7>k7>i7 leader",
    "warp m7>i5 x2",
    "warp h6>j8 leader",
    "mine i5",
    "mine i5 x2 roll 2 5",
    "mine k7 roll n",
    "trade red give 4 take 5",
    "trade green give n1 take 23",
    "improve i7",
    "improve i7 x2",
    "colonize i7",
    "colonize i7 leader",
    "station h6",
    "end",
    "timeout",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_g8_2_every_line_round_trips(text: str) -> None:
    line = parse_line(text)
    assert line.text() == text
    assert eval(repr(line)) == line


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("DRAW BK4", "draw bk4"),
        ("move MITS > k7   X3", "move m7>k7 x3"),
        ("move m7>k7 x1", "move m7>k7"),
        ("mine i5 x2 roll null 1", "mine i5 x2 roll n a"),
        ("mine i5 roll ACE", "mine i5 roll a"),
        ("trade RD give 2/3 take N/1", "trade red give 23 take n1"),
        ("improve i7 x1", "improve i7"),
    ],
)
def test_g8_2_notation_is_case_insensitive_with_aliases(text: str, canonical: str) -> None:
    assert parse_line(text).text() == canonical


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("fly m7>k7", "not a word of the notation"),
        ("move m7", "not a path"),
        ("move m7>k7 x0", "a count is x1 to x12"),
        ("move m7>k7 x13", "a count is x1 to x12"),
        ("move m7>k7 x2 leader", "is not expected here"),
        ("warp m7>k7>i7", "in one jump"),
        ("place i5", "needs a position and a tick corner"),
        ("place i5 up", "not a corner"),
        ("mine i5 roll 6", "not a die face"),
        ("mine i5 roll", "roll needs the face"),
        ("trade red give 4", "a trade reads"),
        ("trade purple give 4 take 5", "not a colour"),
        ("trade red give 6 take 5", "not a crystal type"),
        ("draw bk9", "not a tile"),
        ("end now", "is not expected here"),
        ("", "the line is empty"),
        ("colonize i7 coin", "only 'leader' may follow"),
    ],
)
def test_g8_2_text_that_is_not_notation_is_refused_with_the_word(text: str, words: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_line(text)
    assert words in caught.value.reason
    assert caught.value.ruling == "G8.2"


def test_g8_2_each_line_kind_parses_as_itself() -> None:
    assert isinstance(Draw.parse("draw bk4"), Draw)
    assert Place.parse("place i5 br").position == P("i5")
    assert Move.parse("move m7>k7 x3").count == 3
    assert Warp.parse("warp m7>i5 leader").leader
    assert Mine.parse("mine i5 x2").count == 2
    assert Trade.parse("trade red give 4 take 5").colour is Colour.RED
    assert Improve.parse("improve i7 x2").count == 2
    assert Colonize.parse("colonize i7 leader").leader
    assert Station.parse("station h6").position == P("h6")
    assert End.parse("END") == End()
    assert Timeout.parse("timeout") == Timeout()
    with pytest.raises(NotationError, match="is not a move line"):
        Move.parse("end")


def test_g8_2_a_turn_is_lines_in_order() -> None:
    turn = Turn.parse("draw bk4; place i5 br\n# a comment\nmove m7>k7 x3  # three\n\nend")
    assert turn.text() == "draw bk4\nplace i5 br\nmove m7>k7 x3\nend"
    assert Turn.parse(turn.text()) == turn
    assert eval(repr(turn)) == turn
    with pytest.raises(NotationError, match=r"line 2: 'fly' is not a word"):
        Turn.parse("end\nfly m7>k7")


def test_g8_2_the_rulebook_turn_reads_as_the_ruling_writes_it() -> None:
    game = new_game()
    figure_2(game)
    play(game, "draw bk4", "place i5 br", "move m7>k7 x3", "mine k7 roll 4", "end")
    assert [line.text() for line in game.turns[0].lines] == [
        "draw bk4",
        "place i5 br",
        "move m7>k7 x3",
        "mine k7 roll 4",
        "end",
    ]


# G8.3 ---------------------------------------------------------------------------------------


def test_g8_3_with_the_companions_dice_a_mine_carrying_faces_is_refused() -> None:
    game = new_game(dice=Dice.COMPANION)
    start_actions(game)
    put(game, "red", {"k7": 1})
    with pytest.raises(Refusal, match=r"without 'roll' \(G8\.3\)"):
        game.play("mine k7 roll 4")
    played = game.play("mine k7")
    assert played.line.text().startswith("mine k7 roll ")  # the face goes into the record


def test_g8_3_with_physical_dice_a_mine_carries_one_face_per_cache() -> None:
    game = new_game(dice=Dice.PHYSICAL)
    start_actions(game)
    lay(game, "j4 bk3 br")
    put(game, "red", {"k7": 1, "j4": 2})
    with pytest.raises(Refusal, match=r"one face per cache.*\(G8\.3\)"):
        game.play("mine k7")
    with pytest.raises(Refusal, match=r"\(G8\.3\)"):
        game.play("mine j4 x2 roll 4")
    game.play("mine j4 x2 roll 4 5")
    assert game.turns[0].lines[-1].text() == "mine j4 x2 roll 4 5"


# G8.4 ---------------------------------------------------------------------------------------


def test_g8_4_a_refused_line_changes_nothing_and_cites_its_ruling() -> None:
    game = new_game()
    start_actions(game)
    before = (game.state.digest(), len(game.turns[0].lines))
    with pytest.raises(Refusal) as caught:
        game.play("mine l8 roll 4")
    assert str(caught.value) == (
        "l8 holds the black null: only resource tiles (black ace to 5) hold crystal caches (G4.6)"
    )
    assert (game.state.digest(), len(game.turns[0].lines)) == before


def test_g8_4_faces_come_before_the_actions_own_rulings() -> None:
    game = new_game(dice=Dice.COMPANION)
    start_actions(game)
    with pytest.raises(Refusal, match=r"\(G8\.3\)"):
        game.play("mine l8 roll 4")  # also no cache at l8 (G4.6), and no member (G4.7)


def test_g8_4_placement_rulings_in_order() -> None:
    game = new_game()
    game.play("draw bl2")
    # n4 is past the MITS (G3.6), off the pattern for row 4 (G3.2) and far from every tile.
    with pytest.raises(Refusal, match=r"\(G3\.6\)"):
        game.play("place n4 tr")
    with pytest.raises(Refusal, match=r"\(G3\.2\)"):
        game.play("place k4 tr")  # off the pattern, and touching nothing (G3.3)


def test_g8_4_g4_6_comes_before_g4_7_and_g4_10_before_g4_11() -> None:
    game = new_game()
    start_actions(game)
    with pytest.raises(Refusal, match=r"\(G4\.6\)"):
        game.play("mine l8 roll 4")  # no member there either (G4.7)
    lay(game, "i7 gr5 tr")
    game.state.board[P("i7")].pennies = 4
    with pytest.raises(Refusal, match=r"\(G4\.10\)"):
        game.play("improve i7")  # no member there (G4.10), and over 9 (G4.11)


def test_g8_4_the_ap_left_come_last() -> None:
    game = new_game()
    start_actions(game)
    game.state.turn.ap = 2
    with pytest.raises(Refusal, match=r"\(G4\.13\)"):
        game.play("station i7")  # no station on a habitable tile; too dear as well
    with pytest.raises(Refusal, match=r"costs 5 AP but you have 2 left \(G4\.2\)"):
        game.play("station l8")


# G8.5 ---------------------------------------------------------------------------------------


def test_g8_5_a_line_with_a_count_is_all_or_nothing() -> None:
    game = new_game()
    start_actions(game)
    put(game, "red", {"k7": 2})
    with pytest.raises(Refusal, match="the 3rd coin"):
        game.play("move k7>l6 x3")
    assert player(game, "red").coins_at(P("k7")) == 2 and game.state.turn.ap == 10


def test_g8_5_a_path_is_all_or_nothing() -> None:
    game = new_game()
    figure_2(game)
    start_actions(game, "bl4", "m5 bl")
    game.state.turn.ap = 3
    with pytest.raises(Refusal, match=r"costs 4 AP but you have 3 left"):
        game.play("move m7>k7>i7>j6")  # 1 + 1 + 2
    assert player(game, "red").coins_at(P("m7")) == 12


# G8.6 ---------------------------------------------------------------------------------------


@functools.cache
def random_record(seed: int, players: int = 3, **kwargs: object) -> tuple[GlobularGame, str]:
    """A whole game of random lines and its record (made once per arguments: tests only read)."""
    settings = Settings(tuple(Colour)[:players], **kwargs)  # type: ignore[arg-type]
    game = random_game(GlobularGame(settings, seed), random.Random(seed))
    return game, record_json(game)


def test_g8_6_a_record_replays_byte_for_byte() -> None:
    game, text = random_record(3)
    assert game.over
    again = load_record(text)
    assert record_json(again) == text
    assert again.state.digest() == game.state.digest()


def test_g8_6_a_game_in_progress_replays_too() -> None:
    game = new_game(stack=StackKeeper.COMPANION, dice=Dice.COMPANION)
    start_actions_companion(game)
    text = record_json(game)
    assert record_json(load_record(text)) == text


def start_actions_companion(game: GlobularGame) -> None:
    legal = game.legal_placements()
    first = sorted(legal)[0]
    game.play(f"place {first} {legal[first][0]}")
    game.play("move m7>k7")
    game.play("mine k7")


def test_g8_6_same_settings_seed_and_lines_give_the_same_bytes() -> None:
    assert random_record(8)[1] == random_record(8)[1]
    assert random_record(8)[1] != random_record(9)[1]


def test_g8_6_physical_dice_and_stack_are_recorded_as_entered() -> None:
    _, text = random_record(4, 2, dice=Dice.PHYSICAL, stack=StackKeeper.PHYSICAL)
    assert record_json(load_record(text)) == text


def tamper(text: str, change: object) -> str:
    data = json.loads(text)
    change(data)  # type: ignore[operator]
    return json.dumps(data)


def test_g8_6_a_roll_the_seed_did_not_make_is_refused() -> None:
    _, text = random_record(5)
    data = json.loads(text)
    for turn in data["turns"]:
        for index, line in enumerate(turn["lines"]):
            if line.startswith("mine") and "x2" not in line:
                face = line.split()[-1]
                turn["lines"][index] = line[: -len(face)] + ("5" if face != "5" else "4")
                with pytest.raises(RecordError, match=r"seed rolls"):
                    load_record(json.dumps(data))
                return
    pytest.fail("the random game mined nothing")


def test_g8_6_a_draw_the_seed_did_not_make_is_refused() -> None:
    _, text = random_record(6)

    def change(data: dict) -> None:  # type: ignore[type-arg]
        first = data["turns"][0]["lines"][0]
        data["turns"][0]["lines"][0] = "draw bk4" if first != "draw bk4" else "draw gr2"

    with pytest.raises(RecordError, match=r"the seed's stack gives"):
        load_record(tamper(text, change))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(game="local-cluster"), "not a Globular Cluster game record"),
        (lambda d: d["settings"].update(dice="loaded"), "not a Globular Cluster game record"),
        (lambda d: d["turns"][0].update(seat=2), "the replay gives"),
        (lambda d: d["turns"][1].update(digest="0" * 16), "does not match"),
        (lambda d: d.update(result=None), "result"),
        (lambda d: d["turns"][1]["lines"].insert(1, "station i7"), "does not replay"),
        (lambda d: d["turns"].pop(), "turns but its lines lead to"),
    ],
)
def test_g8_6_a_record_that_does_not_replay_is_refused(change: object, words: str) -> None:
    _, text = random_record(7)
    with pytest.raises(RecordError, match=words):
        load_record(tamper(text, change))


def test_g8_6_text_that_is_not_a_record_is_refused() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        load_record("{")
    with pytest.raises(RecordError, match="not a Globular Cluster game record"):
        load_record("[]")


# G8.7 ---------------------------------------------------------------------------------------


def test_g8_7_lines_are_taken_back_latest_first() -> None:
    game = new_game()
    start_actions(game)
    play(game, "move m7>k7 x2", "move m7>l6")
    assert game.take_back().text() == "move m7>l6"
    assert game.take_back().text() == "move m7>k7 x2"
    assert game.state.turn.ap == 10 and player(game, "red").coins_at(P("m7")) == 12


def test_g8_7_a_mine_and_everything_before_it_stand() -> None:
    game = new_game()
    start_actions(game)
    play(game, "move m7>k7", "mine k7 roll 4", "move m7>l6")
    game.take_back()
    with pytest.raises(Refusal, match=r"a mine's roll is known.*\(G8\.7\)"):
        game.take_back()


def test_g8_7_the_draw_stands_and_a_placement_can_be_made_again() -> None:
    game = new_game()
    game.play("draw bl2")
    with pytest.raises(Refusal, match=r"the draw stands, and the lines before it \(G8\.7\)"):
        game.take_back()
    play(game, "place j6 br", "move m7>k7")
    game.take_back()
    assert game.take_back().text() == "place j6 br"
    assert game.state.turn.to_place is not None
    game.play("place j8 tl")


def test_g8_7_nothing_of_an_ended_turn_is_taken_back() -> None:
    game = new_game()
    start_actions(game)
    play(game, "move m7>k7", "end")
    with pytest.raises(Refusal, match=r"\(G8\.7\)"):
        game.take_back()


def test_g8_7_with_the_companions_dice_a_draft_stops_at_a_mine() -> None:
    game = new_game(dice=Dice.COMPANION)
    start_actions(game)
    preview = game.preview([parse_line("move m7>k7"), parse_line("mine k7"), parse_line("end")])
    assert preview.refused is None
    mine = preview.played[1]
    assert mine.cost == 3 and "rolled when the line is played" in mine.said[0]
    assert game.state.rolls == 0  # nothing rolled
    preview = game.preview(
        [parse_line("move m7>k7"), parse_line("mine k7"), parse_line("move m7>l6")]
    )
    assert preview.refused is not None and preview.refused.ruling == "G8.7"


# G8.1 ---------------------------------------------------------------------------------------


def test_g8_1_the_companion_records_everything_the_ruling_lists() -> None:
    game = new_game()
    figure_2(game)
    start_actions(game, "bk4", "i5 br")
    put(game, "red", {"i7": 2, "k7": 1})
    play(game, "improve i7", "mine k7 roll 5", "station l8")
    data = game.state.to_dict()
    assert data["board"]["i5"] == {
        "tile": "bk4",
        "corner": "br",
        "pennies": 4,
        "station": None,
        "colonist": None,
    }
    assert data["board"]["l8"]["station"] == "red"
    assert data["stack"]["gr4"] == 2 and data["stack_size"] == 27 - 6
    assert data["set_aside"] == [] and data["supernova"] is None
    red = data["players"][0]
    assert red["coins"] == {"i7": 2, "k7": 1, "m7": 9}
    assert red["leader"] == "m7" and red["coins_out"] == 0
    assert red["crystals"] == {"n1": 0, "23": 0, "4": 0, "5": 1}
    assert (red["stations"], red["stations_left"], red["colony"], red["vp"]) == (["l8"], 1, None, 0)
    assert data["turn"]["seat"] == 1 and data["turn"]["kind"] == "normal"
    assert data["turn"]["ap"] == 10 - 2 - 3 - 5
    assert (data["turn"]["mined"], data["turn"]["mined_at"]) == (1, "k7")
    assert data["turn"]["improved"] == {"i7": 1}
    assert data["rounds"] == []


# G8.8 ---------------------------------------------------------------------------------------


def test_g8_8_differences_the_camera_sees_are_reported_and_never_applied() -> None:
    from companion.globular.session import GlobularSession

    game = new_game()
    figure_2(game)
    start_actions(game, "bl4", "m5 bl")
    session = GlobularSession(game)
    before = game.state.digest()
    seen = {
        "m7": {
            "tile": "mits",
            "pieces": {"red": {"coins": 11}, "black": {"coins": 12, "leader": True}},
        },
        "k7": {"tile": "bka", "corner": "br", "pennies": 0},
        "i7": {"tile": "gr2"},
        "j6": {"tile": ""},
        "g5": {"tile": "bl3"},
        "l6": {"tile": "bka", "corner": None, "pennies": None, "pieces": None},
        "h6": {},
    }
    result = session.compare_scan(seen)
    messages = [d["message"] for d in result["discrepancies"]]
    assert "m7: red has 12 coins there in the record, the camera sees 11" in messages
    assert "m7: red's leader is there in the record, the camera sees it not there" in messages
    assert any(m.startswith("k7: the tick is in the top-right corner") for m in messages)
    assert "k7: the record has 1 pennies, the camera sees 0" in messages
    assert "i7: the record has gra, the camera sees gr2" in messages
    assert "j6: the record has the green 2 (gr2); the camera sees none" in messages
    assert "g5: the camera sees bl3 where the record has no tile" in messages
    assert not any(m.startswith(("l6", "h6")) for m in messages)  # unknown readings
    assert set(result["missing"]) == {"k5", "m5", "j8", "h8", "l8"}
    assert game.state.digest() == before  # nothing applied


def test_g8_8_a_reading_that_is_not_one_is_refused() -> None:
    from companion.globular.errors import GlobularError
    from companion.globular.scan import BoardScan

    with pytest.raises(GlobularError, match=r"'zz9': 'zz9' is not a position.*\(G8\.8\)"):
        BoardScan.from_dict({"zz9": {"tile": "bka"}})
    with pytest.raises(GlobularError, match=r"'up' is not a corner.*\(G8\.8\)"):
        BoardScan.from_dict({"k7": {"corner": "up"}})


def test_g8_8_with_the_stack_at_the_table_the_tile_seen_is_drawn_then_placed() -> None:
    from companion.globular.session import GlobularSession

    game = new_game()  # the table draws (G3.13): the turn waits for the tile to be entered
    session = GlobularSession(game)
    assert game.state.turn.awaiting_draw
    result = session.compare_scan({"k5": {"tile": "gr2", "corner": "br"}})
    assert result["moves"] == ["draw gr2\nplace k5 br"]
    result = session.compare_scan({"k5": {"tile": "gr2", "corner": "tl"}})
    assert result["moves"] == []  # k5 takes gr2 only with its tick bottom-right (G3.8)
    result = session.compare_scan({"k5": {"tile": "gr2"}, "m5": {"tile": "bl2"}})
    assert result["moves"] == []  # one turn places one tile
    assert game.state.turn.awaiting_draw  # nothing applied
