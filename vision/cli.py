"""``companion scan`` and ``companion print-kit``, added through the ``companion.commands``
entry point. Each game's reader and kit are found through its registration
(:mod:`vision.readers`); OpenCV is imported inside the handlers so ``companion --help`` stays
fast.

``companion scan`` exits with 0 when the picture was read, 1 when it was read but is not good
enough to rely on (too small, too blurred, no tiles: the notes say why) and 2 on an error (not
a picture, no calibration card, a bad option).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion import games
from companion.cli import CommandError, Subcommands

EXIT_UNUSABLE = 1


def _game_names() -> str:
    return ", ".join(games.names())


def register(commands: Subcommands) -> None:
    scan = commands.add_parser(
        "scan",
        help="Read a picture of the table (board scan).",
        description="Read a picture of the table with the game's camera reader. Exit status 0: "
        "read; 1: read, but the picture is not good enough (the notes say why); 2: an error.",
    )
    scan.add_argument("image", type=Path, help="a photo of the table with the calibration card")
    scan.add_argument("--game", help="the game on the table (default: the flagship game)")
    scan.add_argument("--json", action="store_true", help="print the scan as JSON")
    scan.add_argument("--debug", type=Path, metavar="OUT.png", help="write an annotated copy")
    # What every reader understands (vision.readers.CameraReader.expectation):
    scan.add_argument(
        "--expect",
        metavar="TEXT",
        help="what the picture should show, in the game's own words (e.g. its tiles' ids: "
        "S1-S12,S20); a missing piece is then looked for harder and named",
    )
    scan.add_argument(
        "--record",
        type=Path,
        metavar="GAME.json",
        help="the game's record: what its last position shows is expected (and where it "
        "lays its pieces: one whose marker is hidden may be named by its place), and what "
        "differs is listed",
    )
    scan.add_argument(
        "--score",
        action="store_true",
        help="also print the score of the table in the picture (a game whose reader scores it)",
    )
    scan.set_defaults(handler=_scan)
    kit = commands.add_parser("print-kit", help="Write a game's printable camera kit (PNG, PDF).")
    kit.add_argument("outdir", type=Path, help="folder to write the sheets into")
    kit.add_argument("--game", help="the game whose kit to print (default: the flagship game)")
    kit.set_defaults(handler=_print_kit)


def _game(name: str | None) -> games.Game:
    return games.default() if name is None else games.get(name)


def _read_record(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise CommandError(f"{path}: {err.strerror or err}") from None


def _scan(args: argparse.Namespace) -> int:
    import cv2

    from vision.errors import VisionError
    from vision.readers import reader_for
    from vision.sources import read_image_file

    reader = reader_for(_game(args.game))
    record = None if args.record is None else _read_record(args.record)
    prior = reader.expectation(text=args.expect, record=record)
    try:
        image = read_image_file(args.image)
        reading = reader.read(image, prior=prior)
    except VisionError as err:
        raise CommandError(str(err)) from None
    if args.debug is not None:
        _ok, data = cv2.imencode(".png", reader.annotate(image, reading))
        try:
            args.debug.write_bytes(data.tobytes())
        except OSError as err:
            raise CommandError(f"{args.debug}: {err.strerror or err}") from None
    if args.json:
        print(json.dumps(reader.to_json(reading), indent=2))
    else:
        for line in reader.describe(reading, prior=prior):
            print(line)
    if args.score:
        score = getattr(reader, "score_lines", None)
        if score is None:
            raise CommandError(f"{_game(args.game).title}'s camera reader cannot score a picture")
        print()
        for line in score(reading, prior=prior):
            print(line)
    return 0 if reading.usable else EXIT_UNUSABLE


def _print_kit(args: argparse.Namespace) -> int:
    from vision.readers import kit_writer_for

    write = kit_writer_for(_game(args.game))
    try:
        written = write(args.outdir)
    except OSError as err:
        raise CommandError(f"{args.outdir}: {err.strerror or err}") from None
    for path in written:
        print(path)
    return 0
