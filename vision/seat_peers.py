"""A seat's bare holes, read in the same photo, say how its bare print looks there.

A dull token of a seat's own colour on that seat's hole can be no more colourful than the
hole's tint: its colour alone cannot tell it from the bare print, and the reader leaves it
unclear. But the print of one seat's holes is one ink on one paper: in one photo its bare holes
are lit alike (the paper round each says how much light falls there). A hole of that seat far
lighter than every one of its bare holes, in the seat's own hue and no greyer, with no colour
of any other token and no glare, holds something: and the only thing of that hue that is no
more colourful than the print is a token of the seat's colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rules.geometry import Board
from rules.palette import UNKNOWN
from vision.hidden_stand import hidden_stand
from vision.printlook import _seat_holes
from vision.tokens import SpaceLooks, hue_gap

if TYPE_CHECKING:
    from vision.spaces import Evidence

PEERS_MIN = 3  # bare holes of the seat, read with confidence, that say how its print looks
# lighter than the lightest of them (log ratio, the paper's light round each divided out) by
# this, and by PEER_SPREAD_ROOM times as much again as they differ among themselves: bare holes
# on dev photos came within 0.24 of the lightest of their seat's bare holes (glare, curl,
# shadows), and never within 0.13 of this bar; dull tokens of the seat's colour 0.29 (median)
PEER_LIGHTER = 0.2
PEER_SPREAD_ROOM = 1.5
PEER_HUE = 20.0  # degrees: its middle's hue this close to the bare holes' (a token of the seat's
PEER_GREYER = 0.05  # colour), and its chroma at most this much under theirs
OTHER_COLOUR = 0.2  # no token of another colour, nor colour nobody owns, above this
GLARE_NONE = 0.05  # share of the hole's middle washed white: glare lightens a bare print too
SHADE_FLOOR = 0.3  # (the paper's light round a hole, as the reader measures it, not below)


def read_by_peers(
    samples: SpaceLooks,
    ev: Evidence,
    board: Board,
    result: dict[str, tuple[str | None, float]],
    min_confidence: float,
) -> None:
    """Read, in `result`, the unclear seat holes that hold a dull token of their seat's
    colour as their bare peers in the same photo show it."""
    unclear = [i for i, sid in enumerate(samples.ids) if result[sid][0] == UNKNOWN]
    if not unclear or not len(ev.colours):
        return
    shade = np.where(np.isnan(samples.shade), 1.0, samples.shade)
    light = ev.light / np.maximum(shade, SHADE_FLOOR)
    hue = np.degrees(np.arctan2(samples.centre[:, 1], samples.centre[:, 0])) % 360.0
    others = _other_colours(ev)
    for seat in _seat_holes(board):
        bare = [i for i in seat if _surely_empty(result, samples.ids[i], min_confidence)]
        if len(bare) < PEERS_MIN:
            continue
        lightest = float(light[bare].max())
        spread = float(np.log(lightest / max(float(light[bare].min()), 1e-3)))
        bar = PEER_LIGHTER + PEER_SPREAD_ROOM * spread
        peer_hue = float(np.median(hue[bare]))
        peer_chroma = float(np.median(ev.centre_chroma[bare]))
        for i in np.intersect1d(seat, unclear):
            k = int(ev.owner_k[i])
            if k < 0 or not samples.valid[i]:
                continue
            lighter = float(np.log(max(float(light[i]), 1e-3) / lightest))
            if (
                lighter <= bar
                or hue_gap(float(hue[i]), peer_hue) > PEER_HUE
                or ev.centre_chroma[i] < peer_chroma - PEER_GREYER
                or others[i] >= OTHER_COLOUR
                or ev.washed[i] >= GLARE_NONE
            ):
                continue
            colour = ev.colours[k]
            doubt = hidden_stand(ev, int(i), colour) if board.shared_spaces else 0.0
            if 1.0 - doubt >= min_confidence:
                result[samples.ids[i]] = (colour, 1.0 - doubt)


def _surely_empty(result: dict, sid: str, min_confidence: float) -> bool:
    """(An unseen space is unclear, never surely empty.)"""
    colour, confidence = result[sid]
    return colour is None and confidence >= min_confidence


def _other_colours(ev: Evidence) -> np.ndarray:
    """(N,) the strongest token of a colour not the space's seat's, or colour nobody owns."""
    k_count = len(ev.colours)
    own = np.arange(k_count)[None, :] == ev.owner_k[:, None]
    return np.maximum(np.where(own, 0.0, ev.token).max(1, initial=0.0), ev.stray)
