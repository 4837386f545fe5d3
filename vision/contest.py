"""Two tokens side by side on one space (a battle waiting for its reveal): "red+blue".

Only for boards that allow it (`Board.shared_spaces`), and only for a space the ordinary reader
could not call: its left and right halves are read as if they were two small spaces, and the
space reads as a contest only when both halves are confidently tokens of different colours.
Anything less stays unclear.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from rules.geometry import Board, Space
from rules.palette import UNKNOWN
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.spaces import classify_spaces, sample_spaces

HALF_OFFSET = 0.55  # of the token radius: where each of the two stands' centres lies
HALF_SIZE = 0.6  # of the token radius: each stand as seen from above


def halves_board(board: Board, space_ids: Iterable[str]) -> Board:
    """A board of two small virtual spaces (left, right) for each given space."""
    shift = board.token_radius * HALF_OFFSET
    spaces: list[Space] = []
    for sid in space_ids:
        space = board.space(sid)
        spaces.append(replace(space, id=f"{sid}#L", x=space.x - shift))
        spaces.append(replace(space, id=f"{sid}#R", x=space.x + shift))
    return replace(
        board,
        spaces=tuple(spaces),
        links=(),
        hole_radius=board.hole_radius * HALF_SIZE,
        token_radius=board.token_radius * HALF_SIZE,
    )


def contest_mark(board: Board, a: str, b: str) -> str:
    """The two colours joined in seat order ("red+blue")."""
    order = {c: i for i, c in enumerate(board.seat_colours)}
    first, second = sorted((a, b), key=lambda c: (order.get(c, len(order)), c))
    return f"{first}+{second}"


def check_halves(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    spaces: dict[str, tuple[str | None, float]],
    calibration: Calibration | None = None,
    markers_seen: tuple[int, ...] | None = None,
) -> dict[str, tuple[str | None, float]]:
    """Cross-check every reading with the space's two halves (boards with shared spaces).

    Two different tokens in the halves make a contest ("red+blue"); halves that agree with the
    centre keep the reading; anything else (a token pushed half off, one half unsure) becomes
    UNKNOWN, so a battle is never read as a single token or an empty square.
    """
    if not board.shared_spaces:
        return spaces
    ids = list(spaces)
    halves = halves_board(board, ids)
    readings = classify_spaces(
        config, sample_spaces(config, image, halves, homography, markers_seen), halves, calibration
    )
    checked = {}
    for sid in ids:
        colour, conf = spaces[sid]
        (left, lc), (right, rc) = readings[f"{sid}#L"], readings[f"{sid}#R"]
        tokens = left not in (None, UNKNOWN) and right not in (None, UNKNOWN)
        if tokens and left != right:
            checked[sid] = (contest_mark(board, left, right), min(lc, rc))
        elif colour != UNKNOWN and left == colour and right == colour:
            checked[sid] = (colour, conf)
        else:
            checked[sid] = (UNKNOWN, min(conf, lc, rc))
    return checked


def read_contests(
    config: VisionConfig,
    image: np.ndarray,
    board: Board,
    homography: np.ndarray,
    space_ids: Iterable[str],
    calibration: Calibration | None = None,
    markers_seen: tuple[int, ...] | None = None,
) -> dict[str, tuple[str, float]]:
    """{space id: ("red+blue", confidence)} for the given spaces that hold two stands."""
    ids = list(space_ids)
    if not board.shared_spaces or not ids:
        return {}
    halves = halves_board(board, ids)
    readings = classify_spaces(
        config, sample_spaces(config, image, halves, homography, markers_seen), halves, calibration
    )
    found = {}
    for sid in ids:
        (left, lc), (right, rc) = readings[f"{sid}#L"], readings[f"{sid}#R"]
        tokens = left not in (None, UNKNOWN) and right not in (None, UNKNOWN)
        if tokens and left != right:
            found[sid] = (contest_mark(board, left, right), min(lc, rc))
    return found
