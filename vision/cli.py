"""``companion scan`` and ``companion print-kit``, added through the ``companion.commands``
entry point. OpenCV is imported inside the handlers so ``companion --help`` stays fast."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.cli import CommandError, Subcommands


def register(commands: Subcommands) -> None:
    scan = commands.add_parser("scan", help="Read a picture of the table (board scan).")
    scan.add_argument("image", type=Path, help="a photo of the table with the calibration card")
    scan.add_argument("--json", action="store_true", help="print the scan as JSON")
    scan.add_argument("--debug", type=Path, metavar="OUT.png", help="write an annotated copy")
    scan.set_defaults(handler=_scan)
    kit = commands.add_parser("print-kit", help="Write printable kit sheets (PNG and PDF).")
    kit.add_argument("outdir", type=Path, help="folder to write the sheets into")
    kit.set_defaults(handler=_print_kit)


def _scan(args: argparse.Namespace) -> int:
    import cv2

    from vision.errors import VisionError
    from vision.local_cluster.debug import annotate
    from vision.local_cluster.recognize import recognize
    from vision.sources import read_image_file

    try:
        image = read_image_file(args.image)
        found = recognize(image)
    except VisionError as err:
        raise CommandError(str(err)) from None
    scan = found.scan
    if args.debug is not None:
        _ok, data = cv2.imencode(".png", annotate(image, found))
        try:
            args.debug.write_bytes(data.tobytes())
        except OSError as err:
            raise CommandError(f"{args.debug}: {err.strerror or err}") from None
    if args.json:
        print(json.dumps(scan.to_dict(), indent=2))
        return 0
    print(f"{len(scan.tiles)} tiles, {len(scan.adjacency)} shared edges")
    for tile in scan.tiles:
        parts: list[Any] = []
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
        print(f"  {tile.sector}: " + ", ".join(str(p) for p in parts))
    for note in scan.notes:
        print(f"note: {note}")
    return 0


def _print_kit(args: argparse.Namespace) -> int:
    from vision.local_cluster.sheets import write_kit

    try:
        written = write_kit(args.outdir)
    except OSError as err:
        raise CommandError(f"{args.outdir}: {err.strerror or err}") from None
    for path in written:
        print(path)
    return 0
