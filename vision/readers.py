"""Shared by every game: what a camera reader is, and how the camera finds a game's reader.

A game that the camera can read names its reader in its registration (``companion.games``)::

    camera = "vision.<game>.reader:READER"     # a CameraReader
    kit = "vision.<game>.sheets:write_kit"     # a KitWriter: write the printable kit

The shared camera code (:mod:`vision.attachment`, :mod:`vision.cli`) knows games only
through :func:`reader_for` and :func:`kit_writer_for`; everything about a game's pieces, its
printed kit and its scan value lives in ``vision/<game>/``.

What a reader does (docs/architecture.md, "Camera readers"):

1. :meth:`CameraReader.prior`: take from a table's session what it wants to know beforehand
   (the tracked position: which tiles to expect, whose turn it is and what was where, so a
   turn-taking game can tell which move was made).
2. :meth:`CameraReader.read`: turn one frame (and the prior, when there is one) into a
   :class:`Reading`: the game's own scan value, every reading in it with a confidence, plus
   the picture's :class:`Quality` and notes a person can act on.
3. :meth:`CameraReader.combine`: one reading from those of several settled frames.
   A reader that is also :class:`Remembering` gets the camera's last good reading folded into
   its prior (:meth:`Remembering.remember`) before each scan.
4. The camera hands ``reading.scan`` to ``TableService.report_scan(table_id, scan)``, which
   asks the session's ``compare_scan(scan)``: what differs, what is missing and, for a
   turn-taking game, the moves that explain what the camera saw.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from companion.games import Game, resolve
from vision.errors import VisionError

Image = npt.NDArray[np.uint8]
"""A frame: height x width x 3 bytes, in OpenCV's B, G, R order."""

ScanT = TypeVar("ScanT")
PriorT = TypeVar("PriorT")
ScanT_co = TypeVar("ScanT_co", covariant=True)


class NoReader(VisionError, LookupError):
    """The game has no camera reader (or no printable kit)."""


class Quality(enum.Enum):
    """How far a picture could be trusted, as a whole."""

    GOOD = "good"
    """Read as far as the picture shows (covered things are unknown, as always)."""
    COARSE = "coarse"
    """Everything large was found, but the board is small or soft in the picture, so some
    small pieces may be unknown: a full-resolution still (or the camera closer) reads more."""
    UNUSABLE = "unusable"
    """Too small, too blurred or empty: what was read is incomplete and the notes say why.
    ``companion scan`` exits with status 1."""


@dataclasses.dataclass(frozen=True)
class Reading(Generic[ScanT_co]):
    """What a reader made of one frame (or of several settled frames combined)."""

    scan: ScanT_co
    """The game's scan value (what ``compare_scan`` takes), each reading with a confidence."""
    quality: Quality = Quality.GOOD
    notes: tuple[str, ...] = ()
    """About the picture as a whole, in words a person can act on ("move the camera
    closer")."""
    px_per_mm: float | None = None
    """How large the board is in the frame, where the reader could tell."""
    detail: Any = None
    """The reader's own working (poses, outlines) for its debug picture; not compared."""

    @property
    def usable(self) -> bool:
        return self.quality is not Quality.UNUSABLE


@runtime_checkable
class CameraReader(Protocol[ScanT, PriorT]):
    """A game's camera reader: see the module docstring. One instance serves every table of
    its game (it keeps no per-table state), from several threads."""

    def prior(self, session: object) -> PriorT | None:
        """What the reader wants to know from a table's session (its own game's session
        type), or None when there is nothing yet (no game on the table)."""
        ...

    def read(self, frame: Image, *, prior: PriorT | None = None) -> Reading[ScanT]:
        """One frame read. Raises :class:`vision.errors.VisionError` (``CardNotFound``,
        ``ImageError``) only when there is nothing to read at all."""
        ...

    def combine(
        self, readings: Sequence[Reading[ScanT]], *, prior: PriorT | None = None
    ) -> Reading[ScanT]:
        """One reading from those of several settled frames of the same table: a reading
        counts only when most frames agree on it; the worst quality and every note carry
        over."""
        ...

    def describe(self, reading: Reading[ScanT], *, prior: PriorT | None = None) -> list[str]:
        """``companion scan``'s lines for a person (what differs from the prior, if given)."""
        ...

    def to_json(self, reading: Reading[ScanT]) -> dict[str, Any]:
        """``companion scan --json``: the scan value as JSON, with ``quality`` and ``notes``."""
        ...

    def annotate(self, frame: Image, reading: Reading[ScanT]) -> Image:
        """``companion scan --debug``: a copy of the frame with what was read drawn on it."""
        ...

    def expectation(self, *, text: str | None = None, record: bytes | None = None) -> PriorT | None:
        """A prior from the command line: ``--expect TEXT`` in the game's own words (say,
        the ids of the tiles to expect) and/or ``--record GAME.json`` (the game's record: its last
        position). A ``CompanionError`` saying what is wrong with either."""
        ...

    def simulate(
        self, prior: PriorT, rng: random.Random, *, size: tuple[int, int], mistakes: float
    ) -> Image:
        """A synthetic picture of the table ``prior`` describes (the ``simulated`` camera
        source), ``size`` = (width, height); with chance ``mistakes`` a player's slip."""
        ...


@runtime_checkable
class Remembering(Protocol[PriorT]):
    """A reader that wants the camera's last good reading as part of its prior (say, where
    the pieces lay, so a piece whose own mark is covered this time can still be placed). The
    camera attachment keeps that reading and asks for the prior with it before each scan."""

    def remember(self, prior: PriorT | None, last: Reading[Any]) -> PriorT | None:
        """``prior`` (from the table's session, or None) with what ``last`` saw added."""
        ...


KitWriter = Callable[[Path], list[Path]]
"""A game's printable kit: write its sheets into a folder; the paths written."""


def reader_for(game: Game) -> CameraReader[Any, Any]:
    """The camera reader ``game`` registers, or NoReader saying it has none."""
    if game.camera is None:
        raise NoReader(f"{game.title} has no camera reader")
    found = resolve(game.camera)
    if not isinstance(found, CameraReader):
        raise VisionError(f"{game.title}'s camera = {game.camera!r} is not a camera reader")
    return found


def kit_writer_for(game: Game) -> KitWriter:
    """The printable kit ``game`` registers, or NoReader saying it has none."""
    if game.kit is None:
        raise NoReader(f"{game.title} has no printable camera kit")
    found = resolve(game.kit)
    if not callable(found):
        raise VisionError(f"{game.title}'s kit = {game.kit!r} is not a kit writer")
    writer: KitWriter = found
    return writer


def worst(qualities: Sequence[Quality]) -> Quality:
    """The worst of several frames' qualities (GOOD for none)."""
    order = list(Quality)
    return max(qualities, key=order.index, default=Quality.GOOD)
