"""Light at a point: a lamp (with falloff, an optional spotlight cone, soft shadows) and the
room's ambient light (an optional gradient, occluded near pieces and under a hand).

Shadows are kept in maps over the table plane: `key` is how much lamp light reaches each point
past the pieces (coloured and focused where a glass marble lets light through), `hand` the same
for the hand, `ambient` how much of the room's light is not blocked. A piece's shadow is the
union of its horizontal slices, each pushed away from the lamp by its height and blurred by the
lamp's size times that height (a penumbra that grows with height, as a real one does).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .pieces import Piece
from .scene import Light, Scene

PIECE_MM_PER_PX = 0.5
HAND_MM_PER_PX = 2.0
MARGIN_MM = 200.0
_SHIFT = 3


@dataclass
class ShadowMaps:
    origin: tuple[float, float]
    key: np.ndarray  # (H, W, 3) at PIECE_MM_PER_PX
    ambient: np.ndarray  # (H, W) at PIECE_MM_PER_PX
    hand: np.ndarray  # (h, w, 2) at HAND_MM_PER_PX: lamp, ambient


def lookup(img: np.ndarray, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    """Bilinear samples of `img` at float pixel coordinates (any shape; edges replicated)."""
    if fx.ndim == 2 and fx.shape[0] < 32000 and fx.shape[1] < 32000:
        return cv2.remap(
            img,
            fx.astype(np.float32),
            fy.astype(np.float32),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    h, w = img.shape[:2]
    fx = np.clip(fx, 0, w - 1.001)
    fy = np.clip(fy, 0, h - 1.001)
    x0, y0 = fx.astype(np.int32), fy.astype(np.int32)
    ax, ay = fx - x0, fy - y0
    if img.ndim == 3:
        ax, ay = ax[..., None], ay[..., None]
    top = img[y0, x0] * (1 - ax) + img[y0, x0 + 1] * ax
    bottom = img[y0 + 1, x0] * (1 - ax) + img[y0 + 1, x0 + 1] * ax
    return (top * (1 - ay) + bottom * ay).astype(np.float32)


def to_lamp(light: Light, x, y, up) -> tuple:
    """Unit vector towards the lamp and the lamp's falloff (1 at the board's middle height)."""
    # plain Python floats keep float32 arrays float32 (a NumPy float64 would widen them)
    ax, ay, au = (float(v) for v in light.lamp)
    lx, ly, lu = ax - x, ay - y, au - up
    dist = np.sqrt(lx * lx + ly * ly + lu * lu)
    return (lx / dist, ly / dist, lu / dist), (au / dist) ** 2


def lamp_strength(light: Light, x, y, up):
    """Lamp irradiance on a surface facing the lamp (before shadows): spot cone and falloff."""
    to_l, falloff = to_lamp(light, x, y, up)
    spot = 1.0
    if np.isfinite(light.spot_sigma):
        sx, sy = float(light.spot_centre[0]), float(light.spot_centre[1])
        d2 = (x - sx) ** 2 + (y - sy) ** 2
        spot = light.spot_floor + (1 - light.spot_floor) * np.exp(-d2 / (2 * light.spot_sigma**2))
    return to_l, light.key * spot * falloff


def ambient_strength(light: Light, board_mid: tuple[float, float], x, y):
    gx, gy = float(light.gradient[0]), float(light.gradient[1])
    if gx == 0.0 and gy == 0.0:
        return light.ambient
    return light.ambient * np.maximum(0.2, 1 + gx * (x - board_mid[0]) + gy * (y - board_mid[1]))


def build(scene: Scene) -> ShadowMaps:
    board = scene.board
    x0, y0 = -MARGIN_MM, -MARGIN_MM
    w = int((board.width + 2 * MARGIN_MM) / PIECE_MM_PER_PX)
    h = int((board.height + 2 * MARGIN_MM) / PIECE_MM_PER_PX)
    key = np.ones((h, w, 3), np.float32)
    ambient = np.ones((h, w), np.float32)
    for piece in scene.pieces + tuple(scene.dice):
        _cast(piece, scene.light, key, ambient, (x0, y0))
    hw, hh = int(w * PIECE_MM_PER_PX / HAND_MM_PER_PX), int(h * PIECE_MM_PER_PX / HAND_MM_PER_PX)
    hand = np.ones((hh, hw, 2), np.float32)
    if scene.hand is not None:
        hand = _hand_shadow(scene, (x0, y0), (hh, hw))
    if scene.light.body_shadow is not None:
        hand = hand * _body_shadow(scene.light.body_shadow, (x0, y0), (hh, hw))
    return ShadowMaps((x0, y0), key, ambient, hand)


def _body_shadow(shadow: tuple, origin, shape) -> np.ndarray:
    """(lamp, ambient) factors of a person's big soft shadow, on the hand map's grid."""
    x, y, half_len, half_wid, angle, blur, strength = shadow
    res = HAND_MM_PER_PX
    mask = np.zeros(shape, np.uint8)
    cx, cy = _px(x, y, origin, res)
    axes = (round(half_len / res), round(half_wid / res))
    cv2.ellipse(mask, (round(cx), round(cy)), axes, float(np.degrees(angle)), 0, 360, 255, -1)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), blur / res)
    return np.stack([1 - strength * soft, 1 - 0.3 * strength * soft], -1)


def _px(x: float, y: float, origin, res: float) -> tuple[float, float]:
    return (x - origin[0]) / res, (y - origin[1]) / res


def _cast(piece: Piece, light: Light, key, ambient, origin) -> None:
    res = PIECE_MM_PER_PX
    (lx, ly, lu), _ = to_lamp(light, piece.x, piece.y, piece.z)
    lu = max(lu, 0.2)
    reach = piece.height / lu + piece.size * 2 + 6
    cx, cy = _px(piece.x, piece.y, origin, res)
    half = int(reach / res) + 2
    xa, ya = int(cx) - half, int(cy) - half
    xb, yb = int(cx) + half, int(cy) + half
    if xa < 0 or ya < 0 or xb > key.shape[1] or yb > key.shape[0]:
        return
    patch = np.zeros((yb - ya, xb - xa), np.uint8)
    one = 1 << _SHIFT
    tan = np.tan(np.radians(light.lamp_radius_deg))
    for z, shape in piece.slices():
        sx = cx - xa - z * lx / lu / res
        sy = cy - ya - z * ly / lu / res
        centre = (round(sx * one), round(sy * one))
        if shape[0] == "disc":
            cv2.circle(
                patch, centre, max(1, round(shape[1] / res * one)), 255, -1, cv2.LINE_AA, _SHIFT
            )
        else:
            c, s = np.cos(piece.yaw), np.sin(piece.yaw)
            hx, hy = shape[1] / res, shape[2] / res
            corners = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)])
            rot = corners @ np.array([[c, s], [-s, c]]) + (sx, sy)
            cv2.fillPoly(patch, [np.round(rot * one).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
    sigma = (0.25 + 0.5 * piece.height * tan) / res
    occ = cv2.GaussianBlur(patch.astype(np.float32) / 255.0, (0, 0), sigma)
    region = key[ya:yb, xa:xb]
    if piece.glass:
        through = piece.albedo**0.5 * 0.7  # light passing the glass keeps its colour
        region *= 1 - occ[..., None] * (1 - through)
        # the sphere is a lens: the light it gathers lands as a small bright spot behind it
        r = piece.size
        centre_up = r - 0.06 * r + piece.z
        fx = cx - xa - centre_up * lx / lu / res * 1.25
        fy = cy - ya - centre_up * ly / lu / res * 1.25
        spot_r = max(0.8, 0.35 * r)
        yy, xx = np.mgrid[0 : patch.shape[0], 0 : patch.shape[1]].astype(np.float32)
        spot = np.exp(-((xx - fx) ** 2 + (yy - fy) ** 2) / (2 * (spot_r / res) ** 2))
        gain = min(3.0, 0.5 * (r / spot_r) ** 2)
        region += spot[..., None] * gain * piece.albedo
    else:
        region *= (1 - occ)[..., None]
    # the room's light is partly blocked right round a piece's foot
    foot = np.zeros_like(patch)
    cv2.circle(
        foot,
        (round((cx - xa) * one), round((cy - ya) * one)),
        round(piece.size / res * one),
        255,
        -1,
        cv2.LINE_AA,
        _SHIFT,
    )
    ao = cv2.GaussianBlur(foot.astype(np.float32) / 255.0, (0, 0), (0.25 * piece.height + 1) / res)
    ambient[ya:yb, xa:xb] *= 1 - 0.45 * ao


def _hand_shadow(scene: Scene, origin, shape) -> np.ndarray:
    res = HAND_MM_PER_PX
    light = scene.light
    cast = np.zeros(shape, np.uint8)
    below = np.zeros(shape, np.uint8)
    heights = []
    one = 1 << _SHIFT
    for a, b, radius in scene.hand.capsules:
        for k in np.linspace(0, 1, 14):
            p = a + (b - a) * k
            (lx, ly, lu), _ = to_lamp(light, p[0], p[1], 0.0)
            lu = max(lu, 0.2)
            sx, sy = _px(p[0] - p[2] * lx / lu, p[1] - p[2] * ly / lu, origin, res)
            rr = max(1, round(radius / res * one))
            cv2.circle(cast, (round(sx * one), round(sy * one)), rr, 255, -1, cv2.LINE_AA, _SHIFT)
            bx, by = _px(p[0], p[1], origin, res)
            cv2.circle(below, (round(bx * one), round(by * one)), rr, 255, -1, cv2.LINE_AA, _SHIFT)
            heights.append(p[2])
    tan = np.tan(np.radians(light.lamp_radius_deg))
    mean_h = float(np.mean(heights))
    key = 1 - cv2.GaussianBlur(cast.astype(np.float32) / 255, (0, 0), max(0.5, mean_h * tan / res))
    amb = 1 - 0.55 * cv2.GaussianBlur(below.astype(np.float32) / 255, (0, 0), 0.5 * mean_h / res)
    return np.stack([key, amb], -1)


def sample_maps(maps: ShadowMaps, x, y):
    """(key RGB, hand lamp, hand ambient, piece ambient) at table points x, y."""
    fx, fy = (x - maps.origin[0]) / PIECE_MM_PER_PX, (y - maps.origin[1]) / PIECE_MM_PER_PX
    key = lookup(maps.key, fx, fy)
    amb = lookup(maps.ambient, fx, fy)
    hx, hy = (x - maps.origin[0]) / HAND_MM_PER_PX, (y - maps.origin[1]) / HAND_MM_PER_PX
    hand = lookup(maps.hand, hx, hy)
    return key, hand[..., 0], hand[..., 1], amb


def hand_at(maps: ShadowMaps, x, y):
    hx, hy = (x - maps.origin[0]) / HAND_MM_PER_PX, (y - maps.origin[1]) / HAND_MM_PER_PX
    hand = lookup(maps.hand, hx, hy)
    return hand[..., 0], hand[..., 1]
