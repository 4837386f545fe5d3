"""Find the token on every space, anywhere on its cell, from the paper-normalised top view.

Every top-view pixel gets the colour of a token-core-sized disc around it (a box sum), and from
that a chroma: how far the colour is from grey, divided by its brightness, so the shading of a
3D token, a lamp's gradient or a shadow does not change it, only the token's own colour does.
A token is a plateau of high chroma the size of a token. For each space the reader keeps the
chroma peaks that lie in its cell (within a quarter of the spacing of its centre, and nearer to
it than to any other space) and are peaks of their own, so a neighbour's token reaching into the
cell is not counted twice. Peaks are kept per hue sector; which sector is which colour is
decided later (`vision.spaces`), from the palette or from the calibration. The space's centre
look (its printed hole, or whatever covers it) is kept too: an empty space must look like one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE
from rules.printing import COLLAR_RADIUS
from vision.exact import max3, min3
from vision.topview import (
    TOKEN_PX,
    TopView,
    cell_radius_mm,
    nearest_spacing,
    paper_coloured,
    paper_mask,
    reader_ppm,
    search_radius_mm,
)

HUE_BIN_DEG = 5.0
HUE_BINS = int(round(360 / HUE_BIN_DEG))
# A pixel takes the colour of a tent-weighted square about 0.8 token radius across each way
# (two box filters), so the chroma peaks at a token's centre, whatever its shading and highlight.
FIRST_BOX, SECOND_BOX = 0.45, 0.35  # half-sizes, as fractions of the token radius
PEAK_FLOOR = 0.2  # chroma below this is never kept as a peak (plain paper, grey print)
HOLE_DISC = 0.8  # of the printed hole's radius: its part clear of the blurred edge
COLLAR_RING = (1.1, 1.35)  # hole radii: just outside a printed hole, on its collar or paper
COLLAR_SHARE = 0.25  # a ring's light is judged by its darkest quarter
UNEVEN_SHARE = 0.2  # a hole's light is judged by its brightest and darkest fifths
WASHED_PALE = 200  # saturated with every channel at least this: glare washed the pixel out
SLIVER_REACH_MM = 13.0  # a stand set down a quarter spacing off shows its edge this far out
PRINT_HUE_REACH = 45.0  # degrees: a collar's colour within this of its seat's hue is print
SLIVER_CHROMA = 0.3  # a pixel this colourful is a token's (no grey print, no paper is)


@dataclass(frozen=True)
class ReaderPlan:
    """Per board: each space's cell in the top view, and the core box size."""

    shape: tuple[int, int]
    centre: np.ndarray  # (N,) flat top-view index of each space's centre
    cell: np.ndarray  # (M,) flat indices of all cells' pixels, grouped by space
    owner: np.ndarray  # (M,) space index of each cell pixel
    far: np.ndarray  # (M,) bool: beyond the search radius (a token there is too far off)
    scales: tuple[tuple[int, int, int], ...]  # per token size: (first box, second box, peak window)
    hole: np.ndarray  # (P,) flat offsets of a small disc inside the printed hole
    disc: np.ndarray  # (Q,) flat offsets of most of the printed hole (a token off centre)
    ring: tuple[int, int]  # inner and outer half-size of the square ring around a token
    collar: np.ndarray  # (R,) flat offsets of a ring just outside the printed hole
    own_print: np.ndarray  # (M,) bool: not on another seat's hole's tinted collar
    spacing: float  # the median distance between neighbouring spaces, in top-view px
    reach: np.ndarray  # (S,) flat offsets of the disc SLIVER_REACH_MM round a space's centre
    crops: tuple[ScaleCrop, ...]  # per token size (as `scales`): where its look is needed
    ring_reach: tuple[slice, slice]  # the part of the top view the rings round cells reach
    collar_of: np.ndarray  # (H * W,) the seat's hole whose tinted collar a pixel lies on, or -1
    seat_hue: np.ndarray  # (N,) the hue of each seat hole's colour, nan on plain spaces

    # each space's pixels of a disc or ring about its centre, as flat indices (clipped to the
    # view): the same for every frame, so worked out once per board
    def _about_centres(self, offsets: np.ndarray) -> np.ndarray:
        at = np.clip(self.centre[:, None] + offsets[None, :], 0, self.shape[0] * self.shape[1] - 1)
        at.flags.writeable = False
        return at

    @cached_property
    def cell_size(self) -> np.ndarray:
        """(N,) how many top-view pixels each space's cell has."""
        size = np.bincount(self.owner, minlength=len(self.centre))
        size.flags.writeable = False
        return size

    @cached_property
    def hole_at(self) -> np.ndarray:
        return self._about_centres(self.hole)

    @cached_property
    def disc_at(self) -> np.ndarray:
        return self._about_centres(self.disc)

    @cached_property
    def collar_at(self) -> np.ndarray:
        return self._about_centres(self.collar)

    @cached_property
    def reach_at(self) -> np.ndarray:
        return self._about_centres(self.reach)

    @cached_property
    def reach_px(self) -> np.ndarray:
        """(S,) each `reach` offset's distance from the space's centre, in top-view px."""
        width = self.shape[1]
        dy = np.floor_divide(self.reach + width // 2, width)
        distance = np.hypot(self.reach - dy * width, dy)
        distance.flags.writeable = False
        return distance

    @cached_property
    def reach_print_hue(self) -> np.ndarray:
        """(N, S): round each space, the hue of the seat's colour whose tinted collar (of
        another hole) a pixel lies on, nan elsewhere: that colour there is print (a row's
        collars reach into the grid squares beside it); any other colour is not."""
        on = self.collar_of[self.reach_at]
        other = (on >= 0) & (on != np.arange(len(self.centre))[:, None])
        hue = np.where(other, self.seat_hue[np.maximum(on, 0)], np.nan)
        hue.flags.writeable = False
        return hue


@dataclass(frozen=True)
class ScaleCrop:
    """The part of the top view one token size's look is needed in: the cells and the peak
    window around them (`inner`), inside the part the box filters read (`outer`). A box-filtered
    pixel depends only on the pixels within the filters' reach (OpenCV sums a float image's box
    exactly, in float64), so the look there is the whole view's, bit for bit, at a half to
    three quarters of the cost."""

    outer: tuple[slice, slice]  # of the top view
    inner: tuple[slice, slice]  # of `outer`
    cell: np.ndarray  # (M,) flat index of each of the plan's cell pixels in `inner`


def _scale_crop(cell: np.ndarray, shape: tuple[int, int], scale: tuple[int, int, int]):
    h, w = shape
    first, second, window = scale
    y, x = np.divmod(cell, w)
    r, m = window // 2, first // 2 + second // 2
    y0, y1 = max(0, int(y.min()) - r), min(h, int(y.max()) + r + 1)
    x0, x1 = max(0, int(x.min()) - r), min(w, int(x.max()) + r + 1)
    oy0, oy1, ox0, ox1 = max(0, y0 - m), min(h, y1 + m), max(0, x0 - m), min(w, x1 + m)
    at = ((y - y0) * (x1 - x0) + (x - x0)).astype(np.int64)
    at.flags.writeable = False  # shared by every frame
    inner = (slice(y0 - oy0, y1 - oy0), slice(x0 - ox0, x1 - ox0))
    return ScaleCrop((slice(oy0, oy1), slice(ox0, ox1)), inner, at)


def _hue_centres() -> np.ndarray:
    return (np.arange(HUE_BINS) + 0.5) * HUE_BIN_DEG


HUE_CENTRES = _hue_centres()
# each hue bin's direction in the chroma plane (x, y), to measure colour along a bin's hue
_HUE_COS, _HUE_SIN = np.cos(np.radians(HUE_CENTRES)), np.sin(np.radians(HUE_CENTRES))


@lru_cache(maxsize=16)
def reader_plan(board: Board) -> ReaderPlan:
    ppm = reader_ppm(board)
    h, w = round(board.height * ppm), round(board.width * ppm)
    xy = np.array([[s.x, s.y] for s in board.spaces], np.float64) * ppm - 0.5
    reach = cell_radius_mm(board) * ppm
    near = search_radius_mm(board) * ppm
    best = np.full((h, w), np.inf, np.float32)
    label = np.full((h, w), -1, np.int32)
    span = max(reach.max(), 1.0) * 2.2
    for i, (x, y) in enumerate(xy):
        x0, x1 = max(0, int(x - span)), min(w, int(x + span) + 2)
        y0, y1 = max(0, int(y - span)), min(h, int(y + span) + 2)
        if x0 >= x1 or y0 >= y1:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        d = np.hypot(xx - x, yy - y).astype(np.float32)
        win_best, win_label = best[y0:y1, x0:x1], label[y0:y1, x0:x1]
        closer = d < win_best
        win_best[closer] = d[closer]
        win_label[closer] = i
    flat_label = label.ravel()
    flat_best = best.ravel()
    inside = flat_label >= 0
    inside &= flat_best <= reach[np.clip(flat_label, 0, None)]
    cell = np.nonzero(inside)[0]
    owner = flat_label[cell]
    order = np.argsort(owner, kind="stable")
    cell, owner = cell[order], owner[order]
    far = flat_best[cell] > near[owner]
    cx = np.clip(np.rint(xy[:, 0]).astype(int), 0, w - 1)
    cy = np.clip(np.rint(xy[:, 1]).astype(int), 0, h - 1)
    radii = [board.token_radius * ppm]
    if board.shared_spaces:  # two stands side by side, each 0.6 of a token (vision.contest)
        radii.append(0.6 * board.token_radius * ppm)
    scales = tuple((_odd(FIRST_BOX * r), _odd(SECOND_BOX * r), _odd(0.5 * r)) for r in radii)
    hole = _disc_offsets(0.5 * board.hole_radius * ppm, w)
    disc = _disc_offsets(HOLE_DISC * board.hole_radius * ppm, w)
    ring = (max(2, int(round(1.25 * radii[0]))), max(3, int(round(1.9 * radii[0]))))
    collar = _ring_offsets(COLLAR_RING[0] * board.hole_radius * ppm,
                           COLLAR_RING[1] * board.hole_radius * ppm, w)  # fmt: skip
    spacing = float(np.median(nearest_spacing(board))) * ppm
    collar_of = _collar_owners(board, xy, ppm, label.shape)
    own_print = ~_foreign_collars(board, xy, label, ppm).ravel()[cell]
    reach_disc = _disc_offsets(SLIVER_REACH_MM * ppm, w)
    crops = tuple(_scale_crop(cell, (h, w), scale) for scale in scales)
    y, x, a = *np.divmod(cell, w), ring[1]
    ring_reach = (slice(max(0, int(y.min()) - a), min(h, int(y.max()) + a + 1)),
                  slice(max(0, int(x.min()) - a), min(w, int(x.max()) + a + 1)))  # fmt: skip
    return ReaderPlan(
        (h, w), cy * w + cx, cell, owner, far, scales, hole, disc, ring, collar, own_print,
        spacing, reach_disc, crops, ring_reach, collar_of, _seat_hues(board),
    )  # fmt: skip


def _foreign_collars(board: Board, xy: np.ndarray, label: np.ndarray, ppm: float) -> np.ndarray:
    """(H, W) bool: pixels on (or blurred into by a stand-sized look) the tinted collar of a
    seat's hole they are not the cell of. Where a seat's row runs beside a grid, its collars
    reach into the grid's cells: their colour there is print, not a stand."""
    foreign = np.zeros(label.shape, bool)
    if not board.shared_spaces:  # only the hidden-stand look (`beside`) needs it
        return foreign
    for i, window, near in _collar_discs(board, xy, ppm, label.shape):
        foreign[window] |= near & (label[window] != i)
    return foreign


def _collar_discs(board: Board, xy: np.ndarray, ppm: float, shape):
    """Per seat hole: its index, the top view's window round it and, in that window, the
    pixels its tinted collar covers as a stand-sized look blurs it."""
    h, w = shape
    reach = COLLAR_RADIUS * board.hole_radius * ppm + 0.5 * TOKEN_PX
    for i, space in enumerate(board.spaces):
        if space.owner is None:
            continue
        x, y = xy[i]
        x0, x1 = max(0, int(x - reach)), min(w, int(x + reach) + 2)
        y0, y1 = max(0, int(y - reach)), min(h, int(y + reach) + 2)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        yield i, (slice(y0, y1), slice(x0, x1)), np.hypot(xx - x, yy - y) <= reach


def _seat_hues(board: Board) -> np.ndarray:
    """(N,) the hue (as `chroma` measures it) of each seat hole's colour, nan elsewhere."""
    hues = np.full(len(board.spaces), np.nan)
    for i, space in enumerate(board.spaces):
        if space.owner is not None and space.owner < len(board.seat_colours):
            colour = PALETTE.get(board.seat_colours[space.owner])
            if colour is not None:
                r, g, b = (c / 255.0 for c in colour.rgb)
                cx, cy, _ = chroma(b, g, r)
                hues[i] = float(hue_deg(cx, cy))
    hues.flags.writeable = False
    return hues


def _collar_owners(board: Board, xy: np.ndarray, ppm: float, shape) -> np.ndarray:
    """(H * W,) per top-view pixel, the seat's hole whose tinted collar (as a stand-sized look
    blurs it) covers it, else -1 (boards with shared spaces only: the sliver look needs it)."""
    owners = np.full(shape, -1, np.int64)
    if board.shared_spaces:
        for i, window, near in _collar_discs(board, xy, ppm, shape):
            owners[window][near] = i
    flat = owners.ravel()
    flat.flags.writeable = False
    return flat


def _disc_offsets(radius_px: float, width: int) -> np.ndarray:
    """Flat top-view offsets of a disc about a pixel (at least the 3x3 cross)."""
    r = max(1, int(round(radius_px)))
    dy, dx = np.mgrid[-r : r + 1, -r : r + 1]
    inside = dx * dx + dy * dy <= r * r
    return (dy[inside] * width + dx[inside]).astype(np.int64)


def _ring_offsets(inner_px: float, outer_px: float, width: int) -> np.ndarray:
    """Flat top-view offsets of the pixels between two radii about a pixel."""
    r = max(1, int(np.ceil(outer_px)))
    dy, dx = np.mgrid[-r : r + 1, -r : r + 1]
    d2 = dx * dx + dy * dy
    inside = (d2 >= inner_px * inner_px) & (d2 <= max(outer_px, inner_px + 1.0) ** 2)
    return (dy[inside] * width + dx[inside]).astype(np.int64)


def _odd(half: float) -> int:
    return 2 * int(round(half)) + 1


@dataclass(frozen=True)
class SpaceLooks:
    """What the reader saw at every space (board order)."""

    ids: tuple[str, ...]
    valid: np.ndarray  # (N,) bool: the space's cell was in the camera's view
    centre: np.ndarray  # (N, 3) float32: chroma x, chroma y, brightness at the centre
    peaks: np.ndarray  # (N, HUE_BINS) float32: the strongest own chroma peak per hue sector
    peak_light: np.ndarray  # (N, HUE_BINS) float32: brightness at that peak
    far: np.ndarray  # (N,) float32: the strongest own chroma peak too far from the centre
    clipped: np.ndarray  # (N,) float32: share of the hole's middle where the camera saturated
    spread: np.ndarray  # (N, HUE_BINS) float32: chroma of the square ring 1.25-1.9 token
    # radii around that peak: a token's colour is gone there, a hand's or a sleeve's is not
    beside: np.ndarray | None = None  # (N, HUE_BINS) float32, boards with battles only: the
    # strongest stand-sized colour anywhere near the middle of the cell, peak or not (a
    # second stand half hidden behind the first is no peak of its own)
    disc_light: np.ndarray | None = None  # (N, Q) float32: brightness of every pixel over most
    # of the printed hole: a bare hole is even; a token set down off centre covers part of it
    washed: np.ndarray | None = None  # (N,) float32: share of the hole's middle washed out:
    # saturated and pale (glare; `clipped` counts a vivid token's one full channel too)
    collar: np.ndarray | None = None  # (N,) float32: the darkest quarter of a ring just outside
    # the printed hole against the hole's middle: a bare hole's bright collar (or paper) shows
    # there; a token wider than the hole hides it
    # the top view and board the looks were taken from, for what only some frames ask
    view: TopView | None = field(default=None, repr=False, compare=False)
    board: Board | None = field(default=None, repr=False, compare=False)

    @cached_property
    def shade(self) -> np.ndarray:
        """(N,) float32: the bare paper's brightness near each space against the board's
        smooth paper field: 1 as lit as the board, less in a shadow the field did not follow
        (a hand's); nan where no bare paper is near, or the top view is not known. Worked out
        only when asked: only a frame with a hand in view needs it."""
        if self.view is None or self.board is None:
            return np.full(len(self.ids), np.nan, np.float32)
        return _shade(self.view, self.board, reader_plan(self.board))

    def slivers(
        self, spaces: np.ndarray, print_look: tuple[float, float] | None = None
    ) -> np.ndarray | None:
        """(len(spaces), HUE_BINS) float32, boards with battles only (else None): mm² of
        token-coloured pixels within SLIVER_REACH_MM of each of `spaces`' centres (indices),
        per hue sector, unblurred (the edge of a stand hidden behind another, too thin to tell
        its hue once averaged). Worked out only for the spaces asked: only where a stand is
        read is a second one behind it asked about. `print_look`: the colour (chroma x, y)
        the plain print shows in this photo, where a cast tints it; near it is print too."""
        if self.view is None or self.board is None or not self.board.shared_spaces:
            return None
        plan = reader_plan(self.board)
        return _sliver(self.view, plan, np.asarray(spaces, np.int64), print_look)

    def sliver_pixels(
        self, space: int, print_look: tuple[float, float] | None = None
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """Flat top-view indices of the pixels `slivers` counts round one space, and their hue
        sectors; None where the top view is not known."""
        if self.view is None or self.board is None:
            return None
        plan = reader_plan(self.board)
        at, bins = _sliver_pixels(self.view, plan, np.array([space]), print_look)
        return plan.reach_at[space].take(at), bins

    def reach_looks(self, spaces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(S, R) chroma x, chroma y and brightness of every pixel within SLIVER_REACH_MM of
        each of `spaces`' centres (indices), unblurred; None where the top view is not known."""
        if self.view is None or self.board is None:
            return None
        plan = reader_plan(self.board)
        return _reach_looks(self.view, plan, np.asarray(spaces, np.int64))

    def disc_looks(self, spaces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(S, Q) chroma x, y and brightness of every pixel over most of each of `spaces`'
        printed holes (indices; the pixels `disc_light` holds), unblurred; None where the top
        view is not known."""
        if self.view is None or self.board is None:
            return None
        plan = reader_plan(self.board)
        return _chroma_planes_of(self.view.image.reshape(-1, 3).take(plan.disc_at[spaces], axis=0))

    def collar_looks(self, spaces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(S, R) chroma x, y and brightness of every pixel of the ring just outside each of
        `spaces`' printed holes (indices; the pixels `collar` judges by), unblurred; None
        where the top view is not known."""
        ring = self._collar_pixels(spaces)
        return None if ring is None else _chroma_planes_of(ring)

    def _collar_pixels(self, spaces: np.ndarray) -> np.ndarray | None:
        """(S, R, 3) the top view's pixels of the ring just outside each of `spaces`' holes."""
        if self.view is None or self.board is None:
            return None
        return self.view.image.reshape(-1, 3).take(reader_plan(self.board).collar_at[spaces], 0)

    def collar_dark_look(self, spaces: np.ndarray) -> np.ndarray | None:
        """(S, 3) chroma x, y and brightness of the darkest quarter of the ring just outside
        each of `spaces`' printed holes (indices; the pixels `collar` judges by), averaged:
        what hides the collar there, a token of a colour or a hand's shadow; None where the
        top view is not known."""
        ring = self._collar_pixels(spaces)  # (S, R, 3)
        if ring is None:
            return None
        k = int(COLLAR_SHARE * (ring.shape[1] - 1))
        darkest = np.argsort(ring.sum(2), axis=1, kind="stable")[:, : k + 1]
        bgr = np.take_along_axis(ring, darkest[..., None], axis=1).mean(1)
        return np.stack(chroma(bgr[:, 0], bgr[:, 1], bgr[:, 2]), 1)

    @cached_property
    def unevenness(self) -> np.ndarray:
        """(N,) per space, the log ratio of the brightest to the darkest fifth of the light
        over most of its printed hole: about 0 for a bare print under soft light, more where
        a token (rounded, shaded, glossy) or its edge lies there; 0 where not measured.
        Worked out once per frame: several checks ask for it."""
        if self.disc_light is None:
            return np.zeros(len(self.ids))
        light = np.sort(self.disc_light, axis=1)
        last = light.shape[1] - 1
        dark = light[:, int(round(UNEVEN_SHARE * last))]
        bright = light[:, int(round((1.0 - UNEVEN_SHARE) * last))]
        return np.log(np.maximum(bright, 1e-3) / np.maximum(dark, 1e-3))


CHROMA_FLOOR = 0.03  # the brightness chroma divides by at least (paper = 1)


def chroma(b, g, r, floor: float = CHROMA_FLOOR):
    """(cx, cy, brightness) of a colour (scalars or arrays, paper = 1): the opponent colour
    axes divided by brightness, so shading hardly changes them (0 for grey)."""
    light = (b + g + r) * (1.0 / 3.0)
    inv = 1.0 / np.maximum(light, floor)
    return (r - 0.5 * (g + b)) * inv, 0.8660254 * (g - b) * inv, light


def chroma_planes(image: np.ndarray, first: int, second: int, inner=None):
    """(cx, cy, brightness) of the token-sized colour around every pixel (of `image[inner]`
    only, when given); cx, cy are the opponent colour axes divided by brightness (0 for grey;
    a strong token colour is 1-2)."""
    s = cv2.boxFilter(image, -1, (first, first), borderType=cv2.BORDER_REFLECT)
    s = cv2.boxFilter(s, -1, (second, second), borderType=cv2.BORDER_REFLECT)
    if inner is not None:
        s = s[inner]
    return _chroma_planes_of(s)


def _chroma_planes_of(s: np.ndarray):
    """`chroma` of an (..., 3) float32 image's planes, the same operations in the same order,
    but three new planes instead of a dozen temporaries (one pass fewer over the image each),
    after one copy of the channels into planes of their own: every operation then runs over
    contiguous memory, at half the cost of a pixel's interleaved channels."""
    b, g, r = np.ascontiguousarray(np.moveaxis(s, -1, 0))
    light = np.add(b, g)  # (b + g + r) * (1 / 3)
    light += r
    light *= 1.0 / 3.0
    inv = np.maximum(light, CHROMA_FLOOR)  # 1 / max(light, floor)
    np.divide(1.0, inv, out=inv)
    cx = np.add(g, b)  # (r - 0.5 * (g + b)) * inv
    cx *= 0.5
    np.subtract(r, cx, out=cx)
    cx *= inv
    cy = np.subtract(g, b)  # 0.8660254 * (g - b) * inv
    cy *= 0.8660254
    cy *= inv
    return cx, cy, light


def hue_deg(cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
    return np.degrees(np.arctan2(cy, cx)) % 360.0


def hue_bins(cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
    """`(hue_deg(cx, cy) // HUE_BIN_DEG).astype(np.int64) % HUE_BINS`, the same bins for float32
    chroma at a fifth of the cost (numpy's float `%` and `//` are slow loops). For a float32
    angle d in [-180, 180], numpy's d % 360 is d, or d + 360 in float32 where d < 0; and its
    `// 5` is the exact floor of that / 5 (its divmod subtracts the exact remainder first),
    which float64 division, too fine to round up to the next whole number, gives as well."""
    return _degree_bins(np.degrees(np.arctan2(cy, cx)))


def _degree_bins(degrees: np.ndarray) -> np.ndarray:
    """`(degrees % 360.0 // HUE_BIN_DEG).astype(np.int64) % HUE_BINS` for angles in [-180, 180]
    (as arctan2 gives them)."""
    if degrees.dtype != np.float32:
        return (degrees % 360.0 // HUE_BIN_DEG).astype(np.int64) % HUE_BINS
    turned = np.where(degrees < 0, degrees + np.float32(360.0), degrees)
    return np.floor(turned.astype(np.float64) / HUE_BIN_DEG).astype(np.int64) % HUE_BINS


def hue_gap(a, b):
    """Degrees between hues a and b (scalars or arrays) the short way round the circle, 0..180."""
    return np.abs((np.asarray(a) - b + 180.0) % 360.0 - 180.0)


def look_at_spaces(view: TopView, board: Board) -> SpaceLooks:
    """Measure every space's cell in the top view."""
    plan = reader_plan(board)
    if view.image.shape[:2] != plan.shape:
        raise ValueError(f"top view {view.image.shape[:2]} does not fit board {board.name!r}")
    n = len(board.spaces)
    cell, owner = plan.cell, plan.owner
    peaks = np.zeros((n, HUE_BINS), np.float32)
    peak_light = np.zeros((n, HUE_BINS), np.float32)
    far = np.zeros(n, np.float32)
    spread = np.zeros((n, HUE_BINS), np.float32)
    # box sums round any cell pixel, for `spread` (exact: float64 sums of float32 values)
    sums = cv2.integral(view.image[plan.ring_reach], sdepth=cv2.CV_64F)
    beside = np.zeros((n, HUE_BINS), np.float32) if board.shared_spaces else None
    for step, (first, second, window) in enumerate(plan.scales):
        crop = plan.crops[step]  # (the cells' pixels in it: `at`)
        cx, cy, light = chroma_planes(view.image[crop.outer], first, second, crop.inner)
        chroma = cx * cx
        chroma += cy * cy
        np.sqrt(chroma, out=chroma)
        around = cv2.dilate(chroma, np.ones((window, window), np.uint8))
        cxf, cyf, lf, cf = cx.ravel(), cy.ravel(), light.ravel(), chroma.ravel()
        at = crop.cell
        c = cf[at]
        if beside is not None and step == len(plan.scales) - 1:  # at a stand's own size
            seen = (c >= PEAK_FLOOR) & ~plan.far & plan.own_print
            hues = hue_bins(cxf[at[seen]], cyf[at[seen]])
            # (ufunc.at is ten times quicker on a flat index than on an index pair)
            np.maximum.at(beside.reshape(-1), owner[seen] * HUE_BINS + hues, c[seen])
        own = (c >= around.ravel()[at] - 1e-4) & (c >= PEAK_FLOOR)  # a peak, not a slope
        np.maximum.at(far, owner[own & plan.far], c[own & plan.far])
        own &= ~plan.far
        idx, who, cc = cell[own], owner[own], c[own]
        bins = hue_bins(cxf[at[own]], cyf[at[own]])
        np.maximum.at(peaks.reshape(-1), who * HUE_BINS + bins, cc)
        # the brightness at each kept peak (of equal peaks the last wins; they are alike)
        order = np.argsort(cc, kind="stable")
        peak_light[who[order], bins[order]] = lf[at[own]][order]
        spread[who[order], bins[order]] = _box_chroma(sums, idx[order], plan, bins[order])
    centre = _centre_look(view.image, plan)
    valid = _cells_in_view(view, plan, n)
    raw = view.raw.reshape(-1, 3)
    hole = plan.hole_at
    # the camera saturated in the hole's middle: a grey print never does but in glare
    middle_px = raw.take(hole, axis=0)  # (take: a row gather five times quicker than [])
    full = max3(middle_px) >= 250
    clipped = full.mean(1).astype(np.float32)
    washed = (full & (min3(middle_px) >= WASHED_PALE)).mean(1).astype(np.float32)
    grey = cv2.transform(view.image, np.full((1, 3), 1.0 / 3.0)).ravel()
    disc_light = grey[plan.disc_at]
    middle = grey[hole].mean(1)  # (the top view and its grey have the same pixels)
    ring = grey[plan.collar_at]
    k = int(COLLAR_SHARE * (ring.shape[1] - 1))
    collar = np.partition(ring, k, axis=1)[:, k] / np.maximum(middle, 1e-3)
    return SpaceLooks(
        board.ids(), valid, centre.astype(np.float32), peaks, peak_light, far, clipped, spread,
        beside, disc_light, washed, collar.astype(np.float32), view, board,
    )  # fmt: skip


def _cells_in_view(view: TopView, plan: ReaderPlan, n: int) -> np.ndarray:
    """(N,) bool: at least 90% of the space's cell lies inside the camera's view."""
    cell_size = plan.cell_size
    if view.valid.all():  # the usual frame: every cell is whole (no per-pixel count needed)
        return cell_size > 0
    cell_valid = np.bincount(plan.owner, weights=view.valid.ravel()[plan.cell], minlength=n)
    return (cell_valid >= 0.9 * np.maximum(cell_size, 1)) & (cell_size > 0)


def _reach_looks(
    view: TopView, plan: ReaderPlan, spaces: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, R) chroma x, y and brightness of the pixels within SLIVER_REACH_MM of each space's
    centre."""
    # (flat indices and take: a boolean mask's [] over a 2-D array costs several times more)
    px = view.image.reshape(-1, 3).take(plan.reach_at[spaces], axis=0)
    return _chroma_planes_of(px)


def _sliver(
    view: TopView,
    plan: ReaderPlan,
    spaces: np.ndarray,
    print_look: tuple[float, float] | None = None,
) -> np.ndarray:
    """(S, HUE_BINS) mm² of pixels colourful enough to be a token's, per hue sector, within
    SLIVER_REACH_MM of each of `spaces`' centres (and as far from the print's look)."""
    at, bins = _sliver_pixels(view, plan, spaces, print_look)
    who = at // plan.reach.size
    n = len(spaces)
    counts = np.bincount(who * HUE_BINS + bins, minlength=n * HUE_BINS)
    return (counts.reshape(n, HUE_BINS) / view.ppm**2).astype(np.float32)


def _sliver_pixels(
    view: TopView,
    plan: ReaderPlan,
    spaces: np.ndarray,
    print_look: tuple[float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The pixels within SLIVER_REACH_MM of each of `spaces`' centres that a sliver counts
    (colourful enough to be a token's, and no print), as flat indices into (S, R), and
    their hue sectors."""
    cx, cy, _ = _reach_looks(view, plan, spaces)
    strong = cx * cx + cy * cy >= SLIVER_CHROMA**2
    if print_look is not None:
        strong &= (cx - print_look[0]) ** 2 + (cy - print_look[1]) ** 2 >= SLIVER_CHROMA**2
    # (on another hole's tinted collar, its seat's colour is print there; any other is not)
    print_hue = plan.reach_print_hue[spaces]
    check = strong & ~np.isnan(print_hue)
    if check.any():
        strong[check] = hue_gap(hue_deg(cx[check], cy[check]), print_hue[check]) > PRINT_HUE_REACH
    at = np.flatnonzero(strong)
    return at, hue_bins(cx.take(at), cy.take(at))


def _shade(view: TopView, board: Board, plan: ReaderPlan) -> np.ndarray:
    """Per space, the mean brightness of the bare paper within about a spacing of it, in the
    paper-normalised view (a normalised Gaussian blur on a 4x smaller grid, sampled at the
    space's centre). Where rows of holes and print leave almost no paper that close (a
    crowded arm), the paper within about three spacings says it instead."""
    h, w = plan.shape
    small = (max(4, w // 4), max(4, h // 4))
    # a hand is no paper: only the paper-coloured pixels say how the paper is lit
    paper = paper_mask(board, view.ppm) & view.valid & paper_coloured(view.image)
    paper = paper.astype(np.float32)
    light = cv2.transform(view.image, np.full((1, 3), 1.0 / 3.0)) * paper
    light = cv2.resize(light, small, interpolation=cv2.INTER_AREA)
    weight = cv2.resize(paper, small, interpolation=cv2.INTER_AREA)
    y, x = np.divmod(plan.centre, w)
    iy = np.clip((y * small[1]) // h, 0, small[1] - 1)
    ix = np.clip((x * small[0]) // w, 0, small[0] - 1)
    shade = np.full(len(plan.centre), np.nan, np.float32)
    for reach in (3.0, 1.0):  # the nearer paper, where there is enough of it, has the last word
        sigma = reach * plan.spacing * small[0] / w
        near_light = cv2.GaussianBlur(light, (0, 0), sigma)[iy, ix]
        near_weight = cv2.GaussianBlur(weight, (0, 0), sigma)[iy, ix]
        enough = near_weight > 0.02
        shade[enough] = near_light[enough] / near_weight[enough]
    return shade


def _box_chroma(
    sums: np.ndarray, flat: np.ndarray, plan: ReaderPlan, bins: np.ndarray
) -> np.ndarray:
    """Chroma of the mean colour in the square ring `plan.ring` about each flat index, along
    the hue of its bin (`sums`: the integral image of the top view's part `plan.ring_reach`).
    Along that hue only: a hand's colour goes on round its peak, while a token's ring is
    its space's print, which a cast may tint in another hue (a red stand on bluish grey)."""
    h, w = plan.shape
    y, x = np.divmod(flat, w)
    oy, ox = plan.ring_reach[0].start, plan.ring_reach[1].start
    row, table = sums.shape[1], sums.reshape(-1, 3)  # (take on flat indices: quicker than [])

    def box(a: int) -> tuple[np.ndarray, np.ndarray]:
        y0, y1 = np.maximum(y - a, 0), np.minimum(y + a + 1, h)
        x0, x1 = np.maximum(x - a, 0), np.minimum(x + a + 1, w)
        top, bottom, left, right = (y0 - oy) * row, (y1 - oy) * row, x0 - ox, x1 - ox
        total = table.take(bottom + right, axis=0) - table.take(top + right, axis=0)
        total -= table.take(bottom + left, axis=0)
        total += table.take(top + left, axis=0)
        return total, ((y1 - y0) * (x1 - x0)).astype(np.float64)

    inner, inner_area = box(plan.ring[0])
    outer, outer_area = box(plan.ring[1])
    ring = (outer - inner) / np.maximum(outer_area - inner_area, 1.0)[:, None]
    cx, cy, _ = chroma(ring[:, 0], ring[:, 1], ring[:, 2], floor=1e-6)
    return np.maximum(cx * _HUE_COS.take(bins) + cy * _HUE_SIN.take(bins), 0.0)


def _centre_look(image: np.ndarray, plan: ReaderPlan) -> np.ndarray:
    """(N, 3): chroma x, chroma y, brightness of the middle of each printed hole."""
    flat = image.reshape(-1, 3)
    idx = plan.hole_at
    b, g, r = flat.take(idx, axis=0).mean(1).T
    return np.stack(chroma(b, g, r), 1)
