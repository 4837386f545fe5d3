"""A token smaller than its seat's hole is read by the hole's own bare print seen beside it,
only where nothing but a token can have made the hole's colour uneven."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import rules
from tests.twin_photos import misread, read_twin
from vision.print_beside import print_beside_tokens

BLUE = 225.0  # degrees: the seat's hue
PRINT = 0.46  # the bare print's chroma in it, as this photo shows it
PIXELS = 150  # over most of the hole


COLLAR = 0.27  # the seat's pale collar round its holes: chroma in its hue ...
COLLAR_LIGHT = 0.85  # ... and brightness (the print's: 0.5)


def _hole(patch=0.3, patch_chroma=0.85, rest_chroma=PRINT, rest_hue=BLUE, patch_light=0.5):
    """(cx, cy, light) of a hole's pixels: a `patch` share of them (a stand) at
    `patch_chroma` and `patch_light`, the rest at `rest_chroma` and `rest_hue`."""
    k = int(patch * PIXELS)
    chroma = np.r_[np.full(k, patch_chroma), np.full(PIXELS - k, rest_chroma)]
    hue = np.radians(np.r_[np.full(k, BLUE), np.full(PIXELS - k, rest_hue)])
    light = np.r_[np.full(k, patch_light), np.full(PIXELS - k, 0.5)]
    return chroma * np.cos(hue), chroma * np.sin(hue), light


def _collars(spaces):
    """The rings round the holes: the seat's pale collar."""
    hue, n = np.radians(BLUE), len(spaces)
    return (np.full((n, 40), COLLAR * np.cos(hue)), np.full((n, 40), COLLAR * np.sin(hue)),
            np.full((n, 40), COLLAR_LIGHT))  # fmt: skip


def _sure(hole=None, predicted=PRINT, uneven=0.2, washed=0.0, others=0.0, lift=0.0):
    """How surely a token of the seat's colour is read on one seat's hole (a plain hole
    beside it: never)."""
    cx, cy, light = hole or _hole()
    samples = SimpleNamespace(
        valid=np.ones(2, bool),
        unevenness=np.array([uneven, 0.02]),
        far=np.zeros(2),
        clipped=np.full(2, washed),
        washed=np.full(2, washed),
        disc_looks=lambda spaces: (cx[None, :], cy[None, :], light[None, :]),
        collar_looks=_collars,
    )
    hue = np.radians(BLUE)
    bare = np.array([[predicted * np.cos(hue), predicted * np.sin(hue), 0.5], [0.0, 0.0, 0.5]])
    sure = print_beside_tokens(
        samples,
        rules.get("playground-battles").board,  # (stands no wider than their holes)
        np.array([1, -1]),
        np.array([BLUE, 0.0]),
        bare,
        np.array([True, True]),
        np.array([others, 0.0]),
        np.zeros(2),
        np.full(2, lift),
    )
    assert sure[1] == 0.0
    return float(sure[0])


def test_a_stand_on_its_holes_bare_print_is_read():
    assert _sure() == 1.0


def test_only_where_tokens_are_no_wider_than_their_holes():
    """A marble covers its hole; a bare hole's print there is no even tint."""
    pb, aggravation = rules.get("playground-battles").board, rules.get("aggravation").board
    assert pb.token_radius <= pb.hole_radius and aggravation.token_radius > aggravation.hole_radius
    hue = np.radians(BLUE)
    bare = np.array([[PRINT * np.cos(hue), PRINT * np.sin(hue), 0.5]] * 2)
    cx, cy, light = _hole()
    samples = SimpleNamespace(
        valid=np.ones(2, bool), unevenness=np.full(2, 0.2), far=np.zeros(2),
        clipped=np.zeros(2), washed=np.zeros(2),
        disc_looks=lambda spaces: (np.tile(cx, (len(spaces), 1)), np.tile(cy, (len(spaces), 1)),
                                   np.tile(light, (len(spaces), 1))),
        collar_looks=_collars,
    )  # fmt: skip
    ask = (samples, np.array([1, 1]), np.full(2, BLUE), bare, np.ones(2, bool), np.zeros(2),
           np.zeros(2), np.zeros(2))  # fmt: skip
    assert print_beside_tokens(samples, pb, *ask[1:]).min() == 1.0
    assert not print_beside_tokens(samples, aggravation, *ask[1:]).any()


def test_a_pale_stand_as_colourful_as_the_print_but_far_brighter_is_read():
    """Lavender on a dark slate print: no colour split, but a third of the hole far brighter
    than the print and more colourful than the seat's pale collars."""
    assert _sure(_hole(patch_chroma=PRINT, patch_light=0.8)) == 1.0


@pytest.mark.parametrize(
    "why, kwargs",
    [
        ("no brighter than the print", {"hole": _hole(patch_chroma=PRINT, patch_light=0.55)}),
        ("the collar's own look (a sheet laid off its place)",
         {"hole": _hole(patch_chroma=COLLAR + 0.03, patch_light=COLLAR_LIGHT)}),
        ("glare lifts the holes near it", {"hole": _hole(patch_chroma=PRINT, patch_light=0.8),
                                           "lift": 0.3}),
    ],
)  # fmt: skip
def test_no_pale_stand_is_read_where_the_print_or_its_collar_can_look_so(why, kwargs):
    assert _sure(**kwargs) == 0.0, why


def test_a_stand_is_read_where_the_print_is_paler_than_predicted():
    """(at a start no bare hole of the seat shows the tint; the hole itself does)"""
    assert _sure(predicted=0.66) == 1.0


@pytest.mark.parametrize(
    "why, kwargs",
    [
        ("a bare print, even in colour", {"hole": _hole(patch=0.0)}),
        ("a patch no more colourful than the predicted print",
         {"hole": _hole(patch_chroma=0.5), "predicted": 0.46}),
        ("glare washed part of a bare hole out", {"hole": _hole(patch=0.6, patch_chroma=0.46,
                                                               rest_chroma=0.15)}),
        ("a hand's edge over part of the hole", {"hole": _hole(rest_chroma=0.1)}),
        ("a sleeve's colour over the rest", {"hole": _hole(rest_chroma=0.5, rest_hue=30.0)}),
        ("the camera saturated", {"washed": 0.2}),
        ("an edge across the hole", {"uneven": 0.9}),
        ("another colour in the cell", {"others": 0.6}),
    ],
)  # fmt: skip
def test_no_token_where_something_else_can_have_made_the_hole_uneven(why, kwargs):
    assert _sure(**kwargs) == 0.0, why


def test_a_start_of_stands_on_their_back_rows_is_read():
    """A twin photo (seed 6800, frame 3, at the start) whose blue back row's ten stands were
    all unclear (the plain holes predict blue's tint far richer than printed)."""
    obs, truth = read_twin("playground-battles", 6800, 3, "start")
    for sid in [f"{c}8" for c in "abcdefghij"]:
        assert obs.spaces[sid][0] == truth["placement"][sid], sid
    assert not misread(obs.spaces, truth["placement"])


def test_pale_lavender_stands_on_blues_dark_slate_row_are_read():
    """Twin photo (9600, 12), issue conditions, no hand: lavender stands on c8 and f8 of
    blue's back row, as colourful as the slate print, far brighter; both were unclear."""
    obs, truth = read_twin("playground-battles", 9600, 12, "issue14")
    assert not truth["hand"]
    for sid in ("c8", "f8"):
        assert truth["placement"][sid] == "blue" and obs.spaces[sid][0] == "blue", sid
    assert not misread(obs.spaces, truth["placement"])


def test_a_bare_hole_lit_brighter_than_its_prediction_is_no_pale_stand():
    """Twin photo (10500, 4), every condition at once: a bare hole of blue's back row lit 1.3
    times the brightness the plain holes predict (a shadow's edge between them) was read as a
    pale blue stand, sure; the seat's bare holes beside it show the print that bright."""
    obs, truth = read_twin("playground-battles", 10500, 4, "all")
    assert truth["placement"].get("j8") is None
    assert obs.spaces["j8"][0] != "blue"
    assert not misread(obs.spaces, truth["placement"])


def test_a_bare_hole_in_a_row_lit_brighter_than_predicted_is_no_pale_stand():
    """Twin photo (12400, 15), every condition at once: blue's back row lit well above what
    the plain holes predict, none of its holes taken to show its bare print; the bare hole i8,
    1.3 times the predicted brightness over a good share of it, was read as a pale blue
    stand, sure. A pale stand stands out from its row: it is held to the row's own light."""
    obs, truth = read_twin("playground-battles", 12400, 15, "all")
    assert truth["placement"].get("i8") is None
    assert obs.spaces["i8"][0] != "blue"
    assert not misread(obs.spaces, truth["placement"])
