"""`boardref bench vision --parts twin_dice`: real dice in the trays of the photo-like twin.

The twin (hardware.phototwin) photographs our printed boards under the issue's conditions (a
tilted camera, lens distortion, uneven light, white balance, noise, defocus, JPEG, tinted
paper, pieces off centre; no hand: the die lies still, waiting to be read). Into each tray it
lays a 16 mm die whose faces are real dice cut from the labelled photos (now and then the tray
is left empty). The appliance's capture is copied: the board is read from the frame (1280x960
or 1640x1232: picamera2's lores stream), the trays from rectangles of the full-resolution
image (its main stream): by default the Camera Module 3's 4608 pixels across the frame's
field (3.6 times the pixels of a 1280-wide frame, 2.81 of a 1640-wide one); ``detail_scale``
sets another (2.0 was the bench's until the Camera Module 3 was modelled).

Only the photos the face network never learnt from are used when there are such photos (the
weights record theirs); else all, and the report says the network saw them. Per board and
capture size: dice, read right, wrong values, not read, false alarms (a die read in an empty
tray), and CPU ms: the board, the dice on the frame they are first seen, the dice per frame
over that frame and the settling frames the pipeline sees (unchanged trays are only glanced
at), and dice per frame over the board.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

import rules

from .dice_bench import CAPTURES, SETTLE_FRAMES, _cpu_ms, _with_trays, tally_die

# the conditions but the hand: the die lies still in the tray
CONDITIONS = (
    "tilt", "lens", "light", "white_balance", "noise", "defocus", "jpeg", "paper_tint",
    "off_centre",
)  # fmt: skip


def dice_photos(folder: Path) -> tuple[list[Path], int]:
    """The labelled photos to cut dice from: those the face network never learnt from, or all
    when it learnt from every one. Returns (photos, how many of them it learnt from)."""
    from vision.dice_eval import dataset_pairs
    from vision.die_model import model_available, trained_on

    photos = [image for image, _ in dataset_pairs(folder)]
    seen = trained_on() if model_available() else frozenset()
    unseen = [p for p in photos if p.name not in seen]
    if unseen:
        return unseen, 0
    return photos, len(photos)


def score(truth: dict[str, int | None], read: list) -> dict[str, int]:
    """Counts for one frame: ``truth`` {tray: value or None (empty)}, ``read`` the TrayDie
    list. A tray with any wrong value counts wrong; a die read in an empty tray is a false
    alarm."""
    n = dict(dice=0, right=0, wrong=0, not_read=0, empty_trays=0, false_alarms=0)
    for tray, value in truth.items():
        mine = [d.value for d in read if d.tray == tray]
        if value is None:
            n["empty_trays"] += 1
            n["false_alarms"] += bool(mine)
            continue
        tally_die(n, mine, value)
    return n


def run(
    frames: int,
    seed: int,
    games: list | None = None,
    folder: Path | None = None,
    progress: bool = True,
    captures: tuple[tuple[int, int], ...] = CAPTURES,
    detail_scale: float | None = None,
) -> dict[str, Any]:
    """Read ``frames`` twin photos per board and capture size, photo k being (seed, k);
    ``detail_scale``: full-resolution pixels per frame pixel (None: the Camera Module 3's)."""
    from hardware.cameras import CropDetail, sensor_detail_scale
    from hardware.phototwin.capture import capture
    from hardware.phototwin.dice import throw
    from hardware.phototwin.dicefaces import faces_from
    from hardware.phototwin.scene import sample
    from vision.observation import observe
    from vision.tray import TrayReader, trays

    from .vision_cli import SHARED_DICE

    folder = folder or SHARED_DICE
    photos, learnt = dice_photos(folder)
    faces = faces_from(tuple(str(p) for p in photos))
    games = games or [rules.get(name) for name in rules.names()]
    report: dict[str, Any] = {
        "data": "hardware.phototwin with real dice from labelled photos in the trays",
        "conditions": list(CONDITIONS),
        "seed": seed,
        "frames_per_board": frames,
        "photos": len(photos),
        "photos_the_network_learnt_from": learnt,
        "faces": len(faces),
        "detail_scale": {},
    }
    for width, height in captures:
        size = f"{width}x{height}"
        scale = detail_scale or sensor_detail_scale(width)
        report["detail_scale"][size] = round(scale, 3)
        for game in _with_trays(games):
            board = game.board
            regions = trays(board)
            n = dict(dice=0, right=0, wrong=0, not_read=0, empty_trays=0, false_alarms=0)
            board_ms, first_ms, per_frame_ms, misses = [], [], [], []
            for k in range(frames):
                scene = throw(
                    sample(game.name, seed, k, CONDITIONS, (width, height)), faces, regions
                )
                frame, crops = capture(scene, regions, scale)
                detail = CropDetail((scale, scale), crops)
                truth: dict[str, int | None] = {r.name: None for r in regions}
                truth.update({d.tray: d.value for d in scene.dice})
                if k == 0:
                    observe(frame, [board])  # the first read loads what later ones reuse
                obs, ms = _cpu_ms(observe, frame, [board])
                board_ms.append(ms)
                read: list = []
                if obs.homography is not None:
                    reader, costs = TrayReader(), []
                    for _ in range(SETTLE_FRAMES + 1):
                        got, ms = _cpu_ms(reader.read, frame, board, obs.homography, detail)
                        read = got  # the last settled frame's reading, as the pipeline's
                        costs.append(ms)
                    first_ms.append(costs[0])
                    per_frame_ms.append(float(np.mean(costs)))
                got = score(truth, read)
                for key in n:
                    n[key] += got[key]
                if got["wrong"] or got["false_alarms"] or got["not_read"]:
                    misses.append(_miss(scene, truth, read, k, obs.homography is None))
                if progress:
                    print(f"\rtwin dice: {size} {game.name} {k + 1}/{frames}   ", end="",
                          file=sys.stderr, flush=True)  # fmt: skip
            board_mean = float(np.mean(board_ms)) if board_ms else 0.0
            per_frame = float(np.mean(per_frame_ms)) if per_frame_ms else 0.0
            report.setdefault(size, {})[game.name] = {
                **n,
                "right_rate": round(n["right"] / max(1, n["dice"]), 3),
                "board_ms": round(board_mean, 2),
                "dice_ms_landing_frame": round(float(np.mean(first_ms or [0.0])), 2),
                "dice_ms_per_frame": round(per_frame, 2),
                "dice_to_board_ratio": round(per_frame / max(board_mean, 1e-9), 2),
                "misses": misses,
            }
    if progress:
        print(file=sys.stderr)
    report["total"] = _total(report, captures)
    return report


def _miss(scene, truth: dict, read: list, k: int, unlocated: bool) -> dict[str, Any]:
    """What one frame's misses were, to look at again: its index, the truth and the reading."""
    return {
        "index": k,
        "unlocated": unlocated,
        "truth": truth,
        "read": [(d.tray, d.value) for d in read],
        "faces": {d.tray: d.top.source for d in scene.dice},
    }


def _total(report: dict[str, Any], captures) -> dict[str, Any]:
    keys = ("dice", "right", "wrong", "not_read", "empty_trays", "false_alarms")
    out = {}
    for width, height in captures:
        size = f"{width}x{height}"
        n = {k: sum(g[k] for g in report.get(size, {}).values()) for k in keys}
        out[size] = {**n, "right_rate": round(n["right"] / max(1, n["dice"]), 3)}
    return out
