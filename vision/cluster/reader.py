"""Cluster's camera reader (``camera = "vision.cluster.reader:READER"`` in its registration): a
frame in, a :class:`~companion.cluster_peg.scan.PegScan` out (see :mod:`vision.readers`).

The reader sees which holes hold a peg and of which colour; the table's session holds it
against the tracked position (``compare_scan``): the move it shows (P6.3), the candidates when
unknown holes hide the difference, or an impossible change. The prior is the tracked position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from companion.cluster_peg.game import Game
from companion.cluster_peg.moves import after, legal_codes
from companion.cluster_peg.position import Position, PositionError
from companion.cluster_peg.record import load_record
from companion.cluster_peg.scan import HoleReading, PegScan, Seen, compare
from companion.errors import CompanionError
from vision.cluster.kit import load_kit
from vision.readers import Image, Reading, worst
from vision.settle import agreed

LETTERS = {Seen.EMPTY: ".", Seen.RED: "r", Seen.BLUE: "b", Seen.UNKNOWN: "?"}


class ClusterReader:
    """Reads the corner markers, then every hole: empty, red, blue or unknown."""

    def prior(self, session: object) -> Position | None:
        core = getattr(session, "core", None)
        return core.position if isinstance(core, Game) else None

    def read(self, frame: Image, *, prior: Position | None = None) -> Reading[PegScan]:
        from vision.cluster.recognize import recognize

        found = recognize(frame)
        notes = list(found.notes)
        if prior is not None and prior.board.name != found.scan.board:
            notes.append(
                f"the picture shows the {found.scan.layout.title}; the game is on the "
                f"{prior.board.title}"
            )
        return Reading(found.scan, found.quality, tuple(notes), found.px_per_mm, found)

    def combine(
        self, readings: Sequence[Reading[PegScan]], *, prior: Position | None = None
    ) -> Reading[PegScan]:
        """A hole counts when more than half of the frames read it alike; else unknown."""
        if len(readings) == 1:
            return readings[0]
        boards = {r.scan.board for r in readings}
        if len(boards) != 1:
            raise CompanionError("the frames show different boards; hold the camera still")
        frames = len(readings)
        holes = []
        for index in range(len(readings[0].scan.holes)):
            votes = [
                r.scan.holes[index].seen
                for r in readings
                if r.scan.holes[index].seen is not Seen.UNKNOWN
            ]
            seen = agreed(votes, frames)
            if seen is None:
                holes.append(HoleReading(Seen.UNKNOWN, 0.0))
            else:
                confidence = min(
                    r.scan.holes[index].confidence
                    for r in readings
                    if r.scan.holes[index].seen is seen
                )
                holes.append(HoleReading(seen, confidence))
        notes = tuple(dict.fromkeys(n for r in readings for n in r.notes))
        sizes = [r.px_per_mm for r in readings if r.px_per_mm is not None]
        return Reading(
            PegScan(readings[0].scan.board, tuple(holes)),
            worst([r.quality for r in readings]),
            notes,
            min(sizes) if sizes else None,
            readings[0].detail,
        )

    def describe(self, reading: Reading[PegScan], *, prior: Position | None = None) -> list[str]:
        scan = reading.scan
        board = scan.layout
        counts = {seen: sum(1 for h in scan.holes if h.seen is seen) for seen in Seen}
        lines = [
            f"the {board.title}: {counts[Seen.RED]} red, {counts[Seen.BLUE]} blue, "
            f"{counts[Seen.EMPTY]} empty, {counts[Seen.UNKNOWN]} unknown"
        ]
        for row in reversed(range(len(board.row_lengths))):
            cells = [LETTERS[scan.holes[h].seen] for h in range(board.size) if board.rows[h] == row]
            lines.append(f"  {'abcdefgh'[row]}{'  ' if row % 2 else ' '}{' '.join(cells)}")
        if prior is not None and prior.board.name == scan.board:
            found = compare(prior, scan)
            if found.moves:
                lines.append("the move it shows: " + " or ".join(found.moves))
            lines += [f"differs: {message}" for _, message in found.discrepancies]
        lines += [f"note: {note}" for note in reading.notes]
        return lines

    def to_json(self, reading: Reading[PegScan]) -> dict[str, Any]:
        return {
            **reading.scan.to_dict(),
            "quality": reading.quality.value,
            "picture_notes": list(reading.notes),
            "px_per_mm": None if reading.px_per_mm is None else round(reading.px_per_mm, 3),
        }

    def annotate(self, frame: Image, reading: Reading[PegScan]) -> Image:
        """The frame with a ring on every hole: green empty, red, blue, yellow unknown."""
        out = frame.copy()
        found = reading.detail
        homography = getattr(found, "board_to_image", None)
        if homography is None:
            return out
        kit = load_kit()
        board = reading.scan.layout
        colours = {
            Seen.EMPTY: (80, 200, 80),
            Seen.RED: (40, 40, 230),
            Seen.BLUE: (230, 120, 40),
            Seen.UNKNOWN: (0, 220, 255),
        }
        for hole, seen in enumerate(reading.scan.holes):
            x, y = kit.hole_mm(board, hole)
            points = np.array([[[x, y], [x + kit.hole_diameter / 2, y]]], np.float64)
            mapped = cv2.perspectiveTransform(points, homography)[0]
            centre = (int(mapped[0][0]), int(mapped[0][1]))
            radius = max(3, int(np.linalg.norm(mapped[1] - mapped[0])))
            cv2.circle(out, centre, radius, colours[seen.seen], 2, cv2.LINE_AA)
        return out

    def expectation(
        self, *, text: str | None = None, record: bytes | None = None
    ) -> Position | None:
        """``--expect`` a position text (P6.4), or ``--record`` a game's last position."""
        position = None
        if text is not None:
            try:
                position = Position.parse(text)
            except PositionError as err:
                raise CompanionError(f"--expect: {err}") from None
        if record is not None:
            game, _ = load_record(record)
            if position is not None and position != game.position:
                raise CompanionError("--expect is not the record's position; give one or the other")
            position = game.position
        return position

    def simulate(
        self, prior: Position, rng: random.Random, *, size: tuple[int, int], mistakes: float
    ) -> Image:
        """A picture of the tracked position; with chance ``mistakes``, of the position after a
        random legal move (a move the camera should enter) or with a peg knocked out."""
        from vision.cluster.synthetic import Conditions, render

        position = prior
        if rng.random() < mistakes:
            codes = legal_codes(prior)
            if codes and rng.random() < 0.5:
                position = after(prior, rng.choice(codes))
            else:
                pegs = list(prior.pegs)
                kind = rng.randrange(4)
                if pegs[kind]:
                    low = pegs[kind] & -pegs[kind]
                    pegs[kind] ^= low
                position = Position(
                    prior.board, (pegs[0], pegs[1], pegs[2], pegs[3]), prior.to_move
                )
        width, height = size
        conditions = Conditions(
            width=width,
            height=height,
            rotation=rng.uniform(-5, 5),
            tilt=rng.uniform(0, 10),
            kelvin=rng.uniform(3500, 6000),
            hands=int(rng.random() < 0.2),
            seed=rng.randrange(2**31),
        )
        return render(position, conditions).image


READER = ClusterReader()
"""The reader Cluster's registration names."""
