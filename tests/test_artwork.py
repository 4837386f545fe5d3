import re
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.artwork import draw_tokens, render_board, to_px
from hardware.printable import write_board_pdf
from rules.palette import PALETTE
from tests.boards import circle_board, cross_board, game_boards, grid_board
from vision.config import DEFAULT_CONFIG
from vision.locate import detect_markers, locate


@pytest.mark.parametrize(
    "board", [cross_board(), grid_board(), circle_board(), *game_boards()], ids=lambda b: b.name
)
def test_rendered_board_has_its_markers_at_their_squares(board):
    ppm = 3.0
    img = render_board(board, ppm)
    assert img.shape == (round(board.height * ppm), round(board.width * ppm), 3)
    assert img.dtype == np.uint8
    markers = {m.id: m.corners for m in detect_markers(DEFAULT_CONFIG, img)}
    assert set(markers) == set(board.marker_ids)
    for marker_id, square in board.marker_squares().items():
        want = np.array([[to_px(x, ppm), to_px(y, ppm)] for x, y in square])
        assert np.abs(markers[marker_id] - want).max() < 1.0  # pixels


def test_rendered_board_is_recognised_among_several_games():
    boards = [cross_board(), grid_board(), circle_board()]
    loc = locate(DEFAULT_CONFIG, render_board(boards[1], 2.5), boards)
    assert loc is not None and loc.board is boards[1] and loc.source == "markers"


def test_printed_seat_colours_are_light_and_tokens_are_not():
    board = cross_board()
    ppm = 4.0
    img = render_board(board, ppm)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(float)
    base = next(s for s in board.spaces if s.kind == "base" and s.owner == 0)  # red seat
    x, y = round(to_px(base.x, ppm)), round(to_px(base.y, ppm))
    printed_chroma = np.hypot(lab[y, x, 1] - 128, lab[y, x, 2] - 128)
    draw_tokens(img, board, {base.id: "red"}, ppm)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(float)
    token_chroma = np.hypot(lab[y, x, 1] - 128, lab[y, x, 2] - 128)
    assert printed_chroma < 30 < token_chroma


def test_draw_tokens_rejects_unknown_colours():
    board = cross_board()
    img = render_board(board, 1.0)
    with pytest.raises(ValueError, match="mauve"):
        draw_tokens(img, board, {"t0": "mauve"}, 1.0)
    assert set(PALETTE) >= set(board.seat_colours)


def _media_boxes(data: bytes) -> list[tuple[float, float]]:
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    return [(float(w) / 72 * 25.4, float(h) / 72 * 25.4) for w, h in boxes]


def test_pdf_one_a3_page_when_the_board_fits(tmp_path):
    board = replace(cross_board(), width=250.0, height=250.0)
    path = write_board_pdf(board, tmp_path / "board.pdf", paper="A3")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    boxes = _media_boxes(data)
    assert any(abs(w - 297) < 1 and abs(h - 420) < 1 for w, h in boxes)
    assert len(re.findall(rb"/Type /Page\b", data)) == 2  # the board + the marker cards


def test_pdf_tiles_on_a4_when_the_board_is_large(tmp_path):
    path = write_board_pdf(cross_board(), tmp_path / "board.pdf", paper="A4")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert all(abs(w - 210) < 1 and abs(h - 297) < 1 for w, h in _media_boxes(data))
    assert len(re.findall(rb"/Type /Page\b", data)) == 5  # 2 x 2 tiles + the marker cards


def test_pdf_rejects_unknown_paper(tmp_path):
    with pytest.raises(ValueError, match="paper"):
        write_board_pdf(cross_board(), tmp_path / "x.pdf", paper="Letter")


@pytest.mark.parametrize("board", game_boards(), ids=lambda b: b.name)
def test_every_game_board_prints_on_a3_or_a4_tiles(board, tmp_path):
    data = write_board_pdf(board, tmp_path / "b.pdf", paper="A3").read_bytes()
    pages = len(re.findall(rb"/Type /Page\b", data))
    short, long = sorted((board.width, board.height))
    if short <= 285 and long <= 396:  # fits A3 inside the printer margins and the scale bar
        assert pages == 2
        assert any(abs(w - 297) < 1 and abs(h - 420) < 1 for w, h in _media_boxes(data))
    else:
        assert pages >= 5
        assert all(abs(w - 210) < 1 and abs(h - 297) < 1 for w, h in _media_boxes(data))


def test_too_big_for_a3_falls_back_to_a4_tiles(tmp_path):
    board = replace(cross_board(), width=400.0, height=500.0)
    data = write_board_pdf(board, tmp_path / "b.pdf", paper="A3").read_bytes()
    assert all(abs(w - 210) < 1 and abs(h - 297) < 1 for w, h in _media_boxes(data))
    assert len(re.findall(rb"/Type /Page\b", data)) > 4


def test_two_tokens_contesting_a_space_are_both_drawn():
    """A battle ("red+blue" on one space): red on the left half, blue on the right half."""
    board = grid_board()
    space = board.spaces[0]
    ppm = 4.0
    img = render_board(board, ppm)
    draw_tokens(img, board, {space.id: "red+blue"}, ppm)
    cx, cy = round(to_px(space.x, ppm)), round(to_px(space.y, ppm))
    dx = round(board.token_radius * 0.55 * ppm)
    left = img[cy, cx - dx].astype(int)
    right = img[cy + 6, cx + dx].astype(int)
    assert left[2] > left[0] + 60  # reddish (BGR)
    assert right[0] > right[2] + 60  # bluish
