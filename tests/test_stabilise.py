from dataclasses import replace

import numpy as np
import pytest

from hardware.simtable import SimulatedTable
from rules.palette import UNKNOWN
from tests.boards import cross_board
from vision.calibrate import calibrate
from vision.observation import Observation, observe
from vision.stabilise import Stabiliser
from vision.tray import TrayDie


def _obs(placement, hand=False, unclear=(), game="g"):
    spaces = {k: (v, 0.9) for k, v in placement.items()}
    return Observation(game, np.eye(3), spaces, dict(placement), tuple(unclear), [], hand, {})


def test_needs_n_identical_frames():
    s = Stabiliser(frames_required=3)
    a, b = {"x": "red"}, {"x": "red", "y": "blue"}
    assert s.push(_obs(a)) is None and "1/3" in s.reason
    assert s.push(_obs(a)) is None
    assert s.push(_obs(a)) is not None and s.reason == "stable"
    assert s.push(_obs(b)) is None  # a change starts over
    assert s.push(_obs(b)) is None
    assert s.push(_obs(b)).placement == b


def test_hand_and_unclear_reset_and_block():
    s = Stabiliser(frames_required=2)
    a = {"x": "red"}
    s.push(_obs(a))
    assert s.push(_obs(a, hand=True)) is None and "hand" in s.reason
    assert s.push(_obs(a)) is None  # the count started again
    assert s.push(_obs({"x": UNKNOWN}, unclear=("x",))) is None and "unclear" in s.reason
    assert s.push(_obs({}, game=None)) is None and "not found" in s.reason
    with pytest.raises(ValueError):
        Stabiliser(0)


def test_hand_frames_never_yield_a_stable_observation():
    board = cross_board()
    table = SimulatedTable(board, seed=31)
    frame, _ = table.render({}, hand=False)
    cal = calibrate(board, [(frame, {})])
    s = Stabiliser(frames_required=1)
    for index in range(1, 5):
        frame, truth = table.render({"t2": "green"}, hand=True, index=index)
        assert truth.hand
        assert s.push(observe(frame, [board], cal)) is None
        assert "hand" in s.reason
    frame, _ = table.render({"t2": "green"}, hand=False, index=9)
    stable = s.push(observe(frame, [board], cal))
    assert stable is not None and stable.placement == {"t2": "green"}


def test_the_dice_must_hold_still_too():
    """A die read differently (or in another tray) starts the count again: never a half-read."""
    s = Stabiliser(frames_required=2)
    a = {"x": "red"}
    red4, blue2 = (
        TrayDie(4, 0, 0, 9, 9, 0.9, "tray-red", 0),
        TrayDie(2, 0, 0, 9, 9, 0.9, "tray-blue", 3),
    )

    def push(*dice):
        return s.push(replace(_obs(a), dice=list(dice)))

    assert push(red4) is None
    assert push(red4, blue2) is None  # the blue die landed: settling again
    assert push(blue2, red4).dice == [blue2, red4]  # the same two dice, read in another order
    assert push(replace(red4, value=5), blue2) is None
