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


def test_simulated_camera_is_the_sim_source():
    from hardware.cameras import open_camera, register_source
    from hardware.simtable import _open_sim

    register_source("sim", _open_sim, replace=True)  # other tests may have replaced it
    board = cross_board()
    scene = iter([({"t1": "red"}, [2], False), ({"t2": "blue"}, [], True)])
    with open_camera("sim", board=board, seed=9, scene=lambda: next(scene)) as cam:
        first = cam.read()
        assert first.image.shape == (960, 1280, 3) and first.index == 0
        assert cam.last_truth.placement == {"t1": "red"} and cam.last_truth.dice[0]["value"] == 2
        cam.read()
        assert cam.last_truth.hand and cam.status()["ok"]
    assert cam.closed


def test_sim_camera_by_game_name():
    import rules
    from hardware.cameras import open_camera, register_source
    from hardware.simtable import _open_sim

    register_source("sim", _open_sim, replace=True)
    name = rules.names()[0]
    with open_camera(f"sim:{name}", seed=3) as cam:
        assert cam.table.board.name == rules.get(name).board.name
        assert cam.read().image.shape == (960, 1280, 3)
    with pytest.raises(ValueError, match="needs a game"):
        open_camera("sim")
