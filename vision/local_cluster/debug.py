"""The ``--debug`` picture: tile outlines, sector ids, each slot's reading and confidence."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from companion.local_cluster.board_scan import SlotState
from vision.local_cluster.kit import Kit, load_kit
from vision.local_cluster.recognize import Recognition

Image = npt.NDArray[np.uint8]


def _project(
    h: npt.NDArray[np.float64], points: list[tuple[float, float]]
) -> npt.NDArray[np.int32]:
    pts = cv2.perspectiveTransform(np.array(points, np.float64).reshape(-1, 1, 2), h)
    out: npt.NDArray[np.int32] = np.round(pts).astype(np.int32)
    return out


def annotate(image: Image, found: Recognition, kit: Kit | None = None) -> Image:
    kit = kit or load_kit()
    out = image.copy()
    half = kit.tile_side / 2
    scale = max(0.4, image.shape[1] / 2400)
    for tile in found.tiles:
        square = [(-half, -half), (half, -half), (half, half), (-half, half)]
        cv2.polylines(out, [_project(tile.to_image, square)], True, (0, 255, 255), 2, cv2.LINE_AA)
        centre = _project(tile.to_image, [(0.0, 0.0)])[0, 0]
        cv2.putText(
            out,
            tile.sector,
            (int(centre[0]) - 20, int(centre[1]) + 8),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale * 1.2,
            (0, 255, 255),
            2,
            cv2.LINE_AA,
        )
        specs = {s.name: s for s in kit.variants[tile.reading.variant]}
        for reading in tile.reading.slots:
            spec = specs[reading.slot]
            colour = (0, 0, 255) if reading.state is SlotState.UNKNOWN else (0, 220, 0)
            cv2.polylines(
                out, [_project(tile.to_image, spec.outline())], True, colour, 1, cv2.LINE_AA
            )
            if reading.state is SlotState.EMPTY:
                continue
            at = _project(tile.to_image, [spec.centre])[0, 0]
            text = reading.describe().replace("unknown", "?")
            label = (
                f"{text} {reading.confidence:.2f}"
                if reading.slot in ("claim", "unit")
                else text[:1]
            )
            cv2.putText(
                out,
                label,
                (int(at[0]) - 10, int(at[1])),
                cv2.FONT_HERSHEY_SIMPLEX,
                scale * 0.5,
                colour,
                1,
                cv2.LINE_AA,
            )
    return out
