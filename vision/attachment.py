"""The camera attachment: a background thread that scans the table and reports to the service.

Configured by the ``[camera]`` section of the server's TOML file::

    [camera]
    source = "simulated"       # "simulated" | "picamera" | "webcam" | "folder"
    interval_seconds = 5       # between scans
    frames = 3                 # settled frames per scan; the readings' majority counts
    device = 0                 # webcam: the VideoCapture device number
    path = "scans/"            # folder: where the pictures are
    mistakes = 0.0             # simulated: chance a picture shows one unit as another type
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.local_cluster.state import State
from companion.service.attachments import ConfigError
from vision.errors import VisionError
from vision.local_cluster.recognize import scan_image
from vision.settle import majority, settled
from vision.sources import FolderSource, FrameSource, SimulatedSource, WebcamSource

if TYPE_CHECKING:
    from companion.service.service import TableService

log = logging.getLogger(__name__)

SOURCES = ("simulated", "picamera", "webcam", "folder")
KEYS = {"source", "interval_seconds", "frames", "device", "path", "mistakes"}


def _number(section: Mapping[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ConfigError(
            f"[camera] {key} must be a number from {low:g} to {high:g}, not {value!r}"
        )
    return float(value)


def open_source(section: Mapping[str, Any], state: Callable[[], State | None]) -> FrameSource:
    """The frame source a checked section names (this claims the camera)."""
    kind = section.get("source", "simulated")
    if kind == "folder":
        return FolderSource(Path(section["path"]))
    if kind == "webcam":
        return WebcamSource(int(section.get("device", 0)))
    if kind == "picamera":
        from vision.sources.picamera import PicameraSource

        return PicameraSource()
    return SimulatedSource(state, mistakes=float(section.get("mistakes", 0.0)))


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
    device = section.get("device", 0)
    if isinstance(device, bool) or not isinstance(device, int) or device < 0:
        raise ConfigError(f"[camera] device must be a webcam number (0, 1, ...), not {device!r}")
    if kind == "folder":
        path = section.get("path")
        if not isinstance(path, str) or not path:
            raise ConfigError('[camera] path must name the folder of pictures (source = "folder")')
        if not Path(path).is_dir():
            raise ConfigError(f"[camera] path {path!r} is not a folder")


class CameraAttachment:
    """Scans every ``interval`` seconds until closed; see the module docstring."""

    def __init__(
        self,
        service: TableService,
        table_id: str,
        source: FrameSource,
        *,
        interval: float = 5.0,
        frames: int = 3,
        expected: Callable[[], int | None] = lambda: None,
    ) -> None:
        self.service = service
        self.table_id = table_id
        self.source = source
        self.interval = interval
        self.frames = frames
        self.expected = expected
        """How many tiles the table should have (the game's sectors), when known."""
        self.scans = 0
        """Scans reported so far."""
        self.skipped = 0
        """Rounds without a usable scan (motion, no card, no game yet)."""
        self.reported = threading.Event()
        self.note: str | None = None
        """Why the last scan was skipped, logged once until it changes (not every interval)."""
        self._stop = threading.Event()
        self.closed = False
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

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
        """Take settled frames, scan them and report the majority; False when skipped."""
        try:
            frames = [self.source.read() for _ in range(self.frames)]
            if not settled(frames):
                self.skipped += 1
                return False
            expected = self.expected()
            scans = [scan_image(frame, expected=expected) for frame in frames]
        except VisionError as err:
            if str(err) != self.note:
                self.note = str(err)
                log.info("camera: %s", err)
            self.skipped += 1
            return False
        self.note = None
        self.service.report_scan(self.table_id, majority(scans))
        self.scans += 1
        self.reported.set()
        return True

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._stop.set()
        self._thread.join(timeout=30)
        self.source.close()


def attach(service: TableService, table_id: str, section: Mapping[str, Any]) -> CameraAttachment:
    """The ``camera`` attachment (entry point ``companion.attachments``)."""
    check_section(section)

    def state() -> State | None:
        with service.lock:
            session = service.table(table_id).session
            found = getattr(session, "state", None)
            return found if isinstance(found, State) else None

    def expected() -> int | None:
        found = state()
        return None if found is None else len(found.galaxy.ids)

    source = open_source(section, state)
    return CameraAttachment(
        service,
        table_id,
        source,
        interval=_number(section, "interval_seconds", 5, 0.05, 3600),
        frames=int(section.get("frames", 3)),
        expected=expected,
    )
