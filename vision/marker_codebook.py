"""Read a marker under glare by which printed marker its cells fit best.

A lamp's reflection on a glossy print is a veil of light that rises and falls across a
marker: its black border turns grey on one side, and the black bits there come out lighter
than the white bits on the other. ArUco finds the marker's outline, but reads each bit against
one threshold, and rejects it. A person reads it anyway: black is what the border is, near it,
white is what the paper round the marker is, near it. Here the same, with the codebook's help:
for every marker of the dictionary in every turn, its white cells (bits and the paper ring
round it) and its black ones (border and bits) are each fitted by one smooth surface of
light; the marker that leaves the least misfit, far less than any other, is the one printed.

It runs only on the outlines ArUco rejected, and only when too few markers were found to place
a board; what it names must still fit the board's layout with the others (`vision.locate`).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision import aruco

CELL_PX = 8  # each cell of the outline is resampled this many px across
GRID = 8  # cells across: the marker's 6 (4 bits and the border) and the paper ring round it
MIN_SIDE_PX = 16.0  # outlines shorter a side than this hold too few pixels a cell
MIN_CONTRAST = 40.0  # grey levels between the white and the black surface (median)
MISFIT_OF_CONTRAST = 0.2  # the best marker's RMS misfit at most this share of the contrast
MARGIN = 0.75  # ... and at most this share of the misfit of any other marker or turn


# the cells of the paper ring round the marker, of its black border, and of the marker
RING = np.pad(np.zeros((6, 6), bool), 1, constant_values=True)
INSIDE = ~RING
BORDER = INSIDE & ~np.pad(np.ones((4, 4), bool), 2, constant_values=False)


@cache
def _codebook() -> tuple[tuple[int, int, np.ndarray], ...]:
    """(id, quarter turns, (GRID, GRID) bool: white cells) for every marker in every turn."""
    out = []
    for marker_id in range(len(aruco.marker_dictionary().bytesList)):
        image = aruco.marker_image(marker_id, 6 * CELL_PX)
        white = RING.copy()
        white[INSIDE] = (image.reshape(6, CELL_PX, 6, CELL_PX).mean((1, 3)) > 127).ravel()
        out += [(marker_id, turns, np.rot90(white, turns)) for turns in range(4)]
    return tuple(out)


@cache
def _surface_terms() -> np.ndarray:
    """(GRID * GRID, 6): a smooth (quadratic) surface's terms at every cell."""
    r, c = (a.ravel() / (GRID - 1) for a in np.mgrid[0:GRID, 0:GRID])
    return np.stack([np.ones_like(r), r, c, r * r, c * c, r * c], 1)


def _cells(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """(GRID, GRID) mean grey of each cell's middle, the outline `quad` as the border's."""
    inner = np.array([[1, 1], [7, 1], [7, 7], [1, 7]], np.float32) * CELL_PX
    to_grid = cv2.getPerspectiveTransform(quad.astype(np.float32), inner)
    side = GRID * CELL_PX
    grid = cv2.warpPerspective(gray, to_grid, (side, side), flags=cv2.INTER_LINEAR)
    q = CELL_PX // 4
    cells = grid.reshape(GRID, CELL_PX, GRID, CELL_PX)[:, q : CELL_PX - q, :, q : CELL_PX - q]
    return cells.astype(np.float32).mean((1, 3))


@cache
def _normal_matrices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(C, K) white masks of the codebook's markers, and the (C, 6, 6) normal matrices of a
    smooth surface fitted through each one's white cells and through its black ones."""
    masks = np.array([white.ravel() for _, _, white in _codebook()], np.float64)
    terms = _surface_terms()
    outer = terms[:, :, None] * terms[:, None, :]  # (K, 6, 6)
    on_white = np.einsum("ck,kij->cij", masks, outer)
    on_black = np.einsum("ck,kij->cij", 1.0 - masks, outer)
    return masks, on_white, on_black


def _fits(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """((C,) RMS misfit, (C,) median contrast over the marker) of every codebook marker's two
    smooth surfaces (its white cells', its black cells') through the cells' `values`."""
    masks, on_white, on_black = _normal_matrices()
    terms = _surface_terms()
    weighted = terms * values[:, None]  # (K, 6)
    ridge = 1e-6 * np.eye(6)
    white = np.linalg.solve(on_white + ridge, (masks @ weighted)[..., None])[..., 0]
    black = np.linalg.solve(on_black + ridge, ((1.0 - masks) @ weighted)[..., None])[..., 0]
    white_light, black_light = white @ terms.T, black @ terms.T  # (C, K)
    fitted = np.where(masks > 0, white_light, black_light)
    misfit = np.sqrt(np.mean((values[None, :] - fitted) ** 2, axis=1))
    contrast = np.median((white_light - black_light)[:, INSIDE.ravel()], axis=1)
    return misfit, contrast


def read_outline(
    gray: np.ndarray, quad: np.ndarray, wanted: set[int]
) -> tuple[int, np.ndarray] | None:
    """(marker id, its corners in ArUco's order) of the outline `quad` (4x2 image px), where
    one of the `wanted` markers fits its cells clearly best; else None."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    if np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min() < MIN_SIDE_PX:
        return None
    cells = _cells(gray, quad)
    if cells[RING].mean() - cells[BORDER].mean() < MIN_CONTRAST / 2:
        return None  # (no dark square in a paper ring: most outlines end here)
    misfit, contrast = _fits(cells.ravel().astype(np.float64))
    best, runner_up = np.argsort(misfit)[:2]
    marker_id, turns, _ = _codebook()[best]
    if (
        marker_id not in wanted
        or contrast[best] < MIN_CONTRAST
        or misfit[best] > MISFIT_OF_CONTRAST * contrast[best]
        or misfit[best] > MARGIN * misfit[runner_up]
    ):
        return None
    return marker_id, np.roll(quad, turns, axis=0)


def read_rejected(gray: np.ndarray, outlines, wanted: set[int]) -> list[tuple[int, np.ndarray]]:
    """Every (id, corners) the codebook reads among ArUco's rejected `outlines`."""
    found = []
    for quad in outlines:
        read = read_outline(gray, quad, wanted)
        if read is not None:
            found.append(read)
    return found
