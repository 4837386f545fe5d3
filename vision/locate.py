"""Find the board in a frame: ArUco corner markers -> game and homography.

Each game prints four DICT_4X4_50 markers whose ids (board.marker_ids) name both the game and the
corner. Every marker corner seen gives one image <-> board-millimetre correspondence; with two or
more markers the homography is fitted from all of them. With fewer (a hand or a cup over the
corners) the last good homography is reused if it agrees with what is still visible.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from rules.geometry import Board
from vision import aruco
from vision.config import VisionConfig, check_frame
from vision.marker_codebook import read_rejected
from vision.marker_spread import spread_fit


@dataclass(frozen=True)
class Marker:
    id: int
    corners: np.ndarray  # 4x2 float image px, ArUco order TL, TR, BR, BL
    by_codebook: bool = False  # read under glare by `vision.marker_codebook`, not by ArUco


@dataclass(frozen=True)
class Location:
    """Where the board is: the game's board and image px -> board mm homography."""

    board: Board
    homography: np.ndarray  # 3x3 image px -> board mm
    markers: tuple[int, ...]  # marker ids seen in this frame that belong to the board
    source: str  # "markers" (fitted on this frame) or "last" (the previous homography reused)
    error_mm: float  # RMS reprojection error of the seen marker corners, board mm
    marker_corners: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def to_image(self) -> np.ndarray:
        """Board mm -> image px."""
        return np.linalg.inv(self.homography)


_DETECTORS: dict[float, aruco.Detect] = {}
_FORGIVING: aruco.Detect | None = None  # built on first use (few frames need it)
ROI_MARGIN = 16  # grey pixels kept around a window: sub-pixel refinement stays well inside
FLAT_CELLS = 2.0  # a marker's contrast is flattened in windows this many cells across
FLAT_FLOOR = 24.0  # grey levels: less local contrast than this is noise, not print
MARKER_CELLS = 6  # a DICT_4X4_50 marker is 6 cells across (4 bits and its black border)
GLARE_CELL_PX = 6.0  # a marker cell's px to flatten over where no marker says (a far board's)


def _detector_params(config: VisionConfig, min_perimeter_rate: float):
    params = aruco.detector_parameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE  # refined at full size below
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 23
    params.adaptiveThreshWinSizeStep = 9
    params.minMarkerPerimeterRate = min_perimeter_rate
    # a small marker's bits are read from the middle of each cell, finely sampled: blur and
    # JPEG smear a cell's edges into its neighbours
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.25
    return params


def _detector(config: VisionConfig, min_perimeter_rate: float) -> aruco.Detect:
    detect = _DETECTORS.get(min_perimeter_rate)
    if detect is None:
        if len(_DETECTORS) > 256:  # window sizes vary a little from frame to frame
            _DETECTORS.clear()
        params = _detector_params(config, min_perimeter_rate)
        detect = aruco.make_detector(aruco.marker_dictionary(), params)
        _DETECTORS[min_perimeter_rate] = detect
    return detect


def _min_perimeter_px(config: VisionConfig, frame_shape: tuple[int, ...]) -> int:
    """The smallest marker outline (in contour pixels, at detect_scale) a full search accepts."""
    longer = max(round(side * config.detect_scale) for side in frame_shape[:2])
    return int(config.min_marker_perimeter * longer)


def _scaled(config: VisionConfig, gray: np.ndarray) -> np.ndarray:
    """The grey image at config.detect_scale, where markers are searched."""
    scale = config.detect_scale
    if scale == 1.0:
        return gray
    return cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def _in_frame(config: VisionConfig, corners, origin=(0, 0)) -> list[np.ndarray]:
    """ArUco's corners, found at detect_scale in a window at `origin` of the scaled image,
    as float32 frame pixels."""
    scale = config.detect_scale
    shift = np.array(origin, np.float32)
    return [(c.reshape(4, 2).astype(np.float32) + shift + 0.5) / scale - 0.5 for c in corners]


def _detect_scaled(config: VisionConfig, small: np.ndarray, min_perimeter_px: int | None = None):
    """(corners in frame px, ids) of the markers in an image already at detect_scale.

    `min_perimeter_px` holds a window to the smallest marker the full frame's search accepts
    (ArUco scales its limit by the image it is given: in a small window nearly every speck of
    print would be a candidate, and each costs time).
    """
    rate = config.min_marker_perimeter
    if min_perimeter_px is not None:
        rate = (min_perimeter_px + 0.5) / max(small.shape)
    corners, ids = _detector(config, rate)(small)
    if ids is None or len(ids) == 0:
        return [], []
    return _in_frame(config, corners), ids.ravel().tolist()


def _detect_raw(config: VisionConfig, gray: np.ndarray, min_perimeter_px: int | None = None):
    """(corners in `gray`'s px, ids): `gray` searched at config.detect_scale."""
    return _detect_scaled(config, _scaled(config, gray), min_perimeter_px)


def _refine(config: VisionConfig, gray: np.ndarray, pts: np.ndarray) -> None:
    """Corners to sub-pixel precision on the full-size grey image, in place."""
    win = max(2, int(round(2.0 / config.detect_scale)))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 0.05)
    cv2.cornerSubPix(gray, pts.reshape(-1, 1, 2), (win, win), (-1, -1), crit)


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _flattened(gray: np.ndarray, cell_px: float) -> np.ndarray:
    """`gray` with its local darkest and brightest (in a window FLAT_CELLS marker cells across)
    stretched to 0 and 255. Glare on a glossy print adds light that fades across a marker:
    its black cells on the bright side grow lighter than its white cells elsewhere, and no
    single threshold reads its bits (ArUco finds the outline, then rejects it). Within a cell
    of every bit lies black border or a black bit, so the local stretch reads each bit
    against its own."""
    k = max(3, round(FLAT_CELLS * cell_px) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    low = cv2.blur(cv2.erode(gray, disc), (k, k)).astype(np.float32)
    high = cv2.blur(cv2.dilate(gray, disc), (k, k)).astype(np.float32)
    stretched = (gray.astype(np.float32) - low) * 255.0 / np.maximum(high - low, FLAT_FLOOR)
    return np.clip(stretched, 0, 255).astype(np.uint8)


def _search_windows(
    config: VisionConfig, image: np.ndarray, rois, cells: list[float] | None = None
) -> tuple[list, list]:
    """Markers in each window, refined there: only the windows (and a margin) are made grey.

    Each window is searched exactly as before (same pixels, same smallest marker as the full
    search); the margin is wider than sub-pixel refinement can reach, so the refined corners
    are those the whole grey frame would give. With `cells` (a marker cell's size in px per
    window) each window is searched with its contrast flattened (`_flattened`); corners are
    still refined on the grey frame itself.
    """
    h, w = image.shape[:2]
    min_px = _min_perimeter_px(config, image.shape)
    all_pts: list[np.ndarray] = []
    all_ids: list[int] = []
    for n, (x0, y0, x1, y1) in enumerate(rois):  # `cells`, when given, one per window
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 16 or y1 - y0 < 16:
            continue
        gx0, gy0 = max(0, x0 - ROI_MARGIN), max(0, y0 - ROI_MARGIN)
        gx1, gy1 = min(w, x1 + ROI_MARGIN), min(h, y1 + ROI_MARGIN)
        gray = _grey(image[gy0:gy1, gx0:gx1])
        seen = gray if cells is None else _flattened(gray, cells[n])
        pts, ids = _detect_raw(config, seen[y0 - gy0 : y1 - gy0, x0 - gx0 : x1 - gx0], min_px)
        if not ids:
            continue
        local = np.concatenate(pts) + np.array([x0 - gx0, y0 - gy0], np.float32)
        if config.refine_corners:
            _refine(config, gray, local)
        all_pts.append(local + np.array([gx0, gy0], np.float32))
        all_ids += ids
    return all_pts, all_ids


def detect_markers(
    config: VisionConfig,
    image: np.ndarray,
    rois: list[tuple[int, int, int, int]] | None = None,
    cells: list[float] | None = None,
) -> list[Marker]:
    """DICT_4X4_50 markers in a BGR or grey frame, corners refined to sub-pixel.

    With `rois` ([(x0, y0, x1, y1), ...] image px) only those windows are searched; with
    `cells` too (a marker cell's px per window), with their contrast flattened.
    """
    check_frame(image)
    if rois is not None:
        return _markers(*_search_windows(config, image, rois, cells))
    gray = _grey(image)
    return _whole_frame(config, gray, _scaled(config, gray))


def _whole_frame(config: VisionConfig, gray: np.ndarray, small: np.ndarray) -> list[Marker]:
    """Every marker in the frame (`small`: `gray` at detect_scale), refined on `gray`."""
    all_pts, all_ids = _detect_scaled(config, small)
    if all_ids and config.refine_corners:
        all_pts = [np.concatenate(all_pts)]
        _refine(config, gray, all_pts[0])
    return _markers(all_pts, all_ids)


def _markers(all_pts: list[np.ndarray], all_ids: list[int]) -> list[Marker]:
    """One Marker per id: the same marker seen twice (overlapping windows) is kept once, two
    different markers with one id (a misread, a second print) are both dropped."""
    if not all_ids:
        return []
    pts = np.concatenate(all_pts).astype(np.float32)
    found: dict[int, Marker | None] = {}
    for i, marker_id in enumerate(all_ids):
        corners = pts[4 * i : 4 * i + 4].astype(np.float64)
        if marker_id in found:
            prev = found[marker_id]
            if prev is not None and np.abs(prev.corners - corners).max() > 3.0:
                found[marker_id] = None
            continue
        found[marker_id] = Marker(int(marker_id), corners)
    return [m for m in found.values() if m is not None]


# three markers leave no fourth to check the fit across the board: a strong lens's bend, fitted
# as a plane by three that missed their corners by 1.48 mm (3.3 px), put spaces 11 mm off
# where the fourth was missing, and five tokens were read on their neighbours' spaces
THREE_MARKERS_SHARE = 0.8  # of config.max_marker_error_mm, for a fit on three markers ...
# ... or, within that bar, this many RMS image px: a lens bends the image in pixels, and corners
# are found to a pixel or so whatever the board's size in the frame, so a small board's fit
# misses its corners by more millimetres, not more pixels (1.21 mm, 1.9 px: every space within
# 1 mm)
THREE_MARKERS_PX = 2.5

GLANCE_MARGIN = 16  # scaled px around a glanced window: beyond ArUco's threshold window (23)


def _search_frame(config: VisionConfig, image: np.ndarray, boards) -> list[Marker]:
    """All markers in a frame with no board known yet, as `detect_markers` finds them.

    First a glance at half the search scale, which costs a third as much: if it names one
    board and sees two or more of its markers, that board's four marker windows are searched
    at the search scale, cut from the same scaled frame the full search uses (with a margin
    wider than ArUco's threshold window, so a marker found there has the very corners the
    full search gives it). If that finds all four, they are the answer; else (and after an
    inconclusive glance) the whole frame is searched as before.
    """
    gray = _grey(image)
    small = _scaled(config, gray)
    glanced = _glance(config, gray, small, boards)
    found = glanced if glanced is not None else _whole_frame(config, gray, small)
    if config.detect_scale < 1.0 and _most_of_one_board(found, boards) < 3:
        # a board far from the camera: its markers' cells too small to read at the search
        # scale, and fewer than three place nothing (two only roughly: where they say the
        # others lie, `_look_closer` may miss them)
        finer = _whole_frame(replace(config, detect_scale=1.0), gray, gray)
        if _most_of_one_board(finer, boards) > _most_of_one_board(found, boards):
            found = finer
    if _most_of_one_board(found, boards) < 3:
        # blur and JPEG can flip a bit of a small marker: read once more, letting one wrong
        # bit be corrected (only here: a misread id is then likelier, and the board's fit
        # still needs three markers that agree with its layout)
        forgiving = _forgiving_whole_frame(config, gray)
        if _most_of_one_board(forgiving, boards) > _most_of_one_board(found, boards):
            found = forgiving
    if _most_of_one_board(found, boards) < 3:
        # glare fading across glossy markers, and too few found to say where the others lie
        # (`_look_closer` flattens only where they do): the whole frame once more, its
        # contrast flattened as those windows' is
        flattened = _flattened_whole_frame(config, gray, found)
        if _most_of_one_board(flattened, boards) > _most_of_one_board(found, boards):
            found = flattened
    if _most_of_one_board(found, boards) < 3:
        # glare too uneven for any one threshold: the outlines left unread, read by which
        # marker of the boards fits their cells best (`vision.marker_codebook`)
        found = found + _codebook_markers(config, gray, found, boards)
    return found


def _codebook_markers(config: VisionConfig, gray: np.ndarray, found: list[Marker], boards):
    """Markers of the `boards` not in `found`, read from the full-size frame's rejected
    outlines by the codebook, corners refined on `gray`."""
    known = {m.id for m in found}
    wanted = {i for b in boards for i in b.marker_ids} - known
    params = _detector_params(config, config.min_marker_perimeter)
    outlines = aruco.rejected_outlines(aruco.marker_dictionary(), params, gray)
    read = read_rejected(gray, outlines, wanted)
    if not read:
        return []
    pts = np.concatenate([corners for _, corners in read]).astype(np.float32)
    if config.refine_corners:
        _refine(replace(config, detect_scale=1.0), gray, pts)
    return [replace(m, by_codebook=True) for m in _markers([pts], [i for i, _ in read])]


def _flattened_whole_frame(config: VisionConfig, gray: np.ndarray, found: list[Marker]):
    """Every marker in the full-size frame with its contrast flattened (`_flattened`) over
    cells the size of the markers found (else GLARE_CELL_PX), corners refined on `gray`."""
    sides = [np.linalg.norm(np.diff(m.corners, axis=0, append=m.corners[:1]), axis=1).mean()
             for m in found]  # fmt: skip
    cell = float(np.median(sides)) / MARKER_CELLS if sides else GLARE_CELL_PX
    return _whole_frame(replace(config, detect_scale=1.0), gray, _flattened(gray, cell))


def markers_in_frame(config: VisionConfig, image: np.ndarray, boards) -> list[Marker]:
    """Every marker a search with no board known finds, as `locate` searches (its every
    fallback): what a message about a board that could not be placed should name."""
    check_frame(image)
    return _search_frame(config, image, boards)


def _forgiving_whole_frame(config: VisionConfig, gray: np.ndarray) -> list[Marker]:
    """Every marker in the full-size frame, one wrong bit per marker corrected."""
    global _FORGIVING
    if _FORGIVING is None:
        params = _detector_params(config, config.min_marker_perimeter)
        params.errorCorrectionRate = 1.0  # DICT_4X4_50 corrects one bit at this rate
        _FORGIVING = aruco.make_detector(aruco.marker_dictionary(), params)
    corners, ids = _FORGIVING(gray)
    if ids is None or len(ids) == 0:
        return []
    full = replace(config, detect_scale=1.0)
    pts = [np.concatenate(_in_frame(full, corners))]
    if config.refine_corners:
        _refine(full, gray, pts[0])
    return _markers(pts, ids.ravel().tolist())


def _most_of_one_board(markers: list[Marker], boards) -> int:
    """How many markers of any one board are among `markers`."""
    seen = {m.id for m in markers}
    return max((len(seen & set(b.marker_ids)) for b in boards), default=0)


def _glance(config: VisionConfig, gray: np.ndarray, small: np.ndarray, boards) -> list | None:
    """The markers of the one board a half-scale glance names, or None (search everything)."""
    if min(small.shape) < 128:
        return None
    tiny = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    corners, ids = _detector(config, config.min_marker_perimeter)(tiny)
    if ids is None or len(ids) < 2:
        return None
    seen = [Marker(int(i), c.reshape(4, 2).astype(np.float64) * 2.0 + 0.5) for c, i in
            zip(corners, ids.ravel(), strict=True)]  # fmt: skip
    board = identify_game(seen, boards)
    if board is None:
        return None
    squares = board.marker_squares()
    mine = [m for m in seen if m.id in squares]
    if len(mine) < 2:
        return None
    h = _fit(mine, squares)
    if h is None:
        return None
    to_small = np.linalg.inv(h)  # board mm -> px of `small`, where the windows are cut
    rows, cols = small.shape
    min_px = _min_perimeter_px(config, gray.shape)
    all_pts: list[np.ndarray] = []
    all_ids: list[int] = []
    for x0, y0, x1, y1 in marker_windows(board, to_small, grow=1.8, pad=GLANCE_MARGIN):
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(cols, x1), min(rows, y1)
        if x1 - x0 < 16 or y1 - y0 < 16:
            return None
        found, found_ids = _detector(config, (min_px + 0.5) / max(y1 - y0, x1 - x0))(
            small[y0:y1, x0:x1]
        )
        if found_ids is not None and len(found_ids):
            all_pts += _in_frame(config, found, (x0, y0))
            all_ids += found_ids.ravel().tolist()
    if not set(board.marker_ids) <= set(all_ids):
        return None
    if config.refine_corners:
        pts = np.concatenate(all_pts)
        _refine(config, gray, pts)
        all_pts = [pts]
    return _markers(all_pts, all_ids)


def marker_windows(
    board: Board, to_image: np.ndarray, grow: float = 1.8, pad: int = 12
) -> list[tuple[int, int, int, int]]:
    """Image windows where the board's markers should be, given board mm -> image px."""
    rois = []
    for square in board.marker_squares().values():
        sq = np.array([square], np.float64)
        c = sq[0].mean(0)
        big = c + grow * (sq[0] - c)
        p = cv2.perspectiveTransform(big[None], to_image)[0]
        lo, hi = p.min(0), p.max(0)
        rois.append((int(lo[0]) - pad, int(lo[1]) - pad, int(hi[0]) + pad, int(hi[1]) + pad))
    return rois


def _fit(markers: list[Marker], squares: dict) -> np.ndarray | None:
    """Image px -> board mm from the markers' corners (least squares over all of them)."""
    h, _ = cv2.findHomography(
        np.concatenate([m.corners for m in markers]),
        np.array([p for m in markers for p in squares[m.id]], np.float64), 0,
    )  # fmt: skip
    return h


def _look_closer(config: VisionConfig, image: np.ndarray, board: Board, markers: list[Marker]):
    """Two markers fix the board only roughly (small, far apart from the spaces they place):
    where some of the board's markers were not found at the search scale, they are looked
    for again at full resolution, where the markers found say they should be."""
    squares = board.marker_squares()
    mine = [m for m in markers if m.id in squares]
    missing = [i for i in squares if i not in {m.id for m in mine}]
    if not missing or len(mine) < 2 or config.detect_scale >= 1.0:
        return markers
    rough = _fit(mine, squares)
    if rough is None:
        return markers
    to_image = np.linalg.inv(rough)
    windows = marker_windows(board, to_image)
    wanted = [w for i, w in zip(squares, windows, strict=True) if i in missing]
    fine = replace(config, detect_scale=1.0)
    found = [m for m in detect_markers(fine, image, wanted) if m.id in missing]
    still = [i for i in missing if i not in {m.id for m in found}]
    if still:  # glare across a marker: its bits read against their own neighbourhood
        looks = [(w, _cell_px(squares[i], to_image))
                 for i, w in zip(squares, windows, strict=True) if i in still]  # fmt: skip
        rois, cells = [w for w, _ in looks], [c for _, c in looks]
        found += [m for m in detect_markers(fine, image, rois, cells) if m.id in still]
    return markers + found


def _cell_px(square, to_image: np.ndarray) -> float:
    """The size in image px of one of a marker's 6x6 cells (4x4 bits and a black border)."""
    corners = cv2.perspectiveTransform(np.array([square], np.float64), to_image)[0]
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.mean()) / 6.0


def _consistent_fit(config: VisionConfig, mine: list[Marker], squares: dict):
    """(homography, error mm) fitted to all the board's markers found, or else to the three
    that agree best where a fourth does not (a hand over its edge or glare on it bends its
    corners); None when no fit is within `config.max_marker_error_mm`."""
    whole = _fit_within(config, mine, squares)
    if whole is not None or len(mine) != 4:
        return whole
    threes = [_fit_within(config, [m for m in mine if m is not left], squares) for left in mine]
    return min((fit for fit in threes if fit is not None), key=lambda fit: fit[1], default=None)


def _fit_within(config: VisionConfig, markers: list[Marker], squares: dict):
    """(homography, error mm) fitted to `markers`, or None when it misses their corners by
    more than `config.max_marker_error_mm`, even with the photo's spread of the markers'
    black edge taken out (`vision.marker_spread`)."""
    img_pts = np.concatenate([m.corners for m in markers])
    mm_pts = np.array([p for m in markers for p in squares[m.id]], np.float64)
    whole = len(markers) == 4
    fitted = _fit_within_as(config, _fit(markers, squares), img_pts, mm_pts, whole)
    if fitted is not None:
        return fitted
    spread = spread_fit(img_pts, mm_pts)
    if spread is None:
        return None
    return _fit_within_as(config, spread[0], img_pts, spread[1], whole)


def _fit_within_as(config: VisionConfig, h, img_pts: np.ndarray, mm_pts: np.ndarray, whole: bool):
    """(h, error mm) where `h` maps the corners `img_pts` close enough to `mm_pts`, else None
    (`whole`: all four markers, else the bar for three applies too)."""
    if h is None:
        return None
    err = reprojection_mm(h, img_pts, mm_pts)
    if err > config.max_marker_error_mm:
        return None
    if not whole and err > THREE_MARKERS_SHARE * config.max_marker_error_mm:
        if _reprojection_px(h, img_pts, mm_pts) > THREE_MARKERS_PX:
            return None
    return h, err


def identify_game(markers: list[Marker], boards: list[Board] | tuple[Board, ...]) -> Board | None:
    """The board whose marker ids were seen most (ties: None, the game is ambiguous)."""
    seen = {m.id for m in markers}
    scored = sorted(
        ((len(seen & set(b.marker_ids)), i) for i, b in enumerate(boards)), reverse=True
    )
    if not scored or scored[0][0] == 0:
        return None
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    return boards[scored[0][1]]


def reprojection_mm(h: np.ndarray, img_pts: np.ndarray, mm_pts: np.ndarray) -> float:
    proj = cv2.perspectiveTransform(img_pts[None].astype(np.float64), h)[0]
    return float(np.sqrt(np.mean(np.sum((proj - mm_pts) ** 2, axis=1))))


def _reprojection_px(h: np.ndarray, img_pts: np.ndarray, mm_pts: np.ndarray) -> float:
    """RMS image px between the corners found and the board's, mapped back into the image."""
    back = cv2.perspectiveTransform(mm_pts[None].astype(np.float64), np.linalg.inv(h))[0]
    return float(np.sqrt(np.mean(np.sum((back - img_pts) ** 2, axis=1))))


# the board each recently returned homography was fitted to (image px -> that board's mm)
_FITTED_TO: dict[bytes, str] = {}


def _remember(homography: np.ndarray, board: Board) -> None:
    if len(_FITTED_TO) >= 16:
        del _FITTED_TO[next(iter(_FITTED_TO))]
    _FITTED_TO[np.asarray(homography, np.float64).tobytes()] = board.name


def _tracked_first(boards, last_homography) -> list[Board]:
    """The candidates, the board `last_homography` was fitted to first: its markers' windows
    are where to look; another board's windows under that homography rarely hold anything."""
    name = _FITTED_TO.get(np.asarray(last_homography, np.float64).tobytes())
    return sorted(boards, key=lambda b: b.name != name)


def locate(
    config: VisionConfig,
    image: np.ndarray,
    boards: list[Board] | tuple[Board, ...],
    last_homography: np.ndarray | None = None,
    markers: list[Marker] | None = None,
) -> Location | None:
    """Recognise the game and fit image px -> board mm; None when the board cannot be found."""
    if markers is None and last_homography is not None and config.track:
        # tracking: look only where the markers were; a full search if that is not enough
        to_image = np.linalg.inv(np.asarray(last_homography, np.float64))
        for candidate in _tracked_first(boards, last_homography):
            found = detect_markers(config, image, marker_windows(candidate, to_image))
            if len({m.id for m in found} & set(candidate.marker_ids)) >= 3:
                markers = found
                break
    if markers is None:
        check_frame(image)
        markers = _search_frame(config, image, boards)
    board = identify_game(markers, boards)
    if board is None:
        return None
    squares = board.marker_squares()
    markers = _look_closer(config, image, board, markers)
    # in id order, so the fit does not depend on the order a search happened to find them
    mine = sorted((m for m in markers if m.id in squares), key=lambda m: m.id)
    img_pts = np.concatenate([m.corners for m in mine])
    mm_pts = np.array([p for m in mine for p in squares[m.id]], np.float64)
    corners = {m.id: m.corners for m in mine}
    ids = tuple(sorted(corners))
    if last_homography is not None:
        last = np.asarray(last_homography, np.float64)
        last_err = reprojection_mm(last, img_pts, mm_pts)
    trust_last = last_homography is not None and last_err <= config.max_marker_error_mm
    # two markers alone place far spaces too roughly to read them (at the markers' corners a
    # fit within 1.5 mm is half a spacing out across the board): three at least, or the
    # last fit where these two still agree with it
    # (a marker read under glare by the codebook places the board only as the holes confirm)
    by_codebook = any(m.by_codebook for m in mine)
    fitted = _consistent_fit(config, mine, squares) if len(mine) >= 3 and not by_codebook else None
    if fitted is not None:
        h, err = fitted
        h = h / h[2, 2]
        _remember(h, board)
        return Location(board, h, ids, "markers", err, corners)
    if trust_last:
        return Location(board, last, ids, "last", last_err, corners)
    if len(mine) == 2 or (by_codebook and len(mine) > 2):
        # (a hand over a corner): two, where the board's holes confirm the fit grown from them
        from vision.two_markers import grown_from_two  # (it looks for holes: vision.register)

        grown = grown_from_two(image, board, img_pts, mm_pts)
        if grown is not None:
            source = "two markers and holes" if len(mine) == 2 else "markers and holes"
            return Location(board, grown[0], ids, source, grown[1], corners)
    return None
