"""A token of a seat's own colour on one of its holes, told by its hue.

A seat's holes are printed in a tint of its colour, and a token of that colour is read there
only when far more colourful than the tint (`vision.spaces`), standing out from its bare
neighbours in light and evenness too (`vision.standout`), or hiding the hole's collar
(`vision.covered_collar`). A dark glass marble set well in its hole does none of these: it is
darker than the print, about as even, and only somewhat more colourful.

Its hue still tells it. Ink and glass of one colour are seldom one hue: in one photo the
seat's bare holes gather at the print's hue and the set's clear tokens elsewhere at theirs.
Where those lie well apart, a hole of the seat whose middle shows the set's hue, far from its
bare neighbours', with at least the set's colourfulness, holds one of the set. Shading, a
shadow or a lamp's colour change every hole of the seat alike (the reader's chroma is divided
by brightness, and the neighbours are compared in the same photo), so none of them turns a
bare hole's hue; glare washes colour out and is left alone, as is any other colour in the cell.
"""

from __future__ import annotations

import numpy as np

from rules.geometry import Board
from vision.exact import median
from vision.printlook import nearby_seat_holes
from vision.standout import BARE_HOLE, QUIET_OTHERS, QUIET_STRAY, UNSATURATED, washed_share
from vision.tokens import SpaceLooks, hue_deg, hue_gap

HUE_APART = 12.0  # degrees: the set's hue and its bare print's in this photo, at least
NEAR_SET = 6.0  # a hole's middle this near the set's hue ...
FAR_FROM_PRINT = 12.0  # ... and this far from its bare neighbours' median hue holds a token
MIN_BARE = 1  # bare holes of the seat nearby that show the print's hue (its hue, not its level)
AS_ITS_SET = 0.85  # at least this share of the chroma of the set's clear tokens elsewhere ...
OVER_PRINT = 0.1  # ... and this much more than its bare neighbours' median


def hue_told_tokens(
    samples: SpaceLooks,
    board: Board,
    owner_k: np.ndarray,
    set_hue: np.ndarray,
    set_chroma: np.ndarray,
    strength: np.ndarray,
    hole_like: np.ndarray,
    others: np.ndarray,
    stray: np.ndarray,
) -> np.ndarray:
    """(N,) 1 where a token of its seat's colour is told on a seat's hole by its hue, else 0.

    `set_hue`: (K,) each colour's hue where this photo's clear tokens of it gather (nan where
    they do not); `set_chroma`: (K,) their chroma (nan where unknown); `strength`: (N,) each
    hole's colour in its seat's hue window; `hole_like`: how like its bare print each hole
    looks (0..1); `others`, `stray`: the strongest colour of another candidate, of none."""
    n = len(owner_k)
    told = np.zeros(n)
    seat = owner_k >= 0
    if not seat.any():
        return told
    hue = hue_deg(samples.centre[:, 0], samples.centre[:, 1])
    bare = samples.valid & seat & (hole_like >= BARE_HOLE) & (others < QUIET_OTHERS)
    k_of = np.maximum(owner_k, 0)
    candidate = (
        samples.valid & seat & ~np.isnan(set_hue[k_of])
        & (hue_gap(hue, set_hue[k_of]) <= NEAR_SET)
        & (strength >= AS_ITS_SET * set_chroma[k_of])
        & (others < QUIET_OTHERS) & (stray < QUIET_STRAY) & (samples.far < QUIET_STRAY)
        & (washed_share(samples) <= UNSATURATED)
    )  # fmt: skip
    near = nearby_seat_holes(board)
    for i in np.flatnonzero(candidate):
        beside = near[i] & bare & (owner_k == owner_k[i])
        beside[i] = False
        if beside.sum() < MIN_BARE:
            continue
        k = owner_k[i]
        # (the median way round from the set's hue: a token among them moves it little)
        turn = (hue[beside] - set_hue[k] + 180.0) % 360.0 - 180.0
        print_hue = (set_hue[k] + median(turn)) % 360.0
        if hue_gap(print_hue, set_hue[k]) < HUE_APART:
            continue
        if hue_gap(hue[i], print_hue) < FAR_FROM_PRINT:
            continue
        if strength[i] < median(strength[beside]) + OVER_PRINT:
            continue
        told[i] = 1.0
    return told
