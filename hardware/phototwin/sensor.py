"""From light to a JPEG, as a small camera module does it: auto exposure, lens blur, white
balance, a Bayer sensor with shot and read noise, demosaicing, the tone curve, the camera's own
sharpening and JPEG compression (with its 4:2:0 colour subsampling).
"""

from __future__ import annotations

import cv2
import numpy as np

from .colours import linear_to_srgb
from .scene import Light, Sensor

MID_PAPER = 0.6  # linear level auto exposure puts the board's typical (paper) point at


def expose(linear: np.ndarray, board_mask: np.ndarray, light: Light) -> np.ndarray:
    """Scale so the board's median brightness is what a camera meters for, times the
    condition's over/under exposure."""
    return linear * exposure_gain(linear, board_mask, light)


def exposure_gain(linear: np.ndarray, board_mask: np.ndarray, light: Light) -> float:
    """The factor :func:`expose` applies (kept for a finer image of the same exposure)."""
    lum = linear @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    ref = float(np.median(lum[board_mask])) if board_mask.any() else float(np.median(lum))
    return MID_PAPER / max(ref, 1e-4) * light.exposure


def develop(
    linear: np.ndarray,
    sensor: Sensor,
    rng: np.random.Generator,
    window: tuple[int, int, int, int] | None = None,
    scale: float = 1.0,
) -> np.ndarray:
    """Exposed linear RGB -> BGR uint8 as the camera would save it (before JPEG).

    ``window``: (x0, y0, full width, full height) when the image is a part of a photo;
    ``scale``: its pixels per pixel of the photo the sensor's blur was set for (a
    full-resolution image through the same lens: the blur spans more of its pixels)."""
    img = linear
    if sensor.blur_sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), sensor.blur_sigma * scale)
    img = _lens_shading(img, sensor.vignette, sensor.fringe, window)
    img = img * sensor.wb_gains
    mosaic = _bayer(img)
    sigma = sensor.noise * np.sqrt(0.1 + 2.0 * np.clip(mosaic, 0, 1))
    mosaic = mosaic + rng.standard_normal(mosaic.shape).astype(np.float32) * sigma
    raw = np.clip(mosaic * 65535, 0, 65535).astype(np.uint16)
    rgb = cv2.cvtColor(raw, cv2.COLOR_BayerRG2RGB_EA).astype(np.float32) / 65535
    srgb = linear_to_srgb(rgb)
    if sensor.sharpen > 0:
        soft = cv2.GaussianBlur(srgb, (0, 0), 1.0)
        srgb = srgb + sensor.sharpen * (srgb - soft)
    return (np.clip(srgb, 0, 1) * 255 + 0.5).astype(np.uint8)[:, :, ::-1]


def encode(bgr: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def _bayer(rgb: np.ndarray) -> np.ndarray:
    """One colour per photosite: B at even rows and columns, R at odd ones, G between (the
    layout that OpenCV's BayerRG->RGB conversion reads back right; checked colour by colour)."""
    h, w = rgb.shape[:2]
    out = np.empty((h, w), np.float32)
    out[0::2, 0::2] = rgb[0::2, 0::2, 2]
    out[0::2, 1::2] = rgb[0::2, 1::2, 1]
    out[1::2, 0::2] = rgb[1::2, 0::2, 1]
    out[1::2, 1::2] = rgb[1::2, 1::2, 0]
    return out


def _lens_shading(
    rgb: np.ndarray, vignette: float, fringe: float, window: tuple[int, int, int, int] | None
) -> np.ndarray:
    """Corners darker (what the ISP's lens-shading correction leaves) and, with a cheap lens,
    red and blue images of slightly different sizes (colour fringes towards the corners).
    ``window``: (x0, y0, full width, full height) when ``rgb`` is a part of the photo."""
    h, w = rgb.shape[:2]
    x0, y0, fw, fh = window or (0, 0, w, h)
    cx, cy = fw / 2 - 0.5 - x0, fh / 2 - 0.5 - y0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / ((fw / 2 - 0.5) ** 2 + (fh / 2 - 0.5) ** 2)
    out = rgb * (1 - vignette * r2)[..., None]
    if fringe:
        for channel, scale in ((0, 1 + fringe), (2, 1 - fringe)):
            mx = (xx - cx) / scale + cx
            my = (yy - cy) / scale + cy
            out[..., channel] = cv2.remap(
                np.ascontiguousarray(out[..., channel]),
                mx,
                my,
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
    return out.astype(np.float32)
