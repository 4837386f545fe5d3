"""The physical pieces of each game and how a ray meets them.

Which piece a game uses comes from its rulebook: Aggravation's glass marbles, Manipulation's
playing tokens (taken as Sorry!-style plastic pawns), Manji's pawns (a squatter ludo pawn), The
Right Moves' flat two-sided pieces (checkers with rings moulded on the "circles" side) and
Playground Battles' game stands (a plastic foot holding an upright card that faces the opponent).
Sizes follow the board's token radius, the width the board was designed for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import shapes

PIECE_KIND = {
    "aggravation": "marble",
    "manipulation": "pawn",
    "manji": "ludo",
    "the-right-moves": "checker",
    "playground-battles": "stand",
}
TALL_KINDS = frozenset({"pawn", "ludo", "stand"})
WHITE = np.array([0.82, 0.82, 0.8], np.float32)


@dataclass(frozen=True)
class Piece:
    """One piece as it stands on the table (T frame, millimetres)."""

    space: str
    colour: str
    kind: str
    x: float
    y: float
    z: float  # height of the surface it stands on
    size: float  # footprint radius
    yaw: float
    albedo: np.ndarray  # linear RGB (plastic) or transmittance over one diameter (glass)
    variant: int = 0  # printed/moulded side shown (checker), card face (stand)
    milk: float = 0.0  # glass: the share that scatters like plastic instead of letting light by

    @property
    def height(self) -> float:
        return {
            "marble": 2 * self.size,
            "pawn": 3.2 * self.size,
            "ludo": 2.8 * self.size,
            "checker": 0.5 * self.size,
            "stand": 2.6 * self.size,
        }[self.kind]

    @property
    def glass(self) -> bool:
        return self.kind == "marble"

    def bounds(self) -> np.ndarray:
        """Eight corners of a box holding the piece (T frame)."""
        r = self.size * (1.3 if self.kind == "stand" else 1.05)
        xs, ys, zs = (
            (self.x - r, self.x + r),
            (self.y - r, self.y + r),
            (self.z, self.z + self.height),
        )
        return np.array([(x, y, z) for x in xs for y in ys for z in zs], np.float64)

    def slices(self) -> list[tuple[float, tuple]]:
        """Horizontal cross-sections (height, shape) for casting its shadow:
        ("disc", r) or ("rect", half_x, half_y)."""
        r, h = self.size, self.height
        if self.kind == "marble":
            c = r - marble_sink(r)
            return [
                (c + r * s, ("disc", r * np.sqrt(1 - s * s))) for s in np.linspace(-0.9, 0.9, 7)
            ]
        if self.kind == "checker":
            return [(0.0, ("disc", r)), (h, ("disc", r))]
        if self.kind == "stand":
            foot, card = stand_parts(r)
            return [
                (0.0, ("rect", foot[0], foot[1])),
                (2 * foot[2], ("rect", foot[0], foot[1])),
            ] + [(z, ("rect", card[0], card[1])) for z in np.linspace(2 * foot[2], h, 5)]
        return [(z, ("disc", r_at)) for z, r_at in pawn_profile(self.kind, r)]

    def hit(self, o: shapes.Vec, d: shapes.Vec):
        """(t, normal, albedo (N, 3)) for rays with origins `o` relative to the table origin."""
        lo = (o[0] - self.x, o[1] - self.y, o[2] - self.z)
        r = self.size
        colour = np.broadcast_to(self.albedo, (np.size(d[0]), 3))
        if self.kind == "marble":
            t, n = shapes.sphere(lo, d, (0.0, 0.0, r - marble_sink(r)), r)
            return t, n, colour
        if self.kind == "checker":
            return _checker(lo, d, r, self.height, colour, self.variant)
        if self.kind == "stand":
            return _stand(lo, d, r, self.yaw, colour, self.variant)
        return _pawn(lo, d, self.kind, r, colour)


def marble_sink(r: float) -> float:
    """How far a marble settles below touching the paper: the board's hole is printed, so the
    marble rests on paper sagging a little under it."""
    return 0.06 * r


def pawn_profile(kind: str, r: float) -> list[tuple[float, float]]:
    """(height, radius) down the pawn's body, for its shadow."""
    h = 3.2 * r if kind == "pawn" else 2.8 * r
    return [
        (0.0, r),
        (0.14 * h, 0.9 * r),
        (0.3 * h, 0.6 * r),
        (0.55 * h, 0.42 * r),
        (0.72 * h, 0.5 * r),
        (h - 0.5 * r, 0.5 * r),
        (h - 0.15 * r, 0.3 * r),
    ]


def _union(hits):
    t = hits[0][0]
    n = list(hits[0][1])
    for ti, ni in hits[1:]:
        closer = ti < t
        t = np.where(closer, ti, t)
        n = [np.where(closer, ni[k], n[k]) for k in range(3)]
    return t, tuple(n)


def _pawn(lo, d, kind: str, r: float, colour):
    if kind == "pawn":  # Sorry!-style: flat foot, flared skirt, slim cone, collar, round head
        h, head = 3.2 * r, 0.48 * r
        parts = [
            shapes.frustum(lo, d, r, r, 0.0, 0.1 * h),
            shapes.frustum(lo, d, 0.92 * r, 0.6 * r, 0.1 * h, 0.2 * h),
            shapes.frustum(lo, d, 0.6 * r, 0.3 * r, 0.2 * h, 0.72 * h),
            shapes.frustum(lo, d, 0.52 * r, 0.52 * r, 0.66 * h, 0.72 * h),
        ]
    else:  # ludo pawn: squat rounded cone and a bigger head
        h, head = 2.8 * r, 0.55 * r
        parts = [
            shapes.frustum(lo, d, r, 0.88 * r, 0.0, 0.12 * h),
            shapes.frustum(lo, d, 0.8 * r, 0.34 * r, 0.12 * h, 0.7 * h),
        ]
    parts.append(shapes.sphere(lo, d, (0.0, 0.0, h - head), head))
    t, n = _union(parts)
    return t, n, colour


def _checker(lo, d, r: float, h: float, colour, variant: int):
    t, n = shapes.frustum(lo, d, r, r, 0.0, h)
    t = np.where(np.isfinite(t), t, shapes.INF)
    with np.errstate(invalid="ignore"):
        x = np.nan_to_num(lo[0] + t * d[0], posinf=0.0, neginf=0.0)
        y = np.nan_to_num(lo[1] + t * d[1], posinf=0.0, neginf=0.0)
    rad = np.sqrt(x * x + y * y)
    top = n[2] > 0.99
    # a moulded bevel round the top edge rolls the normal outwards
    bevel = np.clip((rad - (r - 0.9)) / 0.9, 0.0, 1.0) * top
    nx = np.where(top, x / (rad + 1e-6) * bevel * 0.8, n[0])
    ny = np.where(top, y / (rad + 1e-6) * bevel * 0.8, n[1])
    nz = np.where(top, 1.0 - 0.4 * bevel, n[2])
    norm = np.sqrt(nx * nx + ny * ny + nz * nz) + 1e-9
    shade = np.ones_like(rad)
    if variant == 0:  # "circles" side: two moulded grooves catch less light
        for ring in (0.38 * r, 0.68 * r):
            shade = shade * (1.0 - 0.28 * np.exp(-(((rad - ring) / 0.35) ** 2)) * top)
    else:  # "THE RIGHT MOVES" side: an embossed band of lettering across the middle
        shade = shade * (1.0 - 0.22 * (np.abs(y) < 0.18 * r) * (np.sin(x * 2.4) > 0.2) * top)
    return t, (nx / norm, ny / norm, nz / norm), colour * shade[:, None]


def stand_parts(r: float) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Half sizes (x, y, z) of a game stand's plastic foot and of its upright card."""
    return (0.9 * r, 0.45 * r, 0.25 * r), (0.85 * r, 0.03 * r, 1.2 * r)


def _stand(lo, d, r: float, yaw: float, colour, variant: int):
    foot, card = stand_parts(r)
    tf, nf, _, _, _ = shapes.box(lo, d, (0.0, 0.0, foot[2]), foot, yaw)
    card_base = 0.2 * r
    tc, nc, face, sgn, local = shapes.box(lo, d, (0.0, 0.0, card_base + card[2]), card, yaw)
    on_card = tc < tf
    t = np.where(on_card, tc, tf)
    n = tuple(np.where(on_card, nc[k], nf[k]) for k in range(3))
    # the card is printed: a white border and a white emblem on the coloured ground
    u, v = local[0], local[2]
    border = (np.abs(u) > card[0] - 0.1 * r) | (np.abs(v) > card[2] - 0.1 * r)
    emblem_r = 0.35 * r if variant == 0 else 0.25 * r
    emblem = (u * u + (v - 0.1 * r) ** 2) < emblem_r**2
    white = on_card & (face == 1) & (border | emblem)
    card_tone = np.where(on_card[:, None], colour * 0.92, colour)
    albedo = np.where(white[:, None], WHITE, card_tone)
    return t, n, albedo
