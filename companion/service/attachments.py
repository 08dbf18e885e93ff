"""Attachments: the things a running companion plugs into the table service.

The web server is the one process that runs the service. The other outer packages (the
camera in ``vision``, the panels in ``hardware``) attach to it without the web package
importing them: each names an :data:`Attach` function under the entry-point group
:data:`ATTACHMENT_GROUP` in ``pyproject.toml``. The server calls it with the service, the table
to serve and that attachment's section of the configuration file, and closes what it returns
on shutdown. An attachment talks to the table only through the service: its commands
(``set_ready``, ``pause`` ...) and the events it publishes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, Protocol

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.service.service import TableService

ATTACHMENT_GROUP = "companion.attachments"


class ConfigError(CompanionError, ValueError):
    """A configuration file or section that cannot be used; the message says which key and why."""


class Attachment(Protocol):
    """A running attachment: a panel driver, a camera loop."""

    def close(self) -> None:
        """Stop: release pins, ports and threads. Called once, at shutdown."""


Attach = Callable[["TableService", str, Mapping[str, Any]], Attachment]
"""``attach(service, table_id, section)``: start an attachment for one table.

``section`` is the attachment's table of the configuration file (``[panel]`` for the entry
point named ``panel``), empty when the file has none. Raise :class:`ConfigError` for a bad
section, before claiming any resource.

An attachment that needs a device plugged in (a serial panel) sets the attribute
``demo = False`` on its function (see :func:`starts_in_demo`): ``companion serve --demo`` then
starts it only when the configuration file has its section.
"""


def available() -> list[EntryPoint]:
    """The attachments installed, by name."""
    return sorted(entry_points(group=ATTACHMENT_GROUP), key=lambda entry: entry.name)


def starts_in_demo(attach: Attach) -> bool:
    """Whether a demo server starts this attachment without a section for it (default yes)."""
    return bool(getattr(attach, "demo", True))
