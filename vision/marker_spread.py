"""Fit the board to its markers' corners where every marker is seen a little smaller (or
larger) than printed.

A black square on white paper does not keep its printed edge in a photo: a bright exposure
and a soft focus let the white bleed into the black (the square looks smaller), a dark one
and ink spread the other way. ArUco finds each marker's corners on that seen edge, so every
marker's corners lie the same distance inside (or outside) their printed places, along the
marker's diagonals. A plane fitted through them as printed misses them by that distance at
every corner: on the twin's photo-like frames 0.5 to 1.4 mm, enough to turn away a board with
one marker hidden, where the same fit with the spread taken out misses them by 0.1 to 0.2 mm.

The spread is one number for the photo (the same exposure and focus on every marker), found
by refitting: the corners' mean miss along their diagonals is the spread. It is bounded: a
miss much larger than bleeding explains is a bent or lifted sheet, and stays a miss.
"""

from __future__ import annotations

import cv2
import numpy as np

ROUNDS = 3  # refits: each takes out most of the spread left (it converges in two)
MAX_SPREAD_SHARE = 0.08  # of a marker's side: the most a photo's bleeding may move its edge


def spread_fit(img_pts: np.ndarray, mm_pts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(image px -> board mm homography, (M, 2) the corners' board mm as seen) fitted to
    whole markers' corners (`img_pts`, and `mm_pts` as printed, four per marker in order)
    with one spread shared by every marker taken out; None where no fit is found or the
    spread is larger than a photo's bleeding explains."""
    squares = mm_pts.reshape(-1, 4, 2)
    out = (squares - squares.mean(1, keepdims=True)).reshape(-1, 2)
    reach = np.linalg.norm(out, axis=1, keepdims=True)
    unit = out / np.maximum(reach, 1e-9)
    side = float(np.linalg.norm(squares[:, 1] - squares[:, 0], axis=1).mean())
    spread = 0.0
    for _ in range(ROUNDS):
        seen = mm_pts + spread * unit
        h, _ = cv2.findHomography(img_pts, seen, 0)
        if h is None or not np.isfinite(h).all():
            return None
        miss = cv2.perspectiveTransform(img_pts[None].astype(np.float64), h)[0] - seen
        spread += float(np.mean((miss * unit).sum(1)))
    if abs(spread) > MAX_SPREAD_SHARE * side:
        return None
    seen = mm_pts + spread * unit
    h, _ = cv2.findHomography(img_pts, seen, 0)
    if h is None or not np.isfinite(h).all():
        return None
    return h, seen
