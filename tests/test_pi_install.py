"""The Raspberry Pi install: deploy/install-pi.sh (shellcheck, a dry run) and the systemd unit
deploy/cluster-companion.service (systemd-analyze verify), and the default configuration."""

from __future__ import annotations

import argparse
import configparser
import json
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
    assert (
        "-m pip install --upgrade --constraint /opt/cluster-companion/constraints.txt "
        f"{DEPLOY.parent}"
    ) in out


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


def fake_tool(folder: Path, name: str, script: str) -> Path:
    """An executable ``name`` in ``folder`` (put first on PATH) running the shell ``script``."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)
    return folder


def test_the_script_refuses_to_run_without_root(tmp_path: Path) -> None:
    """The refusal, wherever the checkout lives: here a copy in a directory only its owner may
    read (as a clone under a 0700 home or temporary directory is), run by the same user, with
    `id -u` saying 1000 (dropping to another user would only show that it cannot read the
    script)."""
    checkout = tmp_path / "private" / "checkout"
    (checkout / "deploy").mkdir(parents=True)
    shutil.copy(SCRIPT, checkout / "deploy" / "install-pi.sh")
    (checkout / "pyproject.toml").write_text("[project]\nname = 'cluster-companion'\n")
    (tmp_path / "private").chmod(0o700)
    real_id = shutil.which("id")
    assert real_id is not None
    fake = fake_tool(
        tmp_path / "bin",
        "id",
        f'if [ "$#" -eq 1 ] && [ "$1" = "-u" ]; then echo 1000; else exec {real_id} "$@"; fi',
    )
    ran = subprocess.run(
        ["bash", str(checkout / "deploy" / "install-pi.sh")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "DRY_RUN": ""},
    )
    assert ran.returncode == 1, ran.stderr
    assert "install-pi: error: run me as root: sudo " in ran.stderr
    assert ran.stdout == ""  # nothing was done before the refusal


# Keeping apt's numpy (picamera2 and simplejpeg are built against it) -----------------------------

CONSTRAINTS = DEPLOY / "pi-constraints.txt"
BOOKWORM_NUMPY = "1.24.2"
"""Raspberry Pi OS Bookworm's python3-numpy (Debian 12: 1:1.24.2-1), which its
python3-picamera2 and python3-simplejpeg are built against."""


def test_a_dry_run_pins_the_systems_numpy_for_pip(tmp_path: Path) -> None:
    """The install writes pip constraints holding the numpy the system's python3 imports (apt's
    on the Pi) and installs the project with them, so pip never puts numpy 2 over it."""
    fake = fake_tool(tmp_path / "bin", "python3", 'echo "1.26.4"')  # as a Trixie-like system
    out = dry_run(tmp_path, PATH=f"{fake}:{os.environ['PATH']}", PREFIX=str(tmp_path / "opt"))
    constraints = f"{tmp_path}/opt/constraints.txt"
    assert f"keeping the system's numpy 1.26.4 in the venv (constraints: {constraints})" in out
    assert "\n    numpy==1.26.4\n" in out
    lines = out.splitlines()
    written = next(
        n
        for n, line in enumerate(lines)
        if line.startswith("+ install -m 0644 ") and line.endswith(f" {constraints}")
    )
    used = lines.index(
        f"+ {tmp_path}/opt/venv/bin/python -m pip install --upgrade --constraint {constraints} "
        f"{DEPLOY.parent}"
    )
    assert written < used


def test_a_dry_run_without_numpy_takes_bookworms(tmp_path: Path) -> None:
    fake = fake_tool(tmp_path / "bin", "python3", "exit 1")  # no numpy (nor anything) here
    out = dry_run(tmp_path, PATH=f"{fake}:{os.environ['PATH']}")
    assert f"\n    numpy=={BOOKWORM_NUMPY}\n" in out


def test_the_constraints_pin_bookworms_numpy() -> None:
    pins = [
        line for line in CONSTRAINTS.read_text().splitlines() if line and not line.startswith("#")
    ]
    assert pins == [f"numpy=={BOOKWORM_NUMPY}"]


PI_PLATFORMS = [f"manylinux_2_{minor}_aarch64" for minor in range(17, 37)]
"""A Pi 4 or 5 on 64-bit Raspberry Pi OS Bookworm: glibc 2.36 on aarch64 (pip does not widen a
--platform to the older manylinux tags by itself)."""
PI_MARKERS = {
    "python_version": "3.11",
    "python_full_version": "3.11.2",
    "platform_system": "Linux",
    "platform_machine": "aarch64",
    "sys_platform": "linux",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}


def pip_for_the_pi(*args: str) -> subprocess.CompletedProcess[str]:
    """This venv's pip, with its configured index, planning for the Pi's Python and platform."""
    target = ["--python-version", "3.11", "--implementation", "cp", "--only-binary=:all:"]
    for platform in PI_PLATFORMS:
        target += ["--platform", platform]
    return subprocess.run(
        [sys.executable, "-m", "pip", *args, *target],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def package_index() -> None:
    """Skip when the package index pip is configured with cannot be reached (CI without
    network): the plan can only be made with the index's metadata. Probed once."""
    for package in ("numpy", "opencv-python-headless"):
        probe = pip_for_the_pi("index", "versions", package, "--timeout", "20", "--retries", "1")
        if probe.returncode != 0:
            why = (probe.stderr.strip().splitlines() or ["no answer"])[-1]
            pytest.skip(f"the package index is not reachable from here ({package}): {why}")


def numpy_wanted(metadata: dict[str, object]) -> list[str]:
    """The package's requirements on numpy that apply on the Pi."""
    from packaging.requirements import Requirement

    wanted = []
    for text in metadata.get("requires_dist", []) or []:  # type: ignore[union-attr]
        requirement = Requirement(str(text))
        if requirement.name.lower() != "numpy":
            continue
        if requirement.marker is None or requirement.marker.evaluate(PI_MARKERS):
            wanted.append(str(requirement.specifier))
    return wanted


@pytest.mark.usefixtures("package_index")
def test_the_pi_install_plan_keeps_bookworms_numpy(tmp_path: Path) -> None:
    """pip's own plan (``pip install --dry-run --report``) for the project's dependencies on a
    Pi with the install's constraints: numpy stays apt's 1.24.2, and everything planned accepts
    it (pip picks an OpenCV that still works with numpy 1, with the class-based ArUco API).
    Without the constraints pip would take the newest OpenCV, which needs numpy 2."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    dependencies = tomllib.loads((DEPLOY.parent / "pyproject.toml").read_text())["project"][
        "dependencies"
    ]
    report = tmp_path / "plan.json"
    planned = pip_for_the_pi(
        "install",
        "--dry-run",
        "--ignore-installed",
        "--quiet",
        "--report",
        str(report),
        "--constraint",
        str(CONSTRAINTS),
        *dependencies,
    )
    assert planned.returncode == 0, planned.stderr
    plan = {
        item["metadata"]["name"].lower(): item["metadata"]
        for item in json.loads(report.read_text())["install"]
    }
    assert plan["numpy"]["version"] == BOOKWORM_NUMPY
    assert Version(plan["opencv-python-headless"]["version"]) >= Version("4.7")
    for name, metadata in plan.items():
        for specifier in numpy_wanted(metadata):
            assert BOOKWORM_NUMPY in SpecifierSet(specifier), f"{name} wants numpy {specifier}"
    assert not {"picamera2", "simplejpeg"} & set(plan)  # those stay apt's


@pytest.mark.usefixtures("package_index")
def test_the_newest_opencv_would_not_keep_bookworms_numpy(tmp_path: Path) -> None:
    """Why the constraints are needed: what pip takes for OpenCV unconstrained asks for a numpy
    that is not Bookworm's (numpy 2), which would shadow apt's."""
    from packaging.specifiers import SpecifierSet

    report = tmp_path / "plan.json"
    planned = pip_for_the_pi(
        "install",
        "--dry-run",
        "--ignore-installed",
        "--no-deps",
        "--quiet",
        "--report",
        str(report),
        "opencv-python-headless>=4.7",
    )
    assert planned.returncode == 0, planned.stderr
    (item,) = json.loads(report.read_text())["install"]
    wanted = numpy_wanted(item["metadata"])
    assert wanted and not all(BOOKWORM_NUMPY in SpecifierSet(s) for s in wanted)


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
