"""A seat's tint shown paler than the plain holes predict is taken as shown, only where the
seat's holes split cleanly into bare-looking ones and ones as colourful as its tokens."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tests.twin_photos import misread, read_twin
from vision.seen_tint import pale_tints

BLUE = np.radians(220.0)
PREDICTED = 0.66  # the tint's chroma the plain holes predict
LIGHT = 0.47


def _looks(levels, hues=None, uneven=None):
    """Looks of one seat's group of holes: each middle at its level in `hues`."""
    n = len(levels)
    hue = np.radians(np.full(n, 220.0) if hues is None else np.asarray(hues, float))
    centre = np.stack([levels * np.cos(hue), levels * np.sin(hue), np.full(n, LIGHT)], 1)
    return SimpleNamespace(
        valid=np.ones(n, bool),
        centre=centre.astype(np.float32),
        far=np.zeros(n),
        clipped=np.zeros(n),
        unevenness=np.full(n, 0.05) if uneven is None else np.asarray(uneven, float),
    )


def _pale(levels, token_level=0.8, hues=None, uneven=None, others=None):
    levels = np.asarray(levels, float)
    n = len(levels)
    samples = _looks(levels, hues, uneven)
    bare = np.tile([PREDICTED * np.cos(BLUE), PREDICTED * np.sin(BLUE), LIGHT], (n, 1))
    return pale_tints(
        {(1, "back"): np.arange(n)},
        samples,
        levels,
        bare,
        np.zeros(n) if others is None else np.asarray(others, float),
        np.array([np.nan, token_level]),
        np.ones(n, int),
    )


# two bare holes at 0.46, eight stands as colourful as blue's tokens elsewhere (0.8)
ROW = [0.46, 0.85, 0.84, 0.46, 0.86, 0.85, 0.87, 0.83, 0.85, 0.86]
STAND_HUES = [220, 238, 238, 220, 238, 238, 238, 238, 238, 238]
STAND_UNEVEN = [0.05, 0.15, 0.2, 0.04, 0.3, 0.2, 0.2, 0.15, 0.2, 0.2]


def test_a_clean_split_shows_the_tint_paler_than_predicted():
    pale = _pale(ROW, hues=STAND_HUES, uneven=STAND_UNEVEN)
    assert np.allclose(pale, 0.46)


@pytest.mark.parametrize(
    "why",
    ["tokens elsewhere unknown", "tokens elsewhere duller", "a hole in between", "as predicted"],
)
def test_no_pale_tint_without_a_clean_split(why):
    row, token_level = list(ROW), 0.8
    if why == "tokens elsewhere unknown":
        token_level = np.nan
    elif why == "tokens elsewhere duller":  # then the rich holes may be the bare print
        token_level = 0.5
    elif why == "a hole in between":
        row[4] = 0.62
    else:  # bare holes as colourful as predicted: the prediction stands
        row[0] = row[3] = 0.62
    pale = _pale(row, token_level, hues=STAND_HUES, uneven=STAND_UNEVEN)
    assert np.isnan(pale).all()


def test_another_teams_stand_on_the_row_says_nothing():
    row = list(ROW)
    row[5] = 0.3  # its own colour faint: another colour covers the hole
    others = np.zeros(len(row))
    others[5] = 0.9
    pale = _pale(row, hues=STAND_HUES, uneven=STAND_UNEVEN, others=others)
    assert np.allclose(pale, 0.46)


def test_blue_stands_on_a_back_row_printed_paler_than_predicted_are_read():
    """A twin photo (seed 7400, frame 3, issue14) whose blue back row shows 0.46 where the
    plain holes predict 0.66: before, its eight blue stands and two bare holes were unclear."""
    obs, truth = read_twin("playground-battles", 7400, 3, "issue14")
    row = [f"{c}8" for c in "bcdefghi"]
    for sid in row:
        assert obs.spaces[sid][0] == (truth["placement"].get(sid) or None), sid
    assert not misread(obs.spaces, truth["placement"])
