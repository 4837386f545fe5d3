-- The game log: append-only. A game's position is its new-game event replayed with every move
-- event after it (undo events remove the move they name), so a crash loses nothing committed.
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON
    started REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,             -- move | undo | ruling | correction
    payload TEXT NOT NULL,          -- JSON
    source TEXT NOT NULL DEFAULT '',
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, id);
