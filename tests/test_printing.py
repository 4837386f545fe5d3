"""Printed boards say what they are: Playground Battles' title and key boxes are filled, its
BASE boxes are named where no hole covers the words, and `print-board` names the paper the
PDF really uses."""

from __future__ import annotations

import numpy as np

import rules
from device.cli import main
from hardware.artwork import INK_BGR, region_words, render_board, spaces_in
from hardware.printable import layout_for

PPM = 4.0


def ink(img: np.ndarray, x: float, y: float, w: float, h: float) -> int:
    """Pixels of print ink (dark text and lines) inside a rectangle given in board mm."""
    crop = img[round(y * PPM) : round((y + h) * PPM), round(x * PPM) : round((x + w) * PPM)]
    return int(np.sum(np.all(np.abs(crop.astype(int) - INK_BGR) < 40, axis=2)))


def test_title_and_key_boxes_hold_words_not_their_names():
    board = rules.get("playground-battles").board
    regions = {r.name: r for r in board.regions}
    assert region_words(board, regions["title"])[0] == "PLAYGROUND BATTLES"
    assert region_words(board, regions["key"])[1:] == [
        "ROCK beats SCISSORS",
        "SCISSORS beat PAPER",
        "PAPER beats ROCK",
    ]
    img = render_board(board, PPM)
    for name in ("title", "key"):
        r = regions[name]
        inside = ink(img, r.x + 2, r.y + 2, r.w - 4, r.h - 4)  # the words, not the frame
        assert inside > 400, (name, inside)


def test_a_base_box_is_named_outside_it_where_no_hole_covers_the_words():
    board = rules.get("playground-battles").board
    red = next(r for r in board.regions if r.name == "red-base")
    blue = next(r for r in board.regions if r.name == "blue-base")
    assert [s.id for s in spaces_in(board, red)] == ["red-base"]
    assert region_words(board, red) == ["RED BASE"]
    img = render_board(board, PPM)
    # red's base is at the bottom: its name just below the box; blue's just above
    assert ink(img, red.x, red.y + red.h + 1.0, red.w, 5.0) > 60
    assert ink(img, blue.x, blue.y - 6.0, blue.w, 5.0) > 60


def test_labels_print_every_space_id_when_asked():
    board = rules.get("aggravation").board
    plain, labelled = render_board(board, PPM), render_board(board, PPM, labels=True)
    assert ink(labelled, 0, 0, board.width, board.height) > ink(
        plain, 0, 0, board.width, board.height
    )


def test_print_board_names_the_paper_it_really_uses(capsys, tmp_path):
    pb = layout_for(rules.get("playground-battles").board, "A3")
    assert (pb.paper, pb.columns, pb.rows) == ("A4", 2, 2)
    assert (
        main(["print-board", "--game", "playground-battles", "--out", str(tmp_path / "b.pdf")]) == 0
    )
    out = capsys.readouterr().out
    assert "larger than A3" in out and "on 4 A4 sheets" in out and "A3 sheet" not in out
    assert main(["print-board", "--game", "aggravation", "--out", str(tmp_path / "a.pdf")]) == 0
    assert "Aggravation at true scale on one A3 sheet" in capsys.readouterr().out
