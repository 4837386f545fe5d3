"""A dull stand of a seat's own colour in that seat's hole is never read as the bare hole.

In a dim, soft twin photo (`hardware.phototwin`, every condition at once) a dark red stand
stood in Playground Battles' red seat hole g1: its colour reached just the level a bare
red hole may show (the predicted tint and its room), and the hole read empty at 0.70.
There no token is now only half sure: the referee waits.
"""

from __future__ import annotations

from rules.palette import UNKNOWN
from tests.twin_photos import misread, read_twin

CASE = ("playground-battles", 12100, 5, "all")


def test_a_dark_red_stand_in_its_red_seat_hole_is_not_read_as_empty():
    obs, truth = read_twin(*CASE)
    assert truth["placement"]["g1"] == "red"
    assert obs.spaces["g1"][0] in ("red", UNKNOWN), obs.spaces["g1"]
    assert misread(obs.spaces, truth["placement"]) == {}
