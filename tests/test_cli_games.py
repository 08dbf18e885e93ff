"""The ``companion`` shell finds each game's commands through its registration (issue 14).

Every registered game can be set up with ``companion new --game NAME``, shown and replayed; a
verb runs the commands of the record's own game; a verb that game lacks is an error naming the
ones it has. A test-only game (``tests/tally_game.py``), registered here only, shows that the
shell knows no game by name: its options, verbs, exit status and house rules all come through.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import tally_game

from companion import games
from companion.cli_table import _create_parser, _house_rule
from companion.commands import CommandError, GameCommands

if TYPE_CHECKING:
    from conftest import Runner

REGISTERED = sorted(entry.name for entry in entry_points(group=games.GROUP))
"""The games installed through their registration (not those a test registers)."""


@pytest.fixture
def tally() -> Iterator[games.Game]:
    game = games.register(tally_game.game())
    yield game
    games.unregister(game.name)


@pytest.fixture
def lc_game(run: Runner, tmp_path: Path) -> Path:
    path = tmp_path / "lc.json"
    assert run("new", path, "--players", "2", "--seed", "3").code == 0
    return path


# Every registered game ---------------------------------------------------------------------


@pytest.mark.parametrize("name", REGISTERED)
def test_new_show_and_replay_work_for_every_registered_game(
    run: Runner, tmp_path: Path, name: str
) -> None:
    path = tmp_path / f"{name}.json"
    made = run("new", path, "--game", name, "--seed", "5")
    assert made.code == 0, made.err
    assert json.loads(path.read_text())["game"] == name
    shown = run("show", path)
    assert shown.code == 0 and shown.out.strip(), shown.err
    replayed = run("replay", path)
    assert replayed.code == 0 and replayed.out.startswith("replayed "), replayed.err


@pytest.mark.parametrize("name", REGISTERED)
def test_every_registered_game_names_loadable_commands(name: str) -> None:
    game = games.get(name)
    assert game.cli is not None
    assert isinstance(games.resolve(game.cli), GameCommands)


@pytest.mark.parametrize("name", REGISTERED)
def test_new_with_a_game_and_help_shows_that_games_options(run: Runner, name: str) -> None:
    result = run("new", "--game", name, "--help")
    assert result.code == 0
    assert result.out.startswith("usage: companion new [-h]")
    assert f"Set up a new game of {games.get(name).title}" in result.out


def test_new_help_lists_the_games(run: Runner, tally: games.Game) -> None:
    result = run("new", "--help")
    assert result.code == 0
    assert "Games (--game NAME; default local-cluster):" in result.out
    assert " tally Tally, 1 to 3 players: Add numbers. " in " ".join(result.out.split())
    for name in REGISTERED:
        assert f"  {name} " in result.out
    assert "companion new --game NAME --help" in result.out


def test_new_of_an_unknown_game_lists_the_games(run: Runner, tmp_path: Path) -> None:
    result = run("new", tmp_path / "x.json", "--game", "chess")
    assert result.code == 2
    assert result.err.startswith("companion: error: there is no game 'chess'; the games are: ")
    assert not (tmp_path / "x.json").exists()


# A game the shell has never heard of --------------------------------------------------------


def test_a_registered_game_brings_its_own_options_verbs_and_commands(
    run: Runner, tmp_path: Path, tally: games.Game
) -> None:
    path = tmp_path / "t.json"
    made = run("new", path, "--game", "tally", "--start", "3", "--label", "apples")
    assert made.code == 0, made.err
    assert made.out == f"New tally in {path}, starting at 3.\n"
    assert run("show", path).out == "Tally apples: 3\n"
    added = run("add", path, "4")
    assert added.code == 0 and added.out == f"Tally: 7\nRecorded in {path}.\n"
    assert json.loads(path.read_text())["steps"] == [3, 4]
    assert run("replay", path).out == "replayed 2 steps; the count is 7\n"
    assert run("tally-rules").out == "Add numbers; that is all.\n"
    help_text = " ".join(run("--help").out.split())
    assert " add " in help_text and "Add a number to the tally. (Tally)" in help_text
    assert "adjudicate" in help_text and "(Local Cluster, Cosmic Cluster)" in help_text


def test_a_verbs_exit_status_comes_through_and_an_unchanged_record_is_not_written(
    run: Runner, tmp_path: Path, tally: games.Game
) -> None:
    path = tmp_path / "t.json"
    run("new", path, "--game", "tally", "--start", "3")
    before = path.stat().st_mtime_ns, path.read_bytes()
    odd = run("check", path)
    assert (odd.code, odd.out, odd.err) == (1, "3 is odd\n", "")
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before
    run("add", path, "1")
    assert run("check", path).code == 0


def test_a_verb_the_records_game_lacks_names_the_verbs_it_has(
    run: Runner, tmp_path: Path, lc_game: Path, tally: games.Game
) -> None:
    path = tmp_path / "t.json"
    run("new", path, "--game", "tally")
    result = run("adjudicate", path, stdin="Red:\nHOLD S1\n")
    assert result.code == 2 and result.out == ""
    assert result.err == (
        f"companion: error: {path} is a Tally game, which has no 'adjudicate' command; its "
        "commands are: show, replay, add, check\n"
    )
    before = lc_game.read_bytes()
    result = run("add", lc_game, "2")
    assert result.code == 2
    assert result.err == (
        f"companion: error: {lc_game} is a Local Cluster game, which has no 'add' command; its "
        "commands are: show, replay, adjudicate, retreat, build\n"
    )
    assert lc_game.read_bytes() == before


def test_the_same_verb_runs_the_records_own_game(run: Runner, tmp_path: Path) -> None:
    local, cosmic = tmp_path / "lc.json", tmp_path / "cc.json"
    run("new", local, "--players", "2", "--seed", "3")
    run("new", cosmic, "--game", "cosmic-cluster", "--players", "2", "--seed", "3")
    assert "Turn 1 resolved." in run("adjudicate", local, stdin="").out
    assert "Orders of spring 4001:" in run("adjudicate", cosmic, stdin="").out


def test_a_verbs_help_with_a_record_is_that_games_and_without_one_every_games(
    run: Runner, lc_game: Path, tally: games.Game
) -> None:
    own = run("adjudicate", lc_game, "--help")
    assert own.code == 0
    assert own.out.startswith("usage: companion adjudicate [-h] GAME.json [ORDERS.txt]")
    assert "(Local Cluster)" in own.out and "HOLD s, MOVE s t" in own.out
    every = run("adjudicate", "--help")
    assert every.code == 0
    assert every.out.startswith("usage: companion adjudicate GAME.json ...")
    assert "Local Cluster (local-cluster):" in every.out
    assert "Cosmic Cluster (cosmic-cluster):" in every.out
    assert "Tally" not in every.out
    missing = run("add")
    assert missing.code == 2
    assert "the following arguments are required: GAME.json" in missing.err


def test_a_verbs_bad_arguments_are_a_usage_error(
    run: Runner, tmp_path: Path, tally: games.Game
) -> None:
    path = tmp_path / "t.json"
    run("new", path, "--game", "tally")
    result = run("add", path, "many")
    assert result.code == 2
    assert "usage: companion add [-h] GAME.json N" in result.err
    assert "argument N: invalid int value: 'many'" in result.err


def test_a_verbs_command_error_keeps_every_line_and_the_record(
    run: Runner, tmp_path: Path, tally: games.Game
) -> None:
    path = tmp_path / "t.json"
    run("new", path, "--game", "tally")
    before = path.read_bytes()
    result = run("add", path, "0")
    assert (
        result.err == "companion: error: adding 0 changes nothing\n  give a number other than 0\n"
    )
    assert path.read_bytes() == before


def test_a_bad_record_is_named_by_its_path(run: Runner, tmp_path: Path, tally: games.Game) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "tally", "version": 1, "game": "tally", "count": 2}))
    result = run("add", path, "1")
    assert result.err == (
        f"companion: error: {path}: not a Tally game record: $: missing required property 'steps'\n"
    )
    path.write_text(json.dumps({"game": "chess"}))
    shown = run("show", path)
    assert shown.err.startswith(f"companion: error: {path}: there is no game 'chess'")
    path.write_text("[1]")
    shown = run("replay", path)
    assert shown.err == (
        f"companion: error: {path}: not a game record: expected a JSON object, found an array "
        "of 1 item\n"
    )
    path.write_text("{}")
    assert run("show", path).err == (
        f'companion: error: {path}: not a game record: it does not say which game it is (no "game"'
        " field)\n"
    )


def test_a_game_whose_commands_do_not_load_says_why_and_the_rest_still_work(
    run: Runner, tmp_path: Path
) -> None:
    broken = games.register(tally_game.game(cli="no_such_module_here:COMMANDS"))
    try:
        result = run("new", tmp_path / "t.json", "--game", "tally")
        assert result.code == 2
        assert result.err.startswith(
            "companion: error: Tally's commands did not load (no_such_module_here:COMMANDS): "
            "ModuleNotFoundError"
        )
        assert run("new", tmp_path / "lc.json", "--seed", "1").code == 0
        assert "add" not in run("--help").out.split()
    finally:
        games.unregister(broken.name)


# table create: the game's house rules as options --------------------------------------------


def test_table_create_offers_the_games_house_rules(run: Runner, tally: games.Game) -> None:
    result = run("table", "create", "--game", "tally", "--help")
    assert result.code == 0
    out = " ".join(result.out.split())
    assert "house rules of Tally:" in out
    assert "--scoring {sum,max} How the tally counts. Default: add." in out
    assert "--strict, --no-strict Refuse negative numbers. Default: no." in out
    assert "--limit N The highest count. Default: 100." in out
    assert "--motto TEXT Said at the start. Default: count on." in out
    assert "number of seats, 1-3 (default 3)" in out


def test_table_create_without_a_game_lists_the_games(run: Runner, tally: games.Game) -> None:
    result = run("table", "create", "--help")
    assert result.code == 0
    assert "Games (--game NAME; default local-cluster):" in result.out
    assert "companion table create --game NAME --help" in result.out


@pytest.mark.parametrize(
    ("name", "given", "value"),
    [
        ("scoring", "max", "max"),
        ("scoring", "most", "max"),
        ("strict", True, True),
        ("limit", "7", 7),
        ("floor", "0", 0),
        ("motto", "onwards", "onwards"),
    ],
)
def test_a_house_rule_given_on_the_command_line(
    tally: games.Game, name: str, given: object, value: object
) -> None:
    assert _house_rule(tally.house_rule(name), given) == value


@pytest.mark.parametrize(
    ("name", "given", "message"),
    [
        ("limit", "0", "--limit must be 1 to 1000, not 0"),
        ("limit", "lots", "--limit must be a whole number, not 'lots'"),
        ("floor", "-1", "--floor must be at least 0, not -1"),
    ],
)
def test_a_bad_house_rule_names_its_option(
    tally: games.Game, name: str, given: str, message: str
) -> None:
    with pytest.raises(CommandError, match=f"^{message}$"):
        _house_rule(tally.house_rule(name), given)


def test_table_create_passes_the_house_rules_to_the_game(
    run: Runner, tmp_path: Path, tally: games.Game
) -> None:
    parsed = _create_parser(tally).parse_args(["T", "--game", "tally", "--no-strict", "--limit=9"])
    assert (parsed.strict, parsed.limit, parsed.scoring, parsed.motto) == (False, "9", None, None)
    refused = run("table", "--db", tmp_path / "t.db", "create", "T", "--game", "tally")
    assert refused.code == 2
    assert refused.err == "companion: error: Tally is not played at tables\n"


def test_a_table_of_a_turn_taking_game_without_commands(run: Runner, tmp_path: Path) -> None:
    """The service's test-only noughts and crosses: no setup choices, no record commands."""
    import noughts

    game = noughts.register()
    try:
        db = tmp_path / "t.db"
        made = run("table", "--db", db, "create", "Kitchen", "--game", game.name, "--seed", "1")
        assert made.code == 0, made.err
        out = " ".join(made.out.split())
        assert out.startswith('Created Noughts and Crosses table "Kitchen"')
        assert "Seats 2, all free Seed 1 Next: the players join, one to a seat." in out
        assert "The game starts when the last seat has joined." in out
        rows = run("table", "--db", db, "list").out.splitlines()
        assert rows[-1].split()[1:] == ["Kitchen", "Joining", "-", "0/2", "no", "-"]
        refused = run("new", tmp_path / "n.json", "--game", game.name)
        assert (
            refused.err
            == "companion: error: Noughts and Crosses has no commands for the command line\n"
        )
    finally:
        games.unregister(game.name)
