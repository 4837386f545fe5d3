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
"""

from __future__ import annotations

import numpy as np

from rules.geometry import Board
from vision.confidence import ramp
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


def print_beside_tokens(
    samples: SpaceLooks,
    board: Board,
    owner_k: np.ndarray,
    seat_hue: np.ndarray,
    bare_print: np.ndarray,
    asked: np.ndarray,
    others: np.ndarray,
    stray: np.ndarray,
) -> np.ndarray:
    """(N,) how surely a token of its seat's colour lies on each seat's hole, told by the
    hole's own bare print beside it (0 on plain spaces and wherever it cannot be told).

    `seat_hue`: each space's seat colour's hue (degrees); `bare_print`: (N, 3) each hole's
    bare look as this photo's plain holes predict it (nan where none is); `asked`: (N,) bool,
    the holes to look at (those not read yet); `others`: the strongest colour of another
    candidate in each cell; `stray`: of no candidate. Only on boards whose tokens are no
    wider than their holes (elsewhere a token covers its hole, and a bare hole's print is no
    even tint: a grey middle in a tinted ring showed the split as a token would)."""
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
    cx, cy, _ = looks
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
    return sure
