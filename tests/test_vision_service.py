"""The camera and the table service: scan commands, report_scan, the camera attachment."""

from __future__ import annotations

import struct
import tracemalloc
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_pictures import render

from companion.local_cluster.board_scan import BoardScan, SlotReading, SlotState, TileReading
from companion.service import TableService
from companion.service.attachments import ConfigError
from vision.attachment import attach
from vision.errors import CameraUnavailable
from vision.local_cluster.synthetic import Conditions, sample_state
from vision.sources.picamera import PicameraSource


def _started(service: TableService) -> str:
    table_id, _ = service.create_table("camera", 2, seed=5)
    for seat in (1, 2):
        service.join(table_id, seat, f"P{seat}")
    setup = service.table(table_id).setup
    homes = list(setup.galaxy.ids)  # type: ignore[attr-defined]
    colours = iter(["red", "blue"])
    while (chooser := service.table(table_id).next_to_choose()) is not None:
        service.choose(table_id, chooser, {"colour": next(colours), "home": homes[chooser * 3]})
    return table_id


@pytest.fixture(scope="module")
def picture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pictures")
    path = folder / "board.png"
    cv2.imwrite(str(path), render(sample_state(3), Conditions(seed=4)).image)
    return path


def test_scan_prints_every_tile(run, picture: Path, tmp_path: Path) -> None:
    debug = tmp_path / "debug.png"
    done = run("scan", picture, "--debug", debug)
    assert done.code == 0, done.err
    assert done.out.startswith("48 tiles")
    assert cv2.imread(str(debug)) is not None


def test_scan_json_is_a_board_scan(run, picture: Path) -> None:
    import json

    done = run("scan", picture, "--json")
    assert len(BoardScan.from_dict(json.loads(done.out)).tiles) == 48


@pytest.mark.parametrize(
    ("content", "says"),
    [(b"", "is empty"), (b"hello, not a picture", "not an image")],
)
def test_scan_refuses_what_is_not_a_picture(run, tmp_path: Path, content: bytes, says: str) -> None:
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    done = run("scan", path)
    assert done.code == 2
    assert says in done.err


def test_scan_of_a_missing_file_says_so(run, tmp_path: Path) -> None:
    done = run("scan", tmp_path / "nothing.png")
    assert done.code == 2 and "no such file" in done.err


def test_scan_without_the_card_says_the_card_is_missing(run, tmp_path: Path) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((300, 400, 3), 120, np.uint8))
    done = run("scan", path)
    assert done.code == 2 and "calibration card" in done.err


def test_report_scan_publishes_and_shows_the_discrepancies(service: TableService) -> None:
    table_id = _started(service)
    state = service.table(table_id).session.state  # type: ignore[union-attr]
    sector = state.units[0].sector
    wrong = SlotReading("unit", SlotState.TOKEN, state.units[0].owner, state.units[0].kind, 1)
    scan = BoardScan(
        (TileReading(sector, 0, 0, 0, 0, (0.0, 0.0), 0.0, 1.0, (wrong,)),),
        (),
    )
    with service.subscribe(table_id) as events:
        service.report_scan(table_id, scan)
        kinds = [e.kind for e in events.drain()]
    assert kinds == ["scan"]
    shown = service.view(table_id)["scan"]
    assert shown["discrepancies"] == []
    assert sector not in shown["missing"] and len(shown["missing"]) == len(state.galaxy.ids) - 1


def test_a_screen_changing_its_view_does_not_change_the_kept_scan(
    service: TableService,
) -> None:
    table_id = _started(service)
    service.report_scan(table_id, BoardScan((), ()))
    shown = service.view(table_id)["scan"]
    shown["missing"].clear()
    shown["discrepancies"].append({"sector": "S1", "text": "made up"})
    again = service.view(table_id)["scan"]
    assert again["missing"] and again["discrepancies"] == []


def test_a_cosmic_cluster_table_reports_no_discrepancies(service: TableService) -> None:
    table_id, _ = service.create_table("Stars", 2, seed=3, game="cosmic-cluster")
    result = service.report_scan(table_id, BoardScan((), ()))
    assert result["discrepancies"] == [] and result["missing"] == []


def test_view_has_no_scan_before_the_camera_reports(service: TableService) -> None:
    table_id = _started(service)
    assert service.view(table_id)["scan"] is None


def test_the_simulated_camera_reports_the_table(service: TableService) -> None:
    table_id = _started(service)
    camera = attach(service, table_id, {"source": "simulated", "interval_seconds": 60, "frames": 1})
    try:
        assert camera.reported.wait(60)
    finally:
        camera.close()
    shown = service.view(table_id)["scan"]
    assert shown["missing"] == [] or len(shown["missing"]) < 4
    assert all(isinstance(d["text"], str) for d in shown["discrepancies"])


def test_a_camera_waiting_for_the_game_says_so_once(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, _ = service.create_table("Lobby", 2, seed=5)  # nobody has joined: no game yet
    with caplog.at_level("INFO", logger="vision"):
        camera = attach(
            service, table_id, {"source": "simulated", "interval_seconds": 60, "frames": 1}
        )
        try:
            assert not camera.scan_once() and not camera.scan_once()
        finally:
            camera.close()
    said = [r.getMessage() for r in caplog.records if "no game on the table" in r.getMessage()]
    assert said == ["camera: there is no game on the table yet"]


def test_a_simulated_slip_shows_as_a_discrepancy(service: TableService) -> None:
    table_id = _started(service)
    section = {"source": "simulated", "interval_seconds": 60, "frames": 1, "mistakes": 1.0}
    camera = attach(service, table_id, section)
    try:
        assert camera.reported.wait(60)
    finally:
        camera.close()
    texts = [d["text"] for d in service.view(table_id)["scan"]["discrepancies"]]
    assert any("expected" in t and "saw" in t for t in texts), texts


def test_the_folder_camera_reads_its_pictures(service: TableService, picture: Path) -> None:
    table_id = _started(service)
    camera = attach(
        service,
        table_id,
        {"source": "folder", "path": str(picture.parent), "frames": 2, "interval_seconds": 60},
    )
    try:
        assert camera.reported.wait(60)
    finally:
        camera.close()
    assert service.view(table_id)["scan"]["discrepancies"]  # a different game's picture
    camera.close()  # closing twice is fine


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ({"source": "telescope"}, "source"),
        ({"interval_seconds": 0}, "interval_seconds"),
        ({"frames": "three"}, "frames"),
        ({"source": "folder"}, "path"),
        ({"colour": 1}, "colour"),
        ({"mistakes": 2}, "mistakes"),
    ],
)
def test_a_bad_camera_section_names_the_key(service: TableService, section, key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        attach(service, "any", section)


def test_the_pi_camera_off_the_pi_says_how_to_get_it() -> None:
    with pytest.raises(CameraUnavailable, match="python3-picamera2"):
        PicameraSource()


def test_scan_refuses_a_picture_too_large(run, picture: Path, monkeypatch) -> None:
    import vision.sources

    monkeypatch.setattr(vision.sources, "MAX_PIXELS", 1000)
    done = run("scan", picture)
    assert done.code == 2 and "more than 1000 pixels" in done.err


def _png_header(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR chunk, then a few bytes of pixel data: decoding it would
    need width x height x 3 bytes."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    data = zlib.compress(b"\0" * 4096)
    idat = b"IDAT" + data
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + struct.pack(">I", len(data))
        + idat
        + struct.pack(">I", zlib.crc32(idat))
    )


@pytest.mark.parametrize("size", [(20000, 20000), (10000, 6000)])
def test_a_huge_picture_in_a_small_file_is_refused_from_its_header(size: tuple[int, int]) -> None:
    """Issue 18: a 20000 x 20000 PNG is refused before anything is decoded (decoding it took
    2.4 GB)."""
    from vision.sources import ImageError, decode_image

    tracemalloc.start()
    try:
        with pytest.raises(ImageError, match=r"more than \d+ pixels"):
            decode_image(_png_header(*size), "huge.png")
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * 1024 * 1024


def test_scan_names_the_expected_tiles_it_did_not_find(run, picture: Path) -> None:
    done = run("scan", picture, "--expect", "S1-S48")
    assert done.code == 0, done.err
    assert "not found" not in done.out
    done = run("scan", picture, "--expect", "S1-S50")
    assert done.code == 2 and "S49 has no tile in the kit" in done.err


def test_scan_against_a_record_lists_what_differs(run, tmp_path: Path) -> None:
    from companion.local_cluster.game import Game
    from companion.local_cluster.generation import random_setup
    from companion.local_cluster.record import GameRecord

    state = random_setup(11, 3)
    record = tmp_path / "game.json"
    record.write_text(GameRecord.of(Game(state, seed=11)).to_json())
    same = tmp_path / "same.png"
    cv2.imwrite(str(same), render(state, Conditions(seed=2)).image)
    done = run("scan", same, "--record", record)
    assert done.code == 0, done.err
    assert "differs" not in done.out and "not found" not in done.out
    other = tmp_path / "other.png"
    cv2.imwrite(str(other), render(sample_state(3), Conditions(seed=2)).image)
    done = run("scan", other, "--record", record)
    assert "differs: " in done.out and "a tile not in this game" in done.out
