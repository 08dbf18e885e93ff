"""The firmware is valid MicroPython: its logic runs under the real interpreter (the
WebAssembly build from npm, under Node) and prints exactly what CPython prints.

``make test`` installs the pinned interpreter (``npm ci`` in firmware/check) before the tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from protocol_vectors import VECTORS

CHECK = Path(__file__).resolve().parent.parent / "firmware" / "check"
SCENARIO = CHECK / "scenario.py"
VECTORS_SCRIPT = CHECK / "vectors.py"
MAIN_SCRIPT = CHECK / "main_start.py"
INTERPRETER = CHECK / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def micropython(script: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (make test installs Debian's nodejs and npm)")
    if not INTERPRETER.exists():
        pytest.skip("MicroPython is not installed: run `make test` (npm ci in firmware/check)")
    return subprocess.run(
        [node, str(CHECK / "run-micropython.mjs"), str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=CHECK,
    )


def cpython(script: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(CHECK.parent), str(CHECK / "standin")])
    return subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": path},
    )


def test_the_pinned_interpreter_is_micropython_1_27(tmp_path: Path) -> None:
    script = tmp_path / "which.py"
    script.write_text("import sys\nprint(sys.implementation.name, sys.implementation.version)\n")
    ran = micropython(script)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("micropython (1, 27, 0")


def test_the_firmware_scenario_prints_the_same_under_micropython_and_cpython() -> None:
    real = micropython(SCENARIO)
    assert real.returncode == 0, real.stderr
    reference = cpython(SCENARIO)
    assert reference.returncode == 0, reference.stderr
    assert real.stdout == reference.stdout
    assert "main.py compiles" in real.stdout
    assert "sent 'BTN 1 1*57\\n'" in real.stdout


def test_a_python_only_construct_would_be_caught(tmp_path: Path) -> None:
    """The check can fail: CPython-only code (here, a zip(strict=)) breaks under MicroPython."""
    script = tmp_path / "cpython_only.py"
    script.write_text("print(list(zip([1], [2], strict=True)))\n")
    assert cpython(script).returncode == 0
    assert micropython(script).returncode != 0


def test_the_protocol_vectors_read_as_the_table_says_under_micropython() -> None:
    """The shared table (check/protocol-vectors.json, also run against the Pi's parser) through
    the firmware under real MicroPython: the panel uses exactly the lines marked "panel",
    answers each other one with exactly one ERR, and writes no line over the protocol's limit;
    CPython prints the same."""
    real = micropython(VECTORS_SCRIPT)
    assert real.returncode == 0, real.stderr
    reference = cpython(VECTORS_SCRIPT)
    assert reference.returncode == 0, reference.stderr
    assert real.stdout == reference.stdout
    rows = [row.split() for row in real.stdout.splitlines()]
    assert len(rows) == len(VECTORS)
    for number, (vector, row) in enumerate(zip(VECTORS, rows, strict=True)):
        wanted = ["used", "0"] if vector["panel"] else ["refused", "1"]
        assert row[:3] == [str(number), *wanted], vector["why"]
        assert int(row[3]) <= 96, vector["why"]


def test_main_turns_off_ctrl_c_before_serving_under_micropython() -> None:
    """main.py, run under real MicroPython with the main loop stubbed out: it disables the
    keyboard interrupt (micropython.kbd_intr(-1)) before it starts serving, so a 0x03 byte on
    USB serial is data for the protocol, never a KeyboardInterrupt that stops the firmware."""
    real = micropython(MAIN_SCRIPT)
    assert real.returncode == 0, real.stderr
    assert real.stdout.splitlines() == [
        "kbd_intr -1",
        "serve",
        "held: kbd_intr untouched, no serve",
    ]
    reference = cpython(MAIN_SCRIPT)
    assert reference.returncode == 0, reference.stderr
    assert reference.stdout == real.stdout
