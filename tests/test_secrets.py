"""Issue 11: secrets stay secret on the Pi too.

The database (pending orders are inside), its -wal and -shm files and its lock are for their
owner only (0600), like the session key beside them. The host secret is never in a URL that a
log or the browser's history keeps, nor in the server's output: it is typed into a form, or a
one-time host link is opened. ``companion table host-link TABLE`` makes a new host secret and
link for a host who lost theirs, and voids the old ones, on every device.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from flask import Flask
from live_server import Browser, ServerProcess
from web_helpers import csrf_of, host_login, make_app, new_table

from companion.service import FakeClock, Storage, TableService
from companion.service.storage import writer_lock


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_database_its_wal_shm_and_lock_files_are_for_their_owner_only(
    tmp_path: Path,
) -> None:
    db = tmp_path / "var" / "companion.db"
    with writer_lock(db), TableService(Storage(db), clock=FakeClock()) as service:
        new_table(service)
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.lock")]
        assert all(each.exists() for each in files)
        assert {str(each): mode(each) for each in files} == {str(each): 0o600 for each in files}


def test_a_database_made_0644_by_an_older_version_is_made_private_when_opened(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.db"
    Storage(db).close()
    os.chmod(db, 0o644)
    Storage(db).close()
    assert mode(db) == 0o600


def test_a_secret_in_the_query_string_is_not_read(service: TableService) -> None:
    app = make_app(service)
    table_id, secret = new_table(service)
    client = app.test_client()
    client.get(f"/t/{table_id}/host/login?secret={secret}")
    assert client.get(f"/t/{table_id}/host").status_code == 403


def cli(db: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "table", *argv, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def printed(said: str, label: str) -> str:
    return next(line for line in said.splitlines() if line.startswith(f"  {label}")).split()[-1]


def test_table_host_link_makes_a_new_link_and_secret_and_voids_the_old_everywhere(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.db"
    with TableService(Storage(db)) as service:
        table_id, old_secret = new_table(service)
    made = cli(db, "host-link", table_id)
    assert made.returncode == 0, made.stderr
    assert "the old host link and host secret no longer open its host controls" in made.stdout
    link, secret = printed(made.stdout, "Host link"), printed(made.stdout, "Host secret")
    assert f"/t/{table_id}/host/link/" in link and secret not in link
    with TableService(Storage(db)) as service:
        site = make_app(service)
        assert host_login(site.test_client(), table_id, old_secret).status_code == 403
        assert host_login(site.test_client(), table_id, secret).status_code == 200
        path = "/t/" + link.split("/t/", 1)[1]
        phone = site.test_client()
        token = csrf_of(phone, path)  # opening it spends nothing (link previews)
        assert phone.post(path, data={"csrf_token": token}).status_code == 200
        assert phone.get(f"/t/{table_id}/host").status_code == 200
        again = site.test_client()
        token = csrf_of(again, path)
        used = again.post(path, data={"csrf_token": token})
        assert used.status_code == 403 and "has been used" in used.get_data(as_text=True)


def test_a_new_host_secret_shuts_out_the_browsers_that_held_the_old(
    service: TableService,
) -> None:
    app: Flask = make_app(service)
    table_id, secret = new_table(service)
    laptop = app.test_client()
    assert host_login(laptop, table_id, secret).status_code == 200
    assert laptop.get(f"/t/{table_id}/host").status_code == 200
    code = service.make_host_link(table_id)
    service.new_host_secret(table_id)
    assert laptop.get(f"/t/{table_id}/host").status_code == 403
    assert not service.use_host_link(table_id, code)  # links of the old secret are void too


def test_the_server_never_prints_nor_logs_the_host_secret(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    with TableService(Storage(db)) as service:
        table_id, secret = new_table(service)
    with ServerProcess(db) as server:
        host = Browser(server.url)
        host.host(table_id, secret)
        host.get(f"/t/{table_id}/host/login?secret={secret}")
        made = cli(db, "host-link", table_id)
        assert made.returncode == 0, made.stderr
        assert server.stop() == 0
    said = "".join(server.said) + server.err
    assert secret not in said and printed(made.stdout, "Host secret") not in said
    assert "host/link/" not in said
