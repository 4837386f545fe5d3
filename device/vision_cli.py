"""`boardref vision dice|read` and `boardref bench vision`: the vision layer from the shell."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

import rules

SHARED_DICE = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "dice-photos"
BUNDLED_DICE = Path(__file__).resolve().parent.parent / "tests" / "data" / "dice"


def read_image(path: str) -> Any:
    """A BGR image; ValueError naming the file when it is missing or not an image."""
    try:
        data = np.fromfile(path, np.uint8)
    except OSError as exc:
        raise ValueError(f"cannot read image {path}: {exc.strerror or exc}") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ValueError(f"cannot read image {path}: not an image (or a corrupt one)")
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


def _markers_seen(image, board) -> list[int]:
    """The board's marker ids found in a frame it could not be placed in (for the message)."""
    from vision.config import DEFAULT_CONFIG
    from vision.locate import markers_in_frame

    found = markers_in_frame(DEFAULT_CONFIG, image, [board])
    return sorted({m.id for m in found} & set(board.marker_ids))


def read_board(game_name: str, path: str, players: int | None = None) -> dict[str, Any]:
    """The full observation of one photo: board, per-space colours, dice, hand."""
    from vision.observation import observe
    from vision.tray import read_tray_dice

    game = rules.get(game_name, players=players)
    image = read_image(path)
    obs = observe(image, [game.board])
    dice_found = []
    message = ""
    seen = [] if obs.homography is not None else _markers_seen(image, game.board)
    if obs.homography is None and len(seen) >= 3:
        message = (
            f"the {game.name} board's corner markers {seen} are in view but do not fit the "
            "printed board closely enough to place its spaces (a strong wide-angle lens, a "
            "bent or lifted sheet, a marker card moved?); nothing was read"
        )
    elif obs.homography is None:
        message = (
            f"no {game.name} board found: fewer than three of its corner markers (ids "
            f"{list(game.board.marker_ids)}) are in view; nothing was read"
        )
    elif obs.unclear and len(obs.unclear) == len(obs.spaces):
        message = "the board is in view but no space could be read (too small, too dark?)"
    if obs.homography is not None:
        dice_found = read_tray_dice(image, game.board, obs.homography)
    return {
        "image": path,
        "game": game.name,
        "board": obs.game,
        "located": obs.game is not None,
        "message": message,
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


BENCH_PARTS = ("simulated", "simulated_dice", "demo_world_dice", "drawn_dice_sweep", "real_dice")
# parts run only when named (minutes each)
OPT_IN_PARTS = ("twin_dice",)


def bench(
    frames: int,
    seed: int,
    progress: bool = True,
    *,
    parts: tuple[str, ...] = BENCH_PARTS,
    game: str | None = None,
    repeats: int = 1,
    detail_scale: float | None = None,
) -> dict[str, Any]:
    """Simulated frames per game board, and the real dice photos (shared set when present).

    ``parts``: which of :data:`BENCH_PARTS` to run (one part alone is quick to re-measure);
    ``game``: only that game; ``repeats``: the simulated frames and throws time every read
    that many times and keep the fastest (less noise from other work on a shared machine);
    ``detail_scale``: the dice benches' full-resolution pixels per frame pixel (None: the
    Camera Module 3's)."""
    from hardware.simtable import SimulatedTable
    from vision.bench import evaluate_simulated
    from vision.dice_eval import dataset_pairs, evaluate
    from vision.dice_sweep import sweep as photo_sweep
    from vision.die_model import model_available, trained_on

    from . import dice_bench

    def tick(done: int, total: int) -> None:
        if progress:
            print(f"\rsimulated frames {done}/{total}", end="", file=sys.stderr, flush=True)

    games = [rules.get(name) for name in ([game] if game else rules.names())]
    boards = [g.board for g in games]
    starts = {g.board.name: g.placement(g.initial_state()) for g in games}
    started = time.perf_counter()
    report: dict[str, Any] = {"benchmark": "vision"}
    if "simulated" in parts:
        report["simulated"] = evaluate_simulated(
            boards,
            frames,
            seed,
            tick,
            table_factory=lambda b, s: SimulatedTable(b, seed=s),
            start_placements=starts,
            repeats=repeats,
        )
        if progress:
            print(file=sys.stderr)
    if "simulated_dice" in parts:
        report["simulated_dice"] = dice_bench.throws(
            games, frames, seed, repeats=repeats, detail_scale=detail_scale
        )
    if "demo_world_dice" in parts:
        report["demo_world_dice"] = dice_bench.demo_world(games, frames, seed)
    if "drawn_dice_sweep" in parts:
        report["drawn_dice_sweep"] = dice_bench.sweep(games, max(6, frames // 2), seed)
    if "twin_dice" in parts and SHARED_DICE.is_dir():
        from .twin_dice import run as twin_dice

        report["twin_dice"] = twin_dice(
            frames, seed, games, SHARED_DICE, progress, detail_scale=detail_scale
        )
    learnt = trained_on() if model_available() else frozenset()
    for label, folder in (("real_dice_shared", SHARED_DICE), ("real_dice_bundled", BUNDLED_DICE)):
        if "real_dice" in parts and folder.is_dir():
            if progress:
                print(f"real dice photos in {folder}", file=sys.stderr, flush=True)
            pairs = dataset_pairs(folder)
            report[label] = evaluate(pairs)
            report[label]["folder"] = str(folder)
            # photos the face network learnt from flatter the figure: say how many there are
            report[label]["photos_the_network_learnt_from"] = sum(
                1 for image, _ in pairs if image.name in learnt
            )
            # the same photos shrunk until a die spans 40 down to 8 px, blurred and noisy
            report[label]["scale_sweep"] = photo_sweep(pairs)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def stress(frames: int, seed: int, progress: bool = True) -> dict[str, Any]:
    """The board reader on photo-like tables (hardware.phototable), one condition at a time and
    all at once, each photo alone and after the appliance's calibration. These frames are
    drawn unlike the simulated table's; the reader was developed on them, so they are a
    development set, not a held-out one."""
    from hardware.phototable import CONDITIONS, PhotoTable
    from vision.bench import evaluate_photos

    games = [rules.get(name) for name in rules.names()]
    boards = [game.board for game in games]
    starts = {game.board.name: game.placement(game.initial_state()) for game in games}
    started = time.perf_counter()
    report: dict[str, Any] = {"benchmark": "vision-stress", "frames_per_board": frames}
    for condition in ("none", *CONDITIONS, "all"):
        on = () if condition == "none" else condition

        def factory(board, table_seed, on=on):
            return PhotoTable(board, seed=table_seed, conditions=on)

        report[condition] = {}
        for mode, calibrated in (("photo_alone", False), ("calibrated", True)):
            if progress:
                print(f"stress: {condition}, {mode}", file=sys.stderr, flush=True)
            report[condition][mode] = evaluate_photos(
                boards, factory, frames, seed, calibrated=calibrated, start_placements=starts
            )
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report
