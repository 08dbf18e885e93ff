"""Host corrections of a Cosmic Cluster position: place, remove and move units, set a centre's
owner; each recorded as a step with its reason, undone in reverse, replayed byte for byte."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from companion.cosmic.corrections import Correction
from companion.cosmic.diplomacy.geography import UnitType
from companion.cosmic.diplomacy.rules import Unit
from companion.cosmic.game import CosmicError, CosmicGame, Phase
from companion.cosmic.record import load_record, record_dict, record_json, schema
from companion.errors import OrderSyntaxError, RecordError, StateError


@pytest.fixture
def game() -> CosmicGame:
    """Two powers, seed 3: P1 at home with A 1, A 4, F 5 and F in orbit; centres 1, 4, 5, 8."""
    return CosmicGame(3, 2)


def home(game: CosmicGame, power: str = "P1") -> str:
    return game.cluster.home_of(power).key


def correct(game: CosmicGame, text: str, reason: str = "the board says so") -> None:
    game.correct(Correction.parse(text, reason))


def test_the_text_form_is_canonical_whatever_the_case() -> None:
    correction = Correction.parse("place p1 a/f Vega-O p2", "knocked over")
    assert correction.text() == "PLACE P1 A/F vega-o P2"
    assert Correction.parse(correction.text()).text() == correction.text()
    assert repr(correction) == "Correction.parse('PLACE P1 A/F vega-o P2', 'knocked over')"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "a correction: PLACE, REMOVE, MOVE, CLAIM, found an empty line"),
        ("SHIFT vega-1 vega-2", "a correction: PLACE, REMOVE, MOVE, CLAIM, found 'SHIFT'"),
        ("PLACE P1 vega-1", "PLACE power type space"),
        ("MOVE vega-1", "MOVE from-space to-space"),
        ("CLAIM vega-1", "CLAIM centre power (or CLAIM centre none), found 2 words"),
        ("REMOVE P1 vega-1", "REMOVE space (or REMOVE power type space)"),
    ],
)
def test_malformed_corrections_say_which_form_was_expected(text: str, expected: str) -> None:
    with pytest.raises(OrderSyntaxError, match=re.escape(expected)):
        Correction.parse(text)


def test_place_an_army_a_fleet_and_an_international_af(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"PLACE P1 A {key}-2")
    correct(game, f"PLACE P2 F {key}-b")
    correct(game, f"PLACE P1 A/F {key}-b P2")
    units = game.position.units
    assert Unit("P1", UnitType.ARMY, f"{key}-2") in units
    assert Unit("P2", UnitType.FLEET, f"{key}-b") in units
    assert Unit("P1", UnitType.FLEET, f"{key}-b", "P2") in units  # a box holds any number


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("PLACE P1 A {key}-o", "cannot hold an army; it goes on a planet's surface"),
        ("PLACE P1 A/F {key}-2", "an A/F is in orbit or in a box"),
        ("PLACE P1 A {key}-1", "already holds P1: A {key}-1"),
        ("PLACE P3 A {key}-2", "there is no power P3 in this game (P1, P2)"),
        ("PLACE P1 B {key}-2", "a unit is A (army), F (fleet) or A/F, not 'B'"),
        ("PLACE P1 F {key}-o P2", "only an A/F carries another power's army"),
        ("PLACE P1 A nowhere-2", "there is no space nowhere-2 in this cluster"),
        ("REMOVE {key}-2", "there is no unit in {key}-2"),
        ("REMOVE P2 A {key}-1", "there is no P2 A in {key}-1"),
        ("MOVE {key}-1 {key}-4", "already holds P1: A {key}-4"),
        ("MOVE {key}-1 {key}-o", "cannot hold an army"),
        ("CLAIM {key}-2 P2", "{key}-2 is not a supply centre"),
    ],
)
def test_impossible_corrections_say_why_and_change_nothing(
    game: CosmicGame, text: str, error: str
) -> None:
    key = home(game)
    with pytest.raises(StateError, match=re.escape(error.format(key=key))):
        correct(game, text.format(key=key))
    assert game.position == game.initial and game.steps == []


def test_remove_takes_the_unit_and_an_af_goes_with_its_army(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"PLACE P2 A/F {key}-b")
    correct(game, f"REMOVE {key}-1")
    correct(game, f"REMOVE {key}-b")
    regions = {u.region for u in game.position.units}
    assert f"{key}-1" not in regions and f"{key}-b" not in regions


def test_a_box_with_several_units_needs_the_one_to_remove_named(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"PLACE P2 F {key}-b")
    correct(game, f"PLACE P1 F {key}-b")
    with pytest.raises(StateError, match=f"{key}-b holds 2 units .*; name one"):
        correct(game, f"REMOVE {key}-b")
    correct(game, f"REMOVE P2 F {key}-b")
    assert [u.power for u in game.position.units if u.region == f"{key}-b"] == ["P1"]


def test_move_puts_the_unit_anywhere_it_may_stand(game: CosmicGame) -> None:
    key, other = home(game), home(game, "P2")
    correct(game, f"MOVE {key}-o {other}-b")
    correct(game, f"MOVE P1 F {other}-b {key}-b")
    assert Unit("P1", UnitType.FLEET, f"{key}-b") in game.position.units


def test_claim_sets_or_clears_a_centres_owner_and_lists_the_change(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"CLAIM {key}-8 P2")
    assert game.position.owner_map[f"{key}-8"] == "P2"
    assert game.steps[-1].result["centres"] == [
        {"centre": f"{key}-8", "before": "P1", "after": "P2", "why": "correction"}
    ]
    correct(game, f"CLAIM {key}-8 none")
    assert f"{key}-8" not in game.position.owner_map


def test_a_correction_is_a_step_with_its_text_and_reason(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"remove {key}-1", "the cat")
    step = game.steps[-1]
    assert (step.kind, step.season) == ("correction", "spring 4001")
    assert step.inputs == {"text": f"REMOVE {key}-1", "reason": "the cat"}
    assert step.result["notes"] == [f"corrected: REMOVE {key}-1"]


def test_undo_goes_back_one_correction_at_a_time(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"REMOVE {key}-1")
    after_first = game.position
    correct(game, f"CLAIM {key}-8 P2")
    undone, step = game.undo()
    assert undone.text() == f"CLAIM {key}-8 P2" and game.position == after_first
    assert step.result["centres"] == [
        {"centre": f"{key}-8", "before": "P2", "after": "P1", "why": "correction"}
    ]
    game.undo()
    assert game.position == game.initial
    with pytest.raises(CosmicError, match="no correction to undo"):
        game.undo()


def test_a_season_played_ends_what_undo_can_reach(game: CosmicGame) -> None:
    correct(game, f"REMOVE {home(game)}-1")
    game.play_orders({})
    with pytest.raises(CosmicError, match="no correction to undo since the last orders"):
        game.undo()


def test_corrections_wait_while_retreats_are_owed(game: CosmicGame) -> None:
    key = home(game, "P2")
    correct(game, f"PLACE P1 A {key}-2")
    correct(game, f"PLACE P1 A {key}-8")
    game.play_orders({"P1": f"A {key}-2 -> {key}-1\nA {key}-8 S A {key}-2 -> {key}-1"})
    assert game.position.phase is Phase.RETREATS
    before = game.position
    with pytest.raises(CosmicError, match="not while the game waits for retreats"):
        correct(game, f"REMOVE {key}-5")
    assert game.position == before


def test_a_record_with_corrections_and_undos_replays_to_the_same_bytes(game: CosmicGame) -> None:
    key = home(game, "P2")
    correct(game, f"PLACE P1 A {key}-2", "forgot to log it")
    correct(game, f"PLACE P1 A {key}-8")
    correct(game, f"CLAIM {key}-4 none")
    game.undo()
    game.play_orders({"P1": f"A {key}-2 -> {key}-1\nA {key}-8 S A {key}-2 -> {key}-1"})
    game.play_retreats({})
    game.play_orders({})
    text = record_json(game)
    loaded = load_record(text)
    assert record_json(loaded) == text
    assert [s.kind for s in loaded.steps] == [
        "correction",
        "correction",
        "correction",
        "undo",
        "orders",
        "retreats",
        "orders",
    ]


def test_a_raid_and_a_fall_capture_are_recorded_as_centre_changes(game: CosmicGame) -> None:
    """The army put on P2's centre 8 raids it in Spring and takes it in Fall."""
    key = home(game, "P2")
    correct(game, f"PLACE P1 A {key}-8")
    spring = game.play_orders({})
    fall = game.play_orders({})
    assert spring.result["centres"] == [
        {"centre": f"{key}-8", "before": "P2", "after": None, "why": "spring raid"}
    ]
    assert fall.result["centres"] == [
        {"centre": f"{key}-8", "before": None, "after": "P1", "why": "fall ownership"}
    ]
    text = record_json(game)
    assert record_json(load_record(text)) == text


def test_the_reference_validator_accepts_a_record_with_corrections(game: CosmicGame) -> None:
    key = home(game)
    correct(game, f"CLAIM {key}-8 none", "a raid we forgot")
    game.undo()
    jsonschema.Draft202012Validator(schema()).validate(record_dict(game))


def test_a_correction_step_without_its_reason_is_not_a_record(game: CosmicGame) -> None:
    correct(game, f"REMOVE {home(game)}-1")
    data = record_dict(game)
    del data["steps"][0]["inputs"]["reason"]
    with pytest.raises(RecordError, match=r"\$\.steps\[0\]\.inputs"):
        load_record(json.dumps(data))
