"""What glare off glossy paper makes of a bare hole, and how surely a bright hole is one.

Glare lays white light over the print: in the paper-normalised view a hole's grey is lifted
toward the paper's white and a seat's tint is washed paler. `vision.printlook` predicts the
print under the glare near each hole (its veil); here a hole's look is weighed against that.
A token stands above the glare on the paper and keeps its colour (or, washed white itself,
saturates the camera); a bright grey could be a white token only where a seat plays grey ones.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rules.geometry import Board
from vision.confidence import ramp
from vision.printlook import PrintLooks, seats_play_grey
from vision.tokens import SpaceLooks

CLIPPED_NONE = 0.02  # share of a hole's middle saturated (glare) under which an absence (no
CLIPPED_MOST = 0.08  # token) is told surely, and over which it is not at all
VEILED_LIGHT = (0.12, 0.06)  # a hole under glare within this of the print lifted there
VEILED_COLOUR = (0.06, 0.04)  # in brightness (log ratio) and colour (chroma units), with no
VEILED_PEAK = (0.12, 0.06)  # colour peak above the print's tint by this, is bare (0 at first)
PALER_PEAK = 0.06  # a seat's hole whose every colour is this far under its washed tint
PREDICTED_LIGHT = (0.35, 0.22)  # a plain hole within this (log ratio) of its predicted print


def in_lift_range(light: np.ndarray, prints: PrintLooks, owner_k: np.ndarray) -> np.ndarray:
    """(N,) how surely each hole's brightness is its print's under some share of the glare.

    Glare being patchy, a bare hole may be anywhere from its print with no glare to as lifted
    as the plain holes nearest it (just outside the glare they are lifted and it is not). On
    a seat's hole only closely: the range is wide, and a pale token of the seat's colour, as
    colourful as its tint, can be as bright as its lifted neighbours. 0 where nothing is
    predicted."""
    bare = prints.bare[:, 2]
    low = np.fmin(np.fmin(prints.unlifted, prints.lifted[:, 2]), np.fmin(bare, prints.dimmed))
    high = np.fmax(prints.lifted[:, 2], bare)
    log_light = np.log(np.maximum(light, 1e-3))
    off = np.maximum.reduce(
        [np.log(np.maximum(low, 1e-3)) - log_light, log_light - np.log(np.maximum(high, 1e-3)),
         np.zeros(len(light))]
    )  # fmt: skip
    surely = np.where(owner_k >= 0, ramp(off, *VEILED_LIGHT), ramp(off, *PREDICTED_LIGHT))
    return np.where(np.isnan(off), 0.0, surely)


def veiled_print(samples: SpaceLooks, board: Board, want: np.ndarray, owner_k: np.ndarray):
    """(N,) how surely a hole too bright for the print is the print, lifted by glare.

    The plain holes nearby (`want`: the print under the glare there) show how far the print is
    lifted: a hole as bright as they are, in their very colour, with no colour peak anywhere
    in its cell and nothing saturated, is their print. Where no seat plays grey tokens, a
    plain grey hole may be brighter still (the glare can peak on it, between the plain holes
    that show it), and a seat's tint may be paler than predicted (a camera's tone curve washes
    it further than white light laid over it alone), never more colourful: a token of the
    seat's colour is more colourful still. So a seat's hole with no colour anywhere in its cell
    within PALER_PEAK of its washed tint may be brighter still, as a grey one may (a pale token
    of the seat's colour, as bright, is at least as colourful as that tint)."""
    coloured = not seats_play_grey(board)
    washable = (owner_k >= 0) & coloured
    predicted = ~np.isnan(want[:, 2])
    wanted = np.where(predicted[:, None], want, 1.0)  # (where none is, the result is 0)
    tint = np.hypot(wanted[:, 0], wanted[:, 1])
    above_tint = samples.peaks.max(1) - tint  # the cell's strongest colour over the tint
    paler_than_tint = above_tint <= -PALER_PEAK
    peaked = (_plain_holes(board) & coloured) | (washable & paler_than_tint)
    lift = np.log(np.maximum(samples.centre[:, 2], 1e-3) / wanted[:, 2])
    off_light = np.where(peaked, np.maximum(-lift, 0.0), np.abs(lift))
    off_colour = np.hypot(samples.centre[:, 0] - wanted[:, 0], samples.centre[:, 1] - wanted[:, 1])
    ux, uy = wanted[:, 0] / np.maximum(tint, 1e-6), wanted[:, 1] / np.maximum(tint, 1e-6)
    along = np.clip(samples.centre[:, 0] * ux + samples.centre[:, 1] * uy, 0.0, tint)
    paler = np.hypot(samples.centre[:, 0] - along * ux, samples.centre[:, 1] - along * uy)
    off_colour = np.where(washable, paler, off_colour)
    surely = np.minimum.reduce(
        [
            ramp(off_light, *VEILED_LIGHT),
            ramp(off_colour, *VEILED_COLOUR),
            ramp(above_tint, *VEILED_PEAK),
            unsaturated(samples),
        ]
    )
    return np.where(predicted, surely, 0.0)


def unsaturated(samples: SpaceLooks) -> np.ndarray:
    """(N,) how surely the camera saturated on too little of each hole's middle to hide
    anything there (where it did, a pale token and the print look alike)."""
    return ramp(samples.clipped, CLIPPED_MOST, CLIPPED_NONE)


@lru_cache(maxsize=16)
def _plain_holes(board: Board) -> np.ndarray:
    """(N,) bool: the spaces no seat owns."""
    plain = np.array([sp.owner is None for sp in board.spaces])
    plain.flags.writeable = False
    return plain
