"""Reading the board round a hand: close beside it a reading stands only where the hand's
skin could not have made it, and under it only a token's colour seen past its edge.

The skin finder may miss a hand's rim, and a rim of skin in a space's cell is read as a red,
orange or yellow token. So the spaces within a token's radius of the hand are read apart, and
a reading there stands when it is empty, a colour no skin is read as (green, blue, purple), or
a token's disc filled with a colour this hand's own skin never shows.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE, UNKNOWN
from vision.calibrate import Calibration, palette_look
from vision.config import VisionConfig
from vision.contest import is_contest
from vision.hand import HandResult, board_scale, disc_pixels
from vision.spaces import classify_spaces
from vision.tokens import SpaceLooks, hue_gap
from vision.topview import nearest_spacing

HAND_MARGIN = 1.0  # token radii around a hand (the skin finder may miss its rim) not read
SHADOW_MARGIN = 3.0  # token radii around a hand where its shadow may fall: nothing learnt there
# ... but for what skin is never read as. Skin lies at hues 0-40 degrees of the reader's
# chroma (a green or warm cast moves it ~10-20 degrees); a token colour 90 degrees off it
# (green, blue, purple: not red, orange, yellow, white or black) is no skin
SKIN_HUE = 20.0
SKIN_FAR = 90.0
SKIN_FAR_CHROMA = 0.5  # (and a colour this grey has no hue to tell)
# An empty reading beside a hand stands only where no token put down there could lie mostly
# under the hand: tokens are put down up to a quarter spacing off centre (a pawn under an arm's
# edge left its bare hole in view), and one this much covered shows too little to be seen
PLACED_OFF = 0.25
HIDDEN_SHARE = 0.7


def read_round_hand(
    config: VisionConfig,
    samples: SpaceLooks,
    board: Board,
    cal: Calibration | None,
    seen_hand: HandResult,
) -> dict:
    """Read every space but those under a hand or close beside it, and those beside it as
    far as skin cannot have made the reading. The rest of the board is read without them,
    so skin teaches it nothing. Under the hand a space is read only as a colour skin cannot
    have made (a token showing past its edge), never as empty: what lies under skin may be
    anything. Not on boards whose spaces hold two tokens: one may lie wholly under it."""
    covered = seen_hand.covers(board, config, margin_mm=HAND_MARGIN * board.token_radius)
    if not covered:
        return classify_spaces(config, samples, board, cal)
    hidden = np.isin(samples.ids, list(covered))
    spaces = classify_spaces(config, replace(samples, valid=samples.valid & ~hidden), board, cal)
    if cal is None:  # (a calibration, not this photo, says how the print looks)
        _read_clear_of_shadow(config, samples, board, seen_hand, spaces)
    if seen_hand.method != "skin":  # (against the calibration, any change is foreign: a
        return _skin_beside_change(config, board, seen_hand, spaces)  # sleeve of any colour
    under = seen_hand.covers(board, config, margin_mm=0.0)
    beside = covered - under
    if under and not board.shared_spaces:  # (a second stand may lie wholly under the hand)
        whole = classify_spaces(config, samples, board, cal)
        for sid in under:
            colour = whole[sid][0]
            if colour not in (None, UNKNOWN) and _no_skin(colour, seen_hand, board, config, sid):
                spaces[sid] = whole[sid]
    if not beside:
        return spaces
    visible = samples.valid & ~np.isin(samples.ids, list(under))
    again = classify_spaces(config, replace(samples, valid=visible), board, cal)
    hiding = _hiding_places(seen_hand, board, config)
    spacing = nearest_spacing(board)
    ids = board.ids()
    for sid in beside:
        colour = again[sid][0]
        # where a token could lie mostly under the hand, the space may not be bare; nor, on
        # boards whose spaces hold two, hold only the one seen (a finger over half a square)
        hides_one = colour is None or (board.shared_spaces and not is_contest(colour))
        if hides_one and _could_hide(hiding, board, config, ids.index(sid), spacing):
            continue
        if colour is None or (
            colour != UNKNOWN and _no_skin(colour, seen_hand, board, config, sid)
        ):
            spaces[sid] = again[sid]
    return spaces


def _skin_beside_change(
    config: VisionConfig, board: Board, seen_hand: HandResult, spaces: dict
) -> dict:
    """Against a calibration the hand is what changed since, and the change's edge can stop
    short of the skin: a hand's side, lit like the paper it lay on in the calibration, was
    read as a red stand two token radii from the changed blob. Beside that blob, out to where
    its shadow may fall, a reading in a colour skin can be read as is unclear (the appliance
    rules on no frame with a hand; this keeps the reading honest)."""
    skin_like = {sid for sid, (colour, _) in spaces.items()
                 if colour not in (None, UNKNOWN) and not unlike_skin(colour)}  # fmt: skip
    if skin_like:
        near = seen_hand.covers(board, config, margin_mm=SHADOW_MARGIN * board.token_radius)
        for sid in skin_like & near:
            spaces[sid] = (UNKNOWN, 0.0)
    return spaces


def _read_clear_of_shadow(
    config: VisionConfig,
    samples: SpaceLooks,
    board: Board,
    seen_hand: HandResult,
    spaces: dict,
) -> None:
    """On a photo alone, read the spaces well clear of the hand once more, learning only
    from what lies well clear of it too. A hand's shadow falls beside it, a band a few
    centimetres wide whose side depends on the lamp: the plain holes in it look darker than
    the print, and taken for the print's own grey they made every bare hole in the light
    look lifted by glare and its tint washed (a bare seat hole across the board then looked
    too colourful to be bare). A space unclear in the first reading takes this one; where
    both are sure and differ, it is unclear. (With a calibration the print's look is the
    calibration's; and the appliance rules on no frame with a hand.)"""
    margin = SHADOW_MARGIN * board.token_radius
    near = seen_hand.covers(board, config, margin_mm=margin)
    if not near or len(near) == len(samples.ids):
        return
    clear = samples.valid & ~np.isin(samples.ids, list(near))
    again = classify_spaces(config, replace(samples, valid=clear), board, None)
    for sid, (colour, _) in again.items():
        if sid in near or colour == UNKNOWN:
            continue
        first = spaces[sid][0]
        if first == UNKNOWN:
            spaces[sid] = again[sid]
        elif first != colour:
            spaces[sid] = (UNKNOWN, 0.0)


def _no_skin(
    colour: str, seen_hand: HandResult, board: Board, config: VisionConfig, sid: str
) -> bool:
    """Can the hand's skin not have made this reading of a space by or under it? A colour
    skin is never read as, or one this hand's skin never shows filling the token's disc."""
    return unlike_skin(colour) or (
        not is_contest(colour) and seen_hand.shows_token(board, config, sid, lab_hue(colour))
    )


def _hiding_places(seen_hand: HandResult, board: Board, config: VisionConfig) -> np.ndarray:
    """Where a token's centre may lie with most of it under the hand (the small top view):
    the hand as far as it may reach (its blob and the rim the skin finder may miss), worn
    away by most of a token's radius."""
    s = board_scale(board, config)
    grow = max(1, round(HAND_MARGIN * board.token_radius * s))  # (the rim it may miss)
    wear = max(1, round(HIDDEN_SHARE * board.token_radius * s))
    reach = cv2.dilate(seen_hand.blob, _disc(grow))
    return cv2.erode(reach, _disc(wear)) > 0


def _disc(radius_px: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius_px + 1, 2 * radius_px + 1))


def _could_hide(
    places: np.ndarray, board: Board, config: VisionConfig, k: int, spacing: np.ndarray
) -> bool:
    """Could a token put down on space k (up to PLACED_OFF of a spacing off its centre, or
    as far as the board's tokens settle) lie mostly under the hand, its bare hole in view?"""
    s = board_scale(board, config)
    sp = board.spaces[k]
    off = board.token_settle if board.token_settle is not None else PLACED_OFF * spacing[k]
    reach = max(1.0, float(off) * s)
    return bool(disc_pixels(places, sp.x * s - 0.5, sp.y * s - 0.5, reach).any())


@cache
def lab_hue(colour: str) -> float:
    """The palette colour's CIELAB hue (degrees), as the hand check measures colour."""
    r, g, b = PALETTE[colour].rgb
    pixel = np.array([[[b / 255.0, g / 255.0, r / 255.0]]], np.float32)
    _, a, bb = cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0]
    return float(np.degrees(np.arctan2(bb, a)) % 360.0)


def unlike_skin(colour: str) -> bool:
    """A colour no hand's skin is read as: chromatic, its hue far from skin's under any
    white balance the reader allows (a contest of two such colours too)."""
    if is_contest(colour):
        return all(unlike_skin(c) for c in colour.split("+"))
    hue, chroma, _ = palette_look(colour)
    return chroma >= SKIN_FAR_CHROMA and bool(hue_gap(hue, SKIN_HUE) >= SKIN_FAR)
