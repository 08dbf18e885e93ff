"""The serial protocol's shared test vectors (firmware/check/protocol-vectors.json).

One table, run against the Pi's parser (tests/test_panel_serial_protocol.py) and the firmware's,
under CPython (tests/test_firmware_protocol.py) and real MicroPython
(tests/test_firmware_micropython.py): both sides must accept exactly the lines it says.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VECTORS_FILE = (
    Path(__file__).resolve().parent.parent / "firmware" / "check" / "protocol-vectors.json"
)
VECTORS: list[dict[str, Any]] = json.loads(VECTORS_FILE.read_text())["vectors"]


def vector_id(vector: dict[str, Any]) -> str:
    text = vector["line"]
    shown = text if len(text) <= 30 else text[:27] + "..."
    return repr(shown)[1:-1]
