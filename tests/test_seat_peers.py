"""A seat's bare holes as peers (`vision.seat_peers`), on made-up looks of one seat's holes.

Each case sets the light (log, against the paper round it) and evenness of a few of
Aggravation's first seat's holes; the first `confident` of them are read bare with confidence,
the rest unclear, every other space is read as something else. The peers may read an unclear
hole bare, or as a token of the seat's colour, but a chain of holes read by their peers must
never reach further from what was seen bare than one group of bare holes could.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

import rules
from rules.palette import UNKNOWN
from vision.printlook import _seat_holes
from vision.seat_peers import read_by_peers


def _read(
    lights: list[float], uneven: list[float], confident: int, lifted: float = float("nan")
) -> list:
    """The readings of the chosen holes after the peers have had their say; `lifted`: the
    brightness (log) the plain holes nearest each predict for its print (nan: none)."""
    board = rules.get("aggravation").board
    seat = _seat_holes(board)[0]
    n = len(board.spaces)
    ids = tuple(s.id for s in board.spaces)
    result = {sid: ("red", 0.9) for sid in ids}  # (neither bare nor unclear)
    chosen = [int(i) for i in seat[: len(lights)]]
    light = np.ones(n)
    unevenness = np.zeros(n)
    for j, i in enumerate(chosen):
        light[i], unevenness[i] = np.exp(lights[j]), uneven[j]
        result[ids[i]] = (None, 0.95) if j < confident else (UNKNOWN, 0.0)
    hue = np.radians(30.0)
    samples = SimpleNamespace(
        ids=ids,
        valid=np.ones(n, bool),
        centre=np.tile([0.2 * np.cos(hue), 0.2 * np.sin(hue), 0.5], (n, 1)),
        shade=np.full(n, np.nan),
        unevenness=unevenness,
        collar=None,
    )
    owner_k = np.full(n, -1)
    owner_k[seat] = 0
    ev = SimpleNamespace(
        colours=("yellow",),
        light=light,
        centre_chroma=np.full(n, 0.2),
        washed=np.zeros(n),
        token=np.zeros((n, 1)),
        stray=np.zeros(n),
        owner_k=owner_k,
        lifted_light=np.full(n, np.exp(lifted)),
    )
    read_by_peers(samples, ev, board, result, 0.8)
    return [result[ids[i]][0] for i in chosen]


def test_holes_along_a_gradient_are_read_bare_one_after_another():
    """Beside two bare holes, one a little lighter is bare; then, beside it, the next."""
    assert _read([0, 0, 0.07, 0.14], [0] * 4, confident=2) == [None] * 4


def test_a_chain_of_peers_never_reads_bare_a_hole_far_lighter_than_those_seen_bare():
    """0.21 lighter than every hole read bare with confidence is a token's step: beside three
    such holes it reads as a token; through holes read by their peers it is never bare."""
    assert _read([0, 0, 0.07, 0.14, 0.21], [0] * 5, confident=2)[-1] == UNKNOWN
    assert _read([0, 0, 0, 0.21], [0] * 4, confident=3)[-1] == "yellow"


def test_a_hole_no_lighter_than_its_print_lifted_by_the_glare_beside_it_is_no_token():
    """Safety. A sheen that washes nothing out lifts a bare hole as it lifts the plain holes
    beside it: as light as they predict its print (or a little lighter), it is no token of the
    seat's colour, however far lighter than the seat's bare holes outside the sheen."""
    assert _read([0, 0, 0, 0.3], [0] * 4, confident=3, lifted=0.25)[-1] == UNKNOWN
    assert _read([0, 0, 0, 0.3], [0] * 4, confident=3, lifted=0.0)[-1] == "yellow"


def test_evenness_allowed_comes_from_the_holes_read_with_confidence():
    """A hole read by its peers does not widen how uneven a bare hole may be: a token set
    down off centre makes its hole uneven, a step at a time."""
    assert (
        _read([0] * 5, [0, 0, 0.029, 0.058, 0.087], confident=2)
        == [None, None, None] + [UNKNOWN] * 2
    )


def test_a_token_is_judged_against_three_holes_read_with_confidence():
    """Two holes read with confidence and one read by its peers say too little of how much
    bare holes differ to call a far lighter hole a token: it stays unclear."""
    assert _read([0, 0, 0, 0.25], [0] * 4, confident=2)[-1] == UNKNOWN
    assert _read([0, 0, 0, 0.25], [0] * 4, confident=3)[-1] == "yellow"
