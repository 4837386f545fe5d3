"""Real dice lying in the board's trays: a 16 mm cube whose faces are real dice's, from photos.

A die is drawn as the twin draws its pieces (traced rays, the lamp and the room, its soft
shadow on the paper): a cube turned by a random yaw, its edges rounded in the shading, its top
face a real die's of the thrown value (see dicefaces.py) and its side faces real faces of the
values a die has there (never the top's value or its opposite, 7 minus it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from rules.geometry import Region

from . import shapes
from .dicefaces import TEXTURE_PX, Face
from .lighting import lookup
from .scene import Scene, curl_height, stream

DIE_MM = 16.0
EDGE_MM = 1.3  # the rounding of a die's edges (the shading rolls over this width)
EMPTY_SHARE = 0.2  # a tray is left empty this often (a false alarm must have a chance)


@dataclass(frozen=True)
class Die:
    """One die on the table (T frame, mm), as the renderer and the shadow maps take a piece."""

    tray: str
    value: int
    x: float
    y: float
    z: float
    yaw: float
    top: Face
    sides: tuple[Face, Face, Face, Face]  # -x, +x, -y, +y faces
    size: float = DIE_MM / 2  # half the side: the footprint the room's light is kept from
    glass: bool = False
    albedo: np.ndarray | None = None
    kind: str = "die"

    @property
    def height(self) -> float:
        return DIE_MM

    def bounds(self) -> np.ndarray:
        """Eight corners of a box holding the die (T frame)."""
        r = self.size * np.sqrt(2) + 0.2
        return np.array(
            [
                (self.x + sx * r, self.y + sy * r, self.z + sz * DIE_MM)
                for sx in (-1, 1)
                for sy in (-1, 1)
                for sz in (0, 1)
            ],
            np.float64,
        )

    def slices(self) -> list[tuple[float, tuple]]:
        """Horizontal cross-sections for its shadow: the square at a few heights."""
        h = self.size
        return [(z, ("rect", h, h)) for z in np.linspace(0.0, DIE_MM, 5)]

    def hit(self, o: shapes.Vec, d: shapes.Vec):
        """(t, normal, albedo (N, 3)) for rays with origins `o` relative to the table origin."""
        h = self.size
        lo = (o[0] - self.x, o[1] - self.y, o[2] - self.z)
        t, _, face, sgn, local = shapes.box(lo, d, (0.0, 0.0, h), (h, h, h), self.yaw)
        hit = np.isfinite(t)
        px, py, pz = (np.where(hit, c, 0.0).astype(np.float32) for c in local)
        # the face's own normal, rolled over the rounded edges towards the face beside it
        ln = [np.where(face == k, sgn, 0.0).astype(np.float32) for k in range(3)]
        for k, p in enumerate((px, py, pz)):
            roll = np.clip((np.abs(p) - (h - EDGE_MM)) / EDGE_MM, 0.0, 1.0) * (face != k)
            ln[k] = ln[k] + 0.7 * roll * np.sign(p)
        norm = np.sqrt(ln[0] ** 2 + ln[1] ** 2 + ln[2] ** 2) + 1e-9
        ln = [c / norm for c in ln]
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        n = (c * ln[0] - s * ln[1], s * ln[0] + c * ln[1], ln[2])
        albedo = np.full((np.size(t), 3), 0.8, np.float32)
        top = hit & (face == 2) & (sgn > 0)
        albedo[top] = _sample(self.top.texture, px[top], py[top], h)
        for k, (axis, sign) in enumerate(((0, -1), (0, 1), (1, -1), (1, 1))):
            on = hit & (face == axis) & (sgn == sign)
            u = py[on] if axis == 0 else px[on]
            albedo[on] = _sample(self.sides[k].texture, u, -pz[on], h)
        return t, n, albedo


def _sample(texture: np.ndarray, u: np.ndarray, v: np.ndarray, half: float) -> np.ndarray:
    """Texture colours at face points (u, v: mm from the face's middle)."""
    if u.size == 0:
        return np.zeros((0, 3), np.float32)
    scale = TEXTURE_PX / (2 * half)
    fx = ((u + half) * scale - 0.5).astype(np.float32)
    fy = ((v + half) * scale - 0.5).astype(np.float32)
    return lookup(texture, fx, fy).reshape(-1, 3)


def throw(scene: Scene, faces: tuple[Face, ...], trays: list[Region]) -> Scene:
    """The scene with a die lying flat in each of ``trays`` (but now and then none), wholly
    inside it, at a random spot and turn, its faces drawn from ``faces``. Drawn from the
    photo's own "dice" stream: every other aspect of the photo stays as it was."""
    rng = stream(scene.meta["seed"], scene.meta["index"], scene.game, "dice")
    by_value = {v: [f for f in faces if f.value == v] for v in range(1, 7)}
    if any(not by_value[v] for v in by_value):
        raise ValueError("the faces must include every value 1-6")
    dice = []
    for tray in trays:
        empty = rng.random() < EMPTY_SHARE
        value = int(rng.integers(1, 7))
        yaw = float(rng.uniform(0, np.pi / 2))
        reach = DIE_MM / 2 * (abs(np.cos(yaw)) + abs(np.sin(yaw))) + 0.5
        fx, fy = rng.random(), rng.random()
        pick = [int(rng.integers(1 << 30)) for _ in range(5)]
        if empty or min(tray.w, tray.h) < 2 * reach:
            continue
        x = tray.x + reach + fx * (tray.w - 2 * reach)
        y = tray.y + reach + fy * (tray.h - 2 * reach)
        around = [a for a in range(1, 7) if a not in (value, 7 - value)]
        a, b = around[0], next(v for v in around if v != 7 - around[0])
        side_values = (a, 7 - a, b, 7 - b)
        top = by_value[value][pick[0] % len(by_value[value])]
        sides = tuple(
            by_value[v][pick[1 + k] % len(by_value[v])] for k, v in enumerate(side_values)
        )
        z = float(curl_height(scene.paper, scene.board, np.float32(x), np.float32(y)))
        dice.append(Die(tray.name, value, float(x), float(y), z, yaw, top, sides))
    return replace(scene, dice=tuple(dice))
