"""Which face of a die is its top: a die seen from above shows its top face and up to two
side faces, and the pip counter fits a face to each. A side face is foreshortened (flatter,
smaller pips), usually more shaded, and lies between its top face and the camera's nadir;
without the nadir (a plain photo) the photo itself tells which way side faces lie. Dice in
one photo are seen from about one elevation, so their top faces share pip roundness and
spacing.

Faces are the pip counter's dicts (see :func:`vision.dice._fit_face`)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from vision.pips import Pip, run_together

if TYPE_CHECKING:
    from vision.dice import DiceConfig

# in a view square to the table (known scale), a top face's pips are round: at most this
# elongated on average
ROUND_TOP_PIPS = 1.35


def _faces_joined(grey: np.ndarray, pips: list[Pip], f: dict, g: dict) -> bool:
    """Is the segment between two faces' centres bright die body all the way (apart from the
    two faces' own pips)? Then they are faces of one die; a table gap or the dark crease
    between two touching dice says two dice."""
    p, q = f["centre"], g["centre"]
    n = max(int(np.hypot(*(q - p))), 2)
    t = np.linspace(0.0, 1.0, n)[:, None]
    pts = p + t * (q - p)
    own = [pips[i] for i in f["idx"] + g["idx"]]
    keep = np.ones(n, bool)
    for s in own:
        keep &= np.hypot(pts[:, 0] - s.x, pts[:, 1] - s.y) > 1.6 * s.major + 1.0
    if np.count_nonzero(keep) < 2:
        return True
    h, w = grey.shape
    xs = np.clip(np.round(pts[keep, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(pts[keep, 1]).astype(int), 0, h - 1)
    vals = grey[ys, xs].astype(np.float32)
    return float(np.percentile(vals, 5)) >= 0.8 * min(f["body"], g["body"])


def _topness(f: dict) -> float:
    """How much a face looks like a top face: round, large pips on bright body. A side face
    seen from above is foreshortened (flatter, smaller pips) and usually more shaded."""
    return (
        -np.log(f["elong"]) / 0.12
        + np.log(max(f["radius"], 0.5) ** 2) / 0.35
        + np.log(max(f["body"], 1.0)) / 0.08
    )


def _side_direction(faces: list[dict]) -> np.ndarray:
    """Image direction in which side faces show next to their top faces, for a camera tilted
    forward (nadir far outside the image). Learnt from the photo itself: pairs of adjacent
    faces where pip shape alone clearly tells top from side vote with the top-to-side
    direction. Without a clear vote: straight down the image, as a hand-held or tilted
    camera sees dice."""
    votes = []
    for g in faces:
        if g["strength"] < 0.5:
            continue
        tg = _topness(g)
        for f in faces:
            if f is g or f["strength"] < 0.3:
                continue
            dv = f["centre"] - g["centre"]
            if float(np.linalg.norm(g["wh"] @ dv)) / g["a_w"] > 5.5:
                continue
            if tg - _topness(f) > 3.0:
                n = float(np.linalg.norm(dv))
                if n > 1e-6:
                    votes.append(dv / n)
    if len(votes) >= 1:
        mean = np.mean(votes, axis=0)
        if float(np.linalg.norm(mean)) > 0.6:
            return mean / float(np.linalg.norm(mean))
    return np.array([0.0, 1.0])


# a face more top-like than another by this much (:func:`_topness`, with the bonus for
# lying away from the nadir) is clearly the top of the two
TOP_MARGIN = 1.5


def clearly_more_top(f: dict, g: dict) -> bool:
    """Is face ``f`` clearly more top-like than ``g`` (:data:`TOP_MARGIN`) by its pips'
    roundness and size and its shade alone, wherever the two lie?"""
    return bool(_topness(f) - _topness(g) > TOP_MARGIN)


# a face's confidence is scaled by this when a face beside it on the same die is about as
# top-like and the camera's nadir is unknown (a plain photo): which one is the top is a guess
_WHICH_TOP_UNKNOWN = 0.5
# two faces of one die are square to each other, so at least one is turned 45 degrees or
# more from the camera: its round pips are drawn out to 1/cos 45 = 1.41 or more (blur
# rounds them a little); top faces of touching dice, seen from above, may both be rounder
_ONE_DIE_LEAST_ELONG = 1.3


def _one_die_faces(grey: np.ndarray, pips: list[Pip], f: dict, g: dict, near: bool) -> bool:
    """May two faces side by side be two faces of one die? Near, with no table or crease
    between them, and at least one of them seen slanted (see :data:`_ONE_DIE_LEAST_ELONG`)."""
    if not near or max(f["elong"], g["elong"]) < _ONE_DIE_LEAST_ELONG:
        return False
    return _faces_joined(grey, pips, f, g)


# a face whose pips' long axes are more than this many times another face's (or less than
# its inverse) is no face of the other's die: it may not outrank it as that die's top
SAME_DIE_PIPS = 2.0


def _mean_major(f: dict, pips: list[Pip]) -> float:
    """The mean long semi-axis of a face's pips, pixels (what foreshortening leaves)."""
    return float(np.mean([pips[i].major for i in f["idx"]])) if f["idx"] else 0.0


def choose_top_faces(
    faces: list[dict], config: DiceConfig, grey: np.ndarray, pips: list[Pip]
) -> tuple[list[dict], list[dict]]:
    """Drop side faces: a face next to a clearly more top-like face is a side of that die.
    Returns the faces kept and the side faces dropped (still a layout the counter fitted:
    the network may not read their pips as part of another value's face).

    Distances are measured in the face's own frame (perspective undone, units of the pip grid
    half-spacing a): a face edge is 1.85a from its centre, so two top faces of touching dice
    are at least ~3.7a apart, while a side face sits right against its top face.
    """
    margin = TOP_MARGIN
    w_pos = 3.0  # topness bonus per face size of offset away from the nadir
    nadir = None
    if config.nadir is not None:
        nadir = np.array([config.nadir[0] * grey.shape[1], config.nadir[1] * grey.shape[0]])
    down = _side_direction(faces) if nadir is None else None
    keep, sides = [], []
    # in a view square to the table a face with drawn-out pips is no top face: it outranks
    # none (a side face seen openly may look more top-like by shade and pip size)
    square = config.square_die_px is not None
    majors = [_mean_major(f, pips) for f in faces]
    for f, major_f in zip(faces, majors, strict=True):
        suppressed = False
        conf = f["confidence"]
        tf = _topness(f)
        for g, major_g in zip(faces, majors, strict=True):
            if g is f or g["strength"] < 0.3 or (square and g["elong"] > ROUND_TOP_PIPS):
                continue
            if max(major_f, major_g) > SAME_DIE_PIPS * min(major_f, major_g):
                # pips of so unlike a size are no two faces of one die (a side face's pips
                # are drawn out across, not shrunk along, their long axis): a pattern of
                # far bigger spots (a board's printed discs) is no die's top face beside
                # this one
                continue
            dv = g["centre"] - f["centre"]
            d_f = float(np.linalg.norm(f["wh"] @ dv)) / f["a_w"]
            d_g = float(np.linalg.norm(g["wh"] @ dv)) / g["a_w"]
            dmin = min(d_f, d_g)
            dt = _topness(g) - tf
            # a side face lies between its top face and the nadir
            mid = 0.5 * (f["centre"] + g["centre"])
            toward = down if nadir is None else nadir - mid
            nrm = float(np.linalg.norm(toward))
            if nrm > 1e-6:
                off = float(np.dot(f["centre"] - g["centre"], toward / nrm))
                dt += w_pos * off / max(0.5 * (f["size"] + g["size"]), 1.0)
            # in the top face's frame its own side faces are close; in a side face's frame
            # (stretched to undo its steep foreshortening) they may look far
            # beyond 5.5a only if no table or crease separates them (same die, seen low)
            near = d_g < 5.5 or (d_g < 7.0 and _faces_joined(grey, pips, f, g))
            if dt > margin and near:
                suppressed = True
                break
            if dt > -margin and dmin < 3.3:
                # overlapping faces about as top-like: not sure which one is the top
                conf *= 0.5
            elif nadir is None and abs(dt) <= margin and _one_die_faces(grey, pips, f, g, near):
                # two faces of one die about as top-like: without the camera's nadir nothing
                # tells which one is the top
                conf *= _WHICH_TOP_UNKNOWN
        if suppressed:
            sides.append(f)
        else:
            f = dict(f)
            f["confidence"] = conf
            keep.append(f)
    return keep, sides


# pips run together beyond a face (see :func:`unless_run_together_beyond`) count within
# this many of its box sides of its centre, and at least this far out on the side away
# from the camera (as a tray's top view counts pips beyond a face); at most this long
# (semi-axis, in the face's pip radii: a column of three run together) and at least this
# dark against their surround, as a fraction of the face's pips; the two columns of a six
# lie within this many degrees of one way
BEYOND_REACH = 1.4
BEYOND_OUT = 0.55
RUN_TOGETHER_LONGEST = 4.5
BEYOND_DARK = 0.5
COLUMNS_ALIKE_DEG = 20.0


def unless_run_together_beyond(
    grey: np.ndarray, pips: list[Pip], face: dict, faces: list[dict]
) -> dict:
    """The face, declined (and no reading of either reader there) when just beyond it on
    the side away from the camera (:func:`_side_direction`, learnt from ``faces``: all the
    counter fitted, side faces too), joined to it by die body, lie two parallel bars of
    pips run together (:func:`vision.pips.run_together`, as wide as this face's pips): a
    six's two columns, whose pips lie closer than any other face's and are the first to
    fuse under blur. That six is a face of this die farther from the camera, its top,
    whose pips the counter cannot count, so :func:`choose_top_faces` never weighed it: this
    face may be its side face (drawn sweep seed 410: the six's columns run together, its
    front face's five, seen low, read as the top). One bar is not enough: a side face seen
    steeply beyond a top face squeezes a row of its pips into one (seed 449)."""
    if not face["idx"] or face["confidence"] <= 0:
        return face
    away = -_side_direction(faces)
    side = face["size"]
    r = face["radius"]
    ink = float(np.mean([pips[i].contrast for i in face["idx"]]))
    bars = []
    for j, q in enumerate(pips):
        if j in face["idx"] or not run_together(q, r) or q.major > RUN_TOGETHER_LONGEST * r:
            continue
        if q.contrast < BEYOND_DARK * ink:
            continue
        v = np.array([q.x, q.y]) - face["centre"]
        if float(np.linalg.norm(v)) > BEYOND_REACH * side or float(v @ away) < BEYOND_OUT * side:
            continue
        bar = {"centre": np.array([q.x, q.y]), "idx": [j], "body": q.body}
        if _faces_joined(grey, pips, face, bar):
            bars.append(q)
    alike = np.sin(np.deg2rad(COLUMNS_ALIKE_DEG))
    if any(abs(np.sin(p.angle - q.angle)) < alike for p, q in itertools.combinations(bars, 2)):
        return {**face, "confidence": 0.0, "no_face": True}
    return face


def image_consistency(faces: list[dict]) -> list[dict]:
    """Dice in one photo are seen from about the same elevation and are of one design, so
    their top faces share pip roundness and pip spacing. A face whose pips are much flatter
    than the others' is a side face whose top face went unseen (cut by the border, blurred);
    a face with much tighter spacing is part of a bigger face (one column of a six)."""
    sure = [f for f in faces if f["confidence"] >= 0.5]
    if len(sure) < 2:
        return faces
    multi = [f["a"] for f in sure if f["value"] >= 2]
    a_med = float(np.median(multi)) if len(multi) >= 2 else None
    out = []
    for f in faces:
        conf = f["confidence"]
        others = [g for g in sure if g is not f]
        if others:
            e_ref = float(np.median([g["elong"] for g in others]))
            if f["elong"] > 1.3 * e_ref and f["elong"] > 1.4:
                conf *= 0.3
        if a_med is not None and f["value"] >= 2 and f["a"] < 0.8 * a_med:
            conf *= 0.3
        if conf != f["confidence"]:
            f = dict(f)
            f["confidence"] = conf
        out.append(f)
    return out
