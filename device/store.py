"""SQLite persistence: every game as an append-only event log (WAL, synchronous FULL).

After a crash or a power cut the appliance reopens the log and replays the newest game to the
same position. Beside the log, the `seats` table keeps each seat's secret player link and the
phone that claimed it, so the players' phones keep working after a restart. One connection,
used under the referee's lock.
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


@dataclass(frozen=True)
class StoredSeat:
    """A seat's secret player link and the claimant id of the phone holding it (None: free)."""

    seat: int
    token: str
    claim: str | None


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

    def save_seat(self, game_id: int, seat: StoredSeat) -> None:
        """Keep a seat's link and claim (a new game, a claim, a reset), replacing the old row."""
        self.db.execute(
            "INSERT OR REPLACE INTO seats (game_id, seat, token, claim) VALUES (?, ?, ?, ?)",
            (game_id, seat.seat, seat.token, seat.claim),
        )

    def save_seats(self, game_id: int, seats: list[StoredSeat]) -> None:
        """Keep every seat of a game at once (one transaction: all or none)."""
        with self.db:
            self.db.execute("BEGIN")
            for seat in seats:
                self.save_seat(game_id, seat)

    def seats(self, game_id: int) -> list[StoredSeat]:
        """The game's seats in seat order; empty for a game stored before links were kept."""
        return [
            StoredSeat(seat, token, claim)
            for seat, token, claim in self.db.execute(
                "SELECT seat, token, claim FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
