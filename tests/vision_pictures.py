"""The Local Cluster vision tests' pictures, each drawn once in a test process.

Several tests read the same table (the clear board at a pixel a millimetre, one of the
benchmark's pictures, a picture of issue 18's drawn apart), and drawing one takes a second or
more. The newest pictures are kept, up to ``KEPT_BYTES`` of images; every caller gets its own
copy of the image, so a test that paints over its picture leaves the next test's whole.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from benchmarks.local_cluster_kit_renders import LcRender
from benchmarks.vision import Board
from benchmarks.vision import rendered as _benchmark_picture
from benchmarks.vision_kit_renders import SEED, _Picture
from benchmarks.vision_kit_renders import drawn_apart as _drawn_apart
from companion.local_cluster.atoms import SectorId
from companion.local_cluster.state import State
from vision.local_cluster.recognize import recognize
from vision.local_cluster.synthetic import Conditions, Rendered
from vision.local_cluster.synthetic import render as _render

KEPT_BYTES = 600 * 2**20
"""The most image bytes kept at once (a 12-megapixel picture is 36 MB)."""

Picture = TypeVar("Picture", Rendered, LcRender)

_kept: OrderedDict[Hashable, tuple[Rendered | LcRender, tuple[SectorId, ...]]] = OrderedDict()


def render(state: State, conditions: Conditions | None = None) -> Rendered:
    """:func:`vision.local_cluster.synthetic.render`, drawn once."""
    picture, _ = _drawn(("render", state, conditions), lambda: (_render(state, conditions), ()))
    return _own(picture)


def benchmark_picture(board: Board) -> tuple[Rendered, tuple[SectorId, ...]]:
    """:func:`benchmarks.vision.rendered`: the benchmark's picture of ``board``, drawn once."""
    picture, sectors = _drawn(("benchmark", board), lambda: _benchmark_picture(board))
    return _own(picture), sectors


def drawn_apart(index: int, seed: int = SEED) -> LcRender:
    """:func:`benchmarks.vision_kit_renders.drawn_apart`, drawn once."""
    picture, _ = _drawn(("drawn apart", index, seed), lambda: (_drawn_apart(index, seed), ()))
    return _own(picture)


def _drawn(
    key: Hashable, draw: Callable[[], tuple[Picture, tuple[SectorId, ...]]]
) -> tuple[Picture, tuple[SectorId, ...]]:
    found = _kept.pop(key, None)
    kept = draw() if found is None else found
    _kept[key] = kept
    while len(_kept) > 1 and sum(k[0].image.nbytes for k in _kept.values()) > KEPT_BYTES:
        _kept.popitem(last=False)
    return kept  # type: ignore[return-value]


def _own(picture: Picture) -> Picture:
    return dataclasses.replace(picture, image=picture.image.copy())


def read_right(
    picture: LcRender, *, occluded: bool = False
) -> tuple[dict[str, list[str]], list[str]]:
    """``picture`` read as ``companion scan --expect`` reads it: each tile's slots read
    right (the occluded ones too with ``occluded``), and every slot read wrong, visible or
    occluded."""
    truth = _Picture(picture)
    found = recognize(picture.image, expected=tuple(truth.tiles))
    right: dict[str, list[str]] = {}
    wrong = []
    for tile in found.scan.tiles:
        want = truth.tiles[tile.sector]
        right[str(tile.sector)] = [
            r.slot
            for r in tile.slots
            if r.known and want.drawn(r) and (occluded or r.slot not in want.occluded)
        ]
        wrong += [f"{tile.sector} {r.slot}" for r in tile.slots if r.known and not want.drawn(r)]
    return right, wrong
