"""The lens measured on the board itself, and the board read through it.

Truth: points drawn through a known homography and a known radial term (the module's own
model, written out here), and photos from the photo-like table with a wide lens set on it.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import rules
from hardware.phototable import PhotoTable
from rules.palette import UNKNOWN
from vision.calibrate import Calibration, calibrate
from vision.config import DEFAULT_CONFIG
from vision.lens import Lens, measure_lens
from vision.locate import locate
from vision.observation import observe
from vision.register import photo_view
from vision.spaces import candidate_colours

SIZE = (1280, 960)


def _seen_through(k1: float, mm: np.ndarray) -> np.ndarray:
    """Frame px of board mm through a tilted pinhole camera and a lens whose straightened
    point lies at (1 + k1 r^2) times the seen point's distance from the centre."""
    pinhole = np.array([[2.6, 0.3, 180.0], [-0.25, 2.55, 120.0], [0.0002, 0.0001, 1.0]])
    straight = cv2.perspectiveTransform(mm[None], pinhole)[0]
    centre, norm = np.array([639.5, 479.5]), np.hypot(*SIZE) / 2
    seen = straight.copy()
    for _ in range(60):  # solve straight = c + (seen - c) (1 + k1 |seen - c|^2 / norm^2)
        r2 = (((seen - centre) / norm) ** 2).sum(1, keepdims=True)
        seen = centre + (straight - centre) / (1.0 + k1 * r2)
    return seen


@pytest.mark.parametrize("k1", [-0.12, -0.05, 0.05, 0.12])
def test_a_lens_is_measured_from_points_on_one_plane(k1):
    grid = np.stack(np.meshgrid(np.arange(0, 301, 25.0), np.arange(0, 301, 25.0)), -1)
    mm = grid.reshape(-1, 2)
    lens = measure_lens(_seen_through(k1, mm), mm, SIZE)
    assert lens is not None and abs(lens.k1 - k1) < 0.004
    straight = lens.straight_points(_seen_through(k1, mm))
    h, _ = cv2.findHomography(straight, mm, 0)
    assert np.abs(cv2.perspectiveTransform(straight[None], h)[0] - mm).max() < 0.1


def test_a_straight_lens_is_left_alone():
    grid = np.stack(np.meshgrid(np.arange(0, 301, 25.0), np.arange(0, 301, 25.0)), -1)
    mm = grid.reshape(-1, 2)
    assert measure_lens(_seen_through(0.0, mm), mm, SIZE) is None
    assert measure_lens(_seen_through(0.1, mm[:8]), mm[:8], SIZE) is None  # too few points


@pytest.mark.parametrize("k1", [-0.1, 0.06])
def test_a_warp_through_the_lens_shows_each_point_where_a_pinhole_saw_it(k1):
    """Dots drawn in the frame where the lens put them (the model written out above) appear
    in the warped view where the view's matrix puts their pinhole places, within 0.1 px."""
    mm = np.array([[x, y] for x in (20.0, 90.0, 170.0, 250.0) for y in (15.0, 110.0, 200.0)])
    seen = _seen_through(k1, mm)
    frame = np.zeros((SIZE[1], SIZE[0]), np.float32)
    for x, y in seen:  # a soft dot, its centre known to a fraction of a pixel
        yy, xx = np.mgrid[0 : SIZE[1], 0 : SIZE[0]]
        frame += np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 2.0**2)).astype(np.float32)
    pinhole = np.array([[2.6, 0.3, 180.0], [-0.25, 2.55, 120.0], [0.0002, 0.0001, 1.0]])
    top_from_mm = np.diag([2.0, 2.0, 1.0])  # the view: 2 px per board mm
    to_straight = pinhole @ np.linalg.inv(top_from_mm)
    view, inside = Lens(k1, SIZE).warp(frame, to_straight, (1000, 800))
    assert inside[int(110 * 2), int(90 * 2)] and not inside.all()  # (off the frame: outside)
    for x, y in mm * 2.0:
        r = 6
        patch = view[int(y) - r : int(y) + r + 1, int(x) - r : int(x) + r + 1].astype(np.float64)
        yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
        cx = (patch * (xx + int(x))).sum() / patch.sum()
        cy = (patch * (yy + int(y))).sum() / patch.sum()
        assert np.hypot(cx - x, cy - y) < 0.1 * 2.0 + 0.1, (x, y, cx, cy)


def test_a_frame_of_another_size_is_refused_by_name():
    with pytest.raises(ValueError, match="lens measured on"):
        Lens(0.05, SIZE).warp(np.zeros((480, 640, 3), np.uint8), np.eye(3), (64, 48))


def _wide_photo(game_name: str, seed: int, k1: float):
    board = rules.get(game_name).board
    table = PhotoTable(board, seed=seed, conditions=("lens", "pose"))
    table._look["k1"] = k1  # twice the strongest lens: a wide one
    rng = np.random.default_rng([seed, 5])
    colours = candidate_colours(board)
    placement = {
        s.id: colours[int(rng.integers(len(colours)))] for s in board.spaces if rng.random() < 0.3
    }
    return board, table, *table.render(placement, hand=False)


def _misread(board, obs, placement) -> list[str]:
    return [s.id for s in board.spaces if obs.spaces[s.id][0] != placement.get(s.id)]


@pytest.mark.parametrize("k1", [-0.1, 0.1])
def test_a_wide_lens_over_the_largest_board_is_straightened_and_read(k1):
    board, _, image, truth = _wide_photo("manipulation", 2000, k1)
    view = photo_view(image, locate(DEFAULT_CONFIG, image, [board]))
    assert view.lens is not None
    obs = observe(image, [board])
    assert not _misread(board, obs, truth.placement)


def test_the_calibration_learns_the_lens_and_reads_by_it():
    game = rules.get("manipulation")
    board = game.board
    start = game.placement(game.initial_state())
    board, table, image, truth = _wide_photo("manipulation", 2001, -0.1)
    cal = calibrate(board, [(table.render(start, hand=False)[0], start)])
    assert cal.lens_k1 is not None
    again = Calibration.from_json(cal.to_json())
    assert again.lens_k1 == pytest.approx(cal.lens_k1)
    obs = observe(image, [board], again)
    assert not _misread(board, obs, truth.placement)
    assert not any(obs.spaces[s.id][0] not in (None, UNKNOWN, truth.placement.get(s.id))
                   for s in board.spaces)  # fmt: skip


def test_holes_whose_collars_touch_measure_no_lens():
    # Playground Battles' round holes sit in rows with their tinted collars touching
    board, _, image, _ = _wide_photo("playground-battles", 2000, 0.1)
    assert photo_view(image, locate(DEFAULT_CONFIG, image, [board])).lens is None


@pytest.mark.parametrize("bad", ["wide", float("nan"), 3.0])
def test_a_saved_lens_that_is_no_lens_is_refused_by_name(bad):
    data = Calibration("manipulation").to_json()
    data["lens_k1"] = bad
    with pytest.raises(ValueError, match="lens_k1"):
        Calibration.from_json(data)
