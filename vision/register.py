"""Fit the board's printed holes, not only its corner markers.

The markers sit at the board's corners, so a fit through them alone is right there and can be
out in the middle: a lens's barrel or pincushion distortion (a wide lens, or any cheap one)
scales the middle of the picture differently from its corners, and paper that does not lie
flat moves its middle too. Two or three millimetres out, a hole's collar is sampled on its rim
and an empty hole looks covered. Every board prints dozens of round holes all over it, dark
discs on light paper, so each bare hole says where the board really is around it. Their
centres, found near where the markers put them, give a homography that fits the middle of the
board; holes hidden by tokens or put off by anything else are outliers to a robust fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from rules.geometry import Board
from rules.printing import SQUARE_KINDS
from vision.topview import nearest_spacing

REGISTER_PPM = 1.25  # top-view pixels per board mm the holes are looked for at
SEARCH_MM = 4.5  # how far from where the markers put it a hole is looked for
INNER = 0.8  # hole radii: the hole's grey middle, inside its dark rim
RING = (1.15, 1.45)  # hole radii: the light collar or paper just outside the hole
MIN_CONTRAST = 0.25  # a hole's middle this much darker than its ring (share of the ring's light)
INLIER_MM = 1.2  # a hole this close to where the fit puts it agrees with the fit
MIN_HOLES = 8  # holes that must agree before the board's middle is moved
MIN_SHARE = 0.5  # ... and this share of the holes found
COVER_SPACINGS = 1.5  # a space this many of its spacings from an agreeing hole is not held
MIN_COVERED = 0.9  # ... and the holes must hold this share of the board's spaces
SETTLED_MM = 1.0  # a fit that moves no space further than this changes nothing
MOST_MM = 5.0  # a fit that moves a space further than this is not believed


@dataclass(frozen=True)
class Registration:
    """Where the holes put the board, and how far that is from the markers' fit."""

    homography: np.ndarray  # image px -> board mm, through the holes (or the markers' own)
    holes: int  # holes that agree with it
    moved_mm: float  # the furthest any space moved from the markers' fit
    used: bool  # whether the holes' fit replaces the markers'


def _round_holes(board: Board) -> np.ndarray:
    """Indices of the spaces printed as round holes (a square's middle says less)."""
    return np.array([i for i, s in enumerate(board.spaces) if s.kind not in SQUARE_KINDS], int)


def _hole_contrast(grey: np.ndarray, radius_px: float) -> np.ndarray:
    """Per top-view pixel: how much darker a hole-sized middle there is than the ring round
    it, as a share of the ring's light (boxes stand in for the discs: both are symmetric, so
    the peak still lies at a hole's centre)."""
    inner = max(1, round(INNER * radius_px))
    lo, hi = max(inner + 1, round(RING[0] * radius_px)), max(inner + 2, round(RING[1] * radius_px))
    middle = cv2.boxFilter(
        grey, -1, (2 * inner + 1, 2 * inner + 1), borderType=cv2.BORDER_REPLICATE
    )
    box_hi = cv2.boxFilter(grey, -1, (2 * hi + 1, 2 * hi + 1), borderType=cv2.BORDER_REPLICATE)
    box_lo = cv2.boxFilter(grey, -1, (2 * lo + 1, 2 * lo + 1), borderType=cv2.BORDER_REPLICATE)
    a_hi, a_lo = (2 * hi + 1) ** 2, (2 * lo + 1) ** 2
    ring = (box_hi * a_hi - box_lo * a_lo) / (a_hi - a_lo)
    return (ring - middle) / np.maximum(ring, 1.0)


def _peaks(contrast: np.ndarray, centres: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2) sub-pixel peak positions within `reach` px of each centre, and (N,) their
    contrast (0 where the window leaves the view)."""
    h, w = contrast.shape
    offs = np.arange(-reach, reach + 1)
    cx, cy = np.round(centres[:, 0]).astype(int), np.round(centres[:, 1]).astype(int)
    inside = (cx - reach >= 1) & (cy - reach >= 1) & (cx + reach < w - 1) & (cy + reach < h - 1)
    cx, cy = np.where(inside, cx, reach + 1), np.where(inside, cy, reach + 1)
    ys = cy[:, None, None] + offs[None, :, None]
    xs = cx[:, None, None] + offs[None, None, :]
    windows = contrast[ys, xs]  # (N, 2r+1, 2r+1)
    flat = windows.reshape(len(centres), -1).argmax(1)
    py, px = np.divmod(flat, 2 * reach + 1)
    best = windows.reshape(len(centres), -1)[np.arange(len(centres)), flat]
    y, x = cy + offs[py], cx + offs[px]

    def vertex(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        den = a - 2 * b + c
        return np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)

    dx = vertex(contrast[y, x - 1], best, contrast[y, x + 1])
    dy = vertex(contrast[y - 1, x], best, contrast[y + 1, x])
    # a peak on the window's edge is a slope towards something else, not a hole here
    edge = (np.abs(offs[py]) == reach) | (np.abs(offs[px]) == reach)
    strength = np.where(inside & ~edge, best, 0.0)
    return np.stack([x + np.clip(dx, -0.5, 0.5), y + np.clip(dy, -0.5, 0.5)], 1), strength


@lru_cache(maxsize=16)
def _spacing(board: Board) -> np.ndarray:
    return nearest_spacing(board)


def _covered(board: Board, every: np.ndarray, held: np.ndarray) -> float:
    """The share of the board's spaces with an agreeing hole close by: a fit through holes
    that lie only along two rows says little of the squares between them."""
    gap = np.sqrt(((every[:, None, :] - held[None, :, :]) ** 2).sum(-1)).min(1)
    return float(np.mean(gap <= COVER_SPACINGS * _spacing(board)))


def register_holes(image: np.ndarray, board: Board, homography: np.ndarray) -> Registration:
    """The board's homography refitted through its bare holes (image px -> board mm)."""
    h = np.asarray(homography, np.float64)
    unchanged = Registration(h, 0, 0.0, False)
    round_ids = _round_holes(board)
    if len(round_ids) < MIN_HOLES:
        return unchanged
    ppm = REGISTER_PPM
    to_top = np.array([[ppm, 0, -0.5], [0, ppm, -0.5], [0, 0, 1]], np.float64)
    size = (round(board.width * ppm), round(board.height * ppm))
    top = cv2.warpPerspective(image, to_top @ h, size, flags=cv2.INTER_LINEAR)
    top = (cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top).astype(np.float32)
    contrast = _hole_contrast(top, board.hole_radius * ppm)
    mm = np.array([[board.spaces[i].x, board.spaces[i].y] for i in round_ids], np.float64)
    found, strength = _peaks(contrast, mm * ppm - 0.5, max(1, round(SEARCH_MM * ppm)))
    seen = strength >= MIN_CONTRAST
    if seen.sum() < MIN_HOLES:
        return unchanged
    found_mm = (found[seen] + 0.5) / ppm
    to_image = np.linalg.inv(h)
    found_px = cv2.perspectiveTransform(found_mm[None], to_image)[0]
    fitted, agree = cv2.findHomography(found_px, mm[seen], cv2.RANSAC, INLIER_MM)
    if fitted is None or agree is None:
        return unchanged
    agree = agree.ravel().astype(bool)
    held = mm[seen][agree]
    every = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    if (
        agree.sum() < max(MIN_HOLES, MIN_SHARE * seen.sum())
        or _covered(board, every, held) < MIN_COVERED
    ):
        return unchanged
    fitted, _ = cv2.findHomography(found_px[agree], held, 0)  # all that agree, least squares
    if fitted is None or not np.isfinite(fitted).all() or abs(fitted[2, 2]) < 1e-12:
        return unchanged
    fitted = fitted / fitted[2, 2]
    moved = cv2.perspectiveTransform(cv2.perspectiveTransform(every[None], to_image), fitted)[0]
    moved_mm = float(np.linalg.norm(moved - every, axis=1).max())
    used = SETTLED_MM < moved_mm <= MOST_MM
    return Registration(fitted if used else h, int(agree.sum()), moved_mm, used)
