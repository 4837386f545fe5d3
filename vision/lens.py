"""A lens's radial distortion, measured on the board in the photo and straightened out.

No homography fits a frame through a lens that bends straight lines: a wide lens (the Camera
Module 3 Wide, the remedy for a tray too small in the frame) or a cheap one scales the
middle of the picture differently from its edges. On a board as large as Manipulation's, a
lens of k1 0.1 left its corner holds 5 mm and more from any homography's place for them, and
a quarter of its spaces unclear. The board itself is the calibration target: its markers'
corners and its printed holes lie on one plane, so the radial term under which they fit one
homography best is the lens's. Where it is clearly not zero, the board is read as a pinhole
camera would have seen it: each top view the reader makes looks through the lens in one remap
of the frame (straightening the whole frame first cost a second pass over it, 4 ms a frame).

Model: a point seen at distance r from the frame's centre (r in half-diagonals) lies, for a
pinhole, at (1 + k1 r^2) times that distance.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

K_REACH = 0.25  # the strongest radial term looked for (a wide lens's barrel, in half-diagonals)
K_COARSE = 0.01  # the first search's step ...
K_FINE = 0.001  # ... and the second's, round the best of the first
K_MIN = 0.012  # a lens bending less than this is straight enough: nothing is straightened
GAIN_MM = 0.15  # ... and the bent model must fit the points this much better (trimmed mean)
FIT_MOST_MM = 0.6  # ... and fit them this well at least: else something else bends them
TRIM = 0.8  # the best-fitting share of the points a fit is judged on (tokens bias some holes)
MIN_POINTS = 12  # points (hole centres, marker corners) needed to measure a lens
WARP_STEP = 4  # px between the grid points a warp's maps are worked out at (the bend is smooth)


@dataclass(frozen=True)
class Lens:
    """A frame's radial distortion about its centre."""

    k1: float
    size: tuple[int, int]  # (width, height) of the frames it belongs to

    @property
    def centre(self) -> np.ndarray:
        return np.array([(self.size[0] - 1) / 2.0, (self.size[1] - 1) / 2.0])

    @property
    def norm(self) -> float:
        return float(np.hypot(*self.size)) / 2.0

    def straight_points(self, px: np.ndarray) -> np.ndarray:
        """(N, 2) frame px -> where a pinhole camera would have seen them."""
        return _straight(np.asarray(px, np.float64), self.k1, self.centre, self.norm)

    def raw_points(self, straight_px: np.ndarray) -> np.ndarray:
        """(..., 2) where a pinhole camera would have seen points -> where this lens put
        them in the frame (the model solved backwards)."""
        return _raw(np.asarray(straight_px, np.float64), self.k1, self.centre, self.norm)

    def warp(
        self,
        image: np.ndarray,
        to_straight: np.ndarray,
        size: tuple[int, int],
        after: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """`image` seen at `size` (w, h), each pixel p showing where a pinhole would have seen
        `to_straight @ p` (3x3), in one remap of the frame as this lens bent it (`after`,
        3x3: frame px -> `image` px, where `image` is the frame shrunk). Straightening the
        whole frame and warping it costs two passes and twice the pixels. Also (h, w) bool:
        which pixels the frame holds."""
        if (image.shape[1], image.shape[0]) != self.size and after is None:
            raise ValueError(f"lens measured on {self.size} frames, got {image.shape[1::-1]}")
        to_straight = np.asarray(to_straight, np.float64)

        def source(px: np.ndarray) -> np.ndarray:
            raw = self.raw_points(_apply(to_straight, px))
            return raw if after is None else _apply(np.asarray(after, np.float64), raw)

        mx, my = _grid_maps(source, size, WARP_STEP)
        out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        w, h = image.shape[1], image.shape[0]
        inside = (mx >= -0.5) & (mx <= w - 0.5) & (my >= -0.5) & (my <= h - 0.5)
        return out, inside


def _straight(px: np.ndarray, k1, centre: np.ndarray, norm: float) -> np.ndarray:
    """Points (..., 2) as a pinhole would have seen them; `k1` a number, or an array that
    broadcasts against the points' leading axes (many lenses at once)."""
    d = (px - centre) / norm
    return centre + (px - centre) * (1.0 + k1 * (d * d).sum(-1, keepdims=True))


def _raw(straight: np.ndarray, k1: float, centre: np.ndarray, norm: float) -> np.ndarray:
    """`_straight` undone: points (..., 2) as a pinhole saw them -> where the lens put them,
    by fixed-point steps (a few suffice for any k1 looked for)."""
    ux, uy = (straight[..., 0] - centre[0]) / norm, (straight[..., 1] - centre[1]) / norm
    dx, dy = ux, uy
    for _ in range(12):
        scale = 1.0 / (1.0 + k1 * (dx * dx + dy * dy))
        dx, dy = ux * scale, uy * scale
    return np.stack([dx * norm + centre[0], dy * norm + centre[1]], -1)


def _grid_maps(source, size: tuple[int, int], step: int) -> tuple[np.ndarray, np.ndarray]:
    """(h, w) float32 remap maps where each pixel looks at `source((..., 2) px)`, worked out
    on a grid every `step` px and spread over the image linearly (the bend is smooth)."""
    w, h = size
    # grid point j stands at pixel step * (j - 1) + (step - 1) / 2: where an area-aligned
    # linear enlargement by `step` samples it (one point more each side, cropped below)
    gw, gh = -(-w // step) + 2, -(-h // step) + 2
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float64) * step - step + (step - 1) / 2.0
    at = source(np.stack([xx, yy], -1))
    out = (gw * step, gh * step)
    mx = cv2.resize(at[..., 0].astype(np.float32), out, interpolation=cv2.INTER_LINEAR)
    my = cv2.resize(at[..., 1].astype(np.float32), out, interpolation=cv2.INTER_LINEAR)
    inside = slice(step, step + h), slice(step, step + w)
    return mx[inside], my[inside]


def _normalising(pts: np.ndarray) -> np.ndarray:
    """(..., 3, 3) similarity taking each point set (..., N, 2) to mean 0, mean distance
    sqrt(2): the linear fit below is well conditioned only so."""
    mean = pts.mean(-2)
    spread = np.sqrt(((pts - mean[..., None, :]) ** 2).sum(-1)).mean(-1)
    s = np.sqrt(2.0) / np.maximum(spread, 1e-12)
    t = np.zeros(pts.shape[:-2] + (3, 3))
    t[..., 0, 0] = t[..., 1, 1] = s
    t[..., 0, 2], t[..., 1, 2] = -s * mean[..., 0], -s * mean[..., 1]
    t[..., 2, 2] = 1.0
    return t


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(..., N, 2) points through (..., 3, 3) homographies."""
    p = pts @ np.swapaxes(h[..., :2], -1, -2) + h[..., None, :, 2]
    return p[..., :2] / p[..., 2:3]


def _misfits(px: np.ndarray, mm: np.ndarray, ks: np.ndarray, centre, norm) -> np.ndarray:
    """(K,) how badly (mm, the trimmed mean) one homography fits the points under each lens
    term: all K linear fits at once (normalised DLT, each its own smallest singular vector)."""
    straight = _straight(px[None], ks[:, None, None], centre, norm)  # (K, N, 2)
    ta, tb = _normalising(straight), _normalising(mm[None])[0]
    a = _apply(ta, straight)
    b = _apply(tb, mm)
    n, k_count = len(px), len(ks)
    rows = np.zeros((k_count, 2 * n, 9))
    x, y = a[..., 0], a[..., 1]
    u, v = b[None, :, 0], b[None, :, 1]
    one, zero = np.ones_like(x), np.zeros_like(x)
    rows[:, 0::2] = np.stack([-x, -y, -one, zero, zero, zero, u * x, u * y, u * one], -1)
    rows[:, 1::2] = np.stack([zero, zero, zero, -x, -y, -one, v * x, v * y, v * one], -1)
    h = np.linalg.svd(rows, full_matrices=False)[2][:, -1].reshape(k_count, 3, 3)
    h = np.linalg.inv(tb) @ h @ ta  # back from the normalised frames
    err = np.linalg.norm(_apply(h, straight) - mm[None], axis=-1)
    keep = max(4, int(TRIM * n))
    return np.partition(err, keep - 1, axis=1)[:, :keep].mean(1)


def measure_lens(px: np.ndarray, mm: np.ndarray, size: tuple[int, int]) -> Lens | None:
    """The lens under which the points (frame px of board mm: hole centres, marker corners)
    fit one homography best; None where a straight lens fits them about as well."""
    px, mm = np.asarray(px, np.float64), np.asarray(mm, np.float64)
    if len(px) < MIN_POINTS:
        return None
    probe = Lens(0.0, size)
    centre, norm = probe.centre, probe.norm
    straight = float(_misfits(px, mm, np.zeros(1), centre, norm)[0])
    if straight < GAIN_MM:  # (the usual frame: one homography fits already)
        return None
    coarse = np.arange(-K_REACH, K_REACH + K_COARSE / 2, K_COARSE)
    best = float(coarse[int(np.argmin(_misfits(px, mm, coarse, centre, norm)))])
    fine = np.arange(best - K_COARSE, best + K_COARSE + K_FINE / 2, K_FINE)
    fine_costs = _misfits(px, mm, fine, centre, norm)
    k1, best_cost = float(fine[int(np.argmin(fine_costs))]), float(fine_costs.min())
    if abs(k1) < K_MIN or straight - best_cost < GAIN_MM or best_cost > FIT_MOST_MM:
        return None
    return Lens(round(k1, 4), size)
