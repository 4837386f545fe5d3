"""A token of a seat's own colour on its hole, told by the set's hue (vision.seat_hue)."""

import numpy as np

import rules
from vision.seat_hue import hue_told_tokens
from vision.tokens import HUE_BINS, SpaceLooks

BOARD = rules.get("aggravation").board
BLUE = 1  # (the candidate column of blue, as in vision.spaces: red, blue, yellow, green)


def _looks(hues: dict[str, float], chroma: dict[str, float]):
    """Every space bare grey but the given ones, whose middles show these hues and chroma."""
    n = len(BOARD.spaces)
    centre = np.tile(np.array([0.0, 0.0, 0.45], np.float32), (n, 1))
    for sid, hue in hues.items():
        i = BOARD.ids().index(sid)
        centre[i, :2] = chroma[sid] * np.array([np.cos(np.radians(hue)), np.sin(np.radians(hue))])
    zeros = np.zeros(n, np.float32)
    peaks = np.zeros((n, HUE_BINS), np.float32)
    return SpaceLooks(BOARD.ids(), np.ones(n, bool), centre, peaks, peaks, zeros, zeros, peaks)


def _told(token_hue: float, set_hue: float = 241.5, others: float = 0.0) -> dict[str, float]:
    """Blue's seat: its base and home holes bare (the print at 220 degrees, chroma 0.5) but
    blue-h2, which holds a blue marble of the given hue (chroma 0.72)."""
    seat = [s.id for s in BOARD.spaces if s.owner is not None and s.id.startswith("blue-")]
    hues = {sid: 220.0 for sid in seat} | {"blue-h2": token_hue}
    chroma = {sid: 0.5 for sid in seat} | {"blue-h2": 0.72}
    looks = _looks(hues, chroma)
    n = len(BOARD.spaces)
    owner_k = np.array([BLUE if sid in seat else -1 for sid in BOARD.ids()])
    strength = np.array([chroma.get(sid, 0.0) for sid in BOARD.ids()])
    hole_like = np.where(np.array(BOARD.ids()) == "blue-h2", 0.0, 1.0)
    set_hues = np.array([np.nan, set_hue, np.nan, np.nan])
    set_chroma = np.array([np.nan, 0.6, np.nan, np.nan])
    told = hue_told_tokens(
        looks, BOARD, owner_k, set_hues, set_chroma, strength, hole_like,
        np.full(n, others), np.zeros(n),
    )  # fmt: skip
    return {sid: told[BOARD.ids().index(sid)] for sid in seat}


def test_a_dark_marble_of_the_sets_hue_on_its_seats_hole_is_told_by_it():
    """Twin aggravation issue14 7900/10: two blue glass marbles at 238-240 degrees in blue's
    holes printed at 220, darker and as even as the print, were unclear."""
    told = _told(240.0)
    assert told["blue-h2"] == 1.0
    assert sum(told.values()) == 1.0  # (the bare holes are told nothing)


def test_no_hue_tells_it_where_the_set_and_the_print_look_alike_or_it_lies_between():
    assert _told(228.0, set_hue=228.0)["blue-h2"] == 0.0  # the set's hue near the print's
    assert _told(230.0)["blue-h2"] == 0.0  # between the two: a pale token or a tinted cast
    assert _told(240.0, set_hue=np.nan)["blue-h2"] == 0.0  # no set gathered in this photo
    assert _told(240.0, others=0.3)["blue-h2"] == 0.0  # another colour in the cell
