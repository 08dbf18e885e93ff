"""Local Cluster's board scans of several settled frames combined into one, by majority."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.local_cluster.atoms import sector_sort_key
from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState, TileReading
from vision.settle import agreed, needed


def majority(scans: Sequence[BoardScan]) -> BoardScan:
    """One scan from several: a tile, an edge or a slot's reading counts only when more than
    half the scans agree on it; a slot without such a majority is unknown (its confidence the
    lowest among the frames that agree)."""
    frames = len(scans)
    need = needed(frames)
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
            same_slot = [s for t in seen for s in t.slots if s.slot == reading.slot]
            best = agreed([(s.state, s.colour, s.kind) for s in same_slot if s.known], frames)
            if best is None:
                slots.append(SlotReading(reading.slot, SlotState.UNKNOWN))
                continue
            state, colour, kind = best
            confidence = min(s.confidence for s in same_slot if (s.state, s.colour, s.kind) == best)
            slots.append(SlotReading(reading.slot, state, colour, kind, confidence))
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
                len(seen) / frames,
                tuple(slots),
            )
        )
    edges = Counter(edge for scan in scans for edge in scan.adjacency)
    notes = tuple(dict.fromkeys(n for scan in scans for n in scan.notes))
    return BoardScan(tuple(out), tuple(sorted(e for e, n in edges.items() if n >= need)), notes)
