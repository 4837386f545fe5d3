"""Place a board from two of its corner markers, grown out through its printed holes.

A hand or an arm over the board's edge often hides one or two corner markers. Two markers
alone place the far side too roughly to read (they lie along one edge, and a few tenths of a
pixel on a marker's corners is millimetres across the board), but the board prints dozens of
round holes all over it: near the two markers their fit puts each hole within a few
millimetres, so those holes are found, and a fit through the markers and them reaches a little
further, and so on across the board. The result stands only where the holes across the whole
board agree with it (a fit that went astray agrees with few) and the markers still fit it;
else nothing is placed, and the photo is declined as before.
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.geometry import Board
from vision.locate import reprojection_mm
from vision.register import INLIER_MM, MIN_HOLES, find_holes, hole_cover

GROW = (0.3, 0.55, 0.8)  # the share of the holes found nearest the two markers fitted first,
# then further out (the holes far off are found where a rougher fit put them)
AGREE_SHARE = 0.7  # of the holes found across the board, this share at least agree ...
MIN_COVER = 0.8  # ... and holes that agree lie near this share of the board's spaces (a hand
# hides some: whatever it covers is then unclear, as with four markers)
MARKERS_MM = 4.0  # the two markers' corners lie this close to the grown fit (RMS): a lens
# bends the corners off a plane fitted through the holes by a millimetre or two, a fit grown
# one hole astray misses them by a spacing (15 mm or more)


def grown_from_two(
    image: np.ndarray, board: Board, img_pts: np.ndarray, mm_pts: np.ndarray
) -> tuple[np.ndarray, float] | None:
    """(image px -> board mm homography, the markers' RMS error mm) grown from two markers'
    corners (`img_pts` in the image, `mm_pts` on the board) through the holes; None where the
    holes do not confirm it."""
    h, _ = cv2.findHomography(img_pts, mm_pts, 0)
    if h is None or not np.isfinite(h).all():
        return None
    centres = mm_pts.reshape(-1, 4, 2).mean(1)
    for share in GROW:
        px, mm = find_holes(image, board, h)
        distance = _distance_to(mm, centres)
        near = distance <= np.quantile(distance, share) if len(mm) else distance > 0
        if near.sum() < MIN_HOLES:
            return None
        grown = _fit(np.concatenate([img_pts, px[near]]), np.concatenate([mm_pts, mm[near]]))
        if grown is None:
            return None
        h = grown
    px, mm = find_holes(image, board, h)
    if len(px) < MIN_HOLES:
        return None
    agree = _errors(h, px, mm) <= INLIER_MM
    every = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    markers_mm = reprojection_mm(h, img_pts, mm_pts)
    if (
        agree.sum() < max(MIN_HOLES, AGREE_SHARE * len(px))
        or hole_cover(board, every, mm[agree]) < MIN_COVER
        or markers_mm > MARKERS_MM
    ):
        return None
    return h, markers_mm


def _fit(px: np.ndarray, mm: np.ndarray) -> np.ndarray | None:
    """Least squares through the points that agree with a robust fit."""
    h, agree = cv2.findHomography(px, mm, cv2.RANSAC, INLIER_MM)
    if h is None or agree is None or agree.sum() < MIN_HOLES:
        return None
    agree = agree.ravel().astype(bool)
    h, _ = cv2.findHomography(px[agree], mm[agree], 0)
    if h is None or not np.isfinite(h).all() or abs(h[2, 2]) < 1e-12:
        return None
    return h / h[2, 2]


def _errors(h: np.ndarray, px: np.ndarray, mm: np.ndarray) -> np.ndarray:
    return np.linalg.norm(cv2.perspectiveTransform(px[None], h)[0] - mm, axis=1)


def _distance_to(mm: np.ndarray, centres: np.ndarray) -> np.ndarray:
    return np.sqrt(((mm[:, None, :] - centres[None, :, :]) ** 2).sum(-1)).min(1)
