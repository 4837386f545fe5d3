import cv2
import numpy as np
import pytest

from hardware.simtable import SimulatedTable
from tests.boards import circle_board, cross_board, game_boards, grid_board
from vision.config import DEFAULT_CONFIG
from vision.locate import detect_markers, identify_game, locate

BOARDS = [cross_board(), grid_board(), circle_board(), *game_boards()]


def _max_space_error_mm(board, truth_h, homography):
    pts = np.array([[[s.x, s.y] for s in board.spaces]], np.float64)
    img = cv2.perspectiveTransform(pts, truth_h)
    back = cv2.perspectiveTransform(img, homography)
    return float(np.abs(back - pts).max())


@pytest.mark.parametrize("seed", range(len(BOARDS) + 2))
def test_game_recognised_and_homography_accurate(seed):
    board = BOARDS[seed % len(BOARDS)]
    frame, truth = SimulatedTable(board, seed=seed).render({board.spaces[0].id: "red"})
    loc = locate(DEFAULT_CONFIG, frame, BOARDS)
    assert loc is not None and loc.board is board
    assert loc.markers == tuple(sorted(board.marker_ids)) and loc.source == "markers"
    assert _max_space_error_mm(board, truth.homography, loc.homography) < 0.5


def _cover_marker(frame, truth, board, marker_id):
    sq = np.array([board.marker_squares()[marker_id]], np.float64)
    poly = cv2.perspectiveTransform(sq, truth.homography)[0]
    centre = poly.mean(0)
    big = (centre + 1.6 * (poly - centre)).astype(np.int32)
    cv2.fillConvexPoly(frame, big, (60, 90, 130))  # a cup over the corner


def test_located_with_one_and_two_markers_covered():
    board = BOARDS[0]
    table = SimulatedTable(board, seed=11)
    frame, truth = table.render({})
    good = locate(DEFAULT_CONFIG, frame, BOARDS)
    covered, truth2 = table.render({}, index=5)
    _cover_marker(covered, truth2, board, board.marker_ids[0])
    loc = locate(DEFAULT_CONFIG, covered, BOARDS)
    assert loc is not None and len(loc.markers) == 3 and loc.source == "markers"
    assert _max_space_error_mm(board, truth2.homography, loc.homography) < 1.0
    _cover_marker(covered, truth2, board, board.marker_ids[2])
    loc = locate(DEFAULT_CONFIG, covered, BOARDS, last_homography=good.homography)
    assert loc is not None and len(loc.markers) == 2
    assert _max_space_error_mm(board, truth2.homography, loc.homography) < 1.5
    _cover_marker(covered, truth2, board, board.marker_ids[1])  # one marker left
    assert locate(DEFAULT_CONFIG, covered, BOARDS) is None  # not enough on its own
    loc = locate(DEFAULT_CONFIG, covered, BOARDS, last_homography=good.homography)
    assert loc is not None and loc.source == "last" and loc.markers == (board.marker_ids[3],)


def test_moved_camera_does_not_reuse_a_stale_homography():
    board = BOARDS[0]
    frame, _ = SimulatedTable(board, seed=1).render({})
    other = SimulatedTable(board, seed=2)
    stale = locate(DEFAULT_CONFIG, other.render({})[0], BOARDS).homography
    # hide three markers: the one left disagrees with the stale homography -> not located
    markers = [m for m in detect_markers(DEFAULT_CONFIG, frame) if m.id == board.marker_ids[0]]
    assert locate(DEFAULT_CONFIG, frame, BOARDS, stale, markers=markers) is None


def test_unknown_markers_and_blank_frames_are_not_a_game():
    assert identify_game([], BOARDS) is None
    blank = np.full((480, 640, 3), 200, np.uint8)
    assert locate(DEFAULT_CONFIG, blank, BOARDS) is None


@pytest.mark.parametrize(
    "bad",
    [np.zeros((0, 0, 3), np.uint8), np.zeros((100, 100, 3), np.float32), "frame.jpg",
     np.zeros((100, 100, 4), np.uint8)],
)  # fmt: skip
def test_corrupt_frames_raise_value_error(bad):
    with pytest.raises(ValueError):
        locate(DEFAULT_CONFIG, bad, BOARDS)
