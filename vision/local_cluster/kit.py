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

    def outline(self) -> list[Point]:
        """The slot's outline as a polygon in the tile frame (a circle as 48 points)."""
        cx, cy = self.centre
        if self.shape == "triangle":
            angles = [-90.0, 30.0, 150.0]
            r = self.radius
        elif self.shape == "hexagon":
            angles = [0.0, 60.0, 120.0, 180.0, 240.0, 300.0]
            r = self.radius / math.cos(math.radians(30))
        else:
            angles = [i * 7.5 for i in range(48)]
            r = self.radius
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in angles
        ]


@dataclasses.dataclass(frozen=True)
class CardSpec:
    size: Point
    marker_side: float
    marker_frame: float
    """Each card marker sits on a white sticker like a tile's, inside a square of printed tile
    this wide, so the card shows how a tile's sticker looks to this camera."""
    markers: dict[int, Point]
    white: tuple[Point, Point]
    ink: tuple[Point, Point]
    swatch_side: float
    swatches: dict[str, Point]


@dataclasses.dataclass(frozen=True)
class Kit:
    """The whole kit description."""

    dictionary: str
    tile_side: float
    marker_side: float
    sticker_side: float
    variant_blocks: int
    sectors: tuple[int, int]
    ring: tuple[float, float]
    """Where a slot's surround is looked at: this far outside its outline (mm)."""
    margin: float
    """How far inside a slot's outline its token is sampled (mm)."""
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


def _pair(value: Any) -> Point:
    return (float(value[0]), float(value[1]))


def _rgb(value: Any) -> RGB:
    return (int(value[0]), int(value[1]), int(value[2]))


def parse_kit(data: dict[str, Any]) -> Kit:
    """A kit from its JSON data; KitError naming the key that is wrong."""
    try:
        tile = data["tile"]
        card = data["card"]
        variants = tuple(
            tuple(
                SlotSpec(s["name"], s["kind"], s["shape"], _pair(s["centre"]), float(s["radius"]))
                for s in variant["slots"]
            )
            for variant in data["variants"]
        )
        return Kit(
            dictionary=str(data["aruco"]["dictionary"]),
            tile_side=float(tile["side"]),
            marker_side=float(tile["marker_side"]),
            sticker_side=float(tile["sticker_side"]),
            variant_blocks=int(tile["variant_blocks"]),
            sectors=(int(tile["sectors"][0]), int(tile["sectors"][1])),
            ring=(float(data["slot_ring"]["inner"]), float(data["slot_ring"]["outer"])),
            margin=float(data["slot_margin"]),
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
