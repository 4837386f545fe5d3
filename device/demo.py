"""`boardref demo`: the whole pipeline on the simulated table, with the web page up.

Scripted players move tokens on a virtual table, the simulated camera photographs it, the
vision reads it, the referee rules, and the page, virtual LEDs and buzzer show it.
"""

from __future__ import annotations

import json
import logging
import queue
import sys
import threading
import time
from collections import Counter

import rules
from hardware.simcamera import SimulatedCamera, TableWorld

from .appliance import build
from .config import Config
from .scripted import ScriptedPlayers
from .store import Store


def run_demo(
    game: str = "aggravation",
    players: int | None = None,
    host: str = "127.0.0.1",
    port: int = 8080,
    duration: float = 0.0,
    pace: float = 1.0,
    seed: int = 0,
    json_summary: bool = False,
    camera_moves: int = 0,
) -> int:
    """Run the demo for `duration` seconds (0: until Ctrl-C), or until `camera_moves` moves were
    ruled from camera frames: then the players wait for the camera as long as it needs (up to
    a minute a move), so a busy machine makes the run slower, never different."""
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    try:
        board = rules.get(game, players=players).board
    except rules.RulesError as exc:
        print(f"boardref demo: {exc}", file=sys.stderr)
        return 2
    config = Config(
        game=game, players=players, camera="sim", frames_required=2, database=":memory:"
    )
    camera = SimulatedCamera(board, TableWorld(), seed=seed + 1)
    appliance = build(config, camera=camera, store=Store(":memory:"))
    referee, pipeline = appliance.referee, appliance.pipeline
    camera.show(referee.game.board, referee.game.placement(referee.state))
    patience = 60.0 if camera_moves else None
    players_thread = ScriptedPlayers(referee, camera, seed=seed, pace=pace, patience=patience)
    rulings: Counter[str] = Counter()
    feed = referee.subscribe()
    counting = threading.Event()

    def count() -> None:
        while not counting.is_set() or not feed.empty():
            try:
                kind, payload = feed.get(timeout=0.2)
            except queue.Empty:
                continue
            if kind == "ruling":
                rulings[payload.get("kind", "?")] += 1

    counter = threading.Thread(target=count, daemon=True)
    counter.start()
    pipeline.start()
    players_thread.start()
    server = None
    if port:
        from webui.serve import make_server

        server = make_server(appliance.app, host=host, port=port, threads=24)
        threading.Thread(target=server.run, daemon=True).start()
        print(f"boardref demo: {referee.game.title} on the simulated table")
        print(f"boardref demo: open http://{host}:{server.effective_port}/ (Ctrl-C stops)")
        sys.stdout.flush()
    started = time.monotonic()
    try:
        while not duration or time.monotonic() - started < duration:
            if camera_moves and players_thread.camera_moves >= camera_moves:
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        players_thread.stop()
        players_thread.join(timeout=10)
        if server is not None:
            server.close()
        appliance.close()
        counting.set()  # every ruling announced so far is counted before the summary
        counter.join(timeout=60)
    summary = {
        "game": referee.game.name,
        "seconds": round(time.monotonic() - started, 1),
        "moves": referee.snapshot()["moves"],
        "camera_moves": players_thread.camera_moves,
        "moves_entered_by_hand": players_thread.fallbacks,
        "dice_thrown": players_thread.dice_thrown,
        "dice_not_read_by_camera": players_thread.dice_unread,
        "illegal_attempts": players_thread.illegal_attempts,
        "rulings": dict(rulings),
        "frames": pipeline.status.frames,
        "fps": round(pipeline.status.fps, 1),
    }
    if json_summary:
        print(json.dumps(summary, indent=2))
    else:
        print(f"boardref demo: {summary['moves']} moves, rulings {dict(rulings)}")
    return 0
