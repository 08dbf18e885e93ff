"""The wiring documents' buzzer: a 3.3 V buzzer on 3.3 V, and no more current from a pin than
it may give (docs/wiring.md for the Pi's GPIO panel, firmware/README.md for the Pico's)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sentences_about(text: str, word: str) -> list[str]:
    flat = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.;:])\s+", flat) if word in s]


def test_the_pi_wiring_puts_a_3_3_v_buzzer_on_3_3_v_through_the_transistor() -> None:
    """docs/wiring.md put the "3.3 V" buzzer between 5 V and the transistor's collector."""
    wiring = (ROOT / "docs" / "wiring.md").read_text()
    collector = sentences_about(wiring, "collector")
    assert collector, "the transistor drive is described"
    for sentence in collector:
        assert "3.3 V" in sentence and "[1]" in sentence, sentence
        assert "between 5 V" not in sentence, sentence
    assert "3V3 [1] ──(+) BZ (−)" in wiring  # and the diagram draws it so


def test_the_pi_wiring_says_how_much_current_a_pin_may_give() -> None:
    wiring = (ROOT / "docs" / "wiring.md").read_text()
    warning = " ".join(sentences_about(wiring, "mA"))
    assert "16 mA" in warning and "50 mA" in warning


def test_the_pico_readme_drives_the_buzzer_through_a_transistor_with_the_current_warning() -> None:
    """firmware/README.md drove the buzzer straight from GP21, without the warning the Pi's
    wiring gives: a Pico pin gives 4 mA by default and 12 mA at most."""
    readme = (ROOT / "firmware" / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| Buzzer"))
    assert "GP21 to GND" not in row
    assert "NPN" in row and "3V3(OUT)" in row
    warning = " ".join(sentences_about(readme, "mA"))
    assert "4 mA" in warning and "12 mA" in warning and "50 mA" in warning
