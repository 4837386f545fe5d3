"""A token of a seat's own colour on one of its holes, told by the bright collar it hides.

Against a hole printed in its seat's tint, a token of that colour must be far more colourful
than the tint to be read by its colour (`vision.spaces`), or stand out from the seat's bare
holes beside it (`vision.standout`). A dark glass marble or a dull plastic pawn is often
neither: it is about as colourful as the tint, and at the start of a game every hole of a
seat holds one, so no bare hole beside it shows what the tint looks like.

What still tells it is its size. A seat's hole is printed with a collar brighter than its
middle, and a token is wider than the hole: it hides the collar. So a token of the seat's
colour lies on a hole where the ring just outside it is no brighter than its middle, while
the collars of the plain holes nearby show as bright as ever (so no shadow, glare or blur over
that part of the board took the collar away), the middle is at least as colourful as the
predicted print in the seat's hue, and nothing else is there: no other colour in the cell, no
colour going on beyond a token's edge (a hand, a sleeve), no glare lifting the holes near it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rules.geometry import Board
from rules.printing import MARK_RING_KINDS, SQUARE_KINDS
from vision.confidence import ramp
from vision.standout import washed_share
from vision.tokens import SpaceLooks

HIDDEN_COLLAR = (1.12, 1.04)  # the ring outside the hole against its middle: bright .. hidden
# (a bare hole's collar shows 1.2-1.9 times as bright as its middle, a token's ring 0.8-1.3)
LESS_THAN_PLAIN = (0.72, 0.62)  # ... and against the plain holes' collars nearby (bare ones
# show 0.8-1.1 of theirs: the print differs, the light over that part of the board does not)
PLAIN_NEIGHBOURS = 6  # the quiet plain holes nearest a hole whose collars are its reference
PLAIN_QUIET = 0.2  # a plain hole with no colour above this in or near its cell is quiet
AS_COLOURFUL = (-0.02, 0.06)  # chroma over the predicted bare tint: .. as colourful as a token
LIGHT_EVEN = 0.45  # a hole's light at most this uneven (a sheet laid off its place shows part
# of the hole's collar in its middle, and the ring then half hides nothing)
NO_LIFT = 0.1  # the plain holes near it lifted by glare no more than this (log ratio)
RING_OF_ITS_COLOUR = 0.45  # what hides the collar is the token: in the seat's hue, this share
# of the middle's chroma at least (tokens' 0.5-1.4; a hand's arm or sleeve over the ring beside
# a bare hole is another colour, and its shadow grey)
QUIET_OTHERS = 0.25  # no colour of any other candidate above this in the cell
QUIET_STRAY = 0.28  # nor of no candidate, nor anything too far off centre
UNSATURATED = 0.02  # nor glare: the camera washed out no more of the hole than this
# and a set's tokens share their colour: where this photo's clear tokens of the seat's colour
# are far more colourful, a hole at the tint's chroma is none of them (a bare hole between
# two tokens, its collar dimmed by their shadows and a dim lamp, was read as a red checker
# whose clear fellows showed three times its chroma)
AS_ITS_SET = (0.45, 0.6)  # chroma against the clear tokens of that colour: none .. as they are


@lru_cache(maxsize=16)
def collared_holes(board: Board) -> np.ndarray:
    """(N,) bool: seats' round holes printed with nothing but their collar around them (not
    round a square, nor inside a marked hole's ink ring)."""
    collared = np.array([sp.owner is not None and sp.kind not in SQUARE_KINDS
                         and sp.kind not in MARK_RING_KINDS for sp in board.spaces])  # fmt: skip
    collared.flags.writeable = False
    return collared


@lru_cache(maxsize=16)
def _plain_by_distance(board: Board) -> np.ndarray:
    """(N, P) per space, the indices of the board's plain spaces, nearest first."""
    plain = np.array([i for i, sp in enumerate(board.spaces) if sp.owner is None], np.int64)
    xy = np.array([[sp.x, sp.y] for sp in board.spaces], np.float64)
    if not len(plain):
        return np.zeros((len(xy), 0), np.int64)
    distance = np.hypot(*(xy[:, None, :] - xy[None, plain, :]).transpose(2, 0, 1))
    order = plain[np.argsort(distance, axis=1, kind="stable")]
    order.flags.writeable = False
    return order


def covered_collar_tokens(
    samples: SpaceLooks,
    board: Board,
    owner_k: np.ndarray,
    seat_hue: np.ndarray,
    over_tint: np.ndarray,
    token_sized: np.ndarray,
    others: np.ndarray,
    stray: np.ndarray,
    lift: np.ndarray,
    against_plain: np.ndarray,
    of_its_set: np.ndarray,
) -> np.ndarray:
    """(N,) how surely a token of its seat's colour lies on each seat's hole, told by the
    collar it hides (0 on plain spaces and wherever it cannot be told).

    `seat_hue`: each space's seat colour's hue (degrees; the colour is measured along it);
    `over_tint`: how much more colourful each hole is in its seat's colour than its bare print
    as this photo's plain holes predict it (nan where none is predicted); `token_sized`: how
    surely that colour ends at a token's edge; `others`: the strongest colour of another
    candidate in each cell; `stray`: of no candidate; `lift`: how much glare lifts the plain
    holes nearest each space over the photo's unglared print (log ratio); `against_plain`:
    each collared hole's collar against the plain holes' near it (`collar_against_plain`;
    nan elsewhere); `of_its_set`: each hole's chroma in its seat's colour against that of
    this photo's clear tokens of the colour (nan where none says)."""
    n = len(owner_k)
    sure = np.zeros(n)
    if samples.collar is None or board.token_radius <= board.hole_radius:
        return sure  # (a token no wider than its hole hides no collar)
    collar = samples.collar
    candidate = (
        samples.valid & (owner_k >= 0) & collared_holes(board)
        & (collar < HIDDEN_COLLAR[0]) & (over_tint > AS_COLOURFUL[0]) & (token_sized >= 0.5)
        & (samples.unevenness <= LIGHT_EVEN) & (lift <= NO_LIFT)
        & (others < QUIET_OTHERS) & (stray < QUIET_STRAY) & (samples.far < QUIET_STRAY)
        & (washed_share(samples) <= UNSATURATED)
    )  # fmt: skip
    if not candidate.any():
        return sure
    spaces = np.flatnonzero(candidate)
    against = against_plain[spaces]
    hiding = samples.collar_dark_look(spaces)
    if hiding is None:
        return sure
    hue = np.radians(seat_hue[spaces])
    middle = samples.centre[spaces, 0] * np.cos(hue) + samples.centre[spaces, 1] * np.sin(hue)
    ring = hiding[:, 0] * np.cos(hue) + hiding[:, 1] * np.sin(hue)
    for i, in_middle, on_ring, against_plain in zip(spaces, middle, ring, against, strict=True):
        if on_ring < RING_OF_ITS_COLOUR * in_middle or np.isnan(against_plain):
            continue
        sure[i] = min(
            float(ramp(collar[i], *HIDDEN_COLLAR)),
            float(ramp(against_plain, *LESS_THAN_PLAIN)),
            float(ramp(over_tint[i], *AS_COLOURFUL)),
        )
        if not np.isnan(of_its_set[i]):
            sure[i] = min(sure[i], float(ramp(of_its_set[i], *AS_ITS_SET)))
    return sure


def collar_against_plain(samples: SpaceLooks, board: Board, spaces: np.ndarray) -> np.ndarray:
    """(S,) each of `spaces`' collar against the median collar of the quiet plain holes
    nearest it (the light over that part of the board, glare included, is theirs too): a bare
    hole's shows 0.8-1.1 of theirs; nan where too few quiet plain holes are near. Worked out
    for all of them at once: every frame asks it of every collared hole."""
    collar = samples.collar
    out = np.full(len(spaces), np.nan)
    if collar is None or not len(spaces):
        return out
    quiet = samples.valid & (samples.peaks.max(1) < PLAIN_QUIET) & (samples.far < PLAIN_QUIET)
    nearest = _plain_by_distance(board)[spaces]  # (S, P) plain holes, nearest first
    counted = quiet[nearest]
    counted &= np.cumsum(counted, axis=1) <= PLAIN_NEIGHBOURS
    count = counted.sum(1)
    enough = count >= PLAIN_NEIGHBOURS // 2
    if not enough.any():
        return out
    # each row's counted collars first, in order (the rest pushed past them), and its median
    ordered = np.sort(np.where(counted, collar[nearest], np.inf), axis=1)[enough]
    count = count[enough]
    rows = np.arange(len(count))
    upper = ordered[rows, count // 2]
    lower = ordered[rows, np.maximum(count - 1, 0) // 2]
    middle = np.where(count % 2 == 1, (upper + 0.0) / 1, (lower + upper + 0.0) / 2)
    out[enough] = collar[spaces[enough]] / np.maximum(middle, 1e-3)
    return out
