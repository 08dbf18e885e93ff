"""The physical kit as the camera relies on it, loaded from ``kit/local-cluster-kit.json``.

Everything is in millimetres. A tile's frame has its origin at the tile's centre, x to the
right and y down as its ArUco marker reads upright; the card's frame has its origin at the
card's top-left corner. The renderer and the recognizer both read slot positions from here,
and nothing else from each other (docs/physical-kit.md).
"""

from __future__ import annotations

import dataclasses
import json
import math
from functools import cache
from importlib import resources
from typing import Any

from vision.errors import KitError

Point = tuple[float, float]
RGB = tuple[int, int, int]


@dataclasses.dataclass(frozen=True)
class SlotSpec:
    """One token slot printed on a tile: ``claim``, ``unit``, ``mineral1``.., ``craft1``.."""

    name: str
    kind: str
    """``claim``, ``unit``, ``mineral`` or ``craft``."""
    shape: str
    """``triangle`` (pointing up, ``radius`` = circumradius), ``hexagon`` (``radius`` =
    inradius, flat top and bottom) or ``circle``."""
    centre: Point
    radius: float

    @property
    def inradius(self) -> float:
        """The radius of the largest circle inside the shape."""
        return self.radius / 2 if self.shape == "triangle" else self.radius

    @property
    def circumradius(self) -> float:
        """The radius of the smallest circle about the shape (through its corners)."""
        return self.radius / math.cos(math.radians(30)) if self.shape == "hexagon" else self.radius

    def outline(self, turn: float = 0.0) -> list[Point]:
        """The slot's outline as a polygon in the tile frame (a circle as 48 points), turned
        ``turn`` degrees clockwise about its centre."""
        cx, cy = self.centre
        if self.shape == "triangle":
            angles = [-90.0, 30.0, 150.0]
        elif self.shape == "hexagon":
            angles = [0.0, 60.0, 120.0, 180.0, 240.0, 300.0]
        else:
            angles = [i * 7.5 for i in range(48)]
        r = self.circumradius
        return [
            (cx + r * math.cos(math.radians(a + turn)), cy + r * math.sin(math.radians(a + turn)))
            for a in angles
        ]


@dataclasses.dataclass(frozen=True)
class CardSpec:
    size: Point
    marker_side: float
    marker_frame: float
    """Each card marker sits on a white square like a tile's, inside a square of printed tile
    this wide, so the card shows how a tile's white square looks to this camera."""
    markers: dict[int, Point]
    white: tuple[Point, Point]
    ink: tuple[Point, Point]
    swatch_side: float
    swatches: dict[str, Point]
    cut_line: float
    """Width of the black line the card is cut out along."""
    probe_side: float
    """The black square printed at the centre of every swatch and of the white patch."""


@dataclasses.dataclass(frozen=True)
class Kit:
    """The whole kit description (docs/physical-kit.md)."""

    version: int
    dictionary: str
    tile_side: float
    marker_side: float
    white_side: float
    """The white square the marker is printed on (its quiet zone and the tile's white)."""
    bleed: float
    """How far a tile face's background is printed beyond its cut line."""
    line_width: float
    """Width of the slot outlines and of the tile's edge line, centred on the outline."""
    variant_blocks: int
    sectors: tuple[int, int]
    label: Point
    """Where a face's sector label is centred for variant 0 (turned with the variant)."""
    label_height: float
    label_box: Point
    """The label's box (width, height) for variant 0: no slot reaches into it."""
    token_scale: float
    """A token's size relative to its slot outline (circumradius, inradius or radius)."""
    token_bleed: float
    """How far a token's colour is printed beyond its cut line (mm)."""
    token_cut_line: float
    """Width of the ink line a token is cut out along, centred on its outline (mm)."""
    placement_offset: float
    """How far off its slot's centre a token may lie (by hand) and still be read (mm)."""
    placement_turn: float
    """How far a token may be turned in its slot and still be read (degrees)."""
    glyph: dict[str, Any]
    colours: dict[str, RGB]
    """The eight empire colours as printed (sRGB)."""
    printed: dict[str, RGB]
    card: CardSpec
    variants: tuple[tuple[SlotSpec, ...], ...]

    def variant_of(self, number: int) -> int:
        """The shape variant of box tile ``number`` (blocks of 12, as the rules' generation)."""
        return (number - 1) // self.variant_blocks

    def is_sector_marker(self, marker: int) -> bool:
        return self.sectors[0] <= marker <= self.sectors[1]

    def marker_corners(self) -> list[Point]:
        """A tile marker's corners in the tile frame, in ArUco's order (clockwise from
        top-left)."""
        h = self.marker_side / 2
        return [(-h, -h), (h, -h), (h, h), (-h, h)]

    def card_marker_corners(self, marker: int) -> list[Point]:
        cx, cy = self.card.markers[marker]
        h = self.card.marker_side / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    def label_at(self, variant: int) -> tuple[Point, Point]:
        """The label's centre and box (width, height) on a tile of ``variant``."""
        (x, y), (w, h) = self.label, self.label_box
        for _ in range(variant):
            x, y, w, h = -y, x, h, w
        return (x, y), (w, h)

    def token(self, slot: SlotSpec) -> SlotSpec:
        """The token that fits ``slot``, centred on it: the slot's shape at token scale."""
        return dataclasses.replace(slot, radius=slot.radius * self.token_scale)


def _pair(value: Any) -> Point:
    return (float(value[0]), float(value[1]))


def _rgb(value: Any) -> RGB:
    return (int(value[0]), int(value[1]), int(value[2]))


def parse_kit(data: dict[str, Any]) -> Kit:
    """A kit from its JSON data; KitError naming the key that is wrong."""
    try:
        tile = data["tile"]
        card = data["card"]
        tokens = data["tokens"]
        variants = tuple(
            tuple(
                SlotSpec(s["name"], s["kind"], s["shape"], _pair(s["centre"]), float(s["radius"]))
                for s in variant["slots"]
            )
            for variant in data["variants"]
        )
        return Kit(
            version=int(data["version"]),
            dictionary=str(data["aruco"]["dictionary"]),
            tile_side=float(tile["side"]),
            marker_side=float(tile["marker_side"]),
            white_side=float(tile["white_side"]),
            bleed=float(tile["bleed"]),
            line_width=float(tile["line_width"]),
            variant_blocks=int(tile["variant_blocks"]),
            sectors=(int(tile["sectors"][0]), int(tile["sectors"][1])),
            label=_pair(tile["label"]["centre"]),
            label_height=float(tile["label"]["height"]),
            label_box=_pair(tile["label"]["box"]),
            token_scale=float(tokens["scale"]),
            token_bleed=float(tokens["bleed"]),
            token_cut_line=float(tokens["cut_line"]),
            placement_offset=float(tokens["placement"]["offset"]),
            placement_turn=float(tokens["placement"]["turn"]),
            glyph=dict(data["glyph"]),
            colours={k: _rgb(v) for k, v in data["colours"].items()},
            printed={k: _rgb(v) for k, v in data["printed"].items()},
            card=CardSpec(
                size=_pair(card["size"]),
                marker_side=float(card["marker_side"]),
                marker_frame=float(card["marker_frame"]),
                markers={int(k): _pair(v) for k, v in card["markers"].items()},
                white=(_pair(card["white"][0]), _pair(card["white"][1])),
                ink=(_pair(card["ink"][0]), _pair(card["ink"][1])),
                swatch_side=float(card["swatch_side"]),
                swatches={k: _pair(v) for k, v in card["swatches"].items()},
                cut_line=float(card["cut_line"]),
                probe_side=float(card["probe_side"]),
            ),
            variants=variants,
        )
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise KitError(f"the kit description is malformed ({type(err).__name__}: {err})") from None


@cache
def load_kit() -> Kit:
    """The kit shipped with the package."""
    text = (
        resources.files("vision.local_cluster")
        .joinpath("kit/local-cluster-kit.json")
        .read_text("utf-8")
    )
    return parse_kit(json.loads(text))
