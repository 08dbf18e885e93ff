"""The exceptions of the vision package: one root, each leaf also a builtin."""

from __future__ import annotations

from companion.errors import CompanionError


class VisionError(CompanionError):
    """Root of every error raised by the vision package."""


class ImageError(VisionError, ValueError):
    """A file or frame that is not an image we can read (empty, too large, not decodable)."""


class CardNotFound(VisionError, LookupError):
    """The calibration card is not in the picture, so colours and the table plane are unknown."""


class CameraUnavailable(VisionError, RuntimeError):
    """The camera asked for cannot be opened here (not installed, not on a Pi, no device)."""


class KitError(VisionError, ValueError):
    """The kit description file is malformed."""
