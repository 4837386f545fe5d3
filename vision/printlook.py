"""Which seat-tinted holes show their print: the empty look predicted from the plain holes.

A seat's holes are printed as the plain holes' grey with a known share of the seat's colour
mixed in (`rules.printing`). The plain holes of the same photo show how this camera, lamp and
paper render that grey, so the look of an empty tinted hole can be predicted channel by
channel, under any cast or exposure, without a calibration frame. A tinted hole shows its
print when its middle has the predicted colour and brightness and nothing in its cell is more
colourful than that print: then the chroma it shows is the tint's, and a token of the seat's
colour must stand clearly above it.
"""

from __future__ import annotations

import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE
from rules.printing import HOLE_RGB, TINT_SHARE
from vision.tokens import SpaceLooks, chroma

PLAIN_QUIET = 0.2  # a plain hole with more chroma than this anywhere in its cell may hold a token
MIN_PLAIN = 4  # fewer quiet plain holes than this give no reference
MATCH_CHROMA = 0.1  # the middle's colour within this of the prediction (chroma units)
MATCH_LIGHT = 0.25  # ... and its brightness within this (log ratio)
MATCH_EXCESS = 0.1  # no peak in the cell stronger than the predicted tint by more than this


def bgr_of(look: np.ndarray) -> np.ndarray:
    """Back from (chroma x, chroma y, brightness) to BGR (paper = 1): `chroma` inverted."""
    cx, cy, light = look[..., 0], look[..., 1], look[..., 2]
    r_minus = cx * light  # r - (g + b) / 2
    g_minus_b = cy * light / 0.8660254
    r = light + 2.0 * r_minus / 3.0
    g = (3.0 * light - r + g_minus_b) / 2.0
    b = g - g_minus_b
    return np.stack([b, g, r], -1)


def plain_hole_bgr(samples: SpaceLooks, board: Board) -> np.ndarray | None:
    """The median colour of the plain holes that are surely empty-looking (grey and quiet),
    or None when too few are seen to trust it."""
    plain = np.array([s.owner is None for s in board.spaces]) & samples.valid
    quiet = (samples.peaks.max(1) < PLAIN_QUIET) & (samples.far < PLAIN_QUIET)
    grey = np.hypot(samples.centre[:, 0], samples.centre[:, 1]) < PLAIN_QUIET
    pick = plain & quiet & grey
    if pick.sum() < MIN_PLAIN:
        return None
    return np.median(bgr_of(samples.centre[pick].astype(np.float64)), 0)


def predicted_tints(samples: SpaceLooks, board: Board) -> np.ndarray:
    """(N, 3): the look (chroma x, chroma y, brightness) each seat-tinted hole has when bare,
    predicted from this photo's plain holes; nan for plain spaces or without a reference."""
    want = np.full((len(board.spaces), 3), np.nan)
    hole = plain_hole_bgr(samples, board)
    if hole is None:
        return want
    grey = np.array(HOLE_RGB[::-1], np.float64)
    for i, space in enumerate(board.spaces):
        if space.owner is None or space.owner >= len(board.seat_colours):
            continue
        colour = PALETTE.get(board.seat_colours[space.owner])
        if colour is not None:
            seat = np.array(colour.rgb[::-1], np.float64)
            want[i] = chroma(*(hole * ((1.0 - TINT_SHARE) + TINT_SHARE * seat / grey)))
    return want


def shows_print(
    samples: SpaceLooks, want: np.ndarray, strength: np.ndarray, others: np.ndarray
) -> np.ndarray:
    """(N,) bool: the space is a seat's hole whose middle shows its predicted bare print
    (`want`, from `predicted_tints`) and whose cell holds nothing more colourful. `strength`:
    chroma of the strongest peak in the seat's own hue; `others`: in any other hue."""
    with np.errstate(invalid="ignore"):
        near = np.hypot(*(samples.centre[:, :2] - want[:, :2]).T) <= MATCH_CHROMA
        light = np.abs(np.log(np.maximum(samples.centre[:, 2], 1e-3) / want[:, 2]))
        return (
            near
            & (light <= MATCH_LIGHT)
            & (strength <= np.hypot(want[:, 0], want[:, 1]) + MATCH_EXCESS)
            & (others < PLAIN_QUIET)
            & (samples.far < PLAIN_QUIET)
            & (samples.clipped < 0.02)
            & samples.valid
        )
