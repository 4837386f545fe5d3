"""Fault injection on the game database: a failed write stores nothing and says why, a bad
row resumes the game up to the last good move with a dated copy kept, a damaged file is found
by `PRAGMA quick_check` and rebuilt, and the last good database is kept as rotating backups."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

import rules
from device.resume import resume
from device.store import StorageFault, Store

FULL = sqlite3.OperationalError("database or disk is full")


def disk_full(sql: str) -> None:
    raise FULL


def played(db: Path, moves: int = 40, seed: int = 3) -> list[dict]:
    """A game of Aggravation stored move by move (through the store alone); its moves."""
    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    store = Store(db)
    game_id = store.new_game(game.name, game.players, dict(game.options))
    rng, state, made = random.Random(seed), game.initial_state(), []
    for _ in range(moves):
        move = rng.choice(game.legal_moves(state))
        store.append(game_id, "move", move.to_json(), "test")
        state = game.apply(state, move)
        made.append(move.to_json())
    store.close()
    return made


def test_a_failed_write_stores_nothing_and_names_the_fault(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    game_id = store.new_game("aggravation", 4, {})
    store.write_fault = disk_full
    with pytest.raises(StorageFault, match="database or disk is full"):
        store.append(game_id, "move", {"kind": "roll"})
    with pytest.raises(StorageFault):
        store.probe()
    store.write_fault = None
    store.probe()  # storage works again
    assert store.load(game_id).events == 0


def test_a_refused_value_is_not_taken_for_a_full_disk(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    with pytest.raises(sqlite3.IntegrityError):
        store._write("INSERT INTO games (name) VALUES (NULL)")


def test_a_read_only_database_is_a_storage_fault(tmp_path):
    db = tmp_path / "g.sqlite3"
    Store(db).close()
    ro = Store(db)
    ro.db.close()
    ro.db = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
    with pytest.raises(StorageFault, match="readonly"):
        ro.new_game("aggravation", 4, {})


# --- one bad row: resume up to the last good move ---------------------------------------------


def corrupt_event(db: Path, nth: int, payload: str) -> int:
    """Overwrite the payload of the nth stored move; returns its row id."""
    conn = sqlite3.connect(db)
    row = conn.execute("SELECT id FROM events ORDER BY id LIMIT 1 OFFSET ?", (nth,)).fetchone()[0]
    conn.execute("UPDATE events SET payload = ? WHERE id = ?", (payload, row))
    conn.commit()
    conn.close()
    return row


def fallback():
    return rules.get("manji")


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ("{not json", "not readable JSON"),
        ('"a string"', "not readable JSON"),
        ("[" * 5000, "not readable JSON"),
        (json.dumps({"kind": "roll", "player": 3, "colour": "green", "value": 6}), "replay"),
        (json.dumps({"kind": "nonsense"}), "replay"),
    ],
)
def test_a_bad_move_row_resumes_up_to_the_last_good_move(tmp_path, payload, why):
    db = tmp_path / "g.sqlite3"
    made = played(db)
    row = corrupt_event(db, 25, payload)
    store = Store(db)
    resumed = resume(store, fallback())
    assert resumed.game.name == "aggravation" and len(resumed.steps) == 25
    assert [m.to_json() for m, _, _ in resumed.steps] == made[:25]
    assert f"row {row} of the events table" in resumed.problem and why in resumed.problem
    assert "goes on from move 25" in resumed.problem
    copies = list(tmp_path.glob("g.sqlite3.bad-row-*"))
    assert len(copies) == 1 and str(copies[0]) in resumed.problem
    kept = sqlite3.connect(copies[0])  # the copy has every row, the bad one included
    assert kept.execute("SELECT count(*) FROM events").fetchone()[0] == 40
    assert store.load(resumed.game_id).moves == made[:25]  # the live log: good rows only
    again = resume(Store(db), fallback())  # the next start is clean
    assert again.problem == "" and len(again.steps) == 25


@pytest.mark.parametrize(
    ("column", "value"), [("options", "{broken"), ("options", '{"opening": "telepathy"}'),
                          ("name", "chess"), ("players", "9")]
)  # fmt: skip
def test_a_bad_game_row_starts_a_new_game_and_keeps_a_copy(tmp_path, column, value):
    db = tmp_path / "g.sqlite3"
    played(db, moves=5)
    conn = sqlite3.connect(db)
    conn.execute(f"UPDATE games SET {column} = ?", (value,))
    conn.commit()
    conn.close()
    resumed = resume(Store(db), fallback())
    assert resumed.game_id is None and resumed.game.name == "manji"
    assert "row 1 of the games table" in resumed.problem
    assert "a new game of Manji starts" in resumed.problem
    assert list(tmp_path.glob("g.sqlite3.bad-row-*"))


# --- a damaged page: quick_check at open, a copy, a rebuild -----------------------------------


def damage_page(db: Path, page: int) -> None:
    data = bytearray(db.read_bytes())
    size = 4096
    data[page * size : (page + 1) * size] = random.Random(page).randbytes(size)
    db.write_bytes(bytes(data))


def test_a_damaged_page_is_found_set_aside_and_rebuilt(tmp_path):
    db = tmp_path / "g.sqlite3"
    made = played(db, moves=400)
    pages = db.stat().st_size // 4096
    damage_page(db, pages - 2)  # a page near the end: the later moves' rows
    store = Store(db)
    assert "damaged" in store.recovery and "rebuilt" in store.recovery
    aside = list(tmp_path.glob("g.sqlite3.damaged-*[0-9]"))
    assert len(aside) == 1 and str(aside[0]) in store.recovery
    check = [r[0] for r in store.db.execute("PRAGMA quick_check")]
    assert check == ["ok"]  # the rebuilt database is healthy
    resumed = resume(store, fallback())
    assert resumed.game.name == "aggravation"
    good = len(resumed.steps)
    assert 0 < good <= 400
    assert [m.to_json() for m, _, _ in resumed.steps] == made[:good]  # a prefix, nothing new


def test_a_healthy_database_is_left_alone(tmp_path):
    db = tmp_path / "g.sqlite3"
    played(db, moves=10)
    store = Store(db)
    assert store.recovery == ""
    assert not list(tmp_path.glob("g.sqlite3.damaged-*"))


@pytest.mark.parametrize("page", [3, 6, 9, 12])
def test_any_damaged_page_resumes_a_prefix_of_the_game(tmp_path, page):
    db = tmp_path / "g.sqlite3"
    made = played(db, moves=300)
    damage_page(db, page)
    store = Store(db)
    resumed = resume(store, fallback())
    good = len(resumed.steps)
    if resumed.game_id is not None:
        assert [m.to_json() for m, _, _ in resumed.steps] == made[:good]
    assert store.recovery or good == 300  # damage that quick_check misses changed nothing


# --- rotating backups --------------------------------------------------------------------------


def test_backups_rotate_and_are_real_databases(tmp_path):
    db = tmp_path / "g.sqlite3"
    played(db, moves=5)
    store = Store(db)
    for n in range(5):
        store.append(1, "ruling", {"n": n})
        assert store.backup(keep=3) == tmp_path / "g.sqlite3.backup-1"
    backups = sorted(p.name for p in tmp_path.glob("g.sqlite3.backup-*"))
    assert backups == ["g.sqlite3.backup-1", "g.sqlite3.backup-2", "g.sqlite3.backup-3"]
    newest = sqlite3.connect(tmp_path / "g.sqlite3.backup-1")
    older = sqlite3.connect(tmp_path / "g.sqlite3.backup-3")
    count = "SELECT count(*) FROM events"
    assert newest.execute(count).fetchone()[0] == 10 and older.execute(count).fetchone()[0] == 8
    assert Store(tmp_path / "g.sqlite3.backup-1").latest().moves == Store(db).latest().moves


def test_a_backup_that_cannot_be_written_is_no_fault_of_the_game(tmp_path):
    db = tmp_path / "g.sqlite3"
    played(db, moves=3)
    (tmp_path / "g.sqlite3.backup-new").mkdir()  # the backup's file cannot be made
    store = Store(db)
    assert store.backup() is None
    assert len(store.latest().moves) == 3


def test_the_snapshot_download_is_a_whole_database(tmp_path):
    db = tmp_path / "g.sqlite3"
    made = played(db, moves=7)
    data = Store(db).snapshot_bytes()
    copy = tmp_path / "download.sqlite3"
    copy.write_bytes(data)
    assert Store(copy).latest().moves == made
