"""Where frames come from: an image file, a folder of them, a USB webcam, the Pi camera, or
the synthetic renderer drawing a table's tracked state. Each source has ``read()`` (one BGR
frame) and an idempotent ``close()``; the Pi camera lives in :mod:`vision.sources.picamera`."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.state import State
from vision.errors import CameraUnavailable, ImageError, VisionError

Image = npt.NDArray[np.uint8]
MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_PIXELS = 50_000_000
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource(Protocol):
    def read(self) -> Image: ...

    def close(self) -> None: ...


def decode_image(data: bytes, name: str = "the image") -> Image:
    """A BGR picture from encoded bytes; ImageError saying what is wrong otherwise."""
    if not data:
        raise ImageError(f"{name} is empty")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"{name} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    buffer = np.frombuffer(data, np.uint8)
    try:
        image = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    except cv2.error as err:
        raise ImageError(f"{name} cannot be decoded as an image ({err})") from None
    if image is None:
        raise ImageError(f"{name} is not an image OpenCV can read (PNG, JPEG, ...)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(f"{name} has more than {MAX_PIXELS} pixels")
    out: Image = image
    return out


def read_image_file(path: Path) -> Image:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImageError(f"{path} is a folder, not an image") from None
    except OSError as err:
        raise ImageError(f"{path}: {err.strerror or err}") from None
    return decode_image(data, str(path))


class _Closing:
    closed = False

    def _check(self) -> None:
        if self.closed:
            raise VisionError(f"the {type(self).__name__} has been closed")

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> _Closing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ImageFileSource(_Closing):
    """The same picture every time."""

    def __init__(self, path: Path) -> None:
        self.image = read_image_file(path)

    def read(self) -> Image:
        self._check()
        return self.image


class FolderSource(_Closing):
    """The pictures of a folder in name order, round and round (demos and tests)."""

    def __init__(self, path: Path) -> None:
        if not path.is_dir():
            raise CameraUnavailable(f"{path} is not a folder")
        self.files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraUnavailable(f"{path} holds no pictures ({', '.join(IMAGE_SUFFIXES)})")
        self.index = 0

    def read(self) -> Image:
        self._check()
        path = self.files[self.index % len(self.files)]
        self.index += 1
        return read_image_file(path)


class WebcamSource(_Closing):
    """A USB webcam through OpenCV's VideoCapture."""

    def __init__(self, device: int = 0) -> None:
        self.capture = cv2.VideoCapture(device)
        if not self.capture.isOpened():
            self.capture.release()
            raise CameraUnavailable(f"no webcam at device {device} (is it plugged in?)")

    def read(self) -> Image:
        self._check()
        ok, frame = self.capture.read()
        if not ok or frame is None:
            raise CameraUnavailable("the webcam gave no picture")
        out: Image = frame
        return out

    def close(self) -> None:
        if not self.closed:
            self.capture.release()
        super().close()


class SimulatedSource(_Closing):
    """The synthetic renderer drawing the table's current state (``make run``'s camera)."""

    def __init__(
        self,
        state: Callable[[], State | None],
        *,
        seed: int = 0,
        width: int = 1920,
        height: int = 1080,
        hand_chance: float = 0.2,
        mistakes: float = 0.0,
    ) -> None:
        self.state = state
        self.rng = random.Random(seed)
        self.width, self.height = width, height
        self.hand_chance = hand_chance
        self.mistakes = mistakes
        """Chance that a picture shows one unit as another type, as a player's slip would:
        for demonstrating the table screen's discrepancies."""

    def read(self) -> Image:
        from vision.local_cluster.synthetic import Conditions, render

        self._check()
        state = self.state()
        if state is None:
            raise CameraUnavailable("there is no game on the table yet")
        if state.units and self.rng.random() < self.mistakes:
            state = _slip(state, self.rng)
        conditions = Conditions(
            width=self.width,
            height=self.height,
            rotation=self.rng.uniform(-5, 5),
            tilt=self.rng.uniform(0, 10),
            kelvin=self.rng.uniform(3500, 6000),
            hand=self.rng.random() < self.hand_chance,
            seed=self.rng.randrange(2**31),
        )
        return render(state, conditions).image


def _slip(state: State, rng: random.Random) -> State:
    """The same position with one unit of another type (docked craft dropped)."""
    import dataclasses

    from companion.local_cluster.atoms import UnitType

    index = rng.randrange(len(state.units))
    unit = state.units[index]
    kind = rng.choice([k for k in UnitType if k is not unit.kind])
    units = list(state.units)
    units[index] = dataclasses.replace(unit, kind=kind, docked=0)
    return dataclasses.replace(state, units=tuple(units))
