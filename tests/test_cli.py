"""Tests for the ``companion`` command (companion.cli), run in-process on files in tmp_path.

The game used throughout is the README's: seed 68, two empires (Red and Blue) on 12 sectors.
Red's home is S27, Blue's S47; the orders below lead to a combat in turn 4 after which Red's
destroyer owes a retreat from S36 (to S21 or S43).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest

if TYPE_CHECKING:
    from conftest import Runner

from companion.commands import MAX_INPUT_BYTES
from companion.local_cluster import GameRecord, Phase
from companion.local_cluster.order_files import MAX_SHEET_CHARS
from companion.local_cluster.record import schema

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
STATE_FORMAT = ROOT / "docs" / "state-format.md"
EXAMPLE_ORDERS = ROOT / "docs" / "example-orders.txt"

SEED = ["--players", "2", "--colours", "red,blue", "--seed", "68"]
TURN_1 = "Red:\nADVANCE S27 S21\nBlue:\nADVANCE S47 S26\n"
TURN_2 = "[Red]\nADVANCE S21 S46\nblue\nADVANCE S26 S10\n"
BUILD_2 = "Blue:\nBUILD battleship S26\nRed:\nBUILD destroyer S27\nBUILD destroyer S21\n"
TURN_3 = "Blue:\nADVANCE S10 S23\nADVANCE S26 S5\nRed:\nADVANCE S21 S36\nADVANCE S27 S43\n"
TURN_4 = "Blue:\nADVANCE S5 S36\nRed:\nSUPPORT S36 S43\nADVANCE S43 S40\n"


@pytest.fixture
def game(tmp_path: Path, run: Runner) -> Path:
    path = tmp_path / "game.json"
    assert run("new", path, *SEED).code == 0
    return path


def at_retreat(run: Runner, game: Path) -> Path:
    """Play the game on to turn 4's retreat."""
    for command, text in [
        ("adjudicate", TURN_1),
        ("adjudicate", TURN_2),
        ("build", BUILD_2),
        ("adjudicate", TURN_3),
        ("adjudicate", TURN_4),
    ]:
        result = run(command, game, stdin=text)
        assert result.code == 0, result.err
    return game


def phase(path: Path) -> Phase:
    return GameRecord.load(path.read_bytes()).state.phase


# new ---------------------------------------------------------------------------------------


def test_new_writes_a_record_and_prints_the_map(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("new", path, *SEED)
    assert result.code == 0 and result.err == ""
    assert "New game in" in result.out and "seed 68" in result.out
    assert "[S27  2]" in result.out  # the map
    assert "Red     seat 2: home S27; destroyer in S27" in result.out
    assert "Turn 1: waiting for orders from Blue and Red" in result.out
    record = GameRecord.from_json(path.read_bytes())
    assert record.seed == 68 and record.steps == ()
    assert [e.colour.value for e in record.setup.empires] == ["blue", "red"]


def test_new_refuses_to_overwrite_without_force(run: Runner, game: Path) -> None:
    before = game.read_bytes()
    result = run("new", game, "--seed", "1")
    assert result.code == 2
    assert result.err == f"companion: error: {game} already exists; use --force to replace it\n"
    assert game.read_bytes() == before
    assert run("new", game, "--seed", "1", "--force").code == 0
    assert game.read_bytes() != before


def test_new_without_a_seed_picks_one_and_prints_it(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = run("new", path)
    assert result.code == 0
    seed = GameRecord.from_json(path.read_bytes()).seed
    assert f"seed {seed}." in result.out
    assert len(GameRecord.from_json(path.read_bytes()).setup.empires) == 4


def test_new_takes_house_rules(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    options = ["--turn-limit", "12", "--support-range", "any", "--no-advance-claims"]
    assert run("new", path, "--players", "3", "--seed", "5", *options).code == 0
    rules = json.loads(path.read_text())["rules"]
    assert rules["turn_limit"] == 12
    assert rules["support_range"] == "any"
    assert rules["advance_claims_empty"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3", "--colours", "red,blue"], "--players 3 but 2 colours given"),
        (["--colours", "red,red"], "names a colour twice"),
        (["--players", "9"], "Local Cluster is for 2 to 8 players, not 9"),
        (["--turn-limit", "0"], "turn_limit must be at least 1 turn"),
        (["--colours", "red,orange"], "'orange' is not an empire colour"),
    ],
)
def test_new_refuses_bad_settings(
    run: Runner, tmp_path: Path, args: list[str], message: str
) -> None:
    path = tmp_path / "g.json"
    result = run("new", path, *args)
    assert result.code == 2
    assert message in result.err and "companion: error:" in result.err
    assert not path.exists()


# A whole game ------------------------------------------------------------------------------


def test_a_game_from_setup_to_the_second_build_phase(
    run: Runner, game: Path, tmp_path: Path
) -> None:
    shown = run("show", game)
    assert shown.code == 0 and "Standings:" in shown.out and "Key:" in shown.out

    orders = tmp_path / "turn1.txt"
    orders.write_text("# turn one\n" + TURN_1)
    result = run("adjudicate", game, orders)
    assert result.code == 0, result.err
    assert "Turn 1 resolved." in result.out
    assert f"Red ({orders}, line 3)\n  ADVANCE S27 S21: advanced into S21 and claimed it" in (
        result.out
    )
    assert "  S26: Blue (was unclaimed)" in result.out
    assert "Recorded in" in result.out and "(1 step so far)" in result.out

    result = run("adjudicate", game, "-", stdin=TURN_2)  # headers [Red] and blue
    assert result.code == 0, result.err
    assert "Red (standard input, line 2)" in result.out
    assert "Build phase after turn 2: waiting for build plans" in result.out
    assert "Blue income statement" in result.out and "net income" in result.out

    statement = run("build", game, "--statement")
    assert statement.code == 0
    assert statement.out.startswith("Blue income statement\n")
    assert "  net income                           8" in statement.out

    result = run("build", game, stdin=BUILD_2)
    assert result.code == 0, result.err
    assert "Blue (net 8): built a battleship in S26" in result.out
    assert "Red (net 8): built a destroyer in S27; built a destroyer in S21" in result.out

    assert run("adjudicate", game, stdin=TURN_3).code == 0
    result = run("adjudicate", game, stdin=TURN_4)
    assert result.code == 0, result.err
    assert "Combats:\n  S36: Blue attacked from S5 with 3" in result.out
    assert "SUPPORT S36 S43: cut:" in result.out
    assert "no order for the unit in S46: held" in result.out
    assert "Retreats owed:\n  Red destroyer from S36 (attacked from S5): may go to S21, S43" in (
        result.out
    )
    assert "waiting for retreats" in result.out
    assert phase(game) is Phase.RETREATS

    choices = tmp_path / "retreats.txt"
    choices.write_text("# Red keeps its line\nretreat s36 s43\n")
    result = run("retreat", game, choices)
    assert result.code == 0, result.err
    assert "Red destroyer from S36 retreated to S43" in result.out
    assert phase(game) is Phase.BUILD

    result = run("build", game, stdin="")  # nobody builds (R8.2)
    assert result.code == 0, result.err
    assert "Blue (net 14): built nothing" in result.out

    result = run("replay", game)
    assert result.code == 0, result.err
    assert result.out.startswith("replayed 7 steps; position matches the record\n")
    assert "Turn 5: waiting for orders" in result.out

    record = json.loads(game.read_text())
    assert [s["kind"] for s in record["steps"]] == [
        "orders",
        "orders",
        "builds",
        "orders",
        "orders",
        "retreats",
        "builds",
    ]
    assert record["steps"][0]["inputs"] == {"red": "ADVANCE S27 S21", "blue": "ADVANCE S47 S26"}
    assert record["steps"][5]["inputs"] == {"5": "S43"}  # unit 5: a Red destroyer


def test_retreat_defaults_takes_the_lowest_sector(run: Runner, game: Path) -> None:
    at_retreat(run, game)
    result = run("retreat", game, "--defaults")
    assert result.code == 0, result.err
    assert "Red destroyer from S36 retreated to S21" in result.out
    assert "took the default (lowest sector, R5.3) for Red destroyer from S36" in result.out


def test_retreat_with_no_lines_takes_the_defaults(run: Runner, game: Path) -> None:
    at_retreat(run, game)
    result = run("retreat", game, stdin="# nothing chosen\n")
    assert result.code == 0
    assert "retreated to S21" in result.out


def test_show_and_replay_at_a_turn(run: Runner, game: Path) -> None:
    at_retreat(run, game)
    result = run("show", game, "--turn", "0")
    assert result.code == 0
    assert result.out.startswith("Position after the setup (0 of 5 steps):")
    assert "Turn 1: waiting for orders" in result.out
    result = run("replay", game, "--turn", "2")
    assert result.code == 0
    assert "replayed 5 steps; position matches the record" in result.out
    assert "Position after turn 2 (3 of 5 steps):" in result.out
    assert "Turn 3: waiting for orders" in result.out
    result = run("show", game)
    assert "Turn 4: waiting for retreats (companion retreat):" in result.out
    assert "may go to S21, S43; default S21" in result.out


@pytest.mark.parametrize("header", ["Red:", "[Red]", "red", "RED :", "[ red ]:", "Red:  # me"])
def test_header_forms(run: Runner, game: Path, header: str) -> None:
    result = run("adjudicate", game, stdin=f"{header}\nADVANCE S27 S21\n")
    assert result.code == 0, result.err
    assert "ADVANCE S27 S21: advanced into S21" in result.out
    assert "Blue (no orders)\n  no order for the unit in S47: held" in result.out


def test_malformed_order_lines_are_void_not_errors(run: Runner, game: Path) -> None:
    result = run("adjudicate", game, stdin="Red:\nHOLD\nADVNCE S27 S21\nADVANCE S27 S99\n")
    assert result.code == 0, result.err
    assert "HOLD: void: line 1, column 5: expected the sector" in result.out
    assert "did you mean ADVANCE?" in result.out


def test_writing_is_atomic(run: Runner, game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = game.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    result = run("adjudicate", game, stdin=TURN_1)
    assert result.code == 2
    assert "cannot write it: No space left on device" in result.err
    assert game.read_bytes() == before
    assert sorted(p.name for p in game.parent.iterdir()) == ["game.json"]


# Errors: exit 2, a message, the record untouched -------------------------------------------


TAMPER = "tamper"


def _tamper(path: Path) -> None:
    record = json.loads(path.read_text())
    record["steps"][0]["digest"] = "0" * 16
    path.write_text(json.dumps(record))


ERRORS = [
    pytest.param(
        ["adjudicate", "{game}"],
        "Orange:\nHOLD S27\n",
        "standard input, line 1: 'Orange' is not an empire colour (one of Red, Green, Blue,",
        id="unknown-colour",
    ),
    pytest.param(
        ["adjudicate", "{game}"],
        "Red:\nHOLD S27\nGreen:\n",
        "standard input, line 3: Green is not playing in this game (the empires are Blue, Red)",
        id="colour-not-playing",
    ),
    pytest.param(
        ["adjudicate", "{game}"],
        "# orders\nADVANCE S27 S21\nRed:\n",
        "standard input, line 2: 'ADVANCE S27 S21' comes before any empire's header",
        id="lines-before-header",
    ),
    pytest.param(
        ["adjudicate", "{game}"],
        "Red:\nHOLD S27\nBlue:\nRed:\n",
        "standard input, line 4: a second block for Red (the first is at line 1)",
        id="two-blocks",
    ),
    pytest.param(
        ["adjudicate", "{game}"],
        "Red:\n" + "HOLD S27\n" * (MAX_SHEET_CHARS // 9 + 1),
        "Red's orders run to 20006 characters; at most 20000 are kept in a record",
        id="sheet-too-long",
    ),
    pytest.param(
        ["adjudicate", "{game}", "{tmp}/nope.txt"],
        "",
        "nope.txt: no such file",
        id="missing-orders-file",
    ),
    pytest.param(
        ["adjudicate", "{game}"],
        "x" * (MAX_INPUT_BYTES + 1),
        "standard input: over 1 MiB; too big",
        id="orders-too-big",
    ),
    pytest.param(
        ["retreat", "{game}"],
        "RETREAT S27 S21\n",
        "the game is waiting for orders (turn 1), not retreats; use 'companion adjudicate'",
        id="retreat-in-orders-phase",
    ),
    pytest.param(
        ["build", "{game}"],
        "Red:\nBUILD destroyer S21\n",
        "the game is waiting for orders (turn 1), not build plans; use 'companion adjudicate'",
        id="build-in-orders-phase",
    ),
    pytest.param(
        ["show", "{tmp}/missing.json"],
        "",
        "missing.json: no such file",
        id="missing-record",
    ),
    pytest.param(
        ["show", "{tmp}/bad.json"],
        "",
        "bad.json: not JSON: Expecting ',' delimiter at line 1, column 14",
        id="bad-json",
    ),
    pytest.param(
        ["replay", "{tmp}/schema.json"],
        "",
        "schema.json: not a Local Cluster game record: $.setup.turn: expected at least 1, found 0",
        id="schema-violation",
    ),
    pytest.param(
        ["replay", "{game}", TAMPER],
        "",
        "step 1 (orders of turn 1) does not replay: replaying the orders of turn 1 gave a "
        "different position (digest ",
        id="digest-mismatch",
    ),
    pytest.param(
        ["adjudicate", "{game}", TAMPER],
        "Red:\nHOLD S27\n",
        "recorded 0000000000000000)",
        id="digest-mismatch-refuses-to-append",
    ),
    pytest.param(
        ["show", "{game}", "--turn", "3"],
        "",
        "--turn 3: the game has reached turn 1; give 0 (the setup) to 1",
        id="turn-out-of-range",
    ),
]


@pytest.mark.parametrize(("args", "stdin", "message"), ERRORS)
def test_errors_exit_2_and_leave_the_record_alone(
    run: Runner, game: Path, tmp_path: Path, args: list[str], stdin: str, message: str
) -> None:
    (tmp_path / "bad.json").write_text('{"format": 1 "version": 1}')
    broken = json.loads(game.read_text())
    broken["setup"]["turn"] = 0
    (tmp_path / "schema.json").write_text(json.dumps(broken))
    if TAMPER in args:
        args = [a for a in args if a != TAMPER]
        assert run("adjudicate", game, stdin=TURN_1).code == 0
        _tamper(game)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    argv = [a.format(game=game, tmp=tmp_path) for a in args]
    result = run(*argv, stdin=stdin)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("companion: error: ")
    assert message in result.err
    assert "Traceback" not in result.err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_an_over_budget_plan_lists_every_reason(run: Runner, game: Path) -> None:
    for text in (TURN_1, TURN_2):
        assert run("adjudicate", game, stdin=text).code == 0
    before = game.read_bytes()
    plans = (
        "Blue:\nBUILD carrier S26\nBUILD destroyer S5\n"
        "Red:   # second empire\nREPLENISH S27\nbuild cruiser S21\n"
    )
    result = run("build", game, stdin=plans)
    assert result.code == 2
    assert result.err.splitlines() == [
        "companion: error: the build plans break the rules (3 problems); nothing was built:",
        "  Blue: you can build only in your own claimed sectors, and S5 is not one",
        "  Blue: the plan costs 20 minerals but your net income is 8 (R6.5)",
        "  Red: standard input, line 6, column 7: expected a unit type: destroyer, battleship"
        " or carrier, found 'cruiser'",
    ]
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    ("choices", "message"),
    [
        ("RETREAT S36 S99\n", "line 1: Red destroyer from S36 cannot retreat to S99; its options"),
        ("RETREAT S5 S21\n", "line 1: no unit owes a retreat from S5; retreats are owed from S36"),
        ("# c\nRETREAT S36\n", "line 2: expected 'RETREAT FROM TO'"),
        ("RETREAT S36 S21\nRETREAT S36 S43\n", "line 2: a second retreat for the unit from S36"),
        ("GO S36 S21\n", "found 'GO S36 S21'"),
    ],
)
def test_bad_retreat_choices(run: Runner, game: Path, choices: str, message: str) -> None:
    at_retreat(run, game)
    before = game.read_bytes()
    result = run("retreat", game, stdin=choices)
    assert result.code == 2 and message in result.err
    assert game.read_bytes() == before


def test_usage_errors_return_2(run: Runner) -> None:
    result = run()
    assert result.code == 2 and "companion: error:" in result.err
    assert run("new").code == 2
    assert run("--help").code == 0


def test_sheet_limit_is_the_schemas() -> None:
    step = schema()["$defs"]["step"]["properties"]["inputs"]
    assert step["additionalProperties"]["maxLength"] == MAX_SHEET_CHARS


# demo --------------------------------------------------------------------------------------


def test_demo_plays_to_the_turn_limit_and_records_the_game(run: Runner, tmp_path: Path) -> None:
    out = tmp_path / "demo.json"
    result = run("demo", "--seed", "5", "--turns", "8", "--record", out)
    assert result.code == 0, result.err
    assert "Local Cluster demo: 4 greedy empires on 24 sectors, seed 5, up to 8 turns." in (
        result.out
    )
    for heading in ("== Turn 1 ", "== Turn 8 ", "-- Build phase after turn 2 --", "== Game over"):
        assert heading in result.out
    assert "Standings:" in result.out and "The game is over after turn 8." in result.out
    assert max(len(line) for line in result.out.splitlines()) <= 100
    game = GameRecord.load(out.read_bytes())
    assert game.over and game.state.turn == 8
    assert run("demo", "--seed", "5", "--record", out).code == 2  # exists, no --force


def test_demo_pauses_between_turns(run: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("companion.local_cluster.demo.time.sleep", pauses.append)
    assert run("demo", "--seed", "2", "--turns", "3", "--delay", "0.5").code == 0
    assert pauses == [0.5, 0.5]


def test_python_m_companion_demo() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--turns", "6", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "== Game over" in done.stdout


# The documents' examples -------------------------------------------------------------------


def _worked_example() -> list[tuple[list[str], str, list[str]]]:
    """(argv, stdin, expected output lines) for each ``$ companion`` line of the README's
    worked example (the ```console blocks between the worked-example markers)."""
    text = README.read_text()
    start = text.index("<!-- worked-example: start -->")
    end = text.index("<!-- worked-example: end -->")
    commands: list[tuple[list[str], str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text[start:end], re.S):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            assert lines[index].startswith("$ companion "), lines[index]
            command = lines[index][2:]
            index += 1
            stdin = ""
            if command.endswith("<<'END'"):
                command = command.removesuffix("<<'END'")
                body = []
                while lines[index] != "END":
                    body.append(lines[index])
                    index += 1
                index += 1
                stdin = "\n".join(body) + "\n"
            expected = []
            while index < len(lines) and not lines[index].startswith("$ "):
                expected.append(lines[index])
                index += 1
            commands.append((shlex.split(command)[1:], stdin, expected))
    return commands


def _matches(expected: list[str], actual: list[str]) -> bool:
    """``expected``, where a line ``...`` stands for any run of lines, against ``actual``."""
    any_lines = "(?:.*\n)*?"
    pattern = "".join(any_lines if line == "..." else re.escape(line) + "\n" for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def test_the_readme_worked_example(
    run: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / EXAMPLE_ORDERS.name).write_text(EXAMPLE_ORDERS.read_text())
    monkeypatch.chdir(tmp_path)
    commands = _worked_example()
    assert len(commands) >= 6
    for argv, stdin, expected in commands:
        result = run(*argv, stdin=stdin)
        actual = (result.out + result.err).splitlines()
        wanted_code = 2 if expected and expected[0].startswith("companion: error:") else 0
        assert result.code == wanted_code, (argv, result.err)
        assert _matches(expected, [line.rstrip() for line in actual]), (
            f"companion {' '.join(argv)} printed:\n" + "\n".join(actual)
        )


def test_the_readme_shows_the_example_orders_file_verbatim() -> None:
    assert f"```text\n{EXAMPLE_ORDERS.read_text()}```" in README.read_text()


def _example_record() -> str:
    blocks = re.findall(r"```json\n(.*?)```", STATE_FORMAT.read_text(), re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def test_the_state_format_example_record_loads() -> None:
    text = _example_record()
    jsonschema.Draft202012Validator(schema()).validate(json.loads(text))
    record = GameRecord.from_json(text)
    assert len(record.setup.empires) == 2 and [s.kind for s in record.steps] == ["orders"]
    game = record.replay()
    assert game.state.turn == 2 and game.state.phase is Phase.ORDERS


def test_the_state_format_example_replays_on_the_command_line(run: Runner, tmp_path: Path) -> None:
    path = tmp_path / "example.json"
    path.write_text(_example_record())
    result = run("replay", path)
    assert result.code == 0, result.err
    assert result.out.startswith("replayed 1 step; position matches the record\n")
