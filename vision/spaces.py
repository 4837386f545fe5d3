"""Read every space: sample a small disc at each space and classify it empty or a token colour.

Sample points are laid out in board millimetres and mapped into the frame through the
homography, so nothing is rectified. Colours are normalised per frame against the printed white
quiet zone and black border of the markers seen (interpolated across the board), which cancels
exposure, white balance and most of a lighting gradient, and then compared in CIE LAB with the
calibration's references: each space's own empty appearance, and each token colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE, UNKNOWN
from vision.calibrate import Calibration, default_calibration
from vision.config import VisionConfig, check_frame

L_WEIGHT = 0.7  # lightness matters less than hue: shading and lamps move it most


@dataclass(frozen=True)
class SpaceSamples:
    """Per space (board order): normalised LAB median and whether the disc was in view."""

    ids: tuple[str, ...]
    lab: np.ndarray  # (N, 3) float32, L in 0..100
    valid: np.ndarray  # (N,) bool


@lru_cache(maxsize=32)
def _sample_plan(board: Board, radius_frac: float, grid: int):
    """Board-mm sample points: (N, P, 2) for spaces, and per marker white/black points."""
    r = min(radius_frac * board.hole_radius, 0.6 * board.token_radius)
    u = np.linspace(-1.0, 1.0, grid)
    gx, gy = np.meshgrid(u, u)
    keep = gx**2 + gy**2 <= 1.0 + 1e-9
    offsets = np.stack([gx[keep], gy[keep]], 1) * r
    centres = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    space_pts = centres[:, None, :] + offsets[None, :, :]
    refs = {}
    for marker_id, sq in board.marker_squares().items():
        (x0, y0), _, (x1, y1), _ = sq
        module = (x1 - x0) / 6.0
        t = np.linspace(0.15, 0.85, 9)
        white_d, black_d = 0.45 * module, 0.5 * module  # outside / inside the marker edge
        white, black = [], []
        for a in t:
            xa, ya = x0 + a * (x1 - x0), y0 + a * (y1 - y0)
            white += [
                (xa, y0 - white_d),
                (xa, y1 + white_d),
                (x0 - white_d, ya),
                (x1 + white_d, ya),
            ]
            black += [
                (xa, y0 + black_d),
                (xa, y1 - black_d),
                (x0 + black_d, ya),
                (x1 - black_d, ya),
            ]
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        refs[marker_id] = (np.array(white), np.array(black), np.array(centre))
    return space_pts, refs


def _gather(image: np.ndarray, pts_img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nearest-pixel BGR values at image points (..., 2) and whether each is inside the frame."""
    h, w = image.shape[:2]
    xi = np.rint(pts_img[..., 0]).astype(np.int64)
    yi = np.rint(pts_img[..., 1]).astype(np.int64)
    inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    xi = np.clip(xi, 0, w - 1)
    yi = np.clip(yi, 0, h - 1)
    return image[yi, xi].astype(np.float32), inside


def _project(pts_mm: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    flat = pts_mm.reshape(-1, 1, 2).astype(np.float64)
    return cv2.perspectiveTransform(flat, to_image).reshape(pts_mm.shape)


def sample_spaces(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    markers_seen: tuple[int, ...] | None = None,
) -> SpaceSamples:
    """Normalised LAB colour at every space; `homography` maps image px -> board mm."""
    check_frame(image)
    if image.ndim != 3:
        raise ValueError("reading spaces needs a colour (BGR) frame")
    to_image = np.linalg.inv(np.asarray(homography, np.float64))
    space_pts, refs = _sample_plan(board, config.sample_radius, config.sample_grid)
    n, p, _ = space_pts.shape
    pix, inside = _gather(image, _project(space_pts, to_image))  # (N, P, 3), (N, P)
    # white / black references per marker seen
    use = [m for m in refs if markers_seen is None or m in markers_seen]
    whites, blacks, centres = [], [], []
    for marker_id in use:
        white_mm, black_mm, centre = refs[marker_id]
        wv, wi = _gather(image, _project(white_mm, to_image))
        bv, bi = _gather(image, _project(black_mm, to_image))
        if wi.mean() < 0.8 or bi.mean() < 0.8:
            continue
        wm, bm = np.median(wv[wi], 0), np.median(bv[bi], 0)
        if np.min(wm - bm) < 25:  # not a clean marker (glare, shadow): unusable as reference
            continue
        whites.append(wm)
        blacks.append(bm)
        centres.append(centre)
    centres_sp = space_pts.mean(1)
    if whites:
        c = np.array(centres)
        d2 = ((centres_sp[:, None, :] - c[None, :, :]) ** 2).sum(-1) + 1.0
        wts = 1.0 / d2
        wts /= wts.sum(1, keepdims=True)
        white = wts @ np.array(whites)  # (N, 3)
        black = wts @ np.array(blacks)
    else:  # no reference: assume a well exposed frame
        white = np.full((n, 3), 255.0)
        black = np.zeros((n, 3))
    black = np.minimum(black, white - 25.0)
    norm = (pix - black[:, None, :]) / (white - black)[:, None, :]
    norm = np.clip(norm, 0.0, 1.0).astype(np.float32)
    lab = cv2.cvtColor(norm.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(n, p, 3)
    med = np.median(lab, axis=1)
    valid = inside.mean(1) > 0.9
    return SpaceSamples(board.ids(), med.astype(np.float32), valid)


def candidate_colours(board: Board) -> tuple[str, ...]:
    """Token colours that can appear on this board: the seats' colours, else the palette."""
    colours = tuple(c for c in board.seat_colours if c in PALETTE)
    return colours or tuple(PALETTE)


def lab_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a - b
    return np.sqrt((L_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def classify_spaces(
    config: VisionConfig,
    samples: SpaceSamples,
    board: Board,
    calibration: Calibration | None = None,
) -> dict[str, tuple[str | None, float]]:
    """space id -> (None for empty | colour name | UNKNOWN, confidence 0..1)."""
    cal = calibration or default_calibration(board)
    colours = candidate_colours(board)
    empty = np.array([cal.empty_lab(sid) for sid in samples.ids], np.float32)  # (N, 3)
    protos = np.array([cal.colour_lab(c) for c in colours], np.float32)  # (C, 3)
    d_empty = lab_distance(samples.lab, empty)  # (N,)
    d_col = lab_distance(samples.lab[:, None, :], protos[None, :, :])  # (N, C)
    d_all = np.concatenate([d_empty[:, None], d_col], 1)  # (N, 1 + C): 0 = empty
    order = np.argsort(d_all, 1)
    best, second = order[:, 0], order[:, 1]
    rows = np.arange(len(best))
    d1, d2 = d_all[rows, best], d_all[rows, second]
    margin = (d2 - d1) / (d1 + d2 + 1e-6)  # 0: a tie, 1: a perfect match
    near = np.clip((config.max_distance - d1) / (0.5 * config.max_distance), 0.0, 1.0)
    conf = np.clip(np.minimum(2.0 * margin, 1.0) * near, 0.0, 1.0)
    # A space whose empty look was never seen (borrowed from similar spaces, or the default)
    # may be printed differently (a seat's tint): call it empty when it is far from every
    # token colour even if it is not close to the borrowed reference.
    learned = np.array([cal.learned_empty(sid) for sid in samples.ids], bool)
    d_tok = d_col.min(1)
    loose = np.clip((d_tok - config.token_clearance) / 20.0, 0.0, 1.0) * np.clip(
        (config.max_distance_unlearned - d_empty) / 20.0, 0.0, 1.0
    )
    use_loose = ~learned & ((best == 0) | (conf < config.min_confidence)) & (loose > conf)
    best = np.where(use_loose, 0, best)
    conf = np.where(use_loose, loose, conf)
    conf[~samples.valid] = 0.0
    result: dict[str, tuple[str | None, float]] = {}
    for i, sid in enumerate(samples.ids):
        c = float(conf[i])
        if c < config.min_confidence:
            result[sid] = (UNKNOWN, c)
        else:
            result[sid] = (None if best[i] == 0 else colours[best[i] - 1], c)
    return result


def read_spaces(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    calibration: Calibration | None = None,
    markers_seen: tuple[int, ...] | None = None,
) -> dict[str, tuple[str | None, float]]:
    """sample_spaces + classify_spaces in one call."""
    samples = sample_spaces(config, image, board, homography, markers_seen)
    return classify_spaces(config, samples, board, calibration)
