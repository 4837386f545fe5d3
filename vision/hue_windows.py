"""Which hues belong to which token colour, in this photo.

Real tokens are not the palette's colours (a teal green, an orange red), so each colour owns a
window of hues round its prototype (the palette's, or the calibration's). A set's tokens look
alike in one photo, though: where a colour's clear tokens gather tightly, its hue in this photo
is theirs, and the windows are drawn between the hues the photo shows. Where one colour's
window holds two tight groups of tokens far apart, two sets fell in it: the group nearer the
colour is its own, and the other is the neighbouring colour's on that side when that colour
shows no set of its own elsewhere (a teal green as far off green as off blue, with blue's own
marbles in the window too); else the other group is nobody's, and unclear.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.calibrate import Calibration, palette_look
from vision.tokens import HUE_CENTRES, SpaceLooks, hue_gap

ACHROMATIC = 0.3  # colours with less chroma than this are told apart by brightness
REACH = 45.0  # degrees: a colour's window reaches this far round its prototype's hue ...
HUE_MARGIN = 4.0  # ... where it is nearer than any other's by twice this (halfway: neither)
PHOTO_HUE_MIN_TOKENS = 2  # clear tokens of a colour that say its hue in this photo
PHOTO_HUE_SPREAD = 15.0  # degrees: ... when they lie this close to their mean
PHOTO_HUE_CORE = 0.75  # ... all but a quarter of them at most (a stray hue among them)
PHOTO_HUE_REACH = 25.0  # degrees: ... and then the colour owns the hues this close to it
PHOTO_HUE_MOVE = 40.0  # a colour's hue in a photo is at most this far from its prototype's
TWO_SETS_APART = 40.0  # two groups in one window this far apart: two sets
PHOTO_HUE_LEND = 60.0  # the other set is a neighbour's at most this far from its prototype
# a colour whose set did not gather in the palette's windows looks again inside the window its
# neighbours' own sets left it, and may then move this far (the neighbours bound it already)
SECOND_LOOK_MOVE = 50.0


@dataclass(frozen=True)
class HueWindows:
    """Which hue bins belong to which chromatic colour."""

    colours: tuple[str, ...]
    member: np.ndarray  # (K, HUE_BINS) bool
    hues: np.ndarray  # (K,) degrees
    gathered: np.ndarray | None = None  # (K,) bool: the hue is where this photo's clear
    # tokens of that colour gather (None: the prototypes' hues, no photo looked at)


def prototype_windows(colours: tuple[str, ...], cal: Calibration | None) -> HueWindows:
    """The windows round each chromatic colour's hue as the calibration (else the palette)
    says it."""
    looks = {c: (cal.colour_look(c) if cal else palette_look(c)) for c in colours}
    chromatic = tuple(c for c in colours if looks[c][1] >= ACHROMATIC)
    hues = np.array([looks[c][0] for c in chromatic], np.float64)
    return HueWindows(chromatic, hue_member(hues), hues)


def hue_member(hues: np.ndarray, reach: np.ndarray | float = REACH) -> np.ndarray:
    """(K, HUE_BINS): each colour owns the hues within `reach` degrees of its own (per colour)
    that are nearer to it than to any other colour's by a margin (a hue between two colours is
    neither)."""
    angle = hue_gap(HUE_CENTRES[None, :], np.asarray(hues, np.float64)[:, None])  # (K, HUE_BINS)
    nearer = angle[:, None, :] <= angle[None, :, :] - 2 * HUE_MARGIN  # [k, j]: k's by a margin
    nearer[np.arange(len(angle)), np.arange(len(angle))] = True  # (each is no rival of its own)
    return (angle <= np.asarray(reach, np.float64).reshape(-1, 1)) & nearer.all(1)


def photo_windows(
    win: HueWindows, samples: SpaceLooks, owner_k: np.ndarray, token_sure: float
) -> HueWindows:
    """The windows drawn round the hues this photo's clear tokens (peak chroma at least
    `token_sure`, off their own seat's print, whose ink is no token's colour) gather at."""
    if len(win.colours) < 2:
        return win
    peaks = samples.peaks
    best = peaks.argmax(1)
    clear = (peaks[np.arange(len(peaks)), best] >= token_sure) & samples.valid
    seen = [
        HUE_CENTRES[best[clear & member[best] & (owner_k != k)]]
        for k, member in enumerate(win.member)
    ]
    hues = win.hues.copy()
    reach = np.full(len(hues), REACH)
    lent: dict[int, float] = {}  # a neighbour's set found in another colour's window
    for k, mine in enumerate(seen):
        if len(mine) < PHOTO_HUE_MIN_TOKENS:
            continue
        centre = gathered_hue(mine)
        groups = None if centre is not None else two_sets(mine)
        if groups is not None:
            centre, away = sorted(groups, key=lambda g: hue_gap(g, win.hues[k]))
            j = _neighbour_set(win, seen, k, centre, away)
            if j is not None:
                lent[j] = away
        if centre is not None and hue_gap(centre, win.hues[k]) <= PHOTO_HUE_MOVE:
            # and a set whose tokens look alike here owns no hue far from theirs: a teal green
            # marble 35 degrees off the blue ones was read blue
            hues[k], reach[k] = centre, PHOTO_HUE_REACH
    for j, away in lent.items():
        if reach[j] == REACH:  # (its own tokens did not gather elsewhere)
            hues[j], reach[j] = away, PHOTO_HUE_REACH
    if np.array_equal(hues, win.hues) and (reach == REACH).all():
        return win
    _second_look(hues, reach, peaks, best, clear, owner_k)
    return HueWindows(win.colours, hue_member(hues, reach), hues, reach < REACH)


def _second_look(
    hues: np.ndarray,
    reach: np.ndarray,
    peaks: np.ndarray,
    best: np.ndarray,
    clear: np.ndarray,
    owner_k: np.ndarray,
) -> None:
    """A teal green set half in blue's palette window and half in nobody's gathers nowhere
    at first. Once the colours whose sets did gather have drawn their windows round them, the
    clear tokens outside those windows are the other colours' to look at again: each such
    colour takes the hues nearer its prototype than any other such colour's (within
    PHOTO_HUE_LEND of it), and moves its hue to where its tokens there gather (in place)."""
    moved = reach < REACH
    if not moved.any() or moved.all():
        return
    claimed = hue_member(hues, reach)[moved].any(0)
    still = np.flatnonzero(~moved)
    gaps = hue_gap(HUE_CENTRES[None, :], hues[still][:, None])  # (unmoved colours, bins)
    for row, k in enumerate(still):
        nearest = (gaps[row][None, :] < np.delete(gaps, row, 0)).all(0)
        bins = ~claimed & nearest & (gaps[row] <= PHOTO_HUE_LEND)
        mine = HUE_CENTRES[best[clear & bins[best] & (owner_k != k)]]
        if len(mine) < PHOTO_HUE_MIN_TOKENS:
            continue
        centre = gathered_hue(mine)
        if centre is not None and hue_gap(centre, hues[k]) <= SECOND_LOOK_MOVE:
            hues[k], reach[k] = centre, PHOTO_HUE_REACH


def _neighbour_set(
    win: HueWindows, seen: list[np.ndarray], k: int, own: float, away: float
) -> int | None:
    """The colour a group of tokens in colour k's window, away from k's own set (at hue
    `own`), belongs to: the other colour whose prototype is nearest the group's hue, nearer
    than k's own set and within PHOTO_HUE_LEND, whose own clear tokens (if any) lie with the
    group; else None (the group stays nobody's)."""
    gaps = hue_gap(away, win.hues)
    gaps[k] = np.inf
    j = int(np.argmin(gaps))
    if gaps[j] > PHOTO_HUE_LEND or gaps[j] >= hue_gap(away, own):
        return None
    if len(seen[j]) and (hue_gap(seen[j], away) > PHOTO_HUE_SPREAD).any():
        return None
    return j


def gathered_hue(seen: np.ndarray) -> float | None:
    """The hue most of these tokens gather tightly round (at least PHOTO_HUE_MIN_TOKENS and
    PHOTO_HUE_CORE of them within PHOTO_HUE_SPREAD of their mean), else None. Most, not all:
    a stray hue among them (a teal green marble inside blue's window) would pull the mean
    and hide that the rest gather."""
    core = _core(seen)
    if len(core) < max(PHOTO_HUE_MIN_TOKENS, PHOTO_HUE_CORE * len(seen)):
        return None
    return circular_mean(core)


def two_sets(seen: np.ndarray) -> tuple[float, float] | None:
    """The hues of two tight groups that together hold all of these tokens, each at least
    PHOTO_HUE_MIN_TOKENS and TWO_SETS_APART apart; else None."""
    first = _core(seen)
    rest = seen[hue_gap(seen, circular_mean(first)) > PHOTO_HUE_SPREAD]
    if len(first) < PHOTO_HUE_MIN_TOKENS or len(rest) < PHOTO_HUE_MIN_TOKENS:
        return None
    second = _core(rest)
    if len(first) + len(second) < len(seen):
        return None
    a, b = circular_mean(first), circular_mean(second)
    return (a, b) if hue_gap(a, b) >= TWO_SETS_APART else None


def _core(seen: np.ndarray) -> np.ndarray:
    """The hues within PHOTO_HUE_SPREAD of the mean of the tightest crowd among them."""
    near = hue_gap(seen[:, None], seen[None, :]) <= PHOTO_HUE_SPREAD
    centre = circular_mean(seen[near[int(near.sum(1).argmax())]])
    return seen[hue_gap(seen, centre) <= PHOTO_HUE_SPREAD]


def circular_mean(degrees: np.ndarray) -> float:
    rad = np.radians(degrees)
    return float(np.degrees(np.arctan2(np.sin(rad).mean(), np.cos(rad).mean())) % 360.0)
