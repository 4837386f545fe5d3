"""A simulated table: the printed board, tokens and dice as a camera above the table sees them.

Used as the camera source for the demo, the vision benchmark and the tests. Every frame is
regenerable from (seed, index): the camera pose and the photographic conditions of a table come
from its seed, the per-frame variation (jitter, noise, dice positions, hand) from (seed, index).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from hardware.artwork import draw_tokens, render_board
from rules.geometry import Board, Region

TABLE_BGR = (70, 105, 140)  # a wooden table top
DIE_MM = 15.0
_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass
class SimTruth:
    """What is really on a simulated frame."""

    index: int
    homography: np.ndarray  # 3x3, board millimetres -> image pixels
    placement: dict[str, str]
    dice: list[dict] = field(default_factory=list)  # {"value", "x", "y", "w", "h"} image px
    hand: bool = False
    hand_box: tuple[int, int, int, int] | None = None


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    r, _ = cv2.Rodrigues((axis / np.linalg.norm(axis) * angle).reshape(3, 1))
    return r


class SimulatedTable:
    """A seeded virtual camera looking at a board.

    `render(placement, dice)` returns `(frame_bgr, truth)`; successive calls use successive
    frame indices, and `render(..., index=i)` regenerates frame i exactly.
    """

    def __init__(
        self,
        board: Board,
        seed: int = 0,
        width: int = 1280,
        height: int = 960,
        hand_probability: float = 0.0,
        *,
        max_tilt_deg: float = 30.0,
        px_per_mm: float = 4.0,
        noise: float = 1.0,
        token_offset: float = 0.2,
    ) -> None:
        self.board = board
        self.seed = int(seed)
        self.width, self.height = int(width), int(height)
        self.hand_probability = float(hand_probability)
        self.px_per_mm = float(px_per_mm)
        self.noise = float(noise)
        self.token_offset = float(token_offset)  # max token offset, fraction of hole_radius
        self.index = 0
        rng = np.random.default_rng([self.seed, 0x7AB1E])
        self._artwork = render_board(board, self.px_per_mm)
        # the table pose: tilt, spin, framing; and the photographic character of the table
        tilt = math.radians(rng.uniform(0.0, max_tilt_deg))
        self._pose = dict(
            tilt=tilt,
            tilt_axis=rng.uniform(0, 2 * math.pi),
            spin=rng.uniform(0, 2 * math.pi),
            fill=rng.uniform(0.72, 0.92),
            focal=rng.uniform(0.9, 1.6),
        )
        self._light = _draw_light(rng)
        self._extent = self._table_extent()
        self._base_h = self._camera_homography(rng)

    def relight(self, seed: int) -> None:
        """Another lamp: new white balance, exposure, gradient and blur (the pose stays)."""
        self._light = _draw_light(np.random.default_rng([int(seed), 0x11647]))

    # geometry ------------------------------------------------------------------------------
    def dice_area(self) -> Region:
        """Where dice are thrown: the board's dice tray if it has one, else beside the board."""
        for region in self.board.regions:
            if "dice" in region.name.lower() or "tray" in region.name.lower():
                return region
        return Region("beside", self.board.width + 10.0, self.board.height * 0.3, 60.0, 90.0)

    def _table_extent(self) -> tuple[float, float, float, float]:
        area = self.dice_area()
        x0, y0 = min(0.0, area.x), min(0.0, area.y)
        x1 = max(self.board.width, area.x + area.w)
        y1 = max(self.board.height, area.y + area.h)
        return x0, y0, x1, y1

    def _camera_homography(self, rng: np.random.Generator) -> np.ndarray:
        """Board mm -> image px for a pinhole camera tilted over the board centre."""
        p = self._pose
        x0, y0, x1, y1 = self._extent
        size = max(x1 - x0, y1 - y0)
        f = p["focal"] * size
        axis = np.array([math.cos(p["tilt_axis"]), math.sin(p["tilt_axis"]), 0.0])
        r = _rot(np.array([0.0, 0.0, 1.0]), p["spin"])
        r = _rot(axis, p["tilt"]) @ r
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        t = np.array([0.0, 0.0, f * 1.0])  # camera distance ~ focal: the board fills ~1 unit
        # world point (x - cx, y - cy, 0) -> camera R @ X + t -> image f * X/Z
        m = np.column_stack([r[:, 0], r[:, 1], t])
        k = np.diag([f, f, 1.0])
        shift = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], float)
        h = k @ m @ shift
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        proj = cv2.perspectiveTransform(corners[None], h)[0]
        lo, hi = proj.min(0), proj.max(0)
        scale = p["fill"] * min(self.width / (hi[0] - lo[0]), self.height / (hi[1] - lo[1]))
        slack = np.array([self.width, self.height]) - scale * (hi - lo)
        offset = slack * rng.uniform(0.2, 0.8, 2) - scale * lo
        fit = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1]])
        h = fit @ h
        return h / h[2, 2]

    # rendering -----------------------------------------------------------------------------
    def render(
        self,
        placement: dict[str, str],
        dice: list[int] | tuple[int, ...] = (),
        *,
        hand: bool | None = None,
        index: int | None = None,
        dice_seed: int | None = None,
    ) -> tuple[np.ndarray, SimTruth]:
        """A frame of the table and what it shows. The dice lie somewhere new in every frame,
        unless `dice_seed` is given: then they lie where that throw put them."""
        if index is None:
            index = self.index
            self.index += 1
        rng = np.random.default_rng([self.seed, int(index)])
        ppm = self.px_per_mm
        x0, y0, x1, y1 = self._extent
        pad = 30.0
        c0, r0 = round((pad - x0) * ppm), round((pad - y0) * ppm)
        ox, oy = -c0 / ppm, -r0 / ppm  # canvas origin in board mm (whole pixels)
        cw, ch = round((x1 - ox + pad) * ppm), round((y1 - oy + pad) * ppm)
        canvas = np.empty((ch, cw, 3), np.uint8)
        canvas[:] = TABLE_BGR
        art = self._artwork
        canvas[r0 : r0 + art.shape[0], c0 : c0 + art.shape[1]] = art
        # soft shadows under tokens and dice, then the tokens
        shadow = np.zeros((ch, cw), np.float32)
        sd = self._light["shadow_dir"]
        dx, dy = 1.2 * math.cos(sd), 1.2 * math.sin(sd)
        offsets = {}
        for space_id in placement:
            s = self.board.space(space_id)
            rho = self.token_offset * self.board.hole_radius * math.sqrt(rng.random())
            phi = rng.uniform(0, 2 * math.pi)
            offsets[space_id] = (rho * math.cos(phi), rho * math.sin(phi))
            tx, ty = s.x + offsets[space_id][0], s.y + offsets[space_id][1]
            centre = (round((tx - ox + dx) * ppm), round((ty - oy + dy) * ppm))
            cv2.circle(shadow, centre, round(self.board.token_radius * ppm), 1.0, -1)
        dice_rng = rng if dice_seed is None else np.random.default_rng([self.seed, 1, dice_seed])
        dice_boxes_mm = self._place_dice(dice, dice_rng)
        for _, poly in dice_boxes_mm:
            pts = np.round((poly - [ox - dx * 1.5, oy - dy * 1.5]) * ppm).astype(np.int32)
            cv2.fillConvexPoly(shadow, pts, 1.0)
        k = int(2 * round(1.5 * ppm) + 1)
        shadow = cv2.GaussianBlur(shadow, (k, k), 0)
        canvas = (canvas * (1.0 - 0.35 * shadow[:, :, None])).astype(np.uint8)
        shifted = _ShiftedBoard(self.board, ox, oy)
        draw_tokens(canvas, shifted.board, placement, ppm, offsets)
        for value, poly in dice_boxes_mm:
            _draw_die(canvas, value, (poly - [ox, oy]) * ppm)
        # camera: board mm -> image, with a little per-frame jitter
        h = self._base_h.copy()
        jitter = np.array([[1, 0, rng.normal(0, 0.3)], [0, 1, rng.normal(0, 0.3)], [0, 0, 1]])
        h = jitter @ h
        canvas_to_mm = np.array(
            [[1 / ppm, 0, ox + 0.5 / ppm], [0, 1 / ppm, oy + 0.5 / ppm], [0, 0, 1]]
        )
        warp = h @ canvas_to_mm
        frame = cv2.warpPerspective(
            canvas, warp, (self.width, self.height), flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR,
        )  # fmt: skip
        has_hand = (rng.random() < self.hand_probability) if hand is None else bool(hand)
        hand_box = _draw_hand(frame, h, self.board, rng) if has_hand else None
        frame = self._photograph(frame, rng)
        dice_truth = []
        for value, poly in dice_boxes_mm:
            p = cv2.perspectiveTransform(poly[None].astype(np.float64), h)[0]
            lo, hi = p.min(0), p.max(0)
            dice_truth.append(
                {"value": int(value), "x": float(lo[0]), "y": float(lo[1]),
                 "w": float(hi[0] - lo[0]), "h": float(hi[1] - lo[1])}
            )  # fmt: skip
        truth = SimTruth(int(index), h, dict(placement), dice_truth, has_hand, hand_box)
        return frame, truth

    def _place_dice(self, dice, rng) -> list[tuple[int, np.ndarray]]:
        area = self.dice_area()
        placed: list[tuple[int, np.ndarray]] = []
        centres: list[tuple[float, float]] = []
        half = DIE_MM / 2
        reach = half * math.sqrt(2)
        for value in dice:
            if value not in _PIPS:
                raise ValueError(f"a die shows 1..6, got {value!r}")
            for _ in range(200):
                cx = rng.uniform(area.x + reach, max(area.x + reach, area.x + area.w - reach))
                cy = rng.uniform(area.y + reach, max(area.y + reach, area.y + area.h - reach))
                if all(math.hypot(cx - a, cy - b) > 2 * reach + 1 for a, b in centres):
                    break
            centres.append((cx, cy))
            ang = rng.uniform(0, math.pi / 2)
            ca, sa = math.cos(ang), math.sin(ang)
            corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
            poly = np.array([(cx + ca * u - sa * v, cy + sa * u + ca * v) for u, v in corners])
            placed.append((int(value), poly))
        return placed

    def _photograph(self, frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        li = self._light
        img = frame.astype(np.float32)
        sigma = li["blur"] * rng.uniform(0.85, 1.15)
        img = cv2.GaussianBlur(img, (0, 0), sigma)
        yy, xx = np.mgrid[0 : self.height, 0 : self.width].astype(np.float32)
        d = li["gradient_dir"]
        ramp = (xx * math.cos(d) + yy * math.sin(d)) / max(self.width, self.height)
        ramp -= ramp.mean()
        gain = li["exposure"] * (1.0 + li["gradient"] * 2 * ramp)
        wb = li["wb"] * rng.uniform(0.98, 1.02, 3)
        img *= gain[:, :, None]
        img *= wb.astype(np.float32)[None, None, :]
        img += rng.normal(0.0, 2.5 * self.noise, img.shape).astype(np.float32)
        img = np.clip(img, 0, 255).astype(np.uint8)
        quality = int(rng.integers(70, 93))
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _draw_light(rng: np.random.Generator) -> dict:
    return dict(
        wb=rng.uniform(0.85, 1.15, 3),
        exposure=rng.uniform(0.8, 1.15),
        gradient=rng.uniform(0.0, 0.3),
        gradient_dir=rng.uniform(0, 2 * math.pi),
        blur=rng.uniform(0.4, 1.1),
        shadow_dir=rng.uniform(0, 2 * math.pi),
    )


class _ShiftedBoard:
    """The board with every space moved by (-ox, -oy) mm, to draw onto the table canvas."""

    def __init__(self, board: Board, ox: float, oy: float) -> None:
        from dataclasses import replace

        spaces = tuple(replace(s, x=s.x - ox, y=s.y - oy) for s in board.spaces)
        self.board = replace(board, spaces=spaces)


def _draw_die(canvas: np.ndarray, value: int, poly_px: np.ndarray) -> None:
    pts = np.round(poly_px * 16).astype(np.int32)
    cv2.fillConvexPoly(canvas, pts, (236, 240, 242), cv2.LINE_AA, 4)
    cv2.polylines(canvas, [pts], True, (150, 150, 150), 1, cv2.LINE_AA, 4)
    centre = poly_px.mean(0)
    ex = (poly_px[1] - poly_px[0]) / 2
    ey = (poly_px[3] - poly_px[0]) / 2
    pip_r = np.linalg.norm(ex) * 0.17
    for u, v in _PIPS[value]:
        p = centre + 0.55 * (u * ex + v * ey)
        cv2.circle(canvas, (round(p[0] * 16), round(p[1] * 16)), round(pip_r * 16), (35, 30, 30),
                   -1, cv2.LINE_AA, 4)  # fmt: skip


def _draw_hand(frame: np.ndarray, h: np.ndarray, board: Board, rng) -> tuple[int, int, int, int]:
    """A skin-coloured arm reaching from an image edge to a point over the board."""
    hh, ww = frame.shape[:2]
    target_mm = np.array(
        [[rng.uniform(0.15, 0.85) * board.width, rng.uniform(0.15, 0.85) * board.height]]
    )
    tx, ty = cv2.perspectiveTransform(target_mm[None], h)[0][0]
    edge = rng.integers(4)
    along = rng.uniform(0.2, 0.8)
    start = [(along * ww, -40), (ww + 40, along * hh), (along * ww, hh + 40), (-40, along * hh)][
        edge
    ]
    tones = [(95, 125, 180), (120, 160, 215), (140, 175, 225), (55, 80, 120), (80, 110, 160)]
    tone = np.array(tones[rng.integers(len(tones))], float) * rng.uniform(0.9, 1.1)
    scale = (
        np.linalg.norm(
            cv2.perspectiveTransform(np.array([[[0, 0], [10, 0]]], np.float64), h)[0][1]
            - cv2.perspectiveTransform(np.array([[[0, 0], [10, 0]]], np.float64), h)[0][0]
        )
        / 10.0
    )  # px per mm near the board
    arm_w = rng.uniform(55, 75) * scale
    mask = np.zeros((hh, ww), np.uint8)
    cv2.line(mask, (round(start[0]), round(start[1])), (round(tx), round(ty)), 255, round(arm_w))
    cv2.ellipse(mask, (round(tx), round(ty)), (round(arm_w * 0.75), round(arm_w * 0.6)),
                rng.uniform(0, 180), 0, 360, 255, -1)  # fmt: skip
    soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32)[:, :, None] / 255.0
    # shading across the arm
    shade = 0.85 + 0.25 * cv2.GaussianBlur(mask, (0, 0), arm_w / 4).astype(np.float32) / 255.0
    arm = tone[None, None, :] * shade[:, :, None]
    frame[:] = np.clip(frame * (1 - soft) + arm * soft, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(mask)
    return (int(xs.min()), int(ys.min()), int(xs.max() - xs.min()), int(ys.max() - ys.min()))
