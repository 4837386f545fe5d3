"""SQLite persistence: every game as an append-only event log (WAL, synchronous FULL).

After a crash or a power cut the appliance reopens the log and replays the newest game to the
same position. One connection, used under the referee's lock.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any


class StoreError(Exception):
    """The game database cannot be opened or read; the message names the file."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    name: str
    players: int
    options: dict[str, Any]
    moves: list[dict[str, Any]]  # move JSON in order, undone moves already removed
    events: int


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
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

    def new_game(self, name: str, players: int, options: dict[str, Any]) -> int:
        cur = self.db.execute(
            "INSERT INTO games (name, players, options, started) VALUES (?, ?, ?, ?)",
            (name, players, json.dumps(options, sort_keys=True), time.time()),
        )
        return int(cur.lastrowid)

    def append(self, game_id: int, kind: str, payload: dict[str, Any], source: str = "") -> int:
        cur = self.db.execute(
            "INSERT INTO events (game_id, kind, payload, source, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, json.dumps(payload, sort_keys=True), source, time.time()),
        )
        return int(cur.lastrowid)

    def latest(self) -> StoredGame | None:
        row = self.db.execute(
            "SELECT id, name, players, options FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else self.load(row[0])

    def load(self, game_id: int) -> StoredGame:
        row = self.db.execute(
            "SELECT id, name, players, options FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path}")
        moves: list[dict[str, Any]] = []
        count = 0
        for kind, payload in self.db.execute(
            "SELECT kind, payload FROM events WHERE game_id = ? ORDER BY id", (game_id,)
        ):
            count += 1
            if kind == "move":
                moves.append(json.loads(payload))
            elif kind == "undo" and moves:
                moves.pop()
        return StoredGame(row[0], row[1], row[2], json.loads(row[3]), moves, count)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        return [
            {"id": i, "kind": k, "payload": json.loads(p), "source": s, "at": at}
            for i, k, p, s, at in self.db.execute(
                "SELECT id, kind, payload, source, at FROM events WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]
