"""The appliance's capture of a twin photo: the frame the board is read from, and the trays at
full resolution.

The appliance's camera gives a small frame (the board is read from it) and, while a roll is
awaited, the trays' rectangles of its full-resolution image (picamera2's lores and main
streams; see hardware.cameras.Picamera2Source). Here both come from one scene: the frame as
`render` draws it, and the rectangles around the trays traced again through the same lens at
`scale` times the pixels, developed by the same sensor (the same exposure, white balance,
noise per pixel, blur through the same optics, JPEG). The scale is the appliance's camera's
by default: the Camera Module 3's 4608 pixels across the frame's field, so the trays get as
many pixels per board mm as on the table, whatever the frame's size.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from hardware.cameras import sensor_detail_scale

from . import sensor
from .render import render_linear
from .scene import Scene, stream

WINDOW_MARGIN_MM = 40.0  # the rectangles reach this far round a tray (what a reader may ask)


def detail_scale(scene: Scene) -> float:
    """Full-resolution pixels per frame pixel for the scene's frame: the Camera Module 3's
    main stream beside a lores frame as wide as the scene's (see sensor_detail_scale)."""
    return sensor_detail_scale(scene.camera.width)


def detail_camera(scene: Scene, scale: float):
    """The scene's camera with ``scale`` times the pixels (the same lens and pose)."""
    cam = scene.camera
    return replace(
        cam,
        width=int(round(cam.width * scale)),
        height=int(round(cam.height * scale)),
        focal_px=cam.focal_px * scale,
    )


def tray_windows(scene: Scene, regions, scale: float) -> list[tuple[int, int, int, int]]:
    """Each region's rectangle (x0, y0, x1, y1) in full-resolution pixels, with a margin;
    even corners (the sensor's colour filter repeats every two pixels)."""
    cam = detail_camera(scene, scale)
    out = []
    for r in regions:
        m = WINDOW_MARGIN_MM
        xs = np.linspace(r.x - m, r.x + r.w + m, 9)
        ys = np.linspace(r.y - m, r.y + r.h + m, 9)
        edge = [(x, y, 0.0) for x in xs for y in (ys[0], ys[-1])]
        edge += [(x, y, 0.0) for x in (xs[0], xs[-1]) for y in ys]
        px = cam.project(np.array(edge))
        x0, y0 = np.floor(px.min(0)).astype(int) // 2 * 2
        x1, y1 = np.ceil(px.max(0)).astype(int) // 2 * 2 + 2
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(cam.width, int(x1)), min(cam.height, int(y1))
        if x1 > x0 and y1 > y0:
            out.append((x0, y0, x1, y1))
    return out


def capture(
    scene: Scene, regions, scale: float | None = None
) -> tuple[np.ndarray, dict[tuple[int, int, int, int], np.ndarray]]:
    """(the frame as BGR, {rectangle (full-resolution px): its BGR pixels}) for the board's
    ``regions`` (the trays), both through the scene's sensor and its JPEG; ``scale``:
    full-resolution pixels per frame pixel (None: :func:`detail_scale`)."""
    from . import _board_mask

    if scale is None:
        scale = detail_scale(scene)

    linear, _ = render_linear(scene)
    gain = sensor.exposure_gain(linear, _board_mask(scene), scene.light)
    rng = stream(scene.meta["seed"], scene.meta["index"], scene.game, "noise")
    frame = sensor.develop(linear * gain, scene.sensor, rng)
    frame = _jpeg(frame, scene.sensor.jpeg_quality)
    fine = replace(scene, camera=detail_camera(scene, scale))
    full = (fine.camera.width, fine.camera.height)
    crops = {}
    for k, window in enumerate(tray_windows(scene, regions, scale)):
        part, _ = render_linear(fine, window)
        rng = np.random.default_rng([scene.meta["seed"], scene.meta["index"], 7717, k])
        bgr = sensor.develop(part * gain, scene.sensor, rng, (*window[:2], *full), scale)
        crops[window] = _jpeg(bgr, scene.sensor.jpeg_quality)
    return frame, crops


def _jpeg(bgr: np.ndarray, quality: int) -> np.ndarray:
    data = sensor.encode(bgr, quality)
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
