"""Where frames come from: an image file, a folder of them, a USB webcam, the Pi camera, or
the synthetic renderer drawing a table's tracked state. Each source has ``read()`` (one BGR
frame) and an idempotent ``close()``; the Pi camera lives in :mod:`vision.sources.picamera`."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CameraUnavailable, ImageError, VisionError

if TYPE_CHECKING:
    from vision.readers import CameraReader

Image = npt.NDArray[np.uint8]
MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_PIXELS = 50_000_000
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


STILL_SIZE = (4608, 2592)
"""A full-resolution still: the Raspberry Pi Camera Module 3's 12 megapixels."""


class FrameSource(Protocol):
    def read(self) -> Image:
        """One frame, as the camera streams them (quick)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class StillSource(Protocol):
    """A source that can also take a full-resolution still, slower than a frame: the camera
    takes one when a frame shows the board too small to read every piece."""

    def read(self) -> Image: ...

    def still(self) -> Image: ...

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
    """A game's camera reader drawing the table's tracked position (``make run``'s camera):
    frames at ``size``, stills (:meth:`still`) at ``still_size``."""

    def __init__(
        self,
        reader: CameraReader[Any, Any],
        prior: Callable[[], object | None],
        *,
        seed: int = 0,
        size: tuple[int, int] = (1920, 1080),
        still_size: tuple[int, int] = STILL_SIZE,
        mistakes: float = 0.0,
    ) -> None:
        self.reader = reader
        self.prior = prior
        self.rng = random.Random(seed)
        self.size = size
        self.still_size = still_size
        self.mistakes = mistakes
        """Chance that a picture shows a player's slip (a piece not as tracked): for
        demonstrating the table screen's discrepancies."""

    def _draw(self, size: tuple[int, int]) -> Image:
        self._check()
        prior = self.prior()
        if prior is None:
            raise CameraUnavailable("there is no game on the table yet")
        return self.reader.simulate(prior, self.rng, size=size, mistakes=self.mistakes)

    def read(self) -> Image:
        return self._draw(self.size)

    def still(self) -> Image:
        return self._draw(self.still_size)
