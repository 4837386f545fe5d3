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


def _drawn_valid(quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The frame's outline drawn and eroded, as `warp_top` makes its mask."""
    valid = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(valid, np.round(quad * 4).astype(np.int32), 1, cv2.LINE_8, 2)
    return cv2.erode(valid, np.ones((3, 3), np.uint8)).astype(bool)


def test_the_mask_is_only_skipped_where_drawing_it_would_give_all_ones():
    rng = np.random.default_rng(14)
    skipped = 0
    for _ in range(3000):
        w, h = (int(v) for v in rng.integers(20, 300, size=2))
        quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        quad += rng.normal(0.0, rng.choice([2.0, 8.0, 30.0]), (4, 2))
        quad = (quad - quad.mean(0)) * rng.uniform(0.9, 1.3) + quad.mean(0)
        if rng.random() < 0.2:
            quad = quad[::-1]  # the other way round
        if rng.random() < 0.05:
            quad = quad[[0, 2, 1, 3]]  # crossed: not a convex outline
        if topview._covers(quad, (w, h)):
            skipped += 1
            assert _drawn_valid(quad, (w, h)).all()
    assert skipped > 300  # the usual case is taken


def test_the_whole_board_in_view_gives_the_drawn_mask_of_all_ones():
    board, frame, homography = _frame()
    ppm = topview.reader_ppm(board)
    _, valid = topview.warp_top(frame, board, homography, ppm)
    size = (valid.shape[1], valid.shape[0])
    rows, cols = frame.shape[:2]
    outline = np.array([[[-0.5, -0.5], [cols - 0.5, -0.5], [cols - 0.5, rows - 0.5],
                         [-0.5, rows - 0.5]]])  # fmt: skip
    quad = cv2.perspectiveTransform(outline, topview.board_to_top(ppm) @ homography)[0]
    assert topview._covers(quad, size)
    assert valid.dtype == bool and np.array_equal(valid, _drawn_valid(quad, size))


@pytest.mark.parametrize("cast", [(1.0, 1.0, 1.0), (0.87, 1.0, 1.13), (1.13, 1.0, 0.87)])
def test_a_hand_over_most_of_the_bare_paper_is_not_taken_for_the_paper(cast):
    """A hand lay over most of a board's bare paper, and the paper's usual colour (the
    median) was the skin's: the whole board was divided by an orange field, and grey holes
    read blue. The paper is whitish under any cast a camera leaves; skin is not."""
    paper = np.array(cast, np.float32) * 230.0
    skin = np.array([134.0, 183.0, 248.0], np.float32)  # BGR, as one photo showed a hand
    top = np.empty((160, 160, 3), np.float32)
    top[:] = paper
    top[:, 48:] = skin  # seven tenths of the paper under the hand
    mask = np.ones((160, 160), bool)
    field = topview.paper_field(top, mask, ppm=1.0)
    assert field[80, 10] == pytest.approx(paper, rel=0.05)


def test_the_share_of_clipped_paper_counts_only_the_bare_paper():
    top = np.full((4, 4, 3), 200, np.uint8)
    top[:2, :, 2] = 255  # one channel at the camera's ceiling on the upper half
    top[3, 3] = 255  # a white token off the paper: not counted
    mask = np.ones((4, 4), bool)
    mask[3, 3] = False
    assert topview.clipped_share(top, mask) == pytest.approx(8 / 15)
    assert topview.clipped_share(top, np.zeros((4, 4), bool)) == 0.0


def test_the_markers_ink_is_read_from_their_black_border_in_view():
    import rules

    board = rules.get("manji").board
    h, w = int(board.height), int(board.width)
    image = np.ones((h, w, 3), np.float32)
    for corners in board.marker_squares().values():
        (x0, y0), (x1, y1) = corners[0], corners[2]
        image[int(y0) : int(y1), int(x0) : int(x1)] = 0.1
        image[int(y0) + 8 : int(y1) - 8, int(x0) + 8 : int(x1) - 8] = 1.0  # white code cells
    valid = np.ones((h, w), bool)
    view = topview.TopView(image, valid, 1.0, np.zeros((h, w, 3), np.uint8))
    assert topview.marker_ink(view, board) == pytest.approx(0.1, abs=0.01)
    lifted = topview.TopView(image * 0 + 0.5, valid, 1.0, view.raw)
    assert topview.marker_ink(lifted, board) == pytest.approx(0.5, abs=0.01)
    unseen = topview.TopView(image, np.zeros((h, w), bool), 1.0, view.raw)
    assert np.isnan(topview.marker_ink(unseen, board))


def _holes_in_rows(light_inside: float, paper: float = 200.0):
    """A 240 x 240 top view (1 px per mm) whose middle 120 x 120 is rows of holes 8 mm
    apart, the paper masked 3 mm round each: no grid cell there is bare paper all through.
    The light over that middle is `light_inside` times the light elsewhere."""
    top = np.full((240, 240, 3), paper, np.float32)
    mask = np.ones((240, 240), bool)
    yy, xx = np.mgrid[:240, :240]
    for cy in range(64, 180, 8):
        for cx in range(64, 180, 8):
            near = (yy - cy) ** 2 + (xx - cx) ** 2
            top[near <= 4] = 90.0  # a grey hole
            mask[near <= 9] = False
    top[60:180, 60:180] *= light_inside
    return top, mask


def test_a_shadow_over_rows_of_holes_is_followed_by_the_paper_between_them():
    """A player's soft shadow over rows of holes: only slivers of paper lie between them.
    Counting only cells of bare paper all through, the field there was the paper around
    (the shadowed paper read 1.5), and grey holes in the shadow were taken for darker ones."""
    top, mask = _holes_in_rows(0.64)
    field = topview.paper_field(top, mask, ppm=1.0)
    assert field[120, 120] == pytest.approx([128.0] * 3, rel=0.08)
    assert field[20, 20] == pytest.approx([200.0] * 3, rel=0.03)


def test_glare_over_rows_of_holes_is_not_divided_out():
    """Glare lifts the paper and the print under it alike: the field does not follow it
    (the glare model weighs print seen against the unlifted paper; a glared stand divided
    by its glared paper looked as dull as the grey print round it, and read as empty)."""
    top, mask = _holes_in_rows(1.25)
    field = topview.paper_field(top, mask, ppm=1.0)
    assert field[120, 120] == pytest.approx([200.0] * 3, rel=0.05)
