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
from vision.lens import Lens, measure_lens
from vision.locate import Location
from vision.topview import board_to_top, nearest_spacing

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


@lru_cache(maxsize=16)
def round_holes(board: Board) -> np.ndarray:
    """Indices of the spaces printed as round holes clear of their neighbours: a square's
    middle says less, and where the ring round a hole reaches into the next hole (Playground
    Battles' base rows, tinted collars touching) its centre is pulled aside (by 1 mm there)."""
    clear = nearest_spacing(board) >= 2.0 * RING[1] * board.hole_radius
    holes = [i for i, s in enumerate(board.spaces) if s.kind not in SQUARE_KINDS and clear[i]]
    out = np.array(holes, int)
    out.flags.writeable = False
    return out


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


def hole_cover(board: Board, every: np.ndarray, held: np.ndarray) -> float:
    """The share of the board's spaces with an agreeing hole close by: a fit through holes
    that lie only along two rows says little of the squares between them."""
    gap = np.sqrt(((every[:, None, :] - held[None, :, :]) ** 2).sum(-1)).min(1)
    return float(np.mean(gap <= COVER_SPACINGS * nearest_spacing(board)))


def find_holes(
    image: np.ndarray, board: Board, homography: np.ndarray, lens: Lens | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """((M, 2) frame px, (M, 2) board mm) of the round holes found near where `homography`
    (image px -> board mm) puts them, clearly darker than the ring round them (through
    `lens`: the image is the frame as it bent it, the px where a pinhole saw them)."""
    h = np.asarray(homography, np.float64)
    none = np.zeros((0, 2)), np.zeros((0, 2))
    round_ids = round_holes(board)
    if len(round_ids) < MIN_HOLES:
        return none
    ppm = REGISTER_PPM
    size = (round(board.width * ppm), round(board.height * ppm))
    if lens is None:
        top = cv2.warpPerspective(image, board_to_top(ppm) @ h, size, flags=cv2.INTER_LINEAR)
    else:
        top = lens.warp(image, np.linalg.inv(board_to_top(ppm) @ h), size)[0]
    top = (cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top).astype(np.float32)
    contrast = _hole_contrast(top, board.hole_radius * ppm)
    mm = np.array([[board.spaces[i].x, board.spaces[i].y] for i in round_ids], np.float64)
    found, strength = _peaks(contrast, mm * ppm - 0.5, max(1, round(SEARCH_MM * ppm)))
    seen = strength >= MIN_CONTRAST
    if not seen.any():
        return none
    found_mm = (found[seen] + 0.5) / ppm
    return cv2.perspectiveTransform(found_mm[None], np.linalg.inv(h))[0], mm[seen]


def register_holes(
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    holes: tuple[np.ndarray, np.ndarray] | None = None,
    lens: Lens | None = None,
) -> Registration:
    """The board's homography refitted through its bare holes (image px -> board mm);
    `holes`: those `find_holes` found already in this image with this homography."""
    h = np.asarray(homography, np.float64)
    unchanged = Registration(h, 0, 0.0, False)
    found_px, held_mm = holes if holes is not None else find_holes(image, board, h, lens)
    if len(found_px) < MIN_HOLES:
        return unchanged
    fitted, agree = cv2.findHomography(found_px, held_mm, cv2.RANSAC, INLIER_MM)
    if fitted is None or agree is None:
        return unchanged
    agree = agree.ravel().astype(bool)
    held = held_mm[agree]
    every = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    if (
        agree.sum() < max(MIN_HOLES, MIN_SHARE * len(found_px))
        or hole_cover(board, every, held) < MIN_COVERED
    ):
        return unchanged
    fitted, _ = cv2.findHomography(found_px[agree], held, 0)  # all that agree, least squares
    if fitted is None or not np.isfinite(fitted).all() or abs(fitted[2, 2]) < 1e-12:
        return unchanged
    fitted = fitted / fitted[2, 2]
    to_image = np.linalg.inv(h)
    moved = cv2.perspectiveTransform(cv2.perspectiveTransform(every[None], to_image), fitted)[0]
    moved_mm = float(np.linalg.norm(moved - every, axis=1).max())
    used = SETTLED_MM < moved_mm <= MOST_MM
    return Registration(fitted if used else h, int(agree.sum()), moved_mm, used)


@dataclass(frozen=True)
class BoardView:
    """A frame to read and where the board lies in it: in the frame as a pinhole camera would
    have seen it, straightened where the lens bends it."""

    frame: np.ndarray  # as the camera gave it
    homography: np.ndarray  # straightened frame px -> board mm
    markers: np.ndarray  # the corner markers' own fit there (before the holes bend it)
    lens: Lens | None = None  # (the board's warps look through it: no frame is straightened)


def marker_points(location: Location) -> tuple[np.ndarray, np.ndarray]:
    """((M, 2) frame px, (M, 2) board mm) of the located board's marker corners."""
    squares = location.board.marker_squares()
    ids = [i for i in sorted(location.marker_corners) if i in squares]
    if not ids:
        return np.zeros((0, 2)), np.zeros((0, 2))
    px = np.concatenate([np.asarray(location.marker_corners[i], np.float64) for i in ids])
    return px, np.array([p for i in ids for p in squares[i]], np.float64)


def markers_fit(
    location: Location,
    lens: Lens | None,
    holes: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray | None:
    """The markers' homography (image px -> board mm) in the frame straightened by `lens`
    (the located one where the lens is straight); None where they fit none. Fewer than three
    markers place the far side only roughly: their fit then goes through the `holes` found
    (frame px, board mm) too, robustly, and without holes there is none."""
    if lens is None:
        return location.homography
    px, mm = marker_points(location)
    if len(px) < 12 and holes is None:
        return None
    if len(px) < 12:
        px, mm = np.concatenate([px, holes[0]]), np.concatenate([mm, holes[1]])
        h, _ = cv2.findHomography(lens.straight_points(px), mm, cv2.RANSAC, INLIER_MM)
    else:
        h, _ = cv2.findHomography(lens.straight_points(px), mm, 0)
    return None if h is None or not np.isfinite(h).all() else h / h[2, 2]


def photo_view(frame: np.ndarray, location: Location) -> BoardView:
    """Where the board lies in this photo, from the photo alone: the markers' fit, the lens
    measured on the markers' corners and the holes, and the holes' fit."""
    board = location.board
    holes = find_holes(frame, board, location.homography)
    corners = marker_points(location)
    lens = None
    if len(holes[0]) >= MIN_HOLES:  # (the markers' corners alone lie in four tight clusters)
        lens = measure_lens(
            np.concatenate([holes[0], corners[0]]),
            np.concatenate([holes[1], corners[1]]),
            (frame.shape[1], frame.shape[0]),
        )
    straight_fit = markers_fit(location, lens, holes) if lens is not None else None
    if straight_fit is None:
        found = register_holes(frame, board, location.homography, holes)
        return BoardView(frame, found.homography, location.homography)
    found = register_holes(frame, board, straight_fit, lens=lens)
    return BoardView(frame, found.homography, straight_fit, lens)
