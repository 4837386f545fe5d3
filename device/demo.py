"""`boardref demo`: the whole pipeline on the simulated table, with the web page up.

Scripted players move tokens on a virtual table, the simulated camera photographs it, the
vision reads it, the referee rules, and the page, virtual LEDs and buzzer show it. The terminal
says where to open the page (a QR code for phones), prints every ruling as one line as it
happens, and ends with a short summary.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any, TextIO

import rules
from hardware.simcamera import SimulatedCamera, TableWorld

from .appliance import build
from .config import Config
from .network import bind_server, page_addresses, tell_addresses
from .scripted import ScriptedPlayers
from .store import Store

KIND_WORDS = {
    "legal": "legal",
    "illegal": "ILLEGAL",
    "unclear": "waiting",
    "roll": "roll",
    "pass": "pass",
    "win": "WIN",
    "undo": "undo",
    "new": "new game",
    "ignored": "not counted",
}


def ruling_line(ruling: dict[str, Any]) -> str:
    """One terminal line for a ruling: what happened, the rule for an illegal move, the fix."""
    kind = ruling.get("kind", "?")
    text = ruling.get("text", "")
    line = f"{KIND_WORDS.get(kind, kind):<11} {text}"
    clauses = [c.get("id", "") for c in ruling.get("clauses") or []]
    if kind == "illegal" and clauses:
        line += f" ({', '.join(clauses)})"
    effects = list(dict.fromkeys(e.get("text") for e in ruling.get("effects") or []))
    effects = [e for e in effects if e and e not in text]  # the text may already say it
    if effects and kind != "illegal":
        line += f"; {'; '.join(effects)}"
    if kind in ("illegal", "unclear") and ruling.get("fix"):
        line += f" -> {ruling['fix']}"
    return line


def summary_text(summary: dict[str, Any]) -> str:
    """The end-of-demo summary in words, one fact per line."""
    rulings = ", ".join(f"{n} {kind}" for kind, n in Counter(summary["rulings"]).most_common())
    lines = [
        f"boardref demo: {summary['title']}, stopped after {summary['seconds']} s",
        f"  moves played       {summary['moves']} ({summary['camera_moves']} seen by the "
        f"camera, {summary['moves_entered_by_hand']} entered by hand)",
        f"  dice thrown        {summary['dice_thrown']} into the tray "
        f"({summary['dice_not_read_by_camera']} not read, rolled with the button instead; "
        f"{summary['dice_thrown_again']} thrown again when the referee took them for "
        "the last die)",
        f"  illegal attempts   {summary['illegal_attempts']}",
        f"  rulings            {rulings or 'none'}",
        f"  camera             {summary['frames']} frames read, {summary['fps']} frames/s",
    ]
    return "\n".join(lines)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C ignored while the demo shuts down: a second press (or a terminal that sends two)
    would cut the camera's and the page's closing short with a traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield  # (only the main thread receives signals)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_demo(
    game: str = "aggravation",
    players: int | None = None,
    host: str = "0.0.0.0",
    port: int = 8080,
    duration: float = 0.0,
    pace: float = 1.0,
    seed: int = 0,
    json_summary: bool = False,
    camera_moves: int = 0,
    voice: bool = False,
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
        game=game,
        players=players,
        camera="sim",
        frames_required=2,
        database=":memory:",
        voice={"enabled": True} if voice else {},
    )
    camera = SimulatedCamera(board, TableWorld(), seed=seed + 1)
    appliance = build(config, camera=camera, store=Store(":memory:"))
    referee, pipeline = appliance.referee, appliance.pipeline
    server = None
    if port:
        try:  # take the port first: a taken one stops the demo before anything runs
            server = bind_server(appliance.app, host, port, threads=24)
        except OSError:
            appliance.close()
            raise
    camera.show(referee.game.board, referee.game.placement(referee.state))
    patience = 60.0 if camera_moves else None
    players_thread = ScriptedPlayers(referee, camera, seed=seed, pace=pace, patience=patience)
    rulings: Counter[str] = Counter()
    out: TextIO = sys.stderr if json_summary else sys.stdout
    feed = referee.subscribe()
    counting = threading.Event()

    def follow() -> None:
        while not counting.is_set() or not feed.empty():
            try:
                kind, payload = feed.get(timeout=0.2)
            except queue.Empty:
                continue
            if kind == "ruling":
                rulings[payload.get("kind", "?")] += 1
                print(f"  {ruling_line(payload)}", file=out, flush=True)

    print(f"boardref demo: {referee.game.title} on the simulated table", file=out)
    if server is not None:
        threading.Thread(target=server.run, daemon=True).start()
        tell_addresses(
            page_addresses(host, server.effective_port),
            qr=out.isatty(),
            out=out,
            prefix="boardref demo",
        )
    print("boardref demo: the rulings, as they happen (Ctrl-C stops):", file=out, flush=True)
    counter = threading.Thread(target=follow, daemon=True)
    counter.start()
    pipeline.start()
    players_thread.start()
    started = time.monotonic()
    try:
        while not duration or time.monotonic() - started < duration:
            if camera_moves and players_thread.camera_moves >= camera_moves:
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        with interrupts_held():
            players_thread.stop()
            players_thread.join(timeout=10)
            if server is not None:
                server.close()
            appliance.close()
            counting.set()  # every ruling announced so far is counted before the summary
            counter.join(timeout=60)
    summary = {
        "game": referee.game.name,
        "title": referee.game.title,
        "seconds": round(time.monotonic() - started, 1),
        "moves": referee.snapshot()["moves"],
        "camera_moves": players_thread.camera_moves,
        "moves_entered_by_hand": players_thread.fallbacks,
        "dice_thrown": players_thread.dice_thrown,
        "dice_not_read_by_camera": players_thread.dice_unread,
        "dice_thrown_again": players_thread.dice_rethrown,
        "illegal_attempts": players_thread.illegal_attempts,
        "rulings": dict(rulings),
        "frames": pipeline.status.frames,
        "fps": round(pipeline.status.fps, 1),
    }
    if json_summary:
        print(json.dumps(summary, indent=2))
    else:
        print(summary_text(summary))
    return 0
