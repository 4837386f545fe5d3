import cv2
import numpy as np
import pytest

from hardware.simtable import SimulatedTable
from tests.boards import cross_board, grid_board


def test_frames_are_regenerable_from_seed_and_index():
    board = cross_board()
    a = SimulatedTable(board, seed=5)
    b = SimulatedTable(board, seed=5)
    pl = {"t3": "red", "b10": "blue"}
    f1, t1 = a.render(pl, [4])
    f2, _ = a.render(pl, [4])
    g1, u1 = b.render(pl, [4])
    assert f1.shape == (960, 1280, 3) and f1.dtype == np.uint8
    assert np.array_equal(f1, g1) and t1.dice == u1.dice
    assert not np.array_equal(f1, f2)  # the next index is another frame
    again, _ = b.render(pl, [4], index=1)
    assert np.array_equal(again, f2)


def test_truth_homography_projects_spaces_onto_their_tokens():
    board = cross_board()
    table = SimulatedTable(board, seed=2)
    frame, truth = table.render({"t0": "yellow"})
    s = board.space("t0")
    x, y = cv2.perspectiveTransform(np.array([[[s.x, s.y]]]), truth.homography)[0, 0]
    b, g, r = frame[round(y) - 2 : round(y) + 3, round(x) - 2 : round(x) + 3].reshape(-1, 3).mean(0)
    assert r > b + 40 and g > b + 20  # yellow-ish whatever the white balance


def test_dice_in_the_tray_or_beside_the_board():
    board = cross_board()
    table = SimulatedTable(board, seed=3)
    _, truth = table.render({}, [1, 6])
    assert [d["value"] for d in truth.dice] == [1, 6]
    tray = board.regions[0]
    corners = np.array([[[tray.x, tray.y], [tray.x + tray.w, tray.y + tray.h]]], float)
    (x0, y0), (x1, y1) = cv2.perspectiveTransform(corners, truth.homography)[0]
    lo_x, hi_x = sorted((x0, x1))
    for d in truth.dice:
        cx = d["x"] + d["w"] / 2
        assert lo_x - 40 < cx < hi_x + 40
    grid = grid_board()  # no tray: beside the board
    _, truth = SimulatedTable(grid, seed=1).render({}, [3])
    assert truth.dice[0]["w"] > 10


def test_hand_is_drawn_when_asked_and_bad_dice_rejected():
    table = SimulatedTable(cross_board(), seed=4, hand_probability=0.0)
    clear, t0 = table.render({}, hand=False, index=0)
    handy, t1 = table.render({}, hand=True, index=0)
    assert not t0.hand and t1.hand and t1.hand_box is not None
    assert np.abs(clear.astype(int) - handy.astype(int)).mean() > 3
    with pytest.raises(ValueError):
        table.render({}, [7])
