"""A second, independent photo-like table: photos of the printed boards with real pieces.

The board reader was developed on hardware.phototable; figures on it are development figures.
This generator was written apart from it (without reading it or the reader) from the physics of
a real table, so the reader's figures on it are a fairer stand-in for real photographs. It
traces rays through a pinhole camera with radial distortion onto the printed artwork (exactly
what `boardref print-board` prints), a wood or cloth table, 3D pieces (glass marbles, plastic
pawns, checkers, card stands) lit by a lamp and the room with soft shadows, and now and then a
hand; then a camera's sensor, white balance, noise and JPEG.

`render(game, seed, index, conditions)` -> (JPEG bytes, truth). Every photo is reproducible from
(game, seed, index, conditions), and one aspect's randomness never depends on another's, so the
same (seed, index) shows the same placement under every condition set.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import sensor
from .render import render_linear
from .scene import CONDITION_SETS, CONDITIONS, Scene, sample, stream
from .tiles import printed_at

__all__ = ["CONDITIONS", "CONDITION_SETS", "render", "render_scene", "sample", "truth_of"]


def render(game: str, seed: int, index: int, conditions: Any = "issue14") -> tuple[bytes, dict]:
    """One photo (JPEG bytes, 1280x960) and its truth; `conditions` is a set name from
    CONDITION_SETS or an iterable of condition names."""
    return render_scene(sample(game, seed, index, conditions))


def render_scene(scene: Scene) -> tuple[bytes, dict]:
    """Photograph a drawn scene (a test may edit the scene first, e.g. take a piece away)."""
    linear, hand = render_linear(scene)
    board_mask = _board_mask(scene)
    exposed = sensor.expose(linear, board_mask, scene.light)
    rng = stream(scene.meta["seed"], scene.meta["index"], scene.game, "noise")
    bgr = sensor.develop(exposed, scene.sensor, rng)
    return sensor.encode(bgr, scene.sensor.jpeg_quality), truth_of(scene, hand)


def _board_mask(scene: Scene) -> np.ndarray:
    import cv2

    b = scene.board
    corners = scene.camera.project(
        np.array([(0, 0, 0), (b.width, 0, 0), (b.width, b.height, 0), (0, b.height, 0)], float)
    )
    mask = np.zeros((scene.camera.height, scene.camera.width), np.uint8)
    cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
    return mask.astype(bool)


def truth_of(scene: Scene, hand_cover: np.ndarray | None = None) -> dict:
    """What is really on the table, and where things land in the photo (for checks and for
    looking at misses): spaces' and markers' pixel positions, the pieces, the scene's settings."""
    board, cam = scene.board, scene.camera
    tiles = scene.paper.tiles
    centres = cam.project(np.array([(*printed_at(tiles, s.x, s.y), 0.0) for s in board.spaces]))
    hidden: list[str] = []
    if hand_cover is not None and scene.hand is not None:
        for space, (u, v) in zip(board.spaces, centres, strict=True):
            iu, iv = int(round(u)), int(round(v))
            if 0 <= iv < hand_cover.shape[0] and 0 <= iu < hand_cover.shape[1]:
                if hand_cover[iv, iu] > 0.5:
                    hidden.append(space.id)
    markers = {
        str(mid): cam.project(np.array([(*printed_at(tiles, x, y), 0.0) for x, y in corners]))
        .round(2)
        .tolist()
        for mid, corners in board.marker_squares().items()
    }
    return {
        "game": scene.game,
        "board": board.name,
        "seed": scene.meta["seed"],
        "index": scene.meta["index"],
        "conditions": list(scene.conditions),
        "placement": dict(scene.placement),
        "hand": scene.hand is not None,
        "hidden_by_hand": hidden,
        "spaces_px": {
            s.id: [round(float(u), 1), round(float(v), 1)]
            for s, (u, v) in zip(board.spaces, centres, strict=True)
        },
        "markers_px": markers,
        "pieces": [
            {
                "space": p.space,
                "colour": p.colour,
                "kind": p.kind,
                "x": round(p.x, 2),
                "y": round(p.y, 2),
            }
            for p in scene.pieces
        ],
        "camera": {
            "focal_px": round(cam.focal_px, 1),
            "k1": round(cam.k1, 4),
            "tilt_deg": round(float(np.degrees(np.arccos(np.clip(cam.rotation[2, 2], -1, 1)))), 2),
            "height_mm": round(float(cam.centre_t[2]), 1),
        },
        "light": {"exposure": round(scene.light.exposure, 3), "sheen": round(scene.light.sheen, 3)},
        "sensor": {
            "jpeg_quality": scene.sensor.jpeg_quality,
            "noise": round(scene.sensor.noise, 4),
            "blur_sigma": round(scene.sensor.blur_sigma, 2),
            "wb_gains": [round(float(g), 3) for g in scene.sensor.wb_gains],
        },
    }
