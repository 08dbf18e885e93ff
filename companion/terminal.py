"""Shared by every game's commands and the ``companion`` shell: text for a terminal.

How wide to print (the terminal's width, within bounds), paragraphs wrapped with a hanging
indent, and lists in words. Nothing here knows a game.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Iterable

WIDTH = 100
"""Widest line the commands print (maps excepted); narrower when the terminal is."""
NARROWEST = 60


def columns() -> int:
    """The terminal's width; :data:`WIDTH` when stdout is not a terminal (a file, a pipe)."""
    try:
        if sys.stdout.isatty():
            return shutil.get_terminal_size((WIDTH, 24)).columns
    except ValueError:  # stdout closed
        pass
    return WIDTH


def width() -> int:
    """How wide to wrap text: the terminal's width, but 60 to :data:`WIDTH` columns."""
    return max(NARROWEST, min(WIDTH, columns()))


def wrap(text: str, indent: int = 2, hanging: int = 4) -> str:
    """``text`` as one paragraph, indented, its later lines ``hanging`` columns further in."""
    return textwrap.fill(
        text,
        width=width(),
        initial_indent=" " * indent,
        subsequent_indent=" " * (indent + hanging),
        break_on_hyphens=False,
        break_long_words=False,
    )


def listing(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 step``, ``3 steps``."""
    return f"{count} {one if count == 1 else many or one + 's'}"
