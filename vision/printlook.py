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

from dataclasses import dataclass

import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE
from rules.printing import HOLE_RGB, TINT_SHARE
from vision.tokens import SpaceLooks, chroma
from vision.topview import nearest_spacing

PLAIN_QUIET = 0.2  # a plain hole with more chroma than this anywhere in its cell may hold a token
MIN_PLAIN = 4  # fewer quiet plain holes than this give no reference
NEAREST_PLAIN = 6  # the reference for a hole: this many quiet plain holes nearest to it
MATCH_CHROMA = 0.1  # the middle's colour within this of the prediction (chroma units)
MATCH_LIGHT = 0.25  # ... and its brightness within this (log ratio)
MATCH_EXCESS = 0.1  # no peak in the cell stronger than the predicted tint by more than this
MATCH_STEP = 0.08  # nor stronger than the faintest hole of its seat by more than this
NEARBY_SPACINGS = 4.0  # a seat's holes this many spacings apart are compared


def bgr_of(look: np.ndarray) -> np.ndarray:
    """Back from (chroma x, chroma y, brightness) to BGR (paper = 1): `chroma` inverted."""
    cx, cy, light = look[..., 0], look[..., 1], look[..., 2]
    r_minus = cx * light  # r - (g + b) / 2
    g_minus_b = cy * light / 0.8660254
    r = light + 2.0 * r_minus / 3.0
    g = (3.0 * light - r + g_minus_b) / 2.0
    b = g - g_minus_b
    return np.stack([b, g, r], -1)


def plain_hole_bgr(samples: SpaceLooks, board: Board) -> np.ndarray:
    """(N, 3): per space, the median colour of the nearest plain holes that look surely
    empty (grey and quiet): near ones, because the lamp's light is never quite even; nan
    where too few are seen to trust."""
    plain = np.array([s.owner is None for s in board.spaces]) & samples.valid
    quiet = (samples.peaks.max(1) < PLAIN_QUIET) & (samples.far < PLAIN_QUIET)
    grey = np.hypot(samples.centre[:, 0], samples.centre[:, 1]) < PLAIN_QUIET
    pick = np.nonzero(plain & quiet & grey)[0]
    ref = np.full((len(board.spaces), 3), np.nan)
    if len(pick) < MIN_PLAIN:
        return ref
    xy = np.array([[s.x, s.y] for s in board.spaces])
    bgr = bgr_of(samples.centre[pick].astype(np.float64))
    near = min(NEAREST_PLAIN, len(pick))
    for i in range(len(board.spaces)):
        d = np.hypot(*(xy[pick] - xy[i]).T)
        ref[i] = np.median(bgr[np.argpartition(d, near - 1)[:near]], 0)
    return ref


def predicted_tints(samples: SpaceLooks, board: Board) -> np.ndarray:
    """(N, 3): the look (chroma x, chroma y, brightness) each seat-tinted hole has when bare,
    predicted from this photo's plain holes near it; nan for plain spaces or without a
    reference."""
    want = np.full((len(board.spaces), 3), np.nan)
    hole = plain_hole_bgr(samples, board)
    grey = np.array(HOLE_RGB[::-1], np.float64)
    for i, space in enumerate(board.spaces):
        if space.owner is None or space.owner >= len(board.seat_colours):
            continue
        colour = PALETTE.get(board.seat_colours[space.owner])
        if colour is not None and not np.isnan(hole[i]).any():
            seat = np.array(colour.rgb[::-1], np.float64)
            want[i] = chroma(*(hole[i] * ((1.0 - TINT_SHARE) + TINT_SHARE * seat / grey)))
    return want


def tint_level(samples: SpaceLooks, strength: np.ndarray) -> np.ndarray:
    """(N,) how colourful each space is in its seat's hue: its strongest peak there, or its
    middle's chroma where no peak rises above the reader's floor (a faint tint)."""
    return np.maximum(strength, np.hypot(samples.centre[:, 0], samples.centre[:, 1]))


@dataclass(frozen=True)
class PrintCheck:
    """Per space, what the predicted print says about a seat's hole."""

    shows: np.ndarray  # (N,) bool: surely bare print (its tint level can be learnt from it)
    unexplained: np.ndarray  # (N,) bool: the bare print cannot look like this: not empty


def _seat_levels(board: Board, level: np.ndarray, lit_alike: np.ndarray):
    """Per space, the faintest and the median tint level of its seat's holes nearby that are
    lit as predicted (glare or a shadow elsewhere on the board does not count); inf where
    there are none."""
    xy = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    owner = np.array([-1 if s.owner is None else s.owner for s in board.spaces])
    reach = NEARBY_SPACINGS * float(np.median(nearest_spacing(board)))
    faintest = np.full(len(xy), np.inf)
    usual = np.full(len(xy), np.inf)
    for i in np.nonzero(owner >= 0)[0]:
        near = lit_alike & (owner == owner[i]) & (np.hypot(*(xy - xy[i]).T) <= reach)
        if near.any():
            faintest[i], usual[i] = level[near].min(), np.median(level[near])
    return faintest, usual


def check_print(
    samples: SpaceLooks,
    board: Board,
    want: np.ndarray,
    strength: np.ndarray,
    others: np.ndarray,
) -> PrintCheck:
    """Compare each seat's hole with its predicted bare print (`want`, from
    `predicted_tints`). `strength`: chroma of the strongest peak in the seat's own hue;
    `others`: in any other hue.

    The prediction is rough (a printer, a lens's blur), and a pale token can match it, so a
    hole also must be no more colourful than the faintest of its seat's holes: bare holes
    printed alike look alike, and a pale token stands above them. A hole far from the
    prediction in colour or brightness, or far above the faintest, is no bare print."""
    alone = (others < PLAIN_QUIET) & (samples.far < PLAIN_QUIET) & (samples.clipped < 0.02)
    alone &= samples.valid
    known = ~np.isnan(want).any(1)
    wanted = np.where(known[:, None], want, 0.0)
    off_colour = np.hypot(*(samples.centre[:, :2] - wanted[:, :2]).T)
    off_light = np.abs(
        np.log(np.maximum(samples.centre[:, 2], 1e-3) / np.maximum(wanted[:, 2], 1e-3))
    )
    level = tint_level(samples, strength)
    lit_alike = alone & known & (off_light <= MATCH_LIGHT)  # not washed out, nor shaded
    faintest, usual = _seat_levels(board, level, lit_alike)
    shows = lit_alike & (off_colour <= MATCH_CHROMA) & (level <= faintest + MATCH_STEP)
    shows &= strength <= np.hypot(wanted[:, 0], wanted[:, 1]) + MATCH_EXCESS
    loose = (off_colour <= 2 * MATCH_CHROMA) & (off_light <= 1.4 * MATCH_LIGHT)
    loose &= level <= usual + 2 * MATCH_STEP
    unexplained = known & samples.valid & (others < PLAIN_QUIET) & ~loose
    return PrintCheck(shows, unexplained)
