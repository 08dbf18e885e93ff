"""A tile whose marker is hidden (a hand, a card sleeve) placed from the camera's last good
reading (issue 18): placed only when its neighbours and the picture agree, never a guess, and
what covers it stays unknown."""

from __future__ import annotations

import dataclasses
import math

import pytest
from vision_pictures import benchmark_picture, render

from benchmarks.vision import boards, clear_prior, without_craft
from companion.local_cluster.atoms import Colour
from companion.local_cluster.board_scan import BoardScan, SlotState, TileReading
from companion.service import TableService
from vision.attachment import CameraAttachment
from vision.local_cluster import grid_rescue, slots, tile_edges
from vision.local_cluster.kit import load_kit
from vision.local_cluster.reader import READER, Expected
from vision.local_cluster.recognize import (
    CARRIED_SURE,
    SAME_PLACE_MM,
    Prior,
    Recognition,
    TilePose,
    carried,
    recognize,
)
from vision.local_cluster.slots import HIDDEN_SURE
from vision.local_cluster.synthetic import Conditions, Rendered, sample_state
from vision.readers import Reading

FINE = Conditions(seed=1, noise=1.0, jpeg=90, width=2304, height=1296)
"""A 3-player board at about 1.1 pixels per mm: where every slot must be read."""


@dataclasses.dataclass(frozen=True)
class Case:
    picture: Rendered
    prior: Prior
    """The recognizer's own reading of the same table photographed just before, clear."""
    without: Recognition
    found: Recognition


def _case(**occluders: int) -> Case:
    state = sample_state(5, 3)
    conditions = dataclasses.replace(FINE, **occluders)
    picture = render(state, conditions)
    sectors = list(picture.tiles)
    clear = render(state, dataclasses.replace(conditions, hands=0, sleeves=0))
    return _read(picture, Prior.of(recognize(clear.image, expected=sectors).scan))


def _read(picture: Rendered, prior: Prior) -> Case:
    """``picture`` read without a prior and with ``prior``."""
    sectors = list(picture.tiles)
    return Case(
        picture,
        prior,
        recognize(picture.image, expected=sectors),
        recognize(picture.image, expected=sectors, prior=prior),
    )


@pytest.fixture(scope="module")
def sleeved() -> Case:
    """Three card sleeves; they hide the markers of S18, S33 and S39 (and lie over S12's)."""
    return _case(sleeves=3)


@pytest.fixture(scope="module")
def handed() -> Case:
    """A hand (and its shadow) hides the markers of S29, S35, S39 and S41."""
    return _case(hands=1)


def _carried_slots(case: Case) -> tuple[int, list[str], list[str]]:
    """Of the tiles placed from the prior: visible slots read right, every slot read wrong,
    and the covered slots read as anything but unknown."""
    right, wrong, covered_known = 0, [], []
    for tile in case.found.tiles:
        if not tile.carried:
            continue
        truth = case.picture.tiles[tile.sector]
        for reading in tile.reading.slots:
            want = truth.slots[reading.slot]
            same = (reading.state, reading.colour, reading.kind) == (
                want.state,
                want.colour,
                want.kind,
            )
            covered = reading.slot in truth.occluded - truth.glared
            if reading.known and not same:
                wrong.append(f"{tile.sector} {reading.slot}: {reading.describe()}")
            if covered and reading.known:
                covered_known.append(f"{tile.sector} {reading.slot}: {reading.describe()}")
            right += reading.known and same and reading.slot not in truth.occluded
    return right, wrong, covered_known


def test_a_tile_under_a_sleeve_placed_from_the_prior_reads_its_visible_slots(
    sleeved: Case,
) -> None:
    hidden = {s for s, t in sleeved.picture.tiles.items() if not t.marker_visible}
    placed = {t.sector for t in sleeved.found.tiles if t.carried}
    assert len(placed) >= 2 and placed <= hidden
    # Without the prior the grid finds S39's marker, half under a sleeve (``grid_rescue``);
    # with it the tile is placed from the prior, as a marker that shows only in part.
    assert "S39" in sleeved.without.scan.sectors
    right, wrong, _ = _carried_slots(sleeved)
    assert wrong == []
    assert right >= 5 * len(placed)
    assert any("placed where the last scan had it" in n for n in sleeved.found.scan.notes)
    # Placed tiles take part in the adjacency as if seen (R1.1). (Without the prior, S18 and
    # S33 are placed by their faces, with the same edges.)
    assert set(sleeved.found.scan.adjacency) >= set(sleeved.without.scan.adjacency)
    assert any(placed & set(edge) for edge in sleeved.found.scan.adjacency)


def test_a_hand_covered_slot_stays_unknown_on_a_tile_placed_from_the_prior(
    handed: Case,
) -> None:
    assert any(t.carried for t in handed.found.tiles)
    right, wrong, covered_known = _carried_slots(handed)
    assert wrong == []
    # Only empty slots beside the hand whose outline shows whole are read
    # (``slots.OUTLINE_WHOLE``): what lay over one would hide its outline there.
    assert all(known.endswith(": empty") for known in covered_known), covered_known
    assert right > 0
    covered = [
        slot
        for t in handed.found.tiles
        if t.carried
        for slot in handed.picture.tiles[t.sector].occluded
    ]
    assert covered  # the hand does lie over slots of a placed tile


def test_a_tile_whose_prior_pose_disagrees_with_the_picture_is_not_placed(
    sleeved: Case,
) -> None:
    """The tile was moved 8 mm under the sleeve since the last scan: its outlines are not
    where the prior puts them, so it stays unfound (and its slots unread)."""
    placed = sorted(t.sector for t in sleeved.found.tiles if t.carried)
    moved = placed[0]
    shifted = Prior(
        tuple(
            dataclasses.replace(t, centre=(t.centre[0] + 8.0, t.centre[1] - 2.0))
            if t.sector == moved
            else t
            for t in sleeved.prior.tiles
        )
    )
    found = recognize(sleeved.picture.image, expected=list(sleeved.picture.tiles), prior=shifted)
    assert moved not in found.scan.sectors
    assert any(
        n.startswith(f"{moved}: its marker is hidden and the picture does not")
        for n in found.scan.notes
    )
    assert set(placed[1:]) <= set(found.scan.sectors)


def _pose(centre: tuple[float, float], angle: float) -> tuple[tuple[float, float], float]:
    return centre, angle


def test_a_tile_is_carried_by_the_motion_its_neighbours_agree_on() -> None:
    kit = load_kit()
    side = kit.tile_side
    prior = Prior(
        (
            TilePose("S1", (0.0, 0.0), 0.0),
            TilePose("S2", (side, 0.0), 90.0),
            TilePose("S3", (0.0, side), 180.0),
        )
    )
    turn = math.radians(2.0)

    def moved(x: float, y: float) -> tuple[float, float]:
        return (
            x * math.cos(turn) - y * math.sin(turn) + 5.0,
            x * math.sin(turn) + y * math.cos(turn) - 3.0,
        )

    found = [
        ("S2", _pose(moved(side, 0.0), 92.0), False),
        ("S3", _pose(moved(0.0, side), 182.0), False),
    ]
    [(sector, ((x, y), angle))] = carried(found, prior, kit)
    assert sector == "S1"
    assert (x, y) == pytest.approx((5.0, -3.0), abs=1e-6)
    assert angle == pytest.approx(2.0)


def test_a_tile_with_too_few_agreeing_neighbours_is_not_placed() -> None:
    """Its two neighbours moved apart (one bumped): no motion both agree on, no placement."""
    kit = load_kit()
    side = kit.tile_side
    prior = Prior(
        (
            TilePose("S1", (0.0, 0.0), 0.0),
            TilePose("S2", (side, 0.0), 0.0),
            TilePose("S3", (0.0, side), 0.0),
        )
    )
    bumped = [
        ("S2", _pose((side, 0.0), 0.0), False),
        ("S3", _pose((12.0, side), 7.0), False),
    ]
    assert carried(bumped, prior, kit) == []
    alone = [("S2", _pose((side, 0.0), 0.0), False)]
    assert carried(alone, prior, kit) == []


def test_the_local_cluster_reader_remembers_where_the_tiles_lay(sleeved: Case) -> None:
    last = Reading(sleeved.without.scan)
    prior = READER.remember(Expected(("S1",)), last)
    assert prior is not None and prior.sectors == ("S1",)
    assert prior.poses == Prior.of(sleeved.without.scan)
    fresh = READER.remember(None, last)
    assert fresh is not None and fresh.poses is not None
    assert set(fresh.sectors) == set(sleeved.without.scan.sectors)


def test_the_camera_attachment_gives_its_last_reading_as_prior(service: TableService) -> None:
    table_id, _ = service.create_table("camera", 2, seed=5)
    camera = CameraAttachment(service, table_id, None, READER)  # no source: no thread
    assert camera.prior(READER) is None  # no game yet, nothing read yet
    tile = TileReading("S1", 0, 0, 0, 0, (1.0, 2.0), 3.0, 1.0, ())
    camera.last = Reading(BoardScan((tile,), (), ()))
    prior = camera.prior(READER)
    assert isinstance(prior, Expected)
    assert prior.poses == Prior((TilePose("S1", (1.0, 2.0), 3.0),))


def test_an_unsure_reading_on_a_placed_tile_is_kept_only_where_nothing_can_pass_for_it(
    sleeved: Case, handed: Case, picture_43: Case
) -> None:
    """What hides the marker lies on that tile. An empty reading needs the slot's printed
    outline to show along every side where the pose puts it, which nothing lying over the
    slot shows, and is kept at any sureness (issue 18's benchmark, five sets of pictures:
    56 visible slots right more on seed 2026 from 1 px/mm, 164 on the five, none wrong); a
    token read less than ``HIDDEN_SURE`` sure, only with its surround clear (below)."""
    known = [
        s
        for case in (sleeved, handed, picture_43)
        for t in case.found.tiles
        if t.carried
        for s in t.reading.slots
        if s.known
    ]
    assert any(s.state is SlotState.EMPTY and s.confidence < CARRIED_SURE for s in known)
    assert any(s.state is SlotState.TOKEN for s in known)
    for case in (sleeved, handed, picture_43):
        assert _carried_slots(case)[1] == []


def test_a_hand_over_a_slot_on_a_tile_whose_marker_shows_in_part_is_not_read_as_a_token() -> None:
    """Issue 18's benchmark picture 27: a hand lies over the edge of S4's marker (the grid
    finds it) and over its empty mineral3 slot and ring; white-balanced, the skin is near a
    mineral token's colour, and the slot read as a token at 0.45, a sixth of its surround
    foreign. On a tile whose marker does not show whole, a token read less than
    ``HIDDEN_SURE`` sure needs its surround clear (``HIDDEN_SURROUND``): mineral3 is
    unknown. S42's marker is hidden and its claim token, its surround clear, reads aqua
    at under 0.75, as it lies; nothing on a placed tile reads wrong."""
    case = _benchmark_picture(27, {}, craft=True)
    s4 = next(t for t in case.found.tiles if t.sector == "S4")
    assert not s4.carried and any(
        n.startswith("S4: its marker shows only") for n in case.found.scan.notes
    )
    assert "mineral3" in case.picture.tiles["S4"].occluded
    assert next(s for s in s4.reading.slots if s.slot == "mineral3").state is SlotState.UNKNOWN
    for reading in s4.reading.slots:
        assert case.picture.tiles["S4"].drawn(reading) or not reading.known, reading
    s42 = next(t for t in case.found.tiles if t.sector == "S42")
    claim = next(s for s in s42.reading.slots if s.slot == "claim")
    assert s42.carried
    assert (claim.state, claim.colour) == (SlotState.TOKEN, Colour.AQUA)
    assert claim.confidence < HIDDEN_SURE
    assert case.picture.tiles["S42"].slots["claim"].colour is Colour.AQUA
    assert _carried_slots(case)[1] == []


def _benchmark_picture(
    index: int, moved: dict[str, tuple[float, float]], *, craft: bool = False
) -> Case:
    """Issue 18's benchmark picture ``index`` (as drawn before it carried strike craft,
    unless ``craft``) read with the prior the camera would hold, the tiles in ``moved``
    shifted in it by (x, y) mm (moved under the hand since)."""
    board = boards(index + 1)[index] if craft else without_craft(index)
    picture = benchmark_picture(board)[0]
    prior = clear_prior(board)
    assert prior is not None
    prior = Prior(
        tuple(
            dataclasses.replace(
                t, centre=(t.centre[0] + moved[t.sector][0], t.centre[1] + moved[t.sector][1])
            )
            if t.sector in moved
            else t
            for t in prior.tiles
        )
    )
    return _read(picture, prior)


@pytest.fixture(scope="module")
def picture_43() -> Case:
    """Issue 18's benchmark picture 43: hands hide the markers of S9 and S20."""
    return _benchmark_picture(43, {})


def test_a_placed_tile_whose_outlines_are_hidden_is_kept_when_its_claim_reads_surely(
    picture_43: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand over most of S20 hides its marker and every empty outline but one; its claim
    token reads surely where the prior puts it, so the tile is kept: seven slots read right,
    none wrong (issue 18's benchmark, picture 43; it went unread before, with 257 other
    visible slots from 1 px/mm). The grid finds what the hand leaves of S20's marker (below);
    here it is kept from it, as when a hand covers the whole marker."""
    monkeypatch.setattr(grid_rescue, "rescued", lambda *args, **kwargs: [])
    case = _read(picture_43.picture, picture_43.prior)
    placed = next(t for t in case.found.tiles if t.sector == "S20")
    assert placed.carried
    _, wrong, covered_known = _carried_slots(case)
    assert wrong == []
    assert not [c for c in covered_known if c.startswith("S20 ")]
    truth = case.picture.tiles["S20"]
    assert sum(s.known and s.slot not in truth.occluded for s in placed.reading.slots) >= 7


def test_a_tile_the_grid_finds_where_the_prior_puts_it_is_placed_at_the_priors_pose(
    picture_43: Case,
) -> None:
    """Issue 18's benchmark picture 43: the grid finds S20's marker, half under a hand
    (``grid_rescue``); where the prior carries it within a few millimetres, the tile is
    placed at the prior's pose (the last scan saw the marker whole), read as a tile whose
    marker shows in part: nothing wrong, seven slots right."""
    case = picture_43
    alone = case.without.scan.tile("S20")
    tile = next(t for t in case.found.tiles if t.sector == "S20")
    assert alone is not None and not tile.carried
    moved = math.hypot(
        tile.reading.centre[0] - alone.centre[0], tile.reading.centre[1] - alone.centre[1]
    )
    assert 0 < moved <= SAME_PLACE_MM
    truth = case.picture.tiles["S20"]
    right = 0
    for reading in tile.reading.slots:
        want = truth.slots[reading.slot]
        same = (reading.state, reading.colour, reading.kind) == (want.state, want.colour, want.kind)
        assert same or not reading.known, reading
        right += reading.known and reading.slot not in truth.occluded
    assert right >= 7


def test_a_hidden_tile_is_placed_on_its_strike_craft_outlines_where_its_edges_show() -> None:
    """Issue 18's benchmark picture 78: a hand hides S31's marker and most of its slots;
    two minerals and five empty strike-craft slots show. Craft outlines repeat every 18-20
    mm and alone are no evidence of a pose, but where the tile's edge line shows across x
    and y the pose is right within about a millimetre (or a neighbour's line off, which no
    1.5 mm outline survives): the tile is placed from the prior, its empty craft slots read
    right, nothing wrong (it went unread before; craft6, 42 % of its surround under the
    hand, is read since ``slots.OUTLINE_WHOLE``). Without the prior it is found only
    by its face, where one mineral triangle shows beside the hand (``token_turn``)."""
    case = _benchmark_picture(78, {}, craft=True)
    truth = case.picture.tiles["S31"]
    alone = next(t for t in case.without.tiles if t.sector == "S31")
    assert alone.by_face
    assert [r.describe() for r in alone.reading.slots if r.known and not truth.drawn(r)] == []
    tile = next(t for t in case.found.tiles if t.sector == "S31")
    assert tile.carried
    empty = [
        s.slot
        for s in tile.reading.slots
        if s.state is SlotState.EMPTY and s.slot not in truth.occluded
    ]
    assert sorted(empty) == ["craft1", "craft2", "craft3", "craft5", "craft6"]
    assert _carried_slots(case)[1] == []


def test_a_tile_placed_from_the_prior_changes_nothing_the_found_tiles_read(
    picture_43: Case,
) -> None:
    """The picture's bare-tile limits, its noise and its outlines' contrast are measured on
    the tiles found by their own marker: a placed tile has a hand over it, and in picture 43
    its points had turned three slots of other tiles from unknown to read and one the other
    way (no reading wrong; on issue 18's benchmark, 20 such changes from 1 px/mm)."""
    case = picture_43
    placed = {t.sector for t in case.found.tiles if t.carried}
    assert placed
    # (Without the prior the grid finds S20's and S39's markers, half under the hands: with
    # it, each is placed at the prior's pose, and read as such.)
    on_grid = {
        note.split(":")[0]
        for note in case.without.scan.notes
        if ": its marker shows only dimly or in part" in note
    }
    assert on_grid == {"S20", "S38", "S39"}
    both = [t for t in case.without.scan.tiles if t.sector not in placed | on_grid]

    def read(scan: BoardScan) -> dict[str, str]:
        return {
            f"{t.sector} {s.slot}": s.describe()
            for t in scan.tiles
            if t.sector in {b.sector for b in both}
            for s in t.slots
        }

    def sure(scan: BoardScan) -> list[float]:
        return [s.confidence for t in both for s in scan.tile(t.sector).slots]

    assert read(case.found.scan) == read(case.without.scan)
    # More rows in the matrix products move float32's last bits, no more.
    assert sure(case.found.scan) == pytest.approx(sure(case.without.scan), abs=5e-5)


def test_a_mineral_read_by_chance_does_not_keep_a_tile_moved_under_the_hand() -> None:
    """S40 moved 15 mm under the hand since the last scan: where the prior puts its mineral
    slots, the neighbouring mineral slots' tokens lie (they repeat every 20 mm), and one
    read as a token where the slot was empty. A mineral is no evidence of where the tile
    lies; its claim and unit show nothing sure there, so it is not placed (issue 18's
    benchmark, picture 62). (Read without the prior, S40 is placed by its face where it
    lies, the one tile of its variant left: a tile the prior holds is left to the prior.)"""
    case = _benchmark_picture(62, {"S40": (-15.0, 0.0)})
    assert any(t.sector == "S40" and t.by_face for t in case.without.tiles)
    assert "S40" not in case.found.scan.sectors
    assert any(
        n.startswith("S40: its marker is hidden and the picture does not")
        for n in case.found.scan.notes
    )
    _, wrong, _ = _carried_slots(case)
    assert wrong == []


def test_a_bare_mineral_slot_on_a_placed_tile_reads_empty(sleeved: Case, handed: Case) -> None:
    """An empty mineral slot whose inside is bare tile is as sure as an empty claim (1, and
    0.5 at the empty limit): it reached only 0.75 before, so on a placed tile, which keeps
    readings from 0.75, most empty minerals were unknown (here 5 of the 7 visible;
    issue 18's benchmark, 53 slots from 1 px/mm with the prior, none wrong)."""
    empty = []
    for case in (sleeved, handed):
        for tile in case.found.tiles:
            truth = case.picture.tiles[tile.sector]
            empty += [
                r
                for r in tile.reading.slots
                if tile.carried
                and r.slot.startswith("mineral")
                and r.slot not in truth.occluded
                and truth.slots[r.slot].state is SlotState.EMPTY
            ]
    assert len(empty) == 7
    assert all(r.state is SlotState.EMPTY and r.confidence >= CARRIED_SURE for r in empty)


def test_a_tile_moved_one_row_of_slots_under_the_hand_is_not_placed() -> None:
    """Mineral and strike-craft outlines repeat every 18-20 mm: S22, moved 20 mm under the
    hand since the last scan, showed three empty outlines where its prior put them and was
    kept, reading four slots wrong (issue 18's benchmark, picture 18). Its edge line does not
    show across the move, so it is not placed (every hidden tile of seed 2026 moved 5-25 mm
    four ways: 19 wrong readings on tiles kept before, 1 now)."""
    case = _benchmark_picture(18, {"S22": (0.0, -20.0)}, craft=True)
    assert "S22" not in case.without.scan.sectors
    assert "S22" not in case.found.scan.sectors
    assert any(
        n.startswith("S22: its marker is hidden and the picture does not")
        for n in case.found.scan.notes
    )
    assert _carried_slots(case)[1] == []


def test_a_placed_tile_whose_edge_line_shows_all_round_is_kept() -> None:
    """A hand over S4 hides its marker, its claim, its unit and every empty slot: no outline
    or sure claim says where the tile lies. Its edge line shows along all four sides where
    the prior puts it, which no pose a few millimetres off shows (a neighbour's line lies
    along one side at most), so it is placed and its two visible mineral tokens read (issue
    18's benchmark, picture 2; 39 more slots right on seed 2026 from 1 px/mm, none wrong)."""
    case = _benchmark_picture(2, {})
    assert "S4" not in case.without.scan.sectors
    placed = next(t for t in case.found.tiles if t.sector == "S4")
    assert placed.carried
    assert _carried_slots(case)[1] == []
    truth = case.picture.tiles["S4"]
    visible = [s for s in placed.reading.slots if s.slot not in truth.occluded]
    assert [s.slot for s in visible if s.known] == ["mineral1", "mineral3"]


def test_a_side_showing_bare_face_where_its_line_should_be_does_not_place_a_moved_tile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hand over S43 hides its marker, claim and unit (issue 18's benchmark, picture
    100). Moved 20 mm (and 1 across) since the last scan, its prior puts a side across the
    move on a row of slot outlines, which shows a light line at a few positions, so the
    edge line seemed to show across x and y: the tile was placed on three empty
    strike-craft outlines a row off and read three mineral slots wrong, one at 1.0. Along
    that side more positions show bare face than a line (``tile_edges.ABSENT``): not placed
    (every hidden tile of seed 2026 moved 3-20 mm four ways and turned: 15 wrong readings
    before, 2 after). Unless all four sides show, a side now needs its line at six
    positions (``tile_edges.ACROSS_LEAST``), which keeps S43 off as well; at four, as then,
    the bare face alone does. (What shows of S43's marker is found by the search beside
    the board, ``grid_rescue._anywhere``, which is left out here: the prior alone places
    the tile.)"""
    monkeypatch.setattr(grid_rescue, "ANYWHERE_MOST", 0)
    moved = {"S43": (-1.0, 20.0)}
    case = _benchmark_picture(100, moved, craft=True)
    assert "S43" not in case.without.scan.sectors
    assert "S43" not in case.found.scan.sectors
    assert _carried_slots(case)[1] == []
    monkeypatch.setattr(tile_edges, "ACROSS_LEAST", 4)
    assert "S43" not in _benchmark_picture(100, moved, craft=True).found.scan.sectors
    monkeypatch.setattr(tile_edges, "ABSENT", -1.0)
    case = _benchmark_picture(100, moved, craft=True)
    assert "S43" in case.found.scan.sectors
    assert len(_carried_slots(case)[1]) == 3


def test_a_fingers_edge_along_a_side_does_not_place_a_moved_tile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finger over S39 hides its marker, claim and unit (issue 18's benchmark, picture 41,
    0.98 px/mm). Moved 20 mm across its own axes since the last scan, its prior puts one
    side across the move on bare face and the other along the finger's edge, light against
    the face at five positions (15 mm), which passed for the edge line: the tile was placed
    20 mm off and two empty strike-craft slots under the finger read white. Unless all four
    sides show, a side shows with its line at six positions or more
    (``tile_edges.ACROSS_LEAST``): not placed."""
    moved = {"S39": (-19.95, 1.36)}
    case = _benchmark_picture(41, moved, craft=True)
    assert "S39" not in case.without.scan.sectors
    assert "S39" not in case.found.scan.sectors
    assert _carried_slots(case)[1] == []
    monkeypatch.setattr(tile_edges, "ACROSS_LEAST", 4)
    # The lightness check (``slots.LIGHTNESS_FAR``) also leaves craft6 unknown, and so does
    # its colour, as near the finger's over the marker as the card's white
    # (``slots.HIDING_LEAST``, ``HIDING_LIKE``); craft5's white runs on past the slot
    # along the finger (``slots.GUARD_SHARE``).
    monkeypatch.setattr(slots, "LIGHTNESS_FAR", 100.0)
    monkeypatch.setattr(slots, "HIDING_LEAST", float("inf"))
    monkeypatch.setattr(slots, "GUARD_SHARE", float("inf"))
    case = _benchmark_picture(41, moved, craft=True)
    assert "S39" in case.found.scan.sectors
    assert _carried_slots(case)[1] == ["S39 craft5: white", "S39 craft6: white"]


def test_a_tokens_own_colour_blurred_into_its_ring_does_not_cover_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18's benchmark picture 40 (1.0 px/mm): blur spreads S15's yellow claim and
    S31's red one into the rings just outside them, 4 and 6 points beyond bare tile's
    limits, enough to call each slot covered, and both were unknown. Those points lie on
    the mix of the claim's own colour and the tile; a point counts as covering a slot only
    off every such mix (``HALO_OFF``): both read right. (The yellow claim's blurred edge lies
    off bare tile in hue more than in lightness, and beside a body as light as yellow a
    point off in hue alone does not cover it either: ``HUE_ONLY_BODY``.)"""
    case = _benchmark_picture(40, {}, craft=True)
    want = {"S15": "yellow", "S31": "red"}

    def claims(case: Case) -> dict[str, str]:
        return {
            sector: next(s for s in t.slots if s.slot == "claim").describe()
            for sector in want
            if (t := case.found.scan.tile(sector)) is not None
        }

    assert all(case.picture.tiles[s].slots["claim"].describe() == c for s, c in want.items())
    assert claims(case) == want
    monkeypatch.setattr(slots, "HALO_OFF", -1.0)
    assert claims(_benchmark_picture(40, {}, craft=True)) == {"S15": "yellow", "S31": "unknown"}
    monkeypatch.setattr(slots, "HUE_ONLY_BODY", float("inf"))
    assert claims(_benchmark_picture(40, {}, craft=True)) == dict.fromkeys(want, "unknown")
