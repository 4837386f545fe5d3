"""Pip candidates: small dark (or contrasting) round blobs on a bright die body.

Pure numpy + cv2. Used by :mod:`vision.dice`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np


@dataclass(frozen=True)
class Pip:
    """One pip candidate, as an ellipse from its second moments."""

    x: float
    y: float
    area: float  # pixels
    major: float  # semi-axis, pixels
    minor: float  # semi-axis, pixels
    angle: float  # radians, direction of the major axis
    contrast: float  # body brightness minus pip brightness, 0..255
    body: float  # brightness of the body around the pip, 0..255

    @cached_property
    def radius(self) -> float:
        """The radius of the circle of the same area (kept: the face fits ask it often)."""
        return float(np.sqrt(self.major * self.minor))

    @property
    def elongation(self) -> float:
        return self.major / max(self.minor, 1e-6)

    @property
    def darkness(self) -> float:
        """How dark it is against the body round it, as a share of the body's brightness
        (blur softens it: sharp pips are 0.5 and more)."""
        return self.contrast / max(self.body, 1.0)

    def cov(self) -> np.ndarray:
        """2x2 shape matrix (ellipse axes squared) of the pip."""
        return self._cov

    def whitener(self) -> np.ndarray:
        """Matrix mapping this pip's ellipse onto the unit circle."""
        return self._whitener

    @cached_property
    def _whitener(self) -> np.ndarray:
        c, s = np.cos(self.angle), np.sin(self.angle)
        r = np.array([[c, -s], [s, c]])
        return r @ np.diag([1.0 / self.major, 1.0 / max(self.minor, 1e-6)]) @ r.T

    @cached_property
    def _cov(self) -> np.ndarray:
        c, s = np.cos(self.angle), np.sin(self.angle)
        r = np.array([[c, -s], [s, c]])
        return r @ np.diag([self.major**2, self.minor**2]) @ r.T


# largest ratio of squared axes between two pips of one face
SHAPE_TOL = 1.7


def cov_whitener(cov: np.ndarray) -> np.ndarray:
    """Inverse square root of a 2x2 symmetric positive definite matrix (closed form): the map
    taking an ellipse of shape matrix ``cov`` onto the unit circle."""
    det = max(float(cov[0, 0] * cov[1, 1] - cov[0, 1] * cov[1, 0]), 1e-12)
    sd = np.sqrt(det)
    t = np.sqrt(max(float(cov[0, 0] + cov[1, 1]) + 2.0 * sd, 1e-12))
    root = (cov + sd * np.eye(2)) / t  # sqrt(cov)
    return np.array([[root[1, 1], -root[0, 1]], [-root[1, 0], root[0, 0]]]) / sd


def eig2(m: np.ndarray) -> tuple[float, float]:
    """Eigenvalues (small, large) of a 2x2 symmetric matrix."""
    tr = float(m[0, 0] + m[1, 1])
    det = float(m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0])
    disc = np.sqrt(max(tr * tr / 4.0 - det, 0.0))
    return tr / 2.0 - disc, tr / 2.0 + disc


def fits_ellipse(q: Pip, wh: np.ndarray, tol: float = SHAPE_TOL) -> bool:
    """Is ``q`` the ellipse that the whitener ``wh`` maps onto the unit circle, give or take
    ``tol`` (a ratio of squared axes)?"""
    lo, hi = eig2(wh @ q.cov() @ wh.T)
    return bool(lo > 1.0 / tol and hi < tol and hi / max(lo, 1e-6) < tol)


def same_ellipse(p: Pip, q: Pip, tol: float = SHAPE_TOL) -> bool:
    """Could p and q be circles of the same size on the same plane (same ellipse)?"""
    return fits_ellipse(q, p.whitener(), tol)


# a drawn-out blob at least this wide and this long, in a face's round pips' radii, is pips
# run together on their plane (see :func:`run_together`)
MERGED_ACROSS = 0.75
MERGED_ALONG = 2.0


def run_together(p: Pip, round_r: float) -> bool:
    """Is the drawn-out blob ``p`` pips of round ones' plane (pips of radius ``round_r``)
    run together (a six's column smeared by motion), not a pip of another plane? Slant
    shrinks a circle across (its short axis falls under the round pips' radius, its long
    one stays about that); smearing or merging stretches it along (its short axis stays the
    round pips' radius, its long one grows to two or more of them)."""
    return p.minor >= MERGED_ACROSS * round_r and p.major >= MERGED_ALONG * round_r


def fill_holes(mask: np.ndarray, max_hole: float | None = None) -> np.ndarray:
    """Fill enclosed holes of a 0/1 mask (a pip with a specular highlight is a ring).

    ``max_hole``: only holes of at most this many pixels are filled (a printed frame around
    a dice tray encloses the whole tray, which is no pip's highlight)."""
    h, w = mask.shape
    pad = np.zeros((h + 2, w + 2), np.uint8)
    pad[1:-1, 1:-1] = mask
    flood = pad.copy()
    ff = np.zeros((h + 4, w + 4), np.uint8)
    cv2.floodFill(flood, ff, (0, 0), 1)
    holes = flood[1:-1, 1:-1] == 0
    if max_hole is not None and holes.any():
        n, labels, stats, _ = cv2.connectedComponentsWithStats(holes.astype(np.uint8), 4)
        small = np.zeros(n, bool)
        small[1:] = stats[1:, cv2.CC_STAT_AREA] <= max_hole
        holes = small[labels]
    out = mask.copy()
    out[holes] = 1
    return out


def find_pips(
    grey: np.ndarray,
    max_radius: int,
    min_area: int = 4,
    min_contrast: float = 40.0,
    rel_contrast: float = 0.3,
    min_body: float = 80.0,
    split_merged: bool = False,
    bars: list[tuple[float, float, float]] | None = None,
) -> list[Pip]:
    """Dark round blobs with a bright, even surround in a grey image (uint8).

    ``max_radius`` bounds the pip size in pixels (the closing kernel is a bit larger).
    ``split_merged``: a blob too big for one pip is cut at a deeper darkness into the pips it
    may be (big pips set close, as on a tight six, blur together across the narrow gap).
    ``bars``: if given, a dark bar of a pip's width and up to a row of three pips' length
    with a bright surround (pips smeared together by motion: no pip, but a die may lie
    there) is added to it as (centre x, centre y, length).
    """
    k = 2 * max_radius + 3
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel)
    diff = cv2.subtract(closed, grey)
    # a pip pixel is darker than its surroundings by an absolute and a relative margin
    thr = np.maximum(min_contrast, rel_contrast * closed.astype(np.float32))
    mask = (diff.astype(np.float32) > thr).astype(np.uint8)
    limits = _PipLimits(max_radius, min_area, min_body)
    mask = fill_holes(mask, limits.max_area)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    pips: list[Pip] = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < limits.min_area:
            continue  # a speck: neither a pip nor pips blurred together
        sub = labels[y : y + bh, x : x + bw] == i
        pip = _blob_pip(grey, sub, x, y, limits)
        if pip is not None:
            pips.append(pip)
        elif split_merged and _merged_pips(area, bw, bh, limits):
            pips.extend(_split_blob(grey, diff, sub, x, y, limits))
        elif bars is not None:
            bar = _blob_bar(grey, sub, x, y, limits)
            if bar is not None:
                bars.append(bar)
    return pips


# a bar of smeared pips is at least this elongated (a pip is less: see _blob_pip) and at most
# as long as this many of the largest pips side by side
_BAR_ELONGATION = 4.5
_BAR_PIPS = 3.0


def _blob_bar(
    grey: np.ndarray, sub: np.ndarray, x: int, y: int, limits: _PipLimits
) -> tuple[float, float, float] | None:
    """The bar of pips smeared together a blob is, as (centre x, centre y, length), or
    None: a filled, drawn-out ellipse as wide as a pip and no longer than a row of three,
    with a bright surround (a die's body, not a cable or a line of print on the table)."""
    area = int(np.count_nonzero(sub))
    bh, bw = sub.shape
    if area < limits.min_area or max(bw, bh) > _BAR_PIPS * limits.max_side:
        return None
    m = cv2.moments(sub.astype(np.uint8), binaryImage=True)
    mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
    disc = np.sqrt(max((mu20 + mu02) ** 2 / 4 - (mu20 * mu02 - mu11**2), 0.0))
    major = 2 * np.sqrt((mu20 + mu02) / 2 + disc)
    minor = 2 * np.sqrt(max((mu20 + mu02) / 2 - disc, 1e-6))
    if major / minor <= _BAR_ELONGATION or minor > limits.max_radius:
        return None
    if area / (np.pi * major * minor) < 0.6:
        return None
    cx, cy = x + m["m10"] / area, y + m["m01"] / area
    h, w = grey.shape
    r = 1.2 * major + 1.5
    px = np.minimum(np.maximum(np.round(cx + r * _RING_COS).astype(int), 0), w - 1)
    py = np.minimum(np.maximum(np.round(cy + r * _RING_SIN).astype(int), 0), h - 1)
    ring = grey[py, px].astype(np.float32)
    inner = float(grey[y : y + bh, x : x + bw][sub].mean())
    body = _median12(ring)
    if body < limits.min_body or np.count_nonzero(ring > inner + 0.5 * (body - inner)) < 8:
        return None
    return float(cx), float(cy), float(2 * major)


@dataclass(frozen=True)
class _PipLimits:
    """What a blob must be to count as one pip: its size bound, least area, least body."""

    max_radius: int  # pixels
    min_area: int  # pixels
    min_body: float  # brightness of the surround, 0..255

    @property
    def max_area(self) -> float:
        return np.pi * self.max_radius**2 * 1.2

    @property
    def max_side(self) -> int:
        return 2 * self.max_radius + 2


# a blob of up to this many pips' area may be pips blurred together
_MERGED_PIPS = 3.5
# ... cut at this fraction of its darkest point's depth below the surround
_MERGED_CUT = 0.6


# ... filling at least this share of its bounding box (two pips side by side: 0.5 or more)
_MERGED_FILL = 0.3


def _merged_pips(area: int, bw: int, bh: int, limits: _PipLimits) -> bool:
    """Might a blob be a few pips blurred together: bigger than one pip, but no more than
    :data:`_MERGED_PIPS` pips' area, no longer than a row of three and filling a good part
    of its box (not a printed line or letter)?"""
    side = limits.max_side
    if area <= limits.max_area and max(bw, bh) <= side:
        return False  # a pip's size: it failed as a pip for its shape
    if area > _MERGED_PIPS * limits.max_area or max(bw, bh) > 3 * side:
        return False
    return area >= _MERGED_FILL * bw * bh


def _split_blob(
    grey: np.ndarray, diff: np.ndarray, sub: np.ndarray, x: int, y: int, limits: _PipLimits
) -> list[Pip]:
    """The pips in a blob too big for one: its darkest cores, each judged as a pip. A pip
    found so is its core, a little smaller than the pip, and is read as such."""
    h, w = sub.shape
    depth = diff[y : y + h, x : x + w].astype(np.float32)
    core = (sub & (depth > _MERGED_CUT * float(depth[sub].max()))).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    if n <= 2:
        return []  # one core: a blob, not pips blurred together
    out = []
    for j in range(1, n):
        cx, cy, cw, ch, _ = stats[j]
        part = labels[cy : cy + ch, cx : cx + cw] == j
        pip = _blob_pip(grey, part, x + cx, y + cy, limits)
        if pip is not None:
            out.append(pip)
    return out


# the twelve directions in which a pip's surround is sampled
_RING = np.linspace(0, 2 * np.pi, 12, endpoint=False)
_RING_COS, _RING_SIN = np.cos(_RING), np.sin(_RING)


def _median12(ring: np.ndarray) -> float:
    """The median of twelve grey levels (whole numbers, so the middle two's mean is exact):
    what ``np.median`` gives, without its overhead (it is taken for every blob)."""
    ordered = np.sort(ring)
    return 0.5 * (float(ordered[5]) + float(ordered[6]))


def _blob_pip(grey: np.ndarray, sub: np.ndarray, x: int, y: int, limits: _PipLimits) -> Pip | None:
    """The pip a blob (mask ``sub`` whose top-left pixel is at x, y) is, or None: a filled
    ellipse of a pip's size with a bright, even surround."""
    bh, bw = sub.shape
    area = int(np.count_nonzero(sub))
    if area < limits.min_area or area > limits.max_area:
        return None
    if bw > limits.max_side or bh > limits.max_side:
        return None
    m = cv2.moments(sub.astype(np.uint8), binaryImage=True)
    mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
    tr = mu20 + mu02
    det = mu20 * mu02 - mu11**2
    disc = np.sqrt(max(tr * tr / 4 - det, 0.0))
    l1, l2 = tr / 2 + disc, max(tr / 2 - disc, 1e-6)
    # for a filled ellipse, variance along an axis = semi-axis^2 / 4
    major, minor = 2 * np.sqrt(l1), 2 * np.sqrt(l2)
    angle = 0.5 * np.arctan2(2 * mu11, mu20 - mu02)
    fill = area / (np.pi * major * minor)
    if fill < 0.6 or major / max(minor, 1e-6) > 4.5:
        return None
    cx, cy = x + m["m10"] / area, y + m["m01"] / area
    # surround check: points at ~2 radii around the pip must be bright (die body)
    h, w = grey.shape
    r = max(major, 2.0) * 1.2 + 1.5
    # (whole pixel indices held to the image: np.clip's result, without its overhead)
    px = np.minimum(np.maximum(np.round(cx + r * _RING_COS).astype(int), 0), w - 1)
    py = np.minimum(np.maximum(np.round(cy + r * _RING_SIN).astype(int), 0), h - 1)
    ring = grey[py, px].astype(np.float32)
    inner = float(grey[y : y + bh, x : x + bw][sub].mean())
    body = _median12(ring)
    if body < limits.min_body:
        return None
    level = inner + 0.5 * (body - inner)
    if np.count_nonzero(ring > level) < 8:
        return None
    return Pip(
        float(cx), float(cy), float(area), float(major), float(minor), float(angle),
        body - inner, body,
    )  # fmt: skip
