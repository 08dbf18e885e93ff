"""Settled frames and majority readings: a hand moving over the board is the main source of
wrong readings, so only frames without motion count, and a slot's reading must be the same in
most of them."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import sector_sort_key
from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState, TileReading

Image = npt.NDArray[np.uint8]
MOTION_THRESHOLD = 4.0
"""Mean absolute difference (8-bit steps) of two small grey copies above which frames moved."""


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


def majority(scans: Sequence[BoardScan]) -> BoardScan:
    """One scan from several: a tile, an edge or a slot's reading counts only when more than
    half the scans agree on it; a slot without such a majority is unknown."""
    need = len(scans) // 2 + 1
    tiles: dict[str, list[TileReading]] = {}
    for scan in scans:
        for tile in scan.tiles:
            tiles.setdefault(tile.sector, []).append(tile)
    out = []
    for sector in sorted(tiles, key=sector_sort_key):
        seen = tiles[sector]
        if len(seen) < need:
            continue
        slots = []
        for reading in seen[0].slots:
            votes = Counter(
                (s.state, s.colour, s.kind)
                for t in seen
                for s in t.slots
                if s.slot == reading.slot and s.known
            )
            best = votes.most_common(1)
            if best and best[0][1] >= need:
                state, colour, kind = best[0][0]
                confidence = min(
                    s.confidence
                    for t in seen
                    for s in t.slots
                    if s.slot == reading.slot and (s.state, s.colour, s.kind) == best[0][0]
                )
                slots.append(SlotReading(reading.slot, state, colour, kind, confidence))
            else:
                slots.append(SlotReading(reading.slot, SlotState.UNKNOWN))
        first = seen[0]
        out.append(
            TileReading(
                sector,
                first.variant,
                first.column,
                first.row,
                first.rotation,
                first.centre,
                first.angle,
                len(seen) / len(scans),
                tuple(slots),
            )
        )
    edges = Counter(edge for scan in scans for edge in scan.adjacency)
    notes = tuple(dict.fromkeys(n for scan in scans for n in scan.notes))
    return BoardScan(tuple(out), tuple(sorted(e for e, n in edges.items() if n >= need)), notes)
