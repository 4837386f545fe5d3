"""Pips that form a pattern bigger than a die's face are no face of it. In a photo of unknown
scale a board's printed spaces, letters and dotted lines, or one column of a bigger face,
can fit a die's layout: the pattern running on beyond the face, a parallel line beside a
two or three, a square corner beside a two, pips set closer than any die's, or a two
spanning further than the photo's other dice say which. Such a face is marked ``no_face``
(the face network may not read one there either).

Faces are the pip counter's dicts (see :func:`vision.dice._fit_face`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.pips import Pip, same_ellipse
from vision.top_face import ROUND_TOP_PIPS

# two pips of one face are seen alike: a side face's pips, even as bright as the top face,
# are foreshortened by more than this (largest ratio of squared axes)
PARTNER_SHAPE_TOL = 1.3

# in a photo of unknown scale, a face of three or more pips whose pips lie closer than this
# (grid half-spacing in pip radii; the shared photos' read right: at least 2.03, threes
# 1.98) is declined: a die's pips do not nearly touch, a board's printed spaces may, and a
# six's column fitted as a three lies 1/sqrt(2) as far apart as the six's own grid (the
# drawn sweep's sixes read as threes: 1.62-1.71)
_PLAIN_SPACING_LEAST = 1.85
# a found pip continues a face's row, column or diagonal when it lies within this fraction
# of the pips' spacing of the next grid spot beyond the face
_CONTINUE_REACH = 0.3
# ... and continues a four's or five's when its contrast is also within this factor of the
# face's pips' mean (measured: a board's grey spaces 0.94-0.96 of a four of them; a side
# face's merged pips, shaded, 0.75)
_SAME_INK = 0.85
SQUARE_CORNER_REACH = 0.15  # of the pips' spacing
# a two's or three's pips are part of a printed line when it is found within this many
# times their span of their middle (a two's fourth spot lies 1.5 spacings out)
_LINE_AROUND = 1.6


def unless_pattern_continues(
    face: dict, pips: list[Pip], shape: tuple[int, ...] | None = None
) -> dict:
    """The face, declined where a photo of unknown scale (of ``shape``) shows a pattern
    bigger than a die's face:
    - three or more pips set too close (:data:`_PLAIN_SPACING_LEAST`);
    - a line of pips that runs on beyond the face: a pip of the same shape lies where the
      line's next pip would be, one spacing beyond (a two's or three's line, a six's
      column), or a blob cut by the photo's edge lies there (:func:`_cut_by_edge`). No die
      face has more than three pips in a line: a line of same-sized spots
      running on is print (a board's spaces), or a column of a bigger face. A four's or
      five's lines are followed too, but one line running on is not enough (a touching
      die's pip may lie in line with one of them): two of its lines running on (both
      rows, or a row and a column) with spots as dark as its own are a grid of print, a
      board's spaces where its lines cross. A touching die would have to lie just in line
      with two of them at the face's own pip spacing: rare, and then the face is
      declined, never misread;
    - a two or three matched by a parallel line (:func:`_parallel_line_found`)."""
    idx = face["idx"]
    if len(idx) >= 3 and face["a"] < _PLAIN_SPACING_LEAST:
        return {**face, "confidence": 0.0, "no_face": True}
    # (a face already doubted is looked at too: marked as no face, the network may not read
    # a face there either, as it did one column of a six the counter had fitted as a three)
    if len(idx) not in (2, 3, 4, 5, 6):
        return face
    own = [pips[i] for i in idx]
    xy = np.array([[p.x, p.y] for p in own])
    wh = face["wh"]
    d = (xy[:, None, :] - xy[None, :, :]) @ wh.T
    dist = np.hypot(d[..., 0], d[..., 1])
    step = float(dist[dist > 0].min())
    members = set(idx)
    others = [q for j, q in enumerate(pips) if j not in members]
    if not others:
        return face
    running_on = 0  # the lines of a four or five that run on beyond it
    ink = float(np.mean([p.contrast for p in own]))
    for i in range(len(own)):
        for j in range(len(own)):
            if i == j or dist[i, j] > 1.2 * step:
                continue
            beyond = 2 * xy[j] - xy[i]
            on = [
                q
                for q in others
                if (same_ellipse(own[j], q) or _cut_by_edge(q, shape))
                and float(np.hypot(*(wh @ (np.array([q.x, q.y]) - beyond))))
                < _CONTINUE_REACH * dist[i, j]
            ]
            if on and len(idx) not in (4, 5):
                return {**face, "confidence": 0.0, "no_face": True}
            # print is one ink: its spots are as dark as the face's (a side face beside a
            # four, lit otherwise, shows its pips lighter or darker)
            if any(_SAME_INK * ink <= q.contrast <= ink / _SAME_INK for q in on):
                running_on += 1
    if running_on >= 2:
        return {**face, "confidence": 0.0, "no_face": True}
    if len(idx) <= 3:
        gaps = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))  # pixels
        alike = [q for q in others if same_ellipse(own[0], q)]
        runs = _run_together_spots(own, float(gaps[gaps > 0].min()), others, ink)
        if (alike or runs) and _parallel_line_found(xy, wh, own[0], alike, runs, float(dist.max())):
            return {**face, "confidence": 0.0, "no_face": True}
        # a line of three, or two, with print's holes running on beyond it: looked for as
        # far out as a fourth spot would lie, around the face's pips
        around = (*xy.mean(axis=0), float(gaps.max()))
        if printed_line(around, pips, _LINE_AROUND, own):
            return {**face, "confidence": 0.0, "no_face": True}
    if len(idx) == 2 and _square_corner_found(xy, wh, own, others):
        return {**face, "confidence": 0.0, "no_face": True}
    return face


def line_runs_on(own: Sequence[Pip], others: Sequence[Pip]) -> bool:
    """Do two or three pips in a line (a face the network read as a two or three) have a
    pip of the same shape one spacing beyond either end? Then the line runs on past the
    face: it is part of a bigger face or of print, never a whole two or three. (The network
    looking at a window shifted off a three's corner saw two of its pips and read a two,
    sure of it: twin dice in Manipulation's red tray, three_30.jpg.)"""
    if len(own) not in (2, 3):
        return False
    xy = np.array([[p.x, p.y] for p in own])
    ends = sorted(range(len(own)), key=lambda i: float(xy[i] @ (xy[-1] - xy[0])))
    first, last = ends[0], ends[-1]
    step = (xy[last] - xy[first]) / (len(own) - 1)
    spacing = float(np.hypot(*step))
    if spacing <= 0:
        return False
    along = np.array([float((xy[i] - xy[first]) @ step) / spacing**2 for i in range(len(own))])
    if np.abs(along - np.round(along)).max() > _CONTINUE_REACH:
        return False  # (not evenly spaced on a line: no two or three of a die's)
    for end, beyond in ((last, xy[last] + step), (first, xy[first] - step)):
        for q in others:
            near = float(np.hypot(q.x - beyond[0], q.y - beyond[1])) < _CONTINUE_REACH * spacing
            if near and same_ellipse(own[end], q):
                return True
    return False


def _cut_by_edge(q: Pip, shape: tuple[int, ...] | None) -> bool:
    """Does the blob reach the photo's edge (within its long semi-axis)? Then part of it
    may lie beyond, and the shape the finder gives it is not its own: a board's track hole
    cut in half is drawn out and smaller than the holes before it, yet it is the line's
    next spot (three holes of Aggravation's track, the fourth cut by a tray crop's edge,
    were read as a three: drawn sweep seed 541)."""
    if shape is None:
        return False
    h, w = shape[:2]
    reach = q.major + 1.0
    return q.x < reach or q.y < reach or q.x > w - reach or q.y > h - reach


def _square_corner_found(xy: np.ndarray, wh: np.ndarray, own: list[Pip], others: list[Pip]) -> bool:
    """Does a pip like a two's lie one spacing from one of its pips, square to the line
    between them, where a face's grid would put it? A two's pips lie on its diagonal, with no
    pip square to it at that spacing on its own face: there they are a side of a four, five
    or six whose other pips the finder partly missed (one lost in a die's shaded edge), and a
    two read there is wrong. The corner must be close (SQUARE_CORNER_REACH of the spacing):
    a face's pips lie on an exact grid, a touching die's anywhere."""
    a, b = xy
    side = wh @ (b - a)
    turn = np.linalg.solve(wh, np.array([-side[1], side[0]]))  # square to it, in the face
    reach = SQUARE_CORNER_REACH * float(np.hypot(*side))
    for start, p in ((a, own[0]), (b, own[1])):
        for corner in (start + turn, start - turn):
            for q in others:
                if float(np.hypot(*(wh @ (np.array([q.x, q.y]) - corner)))) < reach and (
                    same_ellipse(p, q)
                ):
                    return True
    return False


def _run_together_spots(
    own: list[Pip], step: float, others: list[Pip], ink: float
) -> list[tuple[float, float]]:
    """Where the pips lie of each blob that is two pips of the face's kind run together
    (blur merges a six's close pips first): a blob as dark as the face's pips (``ink``, their
    mean contrast, within :data:`_SAME_INK`), as wide across as they are, and drawn out to
    two of them about as far apart as the face's own (``step``, their least spacing in
    pixels), not more. Two discs whose
    centres lie d either side of the middle have second moments that put the blob's long
    semi-axis at 2 sqrt(d^2 + r^2 / 4) and its short one at r, so d is half of
    sqrt(major^2 - minor^2)."""
    across = (min(p.minor for p in own), max(p.major for p in own))
    spots = []
    for q in others:
        if q.elongation < _RUN_LEAST or q.major > _RUN_MOST * step:
            continue
        if not _RUN_ACROSS[0] * across[0] <= q.minor <= _RUN_ACROSS[1] * across[1]:
            continue
        if not _SAME_INK * ink <= q.contrast <= ink / _SAME_INK:
            continue
        d = 0.5 * float(np.sqrt(q.major**2 - q.minor**2))
        ux, uy = d * np.cos(q.angle), d * np.sin(q.angle)
        spots += [(q.x - ux, q.y - uy), (q.x + ux, q.y + uy)]
    return spots


# a blob is two pips run together when it is drawn out at least this much, its long
# semi-axis at most this many times the face's pip spacing (two pips: about 1.05 of theirs;
# three: 1.6), and as wide across as the face's pips within these factors
_RUN_LEAST = 2.0
_RUN_MOST = 1.25
_RUN_ACROSS = (0.75, 1.33)


def _parallel_line_found(
    xy: np.ndarray,
    wh: np.ndarray,
    pip: Pip,
    others: list[Pip],
    runs: list[tuple[float, float]],
    length: float,
) -> bool:
    """Is a line of two or three pips matched, pip for pip, by found pips of just its
    shape beside it, as far out as a six's other column (0.6 to 1.7 times the line's
    length)? Then it is one column of a bigger face (a six's, a four's side), whatever
    its own fit says. Only pips of just its shape count: a side face's are foreshortened.
    Round pips of about its size count too when its own are round: two faces of one die
    stand square to each other, so they never both show round pips (a face seen within
    about 40 degrees of square on shows the other's drawn out by more than
    :data:`ROUND_TOP_PIPS`), while the pips of one face may differ that little in shape.
    ``runs``: where the pips of blobs of two of them run together lie
    (:func:`_run_together_spots`); they match too (a six's other column half merged)."""
    round_line = pip.elongation <= ROUND_TOP_PIPS
    alike = [
        q
        for q in others
        if same_ellipse(pip, q, PARTNER_SHAPE_TOL)
        or (round_line and q.elongation <= ROUND_TOP_PIPS and same_ellipse(pip, q))
    ]
    if not alike and not runs:
        return False
    oxy = np.array([[q.x, q.y] for q in alike] + list(runs))
    line = (xy[-1] - xy[0]) @ wh.T
    line /= max(float(np.hypot(*line)), 1e-9)
    for shift in oxy - xy[0]:
        v = wh @ shift
        n = float(np.hypot(*v))
        if not 0.6 * length <= n <= 1.7 * length or abs(float(v @ line)) > 0.8 * n:
            continue
        if all(
            np.min(np.hypot(*((oxy - (c + shift)) @ wh.T).T)) < _CONTINUE_REACH * length / 2
            for c in xy
        ):
            return True
    return False


# a two whose pip spacing (grid half-spacing in pip radii) exceeds the median of the
# photo's other clear faces of two to five pips by more than this factor is declined
# (measured: the twos read right in the shared and bundled real photos at most 1.23 times
# it; a one's pip paired with a pip of its side face, 1.5 times)
_TWO_SPAN_MOST = 1.35


def twos_spanning_too_far(faces: list[dict]) -> list[dict]:
    """Dice in one photo are of one design: their pips lie alike far apart, in pip radii,
    on every face (each face's spacing is measured in its own plane, its pips' shape
    undone). A two is the weakest layout (any two pips of one shape fit it); one whose
    pips lie much further apart than the photo's other clear faces' (top or side faces:
    strongly fitted, whether read or not) is no two of these dice: a one's pip paired with
    a pip of its own side face, or pips of two dice. Sixes, whose columns are set apart
    by design, and ones, which have no spacing, are no measure."""
    clear = [f for f in faces if f["strength"] >= 0.5]
    out = []
    for f in faces:
        if f["value"] == 2 and f["confidence"] > 0:
            grid = [g["a"] for g in clear if g is not f and 2 <= g["value"] <= 5]
            if grid and f["a"] > _TWO_SPAN_MOST * float(np.median(grid)):
                f = {**f, "confidence": 0.0, "no_face": True}
        out.append(f)
    return out


# no die face has more than three pips in a line: this many spots of one size, evenly
# spaced on a line, are print (a board's track of holes)
LINE_OF_SPOTS = 4
# ... and this many bars, each at least DASH_LENGTH times as long as wide, end to end along
# their own line with gaps between them, are a dashed line: a die's pips smeared along
# their line run into one bar long before they are drawn out that far (the widest-spaced
# pips, a four's side, touch once drawn out to about three times their width)
DASHES = 3
DASH_LENGTH = 3.5
# spots of one line lie within this fraction of its spacing of their places on it, and
# within this ratio of the radius of the spot it was found from
_LINE_REACH = 0.2
_LINE_SIZE = 1.3
_DASH_ALONG_DEG = 15.0


def printed_line(
    face: tuple[float, float, float],
    pips: list[Pip],
    reach: float,
    through: Sequence[Pip] = (),
) -> bool:
    """Do the pips within ``reach`` face sides of the face's middle (centre x, y and side)
    include a printed line: :data:`LINE_OF_SPOTS` spots of one size evenly spaced on a line,
    or :data:`DASHES` dashes end to end? ``through``: the face's own pips, when the line
    must run through two of them. The face network, which judges a face from the whole
    picture, took a board's dotted track for a six and dashes for a three; the pip counter
    fitted three of a track's holes as a three (its line running on is caught in
    :func:`unless_pattern_continues` only where the next hole has just their shape, and a
    track's holes differ a little under a slanted lamp or cut by the photo's edge)."""
    x, y, side = face
    half = reach * side
    near = [p for p in pips if abs(p.x - x) < half and abs(p.y - y) < half]
    if len(near) < DASHES:
        return False
    xy = np.array([[p.x, p.y] for p in near])
    # the line is looked for from two neighbouring spots on it (the face's own, if asked)
    ends = [i for i, p in enumerate(near) if not through or any(p is q for q in through)]
    for i in ends:
        p = near[i]
        dash = p.elongation >= DASH_LENGTH
        for j in ends:
            step = xy[j] - xy[i]
            gap = float(np.hypot(*step))
            if j == i or gap < 2.5 * p.radius:
                continue
            u = step / gap
            if dash and not (_along(p, u) and _along(near[j], u)):
                continue
            on = set()
            for m, q in enumerate(near):
                if not 1 / _LINE_SIZE <= q.radius / p.radius <= _LINE_SIZE:
                    continue
                if dash and (q.elongation < DASH_LENGTH or not _along(q, u)):
                    continue
                v = xy[m] - xy[i]
                t = float(v @ u) / gap
                off = abs(float(u[0] * v[1] - u[1] * v[0]))
                if abs(t - round(t)) < _LINE_REACH and off < _LINE_REACH * gap:
                    on.add(round(t))
            if _run_through(on) >= (DASHES if dash else LINE_OF_SPOTS):
                return True
    return False


def _run_through(places: set[int]) -> int:
    """How many whole places in a row, 0 and 1 among them, ``places`` holds: the spots of a
    line found from its spots at 0 and 1, counted both ways."""
    ahead, behind = 0, -1
    while ahead in places:
        ahead += 1
    while behind in places:
        behind -= 1
    return ahead - behind - 1


def _along(p: Pip, u: np.ndarray) -> bool:
    """Is the blob drawn out along the direction ``u``?"""
    cos = abs(float(np.cos(p.angle) * u[0] + np.sin(p.angle) * u[1]))
    return cos >= float(np.cos(np.radians(_DASH_ALONG_DEG)))
