"""A board printed at home: A4 sheets cut along their crop marks and taped together.

`boardref print-board` tiles a board that does not fit the paper over A4 sheets that overlap by
OVERLAP_MM (hardware.printable). Nobody tapes them perfectly: each sheet sits a fraction of a
millimetre off and turned by a fraction of a degree, so the printed spaces and the corner
markers on different sheets disagree slightly, and each upper sheet's cut edge throws a thin
shadow line onto the one below. Sheets are stacked in print order (later ones on top).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hardware.printable import MARGIN_MM, OVERLAP_MM, PAPERS
from rules.geometry import Board


@dataclass(frozen=True)
class Tile:
    """The part of the artwork [x0, x0 + w] x [y0, y0 + h] (mm) on one sheet, laid on the
    table turned by `angle` (radians) about its middle and shifted by (dx, dy) mm."""

    x0: float
    y0: float
    w: float
    h: float
    dx: float
    dy: float
    angle: float

    def to_art(self, x, y):
        """Table point(s) -> the artwork point printed there by this sheet."""
        cx, cy = self.x0 + self.w / 2, self.y0 + self.h / 2
        c, s = math.cos(self.angle), math.sin(self.angle)
        px, py = x - cx - self.dx, y - cy - self.dy
        return cx + c * px + s * py, cy - s * px + c * py

    def to_table(self, x: float, y: float) -> tuple[float, float]:
        """An artwork point on this sheet -> where it lies on the table."""
        cx, cy = self.x0 + self.w / 2, self.y0 + self.h / 2
        c, s = math.cos(self.angle), math.sin(self.angle)
        px, py = x - cx, y - cy
        return cx + c * px - s * py + self.dx, cy + s * px + c * py + self.dy

    def outside(self, ax, ay):
        """How far (mm) an artwork point lies outside this sheet's part (<= 0 inside)."""
        return np.maximum(
            np.maximum(self.x0 - ax, ax - (self.x0 + self.w)),
            np.maximum(self.y0 - ay, ay - (self.y0 + self.h)),
        )


def tiles_for(board: Board, rng: np.random.Generator) -> tuple[Tile, ...]:
    """The A4 sheets of this board as print-board lays them out, each placed by hand."""
    pw, ph = PAPERS["A4"]
    cw, ch = pw - 2 * MARGIN_MM, ph - 2 * MARGIN_MM - 10
    step_x, step_y = cw - OVERLAP_MM, ch - OVERLAP_MM
    cols = max(1, math.ceil((board.width - OVERLAP_MM) / step_x))
    rows = max(1, math.ceil((board.height - OVERLAP_MM) / step_y))
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_x, r * step_y
            w, h = min(cw, board.width - x0), min(ch, board.height - y0)
            dx, dy = rng.normal(0, 0.5, 2).clip(-1.2, 1.2)
            angle = math.radians(float(np.clip(rng.normal(0, 0.2), -0.5, 0.5)))
            tiles.append(Tile(x0, y0, w, h, float(dx), float(dy), angle))
    return tuple(tiles)


def artwork_point(tiles: tuple[Tile, ...], x, y):
    """Table points -> (artwork x, artwork y, covered by a sheet, shade of sheet edges)."""
    ax, ay = np.array(x, np.float32), np.array(y, np.float32)
    covered = np.zeros(ax.shape, bool)
    shade = np.ones(ax.shape, np.float32)
    for tile in tiles:  # later sheets lie on top
        tx, ty = tile.to_art(x, y)
        gap = tile.outside(tx, ty)
        inside = gap <= 0
        ax = np.where(inside, tx, ax)
        ay = np.where(inside, ty, ay)
        covered |= inside
        # just beyond an upper sheet's cut edge, its thickness shades the sheet below
        edge = (gap > 0) & (gap < 0.6)
        shade = np.where(edge & covered, np.minimum(shade, 0.82 + 0.3 * gap), shade)
        shade = np.where(inside, 1.0, shade)
    return ax, ay, covered, shade


def printed_at(tiles: tuple[Tile, ...], x: float, y: float) -> tuple[float, float]:
    """Where an artwork point (a space's printed centre) lies on the table: on the top sheet
    that holds it."""
    for tile in reversed(tiles):
        if tile.outside(x, y) <= 0:
            return tile.to_table(x, y)
    return x, y
