"""Clustered's camera reader (``camera = "vision.clustered.reader:READER"`` in its
registration): a frame in, a :class:`~companion.clustered.scan.LayoutScan` out (see
:mod:`vision.readers`).

With the printed kit every card is read by its marker, with certainty; without markers (a
commercial deck) the cards are found on the grid the black start card sets and read from their
symbols (:mod:`vision.clustered.symbols`), each attribute with a margin, unsure ones unknown.
The table's session (or ``companion scan --record``) tells the reader what to expect: the
palette (markers are numbered by palette position), the tracked layout (which of the four ways
a marker-less start card lies), the players' colours for a score.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.clustered import record as records
from companion.clustered.cards import Card
from companion.clustered.cells import Cell, reading_order
from companion.clustered.layout import Layout
from companion.clustered.scan import CardReading, LayoutScan, compare, score_scan
from companion.clustered.scoring import FIRST_BONUSES
from companion.clustered.settings import SECOND_START, Settings
from companion.errors import CompanionError
from vision.clustered import markers
from vision.clustered.cloth import Cloth
from vision.clustered.kit import load_kit
from vision.clustered.symbols import (
    Inks,
    find_starts,
    grid_from_quad,
    illuminant,
    is_paper,
    read_plain,
    shows_ink,
    straighten,
)
from vision.readers import Image, Quality, Reading, worst

MIN_MARKER_PX = 16.0
"""Markers smaller than this in the picture are read unreliably: a still reads more."""
COARSE_HINT_PX = 24.0
"""A picture read from too few markers to place the cards, whose markers are smaller than this,
is called too coarse or blurred (rather than the start card said to be missing)."""


class ExpectationError(CompanionError, ValueError):
    """``companion scan --expect`` text that is not Clustered's."""


@dataclasses.dataclass(frozen=True)
class Expected:
    """What a picture of a Clustered table should show, and how to score it."""

    settings: Settings = dataclasses.field(default_factory=Settings)
    layout: Layout | None = None
    """The tracked layout, when known (a table's session, or a record)."""
    colours: tuple[str, ...] = ()
    """The players' colours in seat order, when known."""
    first: Mapping[str, str | None] = dataclasses.field(default_factory=dict)
    """First-to-achieve bonuses as the table says who earned them (K7.12)."""
    record: bytes | None = None
    """The record, when the prior came from one (compare and score against it)."""


def _inks(settings: Settings) -> Inks:
    kit = load_kit()
    palette = settings.palette
    return Inks({c: kit.ink(palette.name(c)) for c in palette.codes}, kit.paper)


def _turned(cell: Cell, quarters: int) -> Cell:
    for _ in range(quarters % 4):
        cell = Cell(-cell.y, cell.x)
    return cell


def _turn_scan(scan: LayoutScan, quarters: int) -> LayoutScan:
    def move(r: CardReading) -> CardReading:
        dx, dy = r.offset
        for _ in range(quarters % 4):
            dx, dy = -dy, dx
        return dataclasses.replace(r, cell=_turned(r.cell, quarters), offset=(dx, dy))

    return LayoutScan(
        tuple(move(r) for r in scan.cards),
        tuple(_turned(c, quarters) for c in scan.empty),
        scan.notes,
    )


def tracked_cards(layout: Layout) -> dict[Card, Cell]:
    """Each card the layout holds exactly once (not the start card), and its cell."""
    where: dict[Card, Cell] = {}
    twice: set[Card] = set()
    for cell in layout:
        card = layout[cell]
        if card.is_start:
            continue
        if card in where:
            twice.add(card)
        where[card] = cell
    return {card: cell for card, cell in where.items() if card not in twice}


def orient(scan: LayoutScan, layout: Layout | None) -> tuple[LayoutScan, int]:
    """The scan turned the way that agrees best with the tracked layout (a marker-less start
    card has no top; a marked one laid turned is put right), and by how many quarters. On a
    table of two start cards, at 0,0 and 7,0 (K7.18), the scan may have grown from the
    eastern one (the western not found, or taken for the second): moved seven cells east,
    after any turn, the scan is tried that way too."""
    if layout is None:
        return scan, 0

    def agreement(candidate: LayoutScan) -> int:
        total = 0
        for r in candidate.cards:
            card = layout.get(r.cell)
            if card is not None:
                total += 2 if r.fits(card) else 1
        return total

    options = [(q, _turn_scan(scan, q) if q else scan) for q in range(4)]
    second = layout.get(SECOND_START)
    if second is not None and second.is_start:
        options += [(q, _moved_east(turned)) for q, turned in options]
    best = max(range(len(options)), key=lambda i: (agreement(options[i][1]), -i))
    quarters, turned = options[best]
    return turned, quarters


def _moved_east(scan: LayoutScan) -> LayoutScan:
    """The scan moved from the first start card to the second (7 cells east)."""

    def east(cell: Cell) -> Cell:
        return Cell(cell.x + SECOND_START.x, cell.y)

    return LayoutScan(
        tuple(dataclasses.replace(r, cell=east(r.cell)) for r in scan.cards),
        tuple(east(c) for c in scan.empty),
        scan.notes,
    )


def lined_up(scan: LayoutScan, layout: Layout | None) -> bool:
    """Whether the scan, laid over the tracked layout, agrees with it. A picture lined up
    wrong as a whole (the grid a cell off, mirrored, or grown from something that is not the
    start card) reads most cards as cards the layout does not have there, or finds cards,
    named or not, where it has none: every reading of such a picture is doubtful, however
    clear each card was. Without a layout, always."""
    if layout is None:
        return True
    agree = disagree = 0
    for r in scan.cards:
        if r.start:
            continue
        card = layout.get(r.cell)
        if r.card is None:
            disagree += card is None  # unknown, but a card where the layout has none
            continue
        if card is not None and r.fits(card):
            agree += 1
        else:
            disagree += 1  # a different card, or a card where the layout has none
    return disagree < 3 or agree >= disagree


DRIFT_REACH = 2
"""How far (cells) around a card read from its symbols its neighbours are weighed."""


def doubt_drifted(scan: LayoutScan, layout: Layout | None) -> LayoutScan:
    """A card read from its symbols whose neighbourhood (:data:`DRIFT_REACH` cells) disagrees
    with the tracked layout (at least two cards found where the layout has none, or read as
    other cards, against fewer than three times as many that agree) made unknown: the grid
    grown from the start card has drifted there (a tilted table's far edge), so which cell
    the card is in (K2.5) cannot be told, however clear its symbols. A picture wrong as a
    whole is :func:`lined_up`'s; this is the same check, around each card. Cards read by
    marker are certain and kept; without a layout, the scan is returned as it is."""
    if layout is None:
        return scan
    found = [r for r in scan.cards if not r.start]

    def agrees(r: CardReading) -> bool:
        card = layout.get(r.cell)
        return card is not None and r.fits(card)

    out = []
    for r in scan.cards:
        if r.start or r.card is None or r.source != "symbols":
            out.append(r)
            continue
        near = [
            n
            for n in found
            if n is not r and max(abs(n.cell.x - r.cell.x), abs(n.cell.y - r.cell.y)) <= DRIFT_REACH
        ]
        support = sum(1 for n in near if agrees(n))
        against = len(near) - support
        if against >= 2 and 3 * against >= support:
            r = CardReading(r.cell, None, 0.0, r.source, offset=r.offset)
        out.append(r)
    return dataclasses.replace(scan, cards=tuple(out))


Bare = tuple[Callable[[Cell], Image], npt.NDArray[np.float32]]
"""The middle of each cell a scan reads showing no paper, straightened (by the cell as read,
before :func:`orient`), and the light's colour."""


def _no_middle(cell: Cell) -> Image:
    raise KeyError(cell)  # a scan with no grid reads no cell


def _table_shown(
    cells: Collection[Cell],
    tracked: Collection[Cell],
    middle: Callable[[Cell], Image],
    light: npt.NDArray[np.float32],
) -> list[Cell]:
    """Of the ``cells`` that show no paper, those empty: every untracked one, and a tracked
    one where its ``middle`` shows the table as the untracked ones show it
    (:class:`~vision.clustered.cloth.Cloth`; every one, when too few are untracked to say)."""
    if not any(c in tracked for c in cells):
        return list(cells)
    cloth = Cloth.of([middle(c) for c in cells if c not in tracked], light)
    return [c for c in cells if c not in tracked or cloth is None or cloth.shows(middle(c))]


class ClusteredReader:
    """Reads every card: by marker with the kit, from its symbols without."""

    def prior(self, session: object) -> Expected | None:
        core = getattr(session, "core", None)
        if core is None or not hasattr(core, "layout"):
            return None
        return Expected(core.settings, core.layout, tuple(core.colours()))

    # Reading ---------------------------------------------------------------------------------

    def read(self, frame: Image, *, prior: Expected | None = None) -> Reading[LayoutScan]:
        prior = prior or Expected()
        kit = load_kit()
        palette = prior.settings.palette
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = markers.detect(gray)
        seen, notes = markers.seen_cards(kit, found, palette)
        starts = [s for s in seen if s.card.is_start]
        cards = [s for s in seen if not s.card.is_start]
        start_grid = self._start_grid(frame, seen, starts)
        if start_grid is not None and (starts or len(cards) >= 3):
            scan, quality, more, px, bare = self._by_markers(frame, seen, start_grid, prior)
        else:
            scan, quality, more, px, bare = self._by_symbols(frame, prior)
            if quality is Quality.UNUSABLE and len(seen) >= 3:
                # Three or more of the kit's markers (a marker-less deck gives one or two misreads).
                side = float(np.median([s.marker.side_px for s in seen]))
                if side < COARSE_HINT_PX:
                    more.insert(
                        0,
                        f"the picture is too coarse or blurred to read this table: its "
                        f"markers are about {side:.0f} pixels across and only {len(seen)} "
                        "could be read; move the camera closer or take a full-resolution still",
                    )
        as_read = scan.empty
        scan, quarters = orient(scan, prior.layout)
        if prior.layout is not None:
            # Named as the layout names them now: a tracked card's cell is empty only where it
            # shows the table (a hand over the card is not the card gone).
            middle, light = bare
            named = dict(zip(scan.empty, as_read, strict=True))
            shown = _table_shown(named, prior.layout, lambda cell: middle(named[cell]), light)
            scan = dataclasses.replace(scan, empty=tuple(shown))
        if not lined_up(scan, prior.layout):
            note = (
                "the cards read do not match the table's layout wherever the picture is laid "
                "over it (the start card hidden or misread?): nothing is taken from this picture"
            )
            return Reading(LayoutScan((), notes=(note,)), Quality.UNUSABLE, (note,), px)
        scan = doubt_drifted(scan, prior.layout)
        if quarters and starts:  # a marked start card (a plain one has no arrow, no top)
            more.append(
                "the start card lies turned: its arrow points to the top of the big "
                "screen's view (K2.2); read as the record has it"
            )
        scan = dataclasses.replace(scan, notes=(*scan.notes, *notes, *more))
        return Reading(scan, quality, scan.notes, px)

    def _start_grid(
        self, frame: Image, seen: list[markers.Seen], starts: list[markers.Seen]
    ) -> tuple[markers.Grid, list[tuple[Cell, Any]], list[str]] | None:
        """The first grid: from the start card's marker, or (its marker covered or too
        small) from the black start card's outline when the cards' markers were read."""
        kit = load_kit()
        if starts:
            ordered, notes = markers.order_starts(kit, starts)
            grid, anchors = markers.start_anchors(kit, ordered)
            return grid, anchors, notes
        # Any dark square will do: the cards' markers place them, and the tracked layout puts
        # the grid right (markers.fit_to_layout) when the square is not the start card but a
        # marker (the start card under a hand).
        quads = find_starts(frame, card_sized=False)
        if not quads or len(seen) < 3:
            return None
        pitch = kit.card_side + markers.NOMINAL_GAP
        grid = markers.Grid(grid_from_quad(quads[0], kit.card_side, pitch))
        note = "the start card's marker was not read: the grid follows its black square"
        return grid, [(Cell(0, 0), quads[0].mean(axis=0))], [note]

    def _by_markers(
        self,
        frame: Image,
        seen: list[markers.Seen],
        start: tuple[markers.Grid, list[tuple[Cell, Any]], list[str]],
        prior: Expected,
    ) -> tuple[LayoutScan, Quality, list[str], float | None, Bare]:
        kit = load_kit()
        first, anchors, notes = start
        starts = anchors
        cards = [s for s in seen if not s.card.is_start]
        grid, cells = markers.fit_grid(cards, first, anchors)
        if prior.layout is not None:
            grid, cells = markers.fit_to_layout(cards, grid, cells, tracked_cards(prior.layout))
        offsets = markers.offsets(grid, cards, cells)
        readings: dict[Cell, CardReading] = {}
        clashes: set[Cell] = set()
        for cell in [Cell(0, 0)] + ([Cell(7, 0)] if len(starts) > 1 else []):
            readings[cell] = CardReading(cell, Card(None), 1.0, "marker", start=True)
        for index, card in enumerate(cards):
            cell = cells[index]
            if cell in readings:
                clashes.add(cell)
                continue
            readings[cell] = CardReading(
                cell,
                card.card,
                0.99,
                "marker",
                colour=card.card.colour,
                shape=card.card.shape,
                fill=card.card.fill,
                number=card.card.number,
                wild=card.card.is_wild,
                offset=offsets[index],
            )
        for cell in clashes:  # two markers in one cell: neither can be trusted
            readings[cell] = CardReading(cell, None, 0.0, "marker")
            notes.append(f"two cards seem to lie in {cell.text()}: put them right")
        light = illuminant(frame)
        bare, hidden = self._empty_cells(frame, grid, readings, prior, light)
        for cell in hidden:
            readings[cell] = CardReading(cell, None, 0.0, "marker")
        side_px = float(np.median([s.marker.side_px for s in seen]))
        px_per_mm = side_px / kit.marker_side
        quality = Quality.GOOD
        if side_px < MIN_MARKER_PX:
            quality = Quality.COARSE
            notes.append(
                f"the markers are {side_px:.0f} pixels across; from {MIN_MARKER_PX:.0f} up every "
                "one is read: a full-resolution still (or the camera closer) reads more"
            )
        scan = LayoutScan(tuple(readings.values()), tuple(bare))
        return scan, quality, notes, px_per_mm, (bare.__getitem__, light)

    def _empty_cells(
        self,
        frame: Image,
        grid: markers.Grid,
        readings: Mapping[Cell, CardReading],
        prior: Expected,
        light: npt.NDArray[np.float32],
    ) -> tuple[dict[Cell, Image], list[Cell]]:
        """Cells beside the cards, and the tracked ones without a marker: showing no paper
        (each with its middle, straightened, for :func:`_table_shown`), or holding a card
        whose marker could not be read (paper with a card's ink shows; ``light`` is the
        light's colour, :func:`illuminant`).

        With the tracked layout known, only its cells can hold a card whose marker is not
        read: a patterned cloth's white block with stripes beside the cards shows paper and
        ink (88 such cells on the benchmark's 24 tables on the patterned cloth; a cell or two
        reads as a new card played, more as "several new cards at once", K3.9). Of the cells
        showing no paper, :meth:`read` keeps a tracked card's empty only where it shows the
        table (:func:`_table_shown`)."""
        to_image = grid.to_image
        height, width = frame.shape[:2]
        tracked = set() if prior.layout is None else set(prior.layout)
        todo = {n for c in readings for n in c.neighbours() if n not in readings}
        todo |= {c for c in tracked if c not in readings}
        bare: dict[Cell, Image] = {}
        hidden = []
        for cell in sorted(todo, key=reading_order):
            centre = markers.Grid(to_image).image_of(np.array([[cell.x, cell.y]], np.float64))[0]
            if not (0 <= centre[0] < width and 0 <= centre[1] < height):
                continue
            patch = straighten(frame, to_image, (float(cell.x), float(cell.y)), 0.6, 32)
            paper = float(is_paper(patch, light).mean())
            if paper < 0.1:
                bare[cell] = patch
            elif (prior.layout is None or cell in tracked) and paper > 0.5 and shows_ink(patch):
                hidden.append(cell)  # (shows_ink: not a cloth as pale as the paper)
        return bare, hidden

    def _by_symbols(
        self, frame: Image, prior: Expected
    ) -> tuple[LayoutScan, Quality, list[str], float | None, Bare]:
        kit = load_kit()
        settings = prior.settings
        light = illuminant(frame)
        readings, empty, notes, grid = read_plain(
            frame,
            card_side=kit.card_side,
            inks=_inks(settings),
            symbol_side=kit.plain_size,
            most=sum(settings.deck_size(c) for c in settings.palette.codes)
            + settings.start_count(8),
            light=light,
        )
        if grid is None:
            return LayoutScan(()), Quality.UNUSABLE, notes, None, (_no_middle, light)
        found = grid

        def middle(cell: Cell) -> Image:
            return straighten(frame, found, (float(cell.x), float(cell.y)), 0.6, 32)

        quality = (
            Quality.COARSE if any("full-resolution still" in n for n in notes) else (Quality.GOOD)
        )
        cell_px = float(
            np.linalg.norm(
                markers.Grid(grid).image_of(np.array([[1.0, 0.0], [0.0, 0.0]]))[0]
                - markers.Grid(grid).image_of(np.array([[0.0, 0.0]]))[0]
            )
        )
        return (
            LayoutScan(tuple(readings), tuple(empty)),
            quality,
            notes,
            cell_px / (kit.card_side + markers.NOMINAL_GAP),
            (middle, light),
        )

    def combine(
        self, readings: Sequence[Reading[LayoutScan]], *, prior: Expected | None = None
    ) -> Reading[LayoutScan]:
        """A card counts only when most frames agree on it; a cell most frames saw empty is
        empty; the worst quality and every note carry over."""
        if not readings:
            return Reading(LayoutScan(()), Quality.UNUSABLE, ("no frames",))
        if len(readings) == 1:
            return readings[0]
        half = len(readings) / 2
        cells: dict[Cell, Counter[str]] = {}
        kept: dict[tuple[Cell, str], CardReading] = {}
        for reading in readings:
            for card in reading.scan.cards:
                key = card.words() if card.card is not None or card.start else "?"
                cells.setdefault(card.cell, Counter())[key] += 1
                kept.setdefault((card.cell, key), card)
        out = []
        for cell, votes in cells.items():
            key, count = votes.most_common(1)[0]
            if count > half and key != "?":
                out.append(kept[(cell, key)])
            elif sum(votes.values()) > half:
                out.append(CardReading(cell, None, 0.0, kept[(cell, key)].source))
        empties = Counter(c for r in readings for c in r.scan.empty)
        empty = tuple(c for c, n in empties.items() if n > half and c not in cells)
        notes = tuple(dict.fromkeys(n for r in readings for n in r.notes))
        scan = LayoutScan(tuple(out), empty, notes)
        return Reading(scan, worst([r.quality for r in readings]), notes, readings[0].px_per_mm)

    # Words ------------------------------------------------------------------------------------

    def describe(self, reading: Reading[LayoutScan], *, prior: Expected | None = None) -> list[str]:
        scan = reading.scan
        known = [r for r in scan.cards if r.card is not None and not r.start]
        unknown = [r for r in scan.cards if r.card is None and not r.start]
        by_marker = sum(1 for r in known if r.source == "marker")
        lines = [
            f"{len(known) + len(unknown)} cards seen: {len(known)} read "
            f"({by_marker} by marker, {len(known) - by_marker} from their symbols), "
            f"{len(unknown)} unknown; quality {reading.quality.value}."
        ]
        for r in sorted(scan.cards, key=lambda r: reading_order(r.cell)):
            if r.start:
                continue
            said = r.words() if r.card is None else r.card.text()
            lines.append(
                f"  {r.cell.text():>7}  {said}" + ("" if r.aligned else "  (not straight)")
            )
        lines += [f"Note: {n}" for n in reading.notes]
        if prior is not None and prior.record is not None:
            game = records.load(prior.record)
            compared = compare(scan, game)
            lines.append("Against the record:")
            lines += [f"  {d['message']}" for d in compared["discrepancies"]] or ["  no difference"]
            if compared["moves"]:
                lines.append("  the new card can be: " + "; ".join(compared["moves"]))
        return lines

    def score_lines(
        self, reading: Reading[LayoutScan], *, prior: Expected | None = None
    ) -> list[str]:
        """``companion scan --score``: the score of the table in the picture (K7.12)."""
        prior = prior or Expected()
        scan = reading.scan
        colours = prior.colours or tuple(
            sorted(
                {r.colour for r in scan.cards if r.colour}, key=prior.settings.palette.codes.index
            )
        )
        first = dict(prior.first) if prior.settings.first_bonuses else None
        sheet, unknown = score_scan(
            scan, colours, first=first, largest_bonuses=prior.settings.largest_bonuses
        )
        names = {c: prior.settings.palette.name(c).capitalize() for c in colours}
        lines = ["Score of the table in the picture (K7.12):", *sheet.lines(names)]
        if prior.settings.first_bonuses:
            for bonus in FIRST_BONUSES:
                if bonus not in prior.first:
                    lines.append(
                        f"The {bonus} bonus was not entered: ask the table who earned it "
                        f"(--expect '{bonus}=COLOUR' or '{bonus}=nobody')."
                    )
        if unknown:
            cells = ", ".join(c.text() for c in unknown)
            lines.append(
                f"{len(unknown)} card(s) could not be read ({cells}): the score leaves them out."
            )
        return lines

    def to_json(self, reading: Reading[LayoutScan]) -> dict[str, Any]:
        return {
            **reading.scan.to_dict(),
            "quality": reading.quality.value,
            "notes": list(reading.notes),
        }

    def annotate(self, frame: Image, reading: Reading[LayoutScan]) -> Image:
        out: Image = frame.copy()
        cv2.putText(
            out,
            f"{len(reading.scan.cards)} cards, {reading.quality.value}",
            (20, 40),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.2,
            (0, 0, 255),
            2,
        )
        return out

    # Priors from the command line --------------------------------------------------------------

    def expectation(
        self, *, text: str | None = None, record: bytes | None = None
    ) -> Expected | None:
        """``--record GAME.json``: its settings, seats and layout; ``--expect TEXT``: settings
        (``largest_bonuses=on``, ``palette=...``), the players' colours (``colours=B,O``) and who
        earned the first-to-achieve bonuses (``first-line=B first-rectangle=nobody``)."""
        if text is None and record is None:
            return None
        settings: Settings = Settings()
        layout: Layout | None = None
        colours: tuple[str, ...] = ()
        first: dict[str, str | None] = {}
        if record is not None:
            game = records.load(record)
            settings, layout, colours = game.settings, game.layout, tuple(game.colours())
        if text:
            values: dict[str, str] = {}
            for item in re.split(r"\s+(?=[\w-]+=)", text.strip()):
                name, sep, value = item.partition("=")
                if not sep:
                    raise ExpectationError(f"--expect: {item!r} is not NAME=VALUE")
                values[name.strip().lower()] = value.strip()
            for bonus in FIRST_BONUSES:
                if bonus in values:
                    said = values.pop(bonus)
                    first[bonus] = None if said.lower() == "nobody" else settings.palette.code(said)
            if "colours" in values:
                colours = tuple(
                    settings.palette.code(c)
                    for c in re.split(r"[,\s]+", values.pop("colours"))
                    if c
                )
            try:
                settings = settings.changed(**values)
            except (CompanionError, TypeError) as err:
                raise ExpectationError(f"--expect: {err}") from None
            if first and not settings.first_bonuses:
                settings = settings.changed(first_bonuses=True)
        return Expected(settings, layout, colours, first, record)

    def simulate(
        self, prior: Expected, rng: random.Random, *, size: tuple[int, int], mistakes: float
    ) -> Image:
        from vision.clustered.synthetic import Conditions, render

        layout = prior.layout or Layout.starting(prior.settings.start_cells(1))
        if mistakes and rng.random() < mistakes and len(layout) > 1:
            cell = rng.choice([c for c, k in layout.items() if not k.is_start])
            layout = layout.removed(cell)  # a card taken away: the table screen lists it
        conditions = Conditions.random(rng, width=size[0], height=size[1])
        return render(layout, prior.settings.palette, conditions).image


READER = ClusteredReader()
"""The registration's ``camera``."""
