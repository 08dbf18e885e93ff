"""One writer per table database: the server, or one ``companion table`` command at a time."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from companion.service.storage import DatabaseInUse, writer_lock

if TYPE_CHECKING:
    from conftest import Runner


def test_a_second_writer_is_refused_naming_the_holders_pid(db: Path) -> None:
    with writer_lock(db), pytest.raises(DatabaseInUse) as refused, writer_lock(db):
        pass  # pragma: no cover - never reached
    assert refused.value.pid == os.getpid()
    assert f"in use by a running companion (pid {os.getpid()})" in str(refused.value)
    assert "stop it or use its host page" in str(refused.value)


def test_the_lock_is_free_again_once_released(db: Path) -> None:
    with writer_lock(db):
        pass
    with writer_lock(db) as lock_file:
        assert lock_file == Path(f"{db}.lock")


def test_table_create_is_refused_while_a_server_holds_the_database(db: Path, run: Runner) -> None:
    with writer_lock(db):
        refused = run("table", "create", "Friday", "--db", str(db))
    assert refused.code == 2
    assert "is in use by a running companion" in refused.err
    assert not db.exists()  # nothing was written


def test_table_import_is_refused_while_a_server_holds_the_database(
    db: Path, run: Runner, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    assert run("new", str(record), "--players", "2", "--seed", "3").code == 0
    with writer_lock(db):
        refused = run("table", "import", str(record), "--db", str(db))
    assert refused.code == 2
    assert "is in use by a running companion" in refused.err
    assert not db.exists()


def test_table_list_still_reads_while_a_server_runs(db: Path, run: Runner) -> None:
    assert run("table", "create", "Friday", "--db", str(db)).code == 0
    with writer_lock(db):
        listed = run("table", "list", "--db", str(db))
    assert listed.code == 0
    assert "Friday" in listed.out
