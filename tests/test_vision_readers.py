"""Camera readers found through the game registry: the shared interface (vision.readers), the
camera attachment following its table's game, and ``companion scan`` / ``print-kit --game``."""

from __future__ import annotations

import dataclasses
import random
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion import games
from companion.local_cluster.board_scan import BoardScan
from companion.service import TableService
from vision.attachment import attach
from vision.errors import VisionError
from vision.local_cluster.reader import READER, ExpectationError, Expected
from vision.local_cluster.synthetic import draw_card
from vision.readers import (
    CameraReader,
    Image,
    NoReader,
    Quality,
    Reading,
    kit_writer_for,
    reader_for,
    worst,
)


def _started(service: TableService) -> str:
    table_id, _ = service.create_table("camera", 2, seed=5)
    for seat in (1, 2):
        service.join(table_id, seat, f"P{seat}")
    homes = list(service.table(table_id).setup.galaxy.ids)  # type: ignore[attr-defined]
    colours = iter(["red", "blue"])
    while (chooser := service.table(table_id).next_to_choose()) is not None:
        service.choose(table_id, chooser, {"colour": next(colours), "home": homes[chooser * 3]})
    return table_id


class RecordingReader:
    """A camera reader that records what it was asked: frames narrower than ``sharp`` pixels
    read as COARSE."""

    def __init__(self, sharp: int = 3000) -> None:
        self.sharp = sharp
        self.priors: list[object] = []
        self.frames: list[tuple[int, int]] = []

    def prior(self, session: object) -> object:
        return ("prior of", type(session).__name__)

    def read(self, frame: Image, *, prior: object = None) -> Reading[BoardScan]:
        self.priors.append(prior)
        self.frames.append((frame.shape[1], frame.shape[0]))
        coarse = frame.shape[1] < self.sharp
        return Reading(
            BoardScan((), ()),
            Quality.COARSE if coarse else Quality.GOOD,
            ("coarse",) if coarse else (),
            0.7 if coarse else 1.6,
        )

    def combine(
        self, readings: Sequence[Reading[BoardScan]], *, prior: object = None
    ) -> Reading[BoardScan]:
        return Reading(readings[0].scan, worst([r.quality for r in readings]))

    def describe(self, reading: Reading[BoardScan], *, prior: object = None) -> list[str]:
        return ["recorded"]

    def to_json(self, reading: Reading[BoardScan]) -> dict[str, Any]:
        return {}

    def annotate(self, frame: Image, reading: Reading[BoardScan]) -> Image:
        return frame

    def expectation(self, *, text: str | None = None, record: bytes | None = None) -> object:
        return text

    def simulate(
        self, prior: object, rng: random.Random, *, size: tuple[int, int], mistakes: float
    ) -> Image:
        width, height = size
        return np.full((height, width, 3), 90, np.uint8)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingReader]:
    """Local Cluster registered with the recording reader as its camera, for one test."""
    reader = RecordingReader()
    module = types.ModuleType("recording_reader")
    module.READER = reader  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "recording_reader", module)
    original = games.get("local-cluster")
    games.register(dataclasses.replace(original, camera="recording_reader:READER"))
    try:
        yield reader
    finally:
        games.register(original)


def test_local_cluster_registers_a_camera_reader_and_a_kit() -> None:
    game = games.get("local-cluster")
    assert reader_for(game) is READER
    assert isinstance(READER, CameraReader)
    assert callable(kit_writer_for(game))


def test_a_game_without_a_camera_reader_says_so() -> None:
    game = games.get("cosmic-cluster")
    with pytest.raises(NoReader, match="Cosmic Cluster has no camera reader"):
        reader_for(game)
    with pytest.raises(NoReader, match="no printable camera kit"):
        kit_writer_for(game)


def test_the_camera_uses_the_reader_of_its_tables_game(
    service: TableService, recording: RecordingReader
) -> None:
    table_id = _started(service)
    camera = attach(service, table_id, {"source": "simulated", "interval_seconds": 60, "frames": 2})
    try:
        assert camera.reported.wait(60)
    finally:
        camera.close()
    assert recording.priors[0] == ("prior of", "LocalClusterSession")
    assert service.view(table_id)["scan"] is not None


def test_a_coarse_frame_makes_the_camera_take_a_full_resolution_still(
    service: TableService, recording: RecordingReader
) -> None:
    table_id = _started(service)
    camera = attach(service, table_id, {"source": "simulated", "interval_seconds": 60, "frames": 1})
    try:
        assert camera.reported.wait(60)
    finally:
        camera.close()
    assert recording.frames == [(1920, 1080), (4608, 2592)]
    assert camera.still_scans == 1
    assert camera.last is not None and camera.last.quality is Quality.GOOD


def test_stills_can_be_turned_off(service: TableService, recording: RecordingReader) -> None:
    table_id = _started(service)
    section = {"source": "simulated", "interval_seconds": 60, "frames": 1, "stills": False}
    camera = attach(service, table_id, section)
    try:
        assert camera.reported.wait(60)
    finally:
        camera.close()
    assert recording.frames == [(1920, 1080)]
    assert camera.last is not None and camera.last.quality is Quality.COARSE


def test_a_camera_at_a_table_whose_game_has_no_reader_says_so_once_and_idles(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, _ = service.create_table("Stars", 2, seed=3, game="cosmic-cluster")
    with caplog.at_level("INFO", logger="vision"):
        camera = attach(service, table_id, {"source": "simulated", "interval_seconds": 0.05})
        try:
            assert camera.idle and camera.source is None
            assert not camera.scan_once() and not camera.scan_once()
        finally:
            camera.close()
    said = [r.getMessage() for r in caplog.records if "no camera reader" in r.getMessage()]
    assert said == ["camera: Cosmic Cluster has no camera reader; the camera idles at this table"]
    assert service.view(table_id)["scan"] is None


def test_scan_and_print_kit_for_a_game_without_a_reader_say_so(run, tmp_path: Path) -> None:
    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), np.full((90, 160, 3), 100, np.uint8))
    done = run("scan", "--game", "cosmic-cluster", picture)
    assert done.code == 2 and "Cosmic Cluster has no camera reader" in done.err
    done = run("print-kit", "--game", "cosmic-cluster", tmp_path / "kit")
    assert done.code == 2 and "no printable camera kit" in done.err
    assert not (tmp_path / "kit").exists()


def test_scan_of_an_unknown_game_lists_the_games(run, tmp_path: Path) -> None:
    done = run("scan", "--game", "chess", tmp_path / "x.png")
    assert done.code == 2 and "local-cluster" in done.err


def test_a_picture_of_only_the_calibration_card_is_reported_unusable(run, tmp_path: Path) -> None:
    table = np.full((1080, 1920, 3), (78, 112, 150), np.uint8)
    card = draw_card(READER_KIT(), 2.0)
    table[200 : 200 + card.shape[0], 300 : 300 + card.shape[1]] = card
    picture = tmp_path / "card.png"
    cv2.imwrite(str(picture), table)
    done = run("scan", picture)
    assert done.code == 1, done.err
    assert "no tile markers in the picture" in done.out


def READER_KIT() -> Any:
    from vision.local_cluster.kit import load_kit

    return load_kit()


@pytest.mark.parametrize(
    ("text", "sectors"),
    [("S1-S3,S20", ("S1", "S2", "S3", "S20")), ("s5 7", ("S5", "S7")), ("S48", ("S48",))],
)
def test_expected_sectors_are_read_from_ids_and_ranges(text: str, sectors: tuple[str, ...]) -> None:
    assert Expected.parse(text).sectors == sectors


@pytest.mark.parametrize(
    ("text", "says"),
    [("", "at least one"), ("S3-S1", "backwards"), ("S49", "no tile"), ("north", "not a sector")],
)
def test_bad_expected_sectors_say_why(text: str, says: str) -> None:
    with pytest.raises(ExpectationError, match=says):
        Expected.parse(text)


def test_vision_errors_are_companion_errors() -> None:
    from companion.errors import CompanionError

    assert issubclass(VisionError, CompanionError)
    assert issubclass(NoReader, LookupError)
