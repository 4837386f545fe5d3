"""Vision benchmark on simulated frames: accuracy, confident mistakes and speed per stage.

`vision` never imports `hardware`, so the simulated table is handed in: `table_factory(board,
seed)` must return an object with `render(placement, dice, *, hand) -> (frame, truth)` where
`truth.placement` and `truth.hand` are the facts (hardware.simtable.SimulatedTable does).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import UNKNOWN
from vision.calibrate import calibrate
from vision.config import DEFAULT_CONFIG, VisionConfig
from vision.observation import observe
from vision.spaces import candidate_colours


def calibration_placement(board: Board) -> dict[str, str]:
    """A start-like placement: owned spaces in their seat's colour, every colour present."""
    colours = candidate_colours(board)
    placement: dict[str, str] = {}
    for space in board.spaces:
        owner = space.owner
        if owner is not None and owner < len(board.seat_colours):
            if board.seat_colours[owner] in colours and space.kind not in {"home"}:
                placement[space.id] = board.seat_colours[owner]
    missing = [c for c in colours if c not in placement.values()]
    free = [s.id for s in board.spaces if s.id not in placement]
    for k, colour in enumerate(missing * 3):
        if k < len(free):
            placement[free[(k * 7) % len(free)]] = colour
    return placement


def evaluate_simulated(
    boards: Sequence[Board],
    frames_per_board: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    *,
    table_factory: Callable | None = None,
    frames_per_table: int = 10,
    hand_probability: float = 0.1,
    config: VisionConfig = DEFAULT_CONFIG,
    threads: int = 1,
    start_placements: dict[str, dict[str, str]] | None = None,
    calibrate_on_empty: bool = False,
    repeats: int = 1,
) -> dict:
    """Read `frames_per_board` random placements per board; return the figures as a dict.

    Each simulated table is calibrated as the device does: from one frame of the game's
    starting placement (`start_placements[board.name]`, else a start-like placement), plus
    a frame of the empty board when `calibrate_on_empty`. With `repeats` > 1 every frame is
    observed that many times and the fastest run's timings are kept (less noise from other
    processes on a shared machine).
    """
    if table_factory is None:
        raise ValueError(
            "evaluate_simulated needs table_factory=(board, seed) -> table, e.g. "
            "hardware.simtable.SimulatedTable (vision does not import hardware)"
        )
    old_threads = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        return _run(
            list(boards), frames_per_board, seed, progress, table_factory, frames_per_table,
            hand_probability, config, start_placements or {}, calibrate_on_empty, max(1, repeats),
        )  # fmt: skip
    finally:
        cv2.setNumThreads(old_threads)


def _run(
    boards,
    frames_per_board,
    seed,
    progress,
    factory,
    per_table,
    hand_p,
    config,
    starts,
    on_empty,
    repeats,
) -> dict:
    rng = np.random.default_rng(seed)
    total_frames = frames_per_board * len(boards)
    done = 0
    n = dict(
        spaces=0, correct=0, unknown=0, confident_wrong_spaces=0, frames=0, clear_frames=0,
        perfect=0, confident_wrong_frames=0, unlocated=0, hand_frames=0, hand_flagged=0,
        false_hand=0, game_wrong=0,
    )  # fmt: skip
    timings: dict[str, list[float]] = {}
    cpu_ms: list[float] = []
    mistakes: list[dict] = []
    resolution: list[int] = []
    missed_hands: list[dict] = []
    per_board: dict[str, dict] = {}
    for b_index, board in enumerate(boards):
        colours = candidate_colours(board)
        board_n = dict(frames=0, clear=0, perfect=0, spaces=0, correct=0)
        table = None
        cal = None
        last = None
        for k in range(frames_per_board):
            if k % per_table == 0:
                t_seed = int(seed) * 1000 + b_index * 100 + k // per_table
                table = factory(board, t_seed)
                cal_pl = starts.get(board.name) or calibration_placement(board)
                views = [(table.render(cal_pl, hand=False)[0], cal_pl)]
                if on_empty:
                    views.append((table.render({}, hand=False)[0], {}))
                cal = calibrate(board, views, config)
                last = None
            density = rng.uniform(0.05, 0.5)
            placement = {
                s.id: colours[int(rng.integers(len(colours)))]
                for s in board.spaces
                if rng.random() < density
            }
            dice = [int(v) for v in rng.integers(1, 7, int(rng.integers(0, 3)))]
            hand = bool(rng.random() < hand_p)
            frame, truth = table.render(placement, dice, hand=hand)
            resolution = [int(frame.shape[1]), int(frame.shape[0])]
            obs, cpu = _observe_timed(frame, boards, cal, last, config)
            for _ in range(repeats - 1):
                again, again_cpu = _observe_timed(frame, boards, cal, last, config)
                cpu = min(cpu, again_cpu)
                if again.timings_ms["total"] < obs.timings_ms["total"]:
                    obs = again
            cpu_ms.append(cpu)
            for stage, ms in obs.timings_ms.items():
                timings.setdefault(stage, []).append(ms)
            n["frames"] += 1
            board_n["frames"] += 1
            if obs.game is None:
                n["unlocated"] += 1
            elif obs.game != board.name:
                n["game_wrong"] += 1
            else:
                last = obs.homography
            if truth.hand:
                n["hand_frames"] += 1
                n["hand_flagged"] += int(obs.hand)
                if not obs.hand and len(missed_hands) < 20:
                    missed_hands.append({"board": board.name, "frame": k, "table_seed": t_seed})
            else:
                n["false_hand"] += int(obs.hand)
                n["clear_frames"] += 1
                board_n["clear"] += 1
                ok = obs.game == board.name
                for space in board.spaces:
                    read = obs.spaces.get(space.id, (UNKNOWN, 0.0))[0]
                    want = truth.placement.get(space.id)
                    n["spaces"] += 1
                    board_n["spaces"] += 1
                    if read == want:
                        n["correct"] += 1
                        board_n["correct"] += 1
                    elif read == UNKNOWN:
                        n["unknown"] += 1
                        ok = False
                    else:
                        n["confident_wrong_spaces"] += 1
                        ok = False
                if ok and not obs.unclear:
                    n["perfect"] += 1
                    board_n["perfect"] += 1
            # the serious bug: a frame the stabiliser would accept, yet wrong
            acceptable = obs.game is not None and not obs.hand and not obs.unclear
            if acceptable and (obs.game != board.name or obs.placement != truth.placement):
                n["confident_wrong_frames"] += 1
                if len(mistakes) < 20:
                    diff = {
                        sid: (truth.placement.get(sid), obs.placement.get(sid))
                        for sid in set(truth.placement) | set(obs.placement)
                        if truth.placement.get(sid) != obs.placement.get(sid)
                    }
                    mistakes.append(
                        {"board": board.name, "frame": k, "hand": truth.hand, "diff": diff}
                    )
            done += 1
            if progress is not None:
                progress(done, total_frames)
        per_board[board.name] = {
            "frames": board_n["frames"],
            "space_accuracy": board_n["correct"] / max(1, board_n["spaces"]),
            "boards_perfect": board_n["perfect"] / max(1, board_n["clear"]),
        }
    clear = max(1, n["clear_frames"])
    return {
        "frames": n["frames"],
        "resolution": resolution,
        "space_accuracy": n["correct"] / max(1, n["spaces"]),
        "space_unknown_rate": n["unknown"] / max(1, n["spaces"]),
        "confident_wrong_spaces": n["confident_wrong_spaces"],
        "boards_perfect": n["perfect"] / clear,
        "confident_wrong_frames": n["confident_wrong_frames"],
        "confident_wrong_fraction": n["confident_wrong_frames"] / max(1, n["frames"]),
        "unlocated_frames": n["unlocated"],
        "game_wrong_frames": n["game_wrong"],
        "hand_frames": n["hand_frames"],
        "hand_recall": n["hand_flagged"] / max(1, n["hand_frames"]),
        "false_hand_rate": n["false_hand"] / clear,
        "ms_per_stage": {s: float(np.mean(v)) for s, v in timings.items()},
        "ms_per_stage_p95": {s: float(np.percentile(v, 95)) for s, v in timings.items()},
        "ms_per_frame": float(np.mean(timings.get("total", [0.0]))),
        "ms_per_stage_median": {s: float(np.median(v)) for s, v in timings.items()},
        # CPU time of the board read (one core: OpenCV held to `threads`), which other
        # processes on a shared machine change far less than the wall-clock figures above
        "cpu_ms_per_frame": float(np.mean(cpu_ms)) if cpu_ms else 0.0,
        "cpu_ms_per_frame_median": float(np.median(cpu_ms)) if cpu_ms else 0.0,
        "threads": cv2.getNumThreads(),
        "timing_repeats": repeats,
        "per_board": per_board,
        "mistakes": mistakes,
        "missed_hands": missed_hands,
    }


def _observe_timed(frame, boards, cal, last, config):
    """(observation, CPU ms it took): `observe`'s own timings are wall-clock."""
    started = time.process_time()
    obs = observe(frame, boards, cal, last, None, config)
    return obs, (time.process_time() - started) * 1e3


def evaluate_photos(
    boards: Sequence[Board],
    table_factory: Callable,
    frames_per_board: int,
    seed: int = 0,
    *,
    calibrated: bool = False,
    start_placements: dict[str, dict[str, str]] | None = None,
    config: VisionConfig = DEFAULT_CONFIG,
) -> dict:
    """Read random placements on photo-like tables, one new table (light, lens, tokens) per
    frame. Each photo alone (`calibrated=False`: as `boardref vision read` does), or after the
    appliance's calibration from the starting position on the same table.

    Figures: spaces right, tokens read, unclear, confidently wrong, boards perfect, ms per
    frame (board reading: locate + spaces + hand), per board and over all.
    """
    starts = start_placements or {}
    rng = np.random.default_rng([seed, 0x57E55])
    total = _PhotoCount()
    per_board = {}
    for b_index, board in enumerate(boards):
        count = _PhotoCount()
        colours = candidate_colours(board)
        for k in range(frames_per_board):
            table = table_factory(board, int(seed) * 10_000 + b_index * 1000 + k)
            cal = None
            if calibrated:
                start = starts.get(board.name) or calibration_placement(board)
                try:
                    cal = calibrate(board, [(table.render(start, hand=False)[0], start)], config)
                except ValueError:
                    count.calibration_refused += 1
            density = rng.uniform(0.05, 0.5)
            placement = {
                s.id: colours[int(rng.integers(len(colours)))]
                for s in board.spaces
                if rng.random() < density
            }
            frame, truth = table.render(placement)  # a hand now and then, as the table says
            obs = observe(frame, [board], cal, None, None, config)
            count.add(board, obs, truth.placement)
            count.n["hand_frames"] += bool(truth.hand)
            count.n["hand_flagged"] += bool(truth.hand and obs.hand)
        per_board[board.name] = count.figures()
        total.merge(count)
    return {**total.figures(), "per_board": per_board}


class _PhotoCount:
    """Tallies of one reading run."""

    def __init__(self) -> None:
        self.n = dict(spaces=0, right=0, unclear=0, wrong=0, tokens=0, tokens_read=0,
                      frames=0, perfect=0, unlocated=0, hand_frames=0, hand_flagged=0)  # fmt: skip
        self.calibration_refused = 0
        self.ms: list[float] = []

    def add(self, board: Board, obs, truth: dict[str, str]) -> None:
        n = self.n
        n["frames"] += 1
        if obs.game is None:
            n["unlocated"] += 1
        else:
            self.ms.append(sum(obs.timings_ms.get(s, 0.0) for s in ("locate", "spaces", "hand")))
        perfect = obs.game is not None
        for space in board.spaces:
            read = obs.spaces.get(space.id, (UNKNOWN, 0.0))[0]
            want = truth.get(space.id)
            n["spaces"] += 1
            n["tokens"] += want is not None
            if read == want:
                n["right"] += 1
                n["tokens_read"] += want is not None
            else:
                perfect = False
                n["unclear" if read == UNKNOWN else "wrong"] += 1
        n["perfect"] += perfect

    def merge(self, other: _PhotoCount) -> None:
        for key, value in other.n.items():
            self.n[key] += value
        self.calibration_refused += other.calibration_refused
        self.ms += other.ms

    def figures(self) -> dict:
        n = self.n
        return {
            "frames": n["frames"],
            "space_accuracy": round(n["right"] / max(1, n["spaces"]), 4),
            "tokens_read": round(n["tokens_read"] / max(1, n["tokens"]), 4),
            "unclear_rate": round(n["unclear"] / max(1, n["spaces"]), 4),
            "confident_wrong_spaces": n["wrong"],
            "boards_perfect": round(n["perfect"] / max(1, n["frames"]), 4),
            "unlocated_frames": n["unlocated"],
            "hand_frames": n["hand_frames"],
            "hand_frames_flagged": n["hand_flagged"],
            "calibration_refused": self.calibration_refused,
            "ms_per_frame": round(float(np.mean(self.ms)), 2) if self.ms else None,
        }
