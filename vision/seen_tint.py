"""A seat's tint as this photo's bare holes show it, where the plain holes' prediction is off.

The bare holes that match the prediction show the tint's true hue and level (`seen_tints`):
round a stand on another seat's row that is what the row's colour is, not a stand hidden
behind it. And the tint can be paler than predicted (`pale_tints`).

The tint the plain holes predict (`vision.printlook`) sets the floor a token of the seat's
colour must stand above: a bare tint is never much more colourful than predicted. A printer's
ink and a camera can show a tint a third paler than predicted, though (a twin photo of our
Playground Battles board showed blue's back row at 0.46 against 0.66 predicted), and then
tokens of that colour, plainly more colourful than the bare holes beside them, stay under the
floor and are unclear.

What tells a player is what this module asks: the seat's holes split cleanly in two. Some
look bare in every way but how colourful (the predicted hue and brightness, evenly lit,
nothing else in the cell) and alike; every other one is far more colourful, as colourful as
the colour's tokens elsewhere on the board. Then the bare-looking ones show the tint. (The
other reading, that the bare-looking ones are dull tokens and the rich ones bare print, would
need this colour's tokens to look far duller on its row than everywhere else.)
"""

from __future__ import annotations

import numpy as np

from vision.exact import median
from vision.tokens import SpaceLooks, hue_deg, hue_gap

PALE_BARE_MIN = 2  # holes that look bare but paler than predicted, at least
PALE_ALIKE = 0.06  # ... whose tint levels lie this close together
PALE_MOST = 0.9  # ... each at most this share of the predicted chroma (else: as predicted)
PALE_LEAST = 0.5  # ... and at least this share (paler: washed out, or no print at all)
PALE_HUE = 20.0  # degrees: a bare-looking hole's middle lies this close to the predicted hue
PALE_LIGHT = 0.25  # ... its brightness this close to the predicted (log ratio)
PALE_EVEN = 0.25  # ... and it is evenly lit (log ratio of its brightest to darkest fifth)
PALE_QUIET = 0.2  # ... with no other colour in its cell, and nothing far off its centre
PALE_STEP = 0.3  # every other hole of the group is this much more colourful at least ...
TOKEN_LIKE = 0.15  # ... and this close to the colour's tokens elsewhere on the board
OTHER_COLOUR = 0.25  # (a hole with another colour this strong in it says nothing)


def pale_tints(
    groups: dict[tuple[int, str], np.ndarray],
    samples: SpaceLooks,
    level: np.ndarray,
    bare_print: np.ndarray,
    others: np.ndarray,
    token_level: np.ndarray,
    owner_k: np.ndarray,
) -> np.ndarray:
    """(N,) per seat's hole, its tint level as its group's bare holes show it where they show
    it paler than predicted and the group splits cleanly (see the module); nan elsewhere.

    `groups`: (seat, kind) -> its holes, printed alike; `level`: each hole's tint level (its
    strongest peak in the seat's hue, or its middle's chroma); `bare_print`: (N, 3) the bare
    look the plain holes predict; `others`: the strongest other colour in each cell;
    `token_level`: per colour, its clear tokens' chroma on plain spaces (nan: unknown)."""
    out = np.full(len(level), np.nan)
    predicted = np.hypot(bare_print[:, 0], bare_print[:, 1])
    paler = (level <= PALE_MOST * predicted) & (level >= PALE_LEAST * predicted)
    if np.count_nonzero(paler) < PALE_BARE_MIN:  # (the usual frame: the prediction holds)
        return out
    turn = hue_gap(hue_deg(samples.centre[:, 0], samples.centre[:, 1]),
                   hue_deg(bare_print[:, 0], bare_print[:, 1]))  # fmt: skip
    off_light = np.abs(np.log(np.maximum(samples.centre[:, 2], 1e-3)
                              / np.maximum(bare_print[:, 2], 1e-3)))  # fmt: skip
    quiet = samples.valid & (others < PALE_QUIET) & (samples.far < PALE_QUIET)
    quiet &= samples.clipped < 0.02
    bare_like = quiet & (turn <= PALE_HUE) & (off_light <= PALE_LIGHT)
    bare_like &= samples.unevenness <= PALE_EVEN
    bare_like &= paler
    for members in groups.values():
        tokens = float(token_level[owner_k[members[0]]])
        if np.isnan(tokens) or np.isnan(predicted[members]).any():
            continue
        bare = members[bare_like[members]]
        if len(bare) < PALE_BARE_MIN or np.ptp(level[bare]) > PALE_ALIKE:
            continue
        top = float(level[bare].max())
        rest = members[~bare_like[members] & samples.valid[members]]
        rest = rest[others[rest] < OTHER_COLOUR]  # (another colour's stand says nothing)
        rich = (level[rest] >= top + PALE_STEP) & (np.abs(level[rest] - tokens) <= TOKEN_LIKE)
        if rich.all():
            out[members] = top
    return out


def as_pale_as(look: np.ndarray, pale: np.ndarray, bare: np.ndarray | None = None) -> np.ndarray:
    """(N, 3) `look` with its chroma scaled as the bare print's (`bare`, else `look` itself)
    goes to `pale` where that is known (nan: left as it is)."""
    ref = look if bare is None else bare
    size = np.hypot(ref[:, 0], ref[:, 1])
    scale = np.where(np.isnan(pale) | np.isnan(size), 1.0, pale / np.maximum(size, 1e-3))
    out = look.copy()
    out[:, :2] *= scale[:, None]
    return out


def seen_tints(
    groups: dict[tuple[int, str], np.ndarray], shows: np.ndarray, level: np.ndarray,
    centre: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """(N, 3) per seat's hole, how its group's holes (seat and kind, printed alike) that show
    their bare print in this photo look: their median middle's (chroma x, chroma y) and
    their median tint level; nan where none shows it."""
    out = np.full((len(shows), 3), np.nan)
    for members in groups.values():
        bare = members[shows[members]]
        if len(bare):
            out[members, :2] = median(centre[bare, :2].astype(np.float64), 0)
            out[members, 2] = median(level[bare])
    return out


def in_seen_hue(look: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """(N, 3) the bare print's `look` as the plain holes predict it, turned to the hue its
    seat's bare holes show in this photo where they are seen (`seen_tints`): a printer's ink
    and a camera shift a tint's hue by some degrees, more than its chroma."""
    size = np.hypot(look[:, 0], look[:, 1])
    seen_size = np.hypot(seen[:, 0], seen[:, 1])
    known = ~np.isnan(seen_size) & ~np.isnan(size) & (seen_size > 1e-3)
    out = look.copy()
    out[known, :2] = seen[known, :2] * (size[known] / seen_size[known])[:, None]
    return out
