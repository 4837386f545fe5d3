"""Two tokens side by side on one space (a battle waiting for its reveal): "red+blue".

Only boards that allow it (`Board.shared_spaces`) report it: `vision.spaces` reads the two
stands as two peaks of different colours in one space's cell (`vision.tokens` looks for
tokens at the size of one stand too on such boards).
"""

from __future__ import annotations

from rules.geometry import Board


def contest_mark(board: Board, a: str, b: str) -> str:
    """The two colours joined in seat order ("red+blue")."""
    order = {c: i for i, c in enumerate(board.seat_colours)}
    first, second = sorted((a, b), key=lambda c: (order.get(c, len(order)), c))
    return f"{first}+{second}"


def is_contest(reading: str | None) -> bool:
    """Whether a space's reading is two stands side by side."""
    return reading is not None and "+" in reading
