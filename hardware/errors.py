"""The exceptions of the hardware package; each is also a builtin, like gpiozero's."""

from __future__ import annotations

from companion.errors import CompanionError
from companion.service.attachments import ConfigError


class PanelError(CompanionError):
    """Root of every error raised by the panels."""


class PinMapError(PanelError, ConfigError):
    """A pin map or panel section that cannot be used; the message names the key and why."""


class PinsUnavailable(PanelError, OSError):
    """The panel's pins cannot be claimed (in use, no permission, no GPIO chip)."""


class PanelClosed(PanelError, RuntimeError):
    """A panel used after :meth:`close`."""


class ProtocolError(PanelError, ValueError):
    """A serial line that is not a valid protocol line (bad checksum, unknown message...)."""


class FirmwareMismatch(PanelError, ConnectionError):
    """The serial panel runs a firmware whose protocol version this side does not speak."""
