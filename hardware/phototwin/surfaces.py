"""What the camera's rays land on when they miss the pieces: the printed paper and the table.

The paper is the artwork exactly as `boardref print-board` prints it (hardware.artwork), taken as
a reflectance, seen through the printer's colour rendering and the paper's own tint, with a faint
fibre texture. The table is procedural wood grain or woven cloth (sometimes a checked cloth).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from rules.geometry import Board

from . import colours as tone
from .props import Table
from .scene import Paper

TEXTURE_PX_PER_MM = 6.0


@lru_cache(maxsize=8)
def _artwork_linear(board: Board) -> np.ndarray:
    from hardware.artwork import render_board

    srgb = render_board(board, TEXTURE_PX_PER_MM)[:, :, ::-1].astype(np.float32) / 255.0
    return tone.srgb_to_linear(srgb)  # RGB, linear


@lru_cache(maxsize=16)
def _artwork_filtered(board: Board, sigma_q: int) -> np.ndarray:
    art = _artwork_linear(board)
    sigma = sigma_q / 4
    return cv2.GaussianBlur(art, (0, 0), sigma) if sigma > 0.3 else art


def artwork(board: Board, photo_px_per_mm: float) -> np.ndarray:
    """The printed artwork (linear RGB) prefiltered for a photo's scale: a camera pixel
    averages the print over its footprint, so the texture is blurred to about that size before
    it is sampled (no aliasing from sampling a fine print at a coarse grid)."""
    sigma = 0.42 * TEXTURE_PX_PER_MM / max(photo_px_per_mm, 0.1)
    return _artwork_filtered(board, int(round(sigma * 4)))


def as_printed(art_samples: np.ndarray, paper: Paper) -> np.ndarray:
    """Artwork samples -> the paper's reflectance: the printer's colour rendering and the
    paper's tint."""
    printed = art_samples @ paper.print_matrix.T
    return np.clip(printed * paper.tint, 0.0, 1.0)


def value_noise(
    rng: np.random.Generator, x: np.ndarray, y: np.ndarray, cell: float, size: int = 128
) -> np.ndarray:
    """Smooth random field in about -1..1 at points (x, y) mm, features about `cell` mm wide
    (a random grid, interpolated; it repeats every size * cell mm)."""
    grid = rng.uniform(-1, 1, (size, size)).astype(np.float32)
    mx = (x / cell).astype(np.float32) % size
    my = (y / cell).astype(np.float32) % size
    return cv2.remap(grid, mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_WRAP)


def sample_paper(art: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Artwork at board points (x, y) mm (arrays of one shape) -> (..., 3)."""
    from .lighting import lookup

    return lookup(art, x * TEXTURE_PX_PER_MM - 0.5, y * TEXTURE_PX_PER_MM - 0.5)


def fibre(rng_seed: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Paper's fibre: a per-mille to percent brightness texture."""
    rng = np.random.default_rng(rng_seed)
    return 1.0 + 0.012 * value_noise(rng, x, y, 0.6) + 0.006 * value_noise(rng, x, y, 7.0)


def table_albedo(table: Table, rng_seed: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Linear RGB albedo of the table top at points (x, y) mm."""
    rng = np.random.default_rng(rng_seed)
    c, s = float(np.cos(table.grain_angle)), float(np.sin(table.grain_angle))
    along, across = x * c + y * s, -x * s + y * c
    rgb, second = table.rgb.astype(np.float32), table.second_rgb.astype(np.float32)
    if table.kind == "wood":
        # growth rings: long streaks along the grain, wandering slowly across it
        warp = 0.6 * table.period * value_noise(rng, along / 25.0, across / 4.0, 1.0)
        rings = 0.5 + 0.5 * np.sin(2 * np.pi * (across + warp) / table.period)
        rings = rings**4 * (0.7 + 0.3 * value_noise(rng, along, across, 60.0))
        pores = 1 + 0.04 * value_noise(rng, along / 12.0, across, 1.2)
        mix = np.clip(rings, 0, 1)[..., None]
        return (rgb * (1 - mix) + second * mix) * pores[..., None]
    if table.checked:
        a = np.floor(along / table.period) % 2
        b = np.floor(across / table.period) % 2
        mix = (0.5 * a + 0.5 * b)[..., None]
        albedo = rgb * (1 - mix) + second * mix
    else:
        albedo = np.broadcast_to(rgb, x.shape + (3,))
    weave = 1 + 0.05 * np.sin(2 * np.pi * along / 2.2) * np.sin(2 * np.pi * across / 2.2)
    folds = 1 + 0.08 * value_noise(rng, x, y, 60.0)
    return albedo * (weave * folds)[..., None]
