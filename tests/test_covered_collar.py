"""A token of a seat's colour no more colourful than its hole's tint is read by the bright
collar it hides, only where nothing else (a shadow, glare, blur, a hand, another colour, a
sheet laid off its place) can have taken the collar away."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import rules
from rules.palette import UNKNOWN
from tests.twin_photos import misread, read_twin
from vision.covered_collar import collar_against_plain, collared_holes, covered_collar_tokens

BOARD = rules.get("aggravation").board
IDS = BOARD.ids()
N = len(IDS)
OWNER_K = np.array([-1 if sp.owner is None else sp.owner for sp in BOARD.spaces])
HOLE = IDS.index("blue-b2")  # a base hole of blue's, with its plain track holes nearby
BARE_COLLAR = 1.6  # a bare seat's hole's ring against its middle
PLAIN_COLLAR = 1.75  # a bare plain hole's
BLUE = 230.0  # degrees: the seat's hue
MIDDLE = 0.55  # the middle's chroma in it


def _in_hue(chroma: float, degrees: float, light: float) -> list[float]:
    return [chroma * np.cos(np.radians(degrees)), chroma * np.sin(np.radians(degrees)), light]


def _looks(collar=0.95, plain_collar=PLAIN_COLLAR, uneven=0.1, ring=(0.45, BLUE)):
    """Every hole bare but HOLE, whose ring outside is `collar` times as bright as its middle,
    its darkest quarter of chroma `ring[0]` at hue `ring[1]`."""
    collars = np.where(OWNER_K >= 0, BARE_COLLAR, plain_collar)
    collars[HOLE] = collar
    centre = np.tile(_in_hue(MIDDLE, BLUE, 0.45), (N, 1))
    hiding = _in_hue(ring[0], ring[1], 0.4)
    return SimpleNamespace(
        valid=np.ones(N, bool),
        collar=collars.astype(np.float32),
        centre=centre.astype(np.float32),
        collar_dark_look=lambda spaces: np.tile(hiding, (len(spaces), 1)),
        disc_light=np.ones((N, 8), np.float32),  # (what the module asks for evenness)
        unevenness=np.where(np.arange(N) == HOLE, uneven, 0.03),
        peaks=np.zeros((N, 36), np.float32),
        far=np.zeros(N, np.float32),
        clipped=np.zeros(N, np.float32),
        washed=np.zeros(N, np.float32),
    )


def _sure(samples=None, over_tint=0.1, sized=1.0, others=0.0, lift=0.0, of_its_set=np.nan):
    """How surely the module reads a token of blue's on HOLE (`of_its_set`: its chroma
    against this photo's clear blue tokens; nan, none seen)."""
    at_hole = np.arange(N) == HOLE
    samples = samples or _looks()
    sure = covered_collar_tokens(
        samples,
        BOARD,
        OWNER_K,
        np.full(N, BLUE),
        np.where(OWNER_K >= 0, np.where(at_hole, over_tint, -0.05), np.nan),
        np.where(at_hole, sized, 1.0),
        np.where(at_hole, others, 0.0),
        np.zeros(N),
        np.where(at_hole, lift, 0.0),
        collar_against_plain(samples, BOARD, np.arange(N)),
        np.where(at_hole, of_its_set, np.nan),
    )
    assert not np.delete(sure, HOLE).any()  # bare holes with their collars: nothing read
    return float(sure[HOLE])


def test_the_hole_is_a_seats_round_hole_with_a_plain_collar():
    assert collared_holes(BOARD)[HOLE] and OWNER_K[HOLE] >= 0
    assert BOARD.token_radius > BOARD.hole_radius  # (marbles wider than their holes)


def test_a_hidden_collar_with_the_plain_collars_bright_beside_it_is_a_token():
    assert _sure() == 1.0


@pytest.mark.parametrize(
    "why, kwargs",
    [
        ("its collar shows", {"samples": _looks(collar=1.4)}),
        ("the plain holes' collars are dim too: a shadow", {"samples": _looks(plain_collar=1.2)}),
        ("less colourful than its predicted print", {"over_tint": -0.1}),
        ("the colour goes on beyond a token's edge", {"sized": 0.0}),
        ("another colour in the cell", {"others": 0.5}),
        ("glare lifts the holes near it", {"lift": 0.3}),
        ("its light is uneven: part of the collar in its middle", {"samples": _looks(uneven=0.6)}),
        ("an arm over the ring beside it: brown", {"samples": _looks(ring=(0.4, 25.0))}),
        ("a shadow over the ring: grey", {"samples": _looks(ring=(0.05, BLUE))}),
        ("this photo's clear blue tokens are three times as colourful", {"of_its_set": 0.35}),
    ],
)
def test_no_token_is_read_where_something_else_can_have_hidden_the_collar(why, kwargs):
    assert _sure(**kwargs) == 0.0, why


def test_a_hole_about_as_colourful_as_its_sets_clear_tokens_is_still_one():
    assert _sure(of_its_set=0.9) == 1.0


def test_a_bare_hole_between_two_checkers_in_a_dim_light_is_no_checker_of_theirs():
    """Photo-like table (The Right Moves, table seed 4006, every condition; the appliance's
    flow, calibrated from the start, where red checkers covered red's holes): bare red holes
    d15 and d19, between checkers, their collars dimmed, were read as red checkers whose clear
    fellows on the board showed three times their chroma (`bench vision --stress`)."""
    from hardware.phototable import PhotoTable
    from vision.calibrate import calibrate
    from vision.config import DEFAULT_CONFIG
    from vision.observation import observe

    game = rules.get("the-right-moves")
    board = game.board
    table = PhotoTable(board, seed=4006, conditions="all")
    start = game.placement(game.initial_state())
    cal = calibrate(board, [(table.render(start, hand=False)[0], start)], DEFAULT_CONFIG)
    blue = "a1 b3 b6 c5 c6 c8 c9 d3 d8 d11 d14 d23 d25 d26 d28".split()
    red = "b1 b7 c3 c7 c10 d2 d16".split()
    placement = {**dict.fromkeys(blue, "blue"), **dict.fromkeys(red, "red")}
    frame, truth = table.render(placement)
    assert truth.placement == placement and not truth.hand
    spaces = observe(frame, [board], cal).spaces
    assert start["d15"] == "red" and placement.get("d15") is None
    assert misread(spaces, placement) == {}


def test_a_start_of_dark_marbles_in_their_base_is_read():
    """A twin photo (seed 6800, frame 1, at the start) whose blue and green marbles in their
    bases are about as colourful as the base holes' tint (blue 0.56-0.59 against 0.53): before,
    all eight were unclear."""
    obs, truth = read_twin("aggravation", 6800, 1, "start")
    for sid in ("blue-b2", "blue-b3", "green-b1", "green-b2", "green-b3", "green-b4"):
        assert obs.spaces[sid][0] == truth["placement"][sid], sid
    assert not misread(obs.spaces, truth["placement"])


def test_dark_marbles_half_hiding_their_collars_are_never_read_as_empty_holes():
    """A twin photo (seed 9101, frame 5, at the start, defocused, a hand over the green home
    row) whose dark green glass marbles in their base are as colourful and as dark as the
    base's predicted print, and hide their collars only in part (the ring 1.11-1.14 times as
    bright as the middle; bare holes show 1.35 and more): three were read as empty holes."""
    obs, truth = read_twin("aggravation", 9101, 5, "start")
    for sid in ("green-b1", "green-b2", "green-b3", "green-b4"):
        assert truth["placement"][sid] == "green"
        assert obs.spaces[sid][0] in ("green", UNKNOWN), sid
