"""The geometry a die face's fit is built on: the pip layouts of the six values, fitting a
set of pips to them at any turn, and reading the image at spots of a fitted face's grid.
Shared by the pip counter (:mod:`vision.dice`) and its check that a face is not part of a
bigger one (:mod:`vision.bigger_face`)."""

from __future__ import annotations

import itertools

import numpy as np

# around a lone pip, the face must be at least this fraction of the pip's surround brightness
ONE_LEVEL = 0.88

# canonical layouts on the grid {-1, 0, 1}^2 (units of the half-spacing a)
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], float),
    5: np.array([[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], float),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], float),
}
# a six's layout with its columns set wider apart or closer than its rows (a die's design,
# foreshortening)
SIX_STRETCHED = np.stack(
    [LAYOUTS[6] * np.array([u, 1.0]) for u in (0.7, 0.78, 0.85, 0.92, 1.08, 1.15, 1.3, 1.45)]
)

ANGLES = np.deg2rad(np.arange(0.0, 180.0, 2.0))
# (as columns: a layout is fitted thousands of times in a busy tray)
_COS_ANGLES, _SIN_ANGLES = np.cos(ANGLES)[:, None], np.sin(ANGLES)[:, None]


def median_of(values: list[float]) -> float:
    """``float(np.median(values))`` of a face's few pips, without numpy's overhead (the
    middle value, or the mean of the middle two, worked out as numpy does)."""
    ordered = sorted(values)
    half = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[half])
    return (float(ordered[half - 1]) + float(ordered[half])) / 2


def fit_layout(pts: np.ndarray, lay: np.ndarray) -> tuple[float, float, float]:
    """Fit a layout to whitened, centred points: (a, rms error / a, angle)."""
    if len(lay) == 1:
        return 0.0, 0.0, 0.0
    return fit_layouts(pts, lay[None])[0]


def part_fit(xy: np.ndarray, value: int) -> float:
    """How well points (pixels: pips found on a face) sit on some of ``value``'s layout
    spots, one point a spot, seen any way a flat face can be (an affine map: a die's face is
    small against its distance, so its perspective is affine). The least rms distance, in
    grid half-spacings, from the points mapped onto the layout to their spots, over every
    choice of spots and their order. A face's pips sit on its grid, however slanted,
    sheared by motion or missing some; a top face's pips with a side face's do not (the
    side face's lie nearer or askew, foreshortened and past an edge). Needs four points or
    more (any three are an affine image of any three spots)."""
    lay = LAYOUTS[value]
    n = len(xy)
    if n < 4 or n > len(lay):
        raise ValueError(f"part_fit needs 4 to {len(lay)} points for a {value}, got {n}")
    homogeneous = np.hstack([xy - xy.mean(0), np.ones((n, 1))])
    # every choice of spots in every order, fitted at once by least squares: the map
    # taking the points to the spots is pinv(points) @ spots
    spots = np.array(
        [
            lay[list(order)]
            for chosen in itertools.combinations(range(len(lay)), n)
            for order in itertools.permutations(chosen)
        ]
    )
    maps = np.einsum("kn,mnd->mkd", np.linalg.pinv(homogeneous), spots)
    off = np.einsum("nk,mkd->mnd", homogeneous, maps) - spots
    return float(np.sqrt((off**2).sum(2).mean(1)).min())


def layout_scale(pts: np.ndarray, lays: np.ndarray) -> np.ndarray:
    """The pip spacing ``a`` (in the points' units) each layout (L x k x 2) is fitted at:
    the points' spread over the layout's, whatever the layout's turn."""
    rms_lay = np.sqrt((lays**2).sum(2).mean(1))
    rms_pts = np.sqrt((pts**2).sum(1).mean())
    return rms_pts / rms_lay


def fit_layouts(pts: np.ndarray, lays: np.ndarray) -> list[tuple[float, float, float]]:
    """:func:`fit_layout` for several layouts of as many pips at once (L x k x 2): a six is
    fitted stretched eight ways, and one pass over all of them costs about one fit."""
    a = layout_scale(pts, lays)
    c, s = _COS_ANGLES, _SIN_ANGLES
    # rotate points by -angle into the layout frame, in units of a
    rx = (pts[:, 0][None, :] * c + pts[:, 1][None, :] * s)[None] / a[:, None, None]
    ry = (-pts[:, 0][None, :] * s + pts[:, 1][None, :] * c)[None] / a[:, None, None]
    dx = rx[..., None] - lays[:, None, None, :, 0]
    dy = ry[..., None] - lays[:, None, None, :, 1]
    d2 = dx**2 + dy**2
    nearest = d2.argmin(3)  # layouts x angles x points
    err = d2.min(3).sum(2) / len(pts)  # (the mean over the points, without its overhead)
    out = []
    for li in range(len(lays)):
        best = (np.inf, 0.0)
        for ai in np.argsort(err[li])[:6]:
            if len(set(nearest[li, ai].tolist())) == lays.shape[1]:
                best = (float(err[li, ai]), float(ANGLES[ai]))
                break
        out.append((float(a[li]), float(np.sqrt(best[0])), best[1]))
    return out


def sample_at(grey: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Mean of the 3x3 neighbourhood at each point (points outside the image give -1)."""
    h, w = grey.shape
    xi = np.round(xy[:, 0]).astype(int)
    yi = np.round(xy[:, 1]).astype(int)
    out = np.full(len(xy), -1.0)
    ok = (xi >= 1) & (yi >= 1) & (xi < w - 1) & (yi < h - 1)
    if np.any(ok):
        acc = np.zeros(int(ok.sum()))
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                acc += grey[yi[ok] + dy, xi[ok] + dx]
        out[ok] = acc / 9.0
    return out


def face_to_image(pts: np.ndarray, centre: np.ndarray, inv: np.ndarray, ang: float) -> np.ndarray:
    """Points in a fitted face's layout frame (turned by ``ang``, pip radii) in the image."""
    c, s = np.cos(ang), np.sin(ang)
    return centre + (pts @ np.array([[c, s], [-s, c]])) @ inv.T


def empty_grid(lay: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The spots of the pip grid (columns ``xs``, rows -1, 0, 1) where ``lay`` has no pip."""
    grid = np.array([[x, y] for x in xs for y in (-1.0, 0.0, 1.0)])
    occupied = (np.abs(grid[:, None, :] - lay[None, :, :]).sum(2) < 1e-6).any(1)
    return grid[~occupied]
