"""The printed Clustered deck as the camera knows it: one description both the kit's sheets
(and the benchmark's renderer) and the recognizer read (``kit/clustered-kit.json``).

A card is a square of :attr:`Kit.card_side` mm. An attribute card shows its symbols in its
colour's ink in a row near its bottom edge and a 4x4 ArUco marker near its top left corner; a
wild card shows a star; a start card is black with its marker in the middle. The marker id says
which card it is (:meth:`Kit.marker_id`), so with the kit the camera reads each card with
certainty; a commercial deck without markers is read from its symbols instead (the "plain"
layout of the same description: larger symbols in the middle of the card).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from companion.clustered.cards import Card, from_signature
from companion.clustered.settings import Palette
from vision.errors import VisionError

Point = tuple[float, float]
RGB = tuple[int, int, int]


@dataclasses.dataclass(frozen=True)
class Kit:
    card_side: float
    corner_radius: float
    dictionary: str
    marker_side: float
    marker_quiet: float
    marker_centre: Point
    start_marker_centre: Point
    per_colour: int
    wild_first: int
    start_ids: tuple[int, ...]
    symbol_size: float
    stroke: float
    row_y: float
    columns: Mapping[int, tuple[float, ...]]
    hatch_spacing: float
    hatch_width: float
    plain_size: float
    plain_row_y: float
    plain_columns: Mapping[int, tuple[float, ...]]
    paper: RGB
    start_card: RGB
    edge: RGB
    inks: Mapping[str, RGB]
    sheet: Mapping[str, float]

    # Marker ids ----------------------------------------------------------------------------------

    def marker_id(self, card: Card, palette: Palette, copy: int = 0) -> int:
        """The marker printed on ``card`` (``copy`` numbers a colour's wild cards, K1.9)."""
        if card.is_start:
            return self.start_ids[copy]
        assert card.colour is not None
        base = palette.codes.index(card.colour) * self.per_colour
        if card.is_wild:
            return base + self.wild_first + copy
        return base + card.signature

    def card_of(self, marker: int, palette: Palette) -> Card | None:
        """The card a marker id stands for, or None for an id the kit does not print."""
        if marker in self.start_ids:
            return Card(None)
        position, rest = divmod(marker, self.per_colour)
        if not 0 <= position < len(palette.codes):
            return None
        colour = palette.codes[position]
        if rest < 27:
            return from_signature(colour, rest)
        if rest < self.wild_first + 3:
            return Card.wild(colour)
        return None  # pragma: no cover - per_colour is 30

    def ink(self, colour_name: str) -> RGB:
        try:
            return self.inks[colour_name]
        except KeyError:
            known = ", ".join(sorted(self.inks))
            raise VisionError(
                f"the kit has no ink for the colour {colour_name!r}; name the palette's colours "
                f"from: {known}"
            ) from None

    def marker_corners(self, card: Card) -> tuple[Point, ...]:
        """The marker's corners in the card's frame (top left, top right, bottom right, bottom
        left, ArUco's order), for the card as printed."""
        cx, cy = self.start_marker_centre if card.is_start else self.marker_centre
        h = self.marker_side / 2
        return ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))


def _pairs(values: Sequence[Any]) -> Point:
    return (float(values[0]), float(values[1]))


def _rgb(values: Sequence[Any]) -> RGB:
    return (int(values[0]), int(values[1]), int(values[2]))


@functools.cache
def load_kit() -> Kit:
    text = resources.files("vision.clustered").joinpath("kit", "clustered-kit.json").read_text()
    data = json.loads(text)
    marker, ids, symbols = data["marker"], data["ids"], data["symbols"]
    return Kit(
        card_side=float(data["card_side"]),
        corner_radius=float(data["corner_radius"]),
        dictionary=str(marker["dictionary"]),
        marker_side=float(marker["side"]),
        marker_quiet=float(marker["quiet"]),
        marker_centre=_pairs(marker["centre"]),
        start_marker_centre=_pairs(marker["start_centre"]),
        per_colour=int(ids["per_colour"]),
        wild_first=int(ids["wild_first"]),
        start_ids=tuple(int(i) for i in ids["start"]),
        symbol_size=float(symbols["size"]),
        stroke=float(symbols["stroke"]),
        row_y=float(symbols["row_y"]),
        columns={int(k): tuple(float(x) for x in v) for k, v in symbols["columns"].items()},
        hatch_spacing=float(symbols["hatch_spacing"]),
        hatch_width=float(symbols["hatch_width"]),
        plain_size=float(symbols["plain_size"]),
        plain_row_y=float(symbols["plain_row_y"]),
        plain_columns={
            int(k): tuple(float(x) for x in v) for k, v in symbols["plain_columns"].items()
        },
        paper=_rgb(data["paper"]),
        start_card=_rgb(data["start_card"]),
        edge=_rgb(data["edge"]),
        inks={name: _rgb(rgb) for name, rgb in data["inks"].items()},
        sheet={k: float(v) for k, v in data["sheet"].items()},
    )
