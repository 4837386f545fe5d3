"""Trace one photo: every sub-pixel ray meets the paper or the table, unless a piece or the hand
is nearer; each hit is lit by the lamp and the room (lighting.py). Output is linear light at the
photo's size (sub-pixels averaged as a sensor's pixel area does) plus where the hand is.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import lighting, shapes
from . import surfaces as surf
from .lighting import ambient_strength, hand_at, lamp_strength, sample_maps
from .scene import Scene, curl_height
from .tiles import artwork_point

PIECE_SUPERSAMPLE = 3  # rays per pixel side where a piece or the hand is


def render_linear(
    scene: Scene, window: tuple[int, int, int, int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(linear RGB image (H, W, 3) float32, hand coverage (H, W) 0..1), of the whole photo or
    of ``window`` (x0, y0, x1, y1 photo pixels) alone.

    The paper and table get one ray per pixel from a print prefiltered to the pixel's footprint;
    pieces and the hand get PIECE_SUPERSAMPLE^2 rays per pixel over their own windows and are
    laid over the table far to near, each pixel taking the share of its rays that hit them (a
    pixel's area average, so edges are as soft as a real sensor's)."""
    cam = scene.camera
    view = window or (0, 0, cam.width, cam.height)
    o = cam.centre_t.astype(np.float32)
    maps = lighting.build(scene)
    d = cam.rays(1, window)
    x, y, normal = _plane_hits(scene, o, d)
    image = _plane_radiance(scene, maps, x, y, normal, d)
    hand_cover = np.zeros(x.shape, np.float32)
    far_first = sorted(
        scene.pieces + tuple(scene.dice),
        key=lambda p: -float(np.linalg.norm(np.array([p.x, p.y, p.z]) - o)),
    )
    for piece in far_first:
        win = _window(cam, piece.bounds(), view)
        if win is not None:
            _overlay(
                scene,
                maps,
                win,
                image,
                lambda o_, d_, p=piece: _piece_colour(scene, maps, p, o_, d_),
                view[:2],
            )
    if scene.hand is not None:
        for a, b, radius in scene.hand.capsules:
            corners = np.array(
                [a + off for off in _cube(radius)] + [b + off for off in _cube(radius)]
            )
            win = _window(cam, corners, view)
            if win is not None:
                cover = _overlay(
                    scene,
                    maps,
                    win,
                    image,
                    lambda o_, d_, c=(a, b, radius): _hand_colour(scene, c, o_, d_),
                    view[:2],
                )
                y0, x0 = win[1] - view[1], win[0] - view[0]
                region = hand_cover[y0 : win[3] - view[1], x0 : win[2] - view[0]]
                np.maximum(region, cover, out=region)
    return image, hand_cover


def _plane_hits(scene: Scene, o, d):
    board = scene.board
    t = (0.0 - o[2]) / d[2]
    x, y = o[0] + t * d[0], o[1] + t * d[1]
    normal = None
    if "curl" in scene.conditions:
        for _ in range(3):
            inside = (x >= 0) & (x <= board.width) & (y >= 0) & (y <= board.height)
            h = np.where(inside, curl_height(scene.paper, board, x, y), 0.0)
            t = (h - o[2]) / d[2]
            x, y = o[0] + t * d[0], o[1] + t * d[1]
        e = 0.5
        paper = scene.paper
        gx = (curl_height(paper, board, x + e, y) - curl_height(paper, board, x - e, y)) / (2 * e)
        gy = (curl_height(paper, board, x, y + e) - curl_height(paper, board, x, y - e)) / (2 * e)
        inside = (x >= 0) & (x <= board.width) & (y >= 0) & (y <= board.height)
        gx, gy = gx * inside, gy * inside
        norm = np.sqrt(gx * gx + gy * gy + 1)
        normal = (-gx / norm, -gy / norm, 1 / norm)
    return x.astype(np.float32), y.astype(np.float32), normal


def photo_scale(scene: Scene) -> float:
    """About how many photo pixels one board millimetre spans."""
    return scene.camera.focal_px / max(scene.camera.centre_t[2], 1.0)


def _paper_at(scene: Scene, x, y) -> np.ndarray:
    """The paper's reflectance at table points (on taped sheets: each sheet's own print, and
    the shade of the sheet edges)."""
    art = surf.artwork(scene.board, photo_scale(scene))
    if not scene.paper.tiles:
        return surf.as_printed(surf.sample_paper(art, x, y), scene.paper)
    ax, ay, _, shade = artwork_point(scene.paper.tiles, x, y)
    return surf.as_printed(surf.sample_paper(art, ax, ay), scene.paper) * shade[..., None]


def _on_paper(scene: Scene, x, y) -> np.ndarray:
    board = scene.board
    if scene.paper.tiles:
        return artwork_point(scene.paper.tiles, x, y)[2]
    return (x >= 0) & (x <= board.width) & (y >= 0) & (y <= board.height)


def _plane_radiance(scene: Scene, maps, x, y, normal, d) -> np.ndarray:
    board, light = scene.board, scene.light
    seed = scene.meta["seed"] * 7919 + scene.meta["index"]
    if scene.paper.tiles:
        ax, ay, covered, shade = artwork_point(scene.paper.tiles, x, y)
        art = surf.artwork(board, photo_scale(scene))
        paper = surf.as_printed(surf.sample_paper(art, ax, ay), scene.paper) * shade[..., None]
        on_board = covered[..., None]
    else:
        on_board = _on_paper(scene, x, y)[..., None]
        paper = _paper_at(scene, x, y)
    paper = paper * surf.fibre(seed, x, y)[..., None]
    # the table is background: worked out at half resolution, then enlarged
    half = (x.shape[1] // 2, x.shape[0] // 2)
    hx, hy = (cv2.resize(a, half, interpolation=cv2.INTER_AREA) for a in (x, y))
    table = surf.table_albedo(scene.table, seed + 1, hx, hy).astype(np.float32)
    table = cv2.resize(table, (x.shape[1], x.shape[0]), interpolation=cv2.INTER_LINEAR)
    albedo = np.where(on_board, paper, table).astype(np.float32)
    up = np.zeros_like(x)
    key_rgb, hand_key, hand_amb, amb_occ = sample_maps(maps, x, y)
    to_l, lamp = lamp_strength(light, x, y, up)
    nx, ny, nu = normal if normal is not None else (0.0, 0.0, 1.0)
    ndl = np.maximum(0.0, nx * to_l[0] + ny * to_l[1] + nu * to_l[2])
    shade = (lamp * ndl * hand_key)[..., None] * key_rgb * light.lamp_rgb
    mid = (board.width / 2, board.height / 2)
    ambient = (ambient_strength(light, mid, x, y) * amb_occ * hand_amb)[
        ..., None
    ] * light.ambient_rgb
    out = albedo * (shade + ambient)
    if light.sheen > 0:  # glossy paper mirrors the lamp: white light added over the print
        hx, hy, hu = to_l[0] - d[0], to_l[1] - d[1], to_l[2] - d[2]
        hn = np.sqrt(hx * hx + hy * hy + hu * hu)
        ndh = np.maximum(0.0, (nx * hx + ny * hy + nu * hu) / hn)
        gloss = light.sheen * lamp * hand_key * ndh**light.sheen_power
        out = out + (gloss * on_board[..., 0])[..., None] * key_rgb * light.lamp_rgb
    return out.astype(np.float32)


def _window(cam, corners: np.ndarray, view: tuple[int, int, int, int]):
    """Photo pixels (x0, y0, x1, y1) covering the projection of a box's corners, within the
    rendered ``view``; None when it lies outside."""
    px = cam.project(corners)
    x0, y0 = (np.floor(px.min(0)).astype(int) - 1).tolist()
    x1, y1 = (np.ceil(px.max(0)).astype(int) + 2).tolist()
    x0, y0, x1, y1 = max(view[0], x0), max(view[1], y0), min(view[2], x1), min(view[3], y1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _overlay(scene, maps, win, image, colour_of, origin=(0, 0)) -> np.ndarray:
    """Lay a solid over the image within `win`: `colour_of(o, d)` -> (t, colour rows, hit mask)
    for the window's sub-pixel rays. Returns the coverage (share of rays that hit)."""
    s = PIECE_SUPERSAMPLE
    x0, y0, x1, y1 = win
    d = tuple(c.ravel() for c in scene.camera.rays(s, win))
    o = tuple(scene.camera.centre_t.astype(np.float32))
    hit, colour = colour_of(o, d)
    h, w = y1 - y0, x1 - x0
    full = np.zeros((h * s * w * s, 3), np.float32)
    full[hit] = colour
    acc = full.reshape(h, s, w, s, 3).sum((1, 3)) / (s * s)
    cover = hit.reshape(h, s, w, s).mean((1, 3)).astype(np.float32)
    region = image[y0 - origin[1] : y1 - origin[1], x0 - origin[0] : x1 - origin[0]]
    region *= (1 - cover)[..., None]
    region += acc
    return cover


def _piece_colour(scene, maps, piece, o, d):
    t, n, albedo = piece.hit(o, d)
    hit = np.isfinite(t)
    t, albedo = t[hit], albedo[hit]
    n = tuple(np.asarray(c)[hit] for c in n)
    dn = tuple(c[hit] for c in d)
    p = tuple(o[k] + t * dn[k] for k in range(3))
    if piece.glass:
        return hit, _glass(scene, maps, piece, p, n, dn, albedo)
    return hit, _plastic(scene, maps, p, n, dn, albedo)


def _lit(scene, maps, p, n):
    """Lamp direction, lamp irradiance on a surface facing it (hand shadow included) and the
    ambient light on a surface with normal n."""
    light = scene.light
    to_l, lamp = lamp_strength(light, p[0], p[1], p[2])
    lu = np.maximum(to_l[2], 0.2)
    hk, ha = hand_at(maps, p[0] - p[2] * to_l[0] / lu, p[1] - p[2] * to_l[1] / lu)
    mid = (scene.board.width / 2, scene.board.height / 2)
    amb = ambient_strength(light, mid, p[0], p[1]) * (0.55 + 0.45 * n[2]) * ha
    return to_l, lamp * hk, amb


def _plastic(scene, maps, p, n, d, albedo):
    light = scene.light
    to_l, lamp, amb = _lit(scene, maps, p, n)
    ndl = n[0] * to_l[0] + n[1] * to_l[1] + n[2] * to_l[2]
    wrap = np.maximum(0.0, (ndl + 0.2) / 1.2)  # plastic is a little translucent
    diffuse = albedo * ((lamp * wrap)[:, None] * light.lamp_rgb + amb[:, None] * light.ambient_rgb)
    hx, hy, hu = to_l[0] - d[0], to_l[1] - d[1], to_l[2] - d[2]
    hn = np.sqrt(hx * hx + hy * hy + hu * hu)
    ndh = np.maximum(0.0, (n[0] * hx + n[1] * hy + n[2] * hu) / hn)
    ndv = np.clip(-(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]), 0, 1)
    fresnel = 0.04 + 0.96 * (1 - ndv) ** 5
    # energy-conserving Blinn-Phong lobe of glossy plastic (reflectance ~4.5% at normal view)
    power = 250.0
    spec = (lamp * 0.045 * (power + 8) / (8 * np.pi) * ndh**power * (ndl > 0))[:, None]
    spec = spec * light.lamp_rgb
    sky = (fresnel * amb * 0.8)[:, None] * light.ambient_rgb
    return diffuse + spec + sky


def _refract(d, n, eta):
    cos_i = -(d[0] * n[0] + d[1] * n[1] + d[2] * n[2])
    k = 1 - eta * eta * (1 - cos_i * cos_i)
    root = np.sqrt(np.maximum(k, 0))
    out = tuple(eta * d[i] + (eta * cos_i - root) * n[i] for i in range(3))
    norm = np.sqrt(out[0] ** 2 + out[1] ** 2 + out[2] ** 2) + 1e-9
    return tuple(c / norm for c in out)


def _glass(scene, maps, piece, p, n, d, albedo):
    """A glass marble: the paper seen through it (refracted twice, tinted by the glass in
    proportion to the path length), the room mirrored at its surface and the lamp's glint."""
    light = scene.light
    r = piece.size
    centre = (piece.x, piece.y, piece.z + r - 0.06 * r)
    inside = _refract(d, n, 1 / 1.5)
    chord = np.maximum(0.0, -2 * r * (inside[0] * n[0] + inside[1] * n[1] + inside[2] * n[2]))
    q = tuple(p[i] + inside[i] * chord for i in range(3))
    n2 = tuple((q[i] - centre[i]) / r for i in range(3))
    out = _refract(inside, tuple(-c for c in n2), 1.5)
    down = np.minimum(out[2], -0.05)
    ts = (0.0 - q[2]) / down
    bx, by = q[0] + ts * out[0], q[1] + ts * out[1]
    paper = _paper_at(scene, bx, by)
    key_rgb, hk, ha, ao = sample_maps(maps, bx, by)
    bl, lamp_b = lamp_strength(light, bx, by, np.zeros_like(bx))
    mid = (scene.board.width / 2, scene.board.height / 2)
    behind = paper * (
        (lamp_b * np.maximum(bl[2], 0) * hk)[:, None] * key_rgb * light.lamp_rgb
        + (ambient_strength(light, mid, bx, by) * ao * ha)[:, None] * light.ambient_rgb
    )
    tint = albedo ** (0.7 * chord / (2 * r))[:, None] * 0.92
    cos_v = np.clip(-(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]), 0, 1)
    fresnel = (0.04 + 0.96 * (1 - cos_v) ** 5)[:, None]
    to_l, lamp, amb = _lit(scene, maps, p, n)
    room = (amb * 1.1)[:, None] * light.ambient_rgb
    hx, hy, hu = to_l[0] - d[0], to_l[1] - d[1], to_l[2] - d[2]
    hn = np.sqrt(hx * hx + hy * hy + hu * hu)
    ndh = np.maximum(0.0, (n[0] * hx + n[1] * hy + n[2] * hu) / hn)
    glint = (lamp * 6.0 * ndh**600)[:, None] * light.lamp_rgb
    # game marbles are seldom clear: a milky share of the glass scatters its colour like plastic
    milk = piece.milk
    ndl = np.maximum(0, (n[0] * to_l[0] + n[1] * to_l[1] + n[2] * to_l[2] + 0.2) / 1.2)
    body = albedo * ((lamp * ndl)[:, None] * light.lamp_rgb + amb[:, None] * light.ambient_rgb)
    inner = (1 - milk) * tint * behind + milk * body
    return (1 - fresnel) * inner + fresnel * room + glint


def _hand_colour(scene, capsule, o, d):
    hand, light = scene.hand, scene.light
    a, b, radius = capsule
    t, n = shapes.capsule(o, d, a, b, radius)
    hit = np.isfinite(t)
    t = t[hit]
    n = tuple(np.asarray(c)[hit] for c in n)
    dn = tuple(c[hit] for c in d)
    p = tuple(o[k] + t * dn[k] for k in range(3))
    to_l, lamp = lamp_strength(light, p[0], p[1], p[2])
    ndl = n[0] * to_l[0] + n[1] * to_l[1] + n[2] * to_l[2]
    wrap = np.maximum(0.0, (ndl + 0.35) / 1.35)  # skin scatters light under its surface
    mid = (scene.board.width / 2, scene.board.height / 2)
    amb = ambient_strength(light, mid, p[0], p[1]) * (0.5 + 0.5 * n[2])
    lit = (lamp * wrap)[:, None] * light.lamp_rgb + amb[:, None] * light.ambient_rgb
    return hit, hand.albedo * lit


def _cube(r: float) -> list[np.ndarray]:
    return [np.array([sx, sy, sz]) * r for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
