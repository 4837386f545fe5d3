"""What `boardref print-board` prints, as facts both the printer and the camera need.

The artwork (`hardware.artwork`) draws these colours; the board reader (`vision`) predicts from
them how an empty seat-tinted hole looks beside the plain holes of the same photo, so it knows
an empty tinted hole from a pale token without a calibration frame. Colours are RGB, 0-255.
"""

from __future__ import annotations

PAPER_RGB = (242, 234, 222)  # warm off-white board stock
INK_RGB = (48, 52, 60)  # dark print colour for lines, outlines and text
HOLE_RGB = (112, 112, 112)  # neutral mid-grey hole (or square) interior
TRAY_RGB = (228, 218, 205)
TINT_SHARE = 0.28  # share of the seat's colour mixed into a seat's hole interior
COLLAR_SHARE = 0.35  # share of the seat's colour mixed into the paper collar around the hole
COLLAR_RADIUS = 1.45  # a seat's hole's tinted collar, in hole radii (plain holes have none)
RIM_SHARE = 0.45  # share of the seat's colour mixed into the ink rim of a seat's hole
SQUARE_KINDS = frozenset({"square", "cell", "grid", "field"})  # spaces printed as squares
MARK_RING_KINDS = frozenset({"star", "centre", "center", "shortcut"})  # holes with an ink ring
MARK_RING_GAP_MM = 1.6  # ... this far outside the hole's edge


def mix(a: tuple[int, ...], b: tuple[int, ...], share: float) -> tuple[int, int, int]:
    """`share` of colour b mixed into colour a, rounded as the printout does."""
    return tuple(int(round((1 - share) * x + share * y)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]
