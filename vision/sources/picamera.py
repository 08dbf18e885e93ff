"""The Raspberry Pi camera through picamera2, imported only when this source is opened.

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) and cannot be
installed elsewhere; everywhere else opening this source raises :class:`CameraUnavailable`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import CameraUnavailable

Image = npt.NDArray[np.uint8]
STILL_SIZE = (4608, 2592)


def _import() -> Any:
    try:
        import picamera2
    except ImportError as err:
        raise CameraUnavailable(
            "picamera2 is only on Raspberry Pi OS: apt install python3-picamera2, and make the "
            "virtualenv with --system-site-packages so it can be imported "
            f"({type(err).__name__}: {err})"
        ) from None
    return picamera2


class PicameraSource:
    """Still captures from the Pi camera, in OpenCV's B, G, R order."""

    def __init__(self, size: tuple[int, int] = STILL_SIZE) -> None:
        module = _import()
        self.camera = module.Picamera2()
        # "RGB888" gives arrays in B, G, R order: what OpenCV expects.
        config = self.camera.create_still_configuration(main={"size": size, "format": "RGB888"})
        self.camera.configure(config)
        self.camera.start()
        self.closed = False

    def read(self) -> Image:
        if self.closed:
            raise CameraUnavailable("the Pi camera has been closed")
        frame: Image = self.camera.capture_array()
        return frame

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.camera.close()
