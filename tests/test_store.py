"""The game log survives a crash: a process killed with SIGKILL resumes with no event lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import rules
from device.referee import Referee
from device.store import Store, StoreError

PLAYER = textwrap.dedent(
    """
    import random, sys
    import rules
    from device.referee import Referee
    from device.store import Store

    rng = random.Random(7)
    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    ref = Referee(game, store=Store(sys.argv[1]), roll_die=lambda: rng.randint(1, 6))
    while True:
        legal = ref.game.legal_moves(ref.state)
        if not legal:
            break
        if ref.state.phase == "roll":
            ref.roll()
        else:
            ref.manual_move(rng.choice(legal).to_json())
        print(ref.snapshot()["moves"], flush=True)
    """
)


def test_sigkill_mid_game_resumes_with_no_event_lost(tmp_path: Path):
    db = tmp_path / "game.sqlite3"
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(db)], stdout=subprocess.PIPE, text=True, env=env
    )
    acknowledged = 0
    for line in proc.stdout:
        acknowledged = int(line)
        if acknowledged >= 120:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert acknowledged >= 120

    ref = Referee(rules.get("aggravation"), store=Store(db))
    assert ref.resumed
    resumed_moves = ref.snapshot()["moves"]
    assert resumed_moves >= acknowledged  # every acknowledged move is in the log
    # the log replays to the identical state through the public record
    record = ref.record()
    game = rules.get(record["game"], players=record["players"], options=record["options"])
    assert game.replay(record["moves"]) == ref.state
    assert "resumed" in ref.resume_text()


def test_undo_is_logged_and_replayed(tmp_path: Path):
    db = tmp_path / "g.sqlite3"
    game = rules.get("aggravation", players=2, options={"opening": "first-seat"})
    ref = Referee(game, store=Store(db), roll_die=lambda: 6)
    ref.roll()
    ref.undo()
    ref.roll()
    stored = Store(db).latest()
    assert [m["kind"] for m in stored.moves] == ["roll"]
    kinds = [e["kind"] for e in Store(db).events(stored.id)]
    assert kinds == ["move", "undo", "move"]


def test_unreadable_database_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    try:
        Store(bad)
    except StoreError as exc:
        assert str(bad) in str(exc)
    else:
        raise AssertionError("a corrupt database must raise StoreError")
