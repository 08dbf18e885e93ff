"""``companion serve``: its configuration file, the writer lock, the demo table and the
attachments it starts. (The server itself runs in test_web_browser.py and the benchmark.)"""

from __future__ import annotations

import signal
import subprocess
import sys
import urllib.request
from collections.abc import Mapping
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest

from companion.service import FakeClock, Storage, TableService
from companion.service import attachments as registry
from companion.service.attachments import ConfigError
from companion.service.storage import writer_lock
from web import cli as serve_cli

if TYPE_CHECKING:
    from conftest import Runner


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("port = ", "not valid TOML"),
        ("server = 3", "'server' must be a [section]"),
        ("[server]\nport = 'eighty'", "[server] port must be a int"),
    ],
)
def test_a_bad_config_file_is_a_clear_error(
    run: Runner, tmp_path: Path, content: str, words: str
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(content)
    done = run("serve", "--config", config, "--db", tmp_path / "t.db")
    assert done.code == 2
    assert words in done.err and "Traceback" not in done.err


def test_a_missing_config_file_is_a_clear_error(run: Runner, tmp_path: Path) -> None:
    done = run("serve", "--config", tmp_path / "none.toml", "--db", tmp_path / "t.db")
    assert done.code == 2 and "no such config file" in done.err


def test_serve_is_refused_while_another_companion_writes_the_database(
    run: Runner, db: Path
) -> None:
    with writer_lock(db):
        done = run("serve", "--db", db, "--port", "0")
    assert done.code == 2
    assert "in use by a running companion" in done.err


def test_the_demo_table_is_created_once(service: TableService) -> None:
    table_id, secret = serve_cli.demo_table(service, {"players": 3, "turn_limit": 2})
    assert secret is not None and service.check_host(table_id, secret)
    assert len(service.view(table_id)["seats"]) == 3
    assert serve_cli.demo_table(service, {}) == (table_id, None)


def test_a_bad_demo_section_is_a_clear_error(service: TableService) -> None:
    with pytest.raises(serve_cli.CommandError, match=r"\[demo\]: .*9"):
        serve_cli.demo_table(service, {"players": 9})


class Recorder:
    """An attachment that records what it was given and whether it was closed."""

    started: ClassVar[list[tuple[str, dict[str, Any]]]] = []
    closed: ClassVar[list[str]] = []

    def __init__(self, table_id: str, section: Mapping[str, Any]) -> None:
        if section.get("port") == "bad":
            raise ConfigError("[recorder] port 'bad' does not exist")
        self.table_id = table_id
        Recorder.started.append((table_id, dict(section)))

    def close(self) -> None:
        Recorder.closed.append(self.table_id)


def attach(service: TableService, table_id: str, section: Mapping[str, Any]) -> Recorder:
    return Recorder(table_id, section)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    entry = EntryPoint(name="recorder", value=f"{__name__}:attach", group="companion.attachments")
    monkeypatch.setattr(registry, "available", lambda: [entry])
    Recorder.started, Recorder.closed = [], []
    return Recorder


def test_an_attachment_starts_only_when_its_section_enables_it(
    service: TableService, recorder: type[Recorder]
) -> None:
    with serve_cli.attachments(service, "t1", {}, demo=False) as running:
        assert running == []
    config = {"recorder": {"enabled": True, "pin": 17}}
    with serve_cli.attachments(service, "t1", config, demo=False) as running:
        assert running == ["recorder"]
        assert recorder.started == [("t1", {"pin": 17})]
        assert recorder.closed == []
    assert recorder.closed == ["t1"]


def test_the_demo_starts_attachments_unless_disabled(
    service: TableService, recorder: type[Recorder]
) -> None:
    with serve_cli.attachments(service, "t1", {}, demo=True) as running:
        assert running == ["recorder"]
    off = {"recorder": {"enabled": False}}
    with serve_cli.attachments(service, "t1", off, demo=True) as running:
        assert running == []


def test_an_enabled_attachment_that_cannot_start_is_an_error(
    service: TableService, recorder: type[Recorder]
) -> None:
    config = {"recorder": {"enabled": True, "port": "bad"}}
    with (
        pytest.raises(serve_cli.CommandError, match="port 'bad' does not exist"),
        serve_cli.attachments(service, "t1", config, demo=False),
    ):
        pass


def test_the_demo_skips_an_attachment_that_cannot_start(
    service: TableService, recorder: type[Recorder], capsys: pytest.CaptureFixture[str]
) -> None:
    with serve_cli.attachments(service, "t1", {"recorder": {"port": "bad"}}, demo=True) as running:
        assert running == []
    assert "attachment 'recorder' skipped" in capsys.readouterr().err


def test_serve_demo_prints_its_links_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """The whole command as a process on a free port: it serves, then SIGTERM stops it."""
    db = tmp_path / "t.db"
    command = [sys.executable, "-m", "companion", "serve", "--demo", "--db", str(db)]
    server = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(5)]
        local = next(line for line in lines if "On this machine" in line).split()[-1]
        assert "Host link (keep it private)" in "".join(lines)
        assert "/host/login?secret=" in "".join(lines)
        with urllib.request.urlopen(local) as page:
            assert "Demo table" in page.read().decode()
        assert Path(f"{db}.lock").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=20)
    assert server.returncode == 0, err
    assert not Path(f"{db}.lock").exists()
    with TableService(Storage(db), clock=FakeClock()) as reopened:
        assert len(reopened.table_ids()) == 1


def test_a_port_in_use_is_a_clear_error(run: Runner, db: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--db", db, "--host", "127.0.0.1", "--port", str(port))
    assert done.code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.err and "another --port" in done.err
    assert not Path(f"{db}.lock").exists()
