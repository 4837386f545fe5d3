"""Die reader: the value of every die lying on a table, from one photo.

Pure functions, numpy + cv2 only; no board needed. The reader works pip-first:

1. normalise the photo: grey (or the body-to-pip colour axis for coloured dice), short side
   480-720 px, under-exposure stretched;
2. find pip candidates: small dark round blobs with a bright, even surround
   (:func:`vision.pips.find_pips`), each an ellipse;
3. group pips into faces: pips of one face are circles on one plane, so they share one ellipse
   shape; they lie within one pip grid of each other and are joined by bright die body;
4. fit each group to the six canonical layouts after undoing the face's perspective (whitening
   by the pips' common ellipse, or by the pip pattern itself for squares, which survives motion
   blur). A group that fits badly is cut along straight lines (a top face and a side face, two
   touching dice), preferring the fewest faces that explain the pips; faces cut apart wrongly
   are merged back when their union fits;
5. verify every face: the layout's empty grid spots and the face margin must be bare die body
   (a missed pip must not turn a five into a four), no other pip may lie on the face, the face
   must lie wholly inside the photo; and the face must not be part of a bigger face whose
   other pips the detector missed, judged from the image itself: no same-plane pip close
   beyond it, no pip-dark round blob about 2a out or in a parallel line beside a two or
   three (a six's other column), a one's pip mid-face with no lost partner on the same body;
   in a photo of unknown scale, no pattern bigger than a die's face (:mod:`vision.face_patterns`);
6. keep top faces (:mod:`vision.top_face`): a side face seen from above is foreshortened
   (flatter, smaller pips), more shaded, and lies between its top face and the camera; which
   way that is, is learnt from the photo itself. Top faces in one photo share pip roundness
   and spacing;
7. attach a confidence (layout fit, bare body, pip sharpness, pip size, how clearly the face is
   the top) and drop readings below ``min_confidence``: no reading is better than a wrong one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.bigger_face import part_of_bigger_face, settled_before_the_turn
from vision.dice_opinion import combine
from vision.die_model import model_available
from vision.face_layout import (
    LAYOUTS,
    ONE_LEVEL,
    SIX_STRETCHED,
    empty_grid,
    face_to_image,
    fit_layout,
    fit_layouts,
    median_of,
    sample_at,
)
from vision.face_patterns import PARTNER_SHAPE_TOL, twos_spanning_too_far, unless_pattern_continues
from vision.pips import SHAPE_TOL, Pip, cov_whitener, find_pips, same_ellipse
from vision.top_face import (
    ROUND_TOP_PIPS,
    choose_top_faces,
    clearly_more_top,
    image_consistency,
    unless_run_together_beyond,
)


@dataclass(frozen=True)
class DieReading:
    """One die: the value of its top face, its pixel box and how sure the reader is.

    The box (x, y = top-left corner, w, h, in pixels of the given image) bounds the die's top
    face, the face that was read, as in the YOLO labels of the dice data set."""

    value: int  # 1..6, the face pointing up
    x: int
    y: int
    w: int
    h: int
    confidence: float  # 0..1


@dataclass(frozen=True)
class DiceConfig:
    """How the dice look. Defaults: ordinary white dice with dark pips.

    For coloured dice set ``body_bgr`` and ``pip_bgr`` (approximate colours of the die body and
    of the pips); the reader then works on the projection of the image onto the body-pip colour
    axis instead of on brightness, so e.g. white pips on a red die work too.
    """

    body_bgr: tuple[int, int, int] | None = None  # None: bright (white/ivory) body
    pip_bgr: tuple[int, int, int] | None = None  # None: dark pips
    # largest pip radius as a fraction of the image's shorter side
    max_pip_radius: float = 0.03
    # the image is resized so that its short side lies in this range (pixels)
    work_size: tuple[int, int] = (480, 720)
    # pips of a smaller mean radius (pixels, after resizing) are too small to read safely
    min_pip_radius: float = 2.0
    # smallest pip area in pixels
    min_pip_area: int = 4
    # least pip contrast (0..255) against the die body
    min_pip_contrast: float = 20.0
    # pip contrast (body - pip) / body at and above which pips count as sharp; fainter pips
    # (motion blur, shadow) lower the confidence, down to zero at 0.2 below this
    sharp_contrast: float = 0.5
    # pip grid half-spacing in pip radii (canonical grid at -a, 0, +a), allowed range
    spacing: tuple[float, float] = (1.6, 3.4)
    # where the camera's nadir (the table point straight below the lens) lies, as fractions
    # of the image width and height. A die's side faces show on the side facing the nadir.
    # None: camera tilted forward, nadir far below the image (side faces show below the top).
    # An overhead camera looking straight down has its nadir near (0.5, 0.5).
    nadir: tuple[float, float] | None = None
    min_confidence: float = 0.6
    # a second opinion from the face network (vision.die_model): it reads blurred and tiny
    # dice the pip counter declines, and overrules a pip count it is sure is wrong
    face_network: bool = True
    # set by the reader, not by callers: the photo is a view square to the table (a tray's
    # top view) in which a die spans this many pixels at the reader's working scale
    square_die_px: float | None = None

    def __post_init__(self) -> None:
        for name in ("body_bgr", "pip_bgr"):
            colour = getattr(self, name)
            if colour is not None and (
                len(colour) != 3 or not all(0 <= int(c) <= 255 for c in colour)
            ):
                raise ValueError(f"{name} must be three values 0..255, got {colour!r}")
        if not 0.0 < self.max_pip_radius < 0.25:
            raise ValueError(
                f"max_pip_radius must be a fraction of the image, got {self.max_pip_radius}"
            )
        if not 0 < self.work_size[0] <= self.work_size[1]:
            raise ValueError(f"work_size must be (low, high) pixels, got {self.work_size}")
        if not 0 < self.spacing[0] < self.spacing[1]:
            raise ValueError(f"spacing must be (low, high) pip radii, got {self.spacing}")
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ValueError(f"min_confidence must lie in 0..1, got {self.min_confidence}")


# half-size of a face in units of a (pip centres at +-a, face edge at about +-1.85a)
_FACE_HALF = 1.85
# empty grid spots dimmed by less than this fraction of the pips' contrast: no pip is missing,
# so faint (blurred) pips cost that face less confidence
_DIP_CLEAN = 0.4
_DIP_RELIEF = 0.15
# ... and a lone pip's, held to more: nothing but its own layout vouches for a one
_ONE_RING_CLEAN = 0.2
_ONE_ALONE = 0.9  # ... and no other pip within this share of the die's side of it
_PARTNER_CONTRAST = (6.0, 0.03)  # ... not even a faint one: grey levels, share of its body
_PARTNER_SIZE = (0.5, 2.0)  # ... of about its size (radius against the lone pip's)
_PARTNER_BODY = 0.15  # ... on a body about as bright (a side face's shade is another plane)


def _check_image(image_bgr: np.ndarray) -> None:
    if not isinstance(image_bgr, np.ndarray):
        raise ValueError(f"image must be a numpy array, got {type(image_bgr).__name__}")
    if image_bgr.ndim not in (2, 3) or image_bgr.size == 0:
        raise ValueError(f"image must be a non-empty HxW or HxWx3 array, got {image_bgr.shape}")
    if image_bgr.ndim == 3 and image_bgr.shape[2] not in (3, 4):
        raise ValueError(f"image must have 3 (BGR) or 4 channels, got {image_bgr.shape[2]}")
    if min(image_bgr.shape[:2]) < 16:
        raise ValueError(f"image too small to hold a die: {image_bgr.shape}")
    if image_bgr.dtype != np.uint8:
        raise ValueError(f"image must be uint8, got {image_bgr.dtype}")


def die_grey(image_bgr: np.ndarray, config: DiceConfig) -> np.ndarray:
    """Grey image in which the die body is bright and the pips are dark."""
    img = image_bgr[..., :3] if image_bgr.ndim == 3 else image_bgr
    if img.ndim == 2:
        return img
    if config.body_bgr is None and config.pip_bgr is None:
        return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    body = np.array(config.body_bgr if config.body_bgr is not None else (255, 255, 255), float)
    pip = np.array(config.pip_bgr if config.pip_bgr is not None else (0, 0, 0), float)
    axis = body - pip
    norm = float(np.dot(axis, axis))
    if norm < 1.0:
        raise ValueError("body_bgr and pip_bgr must differ")
    proj = (img.reshape(-1, 3).astype(np.float32) - pip.astype(np.float32)) @ (
        axis.astype(np.float32) / norm
    )
    return np.clip(proj * 255.0, 0, 255).astype(np.uint8).reshape(img.shape[:2])


def pip_colours(image_bgr: np.ndarray, config: DiceConfig) -> np.ndarray | None:
    """The photo's colours, when it is read as white dice with dark pips (the default
    colours): such pips are black or grey, and a coloured disc as dark in grey (a board's
    printed spaces) is no pip of theirs (:func:`_coloured`). None for a grey
    photo or dice of configured colours (their pips may be coloured)."""
    if config.body_bgr is not None or config.pip_bgr is not None or image_bgr.ndim != 3:
        return None
    return image_bgr[..., :3]


def read_dice(
    image_bgr: np.ndarray,
    config: DiceConfig = DiceConfig(),  # noqa: B008
    *,
    die_px: float | None = None,
) -> list[DieReading]:
    """Read every die in a BGR photo; readings below ``config.min_confidence`` are dropped.

    ``die_px``: the side of a die in pixels when the caller knows it (a tray seen at a known
    scale); see :func:`read_dice_all`."""
    return [
        r
        for r in read_dice_all(image_bgr, config, die_px=die_px)
        if r.confidence >= config.min_confidence
    ]


def read_dice_all(
    image_bgr: np.ndarray,
    config: DiceConfig = DiceConfig(),  # noqa: B008
    *,
    die_px: float | None = None,
) -> list[DieReading]:
    """Like :func:`read_dice` but keeps low-confidence readings (marked by their confidence).

    Without ``die_px`` the photo is brought to a 480-720 px short side and the dice may be
    any size up to a few percent of it. With ``die_px`` (a die's side in pixels, known from
    the scale) the photo is read at a scale where a die spans about :data:`WORK_DIE_PX`
    (never enlarged: too small a die is declined), and only faces of about that size count.
    A photo that is one die filling the frame is read too (see :func:`_read_filling_die`).
    """
    _check_image(image_bgr)
    grey = die_grey(image_bgr, config)
    colours = pip_colours(image_bgr, config) if die_px is None else None
    if die_px is not None:
        if die_px < MIN_DIE_PX:
            return []  # too few pixels per pip to tell a five from a blob: never guess
        scale = WORK_DIE_PX / die_px
        # the die's known size bounds its pip grid (see DIE_SIZE_TOLERANCE), so pips small
        # for their spacing (a design with fine pips) are read too
        spacing = (config.spacing[0], max(config.spacing[1], SQUARE_SPACING_MAX))
        square = replace(config, square_die_px=die_px * scale, spacing=spacing)
        return _read_grey(grey, square, scale, die_px * scale, square_view=True)
    if min(grey.shape) < SMALL_PHOTO_PX:
        # dice in so small a photo are either a few pixels (unreadable) or fill it
        return _read_filling_die(grey, config, colours)
    found = _read_grey(grey, config, _work_scale(grey.shape, config), None, colours=colours)
    if any(r.confidence >= _FILLING_VETO for r in found):
        # dice of the photo's scale: a pattern of several of them may look like one big face
        return found
    filling = _read_filling_die(grey, config, colours)
    return filling if filling else found


# a photo with a shorter short side is read as one die filling it, or not at all
SMALL_PHOTO_PX = 160
# a face spanning fewer pixels of the photo than this is not read (its pips are a pixel or
# two: blur and noise make any value of them); the face network reads a face alone only
# from this size (the real photos it learnt from show dice of 15-80 px)
MIN_FACE_PX = 24.0
MIN_NETWORK_FACE_PX = 24.0
# ... and in a photo of unknown scale, where nothing bounds what the network takes for a
# face, only from this size: below it the drawn sweep's network-alone readings took a side
# face's pips for the top's (a one read as a four at 28-30 px: 4 of 17 such readings
# wrong), while every face it read alone right in the real photos spans 35 px or more
MIN_PLAIN_NETWORK_FACE_PX = 32.0
# ... and the pip counter reads a face only from pips of at least this radius in the photo
# (two touching ones seen smaller than that blur into a two)
MIN_PIP_PX = 1.5
# a die's side in pixels at which the reader works when the scale is known (the real photos
# it is tuned on show dice of 30-50 px), and the least it accepts
WORK_DIE_PX = 48.0
MIN_DIE_PX = 26.0
# a face found at a known scale, in a view square to the table, must be within this factor
# of the expected die side (a part of a face read as a smaller face turned by 45 degrees,
# two pips of a four as a two, spans 0.7 of it)
DIE_SIZE_TOLERANCE = (0.85, 1.3)
# in such a view a face's pip grid half-spacing may be up to this many pip radii (dice with
# fine pips: 0.08 of the side, 0.3 out); the face's size must still match the die's
SQUARE_SPACING_MAX = 4.4
# ... and in a photo of one die filling the frame (its size is only roughly known)
_FILLING_SIZE_TOLERANCE = (0.65, 1.35)


def _work_scale(shape: tuple[int, ...], config: DiceConfig) -> float:
    """The scale bringing the photo's short side into ``config.work_size``: small images are
    enlarged (pips of two or three pixels are unreadable), large ones reduced (speed)."""
    short = min(shape[:2])
    if short < config.work_size[0]:
        return config.work_size[0] / short
    if short > config.work_size[1]:
        return config.work_size[1] / short
    return 1.0


def _read_grey(
    grey0: np.ndarray,
    config: DiceConfig,
    scale: float,
    die_px: float | None,
    square_view: bool = False,
    colours: np.ndarray | None = None,
    network_alone: bool = True,
    each_pip_a_shade: bool = False,
) -> list[DieReading]:
    """Read the dice of a grey photo at ``scale``; ``die_px``: the die side after scaling,
    when known (then pips are bounded by it and faces of another size are dropped);
    ``square_view``: the photo is a view square to the table (a tray's top view), where a
    top face has round pips and exactly the die's size; ``colours``: the photo in colour
    (:func:`pip_colours`), when coloured blobs are no pips; ``network_alone``: the face
    network may read a face the pip counter did not (else it may only veto);
    ``each_pip_a_shade``: every pip of a face, not only most, must be a shade of the body
    (see :func:`_unless_tinted`)."""
    h0, w0 = grey0.shape
    grey = grey0
    if scale != 1.0:
        interp = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
        grey = cv2.resize(grey0, None, fx=scale, fy=scale, interpolation=interp)
        if colours is not None:
            colours = cv2.resize(colours, (grey.shape[1], grey.shape[0]), interpolation=interp)
    # under-exposed photo: stretch so the brightest surfaces (die bodies) come out bright
    top = float(np.percentile(grey[::4, ::4], 99.5))
    if 0 < top < 170:
        grey = cv2.convertScaleAbs(grey, alpha=min(220.0 / top, 4.0))
    h, w = grey.shape
    if die_px is None:
        max_r = max(3, int(round(config.max_pip_radius * min(h, w))))
    else:
        max_r = max(3, int(round(_PIP_PER_DIE * die_px)))
    # (in a photo of unknown scale, bars of pips smeared by motion: the network looks there)
    bars: list[tuple[float, float, float]] | None = None if square_view else []
    pips = find_pips(
        grey,
        max_radius=max_r,
        min_area=config.min_pip_area,
        min_contrast=config.min_pip_contrast,
        # at the die's known size a blob too big for a pip is no die of another size
        split_merged=square_view and die_px is not None,
        bars=bars,
    )
    if square_view and die_px is not None:
        # a top face seen square on shows round pips of a size the die's fixes: side faces'
        # drawn-out pips and the specks of print and grain cannot be part of one
        pips = [
            p
            for p in pips
            if p.elongation <= _SQUARE_PIP_ELONGATION and p.radius >= _SQUARE_PIP_LEAST * die_px
        ]
    if colours is not None:
        pips = [p for p in pips if not _coloured(colours, p)]
    if not pips and not bars:
        return []
    big = _big_pips(grey, max_r, config) if die_px is None else []
    faces = []
    groups: list[list[int]] = []
    if pips:
        tol = SQUARE_GROUP_SHAPE_TOL if square_view else SHAPE_TOL
        groups = _group_faces(grey, _pip_mask(grey, pips), pips, config, tol)
        for g in groups:
            faces.extend(_split_fit(grey, pips, g, config, depth=3, cache={}))
        faces = _merge_faces(grey, pips, faces, config)
    if colours is not None:
        faces = [_unless_tinted(f, pips, colours, each_pip_a_shade) for f in faces]
    if not square_view:
        faces = _ones_within_twos(grey, pips, faces, config)
        faces = twos_spanning_too_far(faces)
    faces, side_faces = choose_top_faces(faces, config, grey, pips)
    faces = image_consistency(faces)
    if not square_view:
        faces = [_unless_rival_top(grey, pips, groups, f, config) for f in faces]
        seen = [*faces, *side_faces]  # (where side faces lie is learnt from all of them)
        faces = [unless_run_together_beyond(grey, pips, f, seen) for f in faces]
        faces = [unless_pattern_continues(f, pips, grey.shape) for f in faces]
    if config.face_network and model_available():
        # the default threshold, not the caller's: which faces the network looks at must not
        # depend on the threshold a caller applies to the readings afterwards
        faces = combine(
            grey,
            pips,
            faces,
            DiceConfig.min_confidence,
            face_px=die_px,
            square_view=square_view,
            bars=bars or [],
            side_faces=side_faces,
        )
        if not network_alone:
            faces = [f for f in faces if f["idx"]]
    faces = [f for f in faces if not _within_big_pip(f, big)]
    # in the photo's own pixels: too small a face is declined, and the network may read a
    # face alone only where it saw dice of the size it learnt from (tiny enlarged dice, two
    # touching ones, may look to it like one bigger face)
    network_least = MIN_NETWORK_FACE_PX if die_px is not None else MIN_PLAIN_NETWORK_FACE_PX
    faces = [
        f
        for f in faces
        if _box_side(f["box"]) / scale >= (MIN_FACE_PX if f["idx"] else network_least)
        and (not f["idx"] or f["radius"] / scale >= MIN_PIP_PX)
    ]
    if die_px is not None:
        # in a view square to the table a top face is seen square on, with round pips, and
        # a side face stands on edge, its pips drawn out
        lo, hi = DIE_SIZE_TOLERANCE if square_view else _FILLING_SIZE_TOLERANCE
        faces = [
            f
            for f in faces
            if lo * die_px <= _box_side(f["box"]) <= hi * die_px
            and (not square_view or not f["idx"] or f["elong"] <= ROUND_TOP_PIPS)
        ]
        if square_view and config.nadir is not None:
            nadir = np.array([config.nadir[0] * grey.shape[1], config.nadir[1] * grey.shape[0]])
            faces = [f for f in faces if not _pips_beyond_top(f, pips, nadir, die_px)]
    out = []
    for f in faces:
        x0, y0, x1, y1 = (v / scale for v in f["box"])
        x0, y0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
        x1, y1 = min(w0, int(np.ceil(x1))), min(h0, int(np.ceil(y1)))
        out.append(DieReading(f["value"], x0, y0, x1 - x0, y1 - y0, float(f["confidence"])))
    out.sort(key=lambda r: (r.y, r.x))
    return out


# a black or grey pip is no more coloured than the body around it (a blurred one mixes the
# two): a blob whose colourfulness (largest minus smallest channel) in its middle exceeds
# its surround's by more than this fraction of its darkness in grey is a coloured spot (a
# board's red or yellow disc), not a dark pip
PIP_TINT = 0.35
_RING = np.stack(
    [
        np.cos(np.linspace(0, 2 * np.pi, 12, endpoint=False)),
        np.sin(np.linspace(0, 2 * np.pi, 12, endpoint=False)),
    ],
    1,
)


def _middle_and_ring(colours: np.ndarray, p: Pip) -> tuple[np.ndarray, np.ndarray] | None:
    """A blob's middle (half its small radius; pixels, float32 BGR) and a ring of body around
    it, or None where either falls outside the image."""
    h, w = colours.shape[:2]
    r = max(1, int(0.5 * p.minor))
    x, y = int(round(p.x)), int(round(p.y))
    mid = colours[max(0, y - r) : min(h, y + r + 1), max(0, x - r) : min(w, x + r + 1)]
    ring = np.round(np.array([p.x, p.y]) + (1.8 * p.major + 1.0) * _RING).astype(int)
    inside = (ring[:, 0] >= 0) & (ring[:, 0] < w) & (ring[:, 1] >= 0) & (ring[:, 1] < h)
    if mid.size == 0 or not np.any(inside):
        return None
    around = colours[ring[inside, 1], ring[inside, 0]].astype(np.float32)
    return mid.reshape(-1, 3).astype(np.float32), around


def _coloured(colours: np.ndarray, p: Pip) -> bool:
    """Is this blob a coloured spot rather than a dark pip (see :data:`PIP_TINT`)? Its
    middle (half its small radius) is compared with a ring of body around it."""
    sampled = _middle_and_ring(colours, p)
    if sampled is None:
        return False
    mid, around = sampled
    excess = float((mid.max(1) - mid.min(1)).mean()) - float(
        np.median(around.max(1) - around.min(1))
    )
    return excess > PIP_TINT * max(p.contrast, 1.0)


# pips up to this many times larger than the reader's largest are looked for too: a face
# found on one of them is a speck inside a pip of a die far bigger than the photo's scale
# suggests (a close-up), never a die of its own
_BIG_PIP_FACTOR = 3
# ... counting only round blobs well beyond the largest pip (two pips blurred together at the
# reduced scale make an oblong blob, not a big pip)
_BIG_PIP_LEAST = 1.6
_BIG_PIP_ROUND = 2.0


# a face whose pips' colours stray from a shade of the body around them by more than this
# fraction of their darkness (the median over its pips) is coloured print, not a die's
# face (measured: faces read right in the shared and bundled real photos at most 0.18,
# drawn dice of a coloured body with pips of its hue 0.22; a board's dark red discs on
# tinted paper 0.36 and more)
FACE_TINT = 0.29


def _off_shade(colours: np.ndarray, p: Pip) -> float:
    """How far a blob's colour strays from a shade of the body around it, as a fraction
    of its darkness. A black or grey pip is the body's colour darkened: the same mix of
    the three channels, scaled (light falls on both alike). A coloured disc on tinted
    paper is as colourful as the paper, but in a mix of its own: a dark red disc on
    pink paper is too red for a shade of it."""
    sampled = _middle_and_ring(colours, p)
    if sampled is None:
        return 0.0
    mid, ring = sampled
    mid_bgr = mid.mean(0)
    around = np.median(ring, 0)
    shade = around * (float(mid_bgr.sum()) / max(float(around.sum()), 1.0))
    return float(np.linalg.norm(mid_bgr - shade)) / max(p.contrast, 1.0)


def _unless_tinted(
    face: dict, pips: list[Pip], colours: np.ndarray, each_pip: bool = False
) -> dict:
    """The face, marked no die's face (and too weak to outrank any) when its pips, taken
    together, are no shade of the body around them (:data:`FACE_TINT`). ``each_pip``: every
    pip must be one (a die's pips are painted alike; where each pip spans many pixels, as in
    a close-up, one pip's colour is measured well enough to count alone: a two made of a
    die's black pip and a brown printed disc is no face)."""
    if not face["idx"]:
        return face
    offs = [_off_shade(colours, pips[i]) for i in face["idx"]]
    off = max(offs) if each_pip else float(np.median(offs))
    if off <= FACE_TINT:
        return face
    return {**face, "confidence": 0.0, "strength": 0.0, "no_face": True}


def _big_pips(grey: np.ndarray, max_r: int, config: DiceConfig) -> list[Pip]:
    """Pip-like blobs too big for the reader's scale (radius beyond ``max_r``), in ``grey``'s
    pixels, found on a copy reduced by :data:`_BIG_PIP_FACTOR`."""
    k = _BIG_PIP_FACTOR
    small = cv2.resize(grey, None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA)
    if min(small.shape) < 16:
        return []
    found = find_pips(small, max_radius=max_r, min_contrast=config.min_pip_contrast)
    return [
        Pip(p.x * k, p.y * k, p.area * k * k, p.major * k, p.minor * k, p.angle, p.contrast, p.body)
        for p in found
        if p.radius * k > _BIG_PIP_LEAST * max_r and p.elongation < _BIG_PIP_ROUND
    ]


def _within_big_pip(face: dict, big: list[Pip]) -> bool:
    """Is there a pip far too big for this face on it or right beside it? A face's pips
    are about a tenth of its side in radius; a face with a much bigger pip within a face side
    of its centre is a speck on, or a pattern across, a die far bigger than it."""
    cx = 0.5 * (face["box"][0] + face["box"][2])
    cy = 0.5 * (face["box"][1] + face["box"][3])
    side = _box_side(face["box"])
    return any(
        np.hypot(cx - p.x, cy - p.y) < side + p.major and p.radius > 0.13 * side for p in big
    )


# ... each pip at most this elongated, and with a radius of at least this fraction of the
# die's side (dice have pips of 0.07 to 0.15 of it)
_SQUARE_PIP_ELONGATION = 1.8
# ... where a top face's pips are all round and of one size, the one at the die's shaded,
# blurred edge comes out a little smaller: in a tray's view such pips may still be grouped
# as one face's (a three's corner pip, 0.83 of the others' radius, was left out, and the
# die was not read); the face's fit then checks their layout
SQUARE_GROUP_SHAPE_TOL = 2.0
_SQUARE_PIP_LEAST = 0.045


def _pips_beyond_top(face: dict, pips: list[Pip], nadir: np.ndarray, die_px: float) -> bool:
    """In a view square to the table, a die's top face lies farther from the camera's nadir
    than its side faces (the top is raised, the camera sees the sides facing it). Pips just
    beyond a face on the side away from the nadir belong to a face of the same die further
    out: this face is a side face (or another die lies against it): not read. Only pips as
    a top face shows them count: about as round as this face's or rounder, about as big and
    as dark (the thin strokes of the letters printed beside a tray are fainter than a die's
    painted pips)."""
    x0, y0, x1, y1 = face["box"]
    centre = np.array([0.5 * (x0 + x1), 0.5 * (y0 + y1)])
    away = centre - nadir
    norm = float(np.linalg.norm(away))
    if norm < 1e-6:
        return False
    away /= norm
    own = set(face["idx"])
    mine = [pips[i] for i in own]
    least_radius = _BEYOND_PIP_LIKE * float(np.mean([p.radius for p in mine])) if mine else 0.0
    least_contrast = _BEYOND_PIP_LIKE * float(np.mean([p.contrast for p in mine])) if mine else 0.0
    # the top face beyond a side face shows its pips at least as round as the side face's
    # (a side face seen from the other side, when the nadir is misjudged, shows flatter ones)
    roundest = ROUND_TOP_PIPS
    if mine:
        roundest = min(
            roundest, _BEYOND_ROUNDNESS * max(1.0, float(np.mean([p.elongation for p in mine])))
        )
    for i, p in enumerate(pips):
        if i in own or p.elongation > roundest:
            continue
        if p.radius < least_radius or p.contrast < least_contrast:
            continue
        v = np.array([p.x, p.y]) - centre
        if float(np.linalg.norm(v)) < _BEYOND_REACH * die_px and float(v @ away) > 0.55 * die_px:
            return True
    return False


# how far from a face's centre (in die sides) pips beyond it count, and how big and how dark
# against their surround they must be, as a fraction of the face's own pips'
_BEYOND_REACH = 1.4
_BEYOND_PIP_LIKE = 0.6
_BEYOND_ROUNDNESS = 1.15
# the largest pip radius as a fraction of a die's side (real pips: about 0.08-0.1)
_PIP_PER_DIE = 0.14


def _box_side(box: tuple[float, float, float, float]) -> float:
    return float(np.sqrt(max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)))


# a photo that is one die filling the frame: its short side is brought to this many pixels
# (the face then spans about WORK_DIE_PX), and framed with this much plain border (fraction
# of the short side) so that the die lies well inside a photo, as the reader expects
_FILLING_SHORT_PX = 64.0
_FILLING_BORDER = 0.5
# ... and the face's side is expected at this fraction of the photo's short side
_FILLING_FACE = 0.75
# a reading of the general reader at least this sure means the photo shows dice of its own
# scale, not one die filling it
_FILLING_VETO = 0.3
# a face filling the frame spans at least this fraction of its short side
_FILLING_LEAST = 0.55
# ... and its middle lies at most this fraction of the photo's width and height from the
# photo's middle
_FILLING_OFF_CENTRE = 0.2
# ... and a one's pip, the middle of its face, at most this fraction
_FILLING_ONE_OFF_CENTRE = 0.1
# the part of a face box its pip grid reaches (pips at +-a plus a pip radius; box at 1.85a)
_GRID_REACH = 0.78


def _read_filling_die(
    grey: np.ndarray, config: DiceConfig, colours: np.ndarray | None = None
) -> list[DieReading]:
    """One die filling the frame (a close-up, a crop around one die). The general reader
    takes such pips for blobs far too big to be pips; here the photo is scaled so that the
    die has the size the reader works at, and framed by a plain border. A reading counts
    only when it is the only one and all of its pip grid lies inside the photo (a face cut
    by the frame may hide pips: declined), so a small or cut die is never misread."""
    h0, w0 = grey.shape
    short = min(h0, w0)
    if max(h0, w0) > 2 * short:
        return []  # not a close-up of one die
    scale = _FILLING_SHORT_PX / short
    interp = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=interp)
    pad = int(round(_FILLING_BORDER * _FILLING_SHORT_PX))
    edge = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    framed = cv2.copyMakeBorder(
        small, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=float(np.median(edge))
    )
    if colours is not None:
        colours = cv2.resize(colours, (small.shape[1], small.shape[0]), interpolation=interp)
        colours = cv2.copyMakeBorder(colours, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    # only the pip counter reads here (the network may veto): its bare-body check vouches
    # that the face is a die's filling the frame, where the network, shown a tray with a die
    # a few pixels wide, took a printed disc and the die for the pips of one big two
    found = _read_grey(
        framed,
        config,
        1.0,
        _FILLING_FACE * _FILLING_SHORT_PX,
        colours=colours,
        network_alone=False,
        # the die fills the frame: each pip spans many pixels, its colour well measured
        each_pip_a_shade=True,
    )
    if len(found) != 1 or found[0].confidence < config.min_confidence:
        return []
    r = found[0]
    if min(r.w, r.h) < _FILLING_LEAST * _FILLING_SHORT_PX:
        return []  # not filling the frame: a pattern of small dice may look like one face
    # the box in the photo's pixels, and the part of it the pip grid covers
    cx, cy = (r.x + r.w / 2 - pad) / scale, (r.y + r.h / 2 - pad) / scale
    off = _FILLING_ONE_OFF_CENTRE if r.value == 1 else _FILLING_OFF_CENTRE
    if abs(cx - w0 / 2) > off * w0 or abs(cy - h0 / 2) > off * h0:
        return []  # a die filling the frame lies in its middle: this is part of one (a
        # two's pip, its partner cut off by the frame) or a smaller die
    hw, hh = r.w / 2 / scale, r.h / 2 / scale
    reach_x, reach_y = _GRID_REACH * hw, _GRID_REACH * hh
    if cx - reach_x < 0 or cy - reach_y < 0 or cx + reach_x > w0 or cy + reach_y > h0:
        return []
    x0, y0 = max(0, int(np.floor(cx - hw))), max(0, int(np.floor(cy - hh)))
    x1, y1 = min(w0, int(np.ceil(cx + hw))), min(h0, int(np.ceil(cy + hh)))
    return [DieReading(r.value, x0, y0, x1 - x0, y1 - y0, r.confidence)]


@functools.cache
def _unit_steps(n: int) -> np.ndarray:
    """``np.linspace(0, 1, n)``, made once per ``n`` (read only: it is shared)."""
    steps = np.linspace(0.0, 1.0, n)
    steps.flags.writeable = False
    return steps


def _clamp(index: np.ndarray, top: int) -> np.ndarray:
    """Whole pixel indices held to 0..``top``: ``np.clip``'s result without its overhead."""
    return np.minimum(np.maximum(index, 0), top)


def _bright_path(
    grey: np.ndarray,
    pipmask: np.ndarray,
    p: tuple[float, float],
    q: tuple[float, float],
    body: float,
    frac: float = 0.72,
) -> bool:
    """Is the segment p-q all die body (no darker gap of table between them)?"""
    d = np.hypot(q[0] - p[0], q[1] - p[1])
    n = max(int(d), 2)
    t = _unit_steps(n)
    h, w = grey.shape
    xs = _clamp(np.round(p[0] + t * (q[0] - p[0])).astype(int), w - 1)
    ys = _clamp(np.round(p[1] + t * (q[1] - p[1])).astype(int), h - 1)
    keep = pipmask[ys, xs] == 0
    if np.count_nonzero(keep) < 2:
        return True
    vals = grey[ys[keep], xs[keep]].astype(np.float32)
    return _percentile_at_least(vals, 5.0, frac * body)


def _percentile_at_least(vals: np.ndarray, q: float, level: float) -> bool:
    """``np.percentile(vals, q) >= level`` for grey levels (whole numbers), settled from the
    sorted values where they decide it: the percentile interpolates between two neighbours
    in sorted order, so it is at least the lower and at most the upper. Only when ``level``
    lies between them is the percentile itself worked out (it costs ten times a sort)."""
    ordered = np.sort(vals)
    at = (len(ordered) - 1) * q / 100.0
    # a neighbour either side of numpy's own index, whichever way it rounds
    lo = max(0, int(np.floor(at - 1e-6)))
    hi = min(len(ordered) - 1, int(np.floor(at + 1e-6)) + 1)
    if ordered[lo] >= level:
        return True
    if ordered[hi] < level:
        return False
    return float(np.percentile(vals, q)) >= level


def _pip_mask(grey: np.ndarray, pips: list[Pip]) -> np.ndarray:
    """Mask of the pips, a little enlarged (their dark rims included)."""
    pipmask = np.zeros(grey.shape, np.uint8)
    for p in pips:
        cv2.ellipse(
            pipmask,
            (int(round(p.x)), int(round(p.y))),
            (int(np.ceil(p.major * 1.6 + 1)), int(np.ceil(p.minor * 1.6 + 1))),
            float(np.degrees(p.angle)),
            0,
            360,
            1,
            -1,
        )
    return pipmask


def _group_faces(
    grey: np.ndarray,
    pipmask: np.ndarray,
    pips: list[Pip],
    config: DiceConfig,
    shape_tol: float = SHAPE_TOL,
) -> list[list[int]]:
    """Pips that may lie on one face: alike (`same_ellipse` within `shape_tol`), near enough
    for a face's grid, bright die body between them."""
    n = len(pips)
    dmax = 2 * np.sqrt(2) * config.spacing[1] * 1.1
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    xy = np.array([[p.x, p.y] for p in pips])
    major = np.array([p.major for p in pips])
    body = np.array([max(p.body, 1.0) for p in pips])
    dist_all = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    ratio = body[:, None] / body[None, :]
    cand = (
        (dist_all <= dmax * np.maximum(major[:, None], major[None, :]))
        & (ratio > 0.8)
        & (ratio < 1.25)
    )
    cand = np.triu(cand, 1)
    for i, j in zip(*np.nonzero(cand), strict=True):
        p, q = pips[i], pips[j]
        rr = np.sqrt(p.radius * q.radius)
        dist = dist_all[i, j]
        if not same_ellipse(p, q, shape_tol):
            continue
        # whitened distance in pip radii
        wh = cov_whitener(0.5 * (p.cov() + q.cov()))
        wd = np.linalg.norm(wh @ np.array([p.x - q.x, p.y - q.y]))
        if wd > dmax or dist > dmax * rr * 1.5:
            continue
        if not _bright_path(grey, pipmask, (p.x, p.y), (q.x, q.y), min(p.body, q.body)):
            continue
        a, b = find(i), find(j)
        if a != b:
            parent[a] = b
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _body_check(
    grey: np.ndarray,
    ps: list[Pip],
    centre: np.ndarray,
    inv: np.ndarray,
    a: float,
    ang: float,
    lay: np.ndarray,
    sharp: float = 1.0,
    square: bool = False,
) -> float:
    """Fraction of face points without a pip that really are bare die body (0..1).

    For a fitted layout these are the empty positions of the 3x3 pip grid plus points near the
    face edge; a lone pip (value 1) gets rings around it. Catches missed pips (a five whose
    centre pip was lost must not read as four) and dark blobs that are not on a die.
    ``square``: a face seen square on at the die's known size, where an edge point within
    :data:`_EDGE_CLEAR` pip radii of a pip of the layout is left out (big pips set near the
    edge: it shows only that pip's blurred rim).
    """
    body = median_of([p.body for p in ps])
    inner = float(np.mean([p.body - p.contrast for p in ps]))
    if len(lay) == 1:
        t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        ring = np.stack([np.cos(t), np.sin(t)], 1)
        face = np.concatenate([ring * 2.0, ring * 2.8, ring * 3.5])
        edge = face
    else:
        xs = np.unique(np.concatenate([lay[:, 0], [0.0]]))
        if len(xs) < 3:
            xs = np.array([-1.0, 0.0, 1.0])
        empty = empty_grid(lay, xs) * a
        # points between the pips and the face edge
        ex = max(1.0, float(np.abs(lay[:, 0]).max())) + 0.45
        ey = max(1.0, float(np.abs(lay[:, 1]).max())) + 0.45
        edge = np.array([[u, v] for u in (-ex, 0.0, ex) for v in (-ey, 0.0, ey)])
        edge = edge[(np.abs(edge[:, 0]) > 1.0) | (np.abs(edge[:, 1]) > 1.0)] * a
        if square:
            gap = np.hypot(*(edge[:, None, :] - lay[None, :, :] * a).transpose(2, 0, 1))
            edge = edge[gap.min(1) >= _EDGE_CLEAR]
        face = np.concatenate([empty, edge]) if len(empty) else edge
    vals = sample_at(grey, face_to_image(face, centre, inv, ang))
    # a blurred pip that was missed still dims its spot: blurred faces get a stricter test
    dark = max(inner + 0.75 * (body - inner), (0.9 - 0.1 * sharp) * body)
    good = vals > dark
    if len(lay) == 1:
        # a one sits in the middle of a plain face: everything out to 3.5 pip radii must be
        # as bright as the pip's own surround (a pip of a two near its corner sees the face
        # edge, a side face or the table on one side)
        if not np.all(vals > max(dark, ONE_LEVEL * body)):
            return 0.0
    n_empty = len(face) - len(edge) if len(lay) > 1 else 0
    if n_empty and not np.all(good[:n_empty]):
        return 0.0  # a dark spot where this layout has no pip: a missed pip, not this value
    if len(lay) > 1:
        # near the face edge the body may fall off (rounded edges, blur): a looser test
        good[n_empty:] = vals[n_empty:] > max(inner + 0.6 * (body - inner), 0.7 * body)
    return float(np.count_nonzero(good)) / len(vals)


# (pip radii) an edge point this close to a pip's centre lies on its blurred rim
_EDGE_CLEAR = 1.4


def _empty_dip(
    grey: np.ndarray,
    ps: list[Pip],
    centre: np.ndarray,
    inv: np.ndarray,
    a: float,
    ang: float,
    lay: np.ndarray,
) -> float:
    """How dark the layout's empty grid spots get, as a fraction of the found pips' own
    contrast (0: bare body, 1: as dark as a found pip). All pips of one face share its blur
    and lighting, so a pip that was missed there still dims its spot by about as much as the
    found pips stand out: a low figure vouches that no pip is missing, even on a blurred face."""
    empty = empty_grid(lay, np.array([-1.0, 0.0, 1.0])) * a
    if not len(empty):
        return 0.0
    off = np.array([[0.0, 0.0], [0.7, 0.0], [-0.7, 0.0], [0.0, 0.7], [0.0, -0.7]])
    spots = (empty[:, None, :] + off[None, :, :]).reshape(-1, 2)
    vals = sample_at(grey, face_to_image(spots, centre, inv, ang)).reshape(len(empty), len(off))
    if np.any(vals < 0):
        return 1.0
    body = median_of([p.body for p in ps])
    depth = float(np.mean([p.contrast for p in ps]))
    return float((body - vals.min(1)).max() / max(depth, 1.0))


# a lone pip's face may be turned any way: every other face's pips lie on two circles round
# its middle, at the grid's spacing (a six's middle pair) and at its diagonal (the corners)
_RING_RADII = (1.0, float(np.sqrt(2.0)))
_RING_ANGLES = np.linspace(0.0, 2.0 * np.pi, 32, endpoint=False)
_RING_SPOTS = np.concatenate(
    [r * np.stack([np.cos(_RING_ANGLES), np.sin(_RING_ANGLES)], 1) for r in _RING_RADII]
)


def _lone_pip_clear(
    grey: np.ndarray,
    p: Pip,
    pips: list[Pip],
    centre: np.ndarray,
    inv: np.ndarray,
    a: float,
    config: DiceConfig,
) -> bool:
    """A lone pip in a view square to the table is a one's, faint or not, when no other pip
    lies within a die's reach of it (a two's partner lies 0.76 of the die's side away) and
    the circles where any other face's pips would lie round it are bare body."""
    reach = _ONE_ALONE * float(config.square_die_px or 0.0)
    if any(
        q is not p and np.hypot(q.x - p.x, q.y - p.y) < reach and _same_body(p, q) for q in pips
    ):
        return False
    return _ring_dip(grey, p, centre, inv, a) < _ONE_RING_CLEAN and not _faint_partner(
        grey, p, reach
    )


def _faint_partner(grey: np.ndarray, p: Pip, reach: float) -> bool:
    """Is there a round blob of about the pip's size within ``reach`` of it, however faint
    (far below a pip's contrast)? Blur and light that fade one pip may fade its partner
    further: a two whose other pip the pip finder missed is no one."""
    half = int(np.ceil(reach + 2 * p.radius))
    x0, y0 = max(int(p.x) - half, 0), max(int(p.y) - half, 0)
    crop = grey[y0 : int(p.y) + half + 1, x0 : int(p.x) + half + 1]
    max_r = max(3, int(np.ceil(_PARTNER_SIZE[1] * p.radius)))
    for q in find_pips(crop, max_r, min_contrast=_PARTNER_CONTRAST[0],
                       rel_contrast=_PARTNER_CONTRAST[1]):  # fmt: skip
        d = np.hypot(q.x + x0 - p.x, q.y + y0 - p.y)
        if (
            p.radius < d < reach
            and _PARTNER_SIZE[0] * p.radius <= q.radius <= _PARTNER_SIZE[1] * p.radius
            and q.elongation <= _SQUARE_PIP_ELONGATION
            and _same_body(p, q)
        ):
            return True
    return False


def _same_body(p: Pip, q: Pip) -> bool:
    """Do two pips lie on bodies about as bright (one face: a side face is shaded)?"""
    return abs(q.body - p.body) <= _PARTNER_BODY * max(p.body, 1.0)


def _ring_dip(grey: np.ndarray, p: Pip, centre: np.ndarray, inv: np.ndarray, a: float) -> float:
    """A one's `_empty_dip`: how dark the circles where any other face's pips would lie get,
    as a fraction of the pip's own contrast. Where they are bare body, a faint (blurred) lone
    pip lost no partner: it is a one, held to no stricter darkness than a clean two's."""
    vals = sample_at(grey, face_to_image(_RING_SPOTS * a, centre, inv, 0.0))
    if np.any(vals < 0):
        return 1.0
    return float((p.body - vals.min()) / max(p.contrast, 1.0))


def _unit(v: float) -> float:
    """``v`` held to 0..1 (``float(np.clip(v, 0, 1))``, without its overhead: a face's
    confidence is made of five such terms)."""
    return min(max(float(v), 0.0), 1.0)


def _core_contrast(grey: np.ndarray, p: Pip) -> float:
    """How much darker than its body a pip is in its middle (the mean of the 3 x 3 pixels
    there), 0..255. Blur spreads a small pip: the mean over the blob the pip finder's
    threshold cut falls with it, while the middle of a pip wider than the blur keeps its
    darkness (a one a little out of focus, 0.1 of its side across: 0.42 of its body by
    the blob's mean, 0.53 in its middle). A thin line or a speck is no darker in its middle."""
    h, w = grey.shape
    x, y = int(round(p.x)), int(round(p.y))
    core = grey[max(y - 1, 0) : min(y + 2, h), max(x - 1, 0) : min(x + 2, w)]
    return p.body - float(core.mean()) if core.size else 0.0


# a face's confidence falls to nothing over this much darkness below a sharp face's pips
_FAINT_RAMP = 0.2


def _fit_face(grey: np.ndarray, pips: list[Pip], idx: list[int], config: DiceConfig) -> dict | None:
    k = len(idx)
    if k > 6 or k == 0:
        return None
    ps = [pips[i] for i in idx]
    square = config.square_die_px is not None
    if square:
        # a top face seen square on: its pips are circles, whatever shape the pixels give
        # them (undoing a pip's small shape error would stretch the whole layout)
        cov = np.eye(2) * float(np.mean([p.radius for p in ps])) ** 2
    else:
        cov = np.mean([p.cov() for p in ps], axis=0)
    wh = cov_whitener(cov)  # image -> face frame, pip radius 1
    xy = np.array([[p.x, p.y] for p in ps])
    centre = xy.mean(0)
    pts = (xy - centre) @ wh.T
    lay = LAYOUTS[k]
    if k >= 2 and settled_before_the_turn(pts, pips, idx, centre, wh, lay, config):
        return None
    a, err, ang = fit_layout(pts, lay)
    if k == 6:
        # the two columns of a six may sit wider apart than the rows (die design), or closer
        # (foreshortening)
        for lay_u, (a_u, err_u, ang_u) in zip(
            SIX_STRETCHED, fit_layouts(pts, SIX_STRETCHED), strict=True
        ):
            # (a stretch that puts the pips too far apart is no six; motion blur can make
            # one fit best, and the pattern's own frame below may still save the face)
            if err_u < err and config.spacing[0] <= a_u <= config.spacing[1]:
                a, err, ang, lay = a_u, err_u, ang_u, lay_u
    if k == 1:
        a = float(np.mean(config.spacing))
        if square:
            # a lone pip tells nothing of its face's size, but the die's known size does
            a = config.square_die_px / (2 * _FACE_HALF) / float(np.sqrt(cov[0, 0]))
    elif not (config.spacing[0] <= a <= config.spacing[1]):
        return None
    a_pips = a  # pip spacing in pip radii
    if k >= 4 and not square:
        # a square layout (or the two rows of a six) fixes the face's perspective by itself;
        # this survives motion blur, which stretches every pip the same way and fools the
        # pip-shape whitening. In that frame a six's columns sit sqrt(2/3) out.
        raw = xy - centre
        wc = cov_whitener(raw.T @ raw / k)
        pc = raw @ wc.T
        scale = np.sqrt((pts**2).sum(1).mean() / max((pc**2).sum(1).mean(), 1e-9))
        lay_c = LAYOUTS[6] * np.array([np.sqrt(2.0 / 3.0), 1.0]) if k == 6 else lay
        a_c, err_c, ang_c = fit_layout(pc * scale, lay_c)
        # ... but only as a correction: the two frames must nearly agree (a 2x2 block of a
        # six is a rectangle, which this whitening would square up)
        sv = np.linalg.svd(wc @ np.linalg.inv(wh), compute_uv=False)
        if err_c < err and sv[0] / sv[1] < 1.5:
            wh, a, err, ang, lay = wc * scale, a_c, err_c, ang_c, lay_c
    inv = np.linalg.inv(wh)  # face frame (pip radius 1) -> image
    half = _FACE_HALF * a
    # no other pip may lie on this face
    c, s = np.cos(ang), np.sin(ang)
    rot = np.array([[c, -s], [s, c]])
    members = set(idx)
    others = [q for j, q in enumerate(pips) if j not in members]
    if others:
        oxy = np.array([[q.x, q.y] for q in others]) - centre
        loc = (oxy @ wh.T) @ rot / a  # face coordinates in units of a
        dist = np.abs(loc).max(1) if k > 1 else np.hypot(loc[:, 0], loc[:, 1])
        # any pip within 1.5a is on this face; a same-plane pip (same ellipse) within 2a too:
        # the face edge is at 1.85a and a touching die's pips start about 2.7a out.
        # (a lone pip's face orientation is unknown: radii, in units of the mid a)
        if np.any(dist < 1.5):
            return None
        for j in np.flatnonzero(dist < 2.0):
            if same_ellipse(ps[0], others[j]):
                return None
        if k >= 2 and not square:
            # a same-plane pip within 2.35a is part of this face's die (a touching die's pips
            # start about 2.7a out): this face is a piece of a bigger one that lost pips
            # (a piece of a face is smaller than the die, which a square view's known die
            # size rules out: there such a pip lies on a side face seen steeply)
            near = np.hypot(loc[:, 0], loc[:, 1]) < 2.35
            for j in np.flatnonzero(near & (dist >= 2.0)):
                if same_ellipse(ps[0], others[j]):
                    return None
    # a face cut by the image border may hide pips: not readable (but it still shows where
    # a die is, so it may still outrank that die's side faces)
    sq = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T
    corners = centre + sq @ inv.T
    hh, ww = grey.shape
    if k == 1:
        # the lone pip's face may be turned any way: its corners reach 1.85a * sqrt(2)
        reach_xy = np.sqrt(np.diag(inv @ inv.T)) * half * np.sqrt(2.0)
        corners = np.array([centre - reach_xy, centre + reach_xy])
    cut = bool(
        np.any(corners < -0.5)
        or np.any(corners[:, 0] > ww - 0.5)
        or np.any(corners[:, 1] > hh - 0.5)
    )
    # box of the face: the face square's circumcircle mapped to the image
    ext = np.sqrt(np.diag(inv @ inv.T)) * half
    box = (centre[0] - ext[0], centre[1] - ext[1], centre[0] + ext[0], centre[1] + ext[1])
    contrast = float(np.min([p.darkness for p in ps]))
    sharp = _unit((contrast - 0.3) / (config.sharp_contrast - 0.3))
    body_ok = _body_check(grey, ps, centre, inv, a, ang, lay, sharp, square)
    elong = float(np.mean([p.elongation for p in ps]))
    radius = float(np.mean([p.radius for p in ps]))
    fit_conf = _layout_fit(err) if k > 1 else 0.8
    fit_conf *= _unit((body_ok - 0.75) / 0.25)
    # faint pips mean motion blur or shadow: other pips of the face may have been lost
    # (one or two pips have little layout to vouch for them: held to a stricter standard)
    lo = config.sharp_contrast - (0.2 if k <= 2 else 0.25 if k < 6 else 0.35)
    if 2 <= k <= 5 and _empty_dip(grey, ps, centre, inv, a, ang, lay) < _DIP_CLEAN:
        lo -= _DIP_RELIEF
    elif k == 1 and square and _lone_pip_clear(grey, ps[0], pips, centre, inv, a, config):
        lo -= _DIP_RELIEF
    darkness = contrast
    if k == 1 and square:
        # a one seen square on: its round pip's middle tells how dark it is (see
        # _core_contrast); the body check above keeps the blob's own, stricter figure
        darkness = max(contrast, _core_contrast(grey, ps[0]) / max(ps[0].body, 1.0))
    fit_conf *= _unit((darkness - lo) / _FAINT_RAMP)
    # tiny pips (a few pixels) give unreliable shapes and may vanish altogether
    fit_conf *= _unit((radius - config.min_pip_radius) / 1.0)
    # how strongly this face claims to be a die's top, cut or not; in a photo of unknown
    # scale a face that may be part of a bigger one claims it too (the bigger face lies
    # there: a lone pip whose partner was missed is still a top face, its side faces no top)
    strength = fit_conf
    if fit_conf > 0 and part_of_bigger_face(
        grey, ps, pips, centre, inv, wh, a, ang, config.square_die_px
    ):
        fit_conf = 0.0
        if square:
            strength = 0.0
    if cut or (square and k == 2 and not _alike_partners(*ps)):
        # (a two seen square on has two round pips of one size: any two pips fit its
        # layout, a top face's and its side face's among them)
        fit_conf = 0.0
    return {
        "value": k,
        "idx": idx,
        "centre": centre,
        "a": a_pips,
        "err": err,
        "box": box,
        "elong": elong,
        "radius": radius,
        "contrast": contrast,
        "size": float(np.sqrt(ext[0] * ext[1]) * 2),
        "wh": wh,
        "a_w": a,
        "body": median_of([p.body for p in ps]),
        "confidence": fit_conf,
        "strength": strength,
        # its pips fainter than the counter asks of a sharp face: some may have been lost
        "faint": darkness < lo + _FAINT_RAMP,
        "cut": cut,
    }


def _layout_fit(err: float) -> float:
    """How well pips sit on a layout (0..1) from the fit's rms error in pip radii."""
    return _unit(1.0 - err / 0.35)


# the directions of the lines a pip group is cut with
_CUT_DIRECTIONS = [
    np.array([np.cos(t), np.sin(t)]) for t in np.deg2rad(np.arange(0.0, 180.0, 10.0))
]


def _line_partitions(
    xy: np.ndarray, cap: int | None = None, limit: int | None = None
) -> list[tuple[float, list[int], list[int]]]:
    """Distinct ways to cut a point set in two with a straight line, with the widest gap
    (in pixels) that line leaves between the two sides; widest gap first. ``cap``: only
    cuts whose sides hold at most that many points; ``limit``: only the first that many.

    A cut is known by the bits of the side holding point 0 (so each cut has one name, and
    that side comes first); the sides of every cut along a direction are running sums. Only
    the cuts given back are spelt out as lists."""
    best: dict[int, float] = {}
    n = len(xy)
    everything = (1 << n) - 1
    # (each direction's projection on its own, as the cut search has always made it)
    proj = np.stack([xy @ direction for direction in _CUT_DIRECTIONS])
    order = np.argsort(proj, axis=1)
    ranked = np.take_along_axis(proj, order, axis=1)
    all_gaps = (ranked[:, 1:] - ranked[:, :-1]).tolist()
    all_sides = np.cumsum(np.left_shift(1, order), axis=1)[:, :-1].tolist()
    for sides, gaps in zip(all_sides, all_gaps, strict=True):
        for side, gap in zip(sides, gaps, strict=True):
            key = side if side & 1 else everything ^ side
            if gap > best.get(key, -1.0):
                best[key] = gap
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    if cap is not None:
        ranked = [(k, g) for k, g in ranked if max(k.bit_count(), n - k.bit_count()) <= cap]
    return [(g, _bits(k, n), _bits(everything ^ k, n)) for k, g in ranked[:limit]]


def _bits(mask: int, n: int) -> list[int]:
    """The indices (of ``n``) whose bit is set in ``mask``, in order."""
    return [i for i in range(n) if mask >> i & 1]


def _face_cached(
    grey: np.ndarray, pips: list[Pip], idx: list[int], config: DiceConfig, cache: dict
) -> dict | None:
    key = frozenset(idx)
    if key not in cache:
        cache[key] = _fit_face(grey, pips, idx, config) if len(idx) <= 6 else None
    return cache[key]


def _explained(faces: list[dict]) -> float:
    """How well a set of faces explains its pips: pips covered, weighted by confidence, less
    half a pip per face (the fewest faces that explain the pips win: a six is not three twos)."""
    return sum(f["confidence"] * f["value"] - 0.5 for f in faces if f["confidence"] > 0)


def _split_fit(
    grey: np.ndarray,
    pips: list[Pip],
    idx: list[int],
    config: DiceConfig,
    depth: int,
    cache: dict,
) -> list[dict]:
    """Fit a pip group as one face; if it fits badly, try cutting it in two with a line
    (a top face and a side face, or two touching dice) and keep the best-explained cut.

    Only the few cuts with the widest gaps, or whose parts already fit as faces, are
    followed further, so the search stays small for crowded groups."""
    key = (frozenset(idx), depth)
    if key in cache:
        return cache[key]
    face = _face_cached(grey, pips, idx, config, cache)
    # a face cut by the image border is not cut further: its parts would misread it
    ok = face is not None and (face["confidence"] >= config.min_confidence or face["cut"])
    if ok or depth == 0 or len(idx) < 2 or len(idx) > 24:
        cache[key] = [face] if face is not None else []
        return cache[key]
    xy = np.array([[pips[i].x, pips[i].y] for i in idx])
    best: list[dict] = [face] if face is not None else []
    best_score = _explained([face] if face is not None else [])
    cap = 6 * 2 ** (depth - 1)  # a part larger than this cannot be cut into faces any more
    ranked = []
    for rank, (_gap, part_a, part_b) in enumerate(_line_partitions(xy, cap, 16)):
        direct = 0.0
        for part in (part_a, part_b):
            f = _face_cached(grey, pips, [idx[i] for i in part], config, cache)
            if f is not None and f["confidence"] >= config.min_confidence:
                direct += f["confidence"] * f["value"]
        ranked.append((-direct, rank, part_a, part_b))
    ranked.sort()
    for _, _, part_a, part_b in ranked[:4]:
        fa = _split_fit(grey, pips, [idx[i] for i in part_a], config, depth - 1, cache)
        fb = _split_fit(grey, pips, [idx[i] for i in part_b], config, depth - 1, cache)
        score = _explained(fa + fb)
        if score > best_score + 1e-9:
            best, best_score = fa + fb, score
    cache[key] = best
    return best


def _merge_faces(
    grey: np.ndarray, pips: list[Pip], faces: list[dict], config: DiceConfig
) -> list[dict]:
    """Two small faces close together may be one face cut in two (a blurred four read as two
    twos): if their pips together fit one face, keep that one face."""
    faces = list(faces)
    changed = True
    while changed:
        changed = False
        for i in range(len(faces)):
            for j in range(i + 1, len(faces)):
                f, g = faces[i], faces[j]
                if f["value"] + g["value"] > 6:
                    continue
                d = float(np.linalg.norm(f["centre"] - g["centre"]))
                if d > 0.5 * (f["size"] + g["size"]):
                    continue
                if not all(same_ellipse(pips[a], pips[b]) for a in f["idx"] for b in g["idx"]):
                    continue
                u = _fit_face(grey, pips, sorted(f["idx"] + g["idx"]), config)
                if u is None or u["confidence"] < config.min_confidence:
                    continue
                if u["confidence"] < 0.8 * max(f["confidence"], g["confidence"]):
                    continue
                faces = [h for k, h in enumerate(faces) if k not in (i, j)] + [u]
                changed = True
                break
            if changed:
                break
    return faces


# a two fitted at least this strongly (its layout fits, its face is bare) is a die's face,
# even when declined (it may be part of a bigger face)
_STRONG_FACE = 0.5
# a two's pips lie this many pip radii apart (2.8 times the grid's half-spacing)
_PARTNER_PIP_RADII = (2.8 * 1.6, 2.8 * 3.4)
# ... and are seen alike (:data:`vision.face_patterns.PARTNER_SHAPE_TOL`)


def _alike_partners(p: Pip, q: Pip) -> bool:
    """Could two pips be of one face? Of just one shape (:data:`PARTNER_SHAPE_TOL`: a side
    face's pips are drawn out more), or both round and about one size: a face and its side
    face stand square to each other, so they never both show round pips, while two round
    pips of one face may be drawn out a little each in its own direction (a two's pips at
    1.19 and 1.12 crossed, as no one ellipse fits them)."""
    if same_ellipse(p, q, PARTNER_SHAPE_TOL):
        return True
    if max(p.elongation, q.elongation) > ROUND_TOP_PIPS:
        return False
    return max(p.radius, q.radius) <= np.sqrt(PARTNER_SHAPE_TOL) * min(p.radius, q.radius)


def _ones_within_twos(
    grey: np.ndarray, pips: list[Pip], faces: list[dict], config: DiceConfig
) -> list[dict]:
    """In a photo of unknown scale, a lone pip is no one when it and a found pip like it
    (:func:`_alike_partners`), as far out as a two's other pip, fit a two strongly (the
    two's layout, its face bare all round): the pip is a two's, whose value is in doubt
    (the two itself may have been declined as part of a bigger face). Two touching ones
    fit no such two: the face square around their pips reaches off the dice."""
    out = []
    for f in faces:
        if len(f["idx"]) == 1 and f["confidence"] > 0:
            i = f["idx"][0]
            p = pips[i]
            for j, q in enumerate(pips):
                if j == i or not _alike_partners(p, q):
                    continue
                reach = float(np.hypot(*(p.whitener() @ np.array([q.x - p.x, q.y - p.y]))))
                if not _PARTNER_PIP_RADII[0] <= reach <= _PARTNER_PIP_RADII[1]:
                    continue
                two = _fit_face(grey, pips, sorted((i, j)), config)
                if two is not None and two["strength"] >= _STRONG_FACE:
                    f = dict(f)
                    f["confidence"] = 0.0
                    break
        out.append(f)
    return out


# a face fitted without another face's pips lies beside it, on the same die, when their
# centres are at most this many of the larger face's box sides apart (a die's side face
# shows right against its top; the top faces of touching dice lie a die's width apart)
_RIVAL_REACH = 1.15


def _rival_faces(
    grey: np.ndarray, pips: list[Pip], groups: list[list[int]], face: dict, config: DiceConfig
) -> list[dict]:
    """Faces the counter refused only for this face's pips: set aside, the other pips of
    its groups (those joined to its pips by bright die body) fit a face strongly (its
    layout, its bare body: :func:`_fit_face`'s ``strength``) or are four or more pips on a
    layout's grid (:func:`_many_pips_on_grid`), which with them there was no face at all
    (a pip of this face on it or just beyond it). Indices into ``pips``. A face the counter
    fitted anyway is left out: it has been weighed against this one already."""
    own = set(face["idx"])
    rest_idx = sorted({i for g in groups if own & set(g) for i in g} - own)
    if not rest_idx:
        return []
    keep = [i for i in range(len(pips)) if i not in own]
    at = {i: k for k, i in enumerate(keep)}
    rest = [pips[i] for i in keep]
    mine = [at[i] for i in rest_idx]
    cache: dict = {}
    whole = _face_cached(grey, rest, mine, config, cache)
    found = _split_fit(grey, rest, mine, config, depth=3, cache=cache)
    out: dict[tuple[int, ...], dict] = {}
    for f in [whole, *found] if whole is not None else found:
        if f["cut"] or not (
            f["strength"] >= config.min_confidence or _many_pips_on_grid(f, config)
        ):
            continue
        idx = tuple(sorted(keep[k] for k in f["idx"]))
        if idx not in out and _fit_face(grey, pips, list(idx), config) is None:
            out[idx] = {**f, "idx": list(idx)}
    return list(out.values())


# a rival of at least this many pips on its layout's grid is a face whatever its bare-body
# check says
_RIVAL_GRID_PIPS = 4


def _many_pips_on_grid(f: dict, config: DiceConfig) -> bool:
    """Do four or more pips sit on the face's layout (its fit alone, before the bare-body
    check)? So many pips on a die's grid are a face: a side face seen nearly square on, its
    body check failed at the die's shaded edge or a pip of the top just beyond, is still a
    face of the die, and which of the two is the top is in doubt (drawn sweep seed 533: a
    six's front face, a five, read as the top beside the six whose body check failed)."""
    return f["value"] >= _RIVAL_GRID_PIPS and _layout_fit(f["err"]) >= config.min_confidence


def _unless_rival_top(
    grey: np.ndarray, pips: list[Pip], groups: list[list[int]], face: dict, config: DiceConfig
) -> dict:
    """The face, declined (and no reading of either reader there) when beside it lies a
    face of its die that the counter refused only for this face's pips
    (:func:`_rival_faces`). The counter refuses a face with a pip of its own shape just
    beyond it (a piece of a bigger face whose other pips were lost); a die at a board's
    edge, seen low, shows a side face almost as squarely as its top, so that face's pips
    pass for the top's own: the top (a five, a three) was refused for its side face's
    pips, and the side face (a six) read alone as the top (drawn sweep seeds 470, 481).
    Two faces of one die each fit well, and only one was weighed as its top: unless this
    one is clearly the more top-like (rounder, bigger pips, brighter: a six beside a two of
    its side face's, flatter, smaller and fainter), which one is, is not known."""
    if not face["idx"] or face["confidence"] <= 0:
        return face
    side = _box_side(face["box"])
    for r in _rival_faces(grey, pips, groups, face, config):
        reach = _RIVAL_REACH * max(side, _box_side(r["box"]))
        if float(np.linalg.norm(r["centre"] - face["centre"])) >= reach:
            continue
        if not clearly_more_top(face, r):
            return {**face, "confidence": 0.0, "no_face": True}
    return face
