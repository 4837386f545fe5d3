"""Two stands on one square (a Playground battle) read as "red+blue", never as one token."""

from __future__ import annotations

import random

import rules
from hardware.simtable import SimulatedTable
from rules.palette import UNKNOWN
from vision.calibrate import calibrate
from vision.observation import observe


def test_battles_read_as_contests_and_nothing_is_misread():
    game = rules.get("playground-battles")
    board = game.board
    assert board.shared_spaces
    squares = [s.id for s in board.spaces if s.kind != "base"]
    rng = random.Random(11)
    contests_read = 0
    for seed in (1, 2, 3):
        table = SimulatedTable(board, seed=seed)
        start = game.placement(game.initial_state()) or {
            s: "red" for s in squares if s.endswith("1")
        }
        frame, _ = table.render(start, hand=False)
        first = observe(frame, [board])
        cal = calibrate(board, [(frame, start)], homographies=[first.homography])
        for _ in range(2):
            placement = {s: rng.choice(["red", "blue"]) for s in rng.sample(squares, 12)}
            battle = rng.choice(squares)
            placement[battle] = game.contest_mark
            frame, _ = table.render(placement, hand=False)
            obs = observe(frame, [board], cal, first.homography)
            for sid in squares:
                got = obs.spaces[sid][0]
                assert got in (placement.get(sid), UNKNOWN), (
                    f"{sid}: {got} for {placement.get(sid)}"
                )
            contests_read += obs.spaces[battle][0] == game.contest_mark
    assert contests_read >= 5


def test_boards_without_shared_spaces_never_report_contests():
    game = rules.get("aggravation")
    assert not game.board.shared_spaces
    table = SimulatedTable(game.board, seed=4)
    frame, _ = table.render(game.placement(game.initial_state()), hand=False)
    obs = observe(frame, [game.board])
    assert not any("+" in str(colour) for colour, _ in obs.spaces.values())
