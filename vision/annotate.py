"""Draw what the reader saw onto the camera frame, for the web page's camera view.

The board outline, every space's reading (a ring: grey empty, coloured token, magenta unsure)
and the dice boxes with their values. Pure drawing: the frame passed in is not modified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE, UNKNOWN

UNSURE_BGR = (255, 0, 255)
EMPTY_BGR = (160, 160, 160)


def _to_image(homography: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    """Board mm -> image px, through the inverse of the image -> board homography."""
    inverse = np.linalg.inv(homography)
    pts = points_mm.reshape(-1, 1, 2).astype(np.float64)
    return cv2.perspectiveTransform(pts, inverse).reshape(-1, 2)


def annotate(image: np.ndarray, board: Board, obs: Any, dice: Sequence[Any] = ()) -> np.ndarray:
    """A copy of `image` with the observation drawn on it."""
    out = image.copy()
    h = getattr(obs, "homography", None)
    if h is not None:
        corners = np.array(
            [(0, 0), (board.width, 0), (board.width, board.height), (0, board.height)], float
        )
        outline = _to_image(h, corners).astype(np.int32)
        cv2.polylines(out, [outline], True, (0, 220, 255), 2, cv2.LINE_AA)
        centres = np.array([(s.x, s.y) for s in board.spaces], float)
        pixels = _to_image(h, centres)
        readings = getattr(obs, "spaces", {}) or {}
        scale = max(4, int(np.linalg.norm(pixels[0] - _to_image(h, centres[:1] + [5, 0])[0])))
        for space, (x, y) in zip(board.spaces, pixels, strict=True):
            colour, _confidence = readings.get(space.id, (None, 0.0))
            centre = (int(round(x)), int(round(y)))
            if colour is None:
                cv2.circle(out, centre, scale, EMPTY_BGR, 1, cv2.LINE_AA)
            elif colour == UNKNOWN:  # circled boldly: the space the referee waits on
                cv2.circle(out, centre, scale * 2 + 2, UNSURE_BGR, 3, cv2.LINE_AA)
            else:
                r, g, b = PALETTE[colour].rgb if colour in PALETTE else (255, 255, 255)
                cv2.circle(out, centre, scale + 2, (b, g, r), 2, cv2.LINE_AA)
                letter = PALETTE[colour].letter if colour in PALETTE else "?"
                cv2.putText(
                    out,
                    letter,
                    (centre[0] - 4, centre[1] + 4),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.4,
                    (255, 255, 255),
                    1,
                    cv2.LINE_AA,
                )
    for die in dice:
        x, y, w, hh = int(die.x), int(die.y), int(die.w), int(die.h)
        cv2.rectangle(out, (x, y), (x + w, y + hh), (0, 255, 0), 2)
        cv2.putText(
            out,
            str(die.value),
            (x, max(12, y - 4)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.7,
            (0, 255, 0),
            2,
            cv2.LINE_AA,
        )
    if getattr(obs, "hand", False):
        cv2.putText(
            out,
            "hand over the board",
            (12, 28),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8,
            (0, 165, 255),
            2,
            cv2.LINE_AA,
        )
    return out
