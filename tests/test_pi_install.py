"""The Raspberry Pi install: deploy/install-pi.sh (shellcheck, a dry run) and the systemd unit
deploy/cluster-companion.service (systemd-analyze verify), and the default configuration."""

from __future__ import annotations

import argparse
import configparser
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import games
from hardware.config import (
    GpioPanelConfig,
    SerialPanelConfig,
    gpio_panel_config,
    serial_panel_config,
)
from web import cli as serve_cli

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
SCRIPT = DEPLOY / "install-pi.sh"
UNIT = DEPLOY / "cluster-companion.service"
CONFIG = DEPLOY / "companion.toml"
SYSTEMD_UNITS = [Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")]


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed here (make test installs it with apt)")
    return found


def dry_run(tmp_path: Path, **env: str) -> str:
    ran = subprocess.run(
        ["bash", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DRY_RUN": "1", "CONFIG_DIR": str(tmp_path / "etc"), **env},
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT)
    return parser


# The install script ----------------------------------------------------------------------------


def test_the_install_script_passes_shellcheck() -> None:
    ran = subprocess.run(
        [tool("shellcheck"), "--severity=style", str(SCRIPT)], capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stdout


def test_the_install_script_is_executable_strict_bash() -> None:
    text = SCRIPT.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert os.access(SCRIPT, os.X_OK)


def test_a_dry_run_installs_the_camera_and_gpio_packages(tmp_path: Path) -> None:
    out = dry_run(tmp_path)
    apt = next(line for line in out.splitlines() if "apt-get install" in line)
    for package in ("python3-picamera2", "python3-lgpio", "python3-venv"):
        assert package in apt.split()


def test_a_dry_run_makes_a_venv_that_sees_the_system_packages(tmp_path: Path) -> None:
    out = dry_run(tmp_path)
    assert "+ python3 -m venv --system-site-packages /opt/cluster-companion/venv" in out
    assert f"-m pip install --upgrade {DEPLOY.parent}" in out


def test_a_dry_run_puts_the_user_in_the_gpio_video_and_dialout_groups(tmp_path: Path) -> None:
    out = dry_run(tmp_path, SERVICE_USER="companion-test-user")
    assert "useradd --system" in out
    for group in ("gpio", "video", "dialout"):
        assert (
            f"usermod --append --groups {group} companion-test-user" in out
            or f"no group {group} on this system" in out
        )


def test_a_dry_run_writes_the_default_config_and_starts_the_unit(tmp_path: Path) -> None:
    out = dry_run(tmp_path)
    etc = tmp_path / "etc"
    assert f"install -m 0644 {CONFIG} {etc}/companion.toml" in out
    steps = [
        "cluster-companion.service /etc/systemd/system/cluster-companion.service",
        "+ systemctl daemon-reload",
        "+ systemctl enable cluster-companion.service",
        "+ systemctl restart cluster-companion.service",
    ]
    positions = [out.index(step) for step in steps]
    assert positions == sorted(positions)


def test_a_second_install_keeps_the_edited_config(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "companion.toml").write_text("[panel]\nbuzzer = 21\n")
    out = dry_run(tmp_path)
    assert "keeping the configuration" in out
    assert "companion.toml " not in out.replace(f"{CONFIG} ", "")


def test_the_script_refuses_to_run_without_root() -> None:
    command = ["bash", str(SCRIPT)]
    if os.geteuid() == 0:  # drop to nobody to see the refusal
        command = [tool("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1
    assert "run me as root" in ran.stderr


# The systemd unit --------------------------------------------------------------------------------


def verify(unit_file: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """systemd-analyze verify in a root holding systemd's own units and the ExecStart program."""
    analyze = tool("systemd-analyze")
    units = next((d for d in SYSTEMD_UNITS if (d / "multi-user.target").exists()), None)
    if units is None:
        pytest.skip("systemd's own units (multi-user.target) are not installed here")
    root = tmp_path / "root"
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(unit_file, root / "etc/systemd/system" / unit_file.name)
    program = root / "opt/cluster-companion/venv/bin/companion"
    program.parent.mkdir(parents=True)
    shutil.copy(Path(sys.executable).parent / "companion", program)  # the real entry script
    return subprocess.run(
        [analyze, "verify", f"--root={root}", f"/etc/systemd/system/{unit_file.name}"],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    ran = verify(UNIT, tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr == ""


def test_systemd_analyze_would_catch_a_broken_unit(tmp_path: Path) -> None:
    broken = tmp_path / "cluster-companion.service"
    broken.write_text(UNIT.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    ran = verify(broken, tmp_path)
    assert "Failed to parse service restart specifier" in ran.stderr


def test_the_unit_starts_companion_serve_with_the_config_at_boot() -> None:
    service = unit()["Service"]
    assert service["ExecStart"] == (
        "/opt/cluster-companion/venv/bin/companion serve "
        "--config /etc/cluster-companion/companion.toml"
    )
    assert service["Restart"] == "on-failure"
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_unit_runs_as_the_dedicated_user_with_hardware_groups() -> None:
    service = unit()["Service"]
    assert service["User"] == "companion"
    assert service["SupplementaryGroups"].split() == ["gpio", "video", "dialout"]


# The default configuration ---------------------------------------------------------------------


def test_the_default_config_holds_the_documented_panel_defaults() -> None:
    config = tomllib.loads(CONFIG.read_text())
    panel = {k: v for k, v in config["panel"].items() if k != "enabled"}  # the server's key
    serial = {k: v for k, v in config["serial-panel"].items() if k != "enabled"}
    assert gpio_panel_config(panel) == GpioPanelConfig()
    assert serial_panel_config(serial) == SerialPanelConfig()


def test_companion_serve_accepts_the_shipped_config() -> None:
    """What the unit's ``companion serve --config`` reads, checked as serve checks it (without
    binding port 80 or touching /var): the server's keys, the first table, both panels."""
    config = serve_cli.load_config(CONFIG)
    options = argparse.Namespace(host=None, port=None, threads=None, db=None, demo=False)
    settings = serve_cli.server_settings(config, options)
    assert settings == serve_cli.ServerSettings(
        host="0.0.0.0",
        port=80,
        threads=serve_cli.DEFAULT_THREADS,
        database=Path("/var/lib/cluster-companion/companion.db"),
        demo=True,
        table=None,
    )
    assert settings.database.parent.name == unit()["Service"]["StateDirectory"]
    rules = serve_cli.demo_options(config["demo"], games.default())
    assert (rules["discussion_seconds"], rules["command_seconds"]) == (240, 180)
    assert config["panel"]["enabled"] is True
    assert config["serial-panel"]["enabled"] is True


def test_the_unit_may_bind_port_80_and_nothing_more() -> None:
    service = unit()["Service"]
    assert service["AmbientCapabilities"] == "CAP_NET_BIND_SERVICE"
    assert service["CapabilityBoundingSet"] == "CAP_NET_BIND_SERVICE"
