"""Top faces of real dice, cut from labelled photos, to lay on the twin's dice.

A drawn die looks like whoever drew it; pips cut from a photo are real (their size, spacing,
roundness, paint, wear, the photo's own blur and JPEG). The labels (YOLO: ``CLASS CX CY W H``
per line, CLASS 0..5 = value 1..6) box a die's pips, and most photos look at the die at a slant,
with its side faces beside the top one. So each labelled die's dark blobs are found in its box;
when they count its value, the pip layout (a one's centre, a line's ends, a grid's corners) is
fitted to them, which undoes the slant and the turn, and the face is sampled square from the
photo. Only the pips and a ring of body around each are kept from the photo, the brightness
divided by the body's around them (the photo's light is taken out; the twin lights the die
again); the rest of the face is plain body, so no side face or table of the photo shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .colours import srgb_to_linear

TEXTURE_PX = 64  # a face's texture is this many pixels square
BODY_ALBEDO = 0.8  # white plastic
GRID = 0.27  # pip grid half-spacing in face sides, for a face whose size the photo cannot tell
ONE_PIP = 0.22  # a one's pip diameter in face sides (likewise)
MIN_PIP_PX = 2.0  # pips of fewer photo pixels in radius are too coarse to enlarge
MAX_SLANT = 1.35  # a face seen foreshortened more than this is skipped
FIT_ERROR = 0.2  # pips may lie this share of the grid spacing off the fitted layout
# ideal pip positions (face sides from the middle) per value
LAYOUT = {  # (a one, two or three may lie on either diagonal)
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


@dataclass(frozen=True)
class Face:
    """A real die's top face: its value, its texture (linear reflectance, TEXTURE_PX square)
    and where it came from ("photo.jpg#k", k the label's line)."""

    value: int
    texture: np.ndarray
    source: str


def labels(path: Path, width: int, height: int) -> list[tuple[int, float, float, float, float]]:
    """(value, centre x, centre y, box w, box h) in pixels for each line of a YOLO label file."""
    out = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 5:
            c, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
            out.append((c + 1, cx * width, cy * height, bw * width, bh * height))
    return out


def faces_of(photo: Path) -> list[Face]:
    """The usable top faces of one labelled photo (``photo`` with a ``.txt`` beside it)."""
    bgr = cv2.imread(str(photo))
    label_path = photo.with_suffix(".txt")
    if bgr is None or not label_path.exists():
        return []
    h, w = bgr.shape[:2]
    out = []
    for k, (value, cx, cy, bw, bh) in enumerate(labels(label_path, w, h)):
        texture = _texture(bgr, value, cx, cy, bw, bh)
        if texture is not None:
            out.append(Face(value, texture, f"{photo.name}#{k}"))
    return out


@lru_cache(maxsize=4)
def faces_from(photos: tuple[str, ...]) -> tuple[Face, ...]:
    """Every usable face of the given photos (paths), in their order; kept for reuse."""
    return tuple(face for p in photos for face in faces_of(Path(p)))


def _pips(grey: np.ndarray, box: tuple[int, int, int, int]) -> list[tuple[float, float, float]]:
    """Dark blobs (x, y, radius in px) whose middle lies in ``box`` of ``grey``; the blobs'
    mean shape (2x2 second moments, px^2) is left in :data:`_last_shape`."""
    x0, y0, x1, y1 = box
    h, w = grey.shape
    pad = max(4, (x1 - x0) // 4)
    a0, b0, a1, b1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    part = grey[b0:b1, a0:a1].astype(np.float32)
    body = float(np.percentile(part, 75))
    dark = (part < 0.55 * body).astype(np.uint8)
    n, lab, stats, cents = cv2.connectedComponentsWithStats(dark, connectivity=8)
    out, shapes = [], []
    for i in range(1, n):
        cx, cy = cents[i][0] + a0, cents[i][1] + b0
        radius = float(np.sqrt(stats[i, cv2.CC_STAT_AREA] / np.pi))
        if radius >= MIN_PIP_PX and x0 <= cx <= x1 and y0 <= cy <= y1:
            out.append((float(cx), float(cy), radius))
            ys, xs = np.nonzero(lab == i)
            shapes.append(np.cov(np.stack([xs, ys])))
    return out, (np.mean(shapes, axis=0) if shapes else np.eye(2))


def _unslant(shape: np.ndarray) -> np.ndarray:
    """The 2x2 map of determinant 1 that turns a round pip into the ellipse of ``shape``
    (its second moments): a die's pips are round, so this is the photo's slant."""
    vals, vecs = np.linalg.eigh(shape)
    root = vecs @ np.diag(np.sqrt(np.maximum(vals, 1e-6))) @ vecs.T
    return root / np.sqrt(max(np.linalg.det(root), 1e-12))


def _layout(
    value: int, pips: list[tuple[float, float, float]], shape: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The 2x3 affine map from face coordinates (sides, 0 in the middle) to photo pixels that
    lays the value's pip layout on the found pips, and the pips' places on the face (face
    sides); None when they do not fit the layout. The slant comes from the pips' shape
    (``shape``: a die's pips are round), the turn and size from their places; the face's
    own design (a six's rows set wider than its columns) is kept."""
    pts = np.array([(x, y) for x, y, _ in pips])
    mid = pts.mean(0)
    slant = _unslant(shape)
    if value == 1:
        m = np.hstack([slant * 2 * pips[0][2] / ONE_PIP, mid[:, None]])
        return m, np.zeros((1, 2))
    rel = (pts - mid) @ np.linalg.inv(slant).T
    far = np.argsort(-np.hypot(rel[:, 0], rel[:, 1]))[: 4 if value >= 4 else 2]
    z = (rel[far, 0] + 1j * rel[far, 1]) ** 4
    turn = np.angle(-z.sum()) / 4  # corners at 45 degrees to the face's edges
    c, s = np.cos(turn), np.sin(turn)
    local = rel @ np.array([[c, -s], [s, c]])  # turned back: the grid's corners on diagonals
    if value == 6:  # its middle pips lie on the x axis: else turn it a quarter more
        inner = np.argsort(np.hypot(local[:, 0], local[:, 1]))[:2]
        if np.mean(np.abs(local[inner, 0])) < np.mean(np.abs(local[inner, 1])):
            local = local[:, ::-1] * [1, -1]
            turn += np.pi / 2
            c, s = np.cos(turn), np.sin(turn)
    spread = float(np.mean(np.abs(local[far])))
    ideal = []
    for lx, ly in local:
        ix = 0 if abs(lx) < 0.5 * spread else np.sign(lx)
        iy = 0 if abs(ly) < 0.5 * spread else np.sign(ly)
        ideal.append((ix, iy))
    mirrored = sorted((x, -y) for x, y in LAYOUT[value])
    if sorted(ideal) not in (sorted(LAYOUT[value]), mirrored):  # a two or three: either diagonal
        return None
    if np.max(np.hypot(*(local - np.array(ideal) * spread).T)) > FIT_ERROR * 2 * spread:
        return None
    scale = spread / GRID
    m = np.hstack([slant @ np.array([[c, -s], [s, c]]) * scale, mid[:, None]])
    return m, local / scale


def _texture(bgr: np.ndarray, value: int, cx, cy, bw, bh) -> np.ndarray | None:
    h, w = bgr.shape[:2]
    box = (int(cx - bw / 2 - 1), int(cy - bh / 2 - 1), int(cx + bw / 2 + 2), int(cy + bh / 2 + 2))
    if box[0] < 2 or box[1] < 2 or box[2] > w - 2 or box[3] > h - 2:
        return None
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    pips, shape = _pips(grey, box)
    if len(pips) != value:
        return None
    found = _layout(value, pips, shape)
    if found is None:
        return None
    m, places = found
    # texture px -> face sides -> photo px
    t = TEXTURE_PX
    to_face = np.array([[1 / t, 0, -0.5 + 0.5 / t], [0, 1 / t, -0.5 + 0.5 / t], [0, 0, 1]])
    warp = np.vstack([m, [0, 0, 1]]) @ to_face
    if np.sqrt(abs(np.linalg.det(warp[:2, :2]))) * t < 24:
        return None  # the face spans too few photo pixels
    stretch = np.linalg.svd(m[:, :2], compute_uv=False)
    if stretch[0] > MAX_SLANT * stretch[1]:
        return None  # seen too slanted to undo
    rgb = srgb_to_linear(bgr[:, :, ::-1].astype(np.float32) / 255.0)
    tex = cv2.warpAffine(
        rgb, warp[:2], (t, t), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    # where the photo's pips lie on the face, and a ring of body round them
    scale = np.sqrt(abs(np.linalg.det(m[:, :2])))
    radius = float(np.median([r for _, _, r in pips])) / scale  # face sides
    yy, xx = (np.mgrid[0:t, 0:t] + 0.5) / t - 0.5
    near = np.zeros((t, t), np.float32)
    pip = np.zeros((t, t), bool)
    for px, py in places:
        d = np.hypot(xx - px, yy - py)
        near = np.maximum(near, np.clip((2.8 * radius - d) / (0.8 * radius), 0, 1))
        pip |= d < 1.5 * radius
    ring = (near > 0.99) & ~pip
    if ring.sum() < 8:
        return None
    body = np.median(tex[ring], axis=0)
    face = tex / np.maximum(body, 1e-3)
    out = near[..., None] * np.minimum(face, 1.05) + (1 - near[..., None])
    return np.clip(out * BODY_ALBEDO, 0.0, 1.0).astype(np.float32)
