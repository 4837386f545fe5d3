"""A board placed from two corner markers, grown out through its printed holes
(vision.two_markers): a hand over one corner often hides two markers."""

import cv2
import numpy as np

import rules
from hardware.simtable import SimulatedTable
from tests.boards import game_boards
from tests.twin_photos import misread, twin_frame
from vision.config import DEFAULT_CONFIG
from vision.locate import locate
from vision.observation import observe
from vision.register import MIN_HOLES, round_holes

BOARDS = list(game_boards())


def _max_space_error_mm(board, truth_h, homography):
    pts = np.array([[[s.x, s.y] for s in board.spaces]], np.float64)
    back = cv2.perspectiveTransform(cv2.perspectiveTransform(pts, truth_h), homography)
    return float(np.abs(back - pts).max())


def _cover(frame, to_image, board, marker_id, colour=(60, 90, 130)):
    """Paint over one marker (a little wider than it) in the image."""
    square = np.array([board.marker_squares()[marker_id]], np.float64)
    poly = cv2.perspectiveTransform(square, to_image)[0]
    centre = poly.mean(0)
    cv2.fillConvexPoly(frame, (centre + 1.15 * (poly - centre)).astype(np.int32), colour)


def test_two_markers_along_one_edge_place_the_board_through_its_holes():
    """On every board printed with round holes; Playground Battles prints squares (a square's
    middle says too little of where it lies), and there two markers still place nothing."""
    for board in BOARDS:
        frame, truth = SimulatedTable(board, seed=7).render({})
        for marker_id in board.marker_ids[:2]:
            _cover(frame, truth.homography, board, marker_id)
        loc = locate(DEFAULT_CONFIG, frame, BOARDS)
        if len(round_holes(board)) < MIN_HOLES:
            assert board.name.startswith("playground-battles") and loc is None
            continue
        assert loc is not None and loc.board is board, board.name
        assert loc.source == "two markers and holes" and len(loc.markers) == 2
        assert _max_space_error_mm(board, truth.homography, loc.homography) < 1.0, board.name


def test_two_markers_with_no_holes_to_confirm_them_place_nothing():
    """Where the holes cannot be seen (here painted over), two markers alone are too rough."""
    board = BOARDS[0]
    frame, truth = SimulatedTable(board, seed=7).render({})
    for marker_id in board.marker_ids[:2]:
        _cover(frame, truth.homography, board, marker_id)
    inner = np.array([[[s.x, s.y] for s in board.spaces]], np.float64)
    for x, y in cv2.perspectiveTransform(inner, truth.homography)[0]:
        cv2.circle(frame, (int(x), int(y)), 14, (205, 210, 215), -1)  # (paper-coloured)
    assert locate(DEFAULT_CONFIG, frame, BOARDS) is None


def test_a_twin_photo_with_two_markers_covered_is_read_and_nothing_wrongly():
    """A photo-like frame of Manipulation at the start (twin seed 9101, frame 1) with its two
    bottom markers covered: before, nothing was placed; every space read is right (the first
    try fitted the lens's straightened frame through the two markers alone and read five
    empty holes as tokens)."""
    game = "manipulation"
    board = rules.get(game).board
    frame, truth = twin_frame(game, 9101, 1, "start")
    for marker_id in ("8", "9"):
        poly = np.array(truth["markers_px"][marker_id], np.float64)
        centre = poly.mean(0)
        cv2.fillConvexPoly(frame, (centre + 1.15 * (poly - centre)).astype(np.int32), (60, 90, 130))
    obs = observe(frame, [board])
    assert obs.homography is not None and sorted(obs.markers) == [10, 11]
    assert not misread(obs.spaces, truth["placement"])
    right = sum(colour == truth["placement"].get(sid) for sid, (colour, _) in obs.spaces.items())
    assert right >= 0.9 * len(board.spaces)
