"""Read the die in the board's dice tray: rectify the tray, read it, map boxes back to the frame.

Reading only around the tray (not the whole frame) keeps most of the board's printed holes and
the tokens out of the die reader's view, gives it a top view whatever the camera's tilt, and says
whose die it is when a board has one tray per player (Manipulation).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.geometry import Board, Region
from vision.dice import DiceConfig, read_dice

WORK_LONG_SIDE = 640  # px: the real-photo scale the die reader is tuned on
# Below this many frame pixels per board millimetre a 16 mm die spans fewer than ~32 px and
# its pips blur together: the reader is not trusted there (the roll button always works).
MIN_PX_PER_MM = 2.0


@dataclass(frozen=True)
class TrayDie:
    """A die read in a tray: its value, its box in the frame, and whose tray it lies in."""

    value: int
    x: int
    y: int
    w: int
    h: int
    confidence: float
    tray: str
    owner: int | None  # the seat the tray belongs to (Manipulation: one tray per player)


DEFAULT_DICE = DiceConfig(nadir=(0.5, 0.5))  # the camera looks straight down at the tray


def trays(board: Board) -> list[Region]:
    """The board's dice trays (regions whose name mentions a tray or dice)."""
    return [r for r in board.regions if "tray" in r.name.lower() or "dice" in r.name.lower()]


def native_px_per_mm(to_image: np.ndarray, x: float, y: float) -> float:
    """How many frame pixels one board millimetre spans around (x, y) (board mm -> px map)."""
    pts = np.array([[[x, y]], [[x + 1.0, y]], [[x, y + 1.0]]], float)
    p = cv2.perspectiveTransform(pts, to_image).reshape(-1, 2)
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def tray_view(tray: Region, long_side_px: int = WORK_LONG_SIDE) -> tuple[np.ndarray, int, int]:
    """(tray-view px -> board mm matrix, width, height) of a 4:3 window centred on the tray.

    The die reader works best on photo-like frames, so the tray's long side spans
    `long_side_px` and the short side is padded out to a 4:3 window (the extra is board or
    table; only dice centred inside the tray are kept).
    """
    landscape = tray.w >= tray.h
    long_mm = max(tray.w, tray.h)
    ppm = long_side_px / long_mm
    w_mm, h_mm = (long_mm, long_mm * 0.75) if landscape else (long_mm * 0.75, long_mm)
    x0 = tray.x + tray.w / 2 - w_mm / 2
    y0 = tray.y + tray.h / 2 - h_mm / 2
    to_mm = np.array([[1 / ppm, 0, x0], [0, 1 / ppm, y0], [0, 0, 1]], float)
    return to_mm, int(round(w_mm * ppm)), int(round(h_mm * ppm))


def read_tray_dice(
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    config: DiceConfig = DEFAULT_DICE,
) -> list[TrayDie]:
    """Dice in every tray of `board`, with boxes in the frame's pixels. `homography`: px -> mm.

    Only dice whose centre lies inside the tray count: a die elsewhere is not a throw.
    """
    found: list[TrayDie] = []
    to_image = np.linalg.inv(homography)
    for tray in trays(board):
        # At the frame's own resolution (never upsampled: a smoothed die looks blurred to
        # the reader), capped at the scale the reader was tuned on.
        native = native_px_per_mm(to_image, tray.x + tray.w / 2, tray.y + tray.h / 2)
        if native < MIN_PX_PER_MM:
            continue
        long_px = min(WORK_LONG_SIDE, int(max(tray.w, tray.h) * native))
        to_mm, w, h = tray_view(tray, long_px)
        warp = to_image @ to_mm  # tray-view px -> image px
        top = cv2.warpPerspective(
            image, warp, (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_NEAREST,
            borderMode=cv2.BORDER_REPLICATE,
        )  # fmt: skip
        for die in read_dice(top, config):
            cx, cy, _ = to_mm @ np.array([die.x + die.w / 2, die.y + die.h / 2, 1.0])
            if not (tray.x <= cx <= tray.x + tray.w and tray.y <= cy <= tray.y + tray.h):
                continue
            x, y, dw, dh = die.x, die.y, die.w, die.h
            corners = np.array([[x, y], [x + dw, y], [x + dw, y + dh], [x, y + dh]], float)
            box = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), warp).reshape(-1, 2)
            (x0, y0), (x1, y1) = box.min(0), box.max(0)
            found.append(
                TrayDie(
                    die.value,
                    int(x0),
                    int(y0),
                    int(x1 - x0),
                    int(y1 - y0),
                    die.confidence,
                    tray.name,
                    tray.owner,
                )
            )
    return found
