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

CHECK = Path(__file__).resolve().parent.parent / "firmware" / "check"
SCENARIO = CHECK / "scenario.py"
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
