"""The camera attachment: a background thread that scans the table and reports to the service.

It serves the table it is attached to (the server attaches it again when the table in play
changes) with that table's game's camera reader (:func:`vision.readers.reader_for`); a game
without one is said once, and the camera idles. Configured by the ``[camera]`` section of the
server's TOML file::

    [camera]
    source = "simulated"       # "simulated" | "picamera" | "webcam" | "folder"
    interval_seconds = 5       # between scans
    frames = 3                 # settled frames per scan; the readings' majority counts
    stills = true              # take a full-resolution still when a frame is too coarse
    device = 0                 # webcam: the VideoCapture device number
    path = "scans/"            # folder: where the pictures are
    mistakes = 0.0             # simulated: chance a picture shows a player's slip
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.service.attachments import ConfigError
from vision.errors import VisionError
from vision.readers import CameraReader, NoReader, Quality, Reading, Remembering, reader_for
from vision.settle import settled
from vision.sources import FolderSource, FrameSource, SimulatedSource, StillSource, WebcamSource

if TYPE_CHECKING:
    from companion.service.service import TableService

log = logging.getLogger(__name__)

SOURCES = ("simulated", "picamera", "webcam", "folder")
KEYS = {"source", "interval_seconds", "frames", "stills", "device", "path", "mistakes"}


def _number(section: Mapping[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ConfigError(
            f"[camera] {key} must be a number from {low:g} to {high:g}, not {value!r}"
        )
    return float(value)


def open_source(
    section: Mapping[str, Any],
    reader: CameraReader[Any, Any],
    prior: Callable[[], object | None],
) -> FrameSource:
    """The frame source a checked section names (this claims the camera)."""
    kind = section.get("source", "simulated")
    if kind == "folder":
        return FolderSource(Path(section["path"]))
    if kind == "webcam":
        return WebcamSource(int(section.get("device", 0)))
    if kind == "picamera":
        from vision.sources.picamera import PicameraSource

        return PicameraSource()
    return SimulatedSource(reader, prior, mistakes=float(section.get("mistakes", 0.0)))


def check_section(section: Mapping[str, Any]) -> None:
    """ConfigError naming the key, for anything in ``section`` that cannot be used."""
    unknown = sorted(set(section) - KEYS)
    if unknown:
        raise ConfigError(
            f"[camera] has unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})"
        )
    kind = section.get("source", "simulated")
    if kind not in SOURCES:
        raise ConfigError(f"[camera] source must be one of {', '.join(SOURCES)}, not {kind!r}")
    _number(section, "interval_seconds", 5, 0.05, 3600)
    _number(section, "mistakes", 0.0, 0.0, 1.0)
    frames = section.get("frames", 3)
    if isinstance(frames, bool) or not isinstance(frames, int) or not 1 <= frames <= 9:
        raise ConfigError(f"[camera] frames must be a whole number from 1 to 9, not {frames!r}")
    if not isinstance(section.get("stills", True), bool):
        raise ConfigError(f"[camera] stills must be true or false, not {section['stills']!r}")
    device = section.get("device", 0)
    if isinstance(device, bool) or not isinstance(device, int) or device < 0:
        raise ConfigError(f"[camera] device must be a webcam number (0, 1, ...), not {device!r}")
    if kind == "folder":
        path = section.get("path")
        if not isinstance(path, str) or not path:
            raise ConfigError('[camera] path must name the folder of pictures (source = "folder")')
        if not Path(path).is_dir():
            raise ConfigError(f"[camera] path {path!r} is not a folder")


def tracked(service: TableService, table_id: str, reader: CameraReader[Any, Any]) -> object | None:
    """The reader's prior from the table's session (None before the game starts)."""
    with service.lock:
        session = service.table(table_id).session
        return None if session is None else reader.prior(session)


class CameraAttachment:
    """Scans every ``interval`` seconds until closed; see the module docstring.

    ``reader`` None means the table's game has no camera reader: the attachment then only
    says so (:attr:`note`) and idles, holding no camera.
    """

    def __init__(
        self,
        service: TableService,
        table_id: str,
        source: FrameSource | None,
        reader: CameraReader[Any, Any] | None,
        *,
        interval: float = 5.0,
        frames: int = 3,
        stills: bool = True,
        note: str | None = None,
    ) -> None:
        self.service = service
        self.table_id = table_id
        self.source = source
        self.reader = reader
        self.interval = interval
        self.frames = frames
        self.stills = stills
        self.scans = 0
        """Scans reported so far."""
        self.still_scans = 0
        """Of those, how many were read from a full-resolution still."""
        self.skipped = 0
        """Rounds without a usable scan (motion, no card, no game yet)."""
        self.last: Reading[Any] | None = None
        """The last reading reported: a :class:`Remembering` reader gets it in its prior."""
        self.reported = threading.Event()
        self.note: str | None = None
        """Why the last scan was skipped (or why the camera idles), logged once until it
        changes (not every interval)."""
        self._stop = threading.Event()
        self.closed = False
        self._thread: threading.Thread | None = None
        if note is not None:
            self._say(note)
        if source is not None and reader is not None:
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
            self._thread.start()

    @property
    def idle(self) -> bool:
        return self._thread is None

    def _say(self, note: str) -> None:
        if note != self.note:
            self.note = note
            log.info("camera: %s", note)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.scan_once()
            except Exception:  # pragma: no cover - a camera loop must never die
                log.exception("camera scan failed")
                self.skipped += 1
            if self._stop.wait(self.interval):
                break

    def scan_once(self) -> bool:
        """Take settled frames, read them and report the combined reading (from a
        full-resolution still instead when the frames are too coarse); False when skipped."""
        if self.reader is None or self.source is None:
            return False
        reader, source = self.reader, self.source
        try:
            frames = [source.read() for _ in range(self.frames)]
            if not settled(frames):
                self.skipped += 1
                self._say("the picture moved between frames (a hand over the board?); skipped")
                return False
            prior = self.prior(reader)
            reading = reader.combine([reader.read(f, prior=prior) for f in frames], prior=prior)
            if reading.quality is not Quality.GOOD and self.stills:
                reading = self._still(reader, source, prior, reading)
        except VisionError as err:
            self._say(str(err))
            self.skipped += 1
            return False
        if not reading.usable:
            self._say("; ".join(reading.notes) or "the picture cannot be read")
            self.skipped += 1
            return False
        self.note = None
        self.service.report_scan(self.table_id, reading.scan)
        self.last = reading
        self.scans += 1
        self.reported.set()
        return True

    def prior(self, reader: CameraReader[Any, Any]) -> object | None:
        """The reader's prior: from the table's session and, for a :class:`Remembering`
        reader, the last reading reported (where the pieces lay when last seen)."""
        prior = tracked(self.service, self.table_id, reader)
        if isinstance(reader, Remembering) and self.last is not None:
            prior = reader.remember(prior, self.last)
        return prior

    def _still(
        self,
        reader: CameraReader[Any, Any],
        source: FrameSource,
        prior: object | None,
        reading: Reading[Any],
    ) -> Reading[Any]:
        """A full-resolution still's reading when the source takes stills and it reads better
        (the frames showed the board too small); otherwise ``reading``."""
        if not isinstance(source, StillSource):
            return reading
        still = reader.read(source.still(), prior=prior)
        order = list(Quality)
        if order.index(still.quality) <= order.index(reading.quality):
            self.still_scans += 1
            return still
        return reading

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self.source is not None:
            self.source.close()


def attach(service: TableService, table_id: str, section: Mapping[str, Any]) -> CameraAttachment:
    """The ``camera`` attachment (entry point ``companion.attachments``) for ``table_id``,
    reading it with its game's camera reader."""
    check_section(section)
    with service.lock:
        game = service.table(table_id).game
    interval = _number(section, "interval_seconds", 5, 0.05, 3600)
    frames = int(section.get("frames", 3))
    stills = bool(section.get("stills", True))
    try:
        reader = reader_for(game)
    except NoReader as err:
        return CameraAttachment(
            service,
            table_id,
            None,
            None,
            interval=interval,
            frames=frames,
            note=f"{err}; the camera idles at this table",
        )

    source = open_source(section, reader, lambda: tracked(service, table_id, reader))
    return CameraAttachment(
        service, table_id, source, reader, interval=interval, frames=frames, stills=stills
    )
