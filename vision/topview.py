"""The board seen from straight above, with the paper's own colour divided out.

Reading a token needs two things a raw frame does not give: the whole cell around each space (a
pawn put down by hand lies off centre), and a white reference next to every space (a lamp's
gradient, a spotlight, a white-balance cast and tinted paper change every colour, but they change
the paper around a space the same way). So the frame is warped into a small top view at a fixed
number of pixels per token radius, the bare paper is found from the board's own geometry (well
away from spaces, lines, boxes and markers), a smooth paper field is fitted through it with
outliers (shadows, a hand) left out, and the top view is divided by that field: paper reads 1.0
in every channel, everywhere on the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import cv2
import numpy as np

from rules.geometry import Board
from rules.printing import COLLAR_RADIUS
from vision.exact import column_sums, max3, mean3, median
from vision.lens import Lens

TOKEN_PX = 5.0  # a token's radius in the top view (a contest half's radius on shared boards)
LINK_CLEAR_MM = 1.8  # paper this close to a printed line is not used as white reference
SPACE_CLEAR_MM = 2.5  # beyond the farthest reach of a token, its collar and its shadow
PAPER_SIGMA_MM = 18.0  # how fast the paper's colour may change across the board
MARKER_CELLS = 6  # an ArUco 4x4 marker with its black border: 6 cells a side
PAPER_CLIPPED = 250  # a raw channel this bright is (near) the camera's ceiling
OUTLIER = 0.18  # paper further than this from the fitted field (relative) is left out
PAPER_CAST_MAX = 0.25  # paper under a white-balance cast (+-15%) strays less than this from grey
PAPER_WHITISH_SHARE = 0.1  # ... and while a tenth of the bare paper does, the rest is no paper
GRID_CELL = 4  # top-view pixels a side of a cell of the grid the paper field is fitted on
PAPER_SHARE_LEAST = 0.25  # a grid cell with less bare paper than this is no white reference
FAR_REACH = 3.0  # where little paper is near, the paper this many times further out speaks
FAR_WEIGHT = 0.05  # ... as much as this share of a grid cell of paper
HUE_OUTLIER = 0.12  # paper whose colour (brightness divided out) strays this far from the
# board's usual paper is not paper: skin, a sleeve, a token put down off its space


@dataclass(frozen=True)
class TopView:
    """The paper-normalised board (float32 BGR, paper = 1.0) and where the camera saw it."""

    image: np.ndarray  # (H, W, 3) float32
    valid: np.ndarray  # (H, W) bool: inside the camera frame
    ppm: float  # top-view pixels per board millimetre
    raw: np.ndarray  # (H, W, 3) uint8: the top view as the camera gave it (for glare)
    paper: np.ndarray | None = field(default=None, repr=False, compare=False)  # (H, W) bool:
    # the bare paper the view was normalised by

    @cached_property
    def paper_clipped(self) -> float:
        """The share of the bare paper where the camera saturated (every other pixel: a
        share, not a count), worked out only when asked: only a photo whose plain print
        reads brighter than print can look asks."""
        if self.paper is None:
            return 0.0
        return clipped_share(self.raw[::2, ::2], self.paper[::2, ::2])


def reader_ppm(board: Board) -> float:
    """Top-view resolution: the smallest token radius is TOKEN_PX pixels."""
    radius = board.token_radius * (0.6 if board.shared_spaces else 1.0)
    return TOKEN_PX / radius


@lru_cache(maxsize=16)
def nearest_spacing(board: Board) -> np.ndarray:
    """Per space, the distance to the nearest other space (mm). Worked out once per board
    (several stages ask for it every frame); read-only."""
    xy = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    if len(xy) < 2:
        out = np.full(len(xy), 4.0 * board.token_radius)
    else:
        d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
        np.fill_diagonal(d, np.inf)
        out = d.min(1)
    out.flags.writeable = False
    return out


def search_radius_mm(board: Board) -> np.ndarray:
    """How far from its space's centre a token may stand: a quarter of the spacing (a hand
    puts it down) plus 3.5 mm for the camera model (lens distortion, paper not quite flat)."""
    return 0.25 * nearest_spacing(board) + 3.5


def cell_radius_mm(board: Board) -> np.ndarray:
    """How far the reader looks around a space: to halfway to its nearest neighbour. A token
    seen beyond `search_radius_mm` is too far off to say which space it stands on."""
    return np.maximum(0.5 * nearest_spacing(board) + 1.0, search_radius_mm(board))


@lru_cache(maxsize=16)
def paper_mask(board: Board, ppm: float) -> np.ndarray:
    """(H, W) bool: top-view pixels where the printed board is bare paper."""
    h, w = round(board.height * ppm), round(board.width * ppm)
    blocked = np.zeros((h, w), np.uint8)
    margin = round((board.marker_margin + 2.0) * ppm)
    blocked[:margin, :] = blocked[-margin:, :] = 1
    blocked[:, :margin] = blocked[:, -margin:] = 1

    def px(v: float) -> int:
        return round(v * ppm - 0.5)

    reach = np.maximum(
        COLLAR_RADIUS * board.hole_radius + 1.5, board.token_radius + search_radius_mm(board)
    ) + SPACE_CLEAR_MM  # fmt: skip
    for space, r in zip(board.spaces, reach, strict=True):
        if board.hole_radius * 1.2 > r:
            r = board.hole_radius * 1.2 + SPACE_CLEAR_MM
        cv2.circle(blocked, (px(space.x), px(space.y)), round(r * ppm), 1, -1)
    thick = max(1, round(2 * LINK_CLEAR_MM * ppm))
    for a, b in board.links:
        sa, sb = board.space(a), board.space(b)
        cv2.line(blocked, (px(sa.x), px(sa.y)), (px(sb.x), px(sb.y)), 1, thick)
    pad = 2.0
    for region in board.regions:
        cv2.rectangle(
            blocked, (px(region.x - pad), px(region.y - pad)),
            (px(region.x + region.w + pad), px(region.y + region.h + pad)), 1, -1,
        )  # fmt: skip
    quiet = 4.0 + 2.0
    for (x0, y0), _, (x1, y1), _ in board.marker_squares().values():
        cv2.rectangle(blocked, (px(x0 - quiet), px(y0 - quiet)), (px(x1 + quiet), px(y1 + quiet)),
                      1, -1)  # fmt: skip
    paper = blocked == 0
    paper.flags.writeable = False  # shared by every frame
    return paper


def board_to_top(ppm: float) -> np.ndarray:
    """Board mm -> top-view px (pixel centres at (i + 0.5) / ppm mm)."""
    return np.array([[ppm, 0, -0.5], [0, ppm, -0.5], [0, 0, 1]], np.float64)


def frame_px_per_mm(homography: np.ndarray, board: Board) -> float:
    """How many frame pixels one board millimetre spans, near the board's centre."""
    to_image = np.linalg.inv(np.asarray(homography, np.float64))
    c = np.array([[[board.width / 2, board.height / 2], [board.width / 2 + 10, board.height / 2],
                   [board.width / 2, board.height / 2 + 10]]])  # fmt: skip
    p = cv2.perspectiveTransform(c, to_image)[0]
    (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(ax * by - ay * bx)) / 10.0)


def warp_top(
    image: np.ndarray, board: Board, homography: np.ndarray, ppm: float, lens: Lens | None = None
):
    """(top view uint8 BGR, valid mask): the frame warped to board mm at `ppm` (through
    `lens`, where the homography is the straightened frame's)."""
    h = np.asarray(homography, np.float64)
    frame_ppm = frame_px_per_mm(h, board)
    src, shrunk = image, np.eye(3)  # (shrunk: frame px -> src px)
    while frame_ppm >= 2.5 * ppm:  # halve first, so the warp averages instead of aliasing
        half = cv2.resize(src, (src.shape[1] // 2, src.shape[0] // 2), interpolation=cv2.INTER_AREA)
        fx, fy = half.shape[1] / src.shape[1], half.shape[0] / src.shape[0]
        to_full = np.array([[1 / fx, 0, 0.5 / fx - 0.5], [0, 1 / fy, 0.5 / fy - 0.5], [0, 0, 1]])
        h, src, frame_ppm = h @ to_full, half, frame_ppm / 2
        shrunk = np.linalg.inv(to_full) @ shrunk
    size = (round(board.width * ppm), round(board.height * ppm))
    if lens is not None:
        to_straight = np.linalg.inv(board_to_top(ppm) @ np.asarray(homography, np.float64))
        top, inside = lens.warp(src, to_straight, size, shrunk)
        if inside.all():
            return top, inside
        return top, cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    warp = board_to_top(ppm) @ h
    top = cv2.warpPerspective(src, warp, size, flags=cv2.INTER_LINEAR)
    corners = np.array(
        [
            [
                [-0.5, -0.5],
                [src.shape[1] - 0.5, -0.5],
                [src.shape[1] - 0.5, src.shape[0] - 0.5],
                [-0.5, src.shape[0] - 0.5],
            ]
        ]
    )
    quad = cv2.perspectiveTransform(corners, warp)[0]  # fmt: skip
    if _covers(quad, size):  # the usual frame: the whole board in view, nothing to draw
        return top, np.ones((size[1], size[0]), bool)
    valid = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(valid, np.round(quad * 4).astype(np.int32), 1, cv2.LINE_8, 2)
    return top, cv2.erode(valid, np.ones((3, 3), np.uint8)).astype(bool)


COVER_MARGIN = 2.0  # top-view px: beyond any rounding of the drawn outline and the erosion


def _covers(quad: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether the convex `quad` (the frame's outline in top-view px) holds every top-view
    pixel with COVER_MARGIN to spare: then the drawn and eroded mask of `warp_top` would be
    all ones, and need not be drawn. False whenever unsure (a degenerate or far-flung
    outline), so the mask is drawn as before."""
    pts = [(float(x), float(y)) for x, y in quad]
    if not all(abs(v) < 1e5 for p in pts for v in p):
        return False
    w, h, m = size[0] - 1, size[1] - 1, COVER_MARGIN
    box = ((-m, -m), (w + m, -m), (w + m, h + m), (-m, h + m))
    turn = 0.0
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        ex, ey = bx - ax, by - ay
        cross = ex * (cy - by) - ey * (cx - bx)
        if cross == 0.0 or (turn and (cross > 0) != (turn > 0)):
            return False  # not a strictly convex outline
        turn = cross
        length = (ex * ex + ey * ey) ** 0.5
        for px, py in box:  # each corner of the view on the inner side of every edge
            if (ex * (py - ay) - ey * (px - ax)) * (1.0 if turn > 0 else -1.0) < m * length:
                return False
    return True


def _grid_size(shape: tuple[int, ...]) -> tuple[int, int]:
    """(width, height) of the grid the paper field is fitted on."""
    return max(4, shape[1] // GRID_CELL), max(4, shape[0] // GRID_CELL)


def _paper_on_grid(mask: np.ndarray) -> np.ndarray:
    """(h, w) float32 1/0: grid cells that are bare paper all through."""
    m = cv2.resize(mask.astype(np.float32), _grid_size(mask.shape), interpolation=cv2.INTER_AREA)
    return (m > 0.99).astype(np.float32)


def _whole_cells(shape: tuple[int, ...]) -> tuple[int, int]:
    """(width, height) of the grid's whole cells (the pixels beyond the last whole cell left
    out: averaging whole cells is quick)."""
    return shape[1] // GRID_CELL, shape[0] // GRID_CELL


def _paper_share(mask: np.ndarray) -> np.ndarray:
    """(h, w) float32 0..1: each whole cell's share of bare paper, 0 under PAPER_SHARE_LEAST."""
    w, h = _whole_cells(mask.shape)
    whole = mask[: h * GRID_CELL, : w * GRID_CELL].astype(np.float32)
    share = cv2.resize(whole, (w, h), interpolation=cv2.INTER_AREA)
    share[share < PAPER_SHARE_LEAST] = 0.0
    return share


@lru_cache(maxsize=16)
def _whole_paper_grids(board: Board, ppm: float) -> tuple[np.ndarray, np.ndarray]:
    """`_paper_on_grid` and `_paper_share` of the whole board's paper (the usual frame: all
    of it in view), shared by every frame."""
    mask = paper_mask(board, ppm)
    grids = _paper_on_grid(mask), _paper_share(mask)
    for grid in grids:
        grid.flags.writeable = False
    return grids


def _paper_alone(top: np.ndarray, mask: np.ndarray, share: np.ndarray) -> np.ndarray:
    """(h, w, 3) float32: each whole cell's colour over its bare paper alone (print, holes
    and tokens in the cell left out). (Averaged as bytes: a cell's mean is then off by half a
    level at most, and the field averages many cells.)"""
    w, h = share.shape[1], share.shape[0]
    paper = cv2.bitwise_and(top, top, mask=mask.view(np.uint8))
    paper = paper[: h * GRID_CELL, : w * GRID_CELL]
    summed = cv2.resize(paper, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.divide(summed, np.maximum(share, 1e-3)[:, :, None], out=summed)


def paper_field(
    top: np.ndarray,
    mask: np.ndarray,
    ppm: float,
    on_grid: np.ndarray | None = None,
    paper_share: np.ndarray | None = None,
) -> np.ndarray:
    """(H, W, 3) float32: the paper's colour everywhere, fitted through the bare paper.

    Fitted twice on a grid of GRID_CELL pixels (see `_fit_field`), keeping the darker, cell
    by cell: from the cells of bare paper all through, and from every cell with a good share
    of paper (`_paper_share`), at its paper's own colour. `on_grid` and `paper_share` are
    `_paper_on_grid(mask)` and `_paper_share(mask)` when the caller has them.
    """
    on_grid = _paper_on_grid(mask) if on_grid is None else on_grid
    sig = PAPER_SIGMA_MM * ppm / GRID_CELL
    # the cells all paper, the board's mean where none is near: glare lifts the paper and
    # the print alike, and the glare model reads print seen against this field
    whole = cv2.resize(top, _grid_size(top.shape), interpolation=cv2.INTER_AREA)
    field = _fit_field(whole.astype(np.float32), on_grid, sig, far=False)
    share = _paper_share(mask) if paper_share is None else paper_share
    if min(share.shape) >= 2:
        # every cell's paper over its share: follows a shadow among rows of holes
        img = _paper_alone(top, mask, share)
        near = _fit_field(img, share, sig, far=True)
        if near.shape != field.shape:  # (a view under 16 px a side: the grid's least size)
            size = (field.shape[1], field.shape[0])
            near = cv2.resize(near, size, interpolation=cv2.INTER_LINEAR)
        # darker is a shadow: followed; lighter is kept as before (glare is not divided out)
        field = np.where((mean3(near) < mean3(field))[:, :, None], near, field)
    field = cv2.resize(field, (top.shape[1], top.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.maximum(field, 8.0, out=field)


def _fit_field(img: np.ndarray, m: np.ndarray, sig: float, far: bool) -> np.ndarray:
    """The paper field on the grid from cells `img` weighted `m`: a normalised convolution
    that falls back to the board's mean where little paper is near (first to the paper
    further out: `far`), then once more without the paper that strays from the first fit
    (shadows, a hand, a stray token)."""
    m = m * _paper_coloured(img, m)
    field = img
    for again in (True, False):
        paper = m.sum()
        if paper < 4:
            break
        weighted = img * m[:, :, None]
        mean = column_sums(weighted.reshape(-1, 3)) / paper
        fallback = _far_field(weighted, m, sig, mean) if far else mean
        # weighted Gaussian blur: the blurred paper over the blurred weight
        v = cv2.GaussianBlur(weighted, (0, 0), sig)
        w = cv2.GaussianBlur(m, (0, 0), sig)
        v += FAR_WEIGHT * fallback
        w += FAR_WEIGHT
        field = np.divide(v, w[:, :, None], out=v)
        if again:
            lum = mean3(img) / np.maximum(mean3(field), 1.0)
            m = m * (np.abs(lum - 1.0) < OUTLIER)
    return field


def _far_field(weighted: np.ndarray, m: np.ndarray, sig: float, mean: np.ndarray) -> np.ndarray:
    """(h, w, 3): the paper FAR_REACH times further out, on a 4x coarser grid (cheap), with
    the board's mean where none is even there."""
    h, w = m.shape
    small = (max(2, w // 4), max(2, h // 4))
    ws = cv2.resize(weighted, small, interpolation=cv2.INTER_AREA)
    ms = cv2.resize(m, small, interpolation=cv2.INTER_AREA)
    s = FAR_REACH * sig / 4.0
    v = cv2.GaussianBlur(ws, (0, 0), s) + FAR_WEIGHT * mean
    n = cv2.GaussianBlur(ms, (0, 0), s) + FAR_WEIGHT
    return cv2.resize(v / n[:, :, None], (w, h), interpolation=cv2.INTER_LINEAR)


def _paper_coloured(img: np.ndarray, m: np.ndarray) -> np.ndarray:
    """(h, w) float32 1/0: grid cells whose colour, brightness divided out, is the paper's.

    A lamp's gradient, a spotlight and a shadow change the paper's brightness but hardly its
    colour; a hand as bright as the paper does. Left in, it tints the white reference of the
    spaces beside it the hand's colour, and a grey hole there looks the opposite colour (blue).
    """
    where = m > 0
    paper = img[where]
    if len(paper) < 4:
        return np.ones_like(m)
    colour = paper / np.maximum(mean3(paper)[:, None], 1.0)
    # the paper is whitish: a cast tints it only so far, skin more. Where a hand covers most
    # of the bare paper, its colour is the median's; the paper is the whitish cells' colour
    whitish = max3(np.abs(colour - 1.0)) < PAPER_CAST_MAX
    some = whitish.sum() >= max(4, PAPER_WHITISH_SHARE * len(colour))
    usual = median(colour[whitish] if some else colour, axis=0)
    out = np.zeros_like(m)
    out[where] = max3(np.abs(colour - usual)) < HUE_OUTLIER
    return out


def paper_coloured(image: np.ndarray, usual=(1.0, 1.0, 1.0)) -> np.ndarray:
    """(H, W) bool: pixels whose colour, brightness divided out, lies within HUE_OUTLIER of
    the paper's `usual` colour (in a paper-normalised view the paper is grey: the default)."""
    light = np.maximum(mean3(image), 1e-3)
    usual = np.asarray(usual, np.float32)
    off = None  # max3 of |colour - usual|, one channel at a time (no (H, W, 3) temporaries)
    for c in range(3):
        d = image[..., c] / light
        d -= usual[c]
        np.abs(d, out=d)
        off = d if off is None else np.maximum(off, d, out=off)
    return off < HUE_OUTLIER


def top_view(
    image: np.ndarray, board: Board, homography: np.ndarray, lens: Lens | None = None
) -> TopView:
    """The paper-normalised top view of `board` in `image` (homography: image px -> mm, in
    the image as a pinhole would have seen it through `lens`)."""
    ppm = reader_ppm(board)
    top, valid = warp_top(image, board, homography, ppm, lens)
    whole = bool(valid.all())  # the usual frame: the paper's grid is known beforehand
    mask = paper_mask(board, ppm) if whole else paper_mask(board, ppm) & valid
    if mask.sum() < 50:
        raise ValueError(f"board {board.name!r}: too little of its paper is in view to read it")
    on_grid, share = _whole_paper_grids(board, ppm) if whole else (None, None)
    field = paper_field(top, mask, ppm, on_grid, share)
    normalised = np.divide(top, field, out=field)  # the field is not needed after this
    return TopView(normalised, valid, ppm, top, mask)


def clipped_share(top: np.ndarray, mask: np.ndarray) -> float:
    """The share of the bare paper where some channel saturated: there the paper's true
    brightness is unknown, and everything divided by it reads brighter than it is."""
    paper = top[mask]
    return float((paper.max(1) >= PAPER_CLIPPED).mean()) if len(paper) else 0.0


def marker_ink(view: TopView, board: Board) -> float:
    """How light the corner markers' printed black border reads against the paper (the
    median over the markers in view of their border's median; nan where none is): a
    black that glare has not lifted reads about 0.1."""
    image, valid, ppm = view.image, view.valid, view.ppm
    h, w = valid.shape
    levels = []
    for corners in board.marker_squares().values():
        (x0, y0), (x1, y1) = corners[0], corners[2]
        cell = (x1 - x0) / MARKER_CELLS
        ys, xs = np.mgrid[
            max(int((y0 + cell / 4) * ppm), 0) : min(int((y1 - cell / 4) * ppm), h),
            max(int((x0 + cell / 4) * ppm), 0) : min(int((x1 - cell / 4) * ppm), w),
        ]
        # the border cell's middle band only: the code's cells inside are black or white
        inner = (xs > (x0 + 0.75 * cell) * ppm) & (xs < (x1 - 0.75 * cell) * ppm)
        inner &= (ys > (y0 + 0.75 * cell) * ppm) & (ys < (y1 - 0.75 * cell) * ppm)
        ring = ~inner & valid[ys, xs]
        if ring.sum() >= 8:
            levels.append(float(median(mean3(image[ys[ring], xs[ring]]))))
    return float(median(np.array(levels))) if levels else float("nan")
