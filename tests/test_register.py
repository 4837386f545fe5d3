"""The board's printed holes place its middle where lens distortion moved it.

Truth comes from the photo-like table's own camera model (`hardware.phototable`): where its
homography and its radial distortion put each space, not from the code under test.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import rules
from hardware.phototable import PhotoTable
from vision.calibrate import Calibration, calibrate, refine
from vision.config import DEFAULT_CONFIG
from vision.locate import locate
from vision.observation import observe
from vision.register import register_holes
from vision.spaces import candidate_colours

STRONG_LENS_SEED = 1003  # a table whose lens bends the frame strongly (k1 about -0.047)


def _photo(game_name: str, seed: int, conditions=("lens",), placement=None):
    board = rules.get(game_name).board
    table = PhotoTable(board, seed=seed, conditions=conditions)
    if placement is None:
        rng = np.random.default_rng([seed, 77])
        colours = candidate_colours(board)
        placement = {
            s.id: colours[int(rng.integers(len(colours)))]
            for s in board.spaces
            if rng.random() < 0.3
        }
    image, truth = table.render(placement, hand=False)
    return board, table, image, truth


def _true_px(table: PhotoTable, truth, board, size) -> np.ndarray:
    """Where the table's camera drew each space: its homography, then its lens (the inverse
    of the remap `hardware.phototable._distort` does, solved by fixed-point iteration)."""
    xy = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    undistorted = cv2.perspectiveTransform(xy[None], truth.homography)[0]
    w, h = size
    centre, f = np.array([(w - 1) / 2, (h - 1) / 2]), max(w, h) / 2
    source = (undistorted - centre) / f
    out = source.copy()
    for _ in range(40):
        out = source / (1.0 + table._look["k1"] * (out**2).sum(1, keepdims=True))
    return out * f + centre


def _error_mm(homography: np.ndarray, px: np.ndarray, board) -> np.ndarray:
    xy = np.array([[s.x, s.y] for s in board.spaces], np.float64)
    return np.linalg.norm(cv2.perspectiveTransform(px[None], homography)[0] - xy, axis=1)


@pytest.mark.parametrize("game_name", ["aggravation", "manji", "the-right-moves"])
def test_the_holes_put_the_spaces_back_under_a_strong_lens(game_name):
    board, table, image, truth = _photo(game_name, STRONG_LENS_SEED)
    loc = locate(DEFAULT_CONFIG, image, [board])
    px = _true_px(table, truth, board, (image.shape[1], image.shape[0]))
    before = _error_mm(loc.homography, px, board)
    found = register_holes(image, board, loc.homography)
    after = _error_mm(found.homography, px, board)
    assert before.max() > 1.5  # the markers' fit alone is out in the middle
    assert found.used
    assert after.max() < 0.8
    assert np.median(after) < 0.5 * np.median(before)


def test_a_straight_lens_keeps_the_markers_fit():
    board, _, image, _ = _photo("aggravation", 5, conditions=("pose",))
    loc = locate(DEFAULT_CONFIG, image, [board])
    found = register_holes(image, board, loc.homography)
    assert not found.used
    assert np.array_equal(found.homography, loc.homography)
    assert found.moved_mm <= 1.0


def test_holes_along_two_rows_do_not_move_the_squares_between():
    # Playground Battles prints round holes only in its two base rows; its field is squares
    board, _, image, _ = _photo("playground-battles", STRONG_LENS_SEED)
    loc = locate(DEFAULT_CONFIG, image, [board])
    found = register_holes(image, board, loc.homography)
    assert not found.used
    assert np.array_equal(found.homography, loc.homography)


def test_a_photo_alone_reads_every_hole_under_a_strong_lens():
    board, _, image, truth = _photo("aggravation", STRONG_LENS_SEED)
    obs = observe(image, [board])
    wrong = {s.id for s in board.spaces if obs.spaces[s.id][0] != truth.placement.get(s.id)}
    assert not wrong, f"spaces not read as placed: {sorted(wrong)}"


def _calibrated_lens_table():
    """Aggravation on the strong-lens table, calibrated from its starting position."""
    game = rules.get("aggravation")
    start = game.placement(game.initial_state())
    table = PhotoTable(game.board, seed=STRONG_LENS_SEED, conditions=("lens",))
    return game.board, table, calibrate(game.board, [(table.render(start, hand=False)[0], start)])


def test_the_calibration_learns_the_fit_and_reads_by_it():
    board, table, cal = _calibrated_lens_table()
    assert cal.board_fit is not None
    again = Calibration.from_json(cal.to_json())
    assert np.allclose(again.board_fit, cal.board_fit, atol=1e-3)
    rng = np.random.default_rng(3)
    colours = candidate_colours(board)
    placement = {s.id: colours[int(rng.integers(len(colours)))] for s in board.spaces[::3]}
    image, truth = table.render(placement, hand=False)
    obs = observe(image, [board], cal)
    wrong = {s.id for s in board.spaces if obs.spaces[s.id][0] != truth.placement.get(s.id)}
    assert not wrong, f"spaces not read as placed: {sorted(wrong)}"


@pytest.mark.parametrize("bad", [[1, 2, 3], [0.0] * 9, [float("nan")] + [1.0] * 8])
def test_a_saved_fit_that_is_no_matrix_is_refused_by_name(bad):
    data = Calibration("aggravation").to_json()
    data["board_fit"] = bad
    with pytest.raises(ValueError, match="board_fit"):
        Calibration.from_json(data)


def test_a_board_moved_since_the_calibration_is_fitted_again():
    board, table, cal = _calibrated_lens_table()
    frame, _ = table.render({}, hand=False)
    assert cal.view(frame, locate(DEFAULT_CONFIG, frame, [board])) is not None  # lies as it lay
    # the same board pushed 40 px to the right in the picture
    shift = np.array([[1.0, 0.0, 40.0], [0.0, 1.0, 0.0]])
    moved = cv2.warpAffine(frame, shift, (frame.shape[1], frame.shape[0]))
    there = locate(DEFAULT_CONFIG, moved, [board])
    assert cal.view(moved, there) is None
    assert Calibration.from_json(cal.to_json()).view(moved, there) is None


def test_a_frame_with_no_holes_where_the_markers_put_them_changes_nothing():
    board, _, image, _ = _photo("aggravation", STRONG_LENS_SEED)
    h = locate(DEFAULT_CONFIG, image, [board]).homography
    for frame in (np.full_like(image, 128), np.zeros_like(image)):
        found = register_holes(frame, board, h)
        assert not found.used and found.holes == 0
        assert np.array_equal(found.homography, h)


def test_what_the_calibration_learns_from_an_accepted_reading_keeps_the_lens_and_fit():
    """The appliance refines its calibration from every accepted reading; the lens and the
    board's fit stay, and the new looks are taken where the reading took them."""
    board, table, cal = _calibrated_lens_table()
    rng = np.random.default_rng(5)
    colours = candidate_colours(board)
    placement = {s.id: colours[int(rng.integers(len(colours)))] for s in board.spaces[::4]}
    image, truth = table.render(placement, hand=False)
    better = refine(cal, board, observe(image, [board], cal).view, truth.placement)
    assert better.lens_k1 == cal.lens_k1 and better.board_fit is not None
    assert np.array_equal(better.board_fit, cal.board_fit)
    again, truth = table.render(placement, hand=False)
    obs = observe(again, [board], better)
    wrong = {s.id for s in board.spaces if obs.spaces[s.id][0] != truth.placement.get(s.id)}
    assert not wrong, f"spaces not read as placed: {sorted(wrong)}"
