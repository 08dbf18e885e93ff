"""Reading a picture of the table: markers, the table plane, tiles, adjacency and every slot.

The pipeline (docs/physical-kit.md, "How the camera reads the kit"):

1. ArUco markers (:mod:`.markers`): found at reduced resolution, looked for again when fewer
   tiles show than the game has, their edges located at full resolution; how wide those
   edges are says how blurred the picture is.
2. The table plane and the tiles on it (:mod:`.plane`): poses, the grid, adjacency (R1.1).
3. The calibration card (:mod:`.colour`): the light's colour, the swatches, the ink.
4. Every tile's sample points (:mod:`.layout`) read in one ``remap``, each tile's light
   from its white square (compared with the card's identical squares), white-balanced, a
   highlight taken off in its lamp's colour (:func:`_glare_colour`), in Lab; then every
   slot read or left UNKNOWN (:mod:`.slots`).
5. The picture as a whole judged (:func:`judge`): too small or too blurred to trust, no
   tiles, tiles expected but missing.

With a :class:`Prior` (the camera's last good reading: where each tile lay on the table), a
tile whose marker is hidden this time (a hand, a card sleeve) is placed where its found
neighbours' motion carries its last pose (:func:`carried`), then kept only if the picture
agrees: its printed slot outlines must show where the pose puts them (:data:`CARRIED_EMPTIES`).

Without one, a tile whose marker is hidden whole is looked for by its printed face
(:mod:`.face_fit`, :func:`_by_face`) when the table should hold it (``expected``) and it is
the only missing tile of its variant: its edge line says where it lies, its slot outlines
which variant it is and which way it lies (each variant's triangles point up its own
frame), and it is kept only where its edge line, an empty triangle or hexagon and four of
its slots read show it (:func:`_face_right`), and where no other cell shows the same.

Each tile is placed at the size its marker shows on the table plane, fitted across the
picture (:func:`_marker_scales`): a lens that bows straight lines shows tiles near the
picture's corners smaller than one plane says. Where the markers show that lens bowing
strongly, in a picture fine enough to read outlines, each tile is carried through the
bowing they show instead (:mod:`.lens`): more along the line to the centre than across it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import SectorId, sector_sort_key
from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState, TileReading
from companion.local_cluster.galaxy import Tile
from vision.blas import one_blas_thread
from vision.errors import CardNotFound, ImageError
from vision.local_cluster import (
    face_fit,
    game_map,
    grid_rescue,
    lens,
    outline_fit,
    tile_edges,
    token_turn,
)
from vision.local_cluster.colour import (
    CLIPPED,
    LINEAR,
    Card,
    lab,
    linear_from_lab,
    linear_rgb,
    luminance,
    median,
    nominal_card,
    percentile,
    read_card,
)
from vision.local_cluster.kit import Kit, load_kit
from vision.local_cluster.layout import VariantLayout, keep_off, layout, white_margin
from vision.local_cluster.markers import EDGE_TO_SIGMA, Marker, edge_spread, find_markers
from vision.local_cluster.plane import (
    _adjacent_pairs,
    _grid,
    _near_pairs,
    _plane,
    _rigid,
    _similarity,
    marker_size,
    sizes_on_plane,
    wrap,
)
from vision.local_cluster.slots import (
    COLOURS,
    HUE_SHIFT_MOST,
    HUED,
    References,
    decide,
    light,
    measure,
    outline_contrasts,
)
from vision.readers import Quality

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]

MAX_PIXELS = 50_000_000
SAMPLE_PX_PER_MM = 1.6
"""A picture finer than this is shrunk to it before the slots are sampled (every lattice
point then stands for the picture around it, not one pixel of it)."""
SMALLEST_PX_PER_MM = 0.5
"""Below this many pixels per millimetre tiles go unfound: the picture is not usable, and no
token's colour is read (a unit's body is then a few pixels across, all of them near its edge:
issue 18's benchmark read a yellow destroyer white at 0.37 px/mm, in warm JPEG 60)."""
OUTLINES_LEAST = 3
"""At least this many slots that look empty and clear give the board's outline contrast
(``slots.References.outline``; without it no slot reads empty), counted on the tiles found
by their own marker. Where those show one or two (hands over every marker but one, and that
tile's slots full), they are counted on every tile read, and the median taken is never
below theirs: a face read at a way it is then refused shows no outline where it looks for
one (issue 18's pictures drawn apart, seed 36 picture 17: S43's one empty claim 33.3, two
mineral slots of a face then refused 9.8 and 7.8; seed 40 picture 31: 0.0 and -3.6 on a
face refused). On seeds 32-43 from 1 px/mm with the map, 9 of 512 pictures showed 0-2 on
the tiles found by their marker; 4 show 3 or more on every tile, and 29,230 visible slots
right became 29,243; on the held-out seeds 0-31 from 0.95 px/mm, 90,209 became 90,261.
None wrong on either.)"""
MINERAL_OUTLINES = 12
"""At least this many mineral slots that look empty give the minerals' own outline contrast."""
USABLE_PX_PER_MM = 0.53
"""A picture whose markers measure fewer pixels per millimetre than this is called unusable:
the markers' median scale lies within about 5 % of the board's own (issue 18's benchmark,
60 pictures of 0.4-0.62 px/mm: 0.93-1.045 times it), so a board below
``SMALLEST_PX_PER_MM`` is never called usable (seed 2026's picture 49, 0.492 px/mm, measured
0.504 and was called coarse, exit 0)."""
SLOTS_PX_PER_MM = 1.0
"""From this many pixels per millimetre on, every slot can be read."""
SOFTEST_MM = 4.5
"""Marker edges blurred wider than this (mm on the table, 10-90 %) make the picture
unusable; ``SOFT_MM`` makes it coarse."""
SOFT_MM = 2.8
FINE_PX_PER_MM = 0.85
"""Below this, small things (a 1.5 mm outline, a mineral, a strike craft) are not told from
noise: only claims and units are read, and no slot as empty. (At 0.78 px/mm with 1.15 px of
blur issue 18's benchmark read an empty mineral slot as a token.)"""
GUESSED_CELLS = True
"""With one tile found by its marker and no face beside it, faces are looked for on the cells
the map lays the missing tiles on if that tile is turned as its cell says
(:func:`game_map.guessed_by_its_turn`); a face found so fits the map with the tile as a face
beside it does (:func:`game_map.fit_by_a_face`). (Issue 18's pictures drawn apart, read with
the map: 15 more visible slots right on seeds 32-43 from 1 px/mm, 21 on the held-out seeds
0-31 from 0.95 px/mm, none wrong. Seed 36 picture 29: S38, between S4 and S8, under an arm;
S8's marker washed out by glare, its face two cells along S4's turn.)"""
COARSE_PX_PER_MM = 1.0
"""...and below this a smeared token's body must lie nearer its swatch
(:data:`slots.SMEARED_FAR_COARSE`), and a mineral token's inside at most
:data:`slots.MINERAL_UNDER_LINE` darker than its outline (``References.coarse``)."""
GLARE_TILE_MOST = 0.5
"""Glare adding more than this share of paper white over a whole tile (the median of its
bare field): its slots are unknown, and its white square's light is not to be trusted
either. Below it glare is judged slot by slot, where it falls (``slots.GLARE_MOST``,
``slots.GLARE_ALL_MOST``). (0.08 before issue 18's benchmark showed tiles under a lamp's
broad halo read right once glare is taken off where it falls; 0.14, then 0.2, until each
slot judged the glare it gets all told. The kit's tokens and tiles are printed alike, on
one paper, so glare lifts a token as it lifts the print around it.)

A tile whose white square is hidden (placed from the prior or by its face, or found by what
shows of its marker) is not made unknown whole so: its light is borrowed from the tiles
beside it, and a pale arm over nine tenths of its bare field reads as light as glare. Its
slots are judged one by one, nothing taken off it whole, and a highlight still makes each
slot it reaches unknown. (Issue 18's pictures drawn apart, seeds 32-43 from 1 px/mm with
the map: 35/7's S10, under an arm, its field's tenth percentile 0.82 of its borrowed light
above the print, and 41/50's S44 read "glare over the tile" with 15 visible slots between
them; judged slot by slot, 13 more right there, 27 more on the held-out seeds 0-31, and
none wrong on either.)

Nor is a tile found by its own marker, while any tile's white square is left to borrow
from: glare over its whole field lies over its white square too, and the light that square
shows is not the tile's. It is read as a tile whose square is hidden: its light borrowed,
its slots judged one by one, and the board's bare tile, limits and noise measured without
it. (Seeds 32-43: 40/22's S33, under a highlight at 1.10 px/mm, read "glare over the tile"
with 10 visible slots; read so, 9 of them right, and 29,243 visible slots right became
29,255. Held out, 90,261 became 90,298, one fewer in 8/22. None wrong on either.)"""
GLARE_COLOUR_LEAST, GLARE_COLOUR_PLAIN = 1.0, 0.25
"""The glare's colour (:func:`_glare_colour`) is read on the tiles a highlight lifts by at
least the first times their bare print's luminance beyond what every tile shows, against the
print on those it lifts by at most the second."""
GLARE_COLOUR_AGREE, GLARE_COLOUR_OFF = 0.3, 0.5
"""...and kept when at least half those tiles show it within the first in every channel
(the dark tiles of a warm picture at JPEG 60, under a faint highlight, showed anything from
0.1 to 3.2 of blue), and it lies at least the second from grey in some channel (a highlight
of the picture's own light read within 0.5 of grey)."""
FIELD_LOW = 10
"""Glare is taken off a whole tile only as far as this percentile of its bare field shows
it: a highlight falls off across a tile, and taking its median off everywhere pushed the
tile's dim side below black (then no surround looked like bare tile, and a dark token's
colour turned). What remains is taken off slot by slot (:func:`slots.light`)."""


CARD_TILE_APART = 30.0
"""The card's tile swatch and the board's bare tile are the same ink: when they read farther
apart than this (Lab), the card's small swatches are not what its colours look like on the
board, and no token's colour is read. JPEG keeps colour at half the resolution of light, so
in a coarse picture each swatch takes colour from the card's white around it, most of all a
dark one (issue 18's benchmark, new faces: at 0.6-0.84 px/mm in warm JPEG 60 pictures the
swatches lay 35-39 apart from the tiles, and a purple claim read blue, a green strike craft
aqua, a red carrier pink; every picture of 1 px/mm and above lay within 28 then). From
:data:`SQUARES_LEAST_PX_PER_MM` the tiles' white squares stand in for the card."""
SQUARES_LEAST_PX_PER_MM = 0.95
"""With the card's colours unusable (glare, something over its white patch or half over a
swatch, its tile swatch :data:`CARD_TILE_APART` from the tiles, or no card in the picture),
token colours are read
against the kit's printed ones (``slots.PRINTED_FAR``), each tile in the light its own
white square shows, from this many pixels per mm. On 25 sets of issue 18's benchmark at
every scale: 474 more visible slots right, none wrong, all from 1 px/mm. From 0.85 px/mm a
blue strike craft read empty at 0.93 px/mm; below that, where the card's swatches share
the picture's blur and the printed colours do not, 6 read wrong at 0.51-0.61 px/mm (pink
claims white, and coarse glyphs). On the tables drawn apart from the recognizer, whose auto
exposure and lamps take the card's colours in 7 of 42 pictures from 1 px/mm and leave it
out of one, 2,010 visible slots right became 2,127 of 2,304, none wrong. (1 px/mm, with
``COARSE_PX_PER_MM``, until 2026-12-01: drawn apart, seed 25's pictures 0 and 32, drawn at
1.02-1.03 px/mm with the card under glare, measure 0.985 at their markers, and read no
token's colour; at 0.95, 81 more visible slots right on that seed, none wrong on fourteen
seeds drawn apart or the nine sets, whose readings are the same.)"""
CLIPPED_COLOURS_APART = 20.0
"""Squares clipped so far that the players' printed colours, as they show them
(:func:`_as_clipped`), come nearer one another than this (twice ``slots.MARGIN``; 29.8 as
printed, blue and purple) do not explain the bare tile's distance from its print
(:func:`_unclipped`): the gain that would has left colours that cannot be told apart. On
the tables drawn apart from the recognizer, a gain of 32 in red and 11 in green left aqua
and pink 10 apart, and a pink strike craft read purple at 0.66 (seed 3, picture 35). The
gains kept, which read more slots right with none wrong, left them 21-42 apart; two that
left them 3 and 0.3 apart read 12 more slots right between them, none wrong, and are left
out with it."""
SQUARE_WHITEST = 75
"""The light's colour on a tile's white square is read from its points at or above this
percentile of their luminance: blur mixes the square's edges with the black marker and the
dark tile round it."""
SQUARE_CLIPPED = 0.98
"""A channel of the tiles' white squares is clipped when their whitest points (the median
of them) read this near a picture value of :data:`colour.CLIPPED` or more in it."""
CARRIED_NEIGHBOURS = 2
"""A tile whose marker is hidden is placed from the prior only when at least this many found
tiles near it agree on how the board moved since (:func:`carried`)."""
CARRIED_REACH = 2.3
"""Those neighbours lie within this many tile sides of the hidden tile (by the prior); when
fewer do, the nearest ``CARRIED_FARTHEST`` found tiles anywhere are asked (the board as a
whole has not moved on the table)."""
CARRIED_FARTHEST = 4
CARRIED_AGREE_MM = 2.5
CARRIED_AGREE_DEGREES = 2.5
"""A neighbour agrees when the fitted motion puts it within this far and this turn of where
its marker shows it now."""
CARRIED_SURE = 0.75
"""A tile placed from the prior whose outlines do not show is kept when its claim or unit
reads at least this surely (:func:`_placed_right`). (What hides its marker lies on the
tile: a token read less surely there is kept only with its surround clear,
``slots.HIDDEN_SURROUND``; an empty reading needs the slot's printed outline to show along
every side where the pose puts it, which nothing over the slot shows.)"""
FACE_TURN_SURE = 0.5
"""A tile placed by its face (:func:`_face_right`) needs an empty triangle or hexagon read at
least this surely: the evidence of which way its slots lie."""
LENS_MARKERS = 3
"""Tile markers needed to fit how a lens bows the tiles' sizes across the picture (fewer
share their mean size: :func:`_marker_scales`)."""
FACE_READ = 4
"""...and at least this many slots read (a token or empty), or ``CARRIED_EMPTIES`` with two
of them empty. A hand over most of a tile leaves its tokens and few outlines: issue 18's
benchmark, 25 sets read alone, gave 142 more visible slots right where 3 slots read, one
empty, and 3 wrong (``hands`` 71 picture 10: S4 under a hand taken for S37 a quarter turn
off, its claim and unit read and one mineral's outline read empty at 0.56, sideways); two
empty outlines, or a fourth slot read, 132 right and none wrong. On the pictures drawn
apart from the recognizer, 12 more right and none wrong (picture 28: S16 under an arm, its
unit read empty, three strike craft read)."""
MAP_TOKENS = 3
MAP_TOKEN_SURE = 0.85
"""A face the game's map names on its cell with no side of its edge line showing
(:func:`_face_right`) is placed when this many of its slots read a token at least
``MAP_TOKEN_SURE`` surely, as when its outlines show: the face was fitted within
``face_fit.REACH_MM`` of the cell, nearer than any slot repeats, and three tokens lie
where its pose puts slots. (Issue 18's pictures drawn apart, seed 36 picture 7, 1.15
px/mm: S26 under a hand and glare, three minerals read at 0.98-1.0 and three yellow strike
craft at 0.63-0.81, one mineral's outline empty, all right. Seeds 32-43 from 1 px/mm, with
the map: 12 more visible slots right; held-out seeds 0-31, 28; none wrong. Seed 40's
picture 40 holds a face on its cell whose blue strike craft, under a hand, read empty at
0.66, with no token read: not placed.)"""
SAME_PLACE_MM = 4.0
SAME_PLACE_DEG = 3.0
"""A tile whose marker the grid found (``grid_rescue``) within this of where the prior
carries it is placed at the prior's pose: the last scan saw its marker whole."""
CARRIED_SURE_SLOTS = ("claim", "unit")
"""A tile placed from the prior whose outlines do not show (``CARRIED_EMPTIES``) is kept
when one of these slots reads surely (:func:`_placed_right`)."""
BORROWED_FROM = 3
"""A tile placed from the prior takes its light from this many nearest found tiles."""
CARRIED_EMPTIES = 3
"""A tile placed from the prior is kept when at least this many of its slots read empty
(an empty reading needs the slot's 1.5 mm printed outline to show where the pose puts it;
at least one of them not a strike-craft slot, whose outlines repeat every 18-20 mm, unless
its edge line shows across x and y): a pose more than about a millimetre off shows none."""


@dataclasses.dataclass(frozen=True)
class TilePose:
    """Where a tile lay on the table (the plane fixed by the calibration card)."""

    sector: SectorId
    centre: tuple[float, float]
    """Its marker's centre (mm)."""
    angle: float
    """Its marker's turn (degrees): with the sector's id, which way its slots lie (its
    quarter turn)."""


@dataclasses.dataclass(frozen=True)
class Prior:
    """The tile poses of the last settled reading: the camera's memory of the board."""

    tiles: tuple[TilePose, ...]

    @classmethod
    def of(cls, scan: BoardScan) -> Prior:
        return cls(tuple(TilePose(t.sector, t.centre, t.angle) for t in scan.tiles))

    def pose(self, sector: SectorId) -> TilePose | None:
        return next((t for t in self.tiles if t.sector == sector), None)


@dataclasses.dataclass(frozen=True)
class TileFound:
    """A tile's marker and where its tile lies, for the debug picture."""

    sector: SectorId
    to_image: Matrix
    """Homography from the tile frame (mm) to image pixels."""
    reading: TileReading
    carried: bool = False
    """Placed from the prior (its marker hidden this time), not by its marker."""
    by_face: bool = False
    """Placed where its printed face shows (its marker hidden whole, and no earlier scan
    placed it), as the one tile of its variant the table should have and does not show."""


@dataclasses.dataclass(frozen=True)
class Recognition:
    scan: BoardScan
    tiles: tuple[TileFound, ...]
    table_to_image: Matrix
    quality: Quality = Quality.GOOD
    notes: tuple[str, ...] = ()
    """About the picture as a whole (too small, no tiles)."""
    px_per_mm: float | None = None
    """Image pixels per table millimetre at the markers (the median marker)."""
    edge_mm: float | None = None
    """How wide a sharp edge on the table shows (mm): the picture's blur and pixel size."""


def _check_image(image: Image) -> None:
    if (
        not isinstance(image, np.ndarray)
        or image.ndim != 3
        or image.shape[2] != 3
        or image.dtype != np.uint8
    ):
        raise ImageError("expected a colour picture (height x width x 3 bytes)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(f"the picture has more than {MAX_PIXELS} pixels")


@one_blas_thread
def recognize(
    image: Image,
    *,
    kit: Kit | None = None,
    expected: Collection[SectorId] | int | None = None,
    prior: Prior | None = None,
    cells: Mapping[SectorId, Tile] | None = None,
) -> Recognition:
    """Read a BGR picture of the table; CardNotFound without the calibration card, unless
    the tiles' markers show it at :data:`SQUARES_LEAST_PX_PER_MM` or more.

    ``expected`` is the tiles the table should have (the tracked game's sectors, or just how
    many), when known: if fewer markers show, the detector looks again more carefully, and
    the missing ones are named in a note. ``prior`` is where the tiles lay at the last
    settled reading: a tile whose marker is hidden is placed from it when its neighbours and
    the picture agree (see the module docstring). ``cells`` is where the tracked game's map
    lays each tile, when known: where the tiles found lie so, a face whose marker is hidden
    is named by the cell it lies on (:mod:`game_map`).
    """
    kit = kit or load_kit()
    _check_image(image)
    count = expected if isinstance(expected, int) or expected is None else len(expected)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    markers = find_markers(gray, kit, count)
    card_markers = [m for m in markers if m.id in kit.card.markers]
    without_card = len(card_markers) < 2
    # Without the card a coarse picture's tiles are placed but none of its tokens read.
    tokens_read = not without_card or _without_card(markers, kit)
    if without_card:
        markers = [m for m in markers if m.id not in kit.card.markers]
        card_markers = []
    notes: list[str] = []
    tile_markers: list[Marker] = []
    for marker in markers:
        if marker.id in kit.card.markers:
            continue
        if not kit.is_sector_marker(marker.id):
            notes.append(f"marker {marker.id} is not a tile of this kit")
            continue
        tile_markers.append(marker)
    table_to_image, poses = _plane(card_markers, tile_markers, kit)
    off_size, kept_markers, refitted, refitted_poses = _off_size(
        card_markers, tile_markers, kit, table_to_image
    )
    if off_size:
        names = ", ".join(f"S{m.id}" for m in off_size)
        notes.append(
            f"a marker of {names} shows far smaller or larger on the table than a tile's "
            "marker: no tile (a pattern in the mat, or a picture?), left out"
        )
        markers = [m for m in markers if all(m is not o for o in off_size)]
        tile_markers = kept_markers
        table_to_image, poses = refitted, refitted_poses
    rescued: set[str] = set()
    if count is not None and (tile_markers or card_markers) and len(tile_markers) < count:
        on_grid = _on_the_grid(image, gray, kit, table_to_image, poses, markers, expected)
        for marker, pose in on_grid:
            markers.append(marker)
            tile_markers.append(marker)
            poses.append(pose)
            rescued.add(f"S{marker.id}")
    card = (
        dataclasses.replace(
            nominal_card(kit), glare=True, notes=(NO_CARD if tokens_read else NO_CARD_COARSE,)
        )
        if without_card
        else read_card(image, table_to_image, kit)
    )
    found: list[tuple[SectorId, Pose, bool]] = [
        (f"S{marker.id}", pose, False) for marker, pose in zip(tile_markers, poses, strict=True)
    ]
    if prior is not None:
        # A tile the grid found where the prior carries it (give or take a few millimetres)
        # is placed at the prior's pose: the last scan saw its marker whole, and placed it
        # more exactly than a marker that shows only in part.
        by_marker = [f for f in found if f[0] not in rescued]
        before = dict(carried(by_marker, prior, kit)) if rescued else {}
        found = [
            (sector, before[sector], False)
            if sector in before and _same_place(pose, before[sector])
            else (sector, pose, from_prior)
            for sector, pose, from_prior in found
        ]
        found += [(sector, pose, True) for sector, pose in carried(found, prior, kit)]
    quads = np.array([m.corners for m in markers])
    px_per_mm = float(median(np.sqrt(_areas(quads)))) / kit.marker_side
    scales = _marker_scales(table_to_image, tile_markers, kit, rescued, gray.shape)
    # Only where slot outlines are read is a tile's bowing across it worth its measuring.
    bowing = (
        lens.measured(
            card_markers,
            [m for m in tile_markers if f"S{m.id}" not in rescued],
            kit,
            gray.shape,
            _plane,
        )
        if px_per_mm >= FINE_PX_PER_MM
        else None
    )

    def place(sector: SectorId, pose: Pose) -> tuple[Matrix, int]:
        (centre, angle) = pose
        to_image = table_to_image @ _similarity(centre, angle, scales.get(sector, 1.0))
        if bowing is not None:
            to_image = bowing.placed(to_image, kit.tile_side)
        return to_image, kit.variant_of(int(sector[1:]))

    # The edge line of the tiles found by their own marker, measured once if at all: what a
    # face (_by_face) and a tile placed from the prior (_edges_shown) are held against.
    own = [place(sector, pose) for sector, pose, from_prior in found if not from_prior]
    edge_typical = functools.cache(lambda: _edge_typical(gray, kit, own))
    found_sectors = {s for s, *_ in found}
    missing = (
        None
        if expected is None or isinstance(expected, int)
        else [sector for sector in expected if sector not in found_sectors]
    )
    own_found = [(sector, pose) for sector, pose, placed in found if not placed]
    mapped = None if cells is None else game_map.fit(cells, own_found, kit.tile_side)
    # One tile found by its marker fixes no grid alone; with a face beside it, it may.
    by_a_face = (
        functools.partial(game_map.fit_by_a_face, cells, own_found, side=kit.tile_side)
        if cells is not None and mapped is None and len(own_found) == 1
        else None
    )
    guessed = (
        game_map.guessed_by_its_turn(cells, own_found, kit.tile_side)
        if by_a_face is not None and cells is not None
        else None
    )
    faces = _by_face(
        image,
        gray,
        kit,
        table_to_image,
        found,
        missing,
        prior,
        px_per_mm,
        edge_typical,
        markers,
        mapped,
        by_a_face,
        guessed,
    )
    by_face = [*faces.named, *(way for ways in faces.trials for way in ways)]
    found += by_face
    found.sort(key=lambda f: sector_sort_key(f[0]))
    placed = [place(sector, pose) for sector, pose, _ in found]
    on_card = [table_to_image @ _similarity(kit.card.markers[m.id], 0.0) for m in card_markers]
    edge_px = edge_spread(gray, quads)
    edge_mm = edge_px / px_per_mm
    card_notes = list(card.notes)
    readings = (
        read_tiles(
            image,
            placed,
            kit,
            card,
            on_card,
            px_per_mm,
            keep_off(edge_mm),
            edge_px / EDGE_TO_SIGMA,
            [from_prior or sector in rescued for sector, _, from_prior in found],
            card_notes,
            placed=[from_prior for _, _, from_prior in found],
        )
        if tokens_read
        else [_unread(kit, variant) for _, variant in placed]
    )
    lines_shown = _edges_shown(gray, kit, found, placed, px_per_mm, edge_typical)
    triangles = {spec.name for spec in kit.variants[0] if spec.shape == "triangle"}
    # Whether a face's triangles point up each way's frame, asked only where nothing else
    # would place the tile (token_turn's correlations are the dearest test here).
    turn_shown = {
        entry: functools.cache(functools.partial(_triangles_point_up, image, kit, where))
        for entry, where in zip(found, placed, strict=True)
        if entry in faces.tried or entry in faces.named
    }
    shown_by = {
        entry: not isinstance(slots, str)
        and _face_right(slots, shown, turn_shown=turn_shown[entry])
        and (_points_up(slots, triangles) or turn_shown[entry]())
        for entry, slots, shown in zip(found, readings, lines_shown, strict=True)
        if entry in faces.tried
    }
    sole = missing is not None and len(missing) == 1
    named_shown = {
        entry: not isinstance(slots, str)
        and _face_right(
            slots,
            shown,
            named_surely=sole or entry in faces.way_too,
            turn_shown=turn_shown[entry],
            on_map=entry[0] in faces.by_map,
        )
        for entry, slots, shown in zip(found, readings, lines_shown, strict=True)
        if entry in faces.named
    }
    named_right = {sector for (sector, _, _), right in named_shown.items() if right}
    way_shown: dict[Entry, SectorId] = {}
    for ways in faces.trials:
        way = _the_way_shown(ways, shown_by)
        if way is not None and (one := _the_one_left(faces.candidates[way], named_right)):
            way_shown[way] = one
    # A way that names another of its candidates places that tile: _one_face_each must
    # know it for one placed by its face.
    by_face += [(one, way[1], True) for way, one in way_shown.items() if one != way[0]]
    kept = []
    for (sector, pose, from_prior), (to_image, variant), slots, shown in zip(
        found, placed, readings, lines_shown, strict=True
    ):
        if from_prior and not tokens_read:
            continue  # nothing read shows the tile there
        if (sector, pose, from_prior) in faces.tried:
            if (sector, pose, from_prior) not in way_shown:
                continue
            alike = faces.candidates[(sector, pose, from_prior)]
            sector = way_shown[(sector, pose, from_prior)]
            why = (
                "no other tile the table should have looks like it that way"
                if len(alike) == 1
                else "the other tiles the table should have that look like it that way show "
                "elsewhere"
            )
            notes.append(
                f"{sector}: its marker is hidden; placed where a face like its own shows, "
                f"the way its slots show ({why})"
            )
        elif (sector, pose, from_prior) in faces.named:
            if not named_shown[(sector, pose, from_prior)]:
                continue
            if sector in faces.by_map:
                notes.append(
                    f"{sector}: its marker is hidden; placed where a face like its own shows, "
                    "on the cell and the way the game's map lays it"
                )
            elif sector in faces.on_cell:
                notes.append(
                    f"{sector}: its marker is hidden; placed where a face like its own shows, "
                    "on the cell the game's map lays it"
                )
            elif sector in faces.by_marker:
                notes.append(
                    f"{sector}: its marker shows only in part; placed where a face like its "
                    "own shows, and named by what shows of its marker (another tile the table "
                    "should have looks like it)"
                )
            else:
                why = (
                    "the other tiles the table should have that look like it show elsewhere"
                    if sector in faces.left_over
                    else "no other tile the table should have looks like it"
                )
                notes.append(
                    f"{sector}: its marker is hidden; placed where a face like its own shows "
                    f"({why})"
                )
        elif from_prior:
            if isinstance(slots, str) or not _placed_right(slots, shown):
                notes.append(
                    f"{sector}: its marker is hidden and the picture does not show the tile "
                    "where the last scan had it: not read"
                )
                continue
            notes.append(f"{sector}: its marker is hidden; placed where the last scan had it")
        elif sector in rescued and not isinstance(slots, str):
            notes.append(
                f"{sector}: its marker shows only dimly or in part (found by a second look "
                "where the table has room for a tile); a token is given only where read surely "
                "or with nothing beside it"
            )
        kept.append((sector, pose, from_prior, to_image, variant, slots))
    kept = _one_face_each(kept, by_face, notes)
    grid = _grid([pose for _, pose, *_ in kept], kit.tile_side)
    tiles: list[TileFound] = []
    seen_cells: dict[tuple[int, int], str] = {}
    for (sector, (centre, angle), from_prior, to_image, variant, slots), (
        column,
        row,
        rotation,
    ) in zip(kept, grid, strict=True):
        if isinstance(slots, str):
            notes.append(f"{sector}: {slots}")
            slots = _unread(kit, variant)
        if (column, row) in seen_cells:
            notes.append(f"{sector} lies on the same grid cell as {seen_cells[(column, row)]}")
        seen_cells[(column, row)] = sector
        reading = TileReading(sector, variant, column, row, rotation, centre, angle, 1.0, slots)
        face = (sector, (centre, angle), from_prior) in by_face
        tiles.append(TileFound(sector, to_image, reading, from_prior and not face, face))
    poses_kept = [pose for _, pose, *_ in kept]
    near = _near_pairs(poses_kept, kit.tile_side)
    sharing = _adjacent_pairs(poses_kept, near, kit.tile_side)
    edges = [
        (kept[i][0], kept[j][0]) for (i, j), shared in zip(near, sharing, strict=True) if shared
    ]
    scan = BoardScan(tuple(t.reading for t in tiles), tuple(edges), tuple(notes))
    seen = {t.sector for t in tiles}
    missing = (
        []
        if expected is None or isinstance(expected, int)
        else sorted((s for s in expected if s not in seen), key=sector_sort_key)
    )
    quality, picture = judge(px_per_mm, edge_mm, len(tiles), missing, card_notes)
    return Recognition(scan, tuple(tiles), table_to_image, quality, picture, px_per_mm, edge_mm)


Pose = tuple[tuple[float, float], float]
Kept = tuple[SectorId, Pose, bool, Matrix, int, tuple[SlotReading, ...] | str]

NO_CARD = (
    "the calibration card is not in the picture: put it beside the board for the surest colours"
)


NO_CARD_COARSE = (
    "the calibration card is not in the picture, and under "
    f"{SQUARES_LEAST_PX_PER_MM} pixels per mm no token is read without it: the tiles are "
    "placed, their slots unknown; put the card beside the board, and move the camera closer "
    "or use the still camera"
)


def _without_card(markers: Sequence[Marker], kit: Kit) -> bool:
    """Whether the tokens of a picture without the card's markers are read: when its tile
    markers show it at :data:`SQUARES_LEAST_PX_PER_MM` or more, against the kit's printed
    colours, each tile in its own white square's light. A coarser picture's tiles are
    placed, none of their tokens read (the card's swatches share a picture's blur, the
    printed colours do not). :class:`CardNotFound` when no tile marker shows either."""
    tiles_seen = [m for m in markers if kit.is_sector_marker(m.id)]
    if not tiles_seen:
        raise CardNotFound(
            "the calibration card is not in the picture (at least 2 of its 4 markers must "
            "show); no tile marker was found either: if the board is in view, the picture is "
            "too small or too blurred (move the camera closer, focus it, or use the still "
            "camera)"
        )
    size = float(np.median(np.sqrt(_areas(np.array([m.corners for m in tiles_seen])))))
    return size / kit.marker_side >= SQUARES_LEAST_PX_PER_MM


def _unread(kit: Kit, variant: int) -> tuple[SlotReading, ...]:
    """A tile's slots, every one unknown."""
    return tuple(SlotReading(s.name, SlotState.UNKNOWN) for s in kit.variants[variant])


def _on_the_grid(
    image: Image,
    gray: Image,
    kit: Kit,
    table_to_image: Matrix,
    poses: Sequence[Pose],
    markers: Sequence[Marker],
    expected: Collection[SectorId] | int | None,
) -> list[tuple[Marker, Pose]]:
    """The markers of tiles ``expected`` (any of the kit's, given only how many) that the
    detector missed, found where the grid leaves room for them (:mod:`grid_rescue`; with no
    tile's marker found, beginning wherever the table shows a white square), each
    with its pose on the plane the detector's markers fix, nudged to where its slot outlines
    show (:mod:`outline_fit`): a marker found so may show only in part, and does not move
    that plane."""
    wanted = (
        range(kit.sectors[0], kit.sectors[1] + 1)
        if isinstance(expected, int) or expected is None
        else [int(s[1:]) for s in expected]
    )
    model = np.array(kit.marker_corners(), np.float64)
    to_table = np.linalg.inv(table_to_image)
    out = []
    for marker in grid_rescue.rescued(image, gray, kit, table_to_image, poses, markers, wanted):
        corners = cv2.perspectiveTransform(marker.corners.reshape(-1, 1, 2), to_table)
        pose = _rigid(model, corners.reshape(4, 2))
        variant = kit.variant_of(marker.id)
        out.append((marker, outline_fit.fitted(gray, kit, table_to_image, variant, pose)))
    return out


MARKER_SIZE_OFF = 1.3
"""A tile marker the detector finds is the kit's printed size on the table plane, give or
take what the plane's fit and the lens leave (drawn apart, seeds 40, 64 and 65: 1,131
markers at 0.93-1.06 of it); one this many times smaller or larger is no tile, but a
pattern in the mat the detector took for a marker (seed 40 picture 31, a busy mat: S37 and
S40, not on the table, at 0.25 and 0.23)."""


def _off_size(
    card: list[Marker], tiles: list[Marker], kit: Kit, table_to_image: Matrix
) -> tuple[list[Marker], list[Marker], Matrix, list[Pose]]:
    """The tile markers whose size on the table plane (``table_to_image``, fitted to all of
    them) is more than :data:`MARKER_SIZE_OFF` times off the kit's; the others, and the plane
    and their poses. The farthest off is taken out first and the plane fitted again without
    it, so that what is no tile does not pull the plane the others lie on."""
    size = marker_size(kit)
    out: list[Marker] = []
    left = list(tiles)
    poses: list[Pose] = []
    while left:
        off = np.abs(np.log(sizes_on_plane(table_to_image, left) / size))
        worst = int(np.argmax(off))
        if not off[worst] > math.log(MARKER_SIZE_OFF):
            break
        out.append(left.pop(worst))
        if not (left or card):
            return out, left, table_to_image, []
        table_to_image, poses = _plane(card, left, kit)
    return out, left, table_to_image, poses


def _marker_scales(
    table_to_image: Matrix,
    markers: Sequence[Marker],
    kit: Kit,
    rescued: Collection[str],
    shape: tuple[int, ...],
) -> dict[SectorId, float]:
    """How large each tile whose marker the detector found shows on the table plane, for its
    size. One plane fits every marker only as well as the lens lets it: a lens that bows
    straight lines shows a tile near the picture's corner a few percent smaller than near
    its centre, and its outermost slots a millimetre or more nearer its marker than the
    plane puts them, against a 1.5 mm outline. Each marker's corners, carried onto the
    plane, give its size against the kit's; one marker's size is noisier than the bowing,
    so the sizes are fitted across the picture as ``a + b r**2``, ``r`` the marker's
    distance from the picture's centre (a lens bows about its centre), and each tile takes
    the fit's size at its marker; with fewer than :data:`LENS_MARKERS` markers, their mean
    size. A tile found on the grid (``rescued``: its marker shows only in part) keeps the
    plane's size.
    (Issue 18's pictures drawn apart, picture 2 at 2.76 px/mm, lens k1 -0.045: S9's strike
    craft 1, 5 and 6 lay 1-1.5 mm inside where the plane put them, and their outlines read
    at a third to two-thirds of their contrast.)"""
    own = [m for m in markers if f"S{m.id}" not in rescued]
    if not own:
        return {}
    size = marker_size(kit)
    corners = np.array([m.corners.reshape(4, 2) for m in own], np.float64)  # N x 4 x 2
    sizes = sizes_on_plane(table_to_image, own)
    height, width = shape[:2]
    off = corners.mean(axis=1) - (width / 2, height / 2)
    r2 = (off**2).sum(axis=1) / (math.hypot(width, height) / 2) ** 2
    terms = [np.ones_like(r2), r2] if len(own) >= LENS_MARKERS else [np.ones_like(r2)]
    fit, *_ = np.linalg.lstsq(np.stack(terms, axis=1), sizes, rcond=None)
    a, b = float(fit[0]), float(fit[1]) if len(fit) > 1 else 0.0
    return {f"S{m.id}": (a + b * float(r)) / size for m, r in zip(own, r2, strict=True)}


Entry = tuple[SectorId, Pose, bool]
"""A tile the picture may show: its sector, its pose, and whether placed without its marker."""


@dataclasses.dataclass(frozen=True)
class Faces:
    """The tiles :func:`_by_face` takes for faces."""

    named: list[Entry] = dataclasses.field(default_factory=list)
    """Each named at its face: its variant's only missing tile, by what shows of its
    marker, or the one left."""
    by_marker: set[SectorId] = dataclasses.field(default_factory=set)
    """Of those, the ones named by what shows of their markers..."""
    way_too: set[Entry] = dataclasses.field(default_factory=set)
    """...of them, the ones whose markers say which way they lie too, each at its face
    (:attr:`grid_rescue.InPart.way_too`)..."""
    left_over: set[SectorId] = dataclasses.field(default_factory=set)
    """...and the ones named as the one left."""
    trials: list[list[Entry]] = dataclasses.field(default_factory=list)
    """Each face still unnamed, each way it may lie (a tile of that way's variant at its
    pose): one of them is kept where its slots show that way and no other
    (:func:`_the_way_shown`)..."""
    candidates: dict[Entry, tuple[SectorId, ...]] = dataclasses.field(default_factory=dict)
    """...and each way's candidates, the missing tiles of its variant: the way names the
    one of them not placed at another face (:func:`_the_one_left`)."""
    by_map: set[SectorId] = dataclasses.field(default_factory=set)
    """The ones named by the game's map (:mod:`game_map`): the cell and the way..."""
    on_cell: set[SectorId] = dataclasses.field(default_factory=set)
    """...and the ones it names by their cell alone (its turns not the table's)."""

    @functools.cached_property
    def tried(self) -> set[Entry]:
        return {way for ways in self.trials for way in ways}


def _points_up(slots: Sequence[SlotReading], triangles: Collection[str]) -> bool:
    """Whether a triangle of ``slots`` reads empty at least :data:`FACE_TURN_SURE`: it
    points up its own variant's frame, so no other way of a face shows it. (A hexagon does
    not do for a way a half turn from another: the two ways put every slot in the same
    place, and a hexagon a half turn on is the same hexagon. Issue 18's benchmark, seed 2026
    picture 51: S41's face read as S23's, a half turn on, read its unit empty at 0.92.)"""
    return _surely_empty(slots, triangles.__contains__)


def _triangles_point_up(image: Image, kit: Kit, where: tuple[Matrix, int]) -> bool:
    """Whether the triangle slots of a tile of ``where``'s variant, placed by ``where``'s map
    to the picture, point up its frame (:func:`token_turn.slots_point_up`): their outlines
    and any tokens on them."""
    to_image, variant = where
    return token_turn.slots_point_up(image, to_image, kit.variants[variant])


def _surely_empty(slots: Sequence[SlotReading], which: Callable[[str], bool]) -> bool:
    """Whether any of ``slots`` whose name passes ``which`` reads empty at least
    :data:`FACE_TURN_SURE`: its outline shows where the way read puts it."""
    return any(
        s.state is SlotState.EMPTY and which(s.slot) and s.confidence >= FACE_TURN_SURE
        for s in slots
    )


def _the_way_shown(ways: Sequence[Entry], shown_by: Mapping[Entry, bool]) -> Entry | None:
    """Of a face's ``ways`` (:attr:`Faces.trials`), the one its slots show
    (:func:`_face_right`, with an empty triangle: :func:`_points_up`), when it is the only
    one."""
    shown = [way for way in ways if shown_by[way]]
    return shown[0] if len(shown) == 1 else None


def _the_one_left(candidates: Sequence[SectorId], placed: Collection[SectorId]) -> SectorId | None:
    """Of a way's ``candidates`` (:attr:`Faces.candidates`), the one not ``placed`` at
    another face (named there, and shown there by its slots), when only one is. A tile only
    named at another face may still be here: issue 18's benchmark, `lamps` 67 picture 15
    (1.08 px/mm), S2 and S5 of one variant missing: with S2 left out here for being named at
    another face by what shows of its marker (its slots refused it there), S5 was taken for
    this face, and 3 of its slots read wrong."""
    left = [sector for sector in candidates if sector not in placed]
    return left[0] if len(left) == 1 else None


def _by_face(
    image: Image,
    gray: Image,
    kit: Kit,
    table_to_image: Matrix,
    found: Sequence[tuple[SectorId, Pose, bool]],
    missing: Sequence[SectorId] | None,
    prior: Prior | None,
    px_per_mm: float,
    edge_typical: Callable[[], tuple[float, float]],
    markers: Sequence[Marker],
    mapped: game_map.Fitted | None = None,
    by_a_face: Callable[[Sequence[Sequence[tuple[SectorId, Pose]]]], game_map.Fitted | None]
    | None = None,
    guessed: game_map.Fitted | None = None,
) -> Faces:
    """Where the tiles the table should have and does not show (``missing``, None when the
    table's sectors are not known) may lie, their markers hidden: each free grid cell
    where a tile's face shows (:mod:`face_fit`), against the found tiles' ``edge_typical``
    line, named by its variant when exactly one missing tile is of that variant (or of the
    other ways it may lie, when the outlines do not say which it is: its ``others``), else
    by what shows of its marker among those missing tiles
    (:func:`grid_rescue.named_in_part`), or as the one of them left when the others were
    named at other faces (so, or as the only candidate there); and which were named by
    their markers (and of those, which their markers say the way of too), and which as the
    one left. A face still unnamed is offered each way it may lie (its
    :attr:`Faces.trials`), to be named by the way its slots show (:func:`_the_way_shown`).
    Where the game's map fits the tiles found (``mapped``; with one tile found, fitted to it
    and a face beside it, ``by_a_face``: :func:`game_map.fit_by_a_face`, or, with none
    beside it, a face where ``guessed`` lays a missing tile, and then every cell it lays a
    missing tile on looked at), a face is named by it alone: the
    missing tile the map lays on its cell, or nothing; the way the map turns it where the
    face shows that way and the map's turns are the table's (``Fitted.turns_known``), else
    the way its outlines show (held to the rule for any face), or each way that tile may lie
    there is offered as above.
    None for a tile an earlier scan placed (:func:`carried` alone places such a tile), nor
    in a picture coarser than :data:`FINE_PX_PER_MM`. Each is only a candidate
    (:func:`_face_right`, :func:`_one_face_each`)."""
    if missing is None or px_per_mm < FINE_PX_PER_MM:
        return Faces()
    of_variant: dict[int, list[SectorId]] = {}
    for sector in missing:
        of_variant.setdefault(kit.variant_of(int(sector[1:])), []).append(sector)
    held = {
        variant
        for variant, sectors in of_variant.items()
        if prior is not None and any(prior.pose(sector) is not None for sector in sectors)
    }
    if not set(of_variant) - held:
        return Faces()  # nothing to look for: no face is looked at
    typical, face_level = edge_typical()
    poses = [pose for _, pose, _ in found]
    out: list[Entry] = []
    by_marker: set[SectorId] = set()
    by_map: set[SectorId] = set()
    on_cell: set[SectorId] = set()
    way_too: set[Entry] = set()
    unnamed: list[list[tuple[SectorId, Pose]]] = []
    alone: set[SectorId] = set()

    def beyond(fitted: game_map.Fitted | None) -> list[Pose]:
        """The map's cells of the tiles missing: one beyond another hidden tile lies beside
        none found, and no free cell is its."""
        cells = [] if fitted is None else [fitted.cell_of(sector) for sector in missing]
        return [cell for cell in cells if cell is not None]

    shown = face_fit.faces(gray, kit, table_to_image, poses, typical, face_level, beyond(mapped))
    if mapped is None and by_a_face is not None:
        # One tile found and a face beside it (or, with none, where the tile's own turn
        # lays a missing tile): the map fitted so, then its cells looked at (the free
        # cells beside the tiles found were looked at already).
        def named_ways(faces: Sequence[face_fit.Face]) -> list[list[tuple[SectorId, Pose]]]:
            return [
                [
                    (sector, pose)
                    for variant, pose in [(face.variant, face.pose), *face.others]
                    for sector in of_variant.get(variant, [])
                ]
                for face in faces
            ]

        mapped = by_a_face(named_ways(shown))
        far: list[face_fit.Face] = []
        if mapped is None and guessed is not None and GUESSED_CELLS:
            far = face_fit.faces(
                gray, kit, table_to_image, poses, typical, face_level, beyond(guessed), beside=False
            )
            mapped = by_a_face(named_ways(far))
        if mapped is not None:
            again = face_fit.faces(
                gray, kit, table_to_image, poses, typical, face_level, beyond(mapped), beside=False
            )
            # A face found where the guess lays a tile is kept where, looked at again from
            # the fitted map's cell, it shows another way (its outlines' fit moved); the same
            # way in the same place is that face, fitted from the better start, not a second
            # place showing it.
            shown += again + [
                face
                for face in far
                if not any(
                    face.variant == other.variant and _same_place(face.pose, other.pose)
                    for other in again
                )
            ]
    for face in shown:
        ways = [(face.variant, face.pose), *face.others]
        if any(variant in held for variant, _ in ways):
            continue
        named = [(sector, pose) for variant, pose in ways for sector in of_variant.get(variant, [])]
        if mapped is not None:
            on_map = [(sector, pose) for sector, pose in named if mapped.lies_so(pose, sector)]
            if not on_map or _marker_names_another(
                image, gray, kit, markers, table_to_image, named, on_map[0][0]
            ):
                continue
            turned = [(s, pose) for s, pose in on_map if mapped.turned_so(pose, s)]
            if len(turned) == 1 and mapped.turns_known:  # the map says the way as well
                out.append((*turned[0], True))
                by_map.add(turned[0][0])
                way_too.add((*turned[0], True))
            elif len(on_map) == 1:  # the way its outlines show, held to it as any other
                out.append((*on_map[0], True))
                on_cell.add(on_map[0][0])
            else:  # its turns are not the table's: the way its slots show
                unnamed.append(on_map)
            continue
        if len(named) == 1:
            out.append((*named[0], True))
            alone.add(named[0][0])
        elif named:
            which = _named_in_part(image, gray, kit, markers, table_to_image, named)
            if which is not None:
                out.append((*named[which.index], True))
                by_marker.add(named[which.index][0])
                if which.way_too:
                    way_too.add((*named[which.index], True))
            else:
                unnamed.append(named)
    # A face no candidate's marker names is the one candidate left when the others were
    # named at other faces (by what shows of their markers, or as the only candidate there).
    # Only at one face: where the picture shows faces at many cells, most are none.
    elsewhere = by_marker | alone
    lefts: list[tuple[SectorId, Pose]] = []
    for named in unnamed:
        left = [(sector, pose) for sector, pose in named if sector not in elsewhere]
        if len(left) == 1:
            lefts.append(left[0])
    once = Counter(sector for sector, _ in lefts)
    left_over = {sector for sector, count in once.items() if count == 1}
    lefts = [(sector, pose) for sector, pose in lefts if sector in left_over]
    out += [(sector, pose, True) for sector, pose in lefts]
    # A face still unnamed is read each way it may lie: the way its slots show names it
    # when only one candidate of that way's variant is not placed at another face (see
    # _the_way_shown and _the_one_left).
    trials: list[list[Entry]] = []
    candidates: dict[Entry, tuple[SectorId, ...]] = {}
    for named in unnamed:
        if any((sector, pose) in lefts for sector, pose in named):
            continue
        of_way: dict[tuple[int, Pose], list[SectorId]] = {}
        for sector, pose in named:
            of_way.setdefault((kit.variant_of(int(sector[1:])), pose), []).append(sector)
        tried: list[Entry] = []
        for (_, pose), sectors in of_way.items():
            tried.append((sectors[0], pose, True))
            candidates[tried[-1]] = tuple(sectors)
        trials.append(tried)
    return Faces(out, by_marker, way_too, left_over, trials, candidates, by_map, on_cell)


def _marker_names_another(
    image: Image,
    gray: Image,
    kit: Kit,
    markers: Sequence[Marker],
    table_to_image: Matrix,
    named: Sequence[tuple[SectorId, Pose]],
    sector: SectorId,
) -> bool:
    """Whether what shows of a marker at a face names another of the missing tiles it could
    be (``named``) than the one the game's map lays there (``sector``): two hidden tiles of
    one variant laid the other way round from the map."""
    if len({candidate for candidate, _ in named}) < 2:
        return False
    which = _named_in_part(image, gray, kit, markers, table_to_image, named)
    return which is not None and named[which.index][0] != sector


def _named_in_part(
    image: Image,
    gray: Image,
    kit: Kit,
    markers: Sequence[Marker],
    table_to_image: Matrix,
    named: Sequence[tuple[SectorId, Pose]],
) -> grid_rescue.InPart | None:
    """Which of the missing tiles a face could be (``named``) what shows of a marker there
    names (:func:`grid_rescue.named_in_part`)."""
    at = [(int(sector[1:]), table_to_image @ _similarity(*pose)) for sector, pose in named]
    return grid_rescue.named_in_part(image, gray, kit, markers, at)


def _face_right(
    slots: Sequence[SlotReading],
    edges: tile_edges.Shown | None,
    *,
    named_surely: bool = False,
    turn_shown: Callable[[], bool] = lambda: False,
    on_map: bool = False,
) -> bool:
    """Whether a tile placed by its face (:func:`_by_face`) shows itself there: its edge line
    across x and y, an empty triangle or hexagon read at least :data:`FACE_TURN_SURE`, and
    :data:`FACE_READ` slots read (or three, two of them empty). The edge line is alike on
    all four sides, and a strike-craft circle alike under every variant that puts one there;
    only an empty triangle or hexagon, whose outline must show along every side, says which
    way the slots lie. A claim or unit token read surely does not: a token turned a quarter still
    covers most of its slot. (Issue 18's benchmark, `hands` 29 picture 14: S14, variant 1,
    under a hand, was taken for S10 at a quarter turn on five empty craft outlines and a
    mineral read empty at 0.22, and read a purple destroyer pink.) The triangles' own
    shape does, token or outline: the claim's or the minerals' pointing up the tile's
    frame (``turn_shown``, asked last: :func:`token_turn.slots_point_up`). When the tile
    is named surely (``named_surely``), two empty outlines of any shape among
    :data:`FACE_READ` slots read will do:
    - the only one the table should have and does not show: no tile of another variant is
      missing to be taken for it, and the tile itself a quarter or half turn off puts its
      strike craft where its face has none (issue 18's pictures drawn apart, picture 12: S6
      under a hand, only its craft showing);
    - named by what shows of its marker as surely as a marker is anywhere, which says the
      way it lies as well (:attr:`grid_rescue.InPart.way_too`; issue 18's benchmark,
      `hands` 13 picture 53, 2.18 px/mm: S1 under a hand, its marker matched 0.95, its
      minerals covered or read unsure, its six strike-craft slots empty).

    A face the game's map names (``on_map``: :mod:`game_map`, its cell and its way) needs
    only its edge line across x and y and one slot read: the map has said which tile and
    which way, the edge line that the pose is right within about a millimetre, and a slot
    of a tile placed so reads a token less than 0.75 surely only with its surround clear.
    (Issue 18's benchmark, 2026-12-01: two slots read, or one of them empty, gave 8 and 15
    fewer right on seed 2026; none wrong either way.) Where no side shows its edge line (a
    hand over the tile's sides), its slot outlines must show where the pose puts them
    (:func:`_outlines_show`: ``CARRIED_EMPTIES`` slots read empty, one not a strike craft's):
    the face was fitted within ``face_fit.REACH_MM`` and a little more of the map's cell, and
    no slot's outline repeats nearer than 18 mm (the strike craft's lie 18-20 mm apart, the
    minerals' 20). (Issue 18's pictures drawn apart, seed 41 picture 7, 1.12 px/mm: S20
    under a hand, on its map cell, its edge line hidden on every side, five slots read.) Or
    :data:`MAP_TOKENS` of its slots read a token surely."""
    turned = _surely_empty(slots, lambda name: not name.startswith("craft"))
    read = sum(s.known for s in slots)
    empty = sum(s.state is SlotState.EMPTY for s in slots)
    if on_map:
        if edges is tile_edges.Shown.NONE:
            sure = sum(s.state is SlotState.TOKEN and s.confidence >= MAP_TOKEN_SURE for s in slots)
            return _outlines_show(slots) or sure >= MAP_TOKENS
        return edges in (tile_edges.Shown.ALL, tile_edges.Shown.ACROSS) and read >= 1
    return (
        edges in (tile_edges.Shown.ALL, tile_edges.Shown.ACROSS)
        and (read >= FACE_READ or (read >= CARRIED_EMPTIES and empty >= 2))
        and (turned or (named_surely and empty >= 2 and read >= FACE_READ) or turn_shown())
    )


def _one_face_each(
    kept: list[Kept], by_face: Sequence[tuple[SectorId, Pose, bool]], notes: list[str]
) -> list[Kept]:
    """``kept`` without the tiles placed by their face where more than one cell shows the
    same sector's: nothing says which cell holds it."""
    faces = [k for k in kept if (k[0], k[1], k[2]) in by_face]
    out = kept
    for sector in sorted({k[0] for k in faces}, key=sector_sort_key):
        places = [k for k in faces if k[0] == sector]
        if len(places) > 1:
            notes.append(
                f"{sector}: its marker is hidden and {len(places)} places show a face like "
                "its tile's: not read"
            )
            out = [k for k in out if all(k is not p for p in places)]
    return out


def _same_place(one: Pose, other: Pose) -> bool:
    """Whether two poses of a tile agree within ``SAME_PLACE_MM`` and ``SAME_PLACE_DEG``."""
    (x, y), angle = one
    (u, v), turn = other
    return math.hypot(x - u, y - v) <= SAME_PLACE_MM and abs(wrap(angle - turn)) <= SAME_PLACE_DEG


def carried(
    found: Sequence[tuple[SectorId, Pose, bool]], prior: Prior, kit: Kit
) -> list[tuple[SectorId, Pose]]:
    """Where the prior's tiles that were not found lie now, as their found neighbours' motion
    since the prior carries them (a rigid motion of the table plane fitted to the neighbours'
    centres, kept only when at least :data:`CARRIED_NEIGHBOURS` of them agree with it); a
    tile without enough agreeing neighbours is left out (never a guess)."""
    now = {sector: pose for sector, pose, _ in found}
    pairs = [(prior.pose(sector), pose) for sector, pose in now.items()]
    known = [(before, pose) for before, pose in pairs if before is not None]
    out: list[tuple[SectorId, Pose]] = []
    reach = CARRIED_REACH * kit.tile_side
    for missing in prior.tiles:
        if missing.sector in now or not kit.is_sector_marker(int(missing.sector[1:])):
            continue
        here = np.array(missing.centre)
        by_distance = sorted(known, key=lambda k: math.dist(k[0].centre, missing.centre))
        near = [k for k in by_distance if math.dist(k[0].centre, missing.centre) <= reach]
        if len(near) < CARRIED_NEIGHBOURS:
            near = by_distance[:CARRIED_FARTHEST]
        for _ in range(2):  # fit, drop the neighbours that disagree, fit again
            if len(near) < CARRIED_NEIGHBOURS:
                break
            motion = _motion(near)
            near = [(b, p) for b, p in near if _agrees(motion, b, p)]
        if len(near) < CARRIED_NEIGHBOURS:
            continue
        turn, shift = _motion(near)
        if not all(_agrees((turn, shift), b, p) for b, p in near):
            continue
        centre = _turned(turn) @ here + shift
        pose = ((float(centre[0]), float(centre[1])), missing.angle + math.degrees(turn))
        # Not where a found tile lies now: its place is taken.
        if all(math.dist(pose[0], p[0]) >= 0.8 * kit.tile_side for p in now.values()):
            out.append((missing.sector, pose))
    return out


def _turned(turn: float) -> Matrix:
    return np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])


def _motion(pairs: Sequence[tuple[TilePose, Pose]]) -> tuple[float, Matrix]:
    """The turn (radians) and shift carrying the prior centres onto the current ones."""
    before = np.array([b.centre for b, _ in pairs], np.float64)
    after = np.array([p[0] for _, p in pairs], np.float64)
    mb, ma = before.mean(axis=0), after.mean(axis=0)
    b, a = before - mb, after - ma
    if len(pairs) >= 2 and float((b**2).sum()) > 1.0:
        cross = float(np.sum(b[:, 0] * a[:, 1] - b[:, 1] * a[:, 0]))
        dot = float(np.sum(b[:, 0] * a[:, 0] + b[:, 1] * a[:, 1]))
        turn = math.atan2(cross, dot)
    else:
        turn = math.radians(wrap(pairs[0][1][1] - pairs[0][0].angle))
    shift: Matrix = ma - _turned(turn) @ mb
    return turn, shift


def _agrees(motion: tuple[float, Matrix], before: TilePose, now: Pose) -> bool:
    turn, shift = motion
    centre = _turned(turn) @ np.array(before.centre) + shift
    angle = wrap(now[1] - before.angle - math.degrees(turn))
    return (
        math.dist((float(centre[0]), float(centre[1])), now[0]) <= CARRIED_AGREE_MM
        and abs(angle) <= CARRIED_AGREE_DEGREES
    )


def _edges_shown(
    gray: Image,
    kit: Kit,
    found: Sequence[tuple[SectorId, Pose, bool]],
    placed: Sequence[tuple[Matrix, int]],
    px_per_mm: float,
    edge_typical: Callable[[], tuple[float, float]],
) -> list[tile_edges.Shown | None]:
    """For each tile placed from the prior, how much of its edge line shows where its pose
    puts it (:mod:`tile_edges`), measured against the lines of the tiles found by their own
    marker (``edge_typical``); None for those tiles, and for every tile in a picture coarser
    than :data:`FINE_PX_PER_MM` (a 1.5 mm line is not told from noise there)."""
    out: list[tile_edges.Shown | None] = [None] * len(found)
    if px_per_mm < FINE_PX_PER_MM or not any(from_prior for *_, from_prior in found):
        return out
    typical, face_level = edge_typical()
    by_variant = {v: tile_edges.probes(kit, v) for v in {variant for _, variant in placed}}
    for i, (*_, from_prior) in enumerate(found):
        if from_prior:
            to_image, variant = placed[i]
            edge = by_variant[variant]
            line, face = tile_edges.levels(gray, to_image, edge)
            out[i] = tile_edges.shown(line - face, edge, typical, line, face_level)
    return out


def _edge_typical(
    gray: Image, kit: Kit, placed: Sequence[tuple[Matrix, int]]
) -> tuple[float, float]:
    """How much lighter than the face beside it the edge line of the tiles ``placed`` by
    their own marker shows (the median tile's median position), and how light their faces
    are; 0 for both without such a tile."""
    by_variant = {v: tile_edges.probes(kit, v) for v in {variant for _, variant in placed}}
    own = []
    for to_image, variant in placed:
        line, face = tile_edges.levels(gray, to_image, by_variant[variant])
        if np.isfinite(line - face).any():
            own.append((float(np.nanmedian(line - face)), float(np.nanmedian(face))))
    if not own:
        return 0.0, 0.0
    return float(np.median([c for c, _ in own])), float(np.median([f for _, f in own]))


def _placed_right(slots: Sequence[SlotReading], edges: tile_edges.Shown | None = None) -> bool:
    """Whether a tile placed from the prior shows itself where its pose puts it: its edge line
    along all four sides (``edges``, :mod:`tile_edges`); or its printed slot outlines
    (:func:`_outlines_show`), or its claim or unit slot read surely (a hand over the rest of
    the tile hides the outlines), and its edge line across x and y. A tile has one claim and
    one unit, 88 mm apart: a pose a few millimetres off reads the token it still overlaps,
    one farther off or turned reads nothing there surely. Mineral and strike-craft slots
    repeat every 18-20 mm and are no evidence (issue 18's benchmark, its priors moved 2-25
    mm in eight directions and turned 5-270 degrees: tiles kept on a mineral alone gave 157
    wrong readings, those kept on a claim or unit none), and a pose moved by one row of them
    shows three empty outlines where it expects them; its edge lines across the move it does
    not show (moved 5-25 mm four ways, seed 2026: 19 wrong readings on tiles kept without the
    edges, 1 with them). With the edge line across x and y the pose is right within about a
    millimetre, or off by a neighbour's line 3-5 mm away, which no 1.5 mm outline survives:
    there the strike-craft outlines count as well (priors moved 3-20 mm four ways and
    turned 5-270 degrees, seed 2026: 13 more tiles placed, no reading wrong). ``edges`` is
    None where the picture is too coarse to tell: the slots alone decide."""
    if edges is tile_edges.Shown.ALL:
        return True
    across = edges is tile_edges.Shown.ACROSS
    slots_say = _outlines_show(slots, craft_count=across) or any(
        s.slot in CARRIED_SURE_SLOTS and s.known and s.confidence >= CARRIED_SURE for s in slots
    )
    return slots_say and (edges is None or across)


def _outlines_show(slots: Sequence[SlotReading], *, craft_count: bool = False) -> bool:
    """Whether enough of a tile's printed slot outlines show where its pose puts them (at
    least one not a strike-craft slot's, unless ``craft_count``)."""
    empty = [s for s in slots if s.state is SlotState.EMPTY]
    return len(empty) >= CARRIED_EMPTIES and (
        craft_count or any(not s.slot.startswith("craft") for s in empty)
    )


def judge(
    px_per_mm: float,
    edge_mm: float,
    tiles: int,
    missing: Sequence[SectorId] = (),
    card_notes: Sequence[str] = (),
) -> tuple[Quality, tuple[str, ...]]:
    """The picture's quality and the notes a person needs to make it better (each once: the
    tiles may be read twice, and say the same twice)."""
    notes = list(dict.fromkeys(card_notes))
    if missing:
        notes.append(f"not found: {', '.join(missing)} (covered, out of the picture, or too small)")
    if tiles == 0:
        notes.append(
            "no tile markers in the picture, only the calibration card: is the board in view?"
        )
        return Quality.UNUSABLE, tuple(notes)
    closer = "move the camera closer, or use the still camera's full resolution"
    if px_per_mm < USABLE_PX_PER_MM:
        notes.append(
            f"the board is too small in the picture ({px_per_mm:.2f} pixels per mm; "
            f"at least {USABLE_PX_PER_MM}): tiles and pieces may be missing; {closer}"
        )
        return Quality.UNUSABLE, tuple(notes)
    if edge_mm > SOFTEST_MM:
        notes.append(
            f"the picture is too blurred (edges {edge_mm:.1f} mm wide on the table): tiles "
            "and pieces may be missing; focus the camera, hold it still, or move it closer"
        )
        return Quality.UNUSABLE, tuple(notes)
    if px_per_mm < SLOTS_PX_PER_MM or edge_mm > SOFT_MM:
        notes.append(
            f"the board is small or soft in the picture ({px_per_mm:.2f} pixels per mm, "
            f"edges {edge_mm:.1f} mm wide): small pieces may be unknown; {closer}"
        )
        return Quality.COARSE, tuple(notes)
    return Quality.GOOD, tuple(notes)


def _areas(quads: Matrix) -> npt.NDArray[np.float64]:
    """Each quad's area (N x 4 x 2 -> N), by the shoelace formula."""
    x, y = quads[..., 0], quads[..., 1]
    xn, yn = x[:, [1, 2, 3, 0]], y[:, [1, 2, 3, 0]]
    out: npt.NDArray[np.float64] = np.abs((x * yn - y * xn).sum(axis=1)) / 2
    return out


def _project_many(hs: Matrix, points: Matrix) -> Floats:
    """Points (K x 2) through each of T homographies: T x K x 2."""
    h = hs.astype(np.float32)[:, :, :, None]  # T x 3 x 3 x 1
    x, y = points[:, 0].astype(np.float32), points[:, 1].astype(np.float32)
    w = h[:, 2, 0] * x + h[:, 2, 1] * y + h[:, 2, 2]
    out: Floats = np.empty((len(hs), len(points), 2), np.float32)
    np.divide(h[:, 0, 0] * x + h[:, 0, 1] * y + h[:, 0, 2], w, out=out[..., 0])
    np.divide(h[:, 1, 0] * x + h[:, 1, 1] * y + h[:, 1, 2], w, out=out[..., 1])
    return out


def _sample(image: Image, where: Matrix, white: Floats) -> Floats:
    """Linear R, G, B at the given picture points (N x 2), bilinear, black outside, over
    ``white`` (the card's paper: white-balanced)."""
    total = len(where)
    width = 1024  # remap wants maps under 32767 on a side
    padded = np.zeros((-(-total // width) * width, 2), np.float32)
    padded[:total] = where
    # One two-channel map of x, y pairs (the same as two maps, without splitting them).
    sampled = cv2.remap(
        image,
        padded.reshape(-1, width, 2),
        None,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    ).reshape(-1, 3)[:total]
    return linear_rgb(sampled, white)


def _scales(hs: Matrix) -> npt.NDArray[np.float64]:
    """Picture pixels per millimetre at each homography's origin (T)."""
    h = hs / hs[:, 2:3, 2:3]
    jacobian = h[:, :2, :2] - h[:, :2, 2:3] * h[:, 2:3, :2]
    out: npt.NDArray[np.float64] = np.sqrt(np.abs(np.linalg.det(jacobian)))
    return out


def _kept(half: float, sigma_mm: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """What blur of ``sigma_mm`` leaves of a white strip ``2 half`` wide, at its middle."""
    out: npt.NDArray[np.float64] = np.array(
        [math.erf(half / (math.sqrt(2) * max(s, 1e-3))) for s in np.atleast_1d(sigma_mm)]
    )
    return out


def read_tiles(
    image: Image,
    tiles: Sequence[tuple[Matrix, int]],
    kit: Kit,
    card: Card,
    card_markers: Sequence[Matrix] = (),
    px_per_mm: float = 1.0,
    extra: float = 0.0,
    blur_px: float = 0.5,
    borrowed: Sequence[bool] = (),
    notes: list[str] | None = None,
    coloured: bool = True,
    placed: Sequence[bool] = (),
) -> list[tuple[SlotReading, ...] | str]:
    """Every slot of every tile (``(tile frame -> image homography, variant)`` each), all
    sampled in one pass; for a tile that cannot be read (under glare, too dark), why.
    ``borrowed`` marks the tiles whose white square is hidden (placed from the prior): their
    light is borrowed from the nearest tiles. ``placed`` marks, of those, the ones no marker
    shows at all (placed from the prior or by their face). What the whole picture's reading
    needs said is added to ``notes``.

    The card may lie in another light than the tiles: a second lamp, or a highlight's warm
    halo over the card alone, turns its swatches off the tokens' colours while its tile
    swatch still reads near the tiles' print (issue 18's pictures drawn apart, seed 39's
    picture 30: red strike craft 40-46 from the card's red, purple as near its blue as its
    purple). So from :data:`SQUARES_LEAST_PX_PER_MM`, where the card leaves any slot
    unknown, the tiles are read again as without the card, each in the light of its own
    white square, and a slot left unknown takes that reading where it is known (seeds 32-43
    drawn apart, from 1 px/mm with the map: 28,914 visible slots right of 30,072 before,
    29,029 after; none wrong there or on our renderer's 240 pictures)."""
    notes = [] if notes is None else notes
    if not tiles:
        return []
    given_image, given_blur = image, blur_px  # the tiles may be read again as given

    def again(
        card: Card, *, coloured: bool, said: list[str] | None = None
    ) -> list[tuple[SlotReading, ...] | str]:
        """The tiles read again from the picture as given: with a card that cannot be used,
        or the glare taken off as grey (what that reading needs said added to ``said``, or to
        ``notes``)."""
        return read_tiles(
            given_image,
            tiles,
            kit,
            card,
            card_markers,
            px_per_mm,
            extra,
            given_blur,
            borrowed,
            notes if said is None else said,
            coloured=coloured,
            placed=placed,
        )

    hs = np.array([h for h, _ in tiles])
    card_hs = np.array(list(card_markers)).reshape(-1, 3, 3)
    if px_per_mm > SAMPLE_PX_PER_MM:
        blur_px *= SAMPLE_PX_PER_MM / px_per_mm
        factor = SAMPLE_PX_PER_MM / px_per_mm
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        scale = np.array(
            [[factor, 0, 0.5 * factor - 0.5], [0, factor, 0.5 * factor - 0.5], [0, 0, 1]]
        )
        hs = scale @ hs
        card_hs = scale @ card_hs
    variants = np.array([v for _, v in tiles])
    strip = white_margin(kit)
    order = [np.nonzero(variants == v)[0] for v in range(len(kit.variants))]
    where = [_project_many(card_hs, strip).reshape(-1, 2)] if len(card_hs) else []
    coarse = px_per_mm < FINE_PX_PER_MM  # minerals and strike craft are not read: no probes
    layouts = {
        v: layout(kit, v, extra, coarse=coarse) for v in range(len(kit.variants)) if len(order[v])
    }
    for v, lay in layouts.items():
        where.append(_project_many(hs[order[v]], lay.points).reshape(-1, 2))
    rgb = _sample(image, np.concatenate(where), card.white)
    at = len(card_hs) * len(strip)
    # The light's colour comes from the card. How much light falls on each tile comes from
    # its bare printed background (every face is printed alike, and like the card's
    # tile-background swatch): a dark colour, but a large area read far from anything else.
    # The white square around its marker must agree, give or take what blur does to that
    # narrow strip: glare lifts a dark background far more than a white one.
    card_strip = 1.0
    if len(card_hs):
        seen = luminance(rgb[:at]).reshape(len(card_hs), len(strip))
        card_strip = float(median(percentile(seen, 90, axis=1)))
    parts: dict[int, Floats] = {}
    for v, lay in layouts.items():
        count = len(order[v]) * len(lay.points)
        parts[v] = rgb[at : at + count].reshape(len(order[v]), len(lay.points), 3)
        at += count
    tile_luminance = card.tile_luminance
    hidden = np.array([bool(b) for b in borrowed] or [False] * len(tiles))
    by_squares = False
    clipped = np.zeros(3, bool)
    if card.glare or card.part_covered:
        # Nothing on the card can be trusted (or a swatch half covered is neither its colour
        # nor the cover's): light levels as the kit is meant to print, and in a picture fine
        # enough, colours against the kit's printed ones, each tile in the light its own
        # white square shows. (A picture value clipped, as sampled: over the card's white
        # as it read.)
        clip_at = (LINEAR[CLIPPED] / np.maximum(card.white, 1e-6)).astype(np.float32)
        card = dataclasses.replace(nominal_card(kit), glare=True)
        tile_luminance = card.tile_luminance
        by_squares = px_per_mm >= SQUARES_LEAST_PX_PER_MM
        if by_squares:
            lights, clipped = _squares_light(parts, layouts, order, hidden, clip_at)
            parts = {v: part / lights[order[v]][:, None, :] for v, part in parts.items()}
            notes.append(
                "without the calibration card's colours, tokens are read against the kit's "
                "printed colours, each tile in the light of its own white square: less surely "
                "(a printer's own colours may differ), so some may be unknown"
            )
            if clipped.any():
                channels = " and ".join(
                    name for name, c in zip(("red", "green", "blue"), clipped, strict=True) if c
                )
                notes.append(
                    f"the tiles' white squares are overexposed ({channels} at the picture's "
                    "brightest): colours may be off; dim the light or shorten the exposure"
                )
        else:
            notes.append(
                "without the calibration card's colours no token colour is read in a picture this "
                f"coarse (under {SQUARES_LEAST_PX_PER_MM} pixels per mm): clear the card, or "
                "move the camera closer"
            )
    backgrounds = np.zeros(len(tiles))
    lows = np.zeros(len(tiles))
    strips = np.zeros(len(tiles))
    for v, lay in layouts.items():
        part = parts[v]
        field = luminance(part[:, lay.field_at])
        backgrounds[order[v]] = median(field, axis=1)
        lows[order[v]] = percentile(field, FIELD_LOW, axis=1)
        strips[order[v]] = percentile(luminance(part[:, lay.strip_at]), 90, axis=1)
    # Each tile's light comes from its white square, as the card's identical squares
    # calibrate it: blur leaves the middle of a w mm white strip between black and dark
    # erf(w / (2 sqrt(2) sigma)) of its white, sigma (mm) from the picture's blur and the
    # tile's own scale. Its dark printed background is then what glare lifts: what it shows
    # beyond the printed tile's luminance under that light is glare, taken off the tile (and
    # too much of it makes the tile's slots unknown).
    sigma = max(blur_px, 0.3)
    half = (kit.white_side - kit.marker_side) / 4
    card_keep = _kept(half, sigma / _scales(card_hs)) if len(card_hs) else np.ones(1)
    # ...over the card's own squares; without the card, each tile's square is its own white
    # (the card's white patch may be what covers it, and the swatches are then the kit's,
    # printed on paper white).
    calibration = 1.0 if by_squares else card_strip / max(float(median(card_keep)), 1e-3)
    levels = strips / np.maximum(calibration * _kept(half, sigma / _scales(hs)), 1e-6)

    def glared_over(field: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.bool_]:
        """Whether each tile's bare ``field`` shows glare beyond GLARE_TILE_MOST of its
        light (``levels``, as they stand when asked)."""
        out: npt.NDArray[np.bool_] = (field - tile_luminance * levels) / np.maximum(
            levels, 1e-6
        ) > GLARE_TILE_MOST
        return out

    # Glare over a whole tile found by its marker spoils its white square's light as well:
    # it is read as a tile whose square is hidden is (GLARE_TILE_MOST), while any tile's
    # square is left to borrow from.
    spoiled = ~hidden & glared_over(backgrounds)
    if spoiled.any() and not (hidden | spoiled).all():
        hidden |= spoiled
    if hidden.any() and not hidden.all():
        # A tile placed from the prior has its white square hidden: its light is that of
        # the nearest tiles whose squares show (the picture's light changes slowly).
        at_px = hs[:, :2, 2] / hs[:, 2:3, 2]
        shown = np.nonzero(~hidden)[0]
        for i in np.nonzero(hidden)[0]:
            apart = np.linalg.norm(at_px[shown] - at_px[i], axis=1)
            levels[i] = float(
                np.mean(levels[shown[np.argsort(apart, kind="stable")[:BORROWED_FROM]]])
            )
    # A hand lies over most tiles whose squares are hidden, and lifts their field's median:
    # for them the field's low percentile tells the glare taken off the tile whole (each slot
    # still refuses its own).
    field = np.where(hidden, lows, backgrounds)
    over = glared_over(field)
    lift = np.maximum(lows - tile_luminance * levels, 0).astype(np.float32)
    # ...but a pale arm over nine tenths of a hidden tile's field reads as light as glare,
    # and its light is borrowed: such a tile is judged slot by slot, nothing taken off it
    # whole (GLARE_TILE_MOST).
    glared = over & ~hidden
    lift = np.where(over & hidden, 0, lift).astype(np.float32)
    glare_colour, grey_part = (
        _glare_colour(parts, layouts, order, levels, lift, hidden, tile_luminance)
        if coloured
        else (np.ones(3, np.float32), lift)
    )
    tinted_glare = bool((glare_colour != 1).any())
    dark = levels <= 0.01 / max(float(card.white.max()), 1e-6)
    out: list[tuple[SlotReading, ...] | str] = [
        "glare over the tile: its slots are unknown (move the lamp, or shade the board)"
        if glare
        else "its white square is too dark to read the tile by"
        for glare in glared
    ]
    groups: dict[
        int, tuple[npt.NDArray[np.intp], npt.NDArray[np.floating[Any]], npt.NDArray[np.float32]]
    ] = {}
    coloured_part: dict[int, Floats] = {}
    for v, part in parts.items():
        keep = ~(glared[order[v]] | dark[order[v]])
        if keep.any():
            chosen = order[v][keep]
            if tinted_glare:
                grey = grey_part[chosen][:, None, None]
                lifted = part[keep] - grey - (lift[chosen][:, None, None] - grey) * glare_colour
            else:
                lifted = part[keep] - lift[chosen][:, None, None]
            # float32 throughout (as sampled): float64 here doubled ``slots.light``'s time.
            scale = np.maximum(levels[chosen], 1e-6).astype(np.float32)
            coloured_part[v] = (lift[chosen] - grey_part[chosen]) / scale
            groups[v] = (chosen, lifted / scale[:, None, None], lift[chosen] / scale)
    if not groups:
        return out
    # Bare tile as this board shows it, then each slot's light, then the outlines' contrast.
    # ...from the tiles found by their own marker: a tile placed from the prior has a hand
    # or a sleeve over it, and what it shows must not change what the others read.
    by_marker: dict[int, npt.NDArray[np.bool_]] = {
        v: ~hidden[chosen] for v, (chosen, _, _) in groups.items()
    }
    if not any(rows.any() for rows in by_marker.values()):
        # ...or, when no tile's marker shows whole, from those found by what shows of their
        # markers: a face may be taken for a tile where a hand lies (and refused once read).
        unplaced = np.array([not bool(b) for b in placed] or [True] * len(tiles))
        by_marker = {v: unplaced[chosen] for v, (chosen, _, _) in groups.items()}
        if not any(rows.any() for rows in by_marker.values()):
            by_marker = {v: np.ones(len(chosen), bool) for v, (chosen, _, _) in groups.items()}
    trusted = {
        v: linear if by_marker[v].all() else linear[by_marker[v]]
        for v, (_, linear, _) in groups.items()
    }
    bare = np.concatenate([trusted[v][:, layouts[v].bare_at].reshape(-1, 3) for v in trusted])
    refs = References(
        card.swatches,
        # Channels as rows: a median along each contiguous row, not down strided columns.
        lab(median(np.ascontiguousarray(bare.T), axis=1).astype(np.float32)),
        float(median(luminance(bare))),
        colours=(by_squares or not card.glare) and px_per_mm >= SMALLEST_PX_PER_MM,
        fine=px_per_mm >= FINE_PX_PER_MM,
        coarse=px_per_mm < COARSE_PX_PER_MM,
        printed=by_squares,
        unsure=frozenset() if px_per_mm >= FINE_PX_PER_MM else _hues_off(card, kit),
        # Slot by slot, a highlight redder than the light may be a hand beside the slot (skin
        # is red in any light): only a bluer one is taken off there in its own colour.
        glare=glare_colour if glare_colour[2] >= glare_colour[0] else np.ones(3, np.float32),
    )
    apart = float(np.linalg.norm(card.swatches["tile"] - refs.tile))
    if clipped.any() and not clipped.all():
        # Squares clipped in some channels read a light short in them, and the bare tile
        # too far in them: the printed colours are read as the squares show them (unless
        # the tile is far from its print even so, and the gain with it). Where the clip
        # still leaves the players' colours told apart, the tile is matched to its print
        # with that shortfall (the gain) taken back out.
        gain = _clip_gain(card.swatches["tile"], refs.tile, clipped)
        clip_shown = _as_clipped(refs.swatches, gain)
        if _told_apart(clip_shown):
            apart = float(np.linalg.norm(card.swatches["tile"] - _unclipped(refs.tile, gain)))
        if apart <= CARD_TILE_APART:
            refs = dataclasses.replace(refs, swatches=clip_shown)
    if refs.colours and coloured and tinted_glare:
        # The card's tile swatch must match the board's bare tile however the glare is taken
        # off the tiles: in its colour (the card may lie under the same highlight, tinted
        # like the tiles were) and as grey (as the card itself is read).
        as_grey = np.concatenate(
            [
                (
                    trusted[v][:, layouts[v].bare_at]
                    + coloured_part[v][by_marker[v]][:, None, None] * (glare_colour - 1)
                ).reshape(-1, 3)
                for v in trusted
            ]
        )
        tile_as_grey = lab(median(np.ascontiguousarray(as_grey.T), axis=1).astype(np.float32))
        if max(apart, float(np.linalg.norm(card.swatches["tile"] - tile_as_grey))) > (
            CARD_TILE_APART
        ):
            return again(card, coloured=False)
    if refs.colours and apart > CARD_TILE_APART:
        mismatch = (
            f"the tiles' bare print reads {apart:.0f} from the kit's printed tile colour: "
            + (
                "colours are not read; dim the light or shorten the exposure"
                if clipped.any()
                else "colours are not read; light the board evenly, with whiter light"
            )
            if by_squares
            else f"the calibration card's colours do not match the board's (its tile swatch "
            f"reads {apart:.0f} from the tiles themselves)"
        )
        if px_per_mm >= SQUARES_LEAST_PX_PER_MM and not by_squares:
            # Read again as without the card: its swatches are not the board's colours.
            notes.append(
                f"{mismatch}: its colours cannot be used; move the lamp, or clear the card"
            )
            return again(dataclasses.replace(card, glare=True), coloured=coloured)
        refs = dataclasses.replace(refs, colours=False)
        notes.append(
            mismatch
            if by_squares
            else f"{mismatch}: colours are not read; move the camera closer, or use the still "
            "camera's full resolution"
        )
    lit = light({v: (layouts[v], linear, taken) for v, (_, linear, taken) in groups.items()}, refs)
    measured = measure(layouts, lit, refs, by_marker)
    found = outline_contrasts(measured)
    outline = float(median(found)) if len(found) >= OUTLINES_LEAST else 0.0
    if 0 < len(found) < OUTLINES_LEAST:
        everywhere = outline_contrasts(measured, everywhere=True)
        if len(everywhere) >= OUTLINES_LEAST:
            outline = max(float(median(everywhere)), float(median(found)))
    minerals = outline_contrasts(measured, "mineral")
    refs = dataclasses.replace(
        refs,
        outline=outline,
        mineral_outline=float(median(minerals)) if len(minerals) >= MINERAL_OUTLINES else 0.0,
    )
    readings = decide(
        layouts, measured, lit, refs, {v: hidden[chosen] for v, (chosen, _, _) in groups.items()}
    )
    for v, (which, _, _) in groups.items():
        for i, slots in zip(which, readings[v], strict=True):
            out[i] = tuple(slots)
    if card.glare or px_per_mm < SQUARES_LEAST_PX_PER_MM or _all_known(out):
        return out
    # Read by the card, some slots are unknown: the card may lie in another light than the
    # tiles (a second lamp, a highlight's warm halo). Each tile's own white square and the
    # kit's printed colours may say what the card cannot (nothing of that reading is said).
    squares = again(dataclasses.replace(card, glare=True), coloured=coloured, said=[])
    return [_filled(first, second) for first, second in zip(out, squares, strict=True)]


def _all_known(readings: Sequence[tuple[SlotReading, ...] | str]) -> bool:
    """Whether every slot of every tile read is known (a tile that cannot be read aside)."""
    return all(isinstance(r, str) or all(s.known for s in r) for r in readings)


def _filled(
    first: tuple[SlotReading, ...] | str, second: tuple[SlotReading, ...] | str
) -> tuple[SlotReading, ...] | str:
    """A tile's reading by the card (``first``), each slot it leaves unknown taken from
    the reading by its white square (``second``) where that one is known."""
    if isinstance(first, str) or isinstance(second, str):
        return first
    return tuple(
        other if not mine.known and other.known else mine
        for mine, other in zip(first, second, strict=True)
    )


def _glare_colour(
    parts: dict[int, Floats],
    layouts: dict[int, VariantLayout],
    order: Sequence[npt.NDArray[np.intp]],
    levels: npt.NDArray[np.floating[Any]],
    lift: Floats,
    hidden: npt.NDArray[np.bool_],
    tile_luminance: float,
) -> tuple[Floats, Floats]:
    """The colour glare has on this picture (white-balanced linear R, G, B of luminance 1),
    and the part of each tile's ``lift`` (T, luminance) taken off as grey all the same.

    Every tile's bare field may read a little lighter than the card's tile swatch says (the
    lower quartile of the tiles' lifts, each over its print's luminance in its light): that
    much is the board's, taken off as grey. A highlight lifts some tiles far beyond it
    (:data:`GLARE_COLOUR_LEAST`), and what their fields show beyond the print, as the tiles
    with next to none (:data:`GLARE_COLOUR_PLAIN`) show it, is the lamp's own colour: a
    highlight is the lamp's reflection. A second lamp is not the light the picture is
    balanced for: a 2700 K highlight over a daylit table, taken off as grey, left dark tiles
    far redder and yellower, and the ring round every empty strike-craft slot on them
    looked covered (issue 18's ``lamps`` 67, picture 5). On nine pictures of the ``lamps``
    sets the colour read lay within 0.06 of the lamp's in red and green and within 0.12 in
    blue, but one (0.35 short of a daylight lamp's 3.24). Grey (1, 1, 1) when no tile shows
    that much glare (two pictures of those sets), or none so little."""
    under = np.maximum(tile_luminance * levels, 1e-6)
    ratios = lift / under
    grey = np.ones(3, np.float32)
    if hidden.all():
        return grey, lift
    base = float(np.percentile(ratios[~hidden], 25))
    grey_part = np.minimum(lift, base * under).astype(np.float32)
    glared = ~hidden & (ratios >= base + GLARE_COLOUR_LEAST)
    plain = ~hidden & (ratios <= base + GLARE_COLOUR_PLAIN)
    if not glared.any() or not plain.any():
        return grey, grey_part
    # Each tile's bare field, channel by channel (its median), where the colour is read.
    fields = np.zeros((len(levels), 3), np.float32)
    for v, lay in layouts.items():
        wanted = (glared | plain)[order[v]]
        if wanted.any():
            points = parts[v][wanted][:, lay.field_at].transpose(0, 2, 1)
            fields[order[v][wanted]] = median(np.ascontiguousarray(points), axis=2)
    printed = median(fields[plain] / np.maximum(levels[plain], 1e-6)[:, None], axis=0)
    excess = np.maximum(fields[glared] - printed * levels[glared][:, None], 0)
    shares = excess / np.maximum(luminance(excess), 1e-6)[:, None]
    colour = np.maximum(median(shares, axis=0), 0)
    agree = np.all(np.abs(shares - colour) <= GLARE_COLOUR_AGREE, axis=1)
    if luminance(colour) <= 0 or agree.mean() < 0.5:
        return grey, grey_part
    out: npt.NDArray[np.float32] = (colour / luminance(colour)).astype(np.float32)
    if np.abs(out - 1).max() < GLARE_COLOUR_OFF:
        return grey, grey_part
    return out, grey_part


def _hues_off(card: Card, kit: Kit) -> frozenset[str]:
    """The card's empire-colour swatches whose hue lies more than ``slots.HUE_SHIFT_MOST``
    degrees from their print's."""
    printed = nominal_card(kit).swatches
    out = set()
    for name in HUED:
        seen, want = card.swatches[name], printed[name]
        turn = math.degrees(
            math.atan2(float(seen[2]), float(seen[1])) - math.atan2(float(want[2]), float(want[1]))
        )
        if abs(wrap(turn)) > HUE_SHIFT_MOST:
            out.add(name)
    return frozenset(out)


def _squares_light(
    parts: dict[int, Floats],
    layouts: dict[int, VariantLayout],
    order: Sequence[npt.NDArray[np.intp]],
    hidden: npt.NDArray[np.bool_],
    clip_at: Floats,
) -> tuple[Floats, npt.NDArray[np.bool_]]:
    """The light's colour on each tile (tiles x linear R, G, B, of luminance 1) as its white
    square shows it: the square's whitest points (:data:`SQUARE_WHITEST`). The squares are
    printed on the paper the tokens are, so the paper's tint goes with it, and each tile
    takes its own: two lamps of different colours light a board unevenly. A tile whose
    square is hidden (placed from the prior) takes the median of the others'.

    Also the channels in which every square shown (``clip_at``, as sampled) is clipped: a
    warm lamp over a daylight-balanced picture leaves the squares' red at 255, and their
    light's colour is then less red than the light (:func:`_as_clipped`)."""
    out = np.ones((len(hidden), 3), np.float32)
    for v, part in parts.items():
        square = part[:, layouts[v].strip_at]
        shade = luminance(square)
        whitest = shade >= np.percentile(shade, SQUARE_WHITEST, axis=1, keepdims=True)
        out[order[v]] = np.nanmedian(np.where(whitest[..., None], square, np.nan), axis=1)
    shown = out[~hidden] if not hidden.all() else out
    clipped: npt.NDArray[np.bool_] = np.asarray((shown >= SQUARE_CLIPPED * clip_at).all(axis=0))
    if hidden.any():
        out[hidden] = median(shown, axis=0)
    out /= np.maximum(luminance(out), 1e-6)[:, None]
    return out, clipped


def _clip_gain(printed: Floats, tile: Floats, clipped: npt.NDArray[np.bool_]) -> Floats:
    """How much lighter than the tiles' clipped white squares the light really is in the
    ``clipped`` channels (some, not all): each tile's light was read as the clipped square,
    so in those channels a colour reads lighter by this gain (linear R, G, B; 1 where not
    clipped).

    The gain is what the board's bare tile (``tile``, Lab, as read) shows beyond the kit's
    printed tile (``printed``) in those channels, over what it shows in the others: the dark
    print is never clipped. On the tables drawn apart from the recognizer (a 2,800-3,000 K
    lamp over a daylight-balanced picture, the squares' red at 255, the card unusable)
    mineral tokens read a* 12-15 against the printed grey's -1 and were unknown; the gain
    read 1.2-1.8. Where the squares clip in blue, or in two channels, it reads up to 8.4:
    the bare tile then lay 30-46 from its print as read, and 2-28 with the gain taken out
    (:func:`_unclipped`), which is how it is held to :data:`CARD_TILE_APART` (on seeds
    32-43 from 1 px/mm, 43 more visible slots right, none wrong)."""
    seen = linear_from_lab(np.asarray(tile, np.float32))
    ratio = seen / np.maximum(linear_from_lab(np.asarray(printed, np.float32)), 1e-6)
    base = float(np.median(ratio[~clipped]))
    return np.where(clipped, np.maximum(ratio / max(base, 1e-6), 1.0), 1.0).astype(np.float32)


def _unclipped(tile: Floats, gain: Floats) -> Floats:
    """``tile`` (Lab) as it would read under a light read whole: :func:`_clip_gain` out."""
    return lab((linear_from_lab(np.asarray(tile, np.float32)) / gain).astype(np.float32))


def _told_apart(swatches: Mapping[str, Floats]) -> bool:
    """Whether every two players' colours in ``swatches`` (Lab) lie
    :data:`CLIPPED_COLOURS_APART` apart or more."""
    players = [swatches[n] for n in COLOURS]
    return all(
        float(np.linalg.norm(a - b)) >= CLIPPED_COLOURS_APART
        for i, a in enumerate(players)
        for b in players[i + 1 :]
    )


def _as_clipped(swatches: Mapping[str, Floats], gain: Floats) -> dict[str, Floats]:
    """The kit's printed colours as this picture shows them when the tiles' white squares
    are clipped (:func:`_clip_gain`): in the clipped channels a colour reads lighter by the
    gain, and no lighter than the square (clipped too). The tile swatch is left as printed."""
    names = [n for n in swatches if n != "tile"]
    linear = linear_from_lab(np.stack([swatches[n] for n in names]).astype(np.float32))
    shown = lab(np.minimum(linear * gain, 1.0).astype(np.float32))
    return {**swatches, **{n: shown[i] for i, n in enumerate(names)}}


def scan_image(
    image: Image, *, kit: Kit | None = None, expected: Collection[SectorId] | int | None = None
) -> BoardScan:
    return recognize(image, kit=kit, expected=expected).scan
