"""`boardref vision dice|read` and `boardref bench vision`: the vision layer from the shell."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import cv2

import rules

SHARED_DICE = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "dice-photos"
BUNDLED_DICE = Path(__file__).resolve().parent.parent / "tests" / "data" / "dice"


def read_image(path: str) -> Any:
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read image {path}: missing, unreadable or not an image")
    return image


def dice(paths: list[str]) -> tuple[dict[str, Any], int]:
    """{path: [{"value", "x", "y", "w", "h"}, ...]}; unreadable files are reported, not fatal."""
    from vision.dice import read_dice

    out: dict[str, Any] = {}
    failures = 0
    for path in paths:
        try:
            readings = read_dice(read_image(path))
        except ValueError as exc:
            print(f"boardref vision dice: {exc}", file=sys.stderr)
            out[path] = {"error": str(exc)}
            failures += 1
            continue
        out[path] = [
            {"value": d.value, "x": int(d.x), "y": int(d.y), "w": int(d.w), "h": int(d.h),
             "confidence": round(float(d.confidence), 3)}
            for d in readings
        ]  # fmt: skip
    return out, failures


def read_board(game_name: str, path: str, players: int | None = None) -> dict[str, Any]:
    """The full observation of one photo: board, per-space colours, dice, hand."""
    from vision.observation import observe
    from vision.tray import read_tray_dice

    game = rules.get(game_name, players=players)
    image = read_image(path)
    obs = observe(image, [game.board])
    dice_found = []
    if obs.homography is not None:
        dice_found = read_tray_dice(image, game.board, obs.homography)
    return {
        "image": path,
        "game": game.name,
        "board": obs.game,
        "located": obs.game is not None,
        "markers": list(obs.markers),
        "hand": obs.hand,
        "spaces": {
            sid: {"colour": colour, "confidence": round(float(conf), 3)}
            for sid, (colour, conf) in obs.spaces.items()
        },
        "placement": obs.placement,
        "unclear": list(obs.unclear),
        "dice": [
            {
                "value": d.value,
                "x": d.x,
                "y": d.y,
                "w": d.w,
                "h": d.h,
                "tray": d.tray,
                "owner": d.owner,
            }
            for d in dice_found
        ],  # fmt: skip
        "timings_ms": {k: round(v, 2) for k, v in obs.timings_ms.items()},
    }


def bench(frames: int, seed: int, progress: bool = True) -> dict[str, Any]:
    """Simulated frames per game board, and the real dice photos (shared set when present)."""
    from hardware.simtable import SimulatedTable
    from vision.bench import evaluate_simulated
    from vision.dice_eval import dataset_pairs, evaluate

    def tick(done: int, total: int) -> None:
        if progress:
            print(f"\rsimulated frames {done}/{total}", end="", file=sys.stderr, flush=True)

    boards = [rules.get(name).board for name in rules.names()]
    started = time.perf_counter()
    simulated = evaluate_simulated(
        boards, frames, seed, tick, table_factory=lambda b, s: SimulatedTable(b, seed=s)
    )
    if progress:
        print(file=sys.stderr)
    report: dict[str, Any] = {"benchmark": "vision", "simulated": simulated}
    for label, folder in (("real_dice_shared", SHARED_DICE), ("real_dice_bundled", BUNDLED_DICE)):
        if folder.is_dir():
            if progress:
                print(f"real dice photos in {folder}", file=sys.stderr, flush=True)
            report[label] = evaluate(dataset_pairs(folder))
            report[label]["folder"] = str(folder)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report
