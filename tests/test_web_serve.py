"""``companion serve``: its configuration file, the writer lock, the demo table and the
attachments it starts. (The server itself runs in test_web_browser.py and the benchmark.)"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Mapping
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest
from live_server import Browser

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
        ("[server]\nport = 'eighty'", "[server] port must be a whole number"),
        ("[server]\nport = 70000", "[server] port must be from 0 to 65535, not 70000"),
        ("[server]\ndatabase = 3", "[server] database must be a non-empty string, not 3"),
        ("[server]\ndemo = 'yes'", "[server] demo must be true or false, not 'yes'"),
        ("[server]\ndb = 'x.db'", "[server] db: unknown setting; the settings are host, port"),
        ("[demo]\nplayer = 4", "[demo] player: unknown setting"),
        ("[demo]\ncommand_seconds = 0", "[demo]: "),
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


def options(**given: Any) -> argparse.Namespace:
    """``serve``'s options as argparse gives them when none is on the command line."""
    return argparse.Namespace(
        **{"host": None, "port": None, "threads": None, "db": None, "demo": False, **given}
    )


def test_the_config_file_names_the_database_host_port_and_demo(tmp_path: Path) -> None:
    config = {"server": {"database": "~/tables.db", "host": "127.0.0.1", "port": 80, "demo": True}}
    settings = serve_cli.server_settings(config, options())
    assert settings.database == Path.home() / "tables.db"
    assert (settings.host, settings.port, settings.demo) == ("127.0.0.1", 80, True)


def test_the_command_line_wins_over_the_config_file(tmp_path: Path) -> None:
    config = {"server": {"database": "/srv/tables.db", "port": 80}}
    settings = serve_cli.server_settings(config, options(db=tmp_path / "t.db", port=8001))
    assert (settings.database, settings.port) == (tmp_path / "t.db", 8001)


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


def attach_plugged(service: TableService, table_id: str, section: Mapping[str, Any]) -> Recorder:
    return Recorder(table_id, section)


attach_plugged.demo = False  # type: ignore[attr-defined]


def test_the_demo_starts_an_attachment_needing_a_device_only_when_configured(
    service: TableService, recorder: type[Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = EntryPoint(
        name="plugged", value=f"{__name__}:attach_plugged", group="companion.attachments"
    )
    monkeypatch.setattr(registry, "available", lambda: [entry])
    with serve_cli.attachments(service, "t1", {}, demo=True) as running:
        assert running == []
    with serve_cli.attachments(
        service, "t1", {"plugged": {"port": "/dev/x"}}, demo=True
    ) as running:
        assert running == ["plugged"]


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
        # Not a terminal (it may be a log): no host link nor secret, only how to get one.
        assert "Host controls: run 'companion table host-link " in "".join(lines)
        assert "secret" not in "".join(lines) and "/host/link/" not in "".join(lines)
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


def test_serve_demo_runs_the_mock_panel_and_logs_its_lights(tmp_path: Path) -> None:
    """What ``make run`` does on a machine with no panel or camera: the GPIO panel on mock pins,
    its lights in the console at INFO, the simulated camera, no serial panel, and the table
    screen answering."""
    command = [sys.executable, "-m", "companion", "serve", "--demo", "--db", str(tmp_path / "t.db")]
    server = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Stop with Ctrl+C"):
            line = server.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        said = "".join(lines)
        assert "panel: seat 2 LED blinking (join and choose awaited)" in said
        assert "panel: phase LED dim white (Joining)" in said
        assert "Attachments:       camera, computer, panel\n" in said
        assert "serial panel" not in said
        screen = next(line for line in lines if "Table screen:" in line).split()[-1]
        with urllib.request.urlopen(screen) as page:
            html = page.read().decode()
        assert "Demo table" in html
        assert 'title="seat 2 LED blinking (join and choose awaited)"' in html  # virtual panel
        table_id = screen.rstrip("/").split("/")[-1]
        db = str(tmp_path / "t.db")
        made = subprocess.run(
            [sys.executable, "-m", "companion", "table", "host-link", table_id, "--db", db],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr  # beside the running server, through it
        host_link = next(line for line in made.stdout.splitlines() if "Host link" in line)
        base = screen.split("/t/")[0]
        host = Browser(base)
        assert host.get(host_link.split()[-1].removeprefix(base))[0] == 200
        assert host.post(host_link.split()[-1].removeprefix(base))[0] == 200
        status, page = host.get(f"/t/{table_id}/host")
        assert status == 200
        assert "panel: <b>they follow this table</b>" in " ".join(page.split())
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=20)
    assert server.returncode == 0


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


def test_the_config_file_may_name_the_demo_tables_game(tmp_path: Path) -> None:
    config = {"server": {"demo": True}, "demo": {"game": "cosmic-cluster", "players": 3}}
    serve_cli.check_server_section(config)  # "game" is a [demo] setting, not an unknown key
    assert serve_cli.server_settings(config, options()).demo


def test_the_server_leaves_what_it_was_built_from_out_of_later_garbage_collections() -> None:
    """Issue 11: a full collection over everything the server holds paused every answer for
    47-67 ms; after startup, ``serve`` freezes what exists, so later ones walk only what came
    after (about 10 ms)."""
    import gc

    assert gc.get_freeze_count() == 0
    try:
        serve_cli.settle_garbage_collector()
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
