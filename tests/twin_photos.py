"""Photos of the independent twin table (`hardware.phototwin`) as the camera gives them, and
what a reading of one got wrong."""

from __future__ import annotations

import cv2
import numpy as np

import rules
from hardware.phototwin import render
from rules.palette import UNKNOWN
from vision.observation import observe


def twin_frame(game_name: str, seed: int, index: int, conditions) -> tuple[np.ndarray, dict]:
    """Twin photo (seed, index) under `conditions`, decoded as the camera's frame, and its
    truth."""
    jpeg, truth = render(game_name, seed, index, conditions)
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), truth


def read_twin(game_name: str, seed: int, index: int, conditions):
    """The observation of twin photo (seed, index), read alone, and its truth."""
    frame, truth = twin_frame(game_name, seed, index, conditions)
    return observe(frame, [rules.get(game_name).board]), truth


def misread(spaces: dict, placement: dict) -> dict[str, str | None]:
    """Spaces read as something they are not, with confidence, and what they were read as
    (unclear is never wrong)."""
    return {
        sid: colour
        for sid, (colour, _) in spaces.items()
        if colour not in (UNKNOWN, placement.get(sid))
    }
