"""Ray intersection with the solids real pieces are made of, in closed form.

Each function takes ray origins `o` (3 arrays or scalars, T frame relative to the piece's base
point, up = third axis) and unit directions `d` (3 arrays) and returns (t, normal) where t is the
distance to the first hit (inf where the ray misses) and normal the outward unit normal there.
Closed forms instead of ray marching: a frame has up to a hundred pieces and must render in well
under a second on one core.
"""

from __future__ import annotations

import numpy as np

Vec = tuple[np.ndarray, np.ndarray, np.ndarray]
INF = np.float32(np.inf)


def _positive(t: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(t) & (t > 1e-3), t, INF)


def sphere(o: Vec, d: Vec, centre: tuple[float, float, float], radius: float):
    ox, oy, oz = o[0] - centre[0], o[1] - centre[1], o[2] - centre[2]
    b = ox * d[0] + oy * d[1] + oz * d[2]
    c = ox * ox + oy * oy + oz * oz - radius * radius
    disc = b * b - c
    with np.errstate(invalid="ignore"):
        t = _positive(np.where(disc >= 0, -b - np.sqrt(np.maximum(disc, 0)), INF))
    n = ((ox + t * d[0]) / radius, (oy + t * d[1]) / radius, (oz + t * d[2]) / radius)
    return t, n


def frustum(o: Vec, d: Vec, r0: float, r1: float, z0: float, z1: float, cap: bool = True):
    """A vertical truncated cone (or cylinder when r0 == r1) from height z0 to z1, with its top
    cap when `cap`."""
    slope = (r1 - r0) / (z1 - z0)
    a0 = r0 - slope * z0
    rz = a0 + slope * o[2]
    qa = d[0] * d[0] + d[1] * d[1] - slope * slope * d[2] * d[2]
    qb = o[0] * d[0] + o[1] * d[1] - slope * d[2] * rz
    qc = o[0] * o[0] + o[1] * o[1] - rz * rz
    disc = qb * qb - qa * qc
    best = np.full(np.shape(qa), INF, np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(np.maximum(disc, 0))
        for sign in (-1.0, 1.0):
            t = (-qb + sign * root) / qa
            z = o[2] + t * d[2]
            ok = (disc >= 0) & (z >= z0) & (z <= z1) & (a0 + slope * z > 0)
            best = np.minimum(best, _positive(np.where(ok, t, INF)))
        side = best.copy()
        if cap:
            t = (z1 - o[2]) / d[2]
            x, y = o[0] + t * d[0], o[1] + t * d[1]
            top = _positive(np.where(x * x + y * y <= r1 * r1, t, INF))
            best = np.minimum(best, top)
    with np.errstate(invalid="ignore"):
        x, y, z = o[0] + best * d[0], o[1] + best * d[1], o[2] + best * d[2]
        on_side = best == side
        nz_side = -slope * (a0 + slope * z)
        nx = np.where(on_side, x, 0.0)
        ny = np.where(on_side, y, 0.0)
        nz = np.where(on_side, nz_side, 1.0)
        norm = np.sqrt(nx * nx + ny * ny + nz * nz) + 1e-9
        return best, (nx / norm, ny / norm, nz / norm)


def box(
    o: Vec, d: Vec, centre: tuple[float, float, float], half: tuple[float, float, float], yaw: float
):
    """An upright box turned by `yaw` about the vertical; also returns the hit face's axis
    (0, 1, 2) and the hit point in box coordinates, for printing on its faces."""
    c, s = np.cos(yaw), np.sin(yaw)
    px, py, pz = o[0] - centre[0], o[1] - centre[1], o[2] - centre[2]
    lo = (c * px + s * py, -s * px + c * py, pz)
    ld = (c * d[0] + s * d[1], -s * d[0] + c * d[1], d[2])
    t_near = np.full(np.shape(ld[0]), -np.inf, np.float32)
    t_far = np.full(np.shape(ld[0]), np.inf, np.float32)
    face = np.zeros(np.shape(ld[0]), np.int8)
    sgn = np.zeros(np.shape(ld[0]), np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(3):
            inv = 1.0 / ld[k]
            ta = (-half[k] - lo[k]) * inv
            tb = (half[k] - lo[k]) * inv
            tmin, tmax = np.minimum(ta, tb), np.maximum(ta, tb)
            better = tmin > t_near
            face = np.where(better, k, face)
            sgn = np.where(better, -np.sign(ld[k]), sgn)
            t_near = np.maximum(t_near, tmin)
            t_far = np.minimum(t_far, tmax)
    t = _positive(np.where(t_near <= t_far, t_near, INF))
    ln = [np.where(face == k, sgn, 0.0) for k in range(3)]
    n = (c * ln[0] - s * ln[1], s * ln[0] + c * ln[1], ln[2])
    local = (lo[0] + t * ld[0], lo[1] + t * ld[1], lo[2] + t * ld[2])
    return t, n, face, sgn, local


def capsule(o: Vec, d: Vec, a: np.ndarray, b: np.ndarray, radius: float):
    """A segment a-b swollen by `radius` (fingers, palm, forearm)."""
    ba = b - a
    oa = (o[0] - a[0], o[1] - a[1], o[2] - a[2])
    baba = float(ba @ ba)
    bard = ba[0] * d[0] + ba[1] * d[1] + ba[2] * d[2]
    baoa = ba[0] * oa[0] + ba[1] * oa[1] + ba[2] * oa[2]
    rdoa = d[0] * oa[0] + d[1] * oa[1] + d[2] * oa[2]
    oaoa = oa[0] * oa[0] + oa[1] * oa[1] + oa[2] * oa[2]
    qa = baba - bard * bard
    qb = baba * rdoa - baoa * bard
    qc = baba * oaoa - baoa * baoa - radius * radius * baba
    h = qb * qb - qa * qc
    with np.errstate(invalid="ignore", divide="ignore"):
        t_body = (-qb - np.sqrt(np.maximum(h, 0))) / qa
        y = baoa + t_body * bard
        body = (h >= 0) & (y > 0) & (y < baba)
        t = np.where(body, t_body, INF)
        for end in (a, b):
            e, n_end = sphere(o, d, (end[0], end[1], end[2]), radius)
            t = np.where(~body, np.minimum(t, e), t)
    t = _positive(t)
    with np.errstate(invalid="ignore"):
        p = (o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2])
        k = np.clip(
            ((p[0] - a[0]) * ba[0] + (p[1] - a[1]) * ba[1] + (p[2] - a[2]) * ba[2]) / baba, 0.0, 1.0
        )
        n = tuple((p[i] - (a[i] + k * ba[i])) / radius for i in range(3))
    return t, n
