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
from functools import lru_cache

import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE
from rules.printing import HOLE_RGB, TINT_SHARE
from vision.confidence import ramp
from vision.exact import mean3, median, quantile
from vision.tokens import SpaceLooks, chroma
from vision.topview import marker_ink, nearest_spacing

PLAIN_QUIET = 0.2  # a plain hole with more chroma than this anywhere in its cell may hold a token
MIN_PLAIN = 4  # fewer quiet plain holes than this give no reference
PLAIN_ALIKE = 0.12  # plain holes further than this from their usual colour are no reference
PLAIN_GREY = 0.35  # a printed grey seen through paper, cast and camera is never more colourful
PLAIN_SPREAD = 0.35  # plain holes brighter or darker than their median by more are no reference
GLARED_GREY_MOST = 1.0  # ... but one brighter, grey and no brighter than its paper is its
# print under glare (where no seat plays grey tokens), and shows how strong the glare is
GREY_TOKEN_SPAN = 60  # a seat colour whose RGB channels differ by less than this is grey
NEAREST_PLAIN = 6  # the reference for a hole: this many quiet plain holes nearest to it
MATCH_CHROMA = 0.1  # the middle's colour within this of the prediction (chroma units)
MATCH_LIGHT = 0.25  # ... and its brightness within this (log ratio)
MATCH_EXCESS = 0.1  # no peak in the cell stronger than the predicted tint by more than this
MATCH_STEP = 0.08  # nor stronger than the faintest hole of its seat by more than this
DIM_REACH = 1.5  # spacings: plain holes this close, darker than usual, say a shadow lies there
NEARBY_SPACINGS = 4.0  # a seat's holes this many spacings apart are compared
VEIL_FLOOR = 0.2  # the least lifted share of the plain holes shows the print without glare
VEIL_MAX = 0.9  # glare leaves at least a tenth of the print to see
BARE_GREY_MOST = 0.6  # the plain grey is printed at 44% of the paper's white (HOLE_RGB): no
# camera shows it brighter than this against its paper, unless glare lifts it ...
PAPER_CLIPPED_SHARE = 0.5  # ... or the camera saturated on this share of the bare paper at
# least: divided by a paper brighter than the camera could show, every grey reads lighter
# (an overexposed board under a lamp) ...
EVEN_LIFT = 0.1  # ... and the middle half of the plain holes lie within this (log ratio) ...
INK_DARK = 0.25  # ... and the markers' printed black is no lighter than this against the paper
# (0.01-0.13 unglared in the twin's photos; glare over a marker lifts it to 0.3-0.7)
VEIL_NOISE = (0.06, 0.12)  # a lift under the first is no glare (plain holes differ that much
# without any: the 99th percentile in the twin's frames without glare is under 0.07), over the
# second all of it is
TINT_GAIN_MIN_HOLES = 3  # a seat's holes that look bare in all but how colourful, that say ...
TINT_GAIN_RANGE = (0.8, 1.5)  # ... how much more colourful this camera shows its tint (bounds)
TINT_GAIN_SHARE = 2 / 3  # they are at least this share of the seat's holes showing its hue
TINT_GAIN_HUE = 20.0  # degrees: such a hole's middle lies this close to the predicted hue
TINT_GAIN_EVEN = 0.25  # ... and is evenly lit (log ratio of its brightest to darkest fifth)


def bgr_of(look: np.ndarray) -> np.ndarray:
    """Back from (chroma x, chroma y, brightness) to BGR (paper = 1): `chroma` inverted."""
    cx, cy, light = look[..., 0], look[..., 1], look[..., 2]
    r_minus = cx * light  # r - (g + b) / 2
    g_minus_b = cy * light / 0.8660254
    r = light + 2.0 * r_minus / 3.0
    g = (3.0 * light - r + g_minus_b) / 2.0
    b = g - g_minus_b
    return np.stack([b, g, r], -1)


@dataclass(frozen=True)
class _PrintPlan:
    """Per board, what the print check needs of its geometry and print."""

    plain: np.ndarray  # (N,) bool: a hole printed plain grey
    gain: np.ndarray  # (N, 3) the print's colour over the plain grey's, per BGR channel
    tinted: np.ndarray  # (T,) indices of the seat-tinted holes
    distance: np.ndarray  # (N, N) mm between spaces
    nearby: np.ndarray  # (N, N) bool: holes of one seat within NEARBY_SPACINGS
    grey_tokens: bool  # some seat plays grey tokens (white, black): a bright grey may be one
    spacing: float  # mm, the board's usual distance between neighbouring spaces


@lru_cache(maxsize=16)
def _plan(board: Board) -> _PrintPlan:
    n = len(board.spaces)
    xy = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    distance = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    grey = np.array(HOLE_RGB[::-1], np.float64)
    gain = np.ones((n, 3))
    owner = np.full(n, -1)
    for i, space in enumerate(board.spaces):
        if space.owner is not None and space.owner < len(board.seat_colours):
            colour = PALETTE.get(board.seat_colours[space.owner])
            if colour is not None:
                owner[i] = space.owner
                gain[i] = (1.0 - TINT_SHARE) + TINT_SHARE * np.array(colour.rgb[::-1]) / grey
    spacing = float(np.median(nearest_spacing(board)))
    nearby = owner[:, None] == owner[None, :]
    nearby &= (owner[:, None] >= 0) & (distance <= NEARBY_SPACINGS * spacing)
    plain = np.array([s.owner is None for s in board.spaces])
    rgbs = [PALETTE[c].rgb for c in board.seat_colours if c in PALETTE]
    grey_tokens = any(max(rgb) - min(rgb) < GREY_TOKEN_SPAN for rgb in rgbs)
    plan = _PrintPlan(
        plain, gain, np.nonzero(owner >= 0)[0], distance, nearby, grey_tokens, spacing
    )
    for shared in (plan.plain, plan.gain, plan.tinted, plan.distance, plan.nearby):
        shared.flags.writeable = False  # one plan per board, shared by every frame
    return plan


@lru_cache(maxsize=16)
def _seat_holes(board: Board) -> tuple[np.ndarray, ...]:
    """Per seat with tinted holes, their indices."""
    tinted = _plan(board).tinted
    owners = sorted({board.spaces[i].owner for i in tinted})
    seats = tuple(np.array([i for i in tinted if board.spaces[i].owner == o]) for o in owners)
    for seat in seats:
        seat.flags.writeable = False  # shared by every frame
    return seats


def seats_play_grey(board: Board) -> bool:
    """Whether some seat plays grey tokens (white, black): then a bright grey may be one."""
    return _plan(board).grey_tokens


def nearby_seat_holes(board: Board) -> np.ndarray:
    """(N, N) bool: holes of one seat within NEARBY_SPACINGS of each other."""
    return _plan(board).nearby


def predicted_print(samples: SpaceLooks, board: Board) -> np.ndarray:
    """(N, 3): the look (chroma x, chroma y, brightness) of every bare hole's middle, from the
    plain holes of this photo nearest to it (near ones, because a lamp is never quite even)
    that look like most plain holes (bare ones): a plain hole looks like them, a seat's hole like
    them with its share of the seat's colour, channel by channel. nan where too few plain
    holes are seen to trust. (Under glare, see `predicted_prints`.)"""
    return predicted_prints(samples, board).bare


@dataclass(frozen=True)
class PrintLooks:
    """What every bare hole looks like in one photo (nan rows: no prediction)."""

    veiled: np.ndarray  # (N, 3) under the glare on it: what a bare hole looks like here
    bare: np.ndarray  # (N, 3) without glare: the most colourful a seat's bare tint can look,
    # which a token of its colour must stand above
    veil: np.ndarray  # (N,) the share of white the glare lays over it (0: none)
    lifted: np.ndarray  # (N, 3) as lifted as the plain holes nearest it, glared ones included
    unlifted: np.ndarray  # (N,) brightness with no glare at all (the least lifted plain holes')
    washed: np.ndarray  # (N, 3) under as much glare as the plain holes nearest it show, however
    # bright the hole itself is (a dark token on a hole hides how washed its print is)
    dimmed: np.ndarray  # (N,) brightness as dim as the plain holes nearest it, shaded ones
    # included (a shadow darkens the print more than the paper it is measured against)


def predicted_prints(samples: SpaceLooks, board: Board) -> PrintLooks:
    """The bare look of every hole under the glare on it, and without any glare
    (`predicted_print`), and the glare's veil."""
    plan = _plan(board)
    n = len(board.spaces)
    want = np.full((n, 3), np.nan)
    none = PrintLooks(want, want, np.zeros(n), want, want[:, 2], want, want[:, 2])
    # the plain holes' usual look (most are bare), and those near it: a token, a sleeve or
    # glare over a plain hole is far from it in colour or brightness
    pick = np.nonzero(plan.plain & samples.valid)[0]
    if len(pick) < MIN_PLAIN:
        return none
    look = samples.centre[pick].astype(np.float64)
    usual = median(look, 0)
    if np.hypot(usual[0], usual[1]) > PLAIN_GREY:  # most plain holes hold tokens: no grey seen
        return none
    alike = np.hypot(*(look[:, :2] - usual[:2]).T) <= PLAIN_ALIKE
    grey_most = BARE_GREY_MOST
    if usual[2] > BARE_GREY_MOST and _overexposed(samples, look[:, 2], alike):
        grey_most = 1.0
    unglared = _unglared(look[:, 2], alike, usual[2], grey_most)
    lift = np.log(np.maximum(look[:, 2], 1e-3) / max(unglared, 1e-3))
    lit_as_usual = alike & (np.abs(lift) <= PLAIN_SPREAD)
    if lit_as_usual.sum() < MIN_PLAIN:
        return none
    # brighter ones, grey and no brighter than their paper, show the glare over the print
    # (where no seat plays grey tokens), not the print itself
    glared = alike & (lift > PLAIN_SPREAD) & (look[:, 2] <= GLARED_GREY_MOST)
    glared &= not plan.grey_tokens
    plain_bgr = bgr_of(look)
    hole = _nearest_plain(plan, pick[lit_as_usual], plain_bgr[lit_as_usual])
    # a camera's gain per channel, as seen on the plain grey
    bare = _with_tint_gain(samples, board, _look_of(hole * plan.gain))
    dimmed = _dimmed(plan, pick, plain_bgr, alike & (lift < 0.0))
    seen = lit_as_usual | glared
    lifted = hole if not glared.any() else _nearest_plain(plan, pick[seen], plain_bgr[seen])
    floor = _floor(plain_bgr[lit_as_usual], grey_most)
    unlifted = floor * mean3(plan.gain)
    near = _veil(lifted, floor, unlifted)
    veil = _veil(lifted, floor, unlifted, bgr_of(samples.centre.astype(np.float64)))
    lifted_look = _look_of(lifted * plan.gain)
    if not near.any():
        return PrintLooks(bare, bare, veil[:, 0], lifted_look, unlifted, bare, dimmed)
    washed = _with_tint_gain(samples, board, _look_of(near + (lifted - near) * plan.gain))
    if not veil.any():
        return PrintLooks(bare, bare, veil[:, 0], lifted_look, unlifted, washed, dimmed)
    veiled = _with_tint_gain(samples, board, _look_of(veil + (lifted - veil) * plan.gain))
    return PrintLooks(veiled, bare, veil[:, 0], lifted_look, unlifted, washed, dimmed)


def _dimmed(
    plan: _PrintPlan, pick: np.ndarray, plain_bgr: np.ndarray, dim: np.ndarray
) -> np.ndarray:
    """(N,) per hole, how bright the plain grey holes beside it are that are darker than usual
    (grey, in a shadow; the hole itself not counted), nan where none is: a shadow's edge is
    sharper than the paper's fit follows, and a camera's tone curve darkens ink more than
    paper. Where a seat plays grey tokens a dark grey may be a black one: none is dimmed."""
    n = len(plan.plain)
    if plan.grey_tokens or not dim.any():
        return np.full(n, np.nan)
    shaded = pick[dim]
    near = plan.distance[:, shaded] <= DIM_REACH * plan.spacing
    near[shaded, np.arange(len(shaded))] = False
    out = np.full(n, np.nan)
    rows = np.nonzero(near.any(1))[0]
    if len(rows):
        out[rows] = _look_of(_masked_median(plain_bgr[dim], near[rows]) * plan.gain[rows])[:, 2]
    return out


def _masked_median(values: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """(R, C): per row of `masks` (R, D) bool, each at least one True, the median of the
    `values` (D, C) it picks (the middle one, or the mean of the middle two), all rows at once."""
    count = masks.sum(1)
    lo, hi, at = (count - 1) // 2, count // 2, np.arange(len(masks))
    out = np.empty((len(masks), values.shape[1]))
    for c in range(values.shape[1]):
        picked = np.sort(np.where(masks, values[None, :, c], np.inf), axis=1)
        out[:, c] = (picked[at, lo] + picked[at, hi]) / 2.0
    return out


def _overexposed(samples: SpaceLooks, light: np.ndarray, alike: np.ndarray) -> bool:
    """Is a plain grey brighter than print can look the camera's doing rather than glare's?
    So where the paper itself is clipped over most of the board (its true white is unknown,
    and every grey reads lighter against it), the plain holes are lifted evenly (glare is
    patchy: its holes spread far apart) and the printed black of the corner markers is as dark
    as ever (glare lifts the black as it lifts the grey; a clipped paper does not)."""
    view, board = samples.view, samples.board
    if view is None or board is None or view.paper_clipped < PAPER_CLIPPED_SHARE:
        return False
    lit = light[alike]
    if len(lit) < MIN_PLAIN:
        return False
    low, high = float(quantile(lit, 0.25)), float(quantile(lit, 0.75))
    if np.log(max(high, 1e-3) / max(low, 1e-3)) > EVEN_LIFT:
        return False
    return marker_ink(view, board) <= INK_DARK


def _unglared(light: np.ndarray, alike: np.ndarray, usual: float, grey_most: float) -> float:
    """The plain holes' brightness with no glare on them: their median (`usual`), unless
    that is brighter than a bare grey can look (glare lies over most of them): then the
    least lifted ones', when enough of them are seen (else the median: glare over the whole
    board). The holes lit so are the reference for every hole's print without glare; the
    glared ones say how much glare lies near them (the veil), not how the print looks."""
    if usual <= grey_most or alike.sum() < MIN_PLAIN:
        return usual
    least = min(float(quantile(light[alike], VEIL_FLOOR)), grey_most)
    near = alike & (np.abs(np.log(np.maximum(light, 1e-3) / least)) <= PLAIN_SPREAD)
    return least if near.sum() >= MIN_PLAIN else usual


def _nearest_plain(plan: _PrintPlan, pick: np.ndarray, plain_bgr: np.ndarray) -> np.ndarray:
    """(N, 3) per hole, the median colour of the NEAREST_PLAIN plain holes `pick` nearest it."""
    near = min(NEAREST_PLAIN, len(pick))
    nearest = np.argpartition(plan.distance[:, pick], near - 1, axis=1)[:, :near]
    return median(plain_bgr[nearest], axis=1)


def _floor(plain_bgr: np.ndarray, grey_most: float) -> float:
    """The brightness of the plain print without glare: the least lifted of the plain holes,
    but never brighter than a bare grey can look (then glare lies over the whole board)."""
    return min(float(quantile(mean3(plain_bgr), VEIL_FLOOR)), grey_most)


def _look_of(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) looks (chroma x, chroma y, brightness) of (N, 3) BGR colours."""
    return np.stack(chroma(bgr[:, 0], bgr[:, 1], bgr[:, 2]), 1)


def _veil(
    hole: np.ndarray, floor: float, print_light: np.ndarray, own: np.ndarray | None = None
) -> np.ndarray:
    """(N, 1): the share of white that glare off the paper lays over each hole's print
    (`hole`: the plain holes' colour nearest each; `floor`: the plain print's brightness with
    no glare, `print_light` each hole's; `own`: each hole's colour, None: not asked).

    In the paper-normalised view a plain hole's grey is the same ratio to its paper under any
    lamp; glare adds white light to both, and lifts the ratio toward 1. The plain holes least
    lifted (VEIL_FLOOR of them) show the print as it is. The veil on a hole is the lift of the
    plain holes near it, and never more than its own lift over its print (glare is patchy: a
    hole beside lifted ones may lie outside the glare). A seat's tint under it is washed by
    the same white. Where even the least lifted are brighter than a bare grey can look
    (BARE_GREY_MOST), the glare lies over the whole board: the lift is counted from there."""
    near = (mean3(hole) - floor) / max(1.0 - floor, 1e-3)
    if own is not None:
        itself = (mean3(own) - print_light) / np.maximum(1.0 - print_light, 1e-3)
        near = np.minimum(near, itself)
    veil = np.clip(near, 0.0, VEIL_MAX)
    # plain holes differ a little anyway (noise, the paper field's fit): that is no glare
    return (veil * ramp(veil, *VEIL_NOISE))[:, None]


def _with_tint_gain(samples: SpaceLooks, board: Board, want: np.ndarray) -> np.ndarray:
    """`want` with each seat's tint as colourful as this photo shows it.

    The prediction mixes the plain grey with the seat's colour linearly; a camera's tone curve
    and colour boost do not, and a yellow tint comes out a third more colourful than predicted.
    The seat's holes that look like their bare print in every way but how colourful (brightness
    as predicted, evenly lit, the predicted hue, nothing off centre) say by how much: their
    median, within TINT_GAIN_RANGE. A token mostly stands out in brightness or evenness, but a
    dull one can pass for bare: the bare-looking holes must be most (TINT_GAIN_SHARE) of the
    seat's holes that show its hue at all, bare or under its tokens. At a game's start, when
    a seat's holes hold its own pieces, no gain is learnt from a few dull pieces among them."""
    if samples.disc_light is None:
        return want
    seats = _seat_holes(board)
    tinted = np.concatenate(seats) if seats else np.zeros(0, int)
    look = samples.centre[tinted].astype(np.float64)
    pred = want[tinted]
    wanted = np.hypot(pred[:, 0], pred[:, 1])
    turn = np.degrees(
        np.abs(np.angle(np.exp(1j * (np.arctan2(look[:, 1], look[:, 0])
                                     - np.arctan2(pred[:, 1], pred[:, 0])))))
    )  # fmt: skip
    off_light = np.abs(np.log(np.maximum(look[:, 2], 1e-3) / np.maximum(pred[:, 2], 1e-3)))
    ratio = np.full(len(want), np.nan)
    ratio[tinted] = np.hypot(look[:, 0], look[:, 1]) / np.maximum(wanted, 1e-3)
    in_hue = np.zeros(len(want), bool)
    in_hue[tinted] = samples.valid[tinted] & (turn <= TINT_GAIN_HUE)
    bare_like = np.zeros(len(want), bool)
    bare_like[tinted] = (
        in_hue[tinted] & (wanted > 0.1)
        & (samples.unevenness[tinted] <= TINT_GAIN_EVEN) & (off_light <= MATCH_LIGHT)
        & (samples.far[tinted] < PLAIN_QUIET) & (samples.clipped[tinted] < 0.02)
        & (ratio[tinted] >= TINT_GAIN_RANGE[0] - 0.2)
        & (ratio[tinted] <= TINT_GAIN_RANGE[1] + 0.3)
    )  # fmt: skip
    out = want.copy()
    for seat in seats:
        ok = seat[bare_like[seat] & ~np.isnan(ratio[seat])]
        if len(ok) < max(TINT_GAIN_MIN_HOLES, TINT_GAIN_SHARE * in_hue[seat].sum()):
            continue
        gain = float(np.clip(median(ratio[ok]), *TINT_GAIN_RANGE))
        out[seat, :2] *= gain
    return out


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
    near = _plan(board).nearby & lit_alike[None, :]
    ranked = np.sort(np.where(near, level[None, :], np.inf), axis=1)
    count = near.sum(1)
    faintest = ranked[:, 0]
    usual = ranked[np.arange(len(level)), np.maximum(count - 1, 0) // 2]  # the lower median
    return faintest, usual


def _in_hue(samples: SpaceLooks, wanted: np.ndarray) -> np.ndarray:
    """(N,) the hole's middle is in view, unwashed, and lies in its print's hue."""
    cx, cy = samples.centre[:, 0], samples.centre[:, 1]
    turn = np.degrees(
        np.abs(np.angle(np.exp(1j * (np.arctan2(cy, cx) - np.arctan2(wanted[:, 1], wanted[:, 0])))))
    )
    return samples.valid & (samples.clipped < 0.02) & (turn <= TINT_GAIN_HUE)


def check_print(
    samples: SpaceLooks,
    board: Board,
    want: np.ndarray,
    strength: np.ndarray,
    others: np.ndarray,
    veiled: np.ndarray | None = None,
) -> PrintCheck:
    """Compare each seat's hole with its predicted bare print (`want`, from
    `predicted_print`). `strength`: chroma of the strongest peak in the seat's own hue;
    `others`: in any other hue.

    The prediction is rough (a printer, a lens's blur), and a pale token can match it, so a
    hole also must be no more colourful than the faintest of its seat's holes: bare holes
    printed alike look alike, and a pale token stands above them. A hole far from the
    prediction in colour or brightness, or far above the faintest, is no bare print."""
    alone = (others < PLAIN_QUIET) & (samples.far < PLAIN_QUIET) & (samples.clipped < 0.02)
    alone &= samples.valid
    known = ~np.isnan(want).any(1) & (_plan(board).gain != 1.0).any(1)  # seats' holes
    wanted = np.where(known[:, None], want, 0.0)
    off_colour = np.hypot(*(samples.centre[:, :2] - wanted[:, :2]).T)
    off_light = np.abs(
        np.log(np.maximum(samples.centre[:, 2], 1e-3) / np.maximum(wanted[:, 2], 1e-3))
    )
    level = tint_level(samples, strength)
    lit_alike = alone & known & (off_light <= MATCH_LIGHT)  # not washed out, nor shaded
    # a hole whose middle shows the seat's hue says how faint its print can be, even with
    # another token's colour reaching into its cell (a battle beside it): a token there adds
    # colour, so counting it only makes the bar stricter
    # glare washes a hole's tint paler by as much as the veil predicts for it: its level is
    # taken back to the unveiled print's before it is compared (else a row half in glare
    # makes every bare hole outside it "more colourful than the faintest")
    unveiled = level
    if veiled is not None:
        washed = np.hypot(veiled[:, 0], veiled[:, 1])
        paling = np.hypot(wanted[:, 0], wanted[:, 1]) / np.maximum(washed, 0.05)
        unveiled = level * np.where(known & (washed > 0.05), paling, 1.0).clip(1.0, None)
    faintest, _ = _seat_levels(board, unveiled, (alone | _in_hue(samples, wanted)) & known)
    _, usual = _seat_levels(board, level, lit_alike)
    shows = lit_alike & (off_colour <= MATCH_CHROMA) & (level <= faintest + MATCH_STEP)
    shows &= strength <= np.hypot(wanted[:, 0], wanted[:, 1]) + MATCH_EXCESS
    loose = (off_colour <= 2 * MATCH_CHROMA) & (off_light <= 1.4 * MATCH_LIGHT)
    loose &= level <= usual + 2 * MATCH_STEP
    unexplained = known & samples.valid & (others < PLAIN_QUIET) & ~loose
    return PrintCheck(shows, unexplained)
