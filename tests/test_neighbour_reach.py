"""A stand on the next square reaching into this one is no stand hidden behind this one's.

On Playground Battles two stands may share a square (a battle), the nearer hiding most of the
other, so colour of another team beside a stand makes its square unclear. The photo-like twin
(`hardware.phototwin`) sets stands down up to a quarter spacing off their square, and tall
stands lean in perspective: a neighbour's corner then lies inside this square.
"""

from __future__ import annotations

import pytest

from rules.palette import UNKNOWN
from tests.twin_photos import misread, read_twin

GAME = "playground-battles"


def _read(seed: int, index: int):
    return read_twin(GAME, seed, index, "issue14")


@pytest.mark.parametrize(
    ("seed", "index", "lone"),
    [
        (2014, 2, ("b2", "j7")),  # a blue stand next door reaches into each
        (2016, 1, ("b5",)),
    ],
)
def test_a_lone_stand_beside_a_neighbour_reaching_in_is_read(seed, index, lone):
    obs, truth = _read(seed, index)
    for sid in lone:
        assert "+" not in truth["placement"][sid] and sid not in truth["hidden_by_hand"]
        assert obs.spaces[sid][0] == truth["placement"][sid], f"{sid} read {obs.spaces[sid]}"
    assert not misread(obs.spaces, truth["placement"])


def test_a_battle_whose_hidden_stand_joins_its_neighbours_colour_stays_unclear():
    """The hidden blue stand's edge and the blue stand next door make one blob: far more of
    it lies in this square than a neighbour's reach, so it is still a possible battle."""
    obs, truth = _read(6400, 2)
    assert truth["placement"]["j1"] == "red+blue"
    assert obs.spaces["j1"][0] in ("red+blue", UNKNOWN)


@pytest.mark.parametrize(
    ("seed", "index", "lone"),
    [
        (7400, 0, ("a1", "c1", "h1")),  # red's row shows 0.46 where 0.39 is predicted
        (7401, 2, ("a1", "g1")),  # ... and 10 degrees off the predicted hue
    ],
)
def test_a_stand_on_another_teams_row_is_read_against_the_tint_its_bare_holes_show(
    seed, index, lone
):
    """Round a blue stand on red's back row, the row's print is what is red: the bare holes of
    the row say how it looks in this photo, richer or in another hue than the plain holes
    predict. Against the prediction it passed for the edge of a red stand hidden behind."""
    obs, truth = _read(seed, index)
    for sid in lone:
        assert truth["placement"][sid] == "blue" and sid not in truth["hidden_by_hand"]
        assert obs.spaces[sid][0] == "blue", f"{sid} read {obs.spaces[sid]}"


def test_a_pale_stand_of_the_rows_colour_beside_another_is_a_possible_battle():
    """A pale blue stand beside a salmon one on blue's back row (seed 7601, frame 2): the
    pale stand is as colourful as the row's print, so by colour alone it was print, and the
    square was read red at 0.53. It is far brighter than the print: no blend of the print
    with the paper is that colourful that bright, inside the hole."""
    obs, truth = _read(7601, 2)
    assert truth["placement"]["d8"] == "red+blue"
    assert obs.spaces["d8"][0] in ("red+blue", UNKNOWN)


def test_a_pale_stand_of_the_rows_colour_beside_another_blends_with_neither_print_nor_it():
    """A salmon stand beside a blue one on red's back row (seed 9500, frame 11): as colourful
    as the row's print but far brighter, it was taken for the print blending into the blue
    stand's edge, and the square was read blue alone. Inside the hole such a blend is paler
    in step with its brightness, as a blend of print and paper is."""
    obs, truth = _read(9500, 11)
    assert truth["placement"]["c1"] == "red+blue" and "c1" not in truth["hidden_by_hand"]
    assert obs.spaces["c1"][0] in ("red+blue", UNKNOWN)
    assert not misread(obs.spaces, truth["placement"])
