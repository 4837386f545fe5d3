"""A hand's shadow teaches the reader nothing about the rest of the board.

The photo-like twin (`hardware.phototwin`) draws an arm across Manji's board with its shadow
in a band along one side. The plain holes in that band look darker than the print; taken for
the print's own grey, they made the bare seat holes across the board, in the light, look lifted
by glare and their tint washed, so those holes were unclear.
"""

from __future__ import annotations

import cv2
import numpy as np

import rules
from hardware.phototwin import render
from rules.palette import UNKNOWN
from vision.observation import observe

# a Manji table (seed 7300, photo 1) whose arm lies across the board, its shadow beside it
CASE = ("manji", 7300, 1, "issue14")
# bare holes across the board from the arm, in the lamp's light
FAR_BARE = ("t06", "red-h1", "red-h2", "yellow-l1", "yellow-l2", "yellow-l3", "yellow-h1")


def test_bare_holes_across_the_board_from_a_hand_and_its_shadow_read_empty():
    game, seed, index, conditions = CASE
    jpeg, truth = render(game, seed, index, conditions)
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert truth["hand"]
    obs = observe(image, [rules.get(game).board])
    assert obs.hand
    for sid in FAR_BARE:
        assert truth["placement"].get(sid) is None and sid not in truth["hidden_by_hand"]
        assert obs.spaces[sid][0] is None, f"{sid} read {obs.spaces[sid]}"
    # and nothing on the board is read wrong with confidence
    for sid, (colour, _) in obs.spaces.items():
        if colour not in (None, UNKNOWN):
            assert colour == truth["placement"].get(sid), sid
