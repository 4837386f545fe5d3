"""The game log survives a crash: a process killed with SIGKILL resumes with no event lost.
The players' links (the seats table) survive a reopen, and a database from before the table
existed is upgraded in place."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import rules
from device.referee import Referee
from device.store import Store, StoredSeat, StoreError

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


def test_seats_are_kept_per_game_and_replaced_on_change(tmp_path: Path):
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    first = store.new_game("playground-battles", 2, {})
    second = store.new_game("playground-battles", 2, {})
    store.save_seats(first, [StoredSeat(0, "tok-a", None), StoredSeat(1, "tok-b", None)])
    store.save_seats(second, [StoredSeat(0, "tok-c", None), StoredSeat(1, "tok-d", None)])
    store.save_seat(first, StoredSeat(1, "tok-b", "phone-1"))  # a claim
    store.save_seat(first, StoredSeat(0, "tok-e", None))  # a reset
    store.close()
    again = Store(db)
    assert again.seats(first) == [StoredSeat(0, "tok-e", None), StoredSeat(1, "tok-b", "phone-1")]
    assert again.seats(second) == [StoredSeat(0, "tok-c", None), StoredSeat(1, "tok-d", None)]
    assert again.seats(first + second) == []
    assert again.load(first).events == 0  # links are not log events


def test_save_seats_is_all_or_nothing(tmp_path: Path):
    store = Store(tmp_path / "g.sqlite3")
    game = store.new_game("playground-battles", 2, {})
    store.save_seats(game, [StoredSeat(0, "tok-a", None), StoredSeat(1, "tok-b", None)])
    try:
        store.save_seats(game, [StoredSeat(0, "tok-c", None), StoredSeat(1, None, None)])
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("a seat without a token must be refused")
    assert [s.token for s in store.seats(game)] == ["tok-a", "tok-b"]


OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
    players INTEGER NOT NULL, options TEXT NOT NULL, started REAL NOT NULL);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id), kind TEXT NOT NULL, payload TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '', at REAL NOT NULL);
INSERT INTO games (name, players, options, started)
    VALUES ('playground-battles', 2, '{}', 0);
"""


def test_a_database_from_before_the_seats_table_is_upgraded(tmp_path: Path):
    db = tmp_path / "old.sqlite3"
    old = sqlite3.connect(db)
    old.executescript(OLD_SCHEMA)
    old.close()
    ref = Referee(rules.get("aggravation"), store=Store(db))
    assert ref.resumed and ref.game.name == "playground-battles"
    links = [ref.join_token(n) for n in (0, 1)]
    assert all(links)  # fresh links for a game stored without any...
    again = Referee(rules.get("aggravation"), store=Store(db))
    assert [again.join_token(n) for n in (0, 1)] == links  # ...kept from then on
