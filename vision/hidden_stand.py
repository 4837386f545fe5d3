"""Is a lone stand really alone? On boards whose spaces hold battles, the nearer stand can
hide most of the other; these are the measures that say a second stand may be behind it.

A battle read as its front stand alone is a wrong ruling, so each measure only adds doubt:
a stand-sized patch of another colour near the middle, thin slivers of it counted unblurred,
glare that washes a second stand of a row's colour out to its tint, and, on a seat's row,
colour that neither the row's print nor the stand explains.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from rules.geometry import Board
from vision.confidence import ramp_one
from vision.tokens import (
    HUE_CENTRES,
    SLIVER_CHROMA,
    SLIVER_REACH_MM,
    SpaceLooks,
    _chroma_planes_of,
    hue_bins,
)
from vision.tokens import reader_plan as _plan

if TYPE_CHECKING:
    from vision.spaces import Evidence

HIDDEN_STAND = 0.22  # beside a stand on a plain space, this much of another colour may be a
# second stand it hides (a battle): then the space is unclear
HIDDEN_ON_TINT = 0.06  # ... on a seat's space, this much more of the seat's colour than its tint
HIDDEN_ON_WASHED = 0.2  # ... or this much more than its tint washed by its neighbours' glare
GLARE_HIDES_NONE = 0.1  # a stand's own highlight saturates up to this much of a hole's middle;
GLARE_HIDES = 0.25  # glare over this much may wash a second stand out to its row's tint
SLIVER_NONE = 14.0  # mm² of another colour beside a stand (its own edge, a neighbour's reach)
SLIVER_HIDES = 20.0  # ... and this much: the edge of a second stand it mostly hides
# ... beyond what the bare print round a plain space shows (the median over at least this many
# quiet plain spaces of its kind, at most PRINT_SLIVER_MOST: on dev photos the print showed up
# to 19 mm², a lone stand 10 more at the 99th percentile, a hidden stand's edge 56 and more)
PRINT_SLIVER_SPACES = 10
PRINT_SLIVER_MOST = 20.0
# A stand set down off its square, and leaning in perspective, reaches into the next square:
# where the colour beside a stand is one blob with a stand of that colour read next door, and
# most of the blob lies beyond this square's reach, it is that stand's, up to this much of it
# in this square (a hidden stand's edge showed 56 mm² and more on dev photos; one merged with
# its neighbour's blob, 399)
NEIGHBOUR_REACH_MOST = 40.0  # mm²
NEIGHBOUR_LEAVES = 5.0  # mm²: a few pixels of the top view
# On a seat's row a stand of the seat's colour half hidden behind another can be as colourful
# as the row's tint, but its colour is its own. Round a lone stand there every pixel of the
# row's colour is its print (a little more colourful than predicted, at most), the stand, or a
# blend of two of them and the paper; pixels more than UNEXPLAINED_GAP from every such blend
# cover 10 mm² round a lone stand there on dev photos (median; 41 at the 99th percentile:
# noise, shading, lens fringes), more where a second stand shows (four battles read as their
# front stand: 39-84)
UNEXPLAINED_GAP = 0.1
ROW_UNEXPLAINED_NONE = 30.0  # mm²
ROW_UNEXPLAINED_HIDES = 40.0
BLEND_LIGHT_ROOM = 0.25  # (a print's brightness is predicted, and a pixel's noisy: a blend
# keeps this much more of the print's chroma than the paper-print mix says)
HOLE_INSIDE = 1.0  # hole radii: well inside the printed hole (its blurred edge and collar beyond)
BLEND_LIGHT_MOST = 0.9  # (a print predicted brighter than this says nothing of its blends)


def hidden_stand(ev: Evidence, i: int, colour: str) -> float:
    """How likely a stand of `colour` on space i hides most of a second stand of another
    colour: a stand-sized patch of that colour near the middle, peak or not, above what the
    print there shows (no colour on a plain space; the seat's tint in its own hue).
    On a seat's row, glare washes a second stand of the row's colour out to its tint's colour:
    under enough glare, that no second stand is there cannot be told."""
    # (Python floats: the same float64 arithmetic as numpy's scalars, at a tenth of the cost)
    row = int(ev.owner_k[i])
    tinted = row >= 0 and ev.colours[row] != colour
    doubt = ramp_one(ev.washed[i], GLARE_HIDES_NONE, GLARE_HIDES) if tinted else 0.0
    print_tint, washed_tint = float(ev.print_tint[i]), float(ev.washed_tint[i])
    slivers = ev.sliver[i].tolist()
    for k, patch in enumerate(ev.beside[i].tolist()):
        if ev.colours[k] == colour:
            continue
        if row == k:
            # (a dark stand hides how washed the print under it is; its neighbours say,
            # but glare is patchy, so the margin is wider)
            excess = max(patch - print_tint + HIDDEN_ON_WASHED - HIDDEN_ON_TINT,
                         patch - washed_tint)  # fmt: skip
            bar = HIDDEN_ON_WASHED
        else:  # (on a plain space, over the colour a cast gives its print)
            excess = patch - (float(ev.plain_cast[k]) if row < 0 else 0.0)
            bar = HIDDEN_STAND
        doubt = max(doubt, ramp_one(excess, bar - 0.06, bar))
        if row != k:  # (on its own row that colour is print ...
            doubt = max(doubt, ramp_one(slivers[k], SLIVER_NONE, SLIVER_HIDES))
        else:  # ... but for what neither it nor the stand explains)
            unexplained = float(ev.row_unexplained[i])
            doubt = max(doubt, ramp_one(unexplained, ROW_UNEXPLAINED_NONE, ROW_UNEXPLAINED_HIDES))
    return doubt


def slivers(
    samples: SpaceLooks,
    member: np.ndarray,
    stands: np.ndarray,
    print_look: tuple[float, float] | None,
) -> np.ndarray:
    """(N, K) mm² of each colour's pixels near the middle of the spaces `stands` (indices),
    0 elsewhere; `member` (K, HUE_BINS) says which hues are whose, `print_look` the plain
    print's colour in this photo where a cast tints it. (Sums of a few float32 counts per
    mm², exact in float64 in any order: the same numbers as over every space.)"""
    out = np.zeros((len(samples.ids), len(member)))
    per_hue = samples.slivers(stands, print_look)
    if per_hue is not None and len(stands):
        out[stands] = per_hue.astype(np.float64) @ member.T.astype(np.float64)
    return out


def less_neighbours_reach(
    sliver: np.ndarray,
    beside: np.ndarray,
    samples: SpaceLooks,
    member: np.ndarray,
    token: np.ndarray,
    print_look: tuple[float, float] | None,
) -> tuple[np.ndarray, np.ndarray]:
    """`sliver` (N, K) less the pixels of it that belong to a stand read on a neighbouring
    space (see NEIGHBOUR_REACH_MOST): its blob, found round the square with thin print (an
    outline, a line) opened away, and as far as that blob reaches into this square. Where
    next to nothing of that colour is left, the stand-sized patch of it `beside` (N, K) found
    in the square was that stand's too: it is dropped."""
    read = token >= 0.5
    asked = np.argwhere((sliver >= SLIVER_NONE) & ~read & read.any(1)[:, None])
    if not len(asked) or samples.view is None or samples.board is None:
        return sliver, beside
    plan = _plan(samples.board)
    ppm = samples.view.ppm
    out, beside = sliver.copy(), beside.copy()
    for i, k in asked:
        around = _Around.of(samples, plan, int(i))
        blobs = around.blobs(member[k])
        count, label, stats, centroid = cv2.connectedComponentsWithStats(blobs, connectivity=8)
        inside = np.bincount(label[around.reach], minlength=count)
        theirs = [
            blob
            for blob in np.flatnonzero(inside[1:]) + 1
            if inside[blob] <= NEIGHBOUR_REACH_MOST * ppm**2
            and stats[blob, cv2.CC_STAT_AREA] >= 2 * inside[blob]  # (most of it beyond here)
            and (j := _nearest_space(plan, centroid[blob] + around.corner)) != i
            and read[j, k]
        ]
        if not theirs:
            continue
        mask = cv2.dilate(np.isin(label, theirs).astype(np.uint8), _SMALL_DISC)  # (its soft rim)
        at, hues = samples.sliver_pixels(int(i), print_look)
        y, x = np.divmod(at, plan.shape[1])
        y, x = y - around.y0, x - around.x0
        mine = float(np.count_nonzero(member[k][hues] & (mask[y, x] == 0))) / ppm**2
        out[i, k] = min(out[i, k], mine)
        if mine <= NEIGHBOUR_LEAVES:
            beside[i, k] = 0.0
    return out, beside


_SMALL_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
AROUND_SPACINGS = 1.5  # a neighbour's stand lies within this many spacings of the square


@dataclass(frozen=True)
class _Around:
    """The top view round one square: its token-coloured pixels, their hues, where the
    square's reach lies in it, and its corner (x, y) in the whole top view."""

    strong: np.ndarray
    hues: np.ndarray
    reach: np.ndarray  # (h, w) bool
    y0: int
    x0: int

    @property
    def corner(self) -> np.ndarray:
        return np.array([self.x0, self.y0], np.float64)

    @classmethod
    def of(cls, samples: SpaceLooks, plan, i: int) -> _Around:
        h, w = plan.shape
        cy, cx = divmod(int(plan.centre[i]), w)
        half = int(np.ceil(AROUND_SPACINGS * plan.spacing))
        y0, y1, x0, x1 = (
            max(0, cy - half),
            min(h, cy + half + 1),
            max(0, cx - half),
            min(w, cx + half + 1),
        )
        px, py, _ = _chroma_planes_of(samples.view.image[y0:y1, x0:x1])
        yy, xx = np.ogrid[y0 - cy : y1 - cy, x0 - cx : x1 - cx]
        reach = yy * yy + xx * xx <= (SLIVER_REACH_MM * samples.view.ppm) ** 2
        strong = px * px + py * py >= SLIVER_CHROMA**2
        return cls(strong, hue_bins(px, py), reach, y0, x0)

    def blobs(self, hues: np.ndarray) -> np.ndarray:
        """uint8 mask of the pixels of `hues` (HUE_BINS,) bool, thin print opened away."""
        mask = (self.strong & hues[self.hues]).astype(np.uint8)
        return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _SMALL_DISC)


def _nearest_space(plan, xy: np.ndarray) -> int:
    """The space whose centre is nearest the top-view point `xy` (x, y)."""
    y, x = np.divmod(plan.centre, plan.shape[1])
    return int(np.argmin((x - xy[0]) ** 2 + (y - xy[1]) ** 2))


def net_of_print(
    sliver: np.ndarray,
    samples: SpaceLooks,
    member: np.ndarray,
    quiet_plain: np.ndarray,
    print_look: tuple[float, float] | None,
) -> np.ndarray:
    """`sliver` less, on plain spaces, what the bare print round a plain space of the same
    kind shows in this photo (the median over the quiet ones, `quiet_plain` (N,) bool; at
    most PRINT_SLIVER_MOST). A square's dark ink outline, bluish, tinted further by a warm
    paper, can be as colourful as a dull stand's edge: 14-27 mm² of it round red stands on
    Playground Battles' squares read as a blue stand hidden behind each."""
    board = samples.board
    if board is None or not sliver.size or sliver.max() < SLIVER_NONE:
        return sliver  # (the usual frame: no stand has that much beside it)
    kinds = _plain_kinds(board)
    asked = np.flatnonzero((kinds != "") & (sliver.max(1) >= SLIVER_NONE))
    out = sliver
    for kind in np.unique(kinds[asked]):
        bare = np.flatnonzero(quiet_plain & (kinds == kind))
        if len(bare) < PRINT_SLIVER_SPACES:
            continue
        base = np.minimum(np.median(slivers(samples, member, bare, print_look)[bare], 0),
                          PRINT_SLIVER_MOST)  # fmt: skip
        at = asked[kinds[asked] == kind]
        out = out.copy() if out is sliver else out
        out[at] = np.maximum(out[at] - base[None, :], 0.0)
    return out


@lru_cache(maxsize=16)
def _plain_kinds(board: Board) -> np.ndarray:
    """(N,) each plain space's kind, "" for a seat's."""
    kinds = np.array([sp.kind if sp.owner is None else "" for sp in board.spaces])
    kinds.flags.writeable = False  # shared by every frame
    return kinds


def unexplained_row_colour(
    samples: SpaceLooks,
    member: np.ndarray,
    stands: np.ndarray,
    owner_k: np.ndarray,
    bare_print: np.ndarray,
    print_room: float,
    print_light: np.ndarray,
) -> np.ndarray:
    """(N,) on a seat's space where a stand is read, mm² of the seat's colour (token-coloured
    pixels, unblurred, within SLIVER_REACH_MM) that neither its print (`bare_print`, up to
    `print_room` more colourful), the strongest other colour standing there, the paper nor
    any blend of two of them explains; 0 elsewhere. `print_light`: (N,) how bright the print
    is here (lit as the plain holes nearby are): a blend of it with the paper brighter than
    that is paler in step."""
    out = np.zeros(len(owner_k))
    if samples.board is None or not samples.board.shared_spaces:
        return out  # (no battles on this board: nothing to ask)
    rows = stands[owner_k[stands] >= 0]
    rows = rows[~np.isnan(bare_print[rows, 0])]
    seen = samples.reach_looks(rows) if len(rows) else None
    if seen is None:
        return out
    k = owner_k[rows]
    # the strongest colour standing there that is not the row's own: the stand read
    others = member[None, :, :] & (np.arange(len(member))[None, :] != k[:, None])[:, :, None]
    front = np.where(others.any(1), samples.peaks[rows], -1.0).argmax(1)
    hue = np.radians(HUE_CENTRES[front])
    stand = samples.peaks[rows, front][:, None] * np.stack([np.cos(hue), np.sin(hue)], 1)
    tint = bare_print[rows, :2].astype(np.float64)
    size = np.hypot(tint[:, 0], tint[:, 1])
    richest = tint * ((size + print_room) / np.maximum(size, 1e-3))[:, None]
    # only token-coloured pixels of the row's colour are asked about (few: one pass each)
    cx, cy, light = seen
    row, at = np.nonzero(cx * cx + cy * cy >= SLIVER_CHROMA**2)
    px, py = cx[row, at].astype(np.float64), cy[row, at].astype(np.float64)
    keep = member[k[row], hue_bins(px, py)]
    lit = light[row, at][keep].astype(np.float64)
    row, at, px, py = row[keep], at[keep], px[keep], py[keep]
    paper = np.zeros((len(row), 2))
    # inside the hole, a blend of its print and the paper brighter than the print is paler
    # in step: a pale stand of the row's colour, as colourful as the print but brighter, is
    # none (outside it lies the tinted collar, a pale print of its own)
    kept = _paper_share_kept(lit, print_light[rows][row])
    inside = (
        _plan(samples.board).reach_px[at]
        <= HOLE_INSIDE * samples.board.hole_radius * samples.view.ppm
    )
    paling = np.where(inside, kept, 1.0)[:, None]
    blend = richest[row] * paling
    # ... and so is a blend of the print with the stand there: a pixel as colourful as the
    # print but far brighter is neither (a pale salmon stand beside a blue one, on red's
    # row, took its print's chroma and was read as print: the square read as blue alone)
    print_end = tint[row] * paling
    gap = np.minimum.reduce([_off_segment(px, py, paper, blend),
                             _off_segment(px, py, print_end, stand[row]),
                             _off_segment(px, py, paper, stand[row])])  # fmt: skip
    counts = np.bincount(row[gap > UNEXPLAINED_GAP], minlength=len(rows))
    out[rows] = counts / samples.view.ppm**2
    return out


def _paper_share_kept(light: np.ndarray, print_light: np.ndarray) -> np.ndarray:
    """How much of the print's chroma (chroma divides by brightness) a blend of the print
    with white paper keeps at each pixel's `light`: all of it at the print's brightness or
    darker (shading), less as the blend nears the paper's. (1 where the print's brightness is
    not known.)"""
    p = np.clip(np.where(np.isnan(print_light), 0.0, print_light), 0.0, BLEND_LIGHT_MOST)
    share = (1.0 - light) * p / (np.maximum(light, 1e-3) * (1.0 - p))
    kept = np.clip(share + BLEND_LIGHT_ROOM, 0.0, 1.0)
    return np.where(np.isnan(print_light) | (light <= p), 1.0, kept)


def _off_segment(cx: np.ndarray, cy: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each point's distance from its own segment a-b ((P, 2) each) of the chroma plane (the
    blends of its two ends)."""
    ax, ay = a[:, 0], a[:, 1]
    ux, uy = b[:, 0] - ax, b[:, 1] - ay
    t = ((cx - ax) * ux + (cy - ay) * uy) / np.maximum(ux * ux + uy * uy, 1e-9)
    np.clip(t, 0.0, 1.0, out=t)
    return np.hypot(cx - ax - t * ux, cy - ay - t * uy)
