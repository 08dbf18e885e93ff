"""What the table beside the cards looks like: the colours the cells read empty show, so that
a tracked card's cell is called empty only where the table shows there, not where a hand or
a sleeve lies over the card (K3.11: "was it moved or taken away?" is asked of a card gone).

Each pixel falls in a bin of its chromaticity (its red and green shares of the three
channels) and its lightness against the light (:func:`vision.clustered.symbols.illuminant`,
in steps of a fifth of the paper's). A bin is the table's when it holds
:data:`PRESENT_SHARE` of the pixels of at least :data:`CELLS_SHARE` of the empty cells
beside the cards: a patterned cloth's every colour shows in many of them, a hand or an arm
in the few it lies over.

Measured on 12 of the Clustered benchmark's 1080p tables, each drawn as tracked and again
with three cards taken away (the prior still holding them), on its own mat and on the
patterned cloth: tracked cards present but read empty 38 before, 6 after on the flat mats
(a hand of a skin the colour of a wooden table is still taken for it), 40 and 34 on the
patterned cloth (whose reds and pinks are a hand's); the cards taken away read empty 20 and
19 of 36 on the flat mats (the others out of view, under a hand, or beside a card's white
edge), 19 and 19 on the cloth. The thresholds were chosen on those tables and checked on 12
others drawn from another seed (read empty where a card lies: 54 -> 21 on the flat mats,
56 -> 39 on the cloth; cards taken away 18 -> 17 of 18 and 21 -> 21).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

CHROMA_STEPS = 14
"""Bins across each of the red and green shares (0 to 1)."""
LIGHT_STEPS = 5
"""Bins of lightness, from black to the paper's (anything lighter in the last)."""
PRESENT_SHARE = 0.01
"""A bin shows in a cell when it holds this share of the cell's pixels..."""
CELLS_SHARE = 0.2
"""...and is the table's when it shows in this share of the empty cells beside the cards."""
CELLS_LEAST = 5
"""Fewer empty cells beside the cards than this say nothing of the table."""
TABLE_SHARE = 0.6
"""A cell shows the table when this share of its pixels lies in the table's bins."""


def _bins(patch: Image, light: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
    """Each pixel's bin (chromaticity and lightness), flattened."""
    bgr = patch.reshape(-1, 3).astype(np.float32)
    total = np.maximum(bgr.sum(axis=1), 1.0)
    red = np.minimum((bgr[:, 2] / total * CHROMA_STEPS).astype(np.intp), CHROMA_STEPS - 1)
    green = np.minimum((bgr[:, 1] / total * CHROMA_STEPS).astype(np.intp), CHROMA_STEPS - 1)
    level = (bgr / np.maximum(light, 1.0)).max(axis=1)
    lightness = np.minimum((level * LIGHT_STEPS).astype(np.intp), LIGHT_STEPS - 1)
    out: npt.NDArray[np.intp] = (red * CHROMA_STEPS + green) * LIGHT_STEPS + lightness
    return out


_SIZE = CHROMA_STEPS * CHROMA_STEPS * LIGHT_STEPS


@dataclasses.dataclass(frozen=True)
class Cloth:
    """The table's bins, and the light they were binned in."""

    table: npt.NDArray[np.bool_]
    light: npt.NDArray[np.float32]

    @classmethod
    def of(cls, empty: Sequence[Image], light: npt.NDArray[np.float32]) -> Cloth | None:
        """The table as the cells read empty beside the cards show it; None from fewer than
        :data:`CELLS_LEAST` of them."""
        if len(empty) < CELLS_LEAST:
            return None
        shown = np.zeros(_SIZE, np.int64)
        for patch in empty:
            counts = np.bincount(_bins(patch, light), minlength=_SIZE)
            shown += counts >= PRESENT_SHARE * patch.shape[0] * patch.shape[1]
        return cls(shown >= CELLS_SHARE * len(empty), light)

    def shows(self, patch: Image) -> bool:
        """Whether ``patch`` shows the table (:data:`TABLE_SHARE` of it in the table's bins)."""
        return float(self.table[_bins(patch, self.light)].mean()) >= TABLE_SHARE
