"""`boardref bench pipeline`: the appliance's loop on the simulated table, measured.

Random legal moves are made on the virtual table; frames are photographed and processed one by
one (synchronously, so the figures do not depend on thread scheduling). Reported: the loop's
cost per frame (vision + stabilising + refereeing; the simulated camera's own rendering is
measured apart), frames and milliseconds from a move on the table to its ruling, and whether
every ruling named the move that was really made.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import rules
from hardware.simcamera import SimulatedCamera, TableWorld
from rules import Decline, Pass, Roll

from .pipeline import Pipeline
from .referee import Referee
from .store import Store

MAX_FRAMES_PER_MOVE = 12


def run(game_name: str, seconds: float, seed: int = 0) -> dict[str, Any]:
    game = rules.get(game_name)
    rng = random.Random(seed)
    referee = Referee(game, store=Store(":memory:"), roll_die=lambda: rng.randint(1, 6))
    world = TableWorld(placement=game.placement(referee.state))
    camera = SimulatedCamera(game.board, world, seed=seed + 1, fps=0)
    pipeline = Pipeline(referee, camera, frames_required=2, read_dice=False)
    render_ms: list[float] = []
    loop_ms: list[float] = []
    latencies_ms: list[float] = []
    latencies_frames: list[int] = []
    wrong = unsettled = 0

    def frame() -> None:
        t0 = time.perf_counter()
        image = camera.read().image
        t1 = time.perf_counter()
        pipeline.process(image)
        t2 = time.perf_counter()
        render_ms.append((t1 - t0) * 1e3)
        loop_ms.append((t2 - t1) * 1e3)

    for _ in range(3):  # settle and calibrate on the starting position
        frame()
    deadline = time.perf_counter() + seconds
    moves = 0
    while time.perf_counter() < deadline and game.outcome(referee.state) is None:
        state = referee.state
        legal = game.legal_moves(state)
        if all(isinstance(m, Roll | Decline) for m in legal):  # an extra roll: take it
            referee.roll("bench")
            continue
        movable = [m for m in legal if not isinstance(m, Roll | Pass)]
        move = rng.choice(movable)
        target = game.camera_picture(state, move)
        before = len(referee.history())
        if target == game.placement(state):
            referee.manual_move(move.to_json())
            continue
        world.set(placement=target)
        cost = 0.0
        for count in range(1, MAX_FRAMES_PER_MOVE + 1):
            frame()
            cost += loop_ms[-1]
            if len(referee.history()) > before:
                latencies_frames.append(count)
                latencies_ms.append(cost)
                if referee.state != game.apply(state, move):
                    wrong += 1
                world.set(placement=game.placement(referee.state))  # a battle's loser goes
                break
        else:
            unsettled += 1
            referee.manual_move(move.to_json())
        moves += 1

    def mean(values: list[float]) -> float:
        return round(statistics.fmean(values), 2) if values else 0.0

    return {
        "benchmark": "pipeline",
        "game": game.name,
        "moves": moves,
        "frames": len(loop_ms),
        "frames_per_s": round(1000.0 / mean(loop_ms), 1) if loop_ms else 0.0,
        "loop_ms_per_frame": mean(loop_ms),
        "simulated_render_ms_per_frame": mean(render_ms),
        "move_to_ruling_frames": mean(latencies_frames),
        "move_to_ruling_ms": mean(latencies_ms),
        "move_to_ruling_ms_p95": round(sorted(latencies_ms)[int(0.95 * (len(latencies_ms) - 1))], 2)
        if latencies_ms
        else 0.0,
        "rulings_naming_another_move": wrong,
        "moves_the_camera_did_not_settle": unsettled,
        "timings_ms_last_frame": pipeline.status.timings_ms,
    }
