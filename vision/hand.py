"""Is a hand or an arm over the board?

The board is rectified to a small top view (about 1 px per mm). Spaces, regions (the dice
tray) and the markers are masked out: tokens and dice are expected to change there. Elsewhere
the board is printed paper and lines, so a large blob there is something foreign:
- with a reference top view of the board (learned in the Calibration), any large change
  against it (after cancelling exposure and white balance) is a foreign object;
- without one, a large skin-coloured blob is taken for a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from rules.geometry import Board
from rules.printing import COLLAR_RADIUS
from vision.config import VisionConfig
from vision.lens import Lens
from vision.tokens import hue_gap

ARM_EDGE_MM = 4.0  # an arm crosses the board's outer edge: nothing of the game lies this close
ARM_DEEP_MM = 15.0  # ... and reaches in beyond this, with at least ARM_AREA of a hand's area
ARM_AREA = 0.5
SKIN_CHROMA = (9.0, 50.0)  # CIELAB chroma of skin under the board's balanced light
SKIN_HUE = (25.0, 95.0)  # ... and its hue, degrees (reddish to yellowish)
# A hand's own skin, measured where it lies over plain paper, varies little: on the twin's hand
# photos 99% of the rest of its skin lies within 13 CIELAB (a, b) units of its median, and none
# is more than 1.2 times as colourful. A red or yellow token it touches lies further off.
HAND_LIKE = 15.0  # (a, b) distance from the hand's median within which a run is still hand
TOKEN_CHROMA = 1.6  # a colour this many times as colourful as the hand's skin is none of it
OWN_SKIN_PX = 20  # skin pixels needed to measure the hand's own colour
# the part of a token's disc such colour fills to show a token, not skin (the discs of the
# 2,373 empty spaces under a hand on the twin's hand photos hold at most 0.02 of it; a
# stand seen from above fills 0.1-0.3 of its disc)
TOKEN_SHOWN = 0.1
TOKEN_HUE = 40.0  # degrees: such a pixel shows the colour read there within this of its hue


@dataclass(frozen=True)
class HandResult:
    hand: bool
    area_fraction: float  # largest foreign blob / board area
    method: str  # "reference" or "skin"
    blob: np.ndarray | None = None  # the foreign blobs in the small top view (255), if any
    # the CIELAB hue (degrees) of the small top view's pixels that cannot be this hand's
    # skin, nan on the rest (skin method only)
    not_skin: np.ndarray | None = None

    def covers(self, board: Board, config: VisionConfig, margin_mm: float) -> set[str]:
        """The spaces under (or within `margin_mm` of) the foreign blobs."""
        if not self.hand or self.blob is None:
            return set()
        s = board_scale(board, config)
        grow = 2 * max(1, round(margin_mm * s)) + 1
        near = cv2.dilate(self.blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
        h, w = near.shape
        return {
            sp.id
            for sp in board.spaces
            if near[min(h - 1, max(0, round(sp.y * s))), min(w - 1, max(0, round(sp.x * s)))]
        }

    def shows_token(self, board: Board, config: VisionConfig, space_id: str, hue: float) -> bool:
        """Does a colour no skin of this hand has, of about this CIELAB hue (the colour read
        there), fill enough of the space's token disc? (A reading made by a rim of skin the
        blob missed shows none; a token of another colour half under the hand is not it.)"""
        if self.not_skin is None:
            return False
        s = board_scale(board, config)
        sp = board.space(space_id)
        seen = disc_pixels(self.not_skin, sp.x * s, sp.y * s, max(1.0, board.token_radius * s))
        if not len(seen):
            return False
        shown = np.count_nonzero(hue_gap(seen, hue) <= TOKEN_HUE)  # (nan, skin-like: never)
        return shown >= TOKEN_SHOWN * len(seen)


def disc_pixels(image: np.ndarray, cx: float, cy: float, radius: float) -> np.ndarray:
    """The pixels of a small top view within `radius` of (cx, cy), in pixels (none where the
    disc lies outside it)."""
    h, w = image.shape[:2]
    x0, x1 = max(0, int(cx - radius)), min(w, int(cx + radius) + 2)
    y0, y1 = max(0, int(cy - radius)), min(h, int(cy + radius) + 2)
    if x0 >= x1 or y0 >= y1:
        return image[:0, :0].reshape(-1, *image.shape[2:])
    yy, xx = np.mgrid[y0:y1, x0:x1]
    return image[y0:y1, x0:x1][(xx - cx) ** 2 + (yy - cy) ** 2 <= radius * radius]


def board_scale(board: Board, config: VisionConfig) -> float:
    """Pixels per mm of the small top view."""
    return config.hand_px / max(board.width, board.height)


def rectify(
    config: VisionConfig, image: np.ndarray, board: Board, homography, lens: Lens | None = None
) -> np.ndarray:
    """A small top view of the board (BGR), about config.hand_px on its longer side (through
    `lens`, where the homography is the straightened frame's)."""
    s = board_scale(board, config)
    size = (max(1, round(board.width * s)), max(1, round(board.height * s)))
    m = np.array([[s, 0, -0.5], [0, s, -0.5], [0, 0, 1]], np.float64) @ np.asarray(homography)
    if lens is not None:
        return lens.warp(image, np.linalg.inv(m), size)[0]
    return cv2.warpPerspective(
        image, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )


@lru_cache(maxsize=32)
def _space_clearance_mm(board: Board) -> float:
    """How far round each space's centre the paper check leaves the board out: a token, or
    a seat hole's tinted collar, and a margin."""
    return max(board.token_radius, board.hole_radius * COLLAR_RADIUS) + 2.5


@lru_cache(maxsize=32)
def _static_mask(board: Board, hand_px: int) -> np.ndarray:
    """255 where the printed board is plain (no space, region or marker), else 0."""
    s = hand_px / max(board.width, board.height)
    size = (max(1, round(board.height * s)), max(1, round(board.width * s)))
    mask = np.full(size, 255, np.uint8)
    r = _space_clearance_mm(board) * s
    for sp in board.spaces:
        cv2.circle(mask, (round(sp.x * s), round(sp.y * s)), max(1, round(r)), 0, -1)
    for reg in board.regions:
        p1 = (round((reg.x - 3) * s), round((reg.y - 3) * s))
        p2 = (round((reg.x + reg.w + 3) * s), round((reg.y + reg.h + 3) * s))
        cv2.rectangle(mask, p1, p2, 0, -1)
    for sq in board.marker_squares().values():
        (x0, y0), _, (x1, y1), _ = sq
        cv2.rectangle(mask, (round((x0 - 6) * s), round((y0 - 6) * s)),
                      (round((x1 + 6) * s), round((y1 + 6) * s)), 0, -1)  # fmt: skip
    edge = max(1, round(3 * s))
    mask[:edge], mask[-edge:], mask[:, :edge], mask[:, -edge:] = 0, 0, 0, 0
    return mask


def _largest_blob(mask: np.ndarray) -> tuple[int, np.ndarray]:
    """The largest blob's area, and the cleaned mask of all blobs."""
    if not cv2.countNonZero(mask):  # the usual frame: nothing foreign at all
        return 0, mask
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if not cv2.countNonZero(mask):  # or only specks
        return 0, mask
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return (int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0), mask


def _balanced(top: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Divide out exposure and white balance: the plain board's median becomes 200 grey."""
    pix = top[::3, ::3][valid[::3, ::3] > 0]
    if len(pix) == 0:
        return top.astype(np.float32)
    med = np.maximum(_channel_median(pix), 1.0)
    gain = (200.0 / med).astype(np.float32)
    # one float32 product per pixel, as numpy's top.astype(float32) * gain, in one pass
    return cv2.multiply(top, (*(float(g) for g in gain), 0.0), dtype=cv2.CV_32F)


def _channel_median(pix: np.ndarray) -> np.ndarray:
    """`np.median(pix, 0)` of (P, C) pixels, exactly; of uint8 ones from a histogram per channel,
    several times faster than numpy's sort-based median on every frame."""
    if pix.dtype != np.uint8:
        return np.median(pix, 0)
    low, high = (len(pix) - 1) // 2, len(pix) // 2  # the middle one, or the middle two
    out = np.empty(pix.shape[1])
    for c in range(pix.shape[1]):
        below = np.cumsum(np.bincount(pix[:, c], minlength=256))
        a, b = np.searchsorted(below, (low, high), side="right")
        out[c] = (float(a) + float(b)) / 2.0
    return out


# the reference top view balanced under the last mask it was used with, per reference
_BALANCED_REFERENCE: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _balanced_reference(reference: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """`_balanced(reference, mask)`, remembered: the reference and (while the whole board is
    in view) the mask stay the same from frame to frame."""
    held = _BALANCED_REFERENCE.get(id(reference))
    if held is not None and held[0] is reference and np.array_equal(held[1], mask):
        return held[2]
    if len(_BALANCED_REFERENCE) >= 8:
        del _BALANCED_REFERENCE[next(iter(_BALANCED_REFERENCE))]
    balanced = _balanced(reference, mask)
    _BALANCED_REFERENCE[id(reference)] = (reference, mask.copy(), balanced)
    return balanced


def detect_hand(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    reference: np.ndarray | None = None,
    top: np.ndarray | None = None,
) -> HandResult:
    """Flag a hand/arm (or any large foreign object) over the board. `top` is
    `rectify(config, image, board, homography)` when the caller has made it already."""
    if top is None:
        top = rectify(config, image, board, homography)
    mask = _static_mask(board, config.hand_px).copy()
    inside = cv2.inRange(top, (0, 0, 0), (0, 0, 0)) == 0  # not outside the frame
    mask[~inside] = 0
    total = float(mask.shape[0] * mask.shape[1])
    bal = _balanced(top, mask)
    if reference is not None and reference.shape == top.shape:
        d = cv2.absdiff(bal, _balanced_reference(reference, mask))
        diff = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
        changed = (diff > config.hand_diff) & inside
        foreign = cv2.bitwise_and(changed.view(np.uint8) * 255, mask)
        largest, blob = _largest_blob(foreign)
        area = largest / total
        if area < config.hand_min_area:
            arm = _across_edge(changed, board, config)
            if arm is not None:
                return HandResult(True, float(np.count_nonzero(arm)) / total, "reference", arm)
        hand = area >= config.hand_min_area
        # (found on plain paper, it lies over the spaces between too: a fist over a seat's
        # row left no space's centre in the blob, and its skin was read as a red token)
        return HandResult(
            hand, area, "reference", _over_spaces(blob, changed, board, config) if hand else blob
        )
    lab = cv2.cvtColor(np.clip(bal * (0.9 / 255.0), 0, 1).astype(np.float32), cv2.COLOR_BGR2LAB)
    L, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    chroma2 = a * a + b * b
    # hue between SKIN_HUE's bounds: (a, b) turned past the first and short of the second
    lo, hi = np.radians(SKIN_HUE)
    past_lo = np.cos(lo) * b - np.sin(lo) * a > 0
    short_of_hi = np.sin(hi) * a - np.cos(hi) * b > 0
    skin = (L > 15) & (L < 92) & (chroma2 > SKIN_CHROMA[0] ** 2) & (chroma2 < SKIN_CHROMA[1] ** 2)
    skin &= past_lo & short_of_hi
    skin &= inside > 0
    largest, blob = _largest_blob(np.where(mask > 0, skin, False).astype(np.uint8) * 255)
    area = largest / total
    if area < config.hand_min_area:
        arm = _across_edge(skin, board, config)
        if arm is None:
            return HandResult(False, area, "skin", blob)
        area, blob = float(np.count_nonzero(arm)) / total, arm
    seen = (blob > 0) & (mask > 0)  # over plain paper (an arm over a crowded grid: anywhere)
    if np.count_nonzero(seen) < OWN_SKIN_PX:
        seen = blob > 0
    if np.count_nonzero(seen) < OWN_SKIN_PX:
        return HandResult(True, area, "skin", _grown(blob, skin))
    like, not_skin = _own_skin(a, b, seen)
    return HandResult(True, area, "skin", _grown(blob, skin & like), not_skin)


def _own_skin(a: np.ndarray, b: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the top view looks like this hand's own skin (as `seen` shows it), and the hue
    where it looks like no skin of it (well off its colour and far more colourful), else nan."""
    pa, pb = float(np.median(a[seen])), float(np.median(b[seen]))
    da, db = a - pa, b - pb
    off2 = da * da + db * db
    like = off2 <= HAND_LIKE**2
    chroma2 = pa * pa + pb * pb
    unlike = (off2 > HAND_LIKE**2) & (a * a + b * b >= TOKEN_CHROMA**2 * chroma2)
    return like, np.where(unlike, np.degrees(np.arctan2(b, a)) % 360.0, np.nan)


def _across_edge(foreign: np.ndarray, board: Board, config: VisionConfig) -> np.ndarray | None:
    """The foreign runs that reach in across the board's edge, deep enough to be an arm, as a
    blob (255), or None. Over a crowded grid (no plain paper left to see a hand on) an arm is
    still found: it always comes in from outside the board, and no token, die or print lies
    on the board's outer edge."""
    s = board_scale(board, config)
    edge, deep = max(1, round(ARM_EDGE_MM * s)), max(2, round(ARM_DEEP_MM * s))
    rim = (foreign[:edge], foreign[-edge:], foreign[:, :edge], foreign[:, -edge:])
    if not any(strip.any() for strip in rim):  # the usual frame: nothing comes in from outside
        return None
    runs, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=8)
    if runs <= 1:
        return None
    # the runs in the rim (its strips overlap at the corners: np.unique counts each once),
    # and how much of each lies deep inside (slices, not masks: the same pixels, no copies)
    strips = (labels[:edge], labels[-edge:], labels[:, :edge], labels[:, -edge:])
    touching = np.unique(np.concatenate([strip.ravel() for strip in strips]))
    touching = touching[touching > 0]
    if len(touching) == 0:
        return None
    reach = np.bincount(labels[deep:-deep, deep:-deep].ravel(), minlength=runs)[touching]
    total = float(labels.shape[0] * labels.shape[1])
    arms = touching[reach >= ARM_AREA * config.hand_min_area * total]
    if len(arms) == 0:
        return None
    return np.where(np.isin(labels, arms), 255, 0).astype(np.uint8)


def _over_spaces(
    blob: np.ndarray, changed: np.ndarray, board: Board, config: VisionConfig
) -> np.ndarray:
    """The hand found against the calibration on the plain paper, with the runs of change
    touching it over the spaces beside it, as far from it as the discs the paper check
    leaves out reach (a token moved since the calibration, further off, is no hand)."""
    reach = max(1, round(_space_clearance_mm(board) * board_scale(board, config)))
    near = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
    return _grown(blob, (near > 0) & changed)


def _grown(blob: np.ndarray, skin: np.ndarray) -> np.ndarray:
    """The hand is found on plain paper only, but it lies over spaces too: every run of skin
    colour that touches it (over a crowded grid, most of the hand) is part of it."""
    runs, labels = cv2.connectedComponents(skin.astype(np.uint8), connectivity=8)
    if runs <= 1:
        return blob
    touching = np.unique(labels[(blob > 0) & skin])
    touching = touching[touching > 0]
    return np.where(np.isin(labels, touching) | (blob > 0), 255, 0).astype(np.uint8)
