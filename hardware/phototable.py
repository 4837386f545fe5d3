"""A photo-like table: a harder, more varied camera than the simulated table, for the bench.

The simulated table (`hardware.simtable`) draws what the demo needs. This one draws what a real
table brings, so that the board reader is measured on frames it was not shaped around: a camera
at a slant with lens distortion, a lamp with a gradient and a spotlight, a white-balance cast,
tinted paper, a wood or cloth table, defocus, sensor noise and JPEG; tokens in real plastic and
glass colours (never the palette's values) with 3D shading, a highlight, a cast shadow, leaning
heads, put down off centre by hand; now and then a hand with its shadow, glare or paper curl.

Every condition can be switched on alone (`CONDITIONS`), so the bench reports each one
separately; `"all"` switches every one on at once. Frames are regenerable from (seed, index).
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from hardware.artwork import render_board
from rules.geometry import Board
from rules.palette import PALETTE

# Each condition names one way a real photo differs from a clean top view.
CONDITIONS = (
    "pose",  # camera tilt up to 12 degrees, any rotation, board filling 60-85% of the frame
    "lens",  # barrel or pincushion distortion, k1 up to +-0.05
    "light",  # a gradient plus a soft spotlight, overall 0.6-1.2x
    "cast",  # a warm or cool white-balance cast up to 15%, slightly tinted paper
    "optics",  # defocus up to sigma 1.2 px, sensor noise, JPEG quality 70-90
    "tokens",  # real plastic/glass colours, 3D shading, highlights, shadows, leaning heads
    "offset",  # tokens put down by hand up to a quarter of the spacing off centre
    "hand",  # a hand and its shadow over the board in some frames
    "glare",  # a lamp's reflection on the glossy board
    "curl",  # the paper lifts a little along one edge
)
TOKEN_STYLE = {  # how each game's tokens look from above
    "aggravation": "marble",
    "manipulation": "pawn",
    "manji": "pawn",
    "the-right-moves": "checker",
    "playground-battles": "stand",
}
CANVAS_PPM = 4.0  # the table is drawn at this many pixels per millimetre, then photographed


@dataclass
class PhotoTruth:
    """What is really on a photo-like frame."""

    index: int
    homography: np.ndarray  # board mm -> image px, before lens distortion
    placement: dict[str, str]
    hand: bool = False
    offsets_mm: dict[str, tuple[float, float]] = field(default_factory=dict)
    dice: list[dict] = field(default_factory=list)


def real_colour(name: str, rng: np.random.Generator) -> tuple[int, int, int]:
    """A plausible real plastic or glass colour for a palette name, never its exact value."""
    r, g, b = (c / 255.0 for c in PALETTE[name].rgb)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    if name in ("white", "black"):
        v = float(np.clip(v + rng.uniform(-0.12, 0.05), 0.05, 0.97))
        s = float(rng.uniform(0.0, 0.12))
        h = float(rng.uniform(0, 1))
    else:
        h = (h + rng.uniform(-0.035, 0.035)) % 1.0  # about +-12 degrees of hue
        s = float(np.clip(s * rng.uniform(0.65, 1.05), 0.35, 1.0))
        v = float(np.clip(v * rng.uniform(0.6, 1.1), 0.3, 1.0))
    rr, gg, bb = colorsys.hsv_to_rgb(h, s, v)
    return (round(bb * 255), round(gg * 255), round(rr * 255))  # BGR


def _nearest_spacing(board: Board) -> dict[str, float]:
    xy = np.array([[s.x, s.y] for s in board.spaces])
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    return {s.id: float(d[i].min()) for i, s in enumerate(board.spaces)}


class PhotoTable:
    """A seeded photo-like camera over `board`; same `render` shape as SimulatedTable."""

    def __init__(
        self,
        board: Board,
        seed: int = 0,
        conditions: tuple[str, ...] | str = "all",
        width: int = 1280,
        height: int = 960,
        hand_probability: float = 0.15,
    ) -> None:
        if conditions == "all":
            conditions = CONDITIONS
        elif isinstance(conditions, str):
            conditions = (conditions,)
        unknown = set(conditions) - set(CONDITIONS)
        if unknown:
            raise ValueError(f"unknown conditions {sorted(unknown)}; known: {list(CONDITIONS)}")
        self.board = board
        self.seed = int(seed)
        self.on = frozenset(conditions)
        self.width, self.height = int(width), int(height)
        self.hand_probability = float(hand_probability) if "hand" in self.on else 0.0
        self.index = 0
        self.style = next(
            (style for game, style in TOKEN_STYLE.items() if board.name.startswith(game)), "pawn"
        )
        self._spacing = _nearest_spacing(board)
        rng = np.random.default_rng([self.seed, 0xF070])
        self._look = self._draw_look(rng)
        self._art = self._paper(render_board(board, CANVAS_PPM), rng)
        self._pad = 40.0
        self._h = self._camera(rng)

    # the table's character -------------------------------------------------------------------
    def _draw_look(self, rng: np.random.Generator) -> dict:
        on = self.on
        return dict(
            tokens={c: real_colour(c, rng) for c in PALETTE},
            cloth=bool(rng.random() < 0.4),
            table_bgr=rng.uniform([40, 70, 100], [110, 140, 190])
            if rng.random() < 0.6
            else rng.uniform([60, 60, 40], [150, 130, 110]),
            paper_tint=rng.uniform(0.93, 1.0, 3) if "cast" in on else np.ones(3),
            wb=rng.uniform(0.85, 1.15, 3) if "cast" in on else np.ones(3),
            exposure=rng.uniform(0.6, 1.2) if "light" in on else 1.0,
            gradient=rng.uniform(0.1, 0.45) if "light" in on else 0.0,
            gradient_dir=rng.uniform(0, 2 * math.pi),
            spot=(rng.uniform(0.2, 0.8, 2), rng.uniform(0.25, 0.6), rng.uniform(0.15, 0.45))
            if "light" in on
            else None,
            light_dir=rng.uniform(0, 2 * math.pi),
            blur=rng.uniform(0.3, 1.2) if "optics" in on else 0.5,
            noise=rng.uniform(2.0, 6.0) if "optics" in on else 1.0,
            jpeg=int(rng.integers(70, 91)) if "optics" in on else 95,
            k1=rng.uniform(-0.05, 0.05) if "lens" in on else 0.0,
            glare=(rng.uniform(0.2, 0.8, 2), rng.uniform(0.05, 0.12)) if "glare" in on else None,
            curl=(int(rng.integers(4)), rng.uniform(4.0, 9.0)) if "curl" in on else None,
        )

    def _paper(self, art: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The printout: paper tint, and a little print unevenness."""
        out = art.astype(np.float32) * self._look["paper_tint"][None, None, :].astype(np.float32)
        grain = cv2.GaussianBlur(rng.normal(0, 1, art.shape[:2]).astype(np.float32), (0, 0), 6)
        out *= (1.0 + 0.02 * grain / max(1e-6, float(grain.std())))[:, :, None]
        return np.clip(out, 0, 255).astype(np.uint8)

    def _camera(self, rng: np.random.Generator) -> np.ndarray:
        """Board mm -> image px for a pinhole camera over the board (tilt, spin, framing)."""
        b = self.board
        posed = "pose" in self.on
        tilt = math.radians(rng.uniform(0, 12)) if posed else 0.0
        axis_angle = rng.uniform(0, 2 * math.pi)
        spin = rng.uniform(0, 2 * math.pi) if posed else 0.0
        fill = rng.uniform(0.6, 0.85) if posed else 0.8
        f = 1.2 * max(b.width, b.height)
        axis = np.array([math.cos(axis_angle), math.sin(axis_angle), 0.0])
        rot_z, _ = cv2.Rodrigues(np.array([0.0, 0.0, spin]).reshape(3, 1))
        rot_t, _ = cv2.Rodrigues((axis * tilt).reshape(3, 1))
        r = rot_t @ rot_z
        m = np.column_stack([r[:, 0], r[:, 1], [0.0, 0.0, f]])
        shift = np.array([[1, 0, -b.width / 2], [0, 1, -b.height / 2], [0, 0, 1]], float)
        h = np.diag([f, f, 1.0]) @ m @ shift
        corners = np.array([[0, 0], [b.width, 0], [b.width, b.height], [0, b.height]], float)
        p = cv2.perspectiveTransform(corners[None], h)[0]
        lo, hi = p.min(0), p.max(0)
        scale = fill * min(self.width / (hi[0] - lo[0]), self.height / (hi[1] - lo[1]))
        slack = np.array([self.width, self.height]) - scale * (hi - lo)
        offset = slack * (rng.uniform(0.25, 0.75, 2) if posed else 0.5) - scale * lo
        h = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1]]) @ h
        return h / h[2, 2]

    # rendering -------------------------------------------------------------------------------
    def render(
        self,
        placement: dict[str, str],
        dice: list[int] | tuple[int, ...] = (),
        *,
        hand: bool | None = None,
        index: int | None = None,
    ) -> tuple[np.ndarray, PhotoTruth]:
        """A photo of the table with `placement` on the board (dice are not drawn here)."""
        if index is None:
            index = self.index
            self.index += 1
        rng = np.random.default_rng([self.seed, int(index), 0x9407])
        ppm, pad, b = CANVAS_PPM, self._pad, self.board
        cw, ch = round((b.width + 2 * pad) * ppm), round((b.height + 2 * pad) * ppm)
        canvas = self._table_top(cw, ch, rng)
        p0 = round(pad * ppm)
        canvas[p0 : p0 + self._art.shape[0], p0 : p0 + self._art.shape[1]] = self._art
        offsets = self._offsets(placement, rng)
        self._draw_tokens(canvas, placement, offsets, rng)
        canvas_to_mm = np.array([[1 / ppm, 0, -pad + 0.5 / ppm], [0, 1 / ppm, -pad + 0.5 / ppm],
                                 [0, 0, 1]])  # fmt: skip
        jitter = np.array([[1, 0, rng.normal(0, 0.4)], [0, 1, rng.normal(0, 0.4)], [0, 0, 1]])
        h = jitter @ self._h
        warp = h @ canvas_to_mm
        size = (self.width, self.height)
        img = cv2.warpPerspective(canvas, warp, size, flags=cv2.INTER_LINEAR).astype(np.float32)
        inside = cv2.warpPerspective(np.ones(canvas.shape[:2], np.float32), warp, size)
        around = self._table_top(self.width, self.height, rng).astype(np.float32)
        img = img + around * (1.0 - inside)[:, :, None]
        has_hand = (rng.random() < self.hand_probability) if hand is None else bool(hand)
        if has_hand:
            _draw_hand(img, h, b, rng)
        img = self._photograph(img, rng)
        truth = PhotoTruth(int(index), h, dict(placement), has_hand, offsets)
        return img, truth

    def _table_top(self, cw: int, ch: int, rng: np.random.Generator) -> np.ndarray:
        base = np.asarray(self._look["table_bgr"], np.float32)
        if self._look["cloth"]:
            weave = rng.normal(0, 1, (ch, cw)).astype(np.float32)
            tex = 1.0 + 0.06 * cv2.GaussianBlur(weave, (0, 0), 1.0)
        else:  # wood: stretched noise along the grain
            grain = rng.normal(0, 1, (max(8, ch // 40), cw)).astype(np.float32)
            grain = cv2.resize(cv2.GaussianBlur(grain, (0, 0), 2), (cw, ch))
            tex = 1.0 + 0.12 * grain / max(1e-6, float(grain.std()))
        return np.clip(base[None, None, :] * tex[:, :, None], 0, 255).astype(np.uint8)

    def _offsets(self, placement, rng) -> dict[str, tuple[float, float]]:
        out = {}
        for sid in placement:
            if "offset" not in self.on:
                rho = 0.3 * rng.random()
            elif self.style == "marble":
                rho = 1.0 * math.sqrt(rng.random())  # a marble settles in its hole
            else:
                rho = 0.25 * self._spacing[sid] * math.sqrt(rng.random())
            phi = rng.uniform(0, 2 * math.pi)
            out[sid] = (rho * math.cos(phi), rho * math.sin(phi))
        return out

    def _draw_tokens(self, canvas, placement, offsets, rng) -> None:
        ppm, pad, b = CANVAS_PPM, self._pad, self.board
        styled = "tokens" in self.on
        light = self._look["light_dir"]
        lx, ly = math.cos(light), math.sin(light)
        # shadows first, all of them, so no token's shadow falls on another token
        shadow = np.zeros(canvas.shape[:2], np.float32)
        discs = []
        for sid, colour in placement.items():
            s = b.space(sid)
            parts = colour.split("+")
            shift = b.token_radius * 0.55 if len(parts) == 2 else 0.0
            r = b.token_radius * (0.6 if len(parts) == 2 else 1.0)
            for k, part in enumerate(parts):
                dx = (k - 0.5) * 2 * shift if len(parts) == 2 else 0.0
                x = s.x + offsets[sid][0] + dx
                y = s.y + offsets[sid][1]
                discs.append((part, x, y, r))
                reach = 1.5 if styled else 0.8
                c = ((x + pad - reach * lx) * ppm, (y + pad - reach * ly) * ppm)
                cv2.circle(shadow, (round(c[0] * 16), round(c[1] * 16)), round(r * ppm * 16),
                           1.0, -1, cv2.LINE_AA, 4)  # fmt: skip
        shadow = cv2.GaussianBlur(shadow, (0, 0), 1.2 * ppm)
        canvas[:] = (canvas * (1.0 - 0.45 * shadow[:, :, None])).astype(np.uint8)
        for colour, x, y, r in discs:
            bgr = self._look["tokens"][colour] if styled else _palette_bgr(colour)
            _token(canvas, ((x + pad) * ppm, (y + pad) * ppm), r * ppm, bgr, self.style if styled
                   else "flat", (lx, ly), rng)  # fmt: skip

    def _photograph(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        look, hh, ww = self._look, self.height, self.width
        yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
        side = float(max(ww, hh))
        d = look["gradient_dir"]
        ramp = (xx * math.cos(d) + yy * math.sin(d)) / side
        gain = 1.0 + look["gradient"] * 2 * (ramp - ramp.mean())
        if look["spot"] is not None:
            (sx, sy), radius, strength = look["spot"]
            r2 = ((xx - sx * ww) ** 2 + (yy - sy * hh) ** 2) / (radius * side) ** 2
            gain = gain * (1.0 - strength + strength * 1.6 * np.exp(-r2))
        if look["glare"] is not None:
            (gx, gy), gr = look["glare"]
            g2 = ((xx - gx * ww) ** 2 + (yy - gy * hh) ** 2) / (gr * side) ** 2
            img = img + 90.0 * np.exp(-g2)[:, :, None]
        img = img * (look["exposure"] * gain)[:, :, None] * look["wb"][None, None, :]
        if look["curl"] is not None:
            img = _curl(img, self._h, self.board, *look["curl"])
        if look["k1"]:
            img = _distort(img, look["k1"])
        img = cv2.GaussianBlur(img, (0, 0), look["blur"] * rng.uniform(0.85, 1.15))
        shot = np.sqrt(np.clip(img, 0, 255) / 255.0) * look["noise"]
        img = img + rng.normal(0, 1, img.shape).astype(np.float32) * shot
        img = np.clip(img, 0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, look["jpeg"]])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _palette_bgr(colour: str) -> tuple[int, int, int]:
    r, g, b = PALETTE[colour].rgb
    return (b, g, r)


def _token(canvas, centre, r_px, bgr, style, light, rng) -> None:
    """One token seen from above, drawn into the canvas (BGR uint8, in place)."""
    cx, cy = centre
    reach = int(math.ceil(r_px * 1.6)) + 2
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    x1, y1 = min(canvas.shape[1], int(cx) + reach + 1), min(canvas.shape[0], int(cy) + reach + 1)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    u, v = (xx - cx) / r_px, (yy - cy) / r_px
    rr = np.sqrt(u * u + v * v)
    base = np.asarray(bgr, np.float32)
    lx, ly = light
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    alpha = np.clip((1.0 - rr) * r_px + 0.5, 0.0, 1.0)  # anti-aliased disc
    if style == "flat":
        colour = np.broadcast_to(base, patch.shape)
    elif style == "marble":  # a glass sphere: lit side, dark limb, a sharp highlight
        z = np.sqrt(np.clip(1.0 - rr * rr, 0.0, 1.0))
        lam = np.clip(0.55 + 0.45 * (-(u * lx + v * ly) * 0.6 + z * 0.8), 0.25, 1.1)
        colour = base[None, None, :] * lam[:, :, None]
        colour = colour * (0.8 + 0.2 * z)[:, :, None] + 30.0 * (1 - z)[:, :, None] * 0.3
    else:  # pawn, checker, stand: a flat top with a darker bevelled edge
        edge = np.clip((rr - 0.78) / 0.22, 0.0, 1.0)
        side = -(u * lx + v * ly)
        lam = 0.95 - 0.35 * edge + 0.12 * side * edge
        colour = base[None, None, :] * lam[:, :, None]
        if style == "checker":  # ridges on the rim
            ridge = 0.06 * np.cos(np.arctan2(v, u) * 24) * edge
            colour = colour * (1.0 + ridge)[:, :, None]
    out = patch * (1 - alpha[:, :, None]) + colour * alpha[:, :, None]
    if style == "pawn":  # a head, leaning a little in perspective
        lean = rng.uniform(0.0, 0.3)
        phi = rng.uniform(0, 2 * math.pi)
        hu, hv = u - lean * math.cos(phi), v - lean * math.sin(phi)
        hr = np.sqrt(hu * hu + hv * hv) / 0.5
        hz = np.sqrt(np.clip(1.0 - hr * hr, 0.0, 1.0))
        ha = np.clip((1.0 - hr) * r_px * 0.5 + 0.5, 0.0, 1.0)
        hl = np.clip(0.6 + 0.5 * (-(hu * lx + hv * ly) + hz * 0.6), 0.3, 1.15)
        head = base[None, None, :] * hl[:, :, None]
        out = out * (1 - ha[:, :, None]) + head * ha[:, :, None]
    if style == "stand":  # an upright card seen edge-on from above: a dark bar
        ang = rng.uniform(0, math.pi)
        across = np.abs(-u * math.sin(ang) + v * math.cos(ang))
        bar = (across < 0.12) & (rr < 0.85)
        out[bar] = out[bar] * 0.7
    if style != "flat":  # the highlight, toward the lamp
        hx, hy = -0.35 * lx, -0.35 * ly
        g = np.exp(-((u - hx) ** 2 + (v - hy) ** 2) / (2 * 0.12**2))
        shine = rng.uniform(0.5, 1.0) * (0.9 if style == "marble" else 0.5)
        out = out + (255.0 - out) * (shine * g * alpha)[:, :, None]
    canvas[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)


def _distort(img: np.ndarray, k1: float) -> np.ndarray:
    """Radial lens distortion about the frame centre (k1 > 0 barrel, < 0 pincushion)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, f = (w - 1) / 2, (h - 1) / 2, float(max(w, h)) / 2
    x, y = (xx - cx) / f, (yy - cy) / f
    r2 = x * x + y * y
    scale = 1.0 + k1 * r2  # output pixel looks at this source radius
    return cv2.remap(img, x * scale * f + cx, y * scale * f + cy, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REFLECT)  # fmt: skip


def _curl(img, h, board: Board, edge: int, lift_mm: float) -> np.ndarray:
    """The paper lifted along one board edge: points there move toward the camera's axis."""
    hh, ww = img.shape[:2]
    inv = np.linalg.inv(h)
    yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
    pts = cv2.perspectiveTransform(np.stack([xx, yy], -1).reshape(1, -1, 2).astype(np.float64),
                                   inv)[0].reshape(hh, ww, 2)  # fmt: skip
    dist = [pts[..., 1], board.width - pts[..., 0], board.height - pts[..., 1], pts[..., 0]][edge]
    lift = lift_mm * np.clip(1.0 - dist / 60.0, 0.0, 1.0) ** 2  # mm, within 60 mm of the edge
    cx, cy = ww / 2, hh / 2
    k = (lift / (1.2 * max(board.width, board.height))).astype(np.float32)  # lift / camera height
    return cv2.remap(img, xx + (xx - cx) * k, yy + (yy - cy) * k, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REFLECT)  # fmt: skip


def _draw_hand(img: np.ndarray, h: np.ndarray, board: Board, rng) -> None:
    """An arm from a frame edge to a point over the board, and its soft shadow (in place)."""
    hh, ww = img.shape[:2]
    target = np.array(
        [[[rng.uniform(0.2, 0.8) * board.width, rng.uniform(0.2, 0.8) * board.height]]]
    )
    tx, ty = cv2.perspectiveTransform(target, h)[0][0]
    edge, along = int(rng.integers(4)), rng.uniform(0.2, 0.8)
    start = [(along * ww, -50), (ww + 50, along * hh), (along * ww, hh + 50), (-50, along * hh)][
        edge
    ]
    ppm = float(np.linalg.norm(h[:2, :2]) / math.sqrt(2))
    arm_w = rng.uniform(60, 80) * ppm
    tone = np.array([(90, 120, 175), (125, 160, 210), (60, 85, 125), (100, 135, 190)][
        int(rng.integers(4))], np.float32)  # fmt: skip
    mask = np.zeros((hh, ww), np.float32)
    cv2.line(mask, (round(start[0]), round(start[1])), (round(tx), round(ty)), 1.0, round(arm_w))
    cv2.ellipse(mask, (round(tx), round(ty)), (round(arm_w * 0.8), round(arm_w * 0.6)),
                rng.uniform(0, 180), 0, 360, 1.0, -1)  # fmt: skip
    sh = np.roll(mask, (round(0.15 * arm_w), round(0.2 * arm_w)), (0, 1))
    sh = cv2.GaussianBlur(sh, (0, 0), arm_w * 0.25)
    img *= (1.0 - 0.5 * sh)[:, :, None]
    soft = cv2.GaussianBlur(mask, (0, 0), 2.5)[:, :, None]
    shade = 0.8 + 0.3 * cv2.GaussianBlur(mask, (0, 0), arm_w / 4)[:, :, None]
    img[:] = img * (1 - soft) + tone[None, None, :] * shade * soft
