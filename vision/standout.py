"""A token of a seat's own colour on one of its holes, told by standing out from its bare
neighbours.

Against a hole printed in its seat's tint, a token of that colour must be far more colourful
than the tint to be read by colour alone (`vision.spaces`). A glass marble or a plastic
checker often is not: it is only somewhat more colourful. What tells it is what tells it to a
player: the seat's bare holes nearby look alike, and this one does not. It is not its bare
print (brightness or evenness), its light is uneven (a rounded, shaded, glossy thing lies
there), and it is clearly more colourful than the bare holes beside it, in the seat's hue
(measured along it) and no other. Glare and a shadow change light and wash colour out;
neither adds colour, and a hole in a shadow, darker than its neighbours, is left alone.
"""

from __future__ import annotations

import numpy as np

from rules.geometry import Board
from vision.confidence import ramp
from vision.exact import median
from vision.printlook import nearby_seat_holes
from vision.tokens import SpaceLooks

STANDOUT_UNEVEN = 0.3  # a hole's light this uneven (see `unevenness`): something lies there
STANDOUT_CHROMA = (0.08, 0.16)  # more colourful than the bare neighbours' median: 0 .. sure
STANDOUT_DARKER = 0.15  # no darker than the bare neighbours by more than this (log ratio)
STANDOUT_MIN_BARE = 2  # bare holes of the seat nearby that say how its bare print looks
BARE_HOLE = 0.5  # a neighbour this like its bare print (and with no other colour) is bare
NOT_BARE = 0.1  # ... and a hole at most this like it is not (hole_like's 0..1, a strict scale:
# on seats' holes only a clearly bare print reaches 1)
QUIET_OTHERS = 0.25  # no colour of any other candidate above this in the cell
QUIET_STRAY = 0.28  # nor of no candidate, nor anything too far off centre
UNSATURATED = 0.02  # nor glare: the camera washed out no more of the hole than this


def washed_share(samples: SpaceLooks) -> np.ndarray:
    """(N,) share of each hole's middle that glare washed out: saturated and pale. A vivid
    token saturates one channel of its own colour (a salmon checker's red), which is no glare
    and must not hide it; looks made without the pale share count any saturation."""
    return samples.clipped if samples.washed is None else samples.washed


def standout_tokens(
    samples: SpaceLooks,
    board: Board,
    owner_k: np.ndarray,
    seat_hue: np.ndarray,
    hole_like: np.ndarray,
    others: np.ndarray,
    stray: np.ndarray,
    bare_print: np.ndarray,
) -> np.ndarray:
    """(N,) how surely a token of its seat's colour lies on each seat's hole, told by standing
    out from the seat's bare holes nearby (0 on plain spaces and wherever it cannot be told).

    `seat_hue`: each space's seat colour's hue (degrees; the colour is measured along it);
    `hole_like`: how like its bare print each hole looks (0..1, as `vision.spaces` weighs it);
    `others`: the strongest colour of another candidate in each cell; `stray`: of no
    candidate; `bare_print`: (N, 3) each hole's bare look as this photo's plain holes predict
    it (`vision.printlook`; nan where none is): the token must stand out from that as well as
    from its neighbours, which may be paler than their print (a sheet of a home-printed board
    laid a little off its place shows a hole's middle its tint's edge)."""
    n = len(owner_k)
    sure = np.zeros(n)
    seat = np.nonzero(owner_k >= 0)[0]
    if len(seat) == 0 or samples.disc_light is None:
        return sure
    hue = np.radians(seat_hue)
    along = samples.centre[:, 0] * np.cos(hue) + samples.centre[:, 1] * np.sin(hue)
    printed = bare_print[:, 0] * np.cos(hue) + bare_print[:, 1] * np.sin(hue)
    light = np.log(np.maximum(samples.centre[:, 2], 1e-3)).astype(np.float64)
    bare = samples.valid & (hole_like >= BARE_HOLE) & (others < QUIET_OTHERS)
    lone = (
        samples.valid & (owner_k >= 0) & (hole_like <= NOT_BARE)
        & (samples.unevenness >= STANDOUT_UNEVEN)
        & (others < QUIET_OTHERS) & (stray < QUIET_STRAY) & (samples.far < QUIET_STRAY)
        & (washed_share(samples) <= UNSATURATED)
    )  # fmt: skip
    near = nearby_seat_holes(board)
    for i in np.nonzero(lone)[0]:
        beside = near[i] & bare
        beside[i] = False
        if beside.sum() < STANDOUT_MIN_BARE:
            continue
        if light[i] - median(light[beside]) < -STANDOUT_DARKER:
            continue
        excess = along[i] - median(along[beside])
        if not np.isnan(printed[i]):
            excess = min(excess, along[i] - printed[i])
        sure[i] = float(ramp(excess, *STANDOUT_CHROMA))
    return sure
