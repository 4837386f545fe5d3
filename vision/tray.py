"""Read the die in the board's dice tray: rectify the tray, read it, map boxes back to the frame.

Reading only the tray (not the whole frame) keeps the board's printed holes and the tokens from
ever looking like pips, and gives the die reader a top view whatever the camera's tilt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.geometry import Board, Region
from vision.dice import DiceConfig, read_dice

TRAY_PX_PER_MM = 5.0


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


DEFAULT_DICE = DiceConfig()


def trays(board: Board) -> list[Region]:
    """The board's dice trays (regions whose name mentions a tray or dice)."""
    return [r for r in board.regions if "tray" in r.name.lower() or "dice" in r.name.lower()]


def read_tray_dice(
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    config: DiceConfig = DEFAULT_DICE,
    px_per_mm: float = TRAY_PX_PER_MM,
) -> list[TrayDie]:
    """Dice in every tray of `board`, with boxes in the frame's pixels. `homography`: px -> mm."""
    found: list[TrayDie] = []
    to_image = np.linalg.inv(homography)
    for tray in trays(board):
        w, h = int(tray.w * px_per_mm), int(tray.h * px_per_mm)
        # tray pixels -> board mm -> image pixels
        tray_to_mm = np.array(
            [[1 / px_per_mm, 0, tray.x], [0, 1 / px_per_mm, tray.y], [0, 0, 1]], float
        )
        warp = to_image @ tray_to_mm
        top = cv2.warpPerspective(
            image, warp, (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR
        )
        for die in read_dice(top, config):
            corners = np.array([[die.x, die.y], [die.x + die.w, die.y + die.h]], float).reshape(
                -1, 1, 2
            )
            (x0, y0), (x1, y1) = cv2.perspectiveTransform(corners, warp).reshape(-1, 2)
            found.append(
                TrayDie(
                    die.value,
                    int(min(x0, x1)),
                    int(min(y0, y1)),
                    int(abs(x1 - x0)),
                    int(abs(y1 - y0)),
                    die.confidence,
                    tray.name,
                    tray.owner,
                )
            )
    return found
