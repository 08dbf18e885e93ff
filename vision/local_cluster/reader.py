"""Local Cluster's camera reader (``camera = "vision.local_cluster.reader:READER"`` in its
registration): a frame in, a :class:`BoardScan` out (see :mod:`vision.readers`)."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.local_cluster.atoms import SectorId
from companion.local_cluster.board_scan import BoardScan, compare
from companion.local_cluster.galaxy import Tile
from companion.local_cluster.record import GameRecord
from companion.local_cluster.state import State
from vision.local_cluster.combine import majority
from vision.local_cluster.kit import load_kit
from vision.readers import Image, Reading, worst

if TYPE_CHECKING:
    from vision.local_cluster.recognize import Prior

_RANGE = re.compile(r"^S?(\d+)(?:\s*-\s*S?(\d+))?$", re.IGNORECASE)


class ExpectationError(CompanionError, ValueError):
    """``companion scan --expect`` text that is not a list of sector ids."""


@dataclasses.dataclass(frozen=True)
class Expected:
    """What a picture of a Local Cluster table should show: the reader's prior."""

    sectors: tuple[SectorId, ...]
    """The game's tiles (their markers are looked for again when some are not found)."""
    state: State | None = None
    """The tracked position, when known: ``describe`` lists what differs from it."""
    poses: Prior | None = None
    """Where the tiles lay at the camera's last good reading (:meth:`LocalClusterReader.
    remember`): a tile whose marker is hidden this time (a hand, a card sleeve) is placed from
    it when its neighbours and the picture agree."""
    cells: Mapping[SectorId, Tile] | None = None
    """Where the tracked game's map lays each tile (ruling R2.1), when it lays every one: a
    face whose marker is hidden is named by its cell where the tiles found lie so
    (:mod:`vision.local_cluster.game_map`)."""

    @classmethod
    def of(cls, state: State) -> Expected:
        tiles = {sector.id: sector.tile for sector in state.galaxy.sectors}
        cells = {sector: tile for sector, tile in tiles.items() if tile is not None}
        return cls(
            tuple(state.galaxy.ids), state, cells=cells if len(cells) == len(tiles) else None
        )

    @classmethod
    def parse(cls, text: str) -> Expected:
        """``"S1-S12,S20"``: sector ids and ranges, separated by commas or spaces."""
        kit = load_kit()
        numbers: set[int] = set()
        for part in re.split(r"[,\s]+", text.strip()):
            if not part:
                continue
            match = _RANGE.match(part)
            if match is None:
                raise ExpectationError(
                    f"--expect: {part!r} is not a sector id or range (say S1-S12,S20)"
                )
            low = int(match.group(1))
            high = int(match.group(2) or low)
            if low > high:
                raise ExpectationError(f"--expect: the range {part!r} runs backwards")
            for n in range(low, high + 1):
                if not kit.is_sector_marker(n):
                    low_id, high_id = kit.sectors
                    raise ExpectationError(
                        f"--expect: S{n} has no tile in the kit (S{low_id}-S{high_id})"
                    )
                numbers.add(n)
        if not numbers:
            raise ExpectationError("--expect: name at least one sector (say S1-S12,S20)")
        return cls(tuple(f"S{n}" for n in sorted(numbers)))


class LocalClusterReader:
    """Reads tiles, adjacency (R1.1) and every token slot; see docs/physical-kit.md."""

    def prior(self, session: object) -> Expected | None:
        state = getattr(session, "state", None)
        return Expected.of(state) if isinstance(state, State) else None

    def read(self, frame: Image, *, prior: Expected | None = None) -> Reading[BoardScan]:
        from vision.local_cluster.recognize import recognize

        found = recognize(
            frame,
            expected=None if prior is None else prior.sectors,
            prior=None if prior is None else prior.poses,
            cells=None if prior is None else prior.cells,
        )
        return Reading(found.scan, found.quality, found.notes, found.px_per_mm, found)

    def remember(self, prior: Expected | None, last: Reading[BoardScan]) -> Expected | None:
        """``prior`` with the tile poses of the last good reading added (the camera
        attachment's memory of the board; see :class:`vision.readers.Remembering`)."""
        from vision.local_cluster.recognize import Prior

        if not last.scan.tiles:
            return prior
        poses = Prior.of(last.scan)
        if prior is None:
            return Expected(tuple(t.sector for t in last.scan.tiles), poses=poses)
        return dataclasses.replace(prior, poses=poses)

    def combine(
        self, readings: Sequence[Reading[BoardScan]], *, prior: Expected | None = None
    ) -> Reading[BoardScan]:
        if len(readings) == 1:
            return readings[0]
        notes = tuple(dict.fromkeys(n for r in readings for n in r.notes))
        sizes = [r.px_per_mm for r in readings if r.px_per_mm is not None]
        return Reading(
            majority([r.scan for r in readings]),
            worst([r.quality for r in readings]),
            notes,
            min(sizes) if sizes else None,
            readings[0].detail,
        )

    def describe(self, reading: Reading[BoardScan], *, prior: Expected | None = None) -> list[str]:
        scan = reading.scan
        lines = [f"{len(scan.tiles)} tiles, {len(scan.adjacency)} shared edges"]
        for tile in scan.tiles:
            parts: list[str] = []
            for name in ("claim", "unit"):
                slot = tile.slot(name)
                if slot is not None:
                    parts.append(f"{name} {slot.describe()}")
            parts.append(f"minerals {'?' if tile.minerals is None else tile.minerals}")
            craft = tile.craft
            parts.append(
                "craft ?"
                if craft is None
                else "craft " + (", ".join(f"{n} {c.value}" for c, n in craft.items()) or "none")
            )
            lines.append(f"  {tile.sector}: " + ", ".join(parts))
        if prior is not None and prior.state is not None:
            report = compare(scan, prior.state)
            lines += [f"differs: {d.text}" for d in report.discrepancies]
        lines += [f"note: {note}" for note in (*scan.notes, *reading.notes)]
        return lines

    def to_json(self, reading: Reading[BoardScan]) -> dict[str, Any]:
        return {
            **reading.scan.to_dict(),
            "quality": reading.quality.value,
            "picture_notes": list(reading.notes),
            "px_per_mm": None if reading.px_per_mm is None else round(reading.px_per_mm, 3),
        }

    def annotate(self, frame: Image, reading: Reading[BoardScan]) -> Image:
        from vision.local_cluster.debug import annotate

        return annotate(frame, reading.detail)

    def expectation(
        self, *, text: str | None = None, record: bytes | None = None
    ) -> Expected | None:
        expected = None if text is None else Expected.parse(text)
        if record is not None:
            state = GameRecord.load(record).state
            if expected is not None and set(expected.sectors) != set(state.galaxy.ids):
                raise ExpectationError(
                    "--expect names other sectors than the record's game; give one or the other"
                )
            expected = Expected.of(state)
        return expected

    def simulate(
        self, prior: Expected, rng: random.Random, *, size: tuple[int, int], mistakes: float
    ) -> Image:
        from vision.local_cluster.synthetic import Conditions, render, slip

        if prior.state is None:
            raise CompanionError("the simulated camera draws a tracked position; there is none")
        state = prior.state
        if state.units and rng.random() < mistakes:
            state = slip(state, rng)
        width, height = size
        conditions = Conditions(
            width=width,
            height=height,
            rotation=rng.uniform(-5, 5),
            tilt=rng.uniform(0, 10),
            kelvin=rng.uniform(3500, 6000),
            hands=1 if rng.random() < 0.2 else 0,
            seed=rng.randrange(2**31),
        )
        return render(state, conditions).image


READER = LocalClusterReader()
"""The reader Local Cluster's registration names."""
