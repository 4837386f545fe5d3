"""What is around the board in a photo: the table top, a hand reaching over, a player's shadow.

Drawn from their own random streams (scene.stream), so adding one never changes the others.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.geometry import Board

from . import colours as tone


@dataclass(frozen=True)
class Table:
    kind: str  # "wood" or "cloth"
    rgb: np.ndarray
    second_rgb: np.ndarray  # grain / check colour
    grain_angle: float
    period: float  # mm
    checked: bool


@dataclass(frozen=True)
class Hand:
    """Capsules (a, b, radius) in the table frame, and the skin's albedo."""

    capsules: tuple[tuple[np.ndarray, np.ndarray, float], ...]
    albedo: np.ndarray


def body_shadow(board: Board, rng: np.random.Generator) -> tuple:
    """A person at one side of the table between the lamp and the board: the shadow of head
    and shoulders reaches in from that edge over a fifth to a half of the board."""
    side = int(rng.integers(4))
    w, h = board.width, board.height
    along = rng.uniform(0.2, 0.8)
    x, y = ((along * w, 0.0), (w, along * h), (along * w, h), (0.0, along * h))[side]
    inward = ((0, 1), (-1, 0), (0, -1), (1, 0))[side]
    half_len, half_wid = rng.uniform(120, 220), rng.uniform(60, 150)
    reach = rng.uniform(0.6, 1.2) * half_wid
    angle = (0.0 if side in (0, 2) else np.pi / 2) + rng.normal(0, 0.3)
    x, y = x + inward[0] * reach, y + inward[1] * reach
    blur, strength = rng.uniform(20, 50), rng.uniform(0.6, 0.9)
    return tuple(float(v) for v in (x, y, half_len, half_wid, angle, blur, strength))


WOODS = ((206, 166, 116), (176, 124, 76), (120, 78, 48), (92, 60, 40), (222, 214, 200))
CLOTHS = (
    (40, 110, 60),
    (36, 52, 96),
    (120, 120, 118),
    (210, 196, 170),
    (120, 36, 44),
    (236, 234, 228),
    (70, 60, 56),
)


def table(rng: np.random.Generator) -> Table:
    if rng.random() < 0.5:
        base = np.array(WOODS[int(rng.integers(len(WOODS)))], np.float32)
        second = base * rng.uniform(0.6, 0.85)
        return Table(
            "wood",
            tone.srgb_to_linear(base / 255),
            tone.srgb_to_linear(second / 255),
            float(rng.uniform(0, np.pi)),
            float(rng.uniform(4, 14)),
            False,
        )
    base = np.array(CLOTHS[int(rng.integers(len(CLOTHS)))], np.float32)
    checked = bool(rng.random() < 0.25)
    second = np.array((240, 238, 232), np.float32) if checked else base * 0.8
    return Table(
        "cloth",
        tone.srgb_to_linear(base / 255),
        tone.srgb_to_linear(second / 255),
        float(rng.uniform(0, np.pi)),
        float(rng.uniform(12, 30) if checked else 1.6),
        checked,
    )


def hand_over(board: Board, rng: np.random.Generator) -> Hand:
    """A hand reaching over the board from one side towards a space, fingers above the pieces."""
    target = board.spaces[int(rng.integers(len(board.spaces)))]
    side = rng.uniform(0, 2 * np.pi)
    u = -np.array([np.cos(side), np.sin(side), 0.0])  # direction of reach
    w = np.array([-u[1], u[0], 0.0])  # across the hand
    up = np.array([0, 0, 1.0])
    tip = np.array([target.x, target.y, 0.0]) + up * rng.uniform(30, 70)
    palm_h = rng.uniform(70, 130)
    palm = tip - u * 85 + up * (palm_h - tip[2])
    capsules = []
    for k, lateral in enumerate((-24, -8, 8, 24)):
        base = palm + u * 30 + w * lateral
        length = (0.85 if k in (0, 3) else 1.0) * rng.uniform(60, 75)
        end = base + u * length * 0.9 + w * lateral * 0.15 - up * rng.uniform(15, 35)
        capsules.append((base, end, 8.5))
    for lateral in (-18, 0, 18):
        capsules.append((palm - u * 25 + w * lateral, palm + u * 30 + w * lateral * 1.1, 15.0))
    thumb_side = 1 if rng.random() < 0.5 else -1
    capsules.append(
        (palm + w * thumb_side * 30 - u * 20, palm + w * thumb_side * 48 + u * 30 - up * 25, 10.0)
    )
    capsules.append((palm - u * 25, palm - u * 420 + up * 160, 34.0))
    return Hand(
        tuple(
            (np.asarray(a, np.float64), np.asarray(b, np.float64), float(r)) for a, b, r in capsules
        ),
        tone.skin_colour(rng),
    )
