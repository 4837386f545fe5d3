"""Which hues belong to which token colour in a photo (vision.hue_windows)."""

import numpy as np

from vision.hue_windows import gathered_hue, photo_windows, prototype_windows, two_sets
from vision.tokens import HUE_BINS, HUE_CENTRES, SpaceLooks

TOKEN_SURE = 0.42  # (as vision.spaces counts a token clear)
COLOURS = ("red", "yellow", "green", "blue")


def _looks_with_tokens(hues_by_space: dict[int, float], n: int, chroma: float = 0.6):
    """SpaceLooks of n spaces where the given spaces hold a token of the given hue."""
    peaks = np.zeros((n, HUE_BINS), np.float32)
    for i, hue in hues_by_space.items():
        peaks[i, _bin(hue)] = chroma
    zeros = np.zeros(n, np.float32)
    return SpaceLooks(
        tuple(f"s{i}" for i in range(n)), np.ones(n, bool), np.zeros((n, 3), np.float32),
        peaks, peaks.copy(), zeros, zeros, peaks.copy(),
    )  # fmt: skip


def _bin(hue: float) -> int:
    return int(np.argmin(np.abs(HUE_CENTRES - hue)))


def _windows_for(hues: list[float]):
    win = prototype_windows(COLOURS, None)
    looks = _looks_with_tokens(dict(enumerate(hues)), n=len(hues) + 2)
    return win, photo_windows(win, looks, np.full(len(hues) + 2, -1), TOKEN_SURE)


def test_a_sets_own_hue_in_the_photo_draws_the_colour_windows():
    """Real green glass is often teal: in one photo a set's clear tokens lie close together,
    and a teal green beside them must not fall in blue's window (it was read blue, sure)."""
    win, seen = _windows_for([167.5, 172.5, 177.5, 232.5, 232.5])
    green, blue = win.colours.index("green"), win.colours.index("blue")
    teal = _bin(182.5)
    assert win.member[blue, teal]  # the palette alone gives teal to blue
    assert seen.member[green, teal] and not seen.member[blue, teal]
    # tokens that do not gather (two sets' worth of hues in one window) move nothing
    win, scattered = _windows_for([140.0, 175.0, 232.5])
    assert np.array_equal(scattered.member, win.member)


def test_two_sets_in_blues_window_give_the_far_one_to_green():
    """A teal green set as many as the blue marbles, all in blue's window (twin photo
    aggravation issue14 7800/0: six teal greens were read blue, sure): the group nearer blue
    is blue's, the other green's, as green shows no set of its own elsewhere."""
    teals = [182.5] * 6 + [177.5] * 2
    win, seen = _windows_for(teals + [237.5] * 5 + [242.5] * 4)
    green, blue = win.colours.index("green"), win.colours.index("blue")
    assert win.member[blue, _bin(182.5)]  # (the palette's windows give the teals to blue)
    for hue in (177.5, 182.5):
        assert seen.member[green, _bin(hue)] and not seen.member[blue, _bin(hue)]
    for hue in (237.5, 242.5):
        assert seen.member[blue, _bin(hue)] and not seen.member[green, _bin(hue)]


def test_a_second_set_in_a_window_is_nobodys_when_its_neighbour_shows_its_own_elsewhere():
    """Green's own marbles at 135 degrees: the teal group inside blue's window is then no
    green set, and no blue one either: unclear, never blue."""
    teals = [182.5] * 4
    win, seen = _windows_for(teals + [237.5] * 4 + [132.5] * 3)
    green, blue = win.colours.index("green"), win.colours.index("blue")
    assert not seen.member[blue, _bin(182.5)] and not seen.member[green, _bin(182.5)]
    assert seen.member[blue, _bin(237.5)] and seen.member[green, _bin(132.5)]


def test_a_colours_hue_in_a_photo_is_where_most_of_its_tokens_gather():
    """A stray hue among a colour's tokens (a teal marble inside blue's window) does not hide
    that the rest gather tightly; tokens that do not gather give no hue."""
    blue = np.array([222.0] * 11 + [182.0])
    assert abs(gathered_hue(blue) - 222.0) < 1e-6
    assert gathered_hue(np.array([222.0, 182.0])) is None  # two tokens, no majority
    assert gathered_hue(np.array([200.0, 220.0, 240.0, 260.0])) is None  # spread out
    wrapped = gathered_hue(np.array([355.0, 2.0, 5.0, 358.0]))
    assert min(wrapped, 360.0 - wrapped) < 2.0  # round the circle, red's hues stay red


def test_two_sets_are_two_tight_groups_far_apart_holding_every_token():
    first, second = sorted(two_sets(np.array([182.0] * 4 + [240.0] * 5)))
    assert abs(first - 182.0) < 1e-6 and abs(second - 240.0) < 1e-6
    assert two_sets(np.array([182.0] * 4 + [205.0] * 5)) is None  # too near: one set, shaded
    assert two_sets(np.array([182.0] * 4 + [240.0] * 5 + [300.0])) is None  # a third hue
    assert two_sets(np.array([182.0] + [240.0] * 5)) is None  # one stray is no set


def test_a_set_between_two_palette_windows_is_found_once_its_neighbour_has_gathered():
    """Teal green marbles at 177.5-182.5 degrees: in the palette's windows the 182.5 one is
    blue's and the rest nobody's (twin photo aggravation issue14 9600/8: two green marbles
    unclear). Once blue's own set has drawn blue's window round 240, green's window reaches
    the teal set, and green's hue moves there; blue never takes a teal."""
    teals = [177.5, 177.5, 177.5, 182.5]
    win, seen = _windows_for(teals + [237.5, 242.5, 242.5, 247.5, 247.5, 237.5, 242.5])
    green, blue = win.colours.index("green"), win.colours.index("blue")
    assert not win.member[green, _bin(177.5)] and not win.member[green, _bin(182.5)]
    for hue in (177.5, 182.5):
        assert seen.member[green, _bin(hue)] and not seen.member[blue, _bin(hue)]
    assert 177.0 <= seen.hues[green] <= 183.0
    # with no set of blue's own to bound it, the teal group moves nothing
    win, alone = _windows_for(teals)
    assert not alone.member[green, _bin(182.5)]


def test_a_set_nearer_a_gathered_neighbours_hue_than_its_own_is_still_its_own():
    """Teal green marbles at 177.5 with blue's own set gathered right at blue's prototype
    (twin aggravation issue14 9500/16: nine green marbles unclear): 177.5 lies nearer blue's
    hue than green's, but beyond blue's gathered window; among the colours that gathered
    nowhere, green's prototype is the nearest, so the teal set is green's."""
    teals = [177.5] * 6 + [182.5]
    win, seen = _windows_for(teals + [217.5, 222.5, 217.5, 217.5, 222.5])
    green, blue = win.colours.index("green"), win.colours.index("blue")
    for hue in (177.5, 182.5):
        assert seen.member[green, _bin(hue)] and not seen.member[blue, _bin(hue)]
    assert seen.member[blue, _bin(217.5)] and not seen.member[green, _bin(217.5)]
