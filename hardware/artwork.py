"""Board artwork: the picture of a printed board, drawn from its geometry.

`render_board` draws what a publisher would print: paper, the paths between spaces, every space
(holes for race games, squares for grid games), labels, regions such as the dice tray, and the
four ArUco corner markers with their white quiet zone. `draw_tokens` adds tokens on top.

Printed holes are a neutral mid-grey; holes that belong to a seat (base, home, start) are only
lightly tinted with the seat's colour, so a printed colour never looks like a token standing on
the space. Pixel coordinates use OpenCV's convention: board millimetre (x, y) sits at pixel
coordinate (x * px_per_mm - 0.5, y * px_per_mm - 0.5), the centre of a pixel being integral.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

import rules
from rules.geometry import Board, Region, Space
from rules.palette import PALETTE
from rules.printing import (
    COLLAR_RADIUS,
    COLLAR_SHARE,
    HOLE_RGB,
    INK_RGB,
    MARK_RING_GAP_MM,
    MARK_RING_KINDS,
    PAPER_RGB,
    RIM_SHARE,
    SQUARE_KINDS,
    TINT_SHARE,
    TRAY_RGB,
    mix,
)
from vision.aruco import marker_image

PAPER_BGR = PAPER_RGB[::-1]
INK_BGR = INK_RGB[::-1]
HOLE_BGR = HOLE_RGB[::-1]
TRAY_BGR = TRAY_RGB[::-1]
QUIET_ZONE_MM = 4.0  # white margin printed around each marker
_SHIFT = 4  # sub-pixel bits for cv2 drawing
REGION_WORDS = {"captured": "JUMPED PIECES GO HERE"}
# A printed key, per game: Playground Battles reminds who beats whom.
REGION_KEYS = {
    "Playground Battles": (
        "WHO BEATS WHOM",
        "ROCK beats SCISSORS",
        "SCISSORS beat PAPER",
        "PAPER beats ROCK",
    )
}
_ONE = 1 << _SHIFT


def to_px(value_mm: float, px_per_mm: float) -> float:
    """Board millimetres -> pixel coordinate (centre-of-pixel convention)."""
    return value_mm * px_per_mm - 0.5


def _pt(x: float, y: float, ppm: float) -> tuple[int, int]:
    return (round(to_px(x, ppm) * _ONE), round(to_px(y, ppm) * _ONE))


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def seat_colour_bgr(board: Board, owner: int | None) -> tuple[int, int, int] | None:
    if owner is None or not (0 <= owner < len(board.seat_colours)):
        return None
    colour = PALETTE.get(board.seat_colours[owner])
    return None if colour is None else _bgr(colour.rgb)


def _draw_space(img: np.ndarray, board: Board, space: Space, ppm: float) -> None:
    r = board.hole_radius
    centre = _pt(space.x, space.y, ppm)
    tint = seat_colour_bgr(board, space.owner)
    fill = HOLE_BGR if tint is None else mix(HOLE_BGR, tint, TINT_SHARE)
    rim = INK_BGR if tint is None else mix(INK_BGR, tint, RIM_SHARE)
    if space.kind in SQUARE_KINDS:
        half = r
        p1 = _pt(space.x - half, space.y - half, ppm)
        p2 = _pt(space.x + half, space.y + half, ppm)
        cv2.rectangle(img, p1, p2, fill, -1, cv2.LINE_AA, _SHIFT)
        cv2.rectangle(img, p1, p2, rim, max(1, round(0.5 * ppm)), cv2.LINE_AA, _SHIFT)
        return
    # a drilled-looking hole: tinted collar, dark rim, grey interior
    if tint is not None:
        collar = mix(PAPER_BGR, tint, COLLAR_SHARE)
        collar_px = round(r * COLLAR_RADIUS * ppm * _ONE)
        cv2.circle(img, centre, collar_px, collar, -1, cv2.LINE_AA, _SHIFT)
    cv2.circle(img, centre, round(r * ppm * _ONE), rim, -1, cv2.LINE_AA, _SHIFT)
    cv2.circle(img, centre, round((r - 0.8) * ppm * _ONE), fill, -1, cv2.LINE_AA, _SHIFT)
    if space.kind in MARK_RING_KINDS:
        ring = round((r + MARK_RING_GAP_MM) * ppm * _ONE)
        cv2.circle(img, centre, ring, INK_BGR, max(1, round(0.45 * ppm)), cv2.LINE_AA, _SHIFT)


def _put_label(img: np.ndarray, text: str, x_mm: float, y_mm: float, ppm: float, size_mm: float):
    scale = size_mm * ppm / 22.0
    thickness = max(1, round(scale * 1.6))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    org = (round(to_px(x_mm, ppm)), round(to_px(y_mm, ppm) + h))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, INK_BGR, thickness, cv2.LINE_AA)
    return w, h


def render_board(board: Board, px_per_mm: float = 4.0, labels: bool = False) -> np.ndarray:
    """The printed board as a BGR image of board.width x board.height mm at px_per_mm.

    `labels`: print each space's id small beside it (the ids the referee's texts use)."""
    if px_per_mm <= 0:
        raise ValueError(f"px_per_mm must be positive, got {px_per_mm}")
    ppm = float(px_per_mm)
    h, w = round(board.height * ppm), round(board.width * ppm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = PAPER_BGR
    # a printed frame just inside the edge
    inset = board.marker_margin / 2
    cv2.rectangle(
        img,
        _pt(inset, inset, ppm),
        _pt(board.width - inset, board.height - inset, ppm),
        INK_BGR,
        max(1, round(0.6 * ppm)),
        cv2.LINE_AA,
        _SHIFT,
    )
    boxed = {space.id for region in board.regions for space in spaces_in(board, region)}
    for region in board.regions:
        p1 = _pt(region.x, region.y, ppm)
        p2 = _pt(region.x + region.w, region.y + region.h, ppm)
        cv2.rectangle(img, p1, p2, TRAY_BGR, -1, cv2.LINE_AA, _SHIFT)
        cv2.rectangle(img, p1, p2, INK_BGR, max(1, round(0.5 * ppm)), cv2.LINE_AA, _SHIFT)
    line = max(1, round(0.7 * ppm))
    for a, b in board.links:
        sa, sb = board.space(a), board.space(b)
        cv2.line(
            img, _pt(sa.x, sa.y, ppm), _pt(sb.x, sb.y, ppm), INK_BGR, line, cv2.LINE_AA, _SHIFT
        )
    for space in board.spaces:
        _draw_space(img, board, space, ppm)
    for space in board.spaces:
        if space.label and space.id not in boxed:  # a boxed space is named by its box
            r = board.hole_radius
            _put_label(img, space.label, space.x + r + 1.0, space.y - r - 3.2, ppm, 2.8)
    for region in board.regions:
        _label_region(img, board, region, ppm)
    if labels:
        for space in board.spaces:
            r = board.hole_radius
            _put_label(img, space.id, space.x + r * 0.75, space.y + r * 0.8, ppm, 2.0)
    _draw_markers(img, board, ppm)
    return img


def spaces_in(board: Board, region: Region) -> list[Space]:
    """The spaces whose centre lies inside a region (a BASE inside its printed box)."""
    return [
        s
        for s in board.spaces
        if region.x <= s.x <= region.x + region.w and region.y <= s.y <= region.y + region.h
    ]


def game_title(board: Board) -> str:
    """The game's title for a board ("Playground Battles" for "playground-battles-8")."""
    for name in sorted(rules.names(), key=len, reverse=True):
        if board.name == name or board.name.startswith(f"{name}-"):
            return rules.game_class(name).title
    return board.name.replace("-", " ").title()


def region_words(board: Board, region: Region) -> list[str]:
    """What is printed in (or beside) a region: its name in words, or its content."""
    name = region.name
    if name == "title":
        return [game_title(board).upper(), "refereed by boardref"]
    if name == "key":
        return list(REGION_KEYS.get(game_title(board), (name.upper(),)))
    colour = board.seat_colours[region.owner] if region.owner is not None else ""
    if name == "tray" or name.startswith("tray-"):
        return [f"{colour.upper()} DICE TRAY" if colour else "DICE TRAY"]
    if name.endswith("-base"):
        return [f"{colour.upper()} BASE" if colour else "BASE"]
    return [REGION_WORDS.get(name, name.replace("-", " ").upper())]


def _fitting(text: str, size_mm: float, width_mm: float) -> float:
    """The text size (mm) at most `size_mm` at which `text` fits across `width_mm - 5`."""
    scale = size_mm / 22.0  # per px_per_mm of 1
    (w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale * 10, 1)
    return min(size_mm, size_mm * (width_mm - 5.0) / max(w / 10, 1e-6))


def _label_region(img: np.ndarray, board: Board, region: Region, ppm: float) -> None:
    """Print a region's words: inside it, or just outside (away from the middle of the
    board) when a space sits in the box, so no hole covers them."""
    words = region_words(board, region)
    size = 5.0 if region.name == "title" else 3.0
    if not spaces_in(board, region):
        y = region.y + 2.0
        for k, text in enumerate(words):
            wanted = size if k == 0 else 3.0
            w, h = _put_label(img, text, region.x + 2.5, y, ppm, _fitting(text, wanted, region.w))
            y += h / ppm + 2.5
        return
    text = words[0]
    scale = size * ppm / 22.0
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, round(scale * 1.6)))
    x = region.x + region.w / 2 - w / ppm / 2
    above = region.y + region.h / 2 < board.height / 2
    y = region.y - h / ppm - 1.5 if above else region.y + region.h + 1.5
    _put_label(img, text, x, y, ppm, size)


def _draw_markers(img: np.ndarray, board: Board, ppm: float) -> None:
    for marker_id, corners in board.marker_squares().items():
        (x0, y0), _, (x1, y1), _ = corners
        q = QUIET_ZONE_MM
        qa = (max(0, round(to_px(x0 - q, ppm))), max(0, round(to_px(y0 - q, ppm))))
        qb = (round(to_px(x1 + q, ppm)), round(to_px(y1 + q, ppm)))
        cv2.rectangle(img, qa, qb, (255, 255, 255), -1)
        # marker pixels cover [x0, x1) mm exactly: pixel i covers mm [i / ppm, (i + 1) / ppm)
        c0, r0 = round(x0 * ppm), round(y0 * ppm)
        c1, r1 = round(x1 * ppm), round(y1 * ppm)
        tile = marker_image(marker_id, 6 * 64)
        tile = cv2.resize(tile, (c1 - c0, r1 - r0), interpolation=cv2.INTER_AREA)
        img[r0:r1, c0:c1] = tile[:, :, None]


def token_bgr(colour: str) -> tuple[int, int, int]:
    try:
        return _bgr(PALETTE[colour].rgb)
    except KeyError:
        raise ValueError(f"unknown token colour {colour!r}; known: {sorted(PALETTE)}") from None


def draw_tokens(
    image: np.ndarray,
    board: Board,
    placement: dict[str, str],
    px_per_mm: float = 4.0,
    offsets: dict[str, tuple[float, float]] | None = None,
) -> np.ndarray:
    """Draw tokens (shaded discs with their palette letter) in place; returns the image.

    `offsets` moves a token off its space's centre by (dx, dy) mm, as a hand places it.
    """
    ppm = float(px_per_mm)
    img = image
    for space_id, colour in placement.items():
        space = board.space(space_id)
        if offsets and space_id in offsets:
            dx, dy = offsets[space_id]
            space = replace(space, x=space.x + dx, y=space.y + dy)
        if "+" in colour:  # two tokens contesting one space (a battle): side by side, smaller
            first, second = colour.split("+", 1)
            shift = board.token_radius * 0.55
            for part, dx in ((first, -shift), (second, shift)):
                _draw_token(
                    img, replace(space, x=space.x + dx), part, board.token_radius * 0.6, ppm
                )
            continue
        _draw_token(img, space, colour, board.token_radius, ppm)
    return image


def _draw_token(img: np.ndarray, space: Space, colour: str, r: float, ppm: float) -> None:
    """One shaded disc of radius `r` mm with its palette letter, centred on `space`."""
    base = token_bgr(colour)
    centre = _pt(space.x, space.y, ppm)
    edge = mix(base, (0, 0, 0), 0.45)
    cv2.circle(img, centre, round(r * ppm * _ONE), edge, -1, cv2.LINE_AA, _SHIFT)
    cv2.circle(img, centre, round((r - 0.7) * ppm * _ONE), base, -1, cv2.LINE_AA, _SHIFT)
    hi = _pt(space.x - 0.35 * r, space.y - 0.35 * r, ppm)
    cv2.circle(
        img, hi, round(0.22 * r * ppm * _ONE), mix(base, (255, 255, 255), 0.35), -1,
        cv2.LINE_AA, _SHIFT,
    )  # fmt: skip
    letter = PALETTE[colour].letter
    ink = mix(base, (0, 0, 0), 0.3) if sum(base) > 300 else mix(base, (255, 255, 255), 0.3)
    scale = 0.55 * r * ppm / 22.0
    thick = max(1, round(scale * 1.4))
    (tw, th), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (round(to_px(space.x, ppm) - tw / 2), round(to_px(space.y + 0.55 * r, ppm) + th))
    cv2.putText(img, letter, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thick, cv2.LINE_AA)
