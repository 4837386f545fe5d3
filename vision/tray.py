"""Read the dice in the board's trays: a top view of each tray alone, at a known scale.

Only the trays are read, never the whole frame: the board's printed holes and the tokens stay
out of the die reader's view, each tray is seen from straight above whatever the camera's
tilt, and the reading says whose die it is when a board has one tray per player
(Manipulation). The board's homography gives the scale, so the reader knows how big a die
is in the view (a 16 mm die) and works at the size it is tuned on, never enlarging: a tray
seen too coarsely is not read at all (the roll button always works).

When the camera gives a full-resolution image beside the small one the board is read from
(picamera2's main and lores streams, the simulated camera), the trays are cut from the large
image (see :class:`Detail`). A :class:`TrayReader` remembers each tray's last view and
reading: a tray that has not changed since is not read again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from rules.geometry import Board, Region
from vision.dice import MIN_DIE_PX, WORK_DIE_PX, DiceConfig, die_grey, read_dice

DIE_MM = 16.0  # the side of an ordinary die
# around each tray the view shows this much more (a die lying on the tray's edge is whole)
MARGIN_MM = 0.8 * DIE_MM
# a tray seen at fewer frame pixels per board millimetre is not read (a die under MIN_DIE_PX)
MIN_PX_PER_MM = MIN_DIE_PX / DIE_MM
# a tray whose view changed by less than this (grey levels, on a coarse grid of cells
# THUMB_CELL die sides wide) since it was read still holds the same dice: the reading is kept.
# A die's pips and shadow change a cell by 30 or more; the camera's jitter (half a millimetre)
# moves a printed line or the board's edge by less than 10 in a cell that wide
SAME_VIEW = 18.0
THUMB_CELL = 0.5


@dataclass(frozen=True)
class TrayDie:
    """A die read in a tray: its value, its box in the frame, and whose tray it lies in."""

    value: int
    x: int
    y: int
    w: int
    h: int
    confidence: float
    tray: str
    owner: int | None  # the seat the tray belongs to (Manipulation: one tray per player)


DEFAULT_DICE = DiceConfig()  # (each tray's view sets where the camera's nadir lies)


class Detail(Protocol):
    """A camera's full-resolution image beside the frame the board is read from.

    ``scale``: detail pixels per frame pixel along x and y (the two images show the same
    field). ``crop(x0, y0, x1, y1)`` gives that rectangle of the detail image (detail pixels,
    BGR), or None when the camera cannot give it."""

    scale: tuple[float, float]

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray | None: ...


def trays(board: Board) -> list[Region]:
    """The board's dice trays (regions whose name mentions a tray or dice)."""
    return [r for r in board.regions if "tray" in r.name.lower() or "dice" in r.name.lower()]


def native_px_per_mm(to_image: np.ndarray, x: float, y: float) -> float:
    """How many image pixels one board millimetre spans around (x, y) (board mm -> px map)."""
    pts = np.array([[[x, y]], [[x + 1.0, y]], [[x, y + 1.0]]], float)
    p = cv2.perspectiveTransform(pts, to_image).reshape(-1, 2)
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def tray_px_per_mm(board: Board, homography: np.ndarray, detail_scale: float = 1.0) -> dict:
    """{tray name: pixels per board millimetre at its centre} for a frame whose homography
    (frame px -> board mm) is given; ``detail_scale``: detail pixels per frame pixel."""
    to_image = np.linalg.inv(homography)
    return {
        t.name: detail_scale * native_px_per_mm(to_image, t.x + t.w / 2, t.y + t.h / 2)
        for t in trays(board)
    }


def tray_regions(
    board: Board, homography: np.ndarray, margin_mm: float = 2 * MARGIN_MM
) -> list[tuple[int, int, int, int]]:
    """Each tray's bounding rectangle (x0, y0, x1, y1) in the frame's pixels, with a margin
    for the camera's and the board's drift: what a camera must give at full resolution."""
    to_image = np.linalg.inv(homography)
    out = []
    for tray in trays(board):
        x0, y0 = tray.x - margin_mm, tray.y - margin_mm
        x1, y1 = tray.x + tray.w + margin_mm, tray.y + tray.h + margin_mm
        pts = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], float)
        p = cv2.perspectiveTransform(pts, to_image).reshape(-1, 2)
        lo, hi = np.floor(p.min(0)).astype(int), np.ceil(p.max(0)).astype(int)
        out.append((int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1])))
    return out


@dataclass(frozen=True)
class _View:
    """A tray's top view: view px -> board mm (``to_mm``), its size and scale."""

    to_mm: np.ndarray
    width: int
    height: int
    px_per_mm: float


def tray_view(tray: Region, px_per_mm: float, margin_mm: float = MARGIN_MM) -> _View:
    """The top view of a tray and a margin around it, at ``px_per_mm``."""
    x0, y0 = tray.x - margin_mm, tray.y - margin_mm
    to_mm = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]], float)
    w = int(round((tray.w + 2 * margin_mm) * px_per_mm))
    h = int(round((tray.h + 2 * margin_mm) * px_per_mm))
    return _View(to_mm, w, h, px_per_mm)


class _Glance:
    """A glance at a tray (see :func:`_glance`) and its cells' mean grey levels, worked out
    once: each glance is compared with the tray's last view in the next frame too, and, on
    the frame a die lands, with the tray's bare look."""

    def __init__(self, grey: np.ndarray) -> None:
        self.grey = grey
        self._means: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return self.grey.shape

    def means(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`_cell_means` of the glance, framed by :data:`GLANCE_SHIFT` pixels."""
        if self._means is None:
            self._means = _cell_means(self.grey, GLANCE_SHIFT)
        return self._means


@dataclass
class _Seen:
    """What a tray looked like when it was last read, and what was read."""

    thumb: _Glance
    dice: list[TrayDie]


@dataclass
class TrayReader:
    """Reads the trays of a board frame after frame, re-reading a tray only when its view
    changed. ``timings_ms`` holds the last call's cost and ``trays_read`` how many trays it
    really read (the others were unchanged)."""

    config: DiceConfig = DEFAULT_DICE
    die_mm: float = DIE_MM
    timings_ms: dict[str, float] = field(default_factory=dict)
    trays_read: int = 0
    # each tray's camera pixels per board mm in the last call (from the detail when used)
    px_per_mm: dict[str, float] = field(default_factory=dict)
    _seen: dict[tuple[str, str], _Seen] = field(default_factory=dict, repr=False)
    # each tray's look when a read of all of it found no die: later only the parts that
    # changed from it are read
    _empty: dict[tuple[str, str], _Glance] = field(default_factory=dict, repr=False)

    def forget(self) -> None:
        """Read every tray afresh next time (a new game, the camera moved)."""
        self._seen.clear()
        self._empty.clear()

    def read(
        self,
        image: np.ndarray,
        board: Board,
        homography: np.ndarray,
        detail: Detail | None = None,
    ) -> list[TrayDie]:
        """Dice in every tray of ``board``, boxes in ``image``'s pixels. ``homography``:
        image px -> board mm. Only dice whose centre lies inside a tray count."""
        t0 = time.perf_counter()
        found: list[TrayDie] = []
        self.trays_read = 0
        to_image = np.linalg.inv(homography)
        nadir: tuple[float, float] | None = None  # worked out only if a tray is read
        for tray in trays(board):
            key = (board.name, tray.name)
            # a glance at the tray in the frame itself: unchanged, its dice are known
            thumb = _Glance(_glance(image, tray, to_image))
            seen = self._seen.get(key)
            since_seen = _difference(seen.thumb, thumb) if seen is not None else None
            if since_seen is not None and not since_seen.any():
                found.extend(seen.dice)
                continue
            view, source = self._source(image, tray, to_image, detail)
            if source is None:
                self._seen.pop(key, None)
                continue
            self.trays_read += 1
            empty = self._empty.get(key)
            shape = (view.height, view.width)
            # last seen bare: what changed since then is already known
            known = since_seen if seen is not None and seen.thumb is empty else None
            windows = _changed(empty, thumb, shape, self.die_mm * view.px_per_mm, known)
            # only the parts of the view that changed are cut from the camera's image
            parts = [
                (box, source.warp(to_image, _window(view, box), self.config))
                for box in (windows if windows is not None else [(0, 0, view.width, view.height)])
                if min(box[2] - box[0], box[3] - box[1]) >= 16
            ]
            if nadir is None:
                nadir = nadir_mm(board, homography, image.shape)
            dice = self._read_view(parts, view, tray, to_image, nadir)
            if windows is None and not dice:
                self._empty[key] = thumb  # how the tray looks bare, from a read of all of it
            self._seen[key] = _Seen(thumb, dice)
            found.extend(dice)
        self.timings_ms = {"dice": (time.perf_counter() - t0) * 1e3}
        return found

    def _source(
        self,
        image: np.ndarray,
        tray: Region,
        to_image: np.ndarray,
        detail: Detail | None,
    ) -> tuple[_View, _Source | None]:
        """The tray's top view, and the image it is cut from: the detail image when there
        is one, else the frame; None when neither shows the tray finely enough."""
        cx, cy = tray.x + tray.w / 2, tray.y + tray.h / 2
        native = native_px_per_mm(to_image, cx, cy)
        self.px_per_mm[tray.name] = native
        view = tray_view(tray, min(native, WORK_DIE_PX / self.die_mm))
        corners = _view_corners(view, to_image)
        if detail is not None:
            sx, sy = detail.scale
            fine = native * float(np.sqrt(sx * sy))
            if fine * self.die_mm >= MIN_DIE_PX and fine > native:
                view = tray_view(tray, min(fine, WORK_DIE_PX / self.die_mm))
                corners = _view_corners(view, to_image) * [sx, sy]
                x0, y0 = np.floor(corners.min(0)).astype(int) - 2
                x1, y1 = np.ceil(corners.max(0)).astype(int) + 2
                crop = detail.crop(int(x0), int(y0), int(x1), int(y1))
                if crop is not None and crop.size:
                    self.px_per_mm[tray.name] = fine
                    src = np.diag([1 / sx, 1 / sy, 1.0])  # detail px -> frame px
                    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], float)
                    return view, _Source(crop, src @ shift, fine)
        if native * self.die_mm < MIN_DIE_PX:
            return view, None
        return view, _Source(image, np.eye(3), native)

    def _read_view(
        self,
        parts: list[tuple[tuple[int, int, int, int], np.ndarray]],
        view: _View,
        tray: Region,
        to_image: np.ndarray,
        nadir: tuple[float, float],
    ) -> list[TrayDie]:
        """The dice in windows (x0, y0, x1, y1: view pixels) of a tray's view, each given
        with its picture; ``nadir``: the board point below the camera (board mm)."""
        found = []
        warp = to_image @ view.to_mm  # view px -> frame px
        nx, ny = _nadir(view, nadir)
        h, w = view.height, view.width
        for (x0, y0, x1, y1), part in parts:
            pw, ph = x1 - x0, y1 - y0
            config = replace(self.config, nadir=((nx * w - x0) / pw, (ny * h - y0) / ph))
            for die in read_dice(part, config, die_px=self.die_mm * view.px_per_mm):
                x, y, dw, dh = die.x + x0, die.y + y0, die.w, die.h
                cx, cy, _ = view.to_mm @ np.array([x + dw / 2, y + dh / 2, 1.0])
                if not _lies_in(tray, (cx, cy), nadir, self.die_mm):
                    continue
                corners = np.array([[x, y], [x + dw, y], [x + dw, y + dh], [x, y + dh]], float)
                box = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), warp).reshape(-1, 2)
                (bx0, by0), (bx1, by1) = box.min(0), box.max(0)
                found.append(
                    TrayDie(
                        die.value, int(bx0), int(by0), int(bx1 - bx0), int(by1 - by0),
                        die.confidence, tray.name, tray.owner,
                    )
                )  # fmt: skip
        return found


def read_tray_dice(
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    config: DiceConfig = DEFAULT_DICE,
    detail: Detail | None = None,
) -> list[TrayDie]:
    """Dice in every tray of ``board`` in one frame (no memory of earlier frames): see
    :meth:`TrayReader.read`."""
    return TrayReader(config).read(image, board, homography, detail)


def camera_nadir(homography: np.ndarray, shape: tuple[int, ...]) -> tuple[float, float] | None:
    """The board point straight below the camera (board mm), from the board's homography
    (image px -> board mm) of an image of ``shape``, for a pinhole camera whose optical axis
    meets the image's middle and whose pixels are square: the focal length follows from the
    board's right angles, then the camera's pose. None when the camera looks so nearly
    straight down that its tilt cannot be told (then its nadir is under the image's middle,
    see :func:`nadir_mm`)."""
    h, w = shape[:2]
    to_image = np.linalg.inv(homography)
    g = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], float) @ to_image
    g = g / np.linalg.norm(g[:, :2])
    # the board's x and y axes are perpendicular and equally long once the focal length f
    # is undone: two equations in 1 / f^2
    a = np.array(
        [
            g[0, 0] * g[0, 1] + g[1, 0] * g[1, 1],
            g[0, 0] ** 2 + g[1, 0] ** 2 - g[0, 1] ** 2 - g[1, 1] ** 2,
        ]
    )
    b = np.array([g[2, 0] * g[2, 1], g[2, 0] ** 2 - g[2, 1] ** 2])
    inv_f2 = -float(a @ b) / max(float(a @ a), 1e-30)
    if not np.isfinite(inv_f2) or inv_f2 <= 0:
        return None
    f = 1.0 / np.sqrt(inv_f2)
    if not 0.2 * max(w, h) <= f <= 10.0 * max(w, h):
        return None  # the tilt is too small to fix the focal length
    m = np.diag([1 / f, 1 / f, 1.0]) @ g
    m /= 0.5 * (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] < 0:
        m = -m  # the board lies in front of the camera
    r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    centre = -rot.T @ t
    return float(centre[0]), float(centre[1])


def nadir_mm(board: Board, homography: np.ndarray, shape: tuple[int, ...]) -> tuple[float, float]:
    """The board point below the camera (board mm): see :func:`camera_nadir`; where the
    camera's pose cannot be told, the board's centre (the camera hangs over the board)."""
    found = camera_nadir(homography, shape)
    return found if found is not None else (board.width / 2, board.height / 2)


# a die's raised top face is seen shifted away from the camera's nadir, by up to this many
# die sides in a top view at the board's height (a camera 400 mm up, a tray 200 mm out)
PARALLAX = 0.5


def _lies_in(
    tray: Region, top: tuple[float, float], nadir: tuple[float, float], die_mm: float
) -> bool:
    """Does a die whose top face's middle shows at ``top`` (board mm) lie in the tray? Its
    footprint lies between there and up to :data:`PARALLAX` die sides back towards the
    nadir, so a die lying at the tray's edge still counts, and never for a neighbouring
    tray (the shift points away from the board's middle, where the camera hangs)."""
    away = np.array(top) - np.array(nadir)
    unit = away / max(float(np.linalg.norm(away)), 1e-9)
    for back in np.linspace(0.0, PARALLAX * die_mm, 5):
        x, y = np.array(top) - back * unit
        if tray.x <= x <= tray.x + tray.w and tray.y <= y <= tray.y + tray.h:
            return True
    return False


def _nadir(view: _View, nadir: tuple[float, float]) -> tuple[float, float]:
    """Where the point below the camera (board mm) lies in a tray's view, as fractions of
    its width and height (often far outside it): a die's side faces show on the side of
    its top face that looks towards it."""
    x, y, w = np.linalg.inv(view.to_mm) @ np.array([nadir[0], nadir[1], 1.0])
    return float(x / w / view.width), float(y / w / view.height)


def _window(view: _View, box: tuple[int, int, int, int]) -> _View:
    """The part (x0, y0, x1, y1: view pixels) of a view, as a view of its own."""
    x0, y0, x1, y1 = box
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], float)
    return _View(view.to_mm @ shift, x1 - x0, y1 - y0, view.px_per_mm)


@dataclass(frozen=True)
class _Source:
    """An image a tray's view is cut from: the frame, or a crop of the camera's detail."""

    image: np.ndarray
    to_frame: np.ndarray  # source px -> frame px
    px_per_mm: float  # source pixels per board mm at the tray

    def warp(self, to_image: np.ndarray, view: _View, config: DiceConfig) -> np.ndarray:
        return _warp(self.image, to_image, view, self.to_frame, self.px_per_mm, config)


def _view_corners(view: _View, to_image: np.ndarray) -> np.ndarray:
    """The view's corners in frame pixels."""
    w, h = view.width, view.height
    pts = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], float)
    return cv2.perspectiveTransform(pts, to_image @ view.to_mm).reshape(-1, 2)


def _warp(
    source: np.ndarray,
    to_image: np.ndarray,
    view: _View,
    source_to_frame: np.ndarray,
    native: float,
    config: DiceConfig,
) -> np.ndarray:
    """The view cut from ``source`` (whose pixels map to frame pixels by
    ``source_to_frame``; ``native``: its pixels per board mm). Only the part under the view
    is touched, shrunk first by area averaging when it is much finer than the view (a plain
    warp would skip pixels and alias the pips). A part that is shrunk is first made the die
    reader's grey (:func:`vision.dice.die_grey` for ``config``), which is all the reader
    looks at: averaging and warping one channel instead of three costs half as much."""
    view_to_source = np.linalg.inv(source_to_frame) @ to_image @ view.to_mm
    w, h = view.width, view.height
    pts = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], float)
    corners = cv2.perspectiveTransform(pts, view_to_source).reshape(-1, 2)
    sh, sw = source.shape[:2]
    x0, y0 = np.clip(np.floor(corners.min(0)).astype(int) - 2, 0, [sw - 1, sh - 1])
    x1, y1 = np.clip(np.ceil(corners.max(0)).astype(int) + 3, [x0 + 1, y0 + 1], [sw, sh])
    part = source[y0:y1, x0:x1]
    to_part = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    factor = native / view.px_per_mm
    if factor > 1.4:
        if part.ndim == 3:
            part = die_grey(part, config)
        part = cv2.resize(part, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
        to_part = np.diag([1 / factor, 1 / factor, 1.0]) @ to_part
    return cv2.warpPerspective(
        part, to_part @ view_to_source, (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip


# a tray that changed in more than this share of its cells since it was seen bare is read
# whole (the light or the camera moved)
_MOSTLY_CHANGED = 0.3


# a window reaches this many die sides beyond what changed: a die's edges may change the
# coarse glance too little to count, and the reader declines a face near a window's edge
_WINDOW_REACH = 1.5


def _changed(
    empty: _Glance | None,
    thumb: _Glance,
    shape: tuple[int, ...],
    die_px: float,
    changed: np.ndarray | None = None,
) -> list[tuple[int, int, int, int]] | None:
    """Windows (view px: x0, y0, x1, y1) around what changed since the tray was seen bare,
    each reaching :data:`_WINDOW_REACH` die sides beyond the change; None: read the whole
    tray. ``changed``: the cells that differ between the two, when already known."""
    if empty is None or empty.shape != thumb.shape:
        return None
    if changed is None:
        changed = _difference(empty, thumb)
    if changed.mean() > _MOSTLY_CHANGED:
        return None
    h, w = shape[:2]
    sy, sx = h / changed.shape[0], w / changed.shape[1]
    reach = _WINDOW_REACH * die_px
    n, _, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, bw, bh = stats[i, :4]
        boxes.append([x * sx - reach, y * sy - reach, (x + bw) * sx + reach, (y + bh) * sy + reach])
    merged = True
    while merged:  # windows that overlap are read as one
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [
        (max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1))))
        for x0, y0, x1, y1 in boxes
    ]


# the glance at a tray: a top view at this many px per board mm, from the frame
GLANCE_PX_PER_MM = 1.0


def _glance(image: np.ndarray, tray: Region, to_image: np.ndarray) -> np.ndarray:
    """A coarse grey picture of a tray and its margin (1 px per board mm), cut from the
    frame, to tell whether the tray changed (compared in cells half a die wide, see
    :func:`_difference`); it costs a small fraction of a read."""
    view = tray_view(tray, GLANCE_PX_PER_MM)
    warp = to_image @ view.to_mm
    small = cv2.warpPerspective(
        image, warp, (view.width, view.height), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small


# the board's homography, found afresh in every frame, places a tray up to this many glance
# pixels (board mm) off: two glances are compared at every shift up to it
GLANCE_SHIFT = 1


def _cell_means(grey: np.ndarray, pad: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The mean grey level of a cell half a die wide around every pixel of a glance framed
    by ``pad`` replicated pixels, and the rows and columns (in that framed image) of the
    middles of the glance's own cells."""
    cell = max(1, int(round(THUMB_CELL * DIE_MM * GLANCE_PX_PER_MM)))
    framed = cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    means = cv2.blur(framed.astype(np.float32), (cell, cell), borderType=cv2.BORDER_REPLICATE)
    h, w = grey.shape
    rows = pad + cell // 2 + cell * np.arange(max(1, h // cell))
    cols = pad + cell // 2 + cell * np.arange(max(1, w // cell))
    return means, np.minimum(rows, framed.shape[0] - 1), np.minimum(cols, framed.shape[1] - 1)


def _difference(a: _Glance, b: _Glance) -> np.ndarray | None:
    """The cells (0/1) in which two glances at a tray differ, whichever way up to
    :data:`GLANCE_SHIFT` px one is moved (the homography's own jitter moves the tray's
    printed frame across a cell's edge; a die landing changes its cells by 30 grey levels
    or more at any shift). The outer ring of cells, over the margin around the tray, is
    left out: the board's edge and the table there shift with the camera's jitter, and a
    die counts only with its centre inside the tray. None when the glances differ in size
    (the camera or the board moved: nothing can be compared)."""
    if a.shape != b.shape:
        return None
    k = GLANCE_SHIFT
    means_a, rows, cols = a.means()
    means_b, _, _ = b.means()
    cells = means_a[np.ix_(rows, cols)]
    least = np.abs(cells - means_b[np.ix_(rows, cols)])
    if min(least.shape) > 2:
        least[0, :] = least[-1, :] = 0
        least[:, 0] = least[:, -1] = 0
    if np.any(least >= SAME_VIEW):  # unchanged as it is seen: no need to move it
        # every shift at once: its rows and its columns, each held to the framed glance
        height, width = means_b.shape
        shifts = np.arange(-k, k + 1)
        ys = np.clip(rows[None, :] + shifts[:, None], 0, height - 1)
        xs = np.clip(cols[None, :] + shifts[:, None], 0, width - 1)
        moved = means_b[ys[:, None, :, None], xs[None, :, None, :]]  # dy, dx, row, col
        least = np.minimum(least, np.abs(cells - moved).min(axis=(0, 1)))
    changed = (least >= SAME_VIEW).astype(np.uint8)
    if min(changed.shape) > 2:
        changed[0, :] = changed[-1, :] = 0
        changed[:, 0] = changed[:, -1] = 0
    return changed
