"""The game database's health check at open: `PRAGMA quick_check`, and on damage a rebuild.

A damaged page (a failing SD card, a torn write) made the appliance start as if healthy and
fail later. Now a damaged file is renamed aside with the date (nothing is deleted), and a fresh
database is built from every row that can still be read; the referee then replays the newest
game and drops any move that no longer replays (see `device.resume`).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from importlib import resources
from pathlib import Path

log = logging.getLogger(__name__)

SALVAGE_CHUNK = 64
TABLES = {
    "games": "id, name, players, options, started",
    "events": "id, game_id, kind, payload, source, at",
    "seats": "game_id, seat, token, claim",
}


def check_and_repair(path: Path) -> str:
    """Check the database at `path`; rebuild it if damaged. Returns what was done, in words
    ("" when the file is healthy or new). A file that is no database at all raises
    sqlite3.DatabaseError (it may be the wrong file: it is left alone)."""
    if not path.exists() or path.stat().st_size == 0:
        return ""
    problem = _quick_check(path)
    if problem is None:
        return ""
    rows = _salvage(path)
    aside = _move_aside(path)
    _rebuild(path, rows)
    counts = ", ".join(f"{len(rows[t])} {t}" for t in ("games", "events"))
    text = (
        f"the game database was damaged ({problem}); the damaged file is kept as {aside} and "
        f"the database was rebuilt from what could be read ({counts})"
    )
    log.warning("%s", text)
    return text


def _quick_check(path: Path) -> str | None:
    """None when healthy, else the first problem SQLite names."""
    db = sqlite3.connect(str(path))
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # not a database: raises
        try:
            rows = [r[0] for r in db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            return str(exc)
        return None if rows == ["ok"] else " ".join(rows[0].split())
    finally:
        db.close()


def _salvage(path: Path) -> dict[str, list[tuple]]:
    """Every row that can still be read. Rows are looked up by rowid in small ranges, one by
    one where a range fails, so a damaged page loses only the rows on it."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows: dict[str, list[tuple]] = {}
    try:
        for table, columns in TABLES.items():
            rows[table] = []
            top = _last_rowid(db, table)
            for start in range(1, top + 1, SALVAGE_CHUNK):
                end = start + SALVAGE_CHUNK - 1
                query = f"SELECT {columns} FROM {table} WHERE rowid BETWEEN ? AND ? ORDER BY rowid"
                try:
                    rows[table] += db.execute(query, (start, end)).fetchall()
                except sqlite3.DatabaseError:
                    for rowid in range(start, end + 1):
                        try:
                            rows[table] += db.execute(query, (rowid, rowid)).fetchall()
                        except sqlite3.DatabaseError:
                            continue  # this row's page is damaged
    finally:
        db.close()
    return rows


def _last_rowid(db: sqlite3.Connection, table: str) -> int:
    """The highest rowid the table may hold (from sqlite_sequence, else a scan, else 0)."""
    for query, args in (
        ("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)),
        (f"SELECT max(rowid) FROM {table}", ()),
    ):
        try:
            row = db.execute(query, args).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row and row[0]:
            return int(row[0]) + SALVAGE_CHUNK  # a few beyond: rows written after a crash
    return 0


def _move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.replace(aside.with_name(aside.name + suffix))
    path.replace(aside)
    return aside


def _rebuild(path: Path, rows: dict[str, list[tuple]]) -> None:
    db = sqlite3.connect(str(path))
    try:
        db.executescript(resources.files("device").joinpath("schema.sql").read_text())
        with db:
            for table, columns in TABLES.items():
                marks = ", ".join("?" for _ in columns.split(","))
                db.executemany(
                    f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({marks})", rows[table]
                )
    finally:
        db.close()
