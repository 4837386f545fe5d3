"""A player's soft shadow over rows of holes is followed by the paper between them.

The twin (`hardware.phototwin`, its `shadow` condition: a body leaning over the board) laid a
soft shadow over The Right Moves' rings. Few bits of the top view there are paper all
through, so the paper field was the board's mean: the shadowed holes read at about 0.64 of
their brightness, the glare model took them for the unlifted print, and bare holes read
unclear. The paper field now counts the slivers of paper between the holes.
"""

from __future__ import annotations

from tests.twin_photos import misread, read_twin

# The Right Moves (seed 11000, photo 11) with a body's shadow over one side of the rings
CASE = ("the-right-moves", 11000, 11, "shadow")
SHADOWED_BARE = ("c11", "d18", "d19", "d20", "d21", "d22", "d24")


def test_bare_holes_in_a_soft_shadow_read_empty():
    obs, truth = read_twin(*CASE)
    for sid in SHADOWED_BARE:
        assert truth["placement"].get(sid) is None
        assert obs.spaces[sid][0] is None, f"{sid} read {obs.spaces[sid]}"
    assert misread(obs.spaces, truth["placement"]) == {}
