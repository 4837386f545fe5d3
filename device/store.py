"""SQLite persistence: every game as an append-only event log (WAL, synchronous FULL).

After a crash or a power cut the appliance reopens the log and replays the newest game to the
same position. Beside the log, the `seats` table keeps each seat's secret player link and the
phone that claimed it, so the players' phones keep working after a restart. One connection,
used under the referee's lock.

Faults never lose the game in progress: every write goes through `_write`, which turns a full
or read-only disk into a `StorageFault` (the caller then does not apply the change, and the
table waits); a damaged file is set aside and rebuilt at open (`device.recovery`); a row that
does not load is reported in `StoredGame.bad` with the moves before it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

BACKUPS_KEPT = 3  # rotating backups of the last good database


class StoreError(Exception):
    """The game database cannot be opened or read; the message names the file."""


class StorageFault(StoreError):
    """A write failed (disk full, read-only, I/O error): nothing of it was stored."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"cannot save to {path}: {detail}")
        self.detail = detail


@dataclass(frozen=True)
class BadRow:
    """A stored row that does not load: which table and row, and why."""

    table: str  # "games" | "events"
    row: int
    why: str

    def __str__(self) -> str:
        return f"row {self.row} of the {self.table} table"


@dataclass(frozen=True)
class StoredGame:
    id: int
    name: str
    players: int
    options: dict[str, Any]
    moves: list[dict[str, Any]]  # move JSON in order, undone moves already removed
    events: int
    move_rows: list[int] = field(default_factory=list)  # the events row of each move
    bad: BadRow | None = None  # the first row that does not load; moves stop before it


@dataclass(frozen=True)
class StoredSeat:
    """A seat's secret player link and the claimant id of the phone holding it (None: free)."""

    seat: int
    token: str
    claim: str | None


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.write_fault: Callable[[str], None] | None = None  # a test's seam: may raise
        self.recovery: str = ""  # what the open-time check repaired, in words ("" = nothing)
        self.failing = False  # the last write failed (and none has worked since)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                from .recovery import check_and_repair

                self.recovery = check_and_repair(Path(self.path))
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            schema = resources.files("device").joinpath("schema.sql").read_text()
            self.db.executescript(schema)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from None

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    # --- writing: all through _write -------------------------------------------------------
    def _write(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        try:
            if self.write_fault is not None:
                self.write_fault(sql)
            cursor = self.db.execute(sql, params)
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise  # a bug or a refused value, not the disk
        except (sqlite3.DatabaseError, OSError) as exc:
            self.failing = True
            raise StorageFault(self.path, str(exc)) from None
        self.failing = False
        return cursor

    def new_game(self, name: str, players: int, options: dict[str, Any]) -> int:
        cur = self._write(
            "INSERT INTO games (name, players, options, started) VALUES (?, ?, ?, ?)",
            (name, players, json.dumps(options, sort_keys=True), time.time()),
        )
        return int(cur.lastrowid)

    def append(self, game_id: int, kind: str, payload: dict[str, Any], source: str = "") -> int:
        cur = self._write(
            "INSERT INTO events (game_id, kind, payload, source, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, json.dumps(payload, sort_keys=True), source, time.time()),
        )
        return int(cur.lastrowid)

    def probe(self) -> None:
        """One small real write: StorageFault while the disk is still full or read-only."""
        self._write("INSERT OR REPLACE INTO health (id, at) VALUES (1, ?)", (time.time(),))

    def save_seat(self, game_id: int, seat: StoredSeat) -> None:
        """Keep a seat's link and claim (a new game, a claim, a reset), replacing the old row."""
        self._write(
            "INSERT OR REPLACE INTO seats (game_id, seat, token, claim) VALUES (?, ?, ?, ?)",
            (game_id, seat.seat, seat.token, seat.claim),
        )

    def save_seats(self, game_id: int, seats: list[StoredSeat]) -> None:
        """Keep every seat of a game at once (one transaction: all or none)."""
        with self.db:
            self._write("BEGIN")
            for seat in seats:
                self.save_seat(game_id, seat)

    def drop_from(self, game_id: int, row: int) -> int:
        """Remove a game's events from `row` on (a bad row and what was stored after it, kept
        in the set-aside copy); returns how many went."""
        cur = self._write("DELETE FROM events WHERE game_id = ? AND id >= ?", (game_id, row))
        return cur.rowcount

    # --- reading ---------------------------------------------------------------------------
    def latest(self) -> StoredGame | None:
        row = self.db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else self.load(row[0])

    def load(self, game_id: int) -> StoredGame:
        """A game and its moves; a row that does not load stops the moves there (`bad`)."""
        row = self.db.execute(
            "SELECT id, name, players, options FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path}")
        gid, name, players, options = row
        try:
            options = json.loads(options)
            if not isinstance(options, dict) or not isinstance(name, str):
                raise ValueError("options are not a JSON object")
            if type(players) is not int:
                raise ValueError(f"players is {players!r}")
        except (ValueError, TypeError, RecursionError) as exc:
            return StoredGame(gid, str(name), 0, {}, [], 0, [], BadRow("games", gid, str(exc)))
        moves: list[dict[str, Any]] = []
        move_rows: list[int] = []
        count = 0
        bad = None
        for event_id, kind, payload in self.db.execute(
            "SELECT id, kind, payload FROM events WHERE game_id = ? ORDER BY id", (game_id,)
        ):
            count += 1
            if kind == "move":
                try:
                    move = json.loads(payload)
                    if not isinstance(move, dict):
                        raise ValueError("not a JSON object")
                except (ValueError, TypeError, RecursionError) as exc:
                    bad = BadRow("events", event_id, f"the move is not readable JSON: {exc}")
                    break
                moves.append(move)
                move_rows.append(event_id)
            elif kind == "undo" and moves:
                moves.pop()
                move_rows.pop()
        return StoredGame(gid, name, players, options, moves, count, move_rows, bad)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        return [
            {"id": i, "kind": k, "payload": _json_or_text(p), "source": s, "at": at}
            for i, k, p, s, at in self.db.execute(
                "SELECT id, kind, payload, source, at FROM events WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]

    def seats(self, game_id: int) -> list[StoredSeat]:
        """The game's seats in seat order; empty for a game stored before links were kept."""
        return [
            StoredSeat(seat, token, claim)
            for seat, token, claim in self.db.execute(
                "SELECT seat, token, claim FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]

    # --- copies ----------------------------------------------------------------------------
    def copy_to(self, target: Path) -> Path:
        """A consistent copy of the whole database (SQLite's online backup API)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        out = sqlite3.connect(str(target))
        try:
            self.db.backup(out)
        finally:
            out.close()
        return target

    def set_aside(self, why: str) -> Path | None:
        """A dated copy of the database as it is now, beside it (before a bad row is dropped).
        None for an in-memory database."""
        if self.path == ":memory:":
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return self.copy_to(Path(f"{self.path}.{why}-{stamp}"))

    def backup(self, keep: int = BACKUPS_KEPT) -> Path | None:
        """Rotate the backups of the last good database: `<db>.backup-1` is the newest, up to
        `keep`. A failure (disk full) is logged, never raised: the game goes on."""
        if self.path == ":memory:":
            return None
        base = Path(self.path)
        try:
            newest = base.with_name(f"{base.name}.backup-1")
            fresh = self.copy_to(base.with_name(f"{base.name}.backup-new"))
            for n in range(keep - 1, 0, -1):
                older = base.with_name(f"{base.name}.backup-{n}")
                if older.exists():
                    older.replace(base.with_name(f"{base.name}.backup-{n + 1}"))
            fresh.replace(newest)
            return newest
        except (sqlite3.Error, OSError) as exc:
            log.warning("backup of %s failed: %s", self.path, exc)
            return None

    def newest_backup(self) -> Path | None:
        base = Path(self.path)
        newest = base.with_name(f"{base.name}.backup-1")
        return newest if self.path != ":memory:" and newest.exists() else None

    def download(self) -> tuple[str, bytes]:
        """(file name, bytes) of the database to download: a fresh rotating backup when the
        disk takes it, else the newest backup, else a copy made in memory."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"boardref-{stamp}.sqlite3"
        newest = self.backup() or self.newest_backup()
        if newest is not None:
            try:
                return name, newest.read_bytes()
            except OSError as exc:
                log.warning("cannot read the backup %s: %s", newest, exc)
        return name, self.snapshot_bytes()

    def snapshot_bytes(self) -> bytes:
        """The whole database as one SQLite file in memory (to download)."""
        out = sqlite3.connect(":memory:")
        try:
            self.db.backup(out)
            return out.serialize()
        finally:
            out.close()


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return text
