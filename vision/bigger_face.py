"""Is a face the pip counter fitted a whole face, or part of a bigger one? Pips the finder
missed give it away: one just beyond the fitted face on the same bright body, a lone pip's
partner as far out as a two's, a pip at the face's dark edge, a parallel column beside a
line of pips (a four's two pips fitted as a two, a six's column as a three). Such a fit
must not be read. Also here: a face refused whatever its turn, whose costly search for
the turn is skipped (:func:`settled_before_the_turn`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.face_layout import (
    ONE_LEVEL,
    SIX_STRETCHED,
    face_to_image,
    layout_scale,
    median_of,
    sample_at,
)
from vision.pips import Pip, same_ellipse

if TYPE_CHECKING:
    from vision.dice import DiceConfig


def _pip_beyond(
    grey: np.ndarray,
    ps: list[Pip],
    centre: np.ndarray,
    inv: np.ndarray,
    a: float,
    ang: float,
    diagonal: bool = False,
) -> bool:
    """Is there an undetected pip just beyond the fitted face, on the same bright body?

    A bigger face that lost pips to the detector leaves a smaller pattern (a six's middle row
    fits a two turned by 45 degrees, with its other pips at 2a straight out from the fitted
    face's centre). The image still shows those pips: a dark spot, as dark as a pip, with
    bright die body all round it, says this face is part of a bigger one."""
    body = median_of([p.body for p in ps])
    depth = float(np.mean([p.contrast for p in ps]))
    t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], 1)
    c, s = np.cos(ang), np.sin(ang)
    rot = np.array([[c, -s], [s, c]])
    f1 = np.linspace(-1.6, 1.6, 7)
    fine = np.array([[u, v] for u in f1 for v in f1 if u * u + v * v <= 2.6])
    own = (np.array([[p.x, p.y] for p in ps]) - centre) @ np.linalg.inv(inv).T
    # search about 2a out on each axis, 0.6a to the side
    g = np.linspace(-0.6, 0.6, 5)
    disc = np.array([[u, v] for u in g for v in np.linspace(-0.6, 0.6, 7)])
    spots = [((2.0, 0.0), 2.45), ((-2.0, 0.0), 2.45), ((0.0, 2.0), 2.45), ((0.0, -2.0), 2.45)]
    if diagonal:
        # a two or three on the diagonal may be a row or column of a six: the other row or
        # column lies across the diagonal, as far out as a touching die's pips (then it must
        # be joined to this face by bright body, no crease)
        spots += [((2.0, -2.0), 3.1), ((-2.0, 2.0), 3.1)]
    for spot, reach in spots:
        # the darkest point near the spot (perspective and layout error move it a little)
        off = disc if spot[0] else disc[:, ::-1]
        near = (np.array(spot) + off) * a
        vals = sample_at(grey, face_to_image(near, centre, inv, ang))
        if np.any(vals < 0):
            continue
        i = int(vals.argmin())
        v = float(vals[i])
        if body - v < 0.5 * depth:
            continue
        # the dark blob's centre (the edge of a pip further out may be the darkest point)
        blob = near[i] @ rot.T + fine  # face frame, pip radii
        bv = sample_at(grey, centre + blob @ inv.T)
        wgt = np.clip(v + 0.5 * (body - v) - bv, 0.0, None) * (bv >= 0)
        mid = (blob * wgt[:, None]).sum(0) / max(float(wgt.sum()), 1e-9)
        rad = float(np.hypot(*mid)) / a
        if not 1.5 <= rad <= reach:
            continue
        if rad > 2.45 and not _joined(grey, centre, inv, own, mid, 0.85 * body):
            continue
        # ... must be a round blob: bright body two pip radii out all round it
        around = sample_at(grey, centre + (mid + 2.2 * ring) @ inv.T)
        if np.all(around > v + 0.6 * (body - v)):
            return True
    return False


def _joined(
    grey: np.ndarray,
    centre: np.ndarray,
    inv: np.ndarray,
    own: np.ndarray,
    mid: np.ndarray,
    level: float,
) -> bool:
    """Is the way from the face centre to a point (face frame, pip radii) bright die body all
    along, apart from the face's own pips (``own``) and the blob around the point itself?"""
    t = np.linspace(0.0, 1.0, 40)[:, None]
    pts = t * mid[None, :]
    keep = np.hypot(*(pts - mid).T) > 1.8
    for q in own:
        keep &= np.hypot(*(pts - q).T) > 1.8
    if np.count_nonzero(keep) < 2:
        return True
    vals = sample_at(grey, centre + pts[keep] @ inv.T)
    return bool(np.all(vals >= level))


def _parallel_column(
    grey: np.ndarray,
    ps: list[Pip],
    centre: np.ndarray,
    inv: np.ndarray,
    wh: np.ndarray,
    pips: list[Pip],
) -> bool:
    """Is a two or three one column of a six (or one side of a four) beside a parallel line
    whose pips the detector lost?

    Looks beside the face's line of pips, as far out as a six's other column sits (0.6 to 1.7
    times the line's length): two or more pip-dark round blobs where the face's pips would fall,
    on bright body joined to this face, say the face is part of a bigger one."""
    body = median_of([p.body for p in ps])
    depth = float(np.mean([p.contrast for p in ps]))
    own = (np.array([[p.x, p.y] for p in ps]) - centre) @ wh.T  # face frame, pip radii
    d = own[:, None, :] - own[None, :, :]
    i, j = np.unravel_index(np.argmax((d**2).sum(2)), d.shape[:2])
    line = own[i] - own[j]
    length = float(np.hypot(*line))
    nrm = np.array([-line[1], line[0]]) / max(length, 1e-9)
    t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    ring = 2.2 * np.stack([np.cos(t), np.sin(t)], 1)
    g = np.linspace(-2.0, 2.0, 9)
    disc = np.array([[u, v] for u in g for v in g if u * u + v * v <= 4.0])
    fracs = np.array([0.6, 0.75, 0.9, 1.1, 1.3, 1.5, 1.7])
    shifts = np.concatenate([fracs, -fracs])[:, None] * length * nrm[None, :]
    # every spot beside every pip for every shift, sampled at once
    near_all = (own[None, :, None, :] + shifts[:, None, None, :]) + disc[None, None, :, :]
    vals_all = sample_at(grey, centre + near_all.reshape(-1, 2) @ inv.T).reshape(near_all.shape[:3])
    for si, shift in enumerate(shifts):
        hits = 0
        for qi in range(len(own)):
            vals = vals_all[si, qi]
            if np.any(vals < 0):
                continue
            v = float(vals.min())
            if body - v < 0.5 * depth:
                continue
            near = near_all[si, qi]
            # the blob's centre: the darkest point may lie off it, near its rim
            wgt = np.clip(v + 0.5 * (body - v) - vals, 0.0, None)
            m = (near * wgt[:, None]).sum(0) / max(float(wgt.sum()), 1e-9)
            around = sample_at(grey, centre + (m + ring) @ inv.T)
            # (bright all round but for one point: the pips of a column are close), as
            # bright as this face (a side face is shaded), not a detected pip of another
            # shape (a side face's, foreshortened)
            if np.count_nonzero(around > v + 0.6 * (body - v)) < 7:
                continue
            if np.median(around) < 0.92 * body:
                continue
            xy = centre + inv @ m
            if not any(
                np.hypot(q.x - xy[0], q.y - xy[1]) < 1.5 * q.major and not same_ellipse(ps[0], q)
                for q in pips
            ):
                hits += 1
        if hits >= 2 and _joined(grey, centre, inv, own, shift, 0.85 * body):
            return True
    return False


# where a two's other pip lies from its found one, in die sides (pips 0.22-0.34 of a side
# from the face's middle along each axis)
_PARTNER_REACH = (0.6, 0.95)


def _partner_pip(
    grey: np.ndarray, p: Pip, body: float, pips: list[Pip], square_die_px: float | None = None
) -> bool:
    """Is there an undetected pip on the same bright body as a lone pip, as far out as the
    other pip of a two or three (2.8a: 4.5 to 9 pip radii)? Rays from the pip run over bright
    body; one that ends in a round blob as dark as a pip (bright all round) found a partner,
    unless the detector found a pip there of another shape (a side face's, foreshortened).
    ``square_die_px``: a die's side in a view square to the table, where a partner lies on
    the same flat face as far out as a two's diagonal (0.6 to 0.95 of a side) and the way to
    it is bare body all along (a side face's pips lie nearer, past the face's edge)."""
    h, w = grey.shape
    if square_die_px is not None and any(
        q is not p and _same_face_partner(grey, p, q, body, square_die_px) for q in pips
    ):
        return True
    wh = p.whitener()
    inv = np.linalg.inv(wh)  # pip-radius units -> image
    t = np.deg2rad(np.arange(0.0, 360.0, 15.0))
    dirs = np.stack([np.cos(t), np.sin(t)], 1)
    steps = np.arange(2.0, 9.01, 0.5)
    pts = dirs[:, None, :] * steps[None, :, None]  # rays x steps x 2, pip frame
    vals = sample_at(grey, np.array([p.x, p.y]) + pts.reshape(-1, 2) @ inv.T).reshape(len(t), -1)
    ring = np.stack([np.cos(t[::3]), np.sin(t[::3])], 1)
    f1 = np.linspace(-1.6, 1.6, 7)
    fine = np.array([[u, v] for u in f1 for v in f1 if u * u + v * v <= 2.6])
    for r in range(len(t)):
        end = np.flatnonzero((vals[r] < 0.9 * body) | (vals[r] < 0))
        if not len(end) or vals[r, end[0]] < 0:
            continue
        j = end[0]
        seg = vals[r, j : j + 3]
        seg = seg[seg >= 0]
        v = float(seg.min())
        if body - v < 0.5 * p.contrast:
            continue
        blob = pts[r, j] + dirs[r] + fine
        bv = sample_at(grey, np.array([p.x, p.y]) + blob @ inv.T)
        wgt = np.clip(v + 0.5 * (body - v) - bv, 0.0, None) * (bv >= 0)
        mid = (blob * wgt[:, None]).sum(0) / max(float(wgt.sum()), 1e-9)
        if not 4.5 <= float(np.hypot(*mid)) <= 9.0:
            continue
        around = sample_at(grey, np.array([p.x, p.y]) + (mid + 2.2 * ring) @ inv.T)
        # ... on the same face: as bright as the pip's own surround (a side face is shaded),
        # or, in a photo of unknown scale, a pip the face's dark edge blurred into
        if not (np.all(around > v + 0.6 * (body - v)) and np.median(around) >= 0.92 * body):
            if square_die_px is not None or not _pip_at_face_edge(grey, p, inv, mid, body):
                continue
        xy = np.array([p.x, p.y]) + inv @ mid
        there = [q for q in pips if np.hypot(q.x - xy[0], q.y - xy[1]) < 1.5 * q.major]
        if any(not same_ellipse(p, q) for q in there):
            continue  # a pip of another shape there: a side face's, foreshortened
        if square_die_px is not None:
            if not _PARTNER_REACH[0] <= np.hypot(*(inv @ mid)) / square_die_px <= _PARTNER_REACH[1]:
                continue
            # a blob the detector missed must still be round, dark out to 0.6 of a pip
            # radius all round (the end of a printed line, a crease, are thin)
            disc = sample_at(grey, np.array([p.x, p.y]) + (mid + 0.6 * ring) @ inv.T)
            if not there and np.any(disc > v + 0.5 * (body - v)):
                continue
            way = mid[None, :] * np.linspace(0.0, 1.0, 24)[:, None]
            way = way[(np.hypot(*way.T) > 1.8) & (np.hypot(*(way - mid).T) > 1.8)]
            if len(way) and np.any(
                sample_at(grey, np.array([p.x, p.y]) + way @ inv.T) < ONE_LEVEL * body
            ):
                continue
        return True
    return False


# a lost partner touching the face's dark edge: dark out to this many pip radii all round
# (round, of a pip's size: not a line), and its surround 2.2 radii out bright within this
# angle of the way back to the found pip, and everywhere lighter than the blob by this share
# of its depth (the edge it touches is lighter than a pip's ink)
_EDGE_PARTNER_DISC = 0.5
_EDGE_PARTNER_FACING = 0.5  # cos 60 degrees
_EDGE_PARTNER_RELIEF = 0.25
# ... and it is as dark as a pip: its depth at least this share of the found pip's contrast
_EDGE_PARTNER_DEPTH = 0.8
# ... looked for as the darkest point within 1.6 pip radii of where a ray from the found pip
# left bright body (a ray may pass beside the blob's middle)
_EDGE_PARTNER_LOOK = np.array(
    [
        [u, v]
        for u in np.arange(-1.6, 1.61, 0.2)
        for v in np.arange(-1.6, 1.61, 0.2)
        if u * u + v * v <= 2.6
    ]
)


_EIGHT_ANGLES = np.deg2rad(np.arange(0.0, 360.0, 45.0))
_EIGHT_WAYS = np.stack([np.cos(_EIGHT_ANGLES), np.sin(_EIGHT_ANGLES)], 1)  # steps every 45 degrees


def _pip_at_face_edge(
    grey: np.ndarray, p: Pip, inv: np.ndarray, start: np.ndarray, body: float
) -> bool:
    """Is there a pip touching the face's dark edge (a side face or its shade) near
    ``start`` (pip-radius units from ``p``)? The finder loses such a pip (its surround is
    not bright all round), so the corner pip of a two looks like a one. It is a pip when
    its darkest point is as dark as ``p``, it is round and of a pip's size, darker than the
    edge it touches, and the face between it and ``p`` is bright body."""
    origin = np.array([p.x, p.y])
    look = start + _EDGE_PARTNER_LOOK
    vals = sample_at(grey, origin + look @ inv.T)
    vals = np.where(vals < 0, 255.0, vals)
    mid, v = look[int(np.argmin(vals))], float(vals.min())
    if body - v < _EDGE_PARTNER_DEPTH * p.contrast or not 4.5 <= float(np.hypot(*mid)) <= 9.0:
        return False
    disc = sample_at(grey, origin + (mid + _EDGE_PARTNER_DISC * _EIGHT_WAYS) @ inv.T)
    if np.any(disc < 0) or np.any(disc > v + 0.5 * (body - v)):
        return False
    around = sample_at(grey, origin + (mid + 2.2 * _EIGHT_WAYS) @ inv.T)
    if np.any(around < 0) or np.any(around <= v + _EDGE_PARTNER_RELIEF * (body - v)):
        return False
    back = _EIGHT_WAYS @ (-mid / float(np.hypot(*mid))) >= _EDGE_PARTNER_FACING
    return bool(np.all(around[back] >= 0.92 * body)) and _face_ends_behind(grey, p, inv, mid)


# the rays behind a two's corner pip, away from its partner, and beside them by this angle
_BEHIND_SPREAD = np.deg2rad(45.0)
# ... meet its face's end within this share of the way to the partner (a drawn two's pips
# lie 0.24 of a side from the middle along each axis: beside the way back, along the axes,
# the corner pip's face ends 0.26 of a side beyond it, 0.38 of the way to its partner; its
# dark rim, blurred, nearer), where the grey falls below this share of the face's grey
# ahead of the pip, toward the partner, at the same distance
_BEHIND_REACH = 0.4
_BEHIND_DROP = 0.92


def _face_ends_behind(grey: np.ndarray, p: Pip, inv: np.ndarray, mid: np.ndarray) -> bool:
    """Does the face end close behind ``p``, away from the blob at ``mid`` (pip-radius
    units), as behind a two's corner pip, where a one's pip has its face all round? Each
    ray behind is weighed against the ray ahead at the same distances, so the pip's own
    blurred rim, on both, cancels out."""
    n = float(np.hypot(*mid))
    steps = np.arange(1.5, max(_BEHIND_REACH * n, 1.5) + 1e-9, 0.25)
    u = -mid / n
    origin = np.array([p.x, p.y])
    for turn in (-_BEHIND_SPREAD, 0.0, _BEHIND_SPREAD):
        c, s = np.cos(turn), np.sin(turn)
        d = np.array([c * u[0] - s * u[1], s * u[0] + c * u[1]])
        behind = sample_at(grey, origin + (steps[:, None] * d) @ inv.T)
        ahead = sample_at(grey, origin - (steps[:, None] * d) @ inv.T)
        seen = (behind >= 0) & (ahead >= 0)
        if not np.any(behind[seen] < _BEHIND_DROP * ahead[seen]):
            return False
    return True


def _same_face_partner(grey: np.ndarray, p: Pip, q: Pip, body: float, die_px: float) -> bool:
    """In a view square to the table: is the found pip ``q`` the other pip of a two whose
    pip ``p`` is, of the same shape, as far out as a two's diagonal and joined to it by bare
    face all along?"""
    d = np.array([q.x - p.x, q.y - p.y])
    n = float(np.hypot(*d))
    if not _PARTNER_REACH[0] <= n / die_px <= _PARTNER_REACH[1] or not same_ellipse(p, q):
        return False
    t = np.linspace(0.0, 1.0, 24)[:, None]
    way = t * d[None, :]
    keep = (np.hypot(*way.T) > 1.8 * p.radius) & (np.hypot(*(way - d).T) > 1.8 * q.radius)
    if not np.any(keep):
        return True
    return bool(np.all(sample_at(grey, np.array([p.x, p.y]) + way[keep]) >= ONE_LEVEL * body))


def _one_centred(grey: np.ndarray, p: Pip, body: float) -> bool:
    """Does the lone pip sit in the middle of its own face, as a one's pip does?

    Rays from the pip run over bright body until the face ends (edge, table or another pip);
    a one's face ends about as far out on opposite sides, while the corner pip of a two whose
    other pip was missed sees the near face edge on one side and its partner far on the other."""
    h, w = grey.shape
    inner = body - p.contrast
    level = inner + 0.6 * (body - inner)
    t = np.deg2rad(np.arange(0.0, 360.0, 22.5))
    wh = p.whitener()
    inv = np.linalg.inv(wh)  # pip-radius units -> image
    steps = np.arange(1.5, 9.01, 0.25)
    d = np.stack([np.cos(t), np.sin(t)], 1) @ inv.T  # rays x 2, image direction
    xs = np.round(p.x + steps[None, :] * d[:, :1]).astype(int)
    ys = np.round(p.y + steps[None, :] * d[:, 1:]).astype(int)
    inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    vals = np.zeros(xs.shape)
    vals[inside] = grey[ys[inside], xs[inside]]
    dark = vals < level
    # where each ray first meets something dark (the last step if never)
    lengths = np.where(dark.any(1), steps[dark.argmax(1)], steps[-1])
    n = len(lengths) // 2
    lo = np.minimum(lengths[:n], lengths[n:])
    hi = np.maximum(lengths[:n], lengths[n:])
    return bool(np.all(hi <= 1.7 * lo + 0.5))


# a one's pip in a view square to the table: its radius as a fraction of the die's side
# (drawn and real dice: 0.07 to 0.15), and the rings around it, in die sides, that lie on its
# own face whatever its turn (the face's flat part reaches 0.42 of a side from the middle)
_ONE_PIP_RADIUS = (0.05, 0.2)
_ONE_RINGS = (0.2, 0.27, 0.34)


def _one_on_known_face(grey: np.ndarray, p: Pip, body: float, die_px: float) -> bool:
    """Does a lone pip sit in the middle of a face of a known size, as a one's pip does?

    In a view square to the table a face is seen at its true size: around a one's pip its
    own face is bare body in every direction out to a third of the die's side. The corner
    pip of a two lies a fifth of a side from its face's edges, so the outer rings reach
    the rounded edge, a side face or the table there (its lost partner is looked for apart).
    Unlike :func:`_one_centred` this does not need the face's edge to stand out from a
    table as bright as the die."""
    if not _ONE_PIP_RADIUS[0] <= p.radius / die_px <= _ONE_PIP_RADIUS[1]:
        return False
    t = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], 1)
    pts = np.concatenate([ring * r * die_px for r in _ONE_RINGS]) + [p.x, p.y]
    vals = sample_at(grey, pts)
    return bool(np.all(vals > ONE_LEVEL * body))


def part_of_bigger_face(
    grey: np.ndarray,
    ps: list[Pip],
    pips: list[Pip],
    centre: np.ndarray,
    inv: np.ndarray,
    wh: np.ndarray,
    a: float,
    ang: float,
    square_die_px: float | None = None,
) -> bool:
    """Does the image show pips the detector missed that make this face part of a bigger one
    (a two that is a side of a four, a three that is a column of a six, a one that is a corner
    of a two)? Then no reading: a missed pip must never give a wrong value.
    ``square_die_px``: a die's side when the photo is a view square to the table."""
    k = len(ps)
    if k == 1:
        p = ps[0]
        if square_die_px is not None:
            centred = _one_on_known_face(grey, p, p.body, square_die_px)
        else:
            centred = _one_centred(grey, p, p.body)
        return not centred or _partner_pip(grey, p, p.body, pips, square_die_px)
    if square_die_px is not None:
        # a part of a bigger face is smaller than the die (a six's column or middle row, a
        # four's side: 0.7 of its side), which the die's known size rules out; a part of the
        # same size lacks pips on its own grid, which the bare-body check sees. What lies
        # beyond the face there is the die's side face or the table.
        return False
    if k in (2, 3) and _parallel_column(grey, ps, centre, inv, wh, pips):
        return True
    return 2 <= k <= 4 and _pip_beyond(grey, ps, centre, inv, a, ang, k <= 3)


def settled_before_the_turn(
    pts: np.ndarray,
    pips: list[Pip],
    idx: list[int],
    centre: np.ndarray,
    wh: np.ndarray,
    lay: np.ndarray,
    config: DiceConfig,
) -> bool:
    """Is a face of two to six pips (``pts``: whitened, centred) refused whatever its turn,
    so the costly search for the turn can be skipped? No pip spacing it may be fitted at
    is in range (a six's stretched layouts each have their own), or, where the spacing and
    ``wh`` cannot change after the fit (a top view, or under four pips), another pip lies
    within 1.5 spacings of its middle at the widest of them, or a pip of the same shape
    within 2: the face's square reaches that far at least, so the counter's fit would
    find that pip on it at any turn."""
    square = config.square_die_px is not None
    if len(idx) == 6 and not square:
        return False  # (the pattern's own frame may still change the spacing)
    scales = layout_scale(pts, lay[None])
    if len(idx) == 6:
        scales = np.concatenate([scales, layout_scale(pts, SIX_STRETCHED)])
    fitting = [float(a) for a in scales if config.spacing[0] <= a <= config.spacing[1]]
    if not fitting:
        return True
    if not square and len(idx) >= 4:
        return False
    members = set(idx)
    others = [q for j, q in enumerate(pips) if j not in members]
    if not others:
        return False
    loc = (np.array([[q.x, q.y] for q in others]) - centre) @ wh.T / max(fitting)
    # (a hair inside: the turned coordinates' rounding cannot carry a pip out)
    dist = np.hypot(loc[:, 0], loc[:, 1]) / (1.0 - 1e-9)
    if np.any(dist < 1.5):
        return True
    return any(same_ellipse(pips[idx[0]], others[j]) for j in np.flatnonzero(dist < 2.0))
