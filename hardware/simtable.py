"""A simulated table: the printed board, tokens and dice as a camera above the table sees them.

Used as the camera source for the demo, the vision benchmark and the tests. Every frame is
regenerable from (seed, index): the camera pose and the photographic conditions of a table come
from its seed, the per-frame variation (jitter, noise, dice positions, hand) from (seed, index).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from hardware.artwork import draw_tokens, render_board
from rules.geometry import Board, Region

TABLE_BGR = (70, 105, 140)  # a wooden table top
DIE_MM = 16.0  # an ordinary die
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
        self._die_look = _DieLook.drawn(np.random.default_rng([self.seed, 0xD1CE]))
        self._scene: _Scene | None = None

    @property
    def _ramp_mean(self) -> float:
        """The frame's mean of the lamp's gradient ramp (the ramp is centred on it)."""
        d = self._light["gradient_dir"]
        w, h = self.width - 1, self.height - 1
        return (w / 2 * math.cos(d) + h / 2 * math.sin(d)) / max(self.width, self.height)

    def relight(self, seed: int) -> None:
        """Another lamp: new white balance, exposure, gradient and blur (the pose stays)."""
        self._light = _draw_light(np.random.default_rng([int(seed), 0x11647]))

    # geometry ------------------------------------------------------------------------------
    def dice_area(self, tray: str | None = None) -> Region:
        """Where dice are thrown: the board's tray named `tray`, else its first dice tray if
        it has one, else beside the board."""
        for region in self.board.regions:
            if tray is not None:
                if region.name == tray:
                    return region
            elif "dice" in region.name.lower() or "tray" in region.name.lower():
                return region
        if tray is not None:
            raise ValueError(f"{self.board.name} has no tray named {tray!r}")
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
        # the same camera for points above the board (height z in mm, towards the camera):
        # board mm (x, y, z, 1) -> image px, for drawing dice as the solids they are
        lift = np.array([[1, 0, 0, -cx], [0, 1, 0, -cy], [0, 0, 1, 0], [0, 0, 0, 1]], float)
        self._projection = fit @ k @ np.column_stack([r[:, 0], r[:, 1], -r[:, 2], t]) @ lift
        self._projection /= h[2, 2]
        self._camera_mm = (-r.T @ t) * np.array([1.0, 1.0, -1.0]) + np.array([cx, cy, 0.0])
        return h / h[2, 2]

    # rendering -----------------------------------------------------------------------------
    def render(
        self,
        placement: dict[str, str],
        dice: Sequence[int | tuple[int, str]] = (),
        *,
        hand: bool | None = None,
        index: int | None = None,
        dice_seed: int | None = None,
    ) -> tuple[np.ndarray, SimTruth]:
        """A frame of the table and what it shows. The dice lie somewhere new in every frame,
        unless `dice_seed` is given: then they lie where that throw put them. `detail()`
        then gives the same moment at a camera's full resolution."""
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
        look = self._die_look
        solids = [_Die.thrown(value, poly, dice_rng, look) for value, poly in dice_boxes_mm]
        # camera: board mm -> image, with a little per-frame jitter
        h = self._base_h.copy()
        jitter = np.array([[1, 0, rng.normal(0, 0.3)], [0, 1, rng.normal(0, 0.3)], [0, 0, 1]])
        h = jitter @ h
        canvas_to_mm = np.array(
            [[1 / ppm, 0, ox + 0.5 / ppm], [0, 1 / ppm, oy + 0.5 / ppm], [0, 0, 1]]
        )
        scene = _Scene(int(index), canvas, canvas_to_mm, h, jitter @ self._projection, solids)
        frame = scene.draw(self, np.eye(3), (self.width, self.height))
        has_hand = (rng.random() < self.hand_probability) if hand is None else bool(hand)
        hand_box = _draw_hand(frame, h, self.board, rng, scene) if has_hand else None
        frame = self._photograph(frame, rng)
        self._scene = scene
        dice_truth = []
        for die in solids:
            p = die.top_in_image(scene.projection)
            lo, hi = p.min(0), p.max(0)
            dice_truth.append(
                {"value": int(die.value), "x": float(lo[0]), "y": float(lo[1]),
                 "w": float(hi[0] - lo[0]), "h": float(hi[1] - lo[1])}
            )  # fmt: skip
        truth = SimTruth(int(index), h, dict(placement), dice_truth, has_hand, hand_box)
        return frame, truth

    def detail(self, scale: float = 2.0) -> SimDetail:
        """The last rendered frame's moment as a full-resolution camera stream `scale` times
        finer than the frame would show it (as picamera2's main stream beside its lores
        one): its `crop(x0, y0, x1, y1)` renders only that rectangle."""
        if self._scene is None:
            raise ValueError("render a frame first: the detail shows the same moment")
        return SimDetail(self, self._scene, float(scale))

    def _place_dice(self, dice, rng) -> list[tuple[int, np.ndarray]]:
        """Footprints of thrown dice: each die is a value (thrown into the first tray) or a
        (value, tray name) pair (Manipulation: each player throws into their own tray)."""
        placed: list[tuple[int, np.ndarray]] = []
        centres: list[tuple[float, float]] = []
        half = DIE_MM / 2
        reach = half * math.sqrt(2)
        for die in dice:
            value, tray = die if isinstance(die, tuple | list) else (die, None)
            area = self.dice_area(tray)
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
        img = self._light_up(img, np.eye(3))
        return _finish(img, rng, self.noise)

    def _light_up(self, img: np.ndarray, to_frame: np.ndarray) -> np.ndarray:
        """The lamp's gradient and white balance on an image whose pixels map to frame
        pixels by `to_frame` (a region of the full-resolution stream, or the frame)."""
        li = self._light
        hh, ww = img.shape[:2]
        yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
        fx = to_frame[0, 0] * xx + to_frame[0, 2]
        fy = to_frame[1, 1] * yy + to_frame[1, 2]
        d = li["gradient_dir"]
        ramp = (fx * math.cos(d) + fy * math.sin(d)) / max(self.width, self.height)
        ramp -= self._ramp_mean
        gain = li["exposure"] * (1.0 + li["gradient"] * 2 * ramp)
        img *= gain[:, :, None]
        img *= li["wb"].astype(np.float32)[None, None, :]
        return img


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


def _finish(img: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    """The sensor and the encoder: white-balance flicker, noise, 8 bits and a JPEG pass."""
    img *= rng.uniform(0.98, 1.02, 3).astype(np.float32)[None, None, :]
    img += rng.normal(0.0, 2.5 * noise, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(70, 93))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@dataclass(frozen=True)
class _DieLook:
    """How a table's dice look: body and pip shades, pip size and spread, corner rounding."""

    body: tuple[float, float, float]
    pip: float
    pip_radius: float  # fraction of the side
    pip_offset: float  # pip centre from the face centre, fraction of the side
    rounding: float  # corner radius, fraction of the side
    light: np.ndarray  # unit vector towards the lamp (board x, y and up)

    @staticmethod
    def drawn(rng: np.random.Generator) -> _DieLook:
        white = rng.uniform(215, 245)
        tint = rng.uniform(-8, 8, 3)
        up = rng.uniform(0.6, 0.9)
        az = rng.uniform(0, 2 * math.pi)
        side = math.sqrt(1 - up * up)
        return _DieLook(
            body=tuple(float(np.clip(white + t, 0, 255)) for t in tint),
            pip=float(rng.uniform(20, 60)),
            pip_radius=float(rng.uniform(0.08, 0.1)),
            pip_offset=float(rng.uniform(0.26, 0.3)),
            rounding=float(rng.uniform(0.1, 0.2)),
            light=np.array([side * math.cos(az), side * math.sin(az), up]),
        )


# a die's faces: (outward normal, first in-face axis, second in-face axis), board x, y and up
_FACES = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
)


@dataclass(frozen=True)
class _Die:
    """A thrown die as a solid: its footprint on the board, its side, the value on each face
    (top first, then the four sides as `_FACES` lists them) and each face's pip turn."""

    value: int
    centre: tuple[float, float]
    angle: float
    side: float
    faces: tuple[int, ...]
    turns: tuple[int, ...]
    look: _DieLook

    @staticmethod
    def thrown(value: int, poly: np.ndarray, rng: np.random.Generator, look: _DieLook) -> _Die:
        centre = poly.mean(0)
        edge = poly[1] - poly[0]
        a = int(rng.choice([v for v in range(1, 7) if v not in (value, 7 - value)]))
        b = int(rng.choice([v for v in range(1, 7) if v not in (value, 7 - value, a, 7 - a)]))
        return _Die(
            int(value), (float(centre[0]), float(centre[1])), math.atan2(edge[1], edge[0]),
            float(np.linalg.norm(edge)), (int(value), a, b, 7 - a, 7 - b),
            tuple(int(t) for t in rng.integers(0, 2, 5)), look,
        )  # fmt: skip

    def _frame(self, face: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(face centre, normal, u, v) in board mm (x, y, up)."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        n, u, v = (turn @ np.array(axis, float) for axis in _FACES[face])
        half = self.side / 2
        centre = np.array([self.centre[0], self.centre[1], half]) + half * n
        return centre, n, u, v

    def _outline(self, face: int, inset: float, steps: int = 5) -> np.ndarray:
        """A face's rounded square, `inset` mm inside its edges, as board mm points."""
        centre, _, u, v = self._frame(face)
        half = self.side / 2 - inset
        r = min(self.look.rounding * self.side, half)
        pts = []
        for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
            cx, cy = sx * (half - r), sy * (half - r)
            for t in np.linspace(0, math.pi / 2, steps):
                a = t + k * math.pi / 2
                pts.append(centre + (cx + r * math.cos(a)) * u + (cy + r * math.sin(a)) * v)
        return np.array(pts)

    def top_in_image(self, projection: np.ndarray) -> np.ndarray:
        return _project(projection, self._outline(0, 0.0, 2))

    def draw(self, image: np.ndarray, projection: np.ndarray, camera_mm: np.ndarray) -> None:
        """Draw the die into `image` as the camera sees it: the faces turned towards the
        camera, shaded by the lamp, with rounded corners and edges, and their pips."""
        look = self.look
        body = np.array(look.body)
        seen = []
        for face in range(5):
            centre, n, _, _ = self._frame(face)
            if float(np.dot(camera_mm - centre, n)) > 0:
                seen.append(face)
        # the rounded edges first: a darker band all round, then each face's flat part
        hull = np.concatenate([_project(projection, self._outline(f, 0.0)) for f in seen])
        hull = cv2.convexHull(hull.astype(np.float32)).reshape(-1, 2)
        _fill(image, hull, body * 0.78)
        for face in seen:
            centre, n, u, v = self._frame(face)
            shade = min(1.05, 0.5 + 0.5 * max(0.0, float(np.dot(n, look.light))) / look.light[2])
            _fill(image, _project(projection, self._outline(face, 0.07 * self.side)), body * shade)
            value, turn = self.faces[face], self.turns[face]
            for pu, pv in _PIPS[value]:
                if turn:
                    pu, pv = -pv, pu
                at = centre + look.pip_offset * self.side * (pu * u + pv * v) + 0.01 * n
                ring = np.linspace(0, 2 * math.pi, 14, endpoint=False)
                rad = look.pip_radius * self.side
                disc = at + rad * (np.cos(ring)[:, None] * u + np.sin(ring)[:, None] * v)
                _fill(image, _project(projection, disc), np.full(3, look.pip * shade / 0.9))


def _project(projection: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    """Board mm points (x, y, up) -> image pixels."""
    hom = np.column_stack([pts_mm, np.ones(len(pts_mm))]) @ projection.T
    return hom[:, :2] / hom[:, 2:3]


def _fill(image: np.ndarray, pts: np.ndarray, bgr: np.ndarray) -> None:
    colour = tuple(float(np.clip(c, 0, 255)) for c in bgr)
    cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


@dataclass
class _Scene:
    """One moment of the table: the table canvas (board, tokens, shadows), the camera of
    that frame (homography and 3D projection) and the dice as solids; drawn at any scale."""

    index: int
    canvas: np.ndarray
    canvas_to_mm: np.ndarray
    homography: np.ndarray
    projection: np.ndarray
    dice: list[_Die]
    hand: tuple[np.ndarray, np.ndarray] | None = None  # frame-sized (soft mask, arm colours)

    def draw(self, table: SimulatedTable, to_out: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """The scene as an image of `size`, whose pixels are frame pixels mapped by
        `to_out` (the frame itself, or a region of the full-resolution stream)."""
        image = cv2.warpPerspective(
            self.canvas, to_out @ self.homography @ self.canvas_to_mm, size,
            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR,
        )  # fmt: skip
        for die in self.dice:
            die.draw(image, to_out @ self.projection, table._camera_mm)
        return image


class SimDetail:
    """A full-resolution view of one rendered moment (see `SimulatedTable.detail`):
    `scale` detail pixels per frame pixel; `crop` renders a rectangle of it on demand."""

    def __init__(self, table: SimulatedTable, scene: _Scene, scale: float) -> None:
        self.table, self.scene = table, scene
        self.scale = (scale, scale)
        self.size = (round(table.width * scale), round(table.height * scale))

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray | None:
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(self.size[0], int(x1)), min(self.size[1], int(y1))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        k = self.scale[0]
        to_out = np.array([[k, 0, -x0], [0, k, -y0], [0, 0, 1]], float)
        image = self.scene.draw(self.table, to_out, (x1 - x0, y1 - y0))
        if self.scene.hand is not None:
            _paste_hand(image, self.scene.hand, to_out)
        rng = np.random.default_rng([self.table.seed, self.scene.index, 2, x0, y0])
        img = cv2.GaussianBlur(image.astype(np.float32), (0, 0), self.table._light["blur"])
        img = self.table._light_up(img, np.linalg.inv(to_out))
        return _finish(img, rng, self.table.noise)


def _paste_hand(image: np.ndarray, hand: tuple[np.ndarray, np.ndarray], to_out) -> None:
    """The frame's hand (soft mask and arm colours), enlarged into a region."""
    size = (image.shape[1], image.shape[0])
    inv = np.linalg.inv(to_out)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    soft = cv2.warpPerspective(hand[0], inv, size, flags=flags)[:, :, None]
    arm = cv2.warpPerspective(hand[1], inv, size, flags=flags)
    image[:] = np.clip(image * (1 - soft) + arm * soft, 0, 255).astype(np.uint8)


def _draw_hand(
    frame: np.ndarray, h: np.ndarray, board: Board, rng, scene: _Scene | None = None
) -> tuple[int, int, int, int]:
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
    if scene is not None:  # the full-resolution stream shows the same hand
        scene.hand = (soft[:, :, 0], arm.astype(np.float32))
    ys, xs = np.nonzero(mask)
    return (int(xs.min()), int(ys.min()), int(xs.max() - xs.min()), int(ys.max() - ys.min()))
