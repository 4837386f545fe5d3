"""Find the board in a frame: ArUco corner markers -> game and homography.

Each game prints four DICT_4X4_50 markers whose ids (board.marker_ids) name both the game and the
corner. Every marker corner seen gives one image <-> board-millimetre correspondence; with two or
more markers the homography is fitted from all of them. With fewer (a hand or a cup over the
corners) the last good homography is reused if it agrees with what is still visible.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.geometry import Board
from vision import aruco
from vision.config import VisionConfig, check_frame


@dataclass(frozen=True)
class Marker:
    id: int
    corners: np.ndarray  # 4x2 float image px, ArUco order TL, TR, BR, BL


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


_DETECTORS: dict[tuple, aruco.Detect] = {}


def _detector_params(config: VisionConfig):
    params = aruco.detector_parameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE  # refined at full size below
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 23
    params.adaptiveThreshWinSizeStep = 9
    params.minMarkerPerimeterRate = config.min_marker_perimeter
    return params


def _detector(config: VisionConfig) -> aruco.Detect:
    key = (config.min_marker_perimeter,)
    detect = _DETECTORS.get(key)
    if detect is None:
        detect = aruco.make_detector(aruco.marker_dictionary(), _detector_params(config))
        _DETECTORS[key] = detect
    return detect


def _detect_raw(config: VisionConfig, gray: np.ndarray):
    """(corners list, ids) at the given image, scaled by config.detect_scale and back."""
    scale = config.detect_scale
    small = gray
    if scale != 1.0:
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids = _detector(config)(small)
    if ids is None or len(ids) == 0:
        return [], []
    pts = [(c.reshape(4, 2).astype(np.float32) + 0.5) / scale - 0.5 for c in corners]
    return pts, ids.ravel().tolist()


def detect_markers(
    config: VisionConfig,
    image: np.ndarray,
    rois: list[tuple[int, int, int, int]] | None = None,
) -> list[Marker]:
    """DICT_4X4_50 markers in a BGR or grey frame, corners refined to sub-pixel.

    With `rois` ([(x0, y0, x1, y1), ...] image px) only those windows are searched.
    """
    check_frame(image)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    all_pts: list[np.ndarray] = []
    all_ids: list[int] = []
    if rois is None:
        all_pts, all_ids = _detect_raw(config, gray)
    else:
        h, w = gray.shape
        for x0, y0, x1, y1 in rois:
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 < 16 or y1 - y0 < 16:
                continue
            pts, ids = _detect_raw(config, gray[y0:y1, x0:x1])
            all_pts += [p + np.array([x0, y0], np.float32) for p in pts]
            all_ids += ids
    if not all_ids:
        return []
    pts = np.concatenate(all_pts).astype(np.float32)
    if config.refine_corners:
        win = max(2, int(round(2.0 / config.detect_scale)))
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 0.05)
        cv2.cornerSubPix(gray, pts.reshape(-1, 1, 2), (win, win), (-1, -1), crit)
    found: dict[int, Marker | None] = {}
    for i, marker_id in enumerate(all_ids):
        corners = pts[4 * i : 4 * i + 4].astype(np.float64)
        if marker_id in found:
            prev = found[marker_id]
            # the same marker seen twice (overlapping windows) is fine; two of them is not
            if prev is not None and np.abs(prev.corners - corners).max() > 3.0:
                found[marker_id] = None
            continue
        found[marker_id] = Marker(int(marker_id), corners)
    return [m for m in found.values() if m is not None]


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


def _reprojection_mm(h: np.ndarray, img_pts: np.ndarray, mm_pts: np.ndarray) -> float:
    proj = cv2.perspectiveTransform(img_pts[None].astype(np.float64), h)[0]
    return float(np.sqrt(np.mean(np.sum((proj - mm_pts) ** 2, axis=1))))


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
        for candidate in boards:
            found = detect_markers(config, image, marker_windows(candidate, to_image))
            if len({m.id for m in found} & set(candidate.marker_ids)) >= 3:
                markers = found
                break
    if markers is None:
        markers = detect_markers(config, image)
    board = identify_game(markers, boards)
    if board is None:
        return None
    squares = board.marker_squares()
    mine = [m for m in markers if m.id in squares]
    img_pts = np.concatenate([m.corners for m in mine])
    mm_pts = np.array([p for m in mine for p in squares[m.id]], np.float64)
    corners = {m.id: m.corners for m in mine}
    ids = tuple(sorted(corners))
    if last_homography is not None:
        last = np.asarray(last_homography, np.float64)
        last_err = _reprojection_mm(last, img_pts, mm_pts)
    trust_last = last_homography is not None and last_err <= config.max_marker_error_mm
    if len(mine) >= 3 or (len(mine) == 2 and not trust_last):
        h, _ = cv2.findHomography(img_pts, mm_pts, 0)
        if h is not None:
            err = _reprojection_mm(h, img_pts, mm_pts)
            if err <= config.max_marker_error_mm:
                return Location(board, h / h[2, 2], ids, "markers", err, corners)
    if trust_last:
        return Location(board, last, ids, "last", last_err, corners)
    return None
