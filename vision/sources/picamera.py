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
VIDEO_SIZE = (1920, 1080)
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
    """The Pi camera in OpenCV's B, G, R order: frames from a ``size`` video stream (quick,
    for the settled-frame checks) and full-resolution stills (:meth:`still`, ``still_size``)
    when a frame shows the board too small."""

    def __init__(
        self, size: tuple[int, int] = VIDEO_SIZE, *, still_size: tuple[int, int] = STILL_SIZE
    ) -> None:
        module = _import()
        self.camera = module.Picamera2()
        # "RGB888" gives arrays in B, G, R order: what OpenCV expects.
        video = self.camera.create_video_configuration(main={"size": size, "format": "RGB888"})
        self.still_config = self.camera.create_still_configuration(
            main={"size": still_size, "format": "RGB888"}
        )
        self.camera.configure(video)
        self.camera.start()
        self.closed = False

    def read(self) -> Image:
        if self.closed:
            raise CameraUnavailable("the Pi camera has been closed")
        frame: Image = self.camera.capture_array()
        return frame

    def still(self) -> Image:
        """A still at full resolution; the video stream resumes afterwards."""
        if self.closed:
            raise CameraUnavailable("the Pi camera has been closed")
        frame: Image = self.camera.switch_mode_and_capture_array(self.still_config, "main")
        return frame

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.camera.close()
