"""Globular Cluster's camera reader (``camera = "vision.globular.reader:READER"`` in its
registration): a frame in, a :class:`BoardScan` out (G8.8; see :mod:`vision.readers`).

Each tile carries its code's sticker (:mod:`vision.globular.kit`). The MITS's sticker orients
the board (G2.1) and fixes its origin; each tile sticker's centre, measured in tiles from the
MITS's through the camera's view (:mod:`vision.globular.lattice`), gives its position on the
half-offset rows (G2.2), and its turn against the rows where it lies gives the tick corner
(G2.5). With the MITS's sticker hidden (a hand over it), the tiles seen where the tracked game
has them place the board instead, and a note says so. Pennies and pieces are not read: they
stay unknown, and an unknown reading is never a difference. A position where no sticker is
seen is unknown too (a hand may cover it), so the comparison lists it as not seen rather than
as empty.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError
from companion.globular.geometry import Position
from companion.globular.record import load_record
from companion.globular.scan import BoardScan, TileReading, compare
from companion.globular.state import State
from companion.globular.tiles import Corner
from vision.errors import ImageError
from vision.globular import lattice
from vision.globular.kit import CODES, MARKER_IDS, MARKER_MM, MITS_ID, TILE_MM, dictionary, marker
from vision.readers import Image, Quality, Reading, worst

Points = npt.NDArray[np.float64]
T = TypeVar("T")

TURNS = (Corner.TL, Corner.TR, Corner.BR, Corner.BL)
"""The tick corner of a sticker turned 0, 1, 2 or 3 quarters clockwise against the board's
rows (the MITS's own turn)."""
COARSE_PX_PER_MM = 1.5
"""Below this the stickers' cells are under 7 pixels: some may be missed."""
PIXEL_MARGIN = 0.35
"""The share of each marker cell's edge left out when its bit is read."""
SKEWED_DEGREES = 20.0
"""How far a sticker may be turned off a quarter before its tick corner is unknown."""


class ExpectationError(CompanionError, ValueError):
    """``companion scan --expect`` for Globular Cluster, which takes the game's record."""


@dataclasses.dataclass(frozen=True)
class Seen:
    """One sticker as the detector saw it: the reader's working, for its debug picture."""

    code: str
    corners: tuple[tuple[float, float], ...]
    position: Position | None


class GlobularReader:
    """Reads each tile's code, position and tick corner from its sticker (G8.8)."""

    def prior(self, session: object) -> State | None:
        state = getattr(session, "state", None)
        return state if isinstance(state, State) else None

    def read(self, frame: Image, *, prior: State | None = None) -> Reading[BoardScan]:
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            raise ImageError("the frame is not a colour picture")
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = _detected(grey, 1)
        expected = len(prior.board) if prior is not None else 0
        if sum(n == MITS_ID for n, _ in found) != 1 or len(found) < expected:
            # Looking again in a copy twice the size: small blurred stickers' bits read better.
            found += [
                (number, quad)
                for number, quad in _detected(grey, 2)
                if not any(_same_place(quad, q) for _, q in found)
            ]
        mits = [quad for number, quad in found if number == MITS_ID]
        if len(mits) > 1:
            why = "two MITS stickers are in the picture: take one away"
            return Reading(BoardScan(()), Quality.UNUSABLE, (why,))
        hidden = "the MITS's sticker is not in the picture: it orients the board (G2.1)"
        if not found:
            return Reading(BoardScan(()), Quality.UNUSABLE, (hidden,))
        sides = [float(np.linalg.norm(q[i] - q[(i + 1) % 4])) for _, q in found for i in range(4)]
        px_per_mm = statistics.median(sides) / MARKER_MM
        centres = np.array([quad.mean(axis=0) for _, quad in found])
        notes: list[str] = []
        if mits:
            board = lattice.fit(
                centres,
                mits[0].mean(axis=0),
                _unit(mits[0][1] - mits[0][0] + mits[0][2] - mits[0][3]),
                _unit(mits[0][3] - mits[0][0] + mits[0][2] - mits[0][1]),
                px_per_mm * TILE_MM,
            )
        else:
            placed = None if prior is None else _by_the_tiles(found, centres, prior, px_per_mm)
            if placed is None:
                return Reading(BoardScan(()), Quality.UNUSABLE, (hidden,))
            board, agreeing = placed
            notes.append(
                "the MITS's sticker is not in the picture: the board is placed by the "
                f"{agreeing} tiles seen where the game has them; uncover the MITS to be sure"
            )
        by_position: dict[Position, list[TileReading]] = {}
        seen: list[Seen] = []
        for (number, quad), (x, y) in zip(found, board.tiles_of(centres), strict=True):
            code = CODES[number]
            r, q, on = lattice.nearest((float(x), float(y)))  # q + r even (G2.2)
            points = tuple((float(a), float(b)) for a, b in quad)
            if not on:
                notes.append(f"the {code} sticker lies between positions: straighten its tile")
                seen.append(Seen(code, points, None))
                continue
            position = Position(r, q)
            seen.append(Seen(code, points, position))
            corner = None if number == MITS_ID else _tick(quad, *board.axes_at((x, y)))
            by_position.setdefault(position, []).append(TileReading(position, code, corner))
        tiles = []
        for position, readings in sorted(by_position.items()):
            if len(readings) > 1:
                codes = " and ".join(sorted(r.code or "" for r in readings))
                notes.append(f"{position.name()}: two stickers ({codes}) on one position")
                tiles.append(TileReading(position))
            else:
                tiles.append(readings[0])
        quality = Quality.GOOD
        if px_per_mm < COARSE_PX_PER_MM:
            quality = Quality.COARSE
            notes.append("the stickers are small in the picture: move the camera closer")
        notes.append("pennies and pieces are not read: check them by eye")
        return Reading(BoardScan(tuple(tiles)), quality, tuple(notes), px_per_mm, tuple(seen))

    def combine(
        self, readings: Sequence[Reading[BoardScan]], *, prior: State | None = None
    ) -> Reading[BoardScan]:
        if len(readings) == 1:
            return readings[0]
        votes: dict[Position, list[TileReading]] = {}
        for reading in readings:
            for tile in reading.scan.tiles:
                votes.setdefault(tile.position, []).append(tile)
        half = len(readings) / 2
        tiles = []
        for position, tile_votes in sorted(votes.items()):
            code = _majority([t.code for t in tile_votes], half)
            corner = _majority([t.corner for t in tile_votes], half)
            if code is not None:
                tiles.append(TileReading(position, code, corner))
        sizes = [r.px_per_mm for r in readings if r.px_per_mm is not None]
        return Reading(
            BoardScan(tuple(tiles)),
            worst([r.quality for r in readings]),
            tuple(dict.fromkeys(n for r in readings for n in r.notes)),
            min(sizes) if sizes else None,
            readings[-1].detail,
        )

    def describe(self, reading: Reading[BoardScan], *, prior: State | None = None) -> list[str]:
        lines = [f"{len(reading.scan.tiles)} tiles read"]
        for tile in reading.scan.tiles:
            what = "?" if tile.code is None else tile.code
            tick = "" if tile.corner is None else f", tick {tile.corner.words}"
            lines.append(f"  {tile.position.name()}: {what}{tick}")
        if prior is not None:
            report = compare(prior, reading.scan)
            lines += [f"differs: {d['message']}" for d in report["discrepancies"]]
            if report["missing"]:
                lines.append("not seen: " + ", ".join(report["missing"]))
        lines += [f"note: {note}" for note in reading.notes]
        return lines

    def to_json(self, reading: Reading[BoardScan]) -> dict[str, Any]:
        return {
            "tiles": reading.scan.to_dict(),
            "quality": reading.quality.value,
            "picture_notes": list(reading.notes),
            "px_per_mm": None if reading.px_per_mm is None else round(reading.px_per_mm, 3),
        }

    def annotate(self, frame: Image, reading: Reading[BoardScan]) -> Image:
        out = frame.copy()
        for seen in reading.detail or ():
            quad = np.array(seen.corners, np.int32)
            colour = (0, 160, 0) if seen.position is not None else (0, 0, 255)
            cv2.polylines(out, [quad], True, colour, 2)
            cv2.circle(out, (int(quad[0][0]), int(quad[0][1])), 5, colour, -1)  # tick end
            where = "?" if seen.position is None else seen.position.name()
            cv2.putText(
                out,
                f"{where} {seen.code}",
                (int(quad[:, 0].min()), int(quad[:, 1].min()) - 6),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.6,
                colour,
                2,
            )
        return out

    def expectation(self, *, text: str | None = None, record: bytes | None = None) -> State | None:
        if text is not None:
            raise ExpectationError(
                "--expect: Globular Cluster's camera compares with the game itself: give its "
                "record with --record GAME.json"
            )
        return None if record is None else load_record(record).state

    def simulate(
        self, prior: State, rng: random.Random, *, size: tuple[int, int], mistakes: float
    ) -> Image:
        """The tracked board seen from above, each tile's sticker turned to its tick; with
        chance ``mistakes`` one tile turned a quarter too far (a player's slip); the whole
        picture a few degrees askew."""
        width, height = size
        cells = [(p, prior.board[p]) for p in prior.board]
        xs = [p.q / 2 for p, _ in cells]
        ys = [float(p.r) for p, _ in cells]
        span_x = (max(xs) - min(xs) + 1) * TILE_MM
        span_y = (max(ys) - min(ys) + 1) * TILE_MM
        scale = 0.85 * min(width / span_x, height / span_y)  # px per mm
        image = np.full((height, width, 3), 235, np.uint8)
        left = (width - span_x * scale) / 2 - (min(xs) - 0.5) * TILE_MM * scale
        top = (height - span_y * scale) / 2 - (min(ys) - 0.5) * TILE_MM * scale
        slip = rng.randrange(len(cells)) if rng.random() < mistakes else None
        side = max(8, round(MARKER_MM * scale))
        for index, (position, cell) in enumerate(cells):
            cx = left + position.q / 2 * TILE_MM * scale
            cy = top + position.r * TILE_MM * scale
            half = (TILE_MM / 2 - 0.5) * scale
            cv2.rectangle(
                image,
                (round(cx - half), round(cy - half)),
                (round(cx + half), round(cy + half)),
                (200, 200, 200),
                -1,
            )
            pad = round(3 * scale)
            x0, y0 = round(cx - side / 2), round(cy - side / 2)
            image[y0 - pad : y0 + side + pad, x0 - pad : x0 + side + pad] = 255
            number = MITS_ID if cell.tile is None else MARKER_IDS[cell.code]
            turns = 0 if cell.corner is None else TURNS.index(cell.corner)
            if index == slip and cell.tile is not None:
                turns += 1
            image[y0 : y0 + side, x0 : x0 + side] = np.rot90(marker(number, side), -turns)
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), rng.uniform(-5, 5), 1.0)
        askew: Image = cv2.warpAffine(image, turn, (width, height), borderValue=(235, 235, 235))
        return askew


def _by_the_tiles(
    found: Sequence[tuple[int, Points]], centres: Points, prior: State, px_per_mm: float
) -> tuple[lattice.Lattice, int] | None:
    """The board's rows from the tiles' stickers where the tracked game has the tiles, when
    the MITS's is hidden (see :func:`lattice.from_tiles`)."""
    where: dict[str, list[lattice.Node]] = {}
    for position in prior.board:
        cell = prior.board[position]
        if cell.tile is not None:
            where.setdefault(cell.code, []).append((position.q / 2, float(position.r)))
    codes = [CODES[number] for number, _ in found]
    return lattice.from_tiles(codes, centres, where, px_per_mm * TILE_MM)


def _detected(grey: Image, scale: int) -> list[tuple[int, Points]]:
    """The kit's markers in ``grey`` (read in a copy ``scale`` times the size), each with its
    corners in ``grey``'s pixels."""
    seen = (
        grey
        if scale == 1
        else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    )
    corners, ids, _ = _detector().detectMarkers(seen)
    return [
        (int(number), (np.asarray(quad, np.float64).reshape(4, 2) + 0.5) / scale - 0.5)
        for quad, number in zip(corners, [] if ids is None else ids.flatten(), strict=True)
        if int(number) in CODES
    ]


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # Bits read from the middle of each cell only: a blurred sticker's cells bleed into one
    # another at their edges (MITS found in 15 of 16 benchmark pictures, against 10).
    params.perspectiveRemovePixelPerCell = 10
    params.perspectiveRemoveIgnoredMarginPerCell = PIXEL_MARGIN
    return cv2.aruco.ArucoDetector(dictionary(), params)


def _same_place(a: Points, b: Points) -> bool:
    """Whether two quads are one sticker seen twice: centres within half a side."""
    side = float(np.linalg.norm(a[1] - a[0]))
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) < side / 2


def _unit(vector: Points) -> Points:
    return vector / float(np.linalg.norm(vector))


def _tick(quad: Points, across: Points, down: Points) -> Corner | None:
    """The tick corner from the sticker's top edge, against the MITS's axes."""
    top = quad[1] - quad[0]
    degrees = math.degrees(math.atan2(float(top @ down), float(top @ across)))
    quarters = round(degrees / 90)
    if abs(degrees - 90 * quarters) > SKEWED_DEGREES:
        return None
    return TURNS[quarters % 4]


def _majority(values: Sequence[T | None], half: float) -> T | None:
    counted = Counter(v for v in values if v is not None)
    if not counted:
        return None
    value, count = counted.most_common(1)[0]
    return value if count > half else None


READER = GlobularReader()
"""The reader Globular Cluster's registration names."""
