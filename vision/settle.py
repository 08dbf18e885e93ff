"""Shared by every game: settled frames and majority votes. A hand moving over the board is
the main source of wrong readings, so only frames without motion count, and a reading must be
the same in most of them (each game's reader combines its own readings with :func:`agreed`)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
MOTION_THRESHOLD = 4.0
"""Mean absolute difference (8-bit steps) of two small grey copies above which frames moved."""

T = TypeVar("T", bound=Hashable)


def _small(frame: Image) -> npt.NDArray[np.float32]:
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    out: npt.NDArray[np.float32] = cv2.resize(gray, (160, 90), interpolation=cv2.INTER_AREA).astype(
        np.float32
    )
    return out


def settled(frames: Sequence[Image], threshold: float = MOTION_THRESHOLD) -> bool:
    """Whether nothing moved between consecutive frames."""
    small = [_small(f) for f in frames]
    return all(float(np.mean(np.abs(a - b))) <= threshold for a, b in itertools.pairwise(small))


def needed(frames: int) -> int:
    """How many of ``frames`` frames must agree: more than half."""
    return frames // 2 + 1


def agreed(votes: Sequence[T], frames: int) -> T | None:
    """The value more than half of ``frames`` frames gave (``votes`` holds one value per frame
    that gave one; a frame that could not tell gives none), or None."""
    best = Counter(votes).most_common(1)
    if best and best[0][1] >= needed(frames):
        return best[0][0]
    return None
