"""A token of a seat's own colour on one of its holes, told by the bare print seen beside it
in the same hole.

On Playground Battles a stand is much smaller than the round hole printed in its seat's tint
under it, and at the start every hole of a seat's back row holds one: no bare hole of the seat
shows how its tint looks in this photo, and the plain holes' prediction of it can be well off
(a printer's ink, a lamp's colour). The hole itself shows both: most of it is the bare print,
even in colour, and the stand on it is a patch clearly more colourful in the seat's hue.

So a token of the seat's colour lies on a hole where its most colourful part is well above
its least colourful part, that least colourful part looks like the print (not much paler than
predicted: a hand or a sleeve over part of a hole is no print), and the most colourful part is
also above the predicted print. Glare washes part of a hole out, which makes it paler, never
more colourful than the print; where the camera saturated nothing is read.

A pale stand of the seat's colour (lavender on a dark slate print) is about as colourful as
the print, but far brighter. Nothing of the seat's own print is that bright and that
colourful but its collar, the pale ring round the hole: so where a good part of the hole is
far brighter than the print and clearly more colourful than the seat's collars, a stand lies
there (unless glare lifts the holes near it: then the print itself may look so).
"""

from __future__ import annotations

import numpy as np

from rules.geometry import Board
from vision.confidence import ramp
from vision.printlook import nearby_seat_holes
from vision.standout import washed_share
from vision.tokens import SpaceLooks

RICH_SHARE = 90  # percentile of the hole's pixels by chroma in the seat's hue: the token's
PRINT_SHARE = 30  # ... and the bare print's around it (a stand covers a fifth to half a hole)
SPLIT = (0.15, 0.25)  # the token's part over the print's part: 0 .. sure (bare prints: < 0.08)
OVER_PRINT = (0.08, 0.15)  # ... and over the predicted print's chroma: 0 .. sure
AS_PRINT = (0.5, 0.65)  # the print's part against the predicted print's chroma: not print ..
# print (a print is seen up to a third paler than predicted; a hand's edge over the hole is
# grey or brown, near 0)
UNEVEN_MOST = 0.7  # a hole's light more uneven than this: an edge of something across it
QUIET_OTHERS = 0.25  # no colour of any other candidate above this in the cell
QUIET_STRAY = 0.28  # nor of no candidate, nor anything too far off centre
UNSATURATED = 0.02  # nor glare: the camera washed out no more of the hole than this
PALE_BRIGHTER = 1.3  # a pale stand's pixels are this many times as bright as the print ...
PALE_OVER_COLLAR = 0.1  # ... and this much more colourful in the seat's hue than its collars
PALE_SHARE = (0.08, 0.15)  # of the hole: 0 .. sure (twin dev photos: bare holes 0, pale
# stands 0.16-0.51; with glare lifting the holes, bare ones up to all of it: not asked there)
NO_LIFT = 0.1  # the plain holes near it lifted by glare no more than this (log ratio)


def print_beside_tokens(
    samples: SpaceLooks,
    board: Board,
    owner_k: np.ndarray,
    seat_hue: np.ndarray,
    bare_print: np.ndarray,
    asked: np.ndarray,
    others: np.ndarray,
    stray: np.ndarray,
    lift: np.ndarray,
    bare_shown: np.ndarray | None = None,
) -> np.ndarray:
    """(N,) how surely a token of its seat's colour lies on each seat's hole, told by the
    hole's own bare print beside it, or by a pale stand's brightness over it (0 on plain
    spaces and wherever it cannot be told).

    `seat_hue`: each space's seat colour's hue (degrees); `bare_print`: (N, 3) each hole's
    bare look as this photo's plain holes predict it (nan where none is); `asked`: (N,) bool,
    the holes to look at (those not read yet); `others`: the strongest colour of another
    candidate in each cell; `stray`: of no candidate; `lift`: how much glare lifts the plain
    holes nearest each space over the photo's unglared print (log ratio); `bare_shown`: (N,)
    bool, the holes that show their bare print (None: none known). Only on boards
    whose tokens are no wider than their holes (elsewhere a token covers its hole, and a bare
    hole's print is no even tint: a grey middle in a tinted ring showed the split as a token
    would)."""
    n = len(owner_k)
    sure = np.zeros(n)
    if board.token_radius > board.hole_radius:
        return sure
    hue = np.radians(seat_hue)
    predicted = bare_print[:, 0] * np.cos(hue) + bare_print[:, 1] * np.sin(hue)
    candidate = (
        asked & samples.valid & (owner_k >= 0) & (predicted > 0.0)
        & (samples.unevenness <= UNEVEN_MOST)
        & (others < QUIET_OTHERS) & (stray < QUIET_STRAY) & (samples.far < QUIET_STRAY)
        & (washed_share(samples) <= UNSATURATED)
    )  # fmt: skip
    spaces = np.flatnonzero(candidate)
    looks = samples.disc_looks(spaces) if len(spaces) else None
    if looks is None:
        return sure
    cx, cy, light = looks
    along = cx * np.cos(hue[spaces, None]) + cy * np.sin(hue[spaces, None])
    rich, plain = np.percentile(along, [RICH_SHARE, PRINT_SHARE], axis=1)
    printed = predicted[spaces]
    sure[spaces] = np.minimum.reduce(
        [
            ramp(rich - plain, *SPLIT),
            ramp(rich - np.maximum(printed, plain), *OVER_PRINT),
            ramp(plain / printed, *AS_PRINT),
        ]
    )
    print_light = _as_bright_as_bare_mates(samples, board, bare_print[:, 2], bare_shown, spaces)
    pale = _pale_stands(samples, owner_k, hue, print_light, spaces, along, light, lift)
    sure[spaces] = np.maximum(sure[spaces], pale)
    return sure


def _as_bright_as_bare_mates(
    samples: SpaceLooks,
    board: Board,
    print_light: np.ndarray,
    bare_shown: np.ndarray | None,
    spaces: np.ndarray,
) -> np.ndarray:
    """(N,) each hole's print brightness as the plain holes predict it, or, for `spaces`, as
    bright as the seat's holes nearby that show their bare print, if brighter: a lamp's patch
    or a shadow's edge between a hole and the plain holes it is predicted from lit a bare hole
    1.3 times its prediction, as a pale stand is (twin playground-battles all 10500/4: read
    blue, sure)."""
    if bare_shown is None:
        return print_light
    near = nearby_seat_holes(board)
    out = print_light.copy()
    light = samples.centre[:, 2]
    for i in spaces:
        mates = near[i] & samples.valid
        mates[i] = False
        bare = mates & bare_shown
        # (where none of them shows its bare print, as bright as most of them: a pale stand
        # stands out from its row; a row lit brighter than its prediction made a bare hole
        # look one, twin playground-battles all 12400/15)
        if mates.any():
            out[i] = np.fmax(out[i], float(np.median(light[bare if bare.any() else mates])))
    return out


def _pale_stands(
    samples: SpaceLooks,
    owner_k: np.ndarray,
    hue: np.ndarray,
    print_light: np.ndarray,
    spaces: np.ndarray,
    along: np.ndarray,
    light: np.ndarray,
    lift: np.ndarray,
) -> np.ndarray:
    """(S,) how surely a pale stand of the seat's colour lies on each of `spaces` (their
    holes' pixels `along` the seat's hue and `light`): a good share of the hole far brighter
    than the print and more colourful than the seat's collars (see the module docstring)."""
    seats = np.flatnonzero(samples.valid & (owner_k >= 0))
    rings = samples.collar_looks(seats)
    if rings is None:
        return np.zeros(len(spaces))
    rx, ry, _ = rings
    ring_along = np.median(rx * np.cos(hue[seats, None]) + ry * np.sin(hue[seats, None]), axis=1)
    collar = {k: float(np.median(ring_along[owner_k[seats] == k])) for k in set(owner_k[seats])}
    over_collar = np.array([collar.get(k, np.nan) for k in owner_k[spaces]]) + PALE_OVER_COLLAR
    bright = light >= PALE_BRIGHTER * print_light[spaces, None]
    share = (bright & (along >= over_collar[:, None])).mean(1)
    unlifted = (lift[spaces] <= NO_LIFT) & ~np.isnan(over_collar) & ~np.isnan(print_light[spaces])
    return np.where(unlifted, ramp(share, *PALE_SHARE), 0.0)
