"""Drawn dice in a board's tray, photographed at a chosen size and cut out around the tray,
as `bench vision --parts drawn_dice_sweep` cuts them: the tests of the plain photo reader
read them (a tray crop holds one die and the board's print beside the tray)."""

from __future__ import annotations

import cv2
import numpy as np

import rules
from hardware.simtable import SimulatedTable
from vision.tray import DIE_MM, native_px_per_mm, tray_regions, trays


def drawn_tray_crop(
    game: str,
    table_seed: int,
    value: int,
    die_px: float,
    look: tuple[float, float],
    rng: np.random.Generator,
    tray_name: str | None = None,
) -> np.ndarray:
    """The simulated table photographed so that a die spans `die_px`, a die of `value`
    thrown into the tray (`tray_name`, else the board's first), blurred and noisy by `look`
    (sigma in px, grey levels; noise drawn from `rng`), and the photo cut around that tray."""
    board = rules.get(game).board
    names = [r.name for r in trays(board)]
    index = names.index(tray_name) if tray_name is not None else 0
    tray = trays(board)[index]
    _, truth = SimulatedTable(board, seed=table_seed).render({}, hand=False)
    native = native_px_per_mm(truth.homography, tray.x + tray.w / 2, tray.y + tray.h / 2)
    k = die_px / (DIE_MM * native)
    table = SimulatedTable(
        board, seed=table_seed, width=max(64, int(1280 * k)), height=max(48, int(960 * k))
    )
    throw = [(value, tray.name)] if tray.owner is not None else [value]
    frame, truth = table.render({}, throw, hand=False)
    blur, noise = look
    if blur > 0 or noise > 0:
        img = cv2.GaussianBlur(frame.astype(np.float32), (0, 0), blur) if blur > 0 else frame
        img = img.astype(np.float32) + rng.normal(0.0, noise, img.shape).astype(np.float32)
        frame = np.clip(img, 0, 255).astype(np.uint8)
    x0, y0, x1, y1 = tray_regions(board, np.linalg.inv(truth.homography))[index]
    return frame[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]
