"""Read every space: empty, a token colour, two stands in a battle, or unclear.

`sample_spaces` measures every space's cell in the paper-normalised top view
(`vision.topview`, `vision.tokens`); `classify_spaces` decides. A token is a chroma peak of
its own in the cell, in the hue of one of the board's colours. Real tokens are not the
palette's colours, so each colour owns a window of hues around its prototype (the palette's,
or the calibration's) and the level that counts as a token is judged against the print under
it: a plain hole is grey, so any clear colour there is a token; a hole printed in a seat's tint
is compared with the other holes of that seat in the same photo (or with its own look in the
calibration), so an empty tinted hole is never taken for a token of that colour, and a pale
token is never taken for a tinted hole: what cannot be told apart is unclear.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE, UNKNOWN
from vision.calibrate import Calibration, palette_look
from vision.confidence import ramp
from vision.config import VisionConfig, check_frame
from vision.contest import contest_mark
from vision.covered_collar import collar_against_plain, collared_holes, covered_collar_tokens
from vision.exact import median
from vision.glare import PREDICTED_LIGHT, in_lift_range, unsaturated, veiled_print
from vision.hidden_stand import (
    hidden_stand,
    less_neighbours_reach,
    net_of_print,
    slivers,
    unexplained_row_colour,
)
from vision.hue_windows import HueWindows, photo_windows, prototype_windows
from vision.lens import Lens
from vision.print_beside import print_beside_tokens
from vision.printlook import MIN_PLAIN, PLAIN_QUIET, check_print, predicted_prints, tint_level
from vision.seat_hue import hue_told_tokens
from vision.seat_peers import read_by_peers
from vision.seen_tint import as_pale_as, in_seen_hue, pale_tints, seen_tints
from vision.standout import standout_tokens
from vision.tokens import HUE_BINS, HUE_CENTRES, SpaceLooks, hue_deg, hue_gap, look_at_spaces
from vision.topview import top_view

TOKEN_SURE = 0.42  # chroma of a clear token on a plain (grey) space
# ... or this where the peak's hue lies within DULL_HUE of its colour's in this photo: dull
# plastic (chroma ~0.3) is still far above anything a bare plain space shows (at most 0.2 in
# every development photo), and a hue that near its own colour's is no other colour's (a teal
# marble 35 degrees off blue, between blue and green, still needs TOKEN_SURE)
TOKEN_SURE_DULL = 0.36
DULL_HUE = 15.0
TOKEN_FAINT = 0.25  # below this, no token colour on a plain space
QUIET = 0.2  # at most this, surely no token on a plain space (print, JPEG colour bleeding)
PLAIN_LOOK_REACH = 45.0  # degrees: colours this near the plain print's look in a photo ...
PLAIN_LOOK_FAINT = 0.15  # ... need this much more chroma than it to count at all ...
PLAIN_LOOK_FULL = 0.3  # ... and this much more to be clear (as against a seat's tint)
PLAIN_LOOK_SPREAD = 0.1  # the plain middles gather round their look: this near it ...
PLAIN_LOOK_SHARE = 0.6  # ... this share of them at least ...
PLAIN_LOOK_CAP = 0.4  # ... and it is no more colourful than this (no set of tokens, no skin)
TINT_CAP = 0.65  # a printed tint is never more colourful than this
# a seat's tint learnt at calibration, seen bare later, is at most this much more colourful
# (the seat's drift scales it with the light; the faintest token is 0.15 above it)
LEARNT_TINT_ROOM = 0.08
TINT_USUAL = 0.4  # nor a seat's colour beside another token judged against less than this
PREDICTED_TINT_MARGIN = 0.05  # a token this far over the full bar above a predicted tint
TINT_MARGIN = 0.04  # no token on a seat's hole is half sure where its colour reaches the quiet
# level (the predicted tint and its room): a dull stand of the seat's hue shows just that
TINT_ROOM = 0.12  # a bare tint is at most this much more colourful than predicted
UNEVEN_LIGHT = 0.3  # a bare hole is evenly printed: its light's unevenness (log ratio) is
# under this, or it is not surely empty ...
SHARP_UNEVEN = 0.05  # ... in a sharp photo, whose bare plain holes' median is under this;
# where blur or a small board spreads the print's edge into its middle, the bar moves up by as
# much as this photo's quiet plain holes are more uneven than that
SEAT_HOLE_DOUBT = 0.8  # a seat's hole as like its bare print as this is not surely bare ...
SEAT_HOLE_SURE = 0.95  # ... and as like as this is
COLLAR_HIDDEN = 1.05  # a ring just outside a seat's hole this bright against its middle: hidden
COLLAR_SHOWN = 1.15  # ... this bright: the printed collar shows, no token wider than the hole
COLLAR_BELOW_PLAIN = (0.66, 0.74)  # ... and against the quiet plain holes' collars near it:
# hidden .. shown (bare holes show 0.8-1.1 of theirs, under glare too; dark green glass marbles
# at a start, defocused, half hid their collars at 1.11-1.14 against the plain holes' 1.6 and
# more, and with the bar above alone three were read as empty holes: twin seed 9101 frame 5)
PRINT_HUE_CHROMA = 0.1  # a predicted print this colourful has a hue of its own ...
PRINT_HUE_REACH = 20.0  # ... and on its hole, colour within this many degrees of it is print


SpaceSamples = SpaceLooks  # what `sample_spaces` returns (kept name for callers)


def sample_spaces(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    markers_seen: tuple[int, ...] | None = None,
    lens: Lens | None = None,
) -> SpaceLooks:
    """Measure every space of `board` in `image` (homography: image px -> board mm, in the
    image as a pinhole would have seen it through `lens`)."""
    check_frame(image)
    if image.ndim != 3:
        raise ValueError("reading spaces needs a colour (BGR) frame")
    return look_at_spaces(top_view(image, board, homography, lens), board)


def candidate_colours(board: Board) -> tuple[str, ...]:
    """Token colours that can appear on this board: the seats' colours, else the palette."""
    colours = tuple(c for c in board.seat_colours if c in PALETTE)
    return colours or tuple(PALETTE)


@dataclass(frozen=True)
class _PlainLook:
    """How the bare plain print looks in this photo: the median colour of plain spaces'
    middles, and whether most of them gather tightly round it (then it is the print's look,
    not a mix of tokens, skin and print)."""

    cx: float
    cy: float
    gathered: bool

    @property
    def chroma(self) -> float:
        return float(np.hypot(self.cx, self.cy))

    @property
    def cast_at(self) -> tuple[float, float] | None:
        """The look as a colour near which pixels are print, where it is surely the print's."""
        return (self.cx, self.cy) if self.gathered else None

    def near(self, hues: np.ndarray) -> np.ndarray:
        """(K,) bool: which of these colours' hues lie near the look's."""
        return hue_gap(hues, float(hue_deg(self.cx, self.cy))) <= PLAIN_LOOK_REACH


def _plain_look(samples: SpaceLooks, owner_k: np.ndarray) -> _PlainLook | None:
    """None where too few plain spaces are in view to say."""
    plain = samples.valid & (owner_k < 0)
    if plain.sum() < MIN_PLAIN:
        return None
    cx, cy = (float(median(samples.centre[plain, j])) for j in (0, 1))
    near = np.hypot(samples.centre[plain, 0] - cx, samples.centre[plain, 1] - cy)
    gathered = (near <= PLAIN_LOOK_SPREAD).mean() >= PLAIN_LOOK_SHARE
    return _PlainLook(cx, cy, bool(gathered and np.hypot(cx, cy) <= PLAIN_LOOK_CAP))


def _above_plain_look(
    faint: np.ndarray,
    full: np.ndarray,
    quiet_at: np.ndarray,
    look: _PlainLook | None,
    owner_k: np.ndarray,
    win: HueWindows,
) -> None:
    """Raise the token bars on plain spaces (in place) above how coloured their print looks in
    this photo: tinted paper or a cast its white does not share makes the grey print look
    coloured (a bluish grey as colourful as a dull blue stand, on a pinkish sheet), and a
    token of a colour near that look must stand well above it. Most plain spaces are bare, so
    their middles' median is the print's look (where most hold tokens, the bars only rise).
    Where most plain middles gather tightly round a moderate look, that look is surely the
    bare print's, and a space as coloured as it is quiet (as a seat's hole is at its tint)."""
    if look is None or not len(win.colours):
        return
    rows = np.nonzero(owner_k < 0)[0][:, None]
    cols = np.nonzero(look.near(win.hues))[0][None, :]
    faint[rows, cols] = np.maximum(faint[rows, cols], look.chroma + PLAIN_LOOK_FAINT)
    full[rows, cols] = np.maximum(full[rows, cols], look.chroma + PLAIN_LOOK_FULL)
    if look.gathered:
        quiet_at[rows, cols] = np.maximum(quiet_at[rows, cols], look.chroma + TINT_ROOM)


@dataclass(frozen=True)
class _Seats:
    """Per board and colours, which spaces are printed in which seat's colour."""

    owner_k: np.ndarray  # (N,) the column of the space's seat colour, -1 for plain spaces
    groups: dict[tuple[int, str], np.ndarray]  # (seat, kind) -> its spaces, printed alike
    seats: dict[int, np.ndarray]  # seat -> all its spaces


@lru_cache(maxsize=32)
def _seats(board: Board, colours: tuple[str, ...]) -> _Seats:
    owner_k = np.full(len(board.spaces), -1)
    groups: dict[tuple[int, str], list[int]] = {}
    for i, space in enumerate(board.spaces):
        if space.owner is not None and space.owner < len(board.seat_colours):
            colour = board.seat_colours[space.owner]
            if colour in colours:
                owner_k[i] = colours.index(colour)
                groups.setdefault((space.owner, space.kind), []).append(i)
    seats = {o: np.array([i for i, sp in enumerate(board.spaces) if sp.owner == o])
             for o, _ in groups}  # fmt: skip
    return _Seats(owner_k, {g: np.array(m) for g, m in groups.items()}, seats)


@dataclass(frozen=True)
class _Bars:
    """Per space, the levels of chroma in its owner's hue: at most `quiet` is surely no
    token of that colour; `faint` to `full` is a token's confidence rising from 0 to 1."""

    quiet: np.ndarray
    faint: np.ndarray
    full: np.ndarray


def _tint_bars(board: Board, win: HueWindows, strength: np.ndarray, cal: Calibration | None,
               token_level: np.ndarray, printed: np.ndarray, print_level: np.ndarray,
               want: np.ndarray) -> _Bars:  # fmt: skip
    """Where a space is printed in its seat's tint, a token of that colour must stand out
    from the tint. The tint is known from the calibration where it saw the space empty; else
    it is judged from the photo itself: from the spaces that show their print as the plain
    holes predict it (`printed`, see `vision.printlook`); else spaces of one seat and kind
    are printed alike, so their chroma falls in two groups, empty and occupied, or in one
    group only: then the same colour's tokens elsewhere (`token_level`) say whether the
    group is far below them (all tints) or level with them and stronger than any tint (all
    tokens); otherwise only the faintest (surely empty) and the strongest (surely tokens)
    can be told."""
    n = len(board.spaces)
    quiet = np.full(n, QUIET)
    faint = np.full(n, TOKEN_FAINT)
    full = np.full(n, TOKEN_SURE)
    seating = _seats(board, win.colours)
    groups = seating.groups
    drift = {}  # per seat, over all its spaces whose tint was seen
    for owner in {o for o, _ in groups}:
        seat = seating.seats[owner]
        known = [i for i in seat if cal and cal.empty_tint(board.spaces[i].id) is not None]
        colour = board.seat_colours[owner]
        drift[owner] = 1.0 if not known else _tint_drift(
            strength[known, win.colours.index(colour)],
            np.array([cal.empty_tint(board.spaces[i].id) for i in known]),
            cal.colour_look(colour)[1],
        )  # fmt: skip
    for (owner, _kind), members in groups.items():
        colour = board.seat_colours[owner]
        k = win.colours.index(colour)
        idx = members
        learned = [cal.empty_tint(board.spaces[i].id) if cal else None for i in idx]
        if all(v is not None for v in learned):
            level = np.minimum(np.array(learned, np.float64), TINT_CAP)
            level = level * drift[owner]
            quiet[idx], faint[idx] = level + LEARNT_TINT_ROOM, level + 0.15
            full[idx] = np.maximum(level + 0.3, TOKEN_SURE)
            continue
        shows = printed[idx]
        if shows.any():  # the tint as this photo shows it, where the print is seen bare
            level = min(float(median(print_level[idx[shows]])), TINT_CAP)
            quiet[idx] = np.where(shows, level + 0.1, level)
            faint[idx], full[idx] = level + 0.15, max(level + 0.3, TOKEN_SURE)
            continue
        mates = seating.seats[owner][printed[seating.seats[owner]]]
        if len(mates):  # all covered (a start), but the seat's other holes show its tint:
            # every one is printed alike, so it is that tint (or, under glare there, what the
            # plain holes predict here without it)
            level = float(median(print_level[mates]))
            predicted = np.hypot(want[idx, 0], want[idx, 1])
            if not np.isnan(predicted).any():
                level = max(level, float(predicted.max()))
            level = min(level, TINT_CAP)
            quiet[idx], faint[idx], full[idx] = level, level + 0.15, max(level + 0.3, TOKEN_SURE)
            continue
        vals = strength[idx, k]
        k_count = len(win.colours)
        others = strength[idx][:, _all_but(k_count, k)].max(1) if k_count > 1 else 0 * vals
        # holes covered by another colour, or not seen, say nothing about the tint
        order = np.sort(vals[(vals >= 0.15) & (others < TOKEN_FAINT)])
        if len(order) == 0:  # every hole covered: a token of the seat's colour beside another
            # must stand above the tint the plain holes predict, or above any tint
            predicted = np.hypot(want[idx, 0], want[idx, 1])
            known = predicted[~np.isnan(predicted)]
            # (a prediction off a badly lit grey can fall short: never under a usual tint)
            level = float(np.clip(median(known), TINT_USUAL, TINT_CAP)) if len(known) else TINT_CAP
            faint[idx], full[idx] = level + 0.15, max(level + 0.3, TOKEN_SURE)
            continue
        gaps = np.diff(order)
        if len(order) >= 2 and gaps.max() >= 0.2 and order[int(np.argmax(gaps))] <= TINT_CAP:
            low = list(order[: int(np.argmax(gaps)) + 1])
            odd = []  # stronger than the tints by a step of its own: a pale token, perhaps
            while len(low) >= 2 and low[-1] - low[-2] > 0.06:
                odd.append(low.pop())
            top = float(low[-1])  # the strongest tint that is surely empty
            high = float(median(order[int(np.argmax(gaps)) + 1 :]))
            # one alone is a tint only when far under the tokens beside it
            alone_ok = len(low) >= 2 or top <= 0.55 * high
            quiet[idx] = top + 0.02 if alone_ok else min(top - 0.04, 0.45)
            faint[idx] = max([top + 0.08, *(v + 0.02 for v in odd)])
            full[idx] = max([top + 0.18, *(v + 0.12 for v in odd)])
            continue
        tokens_elsewhere = float(token_level[k])
        if tokens_elsewhere != tokens_elsewhere and cal is not None and colour in cal.colours:
            tokens_elsewhere = cal.colours[colour][1]  # the tokens the calibration saw
        if order[-1] <= min(0.55 * tokens_elsewhere, TINT_CAP):  # nan compares False
            top = float(order[-1])
            quiet[idx], faint[idx], full[idx] = top + 0.05, top + 0.1, top + 0.2
            continue
        if order[0] > TINT_CAP and order[0] >= 0.75 * tokens_elsewhere:
            full[idx] = max(TOKEN_SURE, float(order[0]) - 0.02)
            faint[idx] = full[idx] - 0.1
            continue
        level = min(float(median(order)), TINT_CAP)
        # the faintest of the group is taken for an empty tint only while it is well under
        # any token of that colour seen (a group of one may be a token itself)
        ceiling = 0.55 * tokens_elsewhere if tokens_elsewhere == tokens_elsewhere else 0.45
        known = tokens_elsewhere == tokens_elsewhere
        far_under = known and order[-1] <= 0.5 * tokens_elsewhere
        alike = order[-1] - order[0] <= (0.1 if far_under else 0.06)
        if len(order) >= (2 if far_under else 3) and alike and order[-1] <= ceiling:
            quiet[idx] = float(order[-1]) + 0.02  # printed alike, far under the tokens: tints
        else:  # the faintest may be a token as well as a tint: only what is clearly fainter
            quiet[idx] = min(float(order[0]) - 0.04, ceiling)
        full[idx] = max(TOKEN_SURE, level + 0.35)
        faint[idx] = full[idx] - 0.15
    return _Bars(quiet, faint, full)


def _all_but(count: int, k: int) -> np.ndarray:
    """(count,) bool: every column but k (`np.delete`'s columns, without its overhead)."""
    keep = np.ones(count, bool)
    keep[k] = False
    return keep


def _tint_drift(now: np.ndarray, learned: np.ndarray, token: float) -> float:
    """How much a seat's printed tint has changed since the calibration (a new lamp, a
    cloud): the median change over the spaces that still look like tints, not tokens. Only
    a majority of a group counts, and never more than 30% either way."""
    looks_tint = (now > 0.1) & (now < np.minimum(learned * 1.5, 0.7 * token))
    if looks_tint.sum() < max(2, 0.5 * len(now)):
        return 1.0
    return float(np.clip(median(now[looks_tint] / np.maximum(learned[looks_tint], 0.05)),
                         0.7, 1.3))  # fmt: skip


def _token_levels(strength: np.ndarray, owner_k: np.ndarray) -> np.ndarray:
    """Per colour, the chroma of its clear tokens in this photo (nan when unknown): on spaces
    not printed in that colour; else, on its own seat's spaces, the stronger of two groups
    that lie far apart, when stronger than any printed tint."""
    count = strength.shape[1]
    levels = np.full(count, np.nan)
    for k in range(count):
        others = strength[:, _all_but(count, k)].max(1) if count > 1 else 0.0
        alone = others < TOKEN_FAINT
        clear = (owner_k != k) & (strength[:, k] >= TOKEN_SURE + 0.1) & alone
        if clear.sum() >= 2:
            levels[k] = float(median(strength[clear, k]))
            continue
        own = np.sort(strength[(owner_k == k) & alone & (strength[:, k] >= 0.15), k])
        if len(own) >= 2:
            cut = int(np.argmax(np.diff(own)))
            high = own[cut + 1 :]
            if own[cut + 1] - own[cut] >= 0.25 and high.min() > TINT_CAP:
                levels[k] = float(median(high))
    return levels


@dataclass(frozen=True)
class Evidence:
    """Per space, how sure each reading is (0..1): why a space reads as it does."""

    colours: tuple[str, ...]  # the chromatic candidate colours, in `token` column order
    token: np.ndarray  # (N, K) a token of that colour stands on the space
    no_token: np.ndarray  # (N,) no colour where a token would be
    quiet: np.ndarray  # (N,) no colour of no candidate, nothing too far off centre
    hole_like: np.ndarray  # (N,) the centre is as bright as the empty print
    plain: np.ndarray  # (N,) the centre is as grey (or as tinted) as the empty print
    stray: np.ndarray  # (N,) chroma of colour that is no candidate's
    light: np.ndarray  # (N,) brightness at the centre
    centre_chroma: np.ndarray  # (N,)
    beside: np.ndarray  # (N, K) a stand-sized patch of that colour anywhere near the middle
    sliver: np.ndarray  # (N, K) mm² of that colour's pixels near the middle, unblurred, where
    # a stand is read (0 elsewhere: a second stand hidden behind it is asked about only there)
    row_unexplained: np.ndarray  # (N,) ... and of its seat's colour that no blend of its
    # print, the stand there and the paper explains
    owner_k: np.ndarray  # (N,) the column of the space's seat colour, -1 for plain spaces
    washed: np.ndarray  # (N,) share of the hole's middle washed white (glare)
    print_tint: np.ndarray  # (N,) chroma of the bare print in its seat's hue (0: plain)
    washed_tint: np.ndarray  # (N,) ... washed by as much glare as the plain holes nearby show
    lifted_light: np.ndarray  # (N,) the print's brightness lifted as the plain holes nearest it
    # are (by glare or a lamp; nan where not predicted)
    plain_cast: np.ndarray  # (K,) chroma the bare plain print shows in each colour's hue

    @property
    def empty(self) -> np.ndarray:
        return np.minimum.reduce([self.no_token, self.quiet, self.hole_like, self.plain])


def weigh_spaces(samples: SpaceLooks, board: Board, cal: Calibration | None) -> Evidence:
    """The evidence for every reading of every space."""
    win = prototype_windows(candidate_colours(board), cal)
    owner_k = _seats(board, win.colours).owner_k
    win = photo_windows(win, samples, owner_k, TOKEN_SURE)
    n, k_count = len(samples.ids), len(win.colours)
    # strongest own peak per chromatic colour, and colour nobody owns
    strength = _per_colour(samples.peaks, win)
    strength[~samples.valid] = 0.0  # a space out of view (or under a hand) tells nothing
    prints = predicted_prints(samples, board)
    want, bare_want = prints.veiled, prints.bare  # under this photo's glare, and without
    # a seat's hole shows its print's hue, which real tokens of its colour need not share
    print_hue = _print_hue(bare_want, owner_k)
    claimed = win.member.any(0) if k_count else np.zeros(HUE_BINS, bool)
    claimed = claimed[None, :] | _near_hue(print_hue)
    stray = np.where(~claimed, samples.peaks, 0.0).max(1)
    own = np.where(owner_k >= 0, strength[np.arange(n), np.maximum(owner_k, 0)], 0.0)
    others = np.where(
        (np.arange(k_count)[None, :] == owner_k[:, None]) | (owner_k[:, None] < 0), 0.0, strength
    ).max(1, initial=0.0)
    others = np.maximum(others, np.where(owner_k < 0, strength.max(1, initial=0.0), 0.0))
    print_level = tint_level(samples, own)
    token_levels = _token_levels(strength, owner_k)
    groups = _seats(board, win.colours).groups
    foreign = np.maximum(others, stray)  # (any colour in the cell but the seat's own)
    # a seat's tint this photo shows paler than predicted is taken as shown (`vision.seen_tint`)
    pale = pale_tints(groups, samples, print_level, bare_want, foreign, token_levels, owner_k)
    if not np.isnan(pale).all():
        bare_want, want = as_pale_as(bare_want, pale), as_pale_as(want, pale, bare_want)
    # (which holes show their print, and so teach the tint's level, is judged without glare)
    printed = check_print(samples, board, bare_want, own, foreign, want)
    bars = _tint_bars(board, win, strength, cal, token_levels, printed.shows, print_level,
                      bare_want)  # fmt: skip
    # the tint as the bare holes show it, for the battle checks (boards with battles only): a
    # printer's ink can come out richer than predicted
    seen_tint = np.full((n, 3), np.nan)
    if board.shared_spaces:
        seen_tint = seen_tints(groups, printed.shows, print_level, samples.centre)
    # colour that goes on well beyond a token's edge (a hand, a sleeve) is no token
    spread = np.zeros((n, k_count))
    off_hue = np.zeros((n, k_count))
    for k in range(k_count):
        pick = np.where(win.member[k][None, :], samples.peaks, -1.0).argmax(1)
        spread[:, k] = samples.spread[np.arange(n), pick]
        off_hue[:, k] = hue_gap(HUE_CENTRES[pick], win.hues[k])
    token_sized = ramp(spread / np.maximum(strength, 1e-3), 0.55, 0.4)
    # token confidence per colour: against the tint where the space is printed in that colour
    faint = np.full((n, k_count), TOKEN_FAINT)
    full = np.where(off_hue <= DULL_HUE, TOKEN_SURE_DULL, TOKEN_SURE)
    quiet_at = np.full((n, k_count), QUIET)
    plain_look = _plain_look(samples, owner_k)
    _above_plain_look(faint, full, quiet_at, plain_look, owner_k, win)
    owned = np.nonzero(owner_k >= 0)[0]
    faint[owned, owner_k[owned]] = bars.faint[owned]
    full[owned, owner_k[owned]] = bars.full[owned]
    quiet_at[owned, owner_k[owned]] = bars.quiet[owned]
    # no bare tint is much more colourful than this photo's plain holes predict it (glare
    # may wash it paler), and a token of the seat's colour stands well above it unwashed
    washed_tint = np.hypot(want[owned, 0], want[owned, 1])
    bare_tint = np.hypot(bare_want[owned, 0], bare_want[owned, 1])
    at = (owned, owner_k[owned])
    quiet_at[at] = np.fmin(quiet_at[at], np.fmin(washed_tint, bare_tint) + TINT_ROOM)
    faint[at] = np.fmax(faint[at], bare_tint + 0.15)
    full[at] = np.fmax(full[at], bare_tint + 0.3)
    # and, with no calibration, one that far above the predicted tint is a token, whatever
    # its seat's group says (at a start every hole of a seat holds its dull tokens, and the
    # group took them for its tint)
    if cal is None:
        cap = np.maximum(bare_tint + 0.3 + PREDICTED_TINT_MARGIN, TOKEN_SURE)
        cap = np.where(np.isnan(cap), np.inf, cap)
        full[at] = np.fmin(full[at], cap)
        faint[at] = np.fmin(faint[at], cap - 0.15)
    # where the hole cannot be its bare print, its colour is no tint: at most plain quiet
    odd = np.nonzero((owner_k >= 0) & printed.unexplained)[0]
    quiet_at[odd, owner_k[odd]] = np.minimum(quiet_at[odd, owner_k[odd]], QUIET)
    cx, cy, light = samples.centre[:, 0], samples.centre[:, 1], samples.centre[:, 2]
    centre_chroma = np.hypot(cx, cy)
    # an empty space shows its print at the centre: a hole, not paper, skin or a white token
    # (as the calibration saw it, else as this photo's plain holes predict it)
    empty_light = np.array([cal.empty_look(sid)[2] if cal else np.nan for sid in samples.ids])
    predicted = np.isnan(empty_light) & ~np.isnan(bare_want[:, 2])
    empty_light = np.where(predicted, bare_want[:, 2], empty_light)
    known = ~np.isnan(empty_light)
    off_light = np.abs(np.log(np.maximum(light, 1e-3) / np.where(known, empty_light, 1.0)))
    # or (glare being patchy) between its print with no glare and as lifted as its neighbours
    as_predicted = np.maximum(
        ramp(off_light, *PREDICTED_LIGHT), in_lift_range(light, prints, owner_k)
    )
    # a printed hole is darker than the paper: nearly as bright, it is lost in glare
    absolute = np.minimum(ramp(light, 0.2, 0.3), ramp(light, 0.9, 0.84))
    glare_then = ramp(np.where(known, empty_light, 0.0), 0.88, 0.8)  # at the calibration
    hole_like = np.where(
        known,
        np.minimum.reduce(
            [
                # the photo's own prediction is closer than a calibration minutes ago
                np.where(predicted, as_predicted, ramp(off_light, 0.45, 0.3)),
                absolute,
                np.maximum(glare_then, ramp(light, 0.8, 0.72)),
            ]
        ),
        absolute,
    )
    hole_like = np.maximum(hole_like, veiled_print(samples, board, want, owner_k))
    # on a seat's hole a pale token of its hue adds no colour to the tint: only light and an
    # edge (elsewhere any token's colour is its own evidence, and glare makes holes uneven)
    seat = np.nonzero(owner_k >= 0)[0]
    hole_like[seat] = np.minimum(hole_like[seat], _even_hole(samples, seat, owner_k))
    # and a dull token of the seat's hue can match the tint's chroma: then only the print's
    # brightness and evenness tell the hole bare, and they must tell it clearly
    hole_like[seat] = ramp(hole_like[seat], SEAT_HOLE_DOUBT, SEAT_HOLE_SURE)
    # and a token wider than the hole hides the bright collar printed around it (where only
    # the collar is printed there: not round a square, nor inside a marked hole's ink ring)
    plain = collared_holes(board)
    against_plain = np.full(n, np.nan)
    against_plain[plain] = collar_against_plain(samples, board, np.flatnonzero(plain))
    if samples.collar is not None and plain.any():
        against = against_plain[plain]
        collar = np.minimum(
            ramp(samples.collar[plain], COLLAR_HIDDEN, COLLAR_SHOWN),
            np.where(np.isnan(against), 1.0, ramp(against, *COLLAR_BELOW_PLAIN)),
        )
        hole_like[plain] = np.minimum(hole_like[plain], collar)
    # the centre's colour may lie along the seat's tint (up to its quiet level), else be grey:
    # its distance from that segment of the hue plane (a point, the grey, on plain spaces)
    tint_room = np.where(owner_k >= 0, np.maximum(bars.quiet, 0.25) + 0.12, 0.0)
    hue = win.hues[np.maximum(owner_k, 0)] if k_count else np.zeros(n)
    hue = np.radians(np.where(np.isnan(print_hue), hue, print_hue))  # (the print's, where known)
    ux, uy = np.cos(hue), np.sin(hue)
    # (a plain space's print is grey, or the look the plain middles gather round)
    cast_at = plain_look.cast_at if plain_look else None
    gx, gy = cast_at or (0.0, 0.0)
    gx, gy = np.where(owner_k < 0, gx, 0.0), np.where(owner_k < 0, gy, 0.0)
    along = np.clip((cx - gx) * ux + (cy - gy) * uy, 0.0, tint_room)
    off_print = np.hypot(cx - gx - along * ux, cy - gy - along * uy)
    # and where this photo's plain holes predict the print (with or without the glare
    # there), near that colour
    like_print = np.maximum(_like(cx, cy, bare_want), _like(cx, cy, want))
    # no colour at all where a token would be: well under the faintest token, and under the
    # tint in the seat's own hue
    # against a tint the margin is thin: full confidence only clearly under it, and at the
    # quiet level itself half (a dark red stand on its red seat's hole, in a dim and soft
    # photo, reached it and read as an empty hole at 0.70 with a margin of 0.02)
    under = strength - quiet_at + np.where(quiet_at > QUIET, TINT_MARGIN, 0.0)
    no_token = ramp(under, 0.08, 0.0).min(1) if k_count else np.ones(n)
    # where the camera saturated (glare), a pale token and the print look alike
    unclipped = unsaturated(samples)
    no_token = np.minimum(no_token, unclipped)
    token = ramp(strength, faint, full) * token_sized if k_count else np.zeros((n, 0))
    # or, on a seat's hole, a token of its colour standing out from the bare holes beside it
    seat_hue = win.hues[np.maximum(owner_k, 0)] if k_count else np.zeros(n)
    standout = standout_tokens(
        samples, board, owner_k, seat_hue, hole_like, others, stray, bare_want
    )
    token[owned, owner_k[owned]] = np.maximum(token[owned, owner_k[owned]], standout[owned])
    # or one that hides its hole's bright collar (a start: no bare hole of the seat beside it)
    over_tint = np.full(n, np.nan)
    over_tint[owned] = strength[at] - bare_tint
    lift = np.log(np.maximum(prints.lifted[:, 2], 1e-3) / np.maximum(prints.unlifted, 1e-3))
    of_its_set = np.full(n, np.nan)  # (against this photo's clear tokens of the seat colour)
    of_its_set[owned] = strength[at] / token_levels[owner_k[owned]]
    covered = covered_collar_tokens(
        samples, board, owner_k, seat_hue, over_tint, _at_seat(token_sized, owner_k), others,
        stray, lift, against_plain, of_its_set,
    )  # fmt: skip
    token[owned, owner_k[owned]] = np.maximum(token[owned, owner_k[owned]], covered[owned])
    # or a dark one in its hole, as even as the print, told by the set's own hue
    if win.gathered is not None:
        set_hue = np.where(win.gathered, win.hues, np.nan)
        told = hue_told_tokens(
            samples, board, owner_k, set_hue, token_levels, own, hole_like, others, stray
        )
        token[owned, owner_k[owned]] = np.maximum(token[owned, owner_k[owned]], told[owned])
    # or one smaller than its hole, with the hole's own bare print seen beside it
    unread = (owner_k >= 0) & (_at_seat(token, owner_k) < 0.5)
    beside_print = print_beside_tokens(
        samples, board, owner_k, seat_hue, bare_want, unread, others, stray, lift, printed.shows
    )
    token[owned, owner_k[owned]] = np.maximum(token[owned, owner_k[owned]], beside_print[owned])
    stands = np.flatnonzero((token >= 0.5).any(1))
    beside = np.zeros((n, k_count)) if samples.beside is None else _per_colour(samples.beside, win)
    # (a stand on the next square reaching into this one is no stand hidden here)
    sliver, beside = less_neighbours_reach(
        slivers(samples, win.member, stands, cast_at), beside, samples, win.member, token, cast_at
    )
    return Evidence(
        colours=win.colours,
        token=token,
        no_token=no_token,
        quiet=np.minimum(ramp(stray, 0.4, 0.28), ramp(samples.far, 0.4, 0.28)),
        hole_like=hole_like,
        plain=np.minimum(ramp(off_print, 0.32, 0.2), like_print),
        stray=stray,
        light=light,
        centre_chroma=centre_chroma,
        beside=beside,
        sliver=net_of_print(
            sliver,
            samples,
            win.member,
            # (the plain spaces no token's colour and no stray colour says anything of)
            (owner_k < 0) & samples.valid & (token.max(1, initial=0.0) < QUIET) & (stray < QUIET),
            cast_at,
        ),  # fmt: skip
        row_unexplained=unexplained_row_colour(
            samples,
            win.member,
            _stands_off_their_row(token, owner_k),
            owner_k,
            in_seen_hue(bare_want, seen_tint),
            TINT_ROOM,
            np.fmax(bare_want[:, 2], prints.lifted[:, 2]),
        ),  # fmt: skip
        plain_cast=_plain_cast(plain_look, win),
        owner_k=owner_k,
        # looks made without the washed-out share: any saturation counts (more doubt, not less)
        washed=samples.clipped if samples.washed is None else samples.washed,
        # a dark stand hides how washed the print under it is: its neighbours' glare says
        print_tint=np.fmax(_print_tint(want, owner_k, quiet_at), seen_tint[:, 2]),
        washed_tint=_print_tint(prints.washed, owner_k, quiet_at),
        lifted_light=prints.lifted[:, 2],
    )


def _at_seat(per_colour: np.ndarray, owner_k: np.ndarray) -> np.ndarray:
    """(N,) each space's value in its seat's colour's column (0 on plain spaces)."""
    n = len(owner_k)
    if not per_colour.size:
        return np.zeros(n)
    return np.where(owner_k >= 0, per_colour[np.arange(n), np.maximum(owner_k, 0)], 0.0)


def _stands_off_their_row(token: np.ndarray, owner_k: np.ndarray) -> np.ndarray:
    """Indices of the spaces where a token of a colour other than their seat's is read (on a
    plain space, any): only there can a stand hide one of the row's colour behind it."""
    other = np.arange(token.shape[1])[None, :] != owner_k[:, None]
    return np.flatnonzero(((token >= 0.5) & other).any(1))


def _plain_cast(look: _PlainLook | None, win: HueWindows) -> np.ndarray:
    """(K,) how colourful, in each colour's hue, the bare plain print looks in this photo
    (where its look is gathered and near that colour; else 0)."""
    if look is None or not look.gathered or not len(win.colours):
        return np.zeros(len(win.colours))
    return np.where(look.near(win.hues), look.chroma, 0.0)


def _print_hue(bare_print: np.ndarray, owner_k: np.ndarray) -> np.ndarray:
    """(N,) degrees: the hue of each seat's hole's bare print as this photo's plain holes
    predict it (nan on plain spaces and where it is not predicted, or too grey to have one)."""
    cx, cy = bare_print[:, 0], bare_print[:, 1]
    coloured = (owner_k >= 0) & (np.hypot(cx, cy) >= PRINT_HUE_CHROMA)  # (nan compares False)
    return np.where(coloured, hue_deg(cx, cy), np.nan)


def _near_hue(hue: np.ndarray) -> np.ndarray:
    """(N, HUE_BINS) bool: the hue bins within PRINT_HUE_REACH of each space's `hue` (none
    where it is nan)."""
    near = hue_gap(HUE_CENTRES[None, :], np.nan_to_num(hue, nan=0.0)[:, None]) <= PRINT_HUE_REACH
    return near & ~np.isnan(hue)[:, None]


def _like(cx: np.ndarray, cy: np.ndarray, want: np.ndarray) -> np.ndarray:
    """(N,) how near the middle's colour is to the predicted print's (1 where none is)."""
    off = np.hypot(cx - want[:, 0], cy - want[:, 1])
    return np.where(np.isnan(off), 1.0, ramp(off, 0.25, 0.15))


def _even_hole(samples: SpaceLooks, spaces: np.ndarray, owner_k: np.ndarray) -> np.ndarray:
    """How surely each of `spaces` (indices) shows an evenly lit hole, as a bare print is
    under any soft light. A token set down off centre can leave the hole's middle bare while
    it covers a side of the hole, and a pale one in its seat's hue adds no colour there, only
    light and an edge. How even is even is this photo's: its quiet plain holes say it."""
    bar = UNEVEN_LIGHT + _blur_unevenness(samples, owner_k)
    return ramp(samples.unevenness[spaces], bar, bar - 0.08)


def _blur_unevenness(samples: SpaceLooks, owner_k: np.ndarray) -> float:
    """How much more uneven this photo's quiet plain holes (no colour in or near their cell:
    most are bare) look than a sharp photo's, 0 when too few are seen."""
    quiet = samples.valid & (owner_k < 0) & (samples.peaks.max(1) < PLAIN_QUIET)
    quiet &= samples.far < PLAIN_QUIET
    if quiet.sum() < MIN_PLAIN:
        return 0.0
    return max(0.0, float(median(samples.unevenness[quiet])) - SHARP_UNEVEN)


def _print_tint(want: np.ndarray, owner_k: np.ndarray, quiet_at: np.ndarray) -> np.ndarray:
    """(N,) the bare print's chroma in its seat's hue: as this photo's plain holes predict it,
    else the level under which the seat's colour is surely its tint; 0 on plain spaces."""
    n = len(owner_k)
    quiet = quiet_at[np.arange(n), np.maximum(owner_k, 0)] if quiet_at.size else np.zeros(n)
    predicted = np.hypot(want[:, 0], want[:, 1])
    return np.where(owner_k >= 0, np.where(np.isnan(predicted), quiet, predicted), 0.0)


def _per_colour(per_hue: np.ndarray, win: HueWindows) -> np.ndarray:
    """(N, K) from (N, HUE_BINS): the strongest value within each colour's hue window."""
    out = np.zeros((len(per_hue), len(win.colours)))
    for k, member in enumerate(win.member):
        out[:, k] = np.where(member[None, :], per_hue, 0.0).max(1)
    return out


def classify_spaces(
    config: VisionConfig,
    samples: SpaceLooks,
    board: Board,
    calibration: Calibration | None = None,
) -> dict[str, tuple[str | None, float]]:
    """space id -> (None for empty | colour name | "a+b" contest | UNKNOWN, confidence 0..1)."""
    ev = weigh_spaces(samples, board, calibration)
    empty = ev.empty
    achromatic = [c for c in candidate_colours(board) if c not in ev.colours]
    result: dict[str, tuple[str | None, float]] = {}
    # the per-space loop reads Python floats (numpy's, as lists: no scalar indexing per space)
    token, valid, empties = ev.token.tolist(), samples.valid.tolist(), empty.tolist()
    stray_doubt = ramp(ev.stray, 0.3, 0.5).tolist()
    for i, sid in enumerate(samples.ids):
        if not valid[i]:
            result[sid] = (UNKNOWN, 0.0)
            continue
        pairs = zip(token[i], ev.colours, strict=True)
        found = sorted(((t, c) for t, c in pairs if t > 0), reverse=True)
        if found and found[0][0] >= 0.5:
            best, colour = found[0]
            second = found[1][0] if len(found) > 1 else 0.0
            if board.shared_spaces and second >= 0.5:
                reading = (contest_mark(board, colour, found[1][1]), min(best, second))
            else:
                doubt = max(second, stray_doubt[i])
                if board.shared_spaces:  # a second stand half hidden behind?
                    doubt = max(doubt, hidden_stand(ev, i, colour))
                reading = (colour, min(best, 1.0 - doubt))
        elif achromatic and (not found or found[0][0] < 0.2):
            reading = _achromatic(
                achromatic, ev.light[i], ev.centre_chroma[i], empty[i], calibration, sid
            )
        else:
            reading = (None, empties[i])
        if reading[1] < config.min_confidence:
            reading = (UNKNOWN, reading[1])
        result[sid] = reading
    read_by_peers(samples, ev, board, result, config.min_confidence)
    return result


def _achromatic(colours, light, chroma, empty, cal, sid) -> tuple[str | None, float]:
    """White or black tokens, told from the hole by brightness at the centre."""
    if chroma > 0.35:
        return (UNKNOWN, 0.0)
    best: tuple[str | None, float] = (None, float(empty))
    for colour in colours:
        want = (cal.colour_look(colour) if cal else palette_look(colour))[2]
        hole = cal.empty_look(sid)[2] if cal else 0.47
        ratio = abs(np.log(max(light, 1e-3) / max(want, 1e-3)))
        gap = abs(np.log(max(hole, 1e-3) / max(want, 1e-3)))
        conf = float(ramp(ratio, 0.6 * gap, 0.25 * gap))
        if conf > best[1]:
            best = (colour, conf * (1.0 - float(empty)))
    return best


def read_spaces(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    calibration: Calibration | None = None,
    markers_seen: tuple[int, ...] | None = None,
) -> dict[str, tuple[str | None, float]]:
    """sample_spaces + classify_spaces in one call."""
    samples = sample_spaces(config, image, board, homography, markers_seen)
    return classify_spaces(config, samples, board, calibration)
