"""Globular Cluster's camera reader (G8.8): each tile's code, position and tick corner read from
its sticker, oriented by the MITS's (G2.1), on pictures the reader's own simulator draws; the
printable stickers; the reader found through the registration; a reading handed to the table
service, where the drawn tile seen placed becomes the acting seat's pending part."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import games
from companion.globular.bots import random_game
from companion.globular.game import GlobularGame
from companion.globular.geometry import MITS, Position
from companion.globular.notation import parse_line
from companion.globular.record import record_json
from companion.globular.scan import BoardScan, TileReading, compare
from companion.globular.settings import StackKeeper
from companion.globular.state import State
from companion.service import TableService
from tests.globular_helpers import P, figure_2, new_game, start_actions
from tests.test_service_globular import mirror, seated
from vision.globular.kit import CODES, MITS_ID, dictionary, write_kit
from vision.globular.reader import READER, ExpectationError
from vision.globular.synthetic import Conditions, render
from vision.photograph import camera
from vision.readers import Quality, Reading, kit_writer_for, reader_for

SIZE = (1280, 960)


def played() -> GlobularGame:
    game = new_game()
    figure_2(game)
    start_actions(game, "bl4", "m5 bl")
    return game


def read(state: State, *, seed: int = 1, mistakes: float = 0.0) -> Reading[BoardScan]:
    frame = READER.simulate(state, random.Random(seed), size=SIZE, mistakes=mistakes)
    return READER.read(frame, prior=state)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_g8_8_every_tile_is_read_with_its_code_position_and_tick(seed: int) -> None:
    state = played().state
    reading = read(state, seed=seed)
    assert reading.quality is Quality.GOOD
    assert {t.position: (t.code, t.corner) for t in reading.scan.tiles} == {
        p: (state.board[p].code, state.board[p].corner) for p in state.board
    }
    assert compare(state, reading.scan) == {"discrepancies": [], "missing": []}
    assert "pennies and pieces are not read: check them by eye" in reading.notes


def board_of(seed: int) -> State:
    """A board of some 30 tiles: four players' random game."""
    return random_game(new_game(4, seed=seed), random.Random(seed), max_turns=60).state


def tilted(frame: np.ndarray, rng: random.Random, tilt: float) -> np.ndarray:
    """The reader's flat picture as the renderers' camera (:func:`vision.photograph.camera`)
    sees it from as far above as the picture is wide, looking ``tilt`` degrees off straight
    down: the far rows smaller and converging."""
    height, width = frame.shape[:2]
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    view, _ = camera(
        corners,
        rng,
        size=(width, height),
        turn=rng.uniform(0, 360),
        tilt=tilt,
        tilt_direction=rng.uniform(0, 360),
        fill=0.9,
        distance=1.0,
        slack=(0.3, 0.7),
    )
    return cv2.warpPerspective(
        frame, view, (width, height), flags=cv2.INTER_AREA, borderValue=(235, 235, 235)
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_g8_8_a_camera_tilted_30_degrees_reads_every_position_and_tick(seed: int) -> None:
    """Placed by the MITS's axes and the stickers' size alone, a board seen 30 degrees off
    straight down read tiles five rows away between positions or on the wrong one (of 191
    tiles in six pictures, 110 between, 7 wrong and 3 where none lies)."""
    state = board_of(seed)
    rng = random.Random(seed)
    frame = tilted(READER.simulate(state, rng, size=(1920, 1080), mistakes=0.0), rng, 30.0)
    reading = READER.read(frame, prior=state)
    assert {t.position: (t.code, t.corner) for t in reading.scan.tiles} == {
        p: (state.board[p].code, state.board[p].corner) for p in state.board
    }
    assert not [n for n in reading.notes if "between positions" in n]


def mits_under_a_hand(frame: np.ndarray) -> np.ndarray:
    """The picture with the MITS's sticker covered by a skin-coloured patch."""
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary()).detectMarkers(
        cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    )
    (quad,) = [
        np.asarray(c).reshape(4, 2)
        for c, i in zip(corners, ids.ravel(), strict=True)
        if i == MITS_ID
    ]
    low, high = quad.min(axis=0).astype(int) - 10, quad.max(axis=0).astype(int) + 10
    covered = frame.copy()
    covered[low[1] : high[1], low[0] : high[0]] = (96, 124, 176)
    return covered


def test_g8_8_with_the_mits_under_a_hand_the_board_is_placed_by_its_tiles() -> None:
    """The MITS's sticker orients the board (G2.1); under a hand, the tracked game says where
    its tiles lie, and the stickers seen where it has them place the board (a note says so)."""
    state = board_of(1)
    rng = random.Random(1)
    flat = mits_under_a_hand(READER.simulate(state, rng, size=(1920, 1080), mistakes=0.0))
    reading = READER.read(tilted(flat, rng, 20.0), prior=state)
    assert reading.quality is not Quality.UNUSABLE
    assert any("the board is placed by the" in note for note in reading.notes)
    assert {t.position: (t.code, t.corner) for t in reading.scan.tiles} == {
        p: (state.board[p].code, state.board[p].corner) for p in state.board if p != MITS
    }
    assert compare(state, reading.scan)["discrepancies"] == []
    assert READER.read(tilted(flat, rng, 20.0)).quality is Quality.UNUSABLE  # no game: no board


def test_g8_8_a_tile_moved_while_the_mits_is_hidden_is_a_difference() -> None:
    """The board is placed by the tiles that lie where the game has them, so the one a player
    moved is seen where it now lies, a difference, not fitted back to its place."""
    state = board_of(2)
    codes = [state.board[p].code for p in state.board]
    position = max(
        (p for p in state.board if codes.count(state.board[p].code) == 1),
        key=lambda p: abs(p.r) + abs(p.q),
    )
    empty = next(
        Position(position.r + dr, position.q + dq)
        for dr, dq in ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
        if Position(position.r + dr, position.q + dq) not in state.board
    )
    moved = state.copy()
    moved.board.cells[empty] = moved.board.cells.pop(position)
    rng = random.Random(2)
    flat = mits_under_a_hand(READER.simulate(moved, rng, size=(1920, 1080), mistakes=0.0))
    reading = READER.read(tilted(flat, rng, 20.0), prior=state)
    seen = {t.position: t.code for t in reading.scan.tiles}
    assert seen[empty] == state.board[position].code and position not in seen
    report = compare(state, reading.scan)
    assert [d["sector"] for d in report["discrepancies"]] == [empty.name()]
    assert position.name() in report["missing"]


def test_g8_8_a_tile_pushed_off_its_position_is_not_read_under_a_tilted_camera() -> None:
    """The sticker farthest from the MITS (of a code the board has once) moved 0.4 of a tile
    toward the next row: its tile lies between positions, and the map of the rows the other
    stickers fix is not pulled after it."""
    state = board_of(1)
    rng = random.Random(1)
    flat = READER.simulate(state, rng, size=(1920, 1080), mistakes=0.0)
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary()).detectMarkers(
        cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)
    )
    quads = {int(i): np.asarray(c).reshape(4, 2) for c, i in zip(corners, ids.ravel(), strict=True)}
    mits = quads[MITS_ID].mean(axis=0)
    codes = [state.board[p].code for p in state.board]
    once = [i for i in quads if i != MITS_ID and codes.count(CODES[i]) == 1]
    number = max(once, key=lambda i: float(np.linalg.norm(quads[i].mean(axis=0) - mits)))
    low, high = quads[number].min(axis=0).astype(int) - 6, quads[number].max(axis=0).astype(int) + 6
    side = float(np.ptp(quads[number][:, 0]))
    shift = round(0.4 * side / 20.0 * 50.8)  # 0.4 of a tile: a sticker is 20 mm, a tile 50.8
    sticker = flat[low[1] : high[1], low[0] : high[0]].copy()
    flat[low[1] : high[1], low[0] : high[0]] = 200
    flat[low[1] + shift : high[1] + shift, low[0] : high[0]] = sticker
    reading = READER.read(tilted(flat, rng, 30.0), prior=state)
    code = CODES[number]
    assert f"the {code} sticker lies between positions: straighten its tile" in reading.notes
    moved = next(p for p in state.board if state.board[p].code == code)
    assert {t.position: (t.code, t.corner) for t in reading.scan.tiles} == {
        p: (state.board[p].code, state.board[p].corner) for p in state.board if p != moved
    }


def test_g8_8_a_photographed_board_reads_no_tile_wrong() -> None:
    """Boards drawn by the benchmark's renderer under random conditions (tilt, lamps, hands,
    glare, pennies and pieces, mats and a patterned cloth, noise, JPEG): what is read is right,
    and a sticker in plain view is read."""
    rng = random.Random(3)
    in_view = right = 0
    for _ in range(3):
        state = board_of(rng.randrange(100))
        picture = render(state, Conditions.random(rng))
        reading = READER.read(picture.image, prior=state)
        for tile in reading.scan.tiles:
            truth = picture.tiles[tile.position]
            assert tile.code in (None, truth.code) and tile.corner in (None, truth.corner)
        read = {t.position for t in reading.scan.tiles if t.code is not None}
        in_view += sum(t.sticker_visible for t in picture.tiles.values())
        right += sum(t.sticker_visible and p in read for p, t in picture.tiles.items())
    assert right >= 0.8 * in_view > 0


def test_g8_8_a_tile_turned_a_quarter_too_far_is_a_difference_never_applied() -> None:
    game = played()
    before = game.state.digest()
    reading = read(game.state, mistakes=1.0)
    messages = [d["message"] for d in compare(game.state, reading.scan)["discrepancies"]]
    assert len(messages) == 1 and "the tick is in the" in messages[0]
    assert game.state.digest() == before


def test_g8_8_without_the_mits_the_board_cannot_be_oriented() -> None:
    blank = np.full((480, 640, 3), 255, np.uint8)
    reading = READER.read(blank)
    assert reading.quality is Quality.UNUSABLE
    assert reading.notes == (
        "the MITS's sticker is not in the picture: it orients the board (G2.1)",
    )
    assert reading.scan.tiles == ()


def test_settled_frames_count_a_reading_only_when_most_agree() -> None:
    from companion.globular.tiles import Corner

    k7, l6 = P("k7"), P("l6")

    def frame(corner: Corner | None, code: str) -> Reading[BoardScan]:
        return Reading(BoardScan((TileReading(k7, "bka", corner), TileReading(l6, code))))

    frames = [frame(Corner.TR, "bka"), frame(Corner.TR, "bl2"), frame(Corner.BL, "gr3")]
    combined = READER.combine(frames)
    assert combined.scan.tiles == (TileReading(k7, "bka", Corner.TR),)  # l6: no majority


def test_the_printed_stickers_are_every_code_twice_and_the_mits_once(tmp_path: Path) -> None:
    (sheet,) = write_kit(tmp_path)
    image = cv2.imread(str(sheet))
    detector = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    counts = {int(n): list(ids.flatten()).count(n) for n in set(ids.flatten())}
    assert counts == {n: 1 if n == MITS_ID else 2 for n in CODES}
    assert image.shape[:2] == (3508, 2480)  # A4 at 300 dpi


def test_the_registration_names_the_reader_and_the_kit() -> None:
    game = games.get("globular-cluster")
    assert reader_for(game) is READER
    assert kit_writer_for(game) is write_kit


def test_an_expectation_is_the_games_record() -> None:
    game = random_game(new_game(stack=StackKeeper.COMPANION), random.Random(4), max_turns=6)
    state = READER.expectation(record=record_json(game).encode())
    assert state is not None and state.digest() == game.state.digest()
    assert READER.expectation() is None
    with pytest.raises(ExpectationError, match=r"--record GAME\.json"):
        READER.expectation(text="k7 bka")


def test_describe_and_json_say_what_was_read_and_what_differs() -> None:
    state = played().state
    reading = read(state, mistakes=1.0)
    lines = READER.describe(reading, prior=state)
    assert lines[0] == f"{len(state.board)} tiles read"
    assert sum(line.startswith("differs: ") for line in lines) == 1
    data = READER.to_json(reading)
    assert set(BoardScan.from_dict(data["tiles"]).tiles) == set(reading.scan.tiles)
    assert data["quality"] == "good"
    annotated = READER.annotate(np.zeros((960, 1280, 3), np.uint8), reading)
    assert annotated.any()


def test_g8_8_the_camera_seeing_the_drawn_tile_placed_enters_it_for_the_seat(
    service: TableService,
) -> None:
    table_id = seated(service)  # seat 1 drew gr2; k5 takes it with the tick bottom-right
    game = mirror(service, table_id)
    after = game.preview([parse_line("place k5 br")]).state
    reading = read(after)
    result = service.report_scan(table_id, reading.scan)
    assert (result["moves"], result["entered"]) == (["place k5 br"], "place k5 br")
    assert result["discrepancies"] == [
        {"sector": "k5", "message": "k5: the camera sees gr2 where the record has no tile"}
    ]
