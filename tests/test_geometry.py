"""Board geometry as data: boards are values (equal fields, equal boards, one cache key)."""

import dataclasses

import rules


def test_equal_boards_hash_alike_and_a_changed_board_is_another_key():
    board = rules.get("aggravation").board
    same = dataclasses.replace(board)  # a new object with the same fields
    assert same is not board and same == board and hash(same) == hash(board)
    assert {board: "plan"}[same] == "plan"
    bigger = dataclasses.replace(board, marker_size=board.marker_size + 1.0)
    assert bigger != board and bigger not in {board: "plan"}
