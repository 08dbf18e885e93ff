"""Which machine a benchmark ran on: platform, CPU model, core count, Python, the numeric
libraries, date."""

from __future__ import annotations

import datetime
import os
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

CPUINFO = Path("/proc/cpuinfo")

LIBRARIES = ("opencv-python-headless", "numpy")
"""The distributions whose arithmetic the vision figures turn on (docs/dependencies.md,
"Pinned versions"): a figure is quoted with their versions."""


def cpu_model(cpuinfo: Path = CPUINFO) -> str:
    """The CPU model as /proc/cpuinfo names it (``model name``, or ``Model``/``Hardware`` on
    ARM boards such as the Raspberry Pi); ``platform.processor()`` where there is no cpuinfo."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and value.strip():
            fields.setdefault(key.strip().lower(), value.strip())
    for key in ("model name", "model", "hardware", "cpu model", "processor"):
        value = fields.get(key, "")
        if value and not value.isdigit():
            return value
    return platform.processor() or platform.machine() or "unknown"


def library_versions(names: tuple[str, ...] = LIBRARIES) -> dict[str, str]:
    """Each distribution's installed version, read from its metadata (nothing is imported);
    "not installed" where it is not."""
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def machine_info() -> dict[str, Any]:
    """The facts a results table needs to compare runs across machines."""
    now = datetime.datetime.now(datetime.UTC)
    return {
        "date": now.date().isoformat(),
        "time_utc": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "libraries": library_versions(),
    }


def header(title: str, machine: dict[str, Any], *, quick: bool) -> list[str]:
    """The first lines of a benchmark report: what was run, when and on what."""
    return [
        f"Cluster Companion benchmarks: {title}" + ("  [QUICK smoke run]" if quick else ""),
        f"date:     {machine['date']} ({machine['time_utc']})",
        f"machine:  {machine['platform']} ({machine['machine']})",
        f"cpu:      {machine['cpu_model']}, {machine['cpu_count']} logical cores",
        f"python:   {machine['python']}",
        "libs:     " + ", ".join(f"{k} {v}" for k, v in machine["libraries"].items()),
    ]
