"""The paper-normalised top view: paper reads 1.0 wherever it is, in or out of a lamp's light."""

import cv2
import numpy as np
import pytest

from hardware.simtable import SimulatedTable
from tests.boards import cross_board
from vision import topview
from vision.config import DEFAULT_CONFIG
from vision.locate import locate


def _frame(seed: int = 4):
    board = cross_board()
    frame, _ = SimulatedTable(board, seed=seed).render({"t1": "red"}, hand=False)
    return board, frame, locate(DEFAULT_CONFIG, frame, [board]).homography


def test_bare_paper_reads_one_and_the_shared_masks_cannot_be_changed():
    board, frame, homography = _frame()
    view = topview.top_view(frame, board, homography)
    ppm = topview.reader_ppm(board)
    paper = topview.paper_mask(board, ppm) & view.valid
    assert np.median(view.image[paper], 0) == pytest.approx([1.0, 1.0, 1.0], abs=0.03)
    with pytest.raises(ValueError):  # every frame shares it: read-only
        topview.paper_mask(board, ppm)[0, 0] = True


def test_a_board_partly_out_of_the_frame_is_fitted_on_the_paper_in_view_only():
    board, frame, homography = _frame()
    corners = np.array([[[0, 0], [board.width, board.height]]], np.float64)
    left = int(cv2.perspectiveTransform(corners, np.linalg.inv(homography))[0, :, 0].min())
    drop = left + 60  # the camera no longer sees the board's leftmost 60 px
    cut = np.ascontiguousarray(frame[:, drop:])
    shifted = homography @ np.array([[1, 0, drop], [0, 1, 0], [0, 0, 1]], np.float64)
    whole = topview.top_view(frame, board, homography)
    half = topview.top_view(cut, board, shifted)
    ppm = topview.reader_ppm(board)
    top, valid = topview.warp_top(cut, board, shifted, ppm)
    assert whole.valid.all() and not valid.all()
    # the half view is fitted through its own paper, not the whole board's
    expected = top / topview.paper_field(top, topview.paper_mask(board, ppm) & valid, ppm)
    assert np.array_equal(half.image, expected.astype(np.float32))
    seen = topview.paper_mask(board, ppm) & half.valid
    assert np.median(half.image[seen], 0) == pytest.approx([1.0, 1.0, 1.0], abs=0.03)
