"""A seat's bare holes, read in the same photo, say how its bare print looks there.

The reader judges a seat's hole against its print as the plain holes nearest it predict it;
under a player's shadow or a patchy light that prediction can be off, and a dull token of the
seat's own colour can be no more colourful than the tint. But the print of one seat's holes is
one ink on one paper: in one photo its bare holes look alike once the paper's light round each
is divided out. So, where a seat has bare holes read with confidence:

- an unclear hole of that seat that looks as they do (as light, as colourful, in their hue, as
  evenly lit, its collar as bright) within their own small spread is bare too;
- one far lighter than every one of them, in their hue and no greyer, with no colour of any
  other token and no glare, holds something: and the only thing of that hue that is no more
  colourful than the print is a token of the seat's colour.

A hole read bare so joins its seat's bare holes for another pass: along a player's shadow the
holes nearest it may then be judged against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from rules.geometry import Board
from rules.palette import UNKNOWN
from vision.hidden_stand import hidden_stand
from vision.printlook import _plan, _seat_holes
from vision.tokens import SpaceLooks, hue_deg, hue_gap

if TYPE_CHECKING:
    from vision.spaces import Evidence

# Bare holes of the seat, read with confidence, that say how its print looks: two tell its
# range as closely as more (on dev photos no token of the seat came nearer to passing as bare
# beside two than beside three or more: 0.085 beyond the margins, against 0.073); a token far
# lighter than them is read only beside three, whose spread says how much bare holes differ
PEERS_MIN = 2
TOKEN_PEERS_MIN = 3
OTHER_COLOUR = 0.2  # no token of another colour, nor colour nobody owns, above this
GLARE_NONE = 0.05  # share of the hole's middle washed white: glare changes a bare print too
SHADE_FLOOR = 0.3  # (the paper's light round a hole, as the reader measures it, not below)
# A token of the seat's colour: lighter than the lightest bare peer (log ratio) by this, and by
# PEER_SPREAD_ROOM times as much again as they differ among themselves. On dev photos bare holes
# came within 0.24 of their lightest peer and never within 0.13 of this bar; dull tokens of the
# seat's colour 0.29 (median)
PEER_LIGHTER = 0.2
PEER_SPREAD_ROOM = 1.5
PEER_HUE = 20.0  # degrees: its middle's hue this close to the bare holes' (a token of the seat's
PEER_GREYER = 0.05  # colour), and its chroma at most this much under theirs
# Bare like them: only where they look alike (their light within ALIKE_LIGHT, log ratio, their
# chroma within ALIKE_CHROMA: a player's shadow left a seat's bare holes 0.18 apart in light),
# and within a margin of their range in light, chroma, hue, evenness and collar. On dev photos
# no token came within these margins of such a group of its seat's bare holes; the first did
# at 0.12 (light and chroma)
ALIKE_LIGHT = 0.2
ALIKE_CHROMA = 0.15
BARE_LIGHT = 0.08
BARE_CHROMA = 0.08
BARE_HUE = 5.0
BARE_UNEVEN = 0.03
BARE_COLLAR = 0.05
PEER_ROUNDS = 3  # passes: a hole read bare by its peers is a peer in the next
NEAR_PEERS = 4  # where they do not, its nearest bare holes of the seat may (no token came
NEAR_REACH = 3.0  # within the same margins of these on dev photos either)


@dataclass(frozen=True)
class _Peers:
    """How a seat's bare holes look in one photo: ranges over them."""

    light: tuple[float, float]  # (log of the paper-relative light)
    chroma: tuple[float, float]
    hue: float  # their median hue (degrees) ...
    hue_spread: float  # ... and how far the farthest lies from it
    uneven: float  # the most uneven of them
    collar: float  # the darkest collar among them (nan: not measured)


def read_by_peers(
    samples: SpaceLooks,
    ev: Evidence,
    board: Board,
    result: dict[str, tuple[str | None, float]],
    min_confidence: float,
) -> None:
    """Read, in `result`, the unclear seat holes that their seat's bare holes in the same
    photo show bare, or holding a dull token of the seat's colour. A hole read bare so is a
    bare peer too (at most PEER_ROUNDS passes): along a player's shadow the holes beside it
    may then be read. But every group a hole is judged against holds a hole read bare with
    confidence, its light and chroma lie within the same ALIKE bounds as in the first pass,
    and its hue, evenness and collar are those holes' own: a chain of holes read by their
    peers can reach no further from what the reader saw bare than one group could."""
    sure = np.zeros(len(samples.ids), bool)
    for i in np.concatenate(_seat_holes(board) or [np.zeros(0, int)]):
        sure[i] = _surely_empty(result, samples.ids[i], min_confidence)
    unclear = _unclear_with_peers(samples, board, result, sure)
    if not unclear or not len(ev.colours):
        return  # (the usual frame: nothing more is worked out, not even the paper's shade)
    shade = np.where(np.isnan(samples.shade), 1.0, samples.shade)
    light = np.log(np.maximum(ev.light / np.maximum(shade, SHADE_FLOOR), 1e-3))
    hue = hue_deg(samples.centre[:, 0], samples.centre[:, 1])
    foreign = _other_colours(ev) >= OTHER_COLOUR
    foreign |= ev.washed >= GLARE_NONE
    looks = _Looks(light, hue, foreign, sure)
    for _ in range(PEER_ROUNDS):
        found = _peer_round(samples, ev, board, result, looks, unclear, min_confidence)
        unclear = _unclear_with_peers(samples, board, result, sure) if found else []
        if not unclear:
            return


@dataclass(frozen=True)
class _Looks:
    """Per space, what the peers are compared in, and which holes were read bare with
    confidence before any peer said so."""

    light: np.ndarray  # (log of the paper-relative light)
    hue: np.ndarray
    foreign: np.ndarray  # another colour or glare on it
    sure: np.ndarray


def _unclear_with_peers(
    samples: SpaceLooks,
    board: Board,
    result: dict[str, tuple[str | None, float]],
    sure: np.ndarray,
) -> list[int]:
    """The unclear holes of the seats that have PEERS_MIN bare holes read with confidence."""
    unclear: list[int] = []
    for seat in _seat_holes(board):
        if sure[seat].sum() >= PEERS_MIN:
            unclear += [int(i) for i in seat if result[samples.ids[i]][0] == UNKNOWN]
    return unclear


def _peer_round(
    samples: SpaceLooks,
    ev: Evidence,
    board: Board,
    result: dict[str, tuple[str | None, float]],
    looks: _Looks,
    unclear: list[int],
    min_confidence: float,
) -> bool:
    """One pass over the seats; True when it read a hole bare (a new peer for the next)."""
    found = False
    for seat in _seat_holes(board):
        anchors = seat[looks.sure[seat]]
        if len(anchors) < PEERS_MIN:
            continue
        # (the holes read bare: with confidence, or by their peers in an earlier pass)
        bare = np.array([i for i in seat if _surely_empty(result, samples.ids[i], min_confidence)])
        peers = _peers_of(bare, samples, ev, looks)
        tokens_by = (
            _peers_of(anchors, samples, ev, looks) if len(anchors) >= TOKEN_PEERS_MIN else None
        )
        lightest_sure = looks.light[anchors].max()
        for i in np.intersect1d(seat, unclear):
            if ev.owner_k[i] < 0 or not samples.valid[i] or looks.foreign[i]:
                continue
            # (never, through holes read by their peers, one far lighter than every hole read
            # bare with confidence: a token's step, not the light's)
            far_lighter = looks.light[i] - lightest_sure >= PEER_LIGHTER
            if not far_lighter and (
                _bare_like(peers, i, samples, ev, looks)
                or _bare_like_nearest(board, bare, i, samples, ev, looks)
            ):
                result[samples.ids[i]] = (None, 1.0)
                found = True
            elif tokens_by is not None and _lighter_token(tokens_by, i, ev, looks):
                colour = ev.colours[int(ev.owner_k[i])]
                doubt = hidden_stand(ev, int(i), colour) if board.shared_spaces else 0.0
                if 1.0 - doubt >= min_confidence:
                    result[samples.ids[i]] = (colour, 1.0 - doubt)
    return found


def _bare_like_nearest(
    board: Board, bare: np.ndarray, i: int, samples: SpaceLooks, ev: Evidence, looks: _Looks
) -> bool:
    """Does hole i look as the seat's bare holes nearest it do (PEERS_MIN of them at least,
    one read with confidence)?"""
    near = _nearest(board, bare, int(i))
    return (
        len(near) >= PEERS_MIN
        and bool(looks.sure[near].any())
        and _bare_like(_peers_of(near, samples, ev, looks), i, samples, ev, looks)
    )


def _nearest(board: Board, bare: np.ndarray, i: int) -> np.ndarray:
    """The bare holes nearest hole i (NEAR_PEERS at most, within NEAR_REACH spacings): under
    patchy light they are lit as it is, where the seat's holes as a whole differ too much."""
    row = _plan(board).distance[i]  # (mm to every space; 0 to itself)
    dist = row[bare]
    order = np.argsort(dist, kind="stable")[:NEAR_PEERS]
    return bare[order[dist[order] <= NEAR_REACH * float(np.partition(row, 1)[1])]]


def _peers_of(bare: np.ndarray, samples: SpaceLooks, ev: Evidence, looks: _Looks) -> _Peers:
    """The range of light and chroma over the group; its hue, evenness and collar over the
    holes in it read bare with confidence (a group always holds one)."""
    light, hue = looks.light, looks.hue
    sure = bare[looks.sure[bare]]
    middle = float(np.median(hue[sure]))
    collar = samples.collar[sure] if samples.collar is not None else np.full(len(sure), np.nan)
    return _Peers(
        light=(float(light[bare].min()), float(light[bare].max())),
        chroma=(float(ev.centre_chroma[bare].min()), float(ev.centre_chroma[bare].max())),
        hue=middle,
        hue_spread=float(max(hue_gap(float(h), middle) for h in hue[sure])),
        uneven=float(samples.unevenness[sure].max()),
        collar=float(np.min(collar)) if not np.isnan(collar).all() else float("nan"),
    )


def _bare_like(peers: _Peers, i: int, samples: SpaceLooks, ev: Evidence, looks: _Looks) -> bool:
    """Does hole i look as its seat's bare holes do, where they look alike?"""
    light, hue = looks.light, looks.hue
    (lo, hi), (c_lo, c_hi) = peers.light, peers.chroma
    if hi - lo > ALIKE_LIGHT or c_hi - c_lo > ALIKE_CHROMA:
        return False
    collar = samples.collar[i] if samples.collar is not None else np.nan
    return bool(
        lo - BARE_LIGHT <= light[i] <= hi + BARE_LIGHT
        and c_lo - BARE_CHROMA <= ev.centre_chroma[i] <= c_hi + BARE_CHROMA
        and hue_gap(float(hue[i]), peers.hue) <= peers.hue_spread + BARE_HUE
        and samples.unevenness[i] <= peers.uneven + BARE_UNEVEN
        and (np.isnan(peers.collar) or not collar < peers.collar - BARE_COLLAR)
    )


def _lighter_token(peers: _Peers, i: int, ev: Evidence, looks: _Looks) -> bool:
    """Is hole i far lighter than all its seat's bare holes, in their hue and no greyer, and
    far lighter than its print lifted as the plain holes nearest it are? (A sheen that washes
    nothing out lifted two bare yellow holes 0.3 above their seat's bare holes outside it, as
    bright as the plain holes beside them: they were read as yellow tokens.)"""
    light, hue = looks.light, looks.hue
    lo, hi = peers.light
    lifted = float(ev.lifted_light[i])
    over_lift = np.log(max(float(ev.light[i]), 1e-3) / max(lifted, 1e-3))
    if not np.isnan(lifted) and over_lift < PEER_LIGHTER:
        return False
    return bool(
        light[i] - hi > PEER_LIGHTER + PEER_SPREAD_ROOM * (hi - lo)
        and hue_gap(float(hue[i]), peers.hue) <= PEER_HUE
        and ev.centre_chroma[i] >= float(np.mean(peers.chroma)) - PEER_GREYER
    )


def _surely_empty(result: dict, sid: str, min_confidence: float) -> bool:
    """(An unseen space is unclear, never surely empty.)"""
    colour, confidence = result[sid]
    return colour is None and confidence >= min_confidence


def _other_colours(ev: Evidence) -> np.ndarray:
    """(N,) the strongest token of a colour not the space's seat's, or colour nobody owns."""
    k_count = len(ev.colours)
    own = np.arange(k_count)[None, :] == ev.owner_k[:, None]
    return np.maximum(np.where(own, 0.0, ev.token).max(1, initial=0.0), ev.stray)
