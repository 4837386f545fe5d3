"""A pinhole camera with one radial distortion term, placed above the table.

Two frames are used. The camera works in the usual computer-vision world frame W: x along the
board's x, y along the board's y, z pointing *into* the table (right-handed, so an untilted camera
looking down sees the board unmirrored). Everything physical (heights, lights, shading) lives in
the table frame T = (x, y, up) with up = -z_W. `rays` hands out T-frame rays and `project` takes
T-frame points.

Distortion is k1 on radii normalised by the image's half-diagonal (r = 1 in a corner), so
k1 = 0.05 moves a corner 5% of the half-diagonal outwards (pincushion) and -0.05 inwards (barrel).
The issue does not say which normalisation it means; this one is the harsher of the usual two for
a normal-angle lens.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    """Pose and lens of one photo. `rotation` holds the camera axes (columns) in W."""

    width: int
    height: int
    focal_px: float
    rotation: np.ndarray  # 3x3, camera -> W
    centre_w: np.ndarray  # camera position in W (mm)
    k1: float = 0.0

    @property
    def principal(self) -> tuple[float, float]:
        return (self.width / 2 - 0.5, self.height / 2 - 0.5)

    @property
    def half_diagonal(self) -> float:
        return float(np.hypot(self.width / 2, self.height / 2))

    @property
    def centre_t(self) -> np.ndarray:
        """Camera position in the table frame (x, y, up)."""
        c = self.centre_w
        return np.array([c[0], c[1], -c[2]], np.float64)

    def rays(
        self, supersample: int = 1, window: tuple[int, int, int, int] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unit T-frame ray directions (dx, dy, dup) through a grid `supersample` times finer
        than the photo's pixels, over the photo or over `window` = (x0, y0, x1, y1) photo
        pixels; each array is (rows * s, columns * s) float32."""
        s = supersample
        cx, cy = self.principal
        x0, y0, x1, y1 = window or (0, 0, self.width, self.height)
        u = x0 + (np.arange((x1 - x0) * s, dtype=np.float32) + 0.5) / s - 0.5
        v = y0 + (np.arange((y1 - y0) * s, dtype=np.float32) + 0.5) / s - 0.5
        n = self.half_diagonal
        xd = ((u - cx) / n)[None, :]
        yd = ((v - cy) / n)[:, None]
        xd, yd = np.broadcast_arrays(xd, yd)
        xu, yu = undistort(xd, yd, self.k1)
        scale = n / self.focal_px
        dc = (xu * scale, yu * scale)
        r = self.rotation.astype(np.float32)
        dx = r[0, 0] * dc[0] + r[0, 1] * dc[1] + r[0, 2]
        dy = r[1, 0] * dc[0] + r[1, 1] * dc[1] + r[1, 2]
        dz = r[2, 0] * dc[0] + r[2, 1] * dc[1] + r[2, 2]
        norm = np.sqrt(dx * dx + dy * dy + dz * dz)
        return dx / norm, dy / norm, -dz / norm

    def project(self, points_t: np.ndarray) -> np.ndarray:
        """T-frame points (N, 3) -> photo pixel coordinates (N, 2), distortion included."""
        p = np.asarray(points_t, np.float64).reshape(-1, 3)
        pw = np.stack([p[:, 0], p[:, 1], -p[:, 2]], axis=1)
        pc = (pw - self.centre_w) @ self.rotation  # rows: camera coordinates
        xu = pc[:, 0] / pc[:, 2] * self.focal_px / self.half_diagonal
        yu = pc[:, 1] / pc[:, 2] * self.focal_px / self.half_diagonal
        k = 1.0 + self.k1 * (xu * xu + yu * yu)
        cx, cy = self.principal
        return np.stack([cx + xu * k * self.half_diagonal, cy + yu * k * self.half_diagonal], 1)


def undistort(xd: np.ndarray, yd: np.ndarray, k1: float) -> tuple[np.ndarray, np.ndarray]:
    """Invert x_d = x_u (1 + k1 r_u^2) by fixed-point iteration (converges for |k1| << 1)."""
    xu, yu = xd.astype(np.float32), yd.astype(np.float32)
    if k1 == 0.0:
        return xu, yu
    for _ in range(6):
        k = 1.0 + k1 * (xu * xu + yu * yu)
        xu, yu = xd / k, yd / k
    return xu.astype(np.float32), yu.astype(np.float32)


def axis_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about a unit axis (Rodrigues)."""
    vec = np.asarray(axis, np.float64).reshape(3) * float(angle)
    return cv2.Rodrigues(vec)[0]


def place_camera(
    board_w: float,
    board_h: float,
    width: int,
    height: int,
    fov_deg: float,
    tilt_deg: float,
    tilt_azimuth: float,
    roll: float,
    fill: float,
    centre_frac: tuple[float, float],
    k1: float,
) -> Camera:
    """Aim a camera so the board's outline spans `fill` of the frame in its tighter direction,
    its middle at `centre_frac` of the free room (0.5 = centred), as a person framing a photo.

    The distance and aim point are found by a few fixed-point steps: a projected size scales
    nearly as 1/distance and a shift of the aim moves the picture nearly linearly.
    """
    focal = (width / 2) / np.tan(np.radians(fov_deg) / 2)
    tilt_axis = np.array([np.cos(tilt_azimuth), np.sin(tilt_azimuth), 0.0])
    rot = axis_rotation(tilt_axis, np.radians(tilt_deg)) @ axis_rotation(
        np.array([0.0, 0.0, 1.0]), roll
    )
    axis = rot[:, 2]
    target = np.array([board_w / 2, board_h / 2, 0.0])
    dist = focal * max(board_w, board_h) / (fill * min(width, height))
    outline = _outline(board_w, board_h)
    for _ in range(12):
        cam = Camera(width, height, focal, rot, target - dist * axis, k1)
        px = cam.project(outline)
        lo, hi = px.min(0), px.max(0)
        span = max((hi[0] - lo[0]) / width, (hi[1] - lo[1]) / height)
        dist *= span / fill
        room = np.array([width, height]) - (hi - lo)
        want = room * np.array(centre_frac) + (hi - lo) / 2
        shift = want - (lo + hi) / 2
        mm_per_px = dist / focal
        # a pixel shift in the image moves the aim the other way, along the camera's axes
        delta = -(rot[:, 0] * shift[0] + rot[:, 1] * shift[1]) * mm_per_px
        target = target + np.array([delta[0], delta[1], 0.0])
    return Camera(width, height, focal, rot, target - dist * axis, k1)


def _outline(board_w: float, board_h: float, steps: int = 8) -> np.ndarray:
    """Points along the board's edge (T frame): distortion bends edges, so corners are not
    enough to know the outline's extent."""
    t = np.linspace(0.0, 1.0, steps, endpoint=False)
    top = np.stack([t * board_w, 0 * t, 0 * t], 1)
    right = np.stack([0 * t + board_w, t * board_h, 0 * t], 1)
    bottom = np.stack([board_w - t * board_w, 0 * t + board_h, 0 * t], 1)
    left = np.stack([0 * t, board_h - t * board_h, 0 * t], 1)
    return np.concatenate([top, right, bottom, left])
