"""Tests for ``companion table`` (create, list, export, import), run in-process on tmp_path.

The CLI opens the table service on the real clock; these tests start games through the
service API directly (join every seat, then choose from the highest seat down), on the same
database and the same real clock, so no deadline passes while a test runs.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Run, Runner

from companion.local_cluster import GameRecord
from companion.local_cluster.game import Game
from companion.local_cluster.generation import random_setup
from companion.local_cluster.policy import greedy_orders
from companion.local_cluster.session import BUILD, RETREATS
from companion.local_cluster.settings import HouseRules, SupportRange
from companion.service import Stage, Storage, TableService

COLOURS = ["red", "blue", "green", "yellow", "aqua", "purple", "pink", "white"]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the developer's $COMPANION_DB or writes ./var in the repository."""
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables" / "companion.db"


def created(result: Run) -> tuple[str, str]:
    """The table id and host secret a successful ``create`` or ``import`` printed."""
    assert result.code == 0, result.err
    fields = {}
    for line in result.out.splitlines():
        for label in ("Table id", "Host secret"):
            if line.startswith(f"  {label} "):
                fields[label] = line.split()[-1]
    return fields["Table id"], fields["Host secret"]


def create(run: Runner, db: Path, *options: str) -> str:
    table_id, _ = created(run("table", "--db", db, "create", "Friday night", *options))
    return table_id


def service(db: Path) -> TableService:
    """The service as a one-shot command opens it: an outage is recorded only on the tables
    it touches."""
    return TableService(Storage(db), recover=False)


def reader(db: Path) -> TableService:
    """The service as ``table list`` and ``table export`` open it: read-only."""
    return TableService(Storage(db, read_only=True))


def start(db: Path, table_id: str, turns: int = 0) -> None:
    """Fill every seat, choose colours and homes in order, then play ``turns`` turns."""
    with service(db) as tables:
        view = tables.view(table_id)
        seats = [seat["seat"] for seat in view["seats"]]
        sectors = [sector["id"] for sector in view["setup"]["galaxy"]["sectors"]]
        for seat in seats:
            tables.join(table_id, seat, f"Player {seat}")
        spacing = len(sectors) // len(seats)
        for index, seat in enumerate(sorted(seats, reverse=True)):
            choice = {"colour": COLOURS[index], "home": sectors[index * spacing]}
            tables.choose(table_id, seat, choice)
        rng = random.Random(7)
        for _ in range(turns):
            play_turn(tables, table_id, rng)


def play_turn(tables: TableService, table_id: str, rng: random.Random) -> None:
    table = tables.table(table_id)
    assert table.stage == Stage.DISCUSSION
    tables.skip(table_id)
    state = table.require_session().state  # type: ignore[attr-defined]
    for empire in state.empires:
        if not empire.eliminated:
            tables.submit(table_id, empire.seat, greedy_orders(state, empire.colour, rng))
    tables.skip(table_id)  # resolve the turn
    while table.stage in (RETREATS, BUILD):
        tables.skip(table_id)  # default retreats; nobody builds


def listing(result: Run) -> dict[str, list[str]]:
    """``table list`` rows by table id: the cells after the id, split on runs of 2+ spaces."""
    assert result.code == 0, result.err
    rows = {}
    for line in result.out.splitlines()[3:]:
        cells = [cell.strip() for cell in line.split("  ") if cell.strip()]
        rows[cells[0]] = cells[1:]
    return rows


def game_of(record_json: str) -> str:
    return GameRecord.from_json(record_json).replay().state.to_json()


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    """A game record one turn in (seed 68, two empires), from the rules core."""
    game = Game(random_setup(68, 2, rules=HouseRules(turn_limit=20)), seed=68)
    rng = random.Random(3)
    state = game.state
    game.play({c: greedy_orders(state, c, rng) for c in state.active_colours})
    path = tmp_path / "game.json"
    path.write_text(GameRecord.of(game).to_json())
    return path


# create ------------------------------------------------------------------------------------


def test_create_prints_the_id_the_host_secret_and_what_comes_next(run: Runner, db: Path) -> None:
    result = run("table", "--db", db, "create", "Friday   night", "--players", "3", "--seed", "5")
    table_id, secret = created(result)
    assert db.is_file()  # the folder was created too
    assert result.out.startswith(f'Created Local Cluster table "Friday night" in {db}.\n')
    out = " ".join(result.out.split())
    assert "Keep it: it opens the host controls" in out
    assert "Seats 3, all free" in out
    assert "Seed 5" in out
    assert "seat 3 first and seat 1 last" in out
    assert "from the table screen of 'companion serve'" in out
    with service(db) as tables:
        assert tables.table_ids() == [table_id]
        assert tables.check_host(table_id, secret)
        view = tables.view(table_id)
    assert view["name"] == "Friday night" and view["stage"] == "lobby"
    assert len(view["seats"]) == 3


def test_create_takes_the_house_rules(run: Runner, db: Path) -> None:
    table_id = create(
        run,
        db,
        "--players=2",
        "--turn-limit=12",
        "--support-range=any",
        "--no-advance-claims",
        "--discussion-seconds=30",
        "--command-seconds=90",
        "--build-seconds=45",
        "--retreat-seconds=15",
    )
    with service(db) as tables:
        rules = HouseRules.from_dict(tables.view(table_id)["setup"]["rules"])
    assert rules == HouseRules(
        support_range=SupportRange.ANY,
        advance_claims_empty=False,
        turn_limit=12,
        discussion_seconds=30,
        command_seconds=90,
        build_seconds=45,
        retreat_seconds=15,
    )


def test_the_same_seed_lays_the_same_galaxy(run: Runner, db: Path) -> None:
    first = create(run, db, "--seed", "11")
    second = create(run, db, "--seed", "11")
    with service(db) as tables:
        assert tables.view(first)["setup"] == tables.view(second)["setup"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["X", "--players", "1"], "--players must be 2 to 8, not 1"),
        (["X", "--players", "9"], "--players must be 2 to 8, not 9"),
        (["   "], "the table name is empty"),
        (["x" * 41], "the table name is 41 characters long; at most 40"),
        (["X", "--turn-limit", "0"], "--turn-limit must be 1 to 1000, not 0"),
        (["X", "--discussion-seconds", "0"], "--discussion-seconds must be 1 to 86400"),
        (["X", "--build-seconds", "86401"], "--build-seconds must be 1 to 86400"),
        (["X", "--support-range", "far"], "invalid choice: 'far'"),
    ],
)
def test_create_refuses_bad_settings_and_writes_nothing(
    run: Runner, db: Path, options: list[str], message: str
) -> None:
    result = run("table", "--db", db, "create", *options)
    assert result.code == 2 and result.out == ""
    assert result.err.count("companion: error: ") == 1 and message in result.err
    assert "Traceback" not in result.err
    assert not db.parent.exists()


# where the database is -----------------------------------------------------------------


def test_the_default_database_is_var_companion_db(run: Runner, tmp_path: Path) -> None:
    table_id = created(run("table", "create", "Here"))[0]
    assert (tmp_path / "var" / "companion.db").is_file()
    assert table_id in listing(run("table", "list"))


def test_companion_db_is_honoured(
    run: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "elsewhere" / "deep" / "tables.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    table_id = created(run("table", "create", "Env"))[0]
    assert path.is_file() and not (tmp_path / "var").exists()
    result = run("table", "list")
    assert table_id in listing(result)
    assert f"1 table in {path}:" in result.out


def test_db_flag_goes_before_or_after_the_command_and_beats_the_environment(
    run: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "env.db"))
    before, after = tmp_path / "before.db", tmp_path / "after.db"
    first = created(run("table", "--db", before, "create", "One"))[0]
    second = created(run("table", "create", "Two", "--db", after))[0]
    assert not (tmp_path / "env.db").exists()
    assert list(listing(run("table", "list", "--db", before))) == [first]
    assert list(listing(run("table", "--db", after, "list"))) == [second]
    # Given twice, the one after the command wins.
    assert list(listing(run("table", "--db", before, "list", "--db", after))) == [second]


def test_a_folder_is_not_a_database(run: Runner, tmp_path: Path) -> None:
    result = run("table", "--db", tmp_path, "list")
    assert result.code == 2
    assert result.err.startswith("companion: error: ") and "is a folder" in result.err


def test_a_database_under_a_file_is_refused(run: Runner, tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    result = run("table", "--db", tmp_path / "plain" / "x.db", "create", "A")
    assert result.code == 2
    assert result.err.startswith("companion: error: ") and "cannot open" in result.err
    assert (tmp_path / "plain").read_text() == "x"


# list --------------------------------------------------------------------------------------


def test_list_without_a_database_says_so_and_creates_none(run: Runner, db: Path) -> None:
    result = run("table", "--db", db, "list")
    assert result.code == 0
    assert result.out.startswith("No tables: ") and "does not exist yet" in result.out
    assert not db.parent.exists()


def test_list_of_an_empty_database(run: Runner, db: Path) -> None:
    db.parent.mkdir()
    Storage(db).close()
    result = run("table", "--db", db, "list")
    assert result.code == 0 and result.out.startswith("No tables in ")


def test_list_shows_stage_turn_seats_pause_and_clock(run: Runner, db: Path) -> None:
    lobby = create(run, db, "--players", "3")
    playing = create(run, db, "--players", "2", "--discussion-seconds", "600")
    start(db, playing, turns=1)
    with service(db) as tables:
        tables.join(lobby, 2, "Early bird")
    with reader(db) as tables:
        record = _export(tables, playing)
    paused = created(run("table", "--db", db, "import", record))[0]
    result = run("table", "--db", db, "list")
    assert result.out.startswith(f"3 tables in {db}:\n\n")
    header = result.out.splitlines()[2].split()
    assert header == ["ID", "NAME", "STAGE", "TURN", "SEATS", "PAUSED", "REMAINING"]
    rows = listing(result)
    assert list(rows) == [lobby, playing, paused]
    assert rows[lobby] == ["Friday night", "Joining", "-", "1/3", "no", "-"]
    name, stage, turn, seats, pause, remaining = rows[playing]
    assert (name, stage, turn, seats, pause) == ("Friday night", "Discussion", "2", "2/2", "no")
    minutes, seconds = remaining.split(":")
    assert 9 * 60 < int(minutes) * 60 + int(seconds) <= 10 * 60
    assert rows[paused][1:] == ["Discussion", "2", "0/2", "yes", "10:00"]


def _export(tables: TableService, table_id: str) -> Path:
    path = Path(f"{table_id}.json")
    path.write_text(tables.export(table_id))
    return path


# export and import -------------------------------------------------------------------------


def test_export_then_import_round_trip(run: Runner, db: Path, tmp_path: Path) -> None:
    table_id = create(run, db, "--players", "3", "--seed", "21", "--turn-limit", "30")
    start(db, table_id, turns=3)
    out = tmp_path / "friday.json"
    result = run("table", "--db", db, "export", table_id, out)
    assert result.code == 0, result.err
    assert f"written to {out}" in " ".join(result.out.split())
    original = out.read_text()
    record = GameRecord.from_json(original)
    assert record.seed == 21 and len(record.steps) >= 3
    assert record.rules.turn_limit == 30
    assert run("replay", out).code == 0

    imported, secret = created(run("table", "--db", db, "import", out, "--name", "Again"))
    assert imported != table_id
    with service(db) as tables:
        assert tables.check_host(imported, secret)
        view = tables.view(imported)
    assert view["name"] == "Again" and view["turn"] == 4 and view["paused"]
    again = run("table", "--db", db, "export", imported, "-")
    assert again.code == 0, again.err
    assert game_of(again.out) == game_of(original)
    assert len(GameRecord.from_json(again.out).steps) == len(record.steps)


def test_export_to_standard_output_by_default(run: Runner, db: Path) -> None:
    table_id = create(run, db, "--players", "2")
    start(db, table_id, turns=1)
    result = run("table", "--db", db, "export", table_id)
    assert result.code == 0 and result.err == ""
    with service(db) as tables:
        assert result.out == tables.export(table_id)


def test_export_before_the_game_starts_is_refused(run: Runner, db: Path, tmp_path: Path) -> None:
    table_id = create(run, db, "--players", "2")
    with service(db) as tables:
        tables.join(table_id, 1, "Ann")
    result = run("table", "--db", db, "export", table_id, tmp_path / "out.json")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"companion: error: table {table_id} (Friday night) has not ")
    assert "no game record yet\n  1 of 2 seats joined, 0 made their setup choice" in result.err
    assert not (tmp_path / "out.json").exists()


def test_export_of_an_unknown_table(run: Runner, db: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    missing = run("table", "--db", db, "export", "0123456789", out)
    assert missing.code == 2
    assert missing.err == (
        f"companion: error: there is no table '0123456789': {db} does not exist yet\n"
    )
    assert not db.exists()
    create(run, db)
    result = run("table", "--db", db, "export", "0123456789", out)
    assert result.code == 2 and result.out == ""
    assert result.err == (
        f"companion: error: there is no table '0123456789' in {db}; "
        "'companion table list' shows them\n"
    )
    assert not out.exists()


def test_export_will_not_overwrite_without_force(run: Runner, db: Path, tmp_path: Path) -> None:
    table_id = create(run, db, "--players", "2")
    start(db, table_id)
    out = tmp_path / "out.json"
    out.write_text("precious")
    refused = run("table", "--db", db, "export", table_id, out)
    assert refused.code == 2
    assert refused.err == f"companion: error: {out} already exists; use --force to replace it\n"
    assert out.read_text() == "precious"
    folder = run("table", "--db", db, "export", table_id, tmp_path)
    assert folder.code == 2 and "is a folder" in folder.err
    forced = run("table", "--db", db, "export", "--force", table_id, out)
    assert forced.code == 0, forced.err
    assert GameRecord.from_json(out.read_text()).seed is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "tables"]  # no temp files


def test_import_carries_on_paused(run: Runner, db: Path, record_file: Path) -> None:
    result = run("table", "--db", db, "import", record_file)
    table_id, _ = created(result)
    assert result.out.startswith(f'Imported {record_file} as Local Cluster table "game" in {db}.')
    out = " ".join(result.out.split())
    assert "Seats 2, all free seat 1: colour blue, home" in out
    assert "1 replayed and checked" in out
    assert "The game carries on at turn 2, discussion phase, paused with 4:00 on the clock" in out
    with service(db) as tables:
        view = tables.view(table_id)
        assert view["paused"] and 239 < view["remaining"] <= 240
        assert [seat["choice"] is not None for seat in view["seats"]] == [True, True]
        exported = tables.export(table_id)
    assert game_of(exported) == game_of(record_file.read_text())
    assert exported == record_file.read_text()  # the very record it was imported from


def test_import_of_a_finished_game_is_not_paused(run: Runner, db: Path, tmp_path: Path) -> None:
    game = Game(random_setup(4, 2, rules=HouseRules(turn_limit=1)), seed=4)
    game.play({})
    assert game.over
    path = tmp_path / "over.json"
    path.write_text(GameRecord.of(game).to_json())
    result = run("table", "--db", db, "import", path, "--name", "Done")
    table_id, _ = created(result)
    assert "The game is over (after turn 1)" in result.out
    rows = listing(run("table", "--db", db, "list"))
    assert rows[table_id] == ["Done", "Game over", "1", "0/2", "no", "-"]


def test_import_of_a_record_that_breaks_the_schema_names_where(
    run: Runner, db: Path, record_file: Path
) -> None:
    data = json.loads(record_file.read_text())
    data["setup"]["empires"][1]["colour"] = "mauve"
    record_file.write_text(json.dumps(data))
    result = run("table", "--db", db, "import", record_file)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(
        f"companion: error: {record_file}: not a Local Cluster game record: "
        "$.setup.empires[1].colour: expected one of 'red'"
    )
    assert not db.parent.exists()  # nothing written, not even an empty database


def _wrong_digest(text: str) -> str:
    data = json.loads(text)
    data["steps"][0]["digest"] = "0" * 16
    return json.dumps(data)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text[:-20], "not JSON: "),
        (_wrong_digest, "step 1 (orders of turn 1) does not replay"),
        (lambda text: "[]", "not a game record: expected a JSON object, found an array"),
    ],
)
def test_import_refuses_a_bad_record_and_writes_nothing(
    run: Runner, db: Path, record_file: Path, damage: Callable[[str], str], message: str
) -> None:
    create(run, db)
    before = files_in(db.parent)
    record_file.write_text(damage(record_file.read_text()))
    result = run("table", "--db", db, "import", record_file)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"companion: error: {record_file}: ")
    assert message in result.err, result.err
    assert files_in(db.parent) == before


def test_import_of_a_missing_file(run: Runner, db: Path, tmp_path: Path) -> None:
    result = run("table", "--db", db, "import", tmp_path / "nope.json")
    assert result.code == 2
    assert result.err == f"companion: error: {tmp_path / 'nope.json'}: no such file\n"


# damaged and foreign databases -------------------------------------------------------------


def _foreign(path: Path) -> None:
    import sqlite3

    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.commit()
    connection.close()


def _random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(8192))


@pytest.fixture(params=["random bytes", "another program's sqlite"])
def bad_db(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "bad" / "companion.db"
    path.parent.mkdir()
    if request.param == "random bytes":
        _random_bytes(path)
        return path, "is not an SQLite database"
    _foreign(path)
    return path, "is an SQLite database of another program (it holds recipes)"


@pytest.mark.parametrize(
    "command",
    [["list"], ["create", "New"], ["export", "0123456789"], ["import", "RECORD"]],
    ids=lambda command: command[0],
)
def test_a_damaged_or_foreign_database_is_refused_and_left_untouched(
    run: Runner, bad_db: tuple[Path, str], command: list[str], record_file: Path
) -> None:
    path, message = bad_db
    before = files_in(path.parent)
    argv = [str(record_file) if word == "RECORD" else word for word in command]
    result = run("table", "--db", path, *argv)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"companion: error: {path} {message}")
    assert "left untouched" in result.err and "Traceback" not in result.err
    assert files_in(path.parent) == before  # same bytes, no journal or WAL files


# usage -------------------------------------------------------------------------------------


def test_one_shot_commands_start_no_timer_thread(
    run: Runner, db: Path, record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: TableService) -> None:
        raise AssertionError("the CLI started the timer thread")

    monkeypatch.setattr(TableService, "start_timer", refuse)
    threads = threading.active_count()
    table_id = create(run, db)
    imported = created(run("table", "--db", db, "import", record_file))[0]
    assert set(listing(run("table", "--db", db, "list"))) == {table_id, imported}
    assert run("table", "--db", db, "export", imported).code == 0
    assert threading.active_count() == threads


def test_table_needs_a_command(run: Runner) -> None:
    result = run("table")
    assert result.code == 2 and "companion: error:" in result.err


def test_help_names_the_database_and_the_commands(run: Runner) -> None:
    result = run("table", "--help")
    assert result.code == 0
    assert "$COMPANION_DB" in result.out and "./var/companion.db" in result.out
    for command in ("create", "list", "export", "import"):
        assert f"companion table {command}" in result.out
    assert "$COMPANION_DB" in run("table", "list", "--help").out
